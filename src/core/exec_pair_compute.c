/* The pair bit of PREFIX/PREFIXI before a computation (seed 002
 * "自定义计算前缀指令": pair = the next instruction's data are 64-bit
 * register pairs). Defined here (docs/isa-extensions.md): for the ordinary
 * integer instructions below every register operand holding data is an
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

enum { F_RR, F_RI, F_VV, F_VX, F_VI };
enum {
  P_ADD,
  P_SUB,
  P_RSUB,
  P_AND,
  P_OR,
  P_XOR,
  P_SLL,
  P_SRL,
  P_SRA,
  P_MUL,
  P_MIN,
  P_MINU,
  P_MAX,
  P_MAXU,
  P_CMP, /* the compares follow: their result is 0 or 1 */
  P_SEQ = P_CMP,
  P_SNE,
  P_SLT,
  P_SLTU,
  P_SLE,
  P_SLEU,
  P_SGT,
  P_SGTU,
};

typedef struct {
  uint16_t id;
  uint8_t op, form;
} pair_op;

#define V3(n, op)                                                                                  \
  {ISA_##n##_vv, op, F_VV}, {ISA_##n##_vx, op, F_VX}, { ISA_##n##_vi, op, F_VI }
#define V2(n, op)                                                                                  \
  {ISA_##n##_vv, op, F_VV}, { ISA_##n##_vx, op, F_VX }
#define VXI(n, op)                                                                                 \
  {ISA_##n##_vx, op, F_VX}, { ISA_##n##_vi, op, F_VI }
static const pair_op ops[] = {
    {ISA_add, P_ADD, F_RR},  {ISA_sub, P_SUB, F_RR},
    {ISA_and, P_AND, F_RR},  {ISA_or, P_OR, F_RR},
    {ISA_xor, P_XOR, F_RR},  {ISA_sll, P_SLL, F_RR},
    {ISA_srl, P_SRL, F_RR},  {ISA_sra, P_SRA, F_RR},
    {ISA_slt, P_SLT, F_RR},  {ISA_sltu, P_SLTU, F_RR},
    {ISA_mul, P_MUL, F_RR},  {ISA_addi, P_ADD, F_RI},
    {ISA_andi, P_AND, F_RI}, {ISA_ori, P_OR, F_RI},
    {ISA_xori, P_XOR, F_RI}, {ISA_slli, P_SLL, F_RI},
    {ISA_srli, P_SRL, F_RI}, {ISA_srai, P_SRA, F_RI},
    {ISA_slti, P_SLT, F_RI}, {ISA_sltiu, P_SLTU, F_RI},
    V3(vadd, P_ADD),         V2(vsub, P_SUB),
    VXI(vrsub, P_RSUB),      V3(vand, P_AND),
    V3(vor, P_OR),           V3(vxor, P_XOR),
    V3(vsll, P_SLL),         V3(vsrl, P_SRL),
    V3(vsra, P_SRA),         V2(vmul, P_MUL),
    V2(vmin, P_MIN),         V2(vminu, P_MINU),
    V2(vmax, P_MAX),         V2(vmaxu, P_MAXU),
    V3(vmseq, P_SEQ),        V3(vmsne, P_SNE),
    V2(vmslt, P_SLT),        V2(vmsltu, P_SLTU),
    V3(vmsle, P_SLE),        V3(vmsleu, P_SLEU),
    VXI(vmsgt, P_SGT),       VXI(vmsgtu, P_SGTU),
};

static const pair_op *find(isa_id id) {
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (ops[i].id == id) return &ops[i];
  return NULL;
}

int pair_computable(isa_id id) { return find(id) != NULL; }

static uint64_t sra64(uint64_t a, unsigned s) {
  return s ? (a >> s) | (a >> 63 ? ~0ull << (64 - s) : 0) : a;
}

/* a = src2 for vector forms (vs2), src1 for scalar ones (rs1); b the other */
static uint64_t apply(int op, uint64_t a, uint64_t b) {
  int64_t sa = (int64_t)a, sb = (int64_t)b; /* two's complement on every host C17 targets */
  switch (op) {
  case P_ADD: return a + b;
  case P_SUB: return a - b;
  case P_RSUB: return b - a;
  case P_AND: return a & b;
  case P_OR: return a | b;
  case P_XOR: return a ^ b;
  case P_SLL: return a << (b & 63);
  case P_SRL: return a >> (b & 63);
  case P_SRA: return sra64(a, (unsigned)(b & 63));
  case P_MUL: return a * b;
  case P_MIN: return sa < sb ? a : b;
  case P_MINU: return a < b ? a : b;
  case P_MAX: return sa > sb ? a : b;
  case P_MAXU: return a > b ? a : b;
  case P_SEQ: return a == b;
  case P_SNE: return a != b;
  case P_SLT: return sa < sb;
  case P_SLTU: return a < b;
  case P_SLE: return sa <= sb;
  case P_SLEU: return a <= b;
  case P_SGT: return sa > sb;
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
  const pair_op *p = find((isa_id)in->id);
  uint64_t imm = (uint64_t)(int64_t)in->imm;
  if (p->form == F_RR || p->form == F_RI) {
    NEED_PAIR('x', in->rd);
    NEED_PAIR('x', in->rs1);
    uint64_t a = modify(in, get_xpair(x, in->rs1), 0), b = imm;
    if (p->form == F_RR) {
      NEED_PAIR('x', in->rs2);
      b = modify(in, get_xpair(x, in->rs2), 1);
    }
    set_xpair(x, in->rd, apply(p->op, a, b));
    return 0;
  }
  int cmp = p->op >= P_CMP;
  if (!cmp) NEED_PAIR('v', in->rd);
  NEED_PAIR('v', in->rs2);
  if (p->form == F_VV) NEED_PAIR('v', in->rs1);
  if (p->form == F_VX) NEED_PAIR('x', in->rs1);
  vt_warp *w = x->w;
  uint64_t r[VT_MAX_LANES], s = p->form == F_VX ? modify(in, get_xpair(x, in->rs1), 0) : imm;
  uint32_t em = x->emask;
  FOR_LANES(em, i) { /* sources first: vd may overlap them */
    uint64_t a = modify(in, get_vpair(x, in->rs2, i), 1);
    uint64_t b = p->form == F_VV ? modify(in, get_vpair(x, in->rs1, i), 0) : s;
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
