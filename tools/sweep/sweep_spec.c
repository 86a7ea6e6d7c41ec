/* Reading a sweep description: INI sections of key = value lines. */
#include "sweep_spec.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "vt_file.h"

/* axes and points together may not ask for more runs than this */
#define SW_MAX_VALUES 4096 /* per axis: every value is checked as a configuration */

int sw_strs_push(sw_strs *l, const char *s) {
  char **v = realloc(l->v, (l->n + 1) * sizeof *v);
  if (!v) return -1;
  l->v = v;
  if (!(v[l->n] = strdup(s))) return -1;
  l->n++;
  return 0;
}

void sw_strs_free(sw_strs *l) {
  for (size_t i = 0; i < l->n; i++) free(l->v[i]);
  free(l->v);
  l->v = NULL;
  l->n = 0;
}

char *sw_path_join(const char *dir, const char *p) {
  if (p[0] == '/' || !dir) return strdup(p);
  size_t n = strlen(dir) + strlen(p) + 2;
  char *r = malloc(n);
  if (r) snprintf(r, n, "%s/%s", dir, p);
  return r;
}

static void settings_free(sw_settings *s) {
  sw_strs_free(&s->keys);
  sw_strs_free(&s->values);
}

void sw_spec_free(sw_spec *s) {
  free(s->path);
  free(s->dir);
  free(s->name);
  free(s->config);
  free(s->store);
  sw_strs_free(&s->record);
  sw_strs_free(&s->plot);
  settings_free(&s->baseline);
  for (size_t i = 0; i < s->nkernels; i++) {
    free(s->kernels[i].name);
    sw_strs_free(&s->kernels[i].files);
    sw_strs_free(&s->kernels[i].run);
  }
  free(s->kernels);
  settings_free(&s->config_set);
  for (size_t i = 0; i < s->naxes; i++) {
    free(s->axes[i].key);
    sw_strs_free(&s->axes[i].values);
  }
  free(s->axes);
  for (size_t i = 0; i < s->npoints; i++) settings_free(&s->points[i]);
  free(s->points);
  memset(s, 0, sizeof *s);
}

/* The parser's state: where we are, for the messages. */
typedef struct {
  sw_spec *s;
  const char *path;
  int line;
  vt_error *e;
} parser;

__attribute__((format(printf, 2, 3))) static int perr(parser *p, const char *fmt, ...) {
  char msg[300];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return vt_fail(p->e, VT_ERR_FORMAT, "%s:%d: %s", p->path, p->line, msg);
}

static int nomem(parser *p) { return vt_fail(p->e, VT_ERR_NOMEM, "%s: out of memory", p->path); }

/* Splits a line into words at blanks (and commas when `commas`); single or
 * double quotes keep blanks inside a word. */
static int split_words(parser *p, const char *t, int commas, sw_strs *out) {
  size_t n = strlen(t);
  char *w = malloc(n + 1);
  if (!w) return nomem(p);
  size_t k = 0;
  int in = 0;
  for (const char *c = t;; c++) {
    if (*c == '"' || *c == '\'') {
      const char *end = strchr(c + 1, *c);
      if (!end) {
        free(w);
        return perr(p, "unterminated %c quote", *c);
      }
      memcpy(w + k, c + 1, (size_t)(end - c - 1));
      k += (size_t)(end - c - 1);
      in = 1;
      c = end;
      continue;
    }
    if (*c == 0 || isspace((unsigned char)*c) || (commas && *c == ',')) {
      if (in) {
        w[k] = 0;
        if (sw_strs_push(out, w)) {
          free(w);
          return nomem(p);
        }
      }
      k = 0;
      in = 0;
      if (*c == 0) break;
      continue;
    }
    w[k++] = *c;
    in = 1;
  }
  free(w);
  return 0;
}

static int parse_int(const char *t, long long *v) {
  char *end;
  errno = 0;
  *v = strtoll(t, &end, 0);
  return errno || end == t || *end ? -1 : 0;
}

/* One value item: a literal, or a range A..B, A..B:STEP, A..B*FACTOR. */
static int expand_item(parser *p, const char *item, sw_strs *out) {
  const char *dots = strstr(item, "..");
  if (!dots) return sw_strs_push(out, item) ? nomem(p) : 0;
  char a[64], b[64];
  const char *rest = dots + 2;
  size_t la = (size_t)(dots - item), lb = strcspn(rest, ":*");
  if (la == 0 || la >= sizeof a || lb == 0 || lb >= sizeof b)
    return perr(p, "range '%s': expected A..B, A..B:STEP or A..B*FACTOR", item);
  memcpy(a, item, la);
  a[la] = 0;
  memcpy(b, rest, lb);
  b[lb] = 0;
  long long lo, hi, step = 1;
  int geometric = rest[lb] == '*';
  if (parse_int(a, &lo) || parse_int(b, &hi))
    return perr(p, "range '%s': its ends must be integers", item);
  if (rest[lb] && parse_int(rest + lb + 1, &step))
    return perr(p, "range '%s': its %s must be an integer", item, geometric ? "factor" : "step");
  if (lo > hi) return perr(p, "range '%s': it ends below its start", item);
  if (geometric ? step < 2 || lo < 1 : step < 1)
    return perr(p, "range '%s': %s", item, geometric ? "the factor must be at least 2 and the start at least 1"
                                                       : "the step must be at least 1");
  for (long long v = lo; v <= hi;) {
    if (out->n >= SW_MAX_VALUES) return perr(p, "range '%s': more than %d values", item, SW_MAX_VALUES);
    char t[32];
    snprintf(t, sizeof t, "%lld", v);
    if (sw_strs_push(out, t)) return nomem(p);
    if (geometric ? v > LLONG_MAX / step : v > LLONG_MAX - step) break;
    v = geometric ? v * step : v + step;
  }
  return 0;
}

/* A configuration key and value, checked on a scratch configuration. */
static int check_setting(parser *p, const char *key, const char *value) {
  vt_config c;
  vt_config_defaults(&c);
  vt_error e;
  if (vt_config_set(&c, key, value, &e) == 0) return 0;
  return perr(p, "%s", e.msg);
}

static int add_setting(parser *p, sw_settings *st, const char *key, const char *value) {
  for (size_t i = 0; i < st->keys.n; i++)
    if (!strcmp(st->keys.v[i], key)) return perr(p, "'%s' set twice", key);
  if (check_setting(p, key, value)) return -1;
  return sw_strs_push(&st->keys, key) || sw_strs_push(&st->values, value) ? nomem(p) : 0;
}

static int set_path(parser *p, char **dst, const char *value) {
  free(*dst);
  *dst = sw_path_join(p->s->dir, value);
  return *dst ? 0 : nomem(p);
}

static int readable(parser *p, const char *file, const char *what) {
  if (access(file, R_OK) == 0) return 0;
  return perr(p, "%s '%s': %s", what, file, strerror(errno));
}

static int sweep_key(parser *p, const char *key, const char *value) {
  sw_spec *s = p->s;
  if (!strcmp(key, "name")) {
    free(s->name);
    return (s->name = strdup(value)) ? 0 : nomem(p);
  }
  if (!strcmp(key, "config")) return set_path(p, &s->config, value) || readable(p, s->config, "config");
  if (!strcmp(key, "store")) return set_path(p, &s->store, value);
  if (!strcmp(key, "timing")) {
    if (strcmp(value, "0") && strcmp(value, "1")) return perr(p, "timing: expected 0 or 1, not '%s'", value);
    s->timing = value[0] == '1';
    return 0;
  }
  if (!strcmp(key, "timeout")) {
    char *end;
    s->timeout = strtod(value, &end);
    if (end == value || *end || !(s->timeout >= 0) || s->timeout > 1e7)
      return perr(p, "timeout: expected seconds (0 = none), not '%s'", value);
    return 0;
  }
  if (!strcmp(key, "record")) {
    sw_strs_free(&s->record);
    if (split_words(p, value, 1, &s->record)) return -1;
    if (s->record.n == 1 && !strcmp(s->record.v[0], "all")) sw_strs_free(&s->record);
    return 0;
  }
  if (!strcmp(key, "baseline")) { /* KEY=VALUE words */
    sw_strs words = {0};
    int rc = split_words(p, value, 1, &words);
    settings_free(&s->baseline);
    for (size_t i = 0; !rc && i < words.n; i++) {
      char *eq = strchr(words.v[i], '=');
      if (!eq || eq == words.v[i]) {
        rc = perr(p, "baseline: expected KEY=VALUE words, not '%s'", words.v[i]);
        break;
      }
      *eq = 0;
      rc = add_setting(p, &s->baseline, words.v[i], eq + 1);
    }
    sw_strs_free(&words);
    return rc;
  }
  if (!strcmp(key, "plot")) {
    sw_strs_free(&s->plot);
    return split_words(p, value, 1, &s->plot);
  }
  return perr(p, "unknown key '%s' in [sweep] (name, config, store, timing, timeout, record, plot, baseline)", key);
}

static int kernel_key(parser *p, sw_kernel *k, const char *key, const char *value) {
  if (!strcmp(key, "run")) return split_words(p, value, 0, &k->run);
  sw_kernel_kind kind;
  if (!strcmp(key, "elf"))
    kind = SW_ELF;
  else if (!strcmp(key, "asm"))
    kind = SW_ASM;
  else if (!strcmp(key, "case"))
    kind = SW_CASE;
  else
    return perr(p, "unknown key '%s' in [kernel %s] (elf, asm, case, run)", key, k->name);
  if (k->files.n) return perr(p, "kernel %s: more than one of elf, asm, case", k->name);
  k->kind = kind;
  sw_strs words = {0};
  if (split_words(p, value, 0, &words)) { /* it may have split some words before the error */
    sw_strs_free(&words);
    return -1;
  }
  int rc = 0;
  if (words.n == 0 || (kind != SW_ASM && words.n > 1))
    rc = perr(p, "kernel %s: %s takes %s", k->name, key, kind == SW_ASM ? "source files" : "one path");
  for (size_t i = 0; !rc && i < words.n; i++) {
    char *f = sw_path_join(p->s->dir, words.v[i]);
    if (!f || sw_strs_push(&k->files, f))
      rc = nomem(p);
    else
      rc = readable(p, f, key);
    free(f);
  }
  sw_strs_free(&words);
  return rc;
}

static int axis_key(parser *p, const char *key, const char *value) {
  sw_spec *s = p->s;
  for (size_t i = 0; i < s->naxes; i++)
    if (!strcmp(s->axes[i].key, key)) return perr(p, "axis '%s' given twice (line %d)", key, s->axes[i].line);
  sw_axis *a = realloc(s->axes, (s->naxes + 1) * sizeof *a);
  if (!a) return nomem(p);
  s->axes = a;
  a = &s->axes[s->naxes++];
  memset(a, 0, sizeof *a);
  a->line = p->line;
  if (!(a->key = strdup(key))) return nomem(p);
  sw_strs items = {0};
  int rc = split_words(p, value, 1, &items);
  for (size_t i = 0; !rc && i < items.n; i++) rc = expand_item(p, items.v[i], &a->values);
  sw_strs_free(&items);
  if (!rc && a->values.n == 0) rc = perr(p, "axis '%s' has no values", key);
  size_t all = 0; /* a bound on the memory of many long axes */
  for (size_t i = 0; i < s->naxes; i++) all += s->axes[i].values.n;
  if (!rc && all > 4 * (size_t)SW_MAX_VALUES) rc = perr(p, "the axes have more than %d values in all", 4 * SW_MAX_VALUES);
  for (size_t i = 0; !rc && i < a->values.n; i++) rc = check_setting(p, key, a->values.v[i]);
  return rc;
}

static char *trim(char *t) {
  while (isspace((unsigned char)*t)) t++;
  size_t n = strlen(t);
  while (n && isspace((unsigned char)t[n - 1])) t[--n] = 0;
  return t;
}

/* section kinds */
enum { SEC_NONE, SEC_SWEEP, SEC_CONFIG, SEC_AXES, SEC_KERNEL, SEC_POINT };

static int section(parser *p, char *head, int *sec) {
  char *close = strchr(head, ']');
  if (!close || *trim(close + 1)) return perr(p, "malformed section header (expected [NAME])");
  *close = 0;
  char *name = trim(head + 1);
  sw_spec *s = p->s;
  if (!strcmp(name, "sweep")) {
    *sec = SEC_SWEEP;
  } else if (!strcmp(name, "config")) {
    *sec = SEC_CONFIG;
  } else if (!strcmp(name, "axes")) {
    *sec = SEC_AXES;
  } else if (!strcmp(name, "point")) {
    sw_settings *pt = realloc(s->points, (s->npoints + 1) * sizeof *pt);
    if (!pt) return nomem(p);
    s->points = pt;
    memset(&pt[s->npoints], 0, sizeof *pt);
    pt[s->npoints++].line = p->line;
    *sec = SEC_POINT;
  } else if (!strncmp(name, "kernel", 6) && isspace((unsigned char)name[6])) {
    char *kn = trim(name + 6);
    for (char *c = kn; *c; c++)
      if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
        return perr(p, "kernel name '%s': letters, digits, '_', '.', '-' only", kn);
    for (size_t i = 0; i < s->nkernels; i++)
      if (!strcmp(s->kernels[i].name, kn)) return perr(p, "kernel '%s' given twice", kn);
    sw_kernel *k = realloc(s->kernels, (s->nkernels + 1) * sizeof *k);
    if (!k) return nomem(p);
    s->kernels = k;
    k = &k[s->nkernels++];
    memset(k, 0, sizeof *k);
    k->line = p->line;
    if (!(k->name = strdup(kn))) return nomem(p);
    *sec = SEC_KERNEL;
  } else {
    return perr(p, "unknown section [%s] (sweep, config, axes, kernel NAME, point)", name);
  }
  return 0;
}

static int parse_line(parser *p, char *line, int *sec) {
  /* a comment starts the line, or follows a blank */
  for (char *c = line; *c; c++)
    if ((*c == '#' || *c == ';') && (c == line || isspace((unsigned char)c[-1]))) {
      *c = 0;
      break;
    }
  char *t = trim(line);
  if (!*t) return 0;
  if (*t == '[') return section(p, t, sec);
  char *eq = strchr(t, '=');
  if (!eq) return perr(p, "expected 'key = value' or a [section]");
  *eq = 0;
  char *key = trim(t), *value = trim(eq + 1);
  if (!*key) return perr(p, "missing key before '='");
  sw_spec *s = p->s;
  switch (*sec) {
  case SEC_SWEEP: return sweep_key(p, key, value);
  case SEC_CONFIG: return add_setting(p, &s->config_set, key, value);
  case SEC_AXES: return axis_key(p, key, value);
  case SEC_KERNEL: return kernel_key(p, &s->kernels[s->nkernels - 1], key, value);
  case SEC_POINT: return add_setting(p, &s->points[s->npoints - 1], key, value);
  default: return perr(p, "'%s' outside a section ([sweep], [config], [axes], [kernel NAME], [point])", key);
  }
}

/* What only the whole file can tell. */
static int check_whole(parser *p) {
  sw_spec *s = p->s;
  if (s->nkernels == 0) return perr(p, "no [kernel NAME] section: nothing to run");
  for (size_t i = 0; i < s->nkernels; i++) {
    sw_kernel *k = &s->kernels[i];
    p->line = k->line;
    if (k->files.n == 0) return perr(p, "kernel %s: one of elf, asm or case is needed", k->name);
    if (k->kind != SW_CASE && k->run.n == 0)
      return perr(p, "kernel %s: 'run' (its launch options: --kernel, --global, --arg ...) is needed", k->name);
  }
  for (size_t i = 0; i < s->npoints; i++) {
    p->line = s->points[i].line;
    if (s->points[i].keys.n == 0) return perr(p, "empty [point]");
  }
  double runs = 1;
  for (size_t i = 0; i < s->naxes; i++) runs *= (double)s->axes[i].values.n;
  if ((runs + (double)s->npoints) * (double)s->nkernels > 1e6) {
    p->line = s->naxes ? s->axes[0].line : 1;
    return perr(p, "the sweep would make more than 1000000 runs");
  }
  return 0;
}

static int set_defaults(parser *p) {
  sw_spec *s = p->s;
  if (!s->plot.n && (s->timing ? sw_strs_push(&s->plot, "cycles") || sw_strs_push(&s->plot, "ipc")
                               : sw_strs_push(&s->plot, "warp_insns")))
    return nomem(p);
  const char *base = strrchr(s->path, '/');
  base = base ? base + 1 : s->path;
  if (!s->name) {
    size_t n = strcspn(base, ".");
    if (!(s->name = strndup(base, n ? n : strlen(base)))) return nomem(p);
  }
  if (!s->store) {
    size_t n = strlen(s->name) + 4;
    char *f = malloc(n);
    if (!f) return nomem(p);
    snprintf(f, n, "%s.db", s->name);
    s->store = sw_path_join(s->dir, f);
    free(f);
    if (!s->store) return nomem(p);
  }
  return 0;
}

int sw_spec_load(sw_spec *s, const char *path, vt_error *e) {
  memset(s, 0, sizeof *s);
  s->timing = 1;
  parser p = {s, path, 0, e};
  char *text = vt_read_file(path, NULL, e);
  if (!text) return -1;
  int rc = -1;
  char cwd[4096];
  const char *slash = strrchr(path, '/');
  if (!(s->path = strdup(path))) {
    nomem(&p);
    goto out;
  }
  if (path[0] == '/') {
    s->dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
  } else if (!getcwd(cwd, sizeof cwd)) {
    vt_fail(e, VT_ERR_IO, "%s: the current directory: %s", path, strerror(errno));
    goto out;
  } else {
    char *rel = slash ? strndup(path, (size_t)(slash - path)) : NULL;
    s->dir = slash ? (rel ? sw_path_join(cwd, rel) : NULL) : strdup(cwd);
    free(rel);
  }
  if (!s->dir) {
    nomem(&p);
    goto out;
  }
  int sec = SEC_NONE;
  for (char *line = text, *next; line; line = next) {
    next = strchr(line, '\n');
    if (next) *next++ = 0;
    p.line++;
    if (parse_line(&p, line, &sec)) goto out;
  }
  rc = check_whole(&p) || set_defaults(&p) ? -1 : 0;
out:
  free(text);
  if (rc) sw_spec_free(s);
  return rc;
}
