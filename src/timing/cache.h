/* Cache tags for the timing model (L1 instruction and data caches, the L2):
 * set-associative, LRU, each line with the cycle its fill arrives, so a
 * lookup of a line still in flight is an MSHR merge rather than a hit. Only
 * tags: the data stay in the functional core's memory.
 *
 * Replacement takes the set's first invalid way, else its least recently
 * used one; the MSHR a miss takes is the one free earliest, the lowest
 * index among equals. Both are found without a scan (an LRU list per set,
 * a tournament tree over the MSHRs): the L2's 16 ways and 32 MSHRs were
 * scanned on every miss, twice (an SM's view and the replay). */
#ifndef VT_CACHE_H
#define VT_CACHE_H

#include <stdint.h>

#include "vt_error.h"

/* One way of a set (16 bytes: a set's ways copy as one block). */
typedef struct {
  uint64_t ready;     /* cycle the line's fill arrives */
  uint32_t tag;       /* line number + 1, 0 = invalid */
  uint8_t dirty;
  uint8_t merged;     /* requests merged into the line's fill so far */
  uint8_t prev, next; /* the set's LRU list: ways used more, less recently */
} vt_way;

/* A set's replacement state. */
typedef struct {
  uint64_t valid;     /* bit w: way w holds a line (ways <= 64, config.c) */
  uint8_t mru, lru;   /* the ends of the LRU list */
} vt_set;

typedef struct vt_cache {
  uint32_t sets, ways, line_shift;
  vt_way *way;      /* [sets * ways] */
  vt_set *set;      /* [sets] */
  uint32_t nmshr, leaves; /* leaves: nmshr rounded up to a power of two */
  uint64_t *mshr;   /* [leaves]: cycle each miss-status register frees (UINT64_MAX past nmshr) */
  uint16_t *win;    /* [2 * leaves]: win[i] the earliest-free MSHR below node i (leaves at leaves + k) */
} vt_cache;

/* `what` names the cache in the out-of-memory message. */
int cache_init(vt_cache *c, const char *what, uint32_t sets, uint32_t ways, uint32_t line, uint32_t nmshr,
               vt_error *e);
void cache_free(vt_cache *c);
/* Every line invalid, every MSHR free. */
void cache_invalidate(vt_cache *c);
/* Slot of the line holding byte address addr (LRU refreshed), or -1. */
long cache_find(vt_cache *c, uint32_t addr);
/* Installs the line of addr in its set's first invalid way, else its least
 * recently used one, ready at `ready`. If the victim was dirty, *victim is
 * its byte address + 1, else 0. Returns the slot. */
long cache_alloc(vt_cache *c, uint32_t addr, uint64_t ready, uint32_t *victim);
/* The earliest cycle >= now a miss-status register is free, and its index. */
static inline uint64_t cache_mshr_free(const vt_cache *c, uint64_t now, uint32_t *idx) {
  uint32_t k = c->win[1];
  *idx = k;
  return c->mshr[k] > now ? c->mshr[k] : now;
}
/* MSHR k is busy until `until`. */
void cache_mshr_set(vt_cache *c, uint32_t k, uint64_t until);
/* Every MSHR free (0), and dst's MSHRs a copy of src's (same geometry). */
void cache_mshr_clear(vt_cache *c);
void cache_mshr_copy(vt_cache *dst, const vt_cache *src);
/* The set holding addr, copied from src (same geometry); and all sets. */
void cache_copy_set(vt_cache *dst, const vt_cache *src, uint32_t addr);
void cache_copy_sets(vt_cache *dst, const vt_cache *src);

#endif
