/* fp32: Zfinx scalar ops on x registers and RVV fp ops per lane, all
 * through the bit-exact fp32 library. Static rm 7 means frm; vector ops
 * always use frm. Flags of all lanes accumulate into fcsr once. */
#include "exec.h"
#include "fp32.h"

#define SIGN 0x80000000u

/* ---- scalar ------------------------------------------------------------------ */
#define F_RR(id, expr)                                                                     \
  HANDLER(id) {                                                                            \
    unsigned rm;                                                                           \
    if (fp_rm(x, in->rm, &rm)) return -1;                                                  \
    uint32_t a = XR(in->rs1), b = XR(in->rs2), *fl = &x->fflags;                           \
    (void)b;                                                                               \
    set_x(x, in->rd, (expr));                                                              \
    fp_commit_flags(x);                                                                    \
    return 0;                                                                              \
  }
#define F_NORM(id, expr)                                                                   \
  HANDLER(id) {                                                                            \
    uint32_t a = XR(in->rs1), b = XR(in->rs2), *fl = &x->fflags;                           \
    (void)b;                                                                               \
    (void)fl;                                                                              \
    set_x(x, in->rd, (expr));                                                              \
    fp_commit_flags(x);                                                                    \
    return 0;                                                                              \
  }

F_RR(fadd_s, fp32_add(a, b, rm, fl))
F_RR(fsub_s, fp32_sub(a, b, rm, fl))
F_RR(fmul_s, fp32_mul(a, b, rm, fl))
F_RR(fdiv_s, fp32_div(a, b, rm, fl))
F_RR(fsqrt_s, fp32_sqrt(a, rm, fl))
F_RR(fcvt_w_s, (uint32_t)fp32_to_i32(a, rm, fl))
F_RR(fcvt_wu_s, fp32_to_u32(a, rm, fl))
F_RR(fcvt_s_w, fp32_from_i32((int32_t)a, rm, fl))
F_RR(fcvt_s_wu, fp32_from_u32(a, rm, fl))
F_NORM(fsgnj_s, (a & ~SIGN) | (b & SIGN))
F_NORM(fsgnjn_s, (a & ~SIGN) | (~b & SIGN))
F_NORM(fsgnjx_s, a ^ (b & SIGN))
F_NORM(fmin_s, fp32_min(a, b, fl))
F_NORM(fmax_s, fp32_max(a, b, fl))
F_NORM(feq_s, (uint32_t)fp32_eq(a, b, fl))
F_NORM(flt_s, (uint32_t)fp32_lt(a, b, fl))
F_NORM(fle_s, (uint32_t)fp32_le(a, b, fl))
F_NORM(fclass_s, fp32_classify(a))

#define F_FMA(id, np, na)                                                                  \
  HANDLER(id) {                                                                            \
    unsigned rm;                                                                           \
    if (fp_rm(x, in->rm, &rm)) return -1;                                                  \
    set_x(x, in->rd, fp32_fma(XR(in->rs1), XR(in->rs2), XR(in->rs3), np, na, rm, &x->fflags)); \
    fp_commit_flags(x);                                                                    \
    return 0;                                                                              \
  }
F_FMA(fmadd_s, 0, 0)
F_FMA(fmsub_s, 0, 1)
F_FMA(fnmsub_s, 1, 0)
F_FMA(fnmadd_s, 1, 1)

/* ---- vector: a = vs2[i], b = vs1[i] or x[rs1] ----------------------------- */
#define VF_BODY(expr)                                                                      \
  unsigned rm;                                                                             \
  if (fp_rm(x, 7, &rm)) return -1;                                                         \
  (void)rm;                                                                                \
  uint32_t *vd = VR(in->rd), *fl = &x->fflags;                                             \
  (void)fl;                                                                                \
  const uint32_t *s2 = VR(in->rs2);                                                        \
  LANES(x->emask, i, {                                                                     \
    uint32_t a = s2[i];                                                                    \
    B_LANE;                                                                                \
    vd[i] = (expr);                                                                        \
  });                                                                                      \
  fp_commit_flags(x);                                                                      \
  trace_vreg(x, in->rd);                                                                   \
  return 0;

#define VF_VV(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    const uint32_t *s1 = VR(in->rs1);                                                      \
    VF_BODY(expr)                                                                          \
  }
#define VF_VF(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    const uint32_t bx = XR(in->rs1);                                                       \
    VF_BODY(expr)                                                                          \
  }

#define B_LANE uint32_t b = s1[i]
#define VF2V(n, expr) VF_VV(n##_vv, expr)
VF2V(vfadd, fp32_add(a, b, rm, fl))
VF2V(vfsub, fp32_sub(a, b, rm, fl))
VF2V(vfmin, fp32_min(a, b, fl))
VF2V(vfmax, fp32_max(a, b, fl))
VF2V(vfsgnj, (a & ~SIGN) | (b & SIGN))
VF2V(vfsgnjn, (a & ~SIGN) | (~b & SIGN))
VF2V(vfsgnjx, a ^ (b & SIGN))
VF2V(vmfeq, (uint32_t)fp32_eq(a, b, fl))
VF2V(vmfle, (uint32_t)fp32_le(a, b, fl))
VF2V(vmflt, (uint32_t)fp32_lt(a, b, fl))
VF2V(vmfne, (uint32_t)!fp32_eq(a, b, fl))
VF2V(vfdiv, fp32_div(a, b, rm, fl))
VF2V(vfmul, fp32_mul(a, b, rm, fl))
#undef B_LANE

#define B_LANE uint32_t b = bx
#define VF2F(n, expr) VF_VF(n##_vf, expr)
VF2F(vfadd, fp32_add(a, b, rm, fl))
VF2F(vfsub, fp32_sub(a, b, rm, fl))
VF2F(vfmin, fp32_min(a, b, fl))
VF2F(vfmax, fp32_max(a, b, fl))
VF2F(vfsgnj, (a & ~SIGN) | (b & SIGN))
VF2F(vfsgnjn, (a & ~SIGN) | (~b & SIGN))
VF2F(vfsgnjx, a ^ (b & SIGN))
VF2F(vmfeq, (uint32_t)fp32_eq(a, b, fl))
VF2F(vmfle, (uint32_t)fp32_le(a, b, fl))
VF2F(vmflt, (uint32_t)fp32_lt(a, b, fl))
VF2F(vmfne, (uint32_t)!fp32_eq(a, b, fl))
VF2F(vmfgt, (uint32_t)fp32_lt(b, a, fl))
VF2F(vmfge, (uint32_t)fp32_le(b, a, fl))
VF2F(vfdiv, fp32_div(a, b, rm, fl))
VF2F(vfrdiv, fp32_div(b, a, rm, fl))
VF2F(vfmul, fp32_mul(a, b, rm, fl))
VF2F(vfrsub, fp32_sub(b, a, rm, fl))
#undef B_LANE

/* fused multiply-add family: s1 = vs1[i] or x[rs1], s2 = vs2[i], d = vd[i] */
#define VFMA(n, m1, m2, add, np, na)                                                       \
  HANDLER(n##_vv) {                                                                        \
    const uint32_t *s1v = VR(in->rs1);                                                     \
    VFMA_BODY(s1v[i], m1, m2, add, np, na)                                                 \
  }                                                                                        \
  HANDLER(n##_vf) {                                                                        \
    const uint32_t bx = XR(in->rs1);                                                       \
    VFMA_BODY(bx, m1, m2, add, np, na)                                                     \
  }
#define VFMA_BODY(S1, m1, m2, add, np, na)                                                 \
  unsigned rm;                                                                             \
  if (fp_rm(x, 7, &rm)) return -1;                                                         \
  uint32_t *vd = VR(in->rd);                                                               \
  const uint32_t *s2v = VR(in->rs2);                                                       \
  LANES(x->emask, i, {                                                                     \
    uint32_t s1 = (S1), s2 = s2v[i], d = vd[i];                                            \
    (void)s2;                                                                              \
    (void)d;                                                                               \
    vd[i] = fp32_fma(m1, m2, add, np, na, rm, &x->fflags);                                 \
  });                                                                                      \
  fp_commit_flags(x);                                                                      \
  trace_vreg(x, in->rd);                                                                   \
  return 0;

VFMA(vfmacc, s1, s2, d, 0, 0)  /* +(s1*s2) + d */
VFMA(vfnmacc, s1, s2, d, 1, 1) /* -(s1*s2) - d */
VFMA(vfmsac, s1, s2, d, 0, 1)  /* +(s1*s2) - d */
VFMA(vfnmsac, s1, s2, d, 1, 0) /* -(s1*s2) + d */
VFMA(vfmadd, s1, d, s2, 0, 0)  /* +(s1*d) + s2 */
VFMA(vfnmadd, s1, d, s2, 1, 1) /* -(s1*d) - s2 */
VFMA(vfmsub, s1, d, s2, 0, 1)  /* +(s1*d) - s2 */
VFMA(vfnmsub, s1, d, s2, 1, 0) /* -(s1*d) + s2 */

/* unary */
#define VF_UN(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    unsigned rm;                                                                           \
    if (fp_rm(x, 7, &rm)) return -1;                                                       \
    (void)rm;                                                                              \
    uint32_t *vd = VR(in->rd), *fl = &x->fflags;                                           \
    (void)fl;                                                                              \
    const uint32_t *s2 = VR(in->rs2);                                                      \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i];                                                                  \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
    fp_commit_flags(x);                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }
VF_UN(vfcvt_xu_f_v, fp32_to_u32(a, rm, fl))
VF_UN(vfcvt_x_f_v, (uint32_t)fp32_to_i32(a, rm, fl))
VF_UN(vfcvt_f_xu_v, fp32_from_u32(a, rm, fl))
VF_UN(vfcvt_f_x_v, fp32_from_i32((int32_t)a, rm, fl))
VF_UN(vfcvt_rtz_xu_f_v, fp32_to_u32(a, FP_RTZ, fl))
VF_UN(vfcvt_rtz_x_f_v, (uint32_t)fp32_to_i32(a, FP_RTZ, fl))
VF_UN(vfsqrt_v, fp32_sqrt(a, rm, fl))
VF_UN(vfclass_v, fp32_classify(a))

/* moves (no arithmetic, no flags) */
HANDLER(vfmerge_vfm) {
  vt_warp *w = x->w;
  uint32_t em = w->mask & lanes_mask(w->vl), sel = w->v[0][0], f = XR(in->rs1);
  uint32_t *vd = w->v[in->rd];
  const uint32_t *s2 = w->v[in->rs2];
  x->emask = em;
  FOR_LANES(em, i) vd[i] = (sel >> i & 1) ? f : s2[i];
  trace_vreg(x, in->rd);
  return 0;
}

static int fsplat(vt_exec *x, const isa_inst *in) {
  uint32_t *vd = VR(in->rd), f = XR(in->rs1);
  LANES(x->emask, i, vd[i] = f);
  trace_vreg(x, in->rd);
  return 0;
}
HANDLER(vfmv_v_f) { return fsplat(x, in); }
HANDLER(vfmv_s_f) { return fsplat(x, in); } /* Ventus: broadcast, as vmv.s.x */
HANDLER(vfmv_f_s) {
  if (x->emask) set_x(x, in->rd, VR(in->rs2)[31 - __builtin_clz(x->emask)]);
  return 0;
}
