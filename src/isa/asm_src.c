/* Source lines of a unit: file reading, comment removal, and the loading
 * pipeline of one source: C preprocessing (.S/.sx), then .include/.macro/
 * .rept/.irp expansion (asm_macro.c) into o->src. Every line keeps its own
 * file name and line number, so diagnostics point into included files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asm_int.h"
#include "vt_file.h"

const char *asm_lines_name(asm_lines *L, const char *name) {
  for (int i = 0; i < L->nnames; i++)
    if (!strcmp(L->names[i], name)) return L->names[i];
  if (L->nnames == L->capnames) {
    int cap = L->capnames ? L->capnames * 2 : 8;
    char **n = realloc(L->names, (size_t)cap * sizeof *n);
    if (!n) {
      L->nomem = 1;
      return NULL;
    }
    L->names = n;
    L->capnames = cap;
  }
  char *c = strdup(name);
  if (!c) {
    L->nomem = 1;
    return NULL;
  }
  L->names[L->nnames++] = c;
  return c;
}

int asm_lines_add(asm_lines *L, const char *file, int line, int col0, const char *text,
                  size_t len) {
  if (L->nomem) return -1; /* a line already went missing: keep none after it */
  if (L->n == L->cap) {
    int cap = L->cap ? L->cap * 2 : 256;
    asm_line *n = realloc(L->v, (size_t)cap * sizeof *n);
    if (!n) {
      L->nomem = 1;
      return -1;
    }
    L->v = n;
    L->cap = cap;
  }
  const char *f = asm_lines_name(L, file);
  char *t = f ? malloc(len + 1) : NULL;
  if (!t) {
    L->nomem = 1;
    return -1;
  }
  memcpy(t, text, len);
  t[len] = 0;
  L->v[L->n++] = (asm_line){f, line, col0, t};
  return 0;
}

void asm_lines_free(asm_lines *L) {
  for (int i = 0; i < L->n; i++) free(L->v[i].text);
  free(L->v);
  for (int i = 0; i < L->nnames; i++) free(L->names[i]);
  free(L->names);
  memset(L, 0, sizeof *L);
}

void asm_strip_comments(char *t, int *in_block) {
  char quote = 0;
  for (size_t i = 0; t[i]; i++) {
    char c = t[i];
    if (*in_block) {
      if (c == '*' && t[i + 1] == '/') {
        t[i] = t[i + 1] = ' ';
        i++;
        *in_block = 0;
      } else {
        t[i] = ' ';
      }
      continue;
    }
    if (quote) {
      if (c == '\\' && t[i + 1]) i++;
      else if (c == '"') quote = 0;
      continue;
    }
    if (c == '"') {
      quote = c;
    } else if (c == '/' && t[i + 1] == '*') {
      t[i] = t[i + 1] = ' ';
      i++;
      *in_block = 1;
    } else if (c == '#' || (c == '/' && t[i + 1] == '/')) {
      for (; t[i]; i++) t[i] = ' ';
      return;
    }
  }
}

char *asm_read_text(const char *path, vt_error *e) {
  size_t n;
  struct stat st;
  if (!stat(path, &st) && S_ISDIR(st.st_mode)) /* the reader would say only "read error" */
    return vt_fail(e, VT_ERR_IO, "%s: is a directory", path), NULL;
  char *buf = vt_read_file(path, &n, e);
  if (!buf) return NULL;
  if (strlen(buf) != n) {
    free(buf);
    vt_fail(e, VT_ERR_FORMAT, "%s: contains a NUL byte (not assembly text)", path);
    return NULL;
  }
  return buf;
}

char *asm_path_rel(const char *from, const char *name) {
  const char *slash = strrchr(from, '/');
  size_t dl = name[0] == '/' || !slash ? 0 : (size_t)(slash - from + 1);
  char *p = malloc(dl + strlen(name) + 1);
  if (!p) return NULL;
  memcpy(p, from, dl);
  strcpy(p + dl, name);
  return p;
}

int asm_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* One candidate: 1 = a regular file (found); 0 = not there, or not a regular
 * file, which is remembered in *not_reg (the first such) for the message. */
static int try_candidate(char *path, char **not_reg, const char **why) {
  struct stat st;
  if (stat(path, &st)) return 0;
  if (S_ISREG(st.st_mode)) return 1;
  if (!*not_reg) {
    *not_reg = path;
    *why = S_ISDIR(st.st_mode) ? "is a directory" : "is not a regular file";
    return 0;
  }
  return 0;
}

char *asm_find_include(const char *from, int from_dir, int cwd, const char *want,
                       const asm_pp_options *po, char **not_reg, const char **why, int *nomem) {
  *not_reg = NULL;
  *why = NULL;
  *nomem = 0;
  int ndirs = po ? po->ninclude_dirs : 0;
  for (int i = -2; i < ndirs; i++) {
    char *path = NULL;
    if (i == -2 && from_dir) path = asm_path_rel(from, want);
    else if (i == -1 && cwd) path = strdup(want);
    else if (i >= 0 && (path = malloc(strlen(po->include_dirs[i]) + strlen(want) + 2)))
      sprintf(path, "%s/%s", po->include_dirs[i], want);
    else if (i < 0) continue;
    if (!path) {
      *nomem = 1;
      free(*not_reg);
      *not_reg = NULL;
      return NULL;
    }
    if (try_candidate(path, not_reg, why)) {
      free(*not_reg);
      *not_reg = NULL;
      *why = NULL;
      return path;
    }
    if (*not_reg != path) free(path);
  }
  return NULL;
}

int asm_split_lines(asm_lines *out, const char *name, const char *text) {
  int line = 1;
  for (const char *s = text;; line++) {
    const char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    if ((e || len) && asm_lines_add(out, name, line, 1, s, len)) return -1;
    if (!e) break;
    s = e + 1;
  }
  return 0;
}

static int wants_cpp(const char *name) {
  size_t n = strlen(name);
  return (n > 2 && !strcmp(name + n - 2, ".S")) || (n > 3 && !strcmp(name + n - 3, ".sx"));
}

void asm_load_sources(asm_object *o, const asm_source *src, int n) {
  asm_lines raw = {0};
  for (int k = 0; k < n && !o->nomem; k++) {
    int first = raw.n;
    if (wants_cpp(src[k].name)) asm_preprocess(o, src[k].name, src[k].text, &raw);
    else asm_split_lines(&raw, src[k].name, src[k].text);
    if (raw.nomem) asm_nomem(o);
    int in_block = 0;
    for (int i = first; i < raw.n; i++) asm_strip_comments(raw.v[i].text, &in_block);
  }
  if (!o->nomem) asm_expand(o, &raw);
  asm_lines_free(&raw);
}
