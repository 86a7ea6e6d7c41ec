/* half on revision 2025 (cc_lower_f16.c): the __cy_v16_* primitives as the
 * vector unit's SEW-16 float instructions (docs/isa-extensions.md "Half and
 * double precision"). A half is 16-bit data in a 32-bit register, held
 * zero-extended, which is how a SEW-16 write leaves it; a SEW-16 read uses
 * the low 16 bits. So the operands are the registers themselves; only the
 * conversions to and from float name a 2*SEW operand, which the unit wants
 * on an even register (class CC_VP, its low register used). Each
 * instruction is one template with its vsetvli around it, so the vtype is
 * e32 (start.S's) between templates, where the allocator may put spills. */
#include <string.h>

#include "cc_internal.h"

#define E16(insn) "vsetvli zero, zero, e16, m1, ta, ma\n        " insn "\n        vsetvli zero, zero, e32, m1, ta, ma"

enum {
  K_BIN,  /* half = half op half; a 0/1 word for the compares */
  K_UN,   /* half = op half */
  K_FMA,  /* half = a * b + c */
  K_WIDE, /* float = half, vd even */
  K_NARR  /* half = float, vs2 even */
};

static const struct {
  const char *name, *fmt;
  int kind;
} prims[] = {
    {"__cy_v16_add", E16("vfadd.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_sub", E16("vfsub.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_mul", E16("vfmul.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_div", E16("vfdiv.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_min", E16("vfmin.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_max", E16("vfmax.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_feq", E16("vmfeq.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_flt", E16("vmflt.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_fle", E16("vmfle.vv %0, %1, %2"), K_BIN},
    {"__cy_v16_sqrt", E16("vfsqrt.v %0, %1"), K_UN},
    {"__cy_v16_fma", E16("vfmacc.vv %0, %1, %2"), K_FMA}, /* vd = vs1 * vs2 + vd */
    {"__cy_v16_htof", E16("vfwcvt.f.f.v %0, %1"), K_WIDE},
    {"__cy_v16_ftoh", E16("vfncvt.f.f.w %0, %1"), K_NARR},
};

static int select_prim(cc_fn *f, LLVMValueRef call, const char *fmt, int kind) {
  int k = cc_val_num(f, call), a = cc_vec(f, LLVMGetOperand(call, 0)), b = -1, d = -1, p = -1;
  if (k < 0 || a < 0) return -1;
  switch (kind) {
  case K_BIN:
    if ((b = cc_vec(f, LLVMGetOperand(call, 1))) < 0 || (d = cc_new_vreg(f, CC_V)) < 0 ||
        CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a), cc_r(b)))
      return -1;
    break;
  case K_UN:
    if ((d = cc_new_vreg(f, CC_V)) < 0 || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a))) return -1;
    break;
  case K_FMA: { /* the accumulator starts as c */
    int c = cc_vec(f, LLVMGetOperand(call, 2));
    if ((b = cc_vec(f, LLVMGetOperand(call, 1))) < 0 || c < 0 || (d = cc_new_vreg(f, CC_V)) < 0 ||
        CC_EMIT(f, "vmv.v.v %0, %1", 1, cc_r(d), cc_r(c)) || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a), cc_r(b)))
      return -1;
    break;
  }
  case K_WIDE:
    if ((p = cc_new_vreg(f, CC_VP)) < 0 || (d = cc_new_vreg(f, CC_V)) < 0 || CC_EMIT(f, fmt, 1, cc_r(p), cc_r(a)) ||
        CC_EMIT(f, "vmv.v.v %0, %1", 1, cc_r(d), cc_r(p)))
      return -1;
    break;
  default: /* K_NARR */
    if ((p = cc_new_vreg(f, CC_VP)) < 0 || (d = cc_new_vreg(f, CC_V)) < 0 ||
        CC_EMIT(f, "vmv.v.v %0, %1", 1, cc_r(p), cc_r(a)) || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(p)))
      return -1;
  }
  f->vreg[k] = d;
  return 0;
}

int cc_select_f16v(cc_fn *f, LLVMValueRef call, const char *name) {
  if (strncmp(name, "__cy_v16_", 9)) return -1;
  for (size_t i = 0; i < sizeof prims / sizeof *prims; i++)
    if (!strcmp(name, prims[i].name)) return select_prim(f, call, prims[i].fmt, prims[i].kind) ? -2 : 0;
  cc_unsupported(f, call, "the half primitive '%s' (a compiler defect)", name);
  return -2;
}
