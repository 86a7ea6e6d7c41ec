/* ISA 2025 asynchronous copies (docs/isa-extensions.md): cp_dma copy sizes
 * with srcsize below, equal to and zero against the copy size (zero fill),
 * byte-aligned addresses, cp_dma_bulk sizes and alignment, and the errors.
 * The local destination is read back with flat loads and stored to global
 * memory; expected bytes come from the source pattern. */
#include "isaext_prog.h"

#define LDS 0x70000000u

static uint8_t pattern(uint32_t i) { return (uint8_t)(0x11 + 7 * i); }

static void fill_source(vt_device *d) {
  for (uint32_t w = 0; w < 64; w++) {
    uint32_t v = 0;
    for (uint32_t b = 0; b < 4; b++) v |= (uint32_t)pattern(4 * w + b) << (8 * b);
    wr32(d, DATA_BASE + 4 * w, v);
  }
}

static uint8_t rd8(vt_device *d, uint32_t a) { return (uint8_t)(rd32(d, a & ~3u) >> (8 * (a & 3))); }

/* lane i: src = DATA + 3 + 20 i (byte-aligned), dst = LDS + 0x101 + 20 i,
 * srcsize = S[i]; then 24 bytes per lane are copied back to DATA + 0x400 */
static void check_cp_dma(const char *mn, uint32_t size) {
  enum { NT = 4 };
  static const uint32_t S[NT] = {0, 1, 3, 4};
  uint32_t s[NT];
  for (int i = 0; i < NT; i++) s[i] = S[i] * size / 4; /* 0, size/4, 3size/4, size */
  vt_device *d = ext_dev(2025);
  fill_source(d);
  for (int i = 0; i < NT; i++) wr32(d, DATA_BASE + 0x300 + 4 * i, s[i]);
  char src[2048];
  snprintf(src, sizeof src,
           "vid.v v1\nli t0, 20\nvmul.vx v1, v1, t0\n"
           "li t0, 0x90000003\nvadd.vx v2, v1, t0\n"          /* sources */
           "li t0, 0x70000101\nvadd.vx v3, v1, t0\n"          /* local destinations */
           "vid.v v5\nvsll.vi v5, v5, 2\nli t0, 0x90000300\nvadd.vx v5, v5, t0\n"
           "vlw12.v v4, 0(v5)\n"                              /* srcsize */
           "%s v3, v2, v4\n"
           /* copy 24 bytes of each lane's local area back, byte by byte */
           "li t0, 0x90000400\nvadd.vx v6, v1, t0\n"
           "li t1, 0\nli t2, 24\n"
           "1: vlbu12.v v7, 0(v3)\nvsb12.v v7, 0(v6)\n"
           "vadd.vi v3, v3, 1\nvadd.vi v6, v6, 1\naddi t1, t1, 1\nblt t1, t2, 1b\n"
           "endprg x0, x0, x0\n",
           mn);
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, NT, &e)) fail_msg("%s: %s", mn, e.msg);
  for (uint32_t i = 0; i < NT; i++)
    for (uint32_t b = 0; b < 20; b++) { /* 20: the lanes' areas do not overlap */
      uint8_t got = rd8(d, DATA_BASE + 0x400 + 20 * i + b);
      uint8_t want = b < s[i] ? pattern(3 + 20 * i + b) : 0; /* zero fill, and untouched local = 0 */
      if (got != want) fail_msg("%s lane %u byte %u: 0x%02x, expected 0x%02x", mn, i, b, got, want);
    }
  vt_device_destroy(d);
}

static void test_cp_dma_sizes(void **state) {
  (void)state;
  check_cp_dma("cp_dma.4", 4);
  check_cp_dma("cp_dma.8", 8);
  check_cp_dma("cp_dma.16", 16);
}

/* zero fill overwrites what was there: the local bytes are set first */
static void test_cp_dma_zero_fill_overwrites(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  fill_source(d);
  const char *src = "li t0, 0x70000000\nvmv.v.x v3, t0\nli t1, -1\nvmv.v.x v9, t1\n"
                    "vsw12.v v9, 0(v3)\nvsw12.v v9, 4(v3)\n"
                    "li t0, 0x90000000\nvmv.v.x v2, t0\nvmv.v.i v4, 5\n"
                    "cp_dma.8 v3, v2, v4\n"
                    "vlw12.v v10, 0(v3)\nvlw12.v v11, 4(v3)\n"
                    "li t0, 0x90000500\nvmv.v.x v12, t0\nvsw12.v v10, 0(v12)\nvsw12.v v11, 4(v12)\n"
                    "endprg x0, x0, x0\n";
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, 1, &e)) fail_msg("%s", e.msg);
  assert_int_equal(rd32(d, DATA_BASE + 0x500), rd32(d, DATA_BASE));
  assert_int_equal(rd32(d, DATA_BASE + 0x504), (uint32_t)pattern(4)); /* bytes 5..7 zero */
  vt_device_destroy(d);
}

static void test_cp_dma_bulk(void **state) {
  (void)state;
  static const uint32_t sizes[] = {4, 16, 68, 256};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
    vt_device *d = ext_dev(2025);
    fill_source(d);
    char src[1024];
    snprintf(src, sizeof src,
             "li a0, 0x90000000\nli a1, 0x70000010\nli a2, %u\n"
             "cp_dma_bulk a2, a0, a1\n"
             "li t1, 0\nli t0, 0x90000800\n"
             "1: lw t2, 0(a1)\nsw t2, 0(t0)\naddi a1, a1, 4\naddi t0, t0, 4\naddi t1, t1, 4\n"
             "li t3, 260\nblt t1, t3, 1b\n"
             "endprg x0, x0, x0\n",
             sizes[k]);
    vt_error e = {0};
    if (ext_run(d, ISA_REV_2025, src, 1, &e)) fail_msg("%u: %s", sizes[k], e.msg);
    for (uint32_t b = 0; b < 260; b++) {
      uint8_t want = b < sizes[k] ? pattern(b) : 0;
      assert_int_equal(rd8(d, DATA_BASE + 0x800 + b), want);
    }
    vt_device_destroy(d);
  }
}

static void expect_fault(const char *src, uint32_t nt, vt_err_kind k, const char *what) {
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, src, nt, &e), -1);
  assert_int_equal(e.kind, k);
  if (!strstr(e.msg, what)) fail_msg("got '%s', expected '%s'", e.msg, what);
  vt_device_destroy(d);
}

static void test_dma_errors(void **state) {
  (void)state;
  expect_fault("li t0, 0x70000000\nvmv.v.x v3, t0\nli t0, 0x90000000\nvmv.v.x v2, t0\n"
               "vid.v v4\nvadd.vi v4, v4, 8\ncp_dma.8 v3, v2, v4\nendprg x0, x0, x0\n",
               2, VT_ERR_ILLEGAL, "cp_dma: srcsize 9 is larger than the copy size 8");
  expect_fault("li t0, 0x90000100\nvmv.v.x v3, t0\nli t0, 0x90000000\nvmv.v.x v2, t0\n"
               "vmv.v.i v4, 4\ncp_dma.4 v3, v2, v4\nendprg x0, x0, x0\n",
               1, VT_ERR_UNMAPPED, "cp_dma destination 0x90000100 (+4 bytes) is not in local memory");
  expect_fault("li a0, 0x90000000\nli a1, 0x70000000\nli a2, 6\ncp_dma_bulk a2, a0, a1\nendprg x0, x0, x0\n",
               1, VT_ERR_ILLEGAL, "cp_dma_bulk: size 6 is not a multiple of 4 from 4 to 2^32 - 4");
  expect_fault("li a0, 0x90000000\nli a1, 0x70000000\nli a2, 0\ncp_dma_bulk a2, a0, a1\nendprg x0, x0, x0\n",
               1, VT_ERR_ILLEGAL, "cp_dma_bulk: size 0 is not a multiple of 4");
  expect_fault("li a0, 0x90000004\nli a1, 0x70000000\nli a2, 16\ncp_dma_bulk a2, a0, a1\nendprg x0, x0, x0\n",
               1, VT_ERR_MISALIGNED, "must be 16-byte aligned");
  /* the whole destination must fit the window: 0x7ffffff0 + 32 runs past it */
  expect_fault("li a0, 0x90000000\nli a1, 0x7ffffff0\nli a2, 32\ncp_dma_bulk a2, a0, a1\nendprg x0, x0, x0\n",
               1, VT_ERR_UNMAPPED, "cp_dma_bulk destination 0x7ffffff0 (+32 bytes) is not in local memory");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cp_dma_sizes),
      cmocka_unit_test(test_cp_dma_zero_fill_overwrites),
      cmocka_unit_test(test_cp_dma_bulk),
      cmocka_unit_test(test_dma_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
