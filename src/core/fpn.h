/* IEEE 754 binary formats in software (binary16, bfloat16, binary32, and
 * binary64 where the compiler has a 128-bit integer), exactly as RISC-V
 * specifies the arithmetic: all five rounding modes, tininess after
 * rounding, the fflags, and the canonical NaN (the quiet NaN with only the
 * top fraction bit set) for every NaN result. The RVV float instructions
 * at SEW 16 and 64 use it (exec_vfp_sew.c); binary32 has its own faster
 * path (fp32.h), against which the tests check this one. */
#ifndef VT_FPN_H
#define VT_FPN_H

#include <stdint.h>

typedef struct {
  uint8_t ebits, mbits; /* exponent and fraction bits: 5/10, 8/7, 8/23 */
} fpn_fmt;

#define FPN_F16 ((fpn_fmt){5, 10})
#define FPN_BF16 ((fpn_fmt){8, 7})
#define FPN_F32 ((fpn_fmt){8, 23})
#define FPN_F64 ((fpn_fmt){11, 52})

/* round to odd (truncate, then set the lowest bit when inexact): a mode of
 * fpn_convert only, for RVV's vfncvt.rod.f.f.w */
#define FPN_ROD 5u

/* `rm` is a resolved rounding mode (FP_RNE..FP_RMM of fp32.h); `flags`
 * accumulates (|=) FFLAG_*. Values are the format's bits in the low bits. */
uint32_t fpn_add(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fpn_sub(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fpn_mul(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fpn_div(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags);
uint32_t fpn_sqrt(fpn_fmt f, uint32_t a, unsigned rm, uint32_t *flags);
/* a*b + c with one rounding; negate_product / negate_addend as fp32_fma */
uint32_t fpn_fma(fpn_fmt f, uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend,
                 unsigned rm, uint32_t *flags);
/* RISC-V fmin/fmax, feq (quiet), flt/fle (signaling), fclass */
uint32_t fpn_min(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags);
uint32_t fpn_max(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags);
int fpn_eq(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags);
int fpn_lt(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags);
int fpn_le(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags);
uint32_t fpn_classify(fpn_fmt f, uint32_t a);
/* Conversions to and from `bits`-bit integers (8..32; signed or not), as
 * RISC-V's fcvt: rounding in rm, saturating with NV (a NaN as +overflow),
 * NX when inexact. Integers are two's complement in the low `bits` bits. */
uint32_t fpn_to_int(fpn_fmt f, uint32_t a, unsigned bits, int is_signed, unsigned rm, uint32_t *flags);
uint32_t fpn_from_int(fpn_fmt f, uint32_t v, unsigned bits, int is_signed, unsigned rm, uint32_t *flags);
/* a value of format `from` rounded to format `to` (NaNs: the canonical one,
 * NV for a signaling one) */
uint32_t fpn_convert(fpn_fmt from, fpn_fmt to, uint32_t a, unsigned rm, uint32_t *flags);

/* The same for any format up to binary64 on 64-bit values (and 64-bit
 * integers): with a 128-bit integer type only (gcc and clang on 64-bit
 * hosts); FPN_HAVE_64 says whether they exist. */
#if defined(__SIZEOF_INT128__)
#define FPN_HAVE_64 1
uint64_t fpn64_add(fpn_fmt f, uint64_t a, uint64_t b, unsigned rm, uint32_t *flags);
uint64_t fpn64_sub(fpn_fmt f, uint64_t a, uint64_t b, unsigned rm, uint32_t *flags);
uint64_t fpn64_mul(fpn_fmt f, uint64_t a, uint64_t b, unsigned rm, uint32_t *flags);
uint64_t fpn64_div(fpn_fmt f, uint64_t a, uint64_t b, unsigned rm, uint32_t *flags);
uint64_t fpn64_sqrt(fpn_fmt f, uint64_t a, unsigned rm, uint32_t *flags);
uint64_t fpn64_fma(fpn_fmt f, uint64_t a, uint64_t b, uint64_t c, int negate_product, int negate_addend,
                   unsigned rm, uint32_t *flags);
uint64_t fpn64_min(fpn_fmt f, uint64_t a, uint64_t b, uint32_t *flags);
uint64_t fpn64_max(fpn_fmt f, uint64_t a, uint64_t b, uint32_t *flags);
int fpn64_eq(fpn_fmt f, uint64_t a, uint64_t b, uint32_t *flags);
int fpn64_lt(fpn_fmt f, uint64_t a, uint64_t b, uint32_t *flags);
int fpn64_le(fpn_fmt f, uint64_t a, uint64_t b, uint32_t *flags);
uint32_t fpn64_classify(fpn_fmt f, uint64_t a);
uint64_t fpn64_to_int(fpn_fmt f, uint64_t a, unsigned bits, int is_signed, unsigned rm, uint32_t *flags);
uint64_t fpn64_from_int(fpn_fmt f, uint64_t v, unsigned bits, int is_signed, unsigned rm, uint32_t *flags);
uint64_t fpn64_convert(fpn_fmt from, fpn_fmt to, uint64_t a, unsigned rm, uint32_t *flags);
#else
#define FPN_HAVE_64 0
#endif

#endif
