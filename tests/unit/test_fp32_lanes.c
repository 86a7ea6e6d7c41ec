/* The whole-register host paths (src/core/fp32_lanes.c) against the exact
 * software paths, lane by lane, in round-to-nearest-even: every register
 * they accept must hold the software results and the OR of the software
 * flags; registers with a lane outside the domain (a result that is zero,
 * subnormal, near the subnormals, infinite or NaN; for sqrt any operand
 * but a positive normal) must be refused, while zero and subnormal
 * operands with normal results are taken (the host keeps subnormals).
 * Registers are filled from fixed-seed generators: random words, close
 * exponents, exact rounding ties, near-cancellations, exact products and
 * quotients, and results at the range ends. Also: fp32_host_rne follows
 * the host's rounding mode and flush-to-zero bits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fp32.h"
#include "fp32_lanes.h"
#include "test_rng.h"

typedef test_rng rng;
#define next test_rng32

/* a normal number of biased exponent e and random sign and significand */
static uint32_t with_exp(rng *r, int32_t e) {
  if (e < 1) e = 1;
  if (e > 254) e = 254;
  return (next(r) & 0x807fffffu) | (uint32_t)e << 23;
}

/* operand pair i of a register: kind k picks the generator */
static void pair(rng *r, unsigned k, uint32_t *a, uint32_t *b) {
  int32_t ea = 90 + (int32_t)(next(r) % 75); /* products stay in range too */
  *a = with_exp(r, ea);
  switch (k % 6) {
  case 0: *b = with_exp(r, ea + (int32_t)(next(r) % 61) - 30); break;       /* close exponents */
  case 1: *b = (*a & 0xff800000u) - 0x0c000000u + (next(r) % 3) - 1; break; /* ties of a + b */
  case 2: *b = (*a ^ 0x80000000u) + (next(r) % 5) - 2; break;               /* cancellation */
  case 3: { /* a = b * k exactly: exact product and quotient */
    uint32_t m = (next(r) % 63) | 1, f = 0;
    *b = ((uint32_t)ea << 23) | ((next(r) & 0x7fffu) << 8);
    *a = fp32_mul_soft(*b, fp32_from_u32(m, FP_RNE, &f), FP_RNE, &f);
    break;
  }
  case 4: *b = *a + (next(r) % 5) - 2; break; /* quotient near 1 */
  default: *b = next(r); break;               /* anything, specials included */
  }
}

typedef int (*batch_fn)(uint32_t *, const uint32_t *, const uint32_t *, unsigned, uint32_t *);
typedef uint32_t (*soft_fn)(uint32_t, uint32_t, unsigned, uint32_t *);

/* One register through the batch and the soft path; returns 1 if the
 * batch took it. Mismatches are counted in *fail. */
static int compare(batch_fn batch, soft_fn soft, const char *name, const uint32_t *a,
                   const uint32_t *b, unsigned n, unsigned *fail) {
  uint32_t r[32], r0[32], fb = 0, fs = 0;
  int taken = !batch(r, a, b, n, &fb);
  /* without flags (NX raised already) the same choice and results */
  if ((batch(r0, a, b, n, NULL) == 0) != taken || (taken && memcmp(r, r0, 4 * n)))
    if ((*fail)++ < 10) fprintf(stderr, "%s: without flags, another result\n", name);
  if (!taken) return 0;
  for (unsigned i = 0; i < n; i++) {
    uint32_t f = 0, want = soft(a[i], b[i], FP_RNE, &f);
    fs |= f;
    if (r[i] != want && (*fail)++ < 10)
      fprintf(stderr, "%s %08x %08x: %08x, soft %08x\n", name, a[i], b[i], r[i], want);
  }
  if (fb != fs && (*fail)++ < 10) fprintf(stderr, "%s flags %x, soft %x\n", name, fb, fs);
  return 1;
}

static void registers(uint64_t seed, unsigned count, unsigned *fail, unsigned *taken) {
  rng r = {seed};
  for (unsigned reg = 0; reg < count; reg++) {
    uint32_t a[32], b[32];
    unsigned n = reg % 4 ? 32 : 1 + next(&r) % 32;
    unsigned k = reg % 7; /* one generator per register, so most are in the domain */
    for (unsigned i = 0; i < n; i++) pair(&r, k == 6 ? next(&r) : k, &a[i], &b[i]);
    taken[0] += (unsigned)compare(fp32_lanes_add, fp32_add_soft, "add", a, b, n, fail);
    taken[1] += (unsigned)compare(fp32_lanes_mul, fp32_mul_soft, "mul", a, b, n, fail);
    taken[2] += (unsigned)compare(fp32_lanes_div, fp32_div_soft, "div", a, b, n, fail);
  }
}

static void test_random_registers(void **state) {
  (void)state;
  unsigned fail = 0, taken[3] = {0};
  registers(0x243f6a8885a308d3ull, 20000, &fail, taken);
  assert_int_equal(fail, 0);
  /* the comparison means something only if the batches took registers */
  for (int j = 0; j < 3; j++) assert_true(taken[j] > 2000);
}

/* sqrt of whole registers: random positive normals of any exponent, exact
 * squares (no NX) and, in some registers, one lane that is not a positive
 * normal (the register must be refused) */
static void test_sqrt_registers(void **state) {
  (void)state;
  rng r = {0x452821e638d01377ull};
  unsigned fail = 0, taken = 0;
  for (unsigned reg = 0; reg < 20000; reg++) {
    uint32_t a[32], out[32], fb = 0, fs = 0;
    unsigned n = reg % 4 ? 32 : 1 + next(&r) % 32, kind = reg % 5;
    for (unsigned i = 0; i < n; i++) {
      uint32_t f = 0, m = 1 + next(&r) % 4095; /* m^2 < 2^24: exact in binary32 */
      a[i] = kind == 0 ? fp32_mul_soft(fp32_from_u32(m, FP_RNE, &f), fp32_from_u32(m, FP_RNE, &f),
                                       FP_RNE, &f)
                       : with_exp(&r, 1 + (int32_t)(next(&r) % 254)) & 0x7fffffffu;
    }
    if (kind == 4) a[next(&r) % n] = next(&r); /* anything, specials and negatives included */
    int ok = fp32_lanes_sqrt(out, a, n, &fb) == 0;
    uint32_t out0[32]; /* without flags (NX raised already): the same choice and results */
    if ((fp32_lanes_sqrt(out0, a, n, NULL) == 0) != ok || (ok && memcmp(out, out0, 4 * n)))
      if (fail++ < 10) fprintf(stderr, "sqrt register %u: without flags, another result\n", reg);
    int domain = 1;
    for (unsigned i = 0; i < n; i++) {
      uint32_t f = 0, want = fp32_sqrt_soft(a[i], FP_RNE, &f);
      fs |= f;
      domain &= a[i] - 0x00800000u < 0x7F000000u;
      if (ok && out[i] != want && fail++ < 10)
        fprintf(stderr, "sqrt %08x: %08x, soft %08x\n", a[i], out[i], want);
    }
    if (ok != domain && fail++ < 10)
      fprintf(stderr, "sqrt register %u: taken %d, domain %d\n", reg, ok, domain);
    if (ok && fb != fs && fail++ < 10) fprintf(stderr, "sqrt flags %x, soft %x\n", fb, fs);
    taken += (unsigned)ok;
  }
  assert_int_equal(fail, 0);
  assert_true(taken > 15000);
}

/* results at the ends of the normal range: refused or exact */
static void test_range_ends(void **state) {
  (void)state;
  rng r = {0x13198a2e03707344ull};
  unsigned fail = 0;
  for (unsigned reg = 0; reg < 4000; reg++) {
    uint32_t a[32], b[32];
    for (unsigned i = 0; i < 32; i++) {
      int32_t ea = 1 + (int32_t)(next(&r) % 254),
              t = (next(&r) & 1) ? 1 + (int32_t)(next(&r) % 4) - 1 : 254 - (int32_t)(next(&r) % 4);
      a[i] = with_exp(&r, ea);
      /* exponent of b so that a*b (even reg) or a/b (odd) lands near t */
      b[i] = with_exp(&r, reg & 1 ? ea - t + 127 : t - ea + 127);
    }
    compare(fp32_lanes_mul, fp32_mul_soft, "mul", a, b, 32, &fail);
    compare(fp32_lanes_div, fp32_div_soft, "div", a, b, 32, &fail);
    compare(fp32_lanes_add, fp32_add_soft, "add", a, b, 32, &fail);
  }
  assert_int_equal(fail, 0);
}

/* a special lane: taken only with the software results (zero and
 * subnormal operands of add, mul and div whose results are normal), else
 * refused; infinities and NaNs always refused, and by sqrt everything */
static void test_specials(void **state) {
  (void)state;
  static const uint32_t specials[] = {0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x807fffff,
                                      0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001};
  uint32_t a[32], b[32], r[32], f = 0;
  unsigned fail = 0, taken = 0;
  for (unsigned i = 0; i < 32; i++) a[i] = b[i] = 0x3f800000u + i; /* about 1 */
  assert_int_equal(fp32_lanes_add(r, a, b, 32, &f), 0);
  for (unsigned s = 0; s < sizeof specials / sizeof specials[0]; s++) {
    uint32_t keep = a[17], nan_or_inf = (specials[s] & 0x7f800000u) == 0x7f800000u;
    a[17] = specials[s];
    for (int op = 0; op < 3; op++) {
      batch_fn batch = op == 0 ? fp32_lanes_add : op == 1 ? fp32_lanes_mul : fp32_lanes_div;
      soft_fn soft = op == 0 ? fp32_add_soft : op == 1 ? fp32_mul_soft : fp32_div_soft;
      int took = compare(batch, soft, "special", a, b, 32, &fail);
      taken += (unsigned)took;
      if (took && nan_or_inf && fail++ < 10) fprintf(stderr, "op %d took %08x\n", op, specials[s]);
    }
    assert_int_equal(fp32_lanes_sqrt(r, a, 32, &f), -1);
    a[17] = keep;
  }
  assert_int_equal(fail, 0);
  assert_true(taken >= 5); /* the zeros and subnormals of add at least */
  a[5] = 0x7f7fffffu;      /* max * 1.x overflows */
  assert_int_equal(fp32_lanes_mul(r, a, b, 32, &f), -1);
  /* subnormal operands, normal results: 2^-149 * 2^30, 0x007fffff / 2^-3 */
  a[0] = 0x00000001u, b[0] = 0x4e800000u;
  a[1] = 0x007fffffu, b[1] = 0x3e000000u;
  f = 0;
  assert_int_equal(fp32_lanes_mul(r, a, b, 1, &f), 0);
  assert_int_equal(r[0], 0x04000000u); /* 2^-119 */
  assert_int_equal(fp32_lanes_div(r, a + 1, b + 1, 1, &f), 0);
  assert_int_equal(r[0], 0x01fffffeu); /* (2^-126 - 2^-149) * 8, exact */
  assert_int_equal(f, 0);
}

/* spelled-out results, so the comparison cannot pass with both sides wrong */
static void test_known(void **state) {
  (void)state;
  uint32_t a[2] = {0x3f800000u, 0x41700000u}, b[2] = {0x33800000u, 0x40400000u}, r[2], f = 0;
  assert_int_equal(fp32_lanes_add(r, a, b, 2, &f), 0);
  assert_int_equal(r[0], 0x3f800000u); /* 1 + 2^-24: tie to even */
  assert_int_equal(r[1], 0x41900000u); /* 15 + 3 = 18 */
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  b[0] = 0x40400000u; /* 1 / 3 and 15 / 3 */
  assert_int_equal(fp32_lanes_div(r, a, b, 2, &f), 0);
  assert_int_equal(r[0], 0x3eaaaaabu);
  assert_int_equal(r[1], 0x40a00000u);
  assert_int_equal(f, FFLAG_NX);
  f = 0;
  assert_int_equal(fp32_lanes_div(r, a + 1, b + 1, 1, &f), 0); /* 15 / 3 alone: exact */
  assert_int_equal(f, 0);
  assert_int_equal(fp32_lanes_mul(r, a, b, 2, &f), 0); /* 1 * 3, 15 * 3: exact */
  assert_int_equal(r[0], 0x40400000u);
  assert_int_equal(r[1], 0x42340000u);
  assert_int_equal(f, 0);
  a[0] = 0x40800000u; /* sqrt 4 = 2 exactly; sqrt 2^-126 = 2^-63; sqrt max = 0x5f7fffff */
  a[1] = 0x00800000u;
  uint32_t c[3] = {0x40800000u, 0x7f7fffffu, 0x40000000u};
  assert_int_equal(fp32_lanes_sqrt(r, a, 2, &f), 0);
  assert_int_equal(r[0], 0x40000000u);
  assert_int_equal(r[1], 0x20000000u);
  assert_int_equal(f, 0);
  uint32_t q[3];
  assert_int_equal(fp32_lanes_sqrt(q, c, 3, &f), 0);
  assert_int_equal(q[1], 0x5f7fffffu); /* sqrt(2^128 (1 - 2^-24)) just below 2^64 */
  assert_int_equal(q[2], 0x3fb504f3u); /* sqrt 2 */
  assert_int_equal(f, FFLAG_NX);
}

static void test_host_mode(void **state) {
  (void)state;
  assert_int_equal(fp32_host_rne(), 1);
  assert_int_equal(fesetround(FE_UPWARD), 0);
  assert_int_equal(fp32_host_rne(), 0);
  assert_int_equal(fesetround(FE_TOWARDZERO), 0);
  assert_int_equal(fp32_host_rne(), 0);
  assert_int_equal(fesetround(FE_TONEAREST), 0);
  assert_int_equal(fp32_host_rne(), 1);
#if defined(__SSE__) && (defined(__GNUC__) || defined(__clang__))
  /* flush-to-zero (MXCSR bit 15) or denormals-are-zero (bit 6): no fast
   * path. Valgrind keeps only MXCSR's rounding bits (and never flushes): a
   * bit that does not read back is not in force, and is not checked. */
  unsigned csr = __builtin_ia32_stmxcsr(), bits[2] = {0x8000u, 0x0040u};
  for (int k = 0; k < 2; k++) {
    __builtin_ia32_ldmxcsr(csr | bits[k]);
    int kept = (__builtin_ia32_stmxcsr() & bits[k]) != 0, rne = fp32_host_rne();
    __builtin_ia32_ldmxcsr(csr);
    if (kept)
      assert_int_equal(rne, 0);
    else
      fprintf(stderr, "MXCSR bit %#x does not read back here (valgrind?): not checked\n", bits[k]);
  }
  assert_int_equal(fp32_host_rne(), 1);
#endif
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_known),
      cmocka_unit_test(test_specials),
      cmocka_unit_test(test_random_registers),
      cmocka_unit_test(test_sqrt_registers),
      cmocka_unit_test(test_range_ends),
      cmocka_unit_test(test_host_mode),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
