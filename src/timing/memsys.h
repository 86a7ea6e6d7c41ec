/* The memory system below the L1 caches, shared by all SMs: a crossbar that
 * takes one request per L2 bank and cycle, the L2 (write-back,
 * write-allocate, MSHRs with merging) and a DRAM channel with a latency and
 * a bandwidth. Requests are timed when they are made: each returns the
 * cycle its response reaches the L1 (docs/timing.md). */
#ifndef VT_MEMSYS_H
#define VT_MEMSYS_H

#include <stdint.h>

#include "cache.h"
#include "device.h"

typedef struct vt_mem_stats {
  uint64_t l2_hits, l2_misses, l2_merges; /* merges: a miss on a line already in flight */
  uint64_t l2_writebacks;                 /* dirty lines written to DRAM (evictions and flushes) */
  uint64_t dram_reads, dram_writes;       /* lines */
  uint64_t xbar_waits;                    /* cycles requests waited for an L2 bank */
  uint64_t set_waits;                     /* ... for a miss of their L2 set (l2_set_blocking) */
} vt_mem_stats;

typedef struct vt_memsys {
  vt_cache l2;
  uint32_t banks, lat_l2, lat_dram, dram_busy; /* dram_busy: cycles one line occupies the channel */
  uint32_t flush_walk;                          /* cycles the flush spends per line (l2_flush_walk) */
  int cold_launch;                              /* l2_cold_launch: ms_begin empties the L2 */
  uint64_t *bank_free;                          /* [banks]: first cycle the bank takes a request */
  uint64_t *set_free;  /* [sets] with l2_set_blocking: first cycle the set takes a request */
  uint64_t dram_free;
  vt_mem_stats st;
} vt_memsys;

int ms_init(vt_memsys *m, const vt_config *c, vt_error *e);
void ms_free(vt_memsys *m);
/* A new launch: the L2 keeps its lines (only the end-of-launch flush cleans
 * them), or with cold_launch starts empty. */
void ms_begin(vt_memsys *m);
/* A line read (write = 0) or a write-through store (write = 1) of the line
 * holding addr, made at cycle now; returns the cycle the response is back. */
uint64_t ms_access(vt_memsys *m, uint64_t now, uint32_t addr, int write);
/* Writes every dirty L2 line back, starting at now; returns the cycle the
 * last write completes. With flush_walk the flush visits every line in
 * order (set by set, way by way), flush_walk cycles each, and a dirty line's
 * write starts when it is visited: the end is at least now + lines x walk. */
uint64_t ms_flush(vt_memsys *m, uint64_t now);

#endif
