/* bench_sim's results: one row per workload and mode, the table and the
 * JSON object made from them. */
#ifndef BENCH_REPORT_H
#define BENCH_REPORT_H

#include <stdint.h>

#define BENCH_MAX_REPS 101
#define BENCH_MAX_SETS 16

typedef enum { BENCH_FUNCTIONAL, BENCH_TRACED, BENCH_TIMING } bench_mode;

typedef struct {
  int reps, json, quick;
  unsigned host_threads; /* config key host_threads: 0 = online CPUs */
  unsigned vs_threads;   /* --vs-threads: each rep also runs on this many, 0 = not */
  double scale, native_min, trace_scale, timing_scale; /* timing_scale 0 = no timing runs */
  const char *only, *trace, *srcdir;
  const char *sets[BENCH_MAX_SETS]; /* --set KEY=VALUE, applied to every run's configuration */
  int nsets;
} bench_options;

typedef struct {
  char name[48], label[56], size[64]; /* label: name plus "+trace" / "+timing" */
  bench_mode mode;
  double scale; /* the --scale-relative size it ran at */
  int reps, ok;
  double sim[BENCH_MAX_REPS], native[BENCH_MAX_REPS]; /* seconds, sorted once reported */
  double base[BENCH_MAX_REPS]; /* traced rows: the same instance untraced, same reps */
  double cpu[BENCH_MAX_REPS], native_cpu[BENCH_MAX_REPS]; /* process CPU seconds */
  double busy[BENCH_MAX_REPS]; /* bench_sim_run.busy_secs */
  double vs[BENCH_MAX_REPS];   /* --vs-threads: the same rep on vs_threads host threads */
  double speedup[BENCH_MAX_REPS]; /* ... and sim[i] / vs[i], that rep's pair */
  double vs_med, speedup_med, speedup_min, speedup_max;
  double sim_med, sim_min, sim_max, native_med, base_med, cpu_med, native_cpu_med, busy_med;
  uint64_t warp_insns, thread_insns, cycles;
  uint32_t launches;
  int64_t peak_bytes; /* largest over the reps, -1 = unknown */
  uint64_t buf_bytes; /* the kernel's buffers: what it can touch */
  long native_calls;
} bench_row;

/* "1.23 0.98 0.75" from /proc/loadavg, or "unknown". */
void bench_loadavg(char *buf, size_t n);

void bench_print_table(const bench_options *o, const bench_row *rows, int n, const char *load0,
                       const char *load1);
void bench_print_json(const bench_options *o, const bench_row *rows, int n, const char *load0,
                      const char *load1);

#endif
