/* Floating-point operations without a Ventus instruction, as integer IR:
 *  - half <-> float (fpext, fptrunc): the ISA has no half arithmetic, but
 *    vload_half/vstore_half (libclc's, in every rounding mode: its _rtz,
 *    _rtp and _rtn forms adjust the float first and end in the
 *    round-to-nearest-even fptrunc) only convert. Run before the optimiser,
 *    which then folds `load half` + bitcast into 16-bit integer loads.
 *  - llvm.is.fpclass (the optimiser's form of isnormal, isfinite, ...):
 *    compares on the bits. Run after the optimiser, which creates it.
 * Scalars and vectors alike (constants are splats). */
#include <stdint.h>
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
