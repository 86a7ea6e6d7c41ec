/* fp32: Zfinx scalar ops on x registers and RVV fp ops per lane, all
 * through the bit-exact fp32 library. Static rm 7 means frm; vector ops
 * always use frm. Flags of all lanes accumulate into fcsr once.
 *
 * Results the ISS writes with WRITE_FRD (fp results: arithmetic, sign
 * injection, min/max, int-to-float, vfmv.f.s) go through set_f: x[rd] as
 * Zfinx wants, f[rd] as the ISS keeps it, logged as an f write. Results it
 * writes with WRITE_RD (compares, fclass, float-to-int) go through set_x. */
#include "exec.h"
#include "fp32.h"
#include "fp32_lanes.h"

#define SIGN 0x80000000u

/* ---- scalar ------------------------------------------------------------------ */
#define F_RR(id, set, expr)                                                                \
  HANDLER(id) {                                                                            \
    unsigned rm;                                                                           \
    if (fp_rm(x, in->rm, &rm)) return -1;                                                  \
    uint32_t a = XR(in->rs1), b = XR(in->rs2), *fl = &x->fflags;                           \
    (void)b;                                                                               \
    set(x, in->rd, (expr));                                                                \
    fp_commit_flags(x);                                                                    \
    return 0;                                                                              \
  }
#define F_NORM(id, set, expr)                                                              \
  HANDLER(id) {                                                                            \
    uint32_t a = XR(in->rs1), b = XR(in->rs2), *fl = &x->fflags;                           \
    (void)b;                                                                               \
    (void)fl;                                                                              \
    set(x, in->rd, (expr));                                                                \
    fp_commit_flags(x);                                                                    \
    return 0;                                                                              \
  }

F_RR(fadd_s, set_f, fp32_add(a, b, rm, fl))
F_RR(fsub_s, set_f, fp32_sub(a, b, rm, fl))
F_RR(fmul_s, set_f, fp32_mul(a, b, rm, fl))
F_RR(fdiv_s, set_f, fp32_div(a, b, rm, fl))
F_RR(fsqrt_s, set_f, fp32_sqrt(a, rm, fl))
F_RR(fcvt_w_s, set_x, (uint32_t)fp32_to_i32(a, rm, fl))
F_RR(fcvt_wu_s, set_x, fp32_to_u32(a, rm, fl))
F_RR(fcvt_s_w, set_f, fp32_from_i32((int32_t)a, rm, fl))
F_RR(fcvt_s_wu, set_f, fp32_from_u32(a, rm, fl))
F_NORM(fsgnj_s, set_f, (a & ~SIGN) | (b & SIGN))
F_NORM(fsgnjn_s, set_f, (a & ~SIGN) | (~b & SIGN))
F_NORM(fsgnjx_s, set_f, a ^ (b & SIGN))
F_NORM(fmin_s, set_f, fp32_min(a, b, fl))
F_NORM(fmax_s, set_f, fp32_max(a, b, fl))
F_NORM(feq_s, set_x, (uint32_t)fp32_eq(a, b, fl))
F_NORM(flt_s, set_x, (uint32_t)fp32_lt(a, b, fl))
F_NORM(fle_s, set_x, (uint32_t)fp32_le(a, b, fl))
F_NORM(fclass_s, set_x, fp32_classify(a))

#define F_FMA(id, np, na)                                                                  \
  HANDLER(id) {                                                                            \
    unsigned rm;                                                                           \
    if (fp_rm(x, in->rm, &rm)) return -1;                                                  \
    set_f(x, in->rd, fp32_fma(XR(in->rs1), XR(in->rs2), XR(in->rs3), np, na, rm, &x->fflags)); \
    fp_commit_flags(x);                                                                    \
    return 0;                                                                              \
  }
F_FMA(fmadd_s, 0, 0)
F_FMA(fmsub_s, 0, 1)
F_FMA(fnmsub_s, 1, 0)
F_FMA(fnmadd_s, 1, 1)

/* ---- vector: a = vs2[i], b = vs1[i] or x[rs1] ----------------------------- */
/* The lanes of a partial mask for the whole-register batches (VF_WHOLE,
 * vfsqrt.v): all 32 are computed, those off the mask on 1.0 (1+1, 1*1,
 * 1/1 and sqrt(1) are exact normal results, inside every batch's domain and
 * without NX), in branch-free loops of a constant count the compiler
 * vectorises (lane_on, on_merge: exec.h). */
#define FP32_ONE 0x3f800000u

/* Every vector fp op rounds with frm; the flags of all lanes go to fcsr once.
 * They gather in a local so that the inlined fast paths keep them in a
 * register (x->fflags could alias vd[i] for the compiler). */
#define VF_BODY(B, expr)                                                                   \
  unsigned rm;                                                                             \
  if (fp_rm(x, 7, &rm)) return -1;                                                         \
  (void)rm;                                                                                \
  uint32_t lane_flags = 0, *fl = &lane_flags;                                              \
  (void)fl;                                                                                \
  VLANES(s2[i], B, expr);                                                                  \
  x->fflags |= lane_flags;                                                                 \
  fp_commit_flags(x);                                                                      \
  trace_vreg(x, in->rd);                                                                   \
  return 0;

#define VF_VV(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    const uint32_t *s1 = VR(in->rs1);                                                      \
    VF_BODY(s1[i], expr)                                                                   \
  }
#define VF_VF(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    const uint32_t bx = XR(in->rs1);                                                       \
    VF_BODY(bx, expr)                                                                      \
  }
#define VF2(n, expr) VF_VV(n##_vv, expr) VF_VF(n##_vf, expr)

/* 1 when raising NX would change nothing anyone sees: no commit record,
 * NX raised already and mstatus.FS off or Dirty (fp_commit_flags would
 * write nothing); the whole-register fp paths then skip their NX checks */
static inline int fp_nx_known(const vt_exec *x) {
  uint32_t fs = x->w->mstatus & MSTATUS_FS;
  return !x->c && (x->w->fflags & FFLAG_NX) && (fs == 0 || fs == MSTATUS_FS);
}

/* vfadd/vfsub/vfmul/vfdiv in RNE: the whole register in host arithmetic
 * first (fp32_lanes.c); any lane outside its proven domain sends the
 * instruction to the per-lane path. B(i) is the second operand of lane i,
 * as the batch wants it (b negated for a subtraction); DIRECT, when not
 * NULL, holds B(i) already (vs1 of an addition or product: no copy). On a full mask the
 * batch writes vd itself unless vd is a source, which the per-lane path
 * would still need (it writes every lane of vd again); on a partial mask
 * (divergent code, v0.t) all 32 lanes are computed, those off it as
 * 1.0 op 1.0 (lane_on), and only the mask's lanes reach vd (on_merge). */
#define VF_WHOLE(id, B, DIRECT, batch, expr)                                               \
  HANDLER(id) {                                                                            \
    uint32_t vl = x->w->vl, em = x->emask;                                                 \
    if (x->w->frm == FP_RNE && em && fp32_host_rne()) {                                    \
      uint32_t av[VT_MAX_LANES], bv[VT_MAX_LANES], r[VT_MAX_LANES], lane_flags = 0;        \
      const uint32_t *s1 = VR(in->rs1), *a = VR(in->rs2);                                  \
      const uint32_t bx = XR(in->rs1);                                                     \
      (void)s1;                                                                            \
      (void)bx;                                                                            \
      int full = em == lanes_mask(vl);                                                     \
      uint32_t n = full ? vl : VT_MAX_LANES;                                               \
      const uint32_t *b = (DIRECT);                                                        \
      if (full) {                                                                          \
        if (!b) {                                                                          \
          for (uint32_t i = 0; i < vl; i++) bv[i] = (B);                                   \
          b = bv;                                                                          \
        }                                                                                  \
      } else {                                                                             \
        for (uint32_t i = 0; i < VT_MAX_LANES; i++) {                                      \
          uint32_t on = lane_on(em, i);                                                    \
          av[i] = (a[i] & on) | (FP32_ONE & ~on);                                          \
          bv[i] = ((B) & on) | (FP32_ONE & ~on);                                           \
        }                                                                                  \
        a = av;                                                                            \
        b = bv;                                                                            \
      }                                                                                    \
      uint32_t *out = !full || in->rd == in->rs1 || in->rd == in->rs2 ? r : VR(in->rd);    \
      if (!batch(out, a, b, n, fp_nx_known(x) ? NULL : &lane_flags)) {                    \
        if (!full)                                                                         \
          on_merge(VR(in->rd), r, em);                                                     \
        else if (out == r)                                                                 \
          memcpy(VR(in->rd), r, 4 * (size_t)vl);                                           \
        x->fflags |= lane_flags;                                                           \
        fp_commit_flags(x);                                                                \
        trace_vreg(x, in->rd);                                                             \
        return 0;                                                                          \
      }                                                                                    \
    }                                                                                      \
    return exec_##id##_lanes(x, in);                                                       \
  }
/* the per-lane handlers of those, under another name */
#define VF_VV_L(id, expr)                                                                  \
  static int exec_##id##_lanes(vt_exec *x, const isa_inst *in) {                           \
    const uint32_t *s1 = VR(in->rs1);                                                      \
    VF_BODY(s1[i], expr)                                                                   \
  }
#define VF_VF_L(id, expr)                                                                  \
  static int exec_##id##_lanes(vt_exec *x, const isa_inst *in) {                           \
    const uint32_t bx = XR(in->rs1);                                                       \
    VF_BODY(bx, expr)                                                                      \
  }
#define VF2_WHOLE(n, batch, neg, expr)                                                     \
  VF_VV_L(n##_vv, expr) VF_VF_L(n##_vf, expr)                                              \
  VF_WHOLE(n##_vv, s1[i] ^ (neg), (neg) ? NULL : s1, batch, expr)                        \
  VF_WHOLE(n##_vf, bx ^ (neg), (const uint32_t *)NULL, batch, expr)

VF2_WHOLE(vfadd, fp32_lanes_add, 0u, fp32_add(a, b, rm, fl))
VF2_WHOLE(vfsub, fp32_lanes_add, SIGN, fp32_sub(a, b, rm, fl))
VF2(vfmin, fp32_min(a, b, fl))
VF2(vfmax, fp32_max(a, b, fl))
VF2(vfsgnj, (a & ~SIGN) | (b & SIGN))
VF2(vfsgnjn, (a & ~SIGN) | (~b & SIGN))
VF2(vfsgnjx, a ^ (b & SIGN))
VF2(vmfeq, (uint32_t)fp32_eq(a, b, fl))
VF2(vmfle, (uint32_t)fp32_le(a, b, fl))
VF2(vmflt, (uint32_t)fp32_lt(a, b, fl))
VF2(vmfne, (uint32_t)!fp32_eq(a, b, fl))
VF2_WHOLE(vfdiv, fp32_lanes_div, 0u, fp32_div(a, b, rm, fl))
VF2_WHOLE(vfmul, fp32_lanes_mul, 0u, fp32_mul(a, b, rm, fl))
VF_VF(vmfgt_vf, (uint32_t)fp32_lt(b, a, fl))
VF_VF(vmfge_vf, (uint32_t)fp32_le(b, a, fl))
VF_VF(vfrdiv_vf, fp32_div(b, a, rm, fl))
VF_VF(vfrsub_vf, fp32_sub(b, a, rm, fl))

/* fused multiply-add family: with s1 = b (vs1[i] or x[rs1]), s2 = a (vs2[i])
 * and d = vd[i], vd[i] = ±(m1*m2) ± add */
#define VFMA(n, m1, m2, add, np, na) VF2(n, fp32_fma(m1, m2, add, np, na, rm, fl))
VFMA(vfmacc, b, a, d, 0, 0)  /* +(s1*s2) + d */
VFMA(vfnmacc, b, a, d, 1, 1) /* -(s1*s2) - d */
VFMA(vfmsac, b, a, d, 0, 1)  /* +(s1*s2) - d */
VFMA(vfnmsac, b, a, d, 1, 0) /* -(s1*s2) + d */
VFMA(vfmadd, b, d, a, 0, 0)  /* +(s1*d) + s2 */
VFMA(vfnmadd, b, d, a, 1, 1) /* -(s1*d) - s2 */
VFMA(vfmsub, b, d, a, 0, 1)  /* +(s1*d) - s2 */
VFMA(vfnmsub, b, d, a, 1, 0) /* -(s1*d) + s2 */

/* unary: a = vs2[i] */
#define VF_UN(id, expr)                                                                    \
  HANDLER(id) { VF_BODY(0, expr) }
VF_UN(vfcvt_xu_f_v, fp32_to_u32(a, rm, fl))
VF_UN(vfcvt_x_f_v, (uint32_t)fp32_to_i32(a, rm, fl))
VF_UN(vfcvt_f_xu_v, fp32_from_u32(a, rm, fl))
VF_UN(vfcvt_f_x_v, fp32_from_i32((int32_t)a, rm, fl))
VF_UN(vfcvt_rtz_xu_f_v, fp32_to_u32(a, FP_RTZ, fl))
VF_UN(vfcvt_rtz_x_f_v, (uint32_t)fp32_to_i32(a, FP_RTZ, fl))
/* vfsqrt.v in RNE: the whole register through host sqrtf first
 * (fp32_lanes_sqrt), as VF_WHOLE does for the binary operations */
static int exec_vfsqrt_v_lanes(vt_exec *x, const isa_inst *in) { VF_BODY(0, fp32_sqrt(a, rm, fl)) }
HANDLER(vfsqrt_v) {
  uint32_t vl = x->w->vl;
  uint32_t em = x->emask;
  if (x->w->frm == FP_RNE && em && fp32_host_rne()) {
    int full = em == lanes_mask(vl);
    uint32_t r[VT_MAX_LANES], av[VT_MAX_LANES], lane_flags = 0;
    uint32_t *out = !full || in->rd == in->rs2 ? r : VR(in->rd);
    const uint32_t *a = VR(in->rs2);
    uint32_t n = full ? vl : VT_MAX_LANES;
    if (!full) {
      for (uint32_t i = 0; i < VT_MAX_LANES; i++) {
        uint32_t on = lane_on(em, i);
        av[i] = (a[i] & on) | (FP32_ONE & ~on);
      }
      a = av;
    }
    if (!fp32_lanes_sqrt(out, a, n, fp_nx_known(x) ? NULL : &lane_flags)) {
      if (!full)
        on_merge(VR(in->rd), r, em);
      else if (out == r)
        memcpy(VR(in->rd), r, 4 * (size_t)vl);
      x->fflags |= lane_flags;
      fp_commit_flags(x);
      trace_vreg(x, in->rd);
      return 0;
    }
  }
  return exec_vfsqrt_v_lanes(x, in);
}
VF_UN(vfclass_v, fp32_classify(a))

/* moves (no arithmetic, no flags) */
HANDLER(vfmerge_vfm) { return exec_merge(x, in, NULL, XR(in->rs1)); }
HANDLER(vfmv_v_f) { return exec_splat(x, in, XR(in->rs1)); }
HANDLER(vfmv_s_f) { return exec_splat(x, in, XR(in->rs1)); } /* Ventus: broadcast, as vmv.s.x */
/* the last active lane, as vmv.x.s (exec_last_lane), written as an f result */
HANDLER(vfmv_f_s) {
  if (x->emask) set_f(x, in->rd, VR(in->rs2)[31 - __builtin_clz(x->emask)]);
  return 0;
}
