/* ISA 2025 prefixes and address spaces (docs/isa-extensions.md): PREFIX
 * ABS/NEG on src1..src3 (integer, fp, vector), its register extension;
 * PREFIX_MEMORY spaces and 64/96/128-bit widths on the next memory
 * instruction only; the global/local/private families and the flat
 * custom-3 address check. Expected values are computed here from the
 * inputs (C arithmetic, the seed's private formula). */
#include <math.h>

#include "isaext_prog.h"

#define PDS (DATA_BASE + 0x80000u) /* mklaunch's private base: CSR_PDS of group 0 */

static void run25(vt_device *d, const char *src, uint32_t nt) {
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s", e.msg);
}

static uint32_t f2u(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}

static void test_prefix_scalar(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  const char *src = "li s0, 0x90000000\n"
                    "li a0, 7\nli a1, -5\n"
                    "prefix 0, 0, 0, 1\nadd a2, a0, a1\nsw a2, 0(s0)\n"   /* -7 + -5 */
                    "prefix 0, 0, 2, 0\nsub a2, a0, a1\nsw a2, 4(s0)\n"   /* 7 - |-5| */
                    "prefix 0, 0, 1, 1\nadd a2, a1, zero\nsw a2, 8(s0)\n" /* -|-5| */
                    "prefix 0, 0, 0, 3\nmul a2, a0, a1\nsw a2, 12(s0)\n"  /* -7 * 5 */
                    "prefix 0, 0, 0, 1\nadd a0, a0, a1\nsw a0, 16(s0)\n"  /* rd = src1 */
                    "sw a1, 20(s0)\n"                                    /* a1 restored */
                    "li a3, 0x80000000\n"
                    "prefix 0, 0, 1, 0\naddi a2, a3, 0\nsw a2, 24(s0)\n"  /* |INT_MIN| */
                    "sw a3, 28(s0)\n"
                    "prefix 0, 0, 0, 2\naddi a2, a0, 3\nsw a2, 32(s0)\n"  /* src2 = immediate: void */
                    /* register extension: rs1 field 10 + (1 << 5) = x42 */
                    "li x42, 100\n"
                    "prefix 8, 0, 0, 1\nadd a2, x42, a1\nsw a2, 36(s0)\n" /* -100 + -5 */
                    /* fp (zfinx): neg src2 of fadd is a subtraction, abs src1 */
                    "li a4, 0x40400000\nli a5, 0xbfc00000\n"              /* 3.0, -1.5 */
                    "prefix 0, 0, 0, 2\nfadd.s a2, a4, a5\nsw a2, 40(s0)\n"
                    "prefix 0, 0, 2, 0\nfmul.s a2, a4, a5\nsw a2, 44(s0)\n"
                    "li a6, 0x3f800000\n"                                 /* 1.0 */
                    "prefix 0, 0, 0, 4\nfmadd.s a2, a4, a5, a6\nsw a2, 48(s0)\n" /* 3*-1.5 - 1 */
                    "prefix 0, 0, 0, 1\nlw a2, 0(s0)\nsw a2, 52(s0)\n"   /* a load: void */
                    "endprg x0, x0, x0\n";
  run25(d, src, 1);
  int32_t a0 = 7, a1 = -5;
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 0), -a0 + a1);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 4), a0 - 5);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 8), -5);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 12), -a0 * 5);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 16), -a0 + a1);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 20), a1);
  assert_int_equal(rd32(d, DATA_BASE + 24), 0x80000000u);
  assert_int_equal(rd32(d, DATA_BASE + 28), 0x80000000u);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 32), -a0 + a1 + 3);
  assert_int_equal((int32_t)rd32(d, DATA_BASE + 36), -100 - 5);
  assert_int_equal(rd32(d, DATA_BASE + 40), f2u(3.0f - -1.5f));
  assert_int_equal(rd32(d, DATA_BASE + 44), f2u(3.0f * 1.5f));
  assert_int_equal(rd32(d, DATA_BASE + 48), f2u(3.0f * -1.5f - 1.0f));
  assert_int_equal(rd32(d, DATA_BASE + 52), rd32(d, DATA_BASE + 0));
  vt_device_destroy(d);
}

/* vector: NEG on vs1 of vadd.vv, ABS on vs2 of vfmul.vv, lanes outside the
 * SIMT mask of a vd that is also a source keep their values */
static void test_prefix_vector(void **state) {
  (void)state;
  enum { NT = 4 };
  static const int32_t A[NT] = {1, -2, 3, -4};
  static const float F[NT] = {-1.5f, 2.0f, -0.0f, 8.25f};
  vt_device *d = ext_dev(2025);
  for (uint32_t i = 0; i < NT; i++) {
    wr32(d, DATA_BASE + 4 * i, (uint32_t)A[i]);
    wr32(d, DATA_BASE + 0x10 + 4 * i, f2u(F[i]));
  }
  const char *src = "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
                    "vlw12.v v2, 0(v1)\nvlw12.v v3, 0x10(v1)\n"
                    "vmv.v.i v4, 10\n"
                    "prefix 0, 0, 0, 1\nvadd.vv v5, v4, v2\n"  /* vs2 + (-vs1) */
                    "vmv.v.v v13, v3\n"
                    "prefix 0, 0, 2, 0\nvfmul.vv v6, v3, v13\n" /* |vs2| * vs1 */
                    "prefix 0, 0, 0, 2\nvadd.vx v7, v2, zero\n" /* -vs2 */
                    "vsw12.v v5, 0x100(v1)\nvsw12.v v6, 0x120(v1)\nvsw12.v v7, 0x140(v1)\n"
                    "vsw12.v v2, 0x160(v1)\n"                  /* v2 restored */
                    "endprg x0, x0, x0\n";
  run25(d, src, NT);
  for (uint32_t i = 0; i < NT; i++) {
    assert_int_equal((int32_t)rd32(d, DATA_BASE + 0x100 + 4 * i), 10 - A[i]);
    assert_int_equal(rd32(d, DATA_BASE + 0x120 + 4 * i), f2u(fabsf(F[i]) * F[i]));
    assert_int_equal((int32_t)rd32(d, DATA_BASE + 0x140 + 4 * i), -A[i]);
    assert_int_equal((int32_t)rd32(d, DATA_BASE + 0x160 + 4 * i), A[i]);
  }
  vt_device_destroy(d);
}

static void test_prefix_conflict(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, "prefix 0, 0, 0, 1\nadd a2, a0, a0\nendprg x0, x0, x0\n", 1, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "the prefix gives x10 different ABS/NEG modifiers as two sources"));
  vt_device_destroy(d);
  /* the same modifiers on both: fine, -a0 + -a0 */
  d = ext_dev(2025);
  run25(d, "li a0, 4\nprefix 0, 0, 0, 3\nadd a2, a0, a0\nli s0, 0x90000000\nsw a2, 0(s0)\nsw a0, 4(s0)\nendprg x0, x0, x0\n", 1);
  assert_int_equal((int32_t)rd32(d, DATA_BASE), -8);
  assert_int_equal(rd32(d, DATA_BASE + 4), 4u);
  vt_device_destroy(d);
}

/* private word a of lane t (one warp of NT threads, TID 0) */
static uint32_t priv_addr(uint32_t a, uint32_t t, uint32_t nt) {
  return PDS + (a & ~3u) * 1 * nt + t * 4 + (a & 3);
}

/* the three families and the flat check: a store through each, checked in
 * host memory at the address its formula gives */
static void test_address_spaces(void **state) {
  (void)state;
  enum { NT = 4 };
  vt_device *d = ext_dev(2025);
  const char *src = "vid.v v1\nvadd.vi v2, v1, 1\n"          /* data: lane + 1 */
                    "vsll.vi v1, v1, 2\n"                       /* lane * 4 */
                    "li t0, 0x90000000\nvadd.vx v3, v1, t0\n"   /* global addresses */
                    "vsw_global.v v2, 0x40(v3)\n"               /* DATA + 0x40 + 4t */
                    "vmv.v.i v4, 0\n"
                    "vsw_private.v v2, 8(v4)\n"                  /* private word 8 */
                    "vadd.vi v5, v2, 10\n"
                    "vsw12.v v5, 16(v4)\n"                       /* flat: bits 31:24 = 0: private word 16 */
                    "vsw_local.v v2, 0x20(v1)\n"                 /* local + 0x20 + 4t */
                    "vlw_local.v v6, 0x20(v1)\n"
                    "li t1, 0x70000000\nvadd.vx v7, v1, t1\n"
                    "vlw12.v v8, 0x20(v7)\n"                     /* flat: the local window */
                    "vsw12.v v6, 0x80(v3)\nvsw12.v v8, 0xa0(v3)\n"
                    "vlw_private.v v9, 16(v4)\n"
                    "vsw_global.v v9, 0xc0(v3)\n"
                    "vlbu_global.v v10, 0x41(v3)\nvsw12.v v10, 0xe0(v3)\n"
                    "endprg x0, x0, x0\n";
  run25(d, src, NT);
  for (uint32_t t = 0; t < NT; t++) {
    assert_int_equal(rd32(d, DATA_BASE + 0x40 + 4 * t), t + 1);
    assert_int_equal(rd32(d, priv_addr(8, t, NT)), t + 1);
    assert_int_equal(rd32(d, priv_addr(16, t, NT)), t + 11);
    assert_int_equal(rd32(d, DATA_BASE + 0x80 + 4 * t), t + 1);
    assert_int_equal(rd32(d, DATA_BASE + 0xa0 + 4 * t), t + 1);
    assert_int_equal(rd32(d, DATA_BASE + 0xc0 + 4 * t), t + 11);
    assert_int_equal(rd32(d, DATA_BASE + 0xe0 + 4 * t), 0u); /* byte 1 of a small word */
  }
  vt_device_destroy(d);
}

/* PREFIX_MEMORY: spaces and 64/96/128-bit widths into consecutive registers,
 * on the next memory instruction only */
static void test_prefix_memory(void **state) {
  (void)state;
  enum { NT = 2 };
  vt_device *d = ext_dev(2025);
  for (uint32_t k = 0; k < 16; k++) wr32(d, DATA_BASE + 0x200 + 4 * k, 0x1000u + k);
  const char *src = "vid.v v1\nvsll.vi v1, v1, 4\n"               /* lane * 16 */
                    "li t0, 0x90000000\nvadd.vx v3, v1, t0\n"
                    "pre_m_global_128 0, 0, 0\nvlw12.v v8, 0x200(v3)\n" /* v8..v11 */
                    "pre_m_private_128 0, 0, 0\nvsw12.v v8, 0x100(v1)\n" /* private words 0x100.. */
                    "vmv.v.i v0, 0\n"
                    "pre_m_private_64 0, 0, 0\nvlw12.v v12, 0x108(v1)\n" /* words 3rd, 4th */
                    "vsw12.v v12, 0x300(v3)\nvsw12.v v13, 0x380(v3)\n"
                    "pre_m_local_96 0, 0, 1\nvsw12.v v8, 0x40(v1)\n"    /* local, cache hint 1 */
                    "li t1, 0x70000040\nvadd.vx v14, v1, t1\n"
                    "vlw12.v v15, 8(v14)\nvsw12.v v15, 0x400(v3)\n"   /* the 3rd word */
                    "vlw12.v v16, 12(v14)\nvsw12.v v16, 0x480(v3)\n"  /* not written: 0 */
                    "li s0, 0x90000000\n"
                    "pre_m_96 0, 0, 0\nlw a2, 0x204(s0)\n"             /* a2, a3, a4 */
                    "sw a2, 0x500(s0)\nsw a3, 0x504(s0)\nsw a4, 0x508(s0)\n"
                    "pre_m_64 0, 0, 0\naddi a5, zero, 9\n"             /* not memory: void */
                    "lw a6, 0x200(s0)\n"                               /* the prefix is gone */
                    "sw a5, 0x50c(s0)\nsw a6, 0x510(s0)\nsw a7, 0x514(s0)\n"
                    "endprg x0, x0, x0\n";
  vt_error e = {0};
  /* a7 must still hold its launch value after the plain lw */
  run25(d, src, NT);
  (void)e;
  for (uint32_t t = 0; t < NT; t++) {
    /* lane t loaded words t*4 .. t*4+3 of the table into v8..v11 */
    for (uint32_t k = 0; k < 4; k++)
      assert_int_equal(rd32(d, priv_addr(0x100 + 16 * t + 4 * k, t, NT)), 0x1000u + 4 * t + k);
    assert_int_equal(rd32(d, DATA_BASE + 0x300 + 16 * t), 0x1000u + 4 * t + 2);
    assert_int_equal(rd32(d, DATA_BASE + 0x380 + 16 * t), 0x1000u + 4 * t + 3);
    assert_int_equal(rd32(d, DATA_BASE + 0x400 + 16 * t), 0x1000u + 4 * t + 2);
    assert_int_equal(rd32(d, DATA_BASE + 0x480 + 16 * t), 0u);
  }
  assert_int_equal(rd32(d, DATA_BASE + 0x500), 0x1001u);
  assert_int_equal(rd32(d, DATA_BASE + 0x504), 0x1002u);
  assert_int_equal(rd32(d, DATA_BASE + 0x508), 0x1003u);
  assert_int_equal(rd32(d, DATA_BASE + 0x50c), 9u);
  assert_int_equal(rd32(d, DATA_BASE + 0x510), 0x1000u);
  assert_int_equal(rd32(d, DATA_BASE + 0x514), 0u); /* a7 untouched */
  vt_device_destroy(d);
}

static void expect_fault(const char *src, vt_err_kind k, const char *what) {
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, src, 1, &e), -1);
  assert_int_equal(e.kind, k);
  if (!strstr(e.msg, what)) fail_msg("got '%s', expected '%s'", e.msg, what);
  vt_device_destroy(d);
}

static void test_prefix_memory_errors(void **state) {
  (void)state;
  expect_fault("li s0, 0x90000000\npre_m_64 0, 0, 0\nlb a0, 0(s0)\nendprg x0, x0, x0\n",
               VT_ERR_ILLEGAL, "a 64/96/128-bit access needs a word load or store");
  /* pre_m_128 7, 0, 0; vlw12.v v254, 0(v1) as raw words: the assembler
   * refuses the pair (asm_fit.c), the device must still */
  expect_fault("li s0, 0x90000000\n.word 0x00700186\n.word 0x0000af7b\nendprg x0, x0, x0\n",
               VT_ERR_ILLEGAL, "the data registers of a wide access run past register 255");
  /* pair = 1: the base {v3, v2} is 64-bit */
  expect_fault("li t0, 0x90000000\nvmv.v.x v2, t0\nvmv.v.i v3, 2\n"
               "pre_m_global_32 0, 1, 0\nvlw12.v v4, 0(v2)\nendprg x0, x0, x0\n",
               VT_ERR_UNMAPPED, "64-bit address 0x0000000290000000 is beyond");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prefix_scalar),
      cmocka_unit_test(test_prefix_vector),
      cmocka_unit_test(test_prefix_conflict),
      cmocka_unit_test(test_address_spaces),
      cmocka_unit_test(test_prefix_memory),
      cmocka_unit_test(test_prefix_memory_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
