/* LLVM's fatal errors (report_fatal_error: a broken module, a pass that
 * gives up) call a process-wide handler and then exit(1): inside the
 * OpenCL platform that would end the user's program in the middle of
 * clBuildProgram. The handler installed here (once, on the first
 * compilation) jumps back to the entry point of the compilation running on
 * the same thread, which returns an error instead; the work of that
 * compilation (its LLVM context) is abandoned, not freed, since LLVM's
 * state at that point is unknown. On a thread that is not compiling (the
 * host's own use of the same libLLVM) the handler prints LLVM's line and
 * returns, and LLVM exits as it would have without us.
 * The handler is process-wide by LLVM's design and takes no argument, so
 * the way back is per thread (thread-local), the one piece of mutable
 * state outside the call chain; it replaces a handler the host program may
 * have installed in the same libLLVM, and never dangles, since the module
 * stays loaded (cc_load: RTLD_NODELETE). */
#include <llvm-c/ErrorHandling.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include "cc_internal.h"

typedef struct {
  jmp_buf back;
  char reason[256];
} guard;

static _Thread_local guard *current;

static void on_fatal(const char *reason) {
  guard *g = current;
  if (!g) {
    fprintf(stderr, "LLVM ERROR: %s\n", reason ? reason : "(no reason given)");
    return;
  }
  snprintf(g->reason, sizeof g->reason, "%s", reason ? reason : "(no reason given)");
  current = NULL;
  longjmp(g->back, 1);
}

static pthread_once_t installed = PTHREAD_ONCE_INIT;
static void install(void) { LLVMInstallFatalErrorHandler(on_fatal); }

int cc_guarded(int (*fn)(void *arg), void *arg, vt_error *e) {
  pthread_once(&installed, install);
  guard g;
  guard *outer = current; /* a guarded call inside another keeps the outer one's way back afterwards */
  g.reason[0] = 0;
  if (setjmp(g.back)) {
    current = outer;
    return vt_fail(e, VT_ERR_INTERNAL, "LLVM gave up with a fatal error (a compiler defect): %s", g.reason);
  }
  current = &g;
  int rc = fn(arg);
  current = outer;
  return rc;
}
