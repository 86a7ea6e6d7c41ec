/* Cache tags with fill times and miss-status registers (see cache.h). */
#include "cache.h"

#include <stdlib.h>
#include <string.h>

int cache_init(vt_cache *c, const char *what, uint32_t sets, uint32_t ways, uint32_t line, uint32_t nmshr,
               vt_error *e) {
  memset(c, 0, sizeof *c);
  size_t n = (size_t)sets * ways;
  c->sets = sets;
  c->ways = ways;
  c->line_shift = (uint32_t)__builtin_ctz(line);
  c->nmshr = nmshr ? nmshr : 1;
  c->tag = calloc(n, sizeof *c->tag);
  c->used = calloc(n, sizeof *c->used);
  c->ready = calloc(n, sizeof *c->ready);
  c->dirty = calloc(n, sizeof *c->dirty);
  c->merged = calloc(n, sizeof *c->merged);
  c->mshr = calloc(c->nmshr, sizeof *c->mshr);
  if (!c->tag || !c->used || !c->ready || !c->dirty || !c->merged || !c->mshr) {
    cache_free(c);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory for the %s model (%u sets x %u ways)", what, sets, ways);
  }
  return 0;
}

void cache_free(vt_cache *c) {
  free(c->tag);
  free(c->used);
  free(c->ready);
  free(c->dirty);
  free(c->merged);
  free(c->mshr);
  memset(c, 0, sizeof *c);
}

void cache_invalidate(vt_cache *c) {
  size_t n = (size_t)c->sets * c->ways;
  memset(c->tag, 0, n * sizeof *c->tag);
  memset(c->dirty, 0, n);
  memset(c->mshr, 0, c->nmshr * sizeof *c->mshr);
  c->clock = 0;
}

long cache_find(vt_cache *c, uint32_t addr) {
  uint32_t line = addr >> c->line_shift;
  size_t base = (size_t)(line & (c->sets - 1)) * c->ways;
  for (uint32_t w = 0; w < c->ways; w++)
    if (c->tag[base + w] == line + 1u) {
      c->used[base + w] = ++c->clock;
      return (long)(base + w);
    }
  return -1;
}

long cache_alloc(vt_cache *c, uint32_t addr, uint64_t ready, uint32_t *victim) {
  uint32_t line = addr >> c->line_shift;
  size_t base = (size_t)(line & (c->sets - 1)) * c->ways, v = base;
  uint64_t oldest = c->used[base]; /* v's stamp */
  for (uint32_t w = 0; w < c->ways; w++) {
    size_t i = base + w;
    if (!c->tag[i]) {
      v = i;
      break;
    }
    if (c->used[i] < oldest) oldest = c->used[i], v = i;
  }
  *victim = c->tag[v] && c->dirty[v] ? ((c->tag[v] - 1u) << c->line_shift) + 1u : 0;
  c->tag[v] = line + 1u;
  c->used[v] = ++c->clock;
  c->ready[v] = ready;
  c->dirty[v] = 0;
  c->merged[v] = 0;
  return (long)v;
}

uint64_t cache_mshr_free(const vt_cache *c, uint64_t now, uint32_t *idx) {
  uint32_t best = 0;
  for (uint32_t i = 1; i < c->nmshr; i++)
    if (c->mshr[i] < c->mshr[best]) best = i;
  *idx = best;
  return c->mshr[best] > now ? c->mshr[best] : now;
}
