/* The benchmark workloads: problem generators and native baselines. The
 * default sizes make each simulated run last roughly 0.2-1 s on a 2020s
 * x86 core (docs/performance.md); --scale multiplies them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ref_kernels.h"

uint32_t bench_lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

int bench_buf(bench_inst *b, uint32_t bytes) {
  vt_karg *a = &b->args[b->nargs++];
  memset(a, 0, sizeof *a);
  a->kind = VT_KARG_BUF;
  a->size = bytes;
  a->init = calloc(1, bytes);
  snprintf(a->spec, sizeof a->spec, "buf:zero:%u", bytes);
  return a->init ? 0 : -1;
}

void bench_scalar(bench_inst *b, uint32_t v) {
  vt_karg *a = &b->args[b->nargs++];
  memset(a, 0, sizeof *a);
  a->kind = VT_KARG_SCALAR;
  a->value = v;
  snprintf(a->spec, sizeof a->spec, "u32:%u", v);
}

int bench_ref_buf(bench_inst *b, size_t out) {
  b->out_arg = out;
  b->ref = calloc(1, b->args[out].size);
  return b->ref ? 0 : -1;
}

uint32_t bench_scaled(uint32_t x, double scale, uint32_t m) {
  double v = (double)x * scale / m + 0.5;
  uint32_t k = v < 1 ? 1 : (uint32_t)v;
  return k * m;
}

void bench_geometry_1d(bench_inst *b, uint32_t global, uint32_t local) {
  vt_ndrange_defaults(&b->nd);
  b->nd.work_dim = 1;
  b->nd.global[0] = global;
  b->nd.local[0] = local;
  b->nd.threads = 32;
}

/* A + B -> C over n floats: shared by stream and vecadd */
static int make_fadd(bench_inst *b, uint32_t n) {
  if (bench_buf(b, n * 4) || bench_buf(b, n * 4) || bench_buf(b, n * 4)) return -1;
  bench_scalar(b, n);
  float *a = (float *)b->args[0].init, *c = (float *)b->args[1].init;
  uint32_t s = 7;
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (float)(int32_t)bench_lcg(&s) / 65536.0f;
    c[i] = (float)(bench_lcg(&s) >> 8) * 1e-3f;
  }
  return bench_ref_buf(b, 2);
}

static void native_fadd(bench_inst *b) {
  ref_vecadd((const float *)b->args[0].init, (const float *)b->args[1].init, (float *)b->ref,
             b->args[3].value);
}

/* stream: 4096 work-items (128 warps of 32) each loop over n/4096 elements */
static int make_stream(bench_inst *b, double scale) {
  uint32_t g = 4096, n = bench_scaled(8u << 20, scale, g);
  bench_geometry_1d(b, g, 128);
  snprintf(b->size, sizeof b->size, "n=%u, %u items", n, g);
  return make_fadd(b, n);
}

/* vecadd: one element per work-item */
static int make_vecadd(bench_inst *b, double scale) {
  uint32_t n = bench_scaled(4u << 20, scale, 128);
  bench_geometry_1d(b, n, 128);
  snprintf(b->size, sizeof b->size, "n=%u", n);
  return make_fadd(b, n);
}

/* int32 M = K = N = m matrices; local size lx×ly */
static int make_imat(bench_inst *b, uint32_t m, uint32_t lx, uint32_t ly) {
  uint32_t k = m, n = m;
  if (bench_buf(b, m * k * 4 + 4) || bench_buf(b, k * n * 4 + 4) || bench_buf(b, m * n * 4))
    return -1;
  bench_scalar(b, m), bench_scalar(b, k), bench_scalar(b, n);
  int32_t *A = (int32_t *)b->args[0].init, *B = (int32_t *)b->args[1].init;
  uint32_t s = 99;
  for (uint32_t i = 0; i < m * k; i++) A[i] = (int32_t)(bench_lcg(&s) % 201) - 100;
  for (uint32_t i = 0; i < k * n; i++) B[i] = (int32_t)(bench_lcg(&s) % 201) - 100;
  vt_ndrange_defaults(&b->nd);
  b->nd.work_dim = 2;
  b->nd.global[0] = n;
  b->nd.global[1] = m;
  b->nd.local[0] = lx;
  b->nd.local[1] = ly;
  b->nd.threads = 32;
  snprintf(b->size, sizeof b->size, "%ux%ux%u", m, k, n);
  return bench_ref_buf(b, 2);
}

static int make_matmul(bench_inst *b, double scale) {
  return make_imat(b, bench_scaled(320, scale, 8), 8, 4);
}

/* 16×16 tiles = the work-group: 8 warps, 1 KiB warp stacks each + 2 tiles */
static int make_matmul_tiled(bench_inst *b, double scale) {
  if (make_imat(b, bench_scaled(320, scale, 16), 16, 16)) return -1;
  b->nd.lds_size = 8 * 1024 + 2 * 1024;
  return 0;
}

static void native_matmul(bench_inst *b) {
  ref_matmul((const int32_t *)b->args[0].init, (const int32_t *)b->args[1].init, (int32_t *)b->ref,
             b->args[3].value, b->args[4].value, b->args[5].value);
}

/* reduce: groups of 256 work-items = 8 warps, one sum per group */
static int make_reduce(bench_inst *b, double scale) {
  uint32_t local = 256, n = bench_scaled(2u << 20, scale, local), groups = n / local;
  if (bench_buf(b, n * 4) || bench_buf(b, groups * 4)) return -1;
  bench_scalar(b, n);
  int32_t *in = (int32_t *)b->args[0].init;
  uint32_t s = 3;
  for (uint32_t i = 0; i < n; i++) in[i] = (int32_t)bench_lcg(&s);
  bench_geometry_1d(b, n, local);
  b->nd.lds_size = (local / 32) * 1024 + local * 4;
  snprintf(b->size, sizeof b->size, "n=%u, groups of %u", n, local);
  return bench_ref_buf(b, 1);
}

static void native_reduce(bench_inst *b) {
  uint32_t n = b->args[2].value, local = b->nd.local[0];
  ref_reduce((const int32_t *)b->args[0].init, (int32_t *)b->ref, n, local, n / local);
}

/* diverge: Collatz step counts of inputs below 10000 */
static int make_diverge(bench_inst *b, double scale) {
  uint32_t n = bench_scaled(1u << 17, scale, 128);
  if (bench_buf(b, n * 4) || bench_buf(b, n * 4)) return -1;
  bench_scalar(b, n);
  uint32_t *in = (uint32_t *)b->args[0].init, s = 11;
  for (uint32_t i = 0; i < n; i++) in[i] = bench_lcg(&s) % 10000;
  bench_geometry_1d(b, n, 128);
  snprintf(b->size, sizeof b->size, "n=%u", n);
  return bench_ref_buf(b, 1);
}

static void native_diverge(bench_inst *b) {
  ref_diverge((const uint32_t *)b->args[0].init, (uint32_t *)b->ref, b->args[2].value);
}

static const bench_workload w_stream = {
    "stream",    "bench/kernels/stream.S",
    "stream",    "grid-stride fp32 add loop: 9-instruction body, no SIMT region",
    1.0 / 256,   make_stream,
    native_fadd, NULL};
static const bench_workload w_vecadd = {
    "vecadd",    "kernels/examples/vecadd.S",
    "vecadd",    "one fp32 add per work-item: start-up code and dispatch dominate",
    1.0 / 256,   make_vecadd,
    native_fadd, NULL};
static const bench_workload w_matmul = {
    "matmul",      "kernels/examples/matmul.S",
    "matmul",      "int32 matrix product, uniform loop over K with gathers",
    0.1,           make_matmul,
    native_matmul, NULL};
static const bench_workload w_matmul_tiled = {
    "matmul_tiled", "bench/kernels/matmul_tiled.S",
    "matmul_tiled", "int32 matrix product, 16x16 tiles in local memory, barriers",
    0.15,           make_matmul_tiled,
    native_matmul,  NULL};
static const bench_workload w_reduce = {
    "reduce",      "kernels/examples/reduce.S",
    "reduce",      "local-memory tree sum: barriers, divergent steps",
    1.0 / 256,     make_reduce,
    native_reduce, NULL};
static const bench_workload w_diverge = {
    "diverge",      "kernels/examples/diverge.S",
    "diverge",      "Collatz counts: nested divergence, divergent loop",
    1.0 / 64,       make_diverge,
    native_diverge, NULL};

const bench_workload *const bench_workloads[] = {
    &w_stream,  &w_vecadd,    &w_matmul,       &w_matmul_tiled, &w_reduce,
    &w_diverge, &bench_w_bfs, &bench_w_jacobi, &bench_w_fmath,  NULL};

uint64_t bench_buf_bytes(const bench_inst *b) {
  uint64_t n = 0;
  for (size_t i = 0; i < b->nargs; i++)
    if (b->args[i].kind == VT_KARG_BUF) n += b->args[i].size;
  return n;
}

void bench_inst_free(bench_inst *b) {
  for (size_t i = 0; i < b->nargs; i++) vt_karg_free(&b->args[i]);
  free(b->ref);
  free(b->scratch);
  memset(b, 0, sizeof *b);
}
