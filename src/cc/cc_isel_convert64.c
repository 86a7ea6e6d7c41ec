/* Conversions with 64-bit integers (register pairs {low, high}): LLVM's
 * sitofp/uitofp/fptosi/fptoui of i64 and OpenCL's convert_<type>[_sat][_rXX]
 * where either side is long or ulong, scalar and vector. The ISA converts
 * between float and 32-bit integers only (Zfinx: a float is its bits in an
 * integer register), so:
 *
 * float -> long: |x| < 2^23 (exponent field below 150) converts with the
 * 32-bit fcvt in the asked rounding mode and is sign-extended; larger
 * values are integers already, the 24-bit significand shifted left by
 * exponent - 150 and negated for a negative x. _sat: exponent >= 190
 * (|x| >= 2^63; 191 for ulong) gives the bound, a negative x gives 0 for
 * ulong, NaN gives 0.
 *
 * long -> float: the magnitude is normalised (shifted left by its leading
 * zeros), its top 31 bits with a sticky bit for everything below (so the
 * bits dropped never change the rounding) go through the signed 32-bit
 * fcvt in the asked mode, with the sign applied first so that rtn/rtp
 * round the right way, and the result is scaled by 2^(33 - leading zeros),
 * which is exact. */
#include <stdlib.h>

#include "cc_internal.h"

enum { RNE = 0, RTZ = 1 };

static int oom(cc_fn *f) { return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name); }

/* fcvt between float and int32 in rounding mode rm (to_int: float -> int) */
static int fcvt32(cc_fn *f, int vec, int x, int rm, int to_int) {
  static const char *const si[] = {"fcvt.w.s %0, %1, rne", "fcvt.w.s %0, %1, rtz", "fcvt.w.s %0, %1, rdn", "fcvt.w.s %0, %1, rup"};
  static const char *const sf[] = {"fcvt.s.w %0, %1, rne", "fcvt.s.w %0, %1, rtz", "fcvt.s.w %0, %1, rdn", "fcvt.s.w %0, %1, rup"};
  int d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (d < 0 || x < 0) return -1;
  if (!vec) return CC_EMIT(f, to_int ? si[rm] : sf[rm], 1, cc_r(d), cc_r(x)) ? -1 : d;
  if (to_int && rm == RTZ) return CC_EMIT(f, "vfcvt.rtz.x.f.v %0, %1", 1, cc_r(d), cc_r(x)) ? -1 : d;
  int old = cc_new_vreg(f, CC_S); /* the vector form reads frm */
  if (old < 0 || CC_EMIT(f, "csrrwi %0, frm, %1", 1, cc_r(old), cc_imm(rm)) ||
      CC_EMIT(f, to_int ? "vfcvt.x.f.v %0, %1" : "vfcvt.f.x.v %0, %1", 1, cc_r(d), cc_r(x)) ||
      CC_EMIT(f, "csrw frm, %0", 0, cc_r(old)))
    return -1;
  return d;
}

/* all ones where k < x (unsigned), else 0 */
static int above(cc_fn *f, int vec, int x, int32_t k) { return cc_xneg(f, vec, cc_x3(f, vec, CC_XSLTU, -1, cc_xk(f, vec, k), x)); }

/* a float (its bits in x) to a long or ulong (sgn), rounding rm, saturating if sat */
static int float_to_i64(cc_fn *f, int vec, int x, int sgn, int rm, int sat, int out[2]) {
  int e = cc_xi(f, vec, CC_XAND, -1, cc_xi(f, vec, CC_XSRL, -1, x, 23), 255);
  int m = cc_x3(f, vec, CC_XOR, -1, cc_xi(f, vec, CC_XSRL, -1, cc_xi(f, vec, CC_XSLL, -1, x, 9), 9), cc_xk(f, vec, 0x800000));
  int s = cc_xi(f, vec, CC_XSRA, -1, x, 31); /* all ones for a negative x */
  int lo = fcvt32(f, vec, x, rm < 0 ? RTZ : rm, 1), small[2] = {lo, cc_xi(f, vec, CC_XSRA, -1, lo, 31)};
  int big[2], wide[2] = {m, cc_xk(f, vec, 0)};
  if (cc_i64_shift(f, vec, LLVMShl, wide, cc_xi(f, vec, CC_XADD, -1, e, -150), big) ||
      cc_i64_negate_if(f, vec, big, s, big))
    return -1;
  int isbig = above(f, vec, e, 149);
  for (int i = 0; i < 2; i++) out[i] = cc_xpick(f, vec, isbig, big[i], small[i]);
  if (!sat) return out[0] < 0 || out[1] < 0 ? -1 : 0;
  if (sgn) { /* |x| >= 2^63: LONG_MIN or LONG_MAX by the sign */
    int ovf = above(f, vec, e, 189);
    out[0] = cc_xpick(f, vec, ovf, cc_xi(f, vec, CC_XXOR, -1, s, -1), out[0]);
    out[1] = cc_xpick(f, vec, ovf, cc_x3(f, vec, CC_XXOR, -1, s, cc_xk(f, vec, 0x7fffffff)), out[1]);
  } else { /* negative: 0; x >= 2^64: ULONG_MAX */
    int keep = cc_xi(f, vec, CC_XXOR, -1, s, -1), ovf = cc_x3(f, vec, CC_XAND, -1, above(f, vec, e, 190), keep);
    for (int i = 0; i < 2; i++) out[i] = cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XAND, -1, out[i], keep), ovf);
  }
  int ok = cc_new_vreg(f, vec ? CC_V : CC_S); /* NaN converts to 0 */
  if (ok < 0 || CC_EMIT(f, vec ? "vmfeq.vv %0, %1, %1" : "feq.s %0, %1, %1", 1, cc_r(ok), cc_r(x))) return -1;
  int keep = cc_xneg(f, vec, ok);
  for (int i = 0; i < 2; i++) out[i] = cc_x3(f, vec, CC_XAND, -1, out[i], keep);
  return out[0] < 0 || out[1] < 0 ? -1 : 0;
}

/* leading zeros of a 64-bit value, 64 for 0 */
static int clz64(cc_fn *f, int vec, const int a[2]) {
  int hz = cc_xneg(f, vec, cc_x3(f, vec, CC_XSEQ, -1, a[1], cc_xk(f, vec, 0)));
  return cc_xpick(f, vec, hz, cc_xi(f, vec, CC_XADD, -1, cc_bits_clz(f, vec, a[0]), 32), cc_bits_clz(f, vec, a[1]));
}

/* a long or ulong (sgn) to a float in rounding mode rm */
static int i64_to_float(cc_fn *f, int vec, const int a[2], int sgn, int rm) {
  int s = sgn ? cc_xi(f, vec, CC_XSRA, -1, a[1], 31) : cc_xk(f, vec, 0), u[2], t[2];
  if (s < 0 || cc_i64_negate_if(f, vec, a, s, u)) return -1;
  int n = clz64(f, vec, u);
  if (cc_i64_shift(f, vec, LLVMShl, u, n, t)) return -1;
  /* the top 31 bits, and a sticky bit for the 33 below them */
  int sticky = cc_x3(f, vec, CC_XOR, -1, cc_xi(f, vec, CC_XAND, -1, t[1], 1), cc_x3(f, vec, CC_XSLTU, -1, cc_xk(f, vec, 0), t[0]));
  int w = cc_x3(f, vec, CC_XOR, -1, cc_xi(f, vec, CC_XSRL, -1, t[1], 1), sticky);
  int sw = cc_x3(f, vec, CC_XSUB, -1, cc_x3(f, vec, CC_XXOR, -1, w, s), s);
  int fl = fcvt32(f, vec, sw, rm < 0 ? RNE : rm, 0);
  int scale = cc_xi(f, vec, CC_XSLL, -1, cc_x3(f, vec, CC_XSUB, -1, cc_xk(f, vec, 160), n), 23); /* 2^(33 - n) */
  int d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (d < 0 || fl < 0 || scale < 0) return -1;
  return CC_EMIT(f, vec ? "vfmul.vv %0, %1, %2" : "fmul.s %0, %1, %2", 1, cc_r(d), cc_r(fl), cc_r(scale)) ? -1 : d;
}

/* a < k or k < a against a 64-bit constant k, then k where it is exceeded */
static int clamp64(cc_fn *f, int vec, int a[2], uint64_t k, int sgn, int upper) {
  int kk[2] = {cc_xk(f, vec, (int32_t)(uint32_t)k), cc_xk(f, vec, (int32_t)(uint32_t)(k >> 32))};
  int m = cc_xneg(f, vec, upper ? cc_i64_lt(f, vec, sgn, kk, a) : cc_i64_lt(f, vec, sgn, a, kk));
  for (int i = 0; i < 2; i++) a[i] = cc_xpick(f, vec, m, kk[i], a[i]);
  return a[0] < 0 || a[1] < 0 ? -1 : 0;
}

typedef struct {
  int fl, sgn, w;
} cty;

/* one element: x = {register} or {lo, hi} in, out likewise; returns the number of output registers */
static int conv(cc_fn *f, int vec, const int *x, cty s, cty d, int sat, int rm, int *out) {
  if (s.fl) return float_to_i64(f, vec, x[0], d.sgn, rm, sat, out) ? -1 : 2;
  if (d.fl) {
    int a[2] = {x[0], s.w == 64 ? x[1] : s.sgn ? cc_xi(f, vec, CC_XSRA, -1, x[0], 31) : cc_xk(f, vec, 0)};
    return (out[0] = i64_to_float(f, vec, a, s.sgn, rm)) < 0 ? -1 : 1;
  }
  int a[2] = {x[0], s.w == 64 ? x[1] : s.sgn ? cc_xi(f, vec, CC_XSRA, -1, x[0], 31) : cc_xk(f, vec, 0)};
  if (sat) { /* the source's value clamped to the destination's range, compared on 64 bits */
    if (s.sgn && !d.sgn && clamp64(f, vec, a, 0, 1, 0)) return -1;
    if (d.w < 64 || (!s.sgn && d.sgn)) {
      uint64_t max = d.sgn ? (UINT64_C(1) << (d.w - 1)) - 1 : d.w == 64 ? UINT64_MAX : (UINT64_C(1) << d.w) - 1;
      if (clamp64(f, vec, a, max, s.sgn && d.sgn, 1)) return -1;
      if (s.sgn && d.sgn && clamp64(f, vec, a, (uint64_t)0 - (UINT64_C(1) << (d.w - 1)), 1, 0)) return -1;
    }
  }
  if (d.w == 64) {
    out[0] = a[0];
    out[1] = a[1];
    return 2;
  }
  return (out[0] = cc_mask_to(f, a[0], vec, d.w)) < 0 ? -1 : 1;
}

/* the registers of an element of width w (a narrow integer sign-extended when signed) */
static int operand_regs(cc_fn *f, LLVMValueRef v, int vec, cty t, int *r) {
  if (t.w == 64) return cc_i64_pair(f, v, vec, r);
  return (r[0] = cc_operand(f, v, vec, !t.fl && t.sgn)) < 0 ? -1 : 0;
}

static int define(cc_fn *f, LLVMValueRef in, const int *r, int nr) {
  if (nr == 2) return cc_i64_set(f, in, r);
  f->vreg[cc_val_num(f, in)] = r[0];
  return 0;
}

int cc_select_convert64(cc_fn *f, LLVMValueRef call, int dfl, int dsgn, int dw, int sfl, int ssgn, int sw, int sat, int rm) {
  cty d = {dfl, dsgn, dw}, s = {sfl, ssgn, sw};
  int k = cc_val_num(f, call), vec = f->div[k], x[2], r[2];
  LLVMValueRef a = LLVMGetOperand(call, 0);
  if (LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVectorTypeKind) {
    int nr = operand_regs(f, a, vec, s, x) ? -1 : conv(f, vec, x, s, d, sat, rm, r);
    return nr < 0 ? -1 : define(f, call, r, nr);
  }
  int n = (int)LLVMGetVectorSize(LLVMTypeOf(call)), sn = s.w == 64 ? 2 : 1, dn = d.w == 64 ? 2 : 1;
  int *g = cc_group_of(f, a, vec), *o = calloc((size_t)(n * dn) + 1, sizeof *o);
  if (!g || !o) {
    free(g);
    free(o);
    return g ? oom(f) : -1;
  }
  for (int i = 0; i < n; i++) {
    int *e = g + i * sn;
    if (!s.fl && s.sgn && s.w < 32) { /* narrow elements are kept zero-extended */
      e[0] = cc_xi(f, vec, CC_XSRA, -1, cc_xi(f, vec, CC_XSLL, -1, e[0], 32 - s.w), 32 - s.w);
    }
    if (conv(f, vec, e, s, d, sat, rm, o + i * dn) < 0) {
      free(g);
      free(o);
      return -1;
    }
  }
  free(g);
  return cc_set_group(f, call, o);
}

int cc_select_i64_fpcast(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMValueRef a = LLVMGetOperand(in, 0);
  int x[2], r[2];
  if (op == LLVMFPToSI || op == LLVMFPToUI) {
    if (LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMFloatTypeKind)
      return cc_unsupported(f, in, "a conversion to a 64-bit integer from double or half precision");
    int fx = cc_operand(f, a, vec, 0);
    return fx < 0 || float_to_i64(f, vec, fx, op == LLVMFPToSI, -1, 0, r) ? -1 : cc_i64_set(f, in, r);
  }
  if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMFloatTypeKind)
    return cc_unsupported(f, in, "a conversion from a 64-bit integer to double or half precision");
  if (cc_i64_pair(f, a, vec, x)) return -1;
  int d = i64_to_float(f, vec, x, op == LLVMSIToFP, -1);
  if (d < 0) return -1;
  f->vreg[cc_val_num(f, in)] = d;
  return 0;
}
