/* RVV floating point at SEW 16 (revision 2025): IEEE binary16 (RISC-V
 * Zvfh's half precision) in software (fpn.c) for the arithmetic, the fused
 * multiply-adds, min/max, sign injection, compares, classify, square root,
 * the conversions to and from 16-bit integers, merge and the moves; rounding by frm, the flags into fflags. The scalar
 * operand of a .vf form is the low 16 bits of x[rs1] (Zhinx's place for a
 * half), an element the low 16 bits of its lane's register (written
 * zero-extended, as every SEW 16 element). Compares write 0 or 1. */
#include "exec_vsew.h"
#include "fp32.h"
#include "fpn.h"

enum {
  H_ADD, H_SUB, H_RSUB, H_MUL, H_DIV, H_RDIV, H_MIN, H_MAX, H_SGNJ, H_SGNJN, H_SGNJX,
  H_EQ, H_NE, H_LT, H_LE, H_GT, H_GE, H_SQRT, H_CLASS, H_MOV,
  H_F2U, H_F2I, H_U2F, H_I2F, H_F2U_RTZ, H_F2I_RTZ, /* to and from 16-bit integers */
  H_FMA, /* the fused forms: fma fields of the entry */
};
enum { HF_VV, HF_VF, HF_UN, HF_MERGE, HF_SPLAT };

typedef struct {
  uint8_t valid, op, form;
  uint8_t mul_d, add_a, np, na; /* H_FMA: multiply b by d (else a), add a (else d), negations */
} hop;

#define B2(n, op) [ISA_##n##_vv] = {1, op, HF_VV, 0, 0, 0, 0}, [ISA_##n##_vf] = {1, op, HF_VF, 0, 0, 0, 0}
#define F2(n, md, aa, np, na) [ISA_##n##_vv] = {1, H_FMA, HF_VV, md, aa, np, na}, \
                              [ISA_##n##_vf] = {1, H_FMA, HF_VF, md, aa, np, na}
static const hop hops[ISA_COUNT] = {
    B2(vfadd, H_ADD), B2(vfsub, H_SUB), B2(vfmul, H_MUL), B2(vfdiv, H_DIV), B2(vfmin, H_MIN), B2(vfmax, H_MAX),
    B2(vfsgnj, H_SGNJ), B2(vfsgnjn, H_SGNJN), B2(vfsgnjx, H_SGNJX), B2(vmfeq, H_EQ), B2(vmfle, H_LE),
    B2(vmflt, H_LT), B2(vmfne, H_NE),
    [ISA_vmfgt_vf] = {1, H_GT, HF_VF, 0, 0, 0, 0}, [ISA_vmfge_vf] = {1, H_GE, HF_VF, 0, 0, 0, 0},
    [ISA_vfrdiv_vf] = {1, H_RDIV, HF_VF, 0, 0, 0, 0}, [ISA_vfrsub_vf] = {1, H_RSUB, HF_VF, 0, 0, 0, 0},
    /* b = vs1[i] or the scalar, a = vs2[i], d = vd[i] (as exec_fp.c's VFMA) */
    F2(vfmacc, 0, 0, 0, 0),  /* +(b*a) + d */
    F2(vfnmacc, 0, 0, 1, 1), /* -(b*a) - d */
    F2(vfmsac, 0, 0, 0, 1),  /* +(b*a) - d */
    F2(vfnmsac, 0, 0, 1, 0), /* -(b*a) + d */
    F2(vfmadd, 1, 1, 0, 0),  /* +(b*d) + a */
    F2(vfnmadd, 1, 1, 1, 1), /* -(b*d) - a */
    F2(vfmsub, 1, 1, 0, 1),  /* +(b*d) - a */
    F2(vfnmsub, 1, 1, 1, 0), /* -(b*d) + a */
    [ISA_vfsqrt_v] = {1, H_SQRT, HF_UN, 0, 0, 0, 0}, [ISA_vfclass_v] = {1, H_CLASS, HF_UN, 0, 0, 0, 0},
    [ISA_vfcvt_xu_f_v] = {1, H_F2U, HF_UN, 0, 0, 0, 0}, [ISA_vfcvt_x_f_v] = {1, H_F2I, HF_UN, 0, 0, 0, 0},
    [ISA_vfcvt_f_xu_v] = {1, H_U2F, HF_UN, 0, 0, 0, 0}, [ISA_vfcvt_f_x_v] = {1, H_I2F, HF_UN, 0, 0, 0, 0},
    [ISA_vfcvt_rtz_xu_f_v] = {1, H_F2U_RTZ, HF_UN, 0, 0, 0, 0},
    [ISA_vfcvt_rtz_x_f_v] = {1, H_F2I_RTZ, HF_UN, 0, 0, 0, 0},
    [ISA_vfmerge_vfm] = {1, H_MOV, HF_MERGE, 0, 0, 0, 0}, [ISA_vfmv_v_f] = {1, H_MOV, HF_SPLAT, 0, 0, 0, 0},
    [ISA_vfmv_s_f] = {1, H_MOV, HF_SPLAT, 0, 0, 0, 0}, /* Ventus: a broadcast */
};
#undef B2
#undef F2

int vfp16_handles(isa_id id) { return hops[id].valid; }

static uint32_t h_op(const hop *o, uint32_t a, uint32_t b, uint32_t d, unsigned rm, uint32_t *fl) {
  const fpn_fmt f = FPN_F16;
  switch (o->op) {
  case H_ADD: return fpn_add(f, a, b, rm, fl);
  case H_SUB: return fpn_sub(f, a, b, rm, fl);
  case H_RSUB: return fpn_sub(f, b, a, rm, fl);
  case H_MUL: return fpn_mul(f, a, b, rm, fl);
  case H_DIV: return fpn_div(f, a, b, rm, fl);
  case H_RDIV: return fpn_div(f, b, a, rm, fl);
  case H_MIN: return fpn_min(f, a, b, fl);
  case H_MAX: return fpn_max(f, a, b, fl);
  case H_SGNJ: return (a & 0x7fffu) | (b & 0x8000u);
  case H_SGNJN: return (a & 0x7fffu) | (~b & 0x8000u);
  case H_SGNJX: return a ^ (b & 0x8000u);
  case H_EQ: return (uint32_t)fpn_eq(f, a, b, fl);
  case H_NE: return (uint32_t)!fpn_eq(f, a, b, fl);
  case H_LT: return (uint32_t)fpn_lt(f, a, b, fl);
  case H_LE: return (uint32_t)fpn_le(f, a, b, fl);
  case H_GT: return (uint32_t)fpn_lt(f, b, a, fl);
  case H_GE: return (uint32_t)fpn_le(f, b, a, fl);
  case H_SQRT: return fpn_sqrt(f, a, rm, fl);
  case H_CLASS: return fpn_classify(f, a);
  case H_F2U: return fpn_to_int(f, a, 16, 0, rm, fl);
  case H_F2I: return fpn_to_int(f, a, 16, 1, rm, fl);
  case H_U2F: return fpn_from_int(f, a, 16, 0, rm, fl);
  case H_I2F: return fpn_from_int(f, a, 16, 1, rm, fl);
  case H_F2U_RTZ: return fpn_to_int(f, a, 16, 0, FP_RTZ, fl);
  case H_F2I_RTZ: return fpn_to_int(f, a, 16, 1, FP_RTZ, fl);
  case H_FMA: return fpn_fma(f, b, o->mul_d ? d : a, o->add_a ? a : d, o->np, o->na, rm, fl);
  default: return b; /* H_MOV */
  }
}

int exec_vfp16(vt_exec *x, const isa_inst *in) {
  const hop *o = &hops[in->id];
  vt_warp *w = x->w;
  unsigned rm = 0;
  if (o->op != H_MOV && fp_rm(x, 7, &rm)) return -1;
  uint32_t em = x->emask, sel = 0, b0 = w->x[in->rs1] & 0xffffu, r[VT_MAX_LANES], fl = 0;
  if (o->form == HF_MERGE) { /* every SIMT-active lane below vl, as vmerge */
    em = w->mask & lanes_mask(w->vl);
    x->emask = em;
    sel = w->v[0][0];
  }
  FOR_LANES(em, i) {
    uint32_t a = w->v[in->rs2][i] & 0xffffu, d = w->v[in->rd][i] & 0xffffu;
    uint32_t b = o->form == HF_VV ? w->v[in->rs1][i] & 0xffffu : b0;
    if (o->form == HF_MERGE) r[i] = sel >> i & 1 ? b : a;
    else r[i] = h_op(o, a, b, d, rm, &fl) & 0xffffu;
  }
  FOR_LANES(em, i) w->v[in->rd][i] = r[i];
  if (fl) {
    x->fflags |= fl;
    fp_commit_flags(x);
  }
  trace_vreg(x, in->rd);
  return 0;
}
