/* vfexp.v's whole-register path (src/core/fp32_lanes_exp.c) against
 * fp32_exp, the reference's (float)exp((double)x) with the host's libm:
 * results lane by lane and flags (per register, and per lane with n = 1)
 * on about two million sampled inputs, on every input near the ends of its
 * domain and of the binary32 results, on inputs whose approximation lies
 * close to a rounding midpoint (the lanes it must hand to libm), and the
 * approximation's error bound against the host's long double expl. The
 * exhaustive run over all 2^32 inputs is bench/check_exp.c
 * (docs/performance.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fp32.h"
#include "fp32_lanes.h"
#include "test_rng.h"

#define next test_rng32

/* the bound fp32_lanes_exp.c proves for fp32_exp_approx */
#define EPS 1.3838e-11

/* n lanes through the batch, each also alone (n = 1) and through
 * fp32_exp; mismatches counted in *fail */
static void compare(const uint32_t *a, unsigned n, unsigned *fail) {
  uint32_t r[32], fb = 0, fs = 0;
  assert_int_equal(fp32_lanes_exp(r, a, n, &fb), 0);
  for (unsigned i = 0; i < n; i++) {
    uint32_t f = 0, want = fp32_exp(a[i], &f), one, f1 = 0;
    fs |= f;
    assert_int_equal(fp32_lanes_exp(&one, a + i, 1, &f1), 0);
    if ((r[i] != want || one != want || f1 != f) && (*fail)++ < 10)
      fprintf(stderr, "exp %08x: %08x (alone %08x, flags %x), fp32_exp %08x (flags %x)\n", a[i],
              r[i], one, f1, want, f);
  }
  if (fb != fs && (*fail)++ < 10) fprintf(stderr, "exp flags %x, fp32_exp %x\n", fb, fs);
}

/* a random float with |x| < 87 (the approximation's domain) */
static uint32_t in_domain(test_rng *r) {
  uint32_t m = next(r) % 0x42AE0000u;
  return m | (next(r) & 0x80000000u);
}

static void test_sampled(void **state) {
  (void)state;
  test_rng r = {0xa4093822299f31d0ull};
  unsigned fail = 0;
  for (unsigned reg = 0; reg < 65536; reg++) { /* 2^21 lanes */
    uint32_t a[32];
    unsigned n = reg % 8 ? 32 : 1 + next(&r) % 32;
    for (unsigned i = 0; i < n; i++) {
      switch (next(&r) % 4) {
      case 0: a[i] = next(&r); break;      /* any bits: specials, huge, tiny */
      case 1: a[i] = in_domain(&r); break; /* uniform in the bit patterns */
      default: { /* uniform in value over [-100, 100]: every result binade */
        float x = (float)((double)next(&r) / 4294967296.0 * 200.0 - 100.0);
        memcpy(&a[i], &x, 4);
      }
      }
    }
    compare(a, n, &fail);
  }
  assert_int_equal(fail, 0);
}

/* every input near the domain's ends, near zero, near the results' normal
 * range ends (|x| = 87.33), the largest finite result (88.72) and the
 * underflow to zero (-103.97), infinities and NaNs */
static void test_range_ends(void **state) {
  (void)state;
  static const uint32_t centres[] = {0x42AE0000u, 0x00000000u, 0x42AEAC50u,
                                     0x42B17218u, 0x42CFF1B5u, 0x7F800000u,
                                     0x7F7FFFFFu, 0x3F800000u, 0x33000000u};
  unsigned fail = 0;
  for (unsigned c = 0; c < sizeof centres / sizeof centres[0]; c++)
    for (unsigned neg = 0; neg < 2; neg++) {
      uint32_t a[32], sign = neg ? 0x80000000u : 0;
      for (int32_t d = -2048; d < 2048; d += 32) {
        for (unsigned i = 0; i < 32; i++)
          a[i] = (uint32_t)((int32_t)centres[c] + d + (int32_t)i) | sign;
        compare(a, 32, &fail);
      }
    }
  assert_int_equal(fail, 0);
}

/* inputs whose approximation lies within 2^17 of its ulps of a binary32
 * midpoint: the lanes handed to libm, gathered into whole registers */
static void test_near_midpoints(void **state) {
  (void)state;
  test_rng r = {0x082efa98ec4e6c89ull};
  uint32_t a[32];
  unsigned found = 0, fail = 0;
  for (unsigned tries = 0; tries < 4000000 && found < 32 * 20; tries++) {
    float x = (float)((double)next(&r) / 4294967296.0 * 174.0 - 87.0); /* in [-87, 87) */
    uint32_t u;
    memcpy(&u, &x, 4);
    double y = fp32_exp_approx(x);
    uint64_t b;
    memcpy(&b, &y, 8);
    int32_t dist = (int32_t)(b & 0x1FFFFFFFu) - (1 << 28);
    if (dist > (1 << 17) || dist < -(1 << 17)) continue;
    a[found++ % 32] = u;
    if (found % 32 == 0) compare(a, 32, &fail);
  }
  assert_int_equal(fail, 0);
  fprintf(stderr, "%u inputs near a midpoint\n", found);
  assert_true(found >= 32 * 20); /* about one input in 2^11 */
}

/* the approximation against expl (long double: 64 significant bits) */
static void test_error_bound(void **state) {
  (void)state;
  test_rng r = {0x9216d5d98979fb1bull};
  double worst = 0;
  for (unsigned k = 0; k < 200000; k++) {
    uint32_t u = in_domain(&r);
    float x;
    memcpy(&x, &u, 4);
    long double want = expl((long double)x);
    double err = (double)fabsl(((long double)fp32_exp_approx(x) - want) / want);
    if (err > worst) worst = err;
  }
  fprintf(stderr, "worst relative error of 200000: %.3g (bound %.4g)\n", worst, EPS);
  assert_true(worst <= EPS);
  assert_true(worst > EPS / 64); /* the truncation error is real: the measure works */
}

/* spelled-out results (the host's (float)exp((double)x)) and flags */
static void test_known(void **state) {
  (void)state;
  const uint32_t a[8] = {0x3f800000u, 0xbf800000u, 0x41200000u, 0xc2adfae1u,
                         0x00000000u, 0x80000000u, 0x42b00000u, 0x7fc00000u};
  const uint32_t want[8] = {0x402df854u, 0x3ebc5ab2u, 0x46ac14eeu, 0x00b503b6u,
                            0x3f800000u, 0x3f800000u, 0x7ef882b7u, 0x7fc00000u};
  uint32_t r[8], f = 0;
  assert_int_equal(fp32_lanes_exp(r, a, 8, &f), 0);
  for (int i = 0; i < 8; i++) assert_int_equal(r[i], want[i]);
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  assert_int_equal(fp32_lanes_exp(r, a + 4, 2, &f), 0); /* e^+-0 = 1 exactly */
  assert_int_equal(f, 0);
  const uint32_t edge[4] = {0x42c80000u, 0xc2c80000u, 0x7f800001u,
                            0xff800000u}; /* 100, -100, sNaN, -inf */
  assert_int_equal(fp32_lanes_exp(r, edge, 4, &f), 0);
  assert_int_equal(r[0], 0x7f800000u);
  assert_int_equal(r[1], 0x0000001bu);
  assert_int_equal(r[2], 0x7f800001u);
  assert_int_equal(r[3], 0x00000000u);
  assert_int_equal(f, FFLAG_NX | FFLAG_OF | FFLAG_UF | FFLAG_NV);
  assert_int_equal(fp32_lanes_exp(r, a, 33, &f), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known),      cmocka_unit_test(test_error_bound),
      cmocka_unit_test(test_range_ends), cmocka_unit_test(test_near_midpoints),
      cmocka_unit_test(test_sampled),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
