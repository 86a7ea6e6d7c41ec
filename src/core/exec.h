/* Prototypes of the instruction handlers, one per insns.def entry
 * (exec_<id>), and small helpers shared by the exec_*.c files. */
#ifndef VT_EXEC_H
#define VT_EXEC_H

#include "core.h"

#define INSN(id, mn, match, mask, syn, unit, flags) int exec_##id(vt_exec *x, const isa_inst *in);
#include "insns.def"
#undef INSN

#define HANDLER(id) int exec_##id(vt_exec *x, const isa_inst *in)
#define XR(r) (x->w->x[(r)])
#define VR(r) (x->w->v[(r)])

/* Iterate over the lanes set in a mask. */
#define FOR_LANES(m, i)                                                                    \
  for (uint32_t _m = (m), i = 0; _m && ((i = (uint32_t)__builtin_ctz(_m)), 1); _m &= _m - 1)

/* Runs the body for every lane i of the mask; a full mask becomes a plain
 * counted loop the compiler can vectorise, with a constant count for the
 * commonest warp, 32 threads. */
#define LANES(em, i, ...)                                                                  \
  do {                                                                                     \
    uint32_t _em = (em), _vl = x->w->vl;                                                   \
    if (_em == 0xffffffffu && _vl == 32) {                                                 \
      for (uint32_t i = 0; i < 32; i++) __VA_ARGS__;                                       \
    } else if (_em == lanes_mask(_vl)) {                                                   \
      for (uint32_t i = 0; i < _vl; i++) __VA_ARGS__;                                      \
    } else {                                                                               \
      FOR_LANES(_em, i) __VA_ARGS__;                                                       \
    }                                                                                      \
  } while (0)

/* lane_on: all ones for a lane of the mask, else 0, in a loop the
 * compiler vectorises (a table, not a shift by i); on_merge: vd[i] = r[i]
 * on the mask's lanes, the others keep vd's value. */
static const uint32_t lane_bit[VT_MAX_LANES] = {
    1u << 0,  1u << 1,  1u << 2,  1u << 3,  1u << 4,  1u << 5,  1u << 6,  1u << 7,
    1u << 8,  1u << 9,  1u << 10, 1u << 11, 1u << 12, 1u << 13, 1u << 14, 1u << 15,
    1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20, 1u << 21, 1u << 22, 1u << 23,
    1u << 24, 1u << 25, 1u << 26, 1u << 27, 1u << 28, 1u << 29, 1u << 30, 1u << 31};
static inline uint32_t lane_on(uint32_t em, uint32_t i) { return -(uint32_t)((em & lane_bit[i]) != 0); }
/* vd[i] = r[i] on the mask; the lanes off it keep vd's value */
static inline void on_merge(uint32_t *restrict vd, const uint32_t *restrict r, uint32_t em) {
  for (uint32_t i = 0; i < VT_MAX_LANES; i++) {
    uint32_t on = lane_on(em, i);
    vd[i] = (r[i] & on) | (vd[i] & ~on);
  }
}

/* The element-wise loop of the vector handlers: for every lane i of the
 * execution mask, with a = A, b = B and d = vd[i] (A and B may use i, and A
 * the source s2 = vs2), vd[i] = expr. The caller traces and returns. */
#define VLANES(A, B, expr)                                                                 \
  do {                                                                                     \
    uint32_t *vd = VR(in->rd);                                                             \
    const uint32_t *s2 = VR(in->rs2);                                                      \
    LANES(x->emask, i, {                                                                   \
      uint32_t a = (A), b = (B), d = vd[i];                                                \
      (void)b;                                                                             \
      (void)d;                                                                             \
      vd[i] = (expr);                                                                      \
    });                                                                                    \
  } while (0)

/* vd[i] = v on every lane of the execution mask (vmv.v.x, vmv.s.x, vfmv.v.f, ...) */
static inline int exec_splat(vt_exec *x, const isa_inst *in, uint32_t v) {
  uint32_t *vd = VR(in->rd);
  LANES(x->emask, i, vd[i] = v);
  trace_vreg(x, in->rd);
  return 0;
}

/* vmerge / vfmerge: v0 (packed bit i) selects src[i] (or scalar when src is
 * NULL) over vs2[i]; every SIMT-active lane is written */
static inline int exec_merge(vt_exec *x, const isa_inst *in, const uint32_t *src, uint32_t scalar) {
  vt_warp *w = x->w;
  uint32_t em = w->mask & lanes_mask(w->vl), sel = w->v[0][0];
  uint32_t *vd = w->v[in->rd];
  const uint32_t *s2 = w->v[in->rs2];
  x->emask = em;
  FOR_LANES(em, i) vd[i] = (sel >> i & 1) ? (src ? src[i] : scalar) : s2[i];
  trace_vreg(x, in->rd);
  return 0;
}

/* vmv.x.s (vfmv.f.s likewise, as an f result): the ISS writes rd once per
 * active lane, so the last active lane wins; no active lane leaves rd
 * unchanged. */
static inline int exec_last_lane(vt_exec *x, const isa_inst *in) {
  if (x->emask) set_x(x, in->rd, VR(in->rs2)[31 - __builtin_clz(x->emask)]);
  return 0;
}

/* Sets the next pc of a taken jump or branch. Without the C extension a
 * target that is not 4-byte aligned raises instruction-address-misaligned
 * on the jump itself (RISC-V unprivileged ISA §2.5; the ISS's SET_PC checks
 * alignment too), before rd is written. */
int exec_misaligned_target(vt_exec *x, uint32_t target);
static inline int jump_to(vt_exec *x, uint32_t target) {
  if (unlikely(target & 3)) return exec_misaligned_target(x, target);
  x->npc = target;
  return 0;
}

/* RISC-V M results (divide by zero, overflow), shared by scalar and vector */
uint32_t rv_div(uint32_t a, uint32_t b);
uint32_t rv_divu(uint32_t a, uint32_t b);
uint32_t rv_rem(uint32_t a, uint32_t b);
uint32_t rv_remu(uint32_t a, uint32_t b);
uint32_t rv_mulh(uint32_t a, uint32_t b);
uint32_t rv_mulhu(uint32_t a, uint32_t b);
uint32_t rv_mulhsu(uint32_t a, uint32_t b);

#endif
