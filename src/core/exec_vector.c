/* RVV integer ops, one element per thread, on the lanes in x->emask
 * (SIMT mask & vl, and v0 when vm = 0). Compares and mask logic write 0/1
 * per element (Ventus), moves to/from scalars broadcast / take the last
 * active lane (the ISS writes rd once per active lane). */
#include "exec.h"


#define OP_VV(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2), *s1 = VR(in->rs1);                                   \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i], b = s1[i];                                                       \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }
#define OP_VX(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2);                                                      \
    const uint32_t b = XR(in->rs1);                                                        \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i];                                                                  \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }
#define OP_VI(id, expr)                                                                    \
  HANDLER(id) {                                                                            \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2);                                                      \
    const uint32_t b = (uint32_t)in->imm;                                                  \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i];                                                                  \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }
#define OP3(n, expr) OP_VV(n##_vv, expr) OP_VX(n##_vx, expr) OP_VI(n##_vi, expr)
#define OP2(n, expr) OP_VV(n##_vv, expr) OP_VX(n##_vx, expr)
#define OPXI(n, expr) OP_VX(n##_vx, expr) OP_VI(n##_vi, expr)

#define S(v) ((int32_t)(v))

OP3(vadd, a + b)
OP2(vsub, a - b)
OPXI(vrsub, b - a)
OP2(vminu, a < b ? a : b)
OP2(vmin, S(a) < S(b) ? a : b)
OP2(vmaxu, a > b ? a : b)
OP2(vmax, S(a) > S(b) ? a : b)
OP3(vand, a & b)
OP3(vor, a | b)
OP3(vxor, a ^ b)
OP3(vmseq, a == b)
OP3(vmsne, a != b)
OP2(vmsltu, a < b)
OP2(vmslt, S(a) < S(b))
OP3(vmsleu, a <= b)
OP3(vmsle, S(a) <= S(b))
OPXI(vmsgtu, a > b)
OPXI(vmsgt, S(a) > S(b))
OP3(vsll, a << (b & 31))
OP3(vsrl, a >> (b & 31))
OP3(vsra, (uint32_t)(S(a) >> (b & 31)))

OP2(vdivu, rv_divu(a, b))
OP2(vdiv, rv_div(a, b))
OP2(vremu, rv_remu(a, b))
OP2(vrem, rv_rem(a, b))
OP2(vmulhu, rv_mulhu(a, b))
OP2(vmul, a * b)
OP2(vmulhsu, rv_mulhsu(a, b))
OP2(vmulh, rv_mulh(a, b))

/* multiply-add: a = vs2[i], b = vs1[i] or x[rs1], d = vd[i] */
#define MACC(n, expr)                                                                      \
  HANDLER(n##_vv) {                                                                        \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2), *s1 = VR(in->rs1);                                   \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i], b = s1[i], d = vd[i];                                            \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }                                                                                        \
  HANDLER(n##_vx) {                                                                        \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2);                                                      \
    const uint32_t b = XR(in->rs1);                                                        \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i], d = vd[i];                                                       \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }
MACC(vmacc, b * a + d)
MACC(vnmsac, d - b * a)
MACC(vmadd, b * d + a)
MACC(vnmsub, a - b * d)

/* mask logic on the per-element 0/1 values the compares write */
#define MASKOP(id, expr)                                                                   \
  HANDLER(id) {                                                                            \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2), *s1 = VR(in->rs1);                                   \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = s2[i] & 1, b = s1[i] & 1;                                               \
      vd[i] = (expr) & 1;                                                                  \
    });                                                                                    \
    trace_vreg(x, in->rd);                                                                 \
    return 0;                                                                              \
  }
MASKOP(vmandn_mm, a & ~b)
MASKOP(vmand_mm, a & b)
MASKOP(vmor_mm, a | b)
MASKOP(vmxor_mm, a ^ b)
MASKOP(vmorn_mm, a | ~b)
MASKOP(vmnand_mm, ~(a & b))
MASKOP(vmnor_mm, ~(a | b))
MASKOP(vmxnor_mm, ~(a ^ b))

/* vmerge: v0 (packed bit i) selects, every SIMT-active lane is written */
static int merge(vt_exec *x, const isa_inst *in, const uint32_t *src, uint32_t scalar) {
  vt_warp *w = x->w;
  uint32_t em = w->mask & lanes_mask(w->vl), sel = w->v[0][0];
  uint32_t *vd = w->v[in->rd];
  const uint32_t *s2 = w->v[in->rs2];
  x->emask = em;
  FOR_LANES(em, i) vd[i] = (sel >> i & 1) ? (src ? src[i] : scalar) : s2[i];
  trace_vreg(x, in->rd);
  return 0;
}
HANDLER(vmerge_vvm) { return merge(x, in, VR(in->rs1), 0); }
HANDLER(vmerge_vxm) { return merge(x, in, NULL, XR(in->rs1)); }
HANDLER(vmerge_vim) { return merge(x, in, NULL, (uint32_t)in->imm); }

static int splat(vt_exec *x, const isa_inst *in, uint32_t v) {
  uint32_t *vd = VR(in->rd);
  LANES(x->emask, i, vd[i] = v);
  trace_vreg(x, in->rd);
  return 0;
}
HANDLER(vmv_v_x) { return splat(x, in, XR(in->rs1)); }
HANDLER(vmv_v_i) { return splat(x, in, (uint32_t)in->imm); }
HANDLER(vmv_s_x) { return splat(x, in, XR(in->rs1)); } /* Ventus: broadcast */
HANDLER(vmv_v_v) {
  uint32_t *vd = VR(in->rd);
  const uint32_t *s = VR(in->rs1);
  LANES(x->emask, i, vd[i] = s[i]);
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vid_v) {
  uint32_t *vd = VR(in->rd);
  LANES(x->emask, i, vd[i] = i);
  trace_vreg(x, in->rd);
  return 0;
}

/* The ISS writes rd once per active lane: the last active lane wins; no
 * active lane leaves rd unchanged. */
HANDLER(vmv_x_s) {
  if (x->emask) set_x(x, in->rd, VR(in->rs2)[31 - __builtin_clz(x->emask)]);
  return 0;
}
