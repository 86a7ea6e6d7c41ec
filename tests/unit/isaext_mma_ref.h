/* The plain-C side of the MMA64 tests: element types, random elements of
 * each type with their values (the small float formats decoded from their
 * definitions), fragment packing, and whether the host honours directed
 * rounding. */
#ifndef ISAEXT_MMA_REF_H
#define ISAEXT_MMA_REF_H

#include <fenv.h>
#include <math.h>

#include "isaext_prog.h"

enum { T_INT, T_BIN, T_F32, T_F16, T_BF16, T_E4M3, T_E5M2, T_E3M2, T_E2M3, T_E2M1, T_E3M0 };

static inline uint32_t rng_next(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}
static inline float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint32_t h2u(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static inline _Float16 u2h(uint32_t u) { uint16_t v = (uint16_t)u; _Float16 h; memcpy(&h, &v, 2); return h; }

/* the small formats: exponent bits, fraction bits, bias (OCP FP8 and MX
 * FP6/FP4; E3M0 with bias 3) */
static const struct { unsigned e, m; int bias; } small[] = {
    [T_E4M3] = {4, 3, 7}, [T_E5M2] = {5, 2, 15}, [T_E3M2] = {3, 2, 3},
    [T_E2M3] = {2, 3, 1}, [T_E2M1] = {2, 1, 1},  [T_E3M0] = {3, 0, 3}};

/* value = (-1)^s * 2^(E - bias) * (1 + F / 2^m), or 2^(1 - bias) * F / 2^m for E = 0 */
static inline float small_value(uint32_t raw, unsigned t) {
  unsigned eb = small[t].e, mb = small[t].m;
  double frac = (double)(raw & ((1u << mb) - 1)) / (double)(1u << mb);
  unsigned e = (raw >> mb) & ((1u << eb) - 1);
  double v = e ? pow(2.0, (double)e - small[t].bias) * (1 + frac) : pow(2.0, 1.0 - small[t].bias) * frac;
  return (float)((raw >> (eb + mb)) & 1 ? -v : v);
}

typedef struct {
  uint32_t raw;
  int32_t i;
  float f;
} elem;

static inline elem rand_elem(uint64_t *s, unsigned type, unsigned bits) {
  elem e = {0, 0, 0};
  uint32_t r = rng_next(s);
  switch (type) {
  case T_BIN: e.raw = r & 1; e.i = (int32_t)e.raw; break;
  case T_INT:
    e.raw = r & ((1u << bits) - 1);
    e.i = (int32_t)(e.raw ^ (1u << (bits - 1))) - (int32_t)(1u << (bits - 1));
    break;
  case T_F32:
    e.raw = (r & 0x807fffffu) | (119u + rng_next(s) % 17) << 23;
    e.f = u2f(e.raw);
    break;
  case T_F16: {
    _Float16 h = (_Float16)((float)((int32_t)(r % 4001) - 2000) / (float)(1u << (rng_next(s) % 12)));
    e.raw = h2u(h);
    e.f = (float)h;
    break;
  }
  case T_BF16:
    e.raw = ((r & 0x807fffffu) | (120u + rng_next(s) % 15) << 23) >> 16;
    e.f = u2f(e.raw << 16);
    break;
  default: { /* any pattern but the NaNs and infinities of the FP8 formats */
    unsigned w = 1 + small[type].e + small[type].m;
    do e.raw = rng_next(s) & ((1u << w) - 1);
    while ((type == T_E4M3 && (e.raw & 0x7f) == 0x7f) || (type == T_E5M2 && ((e.raw >> 2) & 31) == 31));
    e.f = small_value(e.raw, type);
    e.raw |= (rng_next(s) << w) & 0xffu; /* container bits above the format: ignored */
    break;
  }
  }
  return e;
}

static inline void pack(uint32_t *words, unsigned idx, uint32_t raw, unsigned bits) {
  unsigned per = 32 / bits;
  words[idx / per] |= (bits == 32 ? raw : raw & ((1u << bits) - 1)) << (idx % per * bits);
}
static inline uint32_t unpack(vt_device *d, uint32_t region, unsigned idx, unsigned bits) {
  unsigned per = 32 / bits;
  uint32_t w = rd32(d, region + 4 * (idx / per));
  return bits == 32 ? w : (w >> (idx % per * bits)) & ((1u << bits) - 1);
}

static const int fe_modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

/* Whether the host honours a directed rounding mode for binary32
 * arithmetic: the simulator sets the host's mode for RD (as the 32-bit
 * MMA sets nearest), and valgrind's memcheck computes SSE arithmetic to
 * nearest whatever the mode, so there the directed modes are not checked. */
static inline int host_rounds_directed(void) {
  volatile float one = 1.0f, tiny = 0x1p-30f;
  int round = fegetround();
  fesetround(FE_UPWARD);
  float r = one + tiny;
  fesetround(round);
  return r != 1.0f;
}

#endif
