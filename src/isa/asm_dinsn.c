/* The .insn directive, as llvm-mc 19 and GNU as accept it:
 *   .insn r  opcode, funct3, funct7, rd, rs1, rs2
 *   .insn r  opcode, funct3, funct2, rd, rs1, rs2, rs3     (R4)
 *   .insn i  opcode, funct3, rd, rs1, simm12
 *   .insn i  opcode, funct3, rd, simm12(rs1)
 *   .insn s  opcode, funct3, rs2, simm12(rs1)
 *   .insn b  opcode, funct3, rs1, rs2, target            (also "sb")
 *   .insn u  opcode, rd, imm20
 *   .insn j  opcode, rd, target                          (also "uj")
 *   .insn value      /  .insn 4, value                   (a raw 32-bit word)
 * opcode is a number or a major-opcode name (OP, OP_IMM, CUSTOM_0, ...).
 * Register fields take x0..x31 (ABI names too) or v0..v31 (as llvm-mc).
 * Immediates may use %hi/%lo/%pcrel_*; b/j targets give R_RISCV_BRANCH/JAL
 * relocations when not resolvable. Compressed forms are rejected: Ventus has
 * no C extension. */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "asm_int.h"

static const struct {
  const char *name;
  unsigned op;
} opnames[] = {
    {"LOAD", 0x03},   {"LOAD_FP", 0x07},  {"CUSTOM_0", 0x0b}, {"MISC_MEM", 0x0f},
    {"OP_IMM", 0x13}, {"AUIPC", 0x17},    {"OP_IMM_32", 0x1b}, {"STORE", 0x23},
    {"STORE_FP", 0x27}, {"CUSTOM_1", 0x2b}, {"AMO", 0x2f},    {"OP", 0x33},
    {"LUI", 0x37},    {"OP_32", 0x3b},    {"MADD", 0x43},     {"MSUB", 0x47},
    {"NMSUB", 0x4b},  {"NMADD", 0x4f},    {"OP_FP", 0x53},    {"OP_V", 0x57},
    {"CUSTOM_2", 0x5b}, {"BRANCH", 0x63}, {"JALR", 0x67},     {"JAL", 0x6f},
    {"SYSTEM", 0x73}, {"OP_VE", 0x77},    {"CUSTOM_3", 0x7b},
};

static int field(asm_object *o, const char *b, const char *e, int64_t max, const char *what,
                 int64_t *out) {
  if (b == e) return asm_error(o, b, ".insn: missing %s", what);
  if (asm_eval_abs(o, b, e, out)) return -1;
  if (*out < 0 || *out > max)
    return asm_error(o, b, ".insn: %s %lld out of range [0, %lld]", what, (long long)*out,
                     (long long)max);
  return 0;
}

static int opcode(asm_object *o, const char *b, const char *e, int64_t *out) {
  for (size_t i = 0; i < sizeof opnames / sizeof opnames[0]; i++)
    if ((size_t)(e - b) == strlen(opnames[i].name) &&
        !strncasecmp(b, opnames[i].name, (size_t)(e - b))) {
      *out = opnames[i].op;
      return 0;
    }
  if (field(o, b, e, 127, "opcode", out)) return -1;
  if ((*out & 3) != 3)
    return asm_error(o, b, ".insn: opcode 0x%llx is not a 32-bit major opcode (low bits must be 11)",
                     (long long)*out);
  return 0;
}

/* x0..x31 or v0..v31 */
static int reg(asm_object *o, const char *b, const char *e, int64_t *out) {
  char buf[16];
  asm_copy(buf, sizeof buf, b, e);
  int v = (size_t)(e - b) < sizeof buf ? isa_parse_xreg(buf) : -1;
  if (v < 0 && (size_t)(e - b) < sizeof buf) v = isa_parse_vreg(buf);
  if (v < 0) return asm_error(o, b, ".insn: expected a register, got '%.*s'", (int)(e - b), b);
  if (v > 31) return asm_error(o, b, ".insn: register '%s' does not fit a 5-bit field", buf);
  *out = v;
  return 0;
}

/* Immediate with optional %op(...), resolved for the word at the current pc. */
static int imm(asm_object *o, const char *b, const char *e, isa_opk slot, int64_t *out) {
  asm_val v;
  int rk;
  if (b == e) return asm_error(o, b, ".insn: missing immediate");
  if (asm_parse_imm_op(o, b, e, &v, &rk)) return -1;
  if (asm_resolve(o, &v, rk, slot, asm_here(o), out, b)) return -1;
  int64_t lo, hi;
  isa_opk_range(slot, &lo, &hi);
  if (slot == OPK_SIMM12 || slot == OPK_SIMM12S) lo = -2048, hi = 2047;
  if (slot == OPK_UIMM20) lo = 0, hi = 0xfffff;
  if (!o->final && (*out < lo || *out > hi)) *out = 0;
  if (*out < lo || *out > hi)
    return asm_error(o, b, ".insn: immediate %lld out of range [%lld, %lld]", (long long)*out,
                     (long long)lo, (long long)hi);
  if ((slot == OPK_BIMM || slot == OPK_JIMM) && (*out & 1))
    return asm_error(o, b, ".insn: branch offset %lld is not a multiple of 2", (long long)*out);
  return 0;
}

/* "off(reg)" -> offset text [b, *oe) and register text. */
static int memop(asm_object *o, const char *b, const char *e, const char **oe, const char **rb,
                 const char **re) {
  if (e == b || e[-1] != ')') return asm_error(o, b, ".insn: expected 'offset(register)'");
  const char *lp = e - 1;
  while (lp > b && *lp != '(') lp--;
  if (*lp != '(') return asm_error(o, b, ".insn: expected 'offset(register)'");
  *oe = lp;
  while (*oe > b && isspace((unsigned char)(*oe)[-1])) (*oe)--;
  *rb = lp + 1;
  *re = e - 1;
  return 0;
}

static int raw(asm_object *o, const char **ob, const char **oe, int n) {
  int64_t len = 4, v;
  if (n == 2) {
    if (asm_eval_abs(o, ob[0], oe[0], &len)) return -1;
    if (len != 4)
      return asm_error(o, ob[0], ".insn: only 4-byte instructions exist on Ventus (length %lld)",
                       (long long)len);
  }
  const char *b = ob[n - 1], *e = oe[n - 1];
  if (asm_eval_abs(o, b, e, &v)) return -1;
  if (v < 0 || v > 0xffffffffLL) return asm_error(o, b, ".insn: value does not fit in 32 bits");
  if ((v & 3) != 3 && (o->final || v))
    return asm_error(o, b, ".insn: 0x%llx is a compressed (16-bit) encoding; Ventus has no C extension",
                     (long long)v);
  asm_emit_word(o, (uint32_t)v);
  return 0;
}

int asm_dir_insn(asm_object *o, const char *args) {
  if (!(o->secs[o->cur].flags & SHF_EXECINSTR) && o->secs[o->cur].type == SHT_NOBITS)
    return asm_error(o, args, ".insn in a NOBITS section");
  if (asm_here(o) % 4) return asm_error(o, args, ".insn at a misaligned address");
  const char *f = asm_skip_ws(args), *fe = f;
  while (isalpha((unsigned char)*fe)) fe++;
  const char *ob[8], *oe[8];
  int isfmt = fe > f && (*fe == ' ' || *fe == '\t');
  if (!isfmt) { /* raw value */
    int n = asm_split_operands(args, ob, oe, 8);
    if (n < 1 || n > 2) return asm_error(o, args, ".insn: expected a format (r i s b u j) or a value");
    return raw(o, ob, oe, n);
  }
  char fmt[4] = {0};
  if (fe - f > 2) return asm_error(o, f, ".insn: unknown format '%.*s'", (int)(fe - f), f);
  asm_copy(fmt, sizeof fmt, f, fe);
  for (char *p = fmt; *p; p++) *p = (char)tolower((unsigned char)*p);
  int n = asm_split_operands(fe, ob, oe, 8);
  if (n < 0) return asm_error(o, fe, ".insn: too many operands");
  int64_t op = 0, f3 = 0, f7 = 0, rd = 0, rs1 = 0, rs2 = 0, rs3 = 0, im = 0;
  uint32_t w = 0;
  int rc = 0;
#define NEED(k, form)                                                                   \
  if (n != (k)) {                                                                       \
    rc = asm_error(o, n > (k) ? ob[k] : fe, ".insn %s: expected '%s'", fmt, form);      \
    goto out;                                                                           \
  }
  if (!strcmp(fmt, "r")) {
    if (n == 7) {
      rc = opcode(o, ob[0], oe[0], &op) || field(o, ob[1], oe[1], 7, "funct3", &f3) ||
           field(o, ob[2], oe[2], 3, "funct2", &f7) || reg(o, ob[3], oe[3], &rd) ||
           reg(o, ob[4], oe[4], &rs1) || reg(o, ob[5], oe[5], &rs2) || reg(o, ob[6], oe[6], &rs3);
      w = (uint32_t)(rs3 << 27 | f7 << 25);
    } else {
      NEED(6, "opcode, funct3, funct7, rd, rs1, rs2");
      rc = opcode(o, ob[0], oe[0], &op) || field(o, ob[1], oe[1], 7, "funct3", &f3) ||
           field(o, ob[2], oe[2], 127, "funct7", &f7) || reg(o, ob[3], oe[3], &rd) ||
           reg(o, ob[4], oe[4], &rs1) || reg(o, ob[5], oe[5], &rs2);
      w = (uint32_t)(f7 << 25);
    }
    w |= (uint32_t)(rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op);
  } else if (!strcmp(fmt, "i")) {
    const char *me, *rb, *re;
    if (n == 4) {
      rc = opcode(o, ob[0], oe[0], &op) || field(o, ob[1], oe[1], 7, "funct3", &f3) ||
           reg(o, ob[2], oe[2], &rd) || memop(o, ob[3], oe[3], &me, &rb, &re) ||
           reg(o, rb, re, &rs1) || (me > ob[3] ? imm(o, ob[3], me, OPK_SIMM12, &im) : 0);
    } else {
      NEED(5, "opcode, funct3, rd, rs1, imm");
      rc = opcode(o, ob[0], oe[0], &op) || field(o, ob[1], oe[1], 7, "funct3", &f3) ||
           reg(o, ob[2], oe[2], &rd) || reg(o, ob[3], oe[3], &rs1) ||
           imm(o, ob[4], oe[4], OPK_SIMM12, &im);
    }
    w = (uint32_t)((im & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op);
  } else if (!strcmp(fmt, "s")) {
    const char *me, *rb, *re;
    NEED(4, "opcode, funct3, rs2, imm(rs1)");
    rc = opcode(o, ob[0], oe[0], &op) || field(o, ob[1], oe[1], 7, "funct3", &f3) ||
         reg(o, ob[2], oe[2], &rs2) || memop(o, ob[3], oe[3], &me, &rb, &re) ||
         reg(o, rb, re, &rs1) || (me > ob[3] ? imm(o, ob[3], me, OPK_SIMM12S, &im) : 0);
    w = (uint32_t)(((im >> 5) & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
                   (im & 0x1f) << 7 | op);
  } else if (!strcmp(fmt, "b") || !strcmp(fmt, "sb")) {
    NEED(5, "opcode, funct3, rs1, rs2, target");
    rc = opcode(o, ob[0], oe[0], &op) || field(o, ob[1], oe[1], 7, "funct3", &f3) ||
         reg(o, ob[2], oe[2], &rs1) || reg(o, ob[3], oe[3], &rs2) ||
         imm(o, ob[4], oe[4], OPK_BIMM, &im);
    w = (uint32_t)(((im >> 12) & 1) << 31 | ((im >> 5) & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
                   f3 << 12 | ((im >> 1) & 0xf) << 8 | ((im >> 11) & 1) << 7 | op);
  } else if (!strcmp(fmt, "u")) {
    NEED(3, "opcode, rd, imm20");
    rc = opcode(o, ob[0], oe[0], &op) || reg(o, ob[1], oe[1], &rd) ||
         imm(o, ob[2], oe[2], OPK_UIMM20, &im);
    w = (uint32_t)((im & 0xfffff) << 12 | rd << 7 | op);
  } else if (!strcmp(fmt, "j") || !strcmp(fmt, "uj")) {
    NEED(3, "opcode, rd, target");
    rc = opcode(o, ob[0], oe[0], &op) || reg(o, ob[1], oe[1], &rd) ||
         imm(o, ob[2], oe[2], OPK_JIMM, &im);
    w = (uint32_t)(((im >> 20) & 1) << 31 | ((im >> 1) & 0x3ff) << 21 | ((im >> 11) & 1) << 20 |
                   ((im >> 12) & 0xff) << 12 | rd << 7 | op);
  } else if (fmt[0] == 'c') {
    rc = asm_error(o, f, ".insn %s: compressed formats do not exist on Ventus (no C extension)", fmt);
  } else {
    rc = asm_error(o, f, ".insn: unknown format '%s' (r, i, s, b, u, j)", fmt);
  }
#undef NEED
out:
  asm_emit_word(o, rc ? 0 : w); /* the size stays 4 either way */
  return rc ? -1 : 0;
}
