#include "argshow.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

int vt_type_size(const char *t) {
  if (!strcmp(t, "u8")) return 1;
  if (!strcmp(t, "u16")) return 2;
  if (!strcmp(t, "u32") || !strcmp(t, "i32") || !strcmp(t, "f32")) return 4;
  return 0;
}

const char *vt_karg_view_type(const vt_karg *a, const char *override) {
  if (override) return vt_type_size(override) ? override : NULL;
  if (a->type[0]) return a->type;
  return a->kind == VT_KARG_BUF && a->size % 4 ? "u8" : "u32";
}

void vt_format_f32(uint32_t bits, char *buf, size_t len) {
  if (!buf || !len) return;
  float f;
  memcpy(&f, &bits, 4);
  if (isnan(f)) {
    snprintf(buf, len, "%snan", bits >> 31 ? "-" : "");
    return;
  }
  for (int p = 1; p <= 9; p++) {
    int n = snprintf(buf, len, "%.*g", p, (double)f);
    if (n < 0 || (size_t)n >= len) return; /* caller's buffer too small: keep the prefix */
    float back = strtof(buf, NULL);
    uint32_t bb;
    memcpy(&bb, &back, 4);
    if (bb == bits) return;
  }
}

static uint32_t elem_at(const uint8_t *p, int es) {
  uint32_t v = 0;
  for (int b = es - 1; b >= 0; b--) v = v << 8 | p[b];
  return v;
}

static void format_elem(uint32_t v, const char *type, char *buf, size_t len) {
  if (!strcmp(type, "f32")) vt_format_f32(v, buf, len);
  else if (!strcmp(type, "i32")) snprintf(buf, len, "%d", (int32_t)v);
  else snprintf(buf, len, "%u", v);
}

/* The buffer's first n elements of size es, read from the device. */
static uint8_t *read_elems(vt_device *d, const vt_karg *a, uint32_t n, int es, vt_error *e) {
  uint8_t *b = malloc((size_t)n * (size_t)es + 1);
  if (!b) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  if (vt_mem_read(d, a->addr, b, n * (uint32_t)es, e)) {
    free(b);
    return NULL;
  }
  return b;
}

int vt_karg_show(vt_device *d, const vt_karg *a, size_t index, uint32_t count, const char *type,
                 FILE *f, vt_error *e) {
  int es = vt_type_size(type);
  if (!es) return vt_fail(e, VT_ERR_USAGE, "arg%zu: unknown type '%s'", index, type);
  char s[48];
  if (a->kind == VT_KARG_SCALAR) {
    format_elem(es == 4 ? a->value : a->value & ((1u << (8 * es)) - 1), type, s, sizeof s);
    fprintf(f, "arg%zu %s: %s\n", index, type, s);
    return 0;
  }
  uint32_t total = a->size / (uint32_t)es, n = count && count < total ? count : total;
  uint8_t *b = read_elems(d, a, n, es, e);
  if (!b) return -1;
  fprintf(f, "arg%zu %s[%u]:", index, type, total);
  for (uint32_t i = 0; i < n; i++) {
    format_elem(elem_at(b + (size_t)i * (size_t)es, es), type, s, sizeof s);
    fprintf(f, " %s", s);
  }
  fputs(n < total ? " ...\n" : "\n", f);
  free(b);
  return 0;
}

/* One expected value in `type`: its bits (masked to the element size). */
static int parse_elem(const char *tok, const char *type, uint32_t *out) {
  char *end;
  errno = 0;
  if (!strcmp(type, "f32")) {
    float f = strtof(tok, &end);
    if (end == tok || *end) return -1;
    memcpy(out, &f, 4);
    return 0;
  }
  if (!strcmp(type, "i32")) {
    long long v = strtoll(tok, &end, 0);
    if (end == tok || *end || errno || v < INT32_MIN || v > INT32_MAX) return -1;
    *out = (uint32_t)(int32_t)v;
    return 0;
  }
  unsigned long long v = strtoull(tok, &end, 0);
  unsigned long long max = vt_type_size(type) == 4 ? 0xffffffffull : (1ull << (8 * vt_type_size(type))) - 1;
  if (end == tok || *end || errno || tok[0] == '-' || v > max) return -1;
  *out = (uint32_t)v;
  return 0;
}

static int same(uint32_t got, uint32_t want, const char *type) {
  if (!strcmp(type, "f32")) {
    float g, w;
    memcpy(&g, &got, 4);
    memcpy(&w, &want, 4);
    if (isnan(w)) return isnan(g);
  }
  return got == want;
}

int vt_karg_expect(vt_device *d, const vt_karg *a, size_t index, const char *type, const char *path,
                   size_t *n, vt_error *e) {
  int es = vt_type_size(type);
  if (!es) return vt_fail(e, VT_ERR_USAGE, "arg%zu: unknown type '%s'", index, type);
  if (a->kind != VT_KARG_BUF) return vt_fail(e, VT_ERR_USAGE, "arg%zu is a scalar, not a buffer", index);
  uint32_t total = a->size / (uint32_t)es;
  vt_textfile tf;
  if (vt_textfile_read(path, &tf, e)) return -1;
  uint8_t *b = read_elems(d, a, total, es, e);
  if (!b) {
    vt_textfile_free(&tf);
    return -1;
  }
  size_t k = 0, bad = 0, fl = 0;
  char first[256] = "";
  int rc = 0;
  for (size_t li = 0; li < tf.nlines && !rc; li++) {
    char *hash = strchr(tf.lines[li], '#'), *save = NULL;
    if (hash) *hash = 0;
    for (char *t = strtok_r(tf.lines[li], " \t\r,", &save); t; t = strtok_r(NULL, " \t\r,", &save)) {
      uint32_t want;
      if (parse_elem(t, type, &want)) {
        rc = vt_fail(e, VT_ERR_FORMAT, "%s:%zu: '%.40s' is not a %s value", path, li + 1, t, type);
        break;
      }
      if (k == total) {
        rc = vt_fail(e, VT_ERR_USAGE, "%s: more values than the %u %s elements of arg%zu", path, total,
                     type, index);
        break;
      }
      uint32_t got = elem_at(b + k * (size_t)es, es);
      if (!same(got, want, type)) {
        if (bad < 3 && fl < sizeof first) {
          char gs[48], ws[48];
          format_elem(got, type, gs, sizeof gs);
          format_elem(want, type, ws, sizeof ws);
          int m = snprintf(first + fl, sizeof first - fl, "%s[%zu] got %s, expected %s", bad ? "; " : "", k,
                           gs, ws);
          if (m > 0) fl += (size_t)m;
        }
        bad++;
      }
      k++;
    }
  }
  free(b);
  vt_textfile_free(&tf);
  if (rc) return rc;
  if (!k) return vt_fail(e, VT_ERR_FORMAT, "%s: no values", path);
  *n = k;
  if (bad)
    return vt_fail(e, VT_ERR_MISMATCH, "arg%zu %s: %zu of %zu values differ from %s: %s%s", index, type, bad, k,
                   path, first, bad > 3 ? "; ..." : "");
  return 0;
}
