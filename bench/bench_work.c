/* The benchmark workloads: problem generators and native baselines. The
 * default sizes make each simulated run last roughly 0.2-1 s on a 2020s
 * x86 core (docs/performance.md); --scale multiplies them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ref_kernels.h"

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

/* A buffer argument of `bytes` zero bytes (the generator fills init). */
static int buf(bench_inst *b, uint32_t bytes) {
  vt_karg *a = &b->args[b->nargs++];
  memset(a, 0, sizeof *a);
  a->kind = VT_KARG_BUF;
  a->size = bytes;
  a->init = calloc(1, bytes);
  snprintf(a->spec, sizeof a->spec, "buf:zero:%u", bytes);
  return a->init ? 0 : -1;
}

static void scalar(bench_inst *b, uint32_t v) {
  vt_karg *a = &b->args[b->nargs++];
  memset(a, 0, sizeof *a);
  a->kind = VT_KARG_SCALAR;
  a->value = v;
  snprintf(a->spec, sizeof a->spec, "u32:%u", v);
}

static int ref_buf(bench_inst *b, size_t out) {
  b->out_arg = out;
  b->ref = calloc(1, b->args[out].size);
  return b->ref ? 0 : -1;
}

/* round x*scale to a positive multiple of m */
static uint32_t scaled(uint32_t x, double scale, uint32_t m) {
  double v = (double)x * scale / m + 0.5;
  uint32_t k = v < 1 ? 1 : (uint32_t)v;
  return k * m;
}

static void geometry_1d(bench_inst *b, uint32_t global, uint32_t local) {
  vt_ndrange_defaults(&b->nd);
  b->nd.work_dim = 1;
  b->nd.global[0] = global;
  b->nd.local[0] = local;
  b->nd.threads = 32;
}

/* A + B -> C over n floats: shared by stream and vecadd */
static int make_fadd(bench_inst *b, uint32_t n) {
  if (buf(b, n * 4) || buf(b, n * 4) || buf(b, n * 4)) return -1;
  scalar(b, n);
  float *a = (float *)b->args[0].init, *c = (float *)b->args[1].init;
  uint32_t s = 7;
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (float)(int32_t)lcg(&s) / 65536.0f;
    c[i] = (float)(lcg(&s) >> 8) * 1e-3f;
  }
  return ref_buf(b, 2);
}

static void native_fadd(bench_inst *b) {
  ref_vecadd((const float *)b->args[0].init, (const float *)b->args[1].init, (float *)b->ref,
             b->args[3].value);
}

/* stream: 4096 work-items (128 warps of 32) each loop over n/4096 elements */
static int make_stream(bench_inst *b, double scale) {
  uint32_t g = 4096, n = scaled(8u << 20, scale, g);
  geometry_1d(b, g, 128);
  snprintf(b->size, sizeof b->size, "n=%u, %u items", n, g);
  return make_fadd(b, n);
}

/* vecadd: one element per work-item */
static int make_vecadd(bench_inst *b, double scale) {
  uint32_t n = scaled(4u << 20, scale, 128);
  geometry_1d(b, n, 128);
  snprintf(b->size, sizeof b->size, "n=%u", n);
  return make_fadd(b, n);
}

static int make_matmul(bench_inst *b, double scale) {
  uint32_t m = scaled(320, scale, 8), k = m, n = m;
  if (buf(b, m * k * 4 + 4) || buf(b, k * n * 4 + 4) || buf(b, m * n * 4)) return -1;
  scalar(b, m), scalar(b, k), scalar(b, n);
  int32_t *A = (int32_t *)b->args[0].init, *B = (int32_t *)b->args[1].init;
  uint32_t s = 99;
  for (uint32_t i = 0; i < m * k; i++) A[i] = (int32_t)(lcg(&s) % 201) - 100;
  for (uint32_t i = 0; i < k * n; i++) B[i] = (int32_t)(lcg(&s) % 201) - 100;
  vt_ndrange_defaults(&b->nd);
  b->nd.work_dim = 2;
  b->nd.global[0] = n;
  b->nd.global[1] = m;
  b->nd.local[0] = 8;
  b->nd.local[1] = 4;
  b->nd.threads = 32;
  snprintf(b->size, sizeof b->size, "%ux%ux%u", m, k, n);
  return ref_buf(b, 2);
}

static void native_matmul(bench_inst *b) {
  ref_matmul((const int32_t *)b->args[0].init, (const int32_t *)b->args[1].init, (int32_t *)b->ref,
             b->args[3].value, b->args[4].value, b->args[5].value);
}

/* reduce: groups of 256 work-items = 8 warps, one sum per group */
static int make_reduce(bench_inst *b, double scale) {
  uint32_t local = 256, n = scaled(2u << 20, scale, local), groups = n / local;
  if (buf(b, n * 4) || buf(b, groups * 4)) return -1;
  scalar(b, n);
  int32_t *in = (int32_t *)b->args[0].init;
  uint32_t s = 3;
  for (uint32_t i = 0; i < n; i++) in[i] = (int32_t)lcg(&s);
  geometry_1d(b, n, local);
  b->nd.lds_size = (local / 32) * 1024 + local * 4;
  snprintf(b->size, sizeof b->size, "n=%u, groups of %u", n, local);
  return ref_buf(b, 1);
}

static void native_reduce(bench_inst *b) {
  uint32_t n = b->args[2].value, local = b->nd.local[0];
  ref_reduce((const int32_t *)b->args[0].init, (int32_t *)b->ref, n, local, n / local);
}

/* diverge: Collatz step counts of inputs below 10000 */
static int make_diverge(bench_inst *b, double scale) {
  uint32_t n = scaled(1u << 17, scale, 128);
  if (buf(b, n * 4) || buf(b, n * 4)) return -1;
  scalar(b, n);
  uint32_t *in = (uint32_t *)b->args[0].init, s = 11;
  for (uint32_t i = 0; i < n; i++) in[i] = lcg(&s) % 10000;
  geometry_1d(b, n, 128);
  snprintf(b->size, sizeof b->size, "n=%u", n);
  return ref_buf(b, 1);
}

static void native_diverge(bench_inst *b) {
  ref_diverge((const uint32_t *)b->args[0].init, (uint32_t *)b->ref, b->args[2].value);
}

static const bench_workload w_stream = {
    "stream",    "bench/kernels/stream.S",
    "stream",    "grid-stride fp32 add loop: 9-instruction body, no SIMT region",
    make_stream, native_fadd};
static const bench_workload w_vecadd = {
    "vecadd",    "kernels/examples/vecadd.S",
    "vecadd",    "one fp32 add per work-item: start-up code and dispatch dominate",
    make_vecadd, native_fadd};
static const bench_workload w_matmul = {
    "matmul",    "kernels/examples/matmul.S",
    "matmul",    "int32 matrix product, uniform loop over K with gathers",
    make_matmul, native_matmul};
static const bench_workload w_reduce = {
    "reduce",    "kernels/examples/reduce.S",
    "reduce",    "local-memory tree sum: barriers, divergent steps",
    make_reduce, native_reduce};
static const bench_workload w_diverge = {
    "diverge",    "kernels/examples/diverge.S",
    "diverge",    "Collatz counts: nested divergence, divergent loop",
    make_diverge, native_diverge};

const bench_workload *const bench_workloads[] = {&w_stream, &w_vecadd,  &w_matmul,
                                                 &w_reduce, &w_diverge, NULL};

void bench_inst_free(bench_inst *b) {
  for (size_t i = 0; i < b->nargs; i++) vt_karg_free(&b->args[i]);
  free(b->ref);
  memset(b, 0, sizeof *b);
}
