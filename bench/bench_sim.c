/* bench_sim: simulator speed per workload against a native C baseline.
 * Each repetition runs the kernel on a fresh device (only the launches are
 * timed) and the native function; medians are reported. Every workload
 * also runs under the timing model (smaller), and one with the commit-log
 * writer. See README.md. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "bench_report.h"

#ifndef VT_SOURCE_DIR
#define VT_SOURCE_DIR "."
#endif

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: bench_sim [--quick] [--reps N] [--scale F] [--only NAME[,NAME...]]\n"
      "                 [--trace NAME|none] [--trace-scale F] [--timing-scale F] [--no-timing]\n"
      "                 [--native-min SECS] [--host-threads N] [--vs-threads N]\n"
      "                 [--set KEY=VALUE]... [--src DIR] [--json] [--list]\n"
      "  --reps N          repetitions per workload (default 5; the median is reported)\n"
      "  --scale F         multiply every problem size by F (default 1; sizes are limited\n"
      "                    to 16 times the default, --trace-scale and --timing-scale included)\n"
      "  --only LIST       run only these workloads (comma-separated)\n"
      "  --trace NAME      also run NAME with the commit-log writer to /dev/null (default stream)\n"
      "  --trace-scale F   size of the traced run, times --scale (default 0.125); each of\n"
      "                    its reps also runs the same instance untraced for the ratio\n"
      "  --timing-scale F  size of each workload's run under the timing model, times --scale\n"
      "                    (default 0.25)\n"
      "  --no-timing       no timing-model runs\n"
      "  --native-min S    batch native calls so one measurement lasts >= S seconds (default "
      "0.05)\n"
      "  --host-threads N  host threads per launch (config key host_threads; default 0 =\n"
      "                    online CPUs, one under the timing model; 1 = single-threaded)\n"
      "  --vs-threads N    each rep also runs on N host threads (2..256), right after or\n"
      "                    before the run on --host-threads (default then 1), alternately;\n"
      "                    reports the median of the reps' ratios (the speed-up), functional\n"
      "                    and timing runs\n"
      "  --set KEY=VALUE   a configuration key for every run (as ventus run -c; up to %d;\n"
      "                    host_threads is --host-threads' and max_steps stays 0)\n"
      "  --quick           tiny instances for CI: each workload at its own small size (times\n"
      "                    --scale) in every mode, 1 rep, no batching; results are checked,\n"
      "                    times mean nothing (implies --reps 1 --native-min 0\n"
      "                    --trace-scale 1 --timing-scale 1)\n"
      "  --src DIR         source tree holding kernels/ and bench/ (default %s)\n"
      "  --json            one JSON object instead of the table\n"
      "  --list            list the workloads\n"
      "exit status: 0 every result matched its C reference, 1 a mismatch or a failed run,\n"
      "2 usage\n",
      BENCH_MAX_SETS, VT_SOURCE_DIR);
}

/* Problem sizes are 32-bit: --scale times --trace-scale or --timing-scale
 * stays at most this (every buffer then fits in the device's heap). */
#define MAX_SCALE 16.0

/* A number in (0, max] (or [0, max] with zero_ok) filling all of v. */
static int number(const char *opt, const char *v, int zero_ok, double max, double *out) {
  char *end;
  double x = strtod(v, &end);
  if (end == v || *end || !(x > 0 || (zero_ok && x == 0)) || !(x <= max)) {
    fprintf(stderr, "bench_sim: %s %s: expected a number %s 0 and <= %g (see --help)\n", opt, v,
            zero_ok ? ">=" : ">", max);
    return -1;
  }
  *out = x;
  return 0;
}

static int known(const char *opt, const char *list) {
  for (const char *p = list; *p;) {
    const char *c = strchr(p, ',');
    size_t len = c ? (size_t)(c - p) : strlen(p);
    int found = 0;
    for (const bench_workload *const *w = bench_workloads; *w; w++)
      found |= strlen((*w)->name) == len && !strncmp(p, (*w)->name, len);
    if (!found) {
      fprintf(stderr, "bench_sim: %s: no workload '%.*s' (see --list)\n", opt, (int)len, p);
      return 0;
    }
    p += len + (c != NULL);
  }
  return 1;
}

/* An option taking a value (parse() lists them): 0 set, -1 bad value (said so). */
static int value_option(bench_options *o, const char *a, const char *v) {
  double x;
  if (!strcmp(a, "--reps")) {
    if (number(a, v, 0, BENCH_MAX_REPS, &x)) return -1;
    if (x != (int)x) {
      fprintf(stderr, "bench_sim: --reps %s: expected a whole number 1..%d (see --help)\n", v,
              BENCH_MAX_REPS);
      return -1;
    }
    o->reps = (int)x;
    return 0;
  }
  if (!strcmp(a, "--scale")) return number(a, v, 0, MAX_SCALE, &o->scale);
  if (!strcmp(a, "--trace-scale")) return number(a, v, 0, MAX_SCALE, &o->trace_scale);
  if (!strcmp(a, "--timing-scale")) return number(a, v, 0, MAX_SCALE, &o->timing_scale);
  if (!strcmp(a, "--native-min")) return number(a, v, 1, 60, &o->native_min);
  if (!strcmp(a, "--host-threads")) {
    if (number(a, v, 1, VT_MAX_HOST_THREADS, &x)) return -1;
    if (x != (int)x) {
      fprintf(stderr, "bench_sim: --host-threads %s: expected a whole number 0..%u (see --help)\n", v,
              VT_MAX_HOST_THREADS);
      return -1;
    }
    o->host_threads = (unsigned)x;
    return 0;
  }
  if (!strcmp(a, "--vs-threads")) {
    if (number(a, v, 0, VT_MAX_HOST_THREADS, &x)) return -1;
    if (x != (int)x || x < 2) {
      fprintf(stderr, "bench_sim: --vs-threads %s: expected a whole number 2..%u (see --help)\n", v,
              VT_MAX_HOST_THREADS);
      return -1;
    }
    o->vs_threads = (unsigned)x;
    return 0;
  }
  if (!strcmp(a, "--only")) {
    if (!known(a, v)) return -1;
    o->only = v;
    return 0;
  }
  if (!strcmp(a, "--trace")) {
    if (strcmp(v, "none") && strchr(v, ',')) {
      fprintf(stderr, "bench_sim: --trace takes one workload or none\n");
      return -1;
    }
    if (strcmp(v, "none") && !known(a, v)) return -1;
    o->trace = v;
    return 0;
  }
  if (!strcmp(a, "--set")) {
    if (o->nsets == BENCH_MAX_SETS) {
      fprintf(stderr, "bench_sim: --set: at most %d of them\n", BENCH_MAX_SETS);
      return -1;
    }
    vt_config c;
    vt_error e;
    o->sets[o->nsets++] = v;
    if (bench_config(&c, o->sets, o->nsets, &e)) {
      char m[512];
      vt_err_format(&e, m, sizeof m);
      fprintf(stderr, "bench_sim: --set %s: %s\n", v, m);
      return -1;
    }
    return 0;
  }
  o->srcdir = v; /* --src */
  return 0;
}

static int parse(int argc, char **argv, bench_options *o) {
  *o = (bench_options){5, 0, 0, 0, 0, 1.0, 0.05, 0.125, 0.25, NULL, "stream", VT_SOURCE_DIR, {NULL}, 0};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--json"))
      o->json = 1;
    else if (!strcmp(a, "--quick"))
      o->quick = 1;
    else if (!strcmp(a, "--no-timing"))
      o->timing_scale = 0;
    else if (!strcmp(a, "--list")) {
      for (const bench_workload *const *w = bench_workloads; *w; w++)
        printf("%-13s %-30s %s\n", (*w)->name, (*w)->src, (*w)->what);
      exit(0);
    } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      exit(0);
    } else {
      static const char *const with_value[] = {"--reps",         "--scale",      "--trace-scale",
                                               "--timing-scale", "--native-min", "--only",
                                               "--trace",        "--src",        "--host-threads",
                                               "--vs-threads",   "--set"};
      size_t k = 0, n = sizeof with_value / sizeof with_value[0];
      while (k < n && strcmp(a, with_value[k])) k++;
      if (k == n) {
        fprintf(stderr, "bench_sim: unknown option %s (see --help)\n", a);
        return -1;
      }
      if (i + 1 >= argc) {
        fprintf(stderr, "bench_sim: %s needs a value (see --help)\n", a);
        return -1;
      }
      if (value_option(o, a, argv[++i])) return -1;
    }
  }
  if (o->scale * (o->trace_scale > o->timing_scale ? o->trace_scale : o->timing_scale) >
      MAX_SCALE * (1 + 1e-9)) {
    fprintf(stderr, "bench_sim: --scale times --trace-scale or --timing-scale must be at most %g\n",
            MAX_SCALE);
    return -1;
  }
  char start[1024];
  snprintf(start, sizeof start, "%s/kernels/lib/start.S", o->srcdir);
  if (access(start, R_OK)) {
    fprintf(stderr, "bench_sim: --src %s: no readable kernels/lib/start.S there\n", o->srcdir);
    return -1;
  }
  if (o->vs_threads && !o->host_threads) o->host_threads = 1; /* the pair's other side */
  if (o->vs_threads && o->vs_threads == o->host_threads) {
    fprintf(stderr, "bench_sim: --vs-threads %u is --host-threads as well: nothing to compare\n", o->vs_threads);
    return -1;
  }
  if (o->quick) {
    o->reps = 1;
    o->native_min = 0;
    o->trace_scale = 1;
    if (o->timing_scale > 0) o->timing_scale = 1;
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

static const char *mode_suffix(bench_mode m) {
  return m == BENCH_TRACED ? "+trace" : m == BENCH_TIMING ? "+timing" : "";
}

/* Runs one workload in one mode into r; prints progress on stderr. */
static int measure(const bench_options *o, const bench_workload *w, bench_mode mode, bench_row *r) {
  memset(r, 0, sizeof *r);
  snprintf(r->name, sizeof r->name, "%s", w->name);
  snprintf(r->label, sizeof r->label, "%s%s", w->name, mode_suffix(mode));
  r->mode = mode;
  r->scale = (o->quick ? w->quick : 1.0) * (mode == BENCH_TRACED   ? o->trace_scale
                                            : mode == BENCH_TIMING ? o->timing_scale
                                                                   : 1);
  r->peak_bytes = -1;
  char elf[256];
  snprintf(elf, sizeof elf, "%s/bench_sim_%s_%d.elf", P_tmpdir, w->name, (int)getpid());
  vt_error e;
  bench_inst b;
  memset(&b, 0, sizeof b);
  b.w = w;
  FILE *trace = NULL;
  int rc = -1;
  if (bench_assemble(o->srcdir, w, elf, &e)) goto out;
  if (w->make(&b, o->scale * r->scale)) {
    vt_fail(&e, VT_ERR_NOMEM, "out of memory");
    goto out;
  }
  snprintf(r->size, sizeof r->size, "%s", b.size);
  r->buf_bytes = bench_buf_bytes(&b);
  if (mode == BENCH_TRACED && !(trace = fopen("/dev/null", "w"))) {
    vt_fail(&e, VT_ERR_IO, "/dev/null: cannot open");
    goto out;
  }
  r->reps = o->reps;
  r->ok = 1;
  for (int i = 0; i < o->reps; i++) {
    r->native[i] = bench_run_native(&b, o->native_min, &r->native_calls,
                                    &r->native_cpu[i]); /* also fills b.ref */
    bench_sim_run s, v;
    /* the pair of --vs-threads in turns, so that a drift of the machine's
     * speed weighs on both sides alike */
    int pair = o->vs_threads && mode != BENCH_TRACED, vs_first = pair && (i & 1);
    int timed = mode == BENCH_TIMING;
    if (vs_first && bench_run_sim(&b, elf, NULL, timed, o->vs_threads, o->sets, o->nsets, &v, &e)) goto out;
    if (bench_run_sim(&b, elf, trace, timed, o->host_threads, o->sets, o->nsets, &s, &e)) goto out;
    if (pair && !vs_first && bench_run_sim(&b, elf, NULL, timed, o->vs_threads, o->sets, o->nsets, &v, &e))
      goto out;
    if (pair) {
      r->vs[i] = v.secs;
      r->speedup[i] = s.secs / v.secs;
      r->ok &= v.ok;
      /* timing mode: the same cycles whatever the threads (a functional
       * launch of a racy kernel, bfs, may take other paths to its result) */
      if (mode == BENCH_TIMING && (v.cycles != s.cycles || v.warp_insns != s.warp_insns)) {
        fprintf(stderr, "bench_sim: %s: %llu cycles and %llu warp-instructions on %u host threads, %llu and %llu on %u\n",
                r->label, (unsigned long long)v.cycles, (unsigned long long)v.warp_insns, o->vs_threads,
                (unsigned long long)s.cycles, (unsigned long long)s.warp_insns, o->host_threads);
        r->ok = 0;
      }
    }
    r->sim[i] = s.secs;
    r->cpu[i] = s.cpu_secs;
    r->busy[i] = s.busy_secs;
    r->ok &= s.ok;
    r->warp_insns = s.warp_insns;
    r->thread_insns = s.thread_insns;
    r->cycles = s.cycles;
    r->launches = s.launches;
    if (s.peak_bytes > r->peak_bytes) r->peak_bytes = s.peak_bytes;
    if (mode == BENCH_TRACED) {
      bench_sim_run u;
      if (bench_run_sim(&b, elf, NULL, 0, o->host_threads, o->sets, o->nsets, &u, &e)) goto out;
      r->base[i] = u.secs;
    }
    if (pair)
      fprintf(stderr, "  %-20s rep %d: sim %.3f s, on %u host threads %.3f s, native %.6f s%s\n", r->label,
              i + 1, s.secs, o->vs_threads, v.secs, r->native[i], s.ok && v.ok ? "" : "  RESULT MISMATCH");
    else
      fprintf(stderr, "  %-20s rep %d: sim %.3f s, native %.6f s%s\n", r->label, i + 1, s.secs, r->native[i],
              s.ok ? "" : "  RESULT MISMATCH");
  }
  r->sim_med = bench_median(r->sim, r->reps);
  r->sim_min = r->sim[0];
  r->sim_max = r->sim[r->reps - 1];
  r->native_med = bench_median(r->native, r->reps);
  r->base_med = bench_median(r->base, r->reps);
  r->cpu_med = bench_median(r->cpu, r->reps);
  r->busy_med = bench_median(r->busy, r->reps);
  r->native_cpu_med = bench_median(r->native_cpu, r->reps);
  if (o->vs_threads && mode != BENCH_TRACED) {
    r->vs_med = bench_median(r->vs, r->reps);
    r->speedup_med = bench_median(r->speedup, r->reps); /* sorts: then min and max */
    r->speedup_min = r->speedup[0];
    r->speedup_max = r->speedup[r->reps - 1];
  }
  rc = 0;
out:
  if (rc) {
    char m[512];
    vt_err_format(&e, m, sizeof m);
    fprintf(stderr, "bench_sim: %s: %s\n", r->label, m);
  }
  if (trace) fclose(trace);
  bench_inst_free(&b);
  unlink(elf);
  return rc;
}

int main(int argc, char **argv) {
  bench_options o;
  if (parse(argc, argv, &o)) return 2;
  enum { MAX_ROWS = 48 };
  bench_row *rows = calloc(MAX_ROWS, sizeof *rows);
  if (!rows) {
    fprintf(stderr, "bench_sim: out of memory\n");
    return 1;
  }
  char load0[64], load1[64];
  bench_loadavg(load0, sizeof load0);
  int n = 0, rc = 0;
  for (const bench_workload *const *w = bench_workloads; *w && n <= MAX_ROWS - 3; w++) {
    if (!selected(o.only, (*w)->name)) continue;
    bench_mode modes[3] = {BENCH_FUNCTIONAL, BENCH_TIMING, BENCH_TRACED};
    for (int m = 0; m < 3; m++) {
      if (modes[m] == BENCH_TIMING && o.timing_scale == 0) continue;
      if (modes[m] == BENCH_TRACED && strcmp(o.trace, (*w)->name)) continue;
      if (measure(&o, *w, modes[m], &rows[n]))
        rc = 1;
      else
        n++;
    }
  }
  for (int i = 0; i < n; i++)
    if (!rows[i].ok) rc = 1;
  bench_loadavg(load1, sizeof load1);
  if (o.json)
    bench_print_json(&o, rows, n, load0, load1);
  else
    bench_print_table(&o, rows, n, load0, load1);
  free(rows);
  return rc;
}
