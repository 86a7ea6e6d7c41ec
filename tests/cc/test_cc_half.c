/* tests/cc/kernels/half.cl: half arithmetic (cl_khr_fp16) done in float and
 * rounded once to half (cc_lower_f16.c), run through the native or the
 * OpenCL API and checked against references on the host: add, sub, mul
 * and fma from the exact value (an integer count of 2^-48, rounded to
 * half by hand), div and sqrt from double (rounding double to half again
 * is harmless: 53 >= 2 * 11 + 2), the rest exact; every one of the 65536
 * halves as the first operand. A NaN result need only be a NaN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "cc_rig.h"
#include "chengying.h"
#include "test_bits.h"

typedef cc_suite rig;

static int group_setup(void **state) { return cc_suite_setup(state, "half"); }

static double h2d(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
  return h & 0x8000 ? -v : v;
}

/* |v| * 2^-48 (an exact integer count) rounded to nearest even half, sign s */
static uint16_t round_scaled(unsigned __int128 mag, int s) {
  uint16_t sg = s ? 0x8000 : 0;
  if (!mag) return sg;
  int msb = 127;
  while (!(mag >> msb)) msb--;
  int shift = msb - 10 > 24 ? msb - 10 : 24;
  unsigned __int128 q = mag >> shift, rem = mag & (((unsigned __int128)1 << shift) - 1), hf = (unsigned __int128)1 << (shift - 1);
  if (rem > hf || (rem == hf && (q & 1))) q++;
  int e = shift - 48 + 10;
  uint32_t bits = q < 1024 ? (uint32_t)q : (uint32_t)(((e + 15) << 10) + (int)q - 1024);
  return (uint16_t)(sg | (bits >= 0x7c00 ? 0x7c00 : bits));
}

/* a half as a signed count of 2^-48 */
static __int128 scaled(uint16_t h) {
  int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  __int128 v = e ? (__int128)(1024 + m) << (e + 23) : (__int128)m << 24; /* (1024 + m) * 2^(e - 25) */
  return h & 0x8000 ? -v : v;
}

static int special(uint16_t h) { return ((h >> 10) & 0x1f) == 31; }

/* x*y + z exactly, rounded once; NaN/infinity cases through double (exact there) */
static uint16_t fma_ref(uint16_t x, uint16_t y, uint16_t z, uint16_t (*from_double)(double)) {
  if (special(x) || special(y) || special(z)) return from_double(fma(h2d(x), h2d(y), h2d(z)));
  /* each is a multiple of 2^24 units: the product in units of 2^-48 exactly */
  __int128 v = (scaled(x) / ((__int128)1 << 24)) * (scaled(y) / ((__int128)1 << 24)) + scaled(z);
  if (!v) {
    int pz = (x & 0x7fff) == 0 || (y & 0x7fff) == 0, ps = ((x ^ y) >> 15) & 1;
    if (pz && (z & 0x7fff) == 0) return (uint16_t)(ps && (z >> 15) ? 0x8000 : 0);
    return 0;
  }
  return round_scaled((unsigned __int128)(v < 0 ? -v : v), v < 0);
}

/* double to half, nearest even: the exact quotient by the half's step */
static uint16_t d2h(double x) {
  uint16_t s = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isnan(x)) return (uint16_t)(s | 0x7e00);
  if (isinf(x)) return (uint16_t)(s | 0x7c00);
  int ex;
  frexp(a, &ex);
  double step = a < 0x1p-14 ? 0x1p-24 : ldexp(1.0, ex - 11), q = a / step, k = floor(q), f = q - k;
  double v = (k + (f > 0.5 || (f == 0.5 && fmod(k, 2) == 1))) * step;
  if (v > 65504) return (uint16_t)(s | 0x7c00);
  if (v < 0x1p-14) return (uint16_t)(s | (uint16_t)(v * 0x1p24));
  frexp(v, &ex);
  return (uint16_t)(s | ((ex + 14) << 10) | ((unsigned)ldexp(v, 11 - ex) - 1024));
}

static int same_h(uint16_t g, uint16_t w) { return g == w || (special(g) && (g & 0x3ff) && special(w) && (w & 0x3ff)); }

static void test_harith(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 65536, R = 14 };
  static uint16_t a[N], b[N], c[N], o[N * R];
  static uint32_t rel[N];
  static float f[N];
  static int32_t iv[N], ivin[N];
  uint64_t s = 7;
  for (int i = 0; i < N; i++) {
    a[i] = (uint16_t)i;
    b[i] = (uint16_t)rnd64(&s);
    c[i] = i % 4 ? (uint16_t)rnd64(&s) : d2h(-h2d(a[i]) * h2d(b[i])); /* near cancellation in fma */
    iv[i] = ivin[i] = (int32_t)(rnd64(&s) % 140000) - 70000;
  }
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), B = cc_rig_buf(r->c, b, sizeof b), C = cc_rig_buf(r->c, c, sizeof c);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof o), L = cc_rig_buf(r->c, NULL, sizeof rel), F = cc_rig_buf(r->c, NULL, sizeof f);
  uint32_t I = cc_rig_buf(r->c, iv, sizeof iv);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "harith", &nd, (uint32_t[]){A, B, C, O, L, F, I}, 7);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, L, rel, sizeof rel);
  cc_rig_get(r->c, F, f, sizeof f);
  cc_rig_get(r->c, I, iv, sizeof iv);
  static const char *const names[R] = {"add", "sub", "mul", "div", "fma", "sqrt", "neg", "fabs", "floor", "fmin",
                                       "(half)int", "sin", "select", "rint(x*0.5)"};
  for (int i = 0; i < N; i++) {
    uint16_t x = a[i], y = b[i], z = c[i], w[R];
    double dx = h2d(x), dy = h2d(y);
    int exact_ok = !special(x) && !special(y);
    w[0] = exact_ok ? round_scaled((unsigned __int128)(scaled(x) + scaled(y) < 0 ? -(scaled(x) + scaled(y)) : scaled(x) + scaled(y)),
                                   scaled(x) + scaled(y) < 0 || (scaled(x) + scaled(y) == 0 && (x & y & 0x8000)))
                    : d2h(dx + dy);
    uint16_t ny = (uint16_t)(y ^ 0x8000);
    w[1] = exact_ok ? round_scaled((unsigned __int128)(scaled(x) + scaled(ny) < 0 ? -(scaled(x) + scaled(ny)) : scaled(x) + scaled(ny)),
                                   scaled(x) + scaled(ny) < 0 || (scaled(x) + scaled(ny) == 0 && (x & ny & 0x8000)))
                    : d2h(dx - dy);
    w[2] = d2h(dx * dy); /* exact in double */
    w[3] = d2h(dx / dy);
    w[4] = fma_ref(x, y, z, d2h);
    w[5] = d2h(sqrt(dx));
    w[6] = (uint16_t)(x ^ 0x8000);
    w[7] = (uint16_t)(x & 0x7fff);
    w[8] = d2h(floor(dx));
    w[9] = isnan(dx) ? y : isnan(dy) ? x : dx < dy ? x : dy < dx ? y : (uint16_t)(x | y); /* fmin(-0, +0): either */
    w[10] = d2h((double)ivin[i]);
    w[11] = 0; /* checked in ulps below */
    w[12] = dx > dy ? z : x;
    w[13] = d2h(nearbyint(h2d(d2h(dx * 0.5))));
    for (int k = 0; k < R; k++) {
      uint16_t g = o[R * i + k];
      if (k == 9 && dx == 0 && dy == 0 && (g & 0x7fff) == 0) continue;
      if (k == 11) {
        double want = sin(dx), err = fabs(h2d(g) - want), ulp = !(fabs(want) >= 0x1p-14) ? 0x1p-24 : ldexp(1.0, ilogb(want) - 10); /* NaN too */
        if (!(isnan(want) ? isnan(h2d(g)) : err <= 2 * ulp))
          fail_msg("sin(half %a) is %a, exact %a: more than 2 ulp", dx, h2d(g), want);
        continue;
      }
      if (!same_h(g, w[k]))
        fail_msg("harith %s: x = %a (0x%04x), y = %a (0x%04x), z = %a: 0x%04x (%a), expected 0x%04x (%a)", names[k], dx, x, dy,
                 y, h2d(z), g, h2d(g), w[k], h2d(w[k]));
    }
    if (!((isnan(dx) && isnan(f[i])) || ((double)f[i] == dx && !signbit(f[i]) == !signbit(dx))))
      fail_msg("(float) of half 0x%04x is %a", x, (double)f[i]);
    if (!isnan(dx) && fabs(dx) < 0x1p31 && iv[i] != (int32_t)dx) fail_msg("(int) of half %a is %d", dx, iv[i]);
    uint32_t wr = (uint32_t)((dx < dy) | (dx <= dy) << 1 | (dx > dy) << 2 | (dx >= dy) << 3 | (dx == dy) << 4 |
                             (dx != dy) << 5 | (!!isnan(dx)) << 6 | (!!isinf(dx)) << 7 | (!!signbit(dx)) << 8);
    if (rel[i] != wr) fail_msg("harith relations: x = %a, y = %a: 0x%x, expected 0x%x", dx, dy, rel[i], wr);
  }
}

/* x to half in mode m (0 rte, 1 rtz, 2 rtp, 3 rtn): the exact quotient by the
 * half's step, rounded as an integer */
static uint16_t d2h_mode(double x, int m) {
  uint16_t s = signbit(x) ? 0x8000 : 0;
  double a = fabs(x);
  if (isnan(x)) return (uint16_t)(s | 0x7e00);
  if (isinf(x)) return (uint16_t)(s | 0x7c00);
  int ex, up = !s;
  frexp(a, &ex);
  double step = a < 0x1p-14 ? 0x1p-24 : ldexp(1.0, ex - 11), q = a / step, k = floor(q), f = q - k;
  int away = m == 0 ? f > 0.5 || (f == 0.5 && fmod(k, 2) == 1) : m == 1 ? 0 : f > 0 && (m == 2) == up;
  double v = (k + away) * step;
  if (v > 65504) return (uint16_t)(s | (m == 0 || (m != 1 && (m == 2) == up) ? 0x7c00 : 0x7bff));
  if (v < 0x1p-14) return (uint16_t)(s | (uint16_t)(v * 0x1p24));
  frexp(v, &ex);
  return (uint16_t)(s | ((ex + 14) << 10) | ((unsigned)ldexp(v, 11 - ex) - 1024));
}

static void test_hconv(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 1024 };
  static float f[4 * N], of[4 * N];
  static int32_t n[N], oi[2 * N];
  static double d[N];
  static uint16_t h[4 * N], o[12 * N];
  uint64_t s = 1234;
  for (int i = 0; i < 4 * N; i++) {
    uint32_t fb = (uint32_t)rnd64(&s);
    /* mostly in half's range: exponents 100..150, and midpoints between halves */
    if (i % 3) fb = (fb & 0x807fffffu) | ((100 + (uint32_t)(rnd64(&s) % 51)) << 23);
    if (i % 5 == 0) fb = (fb & 0x80000000u) | ((fb & 0x7fffe000u) + 0x1000u);
    memcpy(&f[i], &fb, 4);
    h[i] = (uint16_t)rnd64(&s);
  }
  for (int i = 0; i < N; i++) {
    n[i] = (int32_t)(rnd64(&s) % 200000) - 100000;
    d[i] = ldexp((double)(int64_t)rnd64(&s), -(int)(rnd64(&s) % 60) - 10);
  }
  uint32_t F = cc_rig_buf(r->c, f, sizeof f), Nn = cc_rig_buf(r->c, n, sizeof n), D = cc_rig_buf(r->c, d, sizeof d);
  uint32_t H = cc_rig_buf(r->c, h, sizeof h), O = cc_rig_buf(r->c, NULL, sizeof o), OI = cc_rig_buf(r->c, NULL, sizeof oi);
  uint32_t OF = cc_rig_buf(r->c, NULL, sizeof of);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "hconv", &nd, (uint32_t[]){F, Nn, D, H, O, OI, OF}, 7);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, OI, oi, sizeof oi);
  cc_rig_get(r->c, OF, of, sizeof of);
  for (int i = 0; i < N; i++) {
    uint16_t w[12] = {d2h_mode(f[i], 0), d2h_mode(f[i], 1), d2h_mode(f[i], 2), d2h_mode(f[i], 3),
                      d2h_mode(n[i], 1), d2h_mode(n[i], 2), d2h_mode(d[i], 0), d2h_mode(d[i], 3),
                      d2h_mode(f[4 * i], 2), d2h_mode(f[4 * i + 1], 2), d2h_mode(f[4 * i + 2], 2), d2h_mode(f[4 * i + 3], 2)};
    for (int k = 0; k < 12; k++)
      if (!same_h(o[12 * i + k], w[k])) fail_msg("hconv: [%d] result %d: 0x%04x, expected 0x%04x", i, k, o[12 * i + k], w[k]);
    double hx = h2d(d2h(h2d(h[i]) * 1000.0)); /* the half product, rounded */
    int32_t wi = isnan(hx) ? 0 : hx >= 0x1p31 ? INT32_MAX : hx < -0x1p31 ? INT32_MIN : (int32_t)nearbyint(hx);
    double hv = h2d(h[i]);
    int32_t wc = isnan(hv) ? 0 : hv <= 0 ? 0 : hv >= 255 ? 255 : (int32_t)hv;
    if (oi[2 * i] != wi) fail_msg("convert_int_sat_rte(half %a * 1000) is %d, expected %d", hv, oi[2 * i], wi);
    if (oi[2 * i + 1] != wc) fail_msg("convert_uchar_sat(half %a) is %d, expected %d", hv, oi[2 * i + 1], wc);
    for (int k = 0; k < 4; k++) {
      double want = h2d(h[4 * i + k]);
      if (!((isnan(want) && isnan(of[4 * i + k])) || ((double)of[4 * i + k] == want && !signbit(of[4 * i + k]) == !signbit(want))))
        fail_msg("convert_float4 of half 0x%04x is %a", h[4 * i + k], (double)of[4 * i + k]);
    }
  }
}

static double ulps(uint16_t g, double want) {
  double gd = h2d(g);
  if (isnan(want)) return isnan(gd) ? 0 : 1e9;
  if (fabs(want) >= 65520 && isinf(gd) && (gd > 0) == (want > 0)) return 0; /* rounds to infinity */
  if (isinf(want) || isinf(gd)) return gd == want ? 0 : 1e9;
  double ulp = fabs(want) < 0x1p-14 ? 0x1p-24 : ldexp(1.0, ilogb(want) - 10);
  return fabs(gd - want) / ulp;
}

static void test_hbuiltin(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 4096 };
  static uint16_t a[N], v[4 * N], o[6 * N];
  static int32_t rel[N];
  static int16_t vrel[4 * N];
  uint64_t s = 77;
  for (int i = 0; i < N; i++) a[i] = (uint16_t)(i * 16 + (int)(rnd64(&s) % 16));
  for (int i = 0; i < 4 * N; i++) v[i] = (uint16_t)rnd64(&s);
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), V = cc_rig_buf(r->c, v, sizeof v), O = cc_rig_buf(r->c, NULL, sizeof o);
  uint32_t R = cc_rig_buf(r->c, NULL, sizeof rel), VR = cc_rig_buf(r->c, NULL, sizeof vrel);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "hbuiltin", &nd, (uint32_t[]){A, V, O, R, VR}, 5);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, R, rel, sizeof rel);
  cc_rig_get(r->c, VR, vrel, sizeof vrel);
  /* cl_khr_fp16's bounds: exp 3, log 3, pow 16 ulp; mad any (exact here: fused), clamp and ceil exact */
  static const char *const names[6] = {"exp", "log", "pow", "mad", "clamp", "ceil"};
  static const double bound[6] = {3, 3, 16, 0.5, 0, 0};
  for (int i = 0; i < N; i++) {
    double x = h2d(a[i]);
    double want[6] = {exp(x), log(fabs(x)), pow(fabs(x), 1.5), fma(x, x, -1.0), x < -2 ? -2 : x > 3 ? 3 : x, ceil(x)};
    for (int k = 0; k < 6; k++) {
      if (k == 4 && isnan(x)) continue; /* clamp of NaN: unspecified */
      double e = ulps(o[6 * i + k], want[k]);
      if (e > bound[k])
        fail_msg("%s(half %a) is %a, exact %a: %.2f ulp, allowed %.1f", names[k], x, h2d(o[6 * i + k]), want[k], e, bound[k]);
    }
    int32_t wr = (!!isnan(x)) | (!!isinf(x)) << 1 | (!!isnormal(x)) << 2 | (x > 1.0) << 3;
    if (rel[i] != wr) fail_msg("relations of half %a: 0x%x, expected 0x%x", x, rel[i], wr);
    for (int k = 0; k < 4; k++) {
      int16_t w = h2d(v[4 * i + k]) < h2d(v[4 * i + 3 - k]) ? -1 : 0;
      if (vrel[4 * i + k] != w) fail_msg("isless(half4) lane %d of item %d: %d, expected %d", k, i, vrel[4 * i + k], w);
    }
  }
}

static void test_hshuffle(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 128 };
  static uint16_t a[4 * (N + 1)], m[4 * N], o[4 * N], o8[8 * N];
  uint64_t s = 5150;
  for (int i = 0; i < 4 * (N + 1); i++) a[i] = (uint16_t)rnd64(&s);
  for (int i = 0; i < 4 * N; i++) m[i] = (uint16_t)rnd64(&s);
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), M = cc_rig_buf(r->c, m, sizeof m), O = cc_rig_buf(r->c, NULL, sizeof o);
  uint32_t O8 = cc_rig_buf(r->c, NULL, sizeof o8);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "hshuffle", &nd, (uint32_t[]){A, M, O, O8}, 4);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, O8, o8, sizeof o8);
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 4; k++) {
      uint16_t w = a[4 * i + (m[4 * i + k] & 7)]; /* shuffle2: the 8 elements of a[i], a[i + 1] */
      if (o[4 * i + k] != w) fail_msg("shuffle2 of half4: item %d lane %d is 0x%04x, expected 0x%04x", i, k, o[4 * i + k], w);
    }
    /* as_ushort8 of the four uint masks: low then high halves (each 0 here) */
    for (int k = 0; k < 8; k++) {
      uint16_t mk = k & 1 ? 0 : m[4 * i + k / 2];
      uint16_t w = a[4 * i + (mk & 3)];
      if (o8[8 * i + k] != w) fail_msg("shuffle of half4 to 8: item %d lane %d is 0x%04x, expected 0x%04x", i, k, o8[8 * i + k], w);
    }
  }
}

/* bitselect and select of half against the bit operations in C; the
 * operands are random bit patterns, NaNs and subnormals among them */
static void test_hbits(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 256 };
  static uint16_t a[2 * N], b[2 * N], c[2 * N], m[2 * N], o[4 * N], os[N];
  uint64_t s = 8086;
  for (int i = 0; i < 2 * N; i++) {
    a[i] = (uint16_t)rnd64(&s), b[i] = (uint16_t)rnd64(&s), c[i] = (uint16_t)rnd64(&s);
    m[i] = (uint16_t)(rnd64(&s) & 1 ? 0x8000 | rnd64(&s) : rnd64(&s) & 0x7fff);
  }
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), B = cc_rig_buf(r->c, b, sizeof b), C = cc_rig_buf(r->c, c, sizeof c);
  uint32_t M = cc_rig_buf(r->c, m, sizeof m), O = cc_rig_buf(r->c, NULL, sizeof o), OS = cc_rig_buf(r->c, NULL, sizeof os);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "hbits", &nd, (uint32_t[]){A, B, C, M, O, OS}, 6);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, OS, os, sizeof os);
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 2; k++) {
      int j = 2 * i + k;
      uint16_t bs = (uint16_t)((a[j] & ~c[j]) | (b[j] & c[j]));
      uint16_t sel = m[j] & 0x8000 ? b[j] : a[j]; /* vector select: the mask's top bit */
      if (o[4 * i + k] != bs)
        fail_msg("bitselect(half2): item %d lane %d is 0x%04x, expected 0x%04x", i, k, o[4 * i + k], bs);
      if (o[4 * i + 2 + k] != sel)
        fail_msg("select(half2, ushort2): item %d lane %d is 0x%04x, expected 0x%04x", i, k, o[4 * i + 2 + k], sel);
    }
    uint16_t w = (uint16_t)((a[2 * i] & ~c[2 * i]) | (b[2 * i + 1] & c[2 * i]));
    if (os[i] != w) fail_msg("bitselect(half): item %d is 0x%04x, expected 0x%04x", i, os[i], w);
  }
}

static void test_hmixed(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 256 };
  static uint16_t v[4 * N], sc[N], o[12 * N];
  uint64_t s = 8;
  for (int i = 0; i < 4 * N; i++) v[i] = (uint16_t)rnd64(&s);
  for (int i = 0; i < N; i++) sc[i] = d2h((double)(int32_t)(rnd64(&s) >> 52) / 16); /* finite, -128..128 */
  uint32_t V = cc_rig_buf(r->c, v, sizeof v), S = cc_rig_buf(r->c, sc, sizeof sc), O = cc_rig_buf(r->c, NULL, sizeof o);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "hmixed", &nd, (uint32_t[]){V, S, O}, 3);
  cc_rig_get(r->c, O, o, sizeof o);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 4; k++) {
      uint16_t x = v[4 * i + k], y = sc[i];
      double dx = h2d(x), dy = h2d(y);
      uint16_t w[3] = {isnan(dx) ? y : dx < dy ? x : dy < dx ? y : x, d2h(dx < dy ? 0.0 : 1.0), 0};
      w[2] = isnan(dx) ? x : d2h(dx < -1 ? -1 : dx > dy ? dy : dx);
      for (int j = 0; j < 3; j++) {
        uint16_t g = o[12 * i + 4 * j + k];
        if (j == 0 && dx == dy && dx == 0 && (g & 0x7fff) == 0) continue; /* fmin(-0, +0): either */
        if (j == 2 && (isnan(dx) || dy < -1)) continue; /* clamp of NaN or with min > max: unspecified */
        if (!same_h(g, w[j])) fail_msg("hmixed: item %d lane %d form %d (x = %a, s = %a): 0x%04x, expected 0x%04x", i, k, j, dx, dy, g, w[j]);
      }
    }
}

static void test_hmore(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 256 };
  static uint16_t v[4 * (N + 1)], x[N], u[N], o[12 * N], om[N];
  static int32_t oi[2 * N];
  uint64_t s = 4711;
  for (int i = 0; i < 4 * (N + 1); i++) v[i] = d2h((double)(int32_t)(rnd64(&s) >> 54) / 32); /* -16..16 */
  for (int i = 0; i < N; i++) {
    x[i] = d2h((double)(int32_t)(rnd64(&s) >> 44) / 1024); /* -512..512 */
    u[i] = (uint16_t)rnd64(&s);
  }
  uint32_t V = cc_rig_buf(r->c, v, sizeof v), X = cc_rig_buf(r->c, x, sizeof x), U = cc_rig_buf(r->c, u, sizeof u);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof o), OI = cc_rig_buf(r->c, NULL, sizeof oi), OM = cc_rig_buf(r->c, NULL, sizeof om);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "hmore", &nd, (uint32_t[]){V, X, U, O, OI, OM}, 6);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, OI, oi, sizeof oi);
  cc_rig_get(r->c, OM, om, sizeof om);
  for (int i = 0; i < N; i++) {
    double a[4], b[4], dot = 0, len = 0, xi = h2d(x[i]);
    for (int k = 0; k < 4; k++) {
      a[k] = h2d(v[4 * i + k]);
      b[k] = h2d(v[4 * (i + 1) + k]);
      dot += a[k] * b[k];
      len += a[k] * a[k];
    }
    len = sqrt(len);
    /* computed in float and rounded once: within 2 half ulps of the exact value */
    double approx[4] = {dot, len, len ? a[0] / len : 0, len ? a[3] / len : 0};
    static const char *const an[4] = {"dot", "length", "normalize.x", "normalize.w"};
    for (int k = 0; k < 4; k++)
      if (ulps(o[12 * i + k], approx[k]) > 2 && !(approx[k] == 0 && fabs(h2d(o[12 * i + k])) < 0x1p-20))
        fail_msg("%s of half4 (item %d) is %a, exact %a", an[k], i, h2d(o[12 * i + k]), approx[k]);
    uint16_t ws = a[1] < b[1] ? v[4 * (i + 1) + 1] : v[4 * i + 1];
    if (o[12 * i + 4] != ws) fail_msg("select of half4 (item %d): 0x%04x, expected 0x%04x", i, o[12 * i + 4], ws);
    if (o[12 * i + 5] != (uint16_t)(0x7e00 | (u[i] & 0x1ff))) fail_msg("nan(0x%04x) of half is 0x%04x", u[i], o[12 * i + 5]);
    int e;
    double fm = frexp(xi, &e), ip, fp = modf(xi, &ip), ld = ldexp(xi, -3);
    int q;
    double rq = remquo(xi, 1.75, &q);
    if (o[12 * i + 6] != d2h(fm) || (xi != 0 && oi[2 * i] != e)) fail_msg("frexp(half %a): %a, %d", xi, h2d(o[12 * i + 6]), oi[2 * i]);
    if (o[12 * i + 7] != d2h(fp) || om[i] != d2h(ip)) fail_msg("modf(half %a): %a, %a", xi, h2d(o[12 * i + 7]), h2d(om[i]));
    if (o[12 * i + 8] != d2h(rq) || (oi[2 * i + 1] & 7) != (q & 7))
      fail_msg("remquo(half %a, 1.75): %a, %d, expected %a, %d", xi, h2d(o[12 * i + 8]), oi[2 * i + 1], rq, q);
    if (o[12 * i + 9] != d2h(ld)) fail_msg("ldexp(half %a, -3): %a", xi, h2d(o[12 * i + 9]));
    if (ulps(o[12 * i + 10], sin(xi)) > 2 || ulps(o[12 * i + 11], cos(xi)) > 2)
      fail_msg("sincos(half %a): %a, %a", xi, h2d(o[12 * i + 10]), h2d(o[12 * i + 11]));
  }
}

static void test_hvec(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 256 };
  static uint16_t a[4 * (N + 1)], o[4 * N];
  uint64_t s = 99;
  for (int i = 0; i < 4 * (N + 1); i++) a[i] = (uint16_t)rnd64(&s);
  uint32_t A = cc_rig_buf(r->c, a, sizeof a), O = cc_rig_buf(r->c, NULL, sizeof o);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {32}};
  cc_rig_launch(r->c, r->prog, "hvec", &nd, (uint32_t[]){A, O}, 2);
  cc_rig_get(r->c, O, o, sizeof o);
  for (int i = 0; i < N; i++)
    for (int k = 0; k < 4; k++) {
      uint16_t v = a[4 * i + k], w = a[4 * (i + 1) + k], u = a[4 * (i + 1) + 3 - k];
      double dv = h2d(v), dw = h2d(w), du = h2d(u);
      uint16_t mx = isnan(dv) ? u : isnan(du) ? v : dv > du ? v : du > dv ? u : (uint16_t)(v & u);
      /* v * w + max: contracted into a fused multiply-add */
      uint16_t want = fma_ref(v, w, mx, d2h);
      uint16_t got = o[4 * i + k];
      if (dv == du && dv == 0) continue; /* fmax(-0, +0): either zero */
      if (!same_h(got, want))
        fail_msg("hvec: [%d] v = %a, w = %a, max = %a: 0x%04x, expected 0x%04x", 4 * i + k, dv, dw, h2d(mx), got, want);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_harith), cmocka_unit_test(test_hvec), cmocka_unit_test(test_hconv),
                                     cmocka_unit_test(test_hbuiltin),
                                     cmocka_unit_test(test_hshuffle),
                                     cmocka_unit_test(test_hbits),
                                     cmocka_unit_test(test_hmixed),
                                     cmocka_unit_test(test_hmore)};
  return cmocka_run_group_tests(tests, group_setup, cc_suite_teardown);
}
