/* ISA revision switch (docs/isa-extensions.md): the encodings the 2025
 * revision reuses decode per revision, each revision's assembler refuses the
 * other's instructions, and the 64-bit-address loads/stores (vlb12d.v ..
 * vsb12d.v) compute {vs1+1, vs1} + offset without wrapping. */
#include "isaext_prog.h"

static void test_collisions_decode_per_revision(void **state) {
  (void)state;
  static const struct {
    uint32_t w;
    isa_id base, rev25;
    int32_t imm25;
  } cases[] = {
      {0x0000202bu, ISA_vlw_v, ISA_vlw12d_v, 0},       /* vlw.v v0, 0(v0) */
      {0x8000202bu, ISA_vsw_v, ISA_vlw12d_v, -2048},   /* bit 31: store vs imm[11] */
      {0x8000002bu, ISA_vsb_v, ISA_vlb12d_v, -2048},
      {0x0000402bu, ISA_vlbu_v, ISA_vlbu12d_v, 0},
      {0x0000602bu, ISA_INVALID, ISA_vsw12d_v, 0},     /* funct3 110: free in the baseline */
      {0x0000702bu, ISA_INVALID, ISA_vsb12d_v, 0},
      {0x0000302bu, ISA_INVALID, ISA_vsh12d_v, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    isa_inst in;
    assert_int_equal(isa_decode_rev(cases[i].w, 0, ISA_REV_BASE, &in), cases[i].base);
    assert_int_equal(isa_decode(cases[i].w, 0, &in), cases[i].base); /* the default */
    assert_int_equal(isa_decode_rev(cases[i].w, 0, ISA_REV_2025, &in), cases[i].rev25);
    assert_int_equal(in.imm, cases[i].imm25);
  }
  char text[96];
  isa_inst in;
  isa_disasm_next_rev(0xffc120abu, 0, ISA_REV_2025, &in, text, sizeof text);
  assert_string_equal(text, "vlw12d.v v1, -4(v2)");
  /* the same word is a private store in the baseline (bit 31 = 1) */
  isa_disasm_next_rev(0xffc120abu, 0, ISA_REV_BASE, &in, text, sizeof text);
  assert_string_equal(text, "vsw.v v28, -31(v2)");
  isa_disasm_next_rev(0x004120abu, 0, ISA_REV_BASE, &in, text, sizeof text);
  assert_string_equal(text, "vlw.v v1, 4(v2)");
}

/* Every entry marked for one revision is absent from the other. */
static void test_revision_marks(void **state) {
  (void)state;
  int n25 = 0, nbase = 0;
  for (int id = 0; id < ISA_COUNT; id++) {
    uint32_t f = isa_table[id].flags;
    int islong = (f & IF_LONG) != 0; /* a 64-bit instruction is looked up by both words */
    isa_id b = islong ? isa_lookup64_rev(isa_table[id].match, isa_table[id].match_hi, ISA_REV_BASE)
                      : isa_lookup_rev(isa_table[id].match, ISA_REV_BASE);
    isa_id x = islong ? isa_lookup64_rev(isa_table[id].match, isa_table[id].match_hi, ISA_REV_2025)
                      : isa_lookup_rev(isa_table[id].match, ISA_REV_2025);
    if (f & IF_REV_2025) {
      n25++;
      assert_int_not_equal(b, id);
      assert_int_equal(x, id);
    } else if (f & IF_REV_BASE) {
      nbase++;
      assert_int_equal(b, id);
      assert_int_not_equal(x, id);
    } else {
      assert_int_equal(b, id);
      assert_int_equal(x, id);
    }
  }
  assert_int_equal(nbase, 8); /* the private loads/stores of custom-1 */
  assert_true(n25 >= 8);
}

static void expect_asm_error(isa_rev rev, const char *src, const char *what) {
  uint32_t w[8];
  vt_error e = {0};
  assert_int_equal(asm_words_rev(src, CODE_BASE, rev, w, 8, &e), -1);
  if (!strstr(e.msg, what)) fail_msg("'%s': got '%s', expected '%s'", src, e.msg, what);
}

static void test_assembler_per_revision(void **state) {
  (void)state;
  expect_asm_error(ISA_REV_BASE, "vlw12d.v v1, 0(v2)\n",
                   "'vlw12d.v' is an ISA 2025 instruction (assemble with --isa 2025)");
  expect_asm_error(ISA_REV_2025, "vlw.v v1, 0(v2)\n", "'vlw.v' is not in ISA revision 2025");
  expect_asm_error(ISA_REV_2025, "vsw12d.v v1, 0(v3)\n",
                   "register 3 is odd; a register pair starts at an even register");
  uint32_t w[4];
  vt_error e = {0};
  /* S-type offset: imm[11:5] at [31:25], imm[4:0] at [11:7]; funct3 110 */
  assert_int_equal(asm_words_rev("vsw12d.v v3, -1(v4)\n", CODE_BASE, ISA_REV_2025, w, 4, &e), 1);
  assert_int_equal(w[0], 0xfe000000u | 3u << 20 | 4u << 15 | 6u << 12 | 0x1fu << 7 | 0x2bu);
}

/* Lane i loads DATA+16+4i through {v3, v2} = {0, DATA+4i} and stores
 * word+1 at DATA+256+4i; the byte/half forms sign/zero-extend. */
static void test_vlw12d_vsw12d(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  for (uint32_t i = 0; i < 4; i++) wr32(d, DATA_BASE + 16 + 4 * i, 0x80f0a000u + i);
  const char *src = "vid.v v1\n"
                    "vsll.vi v1, v1, 2\n"
                    "li t0, 0x90000000\n"
                    "vadd.vx v2, v1, t0\n"
                    "vmv.v.i v3, 0\n"
                    "vlw12d.v v4, 16(v2)\n"
                    "vadd.vi v4, v4, 1\n"
                    "vsw12d.v v4, 256(v2)\n"
                    "vlb12d.v v5, 19(v2)\n"   /* byte 3 of each word: 0x80 */
                    "vlbu12d.v v6, 19(v2)\n"
                    "vlh12d.v v7, 18(v2)\n"   /* half 1: 0x80f0 */
                    "vlhu12d.v v8, 18(v2)\n"
                    "vsw12d.v v5, 512(v2)\n"
                    "vsw12d.v v6, 528(v2)\n"
                    "vsw12d.v v7, 544(v2)\n"
                    "vsw12d.v v8, 560(v2)\n"
                    "vsb12d.v v4, 1024(v2)\n"
                    "vsh12d.v v4, 1040(v2)\n"
                    "endprg x0, x0, x0\n";
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, 4, &e)) fail_msg("%s", e.msg);
  for (uint32_t i = 0; i < 4; i++) {
    assert_int_equal(rd32(d, DATA_BASE + 256 + 4 * i), 0x80f0a001u + i);
    assert_int_equal(rd32(d, DATA_BASE + 512 + 4 * i), 0xffffff80u);
    assert_int_equal(rd32(d, DATA_BASE + 528 + 4 * i), 0x80u);
    assert_int_equal(rd32(d, DATA_BASE + 544 + 4 * i), 0xffff80f0u);
    assert_int_equal(rd32(d, DATA_BASE + 560 + 4 * i), 0x80f0u);
  }
  /* vsb12d/vsh12d wrote the low byte/half of word+1 at lane addresses */
  assert_int_equal(rd32(d, DATA_BASE + 1024) & 0xff, 0x01u);
  assert_int_equal(rd32(d, DATA_BASE + 1040) & 0xffff, 0xa001u);
  vt_device_destroy(d);
}

/* {1, 0x10} - 32 borrows from the high word: 0xfffffff0, a mapped address */
static void test_pair_address_borrow(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(vt_mem_map(d, 0xffff0000u, 0x10000, VT_PERM_R | VT_PERM_W, &e), 0);
  wr32(d, 0xfffffff0u, 0x12345678u);
  const char *src = "vmv.v.i v2, 0x10\n"
                    "vmv.v.i v3, 1\n"
                    "vlw12d.v v4, -32(v2)\n"
                    "li t0, 0x90000000\n"
                    "vmv.v.x v6, t0\n"
                    "vmv.v.i v7, 0\n"
                    "vsw12d.v v4, 0(v6)\n"
                    "endprg x0, x0, x0\n";
  if (ext_run(d, ISA_REV_2025, src, 1, &e)) fail_msg("%s", e.msg);
  assert_int_equal(rd32(d, DATA_BASE), 0x12345678u);
  vt_device_destroy(d);
}

static void expect_fault(const char *src, vt_err_kind k, const char *what) {
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, src, 2, &e), -1);
  assert_int_equal(e.kind, k);
  if (!strstr(e.msg, what)) fail_msg("got '%s', expected '%s'", e.msg, what);
  vt_device_destroy(d);
}

static void test_pair_address_faults(void **state) {
  (void)state;
  /* a high word: beyond 32 bits, not wrapped to DATA */
  expect_fault("li t0, 0x90000000\nvmv.v.x v2, t0\nvmv.v.i v3, 1\nvlw12d.v v4, 0(v2)\nendprg x0, x0, x0\n",
               VT_ERR_UNMAPPED,
               "64-bit address 0x0000000190000000 is beyond the 32-bit device address space");
  /* the offset carries into bit 32 */
  expect_fault("vmv.v.i v2, -4\nvmv.v.i v3, 0\nvsw12d.v v4, 8(v2)\nendprg x0, x0, x0\n",
               VT_ERR_UNMAPPED,
               "64-bit address 0x0000000100000004 is beyond the 32-bit device address space");
  /* an odd pair register in a hand-made word (vs1 = v3) */
  expect_fault(".word 0x0001a22b\nendprg x0, x0, x0\n", VT_ERR_ILLEGAL,
               "v3 is odd: a register pair starts at an even register");
}

/* The baseline device runs the same word as vlw.v; the 2025-only word
 * 0x0000602b is illegal there, with a hint. */
static void test_baseline_device(void **state) {
  (void)state;
  vt_device *d = ext_dev(0);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_BASE, ".word 0x0000602b\nendprg x0, x0, x0\n", 1, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "illegal instruction 0x0000602b (vsw12d.v exists only in ISA "
                                "revision 2025: isa = 2025)"));
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_collisions_decode_per_revision),
      cmocka_unit_test(test_revision_marks),
      cmocka_unit_test(test_assembler_per_revision),
      cmocka_unit_test(test_vlw12d_vsw12d),
      cmocka_unit_test(test_pair_address_borrow),
      cmocka_unit_test(test_pair_address_faults),
      cmocka_unit_test(test_baseline_device),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
