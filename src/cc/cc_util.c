/* Small containers of the compiler: growable text and a pointer map. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static void reserve(cc_text *t, size_t more) {
  if (t->oom || t->n + more + 1 <= t->cap) return;
  size_t cap = t->cap ? t->cap : 4096;
  while (cap < t->n + more + 1) cap *= 2;
  char *p = realloc(t->p, cap);
  if (!p) {
    t->oom = 1;
    return;
  }
  t->p = p;
  t->cap = cap;
}

void cc_puts(cc_text *t, const char *s) {
  size_t l = strlen(s);
  reserve(t, l);
  if (t->oom) return;
  memcpy(t->p + t->n, s, l + 1);
  t->n += l;
}

void cc_printf(cc_text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int l = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (l < 0) return;
  reserve(t, (size_t)l);
  if (t->oom) return;
  va_start(ap, fmt);
  vsnprintf(t->p + t->n, (size_t)l + 1, fmt, ap);
  va_end(ap);
  t->n += (size_t)l;
}

static size_t slot(const cc_map *m, const void *k) {
  size_t h = (size_t)(uintptr_t)k;
  h ^= h >> 17;
  h *= 0x9e3779b97f4a7c15ull & SIZE_MAX;
  return h & (m->cap - 1);
}

int cc_map_put(cc_map *m, const void *k, int v) {
  if ((m->n + 1) * 2 > m->cap) {
    cc_map g = {0};
    g.cap = m->cap ? m->cap * 2 : 64;
    g.k = calloc(g.cap, sizeof *g.k);
    g.v = calloc(g.cap, sizeof *g.v);
    if (!g.k || !g.v) {
      free(g.k);
      free(g.v);
      return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
      if (m->k[i]) {
        size_t j = slot(&g, m->k[i]);
        while (g.k[j]) j = (j + 1) & (g.cap - 1);
        g.k[j] = m->k[i];
        g.v[j] = m->v[i];
      }
    g.n = m->n;
    cc_map_free(m);
    *m = g;
  }
  size_t j = slot(m, k);
  while (m->k[j] && m->k[j] != k) j = (j + 1) & (m->cap - 1);
  if (!m->k[j]) m->n++;
  m->k[j] = k;
  m->v[j] = v;
  return 0;
}

int cc_map_get(const cc_map *m, const void *k) {
  if (!m->cap || !k) return -1;
  size_t j = slot(m, k);
  while (m->k[j]) {
    if (m->k[j] == k) return m->v[j];
    j = (j + 1) & (m->cap - 1);
  }
  return -1;
}

void cc_map_free(cc_map *m) {
  free(m->k);
  free(m->v);
  memset(m, 0, sizeof *m);
}
