/* The OpenCL builtins on double that the back end maps itself for float
 * (sqrt, fabs, fma, mad, fmin, fmax, copysign, floor, ceil, trunc, rint,
 * round) do not come from libclc: their calls, scalar and vector, become
 * LLVM's intrinsics (before the optimiser; the scalarizer splits the
 * vector ones), which cc_lower_f64.c turns into the software library's
 * operations. mad may be fused: it becomes llvm.fmuladd. */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static const char *const map[][2] = {
    {"sqrt", "llvm.sqrt"},   {"fabs", "llvm.fabs"},   {"fma", "llvm.fma"},     {"mad", "llvm.fmuladd"},
    {"fmin", "llvm.minnum"}, {"fmax", "llvm.maxnum"}, {"copysign", "llvm.copysign"}, {"floor", "llvm.floor"},
    {"ceil", "llvm.ceil"},   {"trunc", "llvm.trunc"}, {"rint", "llvm.rint"},   {"round", "llvm.round"}};

/* the intrinsic for fn's mangled name when every parameter is the same
 * double or double vector (`d`, or `Dv<N>_d` then `S_`), else NULL */
static const char *intrinsic_for(LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (strncmp(name, "_Z", 2) || LLVMGetFirstBasicBlock(fn)) return NULL;
  char *end;
  long l = strtol(name + 2, &end, 10);
  if (l <= 0 || (long)strlen(end) <= l) return NULL;
  const char *params = end + l;
  unsigned n = LLVMCountParams(fn);
  for (size_t i = 0; i < sizeof map / sizeof *map; i++) {
    if ((long)strlen(map[i][0]) != l || strncmp(end, map[i][0], (size_t)l)) continue;
    const char *p = params;
    if (*p == 'd') {
      for (unsigned k = 0; k < n; k++)
        if (*p++ != 'd') return NULL;
    } else {
      if (strncmp(p, "Dv", 2)) return NULL;
      p = strchr(p, '_');
      if (!p || strncmp(p, "_d", 2)) return NULL;
      p += 2;
      for (unsigned k = 1; k < n; k++, p += 2)
        if (strncmp(p, "S_", 2)) return NULL;
    }
    return *p ? NULL : map[i][1];
  }
  return NULL;
}

void cc_map_f64_builtins(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    const char *to = intrinsic_for(fn);
    if (!to) continue;
    LLVMTypeRef t = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
    LLVMTypeRef et = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    if (LLVMGetTypeKind(et) != LLVMDoubleTypeKind) continue;
    unsigned id = LLVMLookupIntrinsicID(to, strlen(to));
    if (!id) continue;
    LLVMValueRef in = LLVMGetIntrinsicDeclaration(m, id, &t, 1);
    LLVMTypeRef fty = LLVMIntrinsicGetType(LLVMGetModuleContext(m), id, &t, 1);
    LLVMUseRef u;
    while ((u = LLVMGetFirstUse(fn))) {
      LLVMValueRef call = LLVMGetUser(u);
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
      LLVMValueRef args[3];
      unsigned n = LLVMCountParams(fn);
      for (unsigned i = 0; i < n && i < 3; i++) args[i] = LLVMGetOperand(call, i);
      LLVMPositionBuilderBefore(b, call);
      LLVMValueRef r = LLVMBuildCall2(b, fty, in, args, n, "");
      LLVMReplaceAllUsesWith(call, r);
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
}
