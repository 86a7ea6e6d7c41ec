/* The jacobi workload: a W×H fp32 grid, the host loop over sweeps, and the
 * same sweeps in plain C. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define JACOBI_SWEEPS 10 /* even: the result ends in buffer a */

/* args: a, b, W, H, ctl; local size 32×4 */
static int make_jacobi(bench_inst *b, double scale) {
  uint32_t w = bench_scaled(512, scale, 32), h = bench_scaled(512, scale, 32);
  if (bench_buf(b, w * h * 4) || bench_buf(b, w * h * 4)) return -1;
  bench_scalar(b, w);
  bench_scalar(b, h);
  if (bench_buf(b, 4)) return -1;
  float *a = (float *)b->args[0].init;
  uint32_t s = 23;
  for (uint32_t i = 0; i < w * h; i++) a[i] = (float)(bench_lcg(&s) >> 8) * 0x1p-24f;
  vt_ndrange_defaults(&b->nd);
  b->nd.work_dim = 2;
  b->nd.global[0] = w;
  b->nd.global[1] = h;
  b->nd.local[0] = 32;
  b->nd.local[1] = 4;
  b->nd.threads = 32;
  b->iters = JACOBI_SWEEPS;
  snprintf(b->size, sizeof b->size, "%ux%u, %u sweeps", w, h, b->iters);
  if (!(b->scratch = malloc((size_t)w * h * 4))) return -1;
  return bench_ref_buf(b, 0);
}

static void sweep(const float *src, float *dst, uint32_t w, uint32_t h) {
  for (uint32_t i = 0; i < h; i++)
    for (uint32_t j = 0; j < w; j++) {
      size_t c = (size_t)i * w + j;
      if (i == 0 || j == 0 || i == h - 1 || j == w - 1)
        dst[c] = src[c];
      else
        dst[c] = 0.25f * (((src[c - w] + src[c + w]) + src[c - 1]) + src[c + 1]);
    }
}

static void native_jacobi(bench_inst *b) {
  uint32_t w = b->args[2].value, h = b->args[3].value;
  float *a = (float *)b->ref, *t = b->scratch;
  memcpy(a, b->args[0].init, (size_t)w * h * 4);
  for (uint32_t k = 0; k < b->iters; k += 2) {
    sweep(a, t, w, h);
    sweep(t, a, w, h);
  }
}

/* After sweep `done`: the next one reads what it wrote. */
static int next_jacobi(bench_inst *b, vt_device *d, uint32_t done, int *again, vt_error *e) {
  *again = done < b->iters;
  uint32_t parity = done & 1;
  return *again ? vt_mem_write(d, b->args[4].addr, &parity, 4, e) : 0;
}

const bench_workload bench_w_jacobi = {
    "jacobi",      "bench/kernels/jacobi.S",
    "jacobi",      "5-point fp32 Jacobi stencil, one launch per sweep: 2-D grid, border divergence",
    1.0 / 8,       make_jacobi,
    native_jacobi, next_jacobi};
