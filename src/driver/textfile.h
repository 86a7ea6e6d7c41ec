/* A whole text file split into NUL-terminated lines (any of \n, \r\n; a
 * missing final newline is fine). */
#ifndef VT_TEXTFILE_H
#define VT_TEXTFILE_H

#include <stddef.h>

#include "vt_error.h"

typedef struct {
  char *buf;
  char **lines;
  size_t nlines;
} vt_textfile;

int vt_textfile_read(const char *path, vt_textfile *tf, vt_error *e);
void vt_textfile_free(vt_textfile *tf);

#endif
