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
  if (v & 1) return (uint32_t)(v >> 8) & ((uint32_t)((1ull << (1 + ebits + mbits)) - 1));
  uint32_t emax = (1u << ebits) - 1;
  static const int eoff[] = {0, 1, 2, -1, -2, -3, 24, 11};
  int k = (int)(v >> 1 & 7);
  uint32_t e = k < 3 ? (uint32_t)eoff[k] : k < 6 ? emax + (uint32_t)eoff[k] + 1 - 1 : (uint32_t)(emax / 2) + (v >> 4 & 1);
  if (e > emax) e = emax;
  uint32_t m = (uint32_t)(v >> 12) & ((1u << mbits) - 1);
  if (v >> 40 & 1) m = v >> 41 & 1 ? (1u << mbits) - 1 : v >> 42 & 1; /* all ones, 0 or 1 */
  return (uint32_t)(v >> 63) << (ebits + mbits) | e << mbits | m;
}

#if FPN_HAVE_64
/* random binary64 bits, one time in two from edge exponents and fractions */
static uint64_t rnd_f64(test_rng *r) {
  uint64_t v = test_rng64(r);
  if (v & 1) return test_rng64(r);
  static const uint32_t es[] = {0, 1, 2, 0x7fe, 0x7fd, 0x7ff, 0x3ff, 0x3fe, 0x3cb, 0x434, 0x001, 0x036};
  uint64_t e = es[(v >> 1) % 12], m = test_rng64(r) & ((1ull << 52) - 1);
  if (v >> 40 & 1) m = v >> 41 & 1 ? (1ull << 52) - 1 : v >> 42 & 1;
  return (v >> 63) << 63 | e << 52 | m;
}
#endif

static void test_fp32_crosscheck(void **state) {
  (void)state;
  test_rng r = {0xf32f32ull};
  const fpn_fmt f = FPN_F32;
  for (int n = 0; n < 400000; n++) {
    uint32_t a = rnd_fp(&r, 8, 23), b = rnd_fp(&r, 8, 23), c = rnd_fp(&r, 8, 23);
    unsigned rm = (unsigned)(test_rng32(&r) % 5), op = (unsigned)(test_rng32(&r) % 6);
    uint32_t f1 = 0, f2 = 0, want, got;
    int np = 0, na = 0;
    switch (op) {
    case 0: want = fp32_add_soft(a, b, rm, &f1); got = fpn_add(f, a, b, rm, &f2); break;
    case 1: want = fp32_sub_soft(a, b, rm, &f1); got = fpn_sub(f, a, b, rm, &f2); break;
    case 2: want = fp32_mul_soft(a, b, rm, &f1); got = fpn_mul(f, a, b, rm, &f2); break;
    case 3: want = fp32_div_soft(a, b, rm, &f1); got = fpn_div(f, a, b, rm, &f2); break;
    case 4: want = fp32_sqrt_soft(a, rm, &f1); got = fpn_sqrt(f, a, rm, &f2); break;
    default: {
      np = (int)(test_rng32(&r) & 1);
      na = (int)(test_rng32(&r) & 1);
      want = fp32_fma(a, b, c, np, na, rm, &f1);
      got = fpn_fma(f, a, b, c, np, na, rm, &f2);
    }
    }
    if (got != want || f1 != f2)
      fail_msg("op %u rm %u a 0x%08x b 0x%08x c 0x%08x: 0x%08x flags %x, fp32 0x%08x flags %x", op, rm, a, b, c,
               got, f2, want, f1);
#if FPN_HAVE_64
    /* the 128-bit instance at binary32 too */
    uint32_t f3 = 0;
    uint64_t g;
    switch (op) {
    case 0: g = fpn64_add(f, a, b, rm, &f3); break;
    case 1: g = fpn64_sub(f, a, b, rm, &f3); break;
    case 2: g = fpn64_mul(f, a, b, rm, &f3); break;
    case 3: g = fpn64_div(f, a, b, rm, &f3); break;
    case 4: g = fpn64_sqrt(f, a, rm, &f3); break;
    default: g = fpn64_fma(f, a, b, c, np, na, rm, &f3); break;
    }
    if (g != want || f3 != f1)
      fail_msg("fpn64 op %u rm %u a 0x%08x b 0x%08x: 0x%08llx flags %x, fp32 0x%08x flags %x", op, rm, a, b,
               (unsigned long long)g, f3, want, f1);
#endif
    uint32_t g1 = 0, g2 = 0;
    assert_int_equal(fpn_min(f, a, b, &g2), fp32_min(a, b, &g1));
    assert_int_equal(fpn_max(f, a, b, &g2), fp32_max(a, b, &g1));
    assert_int_equal(fpn_eq(f, a, b, &g2), fp32_eq(a, b, &g1));
    assert_int_equal(fpn_lt(f, a, b, &g2), fp32_lt(a, b, &g1));
    assert_int_equal(fpn_le(f, a, b, &g2), fp32_le(a, b, &g1));
    assert_int_equal(g1, g2);
    assert_int_equal(fpn_classify(f, a), fp32_classify(a));
    /* conversions to and from 32-bit integers */
    uint32_t h1 = 0, h2 = 0, iv = n & 1 ? test_rng32(&r) : (uint32_t)((int32_t)test_rng32(&r) >> (test_rng32(&r) % 32));
    assert_int_equal(fpn_to_int(f, a, 32, 1, rm, &h2), (uint32_t)fp32_to_i32(a, rm, &h1));
    assert_int_equal(fpn_to_int(f, a, 32, 0, rm, &h2), fp32_to_u32(a, rm, &h1));
    assert_int_equal(fpn_from_int(f, iv, 32, 1, rm, &h2), fp32_from_i32((int32_t)iv, rm, &h1));
    assert_int_equal(fpn_from_int(f, iv, 32, 0, rm, &h2), fp32_from_u32(iv, rm, &h1));
    if (h1 != h2) fail_msg("conversions of 0x%08x / 0x%08x rm %u: flags %x, fp32 %x", a, iv, rm, h2, h1);
  }
}

/* binary16 <-> 16-bit integers against the host: the exact double of an
 * integer converted by _Float16 under fesetround; nearbyint of the exact
 * double of a half in that mode, then the range */
static void test_f16_int_host(void **state) {
  (void)state;
  int directed = host_rounding_works(), flags_ok = host_flags_work();
  test_rng r = {0x1616ull};
  for (int n = 0; n < 200000; n++) {
    unsigned rm = directed ? (unsigned)(test_rng32(&r) % 4) : 0;
    int sgn = (int)(test_rng32(&r) & 1);
    uint16_t a = (uint16_t)rnd_fp(&r, 5, 10), iv = (uint16_t)test_rng32(&r);
    uint32_t hf = 0, sf = 0;
    /* from an integer */
    double di = sgn ? (double)(int16_t)iv : (double)iv;
    fesetround(f16_host_mode[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    volatile _Float16 h = (_Float16)di;
    int ex = fetestexcept(FE_INEXACT | FE_OVERFLOW);
    fesetround(FE_TONEAREST);
    hf = (ex & FE_INEXACT ? FFLAG_NX : 0) | (ex & FE_OVERFLOW ? FFLAG_OF : 0);
    uint32_t got = fpn_from_int(FPN_F16, iv, 16, sgn, rm, &sf);
    if (got != h_bits(h) || (flags_ok && sf != hf))
      fail_msg("from %s 0x%04x rm %u: 0x%04x flags %x, host 0x%04x flags %x", sgn ? "int16" : "uint16", iv, rm, got,
               sf, h_bits(h), hf);
    /* to an integer */
    hf = sf = 0;
    double d = (double)h_val(a), lo = sgn ? -32768.0 : 0.0, hi = sgn ? 32767.0 : 65535.0;
    uint32_t want;
    if (h_nan(a)) {
      want = sgn ? 0x7fff : 0xffff;
      hf = FFLAG_NV;
    } else {
      fesetround(f16_host_mode[rm]);
      double ri = nearbyint(d);
      fesetround(FE_TONEAREST);
      if (ri < lo || ri > hi) {
        want = ri < lo ? (sgn ? 0x8000 : 0) : (sgn ? 0x7fff : 0xffff);
        hf = FFLAG_NV;
      } else {
        want = (uint32_t)(int32_t)ri & 0xffff;
        hf = ri != d ? FFLAG_NX : 0;
      }
    }
    got = fpn_to_int(FPN_F16, a, 16, sgn, rm, &sf) & 0xffff;
    if (got != want || sf != hf) /* flags of this reference: computed, not the host's */
      fail_msg("0x%04x to %s rm %u: 0x%04x flags %x, host 0x%04x flags %x", a, sgn ? "int16" : "uint16", rm, got, sf,
               want, hf);
  }
}

static void test_f16_host(void **state) {
  (void)state;
  /* valgrind's memcheck does not honour the host rounding mode: RNE only there */
  int directed = host_rounding_works();
  if (!directed) print_message("NOTE: the host ignores fesetround (valgrind?): round to nearest only\n");
  int flags_ok = host_flags_work(), fma_ok = host_fma_works();
  if (!fma_ok) print_message("NOTE: the host's fma is not fused (valgrind?): fma left out\n");
  test_rng r = {0x16f16ull};
  unsigned checked = 0;
  for (int n = 0; n < 400000; n++) {
    uint16_t a = (uint16_t)rnd_fp(&r, 5, 10), b = (uint16_t)rnd_fp(&r, 5, 10), c = (uint16_t)rnd_fp(&r, 5, 10);
    unsigned rm = directed ? (unsigned)(test_rng32(&r) % 4) : 0, op = (unsigned)(test_rng32(&r) % 6);
    /* the host's double fma rounds the sum once more unless it is exact; keep those exact */
    if (op == 5 && (!fma_ok || !f16_fma_exact(a, b, c))) continue;
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
    if (got != want || (flags_ok && sf != hf))
      fail_msg("op %u rm %u a 0x%04x b 0x%04x c 0x%04x: 0x%04x flags %x, host 0x%04x flags %x", op, rm, a, b, c,
               got, sf, want, hf);
#if FPN_HAVE_64
    /* the 128-bit instance at binary16 too, and the conversions to binary32 and back */
    uint32_t f4 = 0, f5 = 0, f6 = 0;
    uint64_t g = op == 0 ? fpn64_add(FPN_F16, a, b, rm, &f4) : op == 1 ? fpn64_sub(FPN_F16, a, b, rm, &f4)
                 : op == 2 ? fpn64_mul(FPN_F16, a, b, rm, &f4) : op == 3 ? fpn64_div(FPN_F16, a, b, rm, &f4)
                 : op == 4 ? fpn64_sqrt(FPN_F16, a, rm, &f4) : fpn64_fma(FPN_F16, a, b, c, 0, 0, rm, &f4);
    if (g != got || f4 != sf) fail_msg("fpn64 at binary16: op %u rm %u a 0x%04x b 0x%04x", op, rm, a, b);
    uint32_t w32 = fpn_convert(FPN_F16, FPN_F32, a, rm, &f5);
    volatile float fw = (float)h_val(a);
    uint32_t fwb;
    memcpy(&fwb, (const void *)&fw, 4);
    if (!h_nan(a)) assert_int_equal(w32, fwb); /* widening is exact */
    assert_int_equal(fpn_convert(FPN_F32, FPN_F16, w32, rm, &f6), h_nan(a) ? 0x7e00u : a);
#endif
    checked++;
  }
  print_message("%u binary16 results agree with the host\n", checked);
}

#if FPN_HAVE_64
static const int f64_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static uint64_t dbits(double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  return v;
}
static double dval(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static uint32_t host_flags(void) {
  int ex = fetestexcept(FE_ALL_EXCEPT);
  return (ex & FE_INEXACT ? FFLAG_NX : 0) | (ex & FE_UNDERFLOW ? FFLAG_UF : 0) | (ex & FE_OVERFLOW ? FFLAG_OF : 0) |
         (ex & FE_DIVBYZERO ? FFLAG_DZ : 0) | (ex & FE_INVALID ? FFLAG_NV : 0);
}

/* binary64 against the host's IEEE double in the four modes it has (the
 * hardware's add, sub, mul, div, sqrt, the C library's fma), flags from
 * fetestexcept, NaN results as RISC-V's canonical NaN; conversions to and
 * from 64-bit integers through the host's int64 conversion and nearbyint */
static void test_f64_host(void **state) {
  (void)state;
  int directed = host_rounding_works(), flags_ok = host_flags_work(), fma_ok = host_fma_works();
  test_rng r = {0x6464ull};
  const fpn_fmt f = FPN_F64;
  for (int n = 0; n < 300000; n++) {
    uint64_t a = rnd_f64(&r), b = rnd_f64(&r), c = rnd_f64(&r);
    unsigned rm = directed ? (unsigned)(test_rng32(&r) % 4) : 0, op = (unsigned)(test_rng32(&r) % (fma_ok ? 6 : 5));
    volatile double x = dval(a), y = dval(b), z = dval(c), d;
    fesetround(f64_mode[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case 0: d = x + y; break;
    case 1: d = x - y; break;
    case 2: d = x * y; break;
    case 3: d = x / y; break;
    case 4: d = sqrt(x); break;
    default: d = fma(x, y, z); break;
    }
    uint32_t hf = host_flags(), sf = 0;
    fesetround(FE_TONEAREST);
    uint64_t want = dbits(d), got;
    if (isnan(d)) want = 0x7ff8000000000000ull;
    switch (op) {
    case 0: got = fpn64_add(f, a, b, rm, &sf); break;
    case 1: got = fpn64_sub(f, a, b, rm, &sf); break;
    case 2: got = fpn64_mul(f, a, b, rm, &sf); break;
    case 3: got = fpn64_div(f, a, b, rm, &sf); break;
    case 4: got = fpn64_sqrt(f, a, rm, &sf); break;
    default: got = fpn64_fma(f, a, b, c, 0, 0, rm, &sf); break;
    }
    if (op == 5 && isnan(z) && ((isinf(x) && y == 0) || (x == 0 && isinf(y)))) hf |= FFLAG_NV; /* RISC-V's rule */
    if (got != want || (flags_ok && sf != hf))
      fail_msg("op %u rm %u a 0x%016llx b 0x%016llx c 0x%016llx: 0x%016llx flags %x, host 0x%016llx flags %x", op,
               rm, (unsigned long long)a, (unsigned long long)b, (unsigned long long)c, (unsigned long long)got, sf,
               (unsigned long long)want, hf);
    /* conversions */
    int sgn = (int)(test_rng32(&r) & 1);
    uint64_t iv = test_rng64(&r) >> (test_rng32(&r) % 64);
    if (sgn && (test_rng32(&r) & 1)) iv = 0 - iv;
    fesetround(f64_mode[rm]);
    feclearexcept(FE_ALL_EXCEPT);
    volatile double di = sgn ? (double)(int64_t)iv : (double)iv;
    hf = host_flags();
    fesetround(FE_TONEAREST);
    sf = 0;
    got = fpn64_from_int(f, iv, 64, sgn, rm, &sf);
    if (got != dbits(di) || (flags_ok && sf != hf))
      fail_msg("from %s 0x%016llx rm %u: 0x%016llx flags %x, host 0x%016llx flags %x", sgn ? "int64" : "uint64",
               (unsigned long long)iv, rm, (unsigned long long)got, sf, (unsigned long long)dbits(di), hf);
    double lo = sgn ? -0x1p63 : 0.0, hi = sgn ? 0x1p63 : 0x1p64; /* valid: lo <= v < hi */
    uint64_t wi;
    hf = 0;
    if (isnan(x)) {
      wi = sgn ? INT64_MAX : UINT64_MAX;
      hf = FFLAG_NV;
    } else {
      fesetround(f64_mode[rm]);
      double ri = nearbyint(x);
      fesetround(FE_TONEAREST);
      if (ri < lo || ri >= hi) {
        wi = ri < lo ? (sgn ? (uint64_t)INT64_MIN : 0) : (sgn ? (uint64_t)INT64_MAX : UINT64_MAX);
        hf = FFLAG_NV;
      } else {
        wi = sgn ? (uint64_t)(int64_t)ri : (uint64_t)ri;
        hf = ri != x ? FFLAG_NX : 0;
      }
    }
    sf = 0;
    got = fpn64_to_int(f, a, 64, sgn, rm, &sf);
    if (got != wi || sf != hf)
      fail_msg("0x%016llx to %s rm %u: 0x%016llx flags %x, host 0x%016llx flags %x", (unsigned long long)a,
               sgn ? "int64" : "uint64", rm, (unsigned long long)got, sf, (unsigned long long)wi, hf);
  }
}
#endif

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp32_crosscheck),
      cmocka_unit_test(test_f16_host),
      cmocka_unit_test(test_f16_int_host),
#if FPN_HAVE_64
      cmocka_unit_test(test_f64_host),
#endif
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
