/* Running one workload instance: assembling its kernel, a timed simulated
 * launch on a fresh device, and the timed native baseline. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "asm.h"
#include "bench.h"
#include "heap.h"
#include "timing.h"
#include "trace_fmt.h"

double bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

double bench_cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double bench_median(double *v, int n) {
  if (n <= 0) return 0;
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int bench_assemble(const char *srcdir, const bench_workload *w, const char *elf, vt_error *e) {
  char p[3][1024];
  snprintf(p[0], sizeof p[0], "%s/kernels/lib/start.S", srcdir);
  snprintf(p[1], sizeof p[1], "%s/kernels/lib/workitem.S", srcdir);
  snprintf(p[2], sizeof p[2], "%s/%s", srcdir, w->src);
  const char *paths[3] = {p[0], p[1], p[2]};
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  asm_diags d = {0};
  int rc = asm_assemble_files(paths, 3, &opt, elf, &d, e);
  if (rc && d.n) { /* the first diagnostic says more than the count */
    char b[512];
    asm_diag_format(&d.v[0], b, sizeof b);
    vt_fail(e, VT_ERR_ASM, "%s", b);
  }
  asm_diags_free(&d);
  return rc;
}

static int launch(vt_device *d, const vt_launch *l, FILE *trace, double *secs, vt_error *e) {
  vt_trace_writer *tw = NULL;
  if (trace) {
    if (!(tw = vt_trace_writer_new(trace))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    vt_trace_writer_begin(tw, d, l);
  }
  double t0 = bench_now();
  int rc = vt_device_launch(d, l, e);
  if (tw) {
    if (vt_trace_writer_end(tw, d) && !rc) rc = vt_fail(e, VT_ERR_IO, "writing the trace failed");
    vt_trace_writer_free(tw);
  }
  *secs = bench_now() - t0; /* with a trace: until the last line is written */
  return rc;
}

/* Upper bound on a host loop's launches (a BFS has at most n levels; this
 * only stops a broken kernel from looping for ever). */
#define BENCH_MAX_LAUNCHES 100000u

/* The timed part: the launches and the host loop between them. */
static int launches(bench_inst *b, vt_device *d, const vt_launch *l, FILE *trace, bench_sim_run *r,
                    vt_error *e) {
  double t0 = bench_now(), c0 = bench_cpu_now();
  for (;;) {
    double t;
    if (launch(d, l, trace, &t, e)) return -1;
    r->launches++;
    int again = 0;
    if (b->w->next && b->w->next(b, d, r->launches, &again, e)) return -1;
    if (!again) break;
    if (r->launches >= BENCH_MAX_LAUNCHES)
      return vt_fail(e, VT_ERR_STEP_LIMIT, "host loop still running after %u launches",
                     r->launches);
  }
  r->secs = bench_now() - t0;
  r->cpu_secs = bench_cpu_now() - c0;
  double busiest, all;
  vt_device_host_cpu(d, &busiest, &all); /* a fresh device: this run's launches only */
  r->busy_secs = r->cpu_secs - all + busiest;
  return 0;
}

int bench_config(vt_config *c, const char *const *sets, int nsets, vt_error *e) {
  vt_config_defaults(c);
  c->max_steps = 0;
  for (int i = 0; i < nsets; i++)
    if (vt_config_override(c, sets[i], e)) return -1;
  return vt_config_check(c, e);
}

int bench_run_sim(bench_inst *b, const char *elf, FILE *trace, int timing, unsigned host_threads,
                  const char *const *sets, int nsets, bench_sim_run *r, vt_error *e) {
  memset(r, 0, sizeof *r);
  vt_config c;
  if (bench_config(&c, sets, nsets, e)) return -1;
  c.host_threads = host_threads;
  int64_t rss0 = bench_mem_mark();
  vt_device *d = vt_device_create(&c, e);
  if (!d) return -1;
  vt_timing *tm = timing ? vt_timing_attach(d, e) : NULL;
  vt_heap h;
  vt_heap_init(&h);
  b->nd.elf = elf;
  b->nd.kernel = b->w->kernel;
  b->nd.args = b->args;
  b->nd.nargs = b->nargs;
  vt_launch l;
  int rc = timing && !tm ? -1 : vt_ndrange_setup(d, &h, &b->nd, &l, e);
  if (!rc) rc = launches(b, d, &l, trace, r, e);
  int64_t hwm = bench_mem_peak();
  r->peak_bytes = rss0 < 0 || hwm < 0 ? -1 : hwm - rss0;
  const vt_karg *out = &b->args[b->out_arg];
  uint8_t *got = rc ? NULL : malloc(out->size);
  if (!rc && !got) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  if (!rc) rc = vt_mem_read(d, out->addr, got, out->size, e);
  if (!rc) {
    const vt_stats *st = vt_device_stats(d);
    r->warp_insns = st->warp_insns;
    r->thread_insns = st->thread_insns;
    r->cycles = tm ? vt_timing_get_stats(tm)->cycles : 0;
    r->ok = !memcmp(got, b->ref, out->size);
  }
  free(got);
  vt_heap_fini(&h);
  vt_timing_free(tm);
  vt_device_destroy(d);
  return rc;
}

double bench_run_native(bench_inst *b, double min_secs, long *calls, double *cpu_secs) {
  long k = *calls > 0 ? *calls : 1;
  for (;;) {
    double t0 = bench_now(), c0 = bench_cpu_now();
    for (long i = 0; i < k; i++) b->w->native(b);
    double t = bench_now() - t0;
    if (t >= min_secs || *calls > 0) {
      *calls = k;
      *cpu_secs = (bench_cpu_now() - c0) / (double)k;
      return t / (double)k;
    }
    k *= 2;
  }
}
