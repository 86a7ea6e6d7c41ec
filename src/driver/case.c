/* kernels.txt launch sequences: one case = one device memory image that
 * the launches share in order. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testvec.h"
#include "textfile.h"

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

static char *join(const char *dir, const char *name, const char *ext) {
  size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s", dir, name, ext);
  return p;
}

static int add_launch(vt_case *c, const char *dir, const char *name, vt_error *e) {
  char **s = realloc(c->stems, (c->n + 1) * sizeof *s);
  if (!s) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  c->stems = s;
  char **nm = realloc(c->names, (c->n + 1) * sizeof *nm);
  if (!nm) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  c->names = nm;
  c->stems[c->n] = join(dir, name, "");
  c->names[c->n] = xstrdup(name);
  if (!c->stems[c->n] || !c->names[c->n]) {
    free(c->stems[c->n]);
    free(c->names[c->n]);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  c->n++;
  return 0;
}

int vt_case_open(const char *path, vt_case *c, vt_error *e) {
  memset(c, 0, sizeof *c);
  struct stat st;
  if (stat(path, &st)) return vt_fail(e, VT_ERR_IO, "%s: no such file or directory", path);
  if (S_ISDIR(st.st_mode)) {
    c->dir = xstrdup(path);
    char *kt = join(path, "kernels.txt", "");
    if (!c->dir || !kt) {
      free(kt);
      vt_case_free(c);
      return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    }
    vt_textfile tf;
    int r = vt_textfile_read(kt, &tf, e);
    if (r) {
      free(kt);
      vt_case_free(c);
      return -1;
    }
    for (size_t i = 0; i < tf.nlines && !r; i++) {
      char *s = tf.lines[i];
      char *h = strchr(s, '#');
      if (h) *h = 0;
      while (isspace((unsigned char)*s)) s++;
      char *t = s + strlen(s);
      while (t > s && isspace((unsigned char)t[-1])) *--t = 0;
      if (!*s) continue;
      r = add_launch(c, path, s, e);
    }
    vt_textfile_free(&tf);
    if (!r && c->n == 0) r = vt_fail(e, VT_ERR_FORMAT, "%s: lists no launch", kt);
    free(kt);
    if (r) {
      vt_case_free(c);
      return -1;
    }
    return 0;
  }
  /* a single .metadata file (or its stem) */
  size_t len = strlen(path);
  char *stem = xstrdup(path);
  if (!stem) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  if (len > 9 && !strcmp(path + len - 9, ".metadata")) stem[len - 9] = 0;
  else if (len > 5 && !strcmp(path + len - 5, ".data")) stem[len - 5] = 0;
  char *slash = strrchr(stem, '/');
  c->dir = slash ? xstrdup(stem) : xstrdup(".");
  if (c->dir && slash) c->dir[slash - stem] = 0;
  int r = c->dir ? add_launch(c, c->dir, slash ? slash + 1 : stem, e)
                 : vt_fail(e, VT_ERR_NOMEM, "out of memory");
  free(stem);
  if (r) vt_case_free(c);
  return r;
}

void vt_case_free(vt_case *c) {
  for (size_t i = 0; i < c->n; i++) {
    free(c->stems[i]);
    free(c->names[i]);
  }
  free(c->stems);
  free(c->names);
  free(c->dir);
  free(c->dump);
  memset(c, 0, sizeof *c);
}

static void note_dump(vt_case *c, const vt_testvec *tv) {
  for (uint32_t i = 0; i < tv->nbuf; i++) {
    const vt_tv_buffer *b = &tv->bufs[i];
    if (!b->size || (b->base >= 0x80000000u && b->base < 0x90000000u)) continue;
    size_t j = 0;
    while (j < c->ndump && c->dump[j].base != b->base) j++;
    if (j < c->ndump) {
      if (b->size > c->dump[j].size) c->dump[j] = *b;
      continue;
    }
    vt_tv_buffer *nd = realloc(c->dump, (c->ndump + 1) * sizeof *nd);
    if (!nd) return;
    c->dump = nd;
    c->dump[c->ndump++] = *b;
  }
}

int vt_case_run(vt_case *c, vt_device *d, size_t i, vt_case_hook before, vt_case_hook after,
                void *user, vt_error *e) {
  if (i >= c->n) return vt_fail(e, VT_ERR_USAGE, "launch %zu of %zu", i, c->n);
  char *mp = join("", c->stems[i], ".metadata");
  char *dp = join("", c->stems[i], ".data");
  if (!mp || !dp) {
    free(mp), free(dp);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  vt_testvec tv;
  /* join() put a leading '/' before the stem */
  int r = vt_testvec_load(mp + 1, dp + 1, &tv, e);
  free(mp), free(dp);
  if (r) return -1;
  note_dump(c, &tv);
  vt_launch l;
  r = vt_testvec_install(d, &tv, e);
  if (!r) {
    vt_testvec_launch(d, &tv, &l);
    if (before) r = before(user, i, &l, e);
  }
  if (!r) {
    r = vt_device_launch(d, &l, e);
    if (r && e->has_ctx && e->kernel < 0) e->kernel = (int32_t)i;
  }
  if (!r && after) r = after(user, i, &l, e);
  vt_testvec_free(&tv);
  return r;
}
