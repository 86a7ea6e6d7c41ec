/* The asynchronous copies of OpenCL C 1.2 §6.12.10, lowered in the IR
 * before the optimiser. The device has no copy engine, so
 * async_work_group_copy and async_work_group_strided_copy are done by the
 * work-items themselves: each copies the elements i = its linear local id,
 * + the work-group size, ... (every work-item meets the call with the same
 * arguments, as the specification requires), and the call's value is the
 * event it was given. wait_group_events becomes a barrier, after which
 * every work-item's copies are visible; prefetch, a hint, is dropped. The
 * element size comes from the mangled name (the pointers are opaque). */
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

/* bytes of a mangled scalar type letter */
static unsigned scalar_bytes(char c) {
  switch (c) {
  case 'c': case 'a': case 'h': return 1;
  case 's': case 't': return 2;
  case 'i': case 'j': case 'f': return 4;
  case 'l': case 'm': case 'd': return 8;
  default: return 0;
  }
}

/* the size of the first pointer parameter's pointee in a name like
 * _Z21async_work_group_copyPU3AS3Dv4_fPU3AS1KS_j9ocl_event, or 0 */
static unsigned elem_bytes(const char *name) {
  const char *p = strstr(name, "copy");
  if (!p || strncmp(p + 4, "PU3AS", 5)) return 0;
  p += 10; /* past the address space digit */
  while (*p == 'K' || *p == 'V') p++;
  if (!strncmp(p, "Dh", 2)) return 2;
  if (!strncmp(p, "Dv", 2)) {
    char *end;
    long n = strtol(p + 2, &end, 10);
    if (*end != '_' || n < 2 || n > 16) return 0;
    return (unsigned)(n == 3 ? 4 : n) * scalar_bytes(end[1]);
  }
  return scalar_bytes(*p);
}

/* a builtin of one uint parameter, declared if the program does not */
static LLVMValueRef builtin_fn(LLVMModuleRef m, const char *name, int void_result) {
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (fn) return fn;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  fn = LLVMAddFunction(m, name, LLVMFunctionType(void_result ? LLVMVoidTypeInContext(ctx) : i32, &i32, 1, 0));
  LLVMSetFunctionCallConv(fn, LLVMSPIRFUNCCallConv);
  return fn;
}

static LLVMValueRef call1(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef arg) {
  LLVMValueRef c = LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, &arg, 1, "");
  LLVMSetInstructionCallConv(c, LLVMGetFunctionCallConv(fn));
  return c;
}

/* one element (esize bytes) from src[si] to dst[di], in words as wide as it allows */
static void copy_elem(LLVMBuilderRef b, LLVMContextRef ctx, LLVMValueRef dst, LLVMValueRef di, LLVMValueRef src,
                      LLVMValueRef si, unsigned esize) {
  unsigned w = esize % 4 == 0 ? 4 : esize % 2 == 0 ? 2 : 1;
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx), wt = LLVMIntTypeInContext(ctx, w * 8);
  LLVMValueRef e = LLVMConstInt(i32, esize, 0);
  LLVMValueRef doff = LLVMBuildMul(b, di, e, ""), soff = LLVMBuildMul(b, si, e, "");
  for (unsigned k = 0; k < esize; k += w) {
    LLVMValueRef kk = LLVMConstInt(i32, k, 0);
    LLVMValueRef d = LLVMBuildAdd(b, doff, kk, ""), s = LLVMBuildAdd(b, soff, kk, "");
    LLVMValueRef v = LLVMBuildLoad2(b, wt, LLVMBuildGEP2(b, i8, src, &s, 1, ""), "");
    LLVMSetAlignment(v, w);
    LLVMSetAlignment(LLVMBuildStore(b, v, LLVMBuildGEP2(b, i8, dst, &d, 1, "")), w);
  }
}

static void lower_copy(LLVMModuleRef m, LLVMBuilderRef b, LLVMValueRef call, int strided, unsigned esize) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMValueRef dst = LLVMGetOperand(call, 0), src = LLVMGetOperand(call, 1), n = LLVMGetOperand(call, 2);
  LLVMValueRef stride = strided ? LLVMGetOperand(call, 3) : LLVMConstInt(i32, 1, 0);
  LLVMValueRef event = LLVMGetOperand(call, strided ? 4 : 3);
  int to_local = LLVMGetPointerAddressSpace(LLVMTypeOf(dst)) == 3; /* else local to global: dst strided */
  LLVMBasicBlockRef pre = cc_split_before(ctx, call), rest = LLVMGetInstructionParent(call);
  if (!pre) return; /* left as a call: the back end names it */
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(call));
  LLVMValueRef lid = builtin_fn(m, "_Z12get_local_idj", 0), lsz = builtin_fn(m, "_Z14get_local_sizej", 0);
  LLVMValueRef d[3], id[3];
  for (unsigned k = 0; k < 3; k++) {
    d[k] = call1(b, lsz, LLVMConstInt(i32, k, 0));
    id[k] = call1(b, lid, LLVMConstInt(i32, k, 0));
  }
  LLVMValueRef first = LLVMBuildAdd(b, id[0], LLVMBuildMul(b, d[0], LLVMBuildAdd(b, id[1], LLVMBuildMul(b, d[1], id[2], ""), ""), ""), "");
  LLVMValueRef step = LLVMBuildMul(b, LLVMBuildMul(b, d[0], d[1], ""), d[2], "");
  LLVMBasicBlockRef body = LLVMInsertBasicBlockInContext(ctx, rest, "async.copy");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, first, n, ""), body, rest);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef i = LLVMBuildPhi(b, i32, "");
  LLVMValueRef far = LLVMBuildMul(b, i, stride, "");
  copy_elem(b, ctx, dst, to_local ? i : far, src, to_local ? far : i, esize);
  LLVMValueRef next = LLVMBuildAdd(b, i, step, "");
  LLVMValueRef inv[2] = {first, next};
  LLVMBasicBlockRef inb[2] = {pre, body};
  LLVMAddIncoming(i, inv, inb, 2);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, next, n, ""), body, rest);
  LLVMReplaceAllUsesWith(call, event);
  LLVMInstructionEraseFromParent(call);
}

void cc_lower_async(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    size_t len;
    const char *name = LLVMGetValueName2(fn, &len);
    int copy = !strncmp(name, "_Z21async_work_group_copy", 25), strided = !strncmp(name, "_Z29async_work_group_strided_copy", 33);
    int wait = !strncmp(name, "_Z17wait_group_events", 21), prefetch = !strncmp(name, "_Z8prefetch", 11);
    unsigned esize = copy || strided ? elem_bytes(name) : 0;
    if (LLVMGetFirstBasicBlock(fn) || (!esize && !wait && !prefetch)) continue;
    /* the calls first: lowering one moves the others between blocks */
    size_t n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) n++;
    LLVMValueRef *calls = calloc(n ? n : 1, sizeof *calls);
    if (!calls) break; /* left as calls: the back end names them */
    n = 0;
    for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef c = LLVMGetUser(u);
      if (LLVMIsACallInst(c) && LLVMGetCalledValue(c) == fn) calls[n++] = c;
    }
    LLVMValueRef barrier = wait ? builtin_fn(m, "_Z7barrierj", 1) : NULL;
    for (size_t i = 0; i < n; i++) {
      if (esize) {
        lower_copy(m, b, calls[i], strided, esize);
        continue;
      }
      if (wait) { /* CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE */
        LLVMPositionBuilderBefore(b, calls[i]);
        LLVMSetCurrentDebugLocation2(b, LLVMInstructionGetDebugLoc(calls[i]));
        call1(b, barrier, LLVMConstInt(i32, 3, 0));
      }
      LLVMInstructionEraseFromParent(calls[i]);
    }
    free(calls);
  }
  LLVMDisposeBuilder(b);
}
