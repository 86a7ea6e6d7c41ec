/* Cache tags for the timing model (L1 instruction and data caches, the L2):
 * set-associative, LRU, each line with the cycle its fill arrives, so a
 * lookup of a line still in flight is an MSHR merge rather than a hit. Only
 * tags: the data stay in the functional core's memory. */
#ifndef VT_CACHE_H
#define VT_CACHE_H

#include <stdint.h>

#include "vt_error.h"

typedef struct vt_cache {
  uint32_t sets, ways, line_shift;
  uint32_t *tag;    /* [sets * ways]: line number + 1, 0 = invalid */
  uint64_t *used;   /* [sets * ways]: LRU stamp */
  uint64_t *ready;  /* [sets * ways]: cycle the line's fill arrives */
  uint8_t *dirty;   /* [sets * ways] */
  uint8_t *merged;  /* [sets * ways]: requests merged into the line's fill so far */
  uint64_t clock;
  uint32_t nmshr;
  uint64_t *mshr;   /* [nmshr]: cycle each miss-status register frees */
} vt_cache;

/* `what` names the cache in the out-of-memory message. */
int cache_init(vt_cache *c, const char *what, uint32_t sets, uint32_t ways, uint32_t line, uint32_t nmshr,
               vt_error *e);
void cache_free(vt_cache *c);
void cache_invalidate(vt_cache *c);
/* Slot of the line holding byte address addr (LRU refreshed), or -1. */
long cache_find(vt_cache *c, uint32_t addr);
/* Installs the line of addr in its set's LRU way, ready at `ready`. If the
 * victim was dirty, *victim is its byte address + 1, else 0. Returns the slot. */
long cache_alloc(vt_cache *c, uint32_t addr, uint64_t ready, uint32_t *victim);
/* The earliest cycle >= now a miss-status register is free, and its index. */
uint64_t cache_mshr_free(const vt_cache *c, uint64_t now, uint32_t *idx);

#endif
