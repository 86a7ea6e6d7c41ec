/* Pseudo-instructions: the usual RISC-V ones and every alias isa_disasm
 * prints. Simple ones rewrite their operands into a real instruction of the
 * table; li/la/call/tail/jalr forms build operand values directly. */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "asm_int.h"

/* "$N" = the user's operand N; anything else is literal text. */
static const struct {
  const char *name;
  int nops;       /* operands the pseudo takes */
  int optional;   /* further operands passed through (vnot.v's mask) */
  const char *real;
  const char *tmpl[4];
} rewrites[] = {
    {"nop", 0, 0, "addi", {"zero", "zero", "0"}},
    {"mv", 2, 0, "addi", {"$0", "$1", "0"}},
    {"not", 2, 0, "xori", {"$0", "$1", "-1"}},
    {"neg", 2, 0, "sub", {"$0", "zero", "$1"}},
    {"seqz", 2, 0, "sltiu", {"$0", "$1", "1"}},
    {"snez", 2, 0, "sltu", {"$0", "zero", "$1"}},
    {"sltz", 2, 0, "slt", {"$0", "$1", "zero"}},
    {"sgtz", 2, 0, "slt", {"$0", "zero", "$1"}},
    {"j", 1, 0, "jal", {"zero", "$0"}},
    {"jal", 1, 0, "jal", {"ra", "$0"}},
    {"beqz", 2, 0, "beq", {"$0", "zero", "$1"}},
    {"bnez", 2, 0, "bne", {"$0", "zero", "$1"}},
    {"blez", 2, 0, "bge", {"zero", "$0", "$1"}},
    {"bgez", 2, 0, "bge", {"$0", "zero", "$1"}},
    {"bltz", 2, 0, "blt", {"$0", "zero", "$1"}},
    {"bgtz", 2, 0, "blt", {"zero", "$0", "$1"}},
    {"bgt", 3, 0, "blt", {"$1", "$0", "$2"}},
    {"ble", 3, 0, "bge", {"$1", "$0", "$2"}},
    {"bgtu", 3, 0, "bltu", {"$1", "$0", "$2"}},
    {"bleu", 3, 0, "bgeu", {"$1", "$0", "$2"}},
    {"csrr", 2, 0, "csrrs", {"$0", "$1", "zero"}},
    {"csrw", 2, 0, "csrrw", {"zero", "$0", "$1"}},
    {"csrs", 2, 0, "csrrs", {"zero", "$0", "$1"}},
    {"csrc", 2, 0, "csrrc", {"zero", "$0", "$1"}},
    {"csrwi", 2, 0, "csrrwi", {"zero", "$0", "$1"}},
    {"csrsi", 2, 0, "csrrsi", {"zero", "$0", "$1"}},
    {"csrci", 2, 0, "csrrci", {"zero", "$0", "$1"}},
    {"fmv.s", 2, 0, "fsgnj.s", {"$0", "$1", "$1"}},
    {"fneg.s", 2, 0, "fsgnjn.s", {"$0", "$1", "$1"}},
    {"fabs.s", 2, 0, "fsgnjx.s", {"$0", "$1", "$1"}},
    {"fence", 0, 0, "fence", {"iorw", "iorw"}},
    {"vnot.v", 2, 1, "vxor.vi", {"$0", "$1", "-1"}},
    /* RVV 1.0's width conversions (revision 2025: the real ones exist there only) */
    {"vncvt.x.x.w", 2, 1, "vnsrl.wx", {"$0", "$1", "zero"}},
    {"vwcvt.x.x.v", 2, 1, "vwadd.vx", {"$0", "$1", "zero"}},
    {"vwcvtu.x.x.v", 2, 1, "vwaddu.vx", {"$0", "$1", "zero"}},
    {"endprg", 0, 0, "endprg", {"zero", "zero", "zero"}}, /* the manual's bare `endprg` */
};
/* names that are also real instructions: only their listed operand count is
 * the pseudo */
static int shares_real_name(const char *n) {
  return !strcmp(n, "jal") || !strcmp(n, "fence") || !strcmp(n, "endprg");
}

static int emit(asm_object *o, isa_id id, int64_t a, int64_t b, int64_t c, const char *at) {
  int64_t v[ISA_MAX_OPNDS] = {a, b, c};
  return asm_encode_emit(o, id, v, 0, at);
}

static int li(asm_object *o, const char **ob, const char **oe) {
  int64_t rd;
  asm_val v;
  int rk;
  if (asm_parse_xreg_op(o, ob[0], oe[0], &rd)) return -1;
  if (asm_parse_imm_op(o, ob[1], oe[1], &v, &rk)) return -1;
  if (rk != RK_NONE) return asm_error(o, ob[1], "li takes a plain expression");
  if (v.kind == VAL_ABS) {
    if (v.v < -(INT64_C(1) << 31) || v.v > (int64_t)UINT32_MAX)
      return asm_error(o, ob[1], "li: %lld does not fit in 32 bits", (long long)v.v);
    uint32_t x = (uint32_t)v.v;
    int32_t lo = (int32_t)((x & 0xfff) ^ 0x800) - 0x800;
    uint32_t hi = ((x - (uint32_t)lo) >> 12) & 0xfffff;
    if (!hi) return emit(o, ISA_addi, rd, 0, lo, ob[0]);
    if (emit(o, ISA_lui, rd, hi, 0, ob[0])) return -1;
    return lo ? emit(o, ISA_addi, rd, rd, lo, ob[0]) : 0;
  }
  /* an address: always lui + addi so the size does not depend on it */
  int64_t hi, lo;
  if (asm_resolve(o, &v, RK_HI, OPK_UIMM20, asm_word_offset(o, ISA_lui, rd > 31), &hi, ob[1])) hi = 0;
  if (emit(o, ISA_lui, rd, hi, 0, ob[0])) return -1;
  if (asm_resolve(o, &v, RK_LO, OPK_SIMM12, asm_word_offset(o, ISA_addi, rd > 31), &lo, ob[1])) lo = 0;
  return emit(o, ISA_addi, rd, rd, lo, ob[0]);
}

/* la/lla: auipc rd, %pcrel_hi(sym); addi rd, rd, %pcrel_lo(.Lpcrel_hiN) */
static int la(asm_object *o, const char **ob, const char **oe) {
  int64_t rd, hi, lo;
  asm_val v;
  int rk;
  if (asm_parse_xreg_op(o, ob[0], oe[0], &rd)) return -1;
  if (asm_parse_imm_op(o, ob[1], oe[1], &v, &rk)) return -1;
  if (rk != RK_NONE) return asm_error(o, ob[1], "la takes a symbol");
  uint32_t auipc_off = asm_word_offset(o, ISA_auipc, rd > 31);
  char name[32];
  snprintf(name, sizeof name, ".Lpcrel_hi%d", o->auto_label++);
  int si = asm_sym_get(o, name, strlen(name));
  if (si < 0) return -1; /* out of memory */
  o->syms[si].sec = o->cur;
  o->syms[si].value = auipc_off;
  o->syms[si].def_pass = o->pass;
  if (v.kind == VAL_ABS && !o->exec)
    return asm_error(o, ob[1], "la needs a symbol in a relocatable object (use li)");
  if (asm_resolve(o, &v, RK_PCREL_HI, OPK_UIMM20, auipc_off, &hi, ob[1])) hi = 0;
  if (emit(o, ISA_auipc, rd, hi, 0, ob[0])) return -1;
  asm_val lab = {VAL_SEC, auipc_off, o->cur, si};
  if (asm_resolve(o, &lab, RK_PCREL_LO, OPK_SIMM12, asm_word_offset(o, ISA_addi, rd > 31), &lo, ob[1])) lo = 0;
  return emit(o, ISA_addi, rd, rd, lo, ob[0]);
}

/* call/tail: auipc + jalr, one R_RISCV_CALL_PLT when not resolvable */
static int call(asm_object *o, const char **ob, const char **oe, int tail) {
  asm_val v;
  int rk;
  (void)oe;
  if (asm_parse_imm_op(o, ob[0], oe[0], &v, &rk)) return -1;
  if (rk != RK_NONE) return asm_error(o, ob[0], "call takes a symbol");
  uint32_t off = asm_here(o);
  int64_t delta = 0;
  if (v.kind == VAL_SEC && (o->exec || asm_same_section(o, &v))) {
    delta = v.sec == o->cur ? asm_wrap_sub(v.v, off)
                            : asm_wrap_sub(asm_val_addr(o, &v), (int64_t)o->secs[o->cur].addr + off);
  } else if (v.kind == VAL_ABS && o->exec) {
    delta = asm_wrap_sub(v.v, (int64_t)o->secs[o->cur].addr + off);
  } else if (v.kind == VAL_UND && o->exec) {
    if (o->final)
      return asm_error(o, ob[0], "undefined symbol '%s'", v.sym >= 0 ? o->syms[v.sym].name : "?");
  } else if (v.kind == VAL_ABS) {
    return asm_error(o, ob[0], "call needs a symbol in a relocatable object");
  } else {
    if (v.kind == VAL_UND && v.sym >= 0 && o->final) o->syms[v.sym].global = 1;
    asm_add_rel(o, off, R_RISCV_CALL_PLT, &v);
  }
  int32_t lo = (int32_t)((delta & 0xfff) ^ 0x800) - 0x800;
  int64_t hi = (asm_wrap_sub(delta, lo) >> 12) & 0xfffff;
  int link = tail ? 6 : 1; /* t1 / ra */
  if (emit(o, ISA_auipc, link, hi, 0, ob[0])) return -1;
  return emit(o, ISA_jalr, tail ? 0 : 1, lo, link, ob[0]);
}

int asm_pseudo(asm_object *o, const char *mn, const char *ops, int *rc) {
  const char *ob[16], *oe[16];
  int n = asm_split_operands(ops, ob, oe, 16);
  if (n < 0) return 0; /* the real-instruction path reports it */
  char name[40];
  snprintf(name, sizeof name, "%s", mn);
  for (char *p = name; *p; p++) *p = (char)tolower((unsigned char)*p);

  if (!strcmp(name, "li") || !strcmp(name, "la") || !strcmp(name, "lla")) {
    if (n != 2) { *rc = asm_error(o, mn, "%s: expected 2 operands", name); return 1; }
    *rc = name[1] == 'i' ? li(o, ob, oe) : la(o, ob, oe);
    return 1;
  }
  if (!strcmp(name, "call") || !strcmp(name, "tail")) {
    if (n != 1) { *rc = asm_error(o, mn, "%s: expected 1 operand", name); return 1; }
    *rc = call(o, ob, oe, name[0] == 't');
    return 1;
  }
  if (!strcmp(name, "ret") || !strcmp(name, "jr") ||
      (!strcmp(name, "jalr") && (n == 1 || (n >= 2 && oe[1][-1] != ')')))) {
    int64_t rd = name[0] == 'j' && name[1] == 'a' ? 1 : 0, rs = 1, imm = 0;
    int want = name[0] == 'r' ? 0 : 1;
    if (!strcmp(name, "jalr") && n >= 2) want = n;
    if (n != want || n > 3) { *rc = asm_error(o, mn, "%s: wrong number of operands", name); return 1; }
    *rc = 0;
    if (n == 1) *rc = asm_parse_xreg_op(o, ob[0], oe[0], &rs);
    if (n >= 2) {
      *rc = asm_parse_xreg_op(o, ob[0], oe[0], &rd);
      if (!*rc) *rc = asm_parse_xreg_op(o, ob[1], oe[1], &rs);
      if (!*rc && n == 3) *rc = asm_eval_abs(o, ob[2], oe[2], &imm);
      if (!*rc && (imm < -2048 || imm > 2047))
        *rc = asm_error(o, ob[2], "immediate %lld out of range [-2048, 2047]", (long long)imm);
    }
    if (!*rc) *rc = emit(o, ISA_jalr, rd, imm, rs, mn);
    else asm_emit_word(o, 0);
    return 1;
  }
  for (size_t i = 0; i < sizeof rewrites / sizeof rewrites[0]; i++) {
    if (strcmp(rewrites[i].name, name)) continue;
    int np = rewrites[i].nops;
    if (n < np || n > np + rewrites[i].optional) {
      if (shares_real_name(name)) return 0;
      *rc = asm_error(o, mn, "%s: expected %d operand(s)", name, np);
      return 1;
    }
    const char *rb[8], *re[8];
    int m = 0;
    for (int k = 0; k < 4 && rewrites[i].tmpl[k]; k++, m++) {
      const char *t = rewrites[i].tmpl[k];
      if (t[0] == '$') {
        rb[m] = ob[t[1] - '0'];
        re[m] = oe[t[1] - '0'];
      } else {
        rb[m] = t;
        re[m] = t + strlen(t);
      }
    }
    for (int k = np; k < n; k++, m++) rb[m] = ob[k], re[m] = oe[k];
    uint32_t aqrl;
    isa_id id = asm_find_mnemonic(rewrites[i].real, &aqrl);
    *rc = asm_insn_ops(o, id, 0, mn, rb, re, m);
    return 1;
  }
  return 0;
}
