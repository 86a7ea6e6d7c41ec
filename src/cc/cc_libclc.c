/* The float math library from Debian's libclc: the nvptx build
 * (/usr/lib/clc/nvptx--.bc, package libclc-19) is 32-bit and its math
 * functions are target-independent IR over standard LLVM intrinsics, with
 * their tables in constant memory. The math builtins a program calls (and
 * that the back end does not map itself) are linked from it with what
 * they call (read lazily, cc_link_libclc), the library's functions that
 * the back end maps itself becoming declarations first, so the library's
 * NVVM work-item functions never replace ours; LLVM's math intrinsics the
 * library's native_* functions use (llvm.log2.f32, ...) are redirected to
 * its accurate functions. The
 * linked functions are inlined like the program's own. Its integer
 * builtins and vloadN/vstoreN are target-independent IR too and come the
 * same way (its constant space is nvptx's 4, spir's is 2: calls on
 * constant pointers are redirected), and so do the conversions to and
 * from double.
 * CHENGYING_LIBCLC names another file; without the file the math builtins
 * stay refused with the usual one-line error. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc_internal.h"

#define LIBCLC_DEFAULT "/usr/lib/clc/nvptx--.bc"

/* OpenCL builtins taken from the library (by their unmangled names; the
 * forms the back end maps itself stay the back end's) */
static const char *const math_names[] = {
    "sin",    "cos",    "tan",    "asin",   "acos",   "atan",    "atan2",  "sinh",   "cosh",   "tanh",   "asinh",
    "acosh",  "atanh",  "exp",    "exp2",   "exp10",  "expm1",   "log",    "log2",   "log10",  "log1p",  "pow",
    "pown",   "powr",   "rootn",  "cbrt",   "hypot",  "fmod",    "remainder", "erf",  "erfc",   "tgamma", "lgamma",
    "sincos", "sinpi",  "cospi",  "tanpi",  "atanpi", "asinpi",  "acospi", "atan2pi", "logb", "ilogb",  "ldexp",
    "frexp",  "modf",   "fract",  "nextafter", "fdim", "mix",    "step",   "smoothstep", "degrees", "radians", "sign",
    "native_sin", "native_cos", "native_tan", "native_exp2", "native_exp10", "native_log", "native_log2",
    "native_log10", "native_powr", "half_sin", "half_cos", "half_tan", "half_exp2", "half_exp10", "half_log",
    "half_log2", "half_log10", "half_powr", "mul_hi", "mad_hi", "hadd", "rhadd", "add_sat", "sub_sat", "mad24",
    "mul24", "mad_sat", "upsample", "maxmag", "minmag", "nan", "rsqrt", "cross", "dot", "distance", "length",
    "normalize", "fast_distance", "fast_length", "fast_normalize", "abs", "abs_diff", "clamp", "min", "max",
    "vload2", "vload3", "vload4", "vload8", "vload16", "vstore2", "vstore3", "vstore4", "vstore8", "vstore16",
    "isequal", "isnotequal", "isgreater", "isgreaterequal", "isless", "islessequal", "islessgreater", "isordered",
    "isunordered", "isfinite", "isinf", "isnan", "isnormal", "signbit", "any", "all", "select",
    "shuffle", "shuffle2", "lgamma_r", "remquo"};

/* name prefixes taken too: the half loads and stores in all their widths
 * and rounding modes (vload_half4, vstorea_half8_rtn, ...) */
static const char *const math_prefixes[] = {"vload_half", "vloada_half", "vstore_half", "vstorea_half"};

/* LLVM's math intrinsics (in the library's native_* functions) become
 * calls of the library's accurate functions, which meet any native bound */
static const char *const redirect[][2] = {
    {"llvm.sin.f32", "_Z3sinf"},   {"llvm.cos.f32", "_Z3cosf"},   {"llvm.exp.f32", "_Z3expf"},
    {"llvm.exp2.f32", "_Z4exp2f"}, {"llvm.log.f32", "_Z3logf"},   {"llvm.log2.f32", "_Z4log2f"},
    {"llvm.log10.f32", "_Z5log10f"}, {"llvm.pow.f32", "_Z3powff"}};

/* the unmangled name of an Itanium-mangled OpenCL builtin (_Z<len><name>...) */
static int is_math(const char *mangled) {
  if (strncmp(mangled, "_Z", 2)) return 0;
  char *end;
  long len = strtol(mangled + 2, &end, 10);
  if (len <= 0 || (long)strlen(end) < len) return 0;
  for (size_t i = 0; i < sizeof math_names / sizeof *math_names; i++)
    if ((long)strlen(math_names[i]) == len && !strncmp(end, math_names[i], (size_t)len)) return 1;
  for (size_t i = 0; i < sizeof math_prefixes / sizeof *math_prefixes; i++)
    if ((long)strlen(math_prefixes[i]) <= len && !strncmp(end, math_prefixes[i], strlen(math_prefixes[i]))) return 1;
  /* conversions to or from double (those of the other types are the back
   * end's, cc_isel_convert.c): the library's bodies are double IR, which
   * cc_lower_f64.c makes software double */
  if (len > 8 && !strncmp(end, "convert_", 8)) {
    const char *p = end + len;
    if (!strncmp(p, "Dv", 2) && (p = strchr(p, '_')) != NULL) p++;
    return (p && *p == 'd') || (len >= 14 && !strncmp(end, "convert_double", 14));
  }
  return 0;
}

/* libclc has mad_hi as a macro over mul_hi, not as a function: a call of
 * mad_hi(a, b, c) becomes mul_hi(a, b) + c (same types; _Z6mad_hi<T><T><T>
 * names _Z6mul_hi<T><T>, and a repeated vector type is written S_) */
static void mad_hi_as_mul_hi(LLVMModuleRef u) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(u));
  for (LLVMValueRef fn = LLVMGetFirstFunction(u); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (LLVMGetFirstBasicBlock(fn) || strncmp(name, "_Z6mad_hi", 9) || LLVMCountParams(fn) != 3) continue;
    const char *sfx = name + 9;
    size_t n = strlen(sfx);
    char mul[64];
    if (n == 3 && sfx[0] == sfx[1] && sfx[1] == sfx[2]) snprintf(mul, sizeof mul, "_Z6mul_hi%c%c", sfx[0], sfx[0]);
    else if (n > 4 && n < 40 && !strcmp(sfx + n - 4, "S_S_")) snprintf(mul, sizeof mul, "_Z6mul_hi%.*s", (int)(n - 2), sfx);
    else continue;
    LLVMTypeRef t = LLVMGlobalGetValueType(fn), rt = LLVMGetReturnType(t), pt[2] = {rt, rt};
    LLVMTypeRef mt = LLVMFunctionType(rt, pt, 2, 0);
    LLVMValueRef m = LLVMGetNamedFunction(u, mul);
    if (!m) m = LLVMAddFunction(u, mul, mt);
    if (LLVMGlobalGetValueType(m) != mt) continue;
    LLVMUseRef use;
    while ((use = LLVMGetFirstUse(fn))) {
      LLVMValueRef call = LLVMGetUser(use);
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
      LLVMPositionBuilderBefore(b, call);
      LLVMValueRef args[2] = {LLVMGetOperand(call, 0), LLVMGetOperand(call, 1)};
      LLVMValueRef hi = LLVMBuildCall2(b, mt, m, args, 2, "");
      LLVMReplaceAllUsesWith(call, LLVMBuildAdd(b, hi, LLVMGetOperand(call, 2), ""));
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
}

/* spir numbers the constant space 2, the nvptx library 4 (where the back
 * end reads it as global memory too): a call of a library builtin on a
 * constant pointer calls the library's AS4 form on the pointer cast */
static void constant_as_nvptx(LLVMModuleRef u) {
  LLVMContextRef ctx = LLVMGetModuleContext(u);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (LLVMValueRef fn = LLVMGetFirstFunction(u); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len), *as2 = strstr(name, "PU3AS2");
    unsigned np = LLVMCountParams(fn);
    if (LLVMGetFirstBasicBlock(fn) || !as2 || !is_math(name) || np > 8 || len >= 128) continue;
    char lib[128];
    memcpy(lib, name, len + 1);
    lib[as2 - name + 5] = '4';
    LLVMTypeRef t = LLVMGlobalGetValueType(fn), pt[8];
    LLVMGetParamTypes(t, pt);
    for (unsigned i = 0; i < np; i++)
      if (LLVMGetTypeKind(pt[i]) == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(pt[i]) == 2)
        pt[i] = LLVMPointerTypeInContext(ctx, 4);
    LLVMTypeRef lt = LLVMFunctionType(LLVMGetReturnType(t), pt, np, 0);
    LLVMValueRef to = LLVMGetNamedFunction(u, lib);
    if (!to) to = LLVMAddFunction(u, lib, lt);
    if (LLVMGlobalGetValueType(to) != lt) continue;
    LLVMUseRef use;
    while ((use = LLVMGetFirstUse(fn))) {
      LLVMValueRef call = LLVMGetUser(use), args[8];
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
      LLVMPositionBuilderBefore(b, call);
      for (unsigned i = 0; i < np; i++) {
        args[i] = LLVMGetOperand(call, i);
        if (LLVMTypeOf(args[i]) != pt[i]) args[i] = LLVMBuildAddrSpaceCast(b, args[i], pt[i], "");
      }
      LLVMValueRef nc = LLVMBuildCall2(b, lt, to, args, np, "");
      LLVMReplaceAllUsesWith(call, nc);
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
}

/* A function of the library the program's calls may use: a math builtin
 * the back end does not map itself, or a redirect target. */
static int wanted(const char *name) {
  if (cc_builtin_known(name)) return 0;
  if (is_math(name)) return 1;
  for (size_t i = 0; i < sizeof redirect / sizeof *redirect; i++)
    if (!strcmp(name, redirect[i][1])) return 1;
  return 0;
}

/* The library is read lazily (8 MB of bitcode, 2 500 functions: reading
 * all of it was most of a one-line kernel's compile time) and linked the
 * way a linker takes a library: its functions become linkonce_odr, which
 * LLVM's linker takes only where the program declares one or a function
 * it takes calls one, reading each body then. Before that, the library's
 * functions the back end maps itself (its NVVM work-item functions, sqrt,
 * fabs, ...) become declarations, so the bodies taken call ours; those the
 * program declares but does not take from it (conversions the back end
 * selects, ...) are renamed, so the program's calls stay the back end's;
 * and LLVM's math intrinsics become the accurate functions. The bitcode
 * reader tracks its values through RAUW, so bodies read later see these
 * replacements too. */
int cc_link_libclc(LLVMModuleRef u, vt_error *e) {
  const char *path = getenv("CHENGYING_LIBCLC");
  if (!path || !*path) path = LIBCLC_DEFAULT;
  mad_hi_as_mul_hi(u);
  constant_as_nvptx(u);
  /* nothing to link: no math builtin called, or no library */
  int any = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(u); fn && !any; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    any = !LLVMGetFirstBasicBlock(fn) && LLVMGetFirstUse(fn) && is_math(name) && !cc_builtin_known(name);
  }
  if (!any || access(path, R_OK)) return 0;
  LLVMModuleRef lib = NULL;
  LLVMContextRef ctx = LLVMGetModuleContext(u);
  if (cc_read_bitcode_library(ctx, path, &lib, e)) return -1;
  /* the program's own uses of the redirected intrinsics want their targets */
  for (size_t i = 0; i < sizeof redirect / sizeof *redirect; i++) {
    LLVMValueRef from = LLVMGetNamedFunction(u, redirect[i][0]);
    if (from && LLVMGetFirstUse(from) && !LLVMGetNamedFunction(u, redirect[i][1]))
      LLVMAddFunction(u, redirect[i][1], LLVMGlobalGetValueType(from));
  }
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  char alias[160];
  int n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(lib), next; fn; fn = next) {
    next = LLVMGetNextFunction(fn);
    if (LLVMIsDeclaration(fn)) continue; /* intrinsics, and the declarations added here */
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    if (len > 100) continue;
    if (cc_builtin_known(name)) { /* the back end's: a declaration its callers call */
      LLVMTypeRef t = LLVMGlobalGetValueType(fn);
      char keep[128];
      memcpy(keep, name, len + 1);
      snprintf(alias, sizeof alias, "__cy_libclc_unused.%d", n++);
      LLVMSetValueName2(fn, alias, strlen(alias));
      LLVMValueRef d = LLVMAddFunction(lib, keep, t);
      LLVMReplaceAllUsesWith(fn, d);
      LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage); /* nothing refers to it: never taken */
      continue;
    }
    LLVMValueRef mine = LLVMGetNamedFunction(u, name);
    if (mine && LLVMIsDeclaration(mine) && !wanted(name)) { /* the program's call stays its own */
      snprintf(alias, sizeof alias, "__cy_libclc.%s", name);
      LLVMSetValueName2(fn, alias, strlen(alias));
    }
    if (LLVMGetLinkage(fn) == LLVMExternalLinkage) LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
    LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-features", 15);
    LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-cpu", 10);
    LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
  }
  for (size_t i = 0; i < sizeof redirect / sizeof *redirect; i++) {
    LLVMValueRef from = LLVMGetNamedFunction(lib, redirect[i][0]), to = LLVMGetNamedFunction(lib, redirect[i][1]);
    if (from && to && !LLVMIsDeclaration(to) && LLVMGlobalGetValueType(from) == LLVMGlobalGetValueType(to))
      LLVMReplaceAllUsesWith(from, to);
  }
  LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(u));
  LLVMSetTarget(lib, LLVMGetTarget(u));
  if (cc_link_bitcode_library(u, lib, path, e)) return -1;
  /* and the program's own intrinsic calls, now that the targets are there */
  for (size_t i = 0; i < sizeof redirect / sizeof *redirect; i++) {
    LLVMValueRef from = LLVMGetNamedFunction(u, redirect[i][0]), to = LLVMGetNamedFunction(u, redirect[i][1]);
    if (from && to && LLVMGetFirstBasicBlock(to) && LLVMGlobalGetValueType(from) == LLVMGlobalGetValueType(to))
      LLVMReplaceAllUsesWith(from, to);
  }
  return 0;
}
