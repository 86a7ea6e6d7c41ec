/* A binary16 reference from the host (test_fpn.c, test_isaext_vfp16.c):
 * exact double arithmetic, or the correctly rounded double quotient and
 * root (whose second rounding is innocuous, 53 >= 2 * 11 + 2), converted by
 * the compiler's _Float16 conversion under fesetround, in the four modes
 * the host has, with the flags from fetestexcept; the RISC-V canonical NaN
 * and invalid for a signaling NaN operand. */
#ifndef F16_REF_H
#define F16_REF_H

#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "fp32.h"

static const int f16_host_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};

static inline uint16_t h_bits(_Float16 h) {
  uint16_t v;
  memcpy(&v, &h, 2);
  return v;
}
static inline _Float16 h_val(uint16_t v) {
  _Float16 h;
  memcpy(&h, &v, 2);
  return h;
}
static inline int h_snan(uint16_t v) { return (v & 0x7e00) == 0x7c00 && (v & 0x1ff); }
static inline int h_nan(uint16_t v) { return (v & 0x7c00) == 0x7c00 && (v & 0x3ff); }

/* Whether the host reports the floating-point flags (valgrind's memcheck
 * neither honours fesetround nor raises the SSE flags: the tests then
 * check results in round-to-nearest only and leave the flags out). */
static inline int host_flags_work(void) {
  volatile double one = 1.0, three = 3.0, tiny = 1e-30, big = 1e308, q;
  int ok = 1;
  feclearexcept(FE_ALL_EXCEPT);
  q = one + tiny; /* an inexact sum */
  ok &= fetestexcept(FE_INEXACT) != 0;
  feclearexcept(FE_ALL_EXCEPT);
  q = big * three; /* overflow */
  ok &= fetestexcept(FE_OVERFLOW) != 0;
  feclearexcept(FE_ALL_EXCEPT);
  q = one / three;
  ok &= fetestexcept(FE_INEXACT) != 0;
  (void)q;
  feclearexcept(FE_ALL_EXCEPT);
  return ok;
}

/* Whether the host honours fesetround (valgrind's memcheck does not: the
 * tests then check round-to-nearest only). */
static inline int host_rounding_works(void) {
  volatile double one = 1.0, three = 3.0, up, nearest = one / three;
  fesetround(FE_UPWARD);
  up = one / three;
  fesetround(FE_TONEAREST);
  return up != nearest;
}

/* Whether the C library's fma is fused and keeps the sign of a zero
 * (valgrind's emulation is neither): otherwise the tests leave fma out. */
static inline int host_fma_works(void) {
  volatile double a = 1.0 + 0x1p-30, b = 1.0 - 0x1p-30, c = -1.0, z = -0.0, one = 1.0;
  volatile float fa = 1.0f + 0x1p-12f, fb = 1.0f - 0x1p-12f, fc = -1.0f, fz = -0.0f, fone = 1.0f;
  return fma(a, b, c) == -0x1p-60 && signbit(fma(one, z, z)) && fmaf(fa, fb, fc) == -0x1p-24f &&
         signbit(fmaf(fone, fz, fz));
}

/* op: 0 add, 1 sub, 2 mul, 3 div, 4 sqrt (of a), 5 a * b + c */
static inline uint32_t host_f16(unsigned op, uint16_t a, uint16_t b, uint16_t c, unsigned rm, uint32_t *flags) {
  volatile double x = (double)h_val(a), y = (double)h_val(b), z = (double)h_val(c), d;
  fesetround(f16_host_mode[rm]);
  feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
  case 0: d = x + y; break;
  case 1: d = x - y; break;
  case 2: d = x * y; break;
  case 3: d = x / y; break;
  case 4: d = sqrt(x); break;
  default: d = fma(x, y, z); break;
  }
  volatile _Float16 h = (_Float16)d;
  int ex = fetestexcept(FE_ALL_EXCEPT);
  fesetround(FE_TONEAREST);
  *flags = (ex & FE_INEXACT ? FFLAG_NX : 0) | (ex & FE_UNDERFLOW ? FFLAG_UF : 0) |
           (ex & FE_OVERFLOW ? FFLAG_OF : 0) | (ex & FE_DIVBYZERO ? FFLAG_DZ : 0) |
           (ex & FE_INVALID ? FFLAG_NV : 0);
  /* the widening to double already quieted a signaling NaN operand */
  if (h_snan(a) || (op != 4 && h_snan(b)) || (op == 5 && h_snan(c))) *flags |= FFLAG_NV;
  uint16_t v = h_bits(h);
  return h_nan(v) ? 0x7e00 : v;
}

/* whether the host's double fma of binary16 operands is exact (then its
 * one rounding to binary16 is the only one) */
static inline int f16_fma_exact(uint16_t a, uint16_t b, uint16_t c) {
  double p = (double)h_val(a) * (double)h_val(b), s = p + (double)h_val(c);
  return !isfinite(s) || (s - p == (double)h_val(c) && s - (double)h_val(c) == p);
}

#endif
