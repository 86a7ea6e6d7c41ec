/* Cache tags with fill times and miss-status registers (see cache.h). */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

/* the set's ways in list order way 0 (most recent) .. ways - 1, none valid */
static void set_reset(vt_cache *c, uint32_t s) {
  vt_way *w = c->way + (size_t)s * c->ways;
  for (uint32_t i = 0; i < c->ways; i++) {
    w[i].tag = 0;
    w[i].dirty = 0;
    w[i].prev = (uint8_t)(i - 1);
    w[i].next = (uint8_t)(i + 1);
  }
  c->set[s] = (vt_set){0, 0, (uint8_t)(c->ways - 1)};
}

static void win_build(vt_cache *c) {
  uint32_t L = c->leaves;
  for (uint32_t k = 0; k < L; k++) c->win[L + k] = (uint16_t)k;
  for (uint32_t i = L - 1; i >= 1; i--) {
    uint16_t a = c->win[2 * i], b = c->win[2 * i + 1];
    c->win[i] = c->mshr[b] < c->mshr[a] ? b : a; /* the left (lower index) among equals */
  }
}

int cache_init(vt_cache *c, const char *what, uint32_t sets, uint32_t ways, uint32_t line, uint32_t nmshr,
               vt_error *e) {
  memset(c, 0, sizeof *c);
  c->sets = sets;
  c->ways = ways;
  c->line_shift = (uint32_t)__builtin_ctz(line);
  c->nmshr = nmshr ? nmshr : 1;
  for (c->leaves = 1; c->leaves < c->nmshr; c->leaves <<= 1) {
  }
  c->way = calloc((size_t)sets * ways, sizeof *c->way);
  c->set = calloc(sets, sizeof *c->set);
  c->mshr = calloc(c->leaves, sizeof *c->mshr);
  c->win = calloc(2 * (size_t)c->leaves, sizeof *c->win);
  if (!c->way || !c->set || !c->mshr || !c->win) {
    cache_free(c);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory for the %s model (%u sets x %u ways)", what, sets, ways);
  }
  cache_invalidate(c);
  return 0;
}

void cache_free(vt_cache *c) {
  free(c->way);
  free(c->set);
  free(c->mshr);
  free(c->win);
  memset(c, 0, sizeof *c);
}

void cache_invalidate(vt_cache *c) {
  for (uint32_t s = 0; s < c->sets; s++) set_reset(c, s);
  cache_mshr_clear(c);
}

/* way i of set s becomes the most recently used */
static void touch(vt_cache *c, uint32_t s, vt_way *w, uint32_t i) {
  vt_set *st = &c->set[s];
  if (st->mru == i) return;
  vt_way *x = &w[i];
  w[x->prev].next = x->next; /* i is not the head: it has a prev */
  if (st->lru == i) st->lru = x->prev;
  else w[x->next].prev = x->prev;
  x->next = st->mru;
  w[st->mru].prev = (uint8_t)i;
  st->mru = (uint8_t)i;
}

long cache_find(vt_cache *c, uint32_t addr) {
  uint32_t line = addr >> c->line_shift, s = line & (c->sets - 1);
  vt_way *w = c->way + (size_t)s * c->ways;
  for (uint32_t i = 0; i < c->ways; i++)
    if (w[i].tag == line + 1u) {
      touch(c, s, w, i);
      return (long)((size_t)s * c->ways + i);
    }
  return -1;
}

long cache_alloc(vt_cache *c, uint32_t addr, uint64_t ready, uint32_t *victim) {
  uint32_t line = addr >> c->line_shift, s = line & (c->sets - 1);
  vt_way *w = c->way + (size_t)s * c->ways;
  vt_set *st = &c->set[s];
  uint64_t full = c->ways == 64 ? ~0ull : (1ull << c->ways) - 1;
  /* every valid way was used since the set was last empty, so the list's
   * tail is its least recently used one when the set is full */
  uint32_t v = st->valid != full ? (uint32_t)__builtin_ctzll(~st->valid) : st->lru;
  vt_way *x = &w[v];
  *victim = x->tag && x->dirty ? ((x->tag - 1u) << c->line_shift) + 1u : 0;
  x->tag = line + 1u;
  x->ready = ready;
  x->dirty = 0;
  x->merged = 0;
  st->valid |= 1ull << v;
  touch(c, s, w, v);
  return (long)((size_t)s * c->ways + v);
}

void cache_mshr_set(vt_cache *c, uint32_t k, uint64_t until) {
  c->mshr[k] = until;
  for (uint32_t i = (c->leaves + k) >> 1; i >= 1; i >>= 1) {
    uint16_t a = c->win[2 * i], b = c->win[2 * i + 1];
    c->win[i] = c->mshr[b] < c->mshr[a] ? b : a;
  }
}

void cache_mshr_clear(vt_cache *c) {
  for (uint32_t k = 0; k < c->leaves; k++) c->mshr[k] = k < c->nmshr ? 0 : UINT64_MAX;
  win_build(c);
}

void cache_mshr_copy(vt_cache *dst, const vt_cache *src) {
  memcpy(dst->mshr, src->mshr, src->leaves * sizeof *dst->mshr);
  memcpy(dst->win, src->win, 2 * (size_t)src->leaves * sizeof *dst->win);
}

void cache_copy_set(vt_cache *dst, const vt_cache *src, uint32_t addr) {
  uint32_t s = (addr >> src->line_shift) & (src->sets - 1);
  memcpy(dst->way + (size_t)s * src->ways, src->way + (size_t)s * src->ways, src->ways * sizeof *dst->way);
  dst->set[s] = src->set[s];
}

void cache_copy_sets(vt_cache *dst, const vt_cache *src) {
  memcpy(dst->way, src->way, (size_t)src->sets * src->ways * sizeof *dst->way);
  memcpy(dst->set, src->set, src->sets * sizeof *dst->set);
}
