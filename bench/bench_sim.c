/* bench_sim: simulator speed per workload against a native C baseline.
 * Each repetition runs the kernel on a fresh device (only the launch is
 * timed) and the native function; medians are reported. See README.md. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#ifndef VT_SOURCE_DIR
#define VT_SOURCE_DIR "."
#endif
#ifndef VT_BUILD_TYPE
#define VT_BUILD_TYPE "unknown"
#endif

#define MAX_REPS 101

typedef struct {
  int reps, json;
  double scale, native_min, trace_scale;
  const char *only, *trace, *srcdir;
} options;

typedef struct {
  char name[48], size[64];
  int reps, ok;
  double sim[MAX_REPS], native[MAX_REPS]; /* seconds, sorted once reported */
  double base[MAX_REPS];                  /* traced rows: the same instance untraced, same reps */
  double sim_med, sim_min, sim_max, native_med, base_med;
  uint64_t warp_insns, thread_insns;
  long native_calls;
  int traced;
} row;

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: bench_sim [--reps N] [--scale F] [--only NAME[,NAME...]] [--trace NAME|none]\n"
      "                 [--trace-scale F] [--native-min SECS] [--src DIR] [--json] [--list]\n"
      "  --reps N          repetitions per workload (default 5; the median is reported)\n"
      "  --scale F         multiply every problem size by F (default 1)\n"
      "  --only LIST       run only these workloads (comma-separated)\n"
      "  --trace NAME      also run NAME with the commit-log writer to /dev/null (default stream)\n"
      "  --trace-scale F   size of the traced run, times --scale (default 0.125); each of\n"
      "                    its reps also runs the same instance untraced for the ratio\n"
      "  --native-min S    batch native calls so one measurement lasts >= S seconds (default "
      "0.05)\n"
      "  --src DIR         source tree holding kernels/ and bench/ (default %s)\n"
      "  --json            one JSON object instead of the table\n"
      "  --list            list the workloads\n",
      VT_SOURCE_DIR);
}

static int parse(int argc, char **argv, options *o) {
  *o = (options){5, 0, 1.0, 0.05, 0.125, NULL, "stream", VT_SOURCE_DIR};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--json"))
      o->json = 1;
    else if (!strcmp(a, "--list")) {
      for (const bench_workload *const *w = bench_workloads; *w; w++)
        printf("%-8s %-28s %s\n", (*w)->name, (*w)->src, (*w)->what);
      exit(0);
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else if (!v) {
      fprintf(stderr, "bench_sim: %s: unknown option or missing value\n", a);
      return -1;
    } else if (!strcmp(a, "--reps"))
      o->reps = atoi(v), i++;
    else if (!strcmp(a, "--scale"))
      o->scale = atof(v), i++;
    else if (!strcmp(a, "--trace-scale"))
      o->trace_scale = atof(v), i++;
    else if (!strcmp(a, "--native-min"))
      o->native_min = atof(v), i++;
    else if (!strcmp(a, "--only"))
      o->only = v, i++;
    else if (!strcmp(a, "--trace"))
      o->trace = v, i++;
    else if (!strcmp(a, "--src"))
      o->srcdir = v, i++;
    else {
      fprintf(stderr, "bench_sim: unknown option %s\n", a);
      return -1;
    }
  }
  if (o->reps < 1 || o->reps > MAX_REPS || !(o->scale > 0) || !(o->trace_scale > 0) ||
      o->native_min < 0) {
    fprintf(stderr,
            "bench_sim: --reps must be 1..%d, --scale and --trace-scale > 0, --native-min >= 0\n",
            MAX_REPS);
    return -1;
  }
  return 0;
}

static int selected(const char *list, const char *name) {
  if (!list) return 1;
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    if (len == n && !strncmp(p, name, n)) return 1;
    p += len + (c != NULL);
  }
  return 0;
}

/* Runs one workload (traced or not) into r; prints progress on stderr. */
static int measure(const options *o, const bench_workload *w, int traced, row *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s%s", w->name, traced ? "+trace" : "");
  r->traced = traced;
  char elf[256];
  snprintf(elf, sizeof elf, "%s/bench_sim_%s_%d.elf", P_tmpdir, w->name, (int)getpid());
  vt_error e;
  bench_inst b;
  memset(&b, 0, sizeof b);
  b.w = w;
  FILE *trace = NULL;
  int rc = -1;
  if (bench_assemble(o->srcdir, w, elf, &e)) goto out;
  if (w->make(&b, traced ? o->scale * o->trace_scale : o->scale)) {
    vt_fail(&e, VT_ERR_NOMEM, "out of memory");
    goto out;
  }
  snprintf(r->size, sizeof r->size, "%s", b.size);
  if (traced && !(trace = fopen("/dev/null", "w"))) {
    vt_fail(&e, VT_ERR_IO, "/dev/null: cannot open");
    goto out;
  }
  r->reps = o->reps;
  r->ok = 1;
  for (int i = 0; i < o->reps; i++) {
    r->native[i] = bench_run_native(&b, o->native_min, &r->native_calls); /* also fills b.ref */
    bench_sim_run s;
    if (bench_run_sim(&b, elf, trace, &s, &e)) goto out;
    r->sim[i] = s.secs;
    r->ok &= s.ok;
    r->warp_insns = s.warp_insns;
    r->thread_insns = s.thread_insns;
    if (traced) {
      bench_sim_run u;
      if (bench_run_sim(&b, elf, NULL, &u, &e)) goto out;
      r->base[i] = u.secs;
    }
    fprintf(stderr, "  %-14s rep %d: sim %.3f s, native %.6f s%s\n", r->name, i + 1, s.secs,
            r->native[i], s.ok ? "" : "  RESULT MISMATCH");
  }
  r->sim_med = bench_median(r->sim, r->reps);
  r->sim_min = r->sim[0];
  r->sim_max = r->sim[r->reps - 1];
  r->native_med = bench_median(r->native, r->reps);
  r->base_med = bench_median(r->base, r->reps);
  rc = 0;
out:
  if (rc) {
    char m[512];
    vt_err_format(&e, m, sizeof m);
    fprintf(stderr, "bench_sim: %s: %s\n", w->name, m);
  }
  if (trace) fclose(trace);
  bench_inst_free(&b);
  unlink(elf);
  return rc;
}

static void print_table(const options *o, const row *rows, int n) {
  printf("bench_sim: %d reps (median), scale %g, build %s, %ld CPUs online\n", o->reps, o->scale,
         VT_BUILD_TYPE, sysconf(_SC_NPROCESSORS_ONLN));
  printf("%-14s %-24s %9s %9s %9s %10s %10s %11s %9s %s\n", "workload", "size", "sim s", "min s",
         "max s", "Mwarp-i/s", "Mthr-i/s", "native s", "slowdown", "check");
  for (int i = 0; i < n; i++) {
    const row *r = &rows[i];
    printf("%-14s %-24s %9.3f %9.3f %9.3f %10.2f %10.2f %11.6f %9.0f %s\n", r->name, r->size,
           r->sim_med, r->sim_min, r->sim_max, (double)r->warp_insns / r->sim_med / 1e6,
           (double)r->thread_insns / r->sim_med / 1e6, r->native_med, r->sim_med / r->native_med,
           r->ok ? "ok" : "MISMATCH");
  }
  for (int i = 0; i < n; i++)
    if (rows[i].traced)
      printf("trace cost (%s, commit log to /dev/null): %.3f s vs %.3f s untraced at the same size "
             "= %.1fx\n",
             rows[i].name, rows[i].sim_med, rows[i].base_med, rows[i].sim_med / rows[i].base_med);
}

static void print_json(const options *o, const row *rows, int n) {
  printf("{\"reps\": %d, \"scale\": %g, \"build_type\": \"%s\", \"nproc\": %ld, \"workloads\": [",
         o->reps, o->scale, VT_BUILD_TYPE, sysconf(_SC_NPROCESSORS_ONLN));
  for (int i = 0; i < n; i++) {
    const row *r = &rows[i];
    printf(
        "%s\n  {\"name\": \"%s\", \"size\": \"%s\", \"traced\": %s, \"sim_median_s\": %.6f, "
        "\"sim_min_s\": %.6f, \"sim_max_s\": %.6f, \"warp_insns\": %llu, \"thread_insns\": %llu, "
        "\"warp_insns_per_s\": %.0f, \"thread_insns_per_s\": %.0f, \"native_median_s\": %.9f, "
        "\"native_calls_per_rep\": %ld, \"slowdown\": %.1f, \"result_ok\": %s",
        i ? "," : "", r->name, r->size, r->traced ? "true" : "false", r->sim_med, r->sim_min,
        r->sim_max, (unsigned long long)r->warp_insns, (unsigned long long)r->thread_insns,
        (double)r->warp_insns / r->sim_med, (double)r->thread_insns / r->sim_med, r->native_med,
        r->native_calls, r->sim_med / r->native_med, r->ok ? "true" : "false");
    if (r->traced)
      printf(", \"untraced_median_s\": %.6f, \"trace_cost\": %.2f", r->base_med,
             r->sim_med / r->base_med);
    printf("}");
  }
  printf("\n]}\n");
}

int main(int argc, char **argv) {
  options o;
  if (parse(argc, argv, &o)) {
    usage(stderr);
    return 2;
  }
  enum { MAX_ROWS = 16 };
  row *rows = calloc(MAX_ROWS, sizeof *rows);
  if (!rows) return 1;
  int n = 0, rc = 0;
  for (const bench_workload *const *w = bench_workloads; *w && n < MAX_ROWS - 1; w++) {
    if (!selected(o.only, (*w)->name)) continue;
    if (measure(&o, *w, 0, &rows[n]))
      rc = 1;
    else
      n++;
    if (strcmp(o.trace, (*w)->name)) continue;
    if (measure(&o, *w, 1, &rows[n]))
      rc = 1;
    else
      n++;
  }
  for (int i = 0; i < n; i++)
    if (!rows[i].ok) rc = 1;
  if (o.json)
    print_json(&o, rows, n);
  else
    print_table(&o, rows, n);
  free(rows);
  return rc;
}
