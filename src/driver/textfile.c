#include "textfile.h"

#include "vt_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vt_textfile_read(const char *path, vt_textfile *tf, vt_error *e) {
  memset(tf, 0, sizeof *tf);
  size_t len;
  char *buf = vt_read_file(path, &len, e);
  if (!buf) return -1;
  const char *nul = memchr(buf, 0, len);
  if (nul) { /* the rest of its line would be ignored silently */
    size_t line = 1;
    for (const char *q = buf; q < nul; q++) line += *q == '\n';
    free(buf);
    return vt_fail(e, VT_ERR_FORMAT, "%s:%zu: NUL byte: not a text file", path, line);
  }
  size_t n = 1;
  for (size_t i = 0; i < len; i++) n += buf[i] == '\n';
  char **lines = malloc(n * sizeof *lines);
  if (!lines) {
    free(buf);
    return vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
  }
  size_t k = 0;
  char *p = buf, *end = buf + len;
  while (p < end) {
    char *nl = memchr(p, '\n', (size_t)(end - p));
    char *le = nl ? nl : end;
    if (le > p && le[-1] == '\r') le[-1] = 0;
    *le = 0;
    lines[k++] = p;
    p = le + 1;
    if (!nl) break;
  }
  tf->buf = buf;
  tf->lines = lines;
  tf->nlines = k;
  return 0;
}

void vt_textfile_free(vt_textfile *tf) {
  free(tf->buf);
  free(tf->lines);
  memset(tf, 0, sizeof *tf);
}
