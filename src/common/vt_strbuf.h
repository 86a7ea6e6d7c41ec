/* A bounded string builder over a caller's buffer (the disassembler and the
 * commit-log formatter): text is appended printf-style, the buffer is always
 * NUL-terminated when it is not empty, and the text that does not fit is cut
 * but still counted, so `total` is what snprintf of the whole text would
 * return. */
#ifndef VT_STRBUF_H
#define VT_STRBUF_H

#include <stddef.h>

typedef struct {
  char *p;     /* where the next text goes */
  size_t left; /* bytes from p to the end of the buffer */
  int total;   /* characters of the whole text so far, cut or not */
} vt_strbuf;

/* An empty text in buf[0..len) (len may be 0). */
static inline vt_strbuf vt_strbuf_init(char *buf, size_t len) {
  if (len) buf[0] = 0;
  return (vt_strbuf){buf, len, 0};
}

/* Appends printf-style to o, cutting what does not fit. */
void vt_emit(vt_strbuf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
