/* 64-bit integers (long, ulong) in the baseline ISA, which has only 32-bit
 * registers: every i64 value is a pair of registers {low word, high word}
 * kept in f->grp like a two-element vector, and each operation is expanded
 * into 32-bit instructions of the value's form (scalar for uniform values,
 * vector for per-lane ones): add/sub with the carry from sltu, mul with
 * mulhu, shifts across the two words, compares from the high words first,
 * and division as a 64-step shift-and-subtract loop whose counter is a
 * scalar, so it runs the same way inside divergent regions.
 * Loads and stores of i64 are two word accesses (cc_isel.c, sel_vec_mem). */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

typedef struct {
  int lo, hi;
} pr;

static int oom(cc_fn *f) { return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name); }

/* double too: its operations are library calls on the bits (cc_lower_f64.c),
 * or on revision 2025 primitives on them (cc_isel_f64v.c); what is left of
 * it is moved as a pair of words like a long */
int cc_is_i64(LLVMTypeRef t) {
  return (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) == 64) || LLVMGetTypeKind(t) == LLVMDoubleTypeKind;
}

int cc_i64_involved(LLVMValueRef in) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  if (op == LLVMGetElementPtr || op == LLVMStore || op == LLVMLoad) return 0; /* cc_isel.c: word accesses */
  if (op == LLVMExtractElement || op == LLVMInsertElement || op == LLVMShuffleVector) return 0; /* i64 indices */
  if (cc_is_i64(LLVMTypeOf(in))) return 1;
  if (op == LLVMCall) return 0; /* i64 arguments (llvm.lifetime sizes, ...): cc_isel_call.c */
  for (int i = 0, n = LLVMGetNumOperands(in); i < n; i++)
    if (cc_is_i64(LLVMTypeOf(LLVMGetOperand(in, (unsigned)i)))) return 1;
  return 0;
}

static const char *const sform[CC_XNOPS] = {
    "add %0, %1, %2", "sub %0, %1, %2", "and %0, %1, %2", "or %0, %1, %2",    "xor %0, %1, %2",   "sll %0, %1, %2",
    "srl %0, %1, %2", "sra %0, %1, %2", "sltu %0, %1, %2", "slt %0, %1, %2", NULL,                "mul %0, %1, %2",
    "mulhu %0, %1, %2"};
static const char *const vform[CC_XNOPS] = {
    "vadd.vv %0, %1, %2",  "vsub.vv %0, %1, %2",  "vand.vv %0, %1, %2",   "vor.vv %0, %1, %2",  "vxor.vv %0, %1, %2",
    "vsll.vv %0, %1, %2",  "vsrl.vv %0, %1, %2",  "vsra.vv %0, %1, %2",   "vmsltu.vv %0, %1, %2", "vmslt.vv %0, %1, %2",
    "vmseq.vv %0, %1, %2", "vmul.vv %0, %1, %2",  "vmulhu.vv %0, %1, %2"};

static int nreg(cc_fn *f, int vec) { return cc_new_vreg(f, vec ? CC_V : CC_S); }

/* d = a OP b into register d (a new one when d < 0) */
int cc_x3(cc_fn *f, int vec, int op, int d, int a, int b) {
  if (d < 0 && (d = nreg(f, vec)) < 0) return -1;
  if (a < 0 || b < 0) return -1;
  if (op == CC_XSEQ && !vec) {
    int t = nreg(f, 0);
    if (t < 0 || CC_EMIT(f, "xor %0, %1, %2", 1, cc_r(t), cc_r(a), cc_r(b))) return -1;
    return CC_EMIT(f, "sltiu %0, %1, 1", 1, cc_r(d), cc_r(t)) ? -1 : d;
  }
  return CC_EMIT(f, vec ? vform[op] : sform[op], 1, cc_r(d), cc_r(a), cc_r(b)) ? -1 : d;
}

/* a 32-bit constant in the requested form */
int cc_xk(cc_fn *f, int vec, int32_t v) {
  int d = nreg(f, vec);
  if (d < 0) return -1;
  if (!v && !vec) return CC_EMIT(f, "mv %0, zero", 1, cc_r(d)) ? -1 : d;
  if (vec && v >= -16 && v <= 15) return CC_EMIT(f, "vmv.v.i %0, %1", 1, cc_r(d), cc_imm(v)) ? -1 : d;
  if (!vec) return CC_EMIT(f, "li %0, %1", 1, cc_r(d), cc_imm(v)) ? -1 : d;
  int s = cc_xk(f, 0, v);
  return s < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(d), cc_r(s)) ? -1 : d;
}

/* d = a OP imm for the shifts (0..31) and xori/andi */
int cc_xi(cc_fn *f, int vec, int op, int d, int a, int32_t imm) {
  static const char *const si[CC_XNOPS] = {[CC_XSLL] = "slli %0, %1, %2", [CC_XSRL] = "srli %0, %1, %2", [CC_XSRA] = "srai %0, %1, %2",
                                       [CC_XXOR] = "xori %0, %1, %2", [CC_XAND] = "andi %0, %1, %2", [CC_XADD] = "addi %0, %1, %2"};
  static const char *const vi[CC_XNOPS] = {[CC_XSLL] = "vsll.vi %0, %1, %2", [CC_XSRL] = "vsrl.vi %0, %1, %2",
                                       [CC_XSRA] = "vsra.vi %0, %1, %2", [CC_XXOR] = "vxor.vi %0, %1, %2",
                                       [CC_XAND] = "vand.vi %0, %1, %2", [CC_XADD] = "vadd.vi %0, %1, %2"};
  int shift = op == CC_XSLL || op == CC_XSRL || op == CC_XSRA;
  if (a < 0) return -1;
  if (vec && !shift && (imm < -16 || imm > 15)) return cc_x3(f, vec, op, d, a, cc_xk(f, 1, imm));
  if (d < 0 && (d = nreg(f, vec)) < 0) return -1;
  return CC_EMIT(f, vec ? vi[op] : si[op], 1, cc_r(d), cc_r(a), cc_imm(imm)) ? -1 : d;
}

int cc_xneg(cc_fn *f, int vec, int a) {
  int d = nreg(f, vec);
  return d < 0 || a < 0 || CC_EMIT(f, vec ? "vrsub.vi %0, %1, 0" : "sub %0, zero, %1", 1, cc_r(d), cc_r(a)) ? -1 : d;
}

static int mov(cc_fn *f, int vec, int d, int a) {
  if (d < 0 && (d = nreg(f, vec)) < 0) return -1;
  return a < 0 || CC_EMIT(f, vec ? "vmv.v.v %0, %1" : "mv %0, %1", 1, cc_r(d), cc_r(a)) ? -1 : d;
}

/* m ? x : y for a mask m of all ones or zeros */
int cc_xpick(cc_fn *f, int vec, int m, int x, int y) {
  return cc_x3(f, vec, CC_XXOR, -1, y, cc_x3(f, vec, CC_XAND, -1, cc_x3(f, vec, CC_XXOR, -1, x, y), m));
}

int cc_i64_pair(cc_fn *f, LLVMValueRef v, int vec, int out[2]) {
  if (LLVMIsAConstantInt(v) || LLVMIsAConstantFP(v)) {
    uint64_t x;
    if (LLVMIsAConstantFP(v)) { /* a double's bits: the value converts exactly */
      LLVMBool lost;
      double d = LLVMConstRealGetDouble(v, &lost);
      memcpy(&x, &d, sizeof x);
    } else {
      x = LLVMConstIntGetZExtValue(v);
    }
    out[0] = cc_xk(f, vec, (int32_t)(uint32_t)x);
    out[1] = cc_xk(f, vec, (int32_t)(uint32_t)(x >> 32));
    return out[0] < 0 || out[1] < 0 ? -1 : 0;
  }
  if (LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v)) {
    out[0] = out[1] = cc_xk(f, vec, 0);
    return out[0] < 0 ? -1 : 0;
  }
  int k = cc_val_num(f, v);
  if (k < 0) return cc_unsupported(f, NULL, "a 64-bit constant expression");
  if (!f->grp[k]) return vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a 64-bit value used before it is defined", f->name);
  for (int i = 0; i < 2; i++) {
    out[i] = f->grp[k][i];
    if (vec && f->rclass[out[i]] == CC_S) {
      int b = nreg(f, 1);
      if (b < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(b), cc_r(out[i]))) return -1;
      out[i] = b;
    }
  }
  return 0;
}

static int get(cc_fn *f, LLVMValueRef v, int vec, pr *p) {
  int o[2];
  if (cc_i64_pair(f, v, vec, o)) return -1;
  p->lo = o[0];
  p->hi = o[1];
  return 0;
}

static int set(cc_fn *f, LLVMValueRef in, pr p) {
  if (p.lo < 0 || p.hi < 0) return -1;
  int k = cc_val_num(f, in), *g = malloc(2 * sizeof *g);
  if (!g) return oom(f);
  g[0] = p.lo;
  g[1] = p.hi;
  free(f->grp[k]);
  f->grp[k] = g;
  return 0;
}

int cc_i64_phi_regs(cc_fn *f, LLVMValueRef phi) {
  int k = cc_val_num(f, phi), cls = f->div[k] ? CC_V : CC_S;
  pr p = {cc_new_vreg(f, cls), cc_new_vreg(f, cls)};
  return set(f, phi, p);
}

/* ---- arithmetic ---------------------------------------------------------------- */

static pr add64(cc_fn *f, int vec, pr a, pr b) {
  int lo = cc_x3(f, vec, CC_XADD, -1, a.lo, b.lo), c = cc_x3(f, vec, CC_XSLTU, -1, lo, a.lo);
  return (pr){lo, cc_x3(f, vec, CC_XADD, -1, cc_x3(f, vec, CC_XADD, -1, a.hi, b.hi), c)};
}

static pr sub64(cc_fn *f, int vec, pr a, pr b) {
  int bw = cc_x3(f, vec, CC_XSLTU, -1, a.lo, b.lo);
  return (pr){cc_x3(f, vec, CC_XSUB, -1, a.lo, b.lo), cc_x3(f, vec, CC_XSUB, -1, cc_x3(f, vec, CC_XSUB, -1, a.hi, b.hi), bw)};
}

static pr mul64(cc_fn *f, int vec, pr a, pr b) {
  int h = cc_x3(f, vec, CC_XMULHU, -1, a.lo, b.lo);
  h = cc_x3(f, vec, CC_XADD, -1, h, cc_x3(f, vec, CC_XMUL, -1, a.lo, b.hi));
  h = cc_x3(f, vec, CC_XADD, -1, h, cc_x3(f, vec, CC_XMUL, -1, a.hi, b.lo));
  return (pr){cc_x3(f, vec, CC_XMUL, -1, a.lo, b.lo), h};
}

/* shifts by a constant amount 0..63 */
static pr shift_const(cc_fn *f, int vec, LLVMOpcode op, pr a, int k) {
  if (k == 0) return a;
  if (op == LLVMShl) {
    if (k >= 32) return (pr){cc_xk(f, vec, 0), k == 32 ? a.lo : cc_xi(f, vec, CC_XSLL, -1, a.lo, k - 32)};
    int hi = cc_x3(f, vec, CC_XOR, -1, cc_xi(f, vec, CC_XSLL, -1, a.hi, k), cc_xi(f, vec, CC_XSRL, -1, a.lo, 32 - k));
    return (pr){cc_xi(f, vec, CC_XSLL, -1, a.lo, k), hi};
  }
  int ar = op == LLVMAShr;
  if (k >= 32) {
    int hi = ar ? cc_xi(f, vec, CC_XSRA, -1, a.hi, 31) : cc_xk(f, vec, 0);
    return (pr){k == 32 ? a.hi : cc_xi(f, vec, ar ? CC_XSRA : CC_XSRL, -1, a.hi, k - 32), hi};
  }
  int lo = cc_x3(f, vec, CC_XOR, -1, cc_xi(f, vec, CC_XSRL, -1, a.lo, k), cc_xi(f, vec, CC_XSLL, -1, a.hi, 32 - k));
  return (pr){lo, cc_xi(f, vec, ar ? CC_XSRA : CC_XSRL, -1, a.hi, k)};
}

/* shifts by a run-time amount s (low word; 0..63): the 32-bit shifts use
 * s mod 32, the word moving across is shifted by one and then by 31 - s
 * (s ^ 31) so that s = 0 moves nothing, and bit 5 of s picks the result */
static pr shift_var(cc_fn *f, int vec, LLVMOpcode op, pr a, int s) {
  int inv = cc_xi(f, vec, CC_XXOR, -1, s, 31);
  int big = cc_xneg(f, vec, cc_xi(f, vec, CC_XAND, -1, cc_xi(f, vec, CC_XSRL, -1, s, 5), 1)); /* all ones when s >= 32 */
  if (op == LLVMShl) {
    int lo = cc_x3(f, vec, CC_XSLL, -1, a.lo, s);
    int hi = cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XSLL, -1, a.hi, s), cc_x3(f, vec, CC_XSRL, -1, cc_xi(f, vec, CC_XSRL, -1, a.lo, 1), inv));
    return (pr){cc_xpick(f, vec, big, cc_xk(f, vec, 0), lo), cc_xpick(f, vec, big, lo, hi)};
  }
  int ar = op == LLVMAShr;
  int hi = cc_x3(f, vec, ar ? CC_XSRA : CC_XSRL, -1, a.hi, s);
  int lo = cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XSRL, -1, a.lo, s), cc_x3(f, vec, CC_XSLL, -1, cc_xi(f, vec, CC_XSLL, -1, a.hi, 1), inv));
  int fill = ar ? cc_xi(f, vec, CC_XSRA, -1, a.hi, 31) : cc_xk(f, vec, 0);
  return (pr){cc_xpick(f, vec, big, hi, lo), cc_xpick(f, vec, big, fill, hi)};
}

/* a < b on 64 bits (signed compares the high words signed), 0/1 */
static int lt64(cc_fn *f, int vec, int sgn, pr a, pr b) {
  int hlt = cc_x3(f, vec, sgn ? CC_XSLT : CC_XSLTU, -1, a.hi, b.hi), heq = cc_x3(f, vec, CC_XSEQ, -1, a.hi, b.hi);
  int llt = cc_x3(f, vec, CC_XSLTU, -1, a.lo, b.lo);
  return cc_x3(f, vec, CC_XOR, -1, hlt, cc_x3(f, vec, CC_XAND, -1, heq, llt));
}

static int eq64(cc_fn *f, int vec, pr a, pr b) {
  int x = cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XXOR, -1, a.lo, b.lo), cc_x3(f, vec, CC_XXOR, -1, a.hi, b.hi));
  if (vec) return cc_x3(f, vec, CC_XSEQ, -1, x, cc_xk(f, 1, 0));
  int d = nreg(f, 0);
  return d < 0 || x < 0 || CC_EMIT(f, "sltiu %0, %1, 1", 1, cc_r(d), cc_r(x)) ? -1 : d;
}

static int local_label(cc_fn *f) {
  int n = f->nlocal++;
  return CC_EMIT(f, "@label %0", 0, ((cc_opnd){CC_OP_LOCAL, n})) ? -1 : n;
}

/* unsigned n / d and n % d: restoring division, one quotient bit per step.
 * The dividend's words shift into the remainder; the quotient's bits shift
 * into the dividend's place. The counter is a scalar: every lane runs the
 * 64 steps, so the loop needs no SIMT branch. */
static int udivmod(cc_fn *f, int vec, pr n, pr d, pr *q, pr *r) {
  pr R = {cc_xk(f, vec, 0), cc_xk(f, vec, 0)}, Q = {mov(f, vec, -1, n.lo), mov(f, vec, -1, n.hi)};
  int cnt = cc_xk(f, 0, 64);
  if (R.lo < 0 || R.hi < 0 || Q.lo < 0 || Q.hi < 0 || cnt < 0) return -1;
  int top = local_label(f);
  if (top < 0) return -1;
  if (cc_x3(f, vec, CC_XOR, R.hi, cc_xi(f, vec, CC_XSLL, -1, R.hi, 1), cc_xi(f, vec, CC_XSRL, -1, R.lo, 31)) < 0 ||
      cc_x3(f, vec, CC_XOR, R.lo, cc_xi(f, vec, CC_XSLL, -1, R.lo, 1), cc_xi(f, vec, CC_XSRL, -1, Q.hi, 31)) < 0 ||
      cc_x3(f, vec, CC_XOR, Q.hi, cc_xi(f, vec, CC_XSLL, -1, Q.hi, 1), cc_xi(f, vec, CC_XSRL, -1, Q.lo, 31)) < 0 ||
      cc_xi(f, vec, CC_XSLL, Q.lo, Q.lo, 1) < 0)
    return -1;
  int ge = cc_xi(f, vec, CC_XXOR, -1, lt64(f, vec, 0, R, d), 1), m = cc_xneg(f, vec, ge);
  pr t = {cc_x3(f, vec, CC_XAND, -1, d.lo, m), cc_x3(f, vec, CC_XAND, -1, d.hi, m)};
  int bw = cc_x3(f, vec, CC_XSLTU, -1, R.lo, t.lo);
  if (bw < 0 || cc_x3(f, vec, CC_XSUB, R.lo, R.lo, t.lo) < 0 || cc_x3(f, vec, CC_XSUB, R.hi, R.hi, t.hi) < 0 ||
      cc_x3(f, vec, CC_XSUB, R.hi, R.hi, bw) < 0 || cc_x3(f, vec, CC_XOR, Q.lo, Q.lo, ge) < 0 || cc_xi(f, 0, CC_XADD, cnt, cnt, -1) < 0)
    return -1;
  /* the loop-carried registers stay live up to the back branch */
  if (CC_EMIT(f, "@keep", 0, cc_r(R.lo), cc_r(R.hi), cc_r(d.lo), cc_r(d.hi)) ||
      CC_EMIT(f, "@keep", 0, cc_r(Q.lo), cc_r(Q.hi)) ||
      CC_EMIT(f, "bnez %0, %1", 0, cc_r(cnt), ((cc_opnd){CC_OP_LOCAL, top})))
    return -1;
  *q = Q;
  *r = R;
  return 0;
}

/* (x ^ s) - s: |x| for s = the sign mask, and back */
static pr negate_if(cc_fn *f, int vec, pr x, int s) {
  pr t = {cc_x3(f, vec, CC_XXOR, -1, x.lo, s), cc_x3(f, vec, CC_XXOR, -1, x.hi, s)};
  return sub64(f, vec, t, (pr){s, s});
}

static int divrem(cc_fn *f, LLVMValueRef in, int vec, LLVMOpcode op, pr a, pr b) {
  pr q, r;
  if (op == LLVMUDiv || op == LLVMURem) {
    if (udivmod(f, vec, a, b, &q, &r)) return -1;
    return set(f, in, op == LLVMUDiv ? q : r);
  }
  int sa = cc_xi(f, vec, CC_XSRA, -1, a.hi, 31), sb = cc_xi(f, vec, CC_XSRA, -1, b.hi, 31);
  if (sa < 0 || sb < 0 || udivmod(f, vec, negate_if(f, vec, a, sa), negate_if(f, vec, b, sb), &q, &r)) return -1;
  if (op == LLVMSRem) return set(f, in, negate_if(f, vec, r, sa));
  return set(f, in, negate_if(f, vec, q, cc_x3(f, vec, CC_XXOR, -1, sa, sb)));
}

static int sel_arith(cc_fn *f, LLVMValueRef in, int vec, LLVMOpcode op) {
  pr a, b;
  LLVMValueRef bv = LLVMGetOperand(in, 1);
  if (get(f, LLVMGetOperand(in, 0), vec, &a)) return -1;
  if ((op == LLVMShl || op == LLVMLShr || op == LLVMAShr) && LLVMIsAConstantInt(bv))
    return set(f, in, shift_const(f, vec, op, a, (int)(LLVMConstIntGetZExtValue(bv) & 63)));
  if (get(f, bv, vec, &b)) return -1;
  switch (op) {
  case LLVMAdd: return set(f, in, add64(f, vec, a, b));
  case LLVMSub: return set(f, in, sub64(f, vec, a, b));
  case LLVMMul: return set(f, in, mul64(f, vec, a, b));
  case LLVMAnd: return set(f, in, (pr){cc_x3(f, vec, CC_XAND, -1, a.lo, b.lo), cc_x3(f, vec, CC_XAND, -1, a.hi, b.hi)});
  case LLVMOr: return set(f, in, (pr){cc_x3(f, vec, CC_XOR, -1, a.lo, b.lo), cc_x3(f, vec, CC_XOR, -1, a.hi, b.hi)});
  case LLVMXor: return set(f, in, (pr){cc_x3(f, vec, CC_XXOR, -1, a.lo, b.lo), cc_x3(f, vec, CC_XXOR, -1, a.hi, b.hi)});
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr: return set(f, in, shift_var(f, vec, op, a, b.lo));
  default: return divrem(f, in, vec, op, a, b);
  }
}

/* the helpers above on register arrays {lo, hi}, for cc_isel_convert64.c */
int cc_i64_shift(cc_fn *f, int vec, LLVMOpcode op, const int a[2], int s, int out[2]) {
  pr r = shift_var(f, vec, op, (pr){a[0], a[1]}, s);
  out[0] = r.lo;
  out[1] = r.hi;
  return r.lo < 0 || r.hi < 0 ? -1 : 0;
}

int cc_i64_lt(cc_fn *f, int vec, int sgn, const int a[2], const int b[2]) {
  return lt64(f, vec, sgn, (pr){a[0], a[1]}, (pr){b[0], b[1]});
}

int cc_i64_negate_if(cc_fn *f, int vec, const int x[2], int s, int out[2]) {
  pr r = negate_if(f, vec, (pr){x[0], x[1]}, s);
  out[0] = r.lo;
  out[1] = r.hi;
  return r.lo < 0 || r.hi < 0 ? -1 : 0;
}

int cc_i64_set(cc_fn *f, LLVMValueRef in, const int p[2]) { return set(f, in, (pr){p[0], p[1]}); }

static int sel_icmp64(cc_fn *f, LLVMValueRef in, int vec) {
  pr a, b;
  if (get(f, LLVMGetOperand(in, 0), vec, &a) || get(f, LLVMGetOperand(in, 1), vec, &b)) return -1;
  LLVMIntPredicate p = LLVMGetICmpPredicate(in);
  int sgn = p == LLVMIntSLT || p == LLVMIntSGT || p == LLVMIntSLE || p == LLVMIntSGE, r;
  switch (p) {
  case LLVMIntEQ: r = eq64(f, vec, a, b); break;
  case LLVMIntNE: r = cc_xi(f, vec, CC_XXOR, -1, eq64(f, vec, a, b), 1); break;
  case LLVMIntULT:
  case LLVMIntSLT: r = lt64(f, vec, sgn, a, b); break;
  case LLVMIntUGT:
  case LLVMIntSGT: r = lt64(f, vec, sgn, b, a); break;
  case LLVMIntULE:
  case LLVMIntSLE: r = cc_xi(f, vec, CC_XXOR, -1, lt64(f, vec, sgn, b, a), 1); break;
  default: r = cc_xi(f, vec, CC_XXOR, -1, lt64(f, vec, sgn, a, b), 1); break;
  }
  if (r < 0) return -1;
  f->vreg[cc_val_num(f, in)] = r;
  return 0;
}

static int sel_cast64(cc_fn *f, LLVMValueRef in, int vec, LLVMOpcode op) {
  LLVMValueRef a = LLVMGetOperand(in, 0);
  LLVMTypeRef from = LLVMTypeOf(a), to = LLVMTypeOf(in);
  int k = cc_val_num(f, in);
  switch (op) {
  case LLVMZExt:
  case LLVMSExt: {
    int w = cc_int_width(from), lo = cc_operand(f, a, vec, op == LLVMSExt && w > 1);
    if (!w || lo < 0) return lo < 0 ? -1 : cc_unsupported(f, in, "a conversion to a 64-bit integer from this type");
    if (op == LLVMZExt) return set(f, in, (pr){lo, cc_xk(f, vec, 0)});
    if (w == 1) lo = cc_xneg(f, vec, lo); /* i1: 0/1 -> 0/-1 */
    return set(f, in, (pr){lo, cc_xi(f, vec, CC_XSRA, -1, lo, 31)});
  }
  case LLVMTrunc: {
    pr p;
    int w = cc_int_width(to);
    if (!w) return cc_unsupported(f, in, "a conversion from a 64-bit integer to this type");
    if (get(f, a, vec, &p)) return -1;
    int r = cc_mask_to(f, p.lo, vec, w);
    if (r < 0) return -1;
    f->vreg[k] = r;
    return 0;
  }
  case LLVMPtrToInt: {
    int lo = cc_operand(f, a, vec, 0);
    return lo < 0 ? -1 : set(f, in, (pr){lo, cc_xk(f, vec, 0)});
  }
  case LLVMIntToPtr: {
    pr p;
    if (get(f, a, vec, &p)) return -1;
    f->vreg[k] = p.lo;
    return 0;
  }
  case LLVMBitCast:
  case LLVMFreeze: {
    /* i64 <-> <2 x i32>: the same two registers */
    LLVMTypeRef t = cc_is_i64(to) ? from : to;
    int two32 = LLVMGetTypeKind(t) == LLVMVectorTypeKind && LLVMGetVectorSize(t) == 2 &&
                cc_int_width(LLVMGetElementType(t)) == 32;
    if (op == LLVMBitCast && !two32)
      return cc_unsupported(f, in, "a reinterpretation of a 64-bit integer as another type (double or a narrow vector)");
    pr p;
    if (cc_is_i64(from)) {
      if (get(f, a, vec, &p)) return -1;
    } else {
      int ka = cc_val_num(f, a);
      if (ka < 0 || !f->grp[ka]) return cc_unsupported(f, in, "a 64-bit constant expression");
      p = (pr){f->grp[ka][0], f->grp[ka][1]};
    }
    return set(f, in, p);
  }
  case LLVMSIToFP:
  case LLVMUIToFP:
  case LLVMFPToSI:
  case LLVMFPToUI: return cc_select_i64_fpcast(f, in, vec);
  default: return cc_unsupported(f, in, "a conversion between a 64-bit integer and floating point");
  }
}

static int sel_select64(cc_fn *f, LLVMValueRef in, int vec) {
  pr x, y;
  int c = cc_operand(f, LLVMGetOperand(in, 0), vec, 0);
  if (c < 0 || get(f, LLVMGetOperand(in, 1), vec, &x) || get(f, LLVMGetOperand(in, 2), vec, &y)) return -1;
  int m = cc_xneg(f, vec, c);
  return set(f, in, (pr){cc_xpick(f, vec, m, x.lo, y.lo), cc_xpick(f, vec, m, x.hi, y.hi)});
}

/* min, max and abs: LLVM's canonical form of the compare-and-select idioms */
static int sel_call64(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMValueRef fn = LLVMGetCalledValue(in);
  size_t len = 0;
  const char *name = fn && LLVMIsAFunction(fn) ? LLVMGetValueName2(fn, &len) : "";
  if (fn && LLVMIsAFunction(fn) && LLVMGetFirstBasicBlock(fn) && LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
    return cc_select_fn_call(f, in); /* a device function returning a long */
  static const struct {
    const char *name;
    int sgn, max;
  } mm[] = {{"llvm.smin.i64", 1, 0}, {"llvm.smax.i64", 1, 1}, {"llvm.umin.i64", 0, 0}, {"llvm.umax.i64", 0, 1},
            {"_Z3minll", 1, 0},      {"_Z3maxll", 1, 1},      {"_Z3minmm", 0, 0},      {"_Z3maxmm", 0, 1}};
  int at = cc_select_atomic_call(f, in, name); /* atom_* on longs: cc_isel_atomic64.c */
  if (at == -1) at = cc_select_convert_call(f, in, name); /* convert_long...: cc_isel_convert64.c */
  if (at == -1) at = cc_select_f64v(f, in, name);        /* double on revision 2025: cc_isel_f64v.c */
  if (at != -1) return at ? -1 : 0;
  pr a, b;
  for (size_t i = 0; i < sizeof mm / sizeof *mm; i++) {
    if (strcmp(name, mm[i].name)) continue;
    if (get(f, LLVMGetOperand(in, 0), vec, &a) || get(f, LLVMGetOperand(in, 1), vec, &b)) return -1;
    int m = cc_xneg(f, vec, lt64(f, vec, mm[i].sgn, a, b)); /* all ones when a < b */
    pr lo = mm[i].max ? b : a, hi = mm[i].max ? a : b;
    return set(f, in, (pr){cc_xpick(f, vec, m, lo.lo, hi.lo), cc_xpick(f, vec, m, lo.hi, hi.hi)});
  }
  int bits = -1; /* the bit builtins on longs, from the word operations */
  if (!strcmp(name, "llvm.ctpop.i64") || !strcmp(name, "_Z8popcountl") || !strcmp(name, "_Z8popcountm")) bits = 0;
  if (!strcmp(name, "llvm.ctlz.i64") || !strcmp(name, "_Z3clzl") || !strcmp(name, "_Z3clzm")) bits = 1;
  if (!strcmp(name, "llvm.cttz.i64") || !strcmp(name, "_Z3ctzl") || !strcmp(name, "_Z3ctzm")) bits = 2;
  if (!strcmp(name, "llvm.bswap.i64")) bits = 3;
  if (bits >= 0) {
    if (get(f, LLVMGetOperand(in, 0), vec, &a)) return -1;
    if (bits == 3) return set(f, in, (pr){cc_bits_bswap32(f, vec, a.hi), cc_bits_bswap32(f, vec, a.lo)});
    pr z = {cc_xk(f, vec, 0), cc_xk(f, vec, 0)};
    if (bits == 0)
      return set(f, in, (pr){cc_x3(f, vec, CC_XADD, -1, cc_bits_popcount(f, vec, a.lo), cc_bits_popcount(f, vec, a.hi)), z.hi});
    /* the count in the word that decides, plus 32 when that word is zero */
    int first = bits == 1 ? a.hi : a.lo, second = bits == 1 ? a.lo : a.hi;
    int c1 = bits == 1 ? cc_bits_clz(f, vec, first) : cc_bits_ctz(f, vec, first);
    int c2 = bits == 1 ? cc_bits_clz(f, vec, second) : cc_bits_ctz(f, vec, second);
    int m = cc_xneg(f, vec, cc_x3(f, vec, CC_XSEQ, -1, first, z.lo));
    return set(f, in, (pr){cc_xpick(f, vec, m, cc_xi(f, vec, CC_XADD, -1, c2, 32), c1), z.hi});
  }
  if (!strcmp(name, "_Z9bitselectlll") || !strcmp(name, "_Z9bitselectmmm")) {
    pr c;
    if (get(f, LLVMGetOperand(in, 0), vec, &a) || get(f, LLVMGetOperand(in, 1), vec, &b) ||
        get(f, LLVMGetOperand(in, 2), vec, &c))
      return -1;
    return set(f, in, (pr){cc_xpick(f, vec, c.lo, b.lo, a.lo), cc_xpick(f, vec, c.hi, b.hi, a.hi)});
  }
  if (!strcmp(name, "_Z6rotatell") || !strcmp(name, "_Z6rotatemm") || !strcmp(name, "llvm.fshl.i64")) {
    /* x << s | x >> (-s mod 64): s = 0 gives x | x */
    int n = (int)LLVMGetNumArgOperands(in);
    if (n == 3 && LLVMGetOperand(in, 0) != LLVMGetOperand(in, 1))
      return cc_unsupported(f, in, "a funnel shift of two different 64-bit values");
    if (get(f, LLVMGetOperand(in, 0), vec, &a) || get(f, LLVMGetOperand(in, n - 1), vec, &b)) return -1;
    pr l = shift_var(f, vec, LLVMShl, a, b.lo), r = shift_var(f, vec, LLVMLShr, a, cc_xneg(f, vec, b.lo));
    return set(f, in, (pr){cc_x3(f, vec, CC_XOR, -1, l.lo, r.lo), cc_x3(f, vec, CC_XOR, -1, l.hi, r.hi)});
  }
  if (!strcmp(name, "llvm.abs.i64")) {
    if (get(f, LLVMGetOperand(in, 0), vec, &a)) return -1;
    return set(f, in, negate_if(f, vec, a, cc_xi(f, vec, CC_XSRA, -1, a.hi, 31)));
  }
  return cc_unsupported(f, in, "the builtin function '%.*s' on 64-bit integers is not supported yet", (int)len,
                        len ? name : "(indirect call)");
}

/* the bit builtins cc_select_i64 maps on longs itself, so that their
 * vector forms are split per element (cc_scalarize.c) */
int cc_i64_bits_known(const char *name) {
  static const char *const known[] = {"_Z8popcountl", "_Z8popcountm", "_Z3clzl",        "_Z3clzm",
                                      "_Z3ctzl",      "_Z3ctzm",      "_Z9bitselectlll", "_Z9bitselectmmm",
                                      "_Z6rotatell",  "_Z6rotatemm"};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (!strcmp(name, known[i])) return 1;
  return 0;
}

int cc_select_i64(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMOpcode op = LLVMGetInstructionOpcode(in);
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMUDiv:
  case LLVMSDiv:
  case LLVMURem:
  case LLVMSRem: return sel_arith(f, in, vec, op);
  case LLVMICmp: return sel_icmp64(f, in, vec);
  case LLVMSelect: return sel_select64(f, in, vec);
  case LLVMCall: return sel_call64(f, in, vec);
  default: return sel_cast64(f, in, vec, op);
  }
}

/* phi copies: both words of src into the phi's registers d */
int cc_i64_copy(cc_fn *f, const int d[2], LLVMValueRef src) {
  int vec = f->rclass[d[0]] == CC_V, s[2];
  if (cc_i64_pair(f, src, vec, s)) return -1;
  return mov(f, vec, d[0], s[0]) < 0 || mov(f, vec, d[1], s[1]) < 0 ? -1 : 0;
}
