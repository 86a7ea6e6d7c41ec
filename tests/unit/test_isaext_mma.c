/* ISA 2025 MMA (docs/isa-extensions.md): every type x shape of the table
 * (INT8, INT4, Binary -> INT32; FP32; FP16 -> FP16 and -> FP32; BF16 ->
 * FP32) against a plain-C D = A x B + C on random matrices, both A and B
 * layouts, two warp sizes. The fragment layout is packed here from its
 * description; the fp reference uses the C library's fmaf and the
 * compiler's _Float16 conversions. */
#include <math.h>

#include "isaext_mma_ref.h"


typedef struct {
  const char *mn;
  unsigned m, n, k, type, bits, cbits;
} shape;

static const shape shapes[] = {
    {"mma.m8n8k16.s8", 8, 8, 16, T_INT, 8, 32},
    {"mma.m16n16k16.s8", 16, 16, 16, T_INT, 8, 32},
    {"mma.m8n8k32.s4", 8, 8, 32, T_INT, 4, 32},
    {"mma.m16n8k32.s4", 16, 8, 32, T_INT, 4, 32},
    {"mma.m16n8k64.s4", 16, 8, 64, T_INT, 4, 32},
    {"mma.m8n8k128.b1", 8, 8, 128, T_BIN, 1, 32},
    {"mma.m8n8k8.f32", 8, 8, 8, T_F32, 32, 32},
    {"mma.m16n8k8.f32", 16, 8, 8, T_F32, 32, 32},
    {"mma.m16n8k16.f32", 16, 8, 16, T_F32, 32, 32},
    {"mma.m8n8k8.f16", 8, 8, 8, T_F16, 16, 16},
    {"mma.m16n8k8.f16", 16, 8, 8, T_F16, 16, 16},
    {"mma.m16n8k16.f16", 16, 8, 16, T_F16, 16, 16},
    {"mma.m8n8k8.f16.f32", 8, 8, 8, T_F16, 16, 32},
    {"mma.m16n8k8.f16.f32", 16, 8, 8, T_F16, 16, 32},
    {"mma.m16n8k16.f16.f32", 16, 8, 16, T_F16, 16, 32},
    {"mma.m8n8k8.bf16", 8, 8, 8, T_BF16, 16, 32},
    {"mma.m16n8k8.bf16", 16, 8, 8, T_BF16, 16, 32},
    {"mma.m16n8k16.bf16", 16, 8, 16, T_BF16, 16, 32},
};

/* Loads the packed words (word w at region + 4w is register r = w / nt,
 * lane w % nt), runs the MMA, stores D the same way and compares. */
static void check_shape(const shape *sh, unsigned nt, unsigned al, unsigned bl, uint64_t seed) {
  static elem A[16][128], B[128][16], C[16][16];
  uint32_t wa[256] = {0}, wb[256] = {0}, wc[256] = {0};
  uint64_t s = seed;
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned k = 0; k < sh->k; k++) {
      A[i][k] = rand_elem(&s, sh->type, sh->bits);
      pack(wa, al ? k * sh->m + i : i * sh->k + k, A[i][k].raw, sh->bits);
    }
  for (unsigned k = 0; k < sh->k; k++)
    for (unsigned j = 0; j < sh->n; j++) {
      B[k][j] = rand_elem(&s, sh->type, sh->bits);
      pack(wb, bl ? k * sh->n + j : j * sh->k + k, B[k][j].raw, sh->bits);
    }
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < sh->n; j++) {
      elem c = {0, 0, 0};
      if (sh->type <= T_BIN) {
        c.raw = (uint32_t)((int32_t)rng_next(&s) >> (rng_next(&s) % 31)); /* large and small */
      } else if (sh->cbits == 16) {
        c = rand_elem(&s, T_F16, 16);
      } else {
        c = rand_elem(&s, T_F32, 32);
      }
      C[i][j] = c;
      pack(wc, i * sh->n + j, c.raw, sh->cbits);
    }
  unsigned ra = (sh->m * sh->k / (32 / sh->bits) + nt - 1) / nt;
  unsigned rb = (sh->k * sh->n / (32 / sh->bits) + nt - 1) / nt;
  unsigned rc = (sh->m * sh->n / (32 / sh->cbits) + nt - 1) / nt;
  vt_device *d = ext_dev(2025);
  for (unsigned w = 0; w < 256; w++) {
    wr32(d, DATA_BASE + 4 * w, wa[w]);
    wr32(d, DATA_BASE + 0x400 + 4 * w, wb[w]);
    wr32(d, DATA_BASE + 0x800 + 4 * w, wc[w]);
  }
  char src[16384], insn[96];
  snprintf(insn, sizeof insn, "%s v80, v8, v40, %u, %u", sh->mn, al, bl);
  mma_prog(src, sizeof src, ra, rb, rc, nt, insn);
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s: %s", sh->mn, e.msg);
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < sh->n; j++) {
      uint32_t want;
      if (sh->type <= T_BIN) {
        want = C[i][j].raw;
        for (unsigned k = 0; k < sh->k; k++)
          want += sh->type == T_BIN ? (uint32_t)(A[i][k].i & B[k][j].i)
                                    : (uint32_t)(A[i][k].i * B[k][j].i);
      } else {
        float acc = sh->cbits == 16 ? (float)u2h(C[i][j].raw) : C[i][j].f;
        for (unsigned k = 0; k < sh->k; k++) acc = fmaf(A[i][k].f, B[k][j].f, acc);
        want = sh->cbits == 16 ? h2u((_Float16)acc) : f2u(acc);
      }
      uint32_t got = unpack(d, DATA_BASE + 0xc00, i * sh->n + j, sh->cbits);
      if (got != want)
        fail_msg("%s nt %u al %u bl %u: D[%u][%u] = 0x%08x, expected 0x%08x", sh->mn, nt, al, bl, i, j,
                 got, want);
    }
  vt_device_destroy(d);
}

static void test_every_type_and_shape(void **state) {
  (void)state;
  for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
    for (unsigned l = 0; l < 4; l++) check_shape(&shapes[t], 32, l & 1, l >> 1, 1000 + t * 4 + l);
}

/* an 8-thread warp spreads the same matrices over more registers */
static void test_small_warp(void **state) {
  (void)state;
  check_shape(&shapes[1], 8, 0, 1, 77);
  check_shape(&shapes[5], 8, 1, 0, 78);
  check_shape(&shapes[11], 8, 1, 1, 79);
}

/* FP16 results round once, to nearest even: 1 + 2^-11 (a tie) stays 1,
 * 1 + 3 * 2^-11 (a tie) goes up to 1 + 2^-9, 1 + 65504 rounds to 65504,
 * 1 - 2^-11 is exact */
static void test_f16_rounding(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  /* 1 thread, m8n8k8: A = 1 at [0][0] only (row-major, 2 per word),
   * B = x at [0][j] (column-major: element j*8), C = 1 everywhere */
  static const float xs[8] = {0x1p-11f, 0x3p-11f, 0x1p-12f, 65504.0f, -0x1p-11f, 0x1p-24f, 0, -2};
  for (unsigned w = 0; w < 32; w++) wr32(d, DATA_BASE + 4 * w, w == 0 ? 0x3c00u : 0);
  for (unsigned w = 0; w < 32; w++) {
    uint32_t v = 0;
    for (unsigned h = 0; h < 2; h++) {
      unsigned idx = 2 * w + h; /* B element idx = j * 8 + k */
      if (idx % 8 == 0) v |= h2u((_Float16)xs[idx / 8]) << (16 * h);
    }
    wr32(d, DATA_BASE + 0x400 + 4 * w, v);
  }
  for (unsigned w = 0; w < 32; w++) wr32(d, DATA_BASE + 0x800 + 4 * w, 0x3c003c00u);
  char src[4096];
  size_t n = (size_t)snprintf(src, sizeof src,
                              "li t0, 0x90000000\nvmv.v.x v1, t0\nli t0, 0x400\nvadd.vx v2, v1, t0\n"
                              "vadd.vx v3, v2, t0\nvadd.vx v4, v3, t0\n");
  for (unsigned r = 0; r < 32; r++)
    n += (size_t)snprintf(src + n, sizeof src - n,
                          "vlw12.v v%u, %u(v1)\nvlw12.v v%u, %u(v2)\nvlw12.v v%u, %u(v3)\n", 8 + r,
                          4 * r, 40 + r, 4 * r, 80 + r, 4 * r);
  n += (size_t)snprintf(src + n, sizeof src - n, "mma.m8n8k8.f16 v80, v8, v40, 0, 0\n");
  for (unsigned r = 0; r < 32; r++)
    n += (size_t)snprintf(src + n, sizeof src - n, "vsw12.v v%u, %u(v4)\n", 80 + r, 4 * r);
  snprintf(src + n, sizeof src - n, "endprg x0, x0, x0\n");
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, 1, &e)) fail_msg("%s", e.msg);
  static const uint32_t want[8] = {0x3c00u, 0x3c02u, 0x3c00u, 0x7bffu, 0x3bffu, 0x3c00u, 0x3c00u, 0xbc00u};
  for (unsigned j = 0; j < 8; j++) {
    uint32_t got = unpack(d, DATA_BASE + 0xc00, j, 16);
    uint32_t w = want[j]; /* row 0: 1 + x_j */
    if (got != w) fail_msg("D[0][%u] = 0x%04x, expected 0x%04x", j, got, w);
    /* rows 1..7: C = 1 */
    assert_int_equal(unpack(d, DATA_BASE + 0xc00, 8 + j, 16), 0x3c00u);
  }
  vt_device_destroy(d);
}

static void test_mma_errors(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  /* one thread of the warp inactive: a divergent branch around the mma */
  const char *src = "vid.v v1\nvmv.v.i v2, 3\n"
                    "la t1, 1f\nsetrpc zero, t1, 0\nvbeq v1, v2, 1f\n"
                    "mma.m8n8k16.s8 v80, v8, v40, 0, 0\n"
                    "1: join zero, zero, 0\nendprg x0, x0, x0\n";
  assert_int_equal(ext_run(d, ISA_REV_2025, src, 4, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "mma needs every thread of the warp active (mask 0x7 of 4 threads)"));
  vt_device_destroy(d);
  d = ext_dev(2025);
  /* m16n16k16 C/D on 1 thread: 256 registers from v80 */
  assert_int_equal(ext_run(d, ISA_REV_2025, "mma.m16n16k16.s8 v80, v8, v40, 0, 0\nendprg x0, x0, x0\n", 1, &e), -1);
  assert_non_null(strstr(e.msg, "mma register groups run past v255"));
  vt_device_destroy(d);
}

/* A new warp finds every vector register zero: an MMA writes its whole D
 * group (8 registers here), beyond the 4 registers from rd that other
 * instructions may write, and a later launch must not see them. */
static void test_mma_results_do_not_leak(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  for (unsigned w = 0; w < 256; w++) {
    wr32(d, DATA_BASE + 4 * w, 0x01010101u * (w % 7 + 1));
    wr32(d, DATA_BASE + 0x400 + 4 * w, 0x01010101u * (w % 5 + 1));
    wr32(d, DATA_BASE + 0xc00 + 4 * w, 0xdeadbeefu);
  }
  const char *first = "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
                      "li t0, 0x400\nvadd.vx v2, v1, t0\n"
                      "vlw12.v v8, 0(v1)\nvlw12.v v9, 128(v1)\nvlw12.v v40, 0(v2)\nvlw12.v v41, 128(v2)\n"
                      "mma.m16n16k16.s8 v80, v8, v40, 0, 0\nendprg x0, x0, x0\n";
  const char *second = "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000c00\nvadd.vx v1, v1, t0\n"
                       "vsw12.v v86, 0(v1)\nvsw12.v v87, 128(v1)\nendprg x0, x0, x0\n";
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, first, 32, &e)) fail_msg("%s", e.msg);
  if (ext_run(d, ISA_REV_2025, second, 32, &e)) fail_msg("%s", e.msg);
  for (unsigned w = 0; w < 64; w++) assert_int_equal(rd32(d, DATA_BASE + 0xc00 + 4 * w), 0);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_type_and_shape),
      cmocka_unit_test(test_small_warp),
      cmocka_unit_test(test_f16_rounding),
      cmocka_unit_test(test_mma_errors),
      cmocka_unit_test(test_mma_results_do_not_leak),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
