/* xorshift64*: the deterministic, seedable generator of the floating-point
 * tests (seed with a nonzero state: test_rng r = {seed}). */
#ifndef TEST_RNG_H
#define TEST_RNG_H

#include <stdint.h>

typedef struct {
  uint64_t s;
} test_rng;

static inline uint64_t test_rng64(test_rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1Dull;
}

static inline uint32_t test_rng32(test_rng *r) { return (uint32_t)(test_rng64(r) >> 32); }

#endif
