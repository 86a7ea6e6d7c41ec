/* Writable code: which words of writable regions hold decoded
 * instructions (mem.h). Pages with such a word are write-protected in the
 * translation caches, so the inline store paths stay one permission test
 * and route() sees every store into code. */
#include <stdlib.h>

#include "core.h"

int code_mark(vt_mem *m, uint32_t addr) {
  uint32_t pn = addr >> VT_PAGE_BITS, w = (addr & (VT_PAGE_SIZE - 1)) >> 2;
  vt_codemap_block **t = __atomic_load_n(&m->code, __ATOMIC_ACQUIRE);
  vt_codemap_block *b = t ? __atomic_load_n(&t[pn >> 10], __ATOMIC_ACQUIRE) : NULL;
  if (!b) {
    pthread_mutex_lock(&m->page_lock);
    if (!(t = m->code) && (t = calloc(1024, sizeof *t))) __atomic_store_n(&m->code, t, __ATOMIC_RELEASE);
    if (t && !(b = t[pn >> 10]) && (b = calloc(1, sizeof *b))) __atomic_store_n(&t[pn >> 10], b, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&m->page_lock);
    if (!b) return -1;
  }
  uint64_t *pw = &b->word[pn & 1023][w / 64];
  if (!(__atomic_load_n(pw, __ATOMIC_RELAXED) >> (w % 64) & 1))
    __atomic_fetch_or(pw, 1ull << (w % 64), __ATOMIC_RELAXED);
  uint64_t *pp = &b->page[(pn & 1023) / 64], bit = 1ull << (pn % 64);
  if (__atomic_load_n(pp, __ATOMIC_RELAXED) & bit) return 0;
  if (__atomic_fetch_or(pp, bit, __ATOMIC_RELEASE) & bit) return 0;
  __atomic_fetch_add(&m->code_gen, 1, __ATOMIC_RELEASE);
  return 1;
}

void code_unmark(vt_mem *m, uint32_t addr, uint32_t size) {
  uint64_t end = (uint64_t)addr + size;
  for (uint64_t a = addr & ~3u; a < end;) {
    uint32_t pn = (uint32_t)(a >> VT_PAGE_BITS);
    uint64_t next = ((uint64_t)pn + 1) << VT_PAGE_BITS;
    vt_codemap_block *b = m->code ? m->code[pn >> 10] : NULL;
    uint64_t bit = 1ull << (pn % 64);
    if (b && (b->page[(pn & 1023) / 64] & bit)) { /* only pages with marks cost a word loop */
      uint64_t *words = b->word[pn & 1023], any = 0;
      for (; a < end && a < next; a += 4) {
        uint32_t w = (uint32_t)(a & (VT_PAGE_SIZE - 1)) >> 2;
        words[w / 64] &= ~(1ull << (w % 64));
      }
      for (unsigned i = 0; i < 1024 / 64; i++) any |= words[i];
      if (!any) b->page[(pn & 1023) / 64] &= ~bit; /* its TLB entries regain W when refilled */
    }
    a = next;
  }
}

int code_words(const vt_mem *m, uint32_t addr, uint32_t size) {
  for (uint64_t a = addr & ~3u; a < (uint64_t)addr + size; a += 4) {
    uint32_t pn = (uint32_t)(a >> VT_PAGE_BITS), w = (uint32_t)(a & (VT_PAGE_SIZE - 1)) >> 2;
    vt_codemap_block *const *t = __atomic_load_n(&m->code, __ATOMIC_ACQUIRE);
    const vt_codemap_block *b = t ? __atomic_load_n(&t[pn >> 10], __ATOMIC_ACQUIRE) : NULL;
    if (b && (__atomic_load_n(&b->word[pn & 1023][w / 64], __ATOMIC_RELAXED) >> (w % 64) & 1)) return 1;
  }
  return 0;
}

void code_tlb_protect(const vt_mem *m, vt_tlb_entry *tlb) {
  for (unsigned i = 0; i < VT_TLB_SIZE; i++) {
    vt_tlb_entry *t = &tlb[i];
    if (t->page && (t->perm & VT_PERM_W) && code_page(m, (t->page - 1) << VT_PAGE_BITS))
      t->perm = (t->perm & ~VT_PERM_W) | VT_PERM_CODE;
  }
}
