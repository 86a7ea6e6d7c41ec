/* tests/cc/kernels/double.cl: double in software (cc_lower_f64.c and the
 * library src/cc/lib/softfp64.cl), compiled by `ventus cc` (or the OpenCL
 * platform), run through the native or the OpenCL API and checked against
 * the host's double, bit for bit: NaN results need only be NaNs (OpenCL
 * leaves their payload open), everything else, signed zeros and
 * subnormals included, must be the same double. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <float.h>
#include <math.h>

#include <cmocka.h>

#include "cc_rig.h"
#include "chengying.h"
#include "test_bits.h"

typedef cc_suite rig;

static int group_setup(void **state) { return cc_suite_setup(state, "double"); }

/* edges: zeros, infinities, NaNs, the subnormal and normal extremes, ties
 * of 1 + 2^-53 (even and odd), values near 2^52..2^64 */
static const uint64_t edges[] = {
    0x0000000000000000u, 0x8000000000000000u, 0x7ff0000000000000u, 0xfff0000000000000u, 0x7ff8000000000000u,
    0x0000000000000001u, 0x800fffffffffffffu, 0x0010000000000000u, 0x7fefffffffffffffu, 0x3ff0000000000000u,
    0x3ca0000000000000u, 0x3ff0000000000001u, 0xbca0000000000000u, 0x3fe0000000000000u, 0xbff8000000000000u,
    0x4004000000000000u, 0x4330000000000000u, 0x432fffffffffffffu, 0x43e0000000000000u, 0xc3e0000000000000u,
    0x41efffffffe00000u, 0x0008000000000000u, 0x3cb0000000000000u, 0x7fe0000000000000u, 0x000fffffffffffffu,
    0x4000000000000001u, 0xc010000000000000u, 0x3fd5555555555555u, 0x3ff8000000000000u, 0x4002000000000000u};
enum { NE = sizeof edges / sizeof *edges };

/* a: every edge against every other of a few, then random values of
 * every kind (near 1, subnormal, any exponent, small integers) */
static uint64_t pick(uint64_t *s, int i, int which) {
  if (i < NE * NE) return which ? edges[(i / NE) % NE] : edges[i % NE];
  uint64_t r = rnd64(s);
  switch (r % 7) {
  case 0: return r;
  case 1: return (r & 0x800fffffffffffffu) | ((uint64_t)(1015 + rnd64(s) % 20) << 52);
  case 2: return r & 0x800fffffffffffffu;
  case 3: return (r & 0x800fffffffffffffu) | ((uint64_t)(1 + rnd64(s) % 2046) << 52);
  case 4: return bits_of((double)(int32_t)(r >> 40) * 0.5);
  case 5: return (r & 0xfff0000000000fffu) | ((uint64_t)(1020 + rnd64(s) % 60) << 52);
  default: return (r & 0x8000000000000003u) | 0x3ff0000000000000u;
  }
}

static int same_d(double g, double w) { return (isnan(g) && isnan(w)) || bits_of(g) == bits_of(w); }

static void check_d(const double *got, const double *want, size_t n, const char *what, const double *in_a,
                    const double *in_b, size_t per) {
  for (size_t i = 0; i < n; i++)
    if (!same_d(got[i], want[i]))
      fail_msg("%s: [%zu] (lane %zu, result %zu; a = %a, b = %a) is %a (0x%016llx), expected %a (0x%016llx)", what, i,
               i / per, i % per, in_a[i / per], in_b ? in_b[i / per] : 0.0, got[i], (unsigned long long)bits_of(got[i]),
               want[i], (unsigned long long)bits_of(want[i]));
}

static double rint_even(double x) { return nearbyint(x); } /* the host runs in round-to-nearest-even */

static void test_darith(void **state) {
  rig *r = *state;
  enum { N = 1024, R = 20 };
  static double a[N], b[N], c[N], out[N * R], want[N * R];
  static uint32_t rel[N], wrel[N];
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i, 0));
    b[i] = d_of(pick(&s, i, 1));
    c[i] = d_of(i % 5 ? pick(&s, NE * NE, 0) : bits_of(-a[i] * b[i])); /* cancellation in fma */
  }
  for (int i = 0; i < N; i++) {
    double x = a[i], y = b[i], z = c[i], *o = want + R * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = fma(x, y, z);
    o[5] = sqrt(x);
    o[6] = -x;
    o[7] = fabs(x);
    o[8] = floor(x);
    o[9] = ceil(x);
    o[10] = trunc(x);
    o[11] = rint_even(x);
    o[12] = round(x);
    o[13] = isnan(x) ? y : isnan(y) ? x : x < y ? x : y;
    o[14] = isnan(x) ? y : isnan(y) ? x : x > y ? x : y;
    o[15] = copysign(x, y);
    o[16] = fma(x, y, z);
    o[17] = x * y;
    o[17] = o[17] + z;
    o[18] = x > y ? x : y;
    o[19] = x == y ? 1.0 : 0.25;
    wrel[i] = (uint32_t)((x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
                         (!!isnan(x)) << 6 | (!!isinf(x)) << 7 | (!!isfinite(x)) << 8 | (!!isnormal(x)) << 9 |
                         (!!signbit(x)) << 10 | (!!isunordered(x, y)) << 11 | (!!islessgreater(x, y)) << 12);
  }
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), B = cc_rig_buf(r->c, b, sizeof b), C = cc_rig_buf(r->c, c, sizeof c);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof out), L = cc_rig_buf(r->c, NULL, sizeof rel);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "darith", &nd, (uint32_t[]){A, B, C, O, L}, 5);
  cc_rig_get(r->c, O, out, sizeof out);
  cc_rig_get(r->c, L, rel, sizeof rel);
  /* fmin/fmax of two zeros may give either */
  for (int i = 0; i < N; i++)
    if (a[i] == 0 && b[i] == 0)
      for (int k = 13; k <= 14; k++)
        if (out[R * i + k] == 0) want[R * i + k] = out[R * i + k];
  check_d(out, want, N * R, "darith", a, b, R);
  for (int i = 0; i < N; i++)
    if (rel[i] != wrel[i])
      fail_msg("darith relations: lane %d (a = %a, b = %a) 0x%x, expected 0x%x", i, a[i], b[i], rel[i], wrel[i]);
}

static void test_dconv(void **state) {
  rig *r = *state;
  enum { N = 512 };
  static double a[N], od[N * 6], wd[N * 6];
  static float f[N], of[N], wf[N];
  static int64_t l[N], ol[N * 5];
  uint64_t s = 12345;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i < NE ? i : NE * NE + i, 0));
    if (i % 3 == 0) a[i] = ldexp((double)(int64_t)rnd64(&s), -(int)(rnd64(&s) % 64)); /* integers, halves, ... */
    uint32_t fb = (uint32_t)rnd64(&s);
    if (i < NE) fb = (uint32_t)(edges[i] >> 32);
    memcpy(&f[i], &fb, 4);
    l[i] = (int64_t)rnd64(&s) >> (rnd64(&s) % 64);
    if (i < 8) l[i] = (int64_t[]){0, -1, INT64_MIN, INT64_MAX, 1LL << 53, (1LL << 53) + 1, -(1LL << 54) - 3, 0x7ffffffffffffdffLL}[i];
  }
  for (int i = 0; i < N; i++) {
    double x = a[i];
    wf[i] = (float)x;
    wd[6 * i + 0] = (double)f[i];
    wd[6 * i + 1] = (double)l[i];
    wd[6 * i + 2] = (double)(uint64_t)l[i];
    wd[6 * i + 3] = (double)(int32_t)l[i];
    wd[6 * i + 4] = (double)(uint32_t)l[i];
    wd[6 * i + 5] = (double)(int16_t)l[i];
  }
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), F = cc_rig_buf(r->c, f, sizeof f), L = cc_rig_buf(r->c, l, sizeof l);
  uint32_t OD = cc_rig_buf(r->c, NULL, sizeof od), OF = cc_rig_buf(r->c, NULL, sizeof of), OL = cc_rig_buf(r->c, NULL, sizeof ol);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "dconv", &nd, (uint32_t[]){A, F, L, OD, OF, OL}, 6);
  cc_rig_get(r->c, OD, od, sizeof od);
  cc_rig_get(r->c, OF, of, sizeof of);
  cc_rig_get(r->c, OL, ol, sizeof ol);
  check_d(od, wd, N * 6, "dconv to double", a, NULL, 6);
  for (int i = 0; i < N; i++)
    if (!((isnan(of[i]) && isnan(wf[i])) || !memcmp(&of[i], &wf[i], 4)))
      fail_msg("dconv: (float)%a is %a, expected %a", a[i], (double)of[i], (double)wf[i]);
  /* the integer results where the value fits (C leaves the rest undefined) */
  for (int i = 0; i < N; i++) {
    double x = a[i], h = x * 0x1p-32, t = x * 0x1p-60;
    int ok[5] = {fabs(x) < 0x1p63, fabs(x) < 0x1p64, fabs(h) < 0x1p31, fabs(h) < 0x1p32, fabs(t) < 128};
    int64_t w[5] = {ok[0] ? (int64_t)x : 0, ok[1] ? (int64_t)(uint64_t)fabs(x) : 0, ok[2] ? (int32_t)h : 0,
                    ok[3] ? (int64_t)(uint32_t)fabs(h) : 0, ok[4] ? (int8_t)t : 0};
    for (int k = 0; k < 5; k++)
      if (ok[k] && !isnan(x) && ol[5 * i + k] != w[k])
        fail_msg("dconv: lane %d (%a) integer %d is %lld, expected %lld", i, x, k, (long long)ol[5 * i + k], (long long)w[k]);
  }
}

static void test_dmix(void **state) {
  rig *r = *state;
  enum { N = 256 };
  static double v[2 * N], o[4 * N], wo[4 * N], acc[N], wacc[N];
  const double tab[4] = {0.1, -2.5, 0x1p-1074, 1e300}, sc = -0.7;
  uint64_t s = 777;
  for (int i = 0; i < 2 * N; i++) v[i] = d_of(pick(&s, NE * NE + i, 0));
  for (int i = 0; i < N; i++) {
    double px = v[2 * i], py = v[2 * i + 1];
    wo[4 * i + 0] = fma(px, sc, tab[i & 3]);
    wo[4 * i + 1] = fma(py, sc, tab[i & 3]);
    wo[4 * i + 2] = py / 3.0;
    wo[4 * i + 3] = px / 7.0;
    double t = px > 0.0 ? sqrt(px) : -py;
    for (int k = 0; k < (i & 7); k++) t = fma(t, 1.5, (double)k);
    wacc[i] = t;
  }
  uint32_t V = cc_rig_buf(r->c, v, sizeof v), O = cc_rig_buf(r->c, NULL, sizeof o), C = cc_rig_buf(r->c, NULL, sizeof acc);
  uint64_t sb = bits_of(sc);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  /* a double argument: two words at an 8-byte slot */
  cc_rig_launch(r->c, r->prog, "dmix", &nd, (uint32_t[]){V, 0, (uint32_t)sb, (uint32_t)(sb >> 32), O, C}, 6);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, C, acc, sizeof acc);
  check_d(o, wo, 4 * N, "dmix vectors", v, NULL, 8);
  check_d(acc, wacc, N, "dmix loop", v, NULL, 2);
}

static void test_guard(void **state) {
  rig *r = *state;
  enum { N = 256 };
  static float in[N], out[4 * N], want[4 * N];
  uint64_t s = 99;
  for (int i = 0; i < N; i++) {
    uint32_t b = (uint32_t)rnd64(&s);
    if (i < NE) b = (uint32_t)(edges[i] >> 32);
    memcpy(&in[i], &b, 4);
    double x = in[i];
    want[4 * i + 0] = (float)(3.14159265358979323846 * x);
    want[4 * i + 1] = (float)fma(1.e18, x, 0.1);
    want[4 * i + 2] = 24.0f;
    want[4 * i + 3] = (float)(x / 3.0);
  }
  uint32_t I = cc_rig_buf(r->c, in, sizeof in), O = cc_rig_buf(r->c, NULL, sizeof out);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "guard", &nd, (uint32_t[]){O, I}, 2);
  cc_rig_get(r->c, O, out, sizeof out);
  for (int i = 0; i < 4 * N; i++)
    if (!((isnan(out[i]) && isnan(want[i])) || !memcmp(&out[i], &want[i], 4)))
      fail_msg("guard: [%d] (x = %a) is %a, expected %a", i, (double)in[i / 4], (double)out[i], (double)want[i]);
}

/* rounding modes as OpenCL names them: 0 rte, 1 rtz, 2 rtp, 3 rtn. The
 * references below round by exact comparisons, not through the host's
 * fenv (which the C compiler may move conversions across) */
enum { RTE, RTZ, RTP, RTN };

/* the representable neighbours lo <= x <= hi, then the mode's choice */
static double pick_dir(long double x, double lo, double hi, double near, int m) {
  if ((long double)near == x) return near;
  if (m == RTE) return near;
  if (m == RTZ) return x < 0 ? hi : lo;
  return m == RTP ? hi : lo;
}

static float to_float_in(double x, int m) {
  float f = (float)x;
  if (isnan(x) || (double)f == x || isinf(x)) return f;
  float lo = (double)f < x ? f : nextafterf(f, -INFINITY), hi = (double)f < x ? nextafterf(f, INFINITY) : f;
  /* beyond the largest float: the infinity rounding gave, or the largest */
  if (isinf(f)) {
    lo = f > 0 ? FLT_MAX : -INFINITY;
    hi = f > 0 ? INFINITY : -FLT_MAX;
  }
  return (float)pick_dir(x, lo, hi, f, m);
}

static double to_double_in(int64_t x, int m, int uns) {
  long double e = uns ? (long double)(uint64_t)x : (long double)x; /* exact: 64-bit significand */
  double d = (double)e;
  double lo = (long double)d < e ? d : nextafter(d, -INFINITY), hi = (long double)d < e ? nextafter(d, INFINITY) : d;
  return pick_dir(e, lo, hi, d, m);
}

/* x rounded to an integer in mode m and clamped to [lo, hi], NaN 0 */
static long double sat_in(double x, int m, long double lo, long double hi) {
  if (isnan(x)) return 0;
  double r = m == RTE ? nearbyint(x) : m == RTZ ? trunc(x) : m == RTP ? ceil(x) : floor(x);
  return r < lo ? lo : r > hi ? hi : r;
}

static void test_dconvm(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 256 };
  static double a[N], od[5 * N], wd[5 * N];
  static int64_t l[N], ol[2 * N];
  static float of[4 * N];
  static int32_t oi[6 * N];
  uint64_t s = 4242;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i < NE ? i : NE * NE + i, 0));
    if (i % 4 == 1) a[i] = ldexp((double)(int64_t)rnd64(&s), -(int)(rnd64(&s) % 40)); /* around the int range */
    if (i % 4 == 2) a[i] = (double)(int32_t)rnd64(&s) + (double)(rnd64(&s) % 4) * 0.25;
    l[i] = (int64_t)rnd64(&s) >> (rnd64(&s) % 12);
  }
  a[NE] = 2147483647.5;
  a[NE + 1] = -2147483648.5;
  a[NE + 2] = 0x1p64;
  a[NE + 3] = 0x1.fffffffffffffp63;
  l[0] = INT64_MAX;
  l[1] = INT64_MIN;
  l[2] = (1LL << 53) + 1;
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), L = cc_rig_buf(r->c, l, sizeof l), OF = cc_rig_buf(r->c, NULL, sizeof of);
  uint32_t OI = cc_rig_buf(r->c, NULL, sizeof oi), OL = cc_rig_buf(r->c, NULL, sizeof ol), OD = cc_rig_buf(r->c, NULL, sizeof od);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "dconvm", &nd, (uint32_t[]){A, L, OF, OI, OL, OD}, 6);
  cc_rig_get(r->c, OF, of, sizeof of);
  cc_rig_get(r->c, OI, oi, sizeof oi);
  cc_rig_get(r->c, OL, ol, sizeof ol);
  cc_rig_get(r->c, OD, od, sizeof od);
  for (int i = 0; i < N; i++) {
    double x = a[i];
    for (int m = 0; m < 4; m++) {
      float w = to_float_in(x, m);
      if (!((isnan(w) && isnan(of[4 * i + m])) || !memcmp(&w, &of[4 * i + m], 4)))
        fail_msg("convert_float mode %d of %a is %a, expected %a", m, x, (double)of[4 * i + m], (double)w);
      int32_t wi = (int32_t)sat_in(x, m, INT32_MIN, INT32_MAX);
      if (oi[6 * i + m] != wi) fail_msg("convert_int_sat mode %d of %a is %d, expected %d", m, x, oi[6 * i + m], wi);
      wd[5 * i + m] = to_double_in(l[i], m, 0);
    }
    int32_t wu = (int32_t)(uint32_t)sat_in(x, RTZ, 0, UINT32_MAX);
    int32_t wc = (int32_t)sat_in(x, RTE, -128, 127);
    if (oi[6 * i + 4] != wu) fail_msg("convert_uint_sat of %a is %d, expected %d", x, oi[6 * i + 4], wu);
    if (oi[6 * i + 5] != wc) fail_msg("convert_char_sat_rte of %a is %d, expected %d", x, oi[6 * i + 5], wc);
    int64_t wl = isnan(x) ? 0 : x >= 0x1p63 ? INT64_MAX : x <= -0x1p63 ? INT64_MIN : (int64_t)x;
    uint64_t wul = isnan(x) || x <= 0 ? 0 : x >= 0x1p64 ? UINT64_MAX : (uint64_t)ceil(x);
    if (ol[2 * i] != wl) fail_msg("convert_long_sat of %a is %lld, expected %lld", x, (long long)ol[2 * i], (long long)wl);
    if ((uint64_t)ol[2 * i + 1] != wul)
      fail_msg("convert_ulong_sat_rtp of %a is %llu, expected %llu", x, (unsigned long long)ol[2 * i + 1], (unsigned long long)wul);
    wd[5 * i + 4] = to_double_in(l[i], RTZ, 1);
  }
  check_d(od, wd, 5 * N, "convert_double", a, NULL, 5);
}

static void test_dvload(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 64 };
  static double p[4 * N + 8], q[7 * N + 4], w[7 * N + 4];
  uint64_t s = 5;
  for (int i = 0; i < 4 * N + 8; i++) p[i] = d_of(pick(&s, NE * NE + i, 0));
  for (int i = 0; i < N; i++) {
    const double *v = p + 4 * i, *wv = p + 2 * (2 * i + 1), *t = p + 1 + 3 * i;
    double add[4] = {wv[0], wv[1], t[0], t[2]};
    for (int k = 0; k < 4; k++) w[4 * i + k] = v[3 - k] + add[k];
    for (int k = 0; k < 3; k++) w[4 * N + 3 * i + k] = t[k] * 0.5;
  }
  uint32_t P = cc_rig_buf(r->c, p, sizeof p), Q = cc_rig_buf(r->c, NULL, sizeof q);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "dvload", &nd, (uint32_t[]){P, Q}, 2);
  cc_rig_get(r->c, Q, q, sizeof q);
  check_d(q, w, 7 * N, "dvload", p, NULL, 7);
}

/* the half bits of x rounded in mode m: the exact quotient by the half's
 * step at x's magnitude, rounded as an integer, then encoded */
static uint16_t half_in(double x, int m) {
  unsigned s = signbit(x) ? 0x8000u : 0;
  double a = fabs(x);
  if (isnan(x)) return (uint16_t)(s | 0x7e00u);
  if (isinf(x)) return (uint16_t)(s | 0x7c00u);
  int ex;
  frexp(a, &ex); /* a in [2^(ex-1), 2^ex) */
  double step = a < 0x1p-14 ? 0x1p-24 : ldexp(1.0, ex - 11), q = a / step, k = floor(q), f = q - k;
  int up = !s, away = m == RTE ? f > 0.5 || (f == 0.5 && fmod(k, 2) == 1) : m == RTZ ? 0 : f > 0 && (m == RTP) == up;
  double v = (k + away) * step;
  if (v > 65504) return (uint16_t)(s | (m == RTE || (m != RTZ && (m == RTP) == up) ? 0x7c00u : 0x7bffu));
  if (v < 0x1p-14) return (uint16_t)(s | (unsigned)(v * 0x1p24));
  frexp(v, &ex);
  return (uint16_t)(s | (unsigned)((ex + 14) << 10) | ((unsigned)ldexp(v, 11 - ex) - 1024));
}

static void test_dhalf(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 512 };
  static double a[N];
  static uint16_t h[7 * N], w[7 * N];
  uint64_t s = 31337;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i < NE ? i : NE * NE + i, 0));
    /* midpoints between halves and their neighbours, normal and subnormal, and overflow */
    if (i % 3 == 1) a[i] = ldexp((double)(rnd64(&s) % 2048) + 0.5, (int)(rnd64(&s) % 46) - 36) * (i & 2 ? -1 : 1);
    if (i % 3 == 2) a[i] = d_of(bits_of(a[i - 1]) + (rnd64(&s) & 1 ? 1 : (uint64_t)-1));
  }
  a[NE] = 65520.0;
  a[NE + 1] = -65519.99;
  a[NE + 2] = 0x1p-25;
  a[NE + 3] = -0x1p-25;
  for (int i = 0; i < N; i++) {
    w[5 * i + 0] = w[5 * i + 1] = half_in(a[i], RTE);
    w[5 * i + 2] = half_in(a[i], RTZ);
    w[5 * i + 3] = half_in(a[i], RTP);
    w[5 * i + 4] = half_in(a[i], RTN);
    w[5 * N + i] = half_in(a[i], RTZ);
    w[6 * N + i] = half_in(a[i], RTP);
  }
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), H = cc_rig_buf(r->c, NULL, sizeof h);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "dhalf", &nd, (uint32_t[]){A, H}, 2);
  cc_rig_get(r->c, H, h, sizeof h);
  for (int i = 0; i < 7 * N; i++) {
    double x = a[i < 5 * N ? i / 5 : i < 6 * N ? i - 5 * N : i - 6 * N];
    int nan_ok = isnan(x) && (h[i] & 0x7e00) == 0x7e00;
    if (h[i] != w[i] && !nan_ok) fail_msg("dhalf: [%d] of %a is 0x%04x, expected 0x%04x", i, x, h[i], w[i]);
  }
}

static void test_dmisc(void **state) {
  rig *r = *state;
  enum { N = 128, L = 64 };
  static double in[N], o[N], w[N];
  const double sa = 1.0 / 3.0, sc = -2.75;
  const int32_t sb = -7;
  uint64_t s = 2024;
  for (int i = 0; i < N; i++) in[i] = (double)(int32_t)(rnd64(&s) >> 40) * 0x1p-7;
  for (int g = 0; g < N / L; g++) {
    double sh[L];
    for (int l = 0; l < L; l++) {
      int i = g * L + l;
      sh[l] = fma(sa, (double)sb, in[i] * (i & 7)) - sc;
    }
    for (int st = L / 2; st > 0; st >>= 1)
      for (int l = 0; l < st; l++) sh[l] += sh[l + st];
    for (int l = 0; l < L; l++) w[g * L + l] = fma(sh[0], in[g * L + l], 1.0);
  }
  uint32_t I = cc_rig_buf(r->c, in, sizeof in), O = cc_rig_buf(r->c, NULL, sizeof o);
  uint64_t ab = bits_of(sa), cb = bits_of(sc);
  /* each double at an 8-byte slot */
  uint32_t slots[9] = {O, 0, (uint32_t)ab, (uint32_t)(ab >> 32), (uint32_t)sb, 0, (uint32_t)cb, (uint32_t)(cb >> 32), I};
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {L}};
  cc_rig_launch(r->c, r->prog, "dmisc", &nd, slots, 9);
  cc_rig_get(r->c, O, o, sizeof o);
  check_d(o, w, N, "dmisc", in, NULL, 1);
}

static void test_dbits(void **state) {
  rig *r = *state;
  enum { N = 128 };
  static uint64_t a[2 * N], b[2 * N], c[2 * N], o[6 * N];
  uint64_t s = 31337;
  for (int i = 0; i < 2 * N; i++) a[i] = rnd64(&s), b[i] = rnd64(&s), c[i] = rnd64(&s);
  a[0] = a[1] = 0; /* nan(0): the quiet NaN itself, not an infinity */
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), B = cc_rig_buf(r->c, b, sizeof b), C = cc_rig_buf(r->c, c, sizeof c);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof o);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "dbits", &nd, (uint32_t[]){A, B, C, O}, 4);
  cc_rig_get(r->c, O, o, sizeof o);
  const uint64_t qnan = 0x7ff8000000000000ull, low = 0x7ffffffffffffull;
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 2; k++) {
      uint64_t w = (a[2 * i + k] & ~c[2 * i + k]) | (b[2 * i + k] & c[2 * i + k]);
      if (o[6 * i + k] != w)
        fail_msg("bitselect(double2) item %d lane %d: 0x%016llx, expected 0x%016llx", i, k, (unsigned long long)o[6 * i + k],
                 (unsigned long long)w);
    }
    uint64_t w = (a[2 * i] & ~c[2 * i + 1]) | (b[2 * i + 1] & c[2 * i + 1]);
    if (o[6 * i + 2] != w)
      fail_msg("bitselect(double) item %d: 0x%016llx, expected 0x%016llx", i, (unsigned long long)o[6 * i + 2],
               (unsigned long long)w);
    uint64_t n[3] = {qnan | (a[2 * i] & low), qnan | (a[2 * i + 1] & low), qnan | (a[2 * i] & low)};
    for (int k = 0; k < 3; k++)
      if (o[6 * i + 3 + k] != n[k])
        fail_msg("nan item %d %s: 0x%016llx, expected 0x%016llx", i, k ? "(double2)" : "(double)",
                 (unsigned long long)o[6 * i + 3 + k], (unsigned long long)n[k]);
  }
}

static void test_dmixed(void **state) {
  rig *r = *state;
  enum { N = 64 };
  static double v[4 * N], sc[N], o[4 * N], w[4 * N];
  uint64_t s = 3;
  for (int i = 0; i < 4 * N; i++) v[i] = d_of(pick(&s, NE * NE + i, 0));
  for (int i = 0; i < N; i++) sc[i] = i < NE ? d_of(edges[i]) : (double)(int32_t)(rnd64(&s) >> 48) / 64;
  for (int i = 0; i < 4 * N; i++) {
    double x = v[i], y = sc[i / 4];
    double mx = isnan(x) ? y : isnan(y) ? x : x > y ? x : y, mn = isnan(x) ? 0.5 : x < 0.5 ? x : 0.5;
    w[i] = mx - mn;
  }
  uint32_t V = cc_rig_buf(r->c, v, sizeof v), S = cc_rig_buf(r->c, sc, sizeof sc), O = cc_rig_buf(r->c, NULL, sizeof o);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "dmixed", &nd, (uint32_t[]){V, S, O}, 3);
  cc_rig_get(r->c, O, o, sizeof o);
  for (int i = 0; i < 4 * N; i++) /* fmax(-0, +0) may give either: the difference of zeros only by sign */
    if (!same_d(o[i], w[i]) && !(o[i] == 0 && w[i] == 0))
      fail_msg("dmixed: [%d] (v = %a, s = %a) is %a, expected %a", i, v[i], sc[i / 4], o[i], w[i]);
}

/* error of g against the exact value r (long double), in units of the last
 * place of r as a double */
static double ulp_err(double g, long double r) {
  if (isnan(r)) return isnan(g) ? 0 : 1e9;
  if (isinf(r) || isinf(g)) return (long double)g == r ? 0 : 1e9;
  double rd = (double)r;
  double ulp = isinf(rd) ? 0x1p971 : nextafter(fabs(rd), INFINITY) - fabs(rd);
  if (fabsl(r) < 0x1p-1022L) ulp = 0x1p-1074;
  return (double)(fabsl((long double)g - r) / ulp);
}

static void test_dmath(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 128, NM = 24 };
  static double xs[N], ys[N], out[NM * N];
  uint64_t s = 61;
  for (int i = 0; i < N; i++) {
    xs[i] = (double)(rnd64(&s) >> 11) * 0x1p-52 - 1.0;
    ys[i] = ((double)(rnd64(&s) >> 11) + 1.0) * 0x1p-53;
  }
  static const double ex[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 0x1p-1074, 1.0, -1.0, 0.5};
  for (int i = 0; i < 9; i++) xs[i] = ex[i];
  uint32_t X = cc_rig_buf(r->c, xs, sizeof xs), Y = cc_rig_buf(r->c, ys, sizeof ys), O = cc_rig_buf(r->c, NULL, sizeof out);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "dmath", &nd, (uint32_t[]){X, Y, O}, 3);
  cc_rig_get(r->c, O, out, sizeof out);
  static const char *const names[NM] = {"sin",  "cos",   "tan",   "exp",  "exp2", "exp10", "log",   "log2",
                                        "log10", "pow",  "atan",  "asin", "acos", "atan2", "sinh",  "cosh",
                                        "tanh", "cbrt",  "hypot", "fmod", "expm1", "log1p", "erf", "erfc"};
  static const double bound[NM] = {4, 4, 5, 3, 3, 3, 3, 3, 3, 16, 5, 4, 4, 6, 4, 4, 5, 2, 4, 0, 3, 2, 16, 16};
  double worst[NM] = {0};
  for (int i = 0; i < N; i++) {
    /* the arguments as the kernel rounds them (one double operation each) */
    long double x = xs[i], y = ys[i];
    long double want[NM] = {sinl((double)(xs[i] * 100.0)), cosl((double)(xs[i] * 100.0)), tanl((double)(xs[i] * 1.5)),
                            expl((double)(xs[i] * 700.0)), exp2l((double)(xs[i] * 1000.0)),
                            powl(10.0L, (double)(xs[i] * 300.0)), logl((double)(ys[i] * 1000.0)),
                            log2l((double)(ys[i] * 1e-300)), log10l(y), powl((double)(ys[i] * 10.0), (double)(xs[i] * 50.0)),
                            atanl((double)(xs[i] * 50.0)), asinl(x), acosl(x), atan2l(x, (double)(ys[i] - 0.5)),
                            sinhl((double)(xs[i] * 10.0)), coshl((double)(xs[i] * 10.0)), tanhl((double)(xs[i] * 5.0)),
                            cbrtl((double)(xs[i] * 1e10)), hypotl((double)(xs[i] * 1e200), (double)(ys[i] * 1e200)),
                            fmodl((double)(xs[i] * 1e5), (double)(ys[i] + 0.5)), expm1l(x), log1pl((double)(ys[i] * 10.0)),
                            erfl((double)(xs[i] * 3.0)), erfcl((double)(xs[i] * 5.0))};
    for (int k = 0; k < NM; k++) {
      double e = ulp_err(out[NM * i + k], want[k]);
      if (e > worst[k]) worst[k] = e;
      if (e > bound[k])
        fail_msg("%s: input %d (x = %a, y = %a) gives %a, exact %La: %.2f ulp, OpenCL 1.2 allows %.0f", names[k], i, xs[i],
                 ys[i], out[NM * i + k], want[k], e, bound[k]);
    }
  }
  for (int k = 0; k < NM; k++) printf("# libclc double %-6s worst %.2f ulp (bound %.0f)\n", names[k], worst[k], bound[k]);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_darith), cmocka_unit_test(test_dconv), cmocka_unit_test(test_dmix),
                                     cmocka_unit_test(test_guard),
                                     cmocka_unit_test(test_dmath),
                                     cmocka_unit_test(test_dconvm), cmocka_unit_test(test_dvload),
                                     cmocka_unit_test(test_dhalf),
                                     cmocka_unit_test(test_dmisc), cmocka_unit_test(test_dbits),
                                     cmocka_unit_test(test_dmixed)};
  return cmocka_run_group_tests(tests, group_setup, cc_suite_teardown);
}
