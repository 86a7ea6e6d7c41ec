/* RVV integer ops, one element per thread, on the lanes in x->emask
 * (SIMT mask & vl, and v0 when vm = 0). Compares and mask logic write 0/1
 * per element (Ventus), moves to/from scalars broadcast / take the last
 * active lane (the ISS writes rd once per active lane). */
#include "exec.h"
#include "exec_ops.h"
#include "host_wide.h"

/* a = vs2[i], b = vs1[i], x[rs1] or the immediate, d = vd[i]. On a
 * partial mask of 8 lanes or more (divergent code) every lane is computed
 * into scratch and the mask's lanes merged into vd: two loops that
 * vectorise, where one lane at a time costs a bit scan and a branch per
 * lane. The ops are total (rv_div and rv_rem define x / 0), so lanes off
 * the mask compute harmlessly; all 32 lanes of a register exist whatever vl. */
#define VBODY(B, expr)                                                                     \
  if (x->emask == 0xffffffffu || popcount32(x->emask) < 8) {                               \
    VLANES(s2[i], B, expr);                                                                \
  } else {                                                                                 \
    uint32_t *vd = VR(in->rd), em = x->emask, r[VT_MAX_LANES];                             \
    const uint32_t *s2 = VR(in->rs2);                                                      \
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) {                                          \
      uint32_t a = s2[i], b = (B), d = vd[i];                                              \
      (void)b;                                                                             \
      (void)d;                                                                             \
      r[i] = (expr);                                                                       \
    }                                                                                      \
    on_merge(vd, r, em);                                                                   \
  }                                                                                        \
  trace_vreg(x, in->rd);                                                                   \
  return 0;
#define OP_VV(id, expr)                                                                    \
  VT_HOST_WIDE HANDLER(id) {                                                                            \
    const uint32_t *s1 = VR(in->rs1);                                                      \
    VBODY(s1[i], expr)                                                                     \
  }
#define OP_VX(id, expr)                                                                    \
  VT_HOST_WIDE HANDLER(id) {                                                                            \
    const uint32_t bx = XR(in->rs1);                                                       \
    VBODY(bx, expr)                                                                        \
  }
#define OP_VI(id, expr)                                                                    \
  VT_HOST_WIDE HANDLER(id) {                                                                            \
    const uint32_t bx = (uint32_t)in->imm;                                                 \
    VBODY(bx, expr)                                                                        \
  }
#define OP3(n, expr) OP_VV(n##_vv, expr) OP_VX(n##_vx, expr) OP_VI(n##_vi, expr)
#define OP2(n, expr) OP_VV(n##_vv, expr) OP_VX(n##_vx, expr)
#define OPXI(n, expr) OP_VX(n##_vx, expr) OP_VI(n##_vi, expr)

VT_VECTOR_OPS(OP3, OP2, OPXI)

/* vdivu.vx and vremu.vx divide every lane by one divisor b: a power of
 * two (a work-group's width, mostly) by a shift or a mask, any other by
 * the reciprocal m = ceil(2^64 / b) (UINT64_MAX / b + 1): a mod b is the
 * high word of (m * a mod 2^64) * b and a / b the high word of m * a,
 * exact for every 32-bit a and b >= 1 (b >= 2 for the quotient; Lemire,
 * Kaser and Kurz, "Faster remainder by direct computation", 2019, section
 * 2): two multiplications per lane instead of a division. */
#if defined(__SIZEOF_INT128__)
typedef unsigned __int128 u128;
static inline uint32_t fastmod_u32(uint32_t a, uint64_t m, uint32_t b) {
  return (uint32_t)(((u128)(m * a) * b) >> 64);
}
static inline uint32_t fastdiv_u32(uint32_t a, uint64_t m) { return (uint32_t)(((u128)m * a) >> 64); }

HANDLER(vdivu_vx) {
  const uint32_t bx = XR(in->rs1);
  if (bx < 2) {
    VLANES(s2[i], bx, rv_divu(a, b));
  } else if (!(bx & (bx - 1))) { /* a power of two: a shift */
    const uint32_t sh = (uint32_t)__builtin_ctz(bx);
    VLANES(s2[i], sh, a >> b);
  } else {
    const uint64_t m = UINT64_MAX / bx + 1;
    VLANES(s2[i], bx, fastdiv_u32(a, m));
  }
  trace_vreg(x, in->rd);
  return 0;
}
HANDLER(vremu_vx) {
  const uint32_t bx = XR(in->rs1);
  if (bx == 0) {
    VLANES(s2[i], bx, a);
  } else if (!(bx & (bx - 1))) { /* a power of two: a mask */
    VLANES(s2[i], bx - 1, a & b);
  } else {
    const uint64_t m = UINT64_MAX / bx + 1;
    VLANES(s2[i], bx, fastmod_u32(a, m, b));
  }
  trace_vreg(x, in->rd);
  return 0;
}
OP_VV(vdivu_vv, rv_divu(a, b))
OP_VV(vremu_vv, rv_remu(a, b))
#else
OP2(vdivu, rv_divu(a, b))
OP2(vremu, rv_remu(a, b))
#endif

/* mask logic on the per-element 0/1 values the compares write */
#define MASKOP(id, expr)                                                                   \
  HANDLER(id) {                                                                            \
    const uint32_t *s1 = VR(in->rs1);                                                      \
    VLANES(s2[i] & 1, s1[i] & 1, (expr) & 1);                                              \
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
HANDLER(vmerge_vvm) { return exec_merge(x, in, VR(in->rs1), 0); }
HANDLER(vmerge_vxm) { return exec_merge(x, in, NULL, XR(in->rs1)); }
HANDLER(vmerge_vim) { return exec_merge(x, in, NULL, (uint32_t)in->imm); }

HANDLER(vmv_v_x) { return exec_splat(x, in, XR(in->rs1)); }
HANDLER(vmv_v_i) { return exec_splat(x, in, (uint32_t)in->imm); }
HANDLER(vmv_s_x) { return exec_splat(x, in, XR(in->rs1)); } /* Ventus: broadcast */
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

/* the last active lane wins (see exec_last_lane) */
HANDLER(vmv_x_s) { return exec_last_lane(x, in); }
