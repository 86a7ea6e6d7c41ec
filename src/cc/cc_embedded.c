/* Our OpenCL C device libraries (src/cc/lib, embedded as text at
 * build time) are compiled by clang like a program, without line tables
 * (a refusal never points into them), parsed into the program's context
 * and linked into it. A failure there is a compiler defect, not the
 * user's: every message says which library. */
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>

#include "cc_front.h"
#include "cc_internal.h"

int cc_link_embedded(LLVMModuleRef m, const cc_embedded_lib *lib, const char *const *flags, int nflags, vt_error *e) {
  enum { MAXF = 16 };
  const char *all[MAXF + 1] = {"-g0"};
  if (nflags > MAXF) return vt_fail(e, VT_ERR_INTERNAL, "the %s: %d clang flags, at most %d", lib->what, nflags, MAXF);
  for (int i = 0; i < nflags; i++) all[1 + i] = flags[i];
  cc_options o = {.cflags = all, .ncflags = 1 + nflags, .opt = 2, .allow_empty = 1};
  char *bc = NULL, *log = NULL;
  size_t len = 0;
  if (cc_run_clang(NULL, lib->text, &o, &bc, &len, &log, e)) {
    if (e->kind == VT_ERR_ASM) /* clang's errors on our own text */
      vt_fail(e, VT_ERR_INTERNAL, "the %s does not compile (a compiler defect): %.300s", lib->what, log ? log : "");
    free(log);
    return -1;
  }
  free(log);
  LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(bc, len, lib->what);
  free(bc);
  LLVMModuleRef u = NULL;
  int bad = !mb || LLVMParseBitcodeInContext2(LLVMGetModuleContext(m), mb, &u);
  if (mb) LLVMDisposeMemoryBuffer(mb);
  if (bad) return vt_fail(e, VT_ERR_INTERNAL, "the %s does not parse", lib->what);
  if (lib->passes) {
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(u, lib->passes, NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
      char *msg = LLVMGetErrorMessage(err);
      vt_fail(e, VT_ERR_INTERNAL, "LLVM passes failed on the %s: %s", lib->what, msg);
      LLVMDisposeErrorMessage(msg);
      LLVMDisposeModule(u);
      return -1;
    }
  }
  if (lib->shape) lib->shape(u);
  /* the program's data layout and triple, so the linker does not warn */
  LLVMSetDataLayout(u, LLVMGetDataLayoutStr(m));
  LLVMSetTarget(u, LLVMGetTarget(m));
  if (LLVMLinkModules2(m, u)) return vt_fail(e, VT_ERR_INTERNAL, "linking the %s failed", lib->what);
  return 0;
}
