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

#endif
