/* Standard RV32IMA / Zfinx / Zve32f instructions assemble to the same words
 * as llvm-mc-19 -show-encoding. One sample per standard table entry (the
 * custom opcodes 0x0b/0x2b/0x5b/0x7b are excluded). llvm-mc-19 refuses
 * zfinx together with zve32f, so scalar code is checked with +zfinx and
 * vector code with +f,+zve32f (vector-fp scalar operands spelled fa0); the
 * F-register forms (flw, fsw, fmv.x.w, fmv.w.x) with +f. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "asm.h"
#include "isa.h"

#define MAXL 1200

typedef struct {
  char text[MAXL][96];
  int n;
} listing;

static int has_freg(isa_id id) {
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  for (int i = 0; i < n; i++)
    if (isa_opk_is_freg((isa_opk)o[i].kind)) return 1;
  return 0;
}

/* Custom opcodes, and the ISA 2025 entries (checked by test_rev2025). */
static int is_custom(isa_id id) {
  uint32_t op = isa_table[id].match & 0x7f;
  return op == 0x0b || op == 0x2b || op == 0x5b || op == 0x7b ||
         !isa_in_rev(isa_table[id].flags, ISA_REV_BASE);
}

/* A sample both assemblers accept: registers <= 31, simm5 in -16..15 (LLVM
 * reads vmsleu.vi/vmsgtu.vi as simm5), a standard vtype, unnamed CSR. */
static void sample(isa_id id, uint32_t seed, int vec_fp, char *out, size_t len) {
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  for (int attempt = 0; attempt < 64; attempt++) {
    uint32_t s = seed * 2654435761u + (uint32_t)attempt * 40503u;
    int64_t v[ISA_MAX_OPNDS];
    for (int i = 0; i < n; i++) {
      s = s * 1103515245u + 12345u;
      uint32_t r = s >> 8;
      switch ((isa_opk)o[i].kind) {
      case OPK_RD: case OPK_RS1: case OPK_RS2: case OPK_RS3: v[i] = vec_fp ? 10 : r % 32; break;
      case OPK_FRD: case OPK_FRS1: case OPK_FRS2: v[i] = r % 32; break;
      case OPK_VD: v[i] = 1 + r % 31; break; /* LLVM: a masked vd must not be v0 */
      case OPK_VS1: case OPK_VS2: case OPK_VS3: v[i] = r % 32; break;
      case OPK_SIMM12: case OPK_SIMM12S: v[i] = (int64_t)(r % 4096) - 2048; break;
      case OPK_BIMM: v[i] = ((int64_t)(r % 4096) - 2048) * 2; break;
      case OPK_JIMM: v[i] = ((int64_t)(r % 0x100000) - 0x80000) * 2; break;
      case OPK_UIMM20: v[i] = r % 0x100000; break;
      case OPK_SHAMT: case OPK_ZIMM5: v[i] = r % 32; break;
      case OPK_SIMM5: v[i] = (int64_t)(r % 32) - 16; break;
      case OPK_UIMM5: v[i] = r % 16; break;
      case OPK_CSR: v[i] = 0x7c0 + r % 16; break;
      case OPK_VM: v[i] = r % 2; break;
      case OPK_RM: { static const int rm[] = {0, 1, 2, 3, 4, 7}; v[i] = rm[r % 6]; break; }
      case OPK_VTYPEI11: case OPK_VTYPEI10: v[i] = 0xc0 | (r % 3) << 3 | (r / 3) % 4; break;
      case OPK_PRED: case OPK_SUCC: v[i] = 1 + r % 15; break;
      default: v[i] = 0; break;
      }
    }
    uint32_t w, pre;
    if (isa_encode(id, v, (isa_table[id].flags & IF_AQRL) ? s % 4 : 0, &w, &pre, NULL, 0)) continue;
    isa_inst in;
    isa_decode(w, 0, &in);
    char text[96];
    isa_disasm(&in, text, sizeof text);
    size_t ml = strlen(isa_table[id].mnemonic);
    /* prefer the canonical spelling (LLVM lacks some zfinx aliases) */
    if (strncmp(text, isa_table[id].mnemonic, ml) && attempt < 63) continue;
    if (vec_fp) { /* x10 -> fa0 */
      char buf[96], *p;
      snprintf(buf, sizeof buf, "%s", text);
      while ((p = strstr(buf, "a0")) && (p == buf || p[-1] != 'f')) {
        memmove(p + 1, p, strlen(p) + 1);
        *p = 'f';
      }
      snprintf(text, sizeof text, "%s", buf);
    }
    snprintf(out, len, "%s", text);
    return;
  }
  snprintf(out, len, "nop");
}

static int run_llvm_mc(const char *triple, const char *mattr, const listing *l, uint32_t *words) {
  char dir[] = "/tmp/vt_llvm_mc_XXXXXX";
  if (!mkdtemp(dir)) return -1;
  char path[128], cmd[512];
  snprintf(path, sizeof path, "%s/in.s", dir);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  for (int i = 0; i < l->n; i++) fprintf(f, "%s\n", l->text[i]);
  fclose(f);
  snprintf(cmd, sizeof cmd, "llvm-mc-19 -triple=%s -mattr=%s -show-encoding %s 2>&1", triple, mattr,
           path);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  char line[512];
  int n = 0;
  while (fgets(line, sizeof line, p)) {
    if (strstr(line, "error:")) fprintf(stderr, "llvm-mc: %s", line);
    char *enc = strstr(line, "encoding: [");
    if (!enc || n >= MAXL) continue;
    unsigned b[4];
    if (sscanf(enc, "encoding: [0x%x,0x%x,0x%x,0x%x]", &b[0], &b[1], &b[2], &b[3]) == 4)
      words[n++] = b[0] | b[1] << 8 | b[2] << 16 | b[3] << 24;
  }
  pclose(p);
  unlink(path);
  rmdir(dir);
  return n;
}

static void compare_rev(const char *triple, const char *mattr, isa_rev rev, const listing *l) {
  static uint32_t ref[MAXL], got[MAXL];
  int n = run_llvm_mc(triple, mattr, l, ref);
  assert_int_equal(n, l->n);
  for (int i = 0; i < l->n; i++) {
    vt_error e = {0};
    int k = asm_words_rev(l->text[i], 0, rev, &got[i], 1, &e);
    if (k != 1) fail_msg("'%s': %s", l->text[i], k < 0 ? e.msg : "not one word");
    if (got[i] != ref[i])
      fail_msg("'%s': ventus 0x%08x, llvm-mc 0x%08x", l->text[i], got[i], ref[i]);
  }
  print_message("%d instructions agree with llvm-mc-19 (-triple=%s -mattr=%s)\n", l->n, triple, mattr);
}

static void compare(const char *mattr, const listing *l) { compare_rev("riscv32", mattr, ISA_REV_BASE, l); }

/* Ends the test as skipped (ctest: SKIP) when llvm-mc-19 is not installed. */
static void skip_without_llvm_mc(void) {
  if (system("command -v llvm-mc-19 >/dev/null 2>&1") != 0) {
    printf("SKIP: llvm-mc-19 not found\n");
    skip();
  }
}

static void test_scalar(void **state) {
  (void)state;
  skip_without_llvm_mc();
  static listing l;
  l.n = 0;
  for (int id = 0; id < ISA_COUNT; id++)
    if (!is_custom((isa_id)id) && !(isa_table[id].flags & IF_VEC) && !has_freg((isa_id)id) &&
        strncmp(isa_table[id].mnemonic, "vset", 4))
      sample((isa_id)id, (uint32_t)id, 0, l.text[l.n++], sizeof l.text[0]);
  compare("+m,+a,+zfinx", &l);
}

static void test_freg(void **state) {
  (void)state;
  skip_without_llvm_mc();
  static listing l;
  l.n = 0;
  for (uint32_t seed = 0; seed < 8; seed++)
    for (int id = 0; id < ISA_COUNT; id++)
      if (has_freg((isa_id)id))
        sample((isa_id)id, (uint32_t)id * 8 + seed, 0, l.text[l.n++], sizeof l.text[0]);
  assert_true(l.n >= 4 * 8);
  compare("+m,+a,+f", &l);
}

static void test_vector(void **state) {
  (void)state;
  skip_without_llvm_mc();
  static listing l;
  l.n = 0;
  for (int id = 0; id < ISA_COUNT; id++)
    if (!is_custom((isa_id)id) &&
        ((isa_table[id].flags & IF_VEC) || !strncmp(isa_table[id].mnemonic, "vset", 4)))
      sample((isa_id)id, (uint32_t)id, (isa_table[id].flags & IF_FP) != 0, l.text[l.n++],
             sizeof l.text[0]);
  compare("+m,+a,+f,+zve32f", &l);
}

/* Samples of the ISA 2025 entries on the given standard major opcodes, 4
 * per entry: pairs are even registers, and the destination (v16..v23)
 * never overlaps a source (v0..v14), as LLVM checks for the widening,
 * narrowing and extension forms. */
static void sample_rev2025(listing *l, const uint32_t *ops, size_t nops, int ei64) {
  for (int id = 0; id < ISA_COUNT; id++) {
    uint32_t op = isa_table[id].match & 0x7f;
    int want = 0;
    for (size_t k = 0; k < nops; k++) want |= op == ops[k];
    /* LLVM takes 64-bit indices on RV64 only: those separately when ei64 */
    if (!(isa_table[id].flags & IF_REV_2025) || !want ||
        (strstr(isa_table[id].mnemonic, "ei64") != NULL) != ei64)
      continue;
    for (uint32_t seed = 0; seed < 4; seed++) {
      isa_opnd o[ISA_MAX_OPNDS];
      int n = isa_operands((isa_id)id, o);
      int64_t v[ISA_MAX_OPNDS];
      for (int i = 0; i < n; i++) {
        uint32_t r = (seed * 7 + (uint32_t)i * 5) % 8;
        switch ((isa_opk)o[i].kind) {
        case OPK_RD: case OPK_RS1: case OPK_RS2:
          /* a vector float scalar: x10, spelled fa0 for LLVM (+v has no Zfinx) */
          v[i] = (isa_table[id].flags & IF_FP) ? 10 : o[i].pair ? 2 * (r + 4) : 5 + r;
          break;
        case OPK_VD: v[i] = 16 + 2 * (seed % 4); break;   /* v16..v23 */
        case OPK_VS1: case OPK_VS2: v[i] = 2 * r; break; /* v0..v14 */
        case OPK_VS3: v[i] = 2 + 2 * r; break;
        case OPK_VM: v[i] = seed & 1; break;
        case OPK_SIMM12: case OPK_SIMM12S: v[i] = (int64_t)(seed * 977 % 4096) - 2048; break;
        case OPK_SHAMT: v[i] = seed * 9 % 32; break;
        case OPK_SIMM5: v[i] = (int64_t)(seed * 11 % 32) - 16; break;
        case OPK_UIMM5: v[i] = seed * 13 % 32; break;
        default: v[i] = 0; break;
        }
      }
      uint32_t w, pre;
      uint32_t aqrl = (isa_table[id].flags & IF_AQRL) ? seed % 4 : 0;
      assert_int_equal(isa_encode((isa_id)id, v, aqrl, &w, &pre, NULL, 0), 0);
      isa_inst in;
      assert_int_equal(isa_decode_rev(w, 0, ISA_REV_2025, &in), id);
      assert_true(l->n < MAXL);
      char *t = l->text[l->n++];
      isa_disasm(&in, t, sizeof l->text[0]);
      char *p = strstr(t, "a0");
      if ((isa_table[id].flags & IF_FP) && p && p > t && p[-1] == ' ' && strlen(t) + 2 < sizeof l->text[0]) {
        memmove(p + 1, p, strlen(p) + 1);
        *p = 'f';
      }
    }
  }
}

/* The ISA 2025 scalar entries with standard encodings (RV64I W forms,
 * ld/sd, RV64A .d) against llvm-mc-19 for riscv64. */
static void test_rev2025(void **state) {
  (void)state;
  skip_without_llvm_mc();
  static listing l;
  l.n = 0;
  static const uint32_t ops[] = {0x03, 0x1b, 0x23, 0x2f, 0x3b};
  sample_rev2025(&l, ops, sizeof ops / sizeof ops[0], 0);
  assert_true(l.n >= 4 * 22);
  compare_rev("riscv64", "+m,+a", ISA_REV_2025, &l);
}

/* The ISA 2025 vector entries (RVV widening, the 8/16/64-bit loads and
 * stores, fixed point, narrowing, extension) against llvm-mc-19 for
 * riscv32 with +v: the standard RVV 1.0 encodings. */
static void test_rev2025_vector(void **state) {
  (void)state;
  skip_without_llvm_mc();
  static listing l;
  l.n = 0;
  static const uint32_t ops[] = {0x07, 0x27, 0x57};
  sample_rev2025(&l, ops, sizeof ops / sizeof ops[0], 0);
  assert_true(l.n >= 4 * (20 + 20 + 32 + 12 + 6));
  /* the width-conversion pseudo-instructions of RVV 1.0 */
  static const char *const pseudo[] = {"vncvt.x.x.w v16, v2", "vncvt.x.x.w v17, v4, v0.t",
                                       "vwcvt.x.x.v v16, v2", "vwcvtu.x.x.v v18, v4, v0.t"};
  for (size_t k = 0; k < sizeof pseudo / sizeof pseudo[0]; k++)
    snprintf(l.text[l.n++], sizeof l.text[0], "%s", pseudo[k]);
  compare_rev("riscv32", "+v", ISA_REV_2025, &l);
  l.n = 0; /* the four with 64-bit indices */
  sample_rev2025(&l, ops, sizeof ops / sizeof ops[0], 1);
  assert_int_equal(l.n, 4 * 4);
  compare_rev("riscv64", "+v", ISA_REV_2025, &l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar),
      cmocka_unit_test(test_vector),
      cmocka_unit_test(test_freg),
      cmocka_unit_test(test_rev2025),
      cmocka_unit_test(test_rev2025_vector),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
