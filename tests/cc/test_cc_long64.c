/* tests/cc/kernels/long64.cl: vectors of long, 64-bit atomics and the
 * conversions between long and float or narrower integers, compiled by
 * `ventus cc` (or the OpenCL platform), run through the native or the OpenCL
 * API (tests/cc/helpers/cc_rig.h) and checked against plain C on
 * the host (atomics: final values and the multisets of returned values
 * that any serial order of the operations gives). */
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
#include "test_bits.h"


typedef cc_suite rig;

static int group_setup(void **state) {
  return cc_suite_setup(state, "long64");
}

static uint32_t dev_buf(rig *r, const void *data, size_t bytes) { return cc_rig_buf(r->c, data, bytes); }

static void get(rig *r, uint32_t a, void *dst, size_t bytes) { cc_rig_get(r->c, a, dst, bytes); }

static void launch(rig *r, const char *kernel, uint32_t n, uint32_t local, const uint32_t *slots, size_t ns) {
  cy_ndrange nd = {.work_dim = 1, .global = {n}, .local = {local}};
  cc_rig_launch(r->c, r->prog, kernel, &nd, slots, ns);
}

static void same64(const int64_t *got, const int64_t *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i])
      fail_msg("%s: [%zu] is 0x%016llx, expected 0x%016llx", what, i, (unsigned long long)got[i], (unsigned long long)want[i]);
}

static const uint64_t edges[] = {0,          1,          UINT64_MAX,           0x8000000000000000u, 0x7fffffffffffffffu,
                                 0xffffffffu, 0x100000000u, 0xffffffff00000000u, 0x1000001u,          0x80000080000000u};

/* ---- vectors of long ------------------------------------------------------------ */

static void test_longvec(void **state) {
  rig *r = *state;
  enum { N = 64 };
  static int64_t a[(N + 1) * 4], out[N * 24], want[N * 24];
  static uint64_t b[N * 2];
  uint64_t s = 88172645463325252u;
  for (int i = 0; i < (N + 1) * 4; i++) a[i] = (int64_t)(i < 10 ? edges[i] : rnd64(&s) >> (i % 40));
  for (int i = 0; i < N * 2; i++) b[i] = i < 10 ? edges[9 - i] : rnd64(&s);
  const int64_t k[4] = {-5, (int64_t)0x00000000ffffffffu, (int64_t)0x8000000000000001u, 123456789012345};
  const int64_t mk[4] = {3, -5, 7, 0x100000001};
  for (int i = 0; i < N; i++) {
    const int64_t *x = a + 4 * i;
    const uint64_t *y = b + 2 * i;
    int64_t *o = want + 24 * i;
    for (int j = 0; j < 4; j++) {
      o[j] = (int64_t)((uint64_t)x[j] + (uint64_t)k[j]);
      o[4 + j] = (int64_t)((uint64_t)x[j] * (uint64_t)mk[j]);
      o[8 + j] = x[3 - j];
      o[16 + j] = x[j] < k[j] ? x[j] : k[j];
    }
    o[12] = (int64_t)(y[0] ^ (uint64_t)x[0]);
    o[13] = (int64_t)(y[1] ^ (uint64_t)x[1]);
    o[14] = (int64_t)(y[0] >> 1);
    o[15] = (int64_t)(y[1] >> 33);
    uint32_t w = (uint32_t)x[2] + (uint32_t)((uint64_t)x[2] >> 32) + (uint32_t)x[3] + (uint32_t)((uint64_t)x[3] >> 32);
    o[20] = (int32_t)w;
    o[21] = (int64_t)((uint64_t)x[0] + (uint64_t)x[7]);
    o[22] = (int32_t)(uint32_t)y[0];
    o[23] = 0;
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  uint32_t slots[16] = {A, B, O};
  for (int j = 0; j < 4; j++) {
    slots[8 + 2 * j] = (uint32_t)k[j];
    slots[9 + 2 * j] = (uint32_t)((uint64_t)k[j] >> 32);
  }
  launch(r, "longvec", N, 32, slots, 16);
  get(r, O, out, sizeof out);
  same64(out, want, N * 24, "longvec");
}

/* ---- 64-bit atomics ------------------------------------------------------------- */

static int cmp64(const void *x, const void *y) {
  uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
  return a < b ? -1 : a > b;
}

/* the returned old values are those of some serial order: the multiset of
 * {old op v} plus the initial value equals that of {old} plus the final one */
static void chain(const uint64_t *old, const uint64_t *next, int n, uint64_t init, uint64_t fin, const char *what) {
  uint64_t *x = malloc((n + 1) * sizeof *x), *y = malloc((n + 1) * sizeof *y);
  assert_non_null(x);
  assert_non_null(y);
  for (int i = 0; i < n; i++) {
    x[i] = old[i];
    y[i] = next[i];
  }
  x[n] = fin;
  y[n] = init;
  qsort(x, (size_t)n + 1, sizeof *x, cmp64);
  qsort(y, (size_t)n + 1, sizeof *y, cmp64);
  int ok = !memcmp(x, y, (n + 1) * sizeof *x);
  free(x);
  free(y);
  if (!ok) fail_msg("%s: the returned values are not those of any serial order", what);
}

static void test_hist64(void **state) {
  rig *r = *state;
  enum { N = 512, NB = 5 };
  static uint32_t in[N];
  int64_t h[NB] = {0}, want[NB] = {0};
  uint64_t s = 1234567;
  for (int i = 0; i < N; i++) {
    in[i] = i % 3 ? (uint32_t)rnd64(&s) : 7u; /* a third on one counter: contended */
    want[in[i] % NB] = (int64_t)((uint64_t)want[in[i] % NB] + 0xffffffffu + (in[i] & 7));
  }
  uint32_t I = dev_buf(r, in, sizeof in), H = dev_buf(r, h, sizeof h);
  launch(r, "hist64", N, 64, (uint32_t[]){I, H, NB}, 3);
  get(r, H, h, sizeof h);
  same64(h, want, NB, "hist64");
}

static void test_atom64_all(void **state) {
  rig *r = *state;
  enum { N = 192 };
  static int64_t v[N], ret[8 * N];
  uint64_t s = 99991, vs = 0;
  for (int i = 0; i < N; i++) v[i] = (int64_t)(i < 10 ? edges[i] : rnd64(&s) >> (i % 50));
  const int64_t s0[6] = {(int64_t)0xfffffff0u, 0x100000005, 77, INT64_MAX, INT64_MIN, 42};
  const uint64_t u0[5] = {UINT64_MAX, 0, 0xf0f0f0f0f0f0f0f0u, 0x10000u, 0x123456789abcdefu};
  int64_t sg[6];
  uint64_t ug[5];
  uint32_t S = dev_buf(r, s0, sizeof s0), U = dev_buf(r, u0, sizeof u0), R = dev_buf(r, NULL, sizeof ret),
           V = dev_buf(r, v, sizeof v);
  launch(r, "atom64_all", N, 64, (uint32_t[]){S, U, R, V}, 4);
  get(r, S, sg, sizeof sg);
  get(r, U, ug, sizeof ug);
  get(r, R, ret, sizeof ret);
  uint64_t old[N], nxt[N], sum = 0, ormask = 0;
  int64_t mn = INT64_MAX, mx = INT64_MIN;
  uint64_t umn = UINT64_MAX, umx = 0;
  for (int i = 0; i < N; i++) {
    sum += (uint64_t)v[i];
    vs ^= (uint64_t)v[i];
    ormask |= (uint64_t)1 << (i % 64);
    if (v[i] < mn) mn = v[i];
    if (v[i] > mx) mx = v[i];
    if ((uint64_t)v[i] < umn) umn = (uint64_t)v[i];
    if ((uint64_t)v[i] > umx) umx = (uint64_t)v[i];
  }
  assert_true((uint64_t)sg[0] == (uint64_t)s0[0] + N);
  assert_true((uint64_t)sg[1] == (uint64_t)s0[1] - N);
  assert_true((uint64_t)sg[2] == (uint64_t)s0[2] - sum);
  assert_true(sg[3] == mn);
  assert_true(sg[4] == mx);
  assert_true(ug[0] == umn);
  assert_true(ug[1] == umx);
  assert_true(ug[2] == (u0[2] & ~ormask));
  assert_true(ug[3] == (u0[3] | ormask));
  assert_true(ug[4] == (u0[4] ^ vs));
  for (int i = 0; i < N; i++) {
    old[i] = (uint64_t)ret[8 * i];
    nxt[i] = old[i] + 1;
  }
  chain(old, nxt, N, (uint64_t)s0[0], (uint64_t)sg[0], "atom_inc");
  for (int i = 0; i < N; i++) {
    old[i] = (uint64_t)ret[8 * i + 1];
    nxt[i] = old[i] - 1;
  }
  chain(old, nxt, N, (uint64_t)s0[1], (uint64_t)sg[1], "atom_dec");
  for (int i = 0; i < N; i++) {
    old[i] = (uint64_t)ret[8 * i + 2];
    nxt[i] = old[i] - (uint64_t)v[i];
  }
  chain(old, nxt, N, (uint64_t)s0[2], (uint64_t)sg[2], "atom_sub");
  for (int i = 0; i < N; i++) {
    old[i] = (uint64_t)ret[8 * i + 3];
    nxt[i] = (uint64_t)v[i];
  }
  chain(old, nxt, N, (uint64_t)s0[5], (uint64_t)sg[5], "atom_xchg");
}

static void test_cmpxchg64(void **state) {
  rig *r = *state;
  enum { N = 256 };
  int64_t slot[4], won[N];
  for (int j = 0; j < 4; j++) slot[j] = (int64_t)j << 40;
  uint32_t S = dev_buf(r, slot, sizeof slot), W = dev_buf(r, NULL, sizeof won);
  launch(r, "cmpxchg64", N, 64, (uint32_t[]){S, W}, 2);
  get(r, S, slot, sizeof slot);
  get(r, W, won, sizeof won);
  int wins[4] = {0};
  for (int i = 0; i < N; i++) {
    assert_true(won[i] == 0 || won[i] == 1);
    if (!won[i]) continue;
    wins[i % 4]++;
    assert_true(slot[i % 4] == (((int64_t)i << 40) | 0xabcdef)); /* the winner's value stayed */
  }
  for (int j = 0; j < 4; j++) assert_int_equal(wins[j], 1);
}

static void test_hist64_local(void **state) {
  rig *r = *state;
  enum { G = 4, L = 64 };
  uint32_t in[G * L];
  int64_t h[G * 8], want[G * 8];
  uint64_t s = 31337;
  for (int i = 0; i < G * L; i++) in[i] = (uint32_t)rnd64(&s);
  for (int g = 0; g < G; g++) {
    for (int l = 0; l < 8; l++) want[8 * g + l] = (int64_t)0x7ffffffff0 * l;
    for (int l = 0; l < L; l++) {
      uint32_t x = in[g * L + l];
      want[8 * g + x % 8] = (int64_t)((uint64_t)want[8 * g + x % 8] + (0x100000000u | x % 13));
    }
  }
  uint32_t I = dev_buf(r, in, sizeof in), H = dev_buf(r, NULL, sizeof h);
  launch(r, "hist64_local", G * L, L, (uint32_t[]){I, H}, 2);
  get(r, H, h, sizeof h);
  same64(h, want, G * 8, "hist64_local");
}

/* ---- conversions ---------------------------------------------------------------- */

enum { NCL = 18, NCF = 12, NCI = 8, M = 96 };
enum { RTE, RTZ, RTN, RTP };

/* a float rounded to an integral float */
static float round_to(float x, int m) { return m == RTE ? rintf(x) : m == RTZ ? truncf(x) : m == RTN ? floorf(x) : ceilf(x); }

/* convert_long[_sat] of x in mode m: 0 where the result is undefined (not sat, out of range) */
static int ref_f2l(float x, int m, int sat, int64_t *out) {
  float y = round_to(x, m);
  if (isnan(x)) return sat ? (*out = 0, 1) : 0;
  if (y >= 0x1p63f) return sat ? (*out = INT64_MAX, 1) : 0;
  if (y < -0x1p63f) return sat ? (*out = INT64_MIN, 1) : 0;
  *out = (int64_t)y;
  return 1;
}

static int ref_f2ul(float x, int m, int sat, uint64_t *out) {
  float y = round_to(x, m);
  if (isnan(x)) return sat ? (*out = 0, 1) : 0;
  if (y >= 0x1p64f) return sat ? (*out = UINT64_MAX, 1) : 0;
  if (y < 0) return sat ? (*out = 0, 1) : 0;
  *out = (uint64_t)y;
  return 1;
}

/* a 64-bit magnitude u (negative if neg) to float in mode m, by integer rounding */
static float ref_l2f(uint64_t u, int neg, int m) {
  int n = 0;
  for (uint64_t t = u; t; t >>= 1) n++;
  if (n <= 24) return neg ? -(float)u : (float)u;
  int sh = n - 24;
  uint64_t q = u >> sh, rem = u & ((UINT64_C(1) << sh) - 1), half = UINT64_C(1) << (sh - 1);
  int up = m == RTE ? rem > half || (rem == half && (q & 1)) : m == RTZ ? 0 : m == RTP ? !neg && rem : neg && rem;
  float v = ldexpf((float)(q + (uint64_t)up), sh);
  return neg ? -v : v;
}

static float ref_sl2f(int64_t l, int m) { return ref_l2f(l < 0 ? 0 - (uint64_t)l : (uint64_t)l, l < 0, m); }

static int64_t clamp64(int64_t x, int64_t lo, int64_t hi) { return x < lo ? lo : x > hi ? hi : x; }

static void conv_inputs(float *x, int64_t *l) {
  static const float fe[] = {0.0f,         -0.0f,         0.5f,          -0.5f,         1.5f,        -1.5f,       2.5f,
                             -2.5f,        0.49999997f,   8388607.5f,    -8388607.5f,   8388608.0f,  0x1.fffffep62f,
                             -0x1.fffffep62f, 0x1p63f,    -0x1p63f,      0x1.fffffep63f, 0x1p64f,    -0x1p64f,    1e30f,
                             -1e30f,       INFINITY,      -INFINITY,     NAN,           131.35f,     5e9f,        -6e9f,
                             0x1.2p-5f,    -0.7f,         0x1.000002p24f};
  static const uint64_t le[] = {0,
                                1,
                                UINT64_MAX,
                                0x8000000000000000u,
                                0x7fffffffffffffffu,
                                0x1000001u,
                                0x2000003u,
                                (UINT64_C(0x1000001) << 20),
                                (UINT64_C(0x1000001) << 20) + 1,
                                (UINT64_C(0x1000003) << 20),
                                0xffffffffu,
                                0x100000000u,
                                (uint64_t)-0x100000001,
                                0x8000008000000000u,
                                0x7fffff8000000000u,
                                0xffffff8000000000u,
                                (uint64_t)-(int64_t)(UINT64_C(0x1000001) << 20),
                                0x123456789u};
  uint64_t s = 0xdeadbeefcafef00du;
  int nf = (int)(sizeof fe / sizeof *fe), nl = (int)(sizeof le / sizeof *le);
  for (int i = 0; i < M; i++) {
    uint64_t t = rnd64(&s);
    x[i] = i < nf ? fe[i] : ldexpf((float)(t & 0xffffff), (int)(t >> 24) % 70 - 24) * ((t >> 40) & 1 ? -1.0f : 1.0f);
    uint64_t u = rnd64(&s);
    l[i] = (int64_t)(i < nl ? le[i] : u >> ((u >> 58) & 63) | (i % 3 == 0 ? UINT64_C(1) << 63 : 0));
  }
}

static void conv_want(const float *x, const int64_t *l, int64_t *wl, uint8_t *vl, float *wf, int32_t *wi) {
  for (int i = 0; i < M; i++) {
    int64_t *o = wl + NCL * i;
    uint8_t *ok = vl + NCL * i;
    uint64_t u = (uint64_t)l[i], t = 0;
    int32_t n = (int32_t)(l[i] >> 7);
    static const int lm[9][2] = {{RTZ, 0}, {RTE, 0}, {RTZ, 0}, {RTN, 0}, {RTP, 0}, {RTZ, 1}, {RTE, 1}, {RTN, 1}, {RTP, 1}};
    for (int j = 0; j < 9; j++) ok[j] = (uint8_t)ref_f2l(x[i], lm[j][0], lm[j][1], &o[j]);
    static const int um[4][2] = {{RTZ, 0}, {RTP, 0}, {RTZ, 1}, {RTN, 1}};
    for (int j = 0; j < 4; j++) {
      ok[9 + j] = (uint8_t)ref_f2ul(x[i], um[j][0], um[j][1], &t);
      o[9 + j] = (int64_t)t;
    }
    ok[13] = (uint8_t)ref_f2l(x[i], RTZ, 0, &o[13]);
    o[14] = u > INT64_MAX ? INT64_MAX : (int64_t)u;
    o[15] = l[i] < 0 ? 0 : l[i];
    o[16] = n < 0 ? 0 : n;
    o[17] = (int64_t)n + (int64_t)(uint32_t)n;
    for (int j = 14; j < NCL; j++) ok[j] = 1;
    float *f = wf + NCF * i;
    f[0] = ref_sl2f(l[i], RTE);
    f[1] = ref_sl2f(l[i], RTE);
    f[2] = ref_sl2f(l[i], RTZ);
    f[3] = ref_sl2f(l[i], RTN);
    f[4] = ref_sl2f(l[i], RTP);
    f[5] = ref_l2f(u, 0, RTE);
    f[6] = ref_l2f(u, 0, RTZ);
    f[7] = ref_l2f(u, 0, RTN);
    f[8] = ref_l2f(u, 0, RTP);
    f[9] = ref_sl2f(l[i], RTE);
    f[10] = ref_l2f(u, 0, RTE);
    f[11] = 0;
    int32_t *w = wi + NCI * i;
    w[0] = (int32_t)clamp64(l[i], INT32_MIN, INT32_MAX);
    w[1] = (int32_t)(uint32_t)clamp64(l[i], 0, UINT32_MAX);
    w[2] = u > INT32_MAX ? INT32_MAX : (int32_t)u;
    w[3] = (int32_t)(u > UINT32_MAX ? UINT32_MAX : (uint32_t)u);
    w[4] = (int32_t)clamp64(l[i], -128, 127);
    w[5] = (int32_t)clamp64(l[i], 0, 65535);
    w[6] = (int32_t)(uint32_t)u;
    w[7] = 0;
  }
}

static void check_conv(const int64_t *gl, const float *gf, const int32_t *gi, const float *x, const int64_t *l, const char *what) {
  static int64_t wl[M * NCL];
  static uint8_t vl[M * NCL];
  static float wf[M * NCF];
  static int32_t wi[M * NCI];
  conv_want(x, l, wl, vl, wf, wi);
  for (int i = 0; i < M * NCL; i++)
    if (vl[i] && gl[i] != wl[i])
      fail_msg("%s: long result %d of input %d (%a) is 0x%016llx, expected 0x%016llx", what, i % NCL, i / NCL,
               (double)x[i / NCL], (unsigned long long)gl[i], (unsigned long long)wl[i]);
  for (int i = 0; i < M * NCF; i++)
    if (memcmp(&gf[i], &wf[i], 4))
      fail_msg("%s: float result %d of input %d (0x%016llx) is %a, expected %a", what, i % NCF, i / NCF,
               (unsigned long long)l[i / NCF], (double)gf[i], (double)wf[i]);
  for (int i = 0; i < M * NCI; i++)
    if (gi[i] != wi[i])
      fail_msg("%s: int result %d of input %d (0x%016llx) is %d, expected %d", what, i % NCI, i / NCI,
               (unsigned long long)l[i / NCI], gi[i], wi[i]);
}

static void run_conv(rig *r, int uniform) {
  static float x[M], gf[M * NCF];
  static int64_t l[M], gl[M * NCL];
  static int32_t gi[M * NCI];
  conv_inputs(x, l);
  uint32_t X = dev_buf(r, x, sizeof x), L = dev_buf(r, l, sizeof l), OL = dev_buf(r, NULL, sizeof gl),
           OF = dev_buf(r, NULL, sizeof gf), OI = dev_buf(r, NULL, sizeof gi);
  if (uniform) launch(r, "conv_uniform", 1, 1, (uint32_t[]){X, L, OL, OF, OI, M}, 6);
  else launch(r, "conv_lanes", M, 32, (uint32_t[]){X, L, OL, OF, OI}, 5);
  get(r, OL, gl, sizeof gl);
  get(r, OF, gf, sizeof gf);
  get(r, OI, gi, sizeof gi);
  check_conv(gl, gf, gi, x, l, uniform ? "conv_uniform" : "conv_lanes");
}

static void test_conv_lanes(void **state) { run_conv(*state, 0); }
static void test_conv_uniform(void **state) { run_conv(*state, 1); }

static void test_conv_vec(void **state) {
  rig *r = *state;
  static float x[M], gf[M];
  static int64_t l[M], gl[M];
  conv_inputs(x, l);
  uint32_t X = dev_buf(r, x, sizeof x), L = dev_buf(r, l, sizeof l), OL = dev_buf(r, NULL, sizeof gl),
           OF = dev_buf(r, NULL, sizeof gf);
  launch(r, "conv_vec", M / 4, 8, (uint32_t[]){X, L, OL, OF}, 4);
  get(r, OL, gl, sizeof gl);
  get(r, OF, gf, sizeof gf);
  for (int i = 0; i < M; i++) {
    int64_t w;
    ref_f2l(x[i], RTE, 1, &w);
    if (gl[i] != w) fail_msg("convert_long4_sat_rte: element %d (%a) is %lld, expected %lld", i, (double)x[i], (long long)gl[i], (long long)w);
    float wf = ref_sl2f(l[i], RTZ);
    if (memcmp(&gf[i], &wf, 4)) fail_msg("convert_float4_rtz: element %d is %a, expected %a", i, (double)gf[i], (double)wf);
  }
}

static void test_frame_align(void **state) {
  rig *r = *state;
  int32_t out[32];
  memset(out, 0xff, sizeof out);
  uint32_t O = dev_buf(r, out, sizeof out);
  launch(r, "frame_align", 32, 32, (uint32_t[]){O}, 1);
  get(r, O, out, sizeof out);
  for (int i = 0; i < 32; i++) assert_int_equal(out[i], 0);
}

static void test_mulo64(void **state) {
  rig *r = *state;
  enum { N = 128 };
  static const uint64_t pairs[][2] = {{0x8000000000000000u, UINT64_MAX}, {0x8000000000000000u, 1}, {1u << 31, 1ull << 32},
                                      {(uint64_t)-(1ll << 31), 1ull << 32}, {0x100000000u, 0x100000000u},
                                      {0xffffffffu, 0x100000001u}, {3037000499u, 3037000499u}, {3037000500u, 3037000500u},
                                      {(uint64_t)-3037000500ll, 3037000500u}, {UINT64_MAX, UINT64_MAX}, {0, UINT64_MAX},
                                      {0x1ffffffffu, 0x80000000u}};
  static int64_t a[N], b[N], out[3 * N], want[3 * N];
  uint64_t s = 4242;
  for (int i = 0; i < N; i++) {
    int np = (int)(sizeof pairs / sizeof *pairs);
    uint64_t x = rnd64(&s) >> (rnd64(&s) % 64), y = rnd64(&s) >> (rnd64(&s) % 64);
    a[i] = (int64_t)(i < np ? pairs[i][0] : i % 2 ? (uint64_t)-(int64_t)x : x);
    b[i] = (int64_t)(i < np ? pairs[i][1] : i % 3 ? y : (uint64_t)-(int64_t)y);
    int64_t rr;
    uint64_t uu;
    int so = __builtin_mul_overflow(a[i], b[i], &rr), uo = __builtin_mul_overflow((uint64_t)a[i], (uint64_t)b[i], &uu);
    want[3 * i] = rr;
    want[3 * i + 1] = (int64_t)uu;
    want[3 * i + 2] = so | uo << 1;
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  launch(r, "mulo64", N, 32, (uint32_t[]){A, B, O}, 3);
  get(r, O, out, sizeof out);
  same64(out, want, 3 * N, "mulo64");
}

static int64_t clz64(uint64_t v) { return v ? __builtin_clzll(v) : 64; }
static uint64_t rotl64(uint64_t v, uint64_t s) { return s % 64 ? v << (s % 64) | v >> (64 - s % 64) : v; }

/* clz, popcount and rotate of long2/ulong2, element by element */
static void test_bits64v(void **state) {
  rig *r = *state;
  enum { N = 64 };
  static int64_t a[2 * N], b[2 * N], out[12 * N], want[12 * N];
  uint64_t s = 777;
  for (int i = 0; i < 2 * N; i++) {
    a[i] = (int64_t)(i < 10 ? edges[i] : rnd64(&s) >> (rnd64(&s) % 64));
    b[i] = (int64_t)(rnd64(&s) >> (rnd64(&s) % 64));
  }
  for (int i = 0; i < N; i++) {
    uint64_t x0 = (uint64_t)a[2 * i], x1 = (uint64_t)a[2 * i + 1], y0 = (uint64_t)b[2 * i], y1 = (uint64_t)b[2 * i + 1];
    int64_t *w = want + 12 * i;
    w[0] = clz64(x0), w[1] = clz64(x1), w[2] = __builtin_popcountll(x0), w[3] = __builtin_popcountll(x1);
    w[4] = (int64_t)rotl64(x0, (uint64_t)i), w[5] = (int64_t)rotl64(x1, (uint64_t)(64 - i));
    w[6] = clz64(y0), w[7] = clz64(y1), w[8] = __builtin_popcountll(y0), w[9] = __builtin_popcountll(y1);
    w[10] = (int64_t)rotl64(y0, (uint64_t)(3 * i)), w[11] = (int64_t)rotl64(y1, (uint64_t)(i + 1));
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  launch(r, "bits64v", N, 32, (uint32_t[]){A, B, O}, 3);
  get(r, O, out, sizeof out);
  same64(out, want, 12 * N, "bits64v");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_longvec),      cmocka_unit_test(test_hist64),     cmocka_unit_test(test_atom64_all),
      cmocka_unit_test(test_cmpxchg64),    cmocka_unit_test(test_hist64_local), cmocka_unit_test(test_conv_lanes),
      cmocka_unit_test(test_conv_uniform), cmocka_unit_test(test_conv_vec),     cmocka_unit_test(test_frame_align),
      cmocka_unit_test(test_mulo64),      cmocka_unit_test(test_bits64v),
  };
  return cmocka_run_group_tests(tests, group_setup, cc_suite_teardown);
}
