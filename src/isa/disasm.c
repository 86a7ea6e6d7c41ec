/* Disassembly in the LLVM Ventus syntax, with the usual RISC-V aliases. */
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "vt_strbuf.h"

static void emit_vtype(vt_strbuf *o, uint32_t vt) {
  static const char *const lmul[8] = {"m1", "m2", "m4", "m8", NULL, "mf8", "mf4", "mf2"};
  unsigned sew = (vt >> 3) & 7;
  if ((vt >> 8) || sew > 3 || !lmul[vt & 7]) {
    vt_emit(o, "%u", vt);
    return;
  }
  vt_emit(o, "e%u, %s, %s, %s", 8u << sew, lmul[vt & 7], (vt & 0x40) ? "ta" : "tu",
       (vt & 0x80) ? "ma" : "mu");
}

static void emit_fence_set(vt_strbuf *o, unsigned s) {
  if (!s) {
    vt_emit(o, "0");
    return;
  }
  if (s & 8) vt_emit(o, "i");
  if (s & 4) vt_emit(o, "o");
  if (s & 2) vt_emit(o, "r");
  if (s & 1) vt_emit(o, "w");
}

static void emit_csr(vt_strbuf *o, unsigned csr) {
  const char *n = isa_csr_name(csr);
  if (n) vt_emit(o, "%s", n);
  else vt_emit(o, "0x%x", csr);
}

static void emit_operand(vt_strbuf *o, isa_opk k, int64_t v) {
  if (isa_opk_is_xreg(k)) {
    vt_emit(o, "%s", isa_xreg_name((unsigned)v) ? isa_xreg_name((unsigned)v) : "x?");
    return;
  }
  if (isa_opk_is_vreg(k)) {
    vt_emit(o, "v%u", (unsigned)v);
    return;
  }
  if (isa_opk_is_freg(k)) {
    vt_emit(o, "%s", isa_freg_name((unsigned)v) ? isa_freg_name((unsigned)v) : "f?");
    return;
  }
  switch (k) {
  case OPK_UIMM20: vt_emit(o, "0x%x", (unsigned)v); break;
  case OPK_CSR: emit_csr(o, (unsigned)v); break;
  case OPK_VTYPEI11: case OPK_VTYPEI10: emit_vtype(o, (uint32_t)v); break;
  case OPK_PRED: case OPK_SUCC: emit_fence_set(o, (unsigned)v); break;
  case OPK_V0: vt_emit(o, "v0"); break;
  case OPK_VM: vt_emit(o, "v0.t"); break;
  case OPK_RM: vt_emit(o, "%s", isa_rm_name((unsigned)v) ? isa_rm_name((unsigned)v) : "?"); break;
  default: vt_emit(o, "%lld", (long long)v); break;
  }
}

/* Common aliases, as LLVM prints them. Returns 1 if one was printed. */
static int emit_alias(vt_strbuf *o, const isa_inst *in) {
  const char *rd = isa_xreg_name(in->rd), *rs1 = isa_xreg_name(in->rs1),
             *rs2 = isa_xreg_name(in->rs2);
  switch ((isa_id)in->id) {
  case ISA_addi:
    if (in->rd == 0 && in->rs1 == 0 && in->imm == 0) { vt_emit(o, "nop"); return 1; }
    if (in->rs1 == 0) { vt_emit(o, "li %s, %d", rd, in->imm); return 1; }
    if (in->imm == 0) { vt_emit(o, "mv %s, %s", rd, rs1); return 1; }
    return 0;
  case ISA_xori:
    if (in->imm == -1) { vt_emit(o, "not %s, %s", rd, rs1); return 1; }
    return 0;
  case ISA_sub:
    if (in->rs1 == 0) { vt_emit(o, "neg %s, %s", rd, rs2); return 1; }
    return 0;
  case ISA_sltiu:
    if (in->imm == 1) { vt_emit(o, "seqz %s, %s", rd, rs1); return 1; }
    return 0;
  case ISA_sltu:
    if (in->rs1 == 0) { vt_emit(o, "snez %s, %s", rd, rs2); return 1; }
    return 0;
  case ISA_jal:
    if (in->rd == 0) { vt_emit(o, "j %d", in->imm); return 1; }
    if (in->rd == 1) { vt_emit(o, "jal %d", in->imm); return 1; }
    return 0;
  case ISA_jalr:
    if (in->rd == 0 && in->rs1 == 1 && in->imm == 0) { vt_emit(o, "ret"); return 1; }
    if (in->rd == 0 && in->imm == 0) { vt_emit(o, "jr %s", rs1); return 1; }
    if (in->rd == 1 && in->imm == 0) { vt_emit(o, "jalr %s", rs1); return 1; }
    return 0;
  case ISA_beq:
    if (in->rs2 == 0) { vt_emit(o, "beqz %s, %d", rs1, in->imm); return 1; }
    return 0;
  case ISA_bne:
    if (in->rs2 == 0) { vt_emit(o, "bnez %s, %d", rs1, in->imm); return 1; }
    return 0;
  case ISA_csrrs:
    if (in->rs1 == 0) { vt_emit(o, "csrr %s, ", rd); emit_csr(o, (unsigned)in->imm); return 1; }
    if (in->rd == 0) { vt_emit(o, "csrs "); emit_csr(o, (unsigned)in->imm); vt_emit(o, ", %s", rs1); return 1; }
    return 0;
  case ISA_csrrw:
    if (in->rd == 0) { vt_emit(o, "csrw "); emit_csr(o, (unsigned)in->imm); vt_emit(o, ", %s", rs1); return 1; }
    return 0;
  case ISA_csrrc:
    if (in->rd == 0) { vt_emit(o, "csrc "); emit_csr(o, (unsigned)in->imm); vt_emit(o, ", %s", rs1); return 1; }
    return 0;
  case ISA_csrrwi:
    if (in->rd == 0) { vt_emit(o, "csrwi "); emit_csr(o, (unsigned)in->imm); vt_emit(o, ", %u", in->rs1 & 31u); return 1; }
    return 0;
  case ISA_csrrsi:
    if (in->rd == 0) { vt_emit(o, "csrsi "); emit_csr(o, (unsigned)in->imm); vt_emit(o, ", %u", in->rs1 & 31u); return 1; }
    return 0;
  case ISA_csrrci:
    if (in->rd == 0) { vt_emit(o, "csrci "); emit_csr(o, (unsigned)in->imm); vt_emit(o, ", %u", in->rs1 & 31u); return 1; }
    return 0;
  case ISA_fsgnj_s:
    if (in->rs1 == in->rs2) { vt_emit(o, "fmv.s %s, %s", rd, rs1); return 1; }
    return 0;
  case ISA_fsgnjn_s:
    if (in->rs1 == in->rs2) { vt_emit(o, "fneg.s %s, %s", rd, rs1); return 1; }
    return 0;
  case ISA_fsgnjx_s:
    if (in->rs1 == in->rs2) { vt_emit(o, "fabs.s %s, %s", rd, rs1); return 1; }
    return 0;
  default: return 0;
  }
}

int isa_disasm(const isa_inst *in, char *buf, size_t len) {
  vt_strbuf o = vt_strbuf_init(buf, len);
  if (in->id >= ISA_COUNT) {
    vt_emit(&o, "unknown 0x%08x", in->word);
    return o.total;
  }
  const isa_info *info = &isa_table[in->id];
  if (emit_alias(&o, in)) return o.total;
  vt_emit(&o, "%s", info->mnemonic);
  if (info->flags & IF_AQRL) {
    static const char *const sfx[4] = {"", ".rl", ".aq", ".aqrl"};
    vt_emit(&o, "%s", sfx[in->aqrl & 3]);
  }
  isa_opnd ops[ISA_MAX_OPNDS];
  int64_t v[ISA_MAX_OPNDS];
  int n = isa_operand_values(in, ops, v);
  int first = 1;
  for (int i = 0; i < n; i++) {
    isa_opk k = (isa_opk)ops[i].kind;
    if (k == OPK_VM && v[i] == 1) continue;  /* unmasked */
    if (k == OPK_RM && v[i] == 7) continue;  /* dynamic rounding */
    if (ops[i].mem == ISA_MEM_BASE) {
      vt_emit(&o, "(");
      emit_operand(&o, k, v[i]);
      vt_emit(&o, ")");
      continue;
    }
    vt_emit(&o, first ? " " : ", ");
    first = 0;
    if (ops[i].mem == ISA_MEM_BARE) {
      vt_emit(&o, "(");
      emit_operand(&o, k, v[i]);
      vt_emit(&o, ")");
      continue;
    }
    emit_operand(&o, k, v[i]);
  }
  return o.total;
}

uint32_t isa_branch_target(const isa_inst *in, uint32_t pc, int *has) {
  *has = 0;
  if (in->id >= ISA_COUNT) return 0;
  uint32_t f = isa_table[in->id].flags;
  if (!(f & (IF_BRANCH | IF_VBRANCH)) && in->id != ISA_jal) return 0;
  *has = 1;
  return pc + (uint32_t)in->imm;
}

/* One word as text that `ventus as` turns back into the same word: a
 * regext/regexti word is printed as itself and governs the next word
 * (prev), whose operands then show the high bits it gives; the assembler
 * reads an explicit prefix the same way (docs/assembler.md). A prefix is not
 * governed by the one before it. Each word is checked by encoding its
 * operands back: one that decodes to nothing, has bits the syntax does not
 * show, or fields with no spelling (a reserved rounding mode) is printed
 * as `.word`. */
int isa_disasm_next(uint32_t w, uint32_t prev, isa_inst *in, char *text, size_t len) {
  return isa_disasm_next_rev(w, prev, ISA_REV_BASE, in, text, len);
}

int isa_disasm_next_rev(uint32_t w, uint32_t prev, isa_rev r, isa_inst *in, char *text,
                        size_t len) {
  isa_id pid = prev ? isa_lookup_rev(prev, r) : ISA_INVALID;
  isa_id id = isa_lookup_rev(w, r);
  int governed = pid != ISA_INVALID && (isa_table[pid].flags & IF_PREFIX) &&
                 id != ISA_INVALID && !(isa_table[id].flags & IF_PREFIX);
  isa_decode_rev(w, governed ? prev : 0, r, in);
  if (id != ISA_INVALID) { /* bits the syntax does not show, no spelling */
    isa_opnd o[ISA_MAX_OPNDS];
    int64_t v[ISA_MAX_OPNDS];
    isa_operand_values(in, o, v);
    uint32_t back = 0, pre = 0;
    int bad = governed ? isa_encode_under(id, v, in->aqrl, prev, &back, NULL, 0)
                       : isa_encode(id, v, in->aqrl, &back, &pre, NULL, 0);
    if (bad || pre || back != w) id = ISA_INVALID;
    char why[200];
    if (r == ISA_REV_2025 && !isa_groups_fit(in, why, sizeof why)) id = ISA_INVALID; /* does not assemble */
  }
  if (id != ISA_INVALID) {
    int n = isa_disasm(in, text, len);
    if (!strchr(text, '?')) return n; /* '?': a reserved rounding mode */
  }
  return snprintf(text, len, ".word 0x%08x", w);
}

int isa_disasm64_rev(uint32_t lo, uint32_t hi, isa_rev r, isa_inst *in, char *text, size_t len) {
  isa_id id = isa_decode64_rev(lo, hi, r, in);
  if (id != ISA_INVALID) { /* only what encodes back to the same words has a spelling */
    isa_opnd o[ISA_MAX_OPNDS];
    int64_t v[ISA_MAX_OPNDS];
    isa_operand_values(in, o, v);
    uint32_t blo, bhi;
    char why[200];
    if (!isa_encode64(id, v, &blo, &bhi, NULL, 0) && blo == lo && bhi == hi && isa_groups_fit(in, why, sizeof why))
      return isa_disasm(in, text, len);
  }
  return snprintf(text, len, ".word 0x%08x, 0x%08x", lo, hi);
}
