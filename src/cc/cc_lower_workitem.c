/* The work-item functions (get_global_id(0), get_local_size(1), ...) with a
 * constant dimension: one call per function and dimension, at the top of
 * the entry block. Their values are fixed for a work-item's whole run, but
 * LLVM sees calls of different functions, and get_global_id(0) and
 * get_local_id(0) share the local id's remainder, which the selector
 * (cc_isel_call.c) then computes once, in the entry block only. Kernels
 * typically call several of them, often in several places: each call cost
 * 4-10 warp instructions, a vremu/vdivu among them. After the optimiser
 * and the other lowerings. */
#include <string.h>

#include "cc_internal.h"

static const char *const workitem_fns[] = {
    "_Z13get_global_idj", "_Z12get_local_idj",      "_Z12get_group_idj",    "_Z14get_local_sizej",
    "_Z15get_global_sizej", "_Z14get_num_groupsj", "_Z17get_global_offsetj", "_Z12get_work_dimv",
};
enum { NFN = sizeof workitem_fns / sizeof *workitem_fns, NDIM = 4 }; /* dimensions above 2 share slot 3 */

static int workitem_index(LLVMValueRef call) {
  LLVMValueRef fn = LLVMGetCalledValue(call);
  if (!fn || !LLVMIsAFunction(fn)) return -1;
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  for (int i = 0; i < NFN; i++)
    if (!strcmp(name, workitem_fns[i])) return i;
  return -1;
}

/* the slot of a call: function and constant dimension, or -1 */
static int slot_of(LLVMValueRef in) {
  if (!LLVMIsACallInst(in)) return -1;
  int k = workitem_index(in);
  if (k < 0) return -1;
  if (!LLVMGetNumArgOperands(in)) return k * NDIM; /* get_work_dim */
  LLVMValueRef a = LLVMGetOperand(in, 0);
  if (!LLVMIsAConstantInt(a)) return -1;
  unsigned long long d = LLVMConstIntGetZExtValue(a);
  return k * NDIM + (int)(d < NDIM - 1 ? d : NDIM - 1);
}

static void hoist_fn(LLVMBuilderRef b, LLVMValueRef fn) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(fn);
  LLVMValueRef first[NFN * NDIM] = {0};
  /* the place: after the entry block's leading allocas */
  LLVMValueRef at = LLVMGetFirstInstruction(entry);
  while (at && LLVMIsAAllocaInst(at)) at = LLVMGetNextInstruction(at);
  if (!at) return;
  for (LLVMBasicBlockRef bb = entry; bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
      next = LLVMGetNextInstruction(in);
      int s = slot_of(in);
      if (s < 0) continue;
      if (in == at) { /* the first instruction after the allocas: already there */
        first[s] = in;
        continue;
      }
      if (first[s]) { /* the same value: use the first */
        LLVMReplaceAllUsesWith(in, first[s]);
        LLVMInstructionEraseFromParent(in);
        continue;
      }
      /* the call's operands are constants, so it may move to the top */
      LLVMInstructionRemoveFromParent(in);
      LLVMPositionBuilderBefore(b, at);
      LLVMInsertIntoBuilder(b, in);
      first[s] = in;
    }
}

void cc_hoist_workitems(LLVMModuleRef m) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn)) hoist_fn(b, fn);
  LLVMDisposeBuilder(b);
}
