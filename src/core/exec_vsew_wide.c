/* Widths that change within one instruction (revision 2025,
 * docs/isa-extensions.md "Element widths"): the widening entries at SEW 8
 * and 16 (a 2*SEW result in the one register vd; .wv takes vs1 at 2*SEW
 * too, as the seed's 64 = 64 op 64 at SEW 32), the narrowing shifts
 * vnsrl/vnsra (vs2 at 2*SEW, a pair at SEW 32) and the extensions
 * vzext/vsext.vf2/vf4/vf8. The widening entries at SEW 32 are
 * exec_widen.c's. */
#include "exec_vsew.h"

enum { W_VV, W_VX, W_WV, W_WX };
enum { WO_ADD, WO_SUB, WO_MUL, WO_MACC };

typedef struct {
  uint16_t id;
  uint8_t form, sa, sb, op; /* sa/sb: vs2 / the other source signed */
} wop;

#define W4(n, s, op) {ISA_##n##_vv, W_VV, s, s, op}, {ISA_##n##_vx, W_VX, s, s, op}, \
                     {ISA_##n##_wv, W_WV, s, s, op}, {ISA_##n##_wx, W_WX, s, s, op}
#define W2(n, sa, sb, op) {ISA_##n##_vv, W_VV, sa, sb, op}, {ISA_##n##_vx, W_VX, sa, sb, op}
static const wop wops[] = {
    W4(vwaddu, 0, WO_ADD), W4(vwadd, 1, WO_ADD), W4(vwsubu, 0, WO_SUB), W4(vwsub, 1, WO_SUB),
    W2(vwmulu, 0, 0, WO_MUL), W2(vwmul, 1, 1, WO_MUL), W2(vwmulsu, 1, 0, WO_MUL),
    /* vwmaccsu: signed vs1/rs1 x unsigned vs2; vwmaccus: unsigned rs1 x signed vs2 */
    W2(vwmaccu, 0, 0, WO_MACC), W2(vwmacc, 1, 1, WO_MACC), W2(vwmaccsu, 0, 1, WO_MACC),
    {ISA_vwmaccus_vx, W_VX, 1, 0, WO_MACC},
};
#undef W4
#undef W2

static uint64_t ext(uint64_t v, unsigned bits, int sign) { return sign ? sew_sext(v, bits) : v & sew_mask(bits); }

int vsew_widen(vt_exec *x, const isa_inst *in, unsigned sew) {
  const wop *o = NULL;
  for (size_t k = 0; k < sizeof wops / sizeof wops[0]; k++)
    if (wops[k].id == in->id) o = &wops[k];
  if (!o) return vsew_unsupported(x, in, sew, "not a widening instruction");
  unsigned dw = 2 * sew;
  uint32_t em = x->emask;
  uint64_t s = ext(x->w->x[in->rs1], sew, o->sb), r[VT_MAX_LANES];
  FOR_LANES(em, i) {
    int wide = o->form == W_WV || o->form == W_WX;
    uint64_t a = wide ? vel_get(x, in->rs2, i, dw) : ext(vel_get(x, in->rs2, i, sew), sew, o->sa);
    uint64_t b = o->form == W_WV ? vel_get(x, in->rs1, i, dw)
                 : o->form == W_VV ? ext(vel_get(x, in->rs1, i, sew), sew, o->sb)
                                   : s;
    switch (o->op) {
    case WO_ADD: r[i] = a + b; break;
    case WO_SUB: r[i] = a - b; break;
    case WO_MUL: r[i] = a * b; break;
    default: r[i] = vel_get(x, in->rd, i, dw) + a * b; break;
    }
  }
  FOR_LANES(em, i) vel_set(x, in->rd, i, dw, r[i]);
  trace_vreg(x, in->rd);
  return 0;
}

/* vnsrl/vnsra: vd (SEW) = vs2 (2*SEW) >> the low log2(2*SEW) bits of vs1,
 * x[rs1] or uimm5 */
enum { N_WV, N_WX, N_WI };
static int narrow_shift(vt_exec *x, const isa_inst *in, int form, int arith) {
  unsigned sew = vsew_of(x->w), dw = 2 * sew;
  if (sew == 64) return vsew_unsupported(x, in, sew, "a narrowing instruction needs SEW <= 32");
  NEED_SEW_REG(in->rs2, dw);
  uint32_t em = x->emask;
  uint64_t s = form == N_WX ? x->w->x[in->rs1] : (uint64_t)(uint32_t)in->imm, r[VT_MAX_LANES];
  FOR_LANES(em, i) {
    uint64_t a = vel_get(x, in->rs2, i, dw), b = form == N_WV ? vel_get(x, in->rs1, i, sew) : s;
    unsigned sh = (unsigned)(b & (dw - 1));
    r[i] = arith ? sra64u(sew_sext(a, dw), sh) : a >> sh;
  }
  FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vnsrl_wv) { return narrow_shift(x, in, N_WV, 0); }
HANDLER(vnsrl_wx) { return narrow_shift(x, in, N_WX, 0); }
HANDLER(vnsrl_wi) { return narrow_shift(x, in, N_WI, 0); }
HANDLER(vnsra_wv) { return narrow_shift(x, in, N_WV, 1); }
HANDLER(vnsra_wx) { return narrow_shift(x, in, N_WX, 1); }
HANDLER(vnsra_wi) { return narrow_shift(x, in, N_WI, 1); }

/* vzext/vsext.vf<f>: vd (SEW) = vs2 (SEW / f) extended */
static int extend(vt_exec *x, const isa_inst *in, unsigned f, int sign) {
  unsigned sew = vsew_of(x->w), sw = sew / f;
  if (sw < 8) return vsew_unsupported(x, in, sew, "the source would be narrower than 8 bits");
  NEED_SEW_REG(in->rd, sew);
  uint32_t em = x->emask;
  uint64_t r[VT_MAX_LANES];
  FOR_LANES(em, i) r[i] = ext(vel_get(x, in->rs2, i, sw), sw, sign);
  FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vzext_vf2) { return extend(x, in, 2, 0); }
HANDLER(vsext_vf2) { return extend(x, in, 2, 1); }
HANDLER(vzext_vf4) { return extend(x, in, 4, 0); }
HANDLER(vsext_vf4) { return extend(x, in, 4, 1); }
HANDLER(vzext_vf8) { return extend(x, in, 8, 0); }
HANDLER(vsext_vf8) { return extend(x, in, 8, 1); }
