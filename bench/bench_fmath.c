/* The fmath workload: an fp32 iteration on the SFU ops (exp, sqrt,
 * divide) and the same operations in plain C. The host computes exp in
 * double and rounds it to float, as vfexp.v does (docs/isa.md §13), and
 * sqrtf and the divide are correctly rounded IEEE operations, so the
 * results are bit-exact on the same libm. */
#include <math.h>
#include <stdlib.h>

#include "bench.h"

#define FMATH_ROUNDS 16

/* args: in, out, n, rounds */
static int make_fmath(bench_inst *b, double scale) {
  uint32_t n = bench_scaled(1u << 17, scale, 128);
  if (bench_buf(b, n * 4) || bench_buf(b, n * 4)) return -1;
  bench_scalar(b, n);
  bench_scalar(b, FMATH_ROUNDS);
  float *in = (float *)b->args[0].init;
  uint32_t s = 31;
  for (uint32_t i = 0; i < n; i++) in[i] = (float)(bench_lcg(&s) >> 8) * 0x1p-22f; /* [0, 4) */
  bench_geometry_1d(b, n, 128);
  snprintf(b->size, sizeof b->size, "n=%u, %u rounds", n, FMATH_ROUNDS);
  return bench_ref_buf(b, 1);
}

static void native_fmath(bench_inst *b) {
  const float *in = (const float *)b->args[0].init;
  float *out = (float *)b->ref;
  uint32_t n = b->args[2].value, rounds = b->args[3].value;
  for (uint32_t i = 0; i < n; i++) {
    float x = in[i];
    for (uint32_t r = 0; r < rounds; r++) {
      float e = (float)exp((double)-x);
      x = sqrtf(x + e) / (e + 1.0f) + 0.25f;
    }
    out[i] = x;
  }
}

const bench_workload bench_w_fmath = {
    "fmath",      "bench/kernels/fmath.S",
    "fmath",      "fp32 exp/sqrt/divide iteration: SFU-heavy, uniform loop",
    1.0 / 128,    make_fmath,
    native_fmath, NULL};
