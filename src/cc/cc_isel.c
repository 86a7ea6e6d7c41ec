/* Instruction selection: LLVM IR of one kernel to machine instructions on
 * virtual registers. Uniform values use scalar instructions, divergent ones
 * the vector (per-lane) forms; a uniform operand of a vector operation is
 * used through the .vx/.vf forms or broadcast. Integers narrower than 32
 * bits are kept zero-extended in their registers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/DebugInfo.h>

#include "cc_internal.h"

cc_opnd cc_r(int vreg) { return (cc_opnd){CC_OP_REG, vreg}; }
cc_opnd cc_imm(int32_t v) { return (cc_opnd){CC_OP_IMM, v}; }
cc_opnd cc_lab(int blk) { return (cc_opnd){CC_OP_LABEL, blk}; }

static int oom(cc_fn *f) { return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name); }

int cc_new_vreg(cc_fn *f, int cls) {
  if (f->nvreg == f->capvreg) {
    int cap = f->capvreg ? f->capvreg * 2 : 256;
    uint8_t *p = realloc(f->rclass, (size_t)cap);
    if (!p) return oom(f);
    f->rclass = p;
    f->capvreg = cap;
  }
  f->rclass[f->nvreg] = (uint8_t)cls;
  return f->nvreg++;
}

int cc_emit_i(cc_fn *f, const char *fmt, int ndefs, int nops, const cc_opnd *ops) {
  cc_mblock *b = &f->mb[f->cur];
  if (b->n == b->cap) {
    int cap = b->cap ? b->cap * 2 : 16;
    cc_minst *p = realloc(b->v, sizeof *p * (size_t)cap);
    if (!p) return oom(f);
    b->v = p;
    b->cap = cap;
  }
  cc_minst *m = &b->v[b->n++];
  memset(m, 0, sizeof *m);
  m->fmt = fmt;
  m->ndefs = (uint8_t)ndefs;
  m->nops = (uint8_t)nops;
  for (int i = 0; i < nops && i < 4; i++) m->op[i] = ops[i];
  return 0;
}

/* "file:line" of an instruction's debug location into buf, or 0 */
static int inst_loc(LLVMValueRef in, char *buf, size_t cap) {
  unsigned line = LLVMGetDebugLocLine(in), len = 0;
  const char *file = line ? LLVMGetDebugLocFilename(in, &len) : NULL;
  if (!file || !len) return 0;
  snprintf(buf, cap, "%.*s:%u", (int)len, file, line);
  return 1;
}

const char *cc_where(const cc_fn *f, LLVMValueRef at, char *buf, size_t cap) {
  if (at && LLVMIsAInstruction(at)) { /* its own line, else the nearest one before or after it in its block */
    for (LLVMValueRef in = at; in; in = LLVMGetPreviousInstruction(in))
      if (inst_loc(in, buf, cap)) return buf;
    for (LLVMValueRef in = LLVMGetNextInstruction(at); in; in = LLVMGetNextInstruction(in))
      if (inst_loc(in, buf, cap)) return buf;
  }
  LLVMMetadataRef sp = f->fn ? LLVMGetSubprogram(f->fn) : NULL; /* the function's own line */
  if (!sp) return NULL;
  unsigned line = LLVMDISubprogramGetLine(sp);
  size_t len = 0;
  LLVMMetadataRef file = LLVMDIScopeGetFile(sp);
  const char *name = file ? LLVMDIFileGetFilename(file, (unsigned *)&len) : NULL;
  if (!name || !len || !line) return NULL;
  snprintf(buf, cap, "%.*s:%u", (int)len, name, line);
  return buf;
}

int cc_unsupported(cc_fn *f, LLVMValueRef at, const char *fmt, ...) {
  char what[256], where[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  if (cc_where(f, at, where, sizeof where))
    return vt_fail(f->e, VT_ERR_ASM, "%s: error: %s (kernel %s)", where, what, f->name);
  return vt_fail(f->e, VT_ERR_ASM, "kernel %s: error: %s", f->name, what);
}

int cc_val_num(cc_fn *f, LLVMValueRef v) { return cc_map_get(&f->val, v); }

int cc_int_width(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    return w <= 32 ? (int)w : 0;
  }
  case LLVMPointerTypeKind:
  case LLVMFloatTypeKind: return 32;
  case LLVMHalfTypeKind: return 16; /* its arithmetic is float (cc_lower_f16.c): what is left is 16-bit data */
  default: return 0;
  }
}

static int fits12(int64_t v) { return v >= -2048 && v <= 2047; }
static int fits5(int64_t v) { return v >= -16 && v <= 15; }

static int li(cc_fn *f, int32_t v) {
  int r = cc_new_vreg(f, CC_S);
  if (r < 0 || CC_EMIT(f, "li %0, %1", 1, cc_r(r), cc_imm(v))) return -1;
  return r;
}

/* the value of a constant as 32 bits; -1 if it is not one we handle */
static int const_bits(cc_fn *f, LLVMValueRef v, int32_t *out) {
  if (LLVMIsAConstantInt(v)) {
    int w = cc_int_width(LLVMTypeOf(v));
    if (!w) return cc_unsupported(f, NULL, "a %u-bit integer constant", LLVMGetIntTypeWidth(LLVMTypeOf(v)));
    uint64_t x = LLVMConstIntGetZExtValue(v);
    *out = (int32_t)(uint32_t)(w == 32 ? x : x & ((1ull << w) - 1));
    return 0;
  }
  if (LLVMIsAConstantFP(v)) {
    LLVMTypeKind kind = LLVMGetTypeKind(LLVMTypeOf(v));
    if (kind != LLVMFloatTypeKind && kind != LLVMHalfTypeKind)
      return cc_unsupported(f, NULL, "a floating-point constant that is not a float");
    LLVMBool lost;
    float x = (float)LLVMConstRealGetDouble(v, &lost);
    uint32_t u;
    memcpy(&u, &x, 4);
    *out = (int32_t)(kind == LLVMHalfTypeKind ? cc_half_bits(u) : u);
    return 0;
  }
  if (LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v)) {
    *out = 0;
    return 0;
  }
  return 1; /* not a plain constant */
}

static int sel_gep(cc_fn *f, LLVMValueRef g, int vec);
static int sel_vec_mem(cc_fn *f, LLVMValueRef in, LLVMValueRef p, LLVMValueRef v, int32_t off, int vec);
static int vec_len(LLVMTypeRef t);
static int *group_of(cc_fn *f, LLVMValueRef v, int vec);
static int set_group(cc_fn *f, LLVMValueRef in, int *g);

/* An address part (a global's address: size 0; a GEP index times size)
 * computed earlier in the block being selected: its register, or -1.
 * Registers of a block's values are written once and are not changed
 * before its end (phi copies come last), so a hit is the same value. */
static int addr_memo_get(const cc_fn *f, LLVMValueRef key, uint64_t size, int vec) {
  for (int i = 0; i < f->addr_used; i++)
    if (f->addr_memo[i].key == key && f->addr_memo[i].blk == f->cur && f->addr_memo[i].size == size &&
        f->addr_memo[i].vec == vec)
      return f->addr_memo[i].reg;
  return -1;
}

static int addr_memo_put(cc_fn *f, LLVMValueRef key, uint64_t size, int vec, int reg) {
  if (reg < 0) return reg;
  int n = (int)(sizeof f->addr_memo / sizeof *f->addr_memo), i = f->addr_next;
  f->addr_memo[i].key = key;
  f->addr_memo[i].size = size;
  f->addr_memo[i].blk = f->cur;
  f->addr_memo[i].vec = vec;
  f->addr_memo[i].reg = reg;
  f->addr_next = (i + 1) % n;
  if (f->addr_used < n) f->addr_used++;
  return reg;
}

static int global_addr_new(cc_fn *f, LLVMValueRef g);

/* a global variable's address */
static int global_addr(cc_fn *f, LLVMValueRef g) {
  int r = addr_memo_get(f, g, 0, 0);
  return r >= 0 ? r : addr_memo_put(f, g, 0, 0, global_addr_new(f, g));
}

static int global_addr_new(cc_fn *f, LLVMValueRef g) {
  int r = cc_new_vreg(f, CC_S);
  if (r < 0) return -1;
  int off = f->lds_off ? cc_map_get(f->lds_off, g) : -1;
  if (off >= 0) { /* static __local data, above the warp stacks at s0 */
    if (fits12(off)) return CC_EMIT(f, "addi %0, s0, %1", 1, cc_r(r), cc_imm(off)) ? -1 : r;
    int t = li(f, off);
    return t < 0 || CC_EMIT(f, "add %0, s0, %1", 1, cc_r(r), cc_r(t)) ? -1 : r;
  }
  /* program-scope data: cc_emit.c writes it under its own label */
  size_t len;
  LLVMGetValueName2(g, &len);
  if (!len) return cc_unsupported(f, NULL, "an unnamed global variable");
  int s = cc_map_get(f->gsyms, g);
  if (s < 0) {
    s = (int)f->gsyms->n;
    if (cc_map_put(f->gsyms, g, s)) return oom(f);
  }
  return CC_EMIT(f, "la %0, %1", 1, cc_r(r), ((cc_opnd){CC_OP_SYM, s})) ? -1 : r;
}

int cc_sreg(cc_fn *f, LLVMValueRef v) {
  int32_t bits;
  int c = const_bits(f, v, &bits);
  if (c < 0) return -1;
  if (!c) {
    if (!bits) {
      int r = cc_new_vreg(f, CC_S);
      return r < 0 || CC_EMIT(f, "mv %0, zero", 1, cc_r(r)) ? -1 : r;
    }
    return li(f, bits);
  }
  int k = cc_map_get(&f->val, v);
  if (k >= 0) {
    if (f->div[k] || f->vreg[k] < 0)
      return vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a per-work-item value used as a uniform one", f->name);
    return f->vreg[k];
  }
  if (LLVMIsAGlobalVariable(v)) return global_addr(f, v);
  if (LLVMIsAConstantExpr(v)) {
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op == LLVMGetElementPtr) return sel_gep(f, v, 0);
    if (op == LLVMBitCast || op == LLVMAddrSpaceCast || op == LLVMPtrToInt || op == LLVMIntToPtr)
      return cc_sreg(f, LLVMGetOperand(v, 0));
  }
  if (LLVMIsAFunction(v)) return cc_unsupported(f, NULL, "a function used as a value");
  return cc_unsupported(f, NULL, "a constant of a kind the compiler does not handle");
}

int cc_vec(cc_fn *f, LLVMValueRef v) {
  int k = cc_map_get(&f->val, v);
  if (k >= 0 && f->div[k]) {
    if (f->vreg[k] < 0) return vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a value used before it is defined", f->name);
    return f->vreg[k];
  }
  int32_t bits;
  int c = const_bits(f, v, &bits);
  if (c < 0) return -1;
  int r = cc_new_vreg(f, CC_V);
  if (r < 0) return -1;
  if (!c && fits5(bits)) return CC_EMIT(f, "vmv.v.i %0, %1", 1, cc_r(r), cc_imm(bits)) ? -1 : r;
  int s = cc_sreg(f, v);
  if (s < 0) return -1;
  return CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(r), cc_r(s)) ? -1 : r;
}

static int is_div(cc_fn *f, LLVMValueRef v) {
  int k = cc_map_get(&f->val, v);
  return k >= 0 && f->div[k];
}

/* the register an instruction's result goes to */
static int defreg(cc_fn *f, LLVMValueRef in) {
  int k = cc_map_get(&f->val, in);
  if (f->vreg[k] < 0) f->vreg[k] = cc_new_vreg(f, f->div[k] ? CC_V : CC_S);
  return f->vreg[k];
}

/* narrow integers: keep zero-extended (mask) / sign-extend for signed use */
static int mask_to(cc_fn *f, int r, int vec, int w) {
  if (w >= 32) return r;
  int d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (d < 0) return -1;
  if (w == 1)
    return CC_EMIT(f, vec ? "vand.vi %0, %1, 1" : "andi %0, %1, 1", 1, cc_r(d), cc_r(r)) ? -1 : d;
  if (w == 8 && !vec) return CC_EMIT(f, "andi %0, %1, 255", 1, cc_r(d), cc_r(r)) ? -1 : d;
  int t = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (t < 0) return -1;
  if (CC_EMIT(f, vec ? "vsll.vi %0, %1, %2" : "slli %0, %1, %2", 1, cc_r(t), cc_r(r), cc_imm(32 - w))) return -1;
  return CC_EMIT(f, vec ? "vsrl.vi %0, %1, %2" : "srli %0, %1, %2", 1, cc_r(d), cc_r(t), cc_imm(32 - w)) ? -1 : d;
}

static int sext_from(cc_fn *f, int r, int vec, int w) {
  if (w >= 32) return r;
  int t = cc_new_vreg(f, vec ? CC_V : CC_S), d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (t < 0 || d < 0) return -1;
  if (CC_EMIT(f, vec ? "vsll.vi %0, %1, %2" : "slli %0, %1, %2", 1, cc_r(t), cc_r(r), cc_imm(32 - w))) return -1;
  return CC_EMIT(f, vec ? "vsra.vi %0, %1, %2" : "srai %0, %1, %2", 1, cc_r(d), cc_r(t), cc_imm(32 - w)) ? -1 : d;
}

/* an operand in the requested form, sign-extended if asked */
static int operand(cc_fn *f, LLVMValueRef v, int vec, int sext) {
  int w = cc_int_width(LLVMTypeOf(v));
  /* a narrow constant sign-extended here, not by two shifts at run time */
  if (sext && w > 1 && w < 32 && LLVMIsAConstantInt(v)) return cc_xk(f, vec, (int32_t)LLVMConstIntGetSExtValue(v));
  int r = vec ? cc_vec(f, v) : cc_sreg(f, v);
  if (r < 0) return -1;
  return sext && w && w < 32 ? sext_from(f, r, vec, w) : r;
}

int cc_operand(cc_fn *f, LLVMValueRef v, int vec, int sext) { return operand(f, v, vec, sext); }
int *cc_group_of(cc_fn *f, LLVMValueRef v, int vec) { return group_of(f, v, vec); }
int cc_set_group(cc_fn *f, LLVMValueRef in, int *g) { return set_group(f, in, g); }
int cc_mask_to(cc_fn *f, int r, int vec, int w) { return mask_to(f, r, vec, w); }

/* moves the value of v into register d (phi copies) */
static int copy_into(cc_fn *f, int d, LLVMValueRef v) {
  int vec = f->rclass[d] == CC_V;
  if (vec && !is_div(f, v)) {
    int32_t bits;
    int c = const_bits(f, v, &bits);
    if (c < 0) return -1;
    if (!c && fits5(bits)) return CC_EMIT(f, "vmv.v.i %0, %1", 1, cc_r(d), cc_imm(bits));
  }
  int s = vec ? cc_vec(f, v) : cc_sreg(f, v);
  if (s < 0) return -1;
  return CC_EMIT(f, vec ? "vmv.v.v %0, %1" : "mv %0, %1", 1, cc_r(d), cc_r(s));
}

/* ---- arithmetic ------------------------------------------------------------- */

typedef struct {
  LLVMOpcode op;
  const char *s, *si, *v, *vx, *vi;
  int commut, sgn, keeps; /* commutative, signed operands, result stays zero-extended */
} binop;

static const binop binops[] = {
    {LLVMAdd, "add %0, %1, %2", "addi %0, %1, %2", "vadd.vv %0, %1, %2", "vadd.vx %0, %1, %2", "vadd.vi %0, %1, %2", 1, 0, 0},
    {LLVMSub, "sub %0, %1, %2", NULL, "vsub.vv %0, %1, %2", "vsub.vx %0, %1, %2", NULL, 0, 0, 0},
    {LLVMMul, "mul %0, %1, %2", NULL, "vmul.vv %0, %1, %2", "vmul.vx %0, %1, %2", NULL, 1, 0, 0},
    {LLVMUDiv, "divu %0, %1, %2", NULL, "vdivu.vv %0, %1, %2", "vdivu.vx %0, %1, %2", NULL, 0, 0, 1},
    {LLVMSDiv, "div %0, %1, %2", NULL, "vdiv.vv %0, %1, %2", "vdiv.vx %0, %1, %2", NULL, 0, 1, 0},
    {LLVMURem, "remu %0, %1, %2", NULL, "vremu.vv %0, %1, %2", "vremu.vx %0, %1, %2", NULL, 0, 0, 1},
    {LLVMSRem, "rem %0, %1, %2", NULL, "vrem.vv %0, %1, %2", "vrem.vx %0, %1, %2", NULL, 0, 1, 0},
    {LLVMShl, "sll %0, %1, %2", "slli %0, %1, %2", "vsll.vv %0, %1, %2", "vsll.vx %0, %1, %2", "vsll.vi %0, %1, %2", 0, 0, 0},
    {LLVMLShr, "srl %0, %1, %2", "srli %0, %1, %2", "vsrl.vv %0, %1, %2", "vsrl.vx %0, %1, %2", "vsrl.vi %0, %1, %2", 0, 0, 1},
    {LLVMAShr, "sra %0, %1, %2", "srai %0, %1, %2", "vsra.vv %0, %1, %2", "vsra.vx %0, %1, %2", "vsra.vi %0, %1, %2", 0, 1, 0},
    {LLVMAnd, "and %0, %1, %2", "andi %0, %1, %2", "vand.vv %0, %1, %2", "vand.vx %0, %1, %2", "vand.vi %0, %1, %2", 1, 0, 1},
    {LLVMOr, "or %0, %1, %2", "ori %0, %1, %2", "vor.vv %0, %1, %2", "vor.vx %0, %1, %2", "vor.vi %0, %1, %2", 1, 0, 1},
    {LLVMXor, "xor %0, %1, %2", "xori %0, %1, %2", "vxor.vv %0, %1, %2", "vxor.vx %0, %1, %2", "vxor.vi %0, %1, %2", 1, 0, 1},
};

static int is_shift(LLVMOpcode op) { return op == LLVMShl || op == LLVMLShr || op == LLVMAShr; }

static int sel_binop(cc_fn *f, LLVMValueRef in, const binop *b, int vec) {
  LLVMValueRef a = LLVMGetOperand(in, 0), c = LLVMGetOperand(in, 1);
  int w = cc_int_width(LLVMTypeOf(in));
  if (!w) return cc_unsupported(f, in, "%u-bit integer arithmetic", LLVMGetIntTypeWidth(LLVMTypeOf(in)));
  int sx = b->sgn && w < 32, narrow = w < 32 && !b->keeps;
  int raw = narrow ? cc_new_vreg(f, vec ? CC_V : CC_S) : defreg(f, in);
  if (raw < 0) return -1;
  /* immediate forms */
  if (LLVMIsAConstantInt(c) && !sx) {
    int64_t k = LLVMConstIntGetSExtValue(c);
    if (is_shift(b->op)) k &= 31;
    if (!vec && b->op == LLVMSub && fits12(-k)) {
      int ra = operand(f, a, 0, 0);
      if (ra < 0 || CC_EMIT(f, "addi %0, %1, %2", 1, cc_r(raw), cc_r(ra), cc_imm((int32_t)-k))) return -1;
      goto done;
    }
    if (!vec && b->si && (is_shift(b->op) || fits12(k))) {
      int ra = operand(f, a, 0, 0);
      if (ra < 0 || CC_EMIT(f, b->si, 1, cc_r(raw), cc_r(ra), cc_imm((int32_t)k))) return -1;
      goto done;
    }
    if (vec && b->vi && (is_shift(b->op) ? 1 : fits5(k))) {
      int ra = operand(f, a, 1, 0);
      if (ra < 0 || CC_EMIT(f, b->vi, 1, cc_r(raw), cc_r(ra), cc_imm((int32_t)k))) return -1;
      goto done;
    }
    if (vec && b->op == LLVMAdd && fits12(k)) {
      int ra = operand(f, a, 1, 0);
      if (ra < 0 || CC_EMIT(f, "vadd12.vi %0, %1, %2", 1, cc_r(raw), cc_r(ra), cc_imm((int32_t)k))) return -1;
      goto done;
    }
  }
  if (!vec) {
    int ra = operand(f, a, 0, sx), rc = operand(f, c, 0, sx);
    if (ra < 0 || rc < 0 || CC_EMIT(f, b->s, 1, cc_r(raw), cc_r(ra), cc_r(rc))) return -1;
  } else if (!is_div(f, c) || (b->commut && !is_div(f, a))) {
    if (!is_div(f, c)) {
      int ra = operand(f, a, 1, sx), rc = operand(f, c, 0, sx);
      if (ra < 0 || rc < 0 || CC_EMIT(f, b->vx, 1, cc_r(raw), cc_r(ra), cc_r(rc))) return -1;
    } else {
      int ra = operand(f, a, 0, sx), rc = operand(f, c, 1, sx);
      if (ra < 0 || rc < 0 || CC_EMIT(f, b->vx, 1, cc_r(raw), cc_r(rc), cc_r(ra))) return -1;
    }
  } else if (b->op == LLVMSub && !is_div(f, a)) {
    int ra = operand(f, a, 0, 0), rc = operand(f, c, 1, 0);
    if (ra < 0 || rc < 0 || CC_EMIT(f, "vrsub.vx %0, %1, %2", 1, cc_r(raw), cc_r(rc), cc_r(ra))) return -1;
  } else {
    int ra = operand(f, a, 1, sx), rc = operand(f, c, 1, sx);
    if (ra < 0 || rc < 0 || CC_EMIT(f, b->v, 1, cc_r(raw), cc_r(ra), cc_r(rc))) return -1;
  }
done:
  if (narrow) {
    int m = mask_to(f, raw, vec, w);
    if (m < 0) return -1;
    f->vreg[cc_map_get(&f->val, in)] = m;
  }
  return 0;
}

/* ---- compares ---------------------------------------------------------------- */

typedef struct {
  LLVMIntPredicate p;
  const char *s, *v, *vx, *sb, *vb; /* scalar set, vector set, .vx, scalar branch, vector branch */
  int swap, invert, sgn;
  const char *sbz; /* the scalar branch against a constant 0 (b): x0 for it, the target as %1 */
} icmpop;

static const icmpop icmps[] = {
    {LLVMIntEQ, NULL, "vmseq.vv %0, %1, %2", "vmseq.vx %0, %1, %2", "beq %0, %1, %2", "vbeq %0, %1, %2", 0, 0, 0, "beq %0, zero, %1"},
    {LLVMIntNE, NULL, "vmsne.vv %0, %1, %2", "vmsne.vx %0, %1, %2", "bne %0, %1, %2", "vbne %0, %1, %2", 0, 0, 0, "bne %0, zero, %1"},
    {LLVMIntSLT, "slt %0, %1, %2", "vmslt.vv %0, %1, %2", "vmslt.vx %0, %1, %2", "blt %0, %1, %2", "vblt %0, %1, %2", 0, 0, 1, "blt %0, zero, %1"},
    {LLVMIntULT, "sltu %0, %1, %2", "vmsltu.vv %0, %1, %2", "vmsltu.vx %0, %1, %2", "bltu %0, %1, %2", "vbltu %0, %1, %2", 0, 0, 0, "bltu %0, zero, %1"},
    {LLVMIntSLE, "slt %0, %1, %2", "vmsle.vv %0, %1, %2", "vmsle.vx %0, %1, %2", "bge %0, %1, %2", "vbge %0, %1, %2", 1, 1, 1, "bge zero, %0, %1"},
    {LLVMIntULE, "sltu %0, %1, %2", "vmsleu.vv %0, %1, %2", "vmsleu.vx %0, %1, %2", "bgeu %0, %1, %2", "vbgeu %0, %1, %2", 1, 1, 0, "bgeu zero, %0, %1"},
    {LLVMIntSGT, "slt %0, %1, %2", "vmslt.vv %0, %1, %2", "vmsgt.vx %0, %1, %2", "blt %0, %1, %2", "vblt %0, %1, %2", 1, 0, 1, "blt zero, %0, %1"},
    {LLVMIntUGT, "sltu %0, %1, %2", "vmsltu.vv %0, %1, %2", "vmsgtu.vx %0, %1, %2", "bltu %0, %1, %2", "vbltu %0, %1, %2", 1, 0, 0, "bltu zero, %0, %1"},
    {LLVMIntSGE, "slt %0, %1, %2", "vmsle.vv %0, %1, %2", NULL, "bge %0, %1, %2", "vbge %0, %1, %2", 0, 1, 1, "bge %0, zero, %1"},
    {LLVMIntUGE, "sltu %0, %1, %2", "vmsleu.vv %0, %1, %2", NULL, "bgeu %0, %1, %2", "vbgeu %0, %1, %2", 0, 1, 0, "bgeu %0, zero, %1"},
};
/* Reading the table: scalar set-forms compute (swap ? b<a : a<b), inverted
 * when `invert`; vector set-forms of < and > with `swap` take (b, a) in .vv
 * form, while their .vx form (vmsgt) takes (a, b); the .vv forms of <= and
 * >= (vmsle computes a <= b) swap exactly when the scalar form does not;
 * branch forms with `swap` take (b, a)
 * (SLE a,b = bge b,a), the others (a, b) — `invert` is not used by branches. */

static const icmpop *find_icmp(LLVMIntPredicate p) {
  for (size_t i = 0; i < sizeof icmps / sizeof *icmps; i++)
    if (icmps[i].p == p) return &icmps[i];
  return NULL;
}

static int sel_icmp(cc_fn *f, LLVMValueRef in, int vec) {
  const icmpop *c = find_icmp(LLVMGetICmpPredicate(in));
  LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
  if (!c || !cc_int_width(LLVMTypeOf(a))) return cc_unsupported(f, in, "this integer comparison");
  int d = defreg(f, in);
  if (d < 0) return -1;
  if (!vec) {
    int32_t z;
    if (!c->s && !const_bits(f, b, &z) && !z) { /* a == 0, a != 0 */
      int ra = operand(f, a, 0, c->sgn);
      return ra < 0 ? -1
                    : c->p == LLVMIntEQ ? CC_EMIT(f, "sltiu %0, %1, 1", 1, cc_r(d), cc_r(ra))
                                        : CC_EMIT(f, "sltu %0, zero, %1", 1, cc_r(d), cc_r(ra));
    }
    if (c->s && !const_bits(f, b, &z) && !z) { /* a against x0: (swap ? 0 < a : a < 0), maybe inverted */
      int ra = operand(f, a, 0, c->sgn), t = c->invert ? cc_new_vreg(f, CC_S) : d;
      const char *fm = c->swap ? (c->sgn ? "slt %0, zero, %1" : "sltu %0, zero, %1")
                               : (c->sgn ? "slt %0, %1, zero" : "sltu %0, %1, zero");
      if (ra < 0 || t < 0 || CC_EMIT(f, fm, 1, cc_r(t), cc_r(ra))) return -1;
      return c->invert ? CC_EMIT(f, "xori %0, %1, 1", 1, cc_r(d), cc_r(t)) : 0;
    }
    int ra = operand(f, a, 0, c->sgn), rb = operand(f, b, 0, c->sgn);
    if (ra < 0 || rb < 0) return -1;
    if (!c->s) { /* eq / ne */
      int t = cc_new_vreg(f, CC_S);
      if (t < 0 || CC_EMIT(f, "xor %0, %1, %2", 1, cc_r(t), cc_r(ra), cc_r(rb))) return -1;
      return c->p == LLVMIntEQ ? CC_EMIT(f, "sltiu %0, %1, 1", 1, cc_r(d), cc_r(t))
                               : CC_EMIT(f, "sltu %0, zero, %1", 1, cc_r(d), cc_r(t));
    }
    int x = c->swap ? rb : ra, y = c->swap ? ra : rb;
    int t = c->invert ? cc_new_vreg(f, CC_S) : d;
    if (t < 0 || CC_EMIT(f, c->s, 1, cc_r(t), cc_r(x), cc_r(y))) return -1;
    return c->invert ? CC_EMIT(f, "xori %0, %1, 1", 1, cc_r(d), cc_r(t)) : 0;
  }
  int32_t k;
  if ((c->p == LLVMIntEQ || c->p == LLVMIntNE) && !const_bits(f, b, &k) && fits5(k)) { /* vmseq.vi / vmsne.vi */
    int ra = operand(f, a, 1, c->sgn);
    return ra < 0 ? -1
                  : CC_EMIT(f, c->p == LLVMIntEQ ? "vmseq.vi %0, %1, %2" : "vmsne.vi %0, %1, %2", 1, cc_r(d), cc_r(ra),
                            cc_imm(k));
  }
  if (!is_div(f, b) && c->vx) {
    int ra = operand(f, a, 1, c->sgn), rb = operand(f, b, 0, c->sgn);
    return ra < 0 || rb < 0 ? -1 : CC_EMIT(f, c->vx, 1, cc_r(d), cc_r(ra), cc_r(rb));
  }
  int ra = operand(f, a, 1, c->sgn), rb = operand(f, b, 1, c->sgn);
  if (ra < 0 || rb < 0) return -1;
  /* vmsle(u).vv computes a <= b itself: the operands of SLE/ULE stay, those of SGE/UGE swap */
  int swap = c->swap ^ c->invert;
  return CC_EMIT(f, c->v, 1, cc_r(d), cc_r(swap ? rb : ra), cc_r(swap ? ra : rb));
}

enum { FC_EQ, FC_LT, FC_LE, FC_NE };

static int fcmp_base(cc_fn *f, int kind, int a, int b, int vec) {
  static const char *sf[] = {"feq.s %0, %1, %2", "flt.s %0, %1, %2", "fle.s %0, %1, %2"};
  static const char *vf[] = {"vmfeq.vv %0, %1, %2", "vmflt.vv %0, %1, %2", "vmfle.vv %0, %1, %2",
                             "vmfne.vv %0, %1, %2"};
  int d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (d < 0) return -1;
  if (kind == FC_NE && !vec) {
    int t = fcmp_base(f, FC_EQ, a, b, 0);
    return t < 0 || CC_EMIT(f, "xori %0, %1, 1", 1, cc_r(d), cc_r(t)) ? -1 : d;
  }
  return CC_EMIT(f, vec ? vf[kind] : sf[kind], 1, cc_r(d), cc_r(a), cc_r(b)) ? -1 : d;
}

static int logic2(cc_fn *f, const char *s, const char *v, int a, int b, int vec) {
  int d = cc_new_vreg(f, vec ? CC_V : CC_S);
  return d < 0 || CC_EMIT(f, vec ? v : s, 1, cc_r(d), cc_r(a), cc_r(b)) ? -1 : d;
}

static int not1(cc_fn *f, int a, int vec) {
  int d = cc_new_vreg(f, vec ? CC_V : CC_S);
  return d < 0 || CC_EMIT(f, vec ? "vxor.vi %0, %1, 1" : "xori %0, %1, 1", 1, cc_r(d), cc_r(a)) ? -1 : d;
}

static int sel_fcmp(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMValueRef av = LLVMGetOperand(in, 0), bv = LLVMGetOperand(in, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(av)) != LLVMFloatTypeKind) return cc_unsupported(f, in, "a comparison of non-float values");
  int a = operand(f, av, vec, 0), b = operand(f, bv, vec, 0), r;
  if (a < 0 || b < 0) return -1;
  const char *or_s = "or %0, %1, %2", *or_v = "vor.vv %0, %1, %2", *and_s = "and %0, %1, %2", *and_v = "vand.vv %0, %1, %2";
  switch (LLVMGetFCmpPredicate(in)) {
  case LLVMRealOEQ: r = fcmp_base(f, FC_EQ, a, b, vec); break;
  case LLVMRealOLT: r = fcmp_base(f, FC_LT, a, b, vec); break;
  case LLVMRealOLE: r = fcmp_base(f, FC_LE, a, b, vec); break;
  case LLVMRealOGT: r = fcmp_base(f, FC_LT, b, a, vec); break;
  case LLVMRealOGE: r = fcmp_base(f, FC_LE, b, a, vec); break;
  case LLVMRealUNE: r = fcmp_base(f, FC_NE, a, b, vec); break;
  case LLVMRealULT: r = not1(f, fcmp_base(f, FC_LE, b, a, vec), vec); break;
  case LLVMRealULE: r = not1(f, fcmp_base(f, FC_LT, b, a, vec), vec); break;
  case LLVMRealUGT: r = not1(f, fcmp_base(f, FC_LE, a, b, vec), vec); break;
  case LLVMRealUGE: r = not1(f, fcmp_base(f, FC_LT, a, b, vec), vec); break;
  case LLVMRealONE:
  case LLVMRealUEQ: {
    int x = fcmp_base(f, FC_LT, a, b, vec), y = fcmp_base(f, FC_LT, b, a, vec);
    if (x < 0 || y < 0) return -1;
    r = logic2(f, or_s, or_v, x, y, vec);
    if (LLVMGetFCmpPredicate(in) == LLVMRealUEQ) r = not1(f, r, vec);
    break;
  }
  case LLVMRealORD:
  case LLVMRealUNO: {
    int x = fcmp_base(f, FC_EQ, a, a, vec), y = fcmp_base(f, FC_EQ, b, b, vec);
    if (x < 0 || y < 0) return -1;
    r = logic2(f, and_s, and_v, x, y, vec);
    if (LLVMGetFCmpPredicate(in) == LLVMRealUNO) r = not1(f, r, vec);
    break;
  }
  case LLVMRealPredicateTrue:
  case LLVMRealPredicateFalse: {
    int v = LLVMGetFCmpPredicate(in) == LLVMRealPredicateTrue, d = defreg(f, in);
    if (d < 0) return -1;
    return vec ? CC_EMIT(f, "vmv.v.i %0, %1", 1, cc_r(d), cc_imm(v)) : CC_EMIT(f, "li %0, %1", 1, cc_r(d), cc_imm(v));
  }
  default: return cc_unsupported(f, in, "this floating-point comparison");
  }
  if (r < 0) return -1;
  f->vreg[cc_map_get(&f->val, in)] = r;
  return 0;
}

static int sel_fbin(cc_fn *f, LLVMValueRef in, int vec) {
  static const struct {
    LLVMOpcode op;
    const char *s, *v, *vf, *rvf;
  } t[] = {
      {LLVMFAdd, "fadd.s %0, %1, %2", "vfadd.vv %0, %1, %2", "vfadd.vf %0, %1, %2", "vfadd.vf %0, %1, %2"},
      {LLVMFSub, "fsub.s %0, %1, %2", "vfsub.vv %0, %1, %2", "vfsub.vf %0, %1, %2", "vfrsub.vf %0, %1, %2"},
      {LLVMFMul, "fmul.s %0, %1, %2", "vfmul.vv %0, %1, %2", "vfmul.vf %0, %1, %2", "vfmul.vf %0, %1, %2"},
      {LLVMFDiv, "fdiv.s %0, %1, %2", "vfdiv.vv %0, %1, %2", "vfdiv.vf %0, %1, %2", "vfrdiv.vf %0, %1, %2"},
  };
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
  if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMFloatTypeKind)
    return cc_unsupported(f, in, "floating-point arithmetic on a type other than float");
  for (size_t i = 0; i < sizeof t / sizeof *t; i++) {
    if (t[i].op != op) continue;
    int d = defreg(f, in);
    if (d < 0) return -1;
    if (!vec) {
      int ra = cc_sreg(f, a), rb = cc_sreg(f, b);
      return ra < 0 || rb < 0 ? -1 : CC_EMIT(f, t[i].s, 1, cc_r(d), cc_r(ra), cc_r(rb));
    }
    if (!is_div(f, b)) {
      int ra = cc_vec(f, a), rb = cc_sreg(f, b);
      return ra < 0 || rb < 0 ? -1 : CC_EMIT(f, t[i].vf, 1, cc_r(d), cc_r(ra), cc_r(rb));
    }
    if (!is_div(f, a)) {
      int ra = cc_sreg(f, a), rb = cc_vec(f, b);
      return ra < 0 || rb < 0 ? -1 : CC_EMIT(f, t[i].rvf, 1, cc_r(d), cc_r(rb), cc_r(ra));
    }
    int ra = cc_vec(f, a), rb = cc_vec(f, b);
    return ra < 0 || rb < 0 ? -1 : CC_EMIT(f, t[i].v, 1, cc_r(d), cc_r(ra), cc_r(rb));
  }
  return cc_unsupported(f, in, "the floating-point remainder (fmod)");
}

/* ---- casts, select, addresses, memory ------------------------------------------ */

static int alias(cc_fn *f, LLVMValueRef in, LLVMValueRef src, int vec) {
  int k = cc_map_get(&f->val, in);
  int r = vec ? cc_vec(f, src) : cc_sreg(f, src);
  if (r < 0) return -1;
  f->vreg[k] = r;
  return 0;
}

static int sel_cast(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  LLVMValueRef a = LLVMGetOperand(in, 0);
  LLVMTypeRef to = LLVMTypeOf(in), from = LLVMTypeOf(a);
  int wt = cc_int_width(to), wf = cc_int_width(from);
  if (!wt || !wf) return cc_unsupported(f, in, "a conversion involving a type wider than 32 bits or a vector");
  switch (op) {
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMZExt: return alias(f, in, a, vec);
  case LLVMTrunc: {
    int r = operand(f, a, vec, 0);
    int m = r < 0 ? -1 : mask_to(f, r, vec, wt);
    if (m < 0) return -1;
    f->vreg[cc_map_get(&f->val, in)] = m;
    return 0;
  }
  case LLVMSExt: {
    int r = operand(f, a, vec, wf != 1), m; /* wider sources: sign-extended to 32 bits */
    if (r < 0) return -1;
    if (wf == 1) { /* i1: 0/1 -> 0/-1 */
      int d = cc_new_vreg(f, vec ? CC_V : CC_S);
      if (d < 0 || CC_EMIT(f, vec ? "vrsub.vi %0, %1, 0" : "sub %0, zero, %1", 1, cc_r(d), cc_r(r))) return -1;
      r = d;
    }
    if ((m = mask_to(f, r, vec, wt)) < 0) return -1;
    f->vreg[cc_map_get(&f->val, in)] = m;
    return 0;
  }
  case LLVMSIToFP:
  case LLVMUIToFP: {
    int r = operand(f, a, vec, op == LLVMSIToFP), d = defreg(f, in);
    if (r < 0 || d < 0) return -1;
    const char *fm = op == LLVMSIToFP ? (vec ? "vfcvt.f.x.v %0, %1" : "fcvt.s.w %0, %1")
                                      : (vec ? "vfcvt.f.xu.v %0, %1" : "fcvt.s.wu %0, %1");
    return CC_EMIT(f, fm, 1, cc_r(d), cc_r(r));
  }
  case LLVMFPToSI:
  case LLVMFPToUI: {
    int r = operand(f, a, vec, 0), t = cc_new_vreg(f, vec ? CC_V : CC_S);
    if (r < 0 || t < 0) return -1;
    const char *fm = op == LLVMFPToSI ? (vec ? "vfcvt.rtz.x.f.v %0, %1" : "fcvt.w.s %0, %1, rtz")
                                      : (vec ? "vfcvt.rtz.xu.f.v %0, %1" : "fcvt.wu.s %0, %1, rtz");
    if (CC_EMIT(f, fm, 1, cc_r(t), cc_r(r))) return -1;
    int m = mask_to(f, t, vec, wt);
    if (m < 0) return -1;
    f->vreg[cc_map_get(&f->val, in)] = m;
    return 0;
  }
  default: return cc_unsupported(f, in, "a conversion to or from double or half precision");
  }
}

/* the elements of a value as registers of w bits each (zero-extended):
 * vectors element by element, a long as its two words, else one register */
static int *bits_of(cc_fn *f, LLVMValueRef v, int vec, int *n, int *w) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (vec_len(t)) {
    *n = cc_vec_words(t);
    *w = *n != vec_len(t) ? 32 : cc_int_width(LLVMGetElementType(t));
    if (*w == 8 || *w == 16 || *w == 32) return group_of(f, v, vec);
    cc_unsupported(f, NULL, "a reinterpretation of a vector of 64-bit or 1-bit elements");
    return NULL;
  }
  int *g = calloc(2, sizeof *g);
  if (!g) {
    oom(f);
    return NULL;
  }
  *w = 32;
  *n = cc_is_i64(t) ? 2 : 1;
  if (*n == 2 ? cc_i64_pair(f, v, vec, g) : (g[0] = operand(f, v, vec, 0)) < 0) {
    free(g);
    return NULL;
  }
  return g;
}

/* a bitcast that changes the shape (as_uint(ushort2), as_uchar4(float),
 * long <-> int2, ...): the source elements are packed into 32-bit words,
 * little-endian, and the words split into the destination's elements */
static int sel_reshape(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMTypeRef to = LLVMTypeOf(in);
  int n, w, tn = cc_vec_words(to), tw = tn != vec_len(to) ? 32 : tn ? cc_int_width(LLVMGetElementType(to)) : 32;
  if (!tn) tn = cc_is_i64(to) ? 2 : 1;
  if ((tw != 8 && tw != 16 && tw != 32) || (!vec_len(to) && !cc_is_i64(to) && cc_int_width(to) != 32))
    return cc_unsupported(f, in, "a reinterpretation as a type other than 8/16/32/64-bit integers, float or their vectors");
  int *src = bits_of(f, LLVMGetOperand(in, 0), vec, &n, &w);
  if (!src) return -1;
  int nw = n * w / 32, *word = calloc((size_t)nw + 1, sizeof *word), *dst = calloc((size_t)tn + 1, sizeof *dst), rc = -1;
  if (!word || !dst || n * w != tn * tw) {
    rc = !word || !dst ? oom(f) : cc_unsupported(f, in, "a reinterpretation between types of different sizes");
    goto done;
  }
  const char *sll = vec ? "vsll.vi %0, %1, %2" : "slli %0, %1, %2", *srl = vec ? "vsrl.vi %0, %1, %2" : "srli %0, %1, %2";
  const char *or = vec ? "vor.vv %0, %1, %2" : "or %0, %1, %2";
  for (int i = 0; i < n; i++) {
    int j = i * w / 32, sh = i * w % 32, e = src[i];
    if (sh) {
      int t = cc_new_vreg(f, vec ? CC_V : CC_S);
      if (t < 0 || CC_EMIT(f, sll, 1, cc_r(t), cc_r(e), cc_imm(sh))) goto done;
      e = t;
    }
    if (!sh) word[j] = e;
    else {
      int t = cc_new_vreg(f, vec ? CC_V : CC_S);
      if (t < 0 || CC_EMIT(f, or, 1, cc_r(t), cc_r(word[j]), cc_r(e))) goto done;
      word[j] = t;
    }
  }
  for (int i = 0; i < tn; i++) {
    int j = i * tw / 32, sh = i * tw % 32, e = word[j];
    if (sh) {
      int t = cc_new_vreg(f, vec ? CC_V : CC_S);
      if (t < 0 || CC_EMIT(f, srl, 1, cc_r(t), cc_r(e), cc_imm(sh))) goto done;
      e = t;
    }
    if ((dst[i] = mask_to(f, e, vec, tw)) < 0) goto done;
  }
  int k = cc_map_get(&f->val, in);
  if (tn == 1 && !vec_len(to)) {
    f->vreg[k] = dst[0];
    rc = 0;
  } else {
    rc = set_group(f, in, dst);
    dst = NULL;
  }
done:
  free(src);
  free(word);
  free(dst);
  return rc;
}

/* c ? x : y  =  y ^ ((x ^ y) & -c); with y 0: x & -c, with x 0: y & (c - 1) */
static int sel_select(cc_fn *f, LLVMValueRef in, int vec) {
  if (!cc_int_width(LLVMTypeOf(in))) return cc_unsupported(f, in, "a select of vectors or 64-bit values");
  int32_t zx, zy;
  int x0 = !const_bits(f, LLVMGetOperand(in, 1), &zx) && !zx, y0 = !const_bits(f, LLVMGetOperand(in, 2), &zy) && !zy;
  if (x0 != y0) { /* one side 0: a mask of the condition and the other side */
    int c = operand(f, LLVMGetOperand(in, 0), vec, 0), o = operand(f, LLVMGetOperand(in, x0 ? 2 : 1), vec, 0),
        d = defreg(f, in), m = cc_new_vreg(f, vec ? CC_V : CC_S);
    if (c < 0 || o < 0 || d < 0 || m < 0) return -1;
    if (x0 ? CC_EMIT(f, vec ? "vadd.vi %0, %1, -1" : "addi %0, %1, -1", 1, cc_r(m), cc_r(c))
           : CC_EMIT(f, vec ? "vrsub.vi %0, %1, 0" : "sub %0, zero, %1", 1, cc_r(m), cc_r(c)))
      return -1;
    return CC_EMIT(f, vec ? "vand.vv %0, %1, %2" : "and %0, %1, %2", 1, cc_r(d), cc_r(o), cc_r(m));
  }
  int c = operand(f, LLVMGetOperand(in, 0), vec, 0), x = operand(f, LLVMGetOperand(in, 1), vec, 0),
      y = operand(f, LLVMGetOperand(in, 2), vec, 0), d = defreg(f, in);
  int m = cc_new_vreg(f, vec ? CC_V : CC_S), t = cc_new_vreg(f, vec ? CC_V : CC_S), u = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (c < 0 || x < 0 || y < 0 || d < 0 || m < 0 || t < 0 || u < 0) return -1;
  if (CC_EMIT(f, vec ? "vrsub.vi %0, %1, 0" : "sub %0, zero, %1", 1, cc_r(m), cc_r(c)) ||
      CC_EMIT(f, vec ? "vxor.vv %0, %1, %2" : "xor %0, %1, %2", 1, cc_r(t), cc_r(x), cc_r(y)) ||
      CC_EMIT(f, vec ? "vand.vv %0, %1, %2" : "and %0, %1, %2", 1, cc_r(u), cc_r(t), cc_r(m)))
    return -1;
  return CC_EMIT(f, vec ? "vxor.vv %0, %1, %2" : "xor %0, %1, %2", 1, cc_r(d), cc_r(y), cc_r(u));
}

/* idx * size in the given form (vector when sv) */
static int scaled_index(cc_fn *f, LLVMValueRef idx, uint64_t size, int sv) {
  int s = addr_memo_get(f, idx, size, sv);
  if (s >= 0) return s;
  int r = operand(f, idx, sv, 0);
  if (r < 0) return -1;
  if (size && !(size & (size - 1))) {
    int sh = __builtin_ctzll(size);
    if (!sh) return r;
    s = cc_new_vreg(f, sv ? CC_V : CC_S);
    if (s < 0 || CC_EMIT(f, sv ? "vsll.vi %0, %1, %2" : "slli %0, %1, %2", 1, cc_r(s), cc_r(r), cc_imm(sh))) return -1;
  } else {
    int k = li(f, (int32_t)size);
    s = cc_new_vreg(f, sv ? CC_V : CC_S);
    if (k < 0 || s < 0 || CC_EMIT(f, sv ? "vmul.vx %0, %1, %2" : "mul %0, %1, %2", 1, cc_r(s), cc_r(r), cc_r(k)))
      return -1;
  }
  return addr_memo_put(f, idx, size, sv, s);
}

/* acc + idx * size in the given form */
static int add_scaled(cc_fn *f, int acc, LLVMValueRef idx, uint64_t size, int vec) {
  if (cc_int_width(LLVMTypeOf(idx)) != 32) return cc_unsupported(f, NULL, "an address index that is not 32 bits wide");
  int sv = vec && is_div(f, idx); /* a uniform index is scaled on the scalar unit */
  int s = scaled_index(f, idx, size, sv), d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (s < 0 || d < 0) return -1;
  if (vec && f->rclass[acc] == CC_S && f->rclass[s] == CC_S) { /* both uniform: add, then broadcast */
    int t = cc_new_vreg(f, CC_S);
    if (t < 0 || CC_EMIT(f, "add %0, %1, %2", 1, cc_r(t), cc_r(acc), cc_r(s))) return -1;
    return CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(d), cc_r(t)) ? -1 : d;
  }
  if (vec && f->rclass[acc] == CC_S) return CC_EMIT(f, "vadd.vx %0, %1, %2", 1, cc_r(d), cc_r(s), cc_r(acc)) ? -1 : d;
  if (vec && f->rclass[s] == CC_S) return CC_EMIT(f, "vadd.vx %0, %1, %2", 1, cc_r(d), cc_r(acc), cc_r(s)) ? -1 : d;
  return CC_EMIT(f, vec ? "vadd.vv %0, %1, %2" : "add %0, %1, %2", 1, cc_r(d), cc_r(acc), cc_r(s)) ? -1 : d;
}

/* Index i of a GEP whose indexed type is *t (the source type for i = 1):
 * a struct field adds its offset to *cst and steps *t into it (1); an
 * array or vector index steps *t to the element it scales (0); any other
 * type -1. */
static int gep_index(cc_fn *f, LLVMTypeRef *t, LLVMValueRef idx, int i, int64_t *cst) {
  if (i == 1) return 0;
  LLVMTypeKind k = LLVMGetTypeKind(*t);
  if (k == LLVMStructTypeKind) {
    unsigned fld = (unsigned)LLVMConstIntGetZExtValue(idx);
    *cst += (int64_t)LLVMOffsetOfElement(f->td, *t, fld);
    *t = LLVMStructGetTypeAtIndex(*t, fld);
    return 1;
  }
  if (k != LLVMArrayTypeKind && k != LLVMVectorTypeKind) return -1;
  *t = LLVMGetElementType(*t);
  return 0;
}

/* the address a GEP (instruction or constant expression) computes */
static int sel_gep(cc_fn *f, LLVMValueRef g, int vec) {
  LLVMValueRef base = LLVMGetOperand(g, 0);
  int acc = is_div(f, base) ? cc_vec(f, base) : cc_sreg(f, base);
  if (acc < 0) return -1;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
  int64_t cst = 0;
  for (int i = 1, n = LLVMGetNumOperands(g); i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(g, (unsigned)i);
    int r = gep_index(f, &t, idx, i, &cst);
    if (r < 0) return cc_unsupported(f, LLVMIsAInstruction(g) ? g : NULL, "an address computation of an unknown shape");
    if (r) continue;
    uint64_t size = LLVMABISizeOfType(f->td, t);
    if (LLVMIsAConstantInt(idx)) {
      cst += LLVMConstIntGetSExtValue(idx) * (int64_t)size;
    } else {
      int v = vec && (is_div(f, idx) || f->rclass[acc] == CC_V);
      acc = add_scaled(f, acc, idx, size, v);
      if (acc < 0) return -1;
    }
  }
  int isv = f->rclass[acc] == CC_V;
  if (vec && !isv) { /* uniform address needed per lane */
    int b = cc_new_vreg(f, CC_V);
    if (b < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(b), cc_r(acc))) return -1;
    acc = b;
    isv = 1;
  }
  if (!cst) return acc;
  int d = cc_new_vreg(f, isv ? CC_V : CC_S);
  if (d < 0) return -1;
  if (fits12(cst))
    return CC_EMIT(f, isv ? "vadd12.vi %0, %1, %2" : "addi %0, %1, %2", 1, cc_r(d), cc_r(acc), cc_imm((int32_t)cst)) ? -1 : d;
  int k = li(f, (int32_t)cst);
  if (k < 0) return -1;
  return CC_EMIT(f, isv ? "vadd.vx %0, %1, %2" : "add %0, %1, %2", 1, cc_r(d), cc_r(acc), cc_r(k)) ? -1 : d;
}

static int mem_width(cc_fn *f, LLVMValueRef in, LLVMTypeRef t) {
  int w = cc_int_width(t);
  if (w == 1) w = 8;
  if (w != 8 && w != 16 && w != 32)
    return cc_unsupported(f, in, "a memory access of a vector, 64-bit or aggregate value");
  return w;
}

/* A GEP instruction whose indices are all constants on a base that is
 * not one (the form cc_lower_addr.c leaves: base + a byte offset), used
 * only as the address of loads and stores which can all take the offset
 * in their 12-bit immediates (with the elements of a vector access after
 * it): it is not selected, and each access addresses *base with *off
 * instead. The same answer wherever it is asked (it reads only the IR). */
static int folded_gep(cc_fn *f, LLVMValueRef g, LLVMValueRef *base, int32_t *off) {
  if (!LLVMIsAGetElementPtrInst(g) || LLVMIsConstant(LLVMGetOperand(g, 0))) return 0;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(g);
  int64_t cst = 0;
  for (int i = 1, n = LLVMGetNumOperands(g); i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(g, (unsigned)i);
    if (!LLVMIsAConstantInt(idx)) return 0;
    int r = gep_index(f, &t, idx, i, &cst);
    if (r < 0) return 0;
    if (r) continue;
    cst += LLVMConstIntGetSExtValue(idx) * (int64_t)LLVMABISizeOfType(f->td, t);
  }
  if (!cst || !fits12(cst)) return 0;
  int users = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(g); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    LLVMTypeRef at;
    if (LLVMIsALoadInst(user)) at = LLVMTypeOf(user);
    else if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == g && LLVMGetOperand(user, 0) != g)
      at = LLVMTypeOf(LLVMGetOperand(user, 0));
    else return 0;
    if (!fits12(cst + (int64_t)LLVMABISizeOfType(f->td, at))) return 0;
    users++;
  }
  if (!users) return 0;
  *base = LLVMGetOperand(g, 0);
  *off = (int32_t)cst;
  return 1;
}

/* the address operand of a load or store: p, or a folded GEP's base and
 * offset (folded_gep) */
static LLVMValueRef mem_addr(cc_fn *f, LLVMValueRef p, int32_t *off) {
  LLVMValueRef base;
  *off = 0;
  return folded_gep(f, p, &base, off) ? base : p;
}

/* 0 private, 1 global/local/constant (one address space for the
 * instructions: the address decides), -1 refused */
static int space_of(cc_fn *f, LLVMValueRef in, LLVMValueRef ptr) {
  unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr));
  if (as > 4) return cc_unsupported(f, in, "address space %u", as);
  return as == 0 ? 0 : 1;
}

int cc_tp_plus(cc_fn *f, uint32_t off) {
  int s = cc_new_vreg(f, CC_S);
  if (s < 0) return -1;
  if (off < 2048) return CC_EMIT(f, "addi %0, tp, %1", 1, cc_r(s), cc_imm((int32_t)off)) ? -1 : s;
  return CC_EMIT(f, "li %0, %1", 1, cc_r(s), cc_imm((int32_t)off)) || CC_EMIT(f, "add %0, %0, tp", 1, cc_r(s)) ? -1 : s;
}

/* A private variable: an offset in the work-item's private frame at tp.
 * vlw.v/vsw.v turn it into the interleaved address themselves
 * (docs/kernels.md §4), so every lane uses the same offset. */
static int sel_alloca(cc_fn *f, LLVMValueRef in) {
  LLVMValueRef cnt = LLVMGetOperand(in, 0);
  if (!LLVMIsAConstantInt(cnt)) return cc_unsupported(f, in, "a private array of variable size");
  uint64_t size = LLVMABISizeOfType(f->td, LLVMGetAllocatedType(in)) * LLVMConstIntGetZExtValue(cnt);
  uint32_t al = LLVMGetAlignment(in);
  if (al < 4) al = 4;
  uint32_t off = (f->pds_bytes + al - 1) & ~(al - 1);
  if (off + size > CC_PRIVATE_VARS_MAX)
    return cc_unsupported(f, in, "more than %d KiB of private variables per work-item", CC_PRIVATE_VARS_MAX / 1024);
  f->pds_bytes = off + (uint32_t)((size + 3) & ~3u);
  int s = cc_tp_plus(f, off), d = defreg(f, in);
  if (s < 0 || d < 0) return -1;
  return CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(d), cc_r(s));
}

static int sel_load(cc_fn *f, LLVMValueRef in, int vec) {
  int32_t off;
  LLVMValueRef p = mem_addr(f, LLVMGetOperand(in, 0), &off);
  if (vec_len(LLVMTypeOf(in)) || cc_is_i64(LLVMTypeOf(in))) return sel_vec_mem(f, in, p, NULL, off, vec);
  int w = mem_width(f, in, LLVMTypeOf(in)), sp = space_of(f, in, p);
  if (w < 0 || sp < 0) return -1;
  int d = defreg(f, in);
  if (d < 0) return -1;
  if (!sp) {
    int a = cc_vec(f, p);
    const char *fm = w == 8 ? "vlbu.v %0, %2(%1)" : w == 16 ? "vlhu.v %0, %2(%1)" : "vlw.v %0, %2(%1)";
    return a < 0 ? -1 : CC_EMIT(f, fm, 1, cc_r(d), cc_r(a), cc_imm(off));
  }
  if (!vec) {
    int a = cc_sreg(f, p);
    const char *fm = w == 8 ? "lbu %0, %2(%1)" : w == 16 ? "lhu %0, %2(%1)" : "lw %0, %2(%1)";
    return a < 0 ? -1 : CC_EMIT(f, fm, 1, cc_r(d), cc_r(a), cc_imm(off));
  }
  int a = cc_vec(f, p);
  const char *fm = w == 8 ? "vlbu12.v %0, %2(%1)" : w == 16 ? "vlhu12.v %0, %2(%1)" : "vlw12.v %0, %2(%1)";
  return a < 0 ? -1 : CC_EMIT(f, fm, 1, cc_r(d), cc_r(a), cc_imm(off));
}

static int sel_store(cc_fn *f, LLVMValueRef in, int vec) {
  int32_t off;
  LLVMValueRef v = LLVMGetOperand(in, 0), p = mem_addr(f, LLVMGetOperand(in, 1), &off);
  if (vec_len(LLVMTypeOf(v)) || cc_is_i64(LLVMTypeOf(v))) return sel_vec_mem(f, in, p, v, off, vec);
  int w = mem_width(f, in, LLVMTypeOf(v)), sp = space_of(f, in, p);
  if (w < 0 || sp < 0) return -1;
  vec = vec || is_div(f, v) || is_div(f, p) || !sp;
  int rv = operand(f, v, vec, 0), a = vec ? cc_vec(f, p) : cc_sreg(f, p);
  if (rv < 0 || a < 0) return -1;
  const char *fm = !sp ? (w == 8 ? "vsb.v %0, %2(%1)" : w == 16 ? "vsh.v %0, %2(%1)" : "vsw.v %0, %2(%1)")
                 : vec ? (w == 8 ? "vsb12.v %0, %2(%1)" : w == 16 ? "vsh12.v %0, %2(%1)" : "vsw12.v %0, %2(%1)")
                       : (w == 8 ? "sb %0, %2(%1)" : w == 16 ? "sh %0, %2(%1)" : "sw %0, %2(%1)");
  return CC_EMIT(f, fm, 0, cc_r(rv), cc_r(a), cc_imm(off));
}

/* ---- LLVM vectors (float4, int2, ...): one register per element ------------------- */

static int vec_len(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(t) : 0; }

/* registers of a vector value: one per element, two per 64-bit element
 * (low word first, so <N x i64> is laid out as <2N x i32>) */
int cc_vec_words(LLVMTypeRef t) {
  int n = vec_len(t);
  return n && cc_is_i64(LLVMGetElementType(t)) ? 2 * n : n;
}

/* the element registers of vector value v, in the form vec asks for (a new
 * array the caller frees, or NULL after an error) */
static int *group_of(cc_fn *f, LLVMValueRef v, int vec) {
  int n = cc_vec_words(LLVMTypeOf(v)), two = n != vec_len(LLVMTypeOf(v));
  int *g = calloc((size_t)n + 1, sizeof *g), k = cc_map_get(&f->val, v);
  if (!g) {
    oom(f);
    return NULL;
  }
  for (int i = 0; i < n; i++) {
    if (k < 0 && two) { /* a constant of longs: each element's two words */
      LLVMValueRef el = (i & 1) ? NULL : LLVMGetAggregateElement(v, (unsigned)i / 2);
      if (i & 1) continue;
      if (!el || cc_i64_pair(f, el, vec, g + i)) {
        if (!el) cc_unsupported(f, NULL, "a vector constant of an unknown shape");
        goto fail;
      }
      continue;
    }
    if (k >= 0) {
      if (!f->grp[k]) {
        free(g);
        vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a vector value used before it is defined", f->name);
        return NULL;
      }
      g[i] = f->grp[k][i];
      if (vec && f->rclass[g[i]] == CC_S) {
        int b = cc_new_vreg(f, CC_V);
        if (b < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(b), cc_r(g[i]))) goto fail;
        g[i] = b;
      }
    } else {
      LLVMValueRef el = LLVMGetAggregateElement(v, (unsigned)i);
      g[i] = el ? (vec ? cc_vec(f, el) : cc_sreg(f, el)) : -1;
      if (!el) cc_unsupported(f, NULL, "a vector constant of an unknown shape");
    }
    if (g[i] < 0) goto fail;
  }
  return g;
fail:
  free(g);
  return NULL;
}

static int set_group(cc_fn *f, LLVMValueRef in, int *g) {
  int k = cc_map_get(&f->val, in);
  free(f->grp[k]);
  f->grp[k] = g;
  return 0;
}

/* one element of a vector load or store: p + i*size, in the right space */
static int elem_access(cc_fn *f, int priv, int vec, int w, int addr, int off, int store, int val) {
  static const char *const ld[3][3] = {{"vlbu.v %0, %2(%1)", "vlhu.v %0, %2(%1)", "vlw.v %0, %2(%1)"},
                                       {"vlbu12.v %0, %2(%1)", "vlhu12.v %0, %2(%1)", "vlw12.v %0, %2(%1)"},
                                       {"lbu %0, %2(%1)", "lhu %0, %2(%1)", "lw %0, %2(%1)"}};
  static const char *const st[3][3] = {{"vsb.v %0, %2(%1)", "vsh.v %0, %2(%1)", "vsw.v %0, %2(%1)"},
                                       {"vsb12.v %0, %2(%1)", "vsh12.v %0, %2(%1)", "vsw12.v %0, %2(%1)"},
                                       {"sb %0, %2(%1)", "sh %0, %2(%1)", "sw %0, %2(%1)"}};
  int form = priv ? 0 : vec ? 1 : 2, k = w == 8 ? 0 : w == 16 ? 1 : 2;
  if (store) return CC_EMIT(f, st[form][k], 0, cc_r(val), cc_r(addr), cc_imm(off));
  int d = cc_new_vreg(f, vec || priv ? CC_V : CC_S);
  return d < 0 || CC_EMIT(f, ld[form][k], 1, cc_r(d), cc_r(addr), cc_imm(off)) ? -1 : d;
}

/* p + off: the address (off a folded GEP's offset, folded_gep) */
static int sel_vec_mem(cc_fn *f, LLVMValueRef in, LLVMValueRef p, LLVMValueRef v, int32_t off, int vec) {
  LLVMTypeRef t = LLVMTypeOf(v ? v : in);
  int i64 = cc_is_i64(t); /* a long: its low and high words */
  int n = i64 ? 2 : cc_vec_words(t), w = i64 || n != vec_len(t) ? 32 : cc_int_width(LLVMGetElementType(t));
  int sp = space_of(f, in, p);
  if (w == 1) w = 8;
  if (sp < 0) return -1;
  if (w != 8 && w != 16 && w != 32) return cc_unsupported(f, in, "a vector of 64-bit elements");
  int esz = w / 8;
  if (n * esz > 1024) return cc_unsupported(f, in, "a vector access of more than 1 KiB");
  vec = vec || !sp || is_div(f, p) || (v && is_div(f, v));
  int a = vec || !sp ? cc_vec(f, p) : cc_sreg(f, p);
  if (a < 0) return -1;
  if (v) {
    int *g = i64 ? calloc(2, sizeof *g) : group_of(f, v, vec || !sp);
    if (!g) return i64 ? oom(f) : -1;
    if (i64 && cc_i64_pair(f, v, vec || !sp, g)) {
      free(g);
      return -1;
    }
    for (int i = 0; i < n; i++)
      if (elem_access(f, !sp, vec, w, a, off + i * esz, 1, g[i])) {
        free(g);
        return -1;
      }
    free(g);
    return 0;
  }
  int *g = calloc((size_t)n + 1, sizeof *g);
  if (!g) return oom(f);
  for (int i = 0; i < n; i++)
    if ((g[i] = elem_access(f, !sp, vec, w, a, off + i * esz, 0, 0)) < 0) {
      free(g);
      return -1;
    }
  return set_group(f, in, g);
}

static int sel_vec_op(cc_fn *f, LLVMValueRef in, LLVMOpcode op, int vec) {
  int k = cc_map_get(&f->val, in);
  if (cc_is_i64(LLVMGetElementType(LLVMTypeOf(LLVMGetOperand(in, 0))))) return cc_select_vec64_op(f, in, vec);
  if (op == LLVMExtractElement) {
    LLVMValueRef idx = LLVMGetOperand(in, 1);
    if (!LLVMIsAConstantInt(idx)) return cc_unsupported(f, in, "a vector element chosen at run time");
    int *g = group_of(f, LLVMGetOperand(in, 0), vec);
    if (!g) return -1;
    unsigned i = (unsigned)LLVMConstIntGetZExtValue(idx);
    f->vreg[k] = i < (unsigned)vec_len(LLVMTypeOf(LLVMGetOperand(in, 0))) ? g[i] : g[0];
    free(g);
    return 0;
  }
  int n = vec_len(LLVMTypeOf(in));
  if (op == LLVMInsertElement) {
    LLVMValueRef idx = LLVMGetOperand(in, 2);
    if (!LLVMIsAConstantInt(idx)) return cc_unsupported(f, in, "a vector element chosen at run time");
    int *g = group_of(f, LLVMGetOperand(in, 0), vec);
    if (!g) return -1;
    unsigned i = (unsigned)LLVMConstIntGetZExtValue(idx);
    int r = operand(f, LLVMGetOperand(in, 1), vec, 0);
    if (r < 0) {
      free(g);
      return -1;
    }
    if (i < (unsigned)n) g[i] = r;
    return set_group(f, in, g);
  }
  if (op == LLVMShuffleVector) {
    LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
    int na = vec_len(LLVMTypeOf(a));
    int *ga = group_of(f, a, vec), *gb = ga ? group_of(f, b, vec) : NULL, *g = calloc((size_t)n + 1, sizeof *g);
    int rc = -1;
    if (!ga || !gb || !g) goto done;
    for (int i = 0; i < n; i++) {
      int m = LLVMGetMaskValue(in, (unsigned)i);
      g[i] = m < 0 ? ga[0] : m < na ? ga[m] : gb[m - na];
    }
    rc = set_group(f, in, g);
    g = NULL;
  done:
    free(ga);
    free(gb);
    free(g);
    return rc;
  }
  return cc_unsupported(f, in, "an operation on a whole vector value");
}

/* ---- control flow ------------------------------------------------------------------ */

/* a phi's registers: one, or the two words of a long */
static int phi_dst(cc_fn *f, LLVMValueRef phi, int d[2]) {
  if (cc_is_i64(LLVMTypeOf(phi))) {
    const int *g = f->grp[cc_map_get(&f->val, phi)];
    d[0] = g[0];
    d[1] = g[1];
    return 2;
  }
  d[0] = defreg(f, phi);
  return d[0] < 0 ? -1 : 1;
}

static int copy_parts(cc_fn *f, const int d[2], int parts, LLVMValueRef src) {
  return parts == 2 ? cc_i64_copy(f, d, src) : copy_into(f, d[0], src);
}

static int emit_phi_copies(cc_fn *f, int from, int to) {
  LLVMBasicBlockRef fb = f->bb[from];
  int n = 0;
  for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[to]); in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in))
    n++;
  if (!n) return 0;
  int *tmp = calloc((size_t)n * 2, sizeof *tmp), i = 0, rc = -1;
  if (!tmp) return oom(f);
  /* the copies happen at once: temporaries are needed only when a source is
   * itself one of the phis written here */
  int direct = 1;
  for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[to]); in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in))
    for (unsigned k = 0; k < LLVMCountIncoming(in); k++) {
      LLVMValueRef v = LLVMGetIncomingValue(in, k);
      if (LLVMGetIncomingBlock(in, k) == fb && LLVMIsAPHINode(v) && LLVMGetInstructionParent(v) == f->bb[to]) direct = 0;
    }
  /* parallel copy: every source into a temporary first, then into the phis */
  for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[to]); in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in), i++) {
    LLVMValueRef src = NULL;
    for (unsigned k = 0; k < LLVMCountIncoming(in); k++)
      if (LLVMGetIncomingBlock(in, k) == fb) src = LLVMGetIncomingValue(in, k);
    int d[2], parts = src ? phi_dst(f, in, d) : -1;
    if (parts < 0) goto done;
    if (direct) {
      if (copy_parts(f, d, parts, src)) goto done;
      continue;
    }
    for (int j = 0; j < parts; j++)
      if ((tmp[2 * i + j] = cc_new_vreg(f, f->rclass[d[j]])) < 0) goto done;
    if (copy_parts(f, tmp + 2 * i, parts, src)) goto done;
  }
  i = 0;
  if (!direct)
    for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[to]); in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in), i++) {
      int d[2], parts = phi_dst(f, in, d);
      for (int j = 0; j < parts; j++)
        if (CC_EMIT(f, f->rclass[d[j]] == CC_V ? "vmv.v.v %0, %1" : "mv %0, %1", 1, cc_r(d[j]), cc_r(tmp[2 * i + j])))
          goto done;
    }
  rc = 0;
done:
  free(tmp);
  return rc;
}

static int sel_condbr(cc_fn *f, LLVMValueRef t, int b) {
  int tb = f->succ[b][0], fb = f->succ[b][1];
  LLVMValueRef c = LLVMGetCondition(t);
  int vec = f->divbr[b];
  if (vec && CC_EMIT(f, "@rpc %0", 0, cc_lab(f->ipdom[b]))) return -1;
  int k = cc_map_get(&f->val, c);
  if (k >= 0 && f->folded[k] && !LLVMIsAICmpInst(c)) { /* two booleans differ: xor i1 folded */
    int ra = operand(f, LLVMGetOperand(c, 0), vec, 0), rb = operand(f, LLVMGetOperand(c, 1), vec, 0);
    if (ra < 0 || rb < 0 || CC_EMIT(f, vec ? "vbne %0, %1, %2" : "bne %0, %1, %2", 0, cc_r(ra), cc_r(rb), cc_lab(tb)))
      return -1;
  } else if (k >= 0 && f->folded[k]) {
    const icmpop *o = find_icmp(LLVMGetICmpPredicate(c));
    LLVMValueRef x = LLVMGetOperand(c, 0), y = LLVMGetOperand(c, 1);
    int32_t z;
    if (!vec && !const_bits(f, y, &z) && !z) { /* against x0 */
      int rx = operand(f, x, 0, o->sgn);
      if (rx < 0 || CC_EMIT(f, o->sbz, 0, cc_r(rx), cc_lab(tb))) return -1;
      return fb == b + 1 ? 0 : CC_EMIT(f, "j %0", 0, cc_lab(fb));
    }
    int rx = operand(f, x, vec, o->sgn), ry = operand(f, y, vec, o->sgn);
    if (rx < 0 || ry < 0) return -1;
    int sw = o->swap;
    if (CC_EMIT(f, vec ? o->vb : o->sb, 0, cc_r(sw ? ry : rx), cc_r(sw ? rx : ry), cc_lab(tb))) return -1;
  } else {
    int rc = operand(f, c, vec, 0);
    if (rc < 0) return -1;
    if (vec) {
      int z = cc_new_vreg(f, CC_V);
      if (z < 0 || CC_EMIT(f, "vmv.v.i %0, %1", 1, cc_r(z), cc_imm(0)) || CC_EMIT(f, "vbne %0, %1, %2", 0, cc_r(rc), cc_r(z), cc_lab(tb)))
        return -1;
    } else if (CC_EMIT(f, "bnez %0, %1", 0, cc_r(rc), cc_lab(tb))) {
      return -1;
    }
  }
  return fb == b + 1 ? 0 : CC_EMIT(f, "j %0", 0, cc_lab(fb));
}

/* a compare used only by the branch right after it becomes part of the
 * branch; so does an xor of two booleans (0/1 registers: they differ) */
static void mark_folded(cc_fn *f, int b) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(f->bb[b]);
  if (f->nsucc[b] != 2 || !LLVMIsABranchInst(t)) return;
  LLVMValueRef c = LLVMGetCondition(t);
  int bools = LLVMIsAInstruction(c) && LLVMGetInstructionOpcode(c) == LLVMXor &&
              LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(LLVMTypeOf(c)) == 1 &&
              !LLVMIsAConstant(LLVMGetOperand(c, 0)) && !LLVMIsAConstant(LLVMGetOperand(c, 1));
  if (!(LLVMIsAICmpInst(c) || bools) || LLVMGetInstructionParent(c) != f->bb[b] ||
      !cc_int_width(LLVMTypeOf(LLVMGetOperand(c, 0))))
    return;
  LLVMUseRef u = LLVMGetFirstUse(c);
  if (!u || LLVMGetNextUse(u)) return;
  int k = cc_map_get(&f->val, c);
  if (k >= 0 && f->div[k] == f->divbr[b]) f->folded[k] = 1;
}

/* ---- kernel arguments ------------------------------------------------------------- */

static int load_args(cc_fn *f) {
  uint32_t off = 0;
  unsigned ai = 0;
  for (LLVMValueRef a = LLVMGetFirstParam(f->fn); a; a = LLVMGetNextParam(a), ai++) {
    LLVMTypeRef t = LLVMTypeOf(a);
    uint64_t size = cc_arg_size(f->td, f->fn, a, ai);
    uint32_t al = 4;
    while (al < size) al <<= 1;
    off = (off + al - 1) & ~(al - 1);
    int byval = cc_byval_type(f->fn, ai) != NULL;
    int w = byval ? 0 : cc_int_width(t);
    int i64 = !byval && !w && cc_is_i64(t);
    if (!w && !i64 && LLVMGetFirstUse(a) && cc_load_value_arg(f, a, ai, off)) return -1;
    if (i64 && LLVMGetFirstUse(a)) { /* a long: two words, low first */
      int lo = cc_new_vreg(f, CC_S), hi = cc_new_vreg(f, CC_S), *g = malloc(2 * sizeof *g), k = cc_map_get(&f->val, a);
      if (!g) return oom(f);
      free(f->grp[k]);
      f->grp[k] = g;
      g[0] = lo;
      g[1] = hi;
      if (lo < 0 || hi < 0) return -1;
      if (off > 2043) return cc_unsupported(f, NULL, "more than 2 KiB of kernel arguments");
      if (CC_EMIT(f, "lw %0, %1(a0)", 1, cc_r(lo), cc_imm((int32_t)off)) ||
          CC_EMIT(f, "lw %0, %1(a0)", 1, cc_r(hi), cc_imm((int32_t)off + 4)))
        return -1;
    } else if (w && LLVMGetFirstUse(a)) {
      int k = cc_map_get(&f->val, a);
      int r = cc_new_vreg(f, CC_S);
      if (r < 0) return -1;
      if (off > 2047) return cc_unsupported(f, NULL, "more than 2 KiB of kernel arguments");
      if (CC_EMIT(f, "lw %0, %1(a0)", 1, cc_r(r), cc_imm((int32_t)off))) return -1;
      f->vreg[k] = w < 32 ? mask_to(f, r, 0, w) : r;
      if (f->vreg[k] < 0) return -1;
    }
    off += (uint32_t)size;
  }
  return 0;
}

int cc_select(cc_fn *f) {
  f->mb = calloc((size_t)f->nbb + 1, sizeof *f->mb);
  f->pred1 = malloc(((size_t)f->nbb + 1) * sizeof *f->pred1);
  if (!f->mb || !f->pred1) return oom(f);
  /* each block's only predecessor, in one pass over the edges (a search per
   * block was quadratic: seconds for a 10,000-case switch) */
  for (int b = 0; b < f->nbb; b++) f->pred1[b] = -2; /* -2 none yet, -1 several */
  for (int p = 0; p < f->nbb; p++)
    for (int s = 0; s < f->nsucc[p]; s++) {
      int *q = &f->pred1[f->succ[p][s]];
      *q = *q == -2 ? p : -1;
    }
  /* phis get their registers first: copies in predecessors write them */
  for (int b = 0; b < f->nbb; b++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[b]); in && LLVMIsAPHINode(in); in = LLVMGetNextInstruction(in)) {
      if (cc_is_i64(LLVMTypeOf(in))) {
        if (cc_i64_phi_regs(f, in)) return -1;
        continue;
      }
      if (!cc_int_width(LLVMTypeOf(in))) return cc_unsupported(f, in, "a variable of a vector or aggregate type");
      if (defreg(f, in) < 0) return -1;
    }
  for (int b = 0; b < f->nbb; b++) {
    f->cur = b;
    mark_folded(f, b);
    if (f->isjoin[b] && CC_EMIT(f, "join zero, zero, 0", 0)) return -1;
    if (b == 0 && (f->is_func ? cc_fn_params(f) : load_args(f))) return -1;
    /* a block with one predecessor that branches two ways takes its phi
     * copies itself (critical edges are split, so this is the only case) */
    int pb = f->pred1[b];
    if (pb >= 0 && f->nsucc[pb] > 1 && emit_phi_copies(f, pb, b)) return -1;
    for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[b]); in; in = LLVMGetNextInstruction(in)) {
      int k = cc_map_get(&f->val, in), vec = f->div[k];
      LLVMOpcode op = LLVMGetInstructionOpcode(in);
      if (f->folded[k] || op == LLVMPHI) continue;
      if (LLVMIsATerminatorInst(in)) {
        if (f->nsucc[b] == 1 && emit_phi_copies(f, b, f->succ[b][0])) return -1;
        int rc;
        switch (op) {
        case LLVMRet:
          if (f->is_func) {
            rc = cc_fn_return(f, in);
            break;
          }
          if (LLVMGetNumOperands(in)) return cc_unsupported(f, in, "a kernel that returns a value");
          rc = CC_EMIT(f, "ret", 0);
          break;
        case LLVMBr:
          if (f->nsucc[b] == 2) rc = sel_condbr(f, in, b);
          else rc = f->succ[b][0] == b + 1 ? 0 : CC_EMIT(f, "j %0", 0, cc_lab(f->succ[b][0]));
          break;
        case LLVMUnreachable: rc = CC_EMIT(f, "ret", 0); break;
        default: rc = cc_unsupported(f, in, "this kind of branch (switch, indirect branch)");
        }
        if (rc) return -1;
        continue;
      }
      const binop *bo = NULL;
      for (size_t i = 0; i < sizeof binops / sizeof *binops; i++)
        if (binops[i].op == op) bo = &binops[i];
      int rc;
      if (op == LLVMBitCast && (vec_len(LLVMTypeOf(in)) || vec_len(LLVMTypeOf(LLVMGetOperand(in, 0))) ||
                                cc_is_i64(LLVMTypeOf(in)) || cc_is_i64(LLVMTypeOf(LLVMGetOperand(in, 0)))))
        rc = sel_reshape(f, in, vec);
      else if (cc_i64_involved(in)) rc = cc_select_i64(f, in, vec);
      else if (bo) rc = sel_binop(f, in, bo, vec);
      else
        switch (op) {
        case LLVMICmp: rc = sel_icmp(f, in, vec); break;
        case LLVMFCmp: rc = sel_fcmp(f, in, vec); break;
        case LLVMFAdd:
        case LLVMFSub:
        case LLVMFMul:
        case LLVMFDiv:
        case LLVMFRem: rc = sel_fbin(f, in, vec); break;
        case LLVMFNeg: {
          int a = operand(f, LLVMGetOperand(in, 0), vec, 0), d = defreg(f, in);
          rc = a < 0 || d < 0 ? -1 : CC_EMIT(f, vec ? "vfsgnjn.vv %0, %1, %1" : "fsgnjn.s %0, %1, %1", 1, cc_r(d), cc_r(a));
          break;
        }
        case LLVMTrunc:
        case LLVMZExt:
        case LLVMSExt:
        case LLVMFPToUI:
        case LLVMFPToSI:
        case LLVMUIToFP:
        case LLVMSIToFP:
        case LLVMFPTrunc:
        case LLVMFPExt:
        case LLVMPtrToInt:
        case LLVMIntToPtr:
        case LLVMBitCast:
        case LLVMAddrSpaceCast: rc = sel_cast(f, in, vec); break;
        case LLVMSelect: rc = sel_select(f, in, vec); break;
        case LLVMGetElementPtr: {
          LLVMValueRef base;
          int32_t off;
          if (folded_gep(f, in, &base, &off)) { /* its loads and stores address base + off */
            rc = 0;
            break;
          }
          int r = sel_gep(f, in, vec);
          rc = r < 0 ? -1 : 0;
          if (!rc) f->vreg[k] = r;
          break;
        }
        case LLVMLoad: rc = sel_load(f, in, vec); break;
        case LLVMStore: rc = sel_store(f, in, f->inreg[b]); break;
        case LLVMCall: rc = cc_select_call(f, in, vec || f->inreg[b]); break;
        case LLVMFreeze: rc = alias(f, in, LLVMGetOperand(in, 0), vec); break;
        case LLVMAlloca: rc = sel_alloca(f, in); break;
        case LLVMAtomicRMW: rc = cc_select_atomicrmw(f, in); break;
        case LLVMAtomicCmpXchg: rc = cc_unsupported(f, in, "the atomic_compare_exchange instruction (use atomic_cmpxchg)"); break;
        case LLVMFence: rc = 0; break; /* the simulated memory is coherent: accesses retire in order */
        case LLVMExtractElement:
        case LLVMInsertElement:
        case LLVMShuffleVector: rc = sel_vec_op(f, in, op, vec); break;
        default: rc = cc_unsupported(f, in, "an LLVM instruction of kind %d", (int)op);
        }
      if (rc) return -1;
    }
  }
  return 0;
}
