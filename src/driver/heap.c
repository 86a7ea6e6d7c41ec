#include "heap.h"

#include <stdlib.h>
#include <string.h>

void vt_heap_init(vt_heap *h) {
  memset(h, 0, sizeof *h);
  h->lo = VT_HEAP_BASE;
  h->hi = 0x100000000ull;
}

void vt_heap_fini(vt_heap *h) {
  free(h->b);
  memset(h, 0, sizeof *h);
}

int vt_heap_alloc(vt_heap *h, vt_device *d, uint64_t size, uint32_t *addr, vt_error *e) {
  return vt_heap_alloc_perm(h, d, size, VT_PERM_R | VT_PERM_W, addr, e);
}

int vt_heap_alloc_perm(vt_heap *h, vt_device *d, uint64_t size, unsigned perm, uint32_t *addr, vt_error *e) {
  if (size == 0) return vt_fail(e, VT_ERR_USAGE, "buffer allocation of 0 bytes");
  uint64_t need = (size + VT_HEAP_GRANULE - 1) & ~(uint64_t)(VT_HEAP_GRANULE - 1);
  uint64_t at = h->lo;
  size_t i = 0;
  for (; i < h->n; i++) {
    if (h->b[i].base >= at + need) break;
    at = (uint64_t)h->b[i].base + h->b[i].size;
  }
  if (at + need > h->hi)
    return vt_fail(e, VT_ERR_NOMEM, "device memory exhausted: no free 0x%llx bytes above 0x%08x",
                   (unsigned long long)need, (uint32_t)h->lo);
  if (h->n == h->cap) {
    size_t nc = h->cap ? h->cap * 2 : 16;
    vt_heap_block *nb = realloc(h->b, nc * sizeof *nb);
    if (!nb) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    h->b = nb, h->cap = nc;
  }
  uint32_t req = vt_device_config(d)->strict_bounds ? (uint32_t)size : (uint32_t)need;
  if (vt_mem_map(d, (uint32_t)at, req, perm, e)) return -1;
  if (req < need && vt_mem_map(d, (uint32_t)at + req, (uint32_t)(need - req), VT_PERM_GUARD, e)) {
    vt_error e2;
    vt_mem_unmap(d, (uint32_t)at, &e2);
    return -1;
  }
  memmove(&h->b[i + 1], &h->b[i], (h->n - i) * sizeof *h->b);
  h->b[i].base = (uint32_t)at;
  h->b[i].size = (uint32_t)need;
  h->b[i].req = req;
  h->b[i].owner = VT_CTX_NONE;
  h->n++;
  *addr = (uint32_t)at;
  return 0;
}

int vt_heap_free(vt_heap *h, vt_device *d, uint32_t addr, vt_error *e) {
  for (size_t i = 0; i < h->n; i++)
    if (h->b[i].base == addr) {
      if (vt_mem_unmap(d, addr, e)) return -1;
      if (h->b[i].req < h->b[i].size && vt_mem_unmap(d, addr + h->b[i].req, e)) return -1;
      memmove(&h->b[i], &h->b[i + 1], (h->n - i - 1) * sizeof *h->b);
      h->n--;
      return 0;
    }
  return vt_fail(e, VT_ERR_USAGE, "free of 0x%08x: not the start of an allocated buffer", addr);
}

int vt_heap_free_all(vt_heap *h, vt_device *d, vt_error *e) {
  int r = 0;
  while (h->n)
    if (vt_heap_free(h, d, h->b[h->n - 1].base, e)) {
      r = -1;
      h->n--;
    }
  return r;
}

const vt_heap_block *vt_heap_find(const vt_heap *h, uint64_t addr, uint64_t size) {
  for (size_t i = 0; i < h->n; i++)
    if (addr >= h->b[i].base && addr + size <= (uint64_t)h->b[i].base + h->b[i].size) return &h->b[i];
  return NULL;
}

int vt_heap_set_owner(vt_heap *h, vt_device *d, uint32_t addr, uint32_t owner, vt_error *e) {
  for (size_t i = 0; i < h->n; i++)
    if (h->b[i].base == addr) {
      if (vt_mem_set_owner(d, addr, owner, e)) return -1;
      h->b[i].owner = owner;
      return 0;
    }
  return vt_fail(e, VT_ERR_USAGE, "0x%08x is not the start of an allocated buffer", addr);
}

int vt_heap_free_owned(vt_heap *h, vt_device *d, uint32_t owner, vt_error *e) {
  int r = 0;
  for (size_t i = h->n; i-- > 0;)
    if (h->b[i].owner == owner && vt_heap_free(h, d, h->b[i].base, e)) r = -1;
  return r;
}
