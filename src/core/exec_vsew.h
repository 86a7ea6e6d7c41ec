/* Element widths of the RVV executors in revision 2025
 * (docs/isa-extensions.md, "Element widths"): one element per thread, in
 * its lane's register. An element of SEW = 8 or 16 bits is the low SEW
 * bits of the 32-bit register (a write clears the bits above it, a read
 * ignores them); a 64-bit element is the even-aligned pair {v[n+1], v[n]},
 * as the 64-bit compute format and the widening instructions keep it. */
#ifndef VT_EXEC_VSEW_H
#define VT_EXEC_VSEW_H

#include "exec_ext.h"

/* SEW in bits from vtype (vsetvl* lets only 8..64 through in 2025) */
static inline unsigned vsew_of(const vt_warp *w) { return 8u << ((w->vtype >> 3) & 3); }

/* vtype.altfmt (bit 8, revision 2025 at SEW 16): the 16-bit float format
 * is bfloat16 instead of binary16 */
static inline int vtype_altfmt(const vt_warp *w) { return (w->vtype >> 8) & 1; }

static inline uint64_t sew_mask(unsigned sew) { return sew >= 64 ? ~0ull : (1ull << sew) - 1; }

/* the low sew bits of v, sign-extended to 64 */
static inline uint64_t sew_sext(uint64_t v, unsigned sew) {
  if (sew >= 64) return v;
  uint64_t m = 1ull << (sew - 1);
  return ((v & sew_mask(sew)) ^ m) - m;
}

/* arithmetic right shift of a 64-bit two's-complement value by s (0..63) */
static inline uint64_t sra64u(uint64_t a, unsigned s) {
  return s ? (a >> s) | (a >> 63 ? ~0ull << (64 - s) : 0) : a;
}

/* element i of register r at sew bits, zero-extended */
static inline uint64_t vel_get(const vt_exec *x, unsigned r, uint32_t i, unsigned sew) {
  if (sew == 64) return get_vpair(x, r, i);
  return x->w->v[r][i] & sew_mask(sew);
}
static inline void vel_set(vt_exec *x, unsigned r, uint32_t i, unsigned sew, uint64_t v) {
  if (sew == 64) {
    x->w->v[r][i] = (uint32_t)v;
    x->w->v[r + 1][i] = (uint32_t)(v >> 32);
    return;
  }
  x->w->v[r][i] = (uint32_t)(v & sew_mask(sew));
}

/* The scalar operand x[r] at sew bits: truncated, or at SEW 64
 * sign-extended (RVV 1.0 §11.1 with XLEN < SEW). */
static inline uint64_t vsew_scalar(const vt_exec *x, unsigned r, unsigned sew) {
  uint32_t v = x->w->x[r];
  return sew == 64 ? (uint64_t)(int64_t)(int32_t)v : v & sew_mask(sew);
}

/* An operand of sew bits in register r: at SEW 64 it must be an even pair */
#define NEED_SEW_REG(reg, sew)                                                              \
  do {                                                                                     \
    if ((sew) == 64) NEED_PAIR('v', (reg));                                                \
  } while (0)

/* The high 64 bits of 64 x 64-bit products (the portable long
 * multiplication on 32-bit halves). */
static inline uint64_t mulhu64(uint64_t a, uint64_t b) {
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
  return hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
}
/* signed x signed, and signed a x unsigned b */
static inline uint64_t mulh64(uint64_t a, uint64_t b) {
  return mulhu64(a, b) - (a >> 63 ? b : 0) - (b >> 63 ? a : 0);
}
static inline uint64_t mulhsu64(uint64_t a, uint64_t b) { return mulhu64(a, b) - (a >> 63 ? b : 0); }

/* RVV fixed-point rounding (vxrm, RVV 1.0 §3.8): the increment to add to
 * v >> d (d = 0..63) for the bits shifted out. 0 rnu, 1 rne, 2 rdn, 3 rod. */
static inline uint64_t vx_round(uint64_t v, unsigned d, unsigned vxrm) {
  if (d == 0) return 0;
  uint64_t half = v >> (d - 1) & 1, below = d > 1 ? v & sew_mask(d - 1) : 0, lsb = v >> d & 1;
  switch (vxrm & 3) {
  case 0: return half;
  case 1: return half & (below != 0 || lsb);
  case 2: return 0;
  default: return !lsb && (half || below);
  }
}

/* Sets the sticky vxsat (an element saturated). */
void vxsat_set(vt_exec *x);

/* The instruction needs another SEW: an illegal instruction naming it. */
int vsew_unsupported(vt_exec *x, const isa_inst *in, unsigned sew, const char *why);

/* The standard RVV entries of the baseline table whose meaning depends on
 * SEW (integer arithmetic, compares, merges, moves, the widening forms,
 * the SEW-wide indexed accesses, and the float ones, which stay SEW 32):
 * exec_select_2025 gives them exec_vsew, which runs their own handler at
 * SEW 32 and the SEW-generic code otherwise. */
int vsew_aware(isa_id id);
int exec_vsew(vt_exec *x, const isa_inst *in);
/* PREFIX ABS/NEG (32-bit two's complement or sign bit) do not apply: a
 * standard RVV instruction at SEW != 32, a narrowing one (a 64-bit vs2 at
 * SEW 32), or a widening or narrowing float conversion */
int vsew_unmodifiable(isa_id id, unsigned sew);

/* SEW-generic parts in other files: the widening entries at SEW 8 and 16
 * (exec_vsew_wide.c), indexed accesses with data at SEW (exec_vmem_sew.c) */
int vsew_widen(vt_exec *x, const isa_inst *in, unsigned sew);
/* RVV float at SEW 16 and 64, binary16 and binary64 (exec_vfp_sew.c):
 * which entries at which SEW, and their handler */
int vfp_sew_handles(isa_id id, unsigned sew);
int exec_vfp_sew(vt_exec *x, const isa_inst *in);
int vsew_indexed(vt_exec *x, const isa_inst *in, unsigned ieew, int store);

#endif
