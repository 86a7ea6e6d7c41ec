/* LLVM's integer intrinsics the back end has no instruction pattern for
 * (llvm.{s,u}{min,max}, llvm.abs of other widths than 32 bits, and the
 * saturating llvm.{s,u}{add,sub}.sat and llvm.*.with.overflow of every
 * width) become plain IR the back end selects: wrapping arithmetic,
 * compares and selects. This runs after the optimiser, which turns
 * compare-and-select idioms (clamp, min, max of char/short, abs, add_sat,
 * ...) into exactly these intrinsics. */
#include <string.h>

#include "cc_internal.h"

enum { L_SMIN, L_SMAX, L_UMIN, L_UMAX, L_ABS, L_SADD, L_SSUB, L_UADD, L_USUB, L_SADDO, L_SSUBO, L_UADDO, L_USUBO, L_UMULO, L_SMULO };

static const struct {
  const char *prefix;
  int kind;
} lowered[] = {{"llvm.smin.i", L_SMIN},         {"llvm.smax.i", L_SMAX},         {"llvm.umin.i", L_UMIN},
               {"llvm.umax.i", L_UMAX},         {"llvm.abs.i", L_ABS},           {"llvm.sadd.sat.i", L_SADD},
               {"llvm.ssub.sat.i", L_SSUB},     {"llvm.uadd.sat.i", L_UADD},     {"llvm.usub.sat.i", L_USUB},
               {"llvm.sadd.with.overflow.i", L_SADDO}, {"llvm.ssub.with.overflow.i", L_SSUBO},
               {"llvm.uadd.with.overflow.i", L_UADDO}, {"llvm.usub.with.overflow.i", L_USUBO},
               {"llvm.umul.with.overflow.i", L_UMULO}, {"llvm.smul.with.overflow.i", L_SMULO}};

/* {result, overflow} pairs are only lowered when every use takes one field */
static int all_extracts(LLVMValueRef call) {
  for (LLVMUseRef u = LLVMGetFirstUse(call); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAExtractValueInst(user) || LLVMGetNumIndices(user) != 1) return 0;
  }
  return 1;
}

/* the kind of a scalar integer intrinsic call to lower, or -1 (the 32-bit
 * min/max/abs stay: the back end maps them onto single instructions) */
static int lower_kind(LLVMValueRef in) {
  if (!LLVMIsACallInst(in)) return -1;
  LLVMValueRef fn = LLVMGetCalledValue(in);
  if (!fn || !LLVMIsAFunction(fn) || LLVMGetNumArgOperands(in) < 1) return -1;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(in, 0));
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) return -1;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  for (size_t i = 0; i < sizeof lowered / sizeof *lowered; i++)
    if (!strncmp(name, lowered[i].prefix, strlen(lowered[i].prefix))) {
      int k = lowered[i].kind;
      if (k <= L_ABS && LLVMGetIntTypeWidth(t) == 32) return -1;
      if (k >= L_UMULO && LLVMGetIntTypeWidth(t) > 32 && LLVMGetIntTypeWidth(t) != 64) return -1; /* twice the width */
      if (k >= L_SADDO && !all_extracts(in)) return -1;
      return lowered[i].kind;
    }
  return -1;
}

/* overflow of a 64-bit unsigned product, from 32-bit halves (no i128):
 * both high halves nonzero, or the cross product past 32 bits, or a carry
 * out when the cross product is added at bit 32 */
static LLVMValueRef umulo64(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef k32 = LLVMConstInt(t, 32, 0), lo = LLVMConstInt(t, 0xffffffffu, 0), zero = LLVMConstInt(t, 0, 0);
  LLVMValueRef xh = LLVMBuildLShr(b, x, k32, ""), yh = LLVMBuildLShr(b, y, k32, "");
  LLVMValueRef xl = LLVMBuildAnd(b, x, lo, ""), yl = LLVMBuildAnd(b, y, lo, "");
  LLVMValueRef both = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, xh, zero, ""), LLVMBuildICmp(b, LLVMIntNE, yh, zero, ""), "");
  LLVMValueRef cross = LLVMBuildAdd(b, LLVMBuildMul(b, xh, yl, ""), LLVMBuildMul(b, xl, yh, ""), ""); /* one term is 0 */
  LLVMValueRef p = LLVMBuildMul(b, xl, yl, ""), sum = LLVMBuildAdd(b, p, LLVMBuildShl(b, cross, k32, ""), "");
  LLVMValueRef o = LLVMBuildOr(b, both, LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLShr(b, cross, k32, ""), zero, ""), "");
  return LLVMBuildOr(b, o, LLVMBuildICmp(b, LLVMIntULT, sum, p, ""), "");
}

/* signed: the magnitudes' product must fit, and stay within 2^63 - 1
 * (2^63 when the signs differ) */
static LLVMValueRef smulo64(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  LLVMTypeRef t = LLVMTypeOf(x);
  LLVMValueRef zero = LLVMConstInt(t, 0, 0);
  LLVMValueRef xn = LLVMBuildICmp(b, LLVMIntSLT, x, zero, ""), yn = LLVMBuildICmp(b, LLVMIntSLT, y, zero, "");
  LLVMValueRef ax = LLVMBuildSelect(b, xn, LLVMBuildSub(b, zero, x, ""), x, "");
  LLVMValueRef ay = LLVMBuildSelect(b, yn, LLVMBuildSub(b, zero, y, ""), y, "");
  LLVMValueRef lim = LLVMBuildAdd(b, LLVMConstInt(t, 0x7fffffffffffffffULL, 0), LLVMBuildZExt(b, LLVMBuildXor(b, xn, yn, ""), t, ""), "");
  LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGT, LLVMBuildMul(b, ax, ay, ""), lim, "");
  return LLVMBuildOr(b, umulo64(b, ax, ay), big, "");
}

/* the result and the overflow bit of llvm.*.with.overflow */
static void expand_overflow(LLVMBuilderRef b, LLVMValueRef call, int kind, LLVMValueRef out[2]) {
  LLVMValueRef x = LLVMGetOperand(call, 0), y = LLVMGetOperand(call, 1);
  LLVMTypeRef t = LLVMTypeOf(x);
  unsigned w = LLVMGetIntTypeWidth(t);
  LLVMValueRef zero = LLVMConstInt(t, 0, 0), r;
  switch (kind) {
  case L_SADDO:
    r = LLVMBuildAdd(b, x, y, "");
    out[1] = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildAnd(b, LLVMBuildXor(b, x, r, ""), LLVMBuildXor(b, y, r, ""), ""), zero, "");
    break;
  case L_SSUBO:
    r = LLVMBuildSub(b, x, y, "");
    out[1] = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildAnd(b, LLVMBuildXor(b, x, y, ""), LLVMBuildXor(b, x, r, ""), ""), zero, "");
    break;
  case L_UADDO:
    r = LLVMBuildAdd(b, x, y, "");
    out[1] = LLVMBuildICmp(b, LLVMIntULT, r, x, "");
    break;
  case L_USUBO:
    r = LLVMBuildSub(b, x, y, "");
    out[1] = LLVMBuildICmp(b, LLVMIntULT, x, y, "");
    break;
  default: { /* the exact product in twice the width; overflow when it does not fit */
    if (w == 64) {
      r = LLVMBuildMul(b, x, y, "");
      out[1] = kind == L_SMULO ? smulo64(b, x, y) : umulo64(b, x, y);
      break;
    }
    LLVMTypeRef wt = LLVMIntTypeInContext(LLVMGetTypeContext(t), 2 * w);
    int s = kind == L_SMULO;
    LLVMValueRef p = LLVMBuildMul(b, s ? LLVMBuildSExt(b, x, wt, "") : LLVMBuildZExt(b, x, wt, ""),
                                  s ? LLVMBuildSExt(b, y, wt, "") : LLVMBuildZExt(b, y, wt, ""), "");
    r = LLVMBuildTrunc(b, p, t, "");
    LLVMValueRef back = s ? LLVMBuildSExt(b, r, wt, "") : LLVMBuildZExt(b, r, wt, "");
    out[1] = LLVMBuildICmp(b, LLVMIntNE, back, p, "");
  }
  }
  out[0] = r;
}

static LLVMValueRef expand(LLVMBuilderRef b, LLVMValueRef call, int kind) {
  LLVMTypeRef t = LLVMTypeOf(call);
  unsigned w = LLVMGetIntTypeWidth(t);
  LLVMValueRef x = LLVMGetOperand(call, 0), y = kind == L_ABS ? NULL : LLVMGetOperand(call, 1);
  LLVMValueRef zero = LLVMConstInt(t, 0, 0);
  switch (kind) {
  case L_SMIN: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, x, y, ""), x, y, "");
  case L_SMAX: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, x, y, ""), x, y, "");
  case L_UMIN: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, x, y, ""), x, y, "");
  case L_UMAX: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, x, y, ""), x, y, "");
  case L_ABS: return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, x, zero, ""), LLVMBuildSub(b, zero, x, ""), x, "");
  case L_SADD:
  case L_SSUB: { /* overflow: the sign of the result differs from what both operands say */
    LLVMValueRef r = kind == L_SADD ? LLVMBuildAdd(b, x, y, "") : LLVMBuildSub(b, x, y, "");
    LLVMValueRef o = kind == L_SADD ? LLVMBuildAnd(b, LLVMBuildXor(b, x, r, ""), LLVMBuildXor(b, y, r, ""), "")
                                    : LLVMBuildAnd(b, LLVMBuildXor(b, x, y, ""), LLVMBuildXor(b, x, r, ""), "");
    /* x < 0 saturates to the minimum, otherwise to the maximum */
    LLVMValueRef smax = LLVMConstInt(t, (~0ULL) >> (65 - w), 0);
    LLVMValueRef sat = LLVMBuildXor(b, LLVMBuildAShr(b, x, LLVMConstInt(t, w - 1, 0), ""), smax, "");
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSLT, o, zero, ""), sat, r, "");
  }
  case L_UADD: {
    LLVMValueRef r = LLVMBuildAdd(b, x, y, "");
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, r, x, ""), LLVMConstAllOnes(t), r, "");
  }
  default: /* L_USUB */
    return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, x, y, ""), zero, LLVMBuildSub(b, x, y, ""), "");
  }
}

void cc_lower_int_intrinsics(LLVMModuleRef m, int isa) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        int kind = lower_kind(in);
        if (kind < 0) continue;
        if (kind <= L_USUB && kind >= L_SADD) { /* revision 2025 saturates in one instruction (cc_fixed.c) */
          size_t len;
          if (cc_fixed_keeps(LLVMGetValueName2(LLVMGetCalledValue(in), &len), isa)) continue;
        }
        LLVMPositionBuilderBefore(b, in);
        if (kind >= L_SADDO) {
          LLVMValueRef part[2];
          expand_overflow(b, in, kind, part);
          LLVMUseRef u;
          while ((u = LLVMGetFirstUse(in))) {
            LLVMValueRef ev = LLVMGetUser(u);
            if (ev == next) next = LLVMGetNextInstruction(ev);
            LLVMReplaceAllUsesWith(ev, part[LLVMGetIndices(ev)[0] ? 1 : 0]);
            LLVMInstructionEraseFromParent(ev);
          }
        } else
          LLVMReplaceAllUsesWith(in, expand(b, in, kind));
        LLVMInstructionEraseFromParent(in);
      }
  LLVMDisposeBuilder(b);
}
