/* Vector forms of the builtins the back end maps itself, split into one
 * scalar call per element before selection (the back end selects a call's
 * operands as single registers, so clz(int2), fabs(float4), mad(float8),
 * min(uint4, uint), ... would otherwise be refused).
 *
 * Two kinds of call are split:
 *  - OpenCL builtins (Itanium-mangled, _Z<len><name><params>) whose
 *    parameters are vectors (Dv<N>_<T>) or scalars, when the scalar form of
 *    the same name is one the back end selects (cc_builtin_known,
 *    cc_bits_known, cc_i64_bits_known, one of cc_subnormal.c's scalar
 *    replacements, or cc_fixed.c's builtins). This runs before libclc is
 *    linked, so what the back end does not map keeps its vector form and
 *    comes from the library.
 *  - LLVM intrinsics on vectors (llvm.ctpop.v4i8, llvm.umin.v2i16, ...)
 *    that remain after the optimiser: one call of the element type's
 *    overload per element (LLVM names it by dropping the ".v<N>" parts). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

enum { MAXP = 4, MAXSUB = 8 };

/* the parameters of a mangled name: element letter and vector length (0
 * scalar) each; -1 for anything but builtin scalars, vectors of them and
 * substitutions of those vectors */
static int parse_params(const char *p, char letter[MAXP], int lanes[MAXP]) {
  static const char scalars[] = "cahstijfmlb";
  char sub_l[MAXSUB];
  int sub_n[MAXSUB], nsub = 0, np = 0;
  while (*p) {
    if (np == MAXP) return -1;
    if (!strncmp(p, "Dv", 2)) { /* Dv<N>_<T> */
      char *end;
      long n = strtol(p + 2, &end, 10);
      if (n < 2 || n > 16 || end[0] != '_' || !end[1] || !strchr(scalars, end[1])) return -1;
      letter[np] = end[1], lanes[np++] = (int)n;
      if (nsub < MAXSUB) sub_l[nsub] = end[1], sub_n[nsub++] = (int)n;
      p = end + 2;
    } else if (p[0] == 'S') { /* S_ is the first substitution, S<k>_ the (k+2)-th */
      int k = 0;
      if (p[1] == '_') p += 2;
      else if (p[1] >= '0' && p[1] <= '9' && p[2] == '_') k = p[1] - '0' + 1, p += 3;
      else return -1;
      if (k >= nsub) return -1;
      letter[np] = sub_l[k], lanes[np++] = sub_n[k];
    } else if (strchr(scalars, p[0])) {
      letter[np] = p[0], lanes[np++] = 0;
      p++;
    } else
      return -1;
  }
  return np;
}

/* the scalar name of a vector builtin and its length, or 0 */
static int scalar_builtin(const char *name, char *out, size_t len) {
  if (strncmp(name, "_Z", 2)) return 0;
  char *end;
  long nl = strtol(name + 2, &end, 10);
  if (nl <= 0 || (long)strlen(end) <= nl) return 0;
  char letter[MAXP];
  int lanes[MAXP], np = parse_params(end + nl, letter, lanes), n = 0;
  if (np <= 0) return 0;
  for (int i = 0; i < np; i++) {
    if (lanes[i] && n && lanes[i] != n) return 0;
    if (lanes[i]) n = lanes[i];
  }
  int w = snprintf(out, len, "%.*s%.*s", (int)(end - name), name, (int)nl, end);
  for (int i = 0; i < np && w > 0 && (size_t)w + 1 < len; i++) out[w++] = letter[i];
  if (w <= 0 || (size_t)w >= len) return 0;
  out[w] = 0;
  return n && (cc_builtin_known(out) || cc_bits_known(out) || cc_i64_bits_known(out) || cc_subnormal_known(out) ||
                cc_fixed_known(out))
             ? n
             : 0;
}

/* the element-wise intrinsics (others, like llvm.vector.reverse, are not) */
static int elementwise(const char *name) {
  static const char *const ew[] = {"ctpop", "ctlz",  "cttz", "fshl",    "fshr",      "bswap",    "bitreverse",
                                   "smin",  "smax",  "umin", "umax",    "abs",       "sadd.sat", "ssub.sat",
                                   "uadd.sat", "usub.sat", "fabs", "floor", "ceil", "trunc", "rint",
                                   "nearbyint", "round", "roundeven", "sqrt", "fma", "fmuladd", "minnum",
                                   "maxnum", "copysign"};
  for (size_t i = 0; i < sizeof ew / sizeof *ew; i++) {
    size_t l = strlen(ew[i]);
    if (!strncmp(name + 5, ew[i], l) && name[5 + l] == '.') return 1;
  }
  return 0;
}

/* llvm.<name>.v<N><T>... -> llvm.<name>.<T>...; the length, or 0 */
static int scalar_intrinsic(const char *name, char *out, size_t len) {
  if (strncmp(name, "llvm.", 5) || !elementwise(name)) return 0;
  int n = 0;
  size_t o = 0;
  for (const char *p = name; *p; p++) {
    if (p[0] == '.' && p[1] == 'v' && p[2] >= '0' && p[2] <= '9') {
      char *end;
      long k = strtol(p + 2, &end, 10);
      if (k < 2 || k > 16 || (n && k != n)) return 0;
      n = (int)k;
      if (o + 1 >= len) return 0;
      out[o++] = '.';
      p = end - 1;
      continue;
    }
    if (o + 1 >= len) return 0;
    out[o++] = *p;
  }
  out[o] = 0;
  return n;
}

/* every call of fn (vector result, n lanes) as n calls of the scalar sfn */
static void split_calls(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, const char *sname, int n) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(fn), rt = LLVMGetReturnType(ft);
  unsigned np = LLVMCountParams(fn);
  if (np > MAXP || LLVMGetTypeKind(rt) != LLVMVectorTypeKind || (int)LLVMGetVectorSize(rt) != n) return;
  LLVMTypeRef pt[MAXP], st[MAXP];
  LLVMGetParamTypes(ft, pt);
  for (unsigned i = 0; i < np; i++) {
    int vec = LLVMGetTypeKind(pt[i]) == LLVMVectorTypeKind;
    if (vec && (int)LLVMGetVectorSize(pt[i]) != n) return;
    st[i] = vec ? LLVMGetElementType(pt[i]) : pt[i];
  }
  LLVMTypeRef sft = LLVMFunctionType(LLVMGetElementType(rt), st, np, 0);
  LLVMValueRef sfn = LLVMGetNamedFunction(m, sname);
  if (!sfn) sfn = LLVMAddFunction(m, sname, sft);
  if (LLVMGlobalGetValueType(sfn) != sft) return;
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(fn))) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) return;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef r = LLVMGetUndef(rt);
    for (int e = 0; e < n; e++) {
      LLVMValueRef args[MAXP], idx = LLVMConstInt(i32, (unsigned)e, 0);
      for (unsigned i = 0; i < np; i++) {
        args[i] = LLVMGetOperand(call, i);
        if (LLVMGetTypeKind(pt[i]) == LLVMVectorTypeKind) args[i] = LLVMBuildExtractElement(b, args[i], idx, "");
      }
      r = LLVMBuildInsertElement(b, r, LLVMBuildCall2(b, sft, sfn, args, np, ""), idx, "");
    }
    LLVMReplaceAllUsesWith(call, r);
    LLVMInstructionEraseFromParent(call);
  }
}

static void scalarize(LLVMModuleRef m, int intrinsics) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    char sname[256];
    if (LLVMGetFirstBasicBlock(fn) || !LLVMGetFirstUse(fn) || len >= sizeof sname) continue;
    int n = intrinsics ? scalar_intrinsic(name, sname, sizeof sname) : scalar_builtin(name, sname, sizeof sname);
    if (n) split_calls(m, b, fn, sname, n);
  }
  LLVMDisposeBuilder(b);
}

void cc_scalarize_builtins(LLVMModuleRef m) { scalarize(m, 0); }

void cc_scalarize_intrinsics(LLVMModuleRef m) { scalarize(m, 1); }
