/* bench_sim's table and JSON output (columns: bench/README.md). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench_report.h"

#ifndef VT_BUILD_TYPE
#define VT_BUILD_TYPE "unknown"
#endif

void bench_loadavg(char *buf, size_t n) {
  snprintf(buf, n, "unknown");
  FILE *f = fopen("/proc/loadavg", "r");
  if (!f) return;
  double a, b, c;
  if (fscanf(f, "%lf %lf %lf", &a, &b, &c) == 3) snprintf(buf, n, "%.2f %.2f %.2f", a, b, c);
  fclose(f);
}

static double mib(int64_t bytes) { return (double)bytes / (1024.0 * 1024.0); }

static void print_peak(const bench_row *r) {
  if (r->peak_bytes >= 0)
    printf(" %8.1f", mib(r->peak_bytes));
  else
    printf(" %8s", "n/a");
}

/* the common start of both tables: counts, wall times, CPU time, rates */
static void print_counts(const bench_row *r) {
  printf("%-13s %-26s %4u %8.1f %8.1f %7.3f %7.3f %7.3f %7.3f %7.3f %8.1f %8.1f", r->name, r->size,
         r->launches, (double)r->warp_insns / 1e6, (double)r->thread_insns / 1e6, r->sim_med,
         r->sim_min, r->sim_max, r->cpu_med, r->busy_med, (double)r->thread_insns / r->sim_med / 1e6,
         (double)r->thread_insns / r->cpu_med / 1e6);
}

static void print_functional(const bench_row *r) {
  print_counts(r);
  printf(" %10.6f %7.0f %7.0f", r->native_med, r->sim_med / r->native_med,
         r->cpu_med / r->native_cpu_med);
  print_peak(r);
  printf(" %8.1f %s\n", mib((int64_t)r->buf_bytes), r->ok ? "ok" : "MISMATCH");
}

/* The timing row's speed as a share of the functional row's of the same
 * workload (thread-instructions per wall second; the instances may differ
 * in size, --timing-scale), or a negative number without that row. */
static double vs_functional(const bench_row *rows, int n, const bench_row *r) {
  for (int i = 0; i < n; i++)
    if (rows[i].mode == BENCH_FUNCTIONAL && !strcmp(rows[i].name, r->name) && rows[i].sim_med > 0 &&
        rows[i].thread_insns && r->sim_med > 0)
      return ((double)r->thread_insns / r->sim_med) / ((double)rows[i].thread_insns / rows[i].sim_med);
  return -1;
}

static void print_timing(const bench_row *rows, int n, const bench_row *r) {
  print_counts(r);
  printf(" %11llu %6.2f", (unsigned long long)r->cycles,
         r->cycles ? (double)r->warp_insns / (double)r->cycles : 0);
  double f = vs_functional(rows, n, r);
  if (f >= 0)
    printf(" %6.1f%%", 100 * f);
  else
    printf(" %7s", "n/a");
  print_peak(r);
  printf(" %s\n", r->ok ? "ok" : "MISMATCH");
}

static void print_head(const char *mode) {
  printf("%-13s %-26s %4s %8s %8s %7s %7s %7s %7s %7s %8s %8s", mode, "size", "runs", "Mwarp-i",
         "Mthr-i", "sim s", "min s", "max s", "cpu s", "busy s", "Mthr-i/s", "Mthr/cpu");
}

static const char *mode_name(bench_mode m) {
  return m == BENCH_TIMING ? "timing" : m == BENCH_TRACED ? "traced" : "functional";
}

void bench_print_table(const bench_options *o, const bench_row *rows, int n, const char *load0,
                       const char *load1) {
  printf("bench_sim: %d rep%s (median), scale %g%s, build %s, %ld CPUs online, host_threads %u, load "
         "average %s before, %s after\n",
         o->reps, o->reps == 1 ? "" : "s", o->scale, o->quick ? " (quick sizes)" : "",
         VT_BUILD_TYPE, sysconf(_SC_NPROCESSORS_ONLN), o->host_threads, load0, load1);
  if (o->nsets) {
    printf("configuration:");
    for (int i = 0; i < o->nsets; i++) printf(" %s", o->sets[i]);
    printf("\n");
  }
  print_head("functional");
  printf(" %10s %7s %7s %8s %8s %s\n", "native s", "slowdn", "cpu-sd", "peak MiB", "buf MiB",
         "check");
  for (int i = 0; i < n; i++)
    if (rows[i].mode == BENCH_FUNCTIONAL) print_functional(&rows[i]);
  int timing = 0;
  for (int i = 0; i < n; i++) timing |= rows[i].mode == BENCH_TIMING;
  if (timing) {
    print_head("timing");
    printf(" %11s %6s %7s %8s %s\n", "cycles", "wi/cyc", "of func", "peak MiB", "check");
    for (int i = 0; i < n; i++)
      if (rows[i].mode == BENCH_TIMING) print_timing(rows, n, &rows[i]);
  }
  if (o->vs_threads) {
    printf("host threads %u against %u: sim s of each, the median of the reps' ratios (min-max)\n",
           o->host_threads, o->vs_threads);
    for (int i = 0; i < n; i++)
      if (rows[i].mode != BENCH_TRACED)
        printf("%-13s %-10s %7.3f %7.3f  %5.2fx (%.2f-%.2f)%s\n", rows[i].name, mode_name(rows[i].mode),
               rows[i].sim_med, rows[i].vs_med, rows[i].speedup_med, rows[i].speedup_min, rows[i].speedup_max,
               rows[i].ok ? "" : "  MISMATCH");
  }
  for (int i = 0; i < n; i++)
    if (rows[i].mode == BENCH_TRACED)
      printf("trace cost (%s, %s, commit log to /dev/null): %.3f s vs %.3f s untraced = %.1fx%s\n",
             rows[i].name, rows[i].size, rows[i].sim_med, rows[i].base_med,
             rows[i].sim_med / rows[i].base_med, rows[i].ok ? "" : "  MISMATCH");
}

void bench_print_json(const bench_options *o, const bench_row *rows, int n, const char *load0,
                      const char *load1) {
  printf("{\"reps\": %d, \"scale\": %g, \"quick\": %s, \"build_type\": \"%s\", \"nproc\": %ld, "
         "\"host_threads\": %u, \"vs_threads\": %u, \"loadavg_before\": \"%s\", \"loadavg_after\": \"%s\", ",
         o->reps, o->scale, o->quick ? "true" : "false", VT_BUILD_TYPE,
         sysconf(_SC_NPROCESSORS_ONLN), o->host_threads, o->vs_threads, load0, load1);
  /* the --set values are config keys and numbers or file names: printed as
   * given, with '"' and '\\' escaped */
  printf("\"sets\": [");
  for (int i = 0; i < o->nsets; i++) {
    printf("%s\"", i ? ", " : "");
    for (const char *c = o->sets[i]; *c; c++)
      if (*c == '"' || *c == '\\')
        printf("\\%c", *c);
      else if ((unsigned char)*c >= 0x20)
        putchar(*c);
    printf("\"");
  }
  printf("], \"workloads\": [");
  for (int i = 0; i < n; i++) {
    const bench_row *r = &rows[i];
    printf("%s\n  {\"name\": \"%s\", \"mode\": \"%s\", \"traced\": %s, \"scale\": %g, "
           "\"size\": \"%s\", \"launches\": %u, \"sim_median_s\": %.6f, \"sim_min_s\": %.6f, "
           "\"sim_max_s\": %.6f, \"warp_insns\": %llu, \"thread_insns\": %llu, "
           "\"warp_insns_per_s\": %.0f, \"thread_insns_per_s\": %.0f, \"native_median_s\": %.9f, "
           "\"native_calls_per_rep\": %ld, \"slowdown\": %.1f, \"cpu_median_s\": %.6f, "
           "\"thread_insns_per_cpu_s\": %.0f, \"busy_median_s\": %.6f, \"native_cpu_median_s\": %.9f, "
           "\"cpu_slowdown\": %.1f, \"peak_bytes\": %lld, "
           "\"buffer_bytes\": %llu, \"result_ok\": %s",
           i ? "," : "", r->name, mode_name(r->mode), r->mode == BENCH_TRACED ? "true" : "false",
           r->scale, r->size, r->launches, r->sim_med, r->sim_min, r->sim_max,
           (unsigned long long)r->warp_insns, (unsigned long long)r->thread_insns,
           (double)r->warp_insns / r->sim_med, (double)r->thread_insns / r->sim_med, r->native_med,
           r->native_calls, r->sim_med / r->native_med, r->cpu_med,
           (double)r->thread_insns / r->cpu_med, r->busy_med, r->native_cpu_med, r->cpu_med / r->native_cpu_med,
           (long long)r->peak_bytes, (unsigned long long)r->buf_bytes, r->ok ? "true" : "false");
    if (r->mode == BENCH_TIMING) {
      printf(", \"cycles\": %llu", (unsigned long long)r->cycles);
      double f = vs_functional(rows, n, r);
      if (f >= 0) printf(", \"vs_functional\": %.4f", f);
    }
    if (o->vs_threads && r->mode != BENCH_TRACED)
      printf(", \"vs_median_s\": %.6f, \"threads_speedup\": %.3f, \"threads_speedup_min\": %.3f, "
             "\"threads_speedup_max\": %.3f",
             r->vs_med, r->speedup_med, r->speedup_min, r->speedup_max);
    if (r->mode == BENCH_TRACED)
      printf(", \"untraced_median_s\": %.6f, \"trace_cost\": %.2f", r->base_med,
             r->sim_med / r->base_med);
    printf("}");
  }
  printf("\n]}\n");
}
