/* Functions the source declares `inline`. The front end drops the keyword
 * (so a C99 inline definition keeps its body, cc_front.c) and marks them
 * instead with a section of its own; here, on each compiled unit before
 * linking, the mark goes and an external definition becomes linkonce_odr:
 * two units that include the same `inline` function from a header then
 * link as C99 means them to (one body, no "symbol multiply defined"), and
 * the inliner may drop the body once every call is inlined. */
#include <string.h>

#include "cc_front.h"
#include "cc_internal.h"

void cc_inline_odr(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    const char *sec = LLVMGetSection(fn);
    if (!sec || strcmp(sec, CC_INLINE_SECTION)) continue;
    LLVMSetSection(fn, "");
    if (LLVMGetFirstBasicBlock(fn) && LLVMGetLinkage(fn) == LLVMExternalLinkage &&
        LLVMGetFunctionCallConv(fn) != LLVMSPIRKERNELCallConv)
      LLVMSetLinkage(fn, LLVMLinkOnceODRLinkage);
  }
}
