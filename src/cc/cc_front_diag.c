/* Why clang failed, in one line after its diagnostics: a build option it
 * rejected (an error line without a source location: the driver's
 * "clang-19: error: unknown argument: '-cl-foo'", or cc1's
 * "error: invalid value 'CL9' in '-cl-std=CL9'") is a usage error, which
 * the OpenCL platform reports as CL_INVALID_BUILD_OPTIONS (OpenCL 1.2
 * §5.6.2); `double` data, which clang refuses on a device without
 * cl_khr_fp64, is named with its source line; anything else points to
 * clang's own errors. */
#include <stdio.h>
#include <string.h>

#include "cc_front.h"

/* the start of the line that holds p */
static const char *line_start(const char *log, const char *p) {
  while (p > log && p[-1] != '\n') p--;
  return p;
}

/* the length of "file:line" at the start of a diagnostic "file:line:col: error: ...", or 0 */
static int file_line(const char *s) {
  const char *e = strstr(s, ": error: "), *nl = strchr(s, '\n');
  if (!e || (nl && nl < e)) return 0;
  const char *c = e; /* c: the ':' before the column */
  while (c > s && c[-1] >= '0' && c[-1] <= '9') c--;
  if (c == e || c == s || c[-1] != ':') return 0;
  c--;
  const char *l = c; /* the line number before it */
  while (l > s && l[-1] >= '0' && l[-1] <= '9') l--;
  return l == c || l == s || l[-1] != ':' ? 0 : (int)(c - s);
}

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
  const char *d = log ? strstr(log, "error: use of type 'double' requires cl_khr_fp64") : NULL;
  if (d) {
    const char *s = line_start(log, d);
    int n = file_line(s);
    return vt_fail(e, VT_ERR_ASM, "%.*s%serror: `double` arithmetic is not supported yet (the device has no cl_khr_fp64; "
                   "clang's diagnostics above)", n, s, n ? ": " : "");
  }
  return vt_fail(e, VT_ERR_ASM, "%s: compilation failed (clang's diagnostics above)", what);
}

int cc_front_wants_prelude(const char *log) {
  return log && (strstr(log, "undeclared identifier 'ctz'") || strstr(log, "implicit declaration of function 'ctz'"));
}
