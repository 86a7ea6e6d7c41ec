/* printf: each work-item's call becomes a record in the launch's print
 * buffer, which the host formats (docs/opencl.md §5.5 has the format; the
 * buffer protocol is docs/kernels.md §9). A warp's call
 *
 *   1. takes the buffer's lock (its last word) with amoswap.w,
 *   2. writes the record size R at the buffer's start and clears the first
 *      word of all num_thread slots of R bytes after it (scalar stores: the
 *      scalar unit runs whatever the SIMT mask),
 *   3. lets each active lane write its record into its slot (vector
 *      stores, masked): the format string's address, then one word per
 *      argument or vector element,
 *   4. drains 4 + num_thread * R bytes through CSR print and frees the lock.
 *
 * The host skips slots whose first word is still 0 (inactive lanes) and
 * reads the format from the program image. Without a print buffer the call
 * does nothing. C's promotion of float (and half) arguments to double is
 * undone in the IR first (cc_printf_lower); a long or double argument takes
 * two words, low first, and its conversion gets the length modifier l in
 * the format the host reads (a copy of the string where it changes; an l
 * before a conversion of a 32-bit argument goes), so the host knows to
 * read two words. */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

enum { MAX_WORDS = 64 };

static int is_printf(LLVMValueRef in) {
  if (!LLVMIsACallInst(in)) return 0;
  LLVMValueRef fn = LLVMGetCalledValue(in);
  size_t len = 0;
  const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
  return len == 6 && !strcmp(name, "printf");
}

static int wide(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
  return LLVMGetTypeKind(t) == LLVMDoubleTypeKind || (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64);
}

/* fmt with an l before each conversion of a 64-bit argument and none before
 * the others (args[1..n-1], in order, a conversion each), into out (cap
 * bytes); 1 when it differs, 0 when not, -1 when it does not fit */
static int fix_lengths(const char *fmt, size_t flen, LLVMValueRef *args, unsigned n, char *out, size_t cap) {
  size_t o = 0;
  unsigned arg = 1;
  int changed = 0;
#define PUT(ch) do { if (o + 1 >= cap) return -1; out[o++] = (ch); } while (0)
  for (size_t i = 0; i < flen;) {
    if (fmt[i] != '%') {
      PUT(fmt[i++]);
      continue;
    }
    PUT(fmt[i++]);
    if (i < flen && fmt[i] == '%') {
      PUT(fmt[i++]);
      continue;
    }
    while (i < flen && (strchr("-+ #0.", fmt[i]) || (fmt[i] >= '0' && fmt[i] <= '9'))) PUT(fmt[i++]);
    if (i < flen && fmt[i] == 'v') {
      PUT(fmt[i++]);
      while (i < flen && fmt[i] >= '0' && fmt[i] <= '9') PUT(fmt[i++]);
    }
    int had_l = i < flen && fmt[i] == 'l';
    if (i < flen && fmt[i] == 'h') { /* hh, h, hl: kept as they are */
      PUT(fmt[i++]);
      if (i < flen && (fmt[i] == 'h' || fmt[i] == 'l')) PUT(fmt[i++]);
      had_l = -1;
    } else if (had_l) {
      i++;
    }
    char c = i < flen ? fmt[i] : 0;
    if (had_l >= 0 && c && strchr("diouxXfFeEgGaA", c) && arg < n) {
      int want = wide(LLVMTypeOf(args[arg]));
      if (want) PUT('l');
      changed |= want != had_l;
    } else if (had_l > 0) {
      PUT('l');
    }
    if (c && strchr("diouxXfFeEgGaAcsp", c)) arg++;
  }
#undef PUT
  out[o] = 0;
  return changed;
}

/* the format string global of a call, or NULL */
static LLVMValueRef format_global(LLVMValueRef call) {
  LLVMValueRef g = LLVMGetOperand(call, 0);
  while (g && LLVMIsAConstantExpr(g)) g = LLVMGetOperand(g, 0);
  return g && LLVMIsAGlobalVariable(g) && LLVMGetInitializer(g) && LLVMIsConstantString(LLVMGetInitializer(g)) ? g : NULL;
}

/* a double argument made from a float or a half (fpext) becomes that
 * float, and the format's l modifiers follow the arguments' widths: the
 * call is rebuilt with the new arguments and format */
int cc_printf_lower(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMTypeRef f32 = LLVMFloatTypeInContext(ctx);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
        next = LLVMGetNextInstruction(in);
        if (!is_printf(in)) continue;
        unsigned n = (unsigned)LLVMGetNumArgOperands(in), changed = 0;
        if (n > MAX_WORDS) continue; /* refused by the selection */
        LLVMValueRef args[MAX_WORDS];
        for (unsigned i = 0; i < n; i++) {
          LLVMValueRef a = LLVMGetOperand(in, i);
          args[i] = a;
          LLVMTypeRef at = LLVMTypeOf(a);
          if (LLVMGetTypeKind(at) == LLVMVectorTypeKind && LLVMGetTypeKind(LLVMGetElementType(at)) == LLVMHalfTypeKind) {
            /* a half vector (%vNhf; vectors are not promoted): a word per
             * element, the float each widens to exactly */
            LLVMPositionBuilderBefore(b, in);
            args[i] = LLVMBuildFPExt(b, a, LLVMVectorType(f32, LLVMGetVectorSize(at)), "");
            changed = 1;
            continue;
          }
          if (LLVMGetTypeKind(at) != LLVMDoubleTypeKind) continue;
          if (LLVMIsAFPExtInst(a) && LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(a, 0))) == LLVMFloatTypeKind) {
            args[i] = LLVMGetOperand(a, 0);
            changed = 1;
          } else if (LLVMIsAFPExtInst(a) && LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(a, 0))) == LLVMHalfTypeKind) {
            /* a half promoted to double: printed as the float it widens to
             * exactly (cc_lower_f16.c lowers the widening) */
            LLVMPositionBuilderBefore(b, in);
            args[i] = LLVMBuildFPExt(b, LLVMGetOperand(a, 0), f32, "");
            changed = 1;
          }
        }
        LLVMValueRef g = format_global(in);
        if (g) {
          size_t flen;
          const char *fmt = LLVMGetAsString(LLVMGetInitializer(g), &flen);
          char fixed[1024];
          while (flen && !fmt[flen - 1]) flen--;
          if (fix_lengths(fmt, flen, args, n, fixed, sizeof fixed) == 1) {
            LLVMValueRef init = LLVMConstStringInContext(ctx, fixed, (unsigned)strlen(fixed), 0);
            LLVMValueRef ng = LLVMAddGlobalInAddressSpace(m, LLVMTypeOf(init), ".cy.printf.fmt",
                                                          LLVMGetPointerAddressSpace(LLVMTypeOf(g)));
            LLVMSetInitializer(ng, init);
            LLVMSetGlobalConstant(ng, 1);
            LLVMSetLinkage(ng, LLVMPrivateLinkage);
            LLVMSetUnnamedAddress(ng, LLVMGlobalUnnamedAddr);
            args[0] = ng;
            changed = 1;
          }
        }
        if (!changed) continue;
        LLVMPositionBuilderBefore(b, in);
        LLVMValueRef c = LLVMBuildCall2(b, LLVMGetCalledFunctionType(in), LLVMGetCalledValue(in), args, n, "");
        LLVMSetInstructionCallConv(c, LLVMGetInstructionCallConv(in));
        LLVMReplaceAllUsesWith(in, c);
        LLVMInstructionEraseFromParent(in);
      }
  LLVMDisposeBuilder(b);
  return 0;
}

/* the registers of one argument, a word each (vector elements in order) */
static int arg_words(cc_fn *f, LLVMValueRef call, LLVMValueRef a, int *w, int *nw) {
  LLVMTypeRef t = LLVMTypeOf(a);
  if (cc_is_i64(t) || (LLVMGetTypeKind(t) == LLVMVectorTypeKind && cc_is_i64(LLVMGetElementType(t)))) {
    /* a long or double, or a vector of them: two words each, low first */
    int words = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? 2 * (int)LLVMGetVectorSize(t) : 2, p[2];
    if (*nw + words > MAX_WORDS) return cc_unsupported(f, call, "a printf call with more than %d argument words", MAX_WORDS - 1);
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) {
      if (cc_i64_pair(f, a, 1, p)) return -1;
      w[(*nw)++] = p[0];
      w[(*nw)++] = p[1];
      return 0;
    }
    int *g = cc_group_of(f, a, 1);
    if (!g) return -1;
    for (int i = 0; i < words; i++) w[(*nw)++] = g[i];
    free(g);
    return 0;
  }
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind) {
    if (!cc_int_width(t)) return cc_unsupported(f, call, "a printf argument of an aggregate type");
    if (*nw >= MAX_WORDS) return cc_unsupported(f, call, "a printf call with more than %d argument words", MAX_WORDS - 1);
    return (w[(*nw)++] = cc_vec(f, a)) < 0 ? -1 : 0;
  }
  int n = (int)LLVMGetVectorSize(t), k = cc_val_num(f, a);
  if (!cc_int_width(LLVMGetElementType(t))) return cc_unsupported(f, call, "a printf argument vector of this element type");
  if (*nw + n > MAX_WORDS) return cc_unsupported(f, call, "a printf call with more than %d argument words", MAX_WORDS - 1);
  for (int i = 0; i < n; i++) {
    int r;
    if (k >= 0 && f->grp[k]) {
      r = f->grp[k][i];
      if (f->rclass[r] == CC_S) {
        int v = cc_new_vreg(f, CC_V);
        if (v < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(v), cc_r(r))) return -1;
        r = v;
      }
    } else {
      LLVMValueRef el = LLVMGetAggregateElement(a, (unsigned)i);
      if (!el) return cc_unsupported(f, call, "a printf argument vector of an unknown shape");
      r = cc_vec(f, el);
    }
    if (r < 0) return -1;
    w[(*nw)++] = r;
  }
  return 0;
}

int cc_select_printf(cc_fn *f, LLVMValueRef call) {
  unsigned n = (unsigned)LLVMGetNumArgOperands(call);
  LLVMValueRef fmt = LLVMGetOperand(call, 0), g = fmt;
  while (g && LLVMIsAConstantExpr(g)) g = LLVMGetOperand(g, 0);
  LLVMValueRef init = g && LLVMIsAGlobalVariable(g) ? LLVMGetInitializer(g) : NULL;
  if (!init || !LLVMIsConstantString(init))
    return cc_unsupported(f, call, "a printf whose format is not a string literal");
  int w[MAX_WORDS + 1], nw = 0;
  w[nw++] = cc_vec(f, fmt);
  if (w[0] < 0) return -1;
  for (unsigned i = 1; i < n; i++)
    if (arg_words(f, call, LLVMGetOperand(call, i), w, &nw)) return -1;
  int rec = 4 * nw;
  enum { KNL, B, SZ, L, ONE, T, R, N, P, K, D, VL, VO, VS, NREG };
  int r[NREG];
  for (int i = 0; i < NREG; i++)
    if ((r[i] = cc_new_vreg(f, i >= VL ? CC_V : CC_S)) < 0) return -1;
  /* the buffer (metadata words +48, +52) and its lock, the last word */
  if (CC_EMIT(f, "csrr %0, knl", 1, cc_r(r[KNL])) || CC_EMIT(f, "lw %0, 48(%1)", 1, cc_r(r[B]), cc_r(r[KNL])) ||
      CC_EMIT(f, "beqz %0, 9f", 0, cc_r(r[B])) || CC_EMIT(f, "lw %0, 52(%1)", 1, cc_r(r[SZ]), cc_r(r[KNL])) ||
      CC_EMIT(f, "add %0, %1, %2", 1, cc_r(r[L]), cc_r(r[B]), cc_r(r[SZ])) ||
      CC_EMIT(f, "addi %0, %1, -4", 1, cc_r(r[L]), cc_r(r[L])) || CC_EMIT(f, "li %0, 1", 1, cc_r(r[ONE])) ||
      /* the spin loop reads L and ONE again: they stay live to its branch */
      CC_EMIT(f, "1: amoswap.w %0, %1, (%2)", 1, cc_r(r[T]), cc_r(r[ONE]), cc_r(r[L])) ||
      CC_EMIT(f, "bnez %0, 1b", 0, cc_r(r[T]), cc_r(r[ONE]), cc_r(r[L])))
    return -1;
  /* header, then the first word of every slot cleared */
  if (CC_EMIT(f, "li %0, %1", 1, cc_r(r[R]), cc_imm(rec)) || CC_EMIT(f, "sw %0, 0(%1)", 0, cc_r(r[R]), cc_r(r[B])) ||
      CC_EMIT(f, "csrr %0, numt", 1, cc_r(r[N])) || CC_EMIT(f, "addi %0, %1, 4", 1, cc_r(r[P]), cc_r(r[B])) ||
      CC_EMIT(f, "mv %0, zero", 1, cc_r(r[K])) || CC_EMIT(f, "2: sw zero, 0(%0)", 0, cc_r(r[P])) ||
      CC_EMIT(f, "add %0, %1, %2", 1, cc_r(r[P]), cc_r(r[P]), cc_r(r[R])) ||
      CC_EMIT(f, "addi %0, %1, 1", 1, cc_r(r[K]), cc_r(r[K])) ||
      CC_EMIT(f, "blt %0, %1, 2b", 0, cc_r(r[K]), cc_r(r[N]), cc_r(r[P]), cc_r(r[R])))
    return -1;
  /* each active lane's record at B + 4 + lane * R */
  int b4 = cc_new_vreg(f, CC_S);
  if (b4 < 0 || CC_EMIT(f, "addi %0, %1, 4", 1, cc_r(b4), cc_r(r[B])) || CC_EMIT(f, "vid.v %0", 1, cc_r(r[VL])) ||
      CC_EMIT(f, "vmul.vx %0, %1, %2", 1, cc_r(r[VO]), cc_r(r[VL]), cc_r(r[R])) ||
      CC_EMIT(f, "vadd.vx %0, %1, %2", 1, cc_r(r[VS]), cc_r(r[VO]), cc_r(b4)))
    return -1;
  for (int i = 0; i < nw; i++)
    if (CC_EMIT(f, "vsw12.v %0, %2(%1)", 0, cc_r(w[i]), cc_r(r[VS]), cc_imm(4 * i))) return -1;
  /* drain, unlock */
  if (CC_EMIT(f, "mul %0, %1, %2", 1, cc_r(r[D]), cc_r(r[N]), cc_r(r[R])) ||
      CC_EMIT(f, "addi %0, %1, 4", 1, cc_r(r[D]), cc_r(r[D])) || CC_EMIT(f, "csrw print, %0", 0, cc_r(r[D])) ||
      CC_EMIT(f, "sw zero, 0(%0)", 0, cc_r(r[L])) || CC_EMIT(f, "9: addi zero, zero, 0", 0))
    return -1;
  f->uses_printf = 1;
  int k = cc_val_num(f, call);
  if (!LLVMGetFirstUse(call)) return 0;
  int d = cc_new_vreg(f, f->div[k] ? CC_V : CC_S); /* printf returns 0 */
  if (d < 0 || CC_EMIT(f, f->div[k] ? "vmv.v.i %0, 0" : "mv %0, zero", 1, cc_r(d))) return -1;
  f->vreg[k] = d;
  return 0;
}
