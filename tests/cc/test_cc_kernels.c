/* The OpenCL C compiler's kernel suite: each kernel of tests/cc/kernels/ (*.cl)
 * is compiled and run on the simulated GPGPU through the native API (cy_*,
 * `ventus cc`) or the OpenCL API (clBuildProgram), as CC_RIG_API says
 * (tests/cc/helpers/cc_rig.h), and every result is compared with a plain-C computation of the
 * same function on the host (exact: integer results bit for bit, float
 * results bit for bit where the operations are correctly rounded; a*b+c may
 * be contracted by OpenCL C, so its reference is fmaf). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <unistd.h>

#include <cmocka.h>

#include "chengying.h"
#include "cc_rig.h"
#include "ref_kernels.h"


enum { F_ARITH, F_CONTROL, F_MEMORY, F_EXAMPLES, F_RODINIA, F_BUILTINS, F_LONG, F_BITS, F_SPILL, F_CALLS, F_CONVERT, F_MATH, F_INTVEC, NFILES };
static const char *const files[NFILES] = {"arith", "control", "memory", "examples", "rodinia", "builtins", "long", "bits", "spill", "calls", "convert", "math", "intvec"};

typedef struct {
  cc_rig *c;
  int prog[NFILES];
  int no_libclc; /* math.cl needs Debian's libclc-19 */
} rig;

static int group_setup(void **state) {
  rig *r = calloc(1, sizeof *r);
  if (!r || !(r->c = cc_rig_open())) {
    free(r);
    return -1;
  }
  for (int i = 0; i < NFILES; i++) {
    if ((i == F_MATH || i == F_INTVEC) && !cc_rig_have_libclc()) {
      printf("SKIP: the math and intvec tests need Debian's libclc-19 (/usr/lib/clc/nvptx--.bc)\n");
      r->no_libclc = 1;
      continue;
    }
    if ((r->prog[i] = cc_rig_load(r->c, files[i])) < 0) {
      cc_rig_close(r->c);
      free(r);
      return -1;
    }
  }
  *state = r;
  return 0;
}

static int group_teardown(void **state) {
  rig *r = *state;
  if (r) cc_rig_close(r->c);
  free(r);
  return 0;
}

static int setup(void **state) {
  rig *r = *state;
  return cc_rig_fresh(r->c);
}

static uint32_t dev_buf(rig *r, const void *data, size_t bytes) { return cc_rig_buf(r->c, data, bytes); }

static void put(rig *r, uint32_t a, const void *src, size_t bytes) { cc_rig_put(r->c, a, src, bytes); }

static void get(rig *r, uint32_t a, void *dst, size_t bytes) { cc_rig_get(r->c, a, dst, bytes); }

static void launch(rig *r, int file, const char *kernel, cy_ndrange nd, const uint32_t *slots, size_t n) {
  cc_rig_launch(r->c, r->prog[file], kernel, &nd, slots, n);
}

static cy_ndrange nd1(uint32_t n, uint32_t local) {
  return (cy_ndrange){.work_dim = 1, .global = {(n + local - 1) / local * local}, .local = {local}};
}

#define same_words cc_same_words

static uint32_t lcg(uint32_t *s) {
  *s = *s * 1664525u + 1013904223u;
  return *s >> 8;
}

static float rnd_float(uint32_t *s) { return ((float)(lcg(s) % 20001) - 10000.0f) / 64.0f; }

/* ---- arith.cl ----------------------------------------------------------------- */

static void test_vecadd_saxpy(void **state) {
  rig *r = *state;
  enum { N = 300 };
  float a[N], b[N], c[N], y[N], want[N];
  uint32_t s = 1;
  for (int i = 0; i < N; i++) a[i] = rnd_float(&s), b[i] = rnd_float(&s);
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), C = dev_buf(r, NULL, sizeof c);
  launch(r, F_ARITH, "vecadd", nd1(N, 64), (uint32_t[]){A, B, C, N}, 4);
  get(r, C, c, sizeof c);
  for (int i = 0; i < N; i++) want[i] = a[i] + b[i];
  same_words(c, want, N, "vecadd");
  float k = 1.75f;
  uint32_t kb;
  memcpy(&kb, &k, 4);
  launch(r, F_ARITH, "saxpy", nd1(N - 10, 32), (uint32_t[]){A, B, kb, N - 10}, 4);
  get(r, B, y, sizeof y);
  for (int i = 0; i < N; i++) want[i] = i < N - 10 ? fmaf(k, a[i], b[i]) : b[i];
  same_words(y, want, N, "saxpy");
}

static void test_int_ops(void **state) {
  rig *r = *state;
  enum { N = 200 };
  int32_t a[N], b[N], out[10 * N], want[10 * N];
  uint32_t s = 7;
  for (int i = 0; i < N; i++) {
    a[i] = (int32_t)lcg(&s) - (1 << 23);
    b[i] = (int32_t)(lcg(&s) % 2001) - 1000;
    if (!b[i]) b[i] = 3;
    if (i % 17 == 0) a[i] = b[i];
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_ARITH, "int_ops", nd1(N, 32), (uint32_t[]){A, B, O, N}, 4);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    int32_t x = a[i], y = b[i], *o = want + 10 * i;
    o[0] = (int32_t)((uint32_t)x + (uint32_t)y);
    o[1] = (int32_t)((uint32_t)x - (uint32_t)y);
    o[2] = (int32_t)((uint32_t)x * (uint32_t)y);
    o[3] = x / y;
    o[4] = x % y;
    o[5] = x >> (y & 31);
    o[6] = (int32_t)((uint32_t)x >> (y & 31));
    o[7] = (int32_t)(((uint32_t)x << (y & 7)) ^ ((uint32_t)(x | y) & ~(uint32_t)y));
    o[8] = (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * ((uint32_t)x < (uint32_t)y) + 16 * ((uint32_t)x >= (uint32_t)y);
    o[9] = x > y ? x - 3 : y + 5;
  }
  same_words(out, want, 10 * N, "int_ops");
}

static void test_uint_ops(void **state) {
  rig *r = *state;
  enum { N = 150 };
  uint32_t a[N], b[N], out[6 * N], want[6 * N];
  uint32_t s = 11;
  for (int i = 0; i < N; i++) {
    a[i] = i % 3 ? lcg(&s) % 5000 : lcg(&s);
    b[i] = lcg(&s) % 3000 + 1;
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_ARITH, "uint_ops", nd1(N, 32), (uint32_t[]){A, B, O, N}, 4);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint32_t x = a[i], y = b[i], *o = want + 6 * i;
    int32_t d = (int32_t)(x - y);
    o[0] = x / y;
    o[1] = x % y;
    o[2] = x < y ? x : y;
    o[3] = (x > y ? x : y) - (x < 100u ? x : 100u);
    o[4] = x > 1000u ? x * 7u : y * 3u;
    o[5] = d < 0 ? -(uint32_t)d : (uint32_t)d;
  }
  same_words(out, want, 6 * N, "uint_ops");
}

static void test_float_ops(void **state) {
  rig *r = *state;
  enum { N = 160 };
  float a[N], b[N], out[10 * N], want[10 * N];
  uint32_t s = 5;
  for (int i = 0; i < N; i++) {
    a[i] = rnd_float(&s);
    b[i] = i % 9 == 0 ? a[i] : rnd_float(&s);
    if (b[i] == 0.0f) b[i] = 0.5f;
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_ARITH, "float_ops", nd1(N, 32), (uint32_t[]){A, B, O, N}, 4);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    float x = a[i], y = b[i], *o = want + 10 * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrtf(fabsf(x));
    o[5] = fmaf(2.0f, fmaxf(x, y), fminf(x, y));
    o[6] = (float)(int32_t)x + (float)(uint32_t)fabsf(y);
    o[7] = (x < y ? 1.0f : 0.0f) + (x >= y ? 2.0f : 0.0f) + (x == y ? 4.0f : 0.0f);
    o[8] = fmaf(-x, 0.5f, 3.0f);
    o[9] = (float)(uint32_t)(i * 3) / 7.0f;
  }
  same_words(out, want, 10 * N, "float_ops");
}

static void test_vectors(void **state) {
  rig *r = *state;
  enum { N = 40 };
  float a[4 * N], b[4 * N], c[4 * N], want[4 * N];
  uint32_t s = 15;
  for (int i = 0; i < 4 * N; i++) a[i] = rnd_float(&s), b[i] = rnd_float(&s);
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), C = dev_buf(r, NULL, sizeof c);
  launch(r, F_ARITH, "vec4", nd1(N, 32), (uint32_t[]){A, B, C, N}, 4);
  get(r, C, c, sizeof c);
  for (int i = 0; i < N; i++) {
    const float *x = a + 4 * i, *y = b + 4 * i;
    float z[4];
    for (int e = 0; e < 4; e++) z[e] = fmaf(x[e], y[e], (float)(e + 1));
    float *o = want + 4 * i;
    o[0] = z[3] + x[0], o[1] = z[2] + x[0], o[2] = z[1] + x[1], o[3] = z[0] + x[1];
  }
  same_words(c, want, 4 * N, "vec4");

  int32_t v[2 * N], ci[N], cw[N];
  uint8_t d[4 * N], dw[4 * N];
  for (int i = 0; i < 2 * N; i++) v[i] = (int32_t)(lcg(&s) % 600) - 300;
  uint32_t V = dev_buf(r, v, sizeof v), CI = dev_buf(r, NULL, sizeof ci), D = dev_buf(r, NULL, sizeof d);
  launch(r, F_ARITH, "int2_ops", nd1(N, 32), (uint32_t[]){V, CI, D, N}, 4);
  get(r, CI, ci, sizeof ci);
  get(r, D, d, sizeof d);
  for (int i = 0; i < N; i++) {
    int x = v[2 * i], y = v[2 * i + 1];
    cw[i] = x * y - (x > y ? x : y);
    dw[4 * i] = (uint8_t)x, dw[4 * i + 1] = (uint8_t)y, dw[4 * i + 2] = (uint8_t)(x + y), dw[4 * i + 3] = 7;
  }
  same_words(ci, cw, N, "int2_ops");
  same_words(d, dw, N, "int2_ops uchar4");
}

/* ---- control.cl ----------------------------------------------------------------- */

static void test_diverge_ifelse(void **state) {
  rig *r = *state;
  enum { N = 250 };
  int32_t in[N], out[N], want[N];
  uint32_t s = 3;
  for (int i = 0; i < N; i++) in[i] = (int32_t)(lcg(&s) % 400) - 50;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "diverge_ifelse", nd1(N, 64), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    int x = in[i], y = x & 1 ? 3 * x + 1 : x >> 1;
    want[i] = y > 100 ? y - 100 : y < 10 ? y * 2 : -y;
  }
  same_words(out, want, N, "diverge_ifelse");
}

static void test_loop_trip(void **state) {
  rig *r = *state;
  enum { N = 130 };
  uint32_t in[N], out[N], want[N];
  uint32_t s = 9;
  for (int i = 0; i < N; i++) in[i] = lcg(&s) % 50;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "loop_trip", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (uint32_t i = 0; i < N; i++) {
    uint32_t sum = 0;
    for (uint32_t k = 0; k < in[i]; k++) sum += (k * k) ^ i;
    want[i] = sum;
  }
  same_words(out, want, N, "loop_trip");
}

static void test_collatz(void **state) {
  rig *r = *state;
  enum { N = 100 };
  uint32_t in[N], out[N], want[N];
  for (uint32_t i = 0; i < N; i++) in[i] = i * 37 + 1;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "collatz", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint32_t x = in[i], st = 0;
    while (x > 1) x = x & 1 ? 3 * x + 1 : x >> 1, st++;
    want[i] = st;
  }
  same_words(out, want, N, "collatz");
}

static void test_uniform_loop(void **state) {
  rig *r = *state;
  enum { N = 96, M = 13 };
  int32_t in[N], out[N], want[N];
  uint32_t s = 21;
  for (int i = 0; i < N; i++) in[i] = (int32_t)(lcg(&s) % 200) - 100;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "uniform_loop", nd1(N, 32), (uint32_t[]){I, O, N, M}, 4);
  get(r, O, out, sizeof out);
  for (uint32_t i = 0; i < N; i++) {
    int acc = 0;
    for (uint32_t j = 0; j < M; j++) {
      int v = in[(i + j) % N];
      acc += v > 0 ? v * (int)(j + 1) : -v;
    }
    want[i] = acc;
  }
  same_words(out, want, N, "uniform_loop");
}

static void test_ids3d(void **state) {
  rig *r = *state;
  const uint32_t G[3] = {8, 6, 4}, L[3] = {4, 3, 2}, n = 8 * 6 * 4;
  uint32_t *out = calloc(4 * n, 4), *want = calloc(4 * n, 4);
  assert_non_null(out);
  assert_non_null(want);
  uint32_t O = dev_buf(r, NULL, 16 * n);
  cy_ndrange nd = {.work_dim = 3, .global = {8, 6, 4}, .local = {4, 3, 2}, .threads = 8};
  launch(r, F_CONTROL, "ids3d", nd, (uint32_t[]){O}, 1);
  get(r, O, out, 16 * n);
  for (uint32_t z = 0; z < G[2]; z++)
    for (uint32_t y = 0; y < G[1]; y++)
      for (uint32_t x = 0; x < G[0]; x++) {
        uint32_t *o = want + 4 * ((z * G[1] + y) * G[0] + x);
        o[0] = x | y << 8 | z << 16 | 3u << 24;
        o[1] = x % L[0] | (y % L[1]) << 8 | (z % L[2]) << 16;
        o[2] = x / L[0] | (y / L[1]) << 8 | (z / L[2]) << 16;
        o[3] = L[0] | L[1] << 4 | L[2] << 8 | (G[0] / L[0]) << 12 | (G[1] / L[1]) << 16 | (G[2] / L[2]) << 20;
      }
  same_words(out, want, 4 * n, "ids3d");
  free(out);
  free(want);
}

static void test_dims_runtime(void **state) {
  rig *r = *state;
  enum { W = 8, H = 6 };
  uint32_t out[W * H * 8], want[W * H * 8];
  uint32_t O = dev_buf(r, NULL, sizeof out);
  cy_ndrange nd = {.work_dim = 2, .global = {W, H}, .local = {4, 3}, .threads = 4};
  launch(r, F_CONTROL, "dims_runtime", nd, (uint32_t[]){O}, 1);
  get(r, O, out, sizeof out);
  const uint32_t ls[4] = {4, 3, 1, 1}, ng[4] = {2, 2, 1, 1};
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) {
      uint32_t *o = want + 8 * (x + W * y), id[4] = {x, y, 0, 0};
      for (int d = 0; d < 4; d++) o[d] = id[d], o[4 + d] = ls[d] * 100 + ng[d];
    }
  same_words(out, want, W * H * 8, "dims_runtime");
}

static void test_nested_loops(void **state) {
  rig *r = *state;
  enum { N = 64 };
  uint32_t in[N], out[N], want[N];
  uint32_t s = 4;
  for (int i = 0; i < N; i++) in[i] = lcg(&s);
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "nested_loops", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (uint32_t i = 0; i < N; i++) {
    uint32_t acc = 0, lim = in[i] % 9u;
    for (uint32_t a = 0; a < lim; a++)
      for (uint32_t b = a; b < lim; b++)
        if ((a + b + i) % 3u == 0) acc += a * 10u + b;
        else acc ^= b;
    want[i] = acc;
  }
  same_words(out, want, N, "nested_loops");
}

static void test_early_return(void **state) {
  rig *r = *state;
  enum { N = 120 };
  int32_t in[N], out[N], want[N];
  uint32_t s = 12;
  for (int i = 0; i < N; i++) in[i] = (int32_t)(lcg(&s) % 120) - 20;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "early_return", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    int x = in[i];
    want[i] = x < 0 ? -1 : 1000 + x;
    for (int k = 0; x >= 0 && k < x; k++)
      if (k * k > x) {
        want[i] = k;
        break;
      }
  }
  same_words(out, want, N, "early_return");
}

static void test_break_continue(void **state) {
  rig *r = *state;
  enum { N = 100 };
  uint32_t in[N], out[N], want[N];
  uint32_t s = 13;
  for (int i = 0; i < N; i++) in[i] = lcg(&s) % 7000;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "break_continue", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (uint32_t i = 0; i < N; i++) {
    uint32_t sum = 0, j;
    for (j = 0; j < 64; j++) {
      if ((j + i) % 5 == 0) continue;
      if (sum > in[i]) break;
      sum += j * 3 + 1;
    }
    want[i] = sum * 100 + j;
  }
  same_words(out, want, N, "break_continue");
}

static void test_switch_case(void **state) {
  rig *r = *state;
  enum { N = 140 };
  int32_t in[N], out[N], want[N];
  for (int i = 0; i < N; i++) in[i] = i * 5 - 300;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "switch_case", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    int x = in[i], v = 0;
    switch (x % 7) {
    case 0: v = 10; break;
    case 1: v = x * 2; /* fall through */
    case 2: v += 5; break;
    case 3:
    case 4: v = -x; break;
    case -1: v = 77; break;
    default: v = x + 1000;
    }
    want[i] = v;
  }
  same_words(out, want, N, "switch_case");
}

static void test_loop_exits(void **state) {
  rig *r = *state;
  enum { N = 96 };
  uint32_t in[N], out[N], want[N];
  uint32_t s = 14;
  for (int i = 0; i < N; i++) in[i] = lcg(&s);
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CONTROL, "loop_exits", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint32_t v = 0, x = in[i];
    if (x & 1)
      for (;;) {
        x = x * 1103515245u + 12345u;
        v++;
        if ((x >> 16) % 13 == 0) break;
        if (v >= 40) {
          v += 1000;
          break;
        }
      }
    want[i] = v;
  }
  same_words(out, want, N, "loop_exits");
}

/* ---- memory.cl ------------------------------------------------------------------- */

static void test_reduce_local(void **state) {
  rig *r = *state;
  enum { N = 256, L = 64 };
  int32_t in[N], out[N / L], want[N / L] = {0};
  uint32_t s = 8;
  for (int i = 0; i < N; i++) in[i] = (int32_t)(lcg(&s) % 1000) - 500, want[i / L] += in[i];
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_MEMORY, "reduce_local", nd1(N, L), (uint32_t[]){I, O}, 2);
  get(r, O, out, sizeof out);
  same_words(out, want, N / L, "reduce_local");
}

static void test_matmul(void **state) {
  rig *r = *state;
  enum { M = 12, K = 7, N = 20 };
  float a[M * K], b[K * N], c[M * N], want[M * N];
  uint32_t s = 2;
  for (int i = 0; i < M * K; i++) a[i] = rnd_float(&s);
  for (int i = 0; i < K * N; i++) b[i] = rnd_float(&s);
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), C = dev_buf(r, NULL, sizeof c);
  cy_ndrange nd = {.work_dim = 2, .global = {24, 16}, .local = {8, 4}, .threads = 16};
  launch(r, F_MEMORY, "matmul", nd, (uint32_t[]){A, B, C, M, K, N}, 6);
  get(r, C, c, sizeof c);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float acc = 0.0f;
      for (int k = 0; k < K; k++) acc = fmaf(a[i * K + k], b[k * N + j], acc);
      want[i * N + j] = acc;
    }
  same_words(c, want, M * N, "matmul");
}

static void test_transpose(void **state) {
  rig *r = *state;
  enum { W = 16, H = 24 };
  uint32_t in[W * H], out[W * H], want[W * H] = {0};
  for (uint32_t i = 0; i < W * H; i++) in[i] = i * 2654435761u;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  cy_ndrange nd = {.work_dim = 2, .global = {W, H}, .local = {8, 8}, .threads = 32};
  launch(r, F_MEMORY, "transpose", nd, (uint32_t[]){I, O, W, H}, 4);
  get(r, O, out, sizeof out);
  for (uint32_t y = 0; y < H; y++)
    for (uint32_t x = 0; x < W; x++) want[x * H + y] = in[y * W + x];
  same_words(out, want, W * H, "transpose");
}

static void test_bytes(void **state) {
  rig *r = *state;
  enum { N = 100 };
  uint8_t in[N], out[N], want8[N];
  int16_t sh[N], so[N], want16[N];
  for (int i = 0; i < N; i++) in[i] = (uint8_t)(i * 7 + 3), sh[i] = (int16_t)(i * 1311 - 30000);
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out), S = dev_buf(r, sh, sizeof sh),
           SO = dev_buf(r, NULL, sizeof so);
  launch(r, F_MEMORY, "bytes", nd1(N, 32), (uint32_t[]){I, O, S, SO, N}, 5);
  get(r, O, out, sizeof out);
  get(r, SO, so, sizeof so);
  for (int i = 0; i < N; i++) {
    want8[i] = (uint8_t)(in[i] * 3 + 1);
    want16[i] = (int16_t)((sh[i] >> 1) + (sh[i] < 0 ? -7 : 7));
    if (out[i] != want8[i]) fail_msg("bytes: uchar %d is %u, expected %u", i, out[i], want8[i]);
    if (so[i] != want16[i]) fail_msg("bytes: short %d is %d, expected %d", i, so[i], want16[i]);
  }
}

static void test_ctable(void **state) {
  rig *r = *state;
  static const uint32_t table[16] = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  enum { N = 90 };
  uint32_t in[N], out[N], want[N];
  uint32_t s = 6;
  for (int i = 0; i < N; i++) in[i] = lcg(&s), want[i] = table[in[i] & 15] * 100 + table[(in[i] >> 4) & 15];
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_MEMORY, "ctable", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  same_words(out, want, N, "ctable");
}

static void test_private_mem(void **state) {
  rig *r = *state;
  enum { N = 70 };
  int32_t in[N], out[N], want[N];
  uint32_t s = 16;
  for (int i = 0; i < N; i++) in[i] = (int32_t)(lcg(&s) % 100000);
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_MEMORY, "private_mem", nd1(N, 32), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  static const int primes[6] = {2, 3, 5, 7, 11, 13};
  for (uint32_t i = 0; i < N; i++) {
    int hist[8] = {0}, acc = 0;
    for (int k = 0; k < 16; k++) hist[(in[i] >> k) & 7]++;
    for (int k = 0; k < 8; k++) acc += hist[k] * primes[(k + in[i]) % 6];
    uint32_t k = i & 3;
    int c = (int)k - 2; /* r[k].c[k % 3], written in the loop for every k */
    want[i] = acc + in[(i + (uint32_t)(in[i] & 3)) % N] + (int)(4.0f * ((float)k * 0.5f)) + c;
  }
  same_words(out, want, N, "private_mem");
}

static void test_atomics(void **state) {
  rig *r = *state;
  enum { N = 200 };
  uint32_t in[N], bins[8] = {0}, seen[N];
  int32_t misc[6] = {100000, 0, -1, 0, 1 << 30, 0};
  uint32_t s = 17;
  for (int i = 0; i < N; i++) in[i] = lcg(&s) % 9000;
  uint32_t I = dev_buf(r, in, sizeof in), B = dev_buf(r, bins, sizeof bins), S = dev_buf(r, NULL, sizeof seen),
           M = dev_buf(r, misc, sizeof misc);
  launch(r, F_MEMORY, "atomics_global", nd1(N, 64), (uint32_t[]){I, B, S, M, N}, 5);
  get(r, B, bins, sizeof bins);
  get(r, S, seen, sizeof seen);
  get(r, M, misc, sizeof misc);
  /* each bin counts its items, and its items saw 0, 1, ..., count-1 once each */
  uint32_t cnt[8] = {0}, mask[8][N] = {{0}};
  for (int i = 0; i < N; i++) {
    uint32_t b = in[i] % 8;
    assert_true(seen[i] < N);
    if (mask[b][seen[i]]++) fail_msg("atomics_global: value %u seen twice in bin %u", seen[i], b);
    cnt[b]++;
  }
  same_words(bins, cnt, 8, "atomics_global bins");
  int32_t want[6] = {100000, 0, -1, 0, 1 << 30, 0};
  for (int i = 0; i < N; i++) {
    want[0] -= i;
    want[1] |= 1 << (i % 31);
    want[2] &= ~(1 << (i % 29));
    want[3] ^= (int32_t)in[i];
    if ((int32_t)in[i] - 5000 < want[4]) want[4] = (int32_t)in[i] - 5000;
    if (in[i] > (uint32_t)want[5]) want[5] = (int32_t)in[i];
  }
  same_words(misc, want, 6, "atomics_global misc");

  enum { L = 64, G = 3 };
  int32_t li[L * G], lo[5 * G], won[L * G];
  for (int i = 0; i < L * G; i++) li[i] = (int32_t)(lcg(&s) % 1000) - 300;
  uint32_t LI = dev_buf(r, li, sizeof li), LO = dev_buf(r, NULL, sizeof lo), W = dev_buf(r, NULL, sizeof won);
  cy_ndrange nd = {.work_dim = 1, .global = {L * G}, .local = {L}, .threads = 16};
  launch(r, F_MEMORY, "atomics_local", nd, (uint32_t[]){LI, LO, W}, 3);
  get(r, LO, lo, sizeof lo);
  get(r, W, won, sizeof won);
  for (int g = 0; g < G; g++) {
    int32_t c0 = 0, mx = 0, mn = 1 << 30, sum = 0, zeros = 0, winner = -1;
    for (int l = 0; l < L; l++) {
      int x = li[g * L + l];
      c0 += x > 0, mx = x > mx ? x : mx, mn = x < mn ? x : mn, sum += x;
      if (!won[g * L + l]) zeros++, winner = l;
    }
    int32_t w[5] = {c0, mx, mn, sum, winner + 1};
    if (zeros != 1) fail_msg("atomics_local: group %d: %d work-items won the compare-and-swap", g, zeros);
    for (int l = 0; l < L; l++)
      if (won[g * L + l] && won[g * L + l] != winner + 1) fail_msg("atomics_local: a loser saw %d", won[g * L + l]);
    same_words(lo + 5 * g, w, 5, "atomics_local");
  }
}

/* ---- examples.cl: the hand-written examples' semantics ------------------------ */

static void test_examples(void **state) {
  rig *r = *state;
  enum { N = 500 };
  float a[N], b[N], c[N], want[N];
  uint32_t s = 31;
  for (int i = 0; i < N; i++) a[i] = rnd_float(&s), b[i] = rnd_float(&s);
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), C = dev_buf(r, NULL, sizeof c);
  launch(r, F_EXAMPLES, "vecadd", nd1(N, 128), (uint32_t[]){A, B, C, N}, 4);
  get(r, C, c, sizeof c);
  ref_vecadd(a, b, want, N);
  same_words(c, want, N, "examples vecadd");

  enum { M = 9, K = 5, NC = 11 };
  int32_t ma[M * K], mb[K * NC], mc[M * NC], mw[M * NC];
  for (int i = 0; i < M * K; i++) ma[i] = (int32_t)lcg(&s) - (1 << 23);
  for (int i = 0; i < K * NC; i++) mb[i] = (int32_t)(lcg(&s) % 1000) - 500;
  uint32_t MA = dev_buf(r, ma, sizeof ma), MB = dev_buf(r, mb, sizeof mb), MC = dev_buf(r, NULL, sizeof mc);
  cy_ndrange nd = {.work_dim = 2, .global = {16, 12}, .local = {8, 4}, .threads = 8};
  launch(r, F_EXAMPLES, "matmul", nd, (uint32_t[]){MA, MB, MC, M, K, NC}, 6);
  get(r, MC, mc, sizeof mc);
  ref_matmul(ma, mb, mw, M, K, NC);
  same_words(mc, mw, M * NC, "examples matmul");

  uint32_t in[N], out[N], dw[N];
  for (uint32_t i = 0; i < N; i++) in[i] = i * 13 % 10000;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_EXAMPLES, "diverge", nd1(N, 64), (uint32_t[]){I, O, N}, 3);
  get(r, O, out, sizeof out);
  ref_diverge(in, dw, N);
  same_words(out, dw, N, "examples diverge");

  enum { L = 128, G = 4 };
  int32_t rin[L * G - 7], rout[G], rw[G];
  for (int i = 0; i < L * G - 7; i++) rin[i] = (int32_t)(lcg(&s) % 2001) - 1000;
  uint32_t RI = dev_buf(r, rin, sizeof rin), RO = dev_buf(r, NULL, sizeof rout);
  cy_ndrange rd = {.work_dim = 1, .global = {L * G}, .local = {L}};
  launch(r, F_EXAMPLES, "reduce", rd, (uint32_t[]){RI, RO, L * G - 7}, 3);
  get(r, RO, rout, sizeof rout);
  ref_reduce(rin, rw, L * G - 7, L, G);
  same_words(rout, rw, G, "examples reduce");
}

/* ---- rodinia.cl: Rodinia-style applications ------------------------------------- */

static void test_bfs(void **state) {
  rig *r = *state;
  enum { N = 300, DEG = 3 };
  int32_t row[N + 1], col[N * DEG], cost[N], want[N];
  uint8_t front[N], next[N];
  uint32_t s = 41;
  for (int v = 0; v < N; v++) {
    row[v] = v * DEG;
    for (int e = 0; e < DEG; e++) col[v * DEG + e] = e == 0 ? (v + 1) % N : (int32_t)(lcg(&s) % N);
  }
  row[N] = N * DEG;
  /* host: breadth-first distances from vertex 0 */
  for (int v = 0; v < N; v++) want[v] = -1;
  int queue[N], qh = 0, qt = 0;
  want[0] = 0;
  queue[qt++] = 0;
  while (qh < qt) {
    int v = queue[qh++];
    for (int e = row[v]; e < row[v + 1]; e++)
      if (want[col[e]] < 0) want[col[e]] = want[v] + 1, queue[qt++] = col[e];
  }
  for (int v = 0; v < N; v++) cost[v] = v ? -1 : 0, front[v] = v == 0;
  uint32_t R = dev_buf(r, row, sizeof row), C = dev_buf(r, col, sizeof col), K = dev_buf(r, cost, sizeof cost);
  uint32_t F = dev_buf(r, front, sizeof front), X = dev_buf(r, NULL, sizeof next), CH = dev_buf(r, NULL, 4);
  for (int level = 0; level < N; level++) {
    int32_t changed = 0;
    memset(next, 0, sizeof next);
    put(r, X, next, sizeof next);
    put(r, CH, &changed, 4);
    launch(r, F_RODINIA, "bfs_level", nd1(N, 64), (uint32_t[]){R, C, K, F, X, CH, N}, 7);
    get(r, CH, &changed, 4);
    if (!changed) break;
    uint32_t t = F; /* the next frontier becomes the frontier */
    F = X, X = t;
  }
  get(r, K, cost, sizeof cost);
  same_words(cost, want, N, "bfs");
}

static void test_gaussian(void **state) {
  rig *r = *state;
  enum { S = 12 };
  float a[S * S], b[S], m[S * S] = {0}, wa[S * S], wb[S], wm[S * S] = {0};
  uint32_t s = 43;
  for (int i = 0; i < S * S; i++) a[i] = rnd_float(&s) + (i % (S + 1) == 0 ? 500.0f : 0.0f);
  for (int i = 0; i < S; i++) b[i] = rnd_float(&s);
  memcpy(wa, a, sizeof a);
  memcpy(wb, b, sizeof b);
  uint32_t M = dev_buf(r, m, sizeof m), A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b);
  for (int t = 0; t < S - 1; t++) {
    launch(r, F_RODINIA, "fan1", nd1(S, 16), (uint32_t[]){M, A, S, (uint32_t)t}, 4);
    cy_ndrange nd = {.work_dim = 2, .global = {16, 16}, .local = {4, 4}, .threads = 16};
    launch(r, F_RODINIA, "fan2", nd, (uint32_t[]){M, A, B, S, (uint32_t)t}, 5);
    for (int i = 0; i < S - 1 - t; i++) wm[S * (i + t + 1) + t] = wa[S * (i + t + 1) + t] / wa[S * t + t];
    for (int x = 0; x < S - 1 - t; x++) {
      for (int y = 0; y < S - t; y++) wa[S * (x + 1 + t) + (y + t)] -= wm[S * (x + 1 + t) + t] * wa[S * t + (y + t)];
      wb[x + 1 + t] -= wm[S * (x + 1 + t) + t] * wb[t];
    }
  }
  get(r, A, a, sizeof a);
  get(r, B, b, sizeof b);
  get(r, M, m, sizeof m);
  same_words(m, wm, S * S, "gaussian m");
  same_words(a, wa, S * S, "gaussian a");
  same_words(b, wb, S, "gaussian b");
}

static void test_nn_kmeans(void **state) {
  rig *r = *state;
  enum { N = 150, K = 5, NF = 3 };
  float loc[2 * N], dist[N], wd[N], feat[NF * N], cen[K * NF];
  int32_t mem[N], wm[N];
  uint32_t s = 47;
  for (int i = 0; i < 2 * N; i++) loc[i] = rnd_float(&s);
  float lat = 12.5f, lng = -3.25f;
  uint32_t L = dev_buf(r, loc, sizeof loc), D = dev_buf(r, NULL, sizeof dist), la, lo;
  memcpy(&la, &lat, 4);
  memcpy(&lo, &lng, 4);
  launch(r, F_RODINIA, "nn_dist", nd1(N, 32), (uint32_t[]){L, D, N, la, lo}, 5);
  get(r, D, dist, sizeof dist);
  for (int i = 0; i < N; i++) {
    float dx = lat - loc[2 * i], dy = lng - loc[2 * i + 1];
    wd[i] = sqrtf(dx * dx + dy * dy);
  }
  same_words(dist, wd, N, "nn");

  for (int i = 0; i < NF * N; i++) feat[i] = rnd_float(&s);
  for (int i = 0; i < K * NF; i++) cen[i] = rnd_float(&s);
  uint32_t FT = dev_buf(r, feat, sizeof feat), CE = dev_buf(r, cen, sizeof cen), ME = dev_buf(r, NULL, sizeof mem);
  launch(r, F_RODINIA, "kmeans_assign", nd1(N, 64), (uint32_t[]){FT, CE, ME, N, K, NF}, 6);
  get(r, ME, mem, sizeof mem);
  for (int p = 0; p < N; p++) {
    int best = 0;
    float bd = 3.0e38f;
    for (int c = 0; c < K; c++) {
      float d = 0.0f;
      for (int f = 0; f < NF; f++) {
        float diff = feat[f * N + p] - cen[c * NF + f];
        d += diff * diff;
      }
      if (d < bd) bd = d, best = c;
    }
    wm[p] = best;
  }
  same_words(mem, wm, N, "kmeans");
}

static void test_backprop(void **state) {
  rig *r = *state;
  enum { NIN = 16, NOUT = 40 };
  float in[NIN], w[(NIN + 1) * NOUT], out[NOUT], want[NOUT];
  uint32_t s = 53;
  for (int i = 0; i < NIN; i++) in[i] = rnd_float(&s) / 64.0f;
  for (int i = 0; i < (NIN + 1) * NOUT; i++) w[i] = rnd_float(&s) / 128.0f;
  uint32_t I = dev_buf(r, in, sizeof in), W = dev_buf(r, w, sizeof w), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_RODINIA, "bp_layer", nd1(NOUT, 32), (uint32_t[]){I, W, O, NIN, NOUT}, 5);
  get(r, O, out, sizeof out);
  for (int j = 0; j < NOUT; j++) {
    float sum = w[j];
    for (int i = 0; i < NIN; i++) sum += w[(i + 1) * NOUT + j] * in[i];
    want[j] = 1.0f / (1.0f + (float)exp((double)-sum)); /* vfexp.v: exp in double, rounded (docs/isa.md §7.13) */
  }
  same_words(out, want, NOUT, "backprop");
}

static void test_hotspot_pathfinder(void **state) {
  rig *r = *state;
  enum { W = 16, H = 12 };
  float t[W * H], p[W * H], o[W * H], want[W * H];
  uint32_t s = 59;
  for (int i = 0; i < W * H; i++) t[i] = 300.0f + rnd_float(&s) / 8.0f, p[i] = rnd_float(&s) / 256.0f;
  const float cap = 0.5f, rx = 0.1f, ry = 0.125f, rz = 0.01f, amb = 80.0f;
  uint32_t T = dev_buf(r, t, sizeof t), P = dev_buf(r, p, sizeof p), O = dev_buf(r, NULL, sizeof o), bits[5];
  const float fl[5] = {cap, rx, ry, rz, amb};
  memcpy(bits, fl, sizeof bits);
  cy_ndrange nd = {.work_dim = 2, .global = {W, H}, .local = {8, 4}, .threads = 32};
  launch(r, F_RODINIA, "hotspot_step", nd, (uint32_t[]){T, P, O, W, H, bits[0], bits[1], bits[2], bits[3], bits[4]}, 10);
  get(r, O, o, sizeof o);
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int c = y * W + x;
      float tc = t[c], n = t[(y > 0 ? y - 1 : y) * W + x], so = t[(y < H - 1 ? y + 1 : y) * W + x];
      float e = t[y * W + (x < W - 1 ? x + 1 : x)], wv = t[y * W + (x > 0 ? x - 1 : x)];
      want[c] = tc + cap * (p[c] + (n + so - 2.0f * tc) * ry + (e + wv - 2.0f * tc) * rx + (amb - tc) * rz);
    }
  same_words(o, want, W * H, "hotspot");

  enum { COLS = 50, ROWS = 20 };
  int32_t wall[ROWS * COLS], prev[COLS], cur[COLS], hw[COLS], hc[COLS];
  for (int i = 0; i < ROWS * COLS; i++) wall[i] = (int32_t)(lcg(&s) % 10);
  for (int x = 0; x < COLS; x++) prev[x] = hw[x] = wall[x];
  uint32_t WA = dev_buf(r, wall, sizeof wall), PR = dev_buf(r, prev, sizeof prev), CU = dev_buf(r, NULL, sizeof cur);
  for (int row = 1; row < ROWS; row++) {
    launch(r, F_RODINIA, "pathfinder_row", nd1(COLS, 32), (uint32_t[]){WA, PR, CU, COLS, (uint32_t)row}, 5);
    uint32_t tmp = PR;
    PR = CU, CU = tmp;
    for (int x = 0; x < COLS; x++) {
      int b = hw[x];
      if (x > 0 && hw[x - 1] < b) b = hw[x - 1];
      if (x < COLS - 1 && hw[x + 1] < b) b = hw[x + 1];
      hc[x] = b + wall[row * COLS + x];
    }
    memcpy(hw, hc, sizeof hw);
  }
  get(r, PR, cur, sizeof cur);
  same_words(cur, hw, COLS, "pathfinder");
}

/* ---- builtins.cl ------------------------------------------------------------- */

static void test_rounding(void **state) {
  rig *r = *state;
  enum { N = 64 };
  float in[N], out[10 * N], want[10 * N];
  const float special[] = {0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, -0.3f, 0.0f, -0.0f, 1e9f, -8388609.0f,
                           8388607.5f, 4194303.5f, -4194304.5f, INFINITY, -INFINITY};
  uint32_t s = 61;
  for (int i = 0; i < N; i++) in[i] = i < 16 ? special[i] : rnd_float(&s) / 3.0f;
  float u = -2.5f;
  uint32_t ub;
  memcpy(&ub, &u, 4);
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_BUILTINS, "rounding", nd1(N, 32), (uint32_t[]){I, O, ub, N}, 4);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    float x = in[i], *o = want + 10 * i;
    o[0] = floorf(x), o[1] = ceilf(x), o[2] = truncf(x), o[3] = rintf(x), o[4] = roundf(x);
    o[5] = floorf(u), o[6] = ceilf(u), o[7] = truncf(u), o[8] = rintf(u), o[9] = roundf(u);
  }
  same_words(out, want, 10 * N, "rounding");
}

static void test_math1(void **state) {
  rig *r = *state;
  enum { N = 70 };
  float a[N], out[8 * N], want[8 * N];
  int32_t b[N], iout[4 * N], iw[4 * N];
  uint32_t s = 67;
  for (int i = 0; i < N; i++) {
    a[i] = rnd_float(&s) / 7.0f;
    if (a[i] == 0.0f) a[i] = 0.75f;
    b[i] = (int32_t)(lcg(&s) % 4000) - 2000;
  }
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out),
           IO = dev_buf(r, NULL, sizeof iout);
  launch(r, F_BUILTINS, "math1", nd1(N, 32), (uint32_t[]){A, B, O, IO, N}, 5);
  get(r, O, out, sizeof out);
  get(r, IO, iout, sizeof iout);
  for (int i = 0; i < N; i++) {
    float x = a[i], *o = want + 8 * i;
    int k = b[i], *p = iw + 4 * i;
    o[0] = sqrtf(fabsf(x)), o[1] = fmaf(x, 3.0f, -1.0f), o[2] = fminf(x, 0.25f), o[3] = fmaxf(x, -0.25f);
    o[4] = copysignf(2.0f, x), o[5] = 1.0f / x, o[6] = 1.0f / x, o[7] = 1.0f / sqrtf(fabsf(x) + 1.0f);
    p[0] = k < 17 ? k : 17, p[1] = k > -3 ? k : -3, p[2] = k < 0 ? -k : k;
    p[3] = (int32_t)((uint32_t)k > 1000u ? (uint32_t)k : 1000u);
  }
  same_words(out, want, 8 * N, "math1");
  same_words(iout, iw, 4 * N, "math1 integers");
}

static void test_clamps(void **state) {
  rig *r = *state;
  enum { N = 50 };
  int32_t a[N], out[3 * N], want[3 * N];
  float fl[N], fo[2 * N], fw[2 * N];
  uint32_t s = 71;
  for (int i = 0; i < N; i++) a[i] = (int32_t)(lcg(&s) % 4000) - 1000, fl[i] = rnd_float(&s) / 40.0f;
  int32_t lo = -7;
  uint32_t A = dev_buf(r, a, sizeof a), F = dev_buf(r, fl, sizeof fl), O = dev_buf(r, NULL, sizeof out),
           FO = dev_buf(r, NULL, sizeof fo);
  launch(r, F_BUILTINS, "clamps", nd1(N, 32), (uint32_t[]){A, F, O, FO, (uint32_t)lo, N}, 6);
  get(r, O, out, sizeof out);
  get(r, FO, fo, sizeof fo);
  for (int i = 0; i < N; i++) {
    int x = a[i];
    uint32_t u = (uint32_t)x;
    want[3 * i] = x < lo ? lo : x > 50 ? 50 : x;
    want[3 * i + 1] = (int32_t)(u < 10u ? 10u : u > 3000u ? 3000u : u);
    want[3 * i + 2] = lo * 3 < -20 ? -20 : lo * 3 > 20 ? 20 : lo * 3;
    fw[2 * i] = fminf(fmaxf(fl[i], -1.5f), 2.25f);
    fw[2 * i + 1] = fminf(fmaxf((float)lo, 0.0f), 1.0f);
  }
  same_words(out, want, 3 * N, "clamps");
  same_words(fo, fw, 2 * N, "clamps float");
}

/* ---- 64-bit integers (long.cl) ------------------------------------------------ */

enum { LONG_NOPS = 26 };

/* the reference of long_ops, in unsigned arithmetic where C leaves signed
 * overflow undefined */
static void long_ref(int64_t a, int64_t b, int64_t *o) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  int s = (int)(b & 63);
  o[0] = (int64_t)(ua + ub);
  o[1] = (int64_t)(ua - ub);
  o[2] = (int64_t)(ua * ub);
  o[3] = b ? a / b : 0;
  o[4] = b ? a % b : 0;
  o[5] = ub ? (int64_t)(ua / ub) : 0;
  o[6] = ub ? (int64_t)(ua % ub) : 0;
  o[7] = (int64_t)(ua << s);
  o[8] = (int64_t)(ua >> s);
  o[9] = a >> s;
  o[10] = (a & b) ^ (a | ~b);
  o[11] = (int64_t)((ua << 1) + (ua << 31) + (ua << 32) + (ua << 33) + (ua << 63));
  o[12] = (int64_t)((ua >> 1) + (ua >> 31) + (ua >> 32) + (ua >> 33) + (ua >> 63));
  o[13] = (int64_t)((uint64_t)(a >> 1) + (uint64_t)(a >> 31) + (uint64_t)(a >> 32) + (uint64_t)(a >> 33) +
                    (uint64_t)(a >> 63));
  o[14] = (a < b) | (a <= b) << 1 | (a > b) << 2 | (a >= b) << 3 | (a == b) << 4 | (a != b) << 5 | (ua < ub) << 6 |
          (ua <= ub) << 7 | (ua > ub) << 8 | (ua >= ub) << 9;
  o[15] = a < b ? a : b;
  o[16] = a > b ? a : b;
  o[17] = (int64_t)(ua < ub ? ua : ub);
  o[18] = (int64_t)(ua > ub ? ua : ub);
  o[19] = (int64_t)(a < 0 ? 0 - ua : ua); /* unsigned: INT64_MIN stays itself */
  o[20] = (int64_t)(int32_t)a + (int64_t)(uint32_t)b;
  o[21] = (int64_t)(int16_t)a * (int64_t)(uint8_t)b;
  o[22] = (int32_t)(a >> 17);
  o[23] = (int64_t)(0 - ua);
  o[24] = (int64_t)(ua * 1000000007u + 0x123456789abcdefu);
  o[25] = a / 10 + (int64_t)(ua % 1000);
}

/* operands that reach every path: signs, zero, word boundaries, equal
 * values, divisors of one and two words; never INT64_MIN with -1 */
static void long_inputs(int n, int64_t *a, int64_t *b) {
  static const uint64_t edge[] = {0,          1,          2,          0xffffffffu, 0x100000000u, 0x7fffffffffffffffu,
                                  0x8000000000000000u, 0xffffffffffffffffu, 0xfffffffe00000001u, 0x80000000u, 1000,
                                  0x123456789u};
  uint32_t s = 77;
  for (int i = 0; i < n; i++) {
    uint64_t x = (uint64_t)lcg(&s) << 32 | lcg(&s), y = (uint64_t)lcg(&s) << 32 | lcg(&s);
    if (i < 12 * 6) {
      x = edge[i % 12];
      y = edge[(i / 12 + i) % 12];
    } else if (i % 4 == 1) {
      y >>= 40; /* a one-word divisor */
    } else if (i % 4 == 2) {
      y = x ^ (y & 0xff);
    } else if (i % 4 == 3) {
      y = -(y >> 50);
    }
    if (x == 0x8000000000000000u && y == 0xffffffffffffffffu) y = 3;
    a[i] = (int64_t)x;
    b[i] = (int64_t)y;
  }
}

static void check_long(const int64_t *got, const int64_t *want, int n, const char *what, int64_t a, int64_t b) {
  for (int j = 0; j < n; j++)
    if (got[j] != want[j])
      fail_msg("%s(%" PRId64 ", %" PRId64 "): operation %d gives 0x%016" PRIx64 ", expected 0x%016" PRIx64, what, a, b, j,
               (uint64_t)got[j], (uint64_t)want[j]);
}

static void test_long_lanes(void **state) {
  rig *r = *state;
  enum { N = 192 };
  int64_t a[N], b[N], out[N * LONG_NOPS], want[LONG_NOPS];
  long_inputs(N, a, b);
  uint32_t A = dev_buf(r, a, sizeof a), B = dev_buf(r, b, sizeof b), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_LONG, "long_lanes", nd1(N, 64), (uint32_t[]){A, B, O}, 3);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    long_ref(a[i], b[i], want);
    check_long(out + i * LONG_NOPS, want, LONG_NOPS, "long_lanes", a[i], b[i]);
  }
}

static void test_long_uniform(void **state) {
  rig *r = *state;
  enum { N = 40 };
  int64_t a[N], b[N], out[LONG_NOPS], want[LONG_NOPS];
  long_inputs(N, a, b);
  for (int i = 0; i < N; i += 3) { /* every third pair: one launch each */
    uint32_t O = dev_buf(r, NULL, sizeof out);
    /* out, padding to the 8-byte slot of a, a, b (low words first) */
    uint32_t slots[] = {O, 0, (uint32_t)a[i], (uint32_t)((uint64_t)a[i] >> 32), (uint32_t)b[i], (uint32_t)((uint64_t)b[i] >> 32)};
    launch(r, F_LONG, "long_uniform", nd1(1, 1), slots, 6);
    get(r, O, out, sizeof out);
    long_ref(a[i], b[i], want);
    check_long(out, want, LONG_NOPS, "long_uniform", a[i], b[i]);
  }
}

static void test_long_loop(void **state) {
  rig *r = *state;
  enum { N = 96 };
  uint32_t n[N], s = 3;
  uint64_t out[N], seed = 0xfedcba9876543210u;
  for (int i = 0; i < N; i++) n[i] = lcg(&s) % 23;
  uint32_t Nb = dev_buf(r, n, sizeof n), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_LONG, "long_lcg", nd1(N, 32), (uint32_t[]){Nb, O, (uint32_t)seed, (uint32_t)(seed >> 32)}, 4);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint64_t x = seed + (uint64_t)i;
    for (uint32_t k = 0; k < n[i]; k++) x = x * 6364136223846793005u + 1442695040888963407u;
    if (out[i] != x) fail_msg("long_lcg: item %d gives 0x%016" PRIx64 ", expected 0x%016" PRIx64, i, out[i], x);
  }
}

static void test_reshape(void **state) {
  rig *r = *state;
  enum { N = 64 };
  uint32_t in[2 * N], out[5 * N], want[5 * N], s = 11;
  for (int i = 0; i < 2 * N; i++) in[i] = lcg(&s);
  in[2] = 0x7f800000u; /* inf: inf * 0 is NaN, the compare false */
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_LONG, "reshape", nd1(N, 32), (uint32_t[]){I, O}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint32_t x = in[2 * i], y = in[2 * i + 1], *o = want + 5 * i;
    uint64_t l = (uint64_t)y << 32 | x, m = l * 3;
    float fx, one = 1.0f, two = 2.0f;
    uint32_t bits1, bits2;
    memcpy(&fx, &x, 4);
    memcpy(&bits1, &one, 4);
    memcpy(&bits2, &two, 4);
    o[0] = x >> 16 | x << 16;
    o[1] = __builtin_bswap32(x);
    o[2] = (uint32_t)(l >> 16);
    o[3] = (uint32_t)m ^ (uint32_t)(m >> 32);
    o[4] = (uint32_t)(l & 0xffff) + (uint32_t)(l >> 16 & 0xffff) * 3u + (uint32_t)(l >> 32 & 0xffff) * 5u +
           (uint32_t)(l >> 48) * 7u + (fx * 0.0f == 0.0f ? bits1 : bits2);
  }
  same_words(out, want, 5 * N, "reshape");
}

/* ---- bit builtins (bits.cl) ------------------------------------------------------ */

enum { NB = 18 };

static uint32_t rotl_w(uint32_t v, uint32_t s, int w) {
  uint32_t m = w == 32 ? 0xffffffffu : (1u << w) - 1;
  s %= (uint32_t)w;
  v &= m;
  return s ? ((v << s) | (v >> (w - (int)s))) & m : v;
}

static int clz_w(uint32_t v, int w) { return v ? __builtin_clz(v) - (32 - w) : w; }

static void bits_ref(uint32_t x, uint32_t y, uint64_t l, uint32_t *o, uint64_t *o64) {
  uint32_t c = x ^ (y * 3u), cf = y << 3;
  o[0] = (uint32_t)clz_w(x, 32);
  o[1] = (uint32_t)clz_w(x & 0xffff, 16);
  o[2] = (uint32_t)clz_w(x & 0xff, 8);
  o[3] = (uint32_t)__builtin_popcount(x);
  o[4] = (uint32_t)__builtin_popcount(y & 0xff);
  o[5] = rotl_w(x, y, 32);
  o[6] = rotl_w(x, y & 0xffff, 16);
  o[7] = rotl_w(x, y & 0xff, 8);
  o[8] = (x & ~c) | (y & c);
  o[9] = (x & ~cf) | (y & cf);
  o[10] = (uint32_t)__builtin_ctz(x | 0x80000000u);
  o[11] = (uint32_t)__builtin_ctz(x | 0x100u) + (uint32_t)__builtin_ctz((x | 0x8000u) & 0xffff);
  o[12] = __builtin_bswap32(x);
  o[13] = __builtin_bswap16((uint16_t)y);
  o[14] = rotl_w(x, (uint32_t)((int)(y & 7u) - 3) & 31, 32);
  o[15] = rotl_w(x, y & 31, 32);
  o[16] = (uint32_t)clz_w(y & 0xffff, 16) + (uint32_t)__builtin_popcount(y & 0xffff) * 64u;
  o[17] = 32 + 8 * 64;
  uint64_t k = (uint64_t)x * 0x9e3779b97f4a7c15u, m = l ^ (uint64_t)y << 17, s = y & 63;
  o64[0] = (uint64_t)__builtin_popcountll(l);
  o64[1] = l ? (uint64_t)__builtin_clzll(l) : 64;
  o64[2] = __builtin_bswap64(l);
  o64[3] = s ? l << s | l >> (64 - s) : l;
  o64[4] = (l & ~m) | (k & m);
  o64[5] = (uint64_t)__builtin_ctzll(l | 0x8000000000000000u) + (l >> 40 ? (uint64_t)__builtin_clzll(l >> 40) : 64) * 256;
}

static void bits_inputs(int n, uint32_t *a, uint64_t *l) {
  static const uint32_t edge[] = {0, 1, 0x80000000u, 0xffffffffu, 0x100u, 0x8000u, 0xffff0000u, 0x00ff00ffu};
  uint32_t s = 19;
  for (int i = 0; i < 2 * n; i++) a[i] = i < 16 ? edge[i % 8] : lcg(&s) >> (lcg(&s) % 32);
  for (int i = 0; i < n; i++) l[i] = i < 4 ? (uint64_t[]){0, 1, 0xffffffff00000000u, 0x8000000000000000u}[i]
                                           : ((uint64_t)lcg(&s) << 32 | lcg(&s)) >> (lcg(&s) % 64);
}

static void test_bits_lanes(void **state) {
  rig *r = *state;
  enum { N = 96 };
  uint32_t a[2 * N], out[NB * N], want[NB * N];
  uint64_t l[N], out64[6 * N], want64[6 * N];
  bits_inputs(N, a, l);
  uint32_t A = dev_buf(r, a, sizeof a), L = dev_buf(r, l, sizeof l), O = dev_buf(r, NULL, sizeof out),
           O64 = dev_buf(r, NULL, sizeof out64);
  launch(r, F_BITS, "bits_lanes", nd1(N, 32), (uint32_t[]){A, L, O, O64}, 4);
  get(r, O, out, sizeof out);
  get(r, O64, out64, sizeof out64);
  for (int i = 0; i < N; i++) bits_ref(a[2 * i], a[2 * i + 1], l[i], want + NB * i, want64 + 6 * i);
  same_words(out, want, NB * N, "bits_lanes");
  same_words(out64, want64, 12 * N, "bits_lanes (long)");
}

static void test_bits_uniform(void **state) {
  rig *r = *state;
  enum { N = 12 };
  uint32_t a[2 * N], out[NB], want[NB];
  uint64_t l[N], out64[6], want64[6];
  bits_inputs(N, a, l);
  for (int i = 0; i < N; i++) {
    uint32_t O = dev_buf(r, NULL, sizeof out), O64 = dev_buf(r, NULL, sizeof out64);
    uint32_t slots[] = {O, O64, a[2 * i], a[2 * i + 1], (uint32_t)l[i], (uint32_t)(l[i] >> 32)};
    launch(r, F_BITS, "bits_uniform", nd1(1, 1), slots, 6);
    get(r, O, out, sizeof out);
    get(r, O64, out64, sizeof out64);
    bits_ref(a[2 * i], a[2 * i + 1], l[i], want, want64);
    same_words(out, want, NB, "bits_uniform");
    same_words(out64, want64, 12, "bits_uniform (long)");
  }
}

/* ---- register pressure beyond the files (spill.cl) -------------------------------- */

static void test_spill(void **state) {
  rig *r = *state;
  enum { NU = 80, NV = 300, N = 64 };
  static int32_t in[N * NV];
  int32_t out[N], want[N];
  uint32_t s = 23;
  for (int i = 0; i < N * NV; i++) in[i] = (int32_t)lcg(&s);
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_SPILL, "spill_uniform", nd1(N, 32), (uint32_t[]){I, O}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) { /* unsigned: the kernel's int wraps */
    uint32_t acc = (uint32_t)i;
    for (int k = NU - 1; k >= 0; k--) acc = acc * 31u + (uint32_t)in[k] * (uint32_t)(k + 3);
    want[i] = (int32_t)acc;
  }
  same_words(out, want, N, "spill_uniform");
  launch(r, F_SPILL, "spill_lanes", nd1(N, 32), (uint32_t[]){I, O}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint32_t acc = 0, w[NV];
    for (int k = 0; k < NV; k++) w[k] = (uint32_t)in[i * NV + k] ^ (uint32_t)(k * 7919);
    for (int k = NV - 1; k >= 0; k--) acc = acc * 31u + w[k];
    if (i & 1) acc += w[7] * w[290];
    want[i] = (int32_t)acc;
  }
  same_words(out, want, N, "spill_lanes");
  launch(r, F_SPILL, "long_body", nd1(N, 32), (uint32_t[]){O, 3}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    uint32_t acc = (uint32_t)i;
    for (int k = 0; k < 3; k++)
      for (uint32_t j = 0; j < 600 && k != 1; j++) acc = (acc ^ (j * 2654435761u)) * 3u + (uint32_t)k;
    want[i] = (int32_t)acc;
  }
  same_words(out, want, N, "long_body");
}

/* ---- calls that stay calls (calls.cl) ----------------------------------------------- */

static uint32_t mix_ref(uint32_t a, uint32_t b) { return a * 31u + (b ^ 7u); }

static void test_calls(void **state) {
  rig *r = *state;
  enum { N = 96 };
  int32_t a[N], out[2 * N], want[2 * N], u = 12345;
  uint64_t o64[N], w64[N];
  float of[N], wf[N];
  uint32_t s = 31;
  for (int i = 0; i < N; i++) a[i] = (int32_t)lcg(&s) >> (i % 20);
  uint32_t A = dev_buf(r, a, sizeof a), O = dev_buf(r, NULL, sizeof out), O64 = dev_buf(r, NULL, sizeof o64),
           OF = dev_buf(r, NULL, sizeof of);
  launch(r, F_CALLS, "calls", nd1(N, 32), (uint32_t[]){A, O, O64, OF, (uint32_t)u}, 5);
  get(r, O, out, sizeof out);
  get(r, O64, o64, sizeof o64);
  get(r, OF, of, sizeof of);
  for (int i = 0; i < N; i++) {
    uint32_t x = (uint32_t)a[i], rr = mix_ref(x, (uint32_t)u);
    if (x & 4) rr += mix_ref((uint32_t)u, (uint32_t)i);
    want[2 * i] = (int32_t)rr;
    int k = (i + a[i]) & 7;
    want[2 * i + 1] = (int32_t)(x + (uint32_t)(k * k) + (uint32_t)u + 9u);
    uint64_t X = (uint64_t)(int64_t)a[i] * 1000003u;
    int sh = i & 31;
    w64[i] = (X << sh) + (uint64_t)(int64_t)(int32_t)mix_ref((uint32_t)X, (uint32_t)sh);
    wf[i] = (i & 1) ? (float)a[i] * 2.0f : (float)a[i] - 1.0f;
  }
  same_words(out, want, 2 * N, "calls");
  same_words(o64, w64, 2 * N, "calls (long)");
  same_words(of, wf, N, "calls (float)");
}

static void test_calls_stack(void **state) {
  rig *r = *state;
  enum { N = 64 };
  int32_t in[N], out[6 * N], want[6 * N];
  uint32_t s = 41;
  for (int i = 0; i < N; i++) in[i] = (int32_t)(lcg(&s) % 100000) - 50000;
  uint32_t I = dev_buf(r, in, sizeof in), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_CALLS, "calls_stack", nd1(N, 32), (uint32_t[]){I, O}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) {
    int32_t x = in[i], v[4] = {x, x + 1, i, -x};
    for (int e = 0; e < 4; e++) {
      int32_t acc = 0;
      for (int k = 0; k < 8; k++) acc += (v[e] + k) * (k + 1);
      want[6 * i + e] = acc + v[e] * 3 * 9;
    }
    want[6 * i + 4] = x + 100 + i * 3 + 5;
    want[6 * i + 5] = x;
  }
  same_words(out, want, 6 * N, "calls_stack");
}

/* ---- explicit conversions (convert.cl) ------------------------------------------ */

enum { NC = 22 };

/* float to an integer range [lo, hi] with rounding r ('e','z','p','n'), saturated, NaN 0 */
static int64_t f2i_sat(float v, char r, int64_t lo, int64_t hi) {
  if (v != v) return 0;
  double d = r == 'e' ? nearbyint((double)v) : r == 'z' ? trunc((double)v) : r == 'p' ? ceil((double)v) : floor((double)v);
  return d < (double)lo ? lo : d > (double)hi ? hi : (int64_t)d;
}

static int64_t sat(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

/* int64 d to float rounded toward zero (z), up (p) or down (n) */
static float i2f(int64_t d, char r) {
  float f = (float)d;
  if (r == 'z' && fabs((double)f) > fabs((double)d)) f = nextafterf(f, 0.0f);
  if (r == 'p' && (double)f < (double)d) f = nextafterf(f, INFINITY);
  if (r == 'n' && (double)f > (double)d) f = nextafterf(f, -INFINITY);
  return f;
}

static void test_convert(void **state) {
  rig *r = *state;
  enum { N = 128 };
  float x[N], of[4 * N], wf[4 * N];
  int32_t iv[N], out[NC * N], want[NC * N];
  static const float fe[] = {0.5f, 1.5f, 2.5f, -0.5f, -2.5f, 127.5f, 128.0f, -129.0f, 255.5f, 65535.7f, -1.0f,
                             3e9f, -3e9f, 1e20f, 0.0f, -0.0f};
  static const int32_t ie[] = {0, 127, 128, -128, -129, 255, 256, -1, 32767, 32768, -32769, 65535, 65536,
                               INT32_MAX, INT32_MIN, 16777217};
  uint32_t s = 53;
  for (int i = 0; i < N; i++) {
    uint32_t bits = lcg(&s);
    memcpy(&x[i], &bits, 4);
    if (i % 3 == 0) x[i] = (float)(int32_t)lcg(&s) / (float)(1 << (lcg(&s) % 24));
    if (i < 16) x[i] = fe[i];
    iv[i] = i < 16 ? ie[i] : (int32_t)lcg(&s) >> (lcg(&s) % 31);
  }
  x[16] = NAN;
  x[17] = INFINITY;
  x[18] = -INFINITY;
  uint32_t X = dev_buf(r, x, sizeof x), I = dev_buf(r, iv, sizeof iv), O = dev_buf(r, NULL, sizeof out),
           OF = dev_buf(r, NULL, sizeof of);
  launch(r, F_CONVERT, "conv", nd1(N, 32), (uint32_t[]){X, I, O, OF}, 4);
  get(r, O, out, sizeof out);
  get(r, OF, of, sizeof of);
  for (int i = 0; i < N; i++) {
    float v = x[i], z = fminf(fmaxf(v * 1e-4f, -1e6f), 1e6f);
    int32_t n = iv[i], *o = want + NC * i;
    o[0] = (int32_t)f2i_sat(z, 'z', INT32_MIN, INT32_MAX);
    o[1] = (int32_t)f2i_sat(z, 'e', INT32_MIN, INT32_MAX);
    o[2] = (int32_t)f2i_sat(z, 'p', INT32_MIN, INT32_MAX);
    o[3] = (int32_t)f2i_sat(z, 'n', INT32_MIN, INT32_MAX);
    o[4] = (int32_t)f2i_sat(v, 'z', INT32_MIN, INT32_MAX);
    o[5] = (int32_t)(uint32_t)f2i_sat(v, 'z', 0, UINT32_MAX);
    o[6] = (int32_t)f2i_sat(v, 'z', -128, 127);
    o[7] = (int32_t)f2i_sat(v, 'e', 0, 255);
    o[8] = (int32_t)f2i_sat(v, 'z', -32768, 32767);
    o[9] = (int32_t)f2i_sat(v, 'n', 0, 65535);
    o[10] = (int32_t)sat(n, -128, 127);
    o[11] = (int32_t)sat(n, 0, 255);
    o[12] = (int32_t)sat(n, -32768, 32767);
    o[13] = (int32_t)sat(n, 0, 65535);
    o[14] = (int32_t)(uint32_t)sat(n, 0, UINT32_MAX);
    o[15] = (int32_t)sat((uint32_t)n, 0, INT32_MAX);
    o[16] = (int32_t)sat((uint32_t)n, -128, 127);
    o[17] = (int32_t)sat((int16_t)n, 0, 255);
    o[18] = (int32_t)(int16_t)(int8_t)n + (int32_t)sat((int8_t)n, 0, 65535);
    int32_t q[4] = {(int32_t)f2i_sat(v, 'e', INT32_MIN, INT32_MAX), (int32_t)f2i_sat(-v, 'e', INT32_MIN, INT32_MAX),
                    (int32_t)f2i_sat(z, 'e', INT32_MIN, INT32_MAX), (int32_t)f2i_sat(v * 0.5f, 'e', INT32_MIN, INT32_MAX)};
    o[19] = q[0] ^ q[1];
    o[20] = (int32_t)((uint32_t)q[2] + (uint32_t)q[3]);
    float fb = (float)(n & 0xff) + (float)((n >> 8) & 0xff) * 2.0f + (float)((n >> 16) & 0xff) * 4.0f;
    memcpy(&o[21], &fb, 4);
    wf[4 * i] = (float)n;
    wf[4 * i + 1] = i2f(n, 'z');
    wf[4 * i + 2] = i2f((uint32_t)n, 'p');
    wf[4 * i + 3] = i2f(n, 'n');
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < NC; j++)
      if (out[NC * i + j] != want[NC * i + j])
        fail_msg("conv: input %d (%a, %d), result %d is %d, expected %d", i, (double)x[i], iv[i], j, out[NC * i + j],
                 want[NC * i + j]);
  same_words(of, wf, 4 * N, "conv (float)");
}

/* ---- the libclc math library (math.cl) -------------------------------------------- */

enum { NM = 24 };

/* error of float g against the exact value r, in units of the last place of r as a float */
static double ulp_err(float g, double r) {
  if (isnan(r)) return isnan(g) ? 0 : 1e9;
  if (isinf(r) || isinf(g)) return (double)g == r ? 0 : 1e9;
  float rf = (float)r;
  double ulp = isinf(rf) ? ldexp(1.0, 104) : nextafterf(fabsf(rf), INFINITY) - fabsf(rf);
  if (fabs(r) < 0x1p-126) ulp = 0x1p-149;
  return fabs((double)g - r) / ulp;
}

static void test_math_lib(void **state) {
  rig *r = *state;
  if (r->no_libclc) skip();
  enum { N = 256 };
  float xs[N], ys[N], out[NM * N];
  uint32_t s = 61;
  for (int i = 0; i < N; i++) {
    xs[i] = (float)((double)lcg(&s) / 4294967296.0 * 2.0 - 1.0);
    ys[i] = (float)(((double)lcg(&s) + 1.0) / 4294967297.0);
  }
  uint32_t X = dev_buf(r, xs, sizeof xs), Y = dev_buf(r, ys, sizeof ys), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_MATH, "math_fns", nd1(N, 32), (uint32_t[]){X, Y, O}, 3);
  get(r, O, out, sizeof out);
  static const char *const names[NM] = {"sin",  "cos",  "tan",  "exp",  "exp2",  "log",   "log2",
                                        "log10", "pow", "atan", "asin", "acos",  "atan2", "sinh",
                                        "cosh", "tanh", "cbrt", "hypot", "fmod", "expm1", "log1p",
                                        "native_powr", "native_sin", "native_log2"};
  /* native_*: OpenCL leaves their accuracy to the implementation; ours compose exp2(log2(x) * y) */
  static const double bound[NM] = {4, 4, 4, 3, 3, 3, 3, 3, 16, 5, 4, 4, 6, 4, 4, 5, 2, 4, 0, 3, 2, 64, 4, 3};
  double worst[NM] = {0};
  for (int i = 0; i < N; i++) {
    float x = xs[i], y = ys[i];
    double want[NM] = {sin((double)(x * 100.0f)),  cos((double)(x * 100.0f)), tan((double)(x * 1.5f)),
                       exp((double)(x * 80.0f)),   exp2((double)(x * 100.0f)), log((double)(y * 1000.0f)),
                       log2((double)(y * 1000.0f)), log10((double)y),          pow((double)(y * 10.0f), (double)(x * 5.0f)),
                       atan((double)(x * 50.0f)),  asin((double)x),           acos((double)x),
                       atan2((double)x, (double)(y - 0.5f)), sinh((double)(x * 10.0f)), cosh((double)(x * 10.0f)),
                       tanh((double)(x * 5.0f)),   cbrt((double)(x * 1000.0f)), hypot((double)(x * 1000.0f), (double)(y * 1000.0f)),
                       fmod((double)(x * 100.0f), (double)(y + 0.5f)), expm1((double)x), log1p((double)(y * 10.0f)),
                       pow((double)(y * 10.0f), (double)(x * 5.0f)), sin((double)(x * 100.0f)), log2((double)(y * 1000.0f))};
    for (int k = 0; k < NM; k++) {
      double e = ulp_err(out[NM * i + k], want[k]);
      if (e > worst[k]) worst[k] = e;
      if (e > bound[k])
        fail_msg("%s: input %d gives %a, exact %a: %.2f ulp, OpenCL 1.2 allows %.0f", names[k], i, (double)out[NM * i + k],
                 want[k], e, bound[k]);
    }
  }
  for (int k = 0; k < NM; k++) printf("# libclc %-11s worst %.2f ulp (bound %.0f)\n", names[k], worst[k], bound[k]);
}

/* ---- integer builtins and vloadN/vstoreN (intvec.cl) ------------------------------ */

static int64_t sat64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }
static int32_t imin(int32_t a, int32_t b) { return a < b ? a : b; }
static int32_t imax(int32_t a, int32_t b) { return a > b ? a : b; }

enum { NI = 45 };

/* hadd (r = 0) and rhadd (r = 1) of any width: the sum is exact in 64 bits */
static int64_t avg(int64_t a, int64_t b, int r) { return (a + b + r) >> 1; }

static void int_ref(int32_t x, int32_t y, int32_t z, int32_t *o) {
  int8_t cx = (int8_t)x, cy = (int8_t)y, cz = (int8_t)z;
  int16_t sx = (int16_t)x, sy = (int16_t)y, sz = (int16_t)z;
  uint8_t ux = (uint8_t)x, uy = (uint8_t)y;
  uint16_t wx = (uint16_t)x, wy = (uint16_t)y;
  o[0] = (uint8_t)(cx < 0 ? -cx : cx);
  o[1] = (uint16_t)(sx < 0 ? -sx : sx);
  o[2] = (uint8_t)(cx > cy ? cx - cy : cy - cx);
  o[3] = (uint16_t)(sx > sy ? sx - sy : sy - sx);
  o[4] = (int32_t)(uint32_t)((int64_t)x > y ? (int64_t)x - y : (int64_t)y - x);
  o[5] = imin(imax(cx, -20), cz & 0x3f);
  o[6] = imin(imax(sx, -300), sz & 0x3fff);
  o[7] = imin(cx, cy) * 1000 + imax(cx, cy);
  o[8] = imin(ux, uy) * 1000 + imax(ux, uy);
  o[9] = imin(sx, sy) + imax(wx, wy) * 3;
  o[10] = (int8_t)sat64(cx + cy, -128, 127);
  o[11] = (int8_t)sat64(cx - cy, -128, 127);
  o[12] = (int16_t)sat64(sx + sy, -32768, 32767);
  o[13] = (int16_t)sat64(sx - sy, -32768, 32767);
  o[14] = (int32_t)sat64((int64_t)x + y, INT32_MIN, INT32_MAX);
  o[15] = (int32_t)sat64((int64_t)x - y, INT32_MIN, INT32_MAX);
  o[16] = (uint8_t)sat64(ux + uy, 0, 255);
  o[17] = (uint8_t)sat64(ux - uy, 0, 255);
  o[18] = (int32_t)(uint32_t)sat64((int64_t)(uint32_t)x + (uint32_t)y, 0, UINT32_MAX);
  o[19] = (int32_t)(uint32_t)sat64((int64_t)(uint32_t)x - (uint32_t)y, 0, UINT32_MAX);
  o[20] = (int32_t)((uint32_t)(int32_t)(((int64_t)x * y) >> 32) + (uint32_t)z);
  o[21] = (int8_t)sat64(cx * cy + cz, -128, 127);
  o[22] = (int16_t)sat64(sx * sy + sz, -32768, 32767);
  o[23] = (int32_t)sat64((int64_t)x * y + z, INT32_MIN, INT32_MAX);
  for (int r = 0; r < 2; r++) {
    o[24 + r] = (int8_t)avg(cx, cy, r);
    o[26 + r] = (uint8_t)avg(ux, uy, r);
    o[28 + r] = (int16_t)avg(sx, sy, r);
    o[30 + r] = (uint16_t)avg(wx, wy, r);
    o[32 + r] = (int32_t)avg(x, y, r);
    o[34 + r] = (int32_t)(uint32_t)avg((uint32_t)x, (uint32_t)y, r);
  }
  o[36] = (int8_t)((cx * cy) >> 8);
  o[37] = (uint8_t)((ux * uy) >> 8);
  o[38] = (int16_t)((sx * sy) >> 16);
  o[39] = (uint16_t)(((uint32_t)wx * wy) >> 16);
  o[40] = (int32_t)(((int64_t)x * y) >> 32);
  o[41] = (int32_t)(uint32_t)(((uint64_t)(uint32_t)x * (uint32_t)y) >> 32);
  uint8_t c4[4] = {(uint8_t)avg(cx, cz, 1), (uint8_t)avg(cy, cx, 1), (uint8_t)avg(cz, cy, 1), (uint8_t)avg(cx, cy, 1)};
  uint16_t s2[2] = {(uint16_t)((sx * sz) >> 16), (uint16_t)((sy * sx) >> 16)};
  uint8_t u4[4] = {(uint8_t)sat64(ux + uy, 0, 255), (uint8_t)sat64(uy + uy, 0, 255), (uint8_t)sat64(ux + ux, 0, 255),
                   (uint8_t)sat64(uy + ux, 0, 255)};
  memcpy(&o[42], c4, 4);
  memcpy(&o[43], s2, 4);
  memcpy(&o[44], u4, 4);
}

static void test_int_builtins(void **state) {
  rig *r = *state;
  if (r->no_libclc) skip();
  enum { N = 96 };
  int32_t a[3 * N], out[NI * N], want[NI * N];
  uint32_t s = 77;
  for (int i = 0; i < 3 * N; i++) { /* small, byte-sized, short-sized and extreme values */
    uint32_t v = lcg(&s);
    int32_t ext = v & 1 ? INT32_MIN + (int32_t)(v & 15) : INT32_MAX - (int32_t)(v & 15);
    a[i] = i % 4 == 0 ? (int32_t)v : i % 4 == 1 ? (int32_t)(v & 0xff) - 128 : i % 4 == 2 ? (int32_t)((v << 8) ^ (v >> 3)) : ext;
  }
  uint32_t A = dev_buf(r, a, sizeof a), O = dev_buf(r, NULL, sizeof out);
  launch(r, F_INTVEC, "int_lanes", nd1(N, 32), (uint32_t[]){A, O}, 2);
  get(r, O, out, sizeof out);
  for (int i = 0; i < N; i++) int_ref(a[3 * i], a[3 * i + 1], a[3 * i + 2], want + NI * i);
  same_words(out, want, NI * N, "int_lanes");
}

static void test_vloads(void **state) {
  rig *r = *state;
  if (r->no_libclc) skip();
  enum { N = 64 };
  static float g[16 * N + 4], out[16 * N], want[16 * N];
  int32_t gi[4 * N], outi[4 * N], wanti[4 * N];
  uint32_t s = 5;
  for (int i = 0; i < 16 * N + 4; i++) g[i] = rnd_float(&s);
  for (int i = 0; i < 4 * N; i++) gi[i] = (int32_t)lcg(&s) - (1 << 23);
  memset(want, 0, sizeof want);
  for (int i = 0; i < N; i++) {
    const float *a = g + 2 * i, *b = g + 1 + 3 * i, *c = g + 2 + 4 * i, *d = g + 8 * i, *e = g + 16 * i; /* e: doubled */
    float p[5] = {a[1], b[2], c[3], d[7], e[15] * 2.0f}, *o = want + 16 * i;
    o[0] = a[0] + b[0];
    o[1] = a[1] + c[0];
    for (int k = 0; k < 3; k++) o[2 + k] = p[(i & 1) + k];
    for (int k = 0; k < 4; k++) o[5 + k] = c[k] * d[k];
    o[9] = e[3] * 2.0f + d[5];
    o[10] = e[9] * 2.0f;
    o[11] = g[3 + 3 * i] + g[5 + 3 * i];
    o[12] = g[4 + 3 * i];
    int16_t lo = (int16_t)(gi[i] & 0xffff), hi = (int16_t)((uint32_t)gi[i] >> 16);
    const int32_t add[4] = {lo, hi, 1, 2};
    for (int k = 0; k < 4; k++) wanti[4 * i + k] = (int32_t)((uint32_t)gi[4 * i + k] + (uint32_t)add[k]);
  }
  uint32_t G = dev_buf(r, g, sizeof g), GI = dev_buf(r, gi, sizeof gi), O = dev_buf(r, NULL, sizeof out),
           OI = dev_buf(r, NULL, sizeof outi);
  launch(r, F_INTVEC, "vec_moves", nd1(N, 32), (uint32_t[]){G, GI, O, OI, G}, 5);
  get(r, O, out, sizeof out);
  get(r, OI, outi, sizeof outi);
  same_words(out, want, 16 * N, "vec_moves");
  same_words(outi, wanti, 4 * N, "vec_moves (int)");
}

#define T(fn) cmocka_unit_test_setup(fn, setup)

int main(void) {
  const struct CMUnitTest tests[] = {
      T(test_vecadd_saxpy), T(test_int_ops),      T(test_uint_ops),     T(test_float_ops),
      T(test_diverge_ifelse), T(test_loop_trip),  T(test_collatz),      T(test_uniform_loop),
      T(test_ids3d),        T(test_nested_loops), T(test_reduce_local), T(test_matmul),
      T(test_transpose),    T(test_bytes),        T(test_ctable),       T(test_examples),
      T(test_vectors),      T(test_private_mem),  T(test_atomics),
      T(test_early_return), T(test_dims_runtime),
      T(test_bfs),          T(test_gaussian),     T(test_nn_kmeans),    T(test_backprop),
      T(test_hotspot_pathfinder), T(test_rounding), T(test_math1), T(test_clamps), T(test_break_continue), T(test_switch_case), T(test_loop_exits),
      T(test_long_lanes), T(test_long_uniform), T(test_long_loop), T(test_reshape),
      T(test_bits_lanes), T(test_bits_uniform), T(test_spill), T(test_calls), T(test_calls_stack), T(test_convert), T(test_math_lib),
      T(test_int_builtins), T(test_vloads),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
