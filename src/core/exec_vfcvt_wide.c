/* RVV widening and narrowing float conversions (revision 2025): vfwcvt
 * from SEW to 2*SEW, vfncvt from 2*SEW to SEW, between binary16, binary32
 * and binary64 and the integers of those widths and of 8 bits, rounding by
 * frm (or toward zero for .rtz, to odd for .rod), the flags into fflags
 * (fpn.c). A 64-bit operand is a register pair; there is no 8-bit float,
 * so the forms that would need one are illegal instructions. */
#include "exec_vsew.h"
#include "fp32.h"
#include "fpn.h"

enum { K_F2U, K_F2I, K_U2F, K_I2F, K_F2F, K_F2U_RTZ, K_F2I_RTZ, K_F2F_ROD };

/* the float format of `bits` bits; 16 bits: bfloat16 under vtype.altfmt */
static int fmt_of(unsigned bits, int altfmt, fpn_fmt *f) {
  switch (bits) {
  case 16: *f = altfmt ? FPN_BF16 : FPN_F16; return 1;
  case 32: *f = FPN_F32; return 1;
  case 64: *f = FPN_F64; return 1;
  default: return 0;
  }
}

static int wide_cvt(vt_exec *x, const isa_inst *in, int widen, int kind) {
  unsigned sew = vsew_of(x->w), sw = widen ? sew : 2 * sew, dw = widen ? 2 * sew : sew;
  if (!FPN_HAVE_64) return vsew_unsupported(x, in, sew, "the float conversions need a 128-bit host integer");
  if (dw > 64) return vsew_unsupported(x, in, sew, "the result would be wider than 64 bits");
  int from_float = kind != K_U2F && kind != K_I2F;
  int to_float = kind == K_U2F || kind == K_I2F || kind == K_F2F || kind == K_F2F_ROD;
  fpn_fmt fs = FPN_F32, fd = FPN_F32;
  int alt = vtype_altfmt(x->w);
  if ((from_float && !fmt_of(sw, alt, &fs)) || (to_float && !fmt_of(dw, alt, &fd)))
    return vsew_unsupported(x, in, sew, "there is no 8-bit float format");
  NEED_SEW_REG(in->rd, dw);
  NEED_SEW_REG(in->rs2, sw);
  unsigned rm = FP_RTZ;
  if (kind == K_F2F_ROD) rm = FPN_ROD;
  else if (kind != K_F2U_RTZ && kind != K_F2I_RTZ && fp_rm(x, 7, &rm)) return -1;
  uint32_t em = x->emask, fl = 0;
  uint64_t r[VT_MAX_LANES];
#if FPN_HAVE_64
  FOR_LANES(em, i) {
    uint64_t a = vel_get(x, in->rs2, i, sw);
    switch (kind) {
    case K_F2U: case K_F2U_RTZ: r[i] = fpn64_to_int(fs, a, dw, 0, rm, &fl); break;
    case K_F2I: case K_F2I_RTZ: r[i] = fpn64_to_int(fs, a, dw, 1, rm, &fl); break;
    case K_U2F: r[i] = fpn64_from_int(fd, a, sw, 0, rm, &fl); break;
    case K_I2F: r[i] = fpn64_from_int(fd, a, sw, 1, rm, &fl); break;
    default: r[i] = fpn64_convert(fs, fd, a, rm, &fl); break;
    }
  }
#else
  (void)fs;
  (void)fd;
  (void)r;
#endif
  FOR_LANES(em, i) vel_set(x, in->rd, i, dw, r[i]);
  if (fl) {
    x->fflags |= fl;
    fp_commit_flags(x);
  }
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vfwcvt_xu_f_v) { return wide_cvt(x, in, 1, K_F2U); }
HANDLER(vfwcvt_x_f_v) { return wide_cvt(x, in, 1, K_F2I); }
HANDLER(vfwcvt_f_xu_v) { return wide_cvt(x, in, 1, K_U2F); }
HANDLER(vfwcvt_f_x_v) { return wide_cvt(x, in, 1, K_I2F); }
HANDLER(vfwcvt_f_f_v) { return wide_cvt(x, in, 1, K_F2F); }
HANDLER(vfwcvt_rtz_xu_f_v) { return wide_cvt(x, in, 1, K_F2U_RTZ); }
HANDLER(vfwcvt_rtz_x_f_v) { return wide_cvt(x, in, 1, K_F2I_RTZ); }
HANDLER(vfncvt_xu_f_w) { return wide_cvt(x, in, 0, K_F2U); }
HANDLER(vfncvt_x_f_w) { return wide_cvt(x, in, 0, K_F2I); }
HANDLER(vfncvt_f_xu_w) { return wide_cvt(x, in, 0, K_U2F); }
HANDLER(vfncvt_f_x_w) { return wide_cvt(x, in, 0, K_I2F); }
HANDLER(vfncvt_f_f_w) { return wide_cvt(x, in, 0, K_F2F); }
HANDLER(vfncvt_rod_f_f_w) { return wide_cvt(x, in, 0, K_F2F_ROD); }
HANDLER(vfncvt_rtz_xu_f_w) { return wide_cvt(x, in, 0, K_F2U_RTZ); }
HANDLER(vfncvt_rtz_x_f_w) { return wide_cvt(x, in, 0, K_F2I_RTZ); }
