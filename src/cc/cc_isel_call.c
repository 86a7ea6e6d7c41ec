/* Calls: the OpenCL work-item functions (from the CSRs and the launch
 * metadata block, docs/kernels.md §5, as kernels/lib/workitem.S computes
 * them), barrier, the math builtins that map onto one instruction, and the
 * LLVM intrinsics the optimiser introduces. Calls to anything else would
 * need the calling convention, which this compiler does not implement yet:
 * functions are inlined before selection. */
#include <string.h>

#include "cc_internal.h"

static int cc_vec_needed(cc_fn *f, LLVMValueRef v);

enum {
  B_NONE, B_GLOBAL_ID, B_LOCAL_ID, B_GROUP_ID, B_LOCAL_SIZE, B_GLOBAL_SIZE, B_NUM_GROUPS, B_GLOBAL_OFFSET,
  B_WORK_DIM, B_BARRIER, B_FENCE, B_NOP, B_SQRT, B_FABS, B_FMA, B_FMIN, B_FMAX, B_SMIN, B_SMAX, B_UMIN,
  B_UMAX, B_RSQRT, B_FDIV, B_COPYSIGN, B_ABS, B_RECIP, B_EXP, B_MEMCPY, B_MEMSET, B_FLOOR, B_CEIL, B_TRUNC,
  B_RINT, B_ROUND, B_SCLAMP, B_UCLAMP, B_FCLAMP
};

static const struct {
  const char *name;
  int kind, prefix; /* prefix: the name only has to start with it */
} builtins[] = {
    {"_Z13get_global_idj", B_GLOBAL_ID, 0}, {"_Z12get_local_idj", B_LOCAL_ID, 0},
    {"_Z12get_group_idj", B_GROUP_ID, 0}, {"_Z14get_local_sizej", B_LOCAL_SIZE, 0},
    {"_Z15get_global_sizej", B_GLOBAL_SIZE, 0}, {"_Z14get_num_groupsj", B_NUM_GROUPS, 0},
    {"_Z17get_global_offsetj", B_GLOBAL_OFFSET, 0}, {"_Z12get_work_dimv", B_WORK_DIM, 0},
    {"_Z7barrierj", B_BARRIER, 0}, {"_Z18work_group_barrierj", B_BARRIER, 1},
    {"_Z9mem_fencej", B_FENCE, 0}, {"_Z14read_mem_fencej", B_FENCE, 0}, {"_Z15write_mem_fencej", B_FENCE, 0},
    {"llvm.lifetime.", B_NOP, 1}, {"llvm.dbg.", B_NOP, 1}, {"llvm.assume", B_NOP, 1},
    {"llvm.experimental.noalias.scope.decl", B_NOP, 1},
    {"llvm.memcpy.", B_MEMCPY, 1}, {"llvm.memmove.", B_MEMCPY, 1}, {"llvm.memset.", B_MEMSET, 1},
    {"llvm.sqrt.f32", B_SQRT, 0}, {"_Z4sqrtf", B_SQRT, 0}, {"_Z11native_sqrtf", B_SQRT, 0}, {"_Z9half_sqrtf", B_SQRT, 0},
    {"llvm.fabs.f32", B_FABS, 0}, {"_Z4fabsf", B_FABS, 0},
    {"llvm.fmuladd.f32", B_FMA, 0}, {"llvm.fma.f32", B_FMA, 0}, {"_Z3fmafff", B_FMA, 0}, {"_Z3madfff", B_FMA, 0},
    {"llvm.minnum.f32", B_FMIN, 0}, {"_Z4fminff", B_FMIN, 0}, {"_Z3minff", B_FMIN, 0},
    {"llvm.maxnum.f32", B_FMAX, 0}, {"_Z4fmaxff", B_FMAX, 0}, {"_Z3maxff", B_FMAX, 0},
    {"llvm.smin.i32", B_SMIN, 0}, {"_Z3minii", B_SMIN, 0}, {"llvm.smax.i32", B_SMAX, 0}, {"_Z3maxii", B_SMAX, 0},
    {"llvm.umin.i32", B_UMIN, 0}, {"_Z3minjj", B_UMIN, 0}, {"llvm.umax.i32", B_UMAX, 0}, {"_Z3maxjj", B_UMAX, 0},
    {"_Z5rsqrtf", B_RSQRT, 0}, {"_Z12native_rsqrtf", B_RSQRT, 0}, {"_Z10half_rsqrtf", B_RSQRT, 0},
    {"_Z13native_divideff", B_FDIV, 0}, {"_Z11half_divideff", B_FDIV, 0},
    {"_Z12native_recipf", B_RECIP, 0}, {"_Z10half_recipf", B_RECIP, 0},
    {"llvm.copysign.f32", B_COPYSIGN, 0}, {"_Z8copysignff", B_COPYSIGN, 0},
    {"llvm.abs.i32", B_ABS, 0}, {"_Z3absi", B_ABS, 0},
    {"_Z10native_expf", B_EXP, 0}, {"_Z8half_expf", B_EXP, 0},
    {"llvm.floor.f32", B_FLOOR, 0}, {"_Z5floorf", B_FLOOR, 0}, {"llvm.ceil.f32", B_CEIL, 0}, {"_Z4ceilf", B_CEIL, 0},
    {"llvm.trunc.f32", B_TRUNC, 0}, {"_Z5truncf", B_TRUNC, 0}, {"llvm.rint.f32", B_RINT, 0}, {"_Z4rintf", B_RINT, 0},
    {"llvm.nearbyint.f32", B_RINT, 0}, {"llvm.roundeven.f32", B_RINT, 0}, {"llvm.round.f32", B_ROUND, 0},
    {"_Z5roundf", B_ROUND, 0}, {"_Z5clampiii", B_SCLAMP, 0}, {"_Z5clampjjj", B_UCLAMP, 0},
    {"_Z5clampfff", B_FCLAMP, 0},
};

static int cc_vec_needed(cc_fn *f, LLVMValueRef v) {
  int k = cc_val_num(f, v);
  return k >= 0 && f->div[k];
}

static LLVMValueRef callee(LLVMValueRef call) { return LLVMGetCalledValue(call); }

static int builtin_kind(LLVMValueRef call) {
  LLVMValueRef fn = callee(call);
  size_t len;
  const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : NULL;
  if (!name) return -1;
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
    size_t l = strlen(builtins[i].name);
    if (builtins[i].prefix ? !strncmp(name, builtins[i].name, l) : !strcmp(name, builtins[i].name))
      return builtins[i].kind;
  }
  return -1;
}

int cc_builtin_known(const char *name) {
  for (size_t i = 0; i < sizeof builtins / sizeof *builtins; i++) {
    size_t l = strlen(builtins[i].name);
    if (builtins[i].prefix ? !strncmp(name, builtins[i].name, l) : !strcmp(name, builtins[i].name)) return 1;
  }
  return 0;
}

int cc_call_is_divergent(LLVMValueRef call) {
  switch (builtin_kind(call)) {
  case B_GROUP_ID:
  case B_LOCAL_SIZE:
  case B_GLOBAL_SIZE:
  case B_NUM_GROUPS:
  case B_GLOBAL_OFFSET:
  case B_WORK_DIM:
  case B_BARRIER:
  case B_FENCE:
  case B_NOP:
  case B_MEMCPY:
  case B_MEMSET: return 0;
  case -1:
  case B_GLOBAL_ID:
  case B_LOCAL_ID:
  case B_EXP: return 1; /* exp: computed by the vector unit only */
  default: return 0; /* pure functions of their operands */
  }
}

/* A work-item value computed in the entry block holds for the whole
 * function (the calls of a constant dimension are all there,
 * cc_lower_workitem.c): *slot remembers its register. */
static int memo_get(const cc_fn *f, const int *slot) { return f->cur == 0 && *slot ? *slot - 1 : -1; }
static int memo_put(cc_fn *f, int *slot, int r) {
  if (r >= 0 && f->cur == 0) *slot = r + 1;
  return r;
}

static int knl_word(cc_fn *f, int off) {
  int *w = &f->wi_word[(off / 4) & 15], r = memo_get(f, w);
  if (r >= 0) return r;
  int k = memo_get(f, &f->wi_knl);
  if (k < 0) {
    k = cc_new_vreg(f, CC_S);
    if (k < 0 || CC_EMIT(f, "csrr %0, knl", 1, cc_r(k))) return -1;
    memo_put(f, &f->wi_knl, k);
  }
  r = cc_new_vreg(f, CC_S);
  if (r < 0 || CC_EMIT(f, "lw %0, %2(%1)", 1, cc_r(r), cc_r(k), cc_imm(off))) return -1;
  return memo_put(f, w, r);
}

static int sop(cc_fn *f, const char *fmt, int a, int b) {
  int d = cc_new_vreg(f, CC_S);
  return d < 0 || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a), cc_r(b)) ? -1 : d;
}

static int vop(cc_fn *f, const char *fmt, int a, int b) {
  int d = cc_new_vreg(f, CC_V);
  return d < 0 || CC_EMIT(f, fmt, 1, cc_r(d), cc_r(a), cc_r(b)) ? -1 : d;
}

/* local linear id of each lane: tid + lane */
static int lin_id(cc_fn *f) {
  int r = memo_get(f, &f->wi_lin);
  if (r >= 0) return r;
  int v = cc_new_vreg(f, CC_V), t = cc_new_vreg(f, CC_S);
  if (v < 0 || t < 0 || CC_EMIT(f, "vid.v %0", 1, cc_r(v)) || CC_EMIT(f, "csrr %0, tid", 1, cc_r(t))) return -1;
  return memo_put(f, &f->wi_lin, vop(f, "vadd.vx %0, %1, %2", v, t));
}

static int local_id_new(cc_fn *f, int dim);
static int local_id(cc_fn *f, int dim) {
  int r = memo_get(f, &f->wi_lid[dim]);
  return r >= 0 ? r : memo_put(f, &f->wi_lid[dim], local_id_new(f, dim));
}

static int local_id_new(cc_fn *f, int dim) {
  int l = lin_id(f), lsx = knl_word(f, 24);
  if (l < 0 || lsx < 0) return -1;
  if (dim == 0) return vop(f, "vremu.vx %0, %1, %2", l, lsx);
  int lsy = knl_word(f, 28), p = lsy < 0 ? -1 : sop(f, "mul %0, %1, %2", lsx, lsy);
  if (p < 0) return -1;
  if (dim == 2) return vop(f, "vdivu.vx %0, %1, %2", l, p);
  int t = vop(f, "vremu.vx %0, %1, %2", l, p);
  return t < 0 ? -1 : vop(f, "vdivu.vx %0, %1, %2", t, lsx);
}

static const char *const gid_csr[] = {"csrr %0, gidx", "csrr %0, gidy", "csrr %0, gidz"};

static int group_id(cc_fn *f, int dim) {
  int r = memo_get(f, &f->wi_grp[dim]);
  if (r >= 0) return r;
  r = cc_new_vreg(f, CC_S);
  return r < 0 || CC_EMIT(f, gid_csr[dim], 1, cc_r(r)) ? -1 : memo_put(f, &f->wi_grp[dim], r);
}

static int workitem_dim(cc_fn *f, LLVMValueRef call, int kind, int dim);

/* a dimension known only at run time: all three values (and the one for
 * dimensions above 2), chosen with dim == k ? v_k : rest as a branch-free
 * select (v ^ ((v ^ rest) & (eq - 1))) */
static int workitem_any_dim(cc_fn *f, LLVMValueRef call, int kind, LLVMValueRef dimv) {
  int vec = kind == B_GLOBAL_ID || kind == B_LOCAL_ID || cc_vec_needed(f, dimv);
  int d = vec ? cc_vec(f, dimv) : cc_sreg(f, dimv);
  int one = kind == B_LOCAL_SIZE || kind == B_GLOBAL_SIZE || kind == B_NUM_GROUPS;
  int r = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (d < 0 || r < 0 || CC_EMIT(f, vec ? "vmv.v.i %0, %1" : "li %0, %1", 1, cc_r(r), cc_imm(one))) return -1;
  for (int k = 2; k >= 0; k--) {
    int v = workitem_dim(f, call, kind, k);
    if (v < 0) return -1;
    if (vec && f->rclass[v] == CC_S) {
      int b = cc_new_vreg(f, CC_V);
      if (b < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(b), cc_r(v))) return -1;
      v = b;
    }
    int eq = cc_new_vreg(f, vec ? CC_V : CC_S), m = cc_new_vreg(f, vec ? CC_V : CC_S);
    int x = cc_new_vreg(f, vec ? CC_V : CC_S), y = cc_new_vreg(f, vec ? CC_V : CC_S), n = cc_new_vreg(f, vec ? CC_V : CC_S);
    if (eq < 0 || m < 0 || x < 0 || y < 0 || n < 0) return -1;
    if (vec ? CC_EMIT(f, "vmseq.vi %0, %1, %2", 1, cc_r(eq), cc_r(d), cc_imm(k))
            : (CC_EMIT(f, "addi %0, %1, %2", 1, cc_r(x), cc_r(d), cc_imm(-k)) ||
               CC_EMIT(f, "sltiu %0, %1, 1", 1, cc_r(eq), cc_r(x))))
      return -1;
    /* m = eq - 1: all ones where dim != k; n = v ^ ((v ^ r) & m) */
    if (CC_EMIT(f, vec ? "vadd.vi %0, %1, -1" : "addi %0, %1, -1", 1, cc_r(m), cc_r(eq)) ||
        CC_EMIT(f, vec ? "vxor.vv %0, %1, %2" : "xor %0, %1, %2", 1, cc_r(y), cc_r(v), cc_r(r)) ||
        CC_EMIT(f, vec ? "vand.vv %0, %1, %2" : "and %0, %1, %2", 1, cc_r(x), cc_r(y), cc_r(m)) ||
        CC_EMIT(f, vec ? "vxor.vv %0, %1, %2" : "xor %0, %1, %2", 1, cc_r(n), cc_r(v), cc_r(x)))
      return -1;
    r = n;
  }
  return r;
}

/* work-item functions: the result register (scalar for uniform ones) */
static int workitem(cc_fn *f, LLVMValueRef call, int kind) {
  LLVMValueRef a = LLVMGetNumArgOperands(call) ? LLVMGetOperand(call, 0) : NULL;
  int dim = 0;
  if (kind != B_WORK_DIM) {
    if (!a) return cc_unsupported(f, call, "a work-item function without its dimension");
    if (!LLVMIsAConstantInt(a)) return workitem_any_dim(f, call, kind, a);
    dim = (int)LLVMConstIntGetZExtValue(a);
  }
  return workitem_dim(f, call, kind, dim);
}

static int workitem_dim(cc_fn *f, LLVMValueRef call, int kind, int dim) {
  (void)call;
  if (dim > 2) { /* OpenCL: ids and offsets 0, sizes 1 */
    int one = kind == B_LOCAL_SIZE || kind == B_GLOBAL_SIZE || kind == B_NUM_GROUPS;
    int r = cc_new_vreg(f, CC_S);
    return r < 0 || CC_EMIT(f, "li %0, %1", 1, cc_r(r), cc_imm(one)) ? -1 : r;
  }
  switch (kind) {
  case B_LOCAL_ID: return local_id(f, dim);
  case B_GROUP_ID: return group_id(f, dim);
  case B_LOCAL_SIZE: return knl_word(f, 24 + 4 * dim);
  case B_GLOBAL_SIZE: return knl_word(f, 12 + 4 * dim);
  case B_GLOBAL_OFFSET: return knl_word(f, 36 + 4 * dim);
  case B_WORK_DIM: return knl_word(f, 8);
  case B_NUM_GROUPS: {
    int g = knl_word(f, 12 + 4 * dim), l = knl_word(f, 24 + 4 * dim);
    return g < 0 || l < 0 ? -1 : sop(f, "divu %0, %1, %2", g, l);
  }
  default: { /* global id = group * local size + offset + local id */
    int r = memo_get(f, &f->wi_gid[dim]);
    if (r >= 0) return r;
    int lid = local_id(f, dim), g = group_id(f, dim), ls = knl_word(f, 24 + 4 * dim), off = knl_word(f, 36 + 4 * dim);
    if (lid < 0 || g < 0 || ls < 0 || off < 0) return -1;
    int m = sop(f, "mul %0, %1, %2", g, ls), s = m < 0 ? -1 : sop(f, "add %0, %1, %2", m, off);
    return s < 0 ? -1 : memo_put(f, &f->wi_gid[dim], vop(f, "vadd.vx %0, %1, %2", lid, s));
  }
  }
}

/* one-instruction math: scalar and vector forms, by operand count */
typedef struct {
  int kind;
  const char *s, *v, *vx; /* vx: vector op with the second operand scalar (or NULL) */
} mathop;

static const mathop mathops[] = {
    {B_SQRT, "fsqrt.s %0, %1", "vfsqrt.v %0, %1", NULL},
    {B_FABS, "fsgnjx.s %0, %1, %1", "vfsgnjx.vv %0, %1, %1", NULL},
    {B_FMIN, "fmin.s %0, %1, %2", "vfmin.vv %0, %1, %2", "vfmin.vf %0, %1, %2"},
    {B_FMAX, "fmax.s %0, %1, %2", "vfmax.vv %0, %1, %2", "vfmax.vf %0, %1, %2"},
    {B_SMIN, NULL, "vmin.vv %0, %1, %2", "vmin.vx %0, %1, %2"},
    {B_SMAX, NULL, "vmax.vv %0, %1, %2", "vmax.vx %0, %1, %2"},
    {B_UMIN, NULL, "vminu.vv %0, %1, %2", "vminu.vx %0, %1, %2"},
    {B_UMAX, NULL, "vmaxu.vv %0, %1, %2", "vmaxu.vx %0, %1, %2"},
    {B_FDIV, "fdiv.s %0, %1, %2", "vfdiv.vv %0, %1, %2", "vfdiv.vf %0, %1, %2"},
    {B_COPYSIGN, "fsgnj.s %0, %1, %2", "vfsgnj.vv %0, %1, %2", "vfsgnj.vf %0, %1, %2"},
    {B_EXP, NULL, "vfexp.v %0, %1", NULL},
};

static int is_div_val(cc_fn *f, LLVMValueRef v) {
  int k = cc_val_num(f, v);
  return k >= 0 && f->div[k];
}

static int opnd(cc_fn *f, LLVMValueRef v, int vec) { return vec ? cc_vec(f, v) : cc_sreg(f, v); }

/* floor, ceil, trunc, rint, round: convert to an integer with the matching
 * rounding mode and back, keep the sign of x (-0.5 -> -0); |x| >= 2^23
 * (already integral), infinities and NaNs are x itself. The vector
 * conversion has no rounding-mode field: frm is set around it. */
static int round_to_int(cc_fn *f, LLVMValueRef call, int kind, int vec) {
  static const int frm[] = {2, 3, 1, 0, 4};
  int m = kind - B_FLOOR, x = vec ? cc_vec(f, LLVMGetOperand(call, 0)) : cc_sreg(f, LLVMGetOperand(call, 0));
  int cls = vec ? CC_V : CC_S, i = cc_new_vreg(f, cls), r = cc_new_vreg(f, cls), g = cc_new_vreg(f, cls);
  int ax = cc_new_vreg(f, cls), lim = cc_new_vreg(f, CC_S), sm = cc_new_vreg(f, cls), mk = cc_new_vreg(f, cls);
  int t = cc_new_vreg(f, cls), u = cc_new_vreg(f, cls), d = cc_new_vreg(f, cls), old = cc_new_vreg(f, CC_S);
  if (x < 0 || i < 0 || r < 0 || g < 0 || ax < 0 || lim < 0 || sm < 0 || mk < 0 || t < 0 || u < 0 || d < 0 || old < 0)
    return -1;
  if (vec) {
    if (CC_EMIT(f, "csrrwi %0, frm, %1", 1, cc_r(old), cc_imm(frm[m])) || CC_EMIT(f, "vfcvt.x.f.v %0, %1", 1, cc_r(i), cc_r(x)) ||
        CC_EMIT(f, "csrw frm, %0", 0, cc_r(old)) || CC_EMIT(f, "vfcvt.f.x.v %0, %1", 1, cc_r(r), cc_r(i)) ||
        CC_EMIT(f, "vfsgnj.vv %0, %1, %2", 1, cc_r(g), cc_r(r), cc_r(x)) ||
        CC_EMIT(f, "vfsgnjx.vv %0, %1, %1", 1, cc_r(ax), cc_r(x)) || CC_EMIT(f, "li %0, 0x4b000000", 1, cc_r(lim)) ||
        CC_EMIT(f, "vmflt.vf %0, %1, %2", 1, cc_r(sm), cc_r(ax), cc_r(lim)) ||
        CC_EMIT(f, "vrsub.vi %0, %1, 0", 1, cc_r(mk), cc_r(sm)) || CC_EMIT(f, "vxor.vv %0, %1, %2", 1, cc_r(t), cc_r(x), cc_r(g)) ||
        CC_EMIT(f, "vand.vv %0, %1, %2", 1, cc_r(u), cc_r(t), cc_r(mk)) || CC_EMIT(f, "vxor.vv %0, %1, %2", 1, cc_r(d), cc_r(x), cc_r(u)))
      return -1;
    return d;
  }
  const char *fmt = m == 0 ? "fcvt.w.s %0, %1, rdn" : m == 1 ? "fcvt.w.s %0, %1, rup" : m == 2 ? "fcvt.w.s %0, %1, rtz"
                   : m == 3 ? "fcvt.w.s %0, %1, rne" : "fcvt.w.s %0, %1, rmm";
  if (CC_EMIT(f, fmt, 1, cc_r(i), cc_r(x)) || CC_EMIT(f, "fcvt.s.w %0, %1", 1, cc_r(r), cc_r(i)) ||
      CC_EMIT(f, "fsgnj.s %0, %1, %2", 1, cc_r(g), cc_r(r), cc_r(x)) || CC_EMIT(f, "fsgnjx.s %0, %1, %1", 1, cc_r(ax), cc_r(x)) ||
      CC_EMIT(f, "li %0, 0x4b000000", 1, cc_r(lim)) || CC_EMIT(f, "flt.s %0, %1, %2", 1, cc_r(sm), cc_r(ax), cc_r(lim)) ||
      CC_EMIT(f, "sub %0, zero, %1", 1, cc_r(mk), cc_r(sm)) || CC_EMIT(f, "xor %0, %1, %2", 1, cc_r(t), cc_r(x), cc_r(g)) ||
      CC_EMIT(f, "and %0, %1, %2", 1, cc_r(u), cc_r(t), cc_r(mk)) || CC_EMIT(f, "xor %0, %1, %2", 1, cc_r(d), cc_r(x), cc_r(u)))
    return -1;
  return d;
}

/* min/max of two scalar integers: x < y, then a branch-free select */
static int scalar_minmax(cc_fn *f, int x, int y, int kind) {
  int lt = kind == B_SMIN || kind == B_SMAX;
  int c = sop(f, lt ? "slt %0, %1, %2" : "sltu %0, %1, %2", x, y); /* x < y */
  if (c < 0) return -1;
  int want_x = kind == B_SMIN || kind == B_UMIN; /* min: x when x < y */
  int mk = cc_new_vreg(f, CC_S);
  if (mk < 0 || CC_EMIT(f, want_x ? "sub %0, zero, %1" : "addi %0, %1, -1", 1, cc_r(mk), cc_r(c))) return -1;
  int t = sop(f, "xor %0, %1, %2", x, y), u = t < 0 ? -1 : sop(f, "and %0, %1, %2", t, mk);
  return u < 0 ? -1 : sop(f, "xor %0, %1, %2", y, u);
}

static int math(cc_fn *f, LLVMValueRef call, int kind, int vec) {
  int n = (int)LLVMGetNumArgOperands(call);
  LLVMValueRef a = LLVMGetOperand(call, 0), b = n > 1 ? LLVMGetOperand(call, 1) : NULL;
  if (!cc_int_width(LLVMTypeOf(call))) return cc_unsupported(f, call, "a math builtin on vectors or doubles");
  if (kind == B_EXP && !vec) vec = 1; /* only the vector unit has exp */
  if (kind >= B_FLOOR && kind <= B_ROUND) return round_to_int(f, call, kind, vec);
  if (kind >= B_SCLAMP) { /* clamp(x, lo, hi) = min(max(x, lo), hi) */
    static const char *const mx[] = {"vmax.vv %0, %1, %2", "vmaxu.vv %0, %1, %2", "vfmax.vv %0, %1, %2"};
    static const char *const mn[] = {"vmin.vv %0, %1, %2", "vminu.vv %0, %1, %2", "vfmin.vv %0, %1, %2"};
    int c = kind - B_SCLAMP;
    if (!vec) {
      int x = cc_sreg(f, a), lo = cc_sreg(f, b), hi = cc_sreg(f, LLVMGetOperand(call, 2));
      if (x < 0 || lo < 0 || hi < 0) return -1;
      if (c == 2) {
        int t = sop(f, "fmax.s %0, %1, %2", x, lo);
        return t < 0 ? -1 : sop(f, "fmin.s %0, %1, %2", t, hi);
      }
      int t = scalar_minmax(f, x, lo, c ? B_UMAX : B_SMAX);
      return t < 0 ? -1 : scalar_minmax(f, t, hi, c ? B_UMIN : B_SMIN);
    }
    int x = cc_vec(f, a), lo = cc_vec(f, b), hi = cc_vec(f, LLVMGetOperand(call, 2));
    int t = x < 0 || lo < 0 ? -1 : vop(f, mx[c], x, lo);
    return t < 0 || hi < 0 ? -1 : vop(f, mn[c], t, hi);
  }
  if (kind == B_FMA) {
    LLVMValueRef c = LLVMGetOperand(call, 2);
    if (!vec) {
      int x = cc_sreg(f, a), y = cc_sreg(f, b), z = cc_sreg(f, c), d = cc_new_vreg(f, CC_S);
      if (x < 0 || y < 0 || z < 0 || d < 0) return -1;
      return CC_EMIT(f, "fmadd.s %0, %1, %2, %3", 1, cc_r(d), cc_r(x), cc_r(y), cc_r(z)) ? -1 : d;
    }
    /* vd = vs1 * vs2 + vd: d starts as a copy of c */
    int z = cc_vec(f, c), d = cc_new_vreg(f, CC_V);
    if (z < 0 || d < 0 || CC_EMIT(f, "vmv.v.v %0, %1", 1, cc_r(d), cc_r(z))) return -1;
    int sa = !is_div_val(f, a), sb = !is_div_val(f, b);
    if (sa || sb) {
      int x = cc_sreg(f, sa ? a : b), y = cc_vec(f, sa ? b : a);
      if (x < 0 || y < 0) return -1;
      return CC_EMIT(f, "vfmacc.vf %0, %1, %2", 1, cc_r(d), cc_r(x), cc_r(y), cc_r(d)) ? -1 : d;
    }
    int x = cc_vec(f, a), y = cc_vec(f, b);
    if (x < 0 || y < 0) return -1;
    return CC_EMIT(f, "vfmacc.vv %0, %1, %2", 1, cc_r(d), cc_r(x), cc_r(y), cc_r(d)) ? -1 : d;
  }
  if (kind == B_RSQRT || kind == B_RECIP) { /* 1 / sqrt(x), 1 / x: both steps correctly rounded */
    int x = opnd(f, a, vec), d = cc_new_vreg(f, vec ? CC_V : CC_S), one = cc_new_vreg(f, CC_S);
    if (x < 0 || d < 0 || one < 0 || CC_EMIT(f, "li %0, 0x3f800000", 1, cc_r(one))) return -1;
    if (kind == B_RSQRT) {
      int s = cc_new_vreg(f, vec ? CC_V : CC_S);
      if (s < 0 || CC_EMIT(f, vec ? "vfsqrt.v %0, %1" : "fsqrt.s %0, %1", 1, cc_r(s), cc_r(x))) return -1;
      x = s;
    }
    return CC_EMIT(f, vec ? "vfrdiv.vf %0, %1, %2" : "fdiv.s %0, %2, %1", 1, cc_r(d), cc_r(x), cc_r(one)) ? -1 : d;
  }
  if (kind == B_ABS) { /* (x ^ s) - s with s = x >> 31 */
    int x = opnd(f, a, vec), s = cc_new_vreg(f, vec ? CC_V : CC_S);
    if (x < 0 || s < 0 || CC_EMIT(f, vec ? "vsra.vi %0, %1, 31" : "srai %0, %1, 31", 1, cc_r(s), cc_r(x))) return -1;
    int t = vec ? vop(f, "vxor.vv %0, %1, %2", x, s) : sop(f, "xor %0, %1, %2", x, s);
    return t < 0 ? -1 : vec ? vop(f, "vsub.vv %0, %1, %2", t, s) : sop(f, "sub %0, %1, %2", t, s);
  }
  for (size_t i = 0; i < sizeof mathops / sizeof *mathops; i++) {
    const mathop *m = &mathops[i];
    if (m->kind != kind) continue;
    if (!vec && !m->s) { /* integer min/max on scalars: compare and select */
      int x = cc_sreg(f, a), y = cc_sreg(f, b);
      return x < 0 || y < 0 ? -1 : scalar_minmax(f, x, y, kind);
    }
    if (!b) {
      int x = opnd(f, a, vec), d = cc_new_vreg(f, vec ? CC_V : CC_S);
      return x < 0 || d < 0 || CC_EMIT(f, vec ? m->v : m->s, 1, cc_r(d), cc_r(x)) ? -1 : d;
    }
    if (vec && m->vx && !is_div_val(f, b)) {
      int x = cc_vec(f, a), y = cc_sreg(f, b);
      return x < 0 || y < 0 ? -1 : vop(f, m->vx, x, y);
    }
    int x = opnd(f, a, vec), y = opnd(f, b, vec);
    if (x < 0 || y < 0) return -1;
    return vec ? vop(f, m->v, x, y) : sop(f, m->s, x, y);
  }
  return cc_unsupported(f, call, "an unknown builtin");
}

/* ---- memcpy / memmove / memset of a constant, small length ---------------------- */

static unsigned param_align(LLVMValueRef call, unsigned arg) {
  unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, arg + 1, kind);
  return a ? (unsigned)LLVMGetEnumAttributeValue(a) : 1;
}

static int is_private(LLVMValueRef p) { return LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 0; }

/* element i of width w (bytes) at p + i*w: loads into a new vector register / stores v */
static int mem_elem(cc_fn *f, LLVMValueRef p, int addr, int w, int i, int store, int v) {
  static const char *const pl[] = {"vlbu.v %0, %2(%1)", "vlhu.v %0, %2(%1)", "vlw.v %0, %2(%1)"};
  static const char *const ps[] = {"vsb.v %0, %2(%1)", "vsh.v %0, %2(%1)", "vsw.v %0, %2(%1)"};
  static const char *const gl[] = {"vlbu12.v %0, %2(%1)", "vlhu12.v %0, %2(%1)", "vlw12.v %0, %2(%1)"};
  static const char *const gs[] = {"vsb12.v %0, %2(%1)", "vsh12.v %0, %2(%1)", "vsw12.v %0, %2(%1)"};
  int k = w == 1 ? 0 : w == 2 ? 1 : 2, priv = is_private(p);
  if (store) return CC_EMIT(f, priv ? ps[k] : gs[k], 0, cc_r(v), cc_r(addr), cc_imm(i * w));
  int d = cc_new_vreg(f, CC_V);
  return d < 0 || CC_EMIT(f, priv ? pl[k] : gl[k], 1, cc_r(d), cc_r(addr), cc_imm(i * w)) ? -1 : d;
}

static int sel_mem(cc_fn *f, LLVMValueRef call, int kind) {
  LLVMValueRef dst = LLVMGetOperand(call, 0), src = LLVMGetOperand(call, 1), len = LLVMGetOperand(call, 2);
  if (!LLVMIsAConstantInt(len) || LLVMConstIntGetZExtValue(len) > 256)
    return cc_unsupported(f, call, "a memory copy or fill of a variable length or of more than 256 bytes");
  int n = (int)LLVMConstIntGetZExtValue(len);
  unsigned al = param_align(call, 0);
  if (kind == B_MEMCPY && param_align(call, 1) < al) al = param_align(call, 1);
  int w = al >= 4 && n % 4 == 0 ? 4 : al >= 2 && n % 2 == 0 ? 2 : 1;
  int da = cc_vec(f, dst);
  if (da < 0) return -1;
  if (kind == B_MEMSET) {
    int b = cc_sreg(f, src), m = cc_new_vreg(f, CC_S), x = cc_new_vreg(f, CC_S), v = cc_new_vreg(f, CC_V);
    if (b < 0 || m < 0 || x < 0 || v < 0) return -1;
    if (CC_EMIT(f, "li %0, 0x01010101", 1, cc_r(m)) || CC_EMIT(f, "mul %0, %1, %2", 1, cc_r(x), cc_r(b), cc_r(m)) ||
        CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(v), cc_r(x)))
      return -1;
    for (int i = 0; i < n / w; i++)
      if (mem_elem(f, dst, da, w, i, 1, v)) return -1;
    return 0;
  }
  int sa = cc_vec(f, src);
  if (sa < 0) return -1;
  int vals[256];
  for (int i = 0; i < n / w; i++) /* all loads first: memmove may overlap */
    if ((vals[i] = mem_elem(f, src, sa, w, i, 0, 0)) < 0) return -1;
  for (int i = 0; i < n / w; i++)
    if (mem_elem(f, dst, da, w, i, 1, vals[i])) return -1;
  return 0;
}

int cc_select_call(cc_fn *f, LLVMValueRef call, int vec) {
  int kind = builtin_kind(call);
  int k = cc_val_num(f, call);
  if (kind < 0) {
    size_t len = 0;
    LLVMValueRef fn = callee(call);
    const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
    if (len == 6 && !strcmp(name, "printf")) return cc_select_printf(f, call);
    int at = *name ? cc_select_atomic_call(f, call, name) : -1;
    if (at == -1 && *name) at = cc_select_bits_call(f, call, name);
    if (at == -1 && *name) at = cc_select_convert_call(f, call, name);
    if (at == -1 && *name) at = cc_select_f64v(f, call, name); /* double on revision 2025 */
    if (at == -1 && *name) at = cc_select_f16v(f, call, name); /* half on revision 2025 */
    if (at == -1 && *name) at = cc_select_fixed(f, call, name); /* hadd, mul_hi, saturation at their width */
    if (at != -1) return at ? -1 : 0;
    if (fn && LLVMIsAFunction(fn) && LLVMGetFirstBasicBlock(fn) && LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
      return cc_select_fn_call(f, call);
    if (LLVMIsAInlineAsm(LLVMGetCalledValue(call)))
      return cc_unsupported(f, call, "inline assembly (an asm statement) is not supported");
    if (fn && LLVMIsAFunction(fn) && LLVMGetFirstBasicBlock(fn))
      return cc_unsupported(f, call, "a call of '%.*s' that was not inlined (a kernel called as a function)", (int)len, name);
    return cc_unsupported(f, call, "the builtin function '%.*s' is not supported yet", (int)len, len ? name : "(indirect call)");
  }
  if (kind == B_NOP || kind == B_FENCE) return 0;
  if (kind == B_MEMCPY || kind == B_MEMSET) return sel_mem(f, call, kind);
  if (kind == B_BARRIER) return CC_EMIT(f, "barrier zero, zero, 0", 0);
  int r = kind <= B_WORK_DIM ? workitem(f, call, kind) : math(f, call, kind, vec && f->div[k]);
  if (r < 0) return -1;
  if (f->div[k] && f->rclass[r] == CC_S) { /* uniform result needed per lane */
    int v = cc_new_vreg(f, CC_V);
    if (v < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(v), cc_r(r))) return -1;
    r = v;
  }
  f->vreg[k] = r;
  return 0;
}
