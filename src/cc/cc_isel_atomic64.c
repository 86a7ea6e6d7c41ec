/* 64-bit atomics (cl_khr_int64_base_atomics, cl_khr_int64_extended_atomics:
 * atom_add ... atom_cmpxchg on long/ulong in __global and __local memory).
 *
 * The ISA's AMOs and LR/SC are 32-bit, and an LR/SC reservation covers one
 * word, so two words cannot be updated as one. Instead every 64-bit atomic
 * takes a lock: a word of a 256-word table in global memory (program-scope
 * data of the module, zero at load), chosen by the address bits 3..10.
 * As for the 32-bit atomics (cc_isel_atomic.c), the active lanes write a
 * flag, their address and operands into the warp's scratch at sp (768
 * bytes here: flags, addresses, value words, compare words) and one scalar
 * loop serves the flagged lanes in order: take the lock (amoswap until the
 * old value is 0), read both words, compute, write both words, release
 * (amoswap of 0), keep the old value for the lane. A warp holds at most
 * one lock at a time and never waits on itself (its lanes are served one
 * after another), and the scheduler runs every warp each round, so a lock
 * is always released. Both words are written back even when unchanged
 * (a failed cmpxchg, a min that keeps the old value): under the lock that
 * is invisible to every other atomic. Limits: only 64-bit atomics take the
 * locks, so a plain store racing with one on the same long may be lost
 * (a data race in OpenCL C); kernels of different programs running at the
 * same time have different tables. */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

enum { O_ADD, O_SUB, O_XCHG, O_INC, O_DEC, O_MIN, O_MAX, O_AND, O_OR, O_XOR, O_CMPXCHG };
enum { SCRATCH = 768, LOCKS = 256 };
#define LOCK_TABLE "__cy_atomic64_locks"

/* the lock table: created in the module on first use, emitted with the
 * program-scope data (cc_module.c) */
static int lock_table(cc_fn *f) {
  LLVMValueRef g = LLVMGetNamedGlobal(f->mod, LOCK_TABLE);
  if (!g) {
    LLVMTypeRef t = LLVMArrayType2(LLVMInt32TypeInContext(LLVMGetModuleContext(f->mod)), LOCKS);
    g = LLVMAddGlobalInAddressSpace(f->mod, t, LOCK_TABLE, 1);
    LLVMSetInitializer(g, LLVMConstNull(t));
    LLVMSetAlignment(g, 4);
    LLVMSetLinkage(g, LLVMInternalLinkage);
  }
  return cc_sreg(f, g);
}

/* a < b on 64 bits, 0/1, scalar registers */
static int lt64(cc_fn *f, int sgn, int alo, int ahi, int blo, int bhi) {
  int hlt = cc_x3(f, 0, sgn ? CC_XSLT : CC_XSLTU, -1, ahi, bhi), heq = cc_x3(f, 0, CC_XSEQ, -1, ahi, bhi);
  return cc_x3(f, 0, CC_XOR, -1, hlt, cc_x3(f, 0, CC_XAND, -1, heq, cc_x3(f, 0, CC_XSLTU, -1, alo, blo)));
}

/* the new value n from the old one o, the operand v and the compare value c */
static int combine(cc_fn *f, int op, int sgn, const int o[2], const int v[2], const int c[2], int n[2]) {
  switch (op) {
  case O_XCHG:
    n[0] = v[0];
    n[1] = v[1];
    break;
  case O_ADD:
  case O_INC:
  case O_DEC: { /* inc/dec: v is 1 or -1 */
    n[0] = cc_x3(f, 0, CC_XADD, -1, o[0], v[0]);
    int carry = cc_x3(f, 0, CC_XSLTU, -1, n[0], o[0]);
    n[1] = cc_x3(f, 0, CC_XADD, -1, cc_x3(f, 0, CC_XADD, -1, o[1], v[1]), carry);
    break;
  }
  case O_SUB: {
    int borrow = cc_x3(f, 0, CC_XSLTU, -1, o[0], v[0]);
    n[0] = cc_x3(f, 0, CC_XSUB, -1, o[0], v[0]);
    n[1] = cc_x3(f, 0, CC_XSUB, -1, cc_x3(f, 0, CC_XSUB, -1, o[1], v[1]), borrow);
    break;
  }
  case O_MIN:
  case O_MAX: { /* min: v < o picks v; max: o < v picks v */
    int m = cc_xneg(f, 0, op == O_MIN ? lt64(f, sgn, v[0], v[1], o[0], o[1]) : lt64(f, sgn, o[0], o[1], v[0], v[1]));
    n[0] = cc_xpick(f, 0, m, v[0], o[0]);
    n[1] = cc_xpick(f, 0, m, v[1], o[1]);
    break;
  }
  case O_AND:
  case O_OR:
  case O_XOR: {
    int x = op == O_AND ? CC_XAND : op == O_OR ? CC_XOR : CC_XXOR;
    n[0] = cc_x3(f, 0, x, -1, o[0], v[0]);
    n[1] = cc_x3(f, 0, x, -1, o[1], v[1]);
    break;
  }
  default: { /* cmpxchg: v where o == c */
    int d = cc_x3(f, 0, CC_XOR, -1, cc_x3(f, 0, CC_XXOR, -1, o[0], c[0]), cc_x3(f, 0, CC_XXOR, -1, o[1], c[1]));
    int m = cc_xneg(f, 0, cc_x3(f, 0, CC_XSEQ, -1, d, cc_xk(f, 0, 0)));
    n[0] = cc_xpick(f, 0, m, v[0], o[0]);
    n[1] = cc_xpick(f, 0, m, v[1], o[1]);
  }
  }
  return n[0] < 0 || n[1] < 0 ? -1 : 0;
}

/* each lane's value (or compare) pair into the scratch at off(vs) */
static int stash_pair(cc_fn *f, LLVMValueRef v, int vs, int off) {
  int p[2];
  if (cc_i64_pair(f, v, 1, p)) return -1;
  return CC_EMIT(f, "vsw12.v %0, %2(%1)", 0, cc_r(p[0]), cc_r(vs), cc_imm(off)) ||
                 CC_EMIT(f, "vsw12.v %0, %2(%1)", 0, cc_r(p[1]), cc_r(vs), cc_imm(off + 128))
             ? -1
             : 0;
}

static int atomic64(cc_fn *f, LLVMValueRef in, int op, int sgn, LLVMValueRef ptr, LLVMValueRef val, LLVMValueRef cmp) {
  if (LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == 0) return cc_unsupported(f, in, "an atomic operation on private memory");
  if (f->atomics < SCRATCH) f->atomics = SCRATCH;
  int va = cc_vec(f, ptr), locks = lock_table(f);
  if (va < 0 || locks < 0) return -1;
  int n = cc_new_vreg(f, CC_S), p = cc_new_vreg(f, CC_S), k = cc_new_vreg(f, CC_S), one = cc_new_vreg(f, CC_S);
  int vl = cc_new_vreg(f, CC_V), vs = cc_new_vreg(f, CC_V), vone = cc_new_vreg(f, CC_V);
  if (n < 0 || p < 0 || k < 0 || one < 0 || vl < 0 || vs < 0 || vone < 0) return -1;
  /* flags of all num_thread lanes cleared, then set by the active ones */
  if (CC_EMIT(f, "csrr %0, numt", 1, cc_r(n)) || CC_EMIT(f, "mv %0, sp", 1, cc_r(p)) ||
      CC_EMIT(f, "mv %0, zero", 1, cc_r(k)) || CC_EMIT(f, "1: sw zero, 0(%0)", 0, cc_r(p)) ||
      CC_EMIT(f, "addi %0, %1, 4", 1, cc_r(p), cc_r(p)) || CC_EMIT(f, "addi %0, %1, 1", 1, cc_r(k), cc_r(k)) ||
      CC_EMIT(f, "blt %0, %1, 1b", 0, cc_r(k), cc_r(n)) || CC_EMIT(f, "vid.v %0", 1, cc_r(vl)) ||
      CC_EMIT(f, "vsll.vi %0, %1, 2", 1, cc_r(vl), cc_r(vl)) || CC_EMIT(f, "vadd.vx %0, %1, sp", 1, cc_r(vs), cc_r(vl)) ||
      CC_EMIT(f, "vmv.v.i %0, 1", 1, cc_r(vone)) || CC_EMIT(f, "vsw12.v %0, 0(%1)", 0, cc_r(vone), cc_r(vs)) ||
      CC_EMIT(f, "vsw12.v %0, 128(%1)", 0, cc_r(va), cc_r(vs)))
    return -1;
  if (val) {
    if (stash_pair(f, val, vs, 256)) return -1;
  } else { /* inc, dec: +1 or -1 */
    int lo = cc_xk(f, 1, op == O_INC ? 1 : -1), hi = cc_xk(f, 1, op == O_INC ? 0 : -1);
    if (lo < 0 || hi < 0 || CC_EMIT(f, "vsw12.v %0, 256(%1)", 0, cc_r(lo), cc_r(vs)) ||
        CC_EMIT(f, "vsw12.v %0, 384(%1)", 0, cc_r(hi), cc_r(vs)))
      return -1;
  }
  if (cmp && stash_pair(f, cmp, vs, 512)) return -1;
  /* one locked update per flagged lane, in lane order */
  int q = cc_new_vreg(f, CC_S), j = cc_new_vreg(f, CC_S), fl = cc_new_vreg(f, CC_S), a = cc_new_vreg(f, CC_S);
  int h = cc_new_vreg(f, CC_S), t = cc_new_vreg(f, CC_S);
  int v[2] = {cc_new_vreg(f, CC_S), cc_new_vreg(f, CC_S)}, c[2] = {-1, -1}, o[2] = {cc_new_vreg(f, CC_S), cc_new_vreg(f, CC_S)};
  if (q < 0 || j < 0 || fl < 0 || a < 0 || h < 0 || t < 0 || v[0] < 0 || v[1] < 0 || o[0] < 0 || o[1] < 0) return -1;
  if (CC_EMIT(f, "li %0, 1", 1, cc_r(one)) || CC_EMIT(f, "mv %0, sp", 1, cc_r(q)) || CC_EMIT(f, "mv %0, zero", 1, cc_r(j)) ||
      CC_EMIT(f, "2: lw %0, 0(%1)", 1, cc_r(fl), cc_r(q)) || CC_EMIT(f, "beqz %0, 3f", 0, cc_r(fl)) ||
      CC_EMIT(f, "lw %0, 128(%1)", 1, cc_r(a), cc_r(q)) || CC_EMIT(f, "lw %0, 256(%1)", 1, cc_r(v[0]), cc_r(q)) ||
      CC_EMIT(f, "lw %0, 384(%1)", 1, cc_r(v[1]), cc_r(q)))
    return -1;
  if (cmp) {
    c[0] = cc_new_vreg(f, CC_S);
    c[1] = cc_new_vreg(f, CC_S);
    if (c[0] < 0 || c[1] < 0 || CC_EMIT(f, "lw %0, 512(%1)", 1, cc_r(c[0]), cc_r(q)) ||
        CC_EMIT(f, "lw %0, 640(%1)", 1, cc_r(c[1]), cc_r(q)))
      return -1;
  }
  /* the lock of this address: table + ((a >> 3) mod 256) * 4; the spin
   * loop reads h and one again, so they stay live to its branch */
  if (CC_EMIT(f, "srli %0, %1, 3", 1, cc_r(h), cc_r(a)) || CC_EMIT(f, "andi %0, %1, 255", 1, cc_r(h), cc_r(h)) ||
      CC_EMIT(f, "slli %0, %1, 2", 1, cc_r(h), cc_r(h)) || CC_EMIT(f, "add %0, %1, %2", 1, cc_r(h), cc_r(h), cc_r(locks)) ||
      CC_EMIT(f, "4: amoswap.w %0, %1, (%2)", 1, cc_r(t), cc_r(one), cc_r(h)) ||
      CC_EMIT(f, "bnez %0, 4b", 0, cc_r(t), cc_r(one), cc_r(h)) || CC_EMIT(f, "lw %0, 0(%1)", 1, cc_r(o[0]), cc_r(a)) ||
      CC_EMIT(f, "lw %0, 4(%1)", 1, cc_r(o[1]), cc_r(a)))
    return -1;
  int nw[2];
  if (combine(f, op, sgn, o, v, c, nw) || CC_EMIT(f, "sw %0, 0(%1)", 0, cc_r(nw[0]), cc_r(a)) ||
      CC_EMIT(f, "sw %0, 4(%1)", 0, cc_r(nw[1]), cc_r(a)) || CC_EMIT(f, "amoswap.w zero, zero, (%0)", 0, cc_r(h)) ||
      CC_EMIT(f, "sw %0, 256(%1)", 0, cc_r(o[0]), cc_r(q)) || CC_EMIT(f, "sw %0, 384(%1)", 0, cc_r(o[1]), cc_r(q)))
    return -1;
  /* the lane loop reads these again in its next iteration */
  if (CC_EMIT(f, "3: addi %0, %1, 4", 1, cc_r(q), cc_r(q)) || CC_EMIT(f, "addi %0, %1, 1", 1, cc_r(j), cc_r(j)) ||
      CC_EMIT(f, "@keep", 0, cc_r(locks), cc_r(one), cc_r(q), cc_r(n)) ||
      CC_EMIT(f, "blt %0, %1, 2b", 0, cc_r(j), cc_r(n)))
    return -1;
  if (!LLVMGetFirstUse(in)) return 0;
  int r[2] = {cc_new_vreg(f, CC_V), cc_new_vreg(f, CC_V)};
  if (r[0] < 0 || r[1] < 0 || CC_EMIT(f, "vlw12.v %0, 256(%1)", 1, cc_r(r[0]), cc_r(vs)) ||
      CC_EMIT(f, "vlw12.v %0, 384(%1)", 1, cc_r(r[1]), cc_r(vs)))
    return -1;
  int *g = malloc(2 * sizeof *g);
  if (!g) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
  g[0] = r[0];
  g[1] = r[1];
  return cc_set_group(f, in, g);
}

int cc_select_atomic64_call(cc_fn *f, LLVMValueRef call, const char *opname, int oplen, int sgn) {
  static const char *const names[] = {"add", "sub", "xchg", "inc", "dec", "min", "max", "and", "or", "xor", "cmpxchg"};
  int op = -1;
  for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
    if ((int)strlen(names[i]) == oplen && !strncmp(opname, names[i], (size_t)oplen)) op = i;
  if (op < 0) return cc_unsupported(f, call, "this 64-bit atomic operation");
  LLVMValueRef ptr = LLVMGetOperand(call, 0);
  LLVMValueRef val = op == O_INC || op == O_DEC ? NULL : LLVMGetOperand(call, op == O_CMPXCHG ? 2 : 1);
  LLVMValueRef cmp = op == O_CMPXCHG ? LLVMGetOperand(call, 1) : NULL;
  return atomic64(f, call, op, sgn, ptr, val, cmp);
}

int cc_select_atomic64_rmw(cc_fn *f, LLVMValueRef in) {
  int op, sgn = 1;
  switch (LLVMGetAtomicRMWBinOp(in)) {
  case LLVMAtomicRMWBinOpXchg: op = O_XCHG; break;
  case LLVMAtomicRMWBinOpAdd: op = O_ADD; break;
  case LLVMAtomicRMWBinOpSub: op = O_SUB; break;
  case LLVMAtomicRMWBinOpAnd: op = O_AND; break;
  case LLVMAtomicRMWBinOpOr: op = O_OR; break;
  case LLVMAtomicRMWBinOpXor: op = O_XOR; break;
  case LLVMAtomicRMWBinOpMax: op = O_MAX; break;
  case LLVMAtomicRMWBinOpMin: op = O_MIN; break;
  case LLVMAtomicRMWBinOpUMax: op = O_MAX, sgn = 0; break;
  case LLVMAtomicRMWBinOpUMin: op = O_MIN, sgn = 0; break;
  default: return cc_unsupported(f, in, "this atomic read-modify-write operation");
  }
  return atomic64(f, in, op, sgn, LLVMGetOperand(in, 0), LLVMGetOperand(in, 1), NULL);
}
