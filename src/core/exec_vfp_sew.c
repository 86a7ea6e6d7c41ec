/* RVV floating point at SEW 16 and 64 (revision 2025): IEEE binary16
 * (RISC-V Zvfh's half precision; bfloat16 under vtype.altfmt, as Zvfbfa)
 * and binary64 in software (fpn.c) for the
 * arithmetic, the fused multiply-adds, min/max, sign injection, compares,
 * classify, square root, the conversions to and from SEW-bit integers,
 * merge and the moves; rounding by frm, the flags into fflags. The scalar
 * operand of a .vf form is the low 16 bits of x[rs1] at SEW 16 (Zhinx's
 * place for a half) and the pair {x[rs1+1], x[rs1]} at SEW 64 (Zdinx's on
 * RV32; x0 reads 0); an element is the low 16 bits of its lane's register
 * (written zero-extended) or the pair {v[n+1], v[n]}. Compares write 0 or
 * 1 to the single register vd, as every Ventus compare; vfmv.f.s writes x
 * registers as Zhinx and Zdinx do (a half sign-extended, a double in a
 * pair). */
#include "exec_vsew.h"
#include "fp32.h"
#include "fpn.h"

enum {
  H_ADD, H_SUB, H_RSUB, H_MUL, H_DIV, H_RDIV, H_MIN, H_MAX, H_SGNJ, H_SGNJN, H_SGNJX,
  H_EQ, H_NE, H_LT, H_LE, H_GT, H_GE, H_SQRT, H_CLASS, H_MOV,
  H_F2U, H_F2I, H_U2F, H_I2F, H_F2U_RTZ, H_F2I_RTZ, /* to and from 16-bit integers */
  H_FMA, /* the fused forms: fma fields of the entry */
};
enum { HF_VV, HF_VF, HF_UN, HF_MERGE, HF_SPLAT, HF_TOX };

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
    [ISA_vfmv_f_s] = {1, H_MOV, HF_TOX, 0, 0, 0, 0},
};
#undef B2
#undef F2

int vfp_sew_handles(isa_id id, unsigned sew) { return hops[id].valid && (sew == 16 || (sew == 64 && FPN_HAVE_64)); }

/* the fpn operation at SEW 16 (binary16) or 64 (binary64) */
#if FPN_HAVE_64
#define CALL(name, ...) (sew == 64 ? fpn64_##name(FPN_F64, __VA_ARGS__) : fpn_##name(h, __VA_ARGS__))
#else
#define CALL(name, ...) fpn_##name(h, __VA_ARGS__)
#endif

/* h: the 16-bit format (binary16, or bfloat16 under vtype.altfmt) */
static uint64_t h_op(const hop *o, uint64_t a, uint64_t b, uint64_t d, unsigned sew, fpn_fmt h, unsigned rm,
                     uint32_t *fl) {
  uint64_t sb = 1ull << (sew - 1), mag = sb - 1;
  switch (o->op) {
  case H_ADD: return CALL(add, a, b, rm, fl);
  case H_SUB: return CALL(sub, a, b, rm, fl);
  case H_RSUB: return CALL(sub, b, a, rm, fl);
  case H_MUL: return CALL(mul, a, b, rm, fl);
  case H_DIV: return CALL(div, a, b, rm, fl);
  case H_RDIV: return CALL(div, b, a, rm, fl);
  case H_MIN: return CALL(min, a, b, fl);
  case H_MAX: return CALL(max, a, b, fl);
  case H_SGNJ: return (a & mag) | (b & sb);
  case H_SGNJN: return (a & mag) | (~b & sb);
  case H_SGNJX: return a ^ (b & sb);
  case H_EQ: return (uint64_t)CALL(eq, a, b, fl);
  case H_NE: return (uint64_t)!CALL(eq, a, b, fl);
  case H_LT: return (uint64_t)CALL(lt, a, b, fl);
  case H_LE: return (uint64_t)CALL(le, a, b, fl);
  case H_GT: return (uint64_t)CALL(lt, b, a, fl);
  case H_GE: return (uint64_t)CALL(le, b, a, fl);
  case H_SQRT: return CALL(sqrt, a, rm, fl);
  case H_CLASS: return CALL(classify, a);
  case H_F2U: return CALL(to_int, a, sew, 0, rm, fl);
  case H_F2I: return CALL(to_int, a, sew, 1, rm, fl);
  case H_U2F: return CALL(from_int, a, sew, 0, rm, fl);
  case H_I2F: return CALL(from_int, a, sew, 1, rm, fl);
  case H_F2U_RTZ: return CALL(to_int, a, sew, 0, FP_RTZ, fl);
  case H_F2I_RTZ: return CALL(to_int, a, sew, 1, FP_RTZ, fl);
  case H_FMA: return CALL(fma, b, o->mul_d ? d : a, o->add_a ? a : d, o->np, o->na, rm, fl);
  default: return b; /* H_MOV */
  }
}
#undef CALL

int exec_vfp_sew(vt_exec *x, const isa_inst *in) {
  const hop *o = &hops[in->id];
  vt_warp *w = x->w;
  unsigned sew = vsew_of(w), rm = 0;
  int cmp = o->op >= H_EQ && o->op <= H_GE;
  if (o->form == HF_TOX) { /* vfmv.f.s: the last active lane (exec_last_lane) to x registers, as Zhinx and
                            * Zdinx keep a float: a half sign-extended, a double in the pair {x[rd+1], x[rd]} */
    NEED_SEW_REG(in->rs2, sew);
    if (sew == 64) NEED_PAIR('x', in->rd);
    if (!x->emask) return 0;
    uint64_t v = vel_get(x, in->rs2, 31 - (uint32_t)__builtin_clz(x->emask), sew);
    if (sew == 64) set_xpair(x, in->rd, v);
    else set_x(x, in->rd, (uint32_t)sew_sext(v, 16));
    return 0;
  }
  if (!cmp) NEED_SEW_REG(in->rd, sew);
  if (o->form != HF_SPLAT) NEED_SEW_REG(in->rs2, sew);
  if (o->form == HF_VV) NEED_SEW_REG(in->rs1, sew);
  if (sew == 64 && o->form != HF_VV && o->form != HF_UN) NEED_PAIR('x', in->rs1);
  if (o->op != H_MOV && fp_rm(x, 7, &rm)) return -1;
  uint32_t em = x->emask, sel = 0, fl = 0;
  uint64_t b0 = sew == 64 ? get_xpair(x, in->rs1) : w->x[in->rs1] & 0xffffu, r[VT_MAX_LANES];
  if (o->form == HF_MERGE) { /* every SIMT-active lane below vl, as vmerge */
    em = w->mask & lanes_mask(w->vl);
    x->emask = em;
    sel = w->v[0][0];
  }
  FOR_LANES(em, i) {
    uint64_t a = vel_get(x, in->rs2, i, sew), d = o->op == H_FMA ? vel_get(x, in->rd, i, sew) : 0;
    uint64_t b = o->form == HF_VV ? vel_get(x, in->rs1, i, sew) : b0;
    if (o->form == HF_MERGE) r[i] = sel >> i & 1 ? b : a;
    else r[i] = h_op(o, a, b, d, sew, vtype_altfmt(w) ? FPN_BF16 : FPN_F16, rm, &fl);
  }
  if (cmp) FOR_LANES(em, i) w->v[in->rd][i] = (uint32_t)r[i];
  else FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  if (fl) {
    x->fflags |= fl;
    fp_commit_flags(x);
  }
  trace_vreg(x, in->rd);
  return 0;
}
