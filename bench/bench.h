/* bench_sim: simulator throughput against a native C baseline.
 *
 * A workload is one kernel source plus a generator that makes a problem
 * instance: kernel argument specs (their `init` bytes are both the device
 * buffers' contents and the native baseline's inputs), the NDRange geometry,
 * and the native function that computes the expected result on the host.
 * A workload with a host loop (BFS levels, stencil sweeps) also names the
 * step that runs between its launches. */
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
  double quick;       /* the scale --quick uses: a tiny instance for CI */
  /* Fills b (args, nd geometry, out_arg, ref) for problem scale `scale`
   * (1.0 = default size). Returns 0, or -1 when out of memory. */
  int (*make)(bench_inst *b, double scale);
  /* The native baseline: computes the result from the args' init bytes into ref. */
  void (*native)(bench_inst *b);
  /* Optional host loop: called after launch number `done` (1, 2, ...)
   * with the device, it updates device memory for the next launch and sets
   * *again, or leaves it 0 to stop. NULL = one launch. */
  int (*next)(bench_inst *b, vt_device *d, uint32_t done, int *again, vt_error *e);
} bench_workload;

struct bench_inst {
  const bench_workload *w;
  vt_karg args[BENCH_MAX_ARGS]; /* args[i].init owned */
  size_t nargs;
  vt_ndrange nd;  /* geometry; elf/kernel/args filled by the runner */
  size_t out_arg; /* argument whose buffer holds the result */
  uint8_t *ref;   /* native result, args[out_arg].size bytes, owned */
  uint32_t iters; /* launches of a fixed host loop (jacobi), else 0 */
  void *scratch;  /* the native baseline's work space, owned */
  char size[64];  /* problem size, for the table */
};

/* The workload table (bench_work.c), NULL-terminated. */
extern const bench_workload *const bench_workloads[];
/* The workloads with their own source file. */
extern const bench_workload bench_w_bfs, bench_w_jacobi, bench_w_fmath;

/* ---- building instances (bench_work.c) ---- */
uint32_t bench_lcg(uint32_t *s);
/* Appends a buffer argument of `bytes` zero bytes (the generator fills init). */
int bench_buf(bench_inst *b, uint32_t bytes);
void bench_scalar(bench_inst *b, uint32_t v);
/* Argument `out` holds the result: allocates b->ref of its size. */
int bench_ref_buf(bench_inst *b, size_t out);
/* x*scale rounded to a positive multiple of m. */
uint32_t bench_scaled(uint32_t x, double scale, uint32_t m);
void bench_geometry_1d(bench_inst *b, uint32_t global, uint32_t local);
/* Bytes of all buffer arguments: the memory the kernel can touch. */
uint64_t bench_buf_bytes(const bench_inst *b);
void bench_inst_free(bench_inst *b);

/* Assembles kernels/lib/start.S + workitem.S + the workload's source
 * (paths under srcdir) into the executable `elf`. */
int bench_assemble(const char *srcdir, const bench_workload *w, const char *elf, vt_error *e);

/* One simulated run on a fresh device: sets up the NDRange from `elf`,
 * times the launches (vt_device_launch and the host loop between them),
 * checks the result against b->ref (*ok). With `trace` non-NULL the commit
 * log is written there; with `timing` the launches run under the timing
 * model; `sets` change the configuration (bench_config). */
typedef struct {
  double secs, cpu_secs; /* wall and process CPU time of the timed part */
  double busy_secs;      /* the same less what other host threads ran beside the busiest
                            (vt_device_host_cpu): the wall time on an idle machine */
  uint64_t warp_insns, thread_insns;
  uint64_t cycles; /* timing mode: simulated cycles of all launches */
  uint32_t launches;
  int64_t peak_bytes; /* host memory growth while set up and launched, -1 = unknown */
  int ok;
} bench_sim_run;
int bench_run_sim(bench_inst *b, const char *elf, FILE *trace, int timing, unsigned host_threads,
                  const char *const *sets, int nsets, bench_sim_run *r, vt_error *e);
/* The configuration every run starts from: the defaults, no step limit,
 * then sets[0..nsets) (KEY=VALUE, as `ventus run -c`), checked. */
int bench_config(vt_config *c, const char *const *sets, int nsets, vt_error *e);

/* Native baseline: seconds per call of b->w->native, calls batched so one
 * measurement lasts at least min_secs (*calls says how many). */
double bench_run_native(bench_inst *b, double min_secs, long *calls, double *cpu_secs);

/* ---- host memory (bench_mem.c) ---- */
/* Resets the process's resident-set high-water mark and returns the
 * current resident set in bytes (-1 when /proc does not tell). */
int64_t bench_mem_mark(void);
/* The high-water mark since the last bench_mem_mark, in bytes (-1 unknown). */
int64_t bench_mem_peak(void);

/* Median of v[0..n) (sorts v). */
double bench_median(double *v, int n);
/* Monotonic clock in seconds. */
double bench_now(void);
/* CPU time of the process in seconds: on a shared machine it shows what
 * the run itself cost, whatever else the cores were doing. */
double bench_cpu_now(void);

#endif
