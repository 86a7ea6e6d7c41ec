/* IEEE 754 binary32 in pure integer arithmetic, bit-exact with Berkeley
 * SoftFloat 3e under its "RISCV" specialization (what Spike links).
 *
 * The algorithms follow SoftFloat's structure on purpose: the same
 * significand layouts and sticky-bit handling make flag behaviour (in
 * particular tininess-after-rounding) match by construction.
 *
 * Internal significand layout for rounding (round_pack): a 31-bit value
 * with the leading one at bit 30 and 7 guard/round/sticky bits below the
 * 24-bit significand. `exp` is the biased exponent minus one, so packing
 * `exp << 23` plus the significand (whose hidden bit is bit 23) carries the
 * hidden one into the exponent field. */
#include "fp32.h"

#include <math.h>
#include <string.h>

#define SIGN_BIT 0x80000000u
#define SIGN_OF(a) ((uint32_t)(a) >> 31)
#define EXP_OF(a) ((int32_t)(((a) >> 23) & 0xFF))
#define FRAC_OF(a) ((uint32_t)(a) & 0x007FFFFFu)
#define PACK(s, e, m) (((uint32_t)(s) << 31) + ((uint32_t)(e) << 23) + (uint32_t)(m))

static inline int is_nan(uint32_t a) { return (a & 0x7FFFFFFFu) > 0x7F800000u; }

static inline int is_snan(uint32_t a)
{
    return (a & 0x7FC00000u) == 0x7F800000u && (a & 0x003FFFFFu);
}

/* RISC-V never propagates payloads: any NaN operand yields the canonical
 * NaN, with NV when one of them is signaling. */
static inline uint32_t propagate_nan(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_snan(a) || is_snan(b))
        *flags |= FFLAG_NV;
    return FP32_CANONICAL_NAN;
}

static inline int clz32(uint32_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return x ? __builtin_clz(x) : 32;
#else
    int n = 0;
    if (!x)
        return 32;
    while (!(x & SIGN_BIT)) {
        x <<= 1;
        n++;
    }
    return n;
#endif
}

static inline int clz64(uint64_t x)
{
    uint32_t hi = (uint32_t)(x >> 32);
    return hi ? clz32(hi) : 32 + clz32((uint32_t)x);
}

/* Right shifts that OR every bit shifted out into bit 0 (sticky). */
static inline uint32_t shr_jam32(uint32_t a, uint32_t dist)
{
    if (dist == 0)
        return a;
    return dist < 32 ? (a >> dist) | ((a << (32 - dist)) != 0) : (a != 0);
}

static inline uint64_t shr_jam64(uint64_t a, uint32_t dist)
{
    if (dist == 0)
        return a;
    return dist < 64 ? (a >> dist) | ((a << (64 - dist)) != 0) : (a != 0);
}

/* Normalise a nonzero subnormal fraction: returns the exponent it would have
 * and leaves the significand with the hidden bit at position 23. */
static inline int32_t norm_subnormal(uint32_t *sig)
{
    int shift = clz32(*sig) - 8;
    *sig <<= shift;
    return 1 - shift;
}

static inline uint32_t round_increment(uint32_t sign, unsigned rm)
{
    if (rm == FP_RNE || rm == FP_RMM)
        return 0x40;
    /* directed: round up in magnitude only toward the sign's own infinity */
    return rm == (sign ? FP_RDN : FP_RUP) ? 0x7F : 0;
}

static uint32_t round_pack(uint32_t sign, int32_t exp, uint32_t sig, unsigned rm, uint32_t *flags)
{
    uint32_t inc = round_increment(sign, rm);
    uint32_t round_bits = sig & 0x7F;

    if ((uint32_t)exp >= 0xFD) {
        if (exp < 0) {
            /* tiny iff it would still be below 2^-126 after rounding with
             * unbounded exponent (RISC-V: tininess after rounding) */
            int tiny = exp < -1 || sig + inc < 0x80000000u;
            sig = shr_jam32(sig, (uint32_t)-exp);
            exp = 0;
            round_bits = sig & 0x7F;
            if (tiny && round_bits)
                *flags |= FFLAG_UF;
        } else if (exp > 0xFD || sig + inc >= 0x80000000u) {
            *flags |= FFLAG_OF | FFLAG_NX;
            /* infinity, or the largest finite when rounding toward zero */
            return PACK(sign, 0xFF, 0) - (inc == 0);
        }
    }
    sig = (sig + inc) >> 7;
    if (round_bits)
        *flags |= FFLAG_NX;
    if (round_bits == 0x40 && rm == FP_RNE)
        sig &= ~1u; /* exact tie: back to even */
    if (!sig)
        exp = 0;
    return PACK(sign, exp, sig);
}

/* round_pack for a significand that may not be normalised to bit 30. */
static uint32_t norm_round_pack(uint32_t sign, int32_t exp, uint32_t sig, unsigned rm,
                                uint32_t *flags)
{
    int shift = clz32(sig) - 1;
    exp -= shift;
    if (shift >= 7 && (uint32_t)exp < 0xFD) /* fits exactly, nothing to round */
        return PACK(sign, sig ? exp : 0, sig << (shift - 7));
    return round_pack(sign, exp, sig << shift, rm, flags);
}

/* ---- add / sub ---------------------------------------------------------- */

static uint32_t add_mags(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    int32_t exp_a = EXP_OF(a), exp_b = EXP_OF(b), exp_diff = exp_a - exp_b, exp_z;
    uint32_t sig_a = FRAC_OF(a), sig_b = FRAC_OF(b), sig_z, sign = SIGN_OF(a);

    if (exp_diff == 0) {
        if (exp_a == 0)
            return a + sig_b; /* subnormals add exactly; a carry makes a normal */
        if (exp_a == 0xFF)
            return (sig_a | sig_b) ? propagate_nan(a, b, flags) : a;
        exp_z = exp_a;
        sig_z = 0x01000000u + sig_a + sig_b;
        if (!(sig_z & 1) && exp_z < 0xFE)
            return PACK(sign, exp_z, sig_z >> 1);
        sig_z <<= 6;
    } else {
        sig_a <<= 6;
        sig_b <<= 6;
        if (exp_diff < 0) {
            if (exp_b == 0xFF)
                return sig_b ? propagate_nan(a, b, flags) : PACK(sign, 0xFF, 0);
            exp_z = exp_b;
            sig_a += exp_a ? 0x20000000u : sig_a;
            sig_a = shr_jam32(sig_a, (uint32_t)-exp_diff);
        } else {
            if (exp_a == 0xFF)
                return sig_a ? propagate_nan(a, b, flags) : a;
            exp_z = exp_a;
            sig_b += exp_b ? 0x20000000u : sig_b;
            sig_b = shr_jam32(sig_b, (uint32_t)exp_diff);
        }
        sig_z = 0x20000000u + sig_a + sig_b;
        if (sig_z < 0x40000000u) {
            --exp_z;
            sig_z <<= 1;
        }
    }
    return round_pack(sign, exp_z, sig_z, rm, flags);
}

static uint32_t sub_mags(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    int32_t exp_a = EXP_OF(a), exp_b = EXP_OF(b), exp_diff = exp_a - exp_b, exp_z;
    uint32_t sig_a = FRAC_OF(a), sig_b = FRAC_OF(b), sign = SIGN_OF(a), sig_x, sig_y;

    if (exp_diff == 0) {
        if (exp_a == 0xFF) {
            if (sig_a | sig_b)
                return propagate_nan(a, b, flags);
            *flags |= FFLAG_NV; /* inf - inf */
            return FP32_CANONICAL_NAN;
        }
        int32_t diff = (int32_t)sig_a - (int32_t)sig_b;
        if (diff == 0) /* exact cancellation: +0, or -0 when rounding down */
            return PACK(rm == FP_RDN, 0, 0);
        if (exp_a)
            --exp_a;
        if (diff < 0) {
            sign ^= 1;
            diff = -diff;
        }
        /* same exponent: the difference is exact, just normalise it */
        int shift = clz32((uint32_t)diff) - 8;
        exp_z = exp_a - shift;
        if (exp_z < 0) {
            shift = exp_a;
            exp_z = 0;
        }
        return PACK(sign, exp_z, (uint32_t)diff << shift);
    }
    sig_a <<= 7;
    sig_b <<= 7;
    if (exp_diff < 0) {
        sign ^= 1;
        if (exp_b == 0xFF)
            return sig_b ? propagate_nan(a, b, flags) : PACK(sign, 0xFF, 0);
        exp_z = exp_b - 1;
        sig_x = sig_b | 0x40000000u;
        sig_y = sig_a + (exp_a ? 0x40000000u : sig_a);
        exp_diff = -exp_diff;
    } else {
        if (exp_a == 0xFF)
            return sig_a ? propagate_nan(a, b, flags) : a;
        exp_z = exp_a - 1;
        sig_x = sig_a | 0x40000000u;
        sig_y = sig_b + (exp_b ? 0x40000000u : sig_b);
    }
    return norm_round_pack(sign, exp_z, sig_x - shr_jam32(sig_y, (uint32_t)exp_diff), rm, flags);
}

uint32_t fp32_add_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    return SIGN_OF(a ^ b) ? sub_mags(a, b, rm, flags) : add_mags(a, b, rm, flags);
}

uint32_t fp32_sub_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    return SIGN_OF(a ^ b) ? add_mags(a, b ^ SIGN_BIT, rm, flags)
                          : sub_mags(a, b ^ SIGN_BIT, rm, flags);
}

/* ---- mul / div / sqrt --------------------------------------------------- */

uint32_t fp32_mul_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    int32_t exp_a = EXP_OF(a), exp_b = EXP_OF(b), exp_z;
    uint32_t sig_a = FRAC_OF(a), sig_b = FRAC_OF(b), sign = SIGN_OF(a ^ b), sig_z, mag;

    if (exp_a == 0xFF || exp_b == 0xFF) {
        if (is_nan(a) || is_nan(b))
            return propagate_nan(a, b, flags);
        mag = exp_a == 0xFF ? (uint32_t)exp_b | sig_b : (uint32_t)exp_a | sig_a;
        if (!mag) { /* inf * 0 */
            *flags |= FFLAG_NV;
            return FP32_CANONICAL_NAN;
        }
        return PACK(sign, 0xFF, 0);
    }
    if (exp_a == 0) {
        if (!sig_a)
            return PACK(sign, 0, 0);
        exp_a = norm_subnormal(&sig_a);
    }
    if (exp_b == 0) {
        if (!sig_b)
            return PACK(sign, 0, 0);
        exp_b = norm_subnormal(&sig_b);
    }
    exp_z = exp_a + exp_b - 0x7F;
    sig_a = (sig_a | 0x00800000u) << 7;
    sig_b = (sig_b | 0x00800000u) << 8;
    sig_z = (uint32_t)shr_jam64((uint64_t)sig_a * sig_b, 32);
    if (sig_z < 0x40000000u) {
        --exp_z;
        sig_z <<= 1;
    }
    return round_pack(sign, exp_z, sig_z, rm, flags);
}

uint32_t fp32_div_soft(uint32_t a, uint32_t b, unsigned rm, uint32_t *flags)
{
    int32_t exp_a = EXP_OF(a), exp_b = EXP_OF(b), exp_z;
    uint32_t sig_a = FRAC_OF(a), sig_b = FRAC_OF(b), sign = SIGN_OF(a ^ b);
    uint64_t num, q;

    if (exp_a == 0xFF) {
        if (sig_a || is_nan(b))
            return propagate_nan(a, b, flags);
        if (exp_b == 0xFF)
            goto invalid; /* inf / inf */
        return PACK(sign, 0xFF, 0);
    }
    if (exp_b == 0xFF)
        return sig_b ? propagate_nan(a, b, flags) : PACK(sign, 0, 0);
    if (exp_b == 0) {
        if (!sig_b) {
            if (!(exp_a | (int32_t)sig_a))
                goto invalid; /* 0 / 0 */
            *flags |= FFLAG_DZ;
            return PACK(sign, 0xFF, 0);
        }
        exp_b = norm_subnormal(&sig_b);
    }
    if (exp_a == 0) {
        if (!sig_a)
            return PACK(sign, 0, 0);
        exp_a = norm_subnormal(&sig_a);
    }
    exp_z = exp_a - exp_b + 0x7E;
    sig_a |= 0x00800000u;
    sig_b |= 0x00800000u;
    if (sig_a < sig_b) { /* quotient < 1: take one more bit so bit 30 leads */
        --exp_z;
        num = (uint64_t)sig_a << 31;
    } else {
        num = (uint64_t)sig_a << 30;
    }
    q = num / sig_b;
    if (!(q & 0x3F)) /* low round bits all zero: sticky = remainder != 0 */
        q |= (uint64_t)sig_b * q != num;
    return round_pack(sign, exp_z, (uint32_t)q, rm, flags);

invalid:
    *flags |= FFLAG_NV;
    return FP32_CANONICAL_NAN;
}

/* floor(sqrt(n)) for n in [2^60, 2^62), digit by digit; branch-free because
 * the digit decisions are data-dependent coin flips for the predictor.
 * *exact reports whether the remainder is zero. */
static uint32_t isqrt62(uint64_t n, int *exact)
{
    uint64_t rem = n, root = 0;
    for (uint64_t bit = (uint64_t)1 << 62; bit; bit >>= 2) {
        uint64_t trial = root + bit;
        uint64_t take = 0 - (uint64_t)(rem >= trial); /* all ones if the digit is 1 */
        rem -= trial & take;
        root = (root >> 1) + (bit & take);
    }
    *exact = rem == 0;
    return (uint32_t)root;
}

uint32_t fp32_sqrt_soft(uint32_t a, unsigned rm, uint32_t *flags)
{
    int32_t exp_a = EXP_OF(a), e;
    uint32_t sig_a = FRAC_OF(a), sign = SIGN_OF(a), root;
    int exact;

    if (exp_a == 0xFF) {
        if (sig_a)
            return propagate_nan(a, 0, flags);
        if (!sign)
            return a;
        goto invalid;
    }
    if (sign) {
        if (!(exp_a | (int32_t)sig_a))
            return a; /* sqrt(-0) = -0 */
        goto invalid;
    }
    if (exp_a == 0) {
        if (!sig_a)
            return a;
        exp_a = norm_subnormal(&sig_a);
    }
    /* a = m * 2^e with m = sig/2^23 in [1,2); fold an odd e into m so the
     * root's exponent is e/2 and its significand sqrt(m) in [1,2). */
    sig_a |= 0x00800000u;
    e = exp_a - 0x7F;
    uint64_t m = sig_a;
    if (e % 2 != 0) {
        m <<= 1;
        e -= 1;
    }
    /* sqrt(m / 2^23) * 2^30 = sqrt(m * 2^37): 31 bits, leading one at 30 */
    root = isqrt62(m << 37, &exact);
    root |= !exact;
    return round_pack(0, e / 2 + 0x7E, root, rm, flags);

invalid:
    *flags |= FFLAG_NV;
    return FP32_CANONICAL_NAN;
}

/* ---- fused multiply-add ------------------------------------------------- */

uint32_t fp32_fma(uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend,
                  unsigned rm, uint32_t *flags)
{
    /* Spike negates by flipping operand sign bits before f32_mulAdd. */
    if (negate_product)
        a ^= SIGN_BIT;
    if (negate_addend)
        c ^= SIGN_BIT;

    int32_t exp_a = EXP_OF(a), exp_b = EXP_OF(b), exp_c = EXP_OF(c), exp_prod, exp_z, diff;
    uint32_t sig_a = FRAC_OF(a), sig_b = FRAC_OF(b), sig_c = FRAC_OF(c), sig_z;
    uint32_t sign_prod = SIGN_OF(a ^ b), sign_c = SIGN_OF(c), sign_z;
    uint64_t sig_prod, sig64_c, sig64_z;

    if (exp_a == 0xFF || exp_b == 0xFF) {
        if (is_nan(a) || is_nan(b))
            return propagate_nan(propagate_nan(a, b, flags), c, flags);
        uint32_t mag = exp_a == 0xFF ? (uint32_t)exp_b | sig_b : (uint32_t)exp_a | sig_a;
        if (mag) {
            if (exp_c != 0xFF)
                return PACK(sign_prod, 0xFF, 0);
            if (sig_c)
                return propagate_nan(0, c, flags);
            if (sign_prod == sign_c)
                return PACK(sign_prod, 0xFF, 0);
        }
        /* inf * 0, or inf - inf: NV even when c is a quiet NaN */
        *flags |= FFLAG_NV;
        return propagate_nan(FP32_CANONICAL_NAN, c, flags);
    }
    if (exp_c == 0xFF)
        return sig_c ? propagate_nan(0, c, flags) : c;

    if (exp_a == 0) {
        if (!sig_a)
            goto zero_prod;
        exp_a = norm_subnormal(&sig_a);
    }
    if (exp_b == 0) {
        if (!sig_b)
            goto zero_prod;
        exp_b = norm_subnormal(&sig_b);
    }

    /* exact 48-bit product, normalised to a leading one at bit 61 */
    exp_prod = exp_a + exp_b - 0x7E;
    sig_prod = (uint64_t)((sig_a | 0x00800000u) << 7) * ((sig_b | 0x00800000u) << 7);
    if (sig_prod < ((uint64_t)1 << 61)) {
        --exp_prod;
        sig_prod <<= 1;
    }
    sign_z = sign_prod;
    if (exp_c == 0) {
        if (!sig_c) /* c = 0: just round the product */
            return round_pack(sign_z, exp_prod - 1, (uint32_t)shr_jam64(sig_prod, 31), rm, flags);
        exp_c = norm_subnormal(&sig_c);
    }
    sig_c = (sig_c | 0x00800000u) << 6;
    diff = exp_prod - exp_c;
    if (sign_prod == sign_c) {
        if (diff <= 0) {
            exp_z = exp_c;
            sig_z = sig_c + (uint32_t)shr_jam64(sig_prod, (uint32_t)(32 - diff));
        } else {
            exp_z = exp_prod;
            sig64_z = sig_prod + shr_jam64((uint64_t)sig_c << 32, (uint32_t)diff);
            sig_z = (uint32_t)shr_jam64(sig64_z, 32);
        }
        if (sig_z < 0x40000000u) {
            --exp_z;
            sig_z <<= 1;
        }
    } else {
        sig64_c = (uint64_t)sig_c << 32;
        if (diff < 0) {
            sign_z = sign_c;
            exp_z = exp_c;
            sig64_z = sig64_c - shr_jam64(sig_prod, (uint32_t)-diff);
        } else if (diff == 0) {
            exp_z = exp_prod;
            sig64_z = sig_prod - sig64_c;
            if (!sig64_z)
                return PACK(rm == FP_RDN, 0, 0);
            if (sig64_z & ((uint64_t)1 << 63)) {
                sign_z ^= 1;
                sig64_z = -sig64_z;
            }
        } else {
            exp_z = exp_prod;
            sig64_z = sig_prod - shr_jam64(sig64_c, (uint32_t)diff);
        }
        /* cancellation: renormalise to bit 62, then keep the top 31 bits */
        int shift = clz64(sig64_z) - 1;
        exp_z -= shift;
        shift -= 32;
        if (shift < 0)
            sig_z = (uint32_t)shr_jam64(sig64_z, (uint32_t)-shift);
        else
            sig_z = (uint32_t)sig64_z << shift;
    }
    return round_pack(sign_z, exp_z, sig_z, rm, flags);

zero_prod:
    /* 0 * finite + c is exactly c, except +0 + -0 which follows the mode */
    if (!(exp_c | (int32_t)sig_c) && sign_prod != sign_c)
        return PACK(rm == FP_RDN, 0, 0);
    return c;
}

/* ---- min / max / compare / classify ------------------------------------- */

/* Ordered a < b on non-NaN inputs, with -0 < +0 (fmin/fmax ordering). */
static inline int total_lt(uint32_t a, uint32_t b)
{
    uint32_t sa = SIGN_OF(a), sb = SIGN_OF(b);
    if (sa != sb)
        return sa;
    return a != b && (sa ^ (a < b));
}

static uint32_t minmax(uint32_t a, uint32_t b, int want_max, uint32_t *flags)
{
    int na = is_nan(a), nb = is_nan(b);
    if (is_snan(a) || is_snan(b))
        *flags |= FFLAG_NV;
    if (na && nb)
        return FP32_CANONICAL_NAN;
    if (na)
        return b;
    if (nb)
        return a;
    return (total_lt(a, b) ^ want_max) ? a : b;
}

uint32_t fp32_min(uint32_t a, uint32_t b, uint32_t *flags) { return minmax(a, b, 0, flags); }

uint32_t fp32_max(uint32_t a, uint32_t b, uint32_t *flags) { return minmax(a, b, 1, flags); }

int fp32_eq(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        if (is_snan(a) || is_snan(b))
            *flags |= FFLAG_NV;
        return 0;
    }
    return a == b || !((a | b) << 1); /* +0 == -0 */
}

int fp32_lt(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        *flags |= FFLAG_NV;
        return 0;
    }
    uint32_t sa = SIGN_OF(a), sb = SIGN_OF(b);
    if (sa != sb)
        return sa && ((a | b) & 0x7FFFFFFFu);
    return a != b && (sa ^ (a < b));
}

int fp32_le(uint32_t a, uint32_t b, uint32_t *flags)
{
    if (is_nan(a) || is_nan(b)) {
        *flags |= FFLAG_NV;
        return 0;
    }
    uint32_t sa = SIGN_OF(a), sb = SIGN_OF(b);
    if (sa != sb)
        return sa || !((a | b) & 0x7FFFFFFFu);
    return a == b || (sa ^ (a < b));
}

uint32_t fp32_classify(uint32_t a)
{
    uint32_t sign = SIGN_OF(a);
    int32_t exp = EXP_OF(a);
    uint32_t frac = FRAC_OF(a);

    if (exp == 0xFF) {
        if (frac)
            return (frac & 0x00400000u) ? 1u << 9 : 1u << 8; /* qNaN : sNaN */
        return sign ? 1u << 0 : 1u << 7;
    }
    if (exp == 0) {
        if (!frac)
            return sign ? 1u << 3 : 1u << 4;
        return sign ? 1u << 2 : 1u << 5;
    }
    return sign ? 1u << 1 : 1u << 6;
}

/* ---- integer conversions ------------------------------------------------ */

/* Shared front end: the magnitude as a fixed-point value with 12 fraction
 * bits (sticky-jammed), exactly as SoftFloat's f32_to_i32/ui32 build it. */
static inline uint64_t to_fixed12(uint32_t a)
{
    int32_t exp = EXP_OF(a);
    uint32_t sig = FRAC_OF(a);
    if (exp)
        sig |= 0x00800000u;
    uint64_t sig64 = (uint64_t)sig << 32;
    int32_t shift = 0xAA - exp;
    if (shift > 0)
        sig64 = shr_jam64(sig64, (uint32_t)shift);
    return sig64;
}

static inline uint64_t round_fixed12(uint64_t sig, uint32_t sign, unsigned rm, uint32_t *round_bits)
{
    uint64_t inc = 0x800;
    if (rm != FP_RNE && rm != FP_RMM)
        inc = rm == (sign ? FP_RDN : FP_RUP) ? 0xFFF : 0;
    *round_bits = (uint32_t)(sig & 0xFFF);
    sig += inc;
    if (sig & 0xFFFFF00000000000ull)
        return UINT64_MAX; /* >= 2^32: out of range for both types */
    uint64_t z = sig >> 12;
    if (*round_bits == 0x800 && rm == FP_RNE)
        z &= ~(uint64_t)1;
    return z;
}

int32_t fp32_to_i32(uint32_t a, unsigned rm, uint32_t *flags)
{
    /* NaN saturates like +overflow */
    uint32_t sign = is_nan(a) ? 0 : SIGN_OF(a), round_bits;
    uint64_t z = round_fixed12(to_fixed12(a), sign, rm, &round_bits);

    if (z > (sign ? 0x80000000ull : 0x7FFFFFFFull)) { /* includes NaN and inf */
        *flags |= FFLAG_NV;
        return sign ? INT32_MIN : INT32_MAX;
    }
    if (round_bits)
        *flags |= FFLAG_NX;
    /* two's-complement negate in unsigned, then reinterpret */
    uint32_t u = sign ? (uint32_t)(0u - (uint32_t)z) : (uint32_t)z;
    int32_t r;
    memcpy(&r, &u, sizeof r);
    return r;
}

uint32_t fp32_to_u32(uint32_t a, unsigned rm, uint32_t *flags)
{
    uint32_t sign = is_nan(a) ? 0 : SIGN_OF(a), round_bits;
    uint64_t z = round_fixed12(to_fixed12(a), sign, rm, &round_bits);

    /* a negative value is valid only if it rounds to zero */
    if (z > 0xFFFFFFFFull || (z && sign)) {
        *flags |= FFLAG_NV;
        return sign ? 0 : UINT32_MAX;
    }
    if (round_bits)
        *flags |= FFLAG_NX;
    return (uint32_t)z;
}

uint32_t fp32_from_i32(int32_t v, unsigned rm, uint32_t *flags)
{
    uint32_t sign = v < 0;
    uint32_t mag = sign ? 0u - (uint32_t)v : (uint32_t)v;
    if (!(mag & 0x7FFFFFFFu))
        return sign ? PACK(1, 0x9E, 0) : 0; /* 0 and INT32_MIN are exact */
    return norm_round_pack(sign, 0x9C, mag, rm, flags);
}

uint32_t fp32_from_u32(uint32_t v, unsigned rm, uint32_t *flags)
{
    if (!v)
        return 0;
    if (v & SIGN_BIT) /* keep 31 bits for round_pack, jam the dropped one */
        return round_pack(0, 0x9D, (v >> 1) | (v & 1), rm, flags);
    return norm_round_pack(0, 0x9C, v, rm, flags);
}

/* ---- exp ---------------------------------------------------------------- */

/* Round a double to binary32 with RNE in integer arithmetic, so the result
 * does not depend on the host's current rounding mode. */
static uint32_t f64_to_f32_rne(uint64_t d, uint32_t *flags)
{
    uint32_t sign = (uint32_t)(d >> 63);
    int32_t exp = (int32_t)((d >> 52) & 0x7FF);
    uint64_t frac = d & 0x000FFFFFFFFFFFFFull;

    if (exp == 0x7FF)
        return frac ? FP32_CANONICAL_NAN : PACK(sign, 0xFF, 0);
    /* keep 30 fraction bits (jammed): 22 extra below binary32's 23 */
    uint32_t sig = (uint32_t)shr_jam64(frac, 22);
    if (!(exp | (int32_t)sig))
        return PACK(sign, 0, 0);
    return round_pack(sign, exp - 0x381, sig | 0x40000000u, FP_RNE, flags);
}

/* Flags (the reference sets none; ours follow what a correctly rounded exp
 * would raise): NV for a signaling NaN input (returned unchanged anyway),
 * NX for every finite nonzero input (e^x is transcendental there), OF/UF
 * from the final narrowing to binary32. exp(0)=1 and exp(+-inf) are exact. */
uint32_t fp32_exp(uint32_t a, uint32_t *flags)
{
    if (is_nan(a)) {
        if (is_snan(a))
            *flags |= FFLAG_NV;
        return a;
    }
    if ((a & 0x7FFFFFFFu) == 0x7F800000u)
        return SIGN_OF(a) ? 0 : a;
    if (!(a & 0x7FFFFFFFu))
        return 0x3F800000u;

    float x;
    memcpy(&x, &a, sizeof x);
    double r = exp((double)x);
    uint32_t z, f = 0;
    if (fp32_round_f64_rne(r, &z, &f)) { /* a normal result: no UF, no OF */
        *flags |= FFLAG_NX;
        return z;
    }
    uint64_t d;
    memcpy(&d, &r, sizeof d);
    z = f64_to_f32_rne(d, &f);
    /* the double result may be exact after the conversion; e^x never is */
    if ((z & 0x7FFFFFFFu) < 0x00800000u)
        f |= FFLAG_UF;
    *flags |= f | FFLAG_NX;
    return z;
}
