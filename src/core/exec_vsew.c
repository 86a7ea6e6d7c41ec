/* The RVV integer instructions at SEW 8, 16 and 64 (revision 2025,
 * docs/isa-extensions.md "Element widths"): arithmetic, shifts, min/max,
 * multiply (low and high halves), divide, multiply-add, compares, merges,
 * moves and vid. At SEW 32 every instruction keeps its own handler, so
 * results there are those of the baseline. Compares write 0 or 1 to the
 * single register vd at every SEW, as every Ventus compare does (and the
 * pair compares of PREFIX pair = 1). Sources are read before vd is
 * written, so overlapping operands see the old values. */
#include <stdio.h>

#include "exec_vsew.h"

enum {
  OP_ADD, OP_SUB, OP_RSUB, OP_MINU, OP_MIN, OP_MAXU, OP_MAX, OP_AND, OP_OR, OP_XOR,
  OP_SLL, OP_SRL, OP_SRA, OP_MUL, OP_MULH, OP_MULHU, OP_MULHSU, OP_DIVU, OP_DIV, OP_REMU, OP_REM,
  OP_MACC, OP_NMSAC, OP_MADD, OP_NMSUB, OP_MOV,
  OP_CMP, /* the compares follow */
  OP_SEQ = OP_CMP, OP_SNE, OP_SLTU, OP_SLT, OP_SLEU, OP_SLE, OP_SGTU, OP_SGT,
};
/* operand forms: b from vs1, x[rs1] or the immediate; M* the merges
 * (v0 selects b over vs2), S* the moves without vs2 */
enum { F_VV, F_VX, F_VI, F_MVV, F_MVX, F_MVI, F_SV, F_SX, F_SI, F_ID, F_XS };

typedef struct {
  uint8_t valid, op, form;
} vop;

/* indexed by isa_id (a constant table: the lookup is one load per instruction) */
#define T3(n, op) [ISA_##n##_vv] = {1, op, F_VV}, [ISA_##n##_vx] = {1, op, F_VX}, [ISA_##n##_vi] = {1, op, F_VI}
#define T2(n, op) [ISA_##n##_vv] = {1, op, F_VV}, [ISA_##n##_vx] = {1, op, F_VX}
#define TXI(n, op) [ISA_##n##_vx] = {1, op, F_VX}, [ISA_##n##_vi] = {1, op, F_VI}
static const vop vops[ISA_COUNT] = {
    T3(vadd, OP_ADD),     T2(vsub, OP_SUB),     TXI(vrsub, OP_RSUB),    T2(vminu, OP_MINU),
    T2(vmin, OP_MIN),     T2(vmaxu, OP_MAXU),   T2(vmax, OP_MAX),       T3(vand, OP_AND),
    T3(vor, OP_OR),       T3(vxor, OP_XOR),     T3(vmseq, OP_SEQ),      T3(vmsne, OP_SNE),
    T2(vmsltu, OP_SLTU),  T2(vmslt, OP_SLT),    T3(vmsleu, OP_SLEU),    T3(vmsle, OP_SLE),
    TXI(vmsgtu, OP_SGTU), TXI(vmsgt, OP_SGT),   T3(vsll, OP_SLL),       T3(vsrl, OP_SRL),
    T3(vsra, OP_SRA),     T2(vdivu, OP_DIVU),   T2(vdiv, OP_DIV),       T2(vremu, OP_REMU),
    T2(vrem, OP_REM),     T2(vmulhu, OP_MULHU), T2(vmul, OP_MUL),       T2(vmulhsu, OP_MULHSU),
    T2(vmulh, OP_MULH),   T2(vmadd, OP_MADD),   T2(vnmsub, OP_NMSUB),   T2(vmacc, OP_MACC),
    T2(vnmsac, OP_NMSAC),
    [ISA_vmerge_vvm] = {1, OP_MOV, F_MVV}, [ISA_vmerge_vxm] = {1, OP_MOV, F_MVX},
    [ISA_vmerge_vim] = {1, OP_MOV, F_MVI}, [ISA_vmv_v_v] = {1, OP_MOV, F_SV},
    [ISA_vmv_v_x] = {1, OP_MOV, F_SX},     [ISA_vmv_v_i] = {1, OP_MOV, F_SI},
    [ISA_vmv_s_x] = {1, OP_MOV, F_SX}, /* Ventus: a broadcast, as vmv.v.x */
    [ISA_vid_v] = {1, OP_MOV, F_ID},       [ISA_vmv_x_s] = {1, OP_MOV, F_XS},
};
#undef T3
#undef T2
#undef TXI

static const vop *vop_of(isa_id id) { return vops[id].valid ? &vops[id] : NULL; }

/* a = vs2[i], b = vs1[i] / scalar / immediate, d = vd[i], all zero-extended
 * sew-bit values; the caller keeps the low sew bits */
static uint64_t vapply(int op, uint64_t a, uint64_t b, uint64_t d, unsigned sew) {
  uint64_t sa = sew_sext(a, sew), sb = sew_sext(b, sew);
  int64_t ia = (int64_t)sa, ib = (int64_t)sb; /* two's complement on every host C17 targets */
  unsigned sh = (unsigned)(b & (sew - 1));
  switch (op) {
  case OP_ADD: return a + b;
  case OP_SUB: return a - b;
  case OP_RSUB: return b - a;
  case OP_MINU: return a < b ? a : b;
  case OP_MIN: return ia < ib ? a : b;
  case OP_MAXU: return a > b ? a : b;
  case OP_MAX: return ia > ib ? a : b;
  case OP_AND: return a & b;
  case OP_OR: return a | b;
  case OP_XOR: return a ^ b;
  case OP_SLL: return a << sh;
  case OP_SRL: return a >> sh;
  case OP_SRA: return sra64u(sa, sh);
  case OP_MUL: return a * b;
  /* below 64 bits the whole product fits 64 bits */
  case OP_MULHU: return sew == 64 ? mulhu64(a, b) : a * b >> sew;
  case OP_MULH: return sew == 64 ? mulh64(a, b) : sra64u(sa * sb, sew);
  case OP_MULHSU: return sew == 64 ? mulhsu64(a, b) : sra64u(sa * b, sew);
  /* RVV: x / 0 = all ones, x % 0 = x; the most negative / -1 = itself, rem 0 */
  case OP_DIVU: return b ? a / b : ~0ull;
  case OP_REMU: return b ? a % b : a;
  case OP_DIV:
    if (!b) return ~0ull;
    if (ib == -1) return 0 - sa;
    return (uint64_t)(ia / ib);
  case OP_REM:
    if (!b) return a;
    if (ib == -1) return 0;
    return (uint64_t)(ia % ib);
  case OP_MACC: return d + b * a;
  case OP_NMSAC: return d - b * a;
  case OP_MADD: return b * d + a;
  case OP_NMSUB: return a - b * d;
  case OP_SEQ: return a == b;
  case OP_SNE: return a != b;
  case OP_SLTU: return a < b;
  case OP_SLT: return ia < ib;
  case OP_SLEU: return a <= b;
  case OP_SLE: return ia <= ib;
  case OP_SGTU: return a > b;
  case OP_SGT: return ia > ib;
  default: return b; /* OP_MOV */
  }
}

/* vapply on every lane of em; the commonest operations with the switch
 * outside the lane loop */
static void vapply_lanes(int op, uint32_t em, const uint64_t *A, const uint64_t *B, const uint64_t *D, uint64_t *r,
                         unsigned sew) {
#define EACH(expr) FOR_LANES(em, i) r[i] = (expr); break
  switch (op) {
  case OP_ADD: EACH(A[i] + B[i]);
  case OP_SUB: EACH(A[i] - B[i]);
  case OP_RSUB: EACH(B[i] - A[i]);
  case OP_AND: EACH(A[i] & B[i]);
  case OP_OR: EACH(A[i] | B[i]);
  case OP_XOR: EACH(A[i] ^ B[i]);
  case OP_MUL: EACH(A[i] * B[i]);
  case OP_MACC: EACH(D[i] + B[i] * A[i]);
  case OP_SLL: EACH(A[i] << (B[i] & (sew - 1)));
  case OP_SRL: EACH(A[i] >> (B[i] & (sew - 1)));
  case OP_MINU: EACH(A[i] < B[i] ? A[i] : B[i]);
  case OP_MAXU: EACH(A[i] > B[i] ? A[i] : B[i]);
  case OP_SEQ: EACH(A[i] == B[i]);
  case OP_SNE: EACH(A[i] != B[i]);
  case OP_SLTU: EACH(A[i] < B[i]);
  default: EACH(vapply(op, A[i], B[i], D[i], sew));
  }
#undef EACH
}

static int uses_vs2(int form) { return form <= F_MVI || form == F_XS; }

static int vsew_op(vt_exec *x, const isa_inst *in, const vop *o, unsigned sew) {
  vt_warp *w = x->w;
  int form = o->form, cmp = o->op >= OP_CMP, acc = o->op >= OP_MACC && o->op <= OP_NMSUB;
  if (form != F_XS && !cmp) NEED_SEW_REG(in->rd, sew);
  if (uses_vs2(form)) NEED_SEW_REG(in->rs2, sew);
  if (form == F_VV || form == F_MVV || form == F_SV) NEED_SEW_REG(in->rs1, sew);
  uint32_t em = x->emask, sel = 0;
  int merge = form == F_MVV || form == F_MVX || form == F_MVI;
  if (merge) { /* every SIMT-active lane below vl is written (exec_merge) */
    em = w->mask & lanes_mask(w->vl);
    x->emask = em;
    sel = w->v[0][0];
  }
  uint64_t s = 0;
  if (form == F_VX || form == F_MVX || form == F_SX) s = vsew_scalar(x, in->rs1, sew);
  else if (form == F_VI || form == F_MVI || form == F_SI) s = (uint64_t)(int64_t)in->imm & sew_mask(sew);
  if (form == F_XS) { /* vmv.x.s: the last active lane (exec_last_lane), sign-extended to 32 bits */
    if (em) set_x(x, in->rd, (uint32_t)sew_sext(vel_get(x, in->rs2, 31 - (uint32_t)__builtin_clz(em), sew), sew));
    return 0;
  }
  uint64_t A[VT_MAX_LANES], B[VT_MAX_LANES], D[VT_MAX_LANES], r[VT_MAX_LANES];
  if (uses_vs2(form)) FOR_LANES(em, i) A[i] = vel_get(x, in->rs2, i, sew);
  else FOR_LANES(em, i) A[i] = 0;
  if (form == F_VV || form == F_MVV || form == F_SV) FOR_LANES(em, i) B[i] = vel_get(x, in->rs1, i, sew);
  else if (form == F_ID) FOR_LANES(em, i) B[i] = i;
  else FOR_LANES(em, i) B[i] = s;
  if (acc) FOR_LANES(em, i) D[i] = vel_get(x, in->rd, i, sew);
  else FOR_LANES(em, i) D[i] = 0;
  if (merge) FOR_LANES(em, i) r[i] = (sel >> i & 1) ? B[i] : A[i];
  else vapply_lanes(o->op, em, A, B, D, r, sew);
  if (cmp) FOR_LANES(em, i) w->v[in->rd][i] = (uint32_t)r[i];
  else FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  trace_vreg(x, in->rd);
  return 0;
}

int vsew_unsupported(vt_exec *x, const isa_inst *in, unsigned sew, const char *why) {
  char msg[160];
  snprintf(msg, sizeof msg, "%s at SEW = %u: %s", isa_table[in->id].mnemonic, sew, why);
  vt_fail(x->e, VT_ERR_ILLEGAL, "%s", msg);
  return -1;
}

void vxsat_set(vt_exec *x) {
  if (x->w->vxsat) return;
  x->w->vxsat = 1;
  trace_csr(x, 0x009, 1);
}

static int is_widen(isa_id id) { return id >= ISA_vwaddu_vv && id <= ISA_vwmaccus_vx; }
static int is_index32(isa_id id) {
  return id == ISA_vluxei32_v || id == ISA_vloxei32_v || id == ISA_vsuxei32_v || id == ISA_vsoxei32_v;
}

int vsew_aware(isa_id id) {
  uint32_t f = isa_table[id].flags;
  if (!(f & IF_VEC) || (f & IF_CUSTOMV)) return 0;
  if (is_widen(id)) return 1;
  if (f & IF_REV_2025) return 0; /* the other 2025 entries read SEW themselves */
  switch (id) {
  /* mask logic on the 0/1 elements, and the 32-bit accesses (EEW 32 at any SEW) */
  case ISA_vmandn_mm: case ISA_vmand_mm: case ISA_vmor_mm: case ISA_vmxor_mm: case ISA_vmorn_mm:
  case ISA_vmnand_mm: case ISA_vmnor_mm: case ISA_vmxnor_mm: case ISA_vle32_v: case ISA_vse32_v:
  case ISA_vlse32_v: case ISA_vsse32_v:
    return 0;
  default: return 1;
  }
}

int vsew_unmodifiable(isa_id id, unsigned sew) {
  uint32_t f = isa_table[id].flags;
  if (!(f & IF_VEC) || (f & IF_CUSTOMV)) return 0;
  return sew != 32 || (id >= ISA_vnsrl_wv && id <= ISA_vnclip_wi) ||
         (id >= ISA_vfwcvt_xu_f_v && id <= ISA_vfncvt_rtz_x_f_w); /* 64-bit or integer operands */
}

int exec_vsew(vt_exec *x, const isa_inst *in) {
  unsigned sew = vsew_of(x->w);
  isa_id id = (isa_id)in->id;
  if (sew == 32) return vt_exec_table[id](x, in);
  const vop *o = vop_of(id);
  if (o) return vsew_op(x, in, o, sew);
  if (is_widen(id)) {
    if (sew == 64) return vsew_unsupported(x, in, sew, "a widening instruction needs SEW <= 32");
    return vsew_widen(x, in, sew);
  }
  if (is_index32(id))
    return vsew_indexed(x, in, 32, id == ISA_vsuxei32_v || id == ISA_vsoxei32_v);
  if (vfp_sew_handles(id, sew)) return exec_vfp_sew(x, in);
  return vsew_unsupported(x, in, sew, "not implemented at this SEW (RVV floating point: SEW 16, 32 and 64)");
}
