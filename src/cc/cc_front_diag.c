/* Why clang failed, in one line after its diagnostics: a build option it
 * rejected (an error line without a source location: the driver's
 * "clang-19: error: unknown argument: '-cl-foo'", or cc1's
 * "error: invalid value 'CL9' in '-cl-std=CL9'") is a usage error, which
 * the OpenCL platform reports as CL_INVALID_BUILD_OPTIONS (OpenCL 1.2
 * §5.6.2); anything else points to clang's own errors. (`double`, which
 * clang refuses without cl_khr_fp64, never ends here: cc_front.c then
 * compiles again with it.) */
#include <stdio.h>
#include <string.h>

#include "cc_front.h"

int cc_front_failure(const char *log, const char *clang, const char *what, vt_error *e) {
  const char *base = strrchr(clang, '/');
  base = base ? base + 1 : clang;
  size_t bl = strlen(base);
  for (const char *l = log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
    const char *m = NULL;
    if (!strncmp(l, "error: ", 7)) m = l + 7;
    else if (!strncmp(l, base, bl) && !strncmp(l + bl, ": error: ", 9)) m = l + bl + 9;
    if (m && strncmp(m, "no such file", 12))
      return vt_fail(e, VT_ERR_USAGE, "a build option the OpenCL C front end rejects: %.*s", (int)strcspn(m, "\n"), m);
  }
  return vt_fail(e, VT_ERR_ASM, "%s: compilation failed (clang's diagnostics above)", what);
}

int cc_front_wants_prelude(const char *log) {
  return log && (strstr(log, "undeclared identifier 'ctz'") || strstr(log, "implicit declaration of function 'ctz'"));
}
