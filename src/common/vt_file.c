#include "vt_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *vt_read_file(const char *path, size_t *len, vt_error *e) {
  int std = strcmp(path, "-") == 0;
  FILE *f = std ? stdin : fopen(path, "rb");
  if (!f) {
    char eb[128];
    vt_fail(e, VT_ERR_IO, "%s: %s", path, vt_strerror(errno, eb, sizeof eb));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (n + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
    }
    size_t k = fread(buf + n, 1, cap - n - 1, f);
    if (!k) break;
    n += k;
  }
  int bad = ferror(f);
  if (!std) fclose(f);
  if (!buf) {
    vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
    return NULL;
  }
  if (bad) {
    free(buf);
    vt_fail(e, VT_ERR_IO, "%s: read error", path);
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}
