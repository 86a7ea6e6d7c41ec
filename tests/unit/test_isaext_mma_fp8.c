/* ISA 2025 32-bit MMA with FP8 A/B and INT32 C/D (docs/isa-extensions.md):
 * D = C + sum of A x B formed exactly and converted once as fcvt.w.s with
 * rm = rne (to nearest, ties to even, saturating, NaN -> INT32_MAX).
 * The plain-C reference decodes FP8 from its formula with ldexp, scales
 * each product by 2^32 into a 128-bit integer and rounds the sum; hand
 * values check ties, saturation, infinities and NaNs. Both layouts of A and
 * B, a 32- and an 8-thread warp. */
#include <math.h>

#include "isaext_prog.h"

enum { M = 16, N = 8, K = 32 };

static uint32_t rng_next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

/* OCP FP8: E4M3 bias 7 (S.1111.111 NaN, no infinity), E5M2 bias 15 (IEEE) */
static double fp8(uint32_t r, int e5m2) {
  int mb = e5m2 ? 2 : 3, bias = e5m2 ? 15 : 7;
  int e = (int)((r & 0x7f) >> mb), m = (int)(r & ((1u << mb) - 1));
  double sign = r & 0x80 ? -1.0 : 1.0;
  if (!e5m2 && e == 15 && m == 7) return NAN;
  if (e5m2 && e == 31) return m ? NAN : sign * INFINITY;
  return sign * (e ? ldexp(1.0 + ldexp(m, -mb), e - bias) : ldexp(m, 1 - bias - mb));
}

/* the reference D element */
static int32_t ref(const uint8_t *a, const uint8_t *b, int32_t c, int e5m2) {
  const __int128 unit = (__int128)1 << 32;
  __int128 acc = (__int128)c * unit;
  int pinf = 0, ninf = 0, nan = 0;
  for (int k = 0; k < K; k++) {
    double p = fp8(a[k], e5m2) * fp8(b[k], e5m2); /* exact: 8 significant bits */
    if (isnan(p))
      nan = 1;
    else if (isinf(p))
      *(p > 0 ? &pinf : &ninf) = 1;
    else
      acc += (__int128)ldexp(p, 32); /* an integer below 2^64 */
  }
  if (nan || pinf) return INT32_MAX;
  if (ninf) return INT32_MIN;
  __int128 q = acc / unit; /* toward zero, then floor, and 0 <= f < 2^32 */
  if (q * unit > acc) q--;
  __int128 f = acc - q * unit;
  if (f > ((__int128)1 << 31) || (f == ((__int128)1 << 31) && (q & 1))) q++;
  return q > INT32_MAX ? INT32_MAX : q < INT32_MIN ? INT32_MIN : (int32_t)q;
}

/* A[i][k], B[k][j] bytes, C[i][j]: packs them (A row-major or with al
 * column-major; B column-major or with bl row-major; 4 bytes a word, word w
 * in register base + w / nt, lane w % nt), runs the MMA and returns D */
static void run_mma(int e5m2, unsigned nt, unsigned al, unsigned bl, uint8_t A[M][K],
                    uint8_t B[K][N], int32_t C[M][N], int32_t D[M][N]) {
  uint32_t wa[128] = {0}, wb[64] = {0};
  for (unsigned i = 0; i < M; i++)
    for (unsigned k = 0; k < K; k++) {
      unsigned idx = al ? k * M + i : i * K + k;
      wa[idx / 4] |= (uint32_t)A[i][k] << (8 * (idx % 4));
    }
  for (unsigned k = 0; k < K; k++)
    for (unsigned j = 0; j < N; j++) {
      unsigned idx = bl ? k * N + j : j * K + k;
      wb[idx / 4] |= (uint32_t)B[k][j] << (8 * (idx % 4));
    }
  vt_device *d = ext_dev(2025);
  for (unsigned w = 0; w < 128; w++) {
    wr32(d, DATA_BASE + 4 * w, wa[w]);
    wr32(d, DATA_BASE + 0x800 + 4 * w, (uint32_t)C[w / N][w % N]);
  }
  for (unsigned w = 0; w < 64; w++) wr32(d, DATA_BASE + 0x400 + 4 * w, wb[w]);
  unsigned ra = 128 / nt, rb = 64 / nt, rc = 128 / nt;
  char src[8192], insn[64];
  snprintf(insn, sizeof insn, "mma.m16n8k32.%s v80, v8, v40, %u, %u", e5m2 ? "e5m2" : "e4m3", al, bl);
  mma_prog(src, sizeof src, ra, rb, rc, nt, insn);
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s", e.msg);
  for (unsigned w = 0; w < 128; w++) D[w / N][w % N] = (int32_t)rd32(d, DATA_BASE + 0xc00 + 4 * w);
  vt_device_destroy(d);
}

/* a random finite FP8 byte: E5M2 exponents kept moderate half of the time */
static uint8_t rand_fp8(uint64_t *s, int e5m2) {
  for (;;) {
    uint8_t r = (uint8_t)rng_next(s);
    if (e5m2 && (rng_next(s) & 1)) r = (uint8_t)((r & 0x83) | (10 + rng_next(s) % 12) << 2);
    if (isfinite(fp8(r, e5m2))) return r;
  }
}

static void test_random_against_reference(void **state) {
  (void)state;
  static uint8_t A[M][K], B[K][N];
  static int32_t C[M][N], D[M][N];
  for (int e5m2 = 0; e5m2 < 2; e5m2++)
    for (unsigned l = 0; l < 5; l++) {
      uint64_t s = 4242 + 10 * (uint64_t)e5m2 + l;
      for (unsigned i = 0; i < M; i++)
        for (unsigned k = 0; k < K; k++) A[i][k] = rand_fp8(&s, e5m2);
      for (unsigned k = 0; k < K; k++)
        for (unsigned j = 0; j < N; j++) B[k][j] = rand_fp8(&s, e5m2);
      for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) C[i][j] = (int32_t)rng_next(&s) >> (rng_next(&s) % 32);
      unsigned nt = l == 4 ? 8 : 32;
      run_mma(e5m2, nt, l & 1, (l >> 1) & 1, A, B, C, D);
      unsigned saturated = 0, fractional = 0;
      for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
          uint8_t a[K], b[K];
          for (unsigned k = 0; k < K; k++) a[k] = A[i][k], b[k] = B[k][j];
          int32_t want = ref(a, b, C[i][j], e5m2);
          saturated += want == INT32_MAX || want == INT32_MIN;
          fractional += want != C[i][j];
          if (D[i][j] != want)
            fail_msg("%s layout %u nt %u: D[%u][%u] = %d, expected %d", e5m2 ? "e5m2" : "e4m3", l,
                     nt, i, j, D[i][j], want);
        }
      assert_true(fractional > 0);
      if (e5m2 && l == 0) assert_true(saturated > 0); /* E5M2's large products reach the limits */
    }
}

/* D[0][0] of A[0][0..1] x B[0..1][0] + C (every other element 0) */
static int32_t one(int e5m2, uint8_t a, uint8_t b, int32_t c, uint8_t a2, uint8_t b2) {
  static uint8_t A[M][K], B[K][N];
  static int32_t C[M][N], D[M][N];
  memset(A, 0, sizeof A);
  memset(B, 0, sizeof B);
  memset(C, 0, sizeof C);
  A[0][0] = a, B[0][0] = b, A[0][1] = a2, B[1][0] = b2, C[0][0] = c;
  run_mma(e5m2, 32, 0, 0, A, B, C, D);
  for (unsigned i = 0; i < M; i++)
    for (unsigned j = 0; j < N; j++)
      if (i && j && D[i][j] != 0) /* row 0 and column 0 meet a NaN or infinity times 0 */
        fail_msg("0x%02x x 0x%02x: D[%u][%u] = %d, expected 0", a, b, i, j, D[i][j]);
  return D[0][0];
}

static void test_hand_values(void **state) {
  (void)state;
  /* E4M3: 0x38 = 1.0, 0x3c = 1.5, 0x42 = 2.5, 0x30 = 0.5, 0x7e = 448, 0x01 = 2^-9, 0x7f NaN */
  assert_int_equal(one(0, 0x3c, 0x38, 0, 0, 0), 2);       /* 1.5: tie to even 2 */
  assert_int_equal(one(0, 0x42, 0x38, 0, 0, 0), 2);       /* 2.5: tie to even 2 */
  assert_int_equal(one(0, 0x42, 0xb8, 0, 0, 0), -2);      /* -2.5 */
  assert_int_equal(one(0, 0x3c, 0xb8, 0, 0, 0), -2);      /* -1.5 */
  assert_int_equal(one(0, 0x30, 0x38, -3, 0, 0), -2);     /* -3 + 0.5 = -2.5 -> -2 */
  assert_int_equal(one(0, 0x30, 0x38, 6, 0x01, 0x38), 7); /* 6.5 + 2^-9 rounds up */
  assert_int_equal(one(0, 0x7e, 0x7e, 5, 0, 0), 448 * 448 + 5);
  assert_int_equal(one(0, 0x30, 0x38, INT32_MAX, 0, 0), INT32_MAX); /* + 0.5 saturates */
  assert_int_equal(one(0, 0x7f, 0x38, 7, 0, 0), INT32_MAX);         /* NaN */
  /* E5M2: 0x3c = 1.0, 0x7b = 57344, 0x7c = inf, 0xfc = -inf, 0x7d NaN, 0x01 = 2^-16 */
  assert_int_equal(one(1, 0x7b, 0x7b, 0, 0, 0), INT32_MAX); /* 3.3e9 */
  assert_int_equal(one(1, 0x7b, 0xfb, 0, 0, 0), INT32_MIN);
  assert_int_equal(one(1, 0x7b, 0xfb, 0, 0x7b, 0x7b), 0); /* exact cancellation */
  assert_int_equal(one(1, 0x01, 0x01, 1, 0, 0), 1);       /* 2^-32 is kept, below the half */
  assert_int_equal(one(1, 0x7c, 0x3c, 0, 0, 0), INT32_MAX);
  assert_int_equal(one(1, 0xfc, 0x3c, 0, 0, 0), INT32_MIN);
  assert_int_equal(one(1, 0x7c, 0x00, 0, 0, 0), INT32_MAX);       /* inf * 0: NaN */
  assert_int_equal(one(1, 0x7c, 0x3c, 0, 0xfc, 0x3c), INT32_MAX); /* inf - inf: NaN */
  assert_int_equal(one(1, 0x7d, 0x3c, 0, 0, 0), INT32_MAX);
}

/* the encodings: A/B type 3 and 4 in [31:28], shape 0, CT 0 */
static void test_encoding(void **state) {
  (void)state;
  isa_inst in;
  assert_int_equal(isa_decode_rev(0x30000061u, 0, ISA_REV_2025, &in), ISA_mma_m16n8k32_e4m3);
  assert_int_equal(isa_decode_rev(0x40000061u, 0, ISA_REV_2025, &in), ISA_mma_m16n8k32_e5m2);
  assert_int_equal(isa_decode_rev(0x30001061u, 0, ISA_REV_2025, &in), ISA_INVALID); /* CT 1 */
  assert_int_equal(isa_decode_rev(0x32000061u, 0, ISA_REV_2025, &in), ISA_INVALID); /* shape 1 */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random_against_reference),
      cmocka_unit_test(test_hand_values),
      cmocka_unit_test(test_encoding),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
