/* L1 data cache tags (see l1cache.h). */
#include "l1cache.h"

#include <stdlib.h>
#include <string.h>

int l1_init(vt_l1 *c, uint32_t sets, uint32_t ways, uint32_t line, vt_error *e) {
  memset(c, 0, sizeof *c);
  c->sets = sets;
  c->ways = ways;
  c->line_shift = (uint32_t)__builtin_ctz(line);
  c->tag = calloc((size_t)sets * ways, sizeof *c->tag);
  c->used = calloc((size_t)sets * ways, sizeof *c->used);
  if (!c->tag || !c->used) {
    l1_free(c);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory for the L1 cache model (%u sets x %u ways)", sets, ways);
  }
  return 0;
}

void l1_free(vt_l1 *c) {
  free(c->tag);
  free(c->used);
  c->tag = NULL;
  c->used = NULL;
}

void l1_invalidate(vt_l1 *c) {
  memset(c->tag, 0, (size_t)c->sets * c->ways * sizeof *c->tag);
  c->clock = 0;
}

int l1_access(vt_l1 *c, uint32_t addr, int is_load) {
  uint32_t line = addr >> c->line_shift;
  size_t base = (size_t)(line & (c->sets - 1)) * c->ways;
  uint32_t *t = c->tag + base;
  uint64_t *u = c->used + base;
  c->clock++;
  uint32_t victim = 0;
  for (uint32_t w = 0; w < c->ways; w++) {
    if (t[w] == line + 1u) {
      u[w] = c->clock;
      return 1;
    }
    if (!t[w] || (t[victim] && u[w] < u[victim])) victim = w;
  }
  if (is_load) {
    t[victim] = line + 1u;
    u[victim] = c->clock;
  }
  return 0;
}
