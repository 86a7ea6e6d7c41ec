/* Device memory: sparse 4 KiB pages allocated on first touch, mapped
 * regions with permissions, a small translation cache, the sparse page
 * store of the local window, and the little-endian access helpers (the
 * only place that knows byte order). */
#ifndef VT_MEM_H
#define VT_MEM_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define VT_PAGE_BITS 12
#define VT_PAGE_SIZE (1u << VT_PAGE_BITS)
#define VT_TLB_SIZE 256
#define VT_SLAB_PAGES 128u

typedef struct {
  uint32_t base, size; /* size > 0; base + size - 1 does not wrap */
  unsigned perm;
  uint32_t owner;      /* context allowed to access it, VT_CTX_NONE = every context */
} vt_region;

typedef struct {
  uint32_t page;       /* page number + 1 (0 = empty) */
  uint32_t lo, hi;     /* accessible byte offsets [lo, hi) inside the page */
  unsigned perm;
  uint8_t *host;
} vt_tlb_entry;

/* A TLB entry's perm bit for a page of a writable region that holds
 * decoded instructions: VT_PERM_W is left out, so the inline store paths
 * miss and route() sees every store into it (codemap.c). */
#define VT_PERM_CODE 16u

/* Words from which instructions were decoded, per page of a writable
 * region (codemap.c): one block per 4 MiB of address space. */
typedef struct {
  uint64_t page[1024 / 64];       /* pages with a decoded word */
  uint64_t word[1024][1024 / 64]; /* the decoded words of each page */
} vt_codemap_block;

typedef struct vt_mem {
  /* lazily allocated second levels of 1024 page pointers; the pointers are
   * read with acquire loads and set under page_lock, so host threads of a
   * parallel launch may create pages while others read existing ones */
  uint8_t **l1[1024];
  pthread_mutex_t page_lock;
  /* pages are carved in first-touch order from anonymous mappings of
   * VT_SLAB_PAGES pages (under page_lock): page-aligned, so an access never
   * straddles host pages or more cache lines than it covers, and the host
   * backs only the pages touched */
  uint8_t **slabs;
  size_t nslabs, slab_cap;
  uint32_t slab_used;  /* pages handed out from the last slab */
  uint32_t nwx;        /* regions both writable and executable */
  vt_region *regions;  /* sorted by base, disjoint */
  size_t nregions, cap;
  /* decoded words of writable code: 1024 blocks (each 4 MiB of address
   * space), the table and the blocks created under page_lock; outside
   * this struct, whose hot fields keep their places */
  vt_codemap_block **code;
  uint32_t ctx;        /* context of the running launch (region owner check) */
  uint32_t code_gen;   /* counts pages newly marked as code (atomic): workers then drop their TLBs */
  uint64_t tlb_gen;    /* counts flushes: other workers' caches are stale when it moved */
  vt_tlb_entry tlb[VT_TLB_SIZE]; /* the translation cache of worker 0 (the single-threaded loop) */
} vt_mem;

void mem_init(vt_mem *m);
void mem_free(vt_mem *m);
/* 0, or -1 (overlap / bad size) */
int mem_map(vt_mem *m, uint32_t base, uint32_t size, unsigned perm);
int mem_unmap(vt_mem *m, uint32_t base);
const vt_region *mem_region(const vt_mem *m, uint32_t addr);
int mem_set_owner(vt_mem *m, uint32_t base, uint32_t owner);
int mem_set_perm(vt_mem *m, uint32_t base, unsigned perm);
void mem_set_ctx(vt_mem *m, uint32_t ctx);
/* Host pointer for an access of `size` bytes (not crossing a page) needing
 * permission bits `acc`; NULL if unmapped (*denied = 0), not permitted
 * (*denied = 1) or owned by another context than m->ctx (*denied = 2). */
/* `tlb` is the calling worker's translation cache (VT_TLB_SIZE entries). */
uint8_t *mem_slow(vt_mem *m, vt_tlb_entry *tlb, uint32_t addr, unsigned size, unsigned acc, int *denied);
static inline uint8_t *mem_host_t(vt_mem *m, vt_tlb_entry *tlb, uint32_t addr, unsigned size, unsigned acc,
                                  int *denied) {
  vt_tlb_entry *t = &tlb[(addr >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)];
  uint32_t off = addr & (VT_PAGE_SIZE - 1);
  if (t->page == (addr >> VT_PAGE_BITS) + 1 && off >= t->lo && off + size <= t->hi &&
      (t->perm & acc) == acc)
    return t->host + off;
  return mem_slow(m, tlb, addr, size, acc, denied);
}
/* The same through worker 0's cache (single-threaded code). */
static inline uint8_t *mem_host(vt_mem *m, uint32_t addr, unsigned size, unsigned acc, int *denied) {
  return mem_host_t(m, m->tlb, addr, size, acc, denied);
}
/* ---- writable code (codemap.c) ---------------------------------------------
 * A word of a writable region from which an instruction was decoded is
 * marked; its page's TLB entries lose VT_PERM_W (VT_PERM_CODE instead), so
 * a store into it takes route()'s slow path, which invalidates the decoded
 * instructions when it hits a marked word. Marks are never cleared (only
 * a page's later stores pay for a stale one) until the host writes the
 * words or maps or unmaps them. Safe from several threads. */
/* Marks the word at addr; 1 if its page was not marked before (code_gen
 * moved), -1 when out of memory. */
int code_mark(vt_mem *m, uint32_t addr);
static inline int code_page(const vt_mem *m, uint32_t addr) {
  uint32_t pn = addr >> VT_PAGE_BITS;
  vt_codemap_block *const *t = __atomic_load_n(&m->code, __ATOMIC_ACQUIRE);
  const vt_codemap_block *b = t ? __atomic_load_n(&t[pn >> 10], __ATOMIC_ACQUIRE) : NULL;
  return b && (__atomic_load_n(&b->page[(pn & 1023) / 64], __ATOMIC_RELAXED) >> (pn % 64) & 1);
}
/* Forgets the marks of [addr, addr + size) (new contents from the host, a
 * new or removed mapping; no launch running). */
void code_unmark(vt_mem *m, uint32_t addr, uint32_t size);
/* 1 when one of the words [addr, addr + size) was decoded. */
int code_words(const vt_mem *m, uint32_t addr, uint32_t size);
/* Drops VT_PERM_W from entries of code pages (a worker's TLB, after code_gen moved). */
void code_tlb_protect(const vt_mem *m, vt_tlb_entry *tlb);

/* The page holding addr if it exists (never allocates), else NULL. */
const uint8_t *mem_page_peek(const vt_mem *m, uint32_t addr);
/* The host page of addr if it exists, else NULL: for host prefetch hints
 * only (no permission check; the page may appear concurrently). */
static inline const uint8_t *mem_page_hint(const vt_mem *m, uint32_t addr) {
  uint32_t pn = addr >> VT_PAGE_BITS;
  uint8_t *const *l2 = __atomic_load_n(&m->l1[pn >> 10], __ATOMIC_ACQUIRE); /* its zeros are published */
  return l2 ? __atomic_load_n(&l2[pn & 1023], __ATOMIC_RELAXED) : NULL;
}
/* Byte copies ignoring permissions but not mapping; at the first byte
 * that is unmapped -1, in a guard region -2 (*bad = its address). */
int mem_copy_in(vt_mem *m, uint32_t addr, const void *src, uint32_t n, uint32_t *bad);
int mem_copy_out(vt_mem *m, uint32_t addr, void *dst, uint32_t n, uint32_t *bad);

/* ---- sparse zero-filled page store ----------------------------------------
 * The local window beyond a work-group's flat part (docs/simulator.md §3):
 * pages are created zeroed on first touch and counted, so the device can
 * bound how many all its groups hold. */
typedef struct {
  uint32_t page;  /* page number + 1, 0 = empty slot */
  uint8_t *data;  /* VT_PAGE_SIZE bytes */
} vt_sparse_page;

typedef struct {
  vt_sparse_page *tab; /* open addressing */
  uint32_t cap, n;     /* n = pages held */
} vt_sparse;

void sparse_init(vt_sparse *p);
/* Host pointer of the byte at addr, or NULL if its page does not exist. */
uint8_t *sparse_find(const vt_sparse *p, uint32_t addr);
/* Same, creating the (zeroed) page; NULL = out of host memory. */
uint8_t *sparse_host(vt_sparse *p, uint32_t addr);
void sparse_clear(vt_sparse *p); /* drops every page */
void sparse_free(vt_sparse *p);

/* ---- little-endian helpers ------------------------------------------------ */
static inline uint32_t ld_u8(const uint8_t *p) { return p[0]; }
static inline uint32_t ld_u16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static inline uint32_t ld_u32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint32_t ld_s8(const uint8_t *p) { return (uint32_t)(int32_t)(int8_t)p[0]; }
static inline uint32_t ld_s16(const uint8_t *p) { return (uint32_t)(int32_t)(int16_t)ld_u16(p); }
static inline void st_u8(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; }
static inline void st_u16(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
}
static inline void st_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}
/* Load of `size` bytes (1, 2, 4), sign-extended if `sign`. */
static inline uint32_t ld_n(const uint8_t *p, unsigned size, int sign) {
  switch (size) {
  case 1: return sign ? ld_s8(p) : ld_u8(p);
  case 2: return sign ? ld_s16(p) : ld_u16(p);
  default: return ld_u32(p);
  }
}
static inline void st_n(uint8_t *p, unsigned size, uint32_t v) {
  switch (size) {
  case 1: st_u8(p, v); break;
  case 2: st_u16(p, v); break;
  default: st_u32(p, v); break;
  }
}

#endif
