/* A small JSON reader: enough for the objects `ventus run --json` writes
 * (objects, arrays, numbers, strings, literals), flattened into metrics. */
#include "sweep_json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *t, *p;
  sw_metrics *m;
  vt_error *e;
  int depth;
} reader;

static void skip_ws(reader *r) {
  while (isspace((unsigned char)*r->p)) r->p++;
}

static int bad(reader *r, const char *what) {
  return vt_fail(r->e, VT_ERR_FORMAT, "statistics JSON: %s at byte %zu", what, (size_t)(r->p - r->t));
}

/* adds value to the metric `name` (summing: per-SM counters add up) */
static int add(reader *r, const char *name, double v) {
  sw_metrics *m = r->m;
  for (size_t i = 0; i < m->n; i++)
    if (!strcmp(m->v[i].name, name)) {
      m->v[i].value += v;
      return 0;
    }
  sw_metric *n = realloc(m->v, (m->n + 1) * sizeof *n);
  if (!n) return vt_fail(r->e, VT_ERR_NOMEM, "statistics JSON: out of memory");
  m->v = n;
  snprintf(n[m->n].name, sizeof n[m->n].name, "%s", name);
  n[m->n++].value = v;
  return 0;
}

/* The column name of the number at path (dot-separated, array indices as
 * numbers), or NULL when it is not kept: per-SM ratios are not summed. */
static const char *column(const char *path, char *buf, size_t len) {
  const char *k;
  if (!strncmp(path, "stats.units.", 12)) {
    snprintf(buf, len, "unit_%s", path + 12);
  } else if (!strncmp(path, "stats.", 6) && !strchr(path + 6, '.')) {
    snprintf(buf, len, "%s", path + 6);
  } else if (!strcmp(path, "timing.launches")) {
    snprintf(buf, len, "timed_launches");
  } else if (!strncmp(path, "timing.sm.", 10) && (k = strchr(path + 10, '.'))) {
    k++;
    if (!strncmp(k, "stalls.", 7))
      snprintf(buf, len, "stall_%s", k + 7);
    else if (strchr(k, '.') || !strcmp(k, "cycles") || !strcmp(k, "ipc") || !strcmp(k, "coalescing"))
      return NULL;
    else
      snprintf(buf, len, "%s", k);
  } else if (!strncmp(path, "timing.", 7) && !strchr(path + 7, '.')) {
    snprintf(buf, len, "%s", path + 7);
  } else {
    return NULL;
  }
  return buf;
}

static int value(reader *r, char *path, size_t plen);

static int string(reader *r, char *out, size_t len) {
  if (*r->p != '"') return bad(r, "expected a string");
  size_t k = 0;
  for (r->p++; *r->p != '"'; r->p++) {
    if (!*r->p) return bad(r, "unterminated string");
    if (*r->p == '\\' && r->p[1]) r->p++;
    if (out && k + 1 < len) out[k++] = *r->p;
  }
  r->p++;
  if (out) out[k] = 0;
  return 0;
}

static int member_path(char *path, size_t plen, const char *key) {
  size_t n = strlen(path);
  int w = snprintf(path + n, n < plen ? plen - n : 0, "%s%s", n ? "." : "", key);
  return w < 0 || (size_t)w >= plen - n ? -1 : 0;
}

static int value(reader *r, char *path, size_t plen) {
  skip_ws(r);
  size_t base = strlen(path);
  if (++r->depth > 64) return bad(r, "nested too deeply");
  int rc = 0;
  if (*r->p == '{' || *r->p == '[') {
    char close = *r->p == '{' ? '}' : ']';
    const char *open = r->p++;
    skip_ws(r);
    for (unsigned idx = 0; !rc && *r->p != close; idx++) {
      char key[64];
      if (idx) {
        if (*r->p != ',') return bad(r, "expected ',' or a closing bracket");
        r->p++;
        skip_ws(r);
      }
      if (close == '}') {
        if (string(r, key, sizeof key)) return -1;
        skip_ws(r);
        if (*r->p != ':') return bad(r, "expected ':'");
        r->p++;
      } else {
        snprintf(key, sizeof key, "%u", idx);
      }
      if (member_path(path, plen, key)) return bad(r, "member path too long");
      rc = value(r, path, plen);
      path[base] = 0;
      skip_ws(r);
    }
    r->p++;
    if (!rc && !strcmp(path, "config")) { /* stored whole, beside the metrics */
      r->m->config_at = (size_t)(open - r->t);
      r->m->config_len = (size_t)(r->p - open);
    }
  } else if (*r->p == '"') {
    rc = string(r, NULL, 0);
  } else if (!strncmp(r->p, "true", 4) || !strncmp(r->p, "null", 4)) {
    r->p += 4;
  } else if (!strncmp(r->p, "false", 5)) {
    r->p += 5;
  } else {
    char *end;
    double v = strtod(r->p, &end);
    if (end == r->p) return bad(r, "unexpected character");
    r->p = end;
    char name[64];
    if (column(path, name, sizeof name)) rc = add(r, name, v);
  }
  r->depth--;
  return rc;
}

int sw_json_metrics(const char *text, sw_metrics *m, vt_error *e) {
  memset(m, 0, sizeof *m);
  reader r = {text, text, m, e, 0};
  char path[256] = "";
  skip_ws(&r);
  if (*r.p != '{') return bad(&r, "expected an object");
  int rc = value(&r, path, sizeof path);
  if (!rc) {
    skip_ws(&r);
    if (*r.p) rc = bad(&r, "text after the object");
  }
  /* what the per-SM sums lose: lanes per line over all SMs */
  double lanes = 0, lines = 0;
  for (size_t i = 0; !rc && i < m->n; i++) {
    if (!strcmp(m->v[i].name, "gmem_lanes")) lanes = m->v[i].value;
    if (!strcmp(m->v[i].name, "gmem_lines")) lines = m->v[i].value;
  }
  if (!rc && lines > 0) rc = add(&r, "coalescing", lanes / lines);
  if (rc) sw_metrics_free(m);
  return rc;
}

void sw_metrics_free(sw_metrics *m) {
  free(m->v);
  memset(m, 0, sizeof *m);
}
