/* Decoder and disassembler: every 4 input bytes are an instruction word
 * (in ISA revision 2025 when the input has an odd number of words; there a
 * word that starts a 64-bit instruction is also checked with the next),
 * decoded alone, after the previous word when that is a regext/regexti
 * prefix, and after a prefix forced from the previous word's bits (so both
 * prefixes are exercised whatever the input). For each decodable word the
 * operands must re-encode to a word that decodes to the same instruction
 * and operands, the disassembly must be a bounded, NUL-terminated line,
 * and (for the first few instructions of an input) it must assemble back
 * to the same instruction. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "isa.h"

/* Assembling is slow next to decoding: only the first ASM_CHECKS
 * instructions of an input go through the assembler. */
#define ASM_CHECKS 8

/* A word whose operands have no spelling (a reserved rounding mode, an odd
 * register in a pair slot) must come out of objdump's disassembly as
 * `.word`, which assembles back to itself. */
static void check_word_fallback(uint32_t word, uint32_t prefix, isa_rev rev) {
  isa_inst in;
  char text[256], want[32];
  isa_disasm_next_rev(word, prefix, rev, &in, text, sizeof text);
  snprintf(want, sizeof want, ".word 0x%08x", word);
  if (strcmp(text, want)) {
    fprintf(stderr, "0x%08x (prefix 0x%08x) has no spelling but disassembles as '%s'\n", word, prefix,
            text);
    abort();
  }
}

static void check(uint32_t word, uint32_t prefix, isa_rev rev, int *asm_left) {
  isa_inst in;
  isa_id id = isa_decode_rev(word, prefix, rev, &in);
  char text[256];
  int n = isa_disasm(&in, text, sizeof text);
  if (n <= 0 || (size_t)n >= sizeof text || strlen(text) != (size_t)n) {
    fprintf(stderr, "disassembly of 0x%08x (prefix 0x%08x): length %d\n", word, prefix, n);
    abort();
  }
  int has;
  (void)isa_branch_target(&in, 0x80000000u, &has);
  if (id == ISA_INVALID) return;
  isa_opnd ops[ISA_MAX_OPNDS];
  int64_t vals[ISA_MAX_OPNDS];
  int k = isa_operand_values(&in, ops, vals);
  /* an odd register in a pair slot has no spelling (the assembler refuses
   * it, objdump prints the word as .word): known, reported */
  for (int i = 0; i < k; i++)
    if (ops[i].pair && (vals[i] & 1)) {
      check_word_fallback(word, prefix, rev);
      return;
    }
  uint32_t w2, p2;
  char err[128];
  if (isa_encode(id, vals, in.aqrl, &w2, &p2, err, sizeof err)) {
    fprintf(stderr, "%s (0x%08x prefix 0x%08x) does not re-encode: %s\n", text, word, prefix, err);
    abort();
  }
  isa_inst in2;
  isa_opnd ops2[ISA_MAX_OPNDS];
  int64_t vals2[ISA_MAX_OPNDS];
  if (isa_decode_rev(w2, p2, rev, &in2) != id || isa_operand_values(&in2, ops2, vals2) != k ||
      memcmp(vals, vals2, (size_t)k * sizeof vals[0])) {
    fprintf(stderr, "%s (0x%08x prefix 0x%08x) re-encodes to 0x%08x prefix 0x%08x, another instruction\n",
            text, word, prefix, w2, p2);
    abort();
  }
  /* the disassembly assembles back to the same instruction; a reserved
   * rounding mode has no syntax (isa_disasm shows it as '?'), so objdump
   * must print the word as .word */
  for (int i = 0; i < k; i++)
    if (ops[i].kind == OPK_RM && !isa_rm_name((unsigned)vals[i])) {
      check_word_fallback(word, prefix, rev);
      return;
    }
  if (*asm_left <= 0) return;
  --*asm_left;
  uint32_t words[3];
  vt_error e = {0};
  int nw = asm_words_rev(text, 0x80000000u, (int)rev, words, 3, &e);
  isa_inst in3;
  isa_opnd ops3[ISA_MAX_OPNDS];
  int64_t vals3[ISA_MAX_OPNDS];
  if (nw < 1 || nw > 2 ||
      isa_decode_rev(words[nw - 1], nw == 2 ? words[0] : 0, rev, &in3) != id ||
      isa_operand_values(&in3, ops3, vals3) != k || memcmp(vals, vals3, (size_t)k * sizeof vals[0])) {
    fprintf(stderr, "'%s' (0x%08x prefix 0x%08x) does not assemble back: %d words (%s)\n", text, word,
            prefix, nw, nw < 0 ? e.msg : "another instruction");
    abort();
  }
}

/* A 64-bit instruction (revision 2025): the same checks on its two words;
 * a word pair with no spelling (an odd register where the data size makes
 * a pair) prints as two .words. */
static void check64(uint32_t lo, uint32_t hi, int *asm_left) {
  isa_inst in;
  char text[256];
  int n = isa_disasm64_rev(lo, hi, ISA_REV_2025, &in, text, sizeof text);
  if (n <= 0 || (size_t)n >= sizeof text || strlen(text) != (size_t)n) {
    fprintf(stderr, "disassembly of 0x%08x%08x: length %d\n", hi, lo, n);
    abort();
  }
  isa_id id = (isa_id)in.id;
  if (id == ISA_INVALID) return;
  isa_opnd ops[ISA_MAX_OPNDS];
  int64_t vals[ISA_MAX_OPNDS];
  int k = isa_operand_values(&in, ops, vals);
  uint32_t l2, h2;
  if (isa_encode64(id, vals, &l2, &h2, NULL, 0)) {
    char want[64];
    snprintf(want, sizeof want, ".word 0x%08x, 0x%08x", lo, hi);
    if (strcmp(text, want)) {
      fprintf(stderr, "0x%08x%08x has no spelling but disassembles as '%s'\n", hi, lo, text);
      abort();
    }
    return;
  }
  if (l2 != lo || h2 != hi) { /* every bit is a field or in the masks */
    fprintf(stderr, "%s (0x%08x%08x) re-encodes to 0x%08x%08x\n", text, hi, lo, h2, l2);
    abort();
  }
  (void)k;
  if (*asm_left <= 0) return;
  --*asm_left;
  uint32_t words[3];
  vt_error e = {0};
  int nw = asm_words_rev(text, 0x80000000u, ISA_REV_2025, words, 3, &e);
  if (nw != 2 || words[0] != lo || words[1] != hi) {
    fprintf(stderr, "'%s' (0x%08x%08x) does not assemble back: %d words (%s)\n", text, hi, lo, nw,
            nw < 0 ? e.msg : "other words");
    abort();
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t prev = 0;
  int asm_left = ASM_CHECKS;
  const isa_info *ext[2] = {&isa_table[ISA_regext], &isa_table[ISA_regexti]};
  /* the ISA revision from the length: both get the same inputs' words */
  isa_rev rev = (size / 4) % 2 ? ISA_REV_2025 : ISA_REV_BASE;
  for (size_t i = 0; i + 4 <= size; i += 4) {
    uint32_t w = (uint32_t)data[i] | (uint32_t)data[i + 1] << 8 | (uint32_t)data[i + 2] << 16 |
                 (uint32_t)data[i + 3] << 24;
    if (isa_insn_len(w, rev) == 8 && i + 8 <= size) {
      uint32_t hi = (uint32_t)data[i + 4] | (uint32_t)data[i + 5] << 8 | (uint32_t)data[i + 6] << 16 |
                    (uint32_t)data[i + 7] << 24;
      check64(w, hi, &asm_left);
    }
    check(w, 0, rev, &asm_left);
    isa_id pid = isa_lookup_rev(prev, rev);
    if (pid != ISA_INVALID && (isa_table[pid].flags & IF_PREFIX)) check(w, prev, rev, &asm_left);
    const isa_info *x = ext[(prev >> 31) & 1];
    check(w, (prev & ~x->mask) | x->match, rev, &asm_left);
    prev = w;
  }
  return 0;
}
