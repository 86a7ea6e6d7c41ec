/* Whether a program uses double: the device offers cl_khr_fp64 in
 * software (cc_lower_f64.c), so clang compiles with it where the source
 * asks for it. Everywhere else clang runs as for a device without fp64,
 * which demotes unsuffixed constants (0.5*x, M_PI) to float: a float
 * kernel stays float code, not a chain of library calls. The source asks
 * for double when it names `double` or `cl_khr_fp64` (a pragma, or an
 * #ifdef choosing the double path) outside comments and literals, names a
 * DBL_ limit (DBL_MAX demoted is inf), or passes an unsuffixed floating
 * constant (789456123.0, M_PI) to printf, whose varargs take it as double
 * and print its digits; clang's refusal of double from a header is the
 * other case (cc_front.c retries). */
#include <ctype.h>
#include <string.h>

#include "cc_front.h"

static int ident(int c) { return isalnum(c) || c == '_'; }

/* Past a string or character literal starting at p. */
static const char *skip_quoted(const char *p) {
  char q = *p++;
  while (*p && *p != q && *p != '\n') p += p[0] == '\\' && p[1] ? 2 : 1;
  return *p ? p + 1 : p;
}

/* A preprocessing number at p[0..n) that is a floating constant without an
 * f/F/h/H suffix (0.5, 1e18, .5, 0x1p-3; not 0.5f, 12, 0x1e). */
static int double_constant(const char *p, size_t n) {
  int hex = n > 1 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'), fp = 0;
  for (size_t i = hex ? 2 : 0; i < n; i++) {
    char c = p[i];
    if (c == '.' || (hex ? c == 'p' || c == 'P' : c == 'e' || c == 'E')) fp = 1;
  }
  char last = p[n - 1];
  return fp && !(last == 'f' || last == 'F' || last == 'h' || last == 'H');
}

/* Whether printf's argument list at p ("(...)") holds a double constant. */
static int printf_double_arg(const char *p) {
  int depth = 0;
  while (*p) {
    if (*p == '"' || *p == '\'') {
      p = skip_quoted(p);
    } else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
      const char *b = p; /* a pp-number: digits, letters, '.', and a sign after e/E/p/P */
      while (ident((unsigned char)*p) || *p == '.' ||
             ((*p == '+' || *p == '-') && strchr("eEpP", p[-1])))
        p++;
      if (double_constant(b, (size_t)(p - b))) return 1;
    } else if (ident((unsigned char)*p)) {
      const char *b = p;
      while (ident((unsigned char)*p)) p++;
      size_t n = (size_t)(p - b); /* clang's M_PI..M_SQRT1_2 are double; M_PI_F float */
      if (n > 2 && b[0] == 'M' && b[1] == '_' && !(b[n - 2] == '_' && b[n - 1] == 'F')) return 1;
    } else {
      depth += *p == '(' ? 1 : *p == ')' ? -1 : 0;
      if (depth <= 0) return 0;
      p++;
    }
  }
  return 0;
}

int cc_front_uses_double(const char *s) {
  for (const char *p = s; p && *p;) {
    if (p[0] == '/' && p[1] == '/') {
      p += strcspn(p, "\n");
    } else if (p[0] == '/' && p[1] == '*') {
      const char *end = strstr(p + 2, "*/");
      p = end ? end + 2 : p + strlen(p);
    } else if (*p == '"' || *p == '\'') {
      p = skip_quoted(p);
    } else if (isdigit((unsigned char)*p)) {
      while (ident((unsigned char)*p) || *p == '.') p++; /* 1e5 is no identifier */
    } else if (ident((unsigned char)*p)) {
      const char *b = p;
      while (ident((unsigned char)*p)) p++;
      size_t n = (size_t)(p - b);
      if ((n == 6 && !memcmp(b, "double", 6)) || (n == 11 && !memcmp(b, "cl_khr_fp64", 11)) ||
          (n > 4 && !memcmp(b, "DBL_", 4)))
        return 1;
      if (n == 6 && !memcmp(b, "printf", 6)) {
        const char *q = p;
        while (isspace((unsigned char)*q)) q++;
        if (*q == '(' && printf_double_arg(q)) return 1;
      }
    } else {
      p++;
    }
  }
  return 0;
}

/* A failed compile wants double when clang refused the type, or found a
 * call ambiguous: nan(0UL) and acospi(2.0) pick their double overloads,
 * which a device without fp64 lacks (a call ambiguous either way fails
 * again, with the same diagnostic). */
int cc_front_wants_double(const char *log) {
  if (!log) return 0;
  if (strstr(log, "error: use of type 'double' requires cl_khr_fp64")) return 1;
  const char *p = strstr(log, "error: call to '");
  return p && strstr(p, "' is ambiguous") != NULL;
}
