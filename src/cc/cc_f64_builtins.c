/* The OpenCL builtins on double that the back end maps itself for float
 * (sqrt, fabs, fma, mad, fmin, fmax, copysign, floor, ceil, trunc, rint,
 * round) do not come from libclc: their calls, scalar and vector, become
 * LLVM's intrinsics (before the optimiser; the scalarizer splits the
 * vector ones), which cc_lower_f64.c turns into the software library's
 * operations. mad may be fused: it becomes llvm.fmuladd.
 * convert_double_rt?(long or ulong) becomes the library's conversion in
 * that mode, element by element: libclc's converts with the default one
 * and corrects by converting back, which overflows at 2^63. bitselect
 * works on the bits; so does nan, whose libclc form ors the code into
 * 0x7ff0000000000000 (nan(0) was an infinity, not a quiet NaN). */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static const char *const map[][2] = {
    {"sqrt", "llvm.sqrt"},   {"fabs", "llvm.fabs"},   {"fma", "llvm.fma"},     {"mad", "llvm.fmuladd"},
    {"fmin", "llvm.minnum"}, {"fmax", "llvm.maxnum"}, {"copysign", "llvm.copysign"}, {"floor", "llvm.floor"},
    {"ceil", "llvm.ceil"},   {"trunc", "llvm.trunc"}, {"rint", "llvm.rint"},   {"round", "llvm.round"}};

/* the intrinsic for fn's mangled name when every parameter is the same
 * double or double vector (`d`, or `Dv<N>_d` then `S_`; fmin and fmax
 * also with a scalar `d` after the vector), else NULL */
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
      for (unsigned k = 1; k < n; k++) { /* fmin(double4, double): the scalar is splat */
        if (!strncmp(p, "S_", 2)) p += 2;
        else if (*p == 'd' && l == 4 && end[0] == 'f') p++;
        else return NULL;
      }
    }
    return *p ? NULL : map[i][1];
  }
  return NULL;
}

/* convert_double<N>_rt?(long<N> or ulong<N>): the mode (0 rte, 1 rtz, 2
 * rtp, 3 rtn) and whether the source is unsigned, or -1 */
static int convert_mode(LLVMValueRef fn, int *uns) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (strncmp(name, "_Z", 2) || LLVMGetFirstBasicBlock(fn) || LLVMCountParams(fn) != 1) return -1;
  char *end;
  long l = strtol(name + 2, &end, 10);
  if (l < 18 || (long)strlen(end) <= l || strncmp(end, "convert_double", 14)) return -1;
  const char *q = end + 14;
  while (*q >= '0' && *q <= '9') q++;
  static const char *const rm[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  int mode = -1;
  for (int i = 0; i < 4; i++)
    if (q + 4 == end + l && !strncmp(q, rm[i], 4)) mode = i;
  const char *p = end + l;
  if (!strncmp(p, "Dv", 2) && (p = strchr(p, '_')) != NULL) p++;
  if (mode < 0 || !p || (strcmp(p, "l") && strcmp(p, "m"))) return -1;
  *uns = *p == 'm';
  return mode;
}

static void map_convert(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, int mode, int uns) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c), i32 = LLVMInt32TypeInContext(c), f64 = LLVMDoubleTypeInContext(c);
  LLVMTypeRef ps[2] = {i64, i32}, fty = LLVMFunctionType(i64, ps, 2, 0);
  const char *lib = uns ? "__cy_u64tod_rm" : "__cy_i64tod_rm";
  LLVMValueRef cv = LLVMGetNamedFunction(m, lib);
  if (!cv) cv = LLVMAddFunction(m, lib, fty);
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(fn))) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef x = LLVMGetOperand(call, 0), r;
    LLVMTypeRef t = LLVMTypeOf(call);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
      r = LLVMGetUndef(t);
      for (unsigned i = 0; i < LLVMGetVectorSize(t); i++) {
        LLVMValueRef at = LLVMConstInt(i32, i, 0);
        LLVMValueRef args[2] = {LLVMBuildExtractElement(b, x, at, ""), LLVMConstInt(i32, (unsigned)mode, 0)};
        LLVMValueRef e = LLVMBuildBitCast(b, LLVMBuildCall2(b, fty, cv, args, 2, ""), f64, "");
        r = LLVMBuildInsertElement(b, r, e, at, "");
      }
    } else {
      LLVMValueRef args[2] = {x, LLVMConstInt(i32, (unsigned)mode, 0)};
      r = LLVMBuildBitCast(b, LLVMBuildCall2(b, fty, cv, args, 2, ""), f64, "");
    }
    LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
  }
}

/* bitselect of double and double vectors: a ^ ((a ^ b) & c) on the bits
 * (libclc's is declared only; a value never passes through arithmetic);
 * 0 when fn is not one */
static int map_bitselect(LLVMBuilderRef b, LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  LLVMTypeRef t = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
  LLVMTypeRef et = vec ? LLVMGetElementType(t) : t;
  if (strncmp(name, "_Z9bitselect", 12) || LLVMGetFirstBasicBlock(fn) || LLVMCountParams(fn) != 3 ||
      LLVMGetTypeKind(et) != LLVMDoubleTypeKind)
    return 0;
  LLVMTypeRef pt[3];
  LLVMGetParamTypes(LLVMGlobalGetValueType(fn), pt);
  if (pt[0] != t || pt[1] != t || pt[2] != t) return 0;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(t)), it = vec ? LLVMVectorType(i64, LLVMGetVectorSize(t)) : i64;
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(fn))) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef x = LLVMBuildBitCast(b, LLVMGetOperand(call, 0), it, ""), y = LLVMBuildBitCast(b, LLVMGetOperand(call, 1), it, "");
    LLVMValueRef c = LLVMBuildBitCast(b, LLVMGetOperand(call, 2), it, "");
    LLVMValueRef r = LLVMBuildXor(b, x, LLVMBuildAnd(b, LLVMBuildXor(b, x, y, ""), c, ""), "");
    LLVMReplaceAllUsesWith(call, LLVMBuildBitCast(b, r, t, ""));
    LLVMInstructionEraseFromParent(call);
  }
  return 1;
}

/* nan(ulongN) of double: the code or'ed into the quiet NaN's bits
 * 0x7ff8000000000000; 0 when fn is not one */
static int map_nan(LLVMBuilderRef b, LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  LLVMTypeRef t = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  int vec = LLVMGetTypeKind(t) == LLVMVectorTypeKind;
  LLVMTypeRef et = vec ? LLVMGetElementType(t) : t;
  if (strncmp(name, "_Z3nan", 6) || LLVMGetFirstBasicBlock(fn) || LLVMCountParams(fn) != 1 ||
      LLVMGetTypeKind(et) != LLVMDoubleTypeKind)
    return 0;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(t)), it = vec ? LLVMVectorType(i64, LLVMGetVectorSize(t)) : i64;
  LLVMTypeRef pt;
  LLVMGetParamTypes(LLVMGlobalGetValueType(fn), &pt);
  if (pt != it) return 0;
  LLVMValueRef q = LLVMConstInt(i64, 0x7ff8000000000000ull, 0);
  if (vec) {
    LLVMValueRef lanes[16];
    unsigned n = LLVMGetVectorSize(t);
    if (n > 16) return 0;
    for (unsigned i = 0; i < n; i++) lanes[i] = q;
    q = LLVMConstVector(lanes, n);
  }
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(fn))) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef r = LLVMBuildOr(b, LLVMGetOperand(call, 0), q, "");
    LLVMReplaceAllUsesWith(call, LLVMBuildBitCast(b, r, t, ""));
    LLVMInstructionEraseFromParent(call);
  }
  return 1;
}

void cc_map_f64_builtins(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (map_bitselect(b, fn) || map_nan(b, fn)) continue;
    int uns, mode = convert_mode(fn, &uns);
    if (mode >= 0) {
      map_convert(m, b, fn, mode, uns);
      continue;
    }
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
      LLVMPositionBuilderBefore(b, call);
      for (unsigned i = 0; i < n && i < 3; i++) {
        args[i] = LLVMGetOperand(call, i);
        if (LLVMTypeOf(args[i]) != t) { /* a scalar of a mixed form, splat */
          LLVMValueRef v = LLVMGetUndef(t);
          for (unsigned e = 0; e < LLVMGetVectorSize(t); e++)
            v = LLVMBuildInsertElement(b, v, args[i], LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), e, 0), "");
          args[i] = v;
        }
      }
      LLVMValueRef r = LLVMBuildCall2(b, fty, in, args, n, "");
      LLVMReplaceAllUsesWith(call, r);
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
}
