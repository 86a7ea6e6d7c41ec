/* ISA 2025 MMA, integer types (docs/isa-extensions.md): every shape of
 * INT8, INT4 and Binary against a plain-C D = A x B + C on random matrices,
 * both A and B layouts, two warp sizes; the fragment layout is packed here
 * from its description. */
#include "isaext_prog.h"

typedef struct {
  const char *mn;
  unsigned m, n, k, bits;
} shape;

static const shape shapes[] = {
    {"mma.m8n8k16.s8", 8, 8, 16, 8},   {"mma.m16n16k16.s8", 16, 16, 16, 8},
    {"mma.m8n8k32.s4", 8, 8, 32, 4},   {"mma.m16n8k32.s4", 16, 8, 32, 4},
    {"mma.m16n8k64.s4", 16, 8, 64, 4}, {"mma.m8n8k128.b1", 8, 8, 128, 1},
};

static uint32_t rng_next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

/* a random element of `bits` bits, as its signed value (0/1 for binary) */
static int32_t rand_elem(uint64_t *s, unsigned bits) {
  uint32_t v = rng_next(s) & ((1u << bits) - 1);
  if (bits == 1) return (int32_t)v;
  return (int32_t)(v ^ (1u << (bits - 1))) - (int32_t)(1u << (bits - 1));
}

/* element idx of a packed matrix into the word image */
static void pack(uint32_t *words, unsigned idx, int32_t v, unsigned bits) {
  unsigned per = 32 / bits;
  words[idx / per] |= ((uint32_t)v & ((1u << bits) - 1)) << (idx % per * bits);
}

/* word w of a register group -> its memory slot for the loads below:
 * register r = w / nt, lane l = w % nt at region + 4 * (r * nt + l), i.e.
 * the word image is stored as it is */
static void check_shape(const shape *sh, unsigned nt, unsigned al, unsigned bl, uint64_t seed) {
  int32_t A[16][128], B[128][16], C[16][16];
  uint32_t wa[256] = {0}, wb[256] = {0}, wc[256] = {0};
  uint64_t s = seed;
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned k = 0; k < sh->k; k++) {
      A[i][k] = rand_elem(&s, sh->bits);
      pack(wa, al ? k * sh->m + i : i * sh->k + k, A[i][k], sh->bits);
    }
  for (unsigned k = 0; k < sh->k; k++)
    for (unsigned j = 0; j < sh->n; j++) {
      B[k][j] = rand_elem(&s, sh->bits);
      pack(wb, bl ? k * sh->n + j : j * sh->k + k, B[k][j], sh->bits);
    }
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < sh->n; j++) {
      C[i][j] = (int32_t)rng_next(&s) >> (rng_next(&s) % 31); /* large and small */
      wc[i * sh->n + j] = (uint32_t)C[i][j];
    }
  unsigned per = 32 / sh->bits;
  unsigned ra = (sh->m * sh->k / per + nt - 1) / nt, rb = (sh->k * sh->n / per + nt - 1) / nt,
           rc = (sh->m * sh->n + nt - 1) / nt;
  vt_device *d = ext_dev(2025);
  for (unsigned w = 0; w < 256; w++) {
    wr32(d, DATA_BASE + 4 * w, wa[w]);
    wr32(d, DATA_BASE + 0x400 + 4 * w, wb[w]);
    wr32(d, DATA_BASE + 0x800 + 4 * w, wc[w]);
  }
  char src[16384];
  size_t n = (size_t)snprintf(src, sizeof src,
                              "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
                              "li t0, 0x400\nvadd.vx v2, v1, t0\nvadd.vx v3, v2, t0\nvadd.vx v4, v3, t0\n");
  for (unsigned r = 0; r < ra; r++) n += (size_t)snprintf(src + n, sizeof src - n, "vlw12.v v%u, %u(v1)\n", 8 + r, 4 * nt * r);
  for (unsigned r = 0; r < rb; r++) n += (size_t)snprintf(src + n, sizeof src - n, "vlw12.v v%u, %u(v2)\n", 40 + r, 4 * nt * r);
  for (unsigned r = 0; r < rc; r++) n += (size_t)snprintf(src + n, sizeof src - n, "vlw12.v v%u, %u(v3)\n", 80 + r, 4 * nt * r);
  n += (size_t)snprintf(src + n, sizeof src - n, "%s v80, v8, v40, %u, %u\n", sh->mn, al, bl);
  for (unsigned r = 0; r < rc; r++) n += (size_t)snprintf(src + n, sizeof src - n, "vsw12.v v%u, %u(v4)\n", 80 + r, 4 * nt * r);
  snprintf(src + n, sizeof src - n, "endprg x0, x0, x0\n");
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s: %s", sh->mn, e.msg);
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < sh->n; j++) {
      uint32_t want = (uint32_t)C[i][j];
      for (unsigned k = 0; k < sh->k; k++)
        want += sh->bits == 1 ? (uint32_t)(A[i][k] & B[k][j]) : (uint32_t)(A[i][k] * B[k][j]);
      uint32_t got = rd32(d, DATA_BASE + 0xc00 + 4 * (i * sh->n + j));
      if (got != want)
        fail_msg("%s nt %u al %u bl %u: D[%u][%u] = 0x%08x, expected 0x%08x", sh->mn, nt, al, bl, i, j,
                 got, want);
    }
  vt_device_destroy(d);
}

static void test_every_shape(void **state) {
  (void)state;
  for (size_t t = 0; t < sizeof shapes / sizeof shapes[0]; t++)
    for (unsigned l = 0; l < 4; l++) check_shape(&shapes[t], 32, l & 1, l >> 1, 1000 + t * 4 + l);
}

/* an 8-thread warp spreads the same matrices over more registers */
static void test_small_warp(void **state) {
  (void)state;
  check_shape(&shapes[1], 8, 0, 1, 77);
  check_shape(&shapes[5], 8, 1, 0, 78);
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_every_shape),
      cmocka_unit_test(test_small_warp),
      cmocka_unit_test(test_mma_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
