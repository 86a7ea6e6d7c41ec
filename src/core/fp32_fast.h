/* Inline host fast paths of fp32_add/sub/mul/div/sqrt (included by
 * fp32.h). The host computes in double only where the double result cannot
 * depend on the host's rounding mode or lies strictly on the same side of
 * every binary32 rounding boundary as the exact result; the one rounding to
 * binary32 (nearest even) is then done in integers, with NX from the
 * discarded bits. Only normal operands in round-to-nearest-even take these
 * paths, and only normal results leave them (no FTZ/DAZ effect, no
 * tininess or overflow rule involved); everything else calls the exact
 * software path. Inline so that the lane loops of the vector handlers
 * carry no call. */
#ifndef VT_FP32_FAST_H
#define VT_FP32_FAST_H

#include <math.h>
#include <stdint.h>
#include <string.h>

/* the host float of a binary32 bit pattern, and back */
static inline float fp32_host_f32(uint32_t a)
{
    float f;
    memcpy(&f, &a, sizeof f);
    return f;
}

static inline uint32_t fp32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline double fp32_host_f64(uint32_t a) { return (double)fp32_host_f32(a); }

/* 1 if a is a normal number (not zero, subnormal, infinite or NaN) */
static inline int fp32_is_normal(uint32_t a) { return ((a >> 23) & 0xFF) - 1u < 0xFEu; }

/* d (nonzero, finite) rounded to the nearest-even binary32 with NX, or 0
 * when that is subnormal or overflows (the caller falls back). */
static inline int fp32_round_f64_rne(double d, uint32_t *out, uint32_t *flags)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    uint64_t mag = u & 0x7FFFFFFFFFFFFFFFull;
    /* binary32's normal exponents 1..254 are double's 897..1150 */
    if ((mag >> 52) - 897u > 1150u - 897u)
        return 0;
    uint32_t rest = (uint32_t)mag & 0x1FFFFFFFu; /* the 29 bits below binary32 */
    uint32_t r = (uint32_t)((mag >> 29) - ((uint64_t)896 << 23));
    /* up when rest is above half, or exactly half and r odd; a carry out
     * of the significand bumps the exponent */
    r += (rest + (r & 1) + 0x0FFFFFFFu) >> 29;
    if (r >= 0x7F800000u)
        return 0;
    *flags |= rest ? (uint32_t)FFLAG_NX : 0u;
    *out = r | (uint32_t)(u >> 32 & 0x80000000u);
    return 1;
}

/* a + b of two normals whose exponents differ by at most 28: the exact sum
 * has at most 24 + 28 + 1 = 53 bits, so the double addition is exact. */
static inline int fp32_add_fast(uint32_t a, uint32_t b, uint32_t *out, uint32_t *flags)
{
    uint32_t ea = (a >> 23) & 0xFF, eb = (b >> 23) & 0xFF;
    if (ea - 1 >= 0xFE || eb - 1 >= 0xFE || (ea > eb ? ea - eb : eb - ea) > 28)
        return 0;
    double s = fp32_host_f64(a) + fp32_host_f64(b);
    if (s == 0) {
        *out = 0; /* x + -x is +0 when rounding to nearest */
        return 1;
    }
    return fp32_round_f64_rne(s, out, flags);
}

static inline uint32_t fp32_add(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    uint32_t r;
    if (rm == 0 && fp32_add_fast(a, b, &r, flags))
        return r;
    return fp32_add_soft(a, b, rm, flags);
}

static inline uint32_t fp32_sub(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    uint32_t r;
    if (rm == 0 && fp32_add_fast(a, b ^ 0x80000000u, &r, flags))
        return r;
    return fp32_sub_soft(a, b, rm, flags);
}

/* a * b of two normals: 24 x 24 significand bits make at most 48, and the
 * exponent stays far inside double's range, so the product is exact. */
static inline uint32_t fp32_mul(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    uint32_t r;
    if (rm == 0 && fp32_is_normal(a) && fp32_is_normal(b) &&
        fp32_round_f64_rne(fp32_host_f64(a) * fp32_host_f64(b), &r, flags))
        return r;
    return fp32_mul_soft(a, b, rm, flags);
}

/* a / b of two normals. With significands A, B (24-bit integers) a
 * binary32 midpoint m of the quotient's binade (25 significant bits, odd
 * last one) is never the exact quotient (A * 2^k = m' * B is impossible:
 * the odd m' leaves fewer trailing zeros than A * 2^k has), and a - m*b is
 * a nonzero multiple of 2^-48 of the quotient's scale, so |a/b - m| is
 * at least 2^-50 relative; the same holds for every binary32 value r the
 * quotient is not. The host's double quotient is within 2^-52 relative in
 * any rounding mode, so it rounds to the same binary32 and is one exactly
 * iff the quotient is (NX). */
static inline uint32_t fp32_div(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    uint32_t r;
    if (rm == 0 && fp32_is_normal(a) && fp32_is_normal(b) &&
        fp32_round_f64_rne(fp32_host_f64(a) / fp32_host_f64(b), &r, flags))
        return r;
    return fp32_div_soft(a, b, rm, flags);
}

/* sqrt(a) of a positive normal: the result is normal. A binary32 rounding
 * boundary m (25 bits) is never the exact root and |sqrt(a) - m| is at
 * least 2^-50 relative (a - m^2 is a nonzero multiple of m^2's last bit),
 * while the host's double root is within 2^-52 in any rounding mode: so
 * rounding it once more picks the correctly rounded binary32, and it is a
 * binary32 exactly iff the root is exact (same bound), which gives NX. */
static inline uint32_t fp32_sqrt(uint32_t a, unsigned rm, uint32_t *flags)
{
    uint32_t r;
    if (rm == 0 && a - 0x00800000u < 0x7F000000u && /* in [min normal, max finite] */
        fp32_round_f64_rne(sqrt(fp32_host_f64(a)), &r, flags))
        return r;
    return fp32_sqrt_soft(a, rm, flags);
}

#endif
