/* IEEE 754 binary32 arithmetic exactly as RISC-V F specifies it (the
 * reference ISS uses Berkeley SoftFloat): all five rounding modes, fflags
 * accumulation, canonical NaN 0x7fc00000 for every NaN result. Results
 * never depend on the host FPU state: integer code, and host double
 * arithmetic only where its rounding cannot matter (fp32_fast.h). */
#ifndef VT_FP32_H
#define VT_FP32_H

#include <stdint.h>

enum { FP_RNE = 0, FP_RTZ = 1, FP_RDN = 2, FP_RUP = 3, FP_RMM = 4 };
enum { FFLAG_NX = 1, FFLAG_UF = 2, FFLAG_OF = 4, FFLAG_DZ = 8, FFLAG_NV = 16 };
#define FP32_CANONICAL_NAN 0x7fc00000u

/* `rm` is a resolved rounding mode (0..4); `flags` accumulates (|=).
 * fp32_add, fp32_sub, fp32_mul, fp32_div and fp32_sqrt are inline
 * (fp32_fast.h): host double arithmetic for normal operands in
 * round-to-nearest-even where that is provably bit-exact, whatever the
 * host's FPU mode, and these exact software paths for everything else
 * (tests/unit/test_fp32_fast.c compares the two). */
uint32_t fp32_add_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fp32_sub_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fp32_mul_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fp32_div_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fp32_sqrt_soft(uint32_t a, unsigned rm, uint32_t *flags);
/* a*b + c with one rounding; negate_product / negate_addend give
 * fmsub (c negated), fnmsub (product negated), fnmadd (both). */
uint32_t fp32_fma(uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend,
                  unsigned rm, uint32_t *flags);
/* RISC-V fmin/fmax: -0 < +0, one NaN operand -> the other, both NaN ->
 * canonical NaN, NV on any signaling NaN. */
uint32_t fp32_min(uint32_t a, uint32_t b, uint32_t *flags);
uint32_t fp32_max(uint32_t a, uint32_t b, uint32_t *flags);
/* feq is quiet (NV only for sNaN); flt/fle are signaling (NV for any NaN). */
int fp32_eq(uint32_t a, uint32_t b, uint32_t *flags);
int fp32_lt(uint32_t a, uint32_t b, uint32_t *flags);
int fp32_le(uint32_t a, uint32_t b, uint32_t *flags);
/* fclass.s 10-bit result mask */
uint32_t fp32_classify(uint32_t a);
/* Conversions, saturating per the RISC-V table (NaN -> max), NV/NX set. */
int32_t fp32_to_i32(uint32_t a, unsigned rm, uint32_t *flags);
uint32_t fp32_to_u32(uint32_t a, unsigned rm, uint32_t *flags);
uint32_t fp32_from_i32(int32_t v, unsigned rm, uint32_t *flags);
uint32_t fp32_from_u32(uint32_t v, unsigned rm, uint32_t *flags);
/* vfexp.v as the reference computes it: (float)exp((double)x) with the host
 * libm; NaN inputs are returned unchanged. */
uint32_t fp32_exp(uint32_t a, uint32_t *flags);

#include "fp32_fast.h"

#endif
