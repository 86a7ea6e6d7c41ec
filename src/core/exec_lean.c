/* Lean forms of the commonest register-only instructions, for the
 * run-ahead loop's straight runs (warp.c, lean_run): called only where the
 * handler's checks are known to pass for the whole run, so each is the
 * handler's result and nothing else. The caller guarantees: a full warp
 * (SIMT mask all 32 lanes, vl = 32, an unmasked op: the execution mask is
 * every lane), no trace or record of the warp's registers, vstart = 0 and
 * mstatus.VS dirty (a vector op would leave both so). The results come
 * from the same lists as the handlers' (exec_ops.h);
 * tests/unit/test_core_lean.c runs each against its handler. The fp forms
 * run their handler themselves where they cannot be sure of its result
 * (below). */
#include "exec.h"
#include "exec_ops.h"
#include "fp32.h"
#include "fp32_lanes.h"
#include "host_wide.h"

#define LEAN(id) static void lean_##id(vt_exec *x, vt_warp *w, const isa_inst *in)
/* The vector forms' 32 lanes in 256-bit registers where the host has AVX2
 * (chosen once at load time); integer results do not depend on the width. */
#define LEAN_WIDE VT_HOST_WIDE

/* every lane: vd[i] = expr of a = vs2[i], b = B, d = vd[i] */
#define LBODY(B, expr)                                                                     \
  uint32_t *vd = w->v[in->rd];                                                             \
  const uint32_t *s2 = w->v[in->rs2];                                                      \
  for (uint32_t i = 0; i < VT_MAX_LANES; i++) {                                            \
    uint32_t a = s2[i], b = (B), d = vd[i];                                                \
    (void)b;                                                                               \
    (void)d;                                                                               \
    vd[i] = (expr);                                                                        \
  }                                                                                        \
  (void)x;
#define L_VV(id, expr)                                                                     \
  LEAN_WIDE LEAN(id) {                                                                     \
    const uint32_t *s1 = w->v[in->rs1];                                                    \
    LBODY(s1[i], expr)                                                                     \
  }
#define L_VX(id, expr)                                                                     \
  LEAN_WIDE LEAN(id) {                                                                     \
    const uint32_t bx = w->x[in->rs1];                                                     \
    LBODY(bx, expr)                                                                        \
  }
#define L_VI(id, expr)                                                                     \
  LEAN_WIDE LEAN(id) {                                                                     \
    const uint32_t bx = (uint32_t)in->imm;                                                 \
    LBODY(bx, expr)                                                                        \
  }
#define L3(n, expr) L_VV(n##_vv, expr) L_VX(n##_vx, expr) L_VI(n##_vi, expr)
#define L2(n, expr) L_VV(n##_vv, expr) L_VX(n##_vx, expr)
#define LXI(n, expr) L_VX(n##_vx, expr) L_VI(n##_vi, expr)
VT_VECTOR_OPS(L3, L2, LXI)

/* set_x without its trace (mark_fs_dirty's change alone) */
static inline void lean_set_x(vt_warp *w, unsigned rd, uint32_t v) {
  uint32_t fs = w->mstatus & MSTATUS_FS;
  if (rd != 0) {
    w->x[rd] = v;
    if (fs != 0) w->f[rd] = F_BOX | v;
  }
  if (unlikely(fs != 0 && fs != MSTATUS_FS)) w->mstatus |= MSTATUS_FS | MSTATUS_SD;
}
#define L_RR(id, expr)                                                                     \
  LEAN(id) {                                                                               \
    uint32_t a = w->x[in->rs1], b = w->x[in->rs2];                                         \
    lean_set_x(w, in->rd, (expr));                                                         \
    (void)x;                                                                               \
  }
#define L_RI(id, expr)                                                                     \
  LEAN(id) {                                                                               \
    uint32_t a = w->x[in->rs1], b = (uint32_t)in->imm;                                     \
    lean_set_x(w, in->rd, (expr));                                                         \
    (void)x;                                                                               \
  }
VT_SCALAR_OPS(L_RR, L_RI)
LEAN(lui) {
  (void)x;
  lean_set_x(w, in->rd, (uint32_t)in->imm << 12);
}

/* splats and the register move (exec_splat, vmv.v.v) */
static inline void lean_splat(vt_warp *w, unsigned rd, uint32_t v) {
  uint32_t *vd = w->v[rd];
  for (uint32_t i = 0; i < VT_MAX_LANES; i++) vd[i] = v;
}
LEAN(vmv_v_x) {
  (void)x;
  lean_splat(w, in->rd, w->x[in->rs1]);
}
LEAN(vmv_v_i) {
  (void)x;
  lean_splat(w, in->rd, (uint32_t)in->imm);
}
LEAN(vmv_s_x) {
  (void)x;
  lean_splat(w, in->rd, w->x[in->rs1]);
}
LEAN(vmv_v_v) {
  uint32_t *vd = w->v[in->rd];
  const uint32_t *s = w->v[in->rs1];
  (void)x;
  for (uint32_t i = 0; i < VT_MAX_LANES; i++) vd[i] = s[i];
}

/* vfadd/vfsub/vfmul/vfdiv, .vv and .vf, where the handler's whole-register
 * path (exec_fp.c VF_WHOLE) would raise no flag anyone sees: rounding RNE
 * in the guest and on the host, NX raised already and mstatus.FS off or
 * Dirty (so the handler's fp_commit_flags writes nothing; no trace, as for
 * every lean form). Anywhere else, or with a lane outside the batch's
 * domain (fp32_lanes.h), the handler runs, as ahead_one would run it (fp
 * ops never fault); it writes every lane of vd again (vd is written
 * directly only when it is not a source). */
static inline int lean_fp_ok(const vt_warp *w) {
  uint32_t fs = w->mstatus & MSTATUS_FS;
  return w->frm == FP_RNE && (w->fflags & FFLAG_NX) && (fs == 0 || fs == MSTATUS_FS) && fp32_host_rne();
}
typedef int (*lanes_fn)(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags);
static void lean_fp_handler(vt_exec *x, const isa_inst *in) {
  x->emask = 0xffffffffu;
  x->fflags = 0;
  (void)vt_exec_table[in->id](x, in);
}
static inline void lean_fp(vt_exec *x, vt_warp *w, const isa_inst *in, lanes_fn batch, const uint32_t *b) {
  uint32_t r[VT_MAX_LANES];
  int alias = in->rd == in->rs2 || in->rd == in->rs1; /* rs1 of a .vf form: a harmless detour */
  uint32_t *out = alias ? r : w->v[in->rd];
  if (batch(out, w->v[in->rs2], b, VT_MAX_LANES, NULL))
    lean_fp_handler(x, in);
  else if (alias)
    memcpy(w->v[in->rd], r, sizeof r);
}
#define L_FP(n, batch, neg)                                                                \
  LEAN(n##_vv) {                                                                           \
    if (!lean_fp_ok(w)) {                                                                  \
      lean_fp_handler(x, in);                                                              \
      return;                                                                              \
    }                                                                                      \
    if (!(neg)) {                                                                          \
      lean_fp(x, w, in, batch, w->v[in->rs1]);                                             \
      return;                                                                              \
    }                                                                                      \
    uint32_t bv[VT_MAX_LANES];                                                             \
    const uint32_t *s1 = w->v[in->rs1];                                                    \
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) bv[i] = s1[i] ^ (neg);                     \
    lean_fp(x, w, in, batch, bv);                                                          \
  }                                                                                        \
  LEAN(n##_vf) {                                                                           \
    if (!lean_fp_ok(w)) {                                                                  \
      lean_fp_handler(x, in);                                                              \
      return;                                                                              \
    }                                                                                      \
    uint32_t bv[VT_MAX_LANES], bx = w->x[in->rs1] ^ (neg);                                 \
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) bv[i] = bx;                                \
    lean_fp(x, w, in, batch, bv);                                                          \
  }
L_FP(vfadd, fp32_lanes_add, 0u)
L_FP(vfsub, fp32_lanes_add, 0x80000000u)
L_FP(vfmul, fp32_lanes_mul, 0u)
L_FP(vfdiv, fp32_lanes_div, 0u)

#define T_ONE(id) [ISA_##id] = lean_##id,
#define T3(n, expr) T_ONE(n##_vv) T_ONE(n##_vx) T_ONE(n##_vi)
#define T2(n, expr) T_ONE(n##_vv) T_ONE(n##_vx)
#define TXI(n, expr) T_ONE(n##_vx) T_ONE(n##_vi)
#define T_S(n, expr) T_ONE(n)
#define T_FP(n) T_ONE(n##_vv) T_ONE(n##_vf)
static const vt_lean_fn lean_table[ISA_COUNT] = {
    VT_VECTOR_OPS(T3, T2, TXI) VT_SCALAR_OPS(T_S, T_S) T_ONE(lui) T_ONE(vmv_v_x) T_ONE(vmv_v_i) T_ONE(vmv_s_x)
        T_ONE(vmv_v_v) T_FP(vfadd) T_FP(vfsub) T_FP(vfmul) T_FP(vfdiv)};

vt_lean_fn exec_lean_of(const isa_inst *in) {
  vt_lean_fn f = in->id < ISA_COUNT ? lean_table[in->id] : NULL;
  /* a vector op under v0 writes fewer lanes than the warp's */
  if (f && (isa_table[in->id].flags & IF_VEC) && !in->vm) return NULL;
  return f;
}
