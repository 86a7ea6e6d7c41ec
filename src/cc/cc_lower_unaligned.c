/* Loads and stores whose alignment is below the width the back end
 * accesses them with (a 16- or 32-bit element at an odd address: the
 * optimiser merges a loop of byte copies into one i16 load with align 1,
 * vstore2 of chars at an odd offset) become byte accesses in the IR, after
 * the optimiser: the device faults on a misaligned access. Each element is
 * put together from its bytes (little-endian) or taken apart into them;
 * 64-bit elements need 4-byte alignment only, as the back end moves them
 * as two words. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>

#include "cc_internal.h"

/* the bytes of one element of t (scalar or vector element), or 0 when t is
 * not a type this handles */
static unsigned elem_bytes(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    return w == 16 || w == 32 || w == 64 ? w / 8 : 0;
  }
  case LLVMHalfTypeKind: return 2;
  case LLVMFloatTypeKind: return 4;
  case LLVMDoubleTypeKind: return 8;
  default: return 0;
  }
}

static int misaligned(LLVMValueRef in) {
  if (LLVMIsALoadInst(in) || LLVMIsAStoreInst(in)) {
    if (LLVMGetOrdering(in) != LLVMAtomicOrderingNotAtomic) return 0;
    LLVMTypeRef t = LLVMTypeOf(LLVMIsALoadInst(in) ? in : LLVMGetOperand(in, 0));
    unsigned es = elem_bytes(t), need = es > 4 ? 4 : es;
    return es && LLVMGetAlignment(in) < need;
  }
  return 0;
}

/* element e of n (es bytes each) at p, from its bytes */
static LLVMValueRef load_elem(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef p, unsigned e, unsigned es,
                              LLVMTypeRef et, int vol) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), it = LLVMIntTypeInContext(ctx, es * 8), i32 = LLVMInt32TypeInContext(ctx);
  LLVMValueRef v = NULL;
  for (unsigned k = 0; k < es; k++) {
    LLVMValueRef off = LLVMConstInt(i32, e * es + k, 0);
    LLVMValueRef byte = LLVMBuildLoad2(b, i8, LLVMBuildGEP2(b, i8, p, &off, 1, ""), "");
    LLVMSetAlignment(byte, 1);
    LLVMSetVolatile(byte, vol);
    LLVMValueRef x = LLVMBuildZExt(b, byte, it, "");
    if (k) x = LLVMBuildShl(b, x, LLVMConstInt(it, 8 * k, 0), "");
    v = v ? LLVMBuildOr(b, v, x, "") : x;
  }
  return et == it ? v : LLVMBuildBitCast(b, v, et, "");
}

static void store_elem(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef p, unsigned e, unsigned es, LLVMValueRef v,
                       int vol) {
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), it = LLVMIntTypeInContext(ctx, es * 8), i32 = LLVMInt32TypeInContext(ctx);
  if (LLVMTypeOf(v) != it) v = LLVMBuildBitCast(b, v, it, "");
  for (unsigned k = 0; k < es; k++) {
    LLVMValueRef off = LLVMConstInt(i32, e * es + k, 0);
    LLVMValueRef x = k ? LLVMBuildLShr(b, v, LLVMConstInt(it, 8 * k, 0), "") : v;
    LLVMValueRef st = LLVMBuildStore(b, LLVMBuildTrunc(b, x, i8, ""), LLVMBuildGEP2(b, i8, p, &off, 1, ""));
    LLVMSetAlignment(st, 1);
    LLVMSetVolatile(st, vol);
  }
}

static void lower_one(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef in) {
  int load = LLVMIsALoadInst(in) != NULL, vol = LLVMGetVolatile(in);
  LLVMValueRef p = LLVMGetOperand(in, load ? 0 : 1), sv = load ? NULL : LLVMGetOperand(in, 0);
  LLVMTypeRef t = LLVMTypeOf(load ? in : sv);
  int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
  LLVMTypeRef et = vec ? LLVMGetElementType(t) : t;
  unsigned n = vec ? LLVMGetVectorSize(t) : 1, es = elem_bytes(t);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMPositionBuilderBefore(b, in);
  LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(in));
  LLVMValueRef acc = load && vec ? LLVMGetUndef(t) : NULL;
  for (unsigned e = 0; e < n; e++) {
    LLVMValueRef idx = LLVMConstInt(i32, e, 0);
    if (load) {
      LLVMValueRef x = load_elem(b, ctx, p, e, es, et, vol);
      acc = vec ? LLVMBuildInsertElement(b, acc, x, idx, "") : x;
    } else {
      store_elem(b, ctx, p, e, es, vec ? LLVMBuildExtractElement(b, sv, idx, "") : sv, vol);
    }
  }
  if (load) LLVMReplaceAllUsesWith(in, acc);
  LLVMInstructionEraseFromParent(in);
}

void cc_lower_unaligned(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  size_t n = 0, cap = 0;
  LLVMValueRef *v = NULL;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (!misaligned(in)) continue;
        if (n == cap) {
          LLVMValueRef *q = realloc(v, sizeof *q * (cap = cap ? cap * 2 : 16));
          if (!q) { /* left as they are: the device reports the misaligned access */
            free(v);
            return;
          }
          v = q;
        }
        v[n++] = in;
      }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (size_t i = 0; i < n; i++) lower_one(b, ctx, v[i]);
  LLVMDisposeBuilder(b);
  free(v);
}
