/* Assembler syntax: pseudo-instruction expansions, expressions, .equ/=,
 * numeric local labels, alignment, sections, symbols, and diagnostics
 * collection. Expected words are computed by hand from the RISC-V formats. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "asm.h"
#include "test_asm_words.h"


static void test_li(void **state) {
  (void)state;
  EXPECT("li a0, 0x12345678", 0x12345537, 0x67850513);
  EXPECT("li a0, -1", 0xfff00513);
  EXPECT("li a0, 0xffffffff", 0xfff00513);
  EXPECT("li a0, 0x800", 0x00001537, 0x80050513);
  EXPECT("li a0, 0x80000000", 0x80000537);
  EXPECT("li a0, 'A'", 0x04100513);
}

static void test_pseudos(void **state) {
  (void)state;
  EXPECT("nop\nmv a0, a1\nnot a0, a1\nneg a0, a1\nseqz a0, a1\nsnez a0, a1",
         0x00000013, 0x00058513, 0xfff5c513, 0x40b00533, 0x0015b513, 0x00b03533);
  EXPECT("ret\njr a1\njalr a1\njalr a0, a1, 4", 0x00008067, 0x00058067, 0x000580e7, 0x00458567);
  /* bgt a0, a1, 8 = blt a1, a0, 8 ; blez a0, 8 = bge zero, a0, 8 */
  EXPECT("bgt a0, a1, 8\nblez a0, 8", 0x00a5c463, 0x00a05463);
  EXPECT("csrr a0, tid\ncsrw mtvec, a0\ncsrwi 0x800, 3", 0x80002573, 0x30551073, 0x8001d073);
  EXPECT("fmv.s fa0, fa1\nfneg.s a0, a1\nfabs.s a0, a1", 0x20b58553, 0x20b59553, 0x20b5a553);
  EXPECT("fence\nfence rw, w", 0x0ff0000f, 0x0310000f);
  EXPECT("vnot.v v1, v2", 0x2e2fb0d7);
}

static void test_expressions(void **state) {
  (void)state;
  EXPECT(".equ N, (1 << 4) | 3\naddi a0, a0, N*2", 0x02650513);
  EXPECT("x = 5\naddi a1, a1, x", 0x00558593);
  EXPECT(".set y, ~0 & 0xf\naddi a1, a1, y - (8 >> 1)", 0x00b58593);
  EXPECT("addi a1, a1, later\n.equ later, 7", 0x00758593); /* forward .equ */
  EXPECT("lui a0, %hi(0x12345fff)\naddi a0, a0, %lo(0x12345fff)", 0x12346537, 0xfff50513);
}

static void test_labels(void **state) {
  (void)state;
  EXPECT("1: j 1f\n j 1b\n1: nop", 0x0080006f, 0xffdff06f, 0x00000013);
  /* a prefixed instruction before a label moves it by 8 */
  EXPECT("beq zero, zero, t\nvadd.vv v40, v1, v2\nt: nop", 0x00000663, 0x0010200b, 0x02110457,
         0x00000013);
  /* .align in code pads with nops */
  EXPECT("nop\n.align 3\nt: j t", 0x00000013, 0x00000013, 0x0000006f);
  /* comments of every kind, ';' separates statements */
  EXPECT("nop # a\nnop // b\n/* c\n d */ nop; nop", 0x13, 0x13, 0x13, 0x13);
}

static void test_sections_and_symbols(void **state) {
  (void)state;
  const char *src =
      ".text\n_start: la a0, d\n"
      ".section .rodata.str,\"a\",@progbits\nmsg: .asciz \"hi\"\n"
      ".data\n.byte 1\n.balign 4, 0xff\nd: .half 0x1234\n.word d, . - d\n"
      ".section .ventus.resource.k,\"aw\",@progbits\n.half 1, 2\n"
      ".bss\nb: .space 16\n";
  asm_source s = {"t.S", src};
  asm_options opt = {0, 0x80000000u, 10, 0};
  asm_object *o;
  asm_diags d = {0};
  vt_error e = {0};
  if (asm_assemble(&s, 1, &opt, &o, &d, &e)) fail_msg("%s", e.msg);
  uint32_t v;
  assert_int_equal(asm_symbol_value(o, "_start", &v), 0);
  assert_int_equal(v, 0x80000000u);
  assert_int_equal(asm_symbol_value(o, "msg", &v), 0);
  assert_int_equal(v, 0x80001000u); /* read-only data: next page */
  assert_int_equal(asm_symbol_value(o, "d", &v), 0);
  assert_int_equal(v, 0x80002004u); /* writable data: next page, after .byte + .balign 4 */
  const uint8_t *p;
  uint32_t size, addr;
  assert_int_equal(asm_section(o, ".data", &p, &size, &addr), 0);
  assert_int_equal(size, 14);
  static const uint8_t want[] = {1, 0xff, 0xff, 0xff, 0x34, 0x12, 0x04, 0x20, 0x00, 0x80, 6, 0, 0, 0};
  assert_memory_equal(p, want, sizeof want);
  assert_int_equal(asm_section(o, ".ventus.resource.k", NULL, &size, &addr), 0);
  assert_int_equal(addr, 0x8000200eu); /* writable group, right after .data */
  assert_int_equal(asm_section(o, ".bss", NULL, &size, &addr), 0);
  assert_int_equal(size, 16);
  assert_int_equal(addr, 0x80002012u);
  assert_int_equal(asm_symbol_value(o, "nothing", &v), -1);
  asm_free(o);
  asm_diags_free(&d);
}

static void test_diagnostics(void **state) {
  (void)state;
  const char *src = "bogus a0\nnop\naddi a0, a0, 99999\nnop\nj nowhere\n";
  asm_source s = {"bad.S", src};
  asm_object *o = NULL;
  asm_diags d = {0};
  vt_error e = {0};
  assert_int_equal(asm_assemble(&s, 1, NULL, &o, &d, &e), -1);
  assert_null(o);
  assert_int_equal(e.kind, VT_ERR_ASM);
  assert_int_equal(d.n, 3);
  assert_int_equal(d.v[0].line, 1);
  assert_int_equal(d.v[0].col, 1);
  assert_int_equal(d.v[1].line, 3);
  assert_int_equal(d.v[1].col, 14);
  assert_int_equal(d.v[2].line, 5);
  assert_int_equal(d.v[2].col, 3);
  char buf[400];
  asm_diag_format(&d.v[2], buf, sizeof buf);
  assert_string_equal(buf, "bad.S:5:3: error: undefined symbol 'nowhere'");
  asm_diags_free(&d);
  /* duplicate labels and bad directives */
  asm_source s2 = {"dup.S", "a: nop\na: nop\n.frob\n"};
  assert_int_equal(asm_assemble(&s2, 1, NULL, &o, &d, &e), -1);
  assert_int_equal(d.n, 2);
  assert_non_null(strstr(d.v[0].msg, "already defined"));
  assert_non_null(strstr(d.v[1].msg, "unknown directive"));
  asm_diags_free(&d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_li),
      cmocka_unit_test(test_pseudos),
      cmocka_unit_test(test_expressions),
      cmocka_unit_test(test_labels),
      cmocka_unit_test(test_sections_and_symbols),
      cmocka_unit_test(test_diagnostics),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
