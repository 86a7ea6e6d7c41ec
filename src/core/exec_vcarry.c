/* RVV add and subtract with carry (revision 2025) at every SEW: vadc,
 * vsbc (vd = vs2 +/- b +/- carry), vmadc, vmsbc (the carry or borrow out,
 * 0 or 1 in the single register vd as every Ventus compare writes it). The
 * carry in is bit i of v0, as vmerge reads v0 (docs/isa.md §7.22); the .vvm
 * forms write every SIMT-active lane below vl, as vmerge. */
#include "exec_vsew.h"

enum { C_VV, C_VX, C_VI };

static int carry_op(vt_exec *x, const isa_inst *in, int form, int sub, int out, int cin) {
  vt_warp *w = x->w;
  unsigned sew = vsew_of(w);
  if (!out) NEED_SEW_REG(in->rd, sew);
  NEED_SEW_REG(in->rs2, sew);
  if (form == C_VV) NEED_SEW_REG(in->rs1, sew);
  uint32_t em = w->mask & lanes_mask(w->vl), sel = cin ? w->v[0][0] : 0;
  x->emask = em;
  uint64_t m = sew_mask(sew), r[VT_MAX_LANES];
  uint64_t s = form == C_VX ? vsew_scalar(x, in->rs1, sew) : (uint64_t)(int64_t)in->imm & m;
  FOR_LANES(em, i) {
    uint64_t a = vel_get(x, in->rs2, i, sew), b = form == C_VV ? vel_get(x, in->rs1, i, sew) : s;
    uint64_t c = sel >> i & 1;
    if (!out) r[i] = sub ? a - b - c : a + b + c;
    else if (sub) r[i] = a < b || a - b < c; /* borrow out of a - b - c */
    else if (sew < 64) r[i] = (a + b + c) >> sew & 1;
    else r[i] = a + b < a || a + b + c < a + b; /* carry out at 64 bits */
  }
  if (out) FOR_LANES(em, i) w->v[in->rd][i] = (uint32_t)r[i];
  else FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vadc_vvm) { return carry_op(x, in, C_VV, 0, 0, 1); }
HANDLER(vadc_vxm) { return carry_op(x, in, C_VX, 0, 0, 1); }
HANDLER(vadc_vim) { return carry_op(x, in, C_VI, 0, 0, 1); }
HANDLER(vmadc_vvm) { return carry_op(x, in, C_VV, 0, 1, 1); }
HANDLER(vmadc_vxm) { return carry_op(x, in, C_VX, 0, 1, 1); }
HANDLER(vmadc_vim) { return carry_op(x, in, C_VI, 0, 1, 1); }
HANDLER(vmadc_vv) { return carry_op(x, in, C_VV, 0, 1, 0); }
HANDLER(vmadc_vx) { return carry_op(x, in, C_VX, 0, 1, 0); }
HANDLER(vmadc_vi) { return carry_op(x, in, C_VI, 0, 1, 0); }
HANDLER(vsbc_vvm) { return carry_op(x, in, C_VV, 1, 0, 1); }
HANDLER(vsbc_vxm) { return carry_op(x, in, C_VX, 1, 0, 1); }
HANDLER(vmsbc_vvm) { return carry_op(x, in, C_VV, 1, 1, 1); }
HANDLER(vmsbc_vxm) { return carry_op(x, in, C_VX, 1, 1, 1); }
HANDLER(vmsbc_vv) { return carry_op(x, in, C_VV, 1, 1, 0); }
HANDLER(vmsbc_vx) { return carry_op(x, in, C_VX, 1, 1, 0); }
