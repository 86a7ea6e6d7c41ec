/* The small-format soft float (src/core/fpn.c) against two independent
 * references: at binary32 the SoftFloat-exact fp32_*_soft of fp32.c (every
 * operation, all five rounding modes, the flags, on random bit patterns
 * and on values near the edges: subnormals, the overflow threshold, NaNs
 * with payloads, signed zeros); at binary16 the host: exact double
 * arithmetic (or the correctly rounded double quotient and root, which
 * round once more innocuously, 53 >= 2 * 11 + 2) converted by the
 * compiler's _Float16 conversion under fesetround, in the four modes the
 * host has, with the flags from fetestexcept. */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "fp32.h"
#include "fpn.h"
#include "f16_ref.h"
#include "test_rng.h"

/* random bits, one time in two from a set of edge exponents and fractions */
static uint32_t rnd_fp(test_rng *r, int ebits, int mbits) {
  uint64_t v = test_rng64(r);
  if (v & 1) return (uint32_t)(v >> 8) & ((1u << (1 + ebits + mbits)) - 1);
  uint32_t emax = (1u << ebits) - 1;
  static const int eoff[] = {0, 1, 2, -1, -2, -3, 24, 11};
  int k = (int)(v >> 1 & 7);
  uint32_t e = k < 3 ? (uint32_t)eoff[k] : k < 6 ? emax + (uint32_t)eoff[k] + 1 - 1 : (uint32_t)(emax / 2) + (v >> 4 & 1);
  if (e > emax) e = emax;
  uint32_t m = (uint32_t)(v >> 12) & ((1u << mbits) - 1);
  if (v >> 40 & 1) m = v >> 41 & 1 ? (1u << mbits) - 1 : v >> 42 & 1; /* all ones, 0 or 1 */
  return (uint32_t)(v >> 63) << (ebits + mbits) | e << mbits | m;
}

static void test_fp32_crosscheck(void **state) {
  (void)state;
  test_rng r = {0xf32f32ull};
  const fpn_fmt f = FPN_F32;
  for (int n = 0; n < 400000; n++) {
    uint32_t a = rnd_fp(&r, 8, 23), b = rnd_fp(&r, 8, 23), c = rnd_fp(&r, 8, 23);
    unsigned rm = (unsigned)(test_rng32(&r) % 5), op = (unsigned)(test_rng32(&r) % 6);
    uint32_t f1 = 0, f2 = 0, want, got;
    switch (op) {
    case 0: want = fp32_add_soft(a, b, rm, &f1); got = fpn_add(f, a, b, rm, &f2); break;
    case 1: want = fp32_sub_soft(a, b, rm, &f1); got = fpn_sub(f, a, b, rm, &f2); break;
    case 2: want = fp32_mul_soft(a, b, rm, &f1); got = fpn_mul(f, a, b, rm, &f2); break;
    case 3: want = fp32_div_soft(a, b, rm, &f1); got = fpn_div(f, a, b, rm, &f2); break;
    case 4: want = fp32_sqrt_soft(a, rm, &f1); got = fpn_sqrt(f, a, rm, &f2); break;
    default: {
      int np = (int)(test_rng32(&r) & 1), na = (int)(test_rng32(&r) & 1);
      want = fp32_fma(a, b, c, np, na, rm, &f1);
      got = fpn_fma(f, a, b, c, np, na, rm, &f2);
    }
    }
    if (got != want || f1 != f2)
      fail_msg("op %u rm %u a 0x%08x b 0x%08x c 0x%08x: 0x%08x flags %x, fp32 0x%08x flags %x", op, rm, a, b, c,
               got, f2, want, f1);
    uint32_t g1 = 0, g2 = 0;
    assert_int_equal(fpn_min(f, a, b, &g2), fp32_min(a, b, &g1));
    assert_int_equal(fpn_max(f, a, b, &g2), fp32_max(a, b, &g1));
    assert_int_equal(fpn_eq(f, a, b, &g2), fp32_eq(a, b, &g1));
    assert_int_equal(fpn_lt(f, a, b, &g2), fp32_lt(a, b, &g1));
    assert_int_equal(fpn_le(f, a, b, &g2), fp32_le(a, b, &g1));
    assert_int_equal(g1, g2);
    assert_int_equal(fpn_classify(f, a), fp32_classify(a));
  }
}

static void test_f16_host(void **state) {
  (void)state;
  /* valgrind's memcheck does not honour the host rounding mode: RNE only there */
  volatile double one = 1.0, three = 3.0, up, nearest = one / three;
  fesetround(FE_UPWARD);
  up = one / three;
  fesetround(FE_TONEAREST);
  int directed = up != nearest;
  if (!directed) print_message("NOTE: the host ignores fesetround (valgrind?): round to nearest only\n");
  test_rng r = {0x16f16ull};
  unsigned checked = 0;
  for (int n = 0; n < 400000; n++) {
    uint16_t a = (uint16_t)rnd_fp(&r, 5, 10), b = (uint16_t)rnd_fp(&r, 5, 10), c = (uint16_t)rnd_fp(&r, 5, 10);
    unsigned rm = directed ? (unsigned)(test_rng32(&r) % 4) : 0, op = (unsigned)(test_rng32(&r) % 6);
    /* the host's double fma rounds the sum once more unless it is exact; keep those exact */
    if (op == 5 && !f16_fma_exact(a, b, c)) continue;
    uint32_t hf, sf = 0, got;
    uint32_t want = host_f16(op, a, b, c, rm, &hf);
    switch (op) {
    case 0: got = fpn_add(FPN_F16, a, b, rm, &sf); break;
    case 1: got = fpn_sub(FPN_F16, a, b, rm, &sf); break;
    case 2: got = fpn_mul(FPN_F16, a, b, rm, &sf); break;
    case 3: got = fpn_div(FPN_F16, a, b, rm, &sf); break;
    case 4: got = fpn_sqrt(FPN_F16, a, rm, &sf); break;
    default: got = fpn_fma(FPN_F16, a, b, c, 0, 0, rm, &sf); break;
    }
    /* the host's invalid flag: x86 raises it for a signaling NaN converted to double too */
    if (got != want || sf != hf)
      fail_msg("op %u rm %u a 0x%04x b 0x%04x c 0x%04x: 0x%04x flags %x, host 0x%04x flags %x", op, rm, a, b, c,
               got, sf, want, hf);
    checked++;
  }
  print_message("%u binary16 results agree with the host\n", checked);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp32_crosscheck),
      cmocka_unit_test(test_f16_host),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
