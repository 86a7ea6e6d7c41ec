/* Sparse paged device memory, mapped regions, the local window's sparse
 * page store and the public vt_mem_* calls. */
#include <stdlib.h>
#include <sys/mman.h>

#include "core.h"
#include "mem.h"

void mem_init(vt_mem *m) {
  memset(m, 0, sizeof *m);
  pthread_mutex_init(&m->page_lock, NULL);
  m->ctx = VT_CTX_NONE;
}

/* Under AddressSanitizer every page is an allocation of its own, with
 * redzones, so a simulator access that runs past a device page is
 * reported instead of landing in the next page of a slab. */
#ifdef __SANITIZE_ADDRESS__
#define VT_PAGE_REDZONES 1
#else
#define VT_PAGE_REDZONES 0
#endif

void mem_free(vt_mem *m) {
  for (unsigned i = 0; i < 1024; i++) {
    if (VT_PAGE_REDZONES && m->l1[i])
      for (unsigned j = 0; j < 1024; j++) free(m->l1[i][j]);
    free(m->l1[i]);
  }
  for (unsigned i = 0; m->code && i < 1024; i++) free(m->code[i]);
  free(m->code);
  for (size_t i = 0; i < m->nslabs; i++) munmap(m->slabs[i], (size_t)VT_SLAB_PAGES * VT_PAGE_SIZE);
  free(m->slabs);
  free(m->regions);
  pthread_mutex_destroy(&m->page_lock);
  memset(m, 0, sizeof *m);
}

static void tlb_flush(vt_mem *m) {
  memset(m->tlb, 0, sizeof m->tlb);
  m->tlb_gen++;
}

/* A zeroed, page-aligned page from the current slab (a new slab when it is
 * used up); NULL on OOM. Called under page_lock. */
static uint8_t *slab_page(vt_mem *m) {
  if (VT_PAGE_REDZONES) return vt_calloc_aligned(1, VT_PAGE_SIZE, VT_PAGE_SIZE);
  if (!m->nslabs || m->slab_used == VT_SLAB_PAGES) {
    if (m->nslabs == m->slab_cap) {
      size_t nc = m->slab_cap ? m->slab_cap * 2 : 16;
      uint8_t **t = realloc(m->slabs, nc * sizeof *t);
      if (!t) return NULL;
      m->slabs = t;
      m->slab_cap = nc;
    }
    void *s = mmap(NULL, (size_t)VT_SLAB_PAGES * VT_PAGE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (s == MAP_FAILED) return NULL;
    m->slabs[m->nslabs++] = s;
    m->slab_used = 0;
  }
  return m->slabs[m->nslabs - 1] + (size_t)m->slab_used++ * VT_PAGE_SIZE;
}

/* The page holding addr, allocated (zeroed) on first touch; NULL on OOM.
 * Existing pages are found without a lock (translation-cache misses of
 * every worker come here); creation is serialised and published with a
 * release store, so a reader sees the page's zeros. */
static uint8_t *page_get(vt_mem *m, uint32_t addr) {
  uint32_t pn = addr >> VT_PAGE_BITS;
  uint8_t **l2 = __atomic_load_n(&m->l1[pn >> 10], __ATOMIC_ACQUIRE);
  uint8_t *pg = l2 ? __atomic_load_n(&l2[pn & 1023], __ATOMIC_ACQUIRE) : NULL;
  if (pg) return pg;
  pthread_mutex_lock(&m->page_lock);
  l2 = __atomic_load_n(&m->l1[pn >> 10], __ATOMIC_ACQUIRE);
  if (!l2 && (l2 = calloc(1024, sizeof *l2))) __atomic_store_n(&m->l1[pn >> 10], l2, __ATOMIC_RELEASE);
  if (l2 && !(pg = __atomic_load_n(&l2[pn & 1023], __ATOMIC_ACQUIRE)) && (pg = slab_page(m)))
    __atomic_store_n(&l2[pn & 1023], pg, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&m->page_lock);
  return pg;
}

const uint8_t *mem_page_peek(const vt_mem *m, uint32_t addr) {
  uint32_t pn = addr >> VT_PAGE_BITS;
  uint8_t **l2 = m->l1[pn >> 10];
  return l2 ? l2[pn & 1023] : NULL;
}

const vt_region *mem_region(const vt_mem *m, uint32_t addr) {
  size_t lo = 0, hi = m->nregions;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const vt_region *r = &m->regions[mid];
    if (addr < r->base) hi = mid;
    else if (addr - r->base >= r->size) lo = mid + 1;
    else return r;
  }
  return NULL;
}

int mem_map(vt_mem *m, uint32_t base, uint32_t size, unsigned perm) {
  if (size == 0 || (uint64_t)base + size > 0x100000000ull) return -1;
  size_t i = 0;
  while (i < m->nregions && m->regions[i].base < base) i++;
  if (i > 0 && m->regions[i - 1].base + (uint64_t)m->regions[i - 1].size > base) return -1;
  if (i < m->nregions && (uint64_t)base + size > m->regions[i].base) return -1;
  if (m->nregions == m->cap) {
    size_t nc = m->cap ? 2 * m->cap : 16;
    vt_region *r = realloc(m->regions, nc * sizeof *r);
    if (!r) return -1;
    m->regions = r;
    m->cap = nc;
  }
  memmove(&m->regions[i + 1], &m->regions[i], (m->nregions - i) * sizeof *m->regions);
  m->regions[i] = (vt_region){base, size, perm, VT_CTX_NONE};
  m->nregions++;
  if ((perm & (VT_PERM_W | VT_PERM_X)) == (VT_PERM_W | VT_PERM_X)) m->nwx++;
  code_unmark(m, base, size);
  /* a fresh mapping reads as zeros even if an earlier one left data */
  for (uint64_t a = base; a < (uint64_t)base + size;) {
    uint32_t pn = (uint32_t)(a >> VT_PAGE_BITS);
    uint64_t end = ((uint64_t)pn + 1) << VT_PAGE_BITS;
    if (end > (uint64_t)base + size) end = (uint64_t)base + size;
    uint8_t **l2 = m->l1[pn >> 10];
    if (l2 && l2[pn & 1023]) memset(l2[pn & 1023] + (a & (VT_PAGE_SIZE - 1)), 0, (size_t)(end - a));
    a = end;
  }
  tlb_flush(m);
  return 0;
}

int mem_unmap(vt_mem *m, uint32_t base) {
  for (size_t i = 0; i < m->nregions; i++) {
    if (m->regions[i].base == base) {
      if ((m->regions[i].perm & (VT_PERM_W | VT_PERM_X)) == (VT_PERM_W | VT_PERM_X)) m->nwx--;
      code_unmark(m, base, m->regions[i].size);
      memmove(&m->regions[i], &m->regions[i + 1], (m->nregions - i - 1) * sizeof *m->regions);
      m->nregions--;
      tlb_flush(m);
      return 0;
    }
  }
  return -1;
}

int mem_set_owner(vt_mem *m, uint32_t base, uint32_t owner) {
  vt_region *r = (vt_region *)(uintptr_t)mem_region(m, base);
  if (!r || r->base != base) return -1;
  r->owner = owner;
  tlb_flush(m);
  return 0;
}

int mem_set_perm(vt_mem *m, uint32_t base, unsigned perm) {
  vt_region *r = (vt_region *)(uintptr_t)mem_region(m, base);
  if (!r || r->base != base || (perm & ~(unsigned)(VT_PERM_RWX | VT_PERM_GUARD))) return -1;
  const unsigned wx = VT_PERM_W | VT_PERM_X;
  m->nwx += ((perm & wx) == wx) - ((r->perm & wx) == wx);
  r->perm = perm;
  tlb_flush(m); /* workers of parallel launches start with empty caches */
  return 0;
}

/* The translation cache holds pages the current context may use, so it is
 * flushed when the context changes. */
void mem_set_ctx(vt_mem *m, uint32_t ctx) {
  if (m->ctx == ctx) return;
  m->ctx = ctx;
  tlb_flush(m);
}

uint8_t *mem_slow(vt_mem *m, vt_tlb_entry *tlb, uint32_t addr, unsigned size, unsigned acc, int *denied) {
  *denied = 0;
  const vt_region *r = mem_region(m, addr);
  if (!r || (uint64_t)addr + size > (uint64_t)r->base + r->size) return NULL;
  if ((r->perm & acc) != acc) {
    *denied = 1;
    return NULL;
  }
  if (r->owner != VT_CTX_NONE && r->owner != m->ctx) {
    *denied = 2;
    return NULL;
  }
  uint8_t *pg = page_get(m, addr);
  if (!pg) return NULL;
  uint32_t pbase = addr & ~(VT_PAGE_SIZE - 1);
  vt_tlb_entry *t = &tlb[(addr >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)];
  t->page = (addr >> VT_PAGE_BITS) + 1;
  t->lo = r->base > pbase ? r->base - pbase : 0;
  uint64_t rend = (uint64_t)r->base + r->size;
  t->hi = rend - pbase >= VT_PAGE_SIZE ? VT_PAGE_SIZE : (uint32_t)(rend - pbase);
  t->perm = r->perm;
  if ((r->perm & VT_PERM_W) && code_page(m, addr)) t->perm = (r->perm & ~VT_PERM_W) | VT_PERM_CODE;
  t->host = pg;
  return pg + (addr & (VT_PAGE_SIZE - 1));
}

static int copy_bytes(vt_mem *m, uint32_t addr, uint8_t *buf, uint32_t n, int in, uint32_t *bad) {
  uint32_t done = 0;
  while (done < n) {
    uint32_t a = addr + done;
    const vt_region *r = mem_region(m, a);
    if (!r || (r->perm & VT_PERM_GUARD)) {
      *bad = a;
      return r ? -2 : -1;
    }
    uint32_t chunk = VT_PAGE_SIZE - (a & (VT_PAGE_SIZE - 1));
    uint64_t rleft = (uint64_t)r->base + r->size - a;
    if (chunk > rleft) chunk = (uint32_t)rleft;
    if (chunk > n - done) chunk = n - done;
    uint8_t *pg = page_get(m, a);
    if (!pg) {
      *bad = a;
      return -1;
    }
    if (in) {
      memcpy(pg + (a & (VT_PAGE_SIZE - 1)), buf + done, chunk);
      code_unmark(m, a, chunk);
    }
    else memcpy(buf + done, pg + (a & (VT_PAGE_SIZE - 1)), chunk);
    done += chunk;
  }
  return 0;
}

int mem_copy_in(vt_mem *m, uint32_t addr, const void *src, uint32_t n, uint32_t *bad) {
  return copy_bytes(m, addr, (uint8_t *)(uintptr_t)src, n, 1, bad);
}
int mem_copy_out(vt_mem *m, uint32_t addr, void *dst, uint32_t n, uint32_t *bad) {
  return copy_bytes(m, addr, dst, n, 0, bad);
}

/* ---- sparse page store --------------------------------------------------- */
void sparse_init(vt_sparse *p) { memset(p, 0, sizeof *p); }

static vt_sparse_page *sparse_slot(const vt_sparse *p, uint32_t key) {
  uint32_t h = (key * 2654435761u) & (p->cap - 1);
  while (p->tab[h].page && p->tab[h].page != key) h = (h + 1) & (p->cap - 1);
  return &p->tab[h];
}

static int sparse_grow(vt_sparse *p) {
  uint32_t oc = p->cap;
  vt_sparse_page *old = p->tab;
  uint32_t nc = oc ? oc * 2 : 64;
  vt_sparse_page *t = calloc(nc, sizeof *t);
  if (!t) return -1;
  p->tab = t;
  p->cap = nc;
  for (uint32_t i = 0; i < oc; i++)
    if (old[i].page) *sparse_slot(p, old[i].page) = old[i];
  free(old);
  return 0;
}

uint8_t *sparse_find(const vt_sparse *p, uint32_t addr) {
  if (!p->cap) return NULL;
  const vt_sparse_page *s = sparse_slot(p, (addr >> VT_PAGE_BITS) + 1);
  return s->page ? s->data + (addr & (VT_PAGE_SIZE - 1)) : NULL;
}

uint8_t *sparse_host(vt_sparse *p, uint32_t addr) {
  uint8_t *h = sparse_find(p, addr);
  if (h) return h;
  if ((p->n + 1) * 2 > p->cap && sparse_grow(p)) return NULL;
  uint8_t *data = calloc(1, VT_PAGE_SIZE);
  if (!data) return NULL;
  vt_sparse_page *s = sparse_slot(p, (addr >> VT_PAGE_BITS) + 1);
  s->page = (addr >> VT_PAGE_BITS) + 1;
  s->data = data;
  p->n++;
  return data + (addr & (VT_PAGE_SIZE - 1));
}

void sparse_clear(vt_sparse *p) {
  for (uint32_t i = 0; i < p->cap; i++) {
    free(p->tab[i].data);
    p->tab[i].data = NULL;
    p->tab[i].page = 0;
  }
  p->n = 0;
}

void sparse_free(vt_sparse *p) {
  sparse_clear(p);
  free(p->tab);
  memset(p, 0, sizeof *p);
}

/* ---- public calls ---------------------------------------------------------- */
int vt_mem_map(vt_device *d, uint32_t base, uint32_t size, unsigned perm, vt_error *e) {
  if (perm & ~15u) return vt_fail(e, VT_ERR_USAGE, "bad permission bits 0x%x", perm);
  if (mem_map(&d->mem, base, size, perm))
    return vt_fail(e, VT_ERR_USAGE,
                   "cannot map [0x%08x, +0x%x): empty, wraps, or overlaps a mapped region", base,
                   size);
  return 0;
}

int vt_mem_set_owner(vt_device *d, uint32_t base, uint32_t owner, vt_error *e) {
  if (mem_set_owner(&d->mem, base, owner))
    return vt_fail(e, VT_ERR_USAGE, "no region mapped at 0x%08x", base);
  return 0;
}

int vt_mem_set_perm(vt_device *d, uint32_t base, unsigned perm, vt_error *e) {
  if (mem_set_perm(&d->mem, base, perm))
    return vt_fail(e, VT_ERR_USAGE, "no region mapped at 0x%08x, or permissions 0x%x unknown", base, perm);
  return 0;
}

int vt_mem_unmap(vt_device *d, uint32_t base, vt_error *e) {
  if (mem_unmap(&d->mem, base))
    return vt_fail(e, VT_ERR_USAGE, "no region mapped at 0x%08x", base);
  return 0;
}

int vt_mem_region_from(vt_device *d, uint32_t addr, uint32_t *base, uint32_t *size, unsigned *perm) {
  const vt_mem *m = &d->mem;
  size_t lo = 0, hi = m->nregions; /* first region ending above addr */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if ((uint64_t)m->regions[mid].base + m->regions[mid].size <= addr) lo = mid + 1;
    else hi = mid;
  }
  if (lo == m->nregions) return 0;
  *base = m->regions[lo].base, *size = m->regions[lo].size, *perm = m->regions[lo].perm;
  return 1;
}

int vt_mem_page_present(vt_device *d, uint32_t addr) { return mem_page_peek(&d->mem, addr) != NULL; }

int vt_mem_is_mapped(vt_device *d, uint32_t addr, uint32_t size) {
  uint64_t end = (uint64_t)addr + (size ? size : 1);
  for (uint64_t a = addr; a < end;) {
    const vt_region *r = mem_region(&d->mem, (uint32_t)a);
    if (!r) return 0;
    a = (uint64_t)r->base + r->size;
  }
  return 1;
}

/* vt_mem_write (in = 1) and vt_mem_read (in = 0): the copy and its errors;
 * a buffer's padding under strict_bounds is off limits to the host too */
static int host_copy(vt_device *d, uint32_t addr, uint8_t *buf, uint32_t n, int in, vt_error *e) {
  const char *what = in ? "write" : "read";
  uint32_t bad;
  if ((uint64_t)addr + n > 0x100000000ull)
    return vt_fail(e, VT_ERR_UNMAPPED, "%s of %u bytes at 0x%08x wraps", what, n, addr);
  int rc = copy_bytes(&d->mem, addr, buf, n, in, &bad);
  if (rc) {
    vt_fail(e, VT_ERR_UNMAPPED, "host %s of %u bytes at 0x%08x: 0x%08x is %s", what, n, addr, bad,
            rc == -2 ? "in the padding after a buffer's requested size (strict_bounds = 1)" : "not mapped");
    vt_err_addr(e, bad);
    return -1;
  }
  return 0;
}

int vt_mem_write(vt_device *d, uint32_t addr, const void *src, uint32_t n, vt_error *e) {
  if (host_copy(d, addr, (uint8_t *)(uintptr_t)src, n, 1, e)) return -1;
  icache_clear(d); /* new code may have been loaded */
  return 0;
}

int vt_mem_read(vt_device *d, uint32_t addr, void *dst, uint32_t n, vt_error *e) {
  return host_copy(d, addr, dst, n, 0, e);
}
