/* ISA 2025 register pairs (docs/isa-extensions.md): RV64I W forms on x
 * pairs, ld/sd and RV64A with pair addresses, RVV widening into v pairs,
 * and the regpair prefix on loads/stores. Expectations are 64-bit C
 * arithmetic on the same inputs, or hand-computed constants. */
#include "isaext_prog.h"

/* Scalar results are stored with sw from the pair registers to DATA. */
static uint64_t pair_at(vt_device *d, uint32_t off) {
  return (uint64_t)rd32(d, DATA_BASE + off + 4) << 32 | rd32(d, DATA_BASE + off);
}

static void run25(vt_device *d, const char *src, uint32_t nt) {
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s", e.msg);
}

/* li a pair: x<r> = lo, x<r+1> = hi */
#define LI2(r, lo, hi) "li x" #r ", " #lo "\nli x" #r "+1, " #hi "\n"

static void test_rv64i_pairs(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  const char *src = "li s0, 0x90000000\n"
                    "li x10, 0xffffffff\nli x11, 1\n"   /* A = 0x1_ffffffff */
                    "li x12, 1\nli x13, 0\n"            /* B = 1 */
                    "li x16, 0\nli x17, 0x80000000\n"   /* C = 0x80000000_00000000 */
                    "li x18, 3\nli x19, 0\n"            /* D = 3 */
                    "li x20, 36\nli x21, 0x12345\n"     /* shift 36 (high word ignored) */
                    "li x22, 65\nli x23, 0\n"           /* shift 65 = 1 mod 64 */
                    "addw x24, x10, x12\nsw x24, 0(s0)\nsw x25, 4(s0)\n"
                    "subw x24, x13, x12\n"              /* x13 odd: see below, not used */
                    "subw x24, x18, x10\nsw x24, 8(s0)\nsw x25, 12(s0)\n"
                    "sllw x24, x18, x20\nsw x24, 16(s0)\nsw x25, 20(s0)\n"
                    "srlw x24, x16, x22\nsw x24, 24(s0)\nsw x25, 28(s0)\n"
                    "sraw x24, x16, x20\nsw x24, 32(s0)\nsw x25, 36(s0)\n"
                    "addiw x24, x12, -2\nsw x24, 40(s0)\nsw x25, 44(s0)\n"
                    "li x26, 0\nli x27, 1\n"
                    "addiw x24, x26, -1\nsw x24, 48(s0)\nsw x25, 52(s0)\n"
                    "slliw x24, x12, 31\nsw x24, 56(s0)\nsw x25, 60(s0)\n"
                    "srliw x24, x16, 31\nsw x24, 64(s0)\nsw x25, 68(s0)\n"
                    "sraiw x24, x16, 31\nsw x24, 72(s0)\nsw x25, 76(s0)\n"
                    "addw x0, x10, x10\n"               /* the zero pair discards */
                    "addw x24, x0, x10\nsw x24, 80(s0)\nsw x25, 84(s0)\n"
                    "sw x1, 88(s0)\n"
                    "endprg x0, x0, x0\n";
  /* "subw x24, x13, x12" names an odd pair: the assembler refuses it */
  uint32_t w[4];
  vt_error e = {0};
  assert_int_equal(asm_words_rev("subw x24, x13, x12\n", CODE_BASE, ISA_REV_2025, w, 4, &e), -1);
  assert_non_null(strstr(e.msg, "register 13 is odd"));
  char *fixed = strdup(src);
  char *p = strstr(fixed, "subw x24, x13, x12\n");
  memset(p, ' ', strlen("subw x24, x13, x12")); /* blank it out */
  run25(d, fixed, 1);
  free(fixed);
  const uint64_t A = 0x1ffffffffull, B = 1, C = 0x8000000000000000ull, D = 3;
  assert_true(pair_at(d, 0) == A + B);                    /* carry into the high word */
  assert_true(pair_at(d, 0) == 0x200000000ull);
  assert_true(pair_at(d, 8) == D - A);                    /* borrow: 0xfffffffe_00000004 */
  assert_true(pair_at(d, 8) == 0xfffffffe00000004ull);
  assert_true(pair_at(d, 16) == D << 36);                 /* 0x30_00000000 */
  assert_true(pair_at(d, 24) == C >> 1);                  /* 65 mod 64 = 1 */
  assert_true(pair_at(d, 32) == 0xfffffffff8000000ull);   /* arithmetic >> 36: -2^27 */
  assert_true(pair_at(d, 40) == 0xffffffffffffffffull);   /* 1 + sext(-2) */
  assert_true(pair_at(d, 48) == 0x00000000ffffffffull);   /* 0x1_00000000 - 1 */
  assert_true(pair_at(d, 56) == 0x0000000080000000ull);   /* not sign-extended as in RV64 */
  assert_true(pair_at(d, 64) == 0x0000000100000000ull);
  assert_true(pair_at(d, 72) == 0xffffffff00000000ull);
  assert_true(pair_at(d, 80) == A);                       /* x0 pair reads as 0 */
  vt_device_destroy(d);
}

static void test_ld_sd_amo_pairs(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  wr32(d, DATA_BASE + 0x100, 0x11111111u);
  wr32(d, DATA_BASE + 0x200, 40u);
  const char *src = "li x10, 0x900000f0\nli x11, 0\n"       /* pair address, offset +16 */
                    "ld x5, 16(x10)\n"
                    "li s0, 0x90000000\nsw x5, 0(s0)\n"
                    "li x6, 0x2222\n"
                    "sd x6, 20(x10)\n"                       /* M[0x90000104] = 0x2222 */
                    "li x12, 0x90000200\nli x13, 0\n"
                    "li x7, 2\n"
                    "amoadd.d x28, x7, (x12)\nsw x28, 4(s0)\n" /* old 40, M = 42 */
                    "lr.d x9, (x12)\n"
                    "addi x9, x9, 1\n"
                    "sc.d x14, x9, (x12)\nsw x14, 8(s0)\n"   /* 0 = success, M = 43 */
                    "li x13, 1\n"                            /* a high word: beyond 32 bits */
                    "amoswap.d x28, x7, (x12)\n"
                    "endprg x0, x0, x0\n";
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, src, 1, &e), -1);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  if (!strstr(e.msg, "64-bit address 0x0000000190000200 is beyond")) fail_msg("%s", e.msg);
  assert_int_equal(rd32(d, DATA_BASE), 0x11111111u);
  assert_int_equal(rd32(d, DATA_BASE + 0x104), 0x2222u);
  assert_int_equal(rd32(d, DATA_BASE + 4), 40u);
  assert_int_equal(rd32(d, DATA_BASE + 8), 0u);
  assert_int_equal(rd32(d, DATA_BASE + 0x200), 43u);
  vt_device_destroy(d);
}

/* An odd pair register in a hand-made word faults on each pair kind. */
static void test_odd_pairs_fault(void **state) {
  (void)state;
  static const struct {
    uint32_t w;
    const char *msg;
  } cases[] = {
      {0x00c5873bu | (1u << 7), "x15 is odd"},  /* addw x15, x10, x12 */
      {0x00c5873bu | (1u << 15), "x11 is odd"}, /* addw x14, x11, x12 */
      {0x0005b283u, "x11 is odd"},             /* ld x5, 0(x11) */
      {0xc0c020d7u | (1u << 7), "v1 is odd"},   /* vwadd.vv v1, v12, v0: vd odd */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    vt_device *d = ext_dev(2025);
    char src[64];
    snprintf(src, sizeof src, ".word 0x%08x\nendprg x0, x0, x0\n", cases[i].w);
    vt_error e = {0};
    assert_int_equal(ext_run(d, ISA_REV_2025, src, 1, &e), -1);
    assert_int_equal(e.kind, VT_ERR_ILLEGAL);
    if (!strstr(e.msg, cases[i].msg)) fail_msg("0x%08x: '%s'", cases[i].w, e.msg);
    vt_device_destroy(d);
  }
}

/* Widening: lane i gets a = A[i], b = B[i] in v2/v4 and 64-bit pairs
 * P[i] in {v7, v6}; results stored per lane from pairs. */
static void test_widening(void **state) {
  (void)state;
  enum { NT = 4 };
  static const uint32_t A[NT] = {0xffffffffu, 0x80000000u, 7u, 0x7fffffffu};
  static const uint32_t B[NT] = {0xffffffffu, 0x80000000u, 0xfffffff9u, 2u};
  static const uint64_t P[NT] = {0xffffffffffffffffull, 0x00000001ffffffffull, 5ull,
                                 0x8000000000000000ull};
  vt_device *d = ext_dev(2025);
  for (uint32_t i = 0; i < NT; i++) {
    wr32(d, DATA_BASE + 4 * i, A[i]);
    wr32(d, DATA_BASE + 0x20 + 4 * i, B[i]);
    wr32(d, DATA_BASE + 0x40 + 4 * i, (uint32_t)P[i]);
    wr32(d, DATA_BASE + 0x60 + 4 * i, (uint32_t)(P[i] >> 32));
  }
  /* v1 = lane byte offsets; results k at 0x400 + 0x40*k: low words, then
   * high words at +0x20 */
  const char *src = "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
                    "vlw12.v v2, 0(v1)\nvlw12.v v4, 0x20(v1)\n"
                    "vlw12.v v6, 0x40(v1)\nvlw12.v v7, 0x60(v1)\n"
                    "li t1, -3\n"
                    "vwadd.vv v10, v2, v4\n"   /* 0 */
                    "vwaddu.vv v12, v2, v4\n"  /* 1 */
                    "vwsub.vx v14, v2, t1\n"   /* 2: a - (-3) */
                    "vwsubu.vx v16, v2, t1\n"  /* 3: a - 0xfffffffd */
                    "vwadd.wv v18, v6, v6\n"   /* 4: P + P */
                    "vwsub.wx v20, v6, t1\n"   /* 5: P - (-3) */
                    "vwaddu.wx v22, v6, t1\n"  /* 6: P + 0xfffffffd */
                    "vwmul.vv v24, v2, v4\n"   /* 7 */
                    "vwmulu.vv v26, v2, v4\n"  /* 8 */
                    "vwmulsu.vv v28, v2, v4\n" /* 9: signed a * unsigned b */
                    "vmv.v.v v30, v6\nvmv.v.v v31, v7\n"
                    "vwmacc.vv v30, v2, v4\n"  /* 10: P + sa*sb */
                    "vwsub.wv v32, v6, v10\n"  /* 11: P - (sa+sb) */
                    "vsw12.v v10, 0x400(v1)\nvsw12.v v11, 0x420(v1)\n"
                    "vsw12.v v12, 0x440(v1)\nvsw12.v v13, 0x460(v1)\n"
                    "vsw12.v v14, 0x480(v1)\nvsw12.v v15, 0x4a0(v1)\n"
                    "vsw12.v v16, 0x4c0(v1)\nvsw12.v v17, 0x4e0(v1)\n"
                    "vsw12.v v18, 0x500(v1)\nvsw12.v v19, 0x520(v1)\n"
                    "vsw12.v v20, 0x540(v1)\nvsw12.v v21, 0x560(v1)\n"
                    "vsw12.v v22, 0x580(v1)\nvsw12.v v23, 0x5a0(v1)\n"
                    "vsw12.v v24, 0x5c0(v1)\nvsw12.v v25, 0x5e0(v1)\n"
                    "vsw12.v v26, 0x600(v1)\nvsw12.v v27, 0x620(v1)\n"
                    "vsw12.v v28, 0x640(v1)\nvsw12.v v29, 0x660(v1)\n"
                    "vsw12.v v30, 0x680(v1)\nvsw12.v v31, 0x6a0(v1)\n"
                    "vsw12.v v32, 0x6c0(v1)\nvsw12.v v33, 0x6e0(v1)\n"
                    "endprg x0, x0, x0\n";
  run25(d, src, NT);
  for (uint32_t i = 0; i < NT; i++) {
    int64_t sa = (int32_t)A[i], sb = (int32_t)B[i];
    uint64_t ua = A[i], ub = B[i];
    uint64_t want[12] = {
        (uint64_t)(sa + sb),
        ua + ub,
        (uint64_t)(sa + 3),
        ua - 0xfffffffdull,
        P[i] + P[i],
        P[i] + 3,
        P[i] + 0xfffffffdull,
        (uint64_t)(sa * sb),
        ua * ub,
        (uint64_t)sa * ub,
        P[i] + (uint64_t)(sa * sb),
        P[i] - (uint64_t)(sa + sb),
    };
    for (int k = 0; k < 12; k++) {
      uint64_t got = (uint64_t)rd32(d, DATA_BASE + 0x420 + 0x40 * k + 4 * i) << 32 |
                     rd32(d, DATA_BASE + 0x400 + 0x40 * k + 4 * i);
      if (got != want[k])
        fail_msg("result %d lane %u: 0x%016llx, expected 0x%016llx", k, i, (unsigned long long)got,
                 (unsigned long long)want[k]);
    }
  }
  vt_device_destroy(d);
}

/* regpair: the next load/store's even registers are pairs, odd ones stay
 * 32-bit (seed 001 §4.2): lw into a pair reads two words, sw from a pair
 * writes two, vlw12.v takes a 64-bit base from {v5, v4}. */
static void test_regpair_prefix(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  wr32(d, DATA_BASE + 0x10, 0xaaaa0001u);
  wr32(d, DATA_BASE + 0x14, 0xbbbb0002u);
  /* the base x10 is even, so under regpair it is the pair {x11, x10} */
  const char *src = "li x10, 0x90000000\nli x11, 0\n"
                    "regpair zero, zero, 0\nlw x12, 0x10(x10)\n" /* x12, x13 */
                    "sw x12, 0x40(x10)\nsw x13, 0x44(x10)\n"
                    "regpair zero, zero, 0\nsw x12, 0x80(x10)\n" /* two words */
                    "regpair zero, zero, 0\nlw x15, 0x10(x10)\n" /* odd rd: one word */
                    "li x16, 0\nli x17, 0\n"
                    "regpair zero, zero, 0\nsw x15, 0x90(x10)\n"
                    "li x9, 0x90000010\nli x10, 0x5555\n"        /* odd base: 32-bit */
                    "regpair zero, zero, 0\nlw x20, 0(x9)\n"
                    "li x10, 0x90000000\n"
                    "sw x20, 0xb0(x10)\nsw x21, 0xb4(x10)\n"
                    "vmv.v.x v4, x10\nvmv.v.i v5, 0\n"
                    "regpair zero, zero, 0\nvlw12.v v6, 0x14(v4)\n" /* v6, v7 */
                    "vsw12.v v6, 0xa0(v4)\nvsw12.v v7, 0xa4(v4)\n"
                    "vmv.v.i v5, 1\n"
                    "regpair zero, zero, 0\nvlw12.v v9, 0x10(v4)\n" /* base 64-bit: faults */
                    "endprg x0, x0, x0\n";
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, src, 1, &e), -1);
  if (!strstr(e.msg, "64-bit address 0x0000000190000010 is beyond")) fail_msg("%s", e.msg);
  assert_int_equal(rd32(d, DATA_BASE + 0x40), 0xaaaa0001u);
  assert_int_equal(rd32(d, DATA_BASE + 0x44), 0xbbbb0002u);
  assert_int_equal(rd32(d, DATA_BASE + 0x80), 0xaaaa0001u);
  assert_int_equal(rd32(d, DATA_BASE + 0x84), 0xbbbb0002u);
  assert_int_equal(rd32(d, DATA_BASE + 0x90), 0xaaaa0001u);
  assert_int_equal(rd32(d, DATA_BASE + 0x94), 0u); /* x15 odd: one word stored */
  assert_int_equal(rd32(d, DATA_BASE + 0xa0), 0xbbbb0002u);
  assert_int_equal(rd32(d, DATA_BASE + 0xa4), 0u); /* word at 0x18 was 0 */
  assert_int_equal(rd32(d, DATA_BASE + 0xb0), 0xaaaa0001u);
  assert_int_equal(rd32(d, DATA_BASE + 0xb4), 0xbbbb0002u);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rv64i_pairs),
      cmocka_unit_test(test_ld_sd_amo_pairs),
      cmocka_unit_test(test_odd_pairs_fault),
      cmocka_unit_test(test_widening),
      cmocka_unit_test(test_regpair_prefix),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
