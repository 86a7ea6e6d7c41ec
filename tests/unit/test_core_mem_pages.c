/* Device pages on the host (src/core/mem.c): each 4 KiB device page is one
 * page-aligned host page, created zeroed on first touch and carved from
 * slabs of VT_SLAB_PAGES pages, so an access never straddles two host
 * pages. Checked over more pages than two slabs hold, touched in an order
 * that is not the address order, with a pattern written through one page
 * and read back through every other; mem_page_hint finds exactly the
 * touched pages. */
#include <stdarg.h>
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core.h"

#define BASE 0x40000000u
#define NPAGES (2 * VT_SLAB_PAGES + 37)

static uint8_t *page_of(vt_mem *m, uint32_t addr) {
  int denied = -1;
  uint8_t *h = mem_host(m, addr, 4, ACC_R | ACC_W, &denied);
  assert_non_null(h);
  return h - (addr & (VT_PAGE_SIZE - 1));
}

static void pages_aligned_zeroed_and_distinct(void **state) {
  (void)state;
  vt_mem m;
  mem_init(&m);
  assert_int_equal(mem_map(&m, BASE, NPAGES * VT_PAGE_SIZE, VT_PERM_R | VT_PERM_W), 0);
  uint8_t *host[NPAGES];
  for (uint32_t k = 0; k < NPAGES; k++) {
    uint32_t p = (k * 7u) % NPAGES; /* 7 is prime to NPAGES: every page once, out of order */
    uint32_t addr = BASE + p * VT_PAGE_SIZE;
    assert_null(mem_page_hint(&m, addr));
    host[p] = page_of(&m, addr + 100);
    assert_ptr_equal(mem_page_hint(&m, addr + 4000), host[p]);
    assert_int_equal((uintptr_t)host[p] % VT_PAGE_SIZE, 0);
    for (uint32_t i = 0; i < VT_PAGE_SIZE; i++) assert_int_equal(host[p][i], 0);
    memset(host[p], (int)(p & 0xff) ^ 0x5a, VT_PAGE_SIZE);
  }
  for (uint32_t p = 0; p < NPAGES; p++) {
    assert_ptr_equal(page_of(&m, BASE + p * VT_PAGE_SIZE + 8), host[p]);
    for (uint32_t i = 0; i < VT_PAGE_SIZE; i += 511) assert_int_equal(host[p][i], (p & 0xff) ^ 0x5a);
  }
  assert_null(mem_page_hint(&m, BASE + NPAGES * VT_PAGE_SIZE));
  mem_free(&m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pages_aligned_zeroed_and_distinct),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
