/* tests/cc/kernels/subnormal.cl: exp, exp2, ldexp, fmod and remquo where
 * operands or results are subnormal floats, against the host's libm (exact
 * results bit for bit: ldexp, fmod, remquo's remainder and quotient bits;
 * exp and exp2 within their OpenCL bound of 3 ulp of the double result),
 * through the native and the OpenCL API. libclc's bodies gave 0, inf or a
 * lost operand here (the CTS's math brute force found them). */
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

static int group_setup(void **state) { return cc_suite_setup(state, "subnormal"); }

static float bitsf(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static uint32_t fbits(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

/* |g - want| in units of the float ulp at want (subnormal ulp 2^-149) */
static double ulps(float g, double want) {
  if (isnan(want)) return isnan(g) ? 0 : 1e9;
  if (fabs(want) >= 0x1.ffffffp+127) want = copysign(INFINITY, want); /* overflows the float */
  if (isinf(want)) return (double)g == want ? 0 : 1e9;
  double a = fabs(want), u = a < 0x1p-126 ? 0x1p-149 : ldexp(1.0, ilogb(a) - 23);
  return fabs((double)g - want) / u;
}

/* a quotient's sign and low 3 bits (glibc gives 3; OpenCL at least 7) */
static int qlow(int q) { return q < 0 ? -(int)((0u - (unsigned)q) & 7) : q & 7; }

static int same(float g, float w) { return fbits(g) == fbits(w) || (isnan(g) && isnan(w)); }

/* a random float of any kind, subnormals and small exponents often */
static float any_float(uint64_t *s) {
  uint64_t r = rnd64(s);
  switch (r % 4) {
  case 0: return bitsf((uint32_t)(r >> 8) & 0x807fffffu);                          /* subnormal or zero */
  case 1: return bitsf(((uint32_t)(r >> 8) & 0x83ffffffu) | (uint32_t)(r % 3) << 23); /* near the bottom */
  default: return bitsf((uint32_t)(r >> 16));
  }
}

static void test_scalar(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 4096 };
  static float x[N + 1], y[N], o[5 * N];
  static int32_t n[N], q[N];
  uint64_t s = 1729;
  for (int i = 0; i < N; i++) {
    /* exp's subnormal range [-103.3, -87.3] and exp2's [-149, -126] for a
     * third each; the rest anything */
    double u = (double)(rnd64(&s) >> 11) * 0x1p-53;
    x[i] = i % 3 == 0 ? (float)(-104.0 + 17.0 * u) : i % 3 == 1 ? (float)(-150.0 + 25.0 * u) : any_float(&s);
    y[i] = any_float(&s);
    n[i] = (int32_t)(rnd64(&s) % 600) - 300;
  }
  x[N] = 1.0f;
  /* corners: the boundaries of the flush, exact ties of remquo */
  x[0] = -0x1.5d58ap+6f, x[3] = -126.0f, x[6] = -149.0f, x[9] = -150.0f, x[12] = -INFINITY;
  x[15] = 5.0f, y[15] = 2.0f;   /* remquo: 2.5 rounds to 2 (even): -1, quo 2 */
  x[18] = 7.0f, y[18] = 2.0f;   /* 3.5 rounds to 4: -1, quo 4 */
  y[21] = 0x1p-149f, n[21] = 300; /* ldexp of the smallest subnormal up */
  y[24] = 0x1.fffffep+127f, n[24] = -277; /* down to a subnormal in two steps */
  uint32_t X = cc_rig_buf(r->c, x, sizeof x), Y = cc_rig_buf(r->c, y, sizeof y), NN = cc_rig_buf(r->c, n, sizeof n);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof o), Q = cc_rig_buf(r->c, NULL, sizeof q);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "subn", &nd, (uint32_t[]){X, Y, NN, O, Q}, 5);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, Q, q, sizeof q);
  for (int i = 0; i < N; i++) {
    double ue = ulps(o[5 * i], exp((double)x[i])), u2 = ulps(o[5 * i + 1], exp2((double)x[i]));
    if (ue > 3) fail_msg("exp(%a) = %a, %.1f ulp from %a", x[i], o[5 * i], ue, exp((double)x[i]));
    if (u2 > 3) fail_msg("exp2(%a) = %a, %.1f ulp from %a", x[i], o[5 * i + 1], u2, exp2((double)x[i]));
    float wl = ldexpf(y[i], n[i]), wf = fmodf(x[i], y[i]);
    if (!same(o[5 * i + 2], wl)) fail_msg("ldexp(%a, %d) = %a, expected %a", y[i], n[i], o[5 * i + 2], wl);
    if (!same(o[5 * i + 3], wf)) fail_msg("fmod(%a, %a) = %a, expected %a", x[i], y[i], o[5 * i + 3], wf);
    int wq;
    float wr = remquof(x[i], y[i], &wq);
    if (!same(o[5 * i + 4], wr)) fail_msg("remquo(%a, %a) = %a, expected %a", x[i], y[i], o[5 * i + 4], wr);
    if (!isnan(wr) && qlow(q[i]) != qlow(wq))
      fail_msg("remquo(%a, %a): quotient %d, expected %d in its low 3 bits and sign", x[i], y[i], q[i], wq);
  }
}

static void test_vector(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 256 };
  static float x[4 * N], y[4 * N], o[16 * N];
  static int32_t n[4 * N], q[2 * N];
  uint64_t s = 4242;
  for (int i = 0; i < 4 * N; i++) {
    x[i] = i % 4 == 2 ? (float)(-150.0 + 30.0 * (double)(rnd64(&s) >> 11) * 0x1p-53) : any_float(&s);
    y[i] = any_float(&s);
    n[i] = (int32_t)(rnd64(&s) % 600) - 300;
  }
  uint32_t X = cc_rig_buf(r->c, x, sizeof x), Y = cc_rig_buf(r->c, y, sizeof y), NN = cc_rig_buf(r->c, n, sizeof n);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof o), Q = cc_rig_buf(r->c, NULL, sizeof q);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "subnv", &nd, (uint32_t[]){X, Y, NN, O, Q}, 5);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, Q, q, sizeof q);
  for (int i = 0; i < N; i++) {
    for (int k = 0; k < 4; k++) {
      int j = 4 * i + k;
      float wl = ldexpf(y[j], n[j]), wf = fmodf(x[j], y[j]);
      if (!same(o[16 * i + k], wl)) fail_msg("ldexp(float4) lane %d: ldexp(%a, %d) = %a, expected %a", k, y[j], n[j], o[16 * i + k], wl);
      if (!same(o[16 * i + 4 + k], wf)) fail_msg("fmod(float4) lane %d: fmod(%a, %a) = %a, expected %a", k, x[j], y[j], o[16 * i + 4 + k], wf);
      double ue = ulps(o[16 * i + 8 + k], exp((double)x[j]));
      if (ue > 3) fail_msg("exp(float4) lane %d: exp(%a) = %a, %.1f ulp off", k, x[j], o[16 * i + 8 + k], ue);
    }
    for (int k = 0; k < 2; k++) {
      int j = 4 * i + k, wq;
      float wr = remquof(x[j], y[j], &wq);
      if (!same(o[16 * i + 12 + k], wr)) fail_msg("remquo (%s quotient): remquo(%a, %a) = %a, expected %a", k ? "local" : "private", x[j], y[j], o[16 * i + 12 + k], wr);
      if (!isnan(wr) && qlow(q[2 * i + k]) != qlow(wq))
        fail_msg("remquo (%s quotient) of (%a, %a): %d, expected %d", k ? "local" : "private", x[j], y[j], q[2 * i + k], wq);
    }
    double u2 = ulps(o[16 * i + 14], exp2((double)x[4 * i + 2]));
    if (u2 > 3) fail_msg("exp2(%a) = %a, %.1f ulp off", x[4 * i + 2], o[16 * i + 14], u2);
  }
}

static double bitsd(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static int same_d(double g, double w) { return !memcmp(&g, &w, 8) || (isnan(g) && isnan(w)); }

/* a random double of any kind: subnormals, small and large exponents,
 * NaN and infinities among them */
static double any_double(uint64_t *s) {
  uint64_t r = rnd64(s);
  switch (r % 5) {
  case 0: return bitsd(r & 0x800fffffffffffffULL);                      /* subnormal or zero */
  case 1: return bitsd((r & 0x803fffffffffffffULL) | (r % 3) << 52);     /* near the bottom */
  case 2: return bitsd(r | 0x7ff0000000000000ULL);                       /* NaN (or infinity) */
  default: return bitsd(r);
  }
}

static void test_double(void **state) {
  rig *r = *state;
  if (!cc_rig_have_libclc()) skip();
  enum { N = 512 };
  static double x[N], y[N], o[3 * N];
  static int32_t n[N], q[N];
  uint64_t s = 2718;
  for (int i = 0; i < N; i++) {
    x[i] = any_double(&s), y[i] = any_double(&s);
    n[i] = (int32_t)(rnd64(&s) % 4400) - 2200;
  }
  x[0] = 0x1.fffffffffffffp+1023, y[0] = 0x1p-1074; /* the longest division */
  x[1] = 5.0, y[1] = 2.0, x[2] = 7.0, y[2] = 2.0;   /* remquo's ties to even */
  y[3] = bitsd(0x7ff8000000000001ULL), n[3] = 1;    /* ldexp keeps a NaN */
  uint32_t X = cc_rig_buf(r->c, x, sizeof x), Y = cc_rig_buf(r->c, y, sizeof y), NN = cc_rig_buf(r->c, n, sizeof n);
  uint32_t O = cc_rig_buf(r->c, NULL, sizeof o), Q = cc_rig_buf(r->c, NULL, sizeof q);
  cy_ndrange nd = {.work_dim = 1, .global = {N}, .local = {64}};
  cc_rig_launch(r->c, r->prog, "subnd", &nd, (uint32_t[]){X, Y, NN, O, Q}, 5);
  cc_rig_get(r->c, O, o, sizeof o);
  cc_rig_get(r->c, Q, q, sizeof q);
  for (int i = 0; i < N; i++) {
    double wl = ldexp(y[i], n[i]), wf = fmod(x[i], y[i]);
    int wq;
    double wr = remquo(x[i], y[i], &wq);
    if (!same_d(o[3 * i], wl)) fail_msg("ldexp(%a, %d) = %a, expected %a", y[i], n[i], o[3 * i], wl);
    if (!same_d(o[3 * i + 1], wf)) fail_msg("fmod(%a, %a) = %a, expected %a", x[i], y[i], o[3 * i + 1], wf);
    if (!same_d(o[3 * i + 2], wr)) fail_msg("remquo(%a, %a) = %a, expected %a", x[i], y[i], o[3 * i + 2], wr);
    if (!isnan(wr) && qlow(q[i]) != qlow(wq))
      fail_msg("remquo(%a, %a): quotient %d, expected %d in its low 3 bits and sign", x[i], y[i], q[i], wq);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_scalar), cmocka_unit_test(test_vector),
                                     cmocka_unit_test(test_double)};
  return cmocka_run_group_tests(tests, group_setup, cc_suite_teardown);
}
