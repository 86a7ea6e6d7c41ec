/* Reference encodings of the upstream assembler tests (docs/corpora.md §3),
 * hard-coded as independent ground truth, checked in both directions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "asm.h"
#include "isa.h"

static const struct {
  const char *text;
  const char *mnemonic;
  uint32_t word;
} refs[] = {
    {"join zero, zero, 0", "join", 0x0000205b},
    {"setrpc zero, tp, 256", "setrpc", 0x1002305b},
    {"regext zero, zero, 8", "regext", 0x0080200b},
    {"regexti zero, zero, 8", "regexti", 0x0080300b},
    {"endprg x0, x0, x0", "endprg", 0x0000400b},
    {"barrier x0, x0, 4", "barrier", 0x0402400b},
    {"barriersub x0, x0, 4", "barriersub", 0x0602400b},
    {"vadd12.vi v1, v0, 4", "vadd12.vi", 0x0040008b},
    {"vlw12.v v6, 4(v1)", "vlw12.v", 0x0040a37b},
    {"vlh12.v v6, 4(v1)", "vlh12.v", 0x0040937b},
    {"vlb12.v v6, 4(v1)", "vlb12.v", 0x0040837b},
    {"vlhu12.v v6, 8(v1)", "vlhu12.v", 0x0080d37b},
    {"vlbu12.v v6, 12(v1)", "vlbu12.v", 0x00c0c37b},
    {"vlw.v v6, 12(v1)", "vlw.v", 0x00c0a32b},
    {"vlh.v v6, 12(v1)", "vlh.v", 0x00c0932b},
    {"vlb.v v6, 12(v1)", "vlb.v", 0x00c0832b},
    {"vlhu.v v6, 12(v1)", "vlhu.v", 0x00c0d32b},
    {"vlbu.v v6, 12(v1)", "vlbu.v", 0x00c0c32b},
    {"vsw12.v v6, 4(v1)", "vsw12.v", 0x0060e27b},
    {"vsh12.v v6, 4(v1)", "vsh12.v", 0x0060b27b},
    {"vsb12.v v6, 4(v1)", "vsb12.v", 0x0060f27b},
    {"vsw.v v6, 4(v1)", "vsw.v", 0x8060a22b},
    {"vsh.v v6, 4(v1)", "vsh.v", 0x8060922b},
    {"vsb.v v6, 4(v1)", "vsb.v", 0x8060822b},
    {"vbeq v2, v1, 4", "vbeq", 0x0020825b},
    {"vbne v2, v1, 4", "vbne", 0x0020925b},
    {"vblt v2, v1, 4", "vblt", 0x0020c25b},
    {"vbge v2, v1, 4", "vbge", 0x0020d25b},
    {"vbltu v2, v1, 4", "vbltu", 0x0020e25b},
    {"vbgeu v2, v1, 4", "vbgeu", 0x0020f25b},
};
#define NREFS (sizeof refs / sizeof refs[0])

static void test_assemble(void **state) {
  (void)state;
  for (size_t i = 0; i < NREFS; i++) {
    uint32_t w[4];
    vt_error e = {0};
    int n = asm_words(refs[i].text, 0x80000000u, w, 4, &e);
    if (n != 1) fail_msg("'%s': %s", refs[i].text, n < 0 ? e.msg : "not one word");
    if (w[0] != refs[i].word)
      fail_msg("'%s' assembles to 0x%08x, expected 0x%08x", refs[i].text, w[0], refs[i].word);
  }
}

static void test_decode(void **state) {
  (void)state;
  for (size_t i = 0; i < NREFS; i++) {
    isa_inst in;
    isa_id id = isa_decode(refs[i].word, 0, &in);
    if (id == ISA_INVALID) fail_msg("0x%08x does not decode", refs[i].word);
    assert_string_equal(isa_table[id].mnemonic, refs[i].mnemonic);
    /* and the disassembly re-assembles to the same word */
    char text[96];
    isa_disasm(&in, text, sizeof text);
    uint32_t w[4];
    vt_error e = {0};
    int n = asm_words(text, 0x80000000u, w, 4, &e);
    if (n != 1 || w[0] != refs[i].word)
      fail_msg("disassembly '%s' of 0x%08x does not re-assemble (%s)", text, refs[i].word,
               n < 0 ? e.msg : "different word");
  }
}

/* The prefix: a register above 31 needs regext, whose immediate holds the
 * high bits in the documented positions (docs/isa.md §2.3). */
static void test_prefix(void **state) {
  (void)state;
  uint32_t w[4];
  vt_error e = {0};
  /* vd = v40 (hi 1 in imm[2:0]), vs2 = v33 (hi 1 in imm[8:6]), vs1 = v2 */
  assert_int_equal(asm_words("vadd.vv v40, v33, v2", 0x80000000u, w, 4, &e), 2);
  assert_int_equal(w[0], 0x0410200b); /* regext zero, zero, 0x41 */
  assert_int_equal(w[1], 0x02110457); /* vadd.vv v8, v1, v2 */
  /* a label after a prefixed instruction moves by 8 */
  assert_int_equal(asm_words("vadd.vv v40, v33, v2\nx: beq zero, zero, x\nj x", 0, w, 4, &e), 4);
  assert_int_equal(w[3], 0xffdff06f); /* j -4 */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_assemble),
      cmocka_unit_test(test_decode),
      cmocka_unit_test(test_prefix),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
