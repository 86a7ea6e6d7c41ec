/* GNU-as features of the assembler: C preprocessing of .S sources, .include,
 * .macro/.rept/.irp/.irpc, .insn, data directives, linker-synthesised symbols,
 * and one diagnostic per malformed construct. Expected words are hand
 * computed from the RISC-V formats; the .insn ones also appear in
 * shared/docs/toolchain.md §1.4 as llvm-mc-19 output. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "asm.h"

#define ASMDIR VT_SOURCE_DIR "/tests/asm"

/* Assembles text named `name` (".S" names are preprocessed) and returns the
 * .text words, or -1 with the first diagnostic in msg. */
static int words_named(const char *name, const char *text, const asm_pp_options *pp,
                       uint32_t *w, int max, char *msg, size_t msglen) {
  asm_source s = {name, text};
  asm_options opt = {0, 0x80000000u, 10, 0};
  asm_object *o;
  asm_diags d = {0};
  vt_error e = {0};
  if (asm_assemble_ex(&s, 1, &opt, pp, &o, &d, &e)) {
    if (d.n) asm_diag_format(&d.v[0], msg, msglen);
    else snprintf(msg, msglen, "%s", e.msg);
    asm_diags_free(&d);
    return -1;
  }
  asm_diags_free(&d);
  const uint8_t *p;
  uint32_t size;
  asm_section(o, ".text", &p, &size, NULL);
  int n = (int)(size / 4);
  for (int i = 0; i < n && i < max; i++)
    w[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 | (uint32_t)p[4 * i + 2] << 16 |
           (uint32_t)p[4 * i + 3] << 24;
  asm_free(o);
  return n;
}

static void expect(const char *name, const char *src, const asm_pp_options *pp,
                   const uint32_t *want, int n) {
  uint32_t got[64];
  char msg[512] = "";
  int k = words_named(name, src, pp, got, 64, msg, sizeof msg);
  if (k < 0) fail_msg("'%s': %s", src, msg);
  if (k != n) fail_msg("'%s': %d words, expected %d", src, k, n);
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) fail_msg("'%s' word %d: 0x%08x, expected 0x%08x", src, i, got[i], want[i]);
}

#define EXPECT_AS(name, pp, src, ...)                                 \
  do {                                                                \
    static const uint32_t w_[] = {__VA_ARGS__};                       \
    expect(name, src, pp, w_, (int)(sizeof w_ / sizeof w_[0]));        \
  } while (0)
#define EXPECT(src, ...) EXPECT_AS("t.s", NULL, src, __VA_ARGS__)
#define EXPECT_S(src, ...) EXPECT_AS(ASMDIR "/t.S", NULL, src, __VA_ARGS__)

/* exactly one diagnostic, "file:line:col: error: ..." containing `needle` */
static void expect_error(const char *name, const char *src, const char *where, const char *needle) {
  asm_source s = {name, src};
  asm_object *o = NULL;
  asm_diags d = {0};
  vt_error e = {0};
  if (!asm_assemble_ex(&s, 1, NULL, NULL, &o, &d, &e)) {
    asm_free(o);
    fail_msg("'%s' assembled, expected an error", src);
  }
  char line[512];
  if (d.n != 1) {
    for (int i = 0; i < d.n; i++) {
      asm_diag_format(&d.v[i], line, sizeof line);
      print_message("  %s\n", line);
    }
    fail_msg("'%s': %d diagnostics, expected 1", src, d.n);
  }
  asm_diag_format(&d.v[0], line, sizeof line);
  asm_diags_free(&d);
  if (strncmp(line, where, strlen(where)) || !strstr(line, ": error: ") || !strstr(line, needle))
    fail_msg("'%s': got '%s', expected '%s...%s'", src, line, where, needle);
}

static void test_macros(void **state) {
  (void)state;
  /* addi a0,a0,1 / addi a1,a1,5 / keyword argument */
  EXPECT(".macro addn r, n=1\n addi \\r, \\r, \\n\n.endm\naddn a0\naddn a1, 5\naddn n=2, r=a2",
         0x00150513, 0x00558593, 0x00260613);
  EXPECT(".rept 3\nnop\n.endr", 0x13, 0x13, 0x13);
  EXPECT(".equ N, 2\n.rept N * 1\nnop\n.endr", 0x13, 0x13);
  EXPECT(".irp r, a0, a1\n mv \\r, zero\n.endr", 0x00000513, 0x00000593);
  EXPECT(".irpc d, 12\n addi a0, a0, \\d\n.endr", 0x00150513, 0x00250513);
  /* \@ gives each expansion its own label; .exitm stops early; labels before a macro call */
  EXPECT(".macro spin\n.Lspin\\@: j .Lspin\\@\n.exitm\nnop\n.endm\nspin\nx: spin",
         0x0000006f, 0x0000006f);
  /* vararg and nested macro use, whitespace-separated arguments */
  EXPECT(".macro two a b\n addi \\a, \\a, \\b\n.endm\n.macro many first, rest:vararg\n"
         "two \\first 1\n.word \\rest\n.endm\nmany a0, 7, 8",
         0x00150513, 7, 8);
  /* .include, relative to the including file, with a default argument */
  EXPECT_AS(ASMDIR "/t.s", NULL, ".include \"inc/macros.inc\"\nbump a0\nbump a1, 4", 0x00150513,
            0x00458593);
}

static void test_preprocessor(void **state) {
  (void)state;
  EXPECT_S("#define N 5\n#if N > 3 && defined(N)\naddi a0, a0, N\n#else\nnop\n#endif\n"
           "#ifdef UNDEFINED\nnop\n#elif 1\naddi a1, a1, N - 4 // comment\n#endif",
           0x00550513, 0x00158593);
  EXPECT_S("#define ADDI(r, v) addi r, r, v\nADDI(a1, 2)\n#undef ADDI\n#ifndef ADDI\n"
           "/* a block\n   comment */ nop\n#endif",
           0x00258593, 0x13);
  /* "# if" with a space is an assembly comment, not a directive */
  EXPECT_S("# if (i < n): a comment\nnop", 0x13);
  EXPECT_S("#if 0\n#if 1\nbogus\n#endif\n#else\nnop\n#endif", 0x13);
  EXPECT_S("#define A B\n#define B 6\naddi a0, a0, A\n.equ SELF, 0\n#define SELF SELF + 1\n"
           "addi a0, a0, SELF",
           0x00650513, 0x00150513);
  EXPECT_S("#define CAT(a, b) a##b\nCAT(ad, di) a0, a0, 1", 0x00150513);
  EXPECT_S("#include \"inc/consts.h\"\n#include \"inc/consts.h\"\naddi a0, a0, TWICE(STEP)",
           0x00650513);
  const char *dirs[] = {ASMDIR "/inc"};
  const char *defs[] = {"EXTRA=4", "FLAG"};
  asm_pp_options pp = {dirs, 1, defs, 2};
  EXPECT_AS("/nonexistent/x.S", &pp,
            "#include <consts.h>\naddi a0, a0, STEP + EXTRA\n#if FLAG && __riscv_xlen == 32\nnop\n#endif",
            0x00750513, 0x13);
}

static void test_insn(void **state) {
  (void)state;
  EXPECT(".insn r 0x0b, 4, 0, x0, x0, x0\n.insn r 0x0b, 0, 0, a0, a1, a2\n"
         ".insn i 0x0b, 2, a0, a1, 12\n.insn b 0x5b, 0, x1, x2, 1f\n.insn 0x0000500b\n"
         ".word 0x0000500b\n1: nop",
         0x0000400b, 0x00c5850b, 0x00c5a50b, 0x0020865b, 0x0000500b, 0x0000500b, 0x13);
  /* the standard instructions through .insn: lw, sw, lui, jal, add (by opcode name), fmadd.s */
  EXPECT(".insn i 0x03, 2, a0, 4(a1)\n.insn s STORE, 2, a0, 8(sp)\n.insn u LUI, a0, 0x12345\n"
         ".insn j 0x6f, x0, 8\n.insn r OP, 0, 0, a0, a1, a2\n.insn r 0x43, 7, 0, a0, a1, a2, a3\n"
         ".insn 4, 0x13",
         0x0045a503, 0x00a12423, 0x12345537, 0x0080006f, 0x00c58533, 0x68c5f543, 0x13);
  /* vector registers in r fields, as llvm-mc accepts them */
  EXPECT(".insn r 0x5b, 1, 0, v1, v2, v3", 0x003110db);
}

static void test_data(void **state) {
  (void)state;
  EXPECT(".float 1.5, -2\n.single 0.1\n.double 1.0", 0x3fc00000, 0xc0000000, 0x3dcccccd, 0,
         0x3ff00000);
  EXPECT(".dword 0x1122334455667788\n.quad -1\n.8byte 2", 0x55667788, 0x11223344, 0xffffffff,
         0xffffffff, 2, 0);
  EXPECT(".2byte 0x1234, 0x5678\n.4byte 9\n.fill 2, 4, 0x12345678\n.fill 1, 2, 0xabcd\n.2byte 1",
         0x56781234, 9, 0x12345678, 0x12345678, 0x0001abcd);
  EXPECT("nop\n.org 12\nnop\n.org . + 4, 0xff", 0x13, 0, 0, 0x13, 0xffffffff);
  /* accepted and ignored: compiler and debug noise */
  EXPECT(".option push\n.option norelax\n.option arch, +zfinx\n.option norvc\n.option pop\n"
         ".attribute 5, \"rv32i2p1\"\n.cfi_startproc\n.cfi_def_cfa_offset 16\n.cfi_endproc\n"
         ".addrsig\n.addrsig_sym f\n.hidden f\n.weak w\n.extern e\n"
         ".section .note.GNU-stack,\"\",@progbits\n.text\nf: nop\n.size f, .-f",
         0x13);
}

static void test_synthesised_symbols(void **state) {
  (void)state;
  const char *src = "_start: la gp, __global_pointer$\nla a0, _edata\nla a1, _end\n"
                    "la a2, __bss_start\n.data\n.word 1, 2, 3\n.bss\n.space 32\n";
  asm_source s = {"t.s", src};
  asm_options opt = {0, 0x80000000u, 10, 0};
  asm_object *o;
  vt_error e = {0};
  if (asm_assemble(&s, 1, &opt, &o, NULL, &e)) fail_msg("%s", e.msg);
  uint32_t v;
  assert_int_equal(asm_symbol_value(o, "__global_pointer$", &v), 0);
  assert_int_equal(v, 0x80001000u + 0x800); /* .data at the next page, + 0x800 */
  assert_int_equal(asm_symbol_value(o, "_edata", &v), 0);
  assert_int_equal(v, 0x8000100cu);
  assert_int_equal(asm_symbol_value(o, "__bss_start", &v), 0);
  assert_int_equal(v, 0x8000100cu);
  assert_int_equal(asm_symbol_value(o, "_end", &v), 0);
  assert_int_equal(v, 0x8000102cu);
  asm_free(o);
  /* a source's own definition wins; not referenced = not defined */
  asm_source s2 = {"t.s", "_start: la a0, _end\n.data\n.word 0\n_end: .word 0\n"};
  if (asm_assemble(&s2, 1, &opt, &o, NULL, &e)) fail_msg("%s", e.msg);
  assert_int_equal(asm_symbol_value(o, "_end", &v), 0);
  assert_int_equal(v, 0x80001004u);
  assert_int_equal(asm_symbol_value(o, "_edata", &v), -1);
  asm_free(o);
}

static void test_errors(void **state) {
  (void)state;
  expect_error("e.s", "nop\n  .endm\n", "e.s:2:3:", ".endm without .macro");
  expect_error("e.s", "nop\n.endr\n", "e.s:2:1:", ".endr without");
  expect_error("e.s", ".macro m\nnop\n", "e.s:1:1:", ".macro without .endm");
  expect_error("e.s", ".rept 2\nnop\n", "e.s:1:1:", ".rept without .endr");
  expect_error("e.s", ".macro m\n.endm\n.macro m\n.endm\n", "e.s:3:8:", "already defined");
  expect_error("e.s", ".macro m a:req\nnop\n.endm\nm\n", "e.s:4:1:", "required parameter 'a'");
  expect_error("e.s", ".macro m\nm\n.endm\nm\n", "e.s:4:1:", "recursive macro");
  expect_error("e.s", ".rept x\nnop\n.endr\n", "e.s:1:7:", ".rept count");
  expect_error(ASMDIR "/inc/e.s", "nop\n.include \"self.inc\"\n", ASMDIR "/inc/self.inc:3:18:",
               "recursive .include");
  expect_error("e.s", "nop\n.include \"no-such-file.inc\"\n", "e.s:2:10:", "not found");
  expect_error("e.S", "nop\n#if 1\nnop\n#ifdef X\n#endif\n", "e.S:2:1:", "unterminated #if");
  expect_error("e.S", "#endif\n", "e.S:1:1:", "#endif without #if");
  expect_error("e.S", "#if 1 +\n#endif\n", "e.S:1:5:", "bad constant expression");
  expect_error(ASMDIR "/inc/self.S", "#include \"self.h\"\n", ASMDIR "/inc/self.h:2:10:",
               "recursive #include");
  expect_error("e.S", "#error stop here\n", "e.S:1:1:", "#error stop here");
  expect_error("e.s", ".insn r 0x0b, 8, 0, a0, a1, a2\n", "e.s:1:15:", "funct3 8 out of range");
  expect_error("e.s", ".insn r 0x0b, 0, 128, a0, a1, a2\n", "e.s:1:18:", "funct7 128");
  expect_error("e.s", ".insn r 0x08, 0, 0, a0, a1, a2\n", "e.s:1:9:", "not a 32-bit major opcode");
  expect_error("e.s", ".insn i 0x13, 0, a0, a1, 4096\n", "e.s:1:26:", "out of range");
  expect_error("e.s", ".insn r 0x0b, 0, 0, a0, a1\n", "e.s:1:8:", "expected 'opcode, funct3");
  expect_error("e.s", ".insn r 0x0b, 0, 0, a0, a1, x40\n", "e.s:1:29:", "5-bit field");
  expect_error("e.s", ".insn q 1\n", "e.s:1:7:", "unknown format");
  expect_error("e.s", ".insn 0x4501\n", "e.s:1:7:", "compressed");
  expect_error("e.s", ".insn cr 2, 9, a0, a1\n", "e.s:1:7:", "compressed");
  expect_error("e.s", ".option rvc\n", "e.s:1:9:", "no compressed");
  expect_error("e.s", ".option arch, rv32imac\n", "e.s:1:22:", "no compressed");
  expect_error("e.s", "nop\n.org 0\n", "e.s:2:6:", "backwards");
  expect_error("e.s", ".float 1.5x\n", "e.s:1:8:", "bad floating-point number");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_macros),   cmocka_unit_test(test_preprocessor),
      cmocka_unit_test(test_insn),     cmocka_unit_test(test_data),
      cmocka_unit_test(test_synthesised_symbols), cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
