/* Floating-point operations without a Ventus instruction, as integer IR:
 *  - half <-> float (fpext, fptrunc): the ISA has no half arithmetic, but
 *    vload_half/vstore_half (libclc's, in every rounding mode: its _rtz,
 *    _rtp and _rtn forms adjust the float first and end in the
 *    round-to-nearest-even fptrunc) only convert. Run before the optimiser,
 *    which then folds `load half` + bitcast into 16-bit integer loads.
 *    The half stores with a rounding mode are lowered here directly
 *    (cc_lower_vstore_half, before libclc is linked): libclc's _rtp/_rtn
 *    adjustment misses values below 2^-24 (vstore_half_rtp(2^-25) stores
 *    0, not the smallest subnormal). Those of double values call the
 *    software double library's conversion (one rounding from double).
 *  - llvm.is.fpclass (the optimiser's form of isnormal, isfinite, ...):
 *    compares on the bits. Run after the optimiser, which creates it.
 * Scalars and vectors alike (constants are splats). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

typedef struct {
  LLVMBuilderRef b;
  LLVMTypeRef i16, i32, f32; /* of the operand's shape: scalar or <N x ...> */
} fpb;

static LLVMTypeRef shaped(LLVMTypeRef like, LLVMTypeRef elem) {
  return LLVMGetTypeKind(like) == LLVMVectorTypeKind ? LLVMVectorType(elem, LLVMGetVectorSize(like)) : elem;
}

static fpb fpb_of(LLVMBuilderRef b, LLVMTypeRef like) {
  LLVMContextRef c = LLVMGetTypeContext(like);
  return (fpb){b, shaped(like, LLVMInt16TypeInContext(c)), shaped(like, LLVMInt32TypeInContext(c)),
               shaped(like, LLVMFloatTypeInContext(c))};
}

/* a constant of type t, splat over a vector */
static LLVMValueRef k(LLVMTypeRef t, uint32_t v) {
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) return LLVMConstInt(t, v, 0);
  LLVMValueRef e[16], one = LLVMConstInt(LLVMGetElementType(t), v, 0);
  unsigned n = LLVMGetVectorSize(t);
  for (unsigned i = 0; i < n && i < 16; i++) e[i] = one;
  return LLVMConstVector(e, n);
}

static LLVMValueRef kf(const fpb *p, uint32_t bits) { return LLVMConstBitCast(k(p->i32, bits), p->f32); }

static LLVMValueRef and_(const fpb *p, LLVMValueRef x, uint32_t m) { return LLVMBuildAnd(p->b, x, k(p->i32, m), ""); }
static LLVMValueRef srl(const fpb *p, LLVMValueRef x, uint32_t s) { return LLVMBuildLShr(p->b, x, k(p->i32, s), ""); }
static LLVMValueRef sll(const fpb *p, LLVMValueRef x, uint32_t s) { return LLVMBuildShl(p->b, x, k(p->i32, s), ""); }
static LLVMValueRef ult(const fpb *p, LLVMValueRef x, uint32_t v) { return LLVMBuildICmp(p->b, LLVMIntULT, x, k(p->i32, v), ""); }
static LLVMValueRef eq(const fpb *p, LLVMValueRef x, uint32_t v) { return LLVMBuildICmp(p->b, LLVMIntEQ, x, k(p->i32, v), ""); }

/* half bits -> float: normal numbers rebias the exponent, infinities and
 * NaNs keep their mantissa, subnormals are m * 2^-24 (exact in float) */
static LLVMValueRef half_to_float(const fpb *p, LLVMValueRef x) {
  LLVMValueRef h = LLVMBuildZExt(p->b, LLVMBuildBitCast(p->b, x, p->i16, ""), p->i32, "");
  LLVMValueRef s = sll(p, and_(p, h, 0x8000), 16), e = and_(p, srl(p, h, 10), 0x1f), m = and_(p, h, 0x3ff);
  LLVMValueRef norm = LLVMBuildOr(p->b, sll(p, LLVMBuildAdd(p->b, e, k(p->i32, 112), ""), 23), sll(p, m, 13), "");
  LLVMValueRef special = LLVMBuildOr(p->b, k(p->i32, 0x7f800000), sll(p, m, 13), "");
  LLVMValueRef sub = LLVMBuildBitCast(p->b, LLVMBuildFMul(p->b, LLVMBuildUIToFP(p->b, m, p->f32, ""), kf(p, 0x33800000), ""),
                                      p->i32, "");
  LLVMValueRef r = LLVMBuildSelect(p->b, eq(p, e, 0), sub, LLVMBuildSelect(p->b, eq(p, e, 31), special, norm, ""), "");
  return LLVMBuildBitCast(p->b, LLVMBuildOr(p->b, r, s, ""), p->f32, "");
}

/* float -> half bits, rounded to nearest even: a normal result rounds the
 * 13 dropped bits (ties to the even one); below 2^-14 the float sum
 * |x| + 0.5 does the rounding to a multiple of 2^-24, the subnormal step;
 * from 65520 up infinity; NaNs stay quiet NaNs */
static LLVMValueRef float_to_half(const fpb *p, LLVMValueRef x, LLVMTypeRef half) {
  LLVMValueRef b = LLVMBuildBitCast(p->b, x, p->i32, "");
  LLVMValueRef s = and_(p, srl(p, b, 16), 0x8000), a = and_(p, b, 0x7fffffff);
  LLVMValueRef sum = LLVMBuildFAdd(p->b, LLVMBuildBitCast(p->b, a, p->f32, ""), kf(p, 0x3f000000), "");
  LLVMValueRef sub = LLVMBuildSub(p->b, LLVMBuildBitCast(p->b, sum, p->i32, ""), k(p->i32, 0x3f000000), "");
  LLVMValueRef odd = and_(p, srl(p, a, 13), 1);
  LLVMValueRef norm = srl(p, LLVMBuildAdd(p->b, LLVMBuildAdd(p->b, a, k(p->i32, 0xc8000fffu), ""), odd, ""), 13);
  LLVMValueRef r = LLVMBuildSelect(p->b, ult(p, a, 0x38800000), sub, norm, "");
  r = LLVMBuildSelect(p->b, ult(p, a, 0x477ff000), r, k(p->i32, 0x7c00), "");
  LLVMValueRef nan = LLVMBuildOr(p->b, k(p->i32, 0x7e00), and_(p, srl(p, a, 13), 0x3ff), "");
  r = LLVMBuildSelect(p->b, ult(p, a, 0x7f800001), r, nan, "");
  return LLVMBuildBitCast(p->b, LLVMBuildTrunc(p->b, LLVMBuildOr(p->b, r, s, ""), p->i16, ""), half, "");
}

enum { RM_RTE, RM_RTZ, RM_RTP, RM_RTN };

/* float -> half bits rounded towards zero, +infinity or -infinity: the
 * truncated half (the 13 dropped bits of a normal one; for a subnormal
 * one the significand shifted by 126 - exponent, 0 when that is 32 or
 * more) plus one step away from zero when bits were dropped and the mode
 * rounds away for this sign; from 65536 up the largest half or infinity */
static LLVMValueRef float_to_half_directed(const fpb *p, LLVMValueRef x, int rm) {
  LLVMValueRef b = LLVMBuildBitCast(p->b, x, p->i32, "");
  LLVMValueRef s = and_(p, srl(p, b, 16), 0x8000), a = and_(p, b, 0x7fffffff);
  LLVMValueRef neg = LLVMBuildICmp(p->b, LLVMIntSLT, b, k(p->i32, 0), "");
  LLVMValueRef tn = LLVMBuildSub(p->b, srl(p, a, 13), k(p->i32, 112 << 10), ""), dn = and_(p, a, 0x1fff);
  LLVMValueRef e = srl(p, a, 23), sig = LLVMBuildOr(p->b, and_(p, a, 0x7fffff), k(p->i32, 0x800000), "");
  LLVMValueRef sh = LLVMBuildSub(p->b, k(p->i32, 126), e, ""), wide = ult(p, sh, 32);
  LLVMValueRef shc = LLVMBuildSelect(p->b, wide, sh, k(p->i32, 31), "");
  LLVMValueRef ts = LLVMBuildSelect(p->b, wide, LLVMBuildLShr(p->b, sig, shc, ""), k(p->i32, 0), "");
  LLVMValueRef lost = LLVMBuildSub(p->b, LLVMBuildShl(p->b, k(p->i32, 1), shc, ""), k(p->i32, 1), "");
  LLVMValueRef ds = LLVMBuildSelect(p->b, wide, LLVMBuildAnd(p->b, sig, lost, ""), a, "");
  LLVMValueRef normal = LLVMBuildICmp(p->b, LLVMIntUGE, a, k(p->i32, 0x38800000), "");
  LLVMValueRef t = LLVMBuildSelect(p->b, normal, tn, ts, "");
  LLVMValueRef inexact = LLVMBuildICmp(p->b, LLVMIntNE, LLVMBuildSelect(p->b, normal, dn, ds, ""), k(p->i32, 0), "");
  LLVMValueRef away = rm == RM_RTZ ? NULL : rm == RM_RTP ? LLVMBuildNot(p->b, neg, "") : neg;
  LLVMValueRef r = t, top = k(p->i32, 0x7bff);
  if (away) {
    r = LLVMBuildAdd(p->b, t, LLVMBuildZExt(p->b, LLVMBuildAnd(p->b, inexact, away, ""), p->i32, ""), "");
    top = LLVMBuildSelect(p->b, away, k(p->i32, 0x7c00), top, "");
  }
  r = LLVMBuildSelect(p->b, ult(p, a, 0x47800000), r, top, "");
  r = LLVMBuildSelect(p->b, eq(p, a, 0x7f800000), k(p->i32, 0x7c00), r, "");
  LLVMValueRef nan = LLVMBuildOr(p->b, k(p->i32, 0x7e00), and_(p, srl(p, a, 13), 0x3ff), "");
  r = LLVMBuildSelect(p->b, ult(p, a, 0x7f800001), r, nan, "");
  return LLVMBuildTrunc(p->b, LLVMBuildOr(p->b, r, s, ""), p->i16, "");
}

LLVMValueRef cc_float_to_half_bits(LLVMBuilderRef b, LLVMValueRef x, int rm) {
  fpb p = fpb_of(b, LLVMTypeOf(x));
  if (rm != RM_RTE) return float_to_half_directed(&p, x, rm);
  return LLVMBuildBitCast(b, float_to_half(&p, x, shaped(LLVMTypeOf(x), LLVMHalfTypeInContext(LLVMGetTypeContext(LLVMTypeOf(x))))), p.i16, "");
}

/* vstore_half<N>[_<mode>](v, i, p), vstorea_half<N>[_<mode>] of float or
 * double (*dbl) values: the name's parts, or 0 (other names) */
static int vstore_half_name(const char *name, int *n, int *rm, int *dbl) {
  if (strncmp(name, "_Z", 2)) return 0;
  char *end;
  long len = strtol(name + 2, &end, 10);
  int aligned = !strncmp(end, "vstorea_half", 12);
  const char *q = end + (aligned ? 12 : 11);
  if (len <= 0 || (long)strlen(end) <= len || (!aligned && strncmp(end, "vstore_half", 11))) return 0;
  *n = 1;
  if (*q >= '0' && *q <= '9') *n = (int)strtol(q, (char **)&q, 10);
  *rm = RM_RTE;
  static const char *const modes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  for (int i = 0; i < 4; i++)
    if (!strncmp(q, modes[i], 4)) *rm = i, q += 4;
  const char *params = end + len;
  if (q != params || (*n != 1 && *n != 2 && *n != 3 && *n != 4 && *n != 8 && *n != 16)) return 0;
  *dbl = *n == 1 ? params[0] == 'd' : !strncmp(params, "Dv", 2) && strstr(params, "_d") != NULL;
  if (!*dbl && (*n == 1 ? params[0] != 'f' : strncmp(params, "Dv", 2) || !strstr(params, "_f"))) return 0;
  return aligned && *n == 3 ? 2 : 1; /* vstorea_half3 steps by four halves */
}

/* a double's half bits in mode rm: the software double library's one
 * rounding (cc_lower_f64.c links it), in the low 16 bits of an i32 */
static LLVMValueRef double_to_half(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef x, int rm) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c), ps[2] = {i64, i32};
  LLVMTypeRef fty = LLVMFunctionType(i32, ps, 2, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(m, "__cy_dtoh");
  if (!fn) fn = LLVMAddFunction(m, "__cy_dtoh", fty);
  LLVMValueRef args[2] = {LLVMBuildBitCast(b, x, i64, ""), LLVMConstInt(i32, (unsigned)rm, 0)};
  return LLVMBuildCall2(b, fty, fn, args, 2, "");
}

/* the calls of the half stores of float and double values: the
 * conversion in the call's rounding mode, then 16-bit stores */
void cc_lower_vstore_half(LLVMModuleRef m, int isa) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMTypeRef i16 = LLVMInt16TypeInContext(LLVMGetModuleContext(m)), i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    int n, rm, dbl = 0,
               kind = LLVMGetFirstBasicBlock(fn) || LLVMCountParams(fn) != 3 ? 0
                                                                          : vstore_half_name(LLVMGetValueName2(fn, &len), &n, &rm, &dbl);
    if (!kind) continue;
    LLVMUseRef u;
    while ((u = LLVMGetFirstUse(fn))) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
      LLVMValueRef v = LLVMGetOperand(call, 0), idx = LLVMGetOperand(call, 1), ptr = LLVMGetOperand(call, 2);
      LLVMPositionBuilderBefore(b, call);
      LLVMValueRef h = NULL;
      if (!dbl) {
        fpb p = fpb_of(b, LLVMTypeOf(v));
        LLVMTypeRef ht = shaped(LLVMTypeOf(v), LLVMHalfTypeInContext(LLVMGetModuleContext(m)));
        if (rm == RM_RTE && isa == 2025) /* the unit's narrowing conversion (cc_lower_f16.c) */
          h = LLVMBuildBitCast(b, LLVMBuildFPTrunc(b, v, ht, ""), p.i16, "");
        else
          h = rm == RM_RTE ? LLVMBuildBitCast(b, float_to_half(&p, v, ht), p.i16, "") : float_to_half_directed(&p, v, rm);
      }
      LLVMValueRef base = LLVMBuildMul(b, idx, LLVMConstInt(i32, (unsigned)(kind == 2 ? 4 : n), 0), "");
      for (int e = 0; e < n; e++) {
        LLVMValueRef at_e = LLVMConstInt(i32, (unsigned)e, 0), he;
        if (dbl)
          he = LLVMBuildTrunc(b, double_to_half(m, b, n == 1 ? v : LLVMBuildExtractElement(b, v, at_e, ""), rm), i16, "");
        else
          he = n == 1 ? h : LLVMBuildExtractElement(b, h, at_e, "");
        LLVMValueRef at = LLVMBuildAdd(b, base, LLVMConstInt(i32, (unsigned)e, 0), "");
        LLVMBuildStore(b, he, LLVMBuildGEP2(b, i16, ptr, &at, 1, ""));
      }
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
}

/* llvm.is.fpclass(x, mask): the mask's classes (bit 0 signalling NaN, 1
 * quiet NaN, 2..5 negative infinity, normal, subnormal, zero, 6..9 the
 * positive ones from zero up) on the bits of x */
static LLVMValueRef fpclass(const fpb *p, LLVMValueRef x, uint32_t mask) {
  LLVMValueRef b = LLVMBuildBitCast(p->b, x, p->i32, ""), a = and_(p, b, 0x7fffffff);
  LLVMValueRef neg = LLVMBuildICmp(p->b, LLVMIntSLT, b, k(p->i32, 0), ""), pos = LLVMBuildNot(p->b, neg, "");
  LLVMValueRef r = LLVMBuildICmp(p->b, LLVMIntNE, k(p->i32, 0), k(p->i32, 0), ""); /* false */
  LLVMValueRef nan = LLVMBuildICmp(p->b, LLVMIntUGT, a, k(p->i32, 0x7f800000), "");
  LLVMValueRef quiet = LLVMBuildICmp(p->b, LLVMIntUGE, a, k(p->i32, 0x7fc00000), "");
  if ((mask & 3) == 3) r = nan;
  else if (mask & 1) r = LLVMBuildAnd(p->b, nan, LLVMBuildNot(p->b, quiet, ""), "");
  else if (mask & 2) r = quiet;
  /* infinity, normal, subnormal, zero: negative bit 5 - c, positive bit 6 + c */
  LLVMValueRef cls[4] = {eq(p, a, 0x7f800000), ult(p, LLVMBuildSub(p->b, a, k(p->i32, 0x00800000), ""), 0x7f000000),
                         ult(p, LLVMBuildSub(p->b, a, k(p->i32, 1), ""), 0x007fffff), eq(p, a, 0)};
  for (int c = 0; c < 4; c++) {
    int n = (mask >> (2 + c)) & 1, q = (mask >> (9 - c)) & 1;
    if (!n && !q) continue;
    LLVMValueRef t = n && q ? cls[c] : LLVMBuildAnd(p->b, cls[c], n ? neg : pos, "");
    r = LLVMBuildOr(p->b, r, t, "");
  }
  return r;
}

static int is_float_shape(LLVMTypeRef t, LLVMTypeKind kind) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == kind;
}

static int is_fpclass(LLVMValueRef in) {
  if (!LLVMIsACallInst(in)) return 0;
  LLVMValueRef fn = LLVMGetCalledValue(in);
  size_t len;
  const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
  return !strncmp(name, "llvm.is.fpclass.", 16) && LLVMIsAConstantInt(LLVMGetOperand(in, 1)) &&
         is_float_shape(LLVMTypeOf(LLVMGetOperand(in, 0)), LLVMFloatTypeKind);
}

static void lower(LLVMModuleRef m, int late) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMOpcode op = LLVMGetInstructionOpcode(in);
        LLVMValueRef src = LLVMGetNumOperands(in) ? LLVMGetOperand(in, 0) : NULL, r = NULL;
        LLVMPositionBuilderBefore(b, in);
        if (late && is_fpclass(in)) {
          fpb p = fpb_of(b, LLVMTypeOf(src));
          r = fpclass(&p, src, (uint32_t)LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1)));
        } else if (!late && op == LLVMFPExt && is_float_shape(LLVMTypeOf(src), LLVMHalfTypeKind) &&
                   is_float_shape(LLVMTypeOf(in), LLVMFloatTypeKind)) {
          fpb p = fpb_of(b, LLVMTypeOf(src));
          r = half_to_float(&p, src);
        } else if (!late && op == LLVMFPTrunc && is_float_shape(LLVMTypeOf(src), LLVMFloatTypeKind) &&
                   is_float_shape(LLVMTypeOf(in), LLVMHalfTypeKind)) {
          fpb p = fpb_of(b, LLVMTypeOf(src));
          r = float_to_half(&p, src, LLVMTypeOf(in));
        }
        if (!r) continue;
        LLVMReplaceAllUsesWith(in, r);
        LLVMInstructionEraseFromParent(in);
      }
  LLVMDisposeBuilder(b);
}

void cc_lower_half(LLVMModuleRef m) { lower(m, 0); }

void cc_lower_fpclass(LLVMModuleRef m) { lower(m, 1); }
