/* llvm.memset, llvm.memcpy and llvm.memmove of a length known only at run
 * time or of more than 256 bytes become loops in the IR (after the
 * optimiser, which makes them of zeroing and copying loops and of array
 * initialisers); shorter constant ones stay calls, which the back end
 * unrolls (cc_isel_call.c). A loop moves elements of the widest width both
 * pointers' alignment allows (4, 2 or 1 bytes), then the bytes of the
 * tail; memmove picks the direction at run time, backwards when the
 * destination lies above the source. The caller runs break-crit-edges
 * again: the loops' guards make critical edges. */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

enum { M_SET, M_CPY, M_MOVE };

typedef struct {
  LLVMContextRef ctx;
  LLVMBuilderRef b;
  LLVMBasicBlockRef after; /* the block the lowered call ends in; the loops go before it */
  int kind;
  LLVMValueRef dst, src, val; /* val: the fill byte (i8) */
  LLVMValueRef fills[3];      /* the fill byte repeated over 1, 2 and 4 bytes, made ahead of the loops */
  unsigned dst_as, src_as;
} mem_op;

static int mem_kind(LLVMValueRef in) {
  if (!LLVMIsACallInst(in)) return -1;
  LLVMValueRef fn = LLVMGetCalledValue(in);
  if (!fn || !LLVMIsAFunction(fn)) return -1;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  if (!strncmp(name, "llvm.memset.", 12)) return M_SET;
  if (!strncmp(name, "llvm.memcpy.", 12)) return M_CPY;
  if (!strncmp(name, "llvm.memmove.", 13)) return M_MOVE;
  return -1;
}

/* the fill byte repeated over w bytes */
static LLVMValueRef fill(mem_op *o, unsigned w) {
  if (w == 1) return o->val;
  LLVMTypeRef t = LLVMIntTypeInContext(o->ctx, w * 8);
  LLVMValueRef v = LLVMBuildZExt(o->b, o->val, t, "");
  return LLVMBuildMul(o->b, v, LLVMConstInt(t, w == 4 ? 0x01010101u : 0x0101u, 0), "");
}

/* element idx (in units of w bytes) set or copied */
static void elem(mem_op *o, LLVMValueRef idx, unsigned w) {
  LLVMTypeRef t = LLVMIntTypeInContext(o->ctx, w * 8);
  LLVMValueRef dp = LLVMBuildGEP2(o->b, t, o->dst, &idx, 1, "");
  LLVMValueRef v;
  if (o->kind == M_SET) v = o->fills[w / 2];
  else {
    v = LLVMBuildLoad2(o->b, t, LLVMBuildGEP2(o->b, t, o->src, &idx, 1, ""), "");
    LLVMSetAlignment(v, w);
  }
  LLVMSetAlignment(LLVMBuildStore(o->b, v, dp), w);
}

/* elements [from, to) of width w, upwards or downwards, from the builder's
 * block (which this ends); the builder is left in the block after them */
static void loop(mem_op *o, LLVMValueRef from, LLVMValueRef to, unsigned w, int down) {
  LLVMTypeRef i32 = LLVMTypeOf(to);
  LLVMBasicBlockRef cur = LLVMGetInsertBlock(o->b);
  LLVMBasicBlockRef next = LLVMInsertBasicBlockInContext(o->ctx, o->after, "mem.next");
  LLVMValueRef any = LLVMBuildICmp(o->b, LLVMIntULT, from, to, "");
  if (LLVMIsAConstantInt(any) && !LLVMConstIntGetZExtValue(any)) {
    LLVMBuildBr(o->b, next);
    LLVMPositionBuilderAtEnd(o->b, next);
    return;
  }
  LLVMBasicBlockRef body = LLVMInsertBasicBlockInContext(o->ctx, next, "mem.loop");
  if (LLVMIsAConstantInt(any)) LLVMBuildBr(o->b, body);
  else LLVMBuildCondBr(o->b, any, body, next);
  LLVMPositionBuilderAtEnd(o->b, body);
  LLVMValueRef i = LLVMBuildPhi(o->b, i32, ""), one = LLVMConstInt(i32, 1, 0), step, more;
  if (down) { /* i runs from `to` down to from + 1; the element is i - 1 */
    step = LLVMBuildSub(o->b, i, one, "");
    elem(o, step, w);
    more = LLVMBuildICmp(o->b, LLVMIntUGT, step, from, "");
  } else {
    elem(o, i, w);
    step = LLVMBuildAdd(o->b, i, one, "");
    more = LLVMBuildICmp(o->b, LLVMIntULT, step, to, "");
  }
  LLVMValueRef inv[2] = {down ? to : from, step};
  LLVMBasicBlockRef inb[2] = {cur, body};
  LLVMAddIncoming(i, inv, inb, 2);
  LLVMBuildCondBr(o->b, more, body, next);
  LLVMPositionBuilderAtEnd(o->b, next);
}

/* the whole length n: elements of width w, then the tail bytes */
static void chain(mem_op *o, LLVMValueRef n, unsigned w, int down) {
  LLVMTypeRef i32 = LLVMTypeOf(n);
  LLVMValueRef sh = LLVMConstInt(i32, w == 4 ? 2 : 1, 0), zero = LLVMConstInt(i32, 0, 0);
  LLVMValueRef cnt = w == 1 ? n : LLVMBuildLShr(o->b, n, sh, ""), split = w == 1 ? n : LLVMBuildShl(o->b, cnt, sh, "");
  if (!down) loop(o, zero, cnt, w, 0);
  if (w > 1) loop(o, split, n, 1, down);
  if (down) loop(o, zero, cnt, w, 1);
}

static unsigned align_of(LLVMValueRef call, unsigned arg) {
  unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, arg + 1, kind);
  return a ? (unsigned)LLVMGetEnumAttributeValue(a) : 1;
}

LLVMBasicBlockRef cc_split_before(LLVMContextRef ctx, LLVMValueRef inst) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u))
    if (!LLVMIsATerminatorInst(LLVMGetUser(u))) return NULL;
  LLVMBasicBlockRef pre = LLVMInsertBasicBlockInContext(ctx, bb, "split.pre");
  LLVMUseRef u;
  while ((u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)))) {
    LLVMValueRef t = LLVMGetUser(u);
    for (unsigned i = 0; i < LLVMGetNumSuccessors(t); i++)
      if (LLVMGetSuccessor(t, i) == bb) LLVMSetSuccessor(t, i, pre);
  }
  LLVMBuilderRef mv = LLVMCreateBuilderInContext(ctx); /* no debug location: the moved keep theirs */
  LLVMPositionBuilderAtEnd(mv, pre);
  for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in != inst; in = LLVMGetFirstInstruction(bb)) {
    LLVMInstructionRemoveFromParent(in);
    LLVMInsertIntoBuilder(mv, in);
  }
  LLVMDisposeBuilder(mv);
  return pre;
}

static int lower_one(LLVMContextRef ctx, LLVMBuilderRef b, LLVMValueRef call, int kind) {
  mem_op o = {ctx, b, LLVMGetInstructionParent(call), kind, LLVMGetOperand(call, 0), NULL, NULL, {NULL}, 0, 0};
  LLVMValueRef n = LLVMGetOperand(call, 2);
  if (kind == M_SET) o.val = LLVMGetOperand(call, 1);
  else o.src = LLVMGetOperand(call, 1);
  o.dst_as = LLVMGetPointerAddressSpace(LLVMTypeOf(o.dst));
  if (o.src) o.src_as = LLVMGetPointerAddressSpace(LLVMTypeOf(o.src));
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  unsigned al = align_of(call, 0);
  if (o.src && align_of(call, 1) < al) al = align_of(call, 1);
  unsigned w = al >= 4 ? 4 : al >= 2 ? 2 : 1;
  if (LLVMIsAConstantInt(n)) {
    unsigned long long c = LLVMConstIntGetZExtValue(n);
    while (w > 1 && c % w) w /= 2; /* a constant length: no tail when it divides */
  }
  LLVMBasicBlockRef pre = cc_split_before(ctx, call);
  if (!pre) return 0;
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
  LLVMValueRef len = LLVMGetIntTypeWidth(LLVMTypeOf(n)) == 32 ? n : LLVMBuildTrunc(b, n, i32, "");
  if (kind == M_SET) { /* the loops' widths: w, and single bytes for the tail */
    o.fills[0] = o.val;
    o.fills[w / 2] = fill(&o, w);
  }
  if (kind == M_MOVE && o.dst_as == o.src_as) {
    LLVMBasicBlockRef fwd = LLVMInsertBasicBlockInContext(ctx, o.after, "mem.fwd");
    LLVMBasicBlockRef back = LLVMInsertBasicBlockInContext(ctx, o.after, "mem.back");
    LLVMValueRef d = LLVMBuildPtrToInt(b, o.dst, i32, ""), s = LLVMBuildPtrToInt(b, o.src, i32, "");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, d, s, ""), fwd, back);
    LLVMPositionBuilderAtEnd(b, back);
    chain(&o, len, w, 1);
    LLVMBuildBr(b, o.after);
    LLVMPositionBuilderAtEnd(b, fwd);
  }
  chain(&o, len, w, 0);
  LLVMBuildBr(b, o.after);
  LLVMInstructionEraseFromParent(call);
  return 1;
}

static int wants_loop(LLVMValueRef call) {
  LLVMValueRef n = LLVMGetOperand(call, 2);
  return !LLVMIsAConstantInt(n) || LLVMConstIntGetZExtValue(n) > 256;
}

int cc_lower_mem_intrinsics(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  size_t n = 0, cap = 0;
  LLVMValueRef *calls = NULL;
  int lowered = 0;
  /* collected first: lowering moves instructions between blocks */
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        if (mem_kind(in) < 0 || !wants_loop(in)) continue;
        if (n == cap) {
          LLVMValueRef *p = realloc(calls, sizeof *p * (cap = cap ? cap * 2 : 16));
          if (!p) { /* left as calls: the back end names them */
            free(calls);
            return 0;
          }
          calls = p;
        }
        calls[n++] = in;
      }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (size_t i = 0; i < n; i++) lowered += lower_one(ctx, b, calls[i], mem_kind(calls[i]));
  LLVMDisposeBuilder(b);
  free(calls);
  return lowered;
}
