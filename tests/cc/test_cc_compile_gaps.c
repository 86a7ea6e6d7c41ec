/* tests/cc/kernels/compile_gaps.cl: the compile gaps of issue 21 (double
 * constants in float code, C99 inline functions, fills and copies of any
 * and of run-time length, accesses below their width's alignment, async
 * work-group copies, ctz in OpenCL C 1.2,
 * 201 kernel arguments), compiled by `ventus cc` (or the OpenCL platform),
 * run through the native or the OpenCL API (tests/cc/helpers/cc_rig.h)
 * and checked against plain C on the host. */
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

static int group_setup(void **state) { return cc_suite_setup(state, "compile_gaps"); }

static int setup(void **state) {
  rig *r = *state;
  return cc_rig_fresh(r->c);
}

static uint32_t dev_buf(rig *r, const void *data, size_t bytes) { return cc_rig_buf(r->c, data, bytes); }

static void get(rig *r, uint32_t a, void *dst, size_t bytes) { cc_rig_get(r->c, a, dst, bytes); }

static void launch(rig *r, const char *kernel, uint32_t n, uint32_t local, const uint32_t *slots, size_t ns) {
  cy_ndrange nd = {.work_dim = 1, .global = {n}, .local = {local}};
  cc_rig_launch(r->c, r->prog, kernel, &nd, slots, ns);
}

static uint32_t rnd(uint32_t *s) { /* xorshift32 */
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static uint32_t f2u(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}

static void same_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) fail_msg("%s: byte %zu is 0x%02x, expected 0x%02x", what, i, got[i], want[i]);
}

/* ---- double constants in float code ------------------------------------------------ */

static void test_fp_consts(void **state) {
  rig *r = *state;
  enum { N = 64 };
  float in[N], out[6 * N], want[6 * N];
  for (int i = 0; i < N; i++) in[i] = (float)i * 0.37f - 5.0f + (i % 3 ? 1e-3f : 0);
  for (int i = 0; i < N; i++) {
    float x = in[i], *w = want + 6 * i;
    w[0] = 0.5f * x;
    w[1] = x * 0.0625f;
    w[2] = (float)3.14159265358979323846 * x; /* M_PI, demoted */
    w[3] = 1e18f * x;
    w[4] = 12.0f; /* sizeof of a float, M_PI and 0.5: all float */
    w[5] = fmaf(x, 0.1f, 2.5f);
  }
  uint32_t O = dev_buf(r, NULL, sizeof out), I = dev_buf(r, in, sizeof in);
  launch(r, "fp_consts", N, 32, (uint32_t[]){O, I}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < 6 * N; i++)
    if (f2u(out[i]) != f2u(want[i]))
      fail_msg("fp_consts: [%d] (item %d, value %d) is %a, expected %a", i, i / 6, i % 6, out[i], want[i]);
}

/* ---- C99 inline ------------------------------------------------------------------ */

static uint32_t rotl(uint32_t x, unsigned k) { return k % 32 ? x << (k % 32) | x >> (32 - k % 32) : x; }

static uint32_t mix(uint32_t r, uint32_t b) {
  for (uint32_t k = 0; k < 64; k++) r = rotl(r, k % 31 + 1) ^ (b + 0x9e3779b9u * (k + 1)) ^ (r * (2 * k + 3));
  return r;
}

static void test_inline_mix(void **state) {
  rig *r = *state;
  enum { N = 64 };
  uint32_t in[N + 2], out[N], want[N], s = 99;
  for (int i = 0; i < N + 2; i++) in[i] = rnd(&s);
  for (uint32_t i = 0; i < N; i++) want[i] = mix(in[i], 1) + mix(in[i + 1], 2) + mix(i, 3) + 2 * mix(in[i + 2], 4);
  uint32_t O = dev_buf(r, NULL, sizeof out), I = dev_buf(r, in, sizeof in);
  launch(r, "inline_mix", N, 32, (uint32_t[]){O, I}, 2);
  get(r, O, out, sizeof out);
  cc_same_words(out, want, N, "inline_mix");
}

/* ---- fills and copies ----------------------------------------------------------- */

static void test_zero_local(void **state) {
  rig *r = *state;
  enum { N = 64, L = 32, NL = 2176 };
  uint32_t out[N], want[N];
  for (uint32_t g = 0; g < N; g++) {
    uint32_t lid = g % L, s = 0;
    for (uint32_t i = lid; i < NL; i += 7)
      if (i % 67 == 0 && i / 67 < L) s += (i / 67 + 1) * (i + 1);
    want[g] = s;
  }
  uint32_t O = dev_buf(r, NULL, sizeof out);
  launch(r, "zero_local", N, L, (uint32_t[]){O}, 1);
  get(r, O, out, sizeof out);
  cc_same_words(out, want, N, "zero_local");
}

/* big_private: the same arithmetic in C */
static void test_big_private(void **state) {
  rig *r = *state;
  enum { N = 64, NIT = 3000 };
  static int32_t in[64], out[N], want[N];
  uint32_t sd = 77;
  for (int i = 0; i < 64; i++) in[i] = (int32_t)(rnd(&sd) % 20001) - 10000;
  static int32_t a[2500];
  for (int i = 0; i < N; i++) {
    int32_t w[40];
    for (int j = 0; j < 40; j++) w[j] = in[(i + j) & 63] - j;
    for (int j = 0; j < 2500; j++) a[j] = (int32_t)((uint32_t)in[(i * 3 + j) & 63] * (uint32_t)(j + 1) + (uint32_t)w[j % 40]);
    uint32_t acc = 0;
    for (int j = 0; j < NIT; j++) acc += (uint32_t)(a[(j * 37 + i) % 2500] ^ a[2499 - (j % 2500)]);
    want[i] = (int32_t)(acc + (uint32_t)a[2499] + (uint32_t)w[39]);
  }
  uint32_t O = dev_buf(r, NULL, sizeof out), I = dev_buf(r, in, sizeof in);
  launch(r, "big_private", N, 32, (uint32_t[]){O, I, NIT}, 3);
  get(r, O, out, sizeof out);
  cc_same_words((uint32_t *)out, (uint32_t *)want, N, "big_private");
}

static void test_fill_var(void **state) {
  rig *r = *state;
  enum { N = 32 };
  static uint8_t buf[64 * N], want[64 * N];
  for (int i = 0; i < 64 * N; i++) buf[i] = want[i] = (uint8_t)(i * 7);
  for (int g = 0; g < N; g++) memset(want + 64 * g, 0xa5, 40 + g % 13);
  uint32_t B = dev_buf(r, buf, sizeof buf);
  launch(r, "fill_var", N, 32, (uint32_t[]){B, 40, 0xa5}, 3);
  get(r, B, buf, sizeof buf);
  same_bytes(buf, want, sizeof buf, "fill_var");
}

static void test_copy_var(void **state) {
  rig *r = *state;
  enum { N = 32 };
  static uint32_t src[100 * N], dst[100 * N], want[100 * N];
  uint32_t s = 5;
  for (int i = 0; i < 100 * N; i++) {
    src[i] = rnd(&s);
    dst[i] = want[i] = 0xffffffffu;
  }
  for (int g = 0; g < N; g++) memcpy(want + 100 * g, src + 100 * g, 4 * (60 + g % 5));
  uint32_t D = dev_buf(r, dst, sizeof dst), S = dev_buf(r, src, sizeof src);
  launch(r, "copy_var", N, 32, (uint32_t[]){D, S, 60}, 3);
  get(r, D, dst, sizeof dst);
  cc_same_words(dst, want, 100 * N, "copy_var");
}

static void test_move_var(void **state) {
  rig *r = *state;
  enum { N = 32, LEN = 20 };
  static uint8_t bytes[64 * N], wb[64 * N];
  static uint32_t words[64 * N], ww[64 * N];
  uint32_t s = 17;
  for (int i = 0; i < 64 * N; i++) {
    bytes[i] = wb[i] = (uint8_t)rnd(&s);
    words[i] = ww[i] = rnd(&s);
  }
  uint32_t B = dev_buf(r, bytes, sizeof bytes), W = dev_buf(r, words, sizeof words);
  const int ds[2] = {5, -6}; /* the destination above the source (a backward move), then below */
  for (int k = 0; k < 2; k++) {
    int d = ds[k];
    for (int g = 0; g < N; g++) {
      memmove(wb + 64 * g + 8 + d, wb + 64 * g + 8, LEN);
      memmove(ww + 64 * g + 8 + d, ww + 64 * g + 8, 4 * LEN);
    }
    launch(r, "move_var", N, 32, (uint32_t[]){B, W, LEN, (uint32_t)d}, 4);
  }
  get(r, B, bytes, sizeof bytes);
  get(r, W, words, sizeof words);
  same_bytes(bytes, wb, sizeof bytes, "move_var (bytes)");
  cc_same_words(words, ww, 64 * N, "move_var (words)");
}

static void test_copy_to_local(void **state) {
  rig *r = *state;
  enum { N = 64 };
  uint32_t src[100], out[N], want[N], s = 3;
  for (int i = 0; i < 100; i++) src[i] = rnd(&s);
  for (int g = 0; g < N; g++) want[g] = src[g * 7 % 100];
  uint32_t S = dev_buf(r, src, sizeof src), O = dev_buf(r, NULL, sizeof out);
  launch(r, "copy_to_local", N, 32, (uint32_t[]){S, O}, 2);
  get(r, O, out, sizeof out);
  cc_same_words(out, want, N, "copy_to_local");
}

static void test_unaligned(void **state) {
  rig *r = *state;
  enum { N = 64 };
  static uint8_t src[16 * N], dst[2048], want[2048];
  uint32_t s = 41;
  for (int i = 0; i < 16 * N; i++) src[i] = (uint8_t)rnd(&s);
  for (int i = 0; i < 2048; i++) dst[i] = want[i] = (uint8_t)(i * 5 + 1);
  for (int g = 0; g < N; g++) {
    const uint8_t *p = src + g * 16 + 1 + g % 5;
    memcpy(want + g * 16 + 1 + g % 3, p, 4);
    memcpy(want + 1024 + g * 8 + g % 2, p + 6, 2);
  }
  uint32_t S = dev_buf(r, src, sizeof src), D = dev_buf(r, dst, sizeof dst);
  launch(r, "unaligned", N, 32, (uint32_t[]){S, D}, 2);
  get(r, D, dst, sizeof dst);
  same_bytes(dst, want, sizeof dst, "unaligned");
}

/* ---- async work-group copies ---------------------------------------------------- */

static void test_async_copies(void **state) {
  rig *r = *state;
  enum { G = 4, L = 32 };
  static float src[G * 64 * 4], dst[G * 64 * 4], want[G * 64 * 4];
  static uint8_t bsrc[300], bdst[G * 96], bwant[G * 96];
  uint32_t s = 11;
  for (int i = 0; i < G * 64 * 4; i++) src[i] = (float)(int)(rnd(&s) % 2001 - 1000) * 0.25f;
  for (int i = 0; i < 300; i++) bsrc[i] = (uint8_t)rnd(&s);
  for (int g = 0; g < G; g++) {
    for (int i = 0; i < 64; i++) {
      const float add[4] = {(float)g, (float)(i % L), (float)i, 1.0f};
      for (int c = 0; c < 4; c++) want[(g + i * G) * 4 + c] = src[(g * 64 + i) * 4 + c] * 2.0f + add[c];
    }
    for (int i = 0; i < 96; i++) bwant[g * 96 + i] = (uint8_t)(bsrc[g + 3 * i] + i);
  }
  uint32_t S = dev_buf(r, src, sizeof src), D = dev_buf(r, NULL, sizeof dst);
  uint32_t BS = dev_buf(r, bsrc, sizeof bsrc), BD = dev_buf(r, NULL, sizeof bdst);
  launch(r, "async_copies", G * L, L, (uint32_t[]){S, D, BS, BD}, 4);
  get(r, D, dst, sizeof dst);
  get(r, BD, bdst, sizeof bdst);
  cc_same_words(dst, want, G * 64 * 4, "async_copies (float4, strided out)");
  same_bytes(bdst, bwant, sizeof bdst, "async_copies (uchar, strided in)");
}

/* ---- ctz ------------------------------------------------------------------------ */

static uint32_t ctz_n(uint64_t x, unsigned bits) {
  return x ? (uint32_t)__builtin_ctzll(x) : bits;
}

static void test_ctz_all(void **state) {
  rig *r = *state;
  enum { N = 64 };
  uint32_t in[N], out[8 * N], want[8 * N], s = 23;
  const uint32_t edges[] = {0, 1, 0x80000000u, 0x100u, 0xff00u, 0x10000u, 0xffffffffu, 0x80u};
  for (int i = 0; i < N; i++) in[i] = i < 8 ? edges[i] : rnd(&s) << (rnd(&s) % 32);
  for (int i = 0; i < N; i++) {
    uint32_t x = in[i], *w = want + 8 * i;
    w[0] = ctz_n(x, 32);
    w[1] = ctz_n(x & 0xff, 8);
    w[2] = ctz_n(x >> 16, 16);
    w[3] = ctz_n((uint64_t)x << 32 | x >> 7, 64);
    w[4] = ctz_n(x, 32);
    w[5] = ctz_n(x >> 3, 32);
    w[6] = ctz_n((uint32_t)(x << 5), 32);
    w[7] = ctz_n((uint32_t)-x, 32);
  }
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, "ctz_all", N, 32, (uint32_t[]){I, O}, 2);
  get(r, O, out, sizeof out);
  cc_same_words(out, want, 8 * N, "ctz_all");
}

/* ---- 201 kernel arguments ------------------------------------------------------- */

static void test_many_args(void **state) {
  rig *r = *state;
  enum { N = 40, NA = 200 };
  uint32_t slots[1 + NA], out[N], want[N], sum = 0, s = 31;
  for (uint32_t k = 0; k < NA; k++) {
    slots[1 + k] = rnd(&s);
    sum += slots[1 + k] * (k + 1);
  }
  for (uint32_t g = 0; g < N; g++) want[g] = g + sum;
  slots[0] = dev_buf(r, NULL, sizeof out);
  launch(r, "many_args", N, 8, slots, 1 + NA);
  get(r, slots[0], out, sizeof out);
  cc_same_words(out, want, N, "many_args");
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_fp_consts),    T(test_inline_mix), T(test_zero_local),   T(test_big_private), T(test_fill_var), T(test_copy_var),
      T(test_move_var),     T(test_copy_to_local), T(test_unaligned), T(test_async_copies), T(test_ctz_all), T(test_many_args),
  };
  return cmocka_run_group_tests(tests, group_setup, cc_suite_teardown);
}
