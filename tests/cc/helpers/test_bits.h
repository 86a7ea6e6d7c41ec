/* Host-side helpers the compiler's numeric tests share: a reproducible
 * 64-bit generator and the bits of a double, both ways. */
#ifndef CC_TEST_BITS_H
#define CC_TEST_BITS_H

#include <stdint.h>
#include <string.h>

static inline uint64_t rnd64(uint64_t *s) { /* xorshift64 */
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

static inline double d_of(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}

static inline uint64_t bits_of(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

#endif
