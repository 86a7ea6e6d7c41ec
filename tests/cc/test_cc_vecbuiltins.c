/* The vector forms of the back end's builtins, the relational builtins,
 * shuffles and half loads/stores (tests/cc/kernels/vecbuiltins.cl):
 * compiled and run through the native API (cy_*) or the OpenCL API (CC_RIG_API;
 * tests/cc/helpers/cc_rig.h), every result
 * compared with plain C on the host. The half conversions are checked on
 * all 65536 half values and on floats around every rounding boundary, in
 * each rounding mode, against a reference that rounds the exact quotient
 * by the half's step (no bit tricks shared with the compiler's lowering). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include <cmocka.h>

#include "cc_rig.h"
#include "chengying.h"


typedef cc_suite rig;

static int group_setup(void **state) {
  if (!cc_rig_have_libclc()) {
    printf("SKIP: the relational, shuffle and half builtins need Debian's libclc-19 (/usr/lib/clc/nvptx--.bc)\n");
    exit(0);
  }
  return cc_suite_setup(state, "vecbuiltins");
}

static int setup(void **state) {
  rig *r = *state;
  return cc_rig_fresh(r->c);
}

static uint32_t dev_buf(rig *r, const void *data, size_t bytes) { return cc_rig_buf(r->c, data, bytes); }

static void get(rig *r, uint32_t a, void *dst, size_t bytes) { cc_rig_get(r->c, a, dst, bytes); }

static void launch(rig *r, const char *kernel, uint32_t n, const uint32_t *slots, size_t ns) {
  cy_ndrange nd = {.work_dim = 1, .global = {n}, .local = {32}};
  cc_rig_launch(r->c, r->prog, kernel, &nd, slots, ns);
}

#define same_words cc_same_words

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s ^ (*s >> 15);
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* ---- integer and float lanes ------------------------------------------------------ */

static uint32_t clz_w(uint32_t x, int w) {
  uint32_t n = 0;
  for (int b = w - 1; b >= 0 && !(x >> b & 1); b--) n++;
  return n;
}

static uint32_t pop(uint32_t x) {
  uint32_t n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

static uint32_t rotl_w(uint32_t x, uint32_t s, int w) {
  uint32_t m = w == 32 ? ~0u : (1u << w) - 1;
  s %= (uint32_t)w;
  x &= m;
  return s ? ((x << s) | (x >> (w - s))) & m : x;
}

enum { NI = 64 };

static void test_int_vec(void **state) {
  rig *r = *state;
  uint32_t a[4 * NI], out[28 * NI], want[28 * NI], s = 3;
  for (int i = 0; i < 4 * NI; i++) a[i] = i % 5 == 0 ? lcg(&s) >> (lcg(&s) % 32) : i % 7 == 0 ? 0 : lcg(&s);
  for (int i = 0; i < NI; i++) {
    const uint32_t *x = a + 4 * i, y[4] = {x[1], x[2], x[3], x[0]};
    uint32_t *o = want + 28 * i;
    for (int k = 0; k < 4; k++) {
      uint32_t c = 0;
      for (int b = 0; b < 4; b++) c |= clz_w(a[k] >> 8 * b & 0xff, 8) << 8 * b;
      o[24 + k] = pop(a[k]) ^ rotl_w(a[k], 3, 32) ^ c;
    }
    for (int k = 0; k < 4; k++) o[k] = clz_w(x[0] >> 8 * k & 0xff, 8);
    for (int k = 0; k < 2; k++) o[4 + k] = (uint32_t)(int32_t)(int16_t)pop(x[1] >> 16 * k & 0xffff);
    for (int k = 0; k < 4; k++) o[6 + k] = rotl_w(x[k], y[k], 32);
    for (int k = 0; k < 3; k++) {
      int32_t v = (int32_t)x[k], yv = (int32_t)y[k];
      o[10 + k] = (uint32_t)(v < 1000 ? v : 1000) + (uint32_t)(v > yv ? v : yv); /* wrapping */
    }
    for (int k = 0; k < 4; k++) o[13 + k] = (x[k] < 100 ? 100 : x[k] > 1u << 30 ? 1u << 30 : x[k]) ^ pop(y[k]);
    static const uint32_t rs[4] = {1, 2, 3, 9};
    o[17] = 0;
    for (int k = 0; k < 4; k++) o[17] |= rotl_w(x[0] >> 8 * k & 0xff, rs[k], 8) << 8 * k;
    for (int k = 0; k < 4; k++) o[18 + k] = (int32_t)x[k] < 0 ? 0u - x[k] : x[k];
    o[22] = (x[2] & ~x[3]) | (y[0] & x[3]);
    o[23] = clz_w(x[3] & 0xffff, 16) | clz_w(x[3] >> 16, 16) << 16;
  }
  uint32_t A = dev_buf(r, a, sizeof a), O = dev_buf(r, NULL, sizeof out);
  launch(r, "int_vec", NI, (uint32_t[]){A, O}, 2);
  get(r, O, out, sizeof out);
  same_words(out, want, 28 * NI, "int_vec");
}

static void test_float_vec(void **state) {
  rig *r = *state;
  float a[4 * NI], out[36 * NI], want[36 * NI];
  uint32_t s = 9;
  for (int i = 0; i < 4 * NI; i++) {
    a[i] = ((float)(lcg(&s) % 4001) - 2000.0f) / 16.0f;
    if (i % 9 == 0) a[i] = (float)(int)a[i] + 0.5f; /* halfway cases for round and rint */
  }
  for (int i = 0; i < NI; i++) {
    const float *x = a + 4 * i, y[4] = {x[3], x[2], x[1], x[0]};
    float *o = want + 36 * i;
    static const int sw[4] = {1, 0, 3, 2}, sz[4] = {2, 3, 0, 1};
    for (int k = 0; k < 4; k++) o[32 + k] = floorf(a[k]) + fmaf(a[k], a[sw[k]], fabsf(a[k])) + fmaxf(a[k], a[sz[k]]);
    for (int k = 0; k < 4; k++) o[k] = fabsf(x[k]) + floorf(x[k]);
    for (int k = 0; k < 4; k++) o[4 + k] = ceilf(x[k]);
    for (int k = 0; k < 3; k++) o[8 + k] = truncf(x[k]) - roundf(x[k]);
    for (int k = 0; k < 4; k++) o[11 + k] = rintf(x[k]);
    for (int k = 0; k < 4; k++) o[15 + k] = fmaf(x[k], y[k], 0.5f);
    for (int k = 0; k < 2; k++) o[19 + k] = fminf(x[k], y[k]) + fmaxf(x[2 + k], 1.0f);
    for (int k = 0; k < 4; k++) o[21 + k] = sqrtf(fabsf(x[k]));
    for (int k = 0; k < 4; k++) o[25 + k] = copysignf(x[k], y[k]);
    for (int k = 0; k < 2; k++) o[29 + k] = fminf(fmaxf(x[k], -2.0f), 3.0f);
    o[31] = fmaf(x[2], y[2], x[2]);
  }
  uint32_t A = dev_buf(r, a, sizeof a), O = dev_buf(r, NULL, sizeof out);
  launch(r, "float_vec", NI, (uint32_t[]){A, O}, 2);
  get(r, O, out, sizeof out);
  same_words(out, want, 36 * NI, "float_vec");
}

/* ---- relational builtins -------------------------------------------------------- */

static void test_relational(void **state) {
  rig *r = *state;
  static const uint32_t special[] = {0x7fc00000, 0xffc00001, 0x7f800000, 0xff800000, 0x00000000, 0x80000000,
                                     0x00000001, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800000, 0x7f7fffff,
                                     0x40490fdb, 0x7fa00000, 0x3f800001, 0xc0000000};
  enum { NS = sizeof special / sizeof *special, N = NS * NS };
  float a[2 * N];
  int32_t out[20 * N], want[20 * N];
  for (int i = 0; i < N; i++) a[2 * i] = bitsf(special[i / NS]), a[2 * i + 1] = bitsf(special[i % NS]);
  for (int i = 0; i < N; i++) {
    float x = a[2 * i], y = a[2 * i + 1];
    int32_t *o = want + 20 * i;
    int c[9] = {x == y, x != y, x > y, x >= y, x < y, x <= y, x < y || x > y, !isnan(x) && !isnan(y), isnan(x) || isnan(y)};
    o[0] = 0;
    for (int k = 0; k < 9; k++) o[0] |= c[k] << k, o[2 + k] = -c[k];
    o[1] = (isfinite(x) ? 1 : 0) | (isinf(x) ? 2 : 0) | (isnan(x) ? 4 : 0) | (isnormal(x) ? 8 : 0) | (signbit(x) ? 16 : 0);
    o[11] = -!!isnan(x), o[12] = -!!isnan(y), o[13] = -!!isnormal(x), o[14] = -!!isnormal(y);
    o[15] = -!!signbit(y);
    o[16] = (x > 1.0f || y > 1.0f) | (x < 1.0f && y < 1.0f) << 1;
    int32_t m[4] = {(int32_t)fbits(x), (int32_t)fbits(y), (int32_t)fbits(-x), 0};
    o[17] = (m[0] < 0 || m[1] < 0 || m[2] < 0) | (m[0] < 0 && m[1] < 0 && m[2] < 0 && m[3] < 0) << 1 |
            (m[0] < 0 || m[1] < 0) << 2;
    o[18] = (int32_t)fbits(x < y ? y : x);
    o[19] = (x > y ? 3 : 1) * 10 + (y > x ? 4 : 2);
  }
  uint32_t A = dev_buf(r, a, sizeof a), O = dev_buf(r, NULL, sizeof out);
  launch(r, "relational", N, (uint32_t[]){A, O}, 2);
  get(r, O, out, sizeof out);
  same_words(out, want, 20 * N, "relational");
}

/* ---- shuffles ---------------------------------------------------------------------- */

static void test_shuffles(void **state) {
  rig *r = *state;
  uint32_t a[4 * NI], masks[4 * NI], out[16 * NI], want[16 * NI], s = 21;
  for (int i = 0; i < 4 * NI; i++) a[i] = lcg(&s), masks[i] = lcg(&s); /* only the low bits count */
  for (int i = 0; i < NI; i++) {
    const uint32_t *x = a + 4 * i, *m = masks + 4 * i;
    uint32_t z[8], *o = want + 16 * i;
    for (int k = 0; k < 4; k++) z[k] = x[k], z[4 + k] = x[k] * 3u + 1u;
    static const uint32_t c1[4] = {3, 0, 2, 1}, c2[4] = {7, 0, 5, 2};
    for (int k = 0; k < 4; k++) o[k] = x[c1[k]], o[4 + k] = z[c2[k]], o[8 + k] = x[m[k] & 3];
    o[12] = z[m[0] & 7], o[13] = z[m[1] & 7];
    o[14] = z[m[2] & 7], o[15] = z[m[3] & 7];
  }
  uint32_t A = dev_buf(r, a, sizeof a), M = dev_buf(r, masks, sizeof masks), O = dev_buf(r, NULL, sizeof out);
  launch(r, "shuffles", NI, (uint32_t[]){A, M, O}, 3);
  get(r, O, out, sizeof out);
  same_words(out, want, 16 * NI, "shuffles");
}

/* ---- half loads and stores --------------------------------------------------------- */

static float half_value(uint16_t h) {
  int e = h >> 10 & 0x1f, m = h & 0x3ff;
  float v = e == 0 ? ldexpf((float)m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexpf((float)(1024 + m), e - 25);
  return h & 0x8000 ? -v : v;
}

enum { RTE, RTZ, RTP, RTN };

/* x to half bits in mode rm: |x| divided by the step of its binade (exact
 * in double), rounded to an integer as the mode says, re-encoded */
static uint16_t half_of(float x, int rm) {
  uint16_t sign = signbit(x) ? 0x8000 : 0;
  if (isnan(x)) return 0x7e00;
  if (isinf(x)) return sign | 0x7c00;
  double a = fabs((double)x);
  if (a == 0) return sign;
  int e;
  frexp(a, &e); /* a in [2^(e-1), 2^e) */
  int q = (e - 1 < -14 ? -14 : e - 1) - 10;
  double n = ldexp(a, -q), up = sign ? RTN : RTP, fl = floor(n), t;
  if (rm == RTE) t = n - fl > 0.5 || (n - fl == 0.5 && fmod(fl, 2) != 0) ? fl + 1 : fl;
  else if (rm == RTZ) t = fl;
  else t = rm == up ? ceil(n) : fl;
  double v = ldexp(t, q);
  if (v > 65504) /* beyond the largest half: infinity, or 65504 rounding towards zero */
    return sign | (rm == RTE || rm == up ? 0x7c00 : 0x7bff);
  if (v < 0x1p-14) return sign | (uint16_t)ldexp(v, 24);
  frexp(v, &e);
  return sign | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)(ldexp(v, 11 - e) - 1024);
}

static void check_half(uint16_t got, uint16_t want, const char *what, size_t i, float x) {
  int gnan = (got & 0x7c00) == 0x7c00 && (got & 0x3ff), wnan = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
  if (wnan ? !gnan : got != want) fail_msg("%s %zu (x = %a): half 0x%04x, expected 0x%04x", what, i, (double)x, got, want);
}

/* floats near the rounding boundaries of halves: every half step's
 * midpoint and its neighbours, subnormals, overflow and the specials */
static void boundary_floats(float *x, int n) {
  uint32_t s = 17;
  static const uint32_t special[] = {0x7f800000, 0xff800000, 0x7fc00000, 0x00000000, 0x80000000, 0x477fe000,
                                     0x477ff000, 0x477fefff, 0x477ff001, 0xc77ff000, 0x33800000, 0x33000000,
                                     0x33000001, 0xb3000000, 0x38800000, 0x387fe000, 0x00000001, 0x7f7fffff};
  int ns = (int)(sizeof special / sizeof *special);
  for (int i = 0; i < n; i++) {
    if (i < ns) {
      x[i] = bitsf(special[i]);
      continue;
    }
    uint32_t v = lcg(&s);
    uint16_t h = (uint16_t)(v % 0x7c00 | (v >> 16 & 0x8000));
    float lo = half_value(h), hi = half_value((uint16_t)(h + 1));
    if ((h & 0x7fff) == 0x7bff) hi = 65536.0f * (lo < 0 ? -1 : 1);
    float mid = lo + (hi - lo) / 2; /* exact: a half plus half its step fits a float */
    uint32_t mb = fbits(mid);
    x[i] = i % 4 == 0 ? mid : i % 4 == 1 ? bitsf(mb + 1) : i % 4 == 2 ? bitsf(mb - 1) : bitsf(v);
  }
}

static void test_halves(void **state) {
  rig *r = *state;
  enum { N = 16384 };
  static uint16_t h[4 * N], out[5 * N];
  static float f[4 * N], x[N];
  for (int i = 0; i < 4 * N; i++) h[i] = (uint16_t)i;
  boundary_floats(x, N);
  uint32_t H = dev_buf(r, h, sizeof h), F = dev_buf(r, NULL, sizeof f), X = dev_buf(r, x, sizeof x),
           O = dev_buf(r, NULL, sizeof out);
  launch(r, "halves", N, (uint32_t[]){H, F, X, O}, 4);
  get(r, F, f, sizeof f);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    const int src[4] = {4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3}; /* vloada_half2(2i+1) reads 4i+2, 4i+3 */
    for (int k = 0; k < 4; k++) {
      float want = half_value(h[src[k]]);
      if (isnan(want) ? !isnan(f[4 * i + k]) : fbits(f[4 * i + k]) != fbits(want))
        fail_msg("vload_half of 0x%04x: %a, expected %a", h[src[k]], (double)f[4 * i + k], (double)want);
    }
    static const int modes[5] = {RTE, RTE, RTZ, RTP, RTN};
    for (int k = 0; k < 5; k++) check_half(out[5 * i + k], half_of(x[i], modes[k]), "vstore_half mode", (size_t)k, x[i]);
  }
}

static void test_halves4(void **state) {
  rig *r = *state;
  enum { N = 1024 };
  static uint16_t out[20 * N];
  static float x[4 * N];
  boundary_floats(x, 4 * N);
  uint32_t X = dev_buf(r, x, sizeof x), O = dev_buf(r, NULL, sizeof out);
  launch(r, "halves4", N, (uint32_t[]){X, O}, 2);
  get(r, O, out, sizeof out);
  static const int modes[5] = {RTE, RTP, RTN, RTZ, RTE}; /* default, vstorea rtp, rtn, rtz via private, rte */
  for (int i = 0; i < N; i++)
    for (int m = 0; m < 5; m++)
      for (int k = 0; k < 4; k++)
        check_half(out[20 * i + 4 * m + k], half_of(x[4 * i + k], modes[m]), "vstore_half4 group", (size_t)m, x[4 * i + k]);
}

/* ---- compares and remainder ---------------------------------------------------------- */

/* x - n y with n the integer nearest x / y (ties to even), exactly: the
 * float quotient's neighbours are tried in double, where x - n y is exact */
static float remainder_ref(float x, float y) {
  double q = nearbyint((double)x / (double)y), best = 0;
  int found = 0;
  for (double n = q - 2; n <= q + 2; n++) {
    double r = (double)x - n * (double)y;
    if (!found || fabs(r) < fabs(best) || (fabs(r) == fabs(best) && fmod(n, 2) == 0)) best = r, found = 1;
  }
  return best == 0 ? copysignf(0.0f, x) : (float)best;
}

static void test_compares(void **state) {
  rig *r = *state;
  enum { N = 96 };
  int32_t a[2 * N], out[8 * N], want[8 * N];
  float x[2 * N], rem[N];
  uint32_t s = 31;
  for (int i = 0; i < 2 * N; i++) {
    uint32_t v = lcg(&s);
    a[i] = i % 3 == 0 ? (int32_t)v : (int32_t)(v % 7) - 3; /* small values meet: equal pairs */
    x[i] = ((float)(v % 20001) - 10000.0f) / (i % 2 ? 97.0f : 13.0f);
    if (x[i] == 0) x[i] = 1.5f;
  }
  for (int i = 0; i < N; i++) {
    int32_t p = a[2 * i], q = a[2 * i + 1];
    uint32_t up = (uint32_t)p, uq = (uint32_t)q;
    int32_t *o = want + 8 * i;
    o[0] = p <= q, o[1] = p >= q, o[2] = up <= uq, o[3] = up >= uq;
    o[4] = p < q, o[5] = p > q, o[6] = up < uq, o[7] = up > uq;
  }
  uint32_t A = dev_buf(r, a, sizeof a), X = dev_buf(r, x, sizeof x), O = dev_buf(r, NULL, sizeof out),
           R = dev_buf(r, NULL, sizeof rem);
  launch(r, "compares", N, (uint32_t[]){A, X, O, R}, 4);
  get(r, O, out, sizeof out);
  get(r, R, rem, sizeof rem);
  same_words(out, want, 8 * N, "compares");
  for (int i = 0; i < N; i++) {
    float w = remainder_ref(x[2 * i], x[2 * i + 1]);
    if (fbits(rem[i]) != fbits(w)) fail_msg("remainder(%a, %a) = %a, expected %a", (double)x[2 * i], (double)x[2 * i + 1], (double)rem[i], (double)w);
  }
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void) {
  const struct CMUnitTest tests[] = {T(test_int_vec), T(test_float_vec), T(test_relational), T(test_shuffles),
                                     T(test_halves), T(test_halves4), T(test_compares)};
  return cmocka_run_group_tests(tests, group_setup, cc_suite_teardown);
}
