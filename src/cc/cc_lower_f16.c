/* half arithmetic (cl_khr_fp16) on a device without it: after the
 * optimiser, every half operation is done in float and rounded back to
 * half once (fpext/fptrunc, which cc_lower_half then makes integer IR).
 * That is the correctly rounded half result for +, -, *, /, sqrt and the
 * remainder: float's 24 bits are at least 2 * 11 + 2, so rounding the
 * float result again cannot land differently (Figueroa's condition), and
 * the rest (compares, conversions to float and integers, floor, ceil,
 * trunc, rint, round, fmin, fmax) are exact in float. fma is not: there
 * the float sum of the exact product and the addend is made round-to-odd
 * from its exact error (Knuth's two-sum), which the half rounding then
 * rounds correctly. A double becomes half with one rounding from double
 * (the software double library's conversion). What is left of half is
 * 16-bit data for the back end: loads, stores, phis, selects, bitcasts.
 * Runs before cc_lower_f64, which lowers the double it makes.
 *
 * Revision 2025's vector unit computes binary16 at SEW 16
 * (docs/isa-extensions.md "Half and double precision"): there +, -, *, /,
 * sqrt, fma, fmin, fmax and the compares become calls of __cy_v16_*
 * primitives on the bits, and the conversions between half and float the
 * unit's widening and narrowing ones, which the back end selects as
 * instructions (cc_isel_f16v.c) and never calls. The rest keeps the float
 * route above, through those conversions. */
#include <stdint.h>
#include <string.h>

#include "cc_internal.h"

uint16_t cc_half_bits(uint32_t u) {
  uint32_t s = (u >> 16) & 0x8000, a = u & 0x7fffffff;
  if (a >= 0x7f800000) return (uint16_t)(s | 0x7c00 | (a > 0x7f800000 ? 0x200 | ((a >> 13) & 0x3ff) : 0));
  if (a < 0x38800000) { /* a subnormal half: a multiple of 2^-24 */
    float x;
    memcpy(&x, &a, 4);
    return (uint16_t)(s | (uint32_t)(x * 0x1p24f));
  }
  return (uint16_t)(s | (((a >> 23) - 112) << 10) | ((a >> 13) & 0x3ff));
}

typedef struct {
  LLVMModuleRef m;
  LLVMBuilderRef b;
  LLVMTypeRef i16, i32, i64, f16, f32, f64;
  int v16; /* revision 2025: the SEW-16 primitives */
} hw;

static int is_half(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMHalfTypeKind; }

/* a call of the primitive `name` on halves (as their bits) and other values */
static LLVMValueRef prim(hw *w, const char *name, LLVMTypeRef ret, LLVMValueRef *ops, unsigned n) {
  LLVMValueRef a[3];
  LLVMTypeRef ps[3];
  for (unsigned i = 0; i < n; i++) {
    a[i] = is_half(LLVMTypeOf(ops[i])) ? LLVMBuildBitCast(w->b, ops[i], w->i16, "") : ops[i];
    ps[i] = LLVMTypeOf(a[i]);
  }
  int h = ret == w->f16;
  LLVMTypeRef fty = LLVMFunctionType(h ? w->i16 : ret, ps, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(w->m, name);
  if (!fn) fn = LLVMAddFunction(w->m, name, fty);
  LLVMValueRef r = LLVMBuildCall2(w->b, fty, fn, a, n, "");
  return h ? LLVMBuildBitCast(w->b, r, w->f16, "") : r;
}

static LLVMValueRef ext(hw *w, LLVMValueRef h) {
  return w->v16 ? prim(w, "__cy_v16_htof", w->f32, &h, 1) : LLVMBuildFPExt(w->b, h, w->f32, "");
}
static LLVMValueRef rnd(hw *w, LLVMValueRef f) {
  return w->v16 ? prim(w, "__cy_v16_ftoh", w->f16, &f, 1) : LLVMBuildFPTrunc(w->b, f, w->f16, "");
}

/* the SEW-16 compares, for cc_fcmp_by */
static LLVMValueRef v16_cmp(void *ctx, int kind, LLVMValueRef a, LLVMValueRef b) {
  static const char *const name[] = {[CC_FEQ] = "__cy_v16_feq", [CC_FLT] = "__cy_v16_flt", [CC_FLE] = "__cy_v16_fle"};
  hw *w = ctx;
  LLVMValueRef ab[2] = {a, b};
  return prim(w, name[kind], w->i32, ab, 2);
}

static const char *callee_name(LLVMValueRef v) {
  LLVMValueRef fn = LLVMIsACallInst(v) ? LLVMGetCalledValue(v) : NULL;
  size_t len;
  return fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
}

/* the half that float f was widened from (an fpext, or the widening
 * primitive made earlier in the block), or NULL */
static LLVMValueRef widened_from(hw *w, LLVMValueRef f) {
  if (LLVMIsAFPExtInst(f) && is_half(LLVMTypeOf(LLVMGetOperand(f, 0)))) return LLVMGetOperand(f, 0);
  if (!strcmp(callee_name(f), "__cy_v16_htof")) return LLVMBuildBitCast(w->b, LLVMGetOperand(f, 0), w->f16, "");
  return NULL;
}

static void erase_if_dead(LLVMValueRef v) {
  if (LLVMIsAInstruction(v) && !LLVMGetFirstUse(v)) LLVMInstructionEraseFromParent(v);
}

/* half(sqrt((float)h)), as the half builtin sqrt arrives (cc_f16_builtins.c):
 * one SEW-16 square root, which rounds the same (correctly); NULL when f
 * is not that */
static LLVMValueRef sqrt_of_widened(hw *w, LLVMValueRef f) {
  const char *name = callee_name(f); /* sqrt(float) is one the back end selects itself */
  if (strcmp(name, "llvm.sqrt.f32") && strcmp(name, "_Z4sqrtf")) return NULL;
  LLVMValueRef wide = LLVMGetOperand(f, 0), h = widened_from(w, wide);
  return h ? prim(w, "__cy_v16_sqrt", w->f16, &h, 1) : NULL;
}

/* what revision 2025 computes at SEW 16 directly; NULL for the rest */
static LLVMValueRef native(hw *w, LLVMValueRef in) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMTypeRef t = LLVMTypeOf(in);
  LLVMValueRef a[3] = {NULL, NULL, NULL};
  unsigned n = op == LLVMCall ? (unsigned)LLVMGetNumArgOperands(in) : (unsigned)LLVMGetNumOperands(in);
  for (unsigned i = 0; i < n && i < 3; i++) a[i] = LLVMGetOperand(in, i);
  static const char *const bin[] = {[LLVMFAdd] = "__cy_v16_add", [LLVMFSub] = "__cy_v16_sub",
                                    [LLVMFMul] = "__cy_v16_mul", [LLVMFDiv] = "__cy_v16_div"};
  switch (op) {
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv: return is_half(t) ? prim(w, bin[op], w->f16, a, 2) : NULL;
  case LLVMFCmp: {
    if (!is_half(LLVMTypeOf(a[0]))) return NULL;
    return cc_fcmp_by(w->b, (unsigned)LLVMGetFCmpPredicate(in), a[0], a[1], v16_cmp, w);
  }
  case LLVMFPExt:
    return is_half(LLVMTypeOf(a[0])) && LLVMGetTypeKind(t) == LLVMFloatTypeKind ? ext(w, a[0]) : NULL;
  case LLVMFPTrunc: {
    if (!is_half(t) || LLVMGetTypeKind(LLVMTypeOf(a[0])) != LLVMFloatTypeKind) return NULL;
    LLVMValueRef r = sqrt_of_widened(w, a[0]);
    if (!r) return rnd(w, a[0]);
    LLVMValueRef wide = LLVMGetOperand(a[0], 0);
    LLVMSetOperand(in, 0, LLVMGetUndef(w->f32)); /* the caller erases in */
    erase_if_dead(a[0]);
    erase_if_dead(wide);
    return r;
  }
  case LLVMCall: {
    const char *name = callee_name(in);
    if (!strcmp(name, "llvm.sqrt.f16")) return prim(w, "__cy_v16_sqrt", w->f16, a, 1);
    if (!strcmp(name, "llvm.fma.f16") || !strcmp(name, "llvm.fmuladd.f16")) return prim(w, "__cy_v16_fma", w->f16, a, 3);
    if (!strcmp(name, "llvm.minnum.f16")) return prim(w, "__cy_v16_min", w->f16, a, 2);
    if (!strcmp(name, "llvm.maxnum.f16")) return prim(w, "__cy_v16_max", w->f16, a, 2);
    return NULL;
  }
  default: return NULL;
  }
}

static LLVMValueRef call_f32(hw *w, const char *intrinsic, LLVMValueRef *args, unsigned n) {
  unsigned id = LLVMLookupIntrinsicID(intrinsic, strlen(intrinsic));
  LLVMValueRef fn = LLVMGetIntrinsicDeclaration(w->m, id, &w->f32, 1);
  return LLVMBuildCall2(w->b, LLVMIntrinsicGetType(LLVMGetModuleContext(w->m), id, &w->f32, 1), fn, args, n, "");
}

/* the sign-bit operations on the bits */
static LLVMValueRef sign_op(hw *w, LLVMValueRef x, LLVMValueRef y, int op) {
  LLVMValueRef bx = LLVMBuildBitCast(w->b, x, w->i16, ""), r;
  if (op == 0) r = LLVMBuildXor(w->b, bx, LLVMConstInt(w->i16, 0x8000, 0), ""); /* fneg */
  else if (op == 1) r = LLVMBuildAnd(w->b, bx, LLVMConstInt(w->i16, 0x7fff, 0), ""); /* fabs */
  else
    r = LLVMBuildOr(w->b, LLVMBuildAnd(w->b, bx, LLVMConstInt(w->i16, 0x7fff, 0), ""),
                    LLVMBuildAnd(w->b, LLVMBuildBitCast(w->b, y, w->i16, ""), LLVMConstInt(w->i16, 0x8000, 0), ""), "");
  return LLVMBuildBitCast(w->b, r, w->f16, "");
}

/* fma of halves: x*y is exact in float; s = x*y + z rounded, e its exact
 * error; s made round-to-odd (toward zero, the last bit set) when e != 0 */
static LLVMValueRef fma_half(hw *w, LLVMValueRef x, LLVMValueRef y, LLVMValueRef z) {
  LLVMBuilderRef b = w->b;
  LLVMValueRef p = LLVMBuildFMul(b, ext(w, x), ext(w, y), ""), zf = ext(w, z);
  LLVMValueRef s = LLVMBuildFAdd(b, p, zf, ""), bb = LLVMBuildFSub(b, s, p, "");
  LLVMValueRef e = LLVMBuildFAdd(b, LLVMBuildFSub(b, p, LLVMBuildFSub(b, s, bb, ""), ""), LLVMBuildFSub(b, zf, bb, ""), "");
  LLVMValueRef sb = LLVMBuildBitCast(b, s, w->i32, ""), eb = LLVMBuildBitCast(b, e, w->i32, "");
  /* |exact| < |s| when e's sign differs from s's: one step toward zero */
  LLVMValueRef below = LLVMBuildICmp(b, LLVMIntSLT, LLVMBuildXor(b, sb, eb, ""), LLVMConstInt(w->i32, 0, 0), "");
  LLVMValueRef t = LLVMBuildSub(b, sb, LLVMBuildZExt(b, below, w->i32, ""), "");
  LLVMValueRef odd = LLVMBuildBitCast(b, LLVMBuildOr(b, t, LLVMConstInt(w->i32, 1, 0), ""), w->f32, "");
  /* an exact sum, or infinities and NaNs (e is then NaN): s itself */
  LLVMValueRef inexact = LLVMBuildFCmp(b, LLVMRealONE, e, LLVMConstReal(w->f32, 0), "");
  return rnd(w, LLVMBuildSelect(b, inexact, odd, s, ""));
}

static LLVMValueRef lower_call(hw *w, LLVMValueRef in) {
  LLVMValueRef fn = LLVMGetCalledValue(in);
  size_t len;
  const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
  if (strncmp(name, "llvm.", 5) || !strstr(name, ".f16")) return NULL;
  unsigned n = (unsigned)LLVMGetNumArgOperands(in);
  LLVMValueRef a[3] = {NULL, NULL, NULL}, fa[3];
  for (unsigned i = 0; i < n && i < 3; i++) a[i] = LLVMGetOperand(in, i);
  if (!strcmp(name, "llvm.fabs.f16")) return sign_op(w, a[0], NULL, 1);
  if (!strcmp(name, "llvm.copysign.f16")) return sign_op(w, a[0], a[1], 2);
  if (!strcmp(name, "llvm.fma.f16") || !strcmp(name, "llvm.fmuladd.f16")) return fma_half(w, a[0], a[1], a[2]);
  /* one float operation, then one rounding: correct (see above) */
  static const char *const via_float[] = {"sqrt", "floor", "ceil", "trunc", "rint", "nearbyint",
                                          "round", "roundeven", "minnum", "maxnum"};
  for (size_t i = 0; i < sizeof via_float / sizeof *via_float; i++) {
    size_t l = strlen(via_float[i]);
    if (strncmp(name + 5, via_float[i], l) || strcmp(name + 5 + l, ".f16")) continue;
    for (unsigned k = 0; k < n; k++) fa[k] = ext(w, a[k]);
    char base[24] = "llvm.";
    memcpy(base + 5, via_float[i], l + 1);
    return rnd(w, call_f32(w, base, fa, n));
  }
  return NULL;
}

static LLVMValueRef lower_one(hw *w, LLVMValueRef in) {
  LLVMValueRef nat = w->v16 ? native(w, in) : NULL;
  if (nat) return nat;
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMTypeRef t = LLVMTypeOf(in);
  LLVMValueRef a = LLVMGetNumOperands(in) ? LLVMGetOperand(in, 0) : NULL;
  LLVMValueRef c = LLVMGetNumOperands(in) > 1 ? LLVMGetOperand(in, 1) : NULL;
  switch (op) {
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem:
    if (!is_half(t)) return NULL;
    return rnd(w, LLVMBuildBinOp(w->b, op, ext(w, a), ext(w, c), ""));
  case LLVMFNeg: return is_half(t) ? sign_op(w, a, NULL, 0) : NULL;
  case LLVMFCmp:
    if (!is_half(LLVMTypeOf(a))) return NULL;
    return LLVMBuildFCmp(w->b, LLVMGetFCmpPredicate(in), ext(w, a), ext(w, c), "");
  case LLVMFPExt: /* to double: exact through float */
    if (!is_half(LLVMTypeOf(a)) || LLVMGetTypeKind(t) != LLVMDoubleTypeKind) return NULL;
    return LLVMBuildFPExt(w->b, ext(w, a), t, "");
  case LLVMFPTrunc: { /* from double: one rounding, the library's */
    if (!is_half(t) || LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMDoubleTypeKind) return NULL;
    LLVMTypeRef ps[2] = {w->i64, w->i32}, fty = LLVMFunctionType(w->i32, ps, 2, 0);
    LLVMValueRef fn = LLVMGetNamedFunction(w->m, "__cy_dtoh");
    if (!fn) fn = LLVMAddFunction(w->m, "__cy_dtoh", fty);
    LLVMValueRef args[2] = {LLVMBuildBitCast(w->b, a, w->i64, ""), LLVMConstInt(w->i32, 0, 0)};
    LLVMValueRef h = LLVMBuildTrunc(w->b, LLVMBuildCall2(w->b, fty, fn, args, 2, ""), w->i16, "");
    return LLVMBuildBitCast(w->b, h, w->f16, "");
  }
  case LLVMSIToFP:
  case LLVMUIToFP: /* exact in float below 2^24; above, half overflows either way */
    if (!is_half(t)) return NULL;
    return rnd(w, op == LLVMSIToFP ? LLVMBuildSIToFP(w->b, a, w->f32, "") : LLVMBuildUIToFP(w->b, a, w->f32, ""));
  case LLVMFPToSI:
  case LLVMFPToUI:
    if (!is_half(LLVMTypeOf(a))) return NULL;
    return op == LLVMFPToSI ? LLVMBuildFPToSI(w->b, ext(w, a), t, "") : LLVMBuildFPToUI(w->b, ext(w, a), t, "");
  case LLVMCall: return lower_call(w, in);
  default: return NULL;
  }
}

void cc_lower_f16(LLVMModuleRef m, int isa) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  hw w = {m,
          LLVMCreateBuilderInContext(c),
          LLVMInt16TypeInContext(c),
          LLVMInt32TypeInContext(c),
          LLVMInt64TypeInContext(c),
          LLVMHalfTypeInContext(c),
          LLVMFloatTypeInContext(c),
          LLVMDoubleTypeInContext(c),
          isa == 2025};
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
  cc_lower_half(m); /* the fpext/fptrunc made here and by cc_printf.c, as integer IR */
}
