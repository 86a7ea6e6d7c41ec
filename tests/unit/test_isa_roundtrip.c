/* For every table entry, in each ISA revision that has it: random operands
 * -> isa_encode -> isa_decode (with the prefix) -> same operand values ->
 * isa_disasm -> assembler -> same words. Also: every entry's MATCH decodes
 * to that entry. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "asm.h"
#include "isa.h"

#define SAMPLES 200

typedef struct {
  uint64_t s;
} rng;

static uint32_t next(rng *r) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(r->s >> 33);
}

static int64_t pick(rng *r, int64_t lo, int64_t hi) {
  /* favour the edges now and then */
  uint32_t k = next(r) % 8;
  if (k == 0) return lo;
  if (k == 1) return hi;
  return lo + (int64_t)(next(r) % (uint64_t)(hi - lo + 1));
}

static void random_operands(rng *r, isa_id id, int64_t vals[ISA_MAX_OPNDS]) {
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  for (int i = 0; i < n; i++) {
    isa_opk k = (isa_opk)o[i].kind;
    int64_t lo, hi;
    isa_opk_range(k, &lo, &hi);
    if ((isa_table[id].flags & IF_PREFIX) && isa_opk_is_reg(k)) hi = 31;
    if (o[i].pair) { /* an even register */
      vals[i] = pick(r, lo, hi) & ~(int64_t)1;
      continue;
    }
    int64_t v = pick(r, lo, hi);
    if (k == OPK_BIMM || k == OPK_JIMM) v &= ~(int64_t)1;
    if (k == OPK_RM) {
      static const int rms[] = {0, 1, 2, 3, 4, 7};
      v = rms[next(r) % 6];
    }
    vals[i] = v;
  }
}

/* The revision an entry is checked in first: the baseline where it exists. */
static isa_rev rev_of(isa_id id) {
  return isa_in_rev(isa_table[id].flags, ISA_REV_BASE) ? ISA_REV_BASE : ISA_REV_2025;
}

static void test_match_decodes_to_itself(void **state) {
  (void)state;
  for (int id = 0; id < ISA_COUNT; id++) {
    if (isa_table[id].flags & IF_LONG) continue; /* two words: test_isaext_c64 */
    isa_id got = isa_lookup_rev(isa_table[id].match, rev_of((isa_id)id));
    if (got != (isa_id)id)
      fail_msg("MATCH of %s (0x%08x) decodes to %s", isa_table[id].name, isa_table[id].match,
               got == ISA_INVALID ? "nothing" : isa_table[got].name);
    assert_int_equal(isa_table[id].match & ~isa_table[id].mask, 0);
  }
}

static void roundtrip_entry(isa_id id, isa_rev rev, rng *r) {
  size_t cap = SAMPLES * 96 + 16;
  char *src = malloc(cap);
  uint32_t *expect = malloc(sizeof(uint32_t) * SAMPLES * 2);
  char (*lines)[96] = malloc(sizeof *lines * SAMPLES);
  int *line_word = malloc(sizeof(int) * SAMPLES);
  assert_non_null(src);
  assert_non_null(expect);
  assert_non_null(lines);
  assert_non_null(line_word);
  size_t len = 0;
  int nw = 0, done = 0, tries = 0;
  while (done < SAMPLES) {
    assert_true(++tries < SAMPLES * 20); /* the encoder rejects too many draws */
    int64_t vals[ISA_MAX_OPNDS] = {0}, back[ISA_MAX_OPNDS];
    random_operands(r, id, vals);
    uint32_t aqrl = (isa_table[id].flags & IF_AQRL) ? next(r) % 4 : 0;
    uint32_t w, pre;
    char err[128];
    if (isa_encode(id, vals, aqrl, &w, &pre, err, sizeof err)) continue; /* e.g. regexti + rs1 */
    isa_inst in;
    assert_int_equal(isa_decode_rev(w, pre, rev, &in), id);
    isa_opnd o[ISA_MAX_OPNDS];
    int n = isa_operand_values(&in, o, back);
    for (int i = 0; i < n; i++)
      if (back[i] != vals[i])
        fail_msg("%s operand %d: encoded %lld, decoded %lld (word 0x%08x prefix 0x%08x)",
                 isa_table[id].name, i, (long long)vals[i], (long long)back[i], w, pre);
    if (isa_table[id].flags & IF_AQRL) assert_int_equal(in.aqrl, aqrl);
    char text[96];
    int tl = isa_disasm(&in, text, sizeof text);
    assert_true(tl > 0 && tl < (int)sizeof text);
    assert_null(strstr(text, "unknown"));
    memcpy(lines[done], text, (size_t)tl + 1);
    line_word[done] = nw;
    if (pre) expect[nw++] = pre;
    expect[nw++] = w;
    len += (size_t)snprintf(src + len, cap - len, "%s\n", text);
    done++;
  }
  uint32_t got[SAMPLES * 2 + 8];
  vt_error e = {0};
  int n = asm_words_rev(src, 0x80000000u, rev, got, SAMPLES * 2 + 8, &e);
  if (n < 0) fail_msg("%s: assembling the disassembly failed: %s", isa_table[id].name, e.msg);
  for (int i = 0, k = 0; i < nw && i < n; i++) {
    while (k + 1 < SAMPLES && line_word[k + 1] <= i) k++;
    if (got[i] != expect[i])
      fail_msg("%s: '%s' assembles to 0x%08x, expected 0x%08x (word %d)", isa_table[id].name,
               lines[k], got[i], expect[i], i);
  }
  assert_int_equal(n, nw);
  free(src);
  free(expect);
  free(lines);
  free(line_word);
}

static void test_roundtrip_all(void **state) {
  (void)state;
  rng r = {0x5eedull};
  for (int id = 0; id < ISA_COUNT; id++)
    for (int rev = 0; rev < ISA_REV_COUNT; rev++)
      if (isa_in_rev(isa_table[id].flags, (isa_rev)rev) && !(isa_table[id].flags & IF_LONG))
        roundtrip_entry((isa_id)id, (isa_rev)rev, &r); /* 64-bit words: test_isaext_c64 */
}

/* A word that decodes to `id`, with random bits outside its MATCH/MASK. */
static uint32_t random_word(rng *r, isa_id id, isa_rev rev) {
  for (int t = 0; t < 64; t++) {
    uint32_t w = isa_table[id].match | (next(r) << 1 & ~isa_table[id].mask) | (next(r) & 1);
    w = (w & ~isa_table[id].mask) | isa_table[id].match;
    if (isa_lookup_rev(w, rev) == id) return w;
  }
  return isa_table[id].match;
}

/* A prefix word (regext/regexti, and in 2025 every prefix entry) with
 * random field bits; its 3-bit register groups are mostly 0 or 1, so most
 * following instructions use registers below 64, as code does. */
static uint32_t random_prefix(rng *r, isa_rev rev) {
  isa_id id = next(r) % 2 ? ISA_regext : ISA_regexti;
  if (rev == ISA_REV_2025 && next(r) % 2) {
    isa_id p[ISA_COUNT];
    int np = 0;
    for (int i = 0; i < ISA_COUNT; i++)
      if ((isa_table[i].flags & IF_PREFIX) && isa_in_rev(isa_table[i].flags, rev)) p[np++] = (isa_id)i;
    id = p[next(r) % (uint32_t)np];
  }
  uint32_t imm = next(r) & 0xfff;
  if (next(r) % 4) imm &= 0x249 | (next(r) % 2 ? 0xfc0 : 0); /* groups 0/1, wide bits sometimes */
  return (random_word(r, id, rev) & 0x000fffffu) | imm << 20;
}

/* objdump's text (isa_disasm_next over a word stream) re-assembles to the
 * same words: every entry with random field bits, alone, after one or two
 * explicit prefixes of random content, and with a prefix at the end. */
static void stream_roundtrip(isa_id id, isa_rev rev, rng *r) {
  enum { N = 96 };
  uint32_t words[N * 3 + 1];
  int nw = 0;
  for (int k = 0; k < N; k++) {
    int npre = (int)(next(r) % 4); /* 0, 1 or 2 prefixes (3: one) */
    for (int p = 0; p < (npre == 3 ? 1 : npre); p++) words[nw++] = random_prefix(r, rev);
    words[nw++] = random_word(r, id, rev);
  }
  if (next(r) % 2) words[nw++] = random_prefix(r, rev); /* a prefix at the end */
  size_t cap = (size_t)nw * 100 + 1, len = 0;
  char *src = malloc(cap);
  char (*lines)[100] = malloc(sizeof *lines * (size_t)nw);
  assert_non_null(src);
  assert_non_null(lines);
  for (int i = 0; i < nw; i++) {
    isa_inst in;
    int tl = isa_disasm_next_rev(words[i], i ? words[i - 1] : 0, rev, &in, lines[i], sizeof lines[i]);
    assert_true(tl > 0 && tl < (int)sizeof lines[i]);
    len += (size_t)snprintf(src + len, cap - len, "%s\n", lines[i]);
  }
  uint32_t got[N * 3 + 8];
  vt_error e = {0};
  int n = asm_words_rev(src, 0x80000000u, rev, got, N * 3 + 8, &e);
  if (n < 0) fail_msg("%s: assembling the disassembly failed: %s", isa_table[id].name, e.msg);
  for (int i = 0; i < nw && i < n; i++)
    if (got[i] != words[i])
      fail_msg("%s: word %d '%s' (after 0x%08x) assembles to 0x%08x, expected 0x%08x",
               isa_table[id].name, i, lines[i], i ? words[i - 1] : 0, got[i], words[i]);
  assert_int_equal(n, nw);
  free(src);
  free(lines);
}

static void test_stream_roundtrip_all(void **state) {
  (void)state;
  rng r = {0xc0ffeeull};
  for (int id = 0; id < ISA_COUNT; id++)
    for (int rev = 0; rev < ISA_REV_COUNT; rev++)
      if (isa_in_rev(isa_table[id].flags, (isa_rev)rev) && !(isa_table[id].flags & IF_LONG))
        stream_roundtrip((isa_id)id, (isa_rev)rev, &r); /* 64-bit words: test_isaext_c64 */
}

/* A reserved rounding mode (5, 6) has no assembler spelling: the raw
 * disassembly shows it as '?', and objdump's (isa_disasm_next) prints the
 * word as .word, which assembles back to it (docs/robustness.md, #5). */
static void test_reserved_rm_is_word(void **state) {
  (void)state;
  int seen = 0;
  for (int id = 0; id < ISA_COUNT; id++) {
    if (!isa_in_rev(isa_table[id].flags, ISA_REV_BASE)) continue;
    for (uint32_t rm = 5; rm <= 6; rm++) {
      uint32_t w = (isa_table[id].match & ~0x7000u) | rm << 12;
      isa_inst in;
      if (isa_decode(w, 0, &in) != (isa_id)id) continue;
      isa_opnd o[ISA_MAX_OPNDS];
      int64_t v[ISA_MAX_OPNDS];
      int k = isa_operand_values(&in, o, v), has_rm = 0;
      for (int i = 0; i < k; i++) has_rm |= o[i].kind == OPK_RM && v[i] == (int64_t)rm;
      if (!has_rm) continue;
      seen++;
      char raw[128], text[128], want[32];
      isa_disasm(&in, raw, sizeof raw);
      assert_non_null(strchr(raw, '?'));
      isa_disasm_next(w, 0, &in, text, sizeof text);
      snprintf(want, sizeof want, ".word 0x%08x", w);
      assert_string_equal(text, want);
      uint32_t back[2];
      vt_error e = {0};
      assert_int_equal(asm_words_rev(text, 0x80000000u, ISA_REV_BASE, back, 2, &e), 1);
      assert_int_equal(back[0], w);
    }
  }
  assert_true(seen >= 20); /* the F-extension arithmetic with an rm field */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_match_decodes_to_itself),
      cmocka_unit_test(test_roundtrip_all),
      cmocka_unit_test(test_stream_roundtrip_all),
      cmocka_unit_test(test_reserved_rm_is_word),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
