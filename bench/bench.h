/* bench_sim: simulator throughput against a native C baseline.
 *
 * A workload is one kernel source plus a generator that makes a problem
 * instance: kernel argument specs (their `init` bytes are both the device
 * buffers' contents and the native baseline's inputs), the NDRange geometry,
 * and the native function that computes the expected result on the host. */
#ifndef BENCH_H
#define BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ndrange.h"

#define BENCH_MAX_ARGS 6

typedef struct bench_inst bench_inst;

typedef struct {
  const char *name;   /* row name, --only NAME */
  const char *src;    /* kernel source, relative to the source tree */
  const char *kernel; /* kernel symbol */
  const char *what;   /* one line for --list */
  /* Fills b (args, nd geometry, out_arg, ref) for problem scale `scale`
   * (1.0 = default size). Returns 0, or -1 when out of memory. */
  int (*make)(bench_inst *b, double scale);
  /* The native baseline: computes the result from the args' init bytes into ref. */
  void (*native)(bench_inst *b);
} bench_workload;

struct bench_inst {
  const bench_workload *w;
  vt_karg args[BENCH_MAX_ARGS]; /* args[i].init owned */
  size_t nargs;
  vt_ndrange nd;  /* geometry; elf/kernel/args filled by the runner */
  size_t out_arg; /* argument whose buffer holds the result */
  uint8_t *ref;   /* native result, args[out_arg].size bytes, owned */
  char size[64];  /* problem size, for the table */
};

/* The workload table (bench_work.c), NULL-terminated. */
extern const bench_workload *const bench_workloads[];

void bench_inst_free(bench_inst *b);

/* Assembles kernels/lib/start.S + workitem.S + the workload's source
 * (paths under srcdir) into the executable `elf`. */
int bench_assemble(const char *srcdir, const bench_workload *w, const char *elf, vt_error *e);

/* One simulated run on a fresh device: sets up the NDRange from `elf`,
 * times vt_device_launch only, checks the result against b->ref (*ok).
 * With `trace` non-NULL the commit log is written there. */
typedef struct {
  double secs;
  uint64_t warp_insns, thread_insns;
  int ok;
} bench_sim_run;
int bench_run_sim(bench_inst *b, const char *elf, FILE *trace, bench_sim_run *r, vt_error *e);

/* Native baseline: seconds per call of b->w->native, calls batched so one
 * measurement lasts at least min_secs (*calls says how many). */
double bench_run_native(bench_inst *b, double min_secs, long *calls);

/* Median of v[0..n) (sorts v). */
double bench_median(double *v, int n);
/* Monotonic clock in seconds. */
double bench_now(void);

#endif
