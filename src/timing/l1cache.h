/* The L1 data cache of one SM: set-associative, LRU, allocate on load miss,
 * write no-allocate (a store hit keeps the line). Only tags: data stay in
 * the functional core's memory. */
#ifndef VT_L1CACHE_H
#define VT_L1CACHE_H

#include <stdint.h>

#include "vt_error.h"

typedef struct vt_l1 {
  uint32_t sets, ways, line_shift;
  uint32_t *tag;   /* [sets * ways]: line address + 1, 0 = invalid */
  uint64_t *used;  /* [sets * ways]: LRU stamp */
  uint64_t clock;
} vt_l1;

int l1_init(vt_l1 *c, uint32_t sets, uint32_t ways, uint32_t line, vt_error *e);
void l1_free(vt_l1 *c);
void l1_invalidate(vt_l1 *c);
/* Looks up the line holding addr; 1 = hit. A load miss allocates (LRU victim). */
int l1_access(vt_l1 *c, uint32_t addr, int is_load);

#endif
