/* The OpenCL builtins of half (cl_khr_fp16), which libclc's nvptx build
 * does not have: a call whose parameters are all half, or all the same
 * half vector, becomes the float builtin of the same name on the
 * arguments widened to float (exact), its result rounded once to half,
 * element by element for vectors. The float builtins meet their float
 * bounds, far inside half's ulp, so the half results are within the
 * cl_khr_fp16 bounds; the correctly rounded ones (sqrt, floor, ...) stay
 * correctly rounded. fma and mad become llvm.fma.f16 (cc_lower_f16.c
 * rounds it once). A scalar relational function keeps the float one's
 * int result, a vector one makes each lane -1 or 0 of it. convert_<T>(half) is the float conversion of the widened
 * value; convert_half[_rt?](x) rounds once in its mode (from double with
 * the software double library's conversion). vloadN/vstoreN, shuffle,
 * shuffle2, select and bitselect of half are those of ushort; the geometric functions
 * the float ones on whole vectors; frexp, modf, ... with pointer or int
 * parameters the float ones (a half result through a pointer via a
 * private float); signbit the sign bit. Before libclc is linked,
 * which then brings the float bodies in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

/* the builtin's name (the mangled length and text), the number of
 * parameters and the vector width (0 scalar), or 0 when it is not one */
static int half_builtin(LLVMValueRef fn, const char **base, long *blen, unsigned *width) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (strncmp(name, "_Z", 2) || LLVMGetFirstBasicBlock(fn)) return 0;
  char *end;
  long l = strtol(name + 2, &end, 10);
  if (l <= 0 || (long)strlen(end) <= l) return 0;
  static const char *const skip[] = {"vload",  "vstore", "convert_", "as_",      "shuffle",
                                     "select", "nan",    "upsample", "bitselect"};
  for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
    if (!strncmp(end, skip[i], strlen(skip[i]))) return 0;
  const char *p = end + l;
  unsigned n = LLVMCountParams(fn);
  *width = 0;
  for (unsigned k = 0; k < n; k++) { /* half, a half vector, or it again (S_): mixed forms too */
    if (!strncmp(p, "Dh", 2) || (*width && !strncmp(p, "S_", 2))) {
      p += 2;
    } else if (!strncmp(p, "Dv", 2)) {
      char *q;
      unsigned w = (unsigned)strtoul(p + 2, &q, 10);
      if (strncmp(q, "_Dh", 3) || (*width && w != *width)) return 0;
      *width = w;
      p = q + 3;
    } else {
      return 0;
    }
  }
  if (*p || !n) return 0;
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  LLVMTypeKind rk = LLVMGetTypeKind(*width ? (LLVMGetTypeKind(rt) == LLVMVectorTypeKind ? LLVMGetElementType(rt) : rt) : rt);
  if (rk != LLVMHalfTypeKind && rk != LLVMIntegerTypeKind) return 0;
  *base = end;
  *blen = l;
  return 1;
}

static LLVMValueRef scalar_call(LLVMModuleRef m, LLVMBuilderRef b, const char *base, long blen, LLVMValueRef *args,
                                unsigned n, LLVMTypeRef ret) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef f32 = LLVMFloatTypeInContext(c), f16 = LLVMHalfTypeInContext(c), ps[4];
  LLVMValueRef fa[4];
  for (unsigned i = 0; i < n; i++) {
    ps[i] = f32;
    fa[i] = LLVMBuildFPExt(b, args[i], f32, "");
  }
  if ((blen == 3 && !strncmp(base, "fma", 3)) || (blen == 3 && !strncmp(base, "mad", 3))) {
    const char *in = base[0] == 'f' ? "llvm.fma" : "llvm.fmuladd";
    unsigned id = LLVMLookupIntrinsicID(in, strlen(in));
    return LLVMBuildCall2(b, LLVMIntrinsicGetType(c, id, &f16, 1), LLVMGetIntrinsicDeclaration(m, id, &f16, 1), args, n, "");
  }
  char name[96];
  int at = snprintf(name, sizeof name, "_Z%ld%.*s", blen, (int)blen, base);
  for (unsigned i = 0; i < n && at < (int)sizeof name - 1; i++) name[at++] = 'f';
  name[at] = 0;
  int half = LLVMGetTypeKind(ret) == LLVMHalfTypeKind;
  LLVMTypeRef fty = LLVMFunctionType(half ? f32 : ret, ps, n, 0);
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (!fn) fn = LLVMAddFunction(m, name, fty);
  LLVMValueRef r = LLVMBuildCall2(b, fty, fn, fa, n, "");
  return half ? LLVMBuildFPTrunc(b, r, f16, "") : r;
}

/* convert_<T>...(half<N>): the float conversion of the same name on the
 * widened (exact) argument; NULL when fn is not one */
static LLVMValueRef from_half(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef call) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char *end;
  long l = strtol(name + 2, &end, 10);
  if (strncmp(name, "_Z", 2) || l <= 8 || strncmp(end, "convert_", 8) || (long)strlen(end) <= l) return NULL;
  const char *p = end + l, *h = strstr(p, "Dh");
  if (!h || strcmp(h, "Dh") || (h != p && (strncmp(p, "Dv", 2) || h[-1] != '_'))) return NULL;
  char fname[96];
  snprintf(fname, sizeof fname, "%.*s%.*sf", (int)(end - name + l), name, (int)(h - p), p);
  LLVMValueRef x = LLVMGetOperand(call, 0);
  LLVMTypeRef xt = LLVMTypeOf(x), ft = LLVMFloatTypeInContext(LLVMGetModuleContext(m));
  if (LLVMGetTypeKind(xt) == LLVMVectorTypeKind) ft = LLVMVectorType(ft, LLVMGetVectorSize(xt));
  LLVMTypeRef fty = LLVMFunctionType(LLVMTypeOf(call), &ft, 1, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m, fname);
  if (!f) f = LLVMAddFunction(m, fname, fty);
  LLVMValueRef a = LLVMBuildFPExt(b, x, ft, "");
  return LLVMBuildCall2(b, fty, f, &a, 1, "");
}

/* convert_half<N>[_rt?](x) of float, integers or double: in the mode
 * (default to nearest even); NULL when fn is not one */
static LLVMValueRef to_half(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef call, int uns) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char *end;
  long l = strtol(name + 2, &end, 10);
  if (strncmp(name, "_Z", 2) || l < 12 || strncmp(end, "convert_half", 12) || LLVMCountParams(fn) != 1) return NULL;
  const char *q = end + 12;
  while (*q >= '0' && *q <= '9') q++;
  int rm = 0;
  static const char *const modes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  for (int i = 0; i < 4; i++)
    if (!strncmp(q, modes[i], 4)) rm = i, q += 4;
  if (q != end + l) return NULL;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMValueRef x = LLVMGetOperand(call, 0);
  LLVMTypeRef xt = LLVMTypeOf(x), rt = LLVMTypeOf(call);
  unsigned n = LLVMGetTypeKind(xt) == LLVMVectorTypeKind ? LLVMGetVectorSize(xt) : 0;
  LLVMTypeRef et = n ? LLVMGetElementType(xt) : xt, i16 = LLVMInt16TypeInContext(c), i32 = LLVMInt32TypeInContext(c);
  LLVMValueRef r = LLVMGetUndef(rt);
  for (unsigned e = 0; e < (n ? n : 1); e++) {
    LLVMValueRef at = LLVMConstInt(i32, e, 0), v = n ? LLVMBuildExtractElement(b, x, at, "") : x, bits;
    if (LLVMGetTypeKind(et) == LLVMDoubleTypeKind) { /* one rounding from double */
      LLVMTypeRef i64 = LLVMInt64TypeInContext(c), ps[2] = {i64, i32}, fty = LLVMFunctionType(i32, ps, 2, 0);
      LLVMValueRef d = LLVMGetNamedFunction(m, "__cy_dtoh");
      if (!d) d = LLVMAddFunction(m, "__cy_dtoh", fty);
      LLVMValueRef args[2] = {LLVMBuildBitCast(b, v, i64, ""), LLVMConstInt(i32, (unsigned)rm, 0)};
      bits = LLVMBuildTrunc(b, LLVMBuildCall2(b, fty, d, args, 2, ""), i16, "");
    } else {
      LLVMTypeRef f32 = LLVMFloatTypeInContext(c);
      /* integers: exact in float below 2^24, and beyond half's range above */
      if (LLVMGetTypeKind(et) == LLVMIntegerTypeKind)
        v = uns ? LLVMBuildUIToFP(b, v, f32, "") : LLVMBuildSIToFP(b, v, f32, "");
      else if (LLVMGetTypeKind(et) == LLVMHalfTypeKind)
        v = LLVMBuildFPExt(b, v, f32, "");
      bits = cc_float_to_half_bits(b, v, rm);
    }
    LLVMValueRef h = LLVMBuildBitCast(b, bits, LLVMHalfTypeInContext(c), "");
    r = n ? LLVMBuildInsertElement(b, r, h, at, "") : h;
  }
  return r;
}

/* vloadN/vstoreN, shuffle, shuffle2, select and bitselect of half: those
 * of ushort (libclc has no half forms; bitselect works on the bits, never
 * on a value widened to float), the values reinterpreted; NULL when fn is
 * not one */
static LLVMValueRef half_as_ushort(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef call) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char *end;
  long l = strtol(name + 2, &end, 10);
  int store = l > 6 && !strncmp(end, "vstore", 6);
  int shuffle = l == 7 && !strncmp(end, "shuffle", 7) ? 1 : l == 8 && !strncmp(end, "shuffle2", 8) ? 2 : 0;
  int select = l == 6 && !strncmp(end, "select", 6), bitsel = l == 9 && !strncmp(end, "bitselect", 9);
  if (strncmp(name, "_Z", 2) || len >= 96 || !strstr(end + l, "Dh")) return NULL;
  if (!shuffle && !select && !bitsel &&
      (l < 6 || (!store && strncmp(end, "vload", 5)) || end[store ? 6 : 5] < '0' || end[store ? 6 : 5] > '9'))
    return NULL;
  char uname[96];
  size_t n = 0;
  for (const char *p = name; *p && n < sizeof uname - 1; p++) {
    if (p >= end + l && p[0] == 'D' && p[1] == 'h') {
      uname[n++] = 't';
      p++;
    } else {
      uname[n++] = *p;
    }
  }
  uname[n] = 0;
  if (shuffle) { /* the ushort mask repeats the value type when as wide: a substitution */
    unsigned nv = LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(call, 0)));
    unsigned nm = LLVMGetVectorSize(LLVMTypeOf(LLVMGetOperand(call, shuffle == 2 ? 2 : 1)));
    char mask[16] = "S_";
    if (nm != nv) snprintf(mask, sizeof mask, "Dv%u_t", nm);
    snprintf(uname, sizeof uname, "_Z%ld%.*sDv%u_t%s%s", l, (int)l, end, nv, shuffle == 2 ? "S_" : "", mask);
  }
  if (select) { /* a ushortN mask now repeats the value type: a substitution (S_S_) */
    const char *v = uname + (end - name) + l; /* Dv<n>_tS_<mask> */
    const char *u = strchr(v, '_');
    if (!strncmp(v, "Dv", 2) && u && !strncmp(u, "_tS_", 4) && !strncmp(u + 4, v, (size_t)(u + 2 - v)) &&
        u[4 + (u + 2 - v)] == 0)
      strcpy(uname + (u + 4 - uname), "S_");
  }
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef i16 = LLVMInt16TypeInContext(c);
  unsigned np = LLVMGetNumArgOperands(call);
  LLVMValueRef args[4];
  LLVMTypeRef ps[4];
  for (unsigned i = 0; i < np && i < 4; i++) {
    args[i] = LLVMGetOperand(call, i);
    LLVMTypeRef t = LLVMTypeOf(args[i]);
    if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMHalfTypeKind)
      args[i] = LLVMBuildBitCast(b, args[i], LLVMVectorType(i16, LLVMGetVectorSize(t)), "");
    else if (LLVMGetTypeKind(t) == LLVMHalfTypeKind)
      args[i] = LLVMBuildBitCast(b, args[i], i16, "");
    ps[i] = LLVMTypeOf(args[i]);
  }
  LLVMTypeRef rt = LLVMTypeOf(call), urt = rt;
  if (LLVMGetTypeKind(rt) == LLVMVectorTypeKind) urt = LLVMVectorType(i16, LLVMGetVectorSize(rt));
  else if (LLVMGetTypeKind(rt) == LLVMHalfTypeKind) urt = i16;
  if (bitsel) { /* a ^ ((a ^ b) & c): the bits of b where c is set */
    if (np != 3 || ps[0] != urt || ps[1] != urt || ps[2] != urt) return NULL;
    LLVMValueRef d = LLVMBuildAnd(b, LLVMBuildXor(b, args[0], args[1], ""), args[2], "");
    return LLVMBuildBitCast(b, LLVMBuildXor(b, args[0], d, ""), rt, "");
  }
  LLVMTypeRef fty = LLVMFunctionType(urt, ps, np, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m, uname);
  if (!f) f = LLVMAddFunction(m, uname, fty);
  LLVMValueRef r = LLVMBuildCall2(b, fty, f, args, np, "");
  return urt == rt ? r : LLVMBuildBitCast(b, r, rt, "");
}

/* the unsigned source types of a conversion's mangled parameter */
static int unsigned_param(LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len), *p = name + len - 1;
  return *p == 'h' || *p == 't' || *p == 'j' || *p == 'm';
}

/* the geometric functions, which combine a vector's elements */
static int geometric(const char *base, long blen) {
  static const char *const g[] = {"dot", "length", "distance", "normalize", "cross", "fast_length", "fast_distance",
                                  "fast_normalize"};
  for (size_t i = 0; i < sizeof g / sizeof *g; i++)
    if ((long)strlen(g[i]) == blen && !strncmp(base, g[i], (size_t)blen)) return 1;
  return 0;
}

/* the float function of the same name on whole float vectors (the
 * mangled parameters with f for Dh), its result rounded to half */
static LLVMValueRef whole_vector_call(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef fn, LLVMTypeRef rt) {
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef f32 = LLVMFloatTypeInContext(c), ps[4];
  LLVMValueRef args[4];
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char fname[96];
  size_t o = 0;
  for (size_t i = 0; i < len && o < sizeof fname - 1; i++) {
    if (name[i] == 'D' && name[i + 1] == 'h') {
      fname[o++] = 'f';
      i++;
    } else {
      fname[o++] = name[i];
    }
  }
  fname[o] = 0;
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned i = 0; i < n && i < 4; i++) {
    LLVMValueRef a = LLVMGetOperand(call, i);
    LLVMTypeRef t = LLVMTypeOf(a);
    ps[i] = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMVectorType(f32, LLVMGetVectorSize(t)) : f32;
    args[i] = LLVMBuildFPExt(b, a, ps[i], "");
  }
  LLVMTypeRef frt = LLVMGetTypeKind(rt) == LLVMVectorTypeKind ? LLVMVectorType(f32, LLVMGetVectorSize(rt)) : f32;
  LLVMTypeRef fty = LLVMFunctionType(frt, ps, n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m, fname);
  if (!f) f = LLVMAddFunction(m, fname, fty);
  return LLVMBuildFPTrunc(b, LLVMBuildCall2(b, fty, f, args, n, ""), rt, "");
}

/* nan(ushort<N>) of half: a quiet NaN carrying the low 9 bits of the code */
static LLVMValueRef half_nan(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef call) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  LLVMTypeRef rt = LLVMTypeOf(call);
  LLVMTypeRef et = LLVMGetTypeKind(rt) == LLVMVectorTypeKind ? LLVMGetElementType(rt) : rt;
  if (strncmp(name, "_Z3nan", 6) || LLVMGetTypeKind(et) != LLVMHalfTypeKind || LLVMCountParams(fn) != 1) return NULL;
  LLVMValueRef x = LLVMGetOperand(call, 0);
  LLVMTypeRef xt = LLVMTypeOf(x);
  unsigned n = LLVMGetTypeKind(xt) == LLVMVectorTypeKind ? LLVMGetVectorSize(xt) : 0;
  LLVMTypeRef i16 = LLVMGetTypeKind(xt) == LLVMVectorTypeKind ? LLVMGetElementType(xt) : xt;
  LLVMValueRef km[16], kq[16];
  for (unsigned i = 0; i < (n ? n : 1) && i < 16; i++) {
    km[i] = LLVMConstInt(i16, 0x1ff, 0);
    kq[i] = LLVMConstInt(i16, 0x7e00, 0);
  }
  LLVMValueRef mask = n ? LLVMConstVector(km, n) : km[0], q = n ? LLVMConstVector(kq, n) : kq[0];
  return LLVMBuildBitCast(b, LLVMBuildOr(b, LLVMBuildAnd(b, x, mask, ""), q, ""), rt, "");
}

/* signbit of half: the sign bit itself (int 0/1; shortN lanes -1/0), not
 * the float's, since a widening conversion may make a NaN the canonical one */
static LLVMValueRef half_signbit(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef call) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (strncmp(name, "_Z7signbit", 10) || LLVMCountParams(fn) != 1) return NULL;
  LLVMValueRef x = LLVMGetOperand(call, 0);
  LLVMTypeRef xt = LLVMTypeOf(x), rt = LLVMTypeOf(call);
  int vec = LLVMGetTypeKind(xt) == LLVMVectorTypeKind;
  if (LLVMGetTypeKind(vec ? LLVMGetElementType(xt) : xt) != LLVMHalfTypeKind) return NULL;
  LLVMTypeRef i16 = LLVMInt16TypeInContext(LLVMGetTypeContext(xt));
  if (!vec) {
    LLVMValueRef bits = LLVMBuildBitCast(b, x, i16, "");
    return LLVMBuildZExt(b, LLVMBuildLShr(b, bits, LLVMConstInt(i16, 15, 0), ""), rt, "");
  }
  unsigned n = LLVMGetVectorSize(xt);
  LLVMTypeRef vt = LLVMVectorType(i16, n);
  LLVMValueRef k[16];
  for (unsigned i = 0; i < n && i < 16; i++) k[i] = LLVMConstInt(i16, 15, 0);
  if (n > 16 || LLVMTypeOf(call) != vt) return NULL;
  return LLVMBuildAShr(b, LLVMBuildBitCast(b, x, vt, ""), LLVMConstVector(k, n), "");
}

/* a scalar half builtin with int or pointer parameters (frexp, modf,
 * fract, sincos, remquo, lgamma_r, ldexp, pown, rootn): the float one, a
 * half through a pointer via a private float; NULL when fn is not one */
static LLVMValueRef half_ptr_call(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef call) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char *end;
  long l = strtol(name + 2, &end, 10);
  LLVMTypeRef rt = LLVMTypeOf(call);
  if (strncmp(name, "_Z", 2) || l <= 0 || (long)strlen(end) <= l || LLVMGetTypeKind(rt) != LLVMHalfTypeKind) return NULL;
  static const char *const ok[] = {"frexp", "modf", "fract", "sincos", "remquo", "lgamma_r", "ldexp", "pown", "rootn"};
  int known = 0;
  for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) known |= (long)strlen(ok[i]) == l && !strncmp(end, ok[i], (size_t)l);
  if (!known) return NULL;
  LLVMContextRef c = LLVMGetModuleContext(m);
  LLVMTypeRef f32 = LLVMFloatTypeInContext(c), ps[4];
  LLVMValueRef args[4], tmp[4] = {NULL, NULL, NULL, NULL}, hp[4];
  char fname[96];
  int o = snprintf(fname, sizeof fname, "_Z%ld%.*s", l, (int)l, end);
  const char *p = end + l;
  unsigned n = LLVMGetNumArgOperands(call);
  LLVMBuilderRef eb = LLVMCreateBuilderInContext(c); /* allocas at the function's entry */
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)));
  LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(entry));
  for (unsigned i = 0; i < n && i < 4; i++) {
    LLVMValueRef a = LLVMGetOperand(call, i);
    const char *t = p;
    if (*p == 'P') { /* P [U3AS<d>] [K] then Dh or i */
      p++;
      if (!strncmp(p, "U3AS", 4)) p += 5;
      if (*p == 'K') p++;
    }
    int half = !strncmp(p, "Dh", 2);
    if (!half && *p != 'i') {
      LLVMDisposeBuilder(eb);
      return NULL;
    }
    p += half ? 2 : 1;
    if (*t == 'P' && half) { /* through a private float */
      tmp[i] = LLVMBuildAlloca(eb, f32, "");
      hp[i] = a;
      args[i] = tmp[i];
      ps[i] = LLVMTypeOf(tmp[i]);
      o += snprintf(fname + o, sizeof fname - (size_t)o, "Pf");
    } else if (half) {
      args[i] = LLVMBuildFPExt(b, a, f32, "");
      ps[i] = f32;
      o += snprintf(fname + o, sizeof fname - (size_t)o, "f");
    } else {
      args[i] = a;
      ps[i] = LLVMTypeOf(a);
      o += snprintf(fname + o, sizeof fname - (size_t)o, "%.*s", (int)(p - t), t);
    }
  }
  LLVMDisposeBuilder(eb);
  if (*p || o >= (int)sizeof fname) return NULL;
  LLVMTypeRef fty = LLVMFunctionType(f32, ps, n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m, fname);
  if (!f) f = LLVMAddFunction(m, fname, fty);
  LLVMValueRef r = LLVMBuildFPTrunc(b, LLVMBuildCall2(b, fty, f, args, n, ""), rt, "");
  for (unsigned i = 0; i < n && i < 4; i++)
    if (tmp[i]) LLVMBuildStore(b, LLVMBuildFPTrunc(b, LLVMBuildLoad2(b, f32, tmp[i], ""), rt, ""), hp[i]);
  return r;
}

void cc_map_f16_builtins(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMGetFirstBasicBlock(fn)) {
      LLVMUseRef u;
      while ((u = LLVMGetFirstUse(fn))) {
        LLVMValueRef call = LLVMGetUser(u), r = NULL;
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
        LLVMPositionBuilderBefore(b, call);
        if (LLVMCountParams(fn) == 1) r = to_half(m, b, fn, call, unsigned_param(fn));
        if (!r && LLVMCountParams(fn) == 1) r = from_half(m, b, fn, call);
        if (!r) r = half_as_ushort(m, b, fn, call);
        if (!r) r = half_nan(b, fn, call);
        if (!r) r = half_signbit(b, fn, call);
        if (!r) r = half_ptr_call(m, b, fn, call);
        if (!r) break;
        LLVMReplaceAllUsesWith(call, r);
        LLVMInstructionEraseFromParent(call);
      }
    }
    const char *base;
    long blen;
    unsigned width, n = LLVMCountParams(fn);
    if (n > 4 || !half_builtin(fn, &base, &blen, &width)) continue;
    LLVMUseRef u;
    while ((u = LLVMGetFirstUse(fn))) {
      LLVMValueRef call = LLVMGetUser(u), args[4], r;
      if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != fn) break;
      LLVMPositionBuilderBefore(b, call);
      LLVMTypeRef rt = LLVMTypeOf(call);
      if (!width) {
        for (unsigned i = 0; i < n; i++) args[i] = LLVMGetOperand(call, i);
        r = scalar_call(m, b, base, blen, args, n, rt);
      } else if (geometric(base, blen)) {
        r = whole_vector_call(m, b, call, fn, rt);
      } else {
        r = LLVMGetUndef(rt);
        LLVMTypeRef et = LLVMGetElementType(rt);
        int rel = LLVMGetTypeKind(et) == LLVMIntegerTypeKind; /* a relational function: lanes -1 or 0 */
        for (unsigned e = 0; e < width; e++) {
          LLVMValueRef at = LLVMConstInt(i32, e, 0);
          for (unsigned i = 0; i < n; i++) { /* a scalar of a mixed form (fmin(half4, half)) for every element */
            LLVMValueRef op = LLVMGetOperand(call, i);
            args[i] = LLVMGetTypeKind(LLVMTypeOf(op)) == LLVMVectorTypeKind ? LLVMBuildExtractElement(b, op, at, "") : op;
          }
          LLVMValueRef x = scalar_call(m, b, base, blen, args, n, rel ? i32 : et);
          if (rel) x = LLVMBuildSExt(b, LLVMBuildICmp(b, LLVMIntNE, x, LLVMConstInt(i32, 0, 0), ""), et, "");
          r = LLVMBuildInsertElement(b, r, x, at, "");
        }
      }
      LLVMReplaceAllUsesWith(call, r);
      LLVMInstructionEraseFromParent(call);
    }
  }
  LLVMDisposeBuilder(b);
}
