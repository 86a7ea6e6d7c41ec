/* The host-arithmetic fast paths of fp32_add/sub/mul/div/sqrt against
 * the exact software paths (fp32_*_soft), result word and flags, in every
 * rounding mode the guest can ask for:
 *  - all pairs of a list of special values (zeros, subnormals, the normal
 *    range's ends, ones and their neighbours, infinities, quiet and
 *    signaling NaNs of both signs);
 *  - random operands from a fixed-seed generator: raw bit patterns, pairs
 *    with close exponents (the fast path's domain), exact ties of the
 *    rounding (b = half an ulp of a, plus or minus), near-cancellations;
 *  - products and quotients that land at the ends of the normal range
 *    (results that round into or out of the subnormals or to infinity),
 *    exact quotients and products (no NX), and quotients of neighbours;
 *  - every 97th binary32 in [1, 4) and all of the top and bottom normal
 *    binades' sampled words for sqrt (both exponent parities);
 *  - the same random comparison again under the host's FE_UPWARD and
 *    FE_TOWARDZERO, because the fast paths must not depend on the host
 *    rounding mode (a host program embedding the driver may change it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <fenv.h>
#include <stdint.h>
#include <stdio.h>

#include "fp32.h"
#include "test_rng.h"

typedef test_rng rng;
#define next test_rng32

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
    0x80800000, 0x00800001, 0x00ffffff, 0x01000000, 0x3f800000, 0xbf800000, 0x3f800001,
    0x3f7fffff, 0x40000000, 0x40400000, 0x4b800000, 0x4b7fffff, 0x33800000, 0x34000000,
    0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7effffff, 0x7f800000, 0xff800000, 0x7fc00000,
    0xffc00000, 0x7f800001, 0xff800001, 0x7fbfffff, 0x0d800000, 0x26800000, 0x5f800000,
};
#define NSPECIAL (sizeof specials / sizeof specials[0])

static int failures;

static void check2(uint32_t a, uint32_t b, unsigned rm) {
  uint32_t f1 = 0, f2 = 0, f3 = 0, f4 = 0;
  uint32_t r1 = fp32_add(a, b, rm, &f1), r2 = fp32_add_soft(a, b, rm, &f2);
  uint32_t r3 = fp32_sub(a, b, rm, &f3), r4 = fp32_sub_soft(a, b, rm, &f4);
  if ((r1 != r2 || f1 != f2) && failures++ < 10)
    fprintf(stderr, "add %08x %08x rm %u: %08x/%x, soft %08x/%x\n", a, b, rm, r1, f1, r2, f2);
  if ((r3 != r4 || f3 != f4) && failures++ < 10)
    fprintf(stderr, "sub %08x %08x rm %u: %08x/%x, soft %08x/%x\n", a, b, rm, r3, f3, r4, f4);
  f1 = f2 = f3 = f4 = 0;
  r1 = fp32_mul(a, b, rm, &f1), r2 = fp32_mul_soft(a, b, rm, &f2);
  r3 = fp32_div(a, b, rm, &f3), r4 = fp32_div_soft(a, b, rm, &f4);
  if ((r1 != r2 || f1 != f2) && failures++ < 10)
    fprintf(stderr, "mul %08x %08x rm %u: %08x/%x, soft %08x/%x\n", a, b, rm, r1, f1, r2, f2);
  if ((r3 != r4 || f3 != f4) && failures++ < 10)
    fprintf(stderr, "div %08x %08x rm %u: %08x/%x, soft %08x/%x\n", a, b, rm, r3, f3, r4, f4);
}

static void check1(uint32_t a, unsigned rm) {
  uint32_t f1 = 0, f2 = 0;
  uint32_t r1 = fp32_sqrt(a, rm, &f1), r2 = fp32_sqrt_soft(a, rm, &f2);
  if ((r1 != r2 || f1 != f2) && failures++ < 10)
    fprintf(stderr, "sqrt %08x rm %u: %08x/%x, soft %08x/%x\n", a, rm, r1, f1, r2, f2);
}

/* b with a's sign choice and an exponent within +-30 of a's (some beyond
 * the fast path's 28), random significand */
static uint32_t near(rng *r, uint32_t a) {
  int32_t e = (int32_t)((a >> 23) & 0xff) + (int32_t)(next(r) % 61) - 30;
  if (e < 0) e = 0;
  if (e > 0xff) e = 0xff;
  return (next(r) & 0x807fffffu) | (uint32_t)e << 23;
}

static void random_pairs(uint64_t seed, unsigned n) {
  rng r = {seed};
  for (unsigned i = 0; i < n; i++) {
    uint32_t a = next(&r), b;
    switch (i % 5) {
    case 0: b = next(&r); break;
    case 1: b = near(&r, a); break;
    case 2: /* half an ulp of a (an exact tie), or one step either side */
      b = ((a & 0x7f800000u) >= 0x0c000000u ? (a & 0xff800000u) - 0x0c000000u : a & 0x80000000u) +
          (next(&r) % 3) - 1;
      break;
    case 3: b = (a ^ 0x80000000u) + (next(&r) % 5) - 2; break; /* near-cancellation */
    default: b = near(&r, a) | 0x3f000000u; break;
    }
    for (unsigned rm = 0; rm <= FP_RMM; rm++) check2(a, b, rm);
    for (unsigned rm = 0; rm <= FP_RMM; rm++) check1(a & 0x7fffffffu, rm);
  }
}

/* b such that a*b (even i) or a/b (odd i) has a binary32 exponent within
 * +-2 of the normal range's ends, so results round into or out of the
 * subnormals or overflow */
static uint32_t range_end(rng *r, uint32_t a, unsigned i) {
  int32_t ea = (int32_t)((a >> 23) & 0xff) - 127;
  int32_t target = (next(r) & 1) ? -126 + (int32_t)(next(r) % 5) - 2 : 127 + (int32_t)(next(r) % 5) - 2;
  int32_t eb = (i & 1) ? ea - target : target - ea;
  if (eb < -126 || eb > 127) return next(r);
  return (next(r) & 0x807fffffu) | (uint32_t)(eb + 127) << 23;
}

static void mul_div_pairs(uint64_t seed, unsigned n) {
  rng r = {seed};
  for (unsigned i = 0; i < n; i++) {
    uint32_t a = next(&r) & 0xbfffffffu, b; /* |a| < 2: room for both ends */
    switch (i % 4) {
    case 0: b = range_end(&r, a, i >> 2); break;
    case 1: { /* a = b * k exactly for a small odd k: exact quotient and product */
      uint32_t k = (next(&r) % 63) | 1, sig = (next(&r) & 0x7fffu) | 0x8000u;
      uint32_t e = 100 + next(&r) % 50;
      b = (e << 23) | (sig << 8 & 0x7fffffu);
      a = fp32_mul_soft(b, fp32_from_u32(k, FP_RNE, &(uint32_t){0}), FP_RNE, &(uint32_t){0});
      break;
    }
    case 2: b = a + (next(&r) % 5) - 2; break; /* quotient near 1 */
    default: b = next(&r); break;
    }
    for (unsigned rm = 0; rm <= FP_RMM; rm++) check2(a, b, rm);
  }
}

static void test_mul_div(void **state) {
  (void)state;
  failures = 0;
  mul_div_pairs(0x853c49e6748fea9bull, 60000);
  assert_int_equal(failures, 0);
}

static void test_specials(void **state) {
  (void)state;
  failures = 0;
  for (unsigned i = 0; i < NSPECIAL; i++) {
    for (unsigned j = 0; j < NSPECIAL; j++)
      for (unsigned rm = 0; rm <= FP_RMM; rm++) check2(specials[i], specials[j], rm);
    for (unsigned rm = 0; rm <= FP_RMM; rm++) check1(specials[i], rm);
  }
  assert_int_equal(failures, 0);
}

static void test_random(void **state) {
  (void)state;
  failures = 0;
  random_pairs(0x9e3779b97f4a7c15ull, 60000);
  assert_int_equal(failures, 0);
}

static void test_sqrt_binades(void **state) {
  (void)state;
  failures = 0;
  for (uint32_t a = 0x3f800000u; a < 0x40800000u; a += 97) check1(a, FP_RNE);
  for (uint32_t a = 0x00800000u; a < 0x01000000u; a += 89) check1(a, FP_RNE);
  for (uint32_t a = 0x7f000000u; a < 0x7f800000u; a += 89) check1(a, FP_RNE);
  assert_int_equal(failures, 0);
}

static void test_host_rounding_mode(void **state) {
  (void)state;
  static const int modes[] = {FE_UPWARD, FE_TOWARDZERO, FE_DOWNWARD};
  failures = 0;
  for (unsigned k = 0; k < sizeof modes / sizeof modes[0]; k++) {
    assert_int_equal(fesetround(modes[k]), 0);
    random_pairs(0x2545f4914f6cdd1dull + k, 10000);
    mul_div_pairs(0xda3e39cb94b95bdbull + k, 10000);
    for (uint32_t a = 0x3f800000u; a < 0x40800000u; a += 4099) check1(a, FP_RNE);
  }
  fesetround(FE_TONEAREST);
  assert_int_equal(failures, 0);
}

/* A few fast-path results spelled out, so the comparison above cannot pass
 * with both paths wrong in the same way. */
static void test_known(void **state) {
  (void)state;
  uint32_t f = 0;
  assert_int_equal(fp32_add(0x3f800000u, 0x33800000u, FP_RNE, &f), 0x3f800000u); /* 1 + 2^-24: tie to even */
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  assert_int_equal(fp32_add(0x3f800001u, 0x33800000u, FP_RNE, &f), 0x3f800002u); /* tie, odd: up */
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  assert_int_equal(fp32_sub(0x40400000u, 0x40400000u, FP_RNE, &f), 0x00000000u); /* 3 - 3 = +0 */
  assert_int_equal(f, 0);
  assert_int_equal(fp32_sqrt(0x40800000u, FP_RNE, &f), 0x40000000u); /* sqrt 4 = 2, exact */
  assert_int_equal(f, 0);
  assert_int_equal(fp32_sqrt(0x40000000u, FP_RNE, &f), 0x3fb504f3u); /* sqrt 2 */
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  assert_int_equal(fp32_add(0x7f7fffffu, 0x73000000u, FP_RNE, &f), 0x7f800000u); /* overflow */
  assert_int_equal(f, FFLAG_OF | FFLAG_NX);
  f = 0;
  assert_int_equal(fp32_mul(0x40400000u, 0x40a00000u, FP_RNE, &f), 0x41700000u); /* 3 * 5 = 15 */
  assert_int_equal(f, 0);
  assert_int_equal(fp32_div(0x41700000u, 0x40400000u, FP_RNE, &f), 0x40a00000u); /* 15 / 3 = 5 */
  assert_int_equal(f, 0);
  assert_int_equal(fp32_div(0x3f800000u, 0x40400000u, FP_RNE, &f), 0x3eaaaaabu); /* 1/3 */
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  /* (1 + 2^-23) * (1 + 2^-23) = 1 + 2^-22 + 2^-46: rounds to 1 + 2^-22 */
  assert_int_equal(fp32_mul(0x3f800001u, 0x3f800001u, FP_RNE, &f), 0x3f800002u);
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  /* 2^-63 * 2^-64 = 2^-127: subnormal, exact, left to the software path */
  assert_int_equal(fp32_mul(0x20000000u, 0x1f800000u, FP_RNE, &f), 0x00400000u);
  assert_int_equal(f, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known),
      cmocka_unit_test(test_specials),
      cmocka_unit_test(test_random),
      cmocka_unit_test(test_mul_div),
      cmocka_unit_test(test_sqrt_binades),
      cmocka_unit_test(test_host_rounding_mode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
