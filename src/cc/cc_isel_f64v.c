/* double on revision 2025 (cc_lower_f64.c): the __cy_v64_* primitives as the
 * vector unit's SEW-64 float instructions (docs/isa-extensions.md "Half and
 * double precision"). A double is held as a long, two independent words
 * (cc_isel_i64.c); a SEW-64 element is an even-aligned register pair, so
 * each operand is copied into a pair (class CC_VP, placed by the allocator)
 * and the result copied out. The SEW-64 instruction is one template with
 * its vsetvli around it, so the vtype is e32 (start.S's) between templates,
 * where the allocator may put spill code. The conversions to and from
 * 32-bit values are the widening and narrowing forms at SEW 32. */
#include <string.h>

#include "cc_internal.h"

#define E64(insn) "vsetvli zero, zero, e64, m1, ta, ma\n        " insn "\n        vsetvli zero, zero, e32, m1, ta, ma"

enum {
  K_BIN,  /* pair = pair op pair */
  K_UN,   /* pair = op pair */
  K_FMA,  /* pair = a * b + c */
  K_CMP,  /* 0/1 word = pair op pair */
  K_WIDE, /* pair = op word, at SEW 32 */
  K_NARR  /* word = op pair, at SEW 32 */
};

static const struct {
  const char *name, *fmt;
  int kind;
} prims[] = {
    {"__cy_v64_add", E64("vfadd.vv %0, %1, %2"), K_BIN},
    {"__cy_v64_sub", E64("vfsub.vv %0, %1, %2"), K_BIN},
    {"__cy_v64_mul", E64("vfmul.vv %0, %1, %2"), K_BIN},
    {"__cy_v64_div", E64("vfdiv.vv %0, %1, %2"), K_BIN},
    {"__cy_v64_min", E64("vfmin.vv %0, %1, %2"), K_BIN},
    {"__cy_v64_max", E64("vfmax.vv %0, %1, %2"), K_BIN},
    {"__cy_v64_sqrt", E64("vfsqrt.v %0, %1"), K_UN},
    {"__cy_v64_fma", E64("vfmacc.vv %0, %1, %2"), K_FMA}, /* vd = vs1 * vs2 + vd */
    {"__cy_v64_feq", E64("vmfeq.vv %0, %1, %2"), K_CMP},
    {"__cy_v64_flt", E64("vmflt.vv %0, %1, %2"), K_CMP},
    {"__cy_v64_fle", E64("vmfle.vv %0, %1, %2"), K_CMP},
    {"__cy_v64_i64tod", E64("vfcvt.f.x.v %0, %1"), K_UN},
    {"__cy_v64_u64tod", E64("vfcvt.f.xu.v %0, %1"), K_UN},
    {"__cy_v64_dtoi64", E64("vfcvt.rtz.x.f.v %0, %1"), K_UN},
    {"__cy_v64_dtou64", E64("vfcvt.rtz.xu.f.v %0, %1"), K_UN},
    {"__cy_v64_i32tod", "vfwcvt.f.x.v %0, %1", K_WIDE},
    {"__cy_v64_u32tod", "vfwcvt.f.xu.v %0, %1", K_WIDE},
    {"__cy_v64_ftod", "vfwcvt.f.f.v %0, %1", K_WIDE},
    {"__cy_v64_dtoi32", "vfncvt.rtz.x.f.w %0, %1", K_NARR},
    {"__cy_v64_dtou32", "vfncvt.rtz.xu.f.w %0, %1", K_NARR},
    {"__cy_v64_dtof", "vfncvt.f.f.w %0, %1", K_NARR},
};

/* operand i (a double or a long) copied into a new pair */
static int pair_in(cc_fn *f, LLVMValueRef call, unsigned i) {
  int w[2], p;
  if (cc_i64_pair(f, LLVMGetOperand(call, i), 1, w) || (p = cc_new_vreg(f, CC_VP)) < 0) return -1;
  if (CC_EMIT(f, "vmv.v.v %0, %1", 1, cc_r(p), cc_r(w[0])) || CC_EMIT(f, "vmv.v.v %h0, %1", 1, cc_r(p), cc_r(w[1])))
    return -1;
  return p;
}

/* the pair p as the call's result (two words) */
static int pair_out(cc_fn *f, LLVMValueRef call, int p) {
  int w[2] = {cc_new_vreg(f, CC_V), cc_new_vreg(f, CC_V)};
  if (w[0] < 0 || w[1] < 0 || CC_EMIT(f, "vmv.v.v %0, %1", 1, cc_r(w[0]), cc_r(p)) ||
      CC_EMIT(f, "vmv.v.v %0, %h1", 1, cc_r(w[1]), cc_r(p)))
    return -1;
  return cc_i64_set(f, call, w);
}

static int word_out(cc_fn *f, LLVMValueRef call, int r) {
  int k = cc_val_num(f, call);
  if (k < 0) return -1;
  f->vreg[k] = r;
  return 0;
}

static int select_prim(cc_fn *f, LLVMValueRef call, const char *fmt, int kind) {
  int a = -1, b = -1, d = -1;
  switch (kind) {
  case K_BIN:
  case K_CMP:
    if ((a = pair_in(f, call, 0)) < 0 || (b = pair_in(f, call, 1)) < 0) return -1;
    if ((d = cc_new_vreg(f, kind == K_CMP ? CC_V : CC_VP)) < 0 || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a), cc_r(b))) return -1;
    return kind == K_CMP ? word_out(f, call, d) : pair_out(f, call, d);
  case K_UN:
    if ((a = pair_in(f, call, 0)) < 0 || (d = cc_new_vreg(f, CC_VP)) < 0 || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a))) return -1;
    return pair_out(f, call, d);
  case K_FMA: /* the accumulator pair starts as c */
    if ((a = pair_in(f, call, 0)) < 0 || (b = pair_in(f, call, 1)) < 0 || (d = pair_in(f, call, 2)) < 0 ||
        CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a), cc_r(b)))
      return -1;
    return pair_out(f, call, d);
  case K_WIDE:
    if ((a = cc_vec(f, LLVMGetOperand(call, 0))) < 0 || (d = cc_new_vreg(f, CC_VP)) < 0 ||
        CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a)))
      return -1;
    return pair_out(f, call, d);
  default: /* K_NARR */
    if ((a = pair_in(f, call, 0)) < 0 || (d = cc_new_vreg(f, CC_V)) < 0 || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a)))
      return -1;
    return word_out(f, call, d);
  }
}

int cc_select_f64v(cc_fn *f, LLVMValueRef call, const char *name) {
  if (strncmp(name, "__cy_v64_", 9)) return -1;
  for (size_t i = 0; i < sizeof prims / sizeof *prims; i++)
    if (!strcmp(name, prims[i].name)) return select_prim(f, call, prims[i].fmt, prims[i].kind) ? -2 : 0;
  cc_unsupported(f, call, "the double primitive '%s' (a compiler defect)", name);
  return -2;
}
