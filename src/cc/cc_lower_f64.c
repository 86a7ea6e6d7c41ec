/* double (cl_khr_fp64) on the baseline device, which has no fp64 unit:
 * after the optimiser, every double operation becomes a call of the
 * software library src/cc/lib/softfp64.cl on the bits (i64), or bit
 * operations for the sign ones (fneg, fabs, copysign). The library is
 * compiled by clang from the text embedded at build time, only for a
 * program that needs it, and linked in; its functions stay calls. What
 * is left of double is data: loads, stores, phis, selects, arguments and
 * bitcasts, which the back end moves as register pairs like an i64.
 * On an ISA revision 2025 device most of the arithmetic is the vector
 * unit's instead (lower_native below).
 * Runs after the optimiser because it forms llvm.fabs.f64,
 * llvm.fmuladd.f64, ... of its own, and before cc_lower_int_intrinsics,
 * which the library's own llvm.umin and the like need. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

extern const char cc_softfp64_cl[];

typedef struct {
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMTypeRef i1, i32, i64, f32, f64;
  int used;   /* calls of the library were made */
  int native; /* revision 2025: the vector unit's SEW-64 floats (below) */
} lw;

static int is_f64(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMDoubleTypeKind; }

/* the library function name(params) -> ret, declared on first use */
static LLVMValueRef lib(lw *w, const char *name, LLVMTypeRef ret, LLVMTypeRef *params, unsigned n, LLVMTypeRef *fty) {
  *fty = LLVMFunctionType(ret, params, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(w->m, name);
  if (!fn) fn = LLVMAddFunction(w->m, name, *fty);
  w->used = 1;
  return fn;
}

static LLVMValueRef call(lw *w, const char *name, LLVMTypeRef ret, LLVMValueRef *args, unsigned n) {
  LLVMTypeRef ps[3], fty;
  for (unsigned i = 0; i < n; i++) ps[i] = LLVMTypeOf(args[i]);
  LLVMValueRef fn = lib(w, name, ret, ps, n, &fty);
  return LLVMBuildCall2(w->b, fty, fn, args, n, "");
}

static LLVMValueRef bits(lw *w, LLVMValueRef d) { return LLVMBuildBitCast(w->b, d, w->i64, ""); }
static LLVMValueRef dbl(lw *w, LLVMValueRef i) { return LLVMBuildBitCast(w->b, i, w->f64, ""); }
static LLVMValueRef k64(lw *w, uint64_t v) { return LLVMConstInt(w->i64, v, 0); }

static LLVMValueRef call_d(lw *w, const char *name, LLVMValueRef *ops, unsigned n) {
  LLVMValueRef a[3];
  for (unsigned i = 0; i < n; i++) a[i] = is_f64(LLVMTypeOf(ops[i])) ? bits(w, ops[i]) : ops[i];
  return dbl(w, call(w, name, w->i64, a, n));
}

static const char *intrinsic_name(LLVMValueRef in) {
  LLVMValueRef fn = LLVMGetCalledValue(in);
  size_t len;
  return fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
}

/* llvm.<op>.f64 (and the ldexp/fpclass forms): the replacement, or NULL */
static LLVMValueRef lower_intrinsic(lw *w, LLVMValueRef in, const char *name) {
  static const struct {
    const char *name;
    int mode;
  } rounds[] = {{"llvm.rint.f64", 0},  {"llvm.nearbyint.f64", 0}, {"llvm.roundeven.f64", 0},
                {"llvm.trunc.f64", 1}, {"llvm.floor.f64", 2},     {"llvm.ceil.f64", 3},
                {"llvm.round.f64", 4}};
  LLVMValueRef a[3];
  unsigned n = (unsigned)LLVMGetNumArgOperands(in);
  for (unsigned i = 0; i < n && i < 3; i++) a[i] = LLVMGetOperand(in, i);
  if (!strcmp(name, "llvm.fabs.f64")) return dbl(w, LLVMBuildAnd(w->b, bits(w, a[0]), k64(w, INT64_MAX), ""));
  if (!strcmp(name, "llvm.copysign.f64"))
    return dbl(w, LLVMBuildOr(w->b, LLVMBuildAnd(w->b, bits(w, a[0]), k64(w, INT64_MAX), ""),
                              LLVMBuildAnd(w->b, bits(w, a[1]), k64(w, 1ull << 63), ""), ""));
  if (!strcmp(name, "llvm.sqrt.f64")) return call_d(w, "__cy_dsqrt", a, 1);
  if (!strcmp(name, "llvm.fma.f64") || !strcmp(name, "llvm.fmuladd.f64")) return call_d(w, "__cy_dfma", a, 3);
  if (!strcmp(name, "llvm.minnum.f64") || !strcmp(name, "llvm.maxnum.f64")) {
    a[2] = LLVMConstInt(w->i32, !strcmp(name, "llvm.maxnum.f64"), 0);
    return call_d(w, "__cy_dminmax", a, 3);
  }
  if (!strncmp(name, "llvm.ldexp.f64.", 15)) return call_d(w, "__cy_dldexp", a, 2);
  for (size_t i = 0; i < sizeof rounds / sizeof *rounds; i++)
    if (!strcmp(name, rounds[i].name)) {
      a[1] = LLVMConstInt(w->i32, (unsigned)rounds[i].mode, 0);
      return call_d(w, "__cy_dround", a, 2);
    }
  if (!strcmp(name, "llvm.is.fpclass.f64") && LLVMIsAConstantInt(a[1])) {
    LLVMValueRef x = bits(w, a[0]);
    LLVMValueRef c = call(w, "__cy_dclass", w->i32, &x, 1);
    LLVMValueRef hit = LLVMBuildAnd(w->b, c, LLVMConstInt(w->i32, LLVMConstIntGetZExtValue(a[1]) & 0x3ff, 0), "");
    return LLVMBuildICmp(w->b, LLVMIntNE, hit, LLVMConstInt(w->i32, 0, 0), "");
  }
  return NULL;
}

/* an integer operand widened to i64 (the library converts from 64 bits) */
static LLVMValueRef wide(lw *w, LLVMValueRef v, int sgn) {
  unsigned bw = LLVMGetIntTypeWidth(LLVMTypeOf(v));
  if (bw == 64) return v;
  return sgn ? LLVMBuildSExt(w->b, v, w->i64, "") : LLVMBuildZExt(w->b, v, w->i64, "");
}

/* Revision 2025's vector unit computes double at SEW 64 (docs/isa-extensions.md
 * "Half and double precision"): what it has becomes a call of a __cy_v64_*
 * primitive on the bits, which the back end selects as instructions
 * (cc_isel_f64v.c) and never calls. fneg, fabs and copysign stay the bit
 * operations above (one instruction on the high word, where sign injection
 * would need the pair copies around it); frem, the rounding functions,
 * ldexp and classification stay the library's. */
static LLVMValueRef prim(lw *w, const char *name, LLVMTypeRef ret, LLVMValueRef *ops, unsigned n) {
  LLVMValueRef a[3];
  LLVMTypeRef ps[3];
  for (unsigned i = 0; i < n; i++) {
    a[i] = is_f64(LLVMTypeOf(ops[i])) ? bits(w, ops[i]) : ops[i];
    ps[i] = LLVMTypeOf(a[i]);
  }
  LLVMTypeRef fty = LLVMFunctionType(ret, ps, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(w->m, name);
  if (!fn) fn = LLVMAddFunction(w->m, name, fty);
  return LLVMBuildCall2(w->b, fty, fn, a, n, "");
}

static LLVMValueRef prim_d(lw *w, const char *name, LLVMValueRef *ops, unsigned n) {
  return dbl(w, prim(w, name, w->i64, ops, n));
}

/* the SEW-64 compares, for cc_fcmp_by */
static LLVMValueRef v64_cmp(void *ctx, int kind, LLVMValueRef a, LLVMValueRef b) {
  static const char *const name[] = {[CC_FEQ] = "__cy_v64_feq", [CC_FLT] = "__cy_v64_flt", [CC_FLE] = "__cy_v64_fle"};
  lw *w = ctx;
  LLVMValueRef ab[2] = {a, b};
  return prim(w, name[kind], w->i32, ab, 2);
}

/* r, the conversion of x to an integer, zero when x is a NaN: the
 * library's result, which OpenCL's convert_*_sat needs (the unit's is the
 * largest integer, as RISC-V's fcvt) */
static LLVMValueRef nan_zero(lw *w, LLVMValueRef r, LLVMValueRef x) {
  LLVMValueRef xx[2] = {x, x};
  LLVMValueRef m = LLVMBuildNeg(w->b, prim(w, "__cy_v64_feq", w->i32, xx, 2), ""); /* all ones unless a NaN */
  if (LLVMTypeOf(r) != w->i32) m = LLVMBuildSExt(w->b, m, LLVMTypeOf(r), "");
  return LLVMBuildAnd(w->b, r, m, "");
}

static LLVMValueRef native_call(lw *w, LLVMValueRef in) {
  const char *name = intrinsic_name(in);
  LLVMValueRef a[3];
  unsigned n = (unsigned)LLVMGetNumArgOperands(in);
  for (unsigned i = 0; i < n && i < 3; i++) a[i] = LLVMGetOperand(in, i);
  if (!strcmp(name, "llvm.sqrt.f64")) return prim_d(w, "__cy_v64_sqrt", a, 1);
  if (!strcmp(name, "llvm.fma.f64") || !strcmp(name, "llvm.fmuladd.f64")) return prim_d(w, "__cy_v64_fma", a, 3);
  if (!strcmp(name, "llvm.minnum.f64")) return prim_d(w, "__cy_v64_min", a, 2);
  if (!strcmp(name, "llvm.maxnum.f64")) return prim_d(w, "__cy_v64_max", a, 2);
  return NULL;
}

static LLVMValueRef lower_native(lw *w, LLVMValueRef in) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMTypeRef t = LLVMTypeOf(in);
  LLVMValueRef a[2] = {NULL, NULL};
  if (LLVMGetNumOperands(in) > 0) a[0] = LLVMGetOperand(in, 0);
  if (LLVMGetNumOperands(in) > 1) a[1] = LLVMGetOperand(in, 1);
  LLVMTypeRef at = a[0] ? LLVMTypeOf(a[0]) : NULL;
  switch (op) {
  case LLVMFAdd: return is_f64(t) ? prim_d(w, "__cy_v64_add", a, 2) : NULL;
  case LLVMFSub: return is_f64(t) ? prim_d(w, "__cy_v64_sub", a, 2) : NULL;
  case LLVMFMul: return is_f64(t) ? prim_d(w, "__cy_v64_mul", a, 2) : NULL;
  case LLVMFDiv: return is_f64(t) ? prim_d(w, "__cy_v64_div", a, 2) : NULL;
  case LLVMFCmp: {
    if (!is_f64(at)) return NULL;
    return cc_fcmp_by(w->b, (unsigned)LLVMGetFCmpPredicate(in), a[0], a[1], v64_cmp, w);
  }
  case LLVMFPExt:
    return is_f64(t) && LLVMGetTypeKind(at) == LLVMFloatTypeKind ? prim_d(w, "__cy_v64_ftod", a, 1) : NULL;
  case LLVMFPTrunc:
    return is_f64(at) && LLVMGetTypeKind(t) == LLVMFloatTypeKind ? prim(w, "__cy_v64_dtof", w->f32, a, 1) : NULL;
  case LLVMSIToFP:
  case LLVMUIToFP: {
    if (!is_f64(t) || LLVMGetTypeKind(at) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(at) > 64) return NULL;
    int sgn = op == LLVMSIToFP;
    if (LLVMGetIntTypeWidth(at) == 64) return prim_d(w, sgn ? "__cy_v64_i64tod" : "__cy_v64_u64tod", a, 1);
    if (LLVMGetIntTypeWidth(at) < 32) a[0] = sgn ? LLVMBuildSExt(w->b, a[0], w->i32, "") : LLVMBuildZExt(w->b, a[0], w->i32, "");
    return prim_d(w, sgn ? "__cy_v64_i32tod" : "__cy_v64_u32tod", a, 1); /* widening: exact */
  }
  case LLVMFPToSI:
  case LLVMFPToUI: {
    if (!is_f64(at) || LLVMGetTypeKind(t) != LLVMIntegerTypeKind || LLVMGetIntTypeWidth(t) > 64) return NULL;
    int sgn = op == LLVMFPToSI;
    if (LLVMGetIntTypeWidth(t) == 64)
      return nan_zero(w, prim(w, sgn ? "__cy_v64_dtoi64" : "__cy_v64_dtou64", w->i64, a, 1), a[0]);
    /* narrower results from the 32-bit one: every value in their range is in its range */
    LLVMValueRef r = nan_zero(w, prim(w, sgn ? "__cy_v64_dtoi32" : "__cy_v64_dtou32", w->i32, a, 1), a[0]);
    return LLVMGetIntTypeWidth(t) == 32 ? r : LLVMBuildTrunc(w->b, r, t, "");
  }
  case LLVMCall: return native_call(w, in);
  default: return NULL;
  }
}

static LLVMValueRef lower_one(lw *w, LLVMValueRef in) {
  LLVMValueRef nat = w->native ? lower_native(w, in) : NULL;
  if (nat) return nat;
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMTypeRef t = LLVMTypeOf(in);
  LLVMValueRef a[2] = {NULL, NULL};
  if (LLVMGetNumOperands(in) > 0) a[0] = LLVMGetOperand(in, 0);
  if (LLVMGetNumOperands(in) > 1) a[1] = LLVMGetOperand(in, 1);
  switch (op) {
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem: {
    if (!is_f64(t)) return NULL;
    static const char *const names[] = {"__cy_dadd", "__cy_dsub", "__cy_dmul", "__cy_ddiv", "__cy_drem"};
    int i = op == LLVMFAdd ? 0 : op == LLVMFSub ? 1 : op == LLVMFMul ? 2 : op == LLVMFDiv ? 3 : 4;
    return call_d(w, names[i], a, 2);
  }
  case LLVMFNeg: return is_f64(t) ? dbl(w, LLVMBuildXor(w->b, bits(w, a[0]), k64(w, 1ull << 63), "")) : NULL;
  case LLVMFCmp: {
    if (!is_f64(LLVMTypeOf(a[0]))) return NULL;
    unsigned p = (unsigned)LLVMGetFCmpPredicate(in); /* bits: 1 equal, 2 greater, 4 less, 8 unordered */
    if (p == 0 || p == 15) return LLVMConstInt(w->i1, p == 15, 0);
    LLVMValueRef x[2] = {bits(w, a[0]), bits(w, a[1])};
    LLVMValueRef c = call(w, "__cy_dcmp", w->i32, x, 2);
    return LLVMBuildICmp(w->b, LLVMIntNE, LLVMBuildAnd(w->b, c, LLVMConstInt(w->i32, p, 0), ""),
                         LLVMConstInt(w->i32, 0, 0), "");
  }
  case LLVMFPExt:
    if (!is_f64(t) || LLVMGetTypeKind(LLVMTypeOf(a[0])) != LLVMFloatTypeKind) return NULL;
    a[0] = LLVMBuildBitCast(w->b, a[0], w->i32, "");
    return dbl(w, call(w, "__cy_ftod", w->i64, a, 1));
  case LLVMFPTrunc:
    if (!is_f64(LLVMTypeOf(a[0])) || LLVMGetTypeKind(t) != LLVMFloatTypeKind) return NULL;
    a[0] = bits(w, a[0]);
    return LLVMBuildBitCast(w->b, call(w, "__cy_dtof", w->i32, a, 1), w->f32, "");
  case LLVMSIToFP:
  case LLVMUIToFP:
    if (!is_f64(t) || LLVMGetTypeKind(LLVMTypeOf(a[0])) != LLVMIntegerTypeKind) return NULL;
    a[0] = wide(w, a[0], op == LLVMSIToFP);
    return dbl(w, call(w, op == LLVMSIToFP ? "__cy_i64tod" : "__cy_u64tod", w->i64, a, 1));
  case LLVMFPToSI:
  case LLVMFPToUI: {
    if (!is_f64(LLVMTypeOf(a[0])) || LLVMGetTypeKind(t) != LLVMIntegerTypeKind) return NULL;
    a[0] = bits(w, a[0]);
    /* narrower results through the signed 64-bit one: every value in
     * their range is in its range */
    int u64 = op == LLVMFPToUI && LLVMGetIntTypeWidth(t) == 64;
    LLVMValueRef r = call(w, u64 ? "__cy_dtou64" : "__cy_dtoi64", w->i64, a, 1);
    return LLVMGetIntTypeWidth(t) == 64 ? r : LLVMBuildTrunc(w->b, r, t, "");
  }
  case LLVMCall: {
    const char *name = intrinsic_name(in);
    return strncmp(name, "llvm.", 5) ? NULL : lower_intrinsic(w, in, name);
  }
  default: return NULL;
  }
}

/* What the optimiser made of the library that the back end does not
 * select: a compare of an i64 truncated to an odd width (a switch on
 * `x & 0x7fff...` becomes one on i63, then compares after lower-switch)
 * compares the i64 shifted up; a funnel shift of two different i64 values
 * becomes two shifts (the right one in two steps, so a zero amount
 * works). */
static void shape_library(LLVMModuleRef u) {
  LLVMContextRef c = LLVMGetModuleContext(u);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(c);
  for (LLVMValueRef fn = LLVMGetFirstFunction(u); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMOpcode op = LLVMGetInstructionOpcode(in);
        if (op == LLVMICmp && LLVMIsATruncInst(LLVMGetOperand(in, 0)) && LLVMIsAConstantInt(LLVMGetOperand(in, 1))) {
          LLVMValueRef t = LLVMGetOperand(in, 0), x = LLVMGetOperand(t, 0);
          unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(t));
          if (LLVMTypeOf(x) != i64 || w <= 32 || w >= 64) continue;
          /* both moved to the top of 64 bits: signed and unsigned order kept */
          LLVMPositionBuilderBefore(b, in);
          uint64_t k = LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1)) << (64 - w);
          LLVMValueRef top = LLVMBuildShl(b, x, LLVMConstInt(i64, 64 - w, 0), "");
          LLVMValueRef r = LLVMBuildICmp(b, LLVMGetICmpPredicate(in), top, LLVMConstInt(i64, k, 0), "");
          LLVMReplaceAllUsesWith(in, r);
          LLVMInstructionEraseFromParent(in);
          if (!LLVMGetFirstUse(t)) {
            if (next == t) next = LLVMGetNextInstruction(t);
            LLVMInstructionEraseFromParent(t);
          }
        } else if (op == LLVMCall) {
          const char *name = intrinsic_name(in);
          int left = !strcmp(name, "llvm.fshl.i64");
          if (!left && strcmp(name, "llvm.fshr.i64")) continue;
          LLVMPositionBuilderBefore(b, in);
          LLVMValueRef hi = LLVMGetOperand(in, 0), lo = LLVMGetOperand(in, 1);
          LLVMValueRef s = LLVMBuildAnd(b, LLVMGetOperand(in, 2), LLVMConstInt(i64, 63, 0), "");
          LLVMValueRef rs = LLVMBuildSub(b, LLVMConstInt(i64, 63, 0), s, ""), one = LLVMConstInt(i64, 1, 0);
          LLVMValueRef r = left ? LLVMBuildOr(b, LLVMBuildShl(b, hi, s, ""), LLVMBuildLShr(b, LLVMBuildLShr(b, lo, one, ""), rs, ""), "")
                                : LLVMBuildOr(b, LLVMBuildLShr(b, lo, s, ""), LLVMBuildShl(b, LLVMBuildShl(b, hi, one, ""), rs, ""), "");
          LLVMReplaceAllUsesWith(in, r);
          LLVMInstructionEraseFromParent(in);
        }
      }
  LLVMDisposeBuilder(b);
}

/* the library compiled from its embedded text, shaped as the back end
 * expects (one return, no switch, no critical edges), linked into m */
static int link_library(LLVMModuleRef m, vt_error *e) {
  static const cc_embedded_lib lib = {.text = cc_softfp64_cl,
                                      .what = "software double library",
                                      .passes = "function(lower-switch,mergereturn,break-crit-edges)",
                                      .shape = shape_library};
  return cc_link_embedded(m, &lib, NULL, 0, e);
}

int cc_lower_f64(LLVMModuleRef m, int isa, vt_error *e) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  lw w = {m, LLVMCreateBuilderInContext(c), LLVMInt1TypeInContext(c), LLVMInt32TypeInContext(c),
          LLVMInt64TypeInContext(c), LLVMFloatTypeInContext(c), LLVMDoubleTypeInContext(c), 0, isa == 2025};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        LLVMPositionBuilderBefore(w.b, in);
        LLVMValueRef r = lower_one(&w, in);
        if (!r) continue;
        LLVMReplaceAllUsesWith(in, r);
        LLVMInstructionEraseFromParent(in);
      }
  LLVMDisposeBuilder(w.b);
  /* calls made before the optimiser (cc_f64_builtins.c) need it too */
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && !w.used; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    w.used = !strncmp(name, "__cy_", 5) && strncmp(name, "__cy_v64_", 9) && strncmp(name, "__cy_v16_", 9) &&
             !LLVMGetFirstBasicBlock(fn) && LLVMGetFirstUse(fn);
  }
  return w.used ? link_library(m, e) : 0;
}
