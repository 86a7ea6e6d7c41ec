/* RVV fixed point (revision 2025, seed 002 "RV32V-FixedPointArithmetic":
 * int8 and the other widths): saturating add/subtract, averaging
 * add/subtract, vsmul, the scaling shifts and the narrowing clips, at the
 * SEW of vtype, rounding by vxrm and setting the sticky vxsat when an
 * active element saturates (RVV 1.0 §12). Every intermediate is formed
 * exactly: in 64 bits below SEW 64, with a 65th bit or the high half of
 * the product at SEW 64. */
#include "exec_vsew.h"

enum { FX_SADDU, FX_SADD, FX_SSUBU, FX_SSUB, FX_AADDU, FX_AADD, FX_ASUBU, FX_ASUB, FX_SMUL, FX_SSRL, FX_SSRA };
enum { FF_VV, FF_VX, FF_VI };

/* a op b with one more bit: the low 64 bits, and bit 64 in *top */
static uint64_t sum65(int op, uint64_t a, uint64_t b, unsigned sew, uint64_t *top) {
  uint64_t sa = sew_sext(a, sew), sb = sew_sext(b, sew), lo;
  switch (op) {
  case FX_AADDU: lo = a + b; *top = lo < a; break;
  case FX_ASUBU: lo = a - b; *top = a < b; break;
  case FX_AADD: lo = sa + sb; *top = ((sa ^ sb) >> 63) ? lo >> 63 : sa >> 63; break;
  default: lo = sa - sb; *top = ((sa ^ sb) >> 63) ? sa >> 63 : lo >> 63; break;
  }
  return lo;
}

/* one element; *sat when it saturated */
static uint64_t fx(int op, uint64_t a, uint64_t b, unsigned sew, unsigned rm, int *sat) {
  uint64_t m = sew_mask(sew), smin = 1ull << (sew - 1), smax = m >> 1, r, top;
  unsigned sh = (unsigned)(b & (sew - 1));
  switch (op) {
  case FX_SADDU:
    r = (a + b) & m;
    if (r < a) *sat = 1, r = m;
    return r;
  case FX_SSUBU:
    if (a < b) *sat = 1;
    return a < b ? 0 : a - b;
  case FX_SADD:
  case FX_SSUB:
    r = (op == FX_SADD ? a + b : a - b) & m;
    if (((op == FX_SADD ? (a ^ r) & (b ^ r) : (a ^ b) & (a ^ r)) >> (sew - 1)) & 1) {
      *sat = 1;
      r = a >> (sew - 1) & 1 ? smin : smax;
    }
    return r;
  case FX_SMUL: {
    if (a == smin && b == smin) { /* the one product beyond the range */
      *sat = 1;
      return smax;
    }
    if (sew == 64) {
      uint64_t lo = a * b, hi = mulh64(a, b);
      return (hi << 1 | lo >> 63) + vx_round(lo, 63, rm);
    }
    uint64_t p = sew_sext(a, sew) * sew_sext(b, sew);
    return (sra64u(p, sew - 1) + vx_round(p, sew - 1, rm)) & m;
  }
  case FX_SSRL: return ((a >> sh) + vx_round(a, sh, rm)) & m;
  case FX_SSRA: {
    uint64_t sa = sew_sext(a, sew);
    return (sra64u(sa, sh) + vx_round(sa, sh, rm)) & m;
  }
  default: { /* the averages: (a op b) >> 1, rounded */
    uint64_t lo = sum65(op, a, b, sew, &top);
    return ((lo >> 1 | top << 63) + vx_round(lo, 1, rm)) & m;
  }
  }
}

static int fixed(vt_exec *x, const isa_inst *in, int op, int form) {
  vt_warp *w = x->w;
  unsigned sew = vsew_of(w);
  NEED_SEW_REG(in->rd, sew);
  NEED_SEW_REG(in->rs2, sew);
  if (form == FF_VV) NEED_SEW_REG(in->rs1, sew);
  uint64_t s = form == FF_VX ? vsew_scalar(x, in->rs1, sew) : (uint64_t)(int64_t)in->imm & sew_mask(sew);
  uint64_t r[VT_MAX_LANES];
  uint32_t em = x->emask;
  int sat = 0;
  FOR_LANES(em, i) {
    uint64_t b = form == FF_VV ? vel_get(x, in->rs1, i, sew) : s;
    r[i] = fx(op, vel_get(x, in->rs2, i, sew), b, sew, w->vxrm, &sat);
  }
  FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  trace_vreg(x, in->rd);
  if (sat) vxsat_set(x);
  return 0;
}

#define FX3(n, op)                                                                         \
  HANDLER(n##_vv) { return fixed(x, in, op, FF_VV); }                                      \
  HANDLER(n##_vx) { return fixed(x, in, op, FF_VX); }                                      \
  HANDLER(n##_vi) { return fixed(x, in, op, FF_VI); }
#define FX2(n, op)                                                                         \
  HANDLER(n##_vv) { return fixed(x, in, op, FF_VV); }                                      \
  HANDLER(n##_vx) { return fixed(x, in, op, FF_VX); }
FX3(vsaddu, FX_SADDU)
FX3(vsadd, FX_SADD)
FX2(vssubu, FX_SSUBU)
FX2(vssub, FX_SSUB)
FX2(vaaddu, FX_AADDU)
FX2(vaadd, FX_AADD)
FX2(vasubu, FX_ASUBU)
FX2(vasub, FX_ASUB)
FX2(vsmul, FX_SMUL)
FX3(vssrl, FX_SSRL)
FX3(vssra, FX_SSRA)
#undef FX3
#undef FX2

/* vnclipu/vnclip: vd (SEW) = vs2 (2*SEW) >> the low log2(2*SEW) bits of
 * vs1, x[rs1] or uimm5, rounded, saturated to SEW */
static int nclip(vt_exec *x, const isa_inst *in, int form, int sign) {
  vt_warp *w = x->w;
  unsigned sew = vsew_of(w), dw = 2 * sew;
  if (sew == 64) return vsew_unsupported(x, in, sew, "a narrowing instruction needs SEW <= 32");
  NEED_SEW_REG(in->rs2, dw);
  uint64_t s = form == FF_VX ? w->x[in->rs1] : (uint64_t)(uint32_t)in->imm, r[VT_MAX_LANES];
  uint64_t m = sew_mask(sew);
  int64_t smin = -(int64_t)(1ull << (sew - 1)), smax = (int64_t)(m >> 1);
  uint32_t em = x->emask;
  int sat = 0;
  FOR_LANES(em, i) {
    uint64_t a = vel_get(x, in->rs2, i, dw), b = form == FF_VV ? vel_get(x, in->rs1, i, sew) : s;
    unsigned sh = (unsigned)(b & (dw - 1));
    if (sign) {
      uint64_t sa = sew_sext(a, dw);
      int64_t v = (int64_t)(sra64u(sa, sh) + vx_round(sa, sh, w->vxrm));
      if (v < smin || v > smax) sat = 1;
      r[i] = (uint64_t)(v < smin ? smin : v > smax ? smax : v);
    } else {
      uint64_t v = (a >> sh) + vx_round(a, sh, w->vxrm);
      if (v > m) sat = 1;
      r[i] = v > m ? m : v;
    }
  }
  FOR_LANES(em, i) vel_set(x, in->rd, i, sew, r[i]);
  trace_vreg(x, in->rd);
  if (sat) vxsat_set(x);
  return 0;
}

HANDLER(vnclipu_wv) { return nclip(x, in, FF_VV, 0); }
HANDLER(vnclipu_wx) { return nclip(x, in, FF_VX, 0); }
HANDLER(vnclipu_wi) { return nclip(x, in, FF_VI, 0); }
HANDLER(vnclip_wv) { return nclip(x, in, FF_VV, 1); }
HANDLER(vnclip_wx) { return nclip(x, in, FF_VX, 1); }
HANDLER(vnclip_wi) { return nclip(x, in, FF_VI, 1); }
