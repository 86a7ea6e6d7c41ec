/* Atomics. The ISA has scalar AMOs only (amoadd.w, amoswap.w, lr.w/sc.w,
 * ...), so an atomic of a warp runs lane by lane: the active lanes write a
 * flag, their address and operands into a scratch area on the warp's own
 * stack (sp, local memory: 512 bytes), a scalar loop performs one AMO per
 * flagged lane and writes its old value back, and the lanes read their
 * results. The scalar code runs once per warp whatever the SIMT mask; the
 * flags say which lanes take part. A loop inside one block keeps the
 * registers it reads again live up to its closing branch (extra operands
 * of that branch), since liveness is computed per block. */
#include <string.h>

#include "cc_internal.h"

enum { A_ADD, A_SUB, A_XCHG, A_INC, A_DEC, A_MIN, A_MAX, A_UMIN, A_UMAX, A_AND, A_OR, A_XOR, A_CMPXCHG };

static const char *const amo[] = {
    "amoadd.w %0, %1, (%2)", "amoadd.w %0, %1, (%2)",  "amoswap.w %0, %1, (%2)", "amoadd.w %0, %1, (%2)",
    "amoadd.w %0, %1, (%2)", "amomin.w %0, %1, (%2)",  "amomax.w %0, %1, (%2)",  "amominu.w %0, %1, (%2)",
    "amomaxu.w %0, %1, (%2)", "amoand.w %0, %1, (%2)", "amoor.w %0, %1, (%2)",   "amoxor.w %0, %1, (%2)",
};

/* The same with the old value discarded (rd = x0), for a call whose result
 * is unused: a launch whose AMOs are all of one commutative kind with
 * their results discarded leaves the same memory in any order of
 * work-groups, so the simulator may spread it over host threads
 * (docs/simulator.md §6); a histogram's atomic_inc is the common case. */
static const char *const amo_discard[] = {
    "amoadd.w zero, %0, (%1)",  "amoadd.w zero, %0, (%1)", "amoswap.w zero, %0, (%1)", "amoadd.w zero, %0, (%1)",
    "amoadd.w zero, %0, (%1)",  "amomin.w zero, %0, (%1)", "amomax.w zero, %0, (%1)",  "amominu.w zero, %0, (%1)",
    "amomaxu.w zero, %0, (%1)", "amoand.w zero, %0, (%1)", "amoor.w zero, %0, (%1)",   "amoxor.w zero, %0, (%1)",
};

/* The same on __local memory, labelled (%3, %2: CC_OP_AMOL) for the list
 * of such AMOs in .ventus.amo_local: local memory belongs to one
 * work-group, whose warps run in the same order on any host thread, so
 * the simulator may spread a launch over threads whatever the kinds of
 * these AMOs and whether their old values are used (docs/simulator.md §6);
 * the label on the AMO's own line stays on it when reloads come before. */
static const char *const amo_local[] = {
    "%3: amoadd.w %0, %1, (%2)", "%3: amoadd.w %0, %1, (%2)", "%3: amoswap.w %0, %1, (%2)",
    "%3: amoadd.w %0, %1, (%2)", "%3: amoadd.w %0, %1, (%2)", "%3: amomin.w %0, %1, (%2)",
    "%3: amomax.w %0, %1, (%2)", "%3: amominu.w %0, %1, (%2)", "%3: amomaxu.w %0, %1, (%2)",
    "%3: amoand.w %0, %1, (%2)", "%3: amoor.w %0, %1, (%2)", "%3: amoxor.w %0, %1, (%2)",
};
static const char *const amo_discard_local[] = {
    "%2: amoadd.w zero, %0, (%1)", "%2: amoadd.w zero, %0, (%1)", "%2: amoswap.w zero, %0, (%1)",
    "%2: amoadd.w zero, %0, (%1)", "%2: amoadd.w zero, %0, (%1)", "%2: amomin.w zero, %0, (%1)",
    "%2: amomax.w zero, %0, (%1)", "%2: amominu.w zero, %0, (%1)", "%2: amomaxu.w zero, %0, (%1)",
    "%2: amoand.w zero, %0, (%1)", "%2: amoor.w zero, %0, (%1)", "%2: amoxor.w zero, %0, (%1)",
};

/* ptr, val (NULL for inc/dec), cmp (cmpxchg only); result into the call's register */
static int atomic_seq(cc_fn *f, LLVMValueRef in, int op, LLVMValueRef ptr, LLVMValueRef val, LLVMValueRef cmp) {
  if (LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == 0)
    return cc_unsupported(f, in, "an atomic operation on private memory");
  if (f->atomics < 512) f->atomics = 512; /* bytes of scratch at sp */
  int va = cc_vec(f, ptr), vv, vc = -1;
  if (va < 0) return -1;
  if (op == A_INC || op == A_DEC) {
    vv = cc_new_vreg(f, CC_V);
    if (vv < 0 || CC_EMIT(f, "vmv.v.i %0, %1", 1, cc_r(vv), cc_imm(op == A_INC ? 1 : -1))) return -1;
  } else {
    vv = cc_vec(f, val);
    if (vv < 0) return -1;
    if (op == A_SUB) {
      int t = cc_new_vreg(f, CC_V);
      if (t < 0 || CC_EMIT(f, "vrsub.vi %0, %1, 0", 1, cc_r(t), cc_r(vv))) return -1;
      vv = t;
    }
  }
  if (op == A_CMPXCHG && (vc = cc_vec(f, cmp)) < 0) return -1;
  int n = cc_new_vreg(f, CC_S), p = cc_new_vreg(f, CC_S), k = cc_new_vreg(f, CC_S);
  int vl = cc_new_vreg(f, CC_V), vo = cc_new_vreg(f, CC_V), vs = cc_new_vreg(f, CC_V), one = cc_new_vreg(f, CC_V);
  int fl = cc_new_vreg(f, CC_S), a = cc_new_vreg(f, CC_S), v = cc_new_vreg(f, CC_S), r = cc_new_vreg(f, CC_S);
  if (n < 0 || p < 0 || k < 0 || vl < 0 || vo < 0 || vs < 0 || one < 0 || fl < 0 || a < 0 || v < 0 || r < 0) return -1;
  /* flags of all num_thread lanes cleared, then set by the active ones */
  if (CC_EMIT(f, "csrr %0, numt", 1, cc_r(n)) || CC_EMIT(f, "mv %0, sp", 1, cc_r(p)) ||
      CC_EMIT(f, "mv %0, zero", 1, cc_r(k)) || CC_EMIT(f, "1: sw zero, 0(%0)", 0, cc_r(p)) ||
      CC_EMIT(f, "addi %0, %1, 4", 1, cc_r(p), cc_r(p)) || CC_EMIT(f, "addi %0, %1, 1", 1, cc_r(k), cc_r(k)) ||
      CC_EMIT(f, "blt %0, %1, 1b", 0, cc_r(k), cc_r(n)) || CC_EMIT(f, "vid.v %0", 1, cc_r(vl)) ||
      CC_EMIT(f, "vsll.vi %0, %1, 2", 1, cc_r(vo), cc_r(vl)) || CC_EMIT(f, "vadd.vx %0, %1, sp", 1, cc_r(vs), cc_r(vo)) ||
      CC_EMIT(f, "vmv.v.i %0, 1", 1, cc_r(one)) || CC_EMIT(f, "vsw12.v %0, 0(%1)", 0, cc_r(one), cc_r(vs)) ||
      CC_EMIT(f, "vsw12.v %0, 128(%1)", 0, cc_r(va), cc_r(vs)) || CC_EMIT(f, "vsw12.v %0, 256(%1)", 0, cc_r(vv), cc_r(vs)))
    return -1;
  if (vc >= 0 && CC_EMIT(f, "vsw12.v %0, 384(%1)", 0, cc_r(vc), cc_r(vs))) return -1;
  /* one AMO per flagged lane, in lane order */
  int q = cc_new_vreg(f, CC_S), j = cc_new_vreg(f, CC_S);
  if (q < 0 || j < 0 || CC_EMIT(f, "mv %0, sp", 1, cc_r(q)) || CC_EMIT(f, "mv %0, zero", 1, cc_r(j)) ||
      CC_EMIT(f, "2: lw %0, 0(%1)", 1, cc_r(fl), cc_r(q)) || CC_EMIT(f, "beqz %0, 3f", 0, cc_r(fl)) ||
      CC_EMIT(f, "lw %0, 128(%1)", 1, cc_r(a), cc_r(q)) || CC_EMIT(f, "lw %0, 256(%1)", 1, cc_r(v), cc_r(q)))
    return -1;
  int local = LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == 3;
  if (op == A_CMPXCHG) {
    /* on __local memory both the lr.w and the sc.w are listed, as the
     * AMOs below: their reservation and its loss involve the group's own
     * warps only */
    int c = cc_new_vreg(f, CC_S), t = cc_new_vreg(f, CC_S);
    cc_opnd lr = {CC_OP_AMOL, local ? f->namol++ : 0}, sc = {CC_OP_AMOL, local ? f->namol++ : 0};
    if (c < 0 || t < 0 || CC_EMIT(f, "lw %0, 384(%1)", 1, cc_r(c), cc_r(q)) ||
        (local ? CC_EMIT(f, "4: %2: lr.w %0, (%1)", 1, cc_r(r), cc_r(a), lr)
               : CC_EMIT(f, "4: lr.w %0, (%1)", 1, cc_r(r), cc_r(a))) ||
        CC_EMIT(f, "bne %0, %1, 5f", 0, cc_r(r), cc_r(c)) ||
        (local ? CC_EMIT(f, "%3: sc.w %0, %1, (%2)", 1, cc_r(t), cc_r(v), cc_r(a), sc)
               : CC_EMIT(f, "sc.w %0, %1, (%2)", 1, cc_r(t), cc_r(v), cc_r(a))) ||
        /* the retry loop reads a, v and c again: they stay live to its end */
        CC_EMIT(f, "bnez %0, 4b", 0, cc_r(t), cc_r(a), cc_r(v), cc_r(c)) ||
        CC_EMIT(f, "5: sw %0, 256(%1)", 0, cc_r(r), cc_r(q)))
      return -1;
  } else {
    cc_opnd lab = {CC_OP_AMOL, local ? f->namol++ : 0};
    if (!LLVMGetFirstUse(in)) {
      if (local ? CC_EMIT(f, amo_discard_local[op], 0, cc_r(v), cc_r(a), lab) : CC_EMIT(f, amo_discard[op], 0, cc_r(v), cc_r(a)))
        return -1;
    } else if ((local ? CC_EMIT(f, amo_local[op], 1, cc_r(r), cc_r(v), cc_r(a), lab) : CC_EMIT(f, amo[op], 1, cc_r(r), cc_r(v), cc_r(a))) ||
               CC_EMIT(f, "sw %0, 256(%1)", 0, cc_r(r), cc_r(q))) {
      return -1;
    }
  }
  if (CC_EMIT(f, "3: addi %0, %1, 4", 1, cc_r(q), cc_r(q)) || CC_EMIT(f, "addi %0, %1, 1", 1, cc_r(j), cc_r(j)) ||
      CC_EMIT(f, "blt %0, %1, 2b", 0, cc_r(j), cc_r(n)))
    return -1;
  if (!LLVMGetFirstUse(in)) return 0;
  int k2 = cc_val_num(f, in), d = cc_new_vreg(f, CC_V);
  if (d < 0 || CC_EMIT(f, "vlw12.v %0, 256(%1)", 1, cc_r(d), cc_r(vs))) return -1;
  f->vreg[k2] = d;
  return 0;
}

/* OpenCL 1.x atomic_* / atom_* builtins: -1 not one, else handled (0) or error (-2) */
int cc_select_atomic_call(cc_fn *f, LLVMValueRef call, const char *name) {
  static const struct {
    const char *n;
    int op;
  } ops[] = {{"add", A_ADD}, {"sub", A_SUB}, {"xchg", A_XCHG}, {"inc", A_INC}, {"dec", A_DEC}, {"min", A_MIN},
             {"max", A_MAX}, {"and", A_AND}, {"or", A_OR},     {"xor", A_XOR}, {"cmpxchg", A_CMPXCHG}};
  if (strncmp(name, "_Z", 2)) return -1;
  const char *p = name + 2;
  int len = 0;
  while (*p >= '0' && *p <= '9') len = len * 10 + (*p++ - '0');
  const char *base = NULL;
  if (len > 7 && !strncmp(p, "atomic_", 7)) base = p + 7;
  else if (len > 5 && !strncmp(p, "atom_", 5)) base = p + 5;
  if (!base) return -1;
  int blen = (int)(p + len - base), op = -1;
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if ((int)strlen(ops[i].n) == blen && !strncmp(base, ops[i].n, (size_t)blen)) op = ops[i].op;
  if (op < 0) return -1;
  /* the pointee type: the letter after the volatile qualifier 'V' */
  const char *v = strchr(p + len, 'V');
  char ty = v ? v[1] : 'i';
  if (ty == 'l' || ty == 'm') return cc_select_atomic64_call(f, call, base, blen, ty == 'l') ? -2 : 0;
  if (ty != 'i' && ty != 'j' && !(ty == 'f' && op == A_XCHG))
    return cc_unsupported(f, call, "a 64-bit or floating-point atomic operation") ? -2 : -2;
  if (ty == 'j' && op == A_MIN) op = A_UMIN;
  if (ty == 'j' && op == A_MAX) op = A_UMAX;
  LLVMValueRef ptr = LLVMGetOperand(call, 0);
  LLVMValueRef val = op == A_INC || op == A_DEC ? NULL : LLVMGetOperand(call, op == A_CMPXCHG ? 2 : 1);
  LLVMValueRef cmp = op == A_CMPXCHG ? LLVMGetOperand(call, 1) : NULL;
  return atomic_seq(f, call, op, ptr, val, cmp) ? -2 : 0;
}

int cc_select_atomicrmw(cc_fn *f, LLVMValueRef in) {
  int op;
  switch (LLVMGetAtomicRMWBinOp(in)) {
  case LLVMAtomicRMWBinOpXchg: op = A_XCHG; break;
  case LLVMAtomicRMWBinOpAdd: op = A_ADD; break;
  case LLVMAtomicRMWBinOpSub: op = A_SUB; break;
  case LLVMAtomicRMWBinOpAnd: op = A_AND; break;
  case LLVMAtomicRMWBinOpOr: op = A_OR; break;
  case LLVMAtomicRMWBinOpXor: op = A_XOR; break;
  case LLVMAtomicRMWBinOpMax: op = A_MAX; break;
  case LLVMAtomicRMWBinOpMin: op = A_MIN; break;
  case LLVMAtomicRMWBinOpUMax: op = A_UMAX; break;
  case LLVMAtomicRMWBinOpUMin: op = A_UMIN; break;
  default: return cc_unsupported(f, in, "this atomic read-modify-write operation");
  }
  if (cc_is_i64(LLVMTypeOf(in))) return cc_select_atomic64_rmw(f, in);
  if (cc_int_width(LLVMTypeOf(in)) != 32) return cc_unsupported(f, in, "an atomic operation on a value that is not 32 bits");
  return atomic_seq(f, in, op, LLVMGetOperand(in, 0), LLVMGetOperand(in, 1), NULL);
}
