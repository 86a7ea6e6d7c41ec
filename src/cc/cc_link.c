/* Separate compilation: clang's bitcode for each compiled unit (the
 * OpenCL platform's clCompileProgram objects) linked into one module with
 * LLVM's own linker, which resolves a function declared in one unit and
 * defined in another and keeps each unit's static functions apart. The
 * back end then sees one module, as if it had been one source. */
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc.h"
#include "cc_internal.h"

/* the linker's complaints (a symbol defined twice, ...) come through the
 * context's diagnostic handler; the first error is kept */
typedef struct {
  char msg[400];
  int seen;
} diag_sink;

static void on_diag(LLVMDiagnosticInfoRef di, void *arg) {
  diag_sink *d = arg;
  if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || d->seen) return;
  char *s = LLVMGetDiagInfoDescription(di);
  snprintf(d->msg, sizeof d->msg, "%s", s ? s : "unknown error");
  LLVMDisposeMessage(s);
  d->seen = 1;
}

int cc_read_linked(LLVMContextRef ctx, const char *const *bcs, const size_t *lens, int n, LLVMModuleRef *out,
                   vt_error *e) {
  *out = NULL;
  diag_sink d = {.seen = 0};
  LLVMContextSetDiagnosticHandler(ctx, on_diag, &d);
  LLVMModuleRef m = NULL;
  for (int i = 0; i < n; i++) {
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(bcs[i], lens[i], "unit.bc");
    LLVMModuleRef u = NULL;
    int bad = LLVMParseBitcodeInContext2(ctx, mb, &u);
    LLVMDisposeMemoryBuffer(mb);
    if (bad) {
      if (m) LLVMDisposeModule(m);
      LLVMContextSetDiagnosticHandler(ctx, NULL, NULL);
      return vt_fail(e, VT_ERR_FORMAT, "compiled object %d of %d is not LLVM bitcode from this compiler", i + 1, n);
    }
    cc_inline_odr(u);
    if (!m) {
      m = u;
      continue;
    }
    if (LLVMLinkModules2(m, u)) { /* u is consumed either way */
      LLVMDisposeModule(m);
      LLVMContextSetDiagnosticHandler(ctx, NULL, NULL);
      return vt_fail(e, VT_ERR_ASM, "linking compiled object %d of %d: %s", i + 1, n,
                     d.seen ? d.msg : "the LLVM linker failed");
    }
  }
  LLVMContextSetDiagnosticHandler(ctx, NULL, NULL);
  if (!m) return vt_fail(e, VT_ERR_USAGE, "nothing to link");
  *out = m;
  return 0;
}

static int link_bitcode(const char *const *bcs, const size_t *lens, int n, uint8_t **out, size_t *out_size,
                        vt_error *e) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  int rc = -1;
  if (!cc_read_linked(ctx, bcs, lens, n, &m, e)) {
    LLVMMemoryBufferRef mb = LLVMWriteBitcodeToMemoryBuffer(m);
    size_t len = mb ? LLVMGetBufferSize(mb) : 0;
    if (mb && (*out = malloc(len ? len : 1))) {
      memcpy(*out, LLVMGetBufferStart(mb), len);
      *out_size = len;
      rc = 0;
    } else {
      vt_fail(e, VT_ERR_NOMEM, "out of memory while linking");
    }
    if (mb) LLVMDisposeMemoryBuffer(mb);
    LLVMDisposeModule(m);
  }
  LLVMContextDispose(ctx);
  return rc;
}

typedef struct {
  const char *const *bcs;
  const size_t *lens;
  int n;
  uint8_t **out;
  size_t *out_size;
  vt_error *e;
} link_args;

static int link_guarded(void *arg) {
  link_args *a = arg;
  return link_bitcode(a->bcs, a->lens, a->n, a->out, a->out_size, a->e);
}

int cc_link_bitcode(const char *const *bcs, const size_t *lens, int n, uint8_t **out, size_t *out_size, vt_error *e) {
  *out = NULL;
  *out_size = 0;
  link_args a = {bcs, lens, n, out, out_size, e};
  return cc_guarded(link_guarded, &a, e);
}
