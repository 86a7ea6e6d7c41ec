/* Zeroed allocations on cache-line or page boundaries, for what the host
 * threads of a parallel launch write: two threads' objects on one cache
 * line trade it on every write. */
#ifndef VT_ALLOC_H
#define VT_ALLOC_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* n * size zeroed bytes at an `align`-byte boundary (a power of two, at
 * least sizeof(void *)), the size rounded up to a multiple of it, so that
 * nothing else shares its lines; NULL when out of memory. Free with free. */
static inline void *vt_calloc_aligned(size_t n, size_t size, size_t align) {
  if (size && n > (SIZE_MAX - align) / size) return NULL;
  size_t b = (n * size + align - 1) & ~(align - 1);
  void *p = aligned_alloc(align, b ? b : align);
  if (p) memset(p, 0, b);
  return p;
}

/* bytes zeroed bytes on whole pages of their own (nothing else on them),
 * inside one ordinary allocation whose start goes to *mem (free(*mem)
 * releases it). Not aligned_alloc: its split-off fragments scatter the heap,
 * and a process that makes and drops devices then keeps pages it cannot
 * give back. NULL when out of memory. */
static inline void *vt_calloc_pages(size_t bytes, void **mem) {
  const size_t page = 4096;
  if (bytes > SIZE_MAX - 2 * page) return NULL;
  size_t b = (bytes + page - 1) & ~(page - 1);
  unsigned char *raw = calloc(1, b + page);
  *mem = raw;
  if (!raw) return NULL;
  return raw + (page - (uintptr_t)raw % page) % page;
}

#endif
