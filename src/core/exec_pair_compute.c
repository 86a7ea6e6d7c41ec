/* The pair bit of PREFIX/PREFIXI before a computation (seed 002
 * "自定义计算前缀指令": pair = the next instruction's data are 64-bit
 * register pairs). Defined here (docs/isa-extensions.md): for the ordinary
 * integer instructions of src/isa/pair_ops.c every register operand holding data is an
 * even-aligned pair, {x[n+1], x[n]} or per lane {v[n+1], v[n]}, and the
 * operation is done in 64 bits: add, sub, rsub, and, or, xor, shifts by
 * the source's low 6 bits (immediate shifts by their 5-bit field), the
 * low 64 bits of mul, signed and unsigned min/max and compares. Immediates
 * are sign-extended to 64 bits (uimm5 ones zero-extended), the scalar of
 * a .vx form is an x pair too. Scalar compares write 0/1 as a pair; vector
 * compares write 0/1 per element to the single register vd, as every
 * Ventus compare does. The prefix's ABS/NEG apply to the 64-bit sources
 * (src1 = the rs1/vs1 field, src2 = rs2/vs2). Before any other instruction
 * the pair bit is void. */
#include "exec_ext.h"

int pair_computable(isa_id id) { return isa_pair_op_of(id) != NULL; }

static uint64_t sra64(uint64_t a, unsigned s) {
  return s ? (a >> s) | (a >> 63 ? ~0ull << (64 - s) : 0) : a;
}

/* a = src2 for vector forms (vs2), src1 for scalar ones (rs1); b the other */
static uint64_t apply(int op, uint64_t a, uint64_t b) {
  int64_t sa = (int64_t)a, sb = (int64_t)b; /* two's complement on every host C17 targets */
  switch (op) {
  case ISA_PO_ADD: return a + b;
  case ISA_PO_SUB: return a - b;
  case ISA_PO_RSUB: return b - a;
  case ISA_PO_AND: return a & b;
  case ISA_PO_OR: return a | b;
  case ISA_PO_XOR: return a ^ b;
  case ISA_PO_SLL: return a << (b & 63);
  case ISA_PO_SRL: return a >> (b & 63);
  case ISA_PO_SRA: return sra64(a, (unsigned)(b & 63));
  case ISA_PO_MUL: return a * b;
  case ISA_PO_MIN: return sa < sb ? a : b;
  case ISA_PO_MINU: return a < b ? a : b;
  case ISA_PO_MAX: return sa > sb ? a : b;
  case ISA_PO_MAXU: return a > b ? a : b;
  case ISA_PO_SEQ: return a == b;
  case ISA_PO_SNE: return a != b;
  case ISA_PO_SLT: return sa < sb;
  case ISA_PO_SLTU: return a < b;
  case ISA_PO_SLE: return sa <= sb;
  case ISA_PO_SLEU: return a <= b;
  case ISA_PO_SGT: return sa > sb;
  default: return a > b;
  }
}

/* ABS then NEG in two's complement at 64 bits, for source `bit` (0 src1, 1 src2) */
static uint64_t modify(const isa_inst *in, uint64_t v, int bit) {
  if ((in->absneg >> (3 + bit) & 1) && (v >> 63)) v = 0 - v;
  if (in->absneg >> bit & 1) v = 0 - v;
  return v;
}

int exec_paired(vt_exec *x, const isa_inst *in) {
  const isa_pair_op *p = isa_pair_op_of((isa_id)in->id);
  uint64_t imm = (uint64_t)(int64_t)in->imm;
  if (p->form == ISA_PF_RR || p->form == ISA_PF_RI) {
    NEED_PAIR('x', in->rd);
    NEED_PAIR('x', in->rs1);
    uint64_t a = modify(in, get_xpair(x, in->rs1), 0), b = imm;
    if (p->form == ISA_PF_RR) {
      NEED_PAIR('x', in->rs2);
      b = modify(in, get_xpair(x, in->rs2), 1);
    }
    set_xpair(x, in->rd, apply(p->op, a, b));
    return 0;
  }
  int cmp = p->op >= ISA_PO_CMP;
  if (!cmp) NEED_PAIR('v', in->rd);
  NEED_PAIR('v', in->rs2);
  if (p->form == ISA_PF_VV) NEED_PAIR('v', in->rs1);
  if (p->form == ISA_PF_VX) NEED_PAIR('x', in->rs1);
  vt_warp *w = x->w;
  uint64_t r[VT_MAX_LANES], s = p->form == ISA_PF_VX ? modify(in, get_xpair(x, in->rs1), 0) : imm;
  uint32_t em = x->emask;
  FOR_LANES(em, i) { /* sources first: vd may overlap them */
    uint64_t a = modify(in, get_vpair(x, in->rs2, i), 1);
    uint64_t b = p->form == ISA_PF_VV ? modify(in, get_vpair(x, in->rs1, i), 0) : s;
    r[i] = apply(p->op, a, b);
  }
  FOR_LANES(em, i) {
    w->v[in->rd][i] = (uint32_t)r[i];
    if (!cmp) w->v[in->rd + 1][i] = (uint32_t)(r[i] >> 32);
  }
  trace_vreg(x, in->rd);
  if (!cmp) trace_vreg(x, in->rd + 1);
  return 0;
}
