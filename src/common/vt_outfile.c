#include "vt_outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "<dir>/.<base>.<pid>.<n>.tmp": same directory, so rename() is atomic. */
static char *tmp_name(const char *path, unsigned n) {
  const char *slash = strrchr(path, '/');
  size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
  size_t len = strlen(path) + 48;
  char *t = malloc(len);
  if (t) snprintf(t, len, "%.*s.%s.%ld.%u.tmp", (int)dl, path, path + dl, (long)getpid(), n);
  return t;
}

static int open_in_place(vt_outfile *o, mode_t mode, vt_error *e) {
  int fd = open(o->path, O_WRONLY | O_TRUNC | O_CREAT, mode);
  if (fd < 0) {
    vt_fail(e, VT_ERR_IO, "%s: %s", o->path, VT_STRERROR(errno));
    free(o->path);
    o->path = NULL;
  }
  return fd;
}

int vt_outfile_open(vt_outfile *o, const char *path, unsigned new_mode, vt_error *e) {
  o->path = strdup(path);
  o->tmp = NULL;
  if (!o->path) return vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
  struct stat st;
  mode_t mode = (mode_t)new_mode; /* a new file: the umask applies as for fopen */
  int keep = 0;
  if (!lstat(path, &st)) {
    /* a file with other hard links is written in place, or they would part */
    if (!S_ISREG(st.st_mode) || st.st_nlink > 1) return open_in_place(o, mode, e);
    mode = st.st_mode & 07777; /* replacing a file keeps its permissions */
    keep = 1;
  } else if (errno != ENOENT) {
    return open_in_place(o, mode, e);
  }
  for (unsigned n = 0; n < 100; n++) {
    if (!(o->tmp = tmp_name(path, n))) {
      free(o->path);
      o->path = NULL;
      return vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
    }
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, mode);
    if (fd >= 0) {
      if (keep) (void)fchmod(fd, mode); /* exactly, whatever the umask */
      return fd;
    }
    int err = errno;
    free(o->tmp);
    o->tmp = NULL;
    /* an unwritable directory may still hold a writable file: write that in
     * place then (and never remove it) */
    if (err != EEXIST) return open_in_place(o, mode, e);
  }
  vt_fail(e, VT_ERR_IO, "%s: cannot create a temporary file beside it", path);
  free(o->path);
  o->path = NULL;
  return -1;
}

FILE *vt_outfile_fopen(vt_outfile *o, const char *path, vt_error *e) {
  int fd = vt_outfile_open(o, path, 0666, e);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    vt_fail(e, VT_ERR_IO, "%s: %s", path, VT_STRERROR(errno));
    close(fd);
    vt_outfile_finish(o, 1, NULL);
  }
  return f;
}

int vt_outfile_finish(vt_outfile *o, int failed, vt_error *e) {
  int r = 0;
  if (o->tmp) {
    if (failed) unlink(o->tmp);
    else if (rename(o->tmp, o->path)) {
      r = vt_fail(e, VT_ERR_IO, "%s: %s", o->path, VT_STRERROR(errno));
      unlink(o->tmp);
    }
  }
  free(o->tmp);
  free(o->path);
  o->tmp = o->path = NULL;
  return r;
}
