/* ISA 2025 RVV widening (seed 002 "RVV widening"): vd is an even-aligned
 * pair of v registers holding a 64-bit element per lane. .vv/.vx compute
 * 64 = 32 op 32 as RVV; .wv takes vs2 and vs1 as 64-bit pairs and .wx vs2 as
 * a pair and the scalar extended (the seed's "64 = 64 op 64", which differs
 * from RVV, where the .wv vs1 is narrow). Sources are read before vd is
 * written, so overlapping operands see the old values. */
#include "exec_ext.h"

static inline uint64_t sx(uint32_t v) { return (uint64_t)(int64_t)(int32_t)v; }
static inline uint64_t zx(uint32_t v) { return v; }

/* operand forms: a comes from vs2, b from vs1 or the scalar rs1 */
enum { W_VV, W_VX, W_WV, W_WX };

typedef uint64_t (*wop)(uint64_t a, uint64_t b, uint64_t d);

static int widen(vt_exec *x, const isa_inst *in, int form, int sa, int sb, wop op) {
  NEED_PAIR('v', in->rd);
  if (form == W_WV || form == W_WX) NEED_PAIR('v', in->rs2);
  if (form == W_WV) NEED_PAIR('v', in->rs1);
  vt_warp *w = x->w;
  uint64_t r[VT_MAX_LANES];
  uint32_t em = x->emask, s = w->x[in->rs1];
  FOR_LANES(em, i) {
    uint64_t a, b;
    if (form == W_WV || form == W_WX) a = get_vpair(x, in->rs2, i);
    else a = sa ? sx(w->v[in->rs2][i]) : zx(w->v[in->rs2][i]);
    if (form == W_WV) b = get_vpair(x, in->rs1, i);
    else if (form == W_VV) b = sb ? sx(w->v[in->rs1][i]) : zx(w->v[in->rs1][i]);
    else b = sb ? sx(s) : zx(s);
    r[i] = op(a, b, get_vpair(x, in->rd, i));
  }
  FOR_LANES(em, i) {
    w->v[in->rd][i] = (uint32_t)r[i];
    w->v[in->rd + 1][i] = (uint32_t)(r[i] >> 32);
  }
  trace_vreg(x, in->rd);
  return 0;
}

static uint64_t op_add(uint64_t a, uint64_t b, uint64_t d) { (void)d; return a + b; }
static uint64_t op_sub(uint64_t a, uint64_t b, uint64_t d) { (void)d; return a - b; }
static uint64_t op_mul(uint64_t a, uint64_t b, uint64_t d) { (void)d; return a * b; }
static uint64_t op_macc(uint64_t a, uint64_t b, uint64_t d) { return d + a * b; }

#define WADD(n, s, op)                                                                     \
  HANDLER(n##_vv) { return widen(x, in, W_VV, s, s, op); }                                 \
  HANDLER(n##_vx) { return widen(x, in, W_VX, s, s, op); }                                 \
  HANDLER(n##_wv) { return widen(x, in, W_WV, s, s, op); }                                 \
  HANDLER(n##_wx) { return widen(x, in, W_WX, s, s, op); }
WADD(vwaddu, 0, op_add)
WADD(vwadd, 1, op_add)
WADD(vwsubu, 0, op_sub)
WADD(vwsub, 1, op_sub)

/* products of 32-bit operands are exact in 64 bits (modulo 2^64 for the
 * mixed-sign and accumulate forms, as RVV) */
HANDLER(vwmulu_vv) { return widen(x, in, W_VV, 0, 0, op_mul); }
HANDLER(vwmulu_vx) { return widen(x, in, W_VX, 0, 0, op_mul); }
HANDLER(vwmul_vv) { return widen(x, in, W_VV, 1, 1, op_mul); }
HANDLER(vwmul_vx) { return widen(x, in, W_VX, 1, 1, op_mul); }
/* vwmulsu: vs2 signed, vs1/rs1 unsigned */
HANDLER(vwmulsu_vv) { return widen(x, in, W_VV, 1, 0, op_mul); }
HANDLER(vwmulsu_vx) { return widen(x, in, W_VX, 1, 0, op_mul); }
/* vwmacc*: vd += vs1/rs1 * vs2; in RVV terms vwmaccsu is signed(vs1) *
 * unsigned(vs2) and vwmaccus unsigned(rs1) * signed(vs2) */
HANDLER(vwmaccu_vv) { return widen(x, in, W_VV, 0, 0, op_macc); }
HANDLER(vwmaccu_vx) { return widen(x, in, W_VX, 0, 0, op_macc); }
HANDLER(vwmacc_vv) { return widen(x, in, W_VV, 1, 1, op_macc); }
HANDLER(vwmacc_vx) { return widen(x, in, W_VX, 1, 1, op_macc); }
HANDLER(vwmaccsu_vv) { return widen(x, in, W_VV, 0, 1, op_macc); }
HANDLER(vwmaccsu_vx) { return widen(x, in, W_VX, 0, 1, op_macc); }
HANDLER(vwmaccus_vx) { return widen(x, in, W_VX, 1, 0, op_macc); }
