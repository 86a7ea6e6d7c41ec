/* Assembler robustness: 64-bit expression arithmetic wraps (no trap, no UB),
 * nesting depth and #define expansion limits, output size limits, sections
 * that would wrap the 32-bit address space, and the I-type immediate range.
 * Expected values are computed by hand (two's complement modulo 2^64). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "asm.h"
#include "test_asm_words.h"


/* Assembles one source named `name` (.S: preprocessed) with .text at
 * text_addr; expects failure whose first diagnostic (or error) contains msg. */
static void expect_error_at(const char *name, const char *src, uint32_t text_addr,
                            const char *msg) {
  asm_source s = {name, src};
  asm_options opt = {0, text_addr, 0, 0};
  asm_object *o = NULL;
  asm_diags d = {0};
  vt_error e = {0};
  if (!asm_assemble(&s, 1, &opt, &o, &d, &e)) {
    asm_free(o);
    fail_msg("'%.60s...' assembled, expected '%s'", src, msg);
  }
  const char *got = d.n ? d.v[0].msg : e.msg;
  if (!strstr(got, msg)) fail_msg("'%.60s...': got '%s', expected '%s'", src, got, msg);
  asm_diags_free(&d);
}

static void expect_error(const char *src, const char *msg) {
  expect_error_at("<input>", src, 0x80000000u, msg);
}

/* n copies of `unit` around `core` (prefix n times, core, suffix n times). */
static char *nest(const char *pre, const char *core, const char *post, int n) {
  size_t lp = strlen(pre), lc = strlen(core), ls = strlen(post);
  char *s = malloc(lp * (size_t)n + lc + ls * (size_t)n + 1), *p = s;
  assert_non_null(s);
  for (int i = 0; i < n; i++, p += lp) memcpy(p, pre, lp);
  memcpy(p, core, lc), p += lc;
  for (int i = 0; i < n; i++, p += ls) memcpy(p, post, ls);
  *p = 0;
  return s;
}

/* INT64_MIN = -9223372036854775807-1; results are the low, high words of .dword. */
static void test_wrapping_arithmetic(void **state) {
  (void)state;
  EXPECT(".dword (-9223372036854775807-1)/-1", 0x00000000, 0x80000000); /* INT64_MIN */
  EXPECT(".dword (-9223372036854775807-1)%-1", 0x00000000, 0x00000000);
  EXPECT(".dword 0x7fffffffffffffff*2", 0xfffffffe, 0xffffffff);
  EXPECT(".dword 0x7fffffffffffffff+1", 0x00000000, 0x80000000);
  EXPECT(".dword (-9223372036854775807-1)-1", 0xffffffff, 0x7fffffff);
  EXPECT(".dword -(-9223372036854775807-1)", 0x00000000, 0x80000000);
  EXPECT(".dword 7/-2, 7%-2", 0xfffffffd, 0xffffffff, 0x00000001, 0x00000000); /* C truncation */
  expect_error(".word 1/0", "division by zero");
}

static void test_expression_depth(void **state) {
  (void)state;
  char *s = nest("(", "5", ")", 256);
  char line[2200];
  snprintf(line, sizeof line, ".word %s", s);
  EXPECT(line, 5);
  free(s);
  s = nest("(", "5", ")", 257);
  snprintf(line, sizeof line, ".word %s", s);
  expect_error(line, "expression nested too deeply");
  free(s);
  /* far beyond: an error, not a stack overflow */
  char *deep = nest("(", "1", ")", 100000);
  char *src = malloc(strlen(deep) + 8);
  assert_non_null(src);
  sprintf(src, ".word %s", deep);
  expect_error(src, "expression nested too deeply");
  free(src);
  free(deep);
  deep = nest("-~", "1", "", 100000);
  src = malloc(strlen(deep) + 8);
  assert_non_null(src);
  sprintf(src, ".word %s", deep);
  expect_error(src, "expression nested too deeply");
  free(src);
  free(deep);
  s = nest("-", "3", "", 255); /* odd count: -3 */
  snprintf(line, sizeof line, ".word %s", s);
  EXPECT(line, 0xfffffffd);
  free(s);
}

/* #if uses the same arithmetic and depth rule. */
static void test_cpp_if_arithmetic(void **state) {
  (void)state;
  static const char *const ok[] = {
      "#if (-9223372036854775807-1)/-1 == (-9223372036854775807-1)\n.word 1\n#else\n.word 2\n#endif\n",
      "#if (-9223372036854775807-1)%-1 == 0\n.word 1\n#else\n.word 2\n#endif\n",
      "#if 0x7fffffffffffffff+1 < 0\n.word 1\n#else\n.word 2\n#endif\n",
  };
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    asm_source s = {"t.S", ok[i]};
    asm_object *o = NULL;
    vt_error e = {0};
    if (asm_assemble(&s, 1, NULL, &o, NULL, &e)) fail_msg("'%s': %s", ok[i], e.msg);
    const uint8_t *data;
    uint32_t size;
    assert_int_equal(asm_section(o, ".text", &data, &size, NULL), 0);
    assert_int_equal(size, 4);
    assert_int_equal(data[0], 1);
    asm_free(o);
  }
  char *deep = nest("(", "1", ")", 50000);
  char *src = malloc(strlen(deep) + 32);
  assert_non_null(src);
  sprintf(src, "#if %s\n#endif\n", deep);
  expect_error_at("t.S", src, 0x80000000u, "#if: expression nested too deeply");
  free(src);
  free(deep);
  deep = nest("1?1:", "1", "", 50000); /* the ternary recurses too */
  src = malloc(strlen(deep) + 32);
  assert_non_null(src);
  sprintf(src, "#if %s\n#endif\n", deep);
  expect_error_at("t.S", src, 0x80000000u, "#if: expression nested too deeply");
  free(src);
  free(deep);
}

/* 40 levels of "#define aN aN+1 aN+1": 2^40 expansions, stopped at once.
 * With an empty last level the text stays small: the call count stops it. */
static void test_cpp_expansion_bomb(void **state) {
  (void)state;
  for (int empty_tail = 0; empty_tail < 2; empty_tail++) {
    char src[4096];
    size_t n = 0;
    for (int i = 0; i < 40; i++) n += (size_t)snprintf(src + n, sizeof src - n, "#define a%d a%d a%d\n", i, i + 1, i + 1);
    if (empty_tail) n += (size_t)snprintf(src + n, sizeof src - n, "#define a40\n");
    snprintf(src + n, sizeof src - n, ".word a0\n");
    expect_error_at("bomb.S", src, 0x80000000u, "macro expansion too large");
  }
}

static void test_size_limits(void **state) {
  (void)state;
  /* 17 x 256 MiB of .bss: past 4 GiB (it used to wrap to 256 MiB) */
  expect_error(".bss\n.rept 17\n.zero 0x10000000\n.endr\n", "section '.bss' grows past 4 GiB");
  /* 3.75 GiB of .bss fits a section, not the space above 0x80000000 */
  expect_error(".bss\n.rept 15\n.zero 0x10000000\n.endr\n",
               "does not fit below 4 GiB");
  /* contents: 256 MiB in all (refused before anything is allocated) */
  expect_error(".fill 0x10000000, 8, 0\n", "output too large");
  expect_error(".fill 0x8000001, 2, 0\n", "output too large");
  expect_error(".byte 1\n.data\n.zero 0x10000000\n", "output too large");
  expect_error(".byte 1\n.section .x,\"a\"\n.org 0x10000000\n", "output too large");
}

static void test_address_space_wrap(void **state) {
  (void)state;
  expect_error_at("<input>", "nop\nnop\n", 0xfffffffcu, "section '.text' at 0xfffffffc (0x8 bytes) does not fit");
  /* the data page after code that ends at the top */
  expect_error_at("<input>", "nop\n.data\n.word 1\n", 0xfffffffcu,
                  "section '.data' at 0x100000000 (0x4 bytes) does not fit");
  /* ending exactly at 4 GiB is fine */
  asm_source s = {"<input>", "nop\n"};
  asm_options opt = {0, 0xfffffffcu, 0, 0};
  asm_object *o = NULL;
  vt_error e = {0};
  if (asm_assemble(&s, 1, &opt, &o, NULL, &e)) fail_msg("%s", e.msg);
  asm_free(o);
}

/* I-type immediates are -2048..2047 (llvm-mc); vadd12.vi/vsub12.vi keep
 * the documented -2048..4095 (docs/isa.md §7.9). */
static void test_itype_immediates(void **state) {
  (void)state;
  EXPECT("addi a0, a0, 2047\naddi a0, a0, -2048", 0x7ff50513, 0x80050513);
  expect_error("addi a0, a0, 2048", "immediate 2048 out of range [-2048, 2047]");
  expect_error("andi a0, a0, 4095", "immediate 4095 out of range [-2048, 2047]");
  expect_error("lw a0, 2048(a1)", "out of range [-2048, 2047]");
  expect_error("jalr a0, 2048(a1)", "out of range [-2048, 2047]");
  expect_error("setrpc zero, a0, 3000", "out of range [-2048, 2047]");
  /* vadd12.vi vd, vs1, imm: imm[31:20] vs1[19:15] 000 vd[11:7] 0001011 */
  EXPECT("vadd12.vi v1, v2, 4000", (4000u & 0xfff) << 20 | 2u << 15 | 1u << 7 | 0x0b);
  EXPECT("vsub12.vi v1, v2, 4095", 0xfffu << 20 | 2u << 15 | 1u << 12 | 1u << 7 | 0x0b);
}

/* Many labels and sections: hashed lookups (this took minutes when every
 * lookup walked a list), values right, and the section count bounded so the
 * ELF's 16-bit section count never wraps. */
static void test_many_labels_and_sections(void **state) {
  (void)state;
  enum { NL = 100000 };
  size_t cap = (size_t)NL * 40, n = 0;
  char *src = malloc(cap);
  assert_non_null(src);
  for (int i = 0; i < NL; i++) /* each jumps to a label (7919 * i) % NL */
    n += (size_t)snprintf(src + n, cap - n, "l%d: j l%d\n", i, (int)((7919LL * i) % NL));
  asm_source s = {"<input>", src};
  asm_object *o = NULL;
  vt_error e = {0};
  if (asm_assemble(&s, 1, NULL, &o, NULL, &e)) fail_msg("%s", e.msg);
  for (int i = 0; i < NL; i += 9973) {
    char name[16];
    uint32_t v;
    snprintf(name, sizeof name, "l%d", i);
    assert_int_equal(asm_symbol_value(o, name, &v), 0);
    assert_int_equal(v, 0x80000000u + 4u * (uint32_t)i);
  }
  const uint8_t *text;
  uint32_t size;
  assert_int_equal(asm_section(o, ".text", &text, &size, NULL), 0);
  assert_int_equal(size, 4u * NL);
  /* word 1: j l7919 = jal x0, +(7919 - 1) * 4 */
  uint32_t w = (uint32_t)text[4] | (uint32_t)text[5] << 8 | (uint32_t)text[6] << 16 | (uint32_t)text[7] << 24;
  uint32_t off = 7918u * 4u;
  assert_int_equal(w, ((off >> 20) & 1) << 31 | ((off >> 1) & 0x3ff) << 21 | ((off >> 11) & 1) << 20 |
                          ((off >> 12) & 0xff) << 12 | 0x6f);
  asm_free(o);
  /* .text plus 16383 more sections is the limit */
  n = 0;
  for (int i = 1; i < 16384; i++) n += (size_t)snprintf(src + n, cap - n, ".section .s%d,\"ax\"\nnop\n", i);
  s.text = src;
  if (asm_assemble(&s, 1, NULL, &o, NULL, &e)) fail_msg("16384 sections: %s", e.msg);
  asm_free(o);
  snprintf(src + n, cap - n, ".section .one_more\n");
  expect_error(src, "too many sections (more than 16384)");
  free(src);
}

/* A macro whose expansion defines more macros grows the macro table while
 * the macro runs (fuzz finding: the table moved under the running
 * expansion, a use after free); purging a macro from inside its own
 * expansion is an error, not a free of the running body. */
/* Zero bytes as the first contents of a section (fuzz finding 7: under
 * UBSan a copy to the still-NULL buffer, "applying zero offset to null
 * pointer"; the sanitizer build stops on it). */
static void test_empty_data_in_new_section(void **state) {
  (void)state;
  EXPECT(".section .d\n.ascii \"\"\n.text\nnop\n", 0x00000013);
}

static void test_macro_defined_while_expanding(void **state) {
  (void)state;
  EXPECT(".macro outer\n"
         ".macro m1\nnop\n.endm\n.macro m2\nnop\n.endm\n.macro m3\nnop\n.endm\n"
         ".macro m4\nnop\n.endm\n.macro m5\nnop\n.endm\n.macro m6\nnop\n.endm\n"
         "addi a0, a0, 1\n"
         ".endm\n"
         "outer\nm1\nm6\n",
         0x00150513, 0x00000013, 0x00000013);
  expect_error(".macro self\n.purgem self\n.endm\nself\n", ".purgem: macro 'self' is being expanded");
  EXPECT(".macro gone\nnop\n.endm\ngone\n.purgem gone\n.macro gone\naddi a0, a0, 1\n.endm\ngone\n",
         0x00000013, 0x00150513);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wrapping_arithmetic), cmocka_unit_test(test_expression_depth),
      cmocka_unit_test(test_cpp_if_arithmetic),   cmocka_unit_test(test_cpp_expansion_bomb),
      cmocka_unit_test(test_size_limits),         cmocka_unit_test(test_address_space_wrap),
      cmocka_unit_test(test_macro_defined_while_expanding),
      cmocka_unit_test(test_empty_data_in_new_section),
      cmocka_unit_test(test_itype_immediates),    cmocka_unit_test(test_many_labels_and_sections),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
