/* Device-address allocator of the driver: 4 KiB-granular first fit over
 * [0x90000000, 0x100000000). Every block is its own mapped device region,
 * as in the upstream spike back end, so an access past a block's end is an
 * unmapped-access error instead of silent corruption of a neighbour. With
 * the strict_bounds key the padding up to the granule is a separate
 * no-access region, so an access just past the requested size is one too. */
#ifndef VT_HEAP_H
#define VT_HEAP_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

#define VT_HEAP_BASE 0x90000000u
#define VT_HEAP_GRANULE 4096u

typedef struct {
  uint32_t base, size; /* size rounded up to the granule */
  uint32_t req;        /* requested size; with strict_bounds [base+req, base+size) is a guard region */
  uint32_t owner;      /* context (vt_mem_set_owner), VT_CTX_NONE = shared */
} vt_heap_block;

typedef struct {
  uint64_t lo, hi;
  vt_heap_block *b; /* sorted by base */
  size_t n, cap;
} vt_heap;

void vt_heap_init(vt_heap *h);
void vt_heap_fini(vt_heap *h);
int vt_heap_alloc(vt_heap *h, vt_device *d, uint64_t size, uint32_t *addr, vt_error *e);
/* The same with the device's permission bits for it (VT_PERM_*): the
 * launch's metadata and argument block are mapped read-only (VT_PERM_R),
 * which lets loads from them run ahead (docs/simulator.md §2). */
int vt_heap_alloc_perm(vt_heap *h, vt_device *d, uint64_t size, unsigned perm, uint32_t *addr, vt_error *e);
int vt_heap_free(vt_heap *h, vt_device *d, uint32_t addr, vt_error *e);
int vt_heap_free_all(vt_heap *h, vt_device *d, vt_error *e);
/* Gives the block at addr to context `owner` (its device region too). */
int vt_heap_set_owner(vt_heap *h, vt_device *d, uint32_t addr, uint32_t owner, vt_error *e);
/* Frees every block of context `owner`. */
int vt_heap_free_owned(vt_heap *h, vt_device *d, uint32_t owner, vt_error *e);
/* The block containing [addr, addr+size), or NULL. */
const vt_heap_block *vt_heap_find(const vt_heap *h, uint64_t addr, uint64_t size);

#endif
