/* Whether a program uses double: the device offers cl_khr_fp64 in
 * software (cc_lower_f64.c), so clang compiles with it where the source
 * asks for it. Everywhere else clang runs as for a device without fp64,
 * which demotes unsuffixed constants (0.5*x, M_PI) to float: a float
 * kernel stays float code, not a chain of library calls. The source asks
 * for double when it names `double` or `cl_khr_fp64` (a pragma, or an
 * #ifdef choosing the double path) outside comments and literals; clang's
 * refusal of double from a header is the other case (cc_front.c retries). */
#include <ctype.h>
#include <string.h>

#include "cc_front.h"

static int ident(int c) { return isalnum(c) || c == '_'; }

int cc_front_uses_double(const char *s) {
  for (const char *p = s; p && *p;) {
    if (p[0] == '/' && p[1] == '/') {
      p += strcspn(p, "\n");
    } else if (p[0] == '/' && p[1] == '*') {
      const char *end = strstr(p + 2, "*/");
      p = end ? end + 2 : p + strlen(p);
    } else if (*p == '"' || *p == '\'') {
      char q = *p++;
      while (*p && *p != q && *p != '\n') p += p[0] == '\\' && p[1] ? 2 : 1;
      if (*p) p++;
    } else if (ident((unsigned char)*p)) {
      const char *b = p;
      while (ident((unsigned char)*p)) p++;
      size_t n = (size_t)(p - b);
      if ((n == 6 && !memcmp(b, "double", 6)) || (n == 11 && !memcmp(b, "cl_khr_fp64", 11))) return 1;
    } else {
      p++;
    }
  }
  return 0;
}

int cc_front_wants_double(const char *log) {
  return log && strstr(log, "error: use of type 'double' requires cl_khr_fp64") != NULL;
}
