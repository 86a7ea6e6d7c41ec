/* RVV widening float arithmetic (revision 2025): vfwadd, vfwsub (.vv .vf
 * .wv .wf), vfwmul and the widening fused multiply-adds, SEW 16 into
 * binary32 and SEW 32 into binary64 (a pair). The SEW operands widen
 * exactly (a signaling NaN signals invalid there, as in the operation),
 * then the operation rounds once in the wide format, in frm (fpn.c). The
 * .vf scalar is the low SEW bits of x[rs1]. */
#include "exec_vsew.h"
#include "fp32.h"
#include "fpn.h"

enum { W_VV, W_VF, W_WV, W_WF };
enum { O_ADD, O_SUB, O_MUL, O_MACC, O_NMACC, O_MSAC, O_NMSAC };

static int fwiden(vt_exec *x, const isa_inst *in, int form, int op) {
  unsigned sew = vsew_of(x->w), dw = 2 * sew;
  if (!FPN_HAVE_64) return vsew_unsupported(x, in, sew, "the float conversions need a 128-bit host integer");
  if (sew != 16 && sew != 32) return vsew_unsupported(x, in, sew, "widening float arithmetic needs SEW 16 or 32");
  NEED_SEW_REG(in->rd, dw);
  NEED_SEW_REG(in->rs2, form == W_WV || form == W_WF ? dw : sew);
  unsigned rm;
  if (fp_rm(x, 7, &rm)) return -1;
  uint32_t em = x->emask, fl = 0;
  uint64_t r[VT_MAX_LANES];
#if FPN_HAVE_64
  fpn_fmt fs = sew == 16 ? (vtype_altfmt(x->w) ? FPN_BF16 : FPN_F16) : FPN_F32, fd = sew == 16 ? FPN_F32 : FPN_F64;
  int wide2 = form == W_WV || form == W_WF, vec1 = form == W_VV || form == W_WV;
  uint32_t sfl = 0; /* the scalar's widening signals only where an active lane uses it */
  uint64_t s = fpn64_convert(fs, fd, x->w->x[in->rs1] & (uint32_t)sew_mask(sew), FP_RNE, &sfl);
  if (!vec1 && em) fl |= sfl;
  FOR_LANES(em, i) {
    uint64_t a = wide2 ? vel_get(x, in->rs2, i, dw) : fpn64_convert(fs, fd, vel_get(x, in->rs2, i, sew), FP_RNE, &fl);
    uint64_t b = vec1 ? fpn64_convert(fs, fd, vel_get(x, in->rs1, i, sew), FP_RNE, &fl) : s;
    switch (op) {
    case O_ADD: r[i] = fpn64_add(fd, a, b, rm, &fl); break;
    case O_SUB: r[i] = fpn64_sub(fd, a, b, rm, &fl); break;
    case O_MUL: r[i] = fpn64_mul(fd, a, b, rm, &fl); break;
    default: { /* vd = ±(b * a) ± vd */
      uint64_t d = vel_get(x, in->rd, i, dw);
      r[i] = fpn64_fma(fd, b, a, d, op == O_NMACC || op == O_NMSAC, op == O_NMACC || op == O_MSAC, rm, &fl);
    }
    }
  }
#else
  (void)form;
  (void)op;
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

#define FW4(n, op)                                                                         \
  HANDLER(n##_vv) { return fwiden(x, in, W_VV, op); }                                      \
  HANDLER(n##_vf) { return fwiden(x, in, W_VF, op); }                                      \
  HANDLER(n##_wv) { return fwiden(x, in, W_WV, op); }                                      \
  HANDLER(n##_wf) { return fwiden(x, in, W_WF, op); }
#define FW2(n, op)                                                                         \
  HANDLER(n##_vv) { return fwiden(x, in, W_VV, op); }                                      \
  HANDLER(n##_vf) { return fwiden(x, in, W_VF, op); }
FW4(vfwadd, O_ADD)
FW4(vfwsub, O_SUB)
FW2(vfwmul, O_MUL)
FW2(vfwmacc, O_MACC)
FW2(vfwnmacc, O_NMACC)
FW2(vfwmsac, O_MSAC)
FW2(vfwnmsac, O_NMSAC)
#undef FW4
#undef FW2
