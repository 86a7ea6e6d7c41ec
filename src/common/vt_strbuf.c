#include "vt_strbuf.h"

#include <stdarg.h>
#include <stdio.h>

void vt_emit(vt_strbuf *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(o->p, o->left, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  o->total += n;
  size_t adv = (size_t)n < o->left ? (size_t)n : (o->left ? o->left - 1 : 0);
  o->p += adv;
  o->left -= adv;
}
