#include "vt_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Refuses what cannot be a file's contents: a directory, a device (whose
 * reads may never end: /dev/zero) or a socket. Pipes and standard input
 * are read, up to VT_READ_MAX. */
static int check_kind(FILE *f, const char *path, size_t *cap, vt_error *e) {
  struct stat st;
  if (fstat(fileno(f), &st)) return 0; /* the read reports it */
  if (S_ISDIR(st.st_mode)) return vt_fail(e, VT_ERR_IO, "%s: is a directory", path);
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode))
    return vt_fail(e, VT_ERR_IO, "%s: not a regular file (a device or socket)", path);
  if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > VT_READ_MAX)
    return vt_fail(e, VT_ERR_IO, "%s: larger than the %u MiB input limit", path, VT_READ_MAX >> 20);
  /* one allocation of the right size, not a doubling that ends twice too big */
  if (S_ISREG(st.st_mode) && (size_t)st.st_size + 1 > *cap) *cap = (size_t)st.st_size + 1;
  return 0;
}

char *vt_read_file(const char *path, size_t *len, vt_error *e) {
  int std = strcmp(path, "-") == 0;
  FILE *f = std ? stdin : fopen(path, "rb");
  if (!f) {
    char eb[128];
    vt_fail(e, VT_ERR_IO, "%s: %s", path, vt_strerror(errno, eb, sizeof eb));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  if (!std && check_kind(f, path, &cap, e)) {
    fclose(f);
    return NULL;
  }
  char *buf = malloc(cap);
  int big = 0;
  while (buf) {
    if (n + 1 >= cap) {
      if (n > VT_READ_MAX) {
        big = 1;
        break;
      }
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
  int bad = ferror(f), err = errno;
  if (!std) fclose(f);
  if (!buf) {
    vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
    return NULL;
  }
  if (big || bad) {
    free(buf);
    if (big) vt_fail(e, VT_ERR_IO, "%s: larger than the %u MiB input limit", path, VT_READ_MAX >> 20);
    else vt_fail(e, VT_ERR_IO, "%s: read error: %s", path, VT_STRERROR(err));
    return NULL;
  }
  buf[n] = 0;
  if (len) *len = n;
  return buf;
}
