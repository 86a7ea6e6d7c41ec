/* Constant offsets out of address computations, so that the back end can
 * put them in the 12-bit immediates of its loads and stores (cc_isel.c).
 *
 * clang writes tile[ly + 2][lx + 1] and tile[ly][lx + 1] as two GEPs with
 * different index values; LLVM's separate-const-offset-from-gep rewrites
 * each as one common GEP (tile[ly][lx]) plus a constant byte offset, and
 * early-cse then keeps one copy of the common part. The pass asks the
 * target which offsets an address may carry: the RISC-V target machine of
 * libLLVM answers "a signed 12-bit one", as Ventus's vlw12/vsw12, lw/sw
 * and vlw.v/vsw.v take. Without a RISC-V target in libLLVM (a build of LLVM
 * without it) the step is skipped: the code is only longer. */
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <pthread.h>

#include "cc_internal.h"

#define TRIPLE "riscv32-unknown-elf"

/* LLVM's target registry is process-wide; registering twice at once from
 * two threads compiling (clBuildProgram) must not race */
static pthread_once_t targets_once = PTHREAD_ONCE_INIT;
static void init_riscv(void) {
  LLVMInitializeRISCVTargetInfo();
  LLVMInitializeRISCVTarget();
  LLVMInitializeRISCVTargetMC();
}

int cc_split_address_offsets(LLVMModuleRef m, vt_error *e) {
  pthread_once(&targets_once, init_riscv);
  LLVMTargetRef target;
  char *msg = NULL;
  if (LLVMGetTargetFromTriple(TRIPLE, &target, &msg)) {
    LLVMDisposeMessage(msg);
    return 0;
  }
  LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, TRIPLE, "generic-rv32", "", LLVMCodeGenLevelDefault,
                                                    LLVMRelocDefault, LLVMCodeModelDefault);
  if (!tm) return 0;
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(m, "function(separate-const-offset-from-gep,early-cse)", tm, po);
  LLVMDisposePassBuilderOptions(po);
  LLVMDisposeTargetMachine(tm);
  if (err) {
    msg = LLVMGetErrorMessage(err);
    vt_fail(e, VT_ERR_INTERNAL, "LLVM passes failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return -1;
  }
  return 0;
}
