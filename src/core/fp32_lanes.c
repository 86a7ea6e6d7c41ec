/* Host binary32 arithmetic for whole vector registers (fp32_lanes.h).
 *
 * With the host rounding to nearest-even, IEEE 754 makes a + b, a * b and
 * a / b the correctly rounded results RISC-V wants, as long as the host
 * keeps subnormals (no FTZ/DAZ) and nothing overflows; so the domain is:
 * results with a biased exponent of 2..254 (not tiny even before
 * rounding, not infinite or NaN: zero, infinite and NaN operands all make
 * such results). Where the host's flush mode cannot be read (no SSE), the
 * operands must be normal too, and for add of exponent >= 26 (below). The
 * only flag left is NX, found exactly:
 *  - add: Knuth's TwoSum gives the rounding error s - (a + b) exactly in
 *    round-to-nearest without overflow (with operands >= 2^-101 it is a
 *    multiple of 2^-124, so never subnormal: no flush can hide it);
 *  - mul: the double product of two binary32 values is exact (48 bits);
 *    NX iff the rounded result differs from it;
 *  - div: q * b in double is exact as well; NX iff it differs from a;
 *  - sqrt (positive normal operands, so normal results): s * s in double
 *    is exact too; NX iff it differs from a.
 * No fused multiply-add may be formed (TwoSum needs each rounding):
 * C17 mode keeps gcc from contracting, the pragma tells clang. */
#include "fp32_lanes.h"

#include <math.h>
#include <string.h>

#include "fp32.h"
#include "host_wide.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* without FP32_HOST_SEES_FLUSH the operand checks below stand in for it */
#define HOST_SEES_FLUSH FP32_HOST_SEES_FLUSH

/* 0 if the biased exponent of u is in [lo, hi], else 1 */
static inline uint32_t out_of(uint32_t u, uint32_t lo, uint32_t hi) {
  return ((u >> 23) & 0xFFu) - lo > hi - lo;
}

static inline int lanes_add(uint32_t *restrict r, const uint32_t *a, const uint32_t *b, unsigned n,
                            uint32_t *flags) {
  uint32_t bad = 0, nx = 0;
  for (unsigned i = 0; i < n; i++) {
    float x = fp32_host_f32(a[i]), y = fp32_host_f32(b[i]);
    float s = x + y;
    uint32_t su = fp32_bits(s);
    bad |= out_of(su, 2, 254);
    if (!HOST_SEES_FLUSH) bad |= out_of(a[i], 26, 254) | out_of(b[i], 26, 254);
    if (flags) {
      float yv = s - x; /* TwoSum */
      float err = (x - (s - yv)) + (y - yv);
      nx |= err != 0.0f;
    }
    r[i] = su;
  }
  if (bad) return -1;
  if (nx) *flags |= FFLAG_NX;
  return 0;
}

/* 1 if x[i] * y[i] != z[i] for some lane, in double: the product of two
 * binary32 values is exact there, and a nonzero difference is a multiple of
 * at least 2^-298, far from double's subnormals (no flush can hide it).
 * The bits of the differences are ORed as integers: a comparison of doubles
 * folded into a 32-bit flag keeps gcc from vectorising the loop. */
static inline uint32_t any_product_differs(const uint32_t *x, const uint32_t *y, const uint32_t *z,
                                           unsigned n) {
  uint64_t diff = 0;
  for (unsigned i = 0; i < n; i++) {
    double d =
        (double)fp32_host_f32(x[i]) * (double)fp32_host_f32(y[i]) - (double)fp32_host_f32(z[i]);
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    diff |= u << 1; /* -0 counts as 0 */
  }
  return diff != 0;
}

/* The rounded results and the exactness checks are separate loops: mixing
 * float and double in one loop keeps gcc from vectorising it. */
static inline int lanes_mul(uint32_t *restrict r, const uint32_t *a, const uint32_t *b, unsigned n,
                            uint32_t *flags) {
  uint32_t bad = 0;
  for (unsigned i = 0; i < n; i++) {
    uint32_t pu = fp32_bits(fp32_host_f32(a[i]) * fp32_host_f32(b[i]));
    bad |= out_of(pu, 2, 254);
    if (!HOST_SEES_FLUSH) bad |= out_of(a[i], 1, 254) | out_of(b[i], 1, 254);
    r[i] = pu;
  }
  if (bad) return -1;
  if (flags && any_product_differs(a, b, r, n)) *flags |= FFLAG_NX;
  return 0;
}

static inline int lanes_div(uint32_t *restrict r, const uint32_t *a, const uint32_t *b, unsigned n,
                            uint32_t *flags) {
  uint32_t bad = 0;
  for (unsigned i = 0; i < n; i++) {
    uint32_t qu = fp32_bits(fp32_host_f32(a[i]) / fp32_host_f32(b[i]));
    bad |= out_of(qu, 2, 254);
    if (!HOST_SEES_FLUSH) bad |= out_of(a[i], 1, 254) | out_of(b[i], 1, 254);
    r[i] = qu;
  }
  if (bad) return -1;
  if (flags && any_product_differs(r, b, a, n)) *flags |= FFLAG_NX;
  return 0;
}

/* sqrtf must become the host's square-root instruction for the loop to be
 * vectorised: this file is compiled with -fno-math-errno (CMakeLists.txt),
 * and no lane it keeps is negative anyway. */
static inline int lanes_sqrt(uint32_t *restrict r, const uint32_t *a, unsigned n, uint32_t *flags) {
  uint32_t bad = 0;
  for (unsigned i = 0; i < n; i++) {
    bad |= a[i] - 0x00800000u >= 0x7F000000u; /* not in [min normal, max finite] */
    r[i] = fp32_bits(sqrtf(fp32_host_f32(a[i])));
  }
  if (bad) return -1;
  if (flags && any_product_differs(r, r, a, n)) *flags |= FFLAG_NX;
  return 0;
}

/* A register of all 32 lanes is the common case: with a constant trip
 * count the vectorised loops need no remainder iterations; without flags
 * (NX already raised) the exactness checks are left out at compile time.
 * Where the host has AVX2, twice the lanes per host instruction
 * (host_wide.h): each lane's result and the NX checks are the same IEEE
 * operations at any width. */
#define LANES_ENTRY(op, ...)                                                                 \
  (flags ? (n == 32 ? op(__VA_ARGS__, 32, flags) : op(__VA_ARGS__, n, flags))                \
         : (n == 32 ? op(__VA_ARGS__, 32, NULL) : op(__VA_ARGS__, n, NULL)))

VT_HOST_WIDE int fp32_lanes_add(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags) {
  return LANES_ENTRY(lanes_add, r, a, b);
}

VT_HOST_WIDE int fp32_lanes_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags) {
  return LANES_ENTRY(lanes_mul, r, a, b);
}

VT_HOST_WIDE int fp32_lanes_div(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags) {
  return LANES_ENTRY(lanes_div, r, a, b);
}

VT_HOST_WIDE int fp32_lanes_sqrt(uint32_t *r, const uint32_t *a, unsigned n, uint32_t *flags) {
  return LANES_ENTRY(lanes_sqrt, r, a);
}
