/* An LLVM fcmp from the three compares a float unit has (feq, flt, fle,
 * each giving 0/1), for the revision-2025 lowerings of half and double
 * to SEW-16 and SEW-64 instructions (cc_lower_f16.c, cc_lower_f64.c),
 * which differ only in the compare they call. */
#include "cc_internal.h"

/* an ordered predicate (1 oeq .. 7 ord; bits 1 equal, 2 greater, 4 less)
 * as 0/1 */
static LLVMValueRef ordered(LLVMBuilderRef b, unsigned p, LLVMValueRef x, LLVMValueRef y, cc_fcmp_prim cmp, void *ctx) {
  switch (p) {
  case 1: return cmp(ctx, CC_FEQ, x, y);
  case 2: return cmp(ctx, CC_FLT, y, x);
  case 3: return cmp(ctx, CC_FLE, y, x);
  case 4: return cmp(ctx, CC_FLT, x, y);
  case 5: return cmp(ctx, CC_FLE, x, y);
  case 6: return LLVMBuildOr(b, cmp(ctx, CC_FLT, x, y), cmp(ctx, CC_FLT, y, x), "");
  default: /* 7: neither is a NaN */
    return LLVMBuildAnd(b, cmp(ctx, CC_FEQ, x, x), cmp(ctx, CC_FEQ, y, y), "");
  }
}

LLVMValueRef cc_fcmp_by(LLVMBuilderRef b, unsigned p, LLVMValueRef x, LLVMValueRef y, cc_fcmp_prim cmp, void *ctx) {
  if (p == 0 || p == 15) /* false, true */
    return LLVMConstInt(LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(x))), p == 15, 0);
  /* bit 8: unordered, the negation of ordered 15 - p */
  LLVMValueRef r = ordered(b, p < 8 ? p : 15 - p, x, y, cmp, ctx);
  return LLVMBuildICmp(b, p < 8 ? LLVMIntNE : LLVMIntEQ, r, LLVMConstInt(LLVMTypeOf(r), 0, 0), "");
}
