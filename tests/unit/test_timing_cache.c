/* The timing model's cache tags (src/timing/cache.c): LRU replacement and
 * the choice of MSHR, by hand on small cases and against a plain reference
 * (a use stamp per way and linear scans, the rules as cache.h states them)
 * over random operation sequences, copies between caches included. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cache.h"

/* ---- the reference: stamps and scans ---------------------------------------- */
#define RMAX 4096
typedef struct {
  uint32_t sets, ways, shift, nmshr;
  uint32_t tag[RMAX];
  uint64_t used[RMAX], ready[RMAX], clock;
  uint8_t dirty[RMAX];
  uint64_t mshr[64];
} ref_cache;

static void ref_init(ref_cache *r, uint32_t sets, uint32_t ways, uint32_t line, uint32_t nmshr) {
  memset(r, 0, sizeof *r);
  r->sets = sets, r->ways = ways, r->shift = (uint32_t)__builtin_ctz(line), r->nmshr = nmshr;
}

static long ref_find(ref_cache *r, uint32_t addr) {
  uint32_t line = addr >> r->shift, base = (line & (r->sets - 1)) * r->ways;
  for (uint32_t w = 0; w < r->ways; w++)
    if (r->tag[base + w] == line + 1) {
      r->used[base + w] = ++r->clock;
      return base + w;
    }
  return -1;
}

static long ref_alloc(ref_cache *r, uint32_t addr, uint64_t ready, uint32_t *victim) {
  uint32_t line = addr >> r->shift, base = (line & (r->sets - 1)) * r->ways, v = UINT32_MAX;
  for (uint32_t w = 0; w < r->ways && v == UINT32_MAX; w++)
    if (!r->tag[base + w]) v = base + w; /* the first invalid way */
  if (v == UINT32_MAX) {
    v = base;
    for (uint32_t w = 1; w < r->ways; w++)
      if (r->used[base + w] < r->used[v]) v = base + w; /* else the least recently used */
  }
  *victim = r->tag[v] && r->dirty[v] ? ((r->tag[v] - 1) << r->shift) + 1 : 0;
  r->tag[v] = line + 1;
  r->used[v] = ++r->clock;
  r->ready[v] = ready;
  r->dirty[v] = 0;
  return v;
}

static uint64_t ref_mshr_free(const ref_cache *r, uint64_t now, uint32_t *idx) {
  uint32_t b = 0;
  for (uint32_t i = 1; i < r->nmshr; i++)
    if (r->mshr[i] < r->mshr[b]) b = i;
  *idx = b;
  return r->mshr[b] > now ? r->mshr[b] : now;
}

/* ---- by hand ------------------------------------------------------------------ */
static void test_lru_by_hand(void **state) {
  (void)state;
  vt_cache c;
  assert_int_equal(cache_init(&c, "test", 1, 2, 64, 1, NULL), 0);
  uint32_t victim;
  long a = cache_alloc(&c, 0x000, 10, &victim); /* way 0 */
  long b = cache_alloc(&c, 0x040, 11, &victim); /* way 1 */
  assert_int_equal(a, 0);
  assert_int_equal(b, 1);
  c.way[1].dirty = 1;
  assert_int_equal(cache_find(&c, 0x008), 0); /* A used: B is the LRU */
  assert_int_equal(cache_alloc(&c, 0x080, 12, &victim), 1);
  assert_int_equal(victim, 0x040 + 1); /* dirty B written back */
  assert_int_equal(cache_find(&c, 0x040), -1);
  assert_int_equal(cache_alloc(&c, 0x0c0, 13, &victim), 0); /* now A is the LRU, clean */
  assert_int_equal(victim, 0);
  assert_int_equal(c.way[0].ready, 13);
  cache_invalidate(&c);
  assert_int_equal(cache_find(&c, 0x080), -1);
  assert_int_equal(cache_alloc(&c, 0x100, 14, &victim), 0); /* the first invalid way again */
  cache_free(&c);
}

static void test_mshr_by_hand(void **state) {
  (void)state;
  vt_cache c;
  assert_int_equal(cache_init(&c, "test", 1, 1, 64, 5, NULL), 0); /* 5: a tree of 8 leaves */
  uint64_t v[5] = {50, 30, 30, 90, 40};
  for (uint32_t k = 0; k < 5; k++) cache_mshr_set(&c, k, v[k]);
  uint32_t k;
  assert_int_equal(cache_mshr_free(&c, 0, &k), 30);
  assert_int_equal(k, 1); /* the lowest index among equals */
  assert_int_equal(cache_mshr_free(&c, 35, &k), 35);
  cache_mshr_set(&c, 1, 100);
  assert_int_equal(cache_mshr_free(&c, 0, &k), 30);
  assert_int_equal(k, 2);
  cache_mshr_set(&c, 2, 100);
  assert_int_equal(cache_mshr_free(&c, 0, &k), 40);
  assert_int_equal(k, 4);
  cache_mshr_clear(&c);
  assert_int_equal(cache_mshr_free(&c, 7, &k), 7);
  assert_int_equal(k, 0);
  cache_free(&c);
}

/* ---- against the reference ------------------------------------------------------ */
static uint32_t rnd(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

static void check_geometry(uint32_t sets, uint32_t ways, uint32_t nmshr, uint64_t seed) {
  vt_cache c, d;
  ref_cache *r = malloc(sizeof *r), *q = malloc(sizeof *q);
  assert_non_null(r);
  assert_non_null(q);
  assert_int_equal(cache_init(&c, "test", sets, ways, 32, nmshr, NULL), 0);
  assert_int_equal(cache_init(&d, "test", sets, ways, 32, nmshr, NULL), 0);
  ref_init(r, sets, ways, 32, nmshr);
  ref_init(q, sets, ways, 32, nmshr);
  /* few lines per set, so sets fill, hit and evict */
  uint32_t span = sets * ways * 3 * 32;
  uint64_t now = 0;
  for (int step = 0; step < 20000; step++) {
    uint32_t op = rnd(&seed) % 100, addr = rnd(&seed) % span, k1, k2, v1, v2;
    now += rnd(&seed) % 3;
    if (op < 45) {
      assert_int_equal(cache_find(&c, addr), ref_find(r, addr));
    } else if (op < 75) {
      if (cache_find(&c, addr) >= 0) {
        assert_true(ref_find(r, addr) >= 0);
        continue;
      }
      assert_int_equal(ref_find(r, addr), -1);
      uint64_t ready = now + rnd(&seed) % 50;
      long i = cache_alloc(&c, addr, ready, &v1);
      assert_int_equal(i, ref_alloc(r, addr, ready, &v2));
      assert_int_equal(v1, v2);
      if (rnd(&seed) & 1) c.way[i].dirty = r->dirty[i] = 1;
    } else if (op < 95) {
      uint64_t a = cache_mshr_free(&c, now, &k1), b = ref_mshr_free(r, now, &k2);
      assert_int_equal(a, b);
      assert_int_equal(k1, k2);
      uint64_t until = a + rnd(&seed) % 40;
      cache_mshr_set(&c, k1, until);
      r->mshr[k2] = until;
    } else if (op < 97) { /* copy one set, or all, into the second cache and go on there */
      if (op == 95) {
        cache_copy_set(&d, &c, addr);
        uint32_t base = ((addr >> 5) & (sets - 1)) * ways;
        memcpy(q->tag + base, r->tag + base, ways * sizeof *q->tag);
        memcpy(q->used + base, r->used + base, ways * sizeof *q->used);
        memcpy(q->ready + base, r->ready + base, ways * sizeof *q->ready);
        memcpy(q->dirty + base, r->dirty + base, ways);
      } else {
        cache_copy_sets(&d, &c);
        *q = *r;
      }
      cache_mshr_copy(&d, &c);
      memcpy(q->mshr, r->mshr, sizeof q->mshr);
      q->clock = r->clock;
      vt_cache tc = c;
      c = d, d = tc;
      ref_cache *tr = r;
      r = q, q = tr;
    } else if (op < 98) {
      cache_invalidate(&c);
      memset(r->tag, 0, sizeof r->tag);
      memset(r->dirty, 0, sizeof r->dirty);
      memset(r->mshr, 0, sizeof r->mshr);
    }
  }
  for (uint32_t i = 0; i < sets * ways; i++) {
    assert_int_equal(c.way[i].tag, r->tag[i]);
    if (r->tag[i]) assert_int_equal(c.way[i].ready, r->ready[i]);
  }
  cache_free(&c);
  cache_free(&d);
  free(r);
  free(q);
}

static void test_against_reference(void **state) {
  (void)state;
  check_geometry(4, 16, 32, 1);  /* the L2's shape, few sets */
  check_geometry(8, 2, 4, 2);    /* an L1 */
  check_geometry(1, 64, 1, 3);   /* one set of the most ways, one MSHR */
  check_geometry(16, 1, 3, 4);   /* direct-mapped; MSHRs not a power of two */
  check_geometry(2, 7, 33, 5);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lru_by_hand),
      cmocka_unit_test(test_mshr_by_hand),
      cmocka_unit_test(test_against_reference),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
