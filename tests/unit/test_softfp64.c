/* The software double library of the compiler (src/cc/lib/softfp64.cl),
 * compiled here as C, against the host's double: every operation on edge
 * values (zeros, infinities, NaNs, subnormals, extremes, ties) crossed with
 * each other and on random values of every kind, bit for bit (a NaN result
 * need only be a NaN). The device runs the same text compiled by clang
 * and our back end (tests/cc/test_cc_double.c). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

typedef uint64_t ulong;
typedef uint32_t uint;
_Static_assert(sizeof(long) == 8, "the library's long is 64 bits");
#include "../../src/cc/lib/softfp64.cl"

static ulong B(double d) {
  ulong u;
  memcpy(&u, &d, 8);
  return u;
}
static double D(ulong u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static ulong rnd(ulong *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static const ulong edges[] = {0, 0x8000000000000000u, 0x7ff0000000000000u, 0xfff0000000000000u, 0x7ff8000000000000u,
                              0x7ff0000000000001u, 1, 0x800fffffffffffffu, 0x0010000000000000u, 0x3ff0000000000000u,
                              0xbff0000000000000u, 0x7fefffffffffffffu, 0x3fe0000000000000u, 0x3ca0000000000000u,
                              0x3cb0000000000000u, 0x3ff0000000000001u, 0x4330000000000000u, 0x43e0000000000000u,
                              0xc3e0000000000000u, 0x0008000000000000u, 0x3ff8000000000000u, 3};
enum { NE = sizeof edges / sizeof *edges };

static ulong pick(ulong *s, int i) {
  if (i >= 0) return edges[i % NE];
  ulong r = rnd(s);
  switch (rnd(s) % 6) {
  case 0: return r;
  case 1: return (r & 0x800fffffffffffffu) | ((rnd(s) % 40 + 1000) << 52);
  case 2: return r & 0x801fffffffffffffu; /* subnormal or smallest normal */
  case 3: return r & 0xfff0000000000fffu;
  default: return (r & 0x800fffffffffffffu) | ((rnd(s) % 2046 + 1) << 52);
  }
}

static void same(const char *op, ulong got, double want, ulong a, ulong b) {
  if ((isnan(D(got)) && isnan(want)) || got == B(want)) return;
  fail_msg("%s(0x%016llx, 0x%016llx) is 0x%016llx, expected 0x%016llx", op, (unsigned long long)a, (unsigned long long)b,
           (unsigned long long)got, (unsigned long long)B(want));
}

/* x (exact in long double's 64-bit significand) rounded in mode rm (0
 * nearest even, 1 toward zero, 2 up, 3 down) by comparisons */
static double int_in(long double x, int rm) {
  double d = (double)x;
  if ((long double)d == x || rm == 0) return d;
  double lo = (long double)d < x ? d : nextafter(d, -INFINITY), hi = (long double)d < x ? nextafter(d, INFINITY) : d;
  return rm == 1 ? (x < 0 ? hi : lo) : rm == 2 ? hi : lo;
}

/* the half bits of x rounded in mode rm: the exact quotient by the half's
 * step at x's magnitude, rounded as an integer, then encoded */
static uint half_in(double x, int rm) {
  uint s = signbit(x) ? 0x8000u : 0;
  double a = fabs(x);
  if (isnan(x)) return s | 0x7e00u;
  if (isinf(x)) return s | 0x7c00u;
  int ex;
  frexp(a, &ex); /* a in [2^(ex-1), 2^ex) */
  double step = a < 0x1p-14 ? 0x1p-24 : ldexp(1.0, ex - 11), q = a / step, k = floor(q), f = q - k;
  int away = rm == 0 ? f > 0.5 || (f == 0.5 && fmod(k, 2) == 1) : rm == 1 ? 0 : f > 0 && ((rm == 2) == !s);
  double v = (k + away) * step;
  if (v > 65504) return s | (rm == 0 || (rm >= 2 && (rm == 2) == !s) ? 0x7c00u : 0x7bffu);
  if (v < 0x1p-14) return s | (uint)(v * 0x1p24);
  frexp(v, &ex);
  return s | (uint)((ex + 14) << 10) | ((uint)ldexp(v, 11 - ex) - 1024);
}

static void test_ops(void **state) {
  (void)state;
  ulong s = 88172645463325252u;
  for (int i = 0; i < 300000; i++) {
    int edge = i < NE * NE * NE;
    ulong a = pick(&s, edge ? i % NE : -1), b = pick(&s, edge ? i / NE % NE : -1), c = pick(&s, edge ? i / NE / NE : -1);
    double x = D(a), y = D(b), z = D(c);
    same("add", __cy_dadd(a, b), x + y, a, b);
    same("sub", __cy_dsub(a, b), x - y, a, b);
    same("mul", __cy_dmul(a, b), x * y, a, b);
    same("div", __cy_ddiv(a, b), x / y, a, b);
    same("fma", __cy_dfma(a, b, c), fma(x, y, z), a, b);
    same("fma-cancel", __cy_dfma(a, b, __cy_dmul(a, b) ^ CY_SIGN), fma(x, y, -(x * y)), a, b);
    same("sqrt", __cy_dsqrt(a), sqrt(x), a, 0);
    if (i % 16 == 0) same("fmod", __cy_drem(a, b), fmod(x, y), a, b);
    uint rel = isunordered(x, y) ? 8 : x == y ? 1 : x > y ? 2 : 4;
    if (__cy_dcmp(a, b) != rel) fail_msg("cmp(%a, %a) is %u, expected %u", x, y, __cy_dcmp(a, b), rel);
    float f = (float)x, g;
    uint fb = __cy_dtof(a), hb = (uint)rnd(&s);
    memcpy(&g, &fb, 4);
    if (!(isnan(f) ? isnan(g) : f == g && signbit(f) == signbit(g))) fail_msg("(float)%a is %a, expected %a", x, g, f);
    if (edge) hb = (uint)(a >> 32);
    memcpy(&f, &hb, 4);
    same("ftod", __cy_ftod(hb), (double)f, hb, 0);
    long li = (long)rnd(&s) >> (rnd(&s) % 64);
    same("i64tod", __cy_i64tod(li), (double)li, (ulong)li, 0);
    ulong lu = rnd(&s) >> (rnd(&s) % 64);
    same("u64tod", __cy_u64tod(lu), (double)lu, lu, 0);
    for (uint rm = 0; rm < 4; rm++) {
      same("i64tod_rm", __cy_i64tod_rm(li, rm), int_in((long double)li, (int)rm), (ulong)li, rm);
      same("u64tod_rm", __cy_u64tod_rm(lu, rm), int_in((long double)lu, (int)rm), lu, rm);
    }
    if (!isnan(x) && fabs(x) < 0x1p63 && __cy_dtoi64(a) != (long)x) fail_msg("(long)%a", x);
    if (!isnan(x) && x > -1 && x < 0x1p64 && __cy_dtou64(a) != (ulong)x) fail_msg("(ulong)%a", x);
    /* a midpoint between two halves (normal or subnormal), or next to one */
    double t = ldexp((double)(rnd(&s) % 2048) + 0.5, (int)(rnd(&s) % 46) - 36) * (i & 1 ? -1 : 1);
    ulong tb = B(t) + (ulong)(i % 3) - 1;
    for (uint rm = 0; rm < 4; rm++) {
      uint h = __cy_dtoh(tb, rm), wh = half_in(D(tb), (int)rm);
      if (h != wh) fail_msg("dtoh(%a, mode %u) is 0x%04x, expected 0x%04x", D(tb), rm, h, wh);
    }
    for (uint rm = 0; rm < 4; rm++) {
      uint h = __cy_dtoh(a, rm), wh = half_in(x, (int)rm);
      if (h != wh && !(isnan(x) && (h & 0x7e00) == 0x7e00))
        fail_msg("dtoh(%a, mode %u) is 0x%04x, expected 0x%04x", x, rm, h, wh);
    }
    same("rint", __cy_dround(a, 0), nearbyint(x), a, 0);
    same("trunc", __cy_dround(a, 1), trunc(x), a, 0);
    same("floor", __cy_dround(a, 2), floor(x), a, 0);
    same("ceil", __cy_dround(a, 3), ceil(x), a, 0);
    same("round", __cy_dround(a, 4), round(x), a, 0);
    int n = (int)(rnd(&s) % 4300) - 2150;
    same("ldexp", __cy_dldexp(a, n), ldexp(x, n), a, (ulong)n);
    if (!isnan(x) && !isnan(y) && !(x == 0 && y == 0)) {
      same("fmin", __cy_dminmax(a, b, 0), fmin(x, y), a, b);
      same("fmax", __cy_dminmax(a, b, 1), fmax(x, y), a, b);
    }
    static const uint cls[] = {FP_NAN, FP_INFINITE, FP_NORMAL, FP_SUBNORMAL, FP_ZERO};
    uint k = __cy_dclass(a), want = 0;
    for (int j = 0; j < 5; j++)
      if (fpclassify(x) == (int)cls[j]) want = j == 0 ? (a & 0x0008000000000000u ? 2 : 1)
                                         : 1u << (signbit(x) ? 2 + (j - 1) : 9 - (j - 1));
    if (k != want) fail_msg("class(%a) is 0x%x, expected 0x%x", x, k, want);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_ops)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
