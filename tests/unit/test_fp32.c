/* fp32 library against independent oracles:
 *  - RNE/RTZ/RDN/RUP: the host FPU (x86-64 SSE, glibc) under fesetround,
 *    flags read back with fetestexcept; NaN results canonicalised.
 *  - RMM (no host mode): exact value computed in double (exactness proven by
 *    the host inexact flag), ties found against the two float neighbours;
 *    RMM = RNE except on exact ties, which go away from zero.
 *  - Hand-written corner cases with the expected words spelled out.
 * Operations go through noipa functions on volatile operands so GCC (which
 * ignores FENV_ACCESS) can neither fold nor move them across fesetround.
 *
 * x86 SSE with exceptions masked detects tininess after rounding and sets
 * UE only for tiny *and* inexact results, which is exactly the RISC-V rule;
 * the random tests (which hit exact tiny results) confirm it. Two host
 * results are patched by hand: x86 fmaf(inf, 0, qNaN) raises no invalid
 * (RISC-V/SoftFloat do), and out-of-range float->int values follow the
 * RISC-V saturation table rather than host conversions.
 *
 * FP32_ITERS (env) sets the random operand count per operation;
 * FP32_SEED sets the generator seed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fp32.h"
#include "test_rng.h"

#if defined(__clang__)
#pragma STDC FENV_ACCESS ON
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define OPAQUE __attribute__((noinline, noipa))
#else
#define OPAQUE __attribute__((noinline))
#endif

/* ---- small helpers ----------------------------------------------------- */

static uint32_t f2u(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float u2f(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static int t_is_nan(uint32_t a) { return (a & 0x7fffffffu) > 0x7f800000u; }
static int t_is_snan(uint32_t a) { return t_is_nan(a) && !(a & 0x00400000u); }

static uint32_t canon(uint32_t r) { return t_is_nan(r) ? FP32_CANONICAL_NAN : r; }

static uint32_t map_flags(int ex)
{
    uint32_t f = 0;
    if (ex & FE_INEXACT)
        f |= FFLAG_NX;
    if (ex & FE_UNDERFLOW)
        f |= FFLAG_UF;
    if (ex & FE_OVERFLOW)
        f |= FFLAG_OF;
    if (ex & FE_DIVBYZERO)
        f |= FFLAG_DZ;
    if (ex & FE_INVALID)
        f |= FFLAG_NV;
    return f;
}

/* x86 SSE detects tininess after rounding, like RISC-V; other hosts (Arm
 * detects it before rounding) cannot vouch for UF, so it is compared only
 * on x86. */
#if defined(__x86_64__) || defined(__SSE_MATH__)
#define HOST_FLAG_MASK 0x1fu
#else
#define HOST_FLAG_MASK (0x1fu & ~(uint32_t)FFLAG_UF)
#endif

static const int host_mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static const char *const rm_name[5] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};

typedef test_rng rng_t;
#define rnd64 test_rng64
#define rnd32 test_rng32

static long env_long(const char *name, long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtol(v, NULL, 0) : dflt;
}

static uint64_t g_seed;
static long g_iters;

/* ---- host operations (the oracle) --------------------------------------- */

/* libm calls go through volatile pointers: GCC otherwise expands rintf
 * inline as fabs + 2^23 trick + copysign, which assumes round-to-nearest
 * and mirrors RDN/RUP for negative inputs. */
static float (*volatile p_sqrtf)(float) = sqrtf;
static float (*volatile p_fmaf)(float, float, float) = fmaf;
static float (*volatile p_rintf)(float) = rintf;
static double (*volatile p_sqrt)(double) = sqrt;
static double (*volatile p_fma)(double, double, double) = fma;

/* Each oracle runs the host operation at run time, in the rounding mode in
 * force: the operands and the result go through volatile objects so that
 * nothing is folded at compile time or moved across fesetround. */
#define HOST_BINOP(name, T, R, op)                                              \
    OPAQUE static R name(T a, T b)                                              \
    {                                                                           \
        volatile T x = a, y = b;                                                \
        volatile R r = x op y;                                                  \
        return r;                                                               \
    }
#define HOST_CALL1(name, T, fn)                                                 \
    OPAQUE static T name(T a)                                                   \
    {                                                                           \
        volatile T x = a, r;                                                    \
        r = fn(x);                                                              \
        return r;                                                               \
    }
#define HOST_CALL3(name, T, fn)                                                 \
    OPAQUE static T name(T a, T b, T c)                                         \
    {                                                                           \
        volatile T x = a, y = b, z = c, r;                                      \
        r = fn(x, y, z);                                                        \
        return r;                                                               \
    }
#define HOST_CONV(name, T, R)                                                   \
    OPAQUE static R name(T v)                                                   \
    {                                                                           \
        volatile T x = v;                                                       \
        volatile R r = (R)x;                                                    \
        return r;                                                               \
    }

HOST_BINOP(h_add, float, float, +)
HOST_BINOP(h_sub, float, float, -)
HOST_BINOP(h_mul, float, float, *)
HOST_BINOP(h_div, float, float, /)
HOST_CALL1(h_sqrt, float, p_sqrtf)
HOST_CALL3(h_fma, float, p_fmaf)
HOST_CALL1(h_rint, float, p_rintf)
HOST_CONV(h_from_i32, int32_t, float)
HOST_CONV(h_from_u32, uint32_t, float)
HOST_BINOP(h_eq, float, int, ==)
HOST_BINOP(h_lt, float, int, <)
HOST_BINOP(h_le, float, int, <=)
/* double-precision helpers for the RMM tie oracle */
HOST_BINOP(hd_add, double, double, +)
HOST_BINOP(hd_mul, double, double, *)
HOST_BINOP(hd_div, double, double, /)
HOST_CALL1(hd_sqrt, double, p_sqrt)
HOST_CALL3(hd_fma, double, p_fma)
HOST_CONV(hd_to_float, double, float)

enum op {
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT,
    OP_FMA, OP_FMSUB, OP_FNMSUB, OP_FNMADD, /* negate bits: 1 addend, 2 product */
    OP_TO_I32, OP_TO_U32, OP_FROM_I32, OP_FROM_U32,
    OP_EQ, OP_LT, OP_LE, OP_MIN, OP_MAX,
    OP_COUNT
};
static const char *const op_name[OP_COUNT] = {
    "add", "sub", "mul", "div", "sqrt", "fmadd", "fmsub", "fnmsub", "fnmadd",
    "to_i32", "to_u32", "from_i32", "from_u32", "eq", "lt", "le", "min", "max"};

static int fma_neg_prod(enum op op) { return op == OP_FNMSUB || op == OP_FNMADD; }
static int fma_neg_add(enum op op) { return op == OP_FMSUB || op == OP_FNMADD; }

/* RISC-V fmin/fmax spelled out with host comparisons. */
static uint32_t ref_minmax(uint32_t a, uint32_t b, int is_max, uint32_t *flags)
{
    if (t_is_snan(a) || t_is_snan(b))
        *flags |= FFLAG_NV;
    if (t_is_nan(a) && t_is_nan(b))
        return FP32_CANONICAL_NAN;
    if (t_is_nan(a))
        return b;
    if (t_is_nan(b))
        return a;
    float x = u2f(a), y = u2f(b);
    if (x == y) /* only +-0 vs -+0 or identical */
        return ((a >> 31) ^ is_max) ? a : b;
    return ((x < y) ^ is_max) ? a : b;
}

/* The integer an already rounded value r converts to: in range, r itself
 * with the rounding's flags; out of range (or NaN), the RISC-V saturated
 * value with NV. */
static uint32_t ref_saturate(double r, int is_unsigned, uint32_t inexact, uint32_t *flags)
{
    if (is_unsigned) {
        if (r > -1.0 && r <= 4294967295.0) {
            *flags |= inexact;
            return (uint32_t)r;
        }
        *flags |= FFLAG_NV;
        return r < 0 ? 0 : 0xffffffffu;
    }
    if (r >= -2147483648.0 && r <= 2147483647.0) {
        *flags |= inexact;
        return (uint32_t)(int32_t)r;
    }
    *flags |= FFLAG_NV;
    return r < 0 ? 0x80000000u : 0x7fffffffu;
}

/* Host reference for float->int conversions under the current host mode,
 * with the out-of-range cases filled in by hand per the RISC-V table. */
static uint32_t ref_to_int(uint32_t a, int is_unsigned, int mode, uint32_t *flags)
{
    if (t_is_nan(a)) {
        *flags |= FFLAG_NV;
        return is_unsigned ? 0xffffffffu : 0x7fffffffu;
    }
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    float r = h_rint(u2f(a));
    uint32_t f = map_flags(fetestexcept(FE_ALL_EXCEPT));
    fesetround(FE_TONEAREST);
    return ref_saturate(r, is_unsigned, f, flags);
}

static uint32_t host_eval(enum op op, uint32_t a, uint32_t b, uint32_t c, int mode, uint32_t *flags)
{
    float x = u2f(a), y = u2f(b), z = u2f(c), r = 0;
    uint32_t ir = 0;
    int is_float = 1;

    switch (op) {
    case OP_TO_I32:
        return ref_to_int(a, 0, mode, flags);
    case OP_TO_U32:
        return ref_to_int(a, 1, mode, flags);
    case OP_MIN:
        return ref_minmax(a, b, 0, flags);
    case OP_MAX:
        return ref_minmax(a, b, 1, flags);
    default:
        break;
    }
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case OP_ADD: r = h_add(x, y); break;
    case OP_SUB: r = h_sub(x, y); break;
    case OP_MUL: r = h_mul(x, y); break;
    case OP_DIV: r = h_div(x, y); break;
    case OP_SQRT: r = h_sqrt(x); break;
    case OP_FMA:
    case OP_FMSUB:
    case OP_FNMSUB:
    case OP_FNMADD:
        r = h_fma(fma_neg_prod(op) ? u2f(a ^ 0x80000000u) : x, y,
                  fma_neg_add(op) ? u2f(c ^ 0x80000000u) : z);
        break;
    case OP_FROM_I32: r = h_from_i32((int32_t)a); break;
    case OP_FROM_U32: r = h_from_u32(a); break;
    case OP_EQ: ir = (uint32_t)h_eq(x, y); is_float = 0; break;
    case OP_LT: ir = (uint32_t)h_lt(x, y); is_float = 0; break;
    case OP_LE: ir = (uint32_t)h_le(x, y); is_float = 0; break;
    default: break;
    }
    uint32_t f = map_flags(fetestexcept(FE_ALL_EXCEPT));
    fesetround(FE_TONEAREST);
    /* RISC-V/SoftFloat: inf*0 + c is invalid even when c is a quiet NaN */
    if (op >= OP_FMA && op <= OP_FNMADD && t_is_nan(c) && !t_is_nan(a) && !t_is_nan(b) &&
        (((a & 0x7fffffffu) == 0x7f800000u && !(b & 0x7fffffffu)) ||
         ((b & 0x7fffffffu) == 0x7f800000u && !(a & 0x7fffffffu))))
        f |= FFLAG_NV;
    *flags |= f;
    return is_float ? canon(f2u(r)) : ir;
}

static uint32_t mine_eval(enum op op, uint32_t a, uint32_t b, uint32_t c, unsigned rm, uint32_t *flags)
{
    switch (op) {
    case OP_ADD: return fp32_add(a, b, rm, flags);
    case OP_SUB: return fp32_sub(a, b, rm, flags);
    case OP_MUL: return fp32_mul(a, b, rm, flags);
    case OP_DIV: return fp32_div(a, b, rm, flags);
    case OP_SQRT: return fp32_sqrt(a, rm, flags);
    case OP_FMA:
    case OP_FMSUB:
    case OP_FNMSUB:
    case OP_FNMADD: return fp32_fma(a, b, c, fma_neg_prod(op), fma_neg_add(op), rm, flags);
    case OP_TO_I32: return (uint32_t)fp32_to_i32(a, rm, flags);
    case OP_TO_U32: return fp32_to_u32(a, rm, flags);
    case OP_FROM_I32: return fp32_from_i32((int32_t)a, rm, flags);
    case OP_FROM_U32: return fp32_from_u32(a, rm, flags);
    case OP_EQ: return (uint32_t)fp32_eq(a, b, flags);
    case OP_LT: return (uint32_t)fp32_lt(a, b, flags);
    case OP_LE: return (uint32_t)fp32_le(a, b, flags);
    case OP_MIN: return fp32_min(a, b, flags);
    case OP_MAX: return fp32_max(a, b, flags);
    default: return 0;
    }
}

/* ---- RMM oracle ---------------------------------------------------------- */

/* Given a value `d` that is known to be the exact result, return the RMM
 * float if `d` is an exact tie between two floats, else set *tie = 0. */
static uint32_t rmm_of_exact(double d, int *tie)
{
    *tie = 0;
    if (isnan(d) || isinf(d) || d == 0)
        return 0;
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_ALL_EXCEPT);
    float lo = hd_to_float(d);
    int inexact = fetestexcept(FE_INEXACT) != 0;
    fesetround(FE_TONEAREST);
    if (!inexact)
        return 0;
    uint32_t lo_bits = f2u(lo);
    /* the next float away from zero (same sign), 2^128 past FLT_MAX */
    double hi = (lo_bits & 0x7fffffffu) == 0x7f7fffffu ? copysign(ldexp(1.0, 128), d)
                                                        : (double)u2f(lo_bits + 1);
    if (d != ((double)lo + hi) / 2)
        return 0;
    *tie = 1;
    return lo_bits + 1; /* 0x7f7fffff + 1 is infinity: what RMM gives */
}

/* The exact result of `op` in double if it fits, for tie detection. */
static int exact_double(enum op op, uint32_t a, uint32_t b, uint32_t c, double *out)
{
    double x = u2f(a), y = u2f(b), z = u2f(c);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case OP_ADD: *out = hd_add(x, y); break;
    case OP_SUB: *out = hd_add(x, -y); break;
    case OP_MUL: *out = hd_mul(x, y); break;
    case OP_DIV: *out = hd_div(x, y); break;
    case OP_SQRT: *out = hd_sqrt(x); break;
    case OP_FMA:
    case OP_FMSUB:
    case OP_FNMSUB:
    case OP_FNMADD:
        *out = hd_fma(fma_neg_prod(op) ? -x : x, y, fma_neg_add(op) ? -z : z);
        break;
    case OP_FROM_I32: *out = (double)(int32_t)a; break;
    case OP_FROM_U32: *out = (double)a; break;
    default: return 0;
    }
    /* an inexact double means more than 53 significant bits: never a tie */
    return !(fetestexcept(FE_ALL_EXCEPT) & (FE_INEXACT | FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW));
}

/* float->int under RMM, by hand (ties detected exactly in double). */
static uint32_t ref_to_int_rmm(uint32_t a, int is_unsigned, uint32_t *flags)
{
    if (t_is_nan(a)) {
        *flags |= FFLAG_NV;
        return is_unsigned ? 0xffffffffu : 0x7fffffffu;
    }
    double d = u2f(a), fl = floor(d), r;
    if (isinf(d))
        r = d;
    else if (d - fl == 0.5)
        r = d > 0 ? fl + 1 : fl;
    else
        r = (d - fl < 0.5) ? fl : fl + 1;
    uint32_t nx = r != d ? FFLAG_NX : 0;
    return ref_saturate(r, is_unsigned, nx, flags);
}

static uint32_t rmm_ref(enum op op, uint32_t a, uint32_t b, uint32_t c, uint32_t *flags, long *ties)
{
    if (op == OP_TO_I32 || op == OP_TO_U32)
        return ref_to_int_rmm(a, op == OP_TO_U32, flags);
    /* non-rounding ops and everything that is not a tie: same as RNE */
    uint32_t f = 0, r = host_eval(op, a, b, c, FE_TONEAREST, &f);
    double d;
    int tie = 0;
    if (op <= OP_FROM_U32 && exact_double(op, a, b, c, &d)) {
        uint32_t t = rmm_of_exact(d, &tie);
        if (tie) {
            r = t;
            ++*ties;
        }
    }
    *flags |= f; /* the flags cannot differ between RNE and RMM */
    return r;
}

/* ---- operand generation -------------------------------------------------- */

static const uint32_t specials[] = {
    0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001,
    0xff800001, 0x7fbfffff, 0x7fc00001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff,
    0x00800000, 0x80800000, 0x00800001, 0x3f800000, 0xbf800000, 0x3f800001, 0x3f7fffff,
    0x7f7fffff, 0xff7fffff, 0x7f7ffffe, 0x7f000000, 0x4f000000, 0xcf000000, 0x4f800000,
    0x4effffff, 0x3f000000, 0xbf000000, 0x3fc00000, 0x40200000, 0xc0200000, 0x33800000,
    0x34000000, 0x4b800000, 0x4b000000, 0x00400000, 0x40000000, 0x4f7fffff, 0xcf000001,
    0x3effffff, 0xbf400000, 0x4b7fffff, 0x00000003, 0x00c00000,
};
#define N_SPECIALS (sizeof specials / sizeof specials[0])

static uint32_t with_exp(rng_t *r, int32_t e)
{
    if (e < 0)
        e = 0;
    if (e > 0xfe)
        e = 0xfe;
    uint32_t frac = rnd32(r) & 0x007fffffu;
    switch (rnd32(r) % 4) {
    case 0: frac &= 0x007c0000u | (rnd32(r) & 0x7); break; /* sparse: ties likely */
    case 1: frac |= 0x007fff00u; break;                    /* near a carry */
    default: break;
    }
    return (rnd32(r) & 0x80000000u) | ((uint32_t)e << 23) | frac;
}

static uint32_t gen_value(rng_t *r)
{
    switch (rnd32(r) % 8) {
    case 0:
    case 1: return specials[rnd32(r) % N_SPECIALS];
    case 2: return rnd32(r);
    case 3: return with_exp(r, (int32_t)(rnd32(r) % 5));           /* subnormal / tiny */
    case 4: return with_exp(r, 0xfe - (int32_t)(rnd32(r) % 5));    /* near overflow */
    case 5: return with_exp(r, (int32_t)(rnd32(r) % 255));
    default: return with_exp(r, 100 + (int32_t)(rnd32(r) % 55)); /* ordinary */
    }
}

static int32_t exp_of(uint32_t a) { return (int32_t)((a >> 23) & 0xff); }

/* A result exponent to aim at: underflow, overflow, around 1, anywhere. */
static int32_t target_exp(rng_t *r)
{
    switch (rnd32(r) % 4) {
    case 0: return (int32_t)(rnd32(r) % 28) - 24;
    case 1: return 0xfb + (int32_t)(rnd32(r) % 6);
    case 2: return 120 + (int32_t)(rnd32(r) % 16);
    default: return (int32_t)(rnd32(r) % 255);
    }
}

static void gen_operands(enum op op, rng_t *r, uint32_t *a, uint32_t *b, uint32_t *c)
{
    *a = gen_value(r);
    *b = gen_value(r);
    *c = gen_value(r);
    if (rnd32(r) % 2)
        return;
    /* drawn up front: the order of calls inside one expression is unspecified */
    uint32_t u = rnd32(r), v = rnd32(r), w = rnd32(r);
    switch (op) {
    case OP_ADD:
    case OP_SUB:
        if (rnd32(r) % 2) /* nearly equal magnitudes: heavy cancellation */
            *b = (*a + (u % 7) - 3) ^ (v & 0x80000000u);
        else
            *b = with_exp(r, exp_of(*a) + (int32_t)(rnd32(r) % 61) - 30);
        break;
    case OP_MUL:
        *b = with_exp(r, target_exp(r) - exp_of(*a) + 127);
        break;
    case OP_DIV:
        *b = with_exp(r, exp_of(*a) - target_exp(r) + 127);
        break;
    case OP_FMA:
    case OP_FMSUB:
    case OP_FNMSUB:
    case OP_FNMADD: {
        *b = with_exp(r, target_exp(r) - exp_of(*a) + 127);
        /* addend near -(a*b) for cancellation, or a related magnitude */
        float p = u2f(*a) * u2f(*b);
        uint32_t pb = f2u(p);
        if (u % 2 && !t_is_nan(pb))
            *c = (pb + (v % 5) - 2) ^ 0x80000000u ^ (w % 4 ? 0 : 0x80000000u);
        else
            *c = with_exp(r, exp_of(pb) + (int32_t)(rnd32(r) % 61) - 30);
        break;
    }
    case OP_FROM_I32:
    case OP_FROM_U32:
        /* integers around the 24-bit boundary, exact ties, and extremes */
        switch (rnd32(r) % 3) {
        case 0: *a = u >> (v % 32); break;
        case 1: *a = ((u | 1u) << (v % 8)) >> (w % 8); break;
        default: *a = 0u - (u >> (v % 32)); break;
        }
        break;
    case OP_TO_I32:
    case OP_TO_U32:
        *a = with_exp(r, 120 + (int32_t)(rnd32(r) % 40));
        break;
    case OP_SQRT:
        *a &= 0x7fffffffu; /* mostly non-negative: the interesting half */
        break;
    case OP_EQ:
    case OP_LT:
    case OP_LE:
    case OP_MIN:
    case OP_MAX:
        *b = u % 2 ? *a ^ (v % 2 ? 0x80000000u : 0) : *a + (w % 3) - 1;
        break;
    default:
        break;
    }
}

/* ---- the random driver ---------------------------------------------------- */

static void random_check(enum op op)
{
    rng_t r = {g_seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(op + 1))};
    long bad = 0, checked = 0, ties = 0, seen[5] = {0};

    for (long i = 0; i < g_iters; i++) {
        uint32_t a, b, c;
        gen_operands(op, &r, &a, &b, &c);
        for (unsigned rm = 0; rm < 5; rm++) {
            uint32_t ef = 0, mf = 0;
            uint32_t exp = rm < 4 ? host_eval(op, a, b, c, host_mode[rm], &ef) : rmm_ref(op, a, b, c, &ef, &ties);
            /* raw compare: a NaN result must already be the canonical one */
            uint32_t got = mine_eval(op, a, b, c, rm, &mf);
            if (got != exp || (mf & HOST_FLAG_MASK) != (ef & HOST_FLAG_MASK)) {
                if (bad < 10)
                    printf("MISMATCH %s %s a=%08" PRIx32 " b=%08" PRIx32 " c=%08" PRIx32
                           ": got %08" PRIx32 " fl %02" PRIx32 ", want %08" PRIx32 " fl %02" PRIx32 "\n",
                           op_name[op], rm_name[rm], a, b, c, got, mf, exp, ef);
                bad++;
            }
            checked++;
            for (int k = 0; k < 5; k++)
                seen[k] += (ef >> k) & 1;
        }
    }
    /* coverage: how often each flag was expected, and RMM ties exercised */
    printf("%-8s %ld checks (%ld operand sets x 5 modes), %ld mismatches; "
           "NX %ld UF %ld OF %ld DZ %ld NV %ld, RMM ties %ld; seed %#" PRIx64 "\n",
           op_name[op], checked, g_iters, bad, seen[0], seen[1], seen[2], seen[3], seen[4], ties,
           g_seed);
    assert_int_equal(bad, 0);
}

#define RANDOM_TEST(name, op) \
    static void test_random_##name(void **state) { (void)state; random_check(op); }
RANDOM_TEST(add, OP_ADD)
RANDOM_TEST(sub, OP_SUB)
RANDOM_TEST(mul, OP_MUL)
RANDOM_TEST(div, OP_DIV)
RANDOM_TEST(sqrt, OP_SQRT)
RANDOM_TEST(fmadd, OP_FMA)
RANDOM_TEST(fmsub, OP_FMSUB)
RANDOM_TEST(fnmsub, OP_FNMSUB)
RANDOM_TEST(fnmadd, OP_FNMADD)
RANDOM_TEST(to_i32, OP_TO_I32)
RANDOM_TEST(to_u32, OP_TO_U32)
RANDOM_TEST(from_i32, OP_FROM_I32)
RANDOM_TEST(from_u32, OP_FROM_U32)
RANDOM_TEST(eq, OP_EQ)
RANDOM_TEST(lt, OP_LT)
RANDOM_TEST(le, OP_LE)
RANDOM_TEST(min, OP_MIN)
RANDOM_TEST(max, OP_MAX)

/* NaN results of arithmetic must be exactly the canonical NaN (the random
 * driver canonicalises before comparing, so check the raw word here). */
static void test_nan_results_canonical(void **state)
{
    (void)state;
    rng_t r = {g_seed ^ 0x5151};
    for (long i = 0; i < g_iters / 4; i++) {
        uint32_t a = gen_value(&r), b = gen_value(&r), c = gen_value(&r), f = 0, z;
        unsigned rm = rnd32(&r) % 5;
        z = fp32_add(a, b, rm, &f);
        assert_true(!t_is_nan(z) || z == FP32_CANONICAL_NAN);
        z = fp32_mul(a, b, rm, &f);
        assert_true(!t_is_nan(z) || z == FP32_CANONICAL_NAN);
        z = fp32_div(a, b, rm, &f);
        assert_true(!t_is_nan(z) || z == FP32_CANONICAL_NAN);
        z = fp32_sqrt(a, rm, &f);
        assert_true(!t_is_nan(z) || z == FP32_CANONICAL_NAN);
        z = fp32_fma(a, b, c, (int)(i & 1), (int)(i & 2), rm, &f);
        assert_true(!t_is_nan(z) || z == FP32_CANONICAL_NAN);
        z = fp32_min(a, b, &f);
        assert_true(!t_is_nan(z) || z == FP32_CANONICAL_NAN);
    }
}

/* ---- hand-written corner cases ---------------------------------------------- */

typedef struct {
    enum op op;
    unsigned rm;
    uint32_t a, b, c, want, want_flags;
} corner_t;

#define NX FFLAG_NX
#define UF FFLAG_UF
#define OF FFLAG_OF
#define DZ FFLAG_DZ
#define NV FFLAG_NV

static const corner_t corners[] = {
    /* add / sub: invalid, signed zeros, ties */
    {OP_ADD, FP_RNE, 0x7f800000, 0xff800000, 0, 0x7fc00000, NV},
    {OP_SUB, FP_RNE, 0x7f800000, 0x7f800000, 0, 0x7fc00000, NV},
    {OP_ADD, FP_RNE, 0x7f800001, 0x3f800000, 0, 0x7fc00000, NV},
    {OP_ADD, FP_RNE, 0x7fc12345, 0x3f800000, 0, 0x7fc00000, 0},
    {OP_ADD, FP_RNE, 0xffc00000, 0x7f800000, 0, 0x7fc00000, 0},
    {OP_ADD, FP_RNE, 0x3f800000, 0x33800000, 0, 0x3f800000, NX}, /* 1 + 2^-24 tie -> even */
    {OP_ADD, FP_RMM, 0x3f800000, 0x33800000, 0, 0x3f800001, NX}, /* ... away */
    {OP_ADD, FP_RMM, 0xbf800000, 0xb3800000, 0, 0xbf800001, NX},
    {OP_ADD, FP_RUP, 0x3f800000, 0x33800000, 0, 0x3f800001, NX},
    {OP_ADD, FP_RNE, 0x3f800001, 0x33800000, 0, 0x3f800002, NX}, /* odd -> up to even */
    {OP_ADD, FP_RMM, 0x3f800001, 0x33800000, 0, 0x3f800002, NX},
    {OP_ADD, FP_RNE, 0x00000001, 0x80000001, 0, 0x00000000, 0},
    {OP_ADD, FP_RDN, 0x00000001, 0x80000001, 0, 0x80000000, 0},
    {OP_ADD, FP_RNE, 0x80000000, 0x00000000, 0, 0x00000000, 0},
    {OP_ADD, FP_RDN, 0x80000000, 0x00000000, 0, 0x80000000, 0},
    {OP_ADD, FP_RUP, 0x80000000, 0x80000000, 0, 0x80000000, 0},
    {OP_SUB, FP_RDN, 0x3f800000, 0x3f800000, 0, 0x80000000, 0},
    {OP_SUB, FP_RMM, 0x3f800000, 0x3f800000, 0, 0x00000000, 0},
    {OP_ADD, FP_RNE, 0x007fffff, 0x00000001, 0, 0x00800000, 0}, /* subnormal carry: exact */
    {OP_ADD, FP_RNE, 0x7f7fffff, 0x73000000, 0, 0x7f800000, OF | NX}, /* MAX + half ulp: tie */
    {OP_ADD, FP_RMM, 0x7f7fffff, 0x73000000, 0, 0x7f800000, OF | NX},
    {OP_ADD, FP_RTZ, 0x7f7fffff, 0x73000000, 0, 0x7f7fffff, NX},      /* rounds to MAX: no OF */
    {OP_ADD, FP_RTZ, 0x7f7fffff, 0x73800000, 0, 0x7f7fffff, OF | NX}, /* exactly 2^128 */
    {OP_ADD, FP_RNE, 0x7f7fffff, 0x72ffffff, 0, 0x7f7fffff, NX},
    /* mul: overflow per mode, exact and inexact tiny results */
    {OP_MUL, FP_RNE, 0x7f7fffff, 0x40000000, 0, 0x7f800000, OF | NX},
    {OP_MUL, FP_RTZ, 0x7f7fffff, 0x40000000, 0, 0x7f7fffff, OF | NX},
    {OP_MUL, FP_RDN, 0x7f7fffff, 0x40000000, 0, 0x7f7fffff, OF | NX},
    {OP_MUL, FP_RUP, 0x7f7fffff, 0x40000000, 0, 0x7f800000, OF | NX},
    {OP_MUL, FP_RMM, 0x7f7fffff, 0x40000000, 0, 0x7f800000, OF | NX},
    {OP_MUL, FP_RUP, 0xff7fffff, 0x40000000, 0, 0xff7fffff, OF | NX},
    {OP_MUL, FP_RDN, 0xff7fffff, 0x40000000, 0, 0xff800000, OF | NX},
    {OP_MUL, FP_RNE, 0x00800000, 0x3f000000, 0, 0x00400000, 0}, /* exact tiny: no UF */
    {OP_MUL, FP_RNE, 0x00800001, 0x3f000000, 0, 0x00400000, UF | NX},
    {OP_MUL, FP_RMM, 0x00800001, 0x3f000000, 0, 0x00400001, UF | NX},
    {OP_MUL, FP_RNE, 0x00000001, 0x3f000000, 0, 0x00000000, UF | NX},
    {OP_MUL, FP_RMM, 0x00000001, 0x3f000000, 0, 0x00000001, UF | NX},
    {OP_MUL, FP_RUP, 0x00000001, 0x00000001, 0, 0x00000001, UF | NX},
    {OP_MUL, FP_RDN, 0x80000001, 0x00000001, 0, 0x80000001, UF | NX},
    /* (2^24-1) 2^-150 rounds up to 2^-126 but is 24-bit exact: still tiny */
    {OP_MUL, FP_RNE, 0x3f7fffff, 0x00800000, 0, 0x00800000, UF | NX},
    /* (2^25-1) 2^-151 = 18631 * 1801 2^-151: rounds to 2^-126 even with
     * unbounded exponent, so not tiny after rounding (no UF) */
    {OP_MUL, FP_RNE, 0x28918e00, 0x17612000, 0, 0x00800000, NX},
    {OP_MUL, FP_RTZ, 0x28918e00, 0x17612000, 0, 0x007fffff, UF | NX},
    {OP_MUL, FP_RNE, 0x7f800000, 0x00000000, 0, 0x7fc00000, NV},
    {OP_MUL, FP_RNE, 0x80000000, 0x7f800000, 0, 0x7fc00000, NV},
    {OP_MUL, FP_RNE, 0x80000000, 0x3f800000, 0, 0x80000000, 0},
    /* div */
    {OP_DIV, FP_RNE, 0x3f800000, 0x00000000, 0, 0x7f800000, DZ},
    {OP_DIV, FP_RNE, 0x3f800000, 0x80000000, 0, 0xff800000, DZ},
    {OP_DIV, FP_RNE, 0x00000000, 0x00000000, 0, 0x7fc00000, NV},
    {OP_DIV, FP_RNE, 0x7f800000, 0xff800000, 0, 0x7fc00000, NV},
    {OP_DIV, FP_RNE, 0x7f800000, 0x00000000, 0, 0x7f800000, 0},
    {OP_DIV, FP_RNE, 0x3f800000, 0xff800000, 0, 0x80000000, 0},
    {OP_DIV, FP_RNE, 0x7f800001, 0x3f800000, 0, 0x7fc00000, NV},
    {OP_DIV, FP_RNE, 0x7fc00001, 0x3f800000, 0, 0x7fc00000, 0},
    {OP_DIV, FP_RNE, 0x3f800000, 0x40400000, 0, 0x3eaaaaab, NX},
    {OP_DIV, FP_RTZ, 0x3f800000, 0x40400000, 0, 0x3eaaaaaa, NX},
    {OP_DIV, FP_RNE, 0x00800001, 0x40000000, 0, 0x00400000, UF | NX},
    {OP_DIV, FP_RMM, 0x00800001, 0x40000000, 0, 0x00400001, UF | NX},
    /* sqrt */
    {OP_SQRT, FP_RNE, 0xbf800000, 0, 0, 0x7fc00000, NV},
    {OP_SQRT, FP_RNE, 0xff800000, 0, 0, 0x7fc00000, NV},
    {OP_SQRT, FP_RNE, 0x80000001, 0, 0, 0x7fc00000, NV},
    {OP_SQRT, FP_RNE, 0x80000000, 0, 0, 0x80000000, 0},
    {OP_SQRT, FP_RNE, 0x7f800000, 0, 0, 0x7f800000, 0},
    {OP_SQRT, FP_RNE, 0xffc00000, 0, 0, 0x7fc00000, 0},
    {OP_SQRT, FP_RNE, 0x40800000, 0, 0, 0x40000000, 0},
    {OP_SQRT, FP_RNE, 0x40000000, 0, 0, 0x3fb504f3, NX},
    {OP_SQRT, FP_RUP, 0x40000000, 0, 0, 0x3fb504f4, NX},
    {OP_SQRT, FP_RMM, 0x40000000, 0, 0, 0x3fb504f3, NX},
    {OP_SQRT, FP_RNE, 0x00000001, 0, 0, 0x1a3504f3, NX},
    {OP_SQRT, FP_RNE, 0x00000002, 0, 0, 0x1a800000, 0}, /* sqrt(2^-148) = 2^-74 */
    /* fma: one rounding, invalid cases, signed zeros, negations */
    {OP_FMA, FP_RNE, 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000, 0},
    {OP_FMA, FP_RNE, 0x7f800000, 0x00000000, 0x7fc00000, 0x7fc00000, NV},
    {OP_FMA, FP_RNE, 0x00000000, 0xff800000, 0x3f800000, 0x7fc00000, NV},
    {OP_FMA, FP_RNE, 0x00000000, 0x7f800000, 0x7f800001, 0x7fc00000, NV},
    {OP_FMA, FP_RNE, 0x7f800000, 0x3f800000, 0xff800000, 0x7fc00000, NV},
    {OP_FMA, FP_RNE, 0x7f800000, 0x3f800000, 0x7f800000, 0x7f800000, 0},
    {OP_FMA, FP_RNE, 0x3f800000, 0x3f800000, 0x7fc00000, 0x7fc00000, 0},
    {OP_FMA, FP_RNE, 0x3f800000, 0x3f800000, 0x7f800001, 0x7fc00000, NV},
    {OP_FMA, FP_RNE, 0x3f800000, 0x3f800000, 0xbf800000, 0x00000000, 0},
    {OP_FMA, FP_RDN, 0x3f800000, 0x3f800000, 0xbf800000, 0x80000000, 0},
    {OP_FMA, FP_RNE, 0x00000000, 0x3f800000, 0x80000000, 0x00000000, 0},
    {OP_FMA, FP_RDN, 0x00000000, 0x3f800000, 0x80000000, 0x80000000, 0},
    {OP_FMA, FP_RNE, 0x80000000, 0x3f800000, 0x80000000, 0x80000000, 0},
    {OP_FMA, FP_RNE, 0x00000000, 0x3f800000, 0x00000001, 0x00000001, 0},
    {OP_FMA, FP_RMM, 0x3f800000, 0x3f800000, 0x33800000, 0x3f800001, NX},
    {OP_FMA, FP_RNE, 0x3f800000, 0x3f800000, 0x33800000, 0x3f800000, NX},
    {OP_FMA, FP_RNE, 0x40000000, 0x40400000, 0x3f800000, 0x40e00000, 0},    /* 2*3+1 */
    {OP_FNMSUB, FP_RNE, 0x40000000, 0x40400000, 0x3f800000, 0xc0a00000, 0}, /* -6+1 */
    {OP_FMSUB, FP_RNE, 0x40000000, 0x40400000, 0x3f800000, 0x40a00000, 0},  /* 6-1 */
    {OP_FNMADD, FP_RNE, 0x40000000, 0x40400000, 0x3f800000, 0xc0e00000, 0}, /* -6-1 */
    {OP_FMA, FP_RNE, 0x7f7fffff, 0x40000000, 0xff7fffff, 0x7f7fffff, 0}, /* no spurious OF */
    /* min / max */
    {OP_MIN, FP_RNE, 0x80000000, 0x00000000, 0, 0x80000000, 0},
    {OP_MIN, FP_RNE, 0x00000000, 0x80000000, 0, 0x80000000, 0},
    {OP_MAX, FP_RNE, 0x80000000, 0x00000000, 0, 0x00000000, 0},
    {OP_MAX, FP_RNE, 0x00000000, 0x80000000, 0, 0x00000000, 0},
    {OP_MIN, FP_RNE, 0x7fc00000, 0x3f800000, 0, 0x3f800000, 0},
    {OP_MAX, FP_RNE, 0x3f800000, 0xffc00000, 0, 0x3f800000, 0},
    {OP_MIN, FP_RNE, 0x7f800001, 0x3f800000, 0, 0x3f800000, NV},
    {OP_MAX, FP_RNE, 0xbf800000, 0x7fa00000, 0, 0xbf800000, NV},
    {OP_MIN, FP_RNE, 0x7fc00000, 0x7fc00000, 0, 0x7fc00000, 0},
    {OP_MIN, FP_RNE, 0xffc00000, 0x7fc00001, 0, 0x7fc00000, 0},
    {OP_MAX, FP_RNE, 0x7f800001, 0x7f800001, 0, 0x7fc00000, NV},
    {OP_MIN, FP_RNE, 0xff800000, 0x7f800000, 0, 0xff800000, 0},
    {OP_MAX, FP_RNE, 0xbf800000, 0xc0000000, 0, 0xbf800000, 0},
    /* compares */
    {OP_EQ, FP_RNE, 0x7fc00000, 0x7fc00000, 0, 0, 0},
    {OP_EQ, FP_RNE, 0x7f800001, 0x3f800000, 0, 0, NV},
    {OP_EQ, FP_RNE, 0x00000000, 0x80000000, 0, 1, 0},
    {OP_LT, FP_RNE, 0x7fc00000, 0x3f800000, 0, 0, NV},
    {OP_LE, FP_RNE, 0x3f800000, 0xffc00000, 0, 0, NV},
    {OP_LT, FP_RNE, 0x80000000, 0x00000000, 0, 0, 0},
    {OP_LE, FP_RNE, 0x00000000, 0x80000000, 0, 1, 0},
    {OP_LT, FP_RNE, 0xbf800000, 0x80000001, 0, 1, 0},
    {OP_LT, FP_RNE, 0xff800000, 0x7f800000, 0, 1, 0},
    {OP_LE, FP_RNE, 0x7f800000, 0x7f800000, 0, 1, 0},
    /* float -> int */
    {OP_TO_I32, FP_RNE, 0x4f000000, 0, 0, 0x7fffffff, NV}, /* 2^31 */
    {OP_TO_I32, FP_RNE, 0xcf000000, 0, 0, 0x80000000, 0},  /* -2^31 exact */
    {OP_TO_I32, FP_RNE, 0xcf000001, 0, 0, 0x80000000, NV},
    {OP_TO_I32, FP_RNE, 0x4effffff, 0, 0, 0x7fffff80, 0},
    {OP_TO_I32, FP_RNE, 0x7fc00000, 0, 0, 0x7fffffff, NV},
    {OP_TO_I32, FP_RNE, 0xffc00000, 0, 0, 0x7fffffff, NV},
    {OP_TO_I32, FP_RNE, 0xff800001, 0, 0, 0x7fffffff, NV},
    {OP_TO_I32, FP_RNE, 0x7f800000, 0, 0, 0x7fffffff, NV},
    {OP_TO_I32, FP_RNE, 0xff800000, 0, 0, 0x80000000, NV},
    {OP_TO_I32, FP_RNE, 0x40200000, 0, 0, 2, NX}, /* 2.5 */
    {OP_TO_I32, FP_RMM, 0x40200000, 0, 0, 3, NX},
    {OP_TO_I32, FP_RMM, 0xc0200000, 0, 0, 0xfffffffd, NX},
    {OP_TO_I32, FP_RDN, 0xc0200000, 0, 0, 0xfffffffd, NX},
    {OP_TO_I32, FP_RUP, 0xc0200000, 0, 0, 0xfffffffe, NX},
    {OP_TO_I32, FP_RTZ, 0xc0200000, 0, 0, 0xfffffffe, NX},
    {OP_TO_I32, FP_RNE, 0x3fc00000, 0, 0, 2, NX}, /* 1.5 */
    {OP_TO_I32, FP_RMM, 0xbf000000, 0, 0, 0xffffffff, NX}, /* -0.5 -> -1 */
    {OP_TO_I32, FP_RNE, 0xbf000000, 0, 0, 0, NX},
    {OP_TO_I32, FP_RNE, 0x00000001, 0, 0, 0, NX},
    {OP_TO_I32, FP_RUP, 0x00000001, 0, 0, 1, NX},
    {OP_TO_I32, FP_RNE, 0x80000000, 0, 0, 0, 0},
    {OP_TO_U32, FP_RNE, 0xbf800000, 0, 0, 0, NV}, /* -1 */
    {OP_TO_U32, FP_RNE, 0xbe99999a, 0, 0, 0, NX}, /* -0.3 rounds to 0: valid */
    {OP_TO_U32, FP_RNE, 0xbf000000, 0, 0, 0, NX}, /* -0.5 ties to 0 */
    {OP_TO_U32, FP_RMM, 0xbf000000, 0, 0, 0, NV}, /* -0.5 away: -1 */
    {OP_TO_U32, FP_RTZ, 0xbf333333, 0, 0, 0, NX}, /* -0.7 */
    {OP_TO_U32, FP_RDN, 0xbf333333, 0, 0, 0, NV},
    {OP_TO_U32, FP_RUP, 0xbf333333, 0, 0, 0, NX},
    {OP_TO_U32, FP_RNE, 0x4f800000, 0, 0, 0xffffffff, NV}, /* 2^32 */
    {OP_TO_U32, FP_RNE, 0x4f7fffff, 0, 0, 0xffffff00, 0},
    {OP_TO_U32, FP_RNE, 0x4f000000, 0, 0, 0x80000000, 0},
    {OP_TO_U32, FP_RNE, 0x7fc00000, 0, 0, 0xffffffff, NV},
    {OP_TO_U32, FP_RNE, 0xffc00000, 0, 0, 0xffffffff, NV},
    {OP_TO_U32, FP_RNE, 0xff800000, 0, 0, 0, NV},
    {OP_TO_U32, FP_RNE, 0x7f800000, 0, 0, 0xffffffff, NV},
    {OP_TO_U32, FP_RNE, 0x80000000, 0, 0, 0, 0},
    /* int -> float */
    {OP_FROM_I32, FP_RNE, 16777217, 0, 0, 0x4b800000, NX}, /* 2^24+1 */
    {OP_FROM_I32, FP_RMM, 16777217, 0, 0, 0x4b800001, NX},
    {OP_FROM_I32, FP_RUP, 16777217, 0, 0, 0x4b800001, NX},
    {OP_FROM_I32, FP_RNE, 16777219, 0, 0, 0x4b800002, NX}, /* 2^24+3 -> even */
    {OP_FROM_I32, FP_RMM, (uint32_t)-16777217, 0, 0, 0xcb800001, NX},
    {OP_FROM_I32, FP_RDN, (uint32_t)-16777217, 0, 0, 0xcb800001, NX},
    {OP_FROM_I32, FP_RUP, (uint32_t)-16777217, 0, 0, 0xcb800000, NX},
    {OP_FROM_I32, FP_RNE, 0x80000000, 0, 0, 0xcf000000, 0},
    {OP_FROM_I32, FP_RNE, 0x7fffffff, 0, 0, 0x4f000000, NX},
    {OP_FROM_I32, FP_RTZ, 0x7fffffff, 0, 0, 0x4effffff, NX},
    {OP_FROM_I32, FP_RNE, 0, 0, 0, 0x00000000, 0},
    {OP_FROM_I32, FP_RNE, 0xffffffff, 0, 0, 0xbf800000, 0},
    {OP_FROM_U32, FP_RNE, 0xffffffff, 0, 0, 0x4f800000, NX},
    {OP_FROM_U32, FP_RTZ, 0xffffffff, 0, 0, 0x4f7fffff, NX},
    {OP_FROM_U32, FP_RNE, 0x80000080, 0, 0, 0x4f000000, NX}, /* tie -> even */
    {OP_FROM_U32, FP_RMM, 0x80000080, 0, 0, 0x4f000001, NX},
    {OP_FROM_U32, FP_RNE, 0x80000081, 0, 0, 0x4f000001, NX}, /* dropped bit 0 is sticky */
    {OP_FROM_U32, FP_RNE, 0x80000000, 0, 0, 0x4f000000, 0},
    {OP_FROM_U32, FP_RNE, 0, 0, 0, 0x00000000, 0},
};

static void test_corner_cases(void **state)
{
    (void)state;
    int bad = 0;
    for (size_t i = 0; i < sizeof corners / sizeof corners[0]; i++) {
        const corner_t *t = &corners[i];
        uint32_t f = 0, z = mine_eval(t->op, t->a, t->b, t->c, t->rm, &f);
        if (z != t->want || f != t->want_flags) {
            printf("corner #%zu %s %s a=%08" PRIx32 " b=%08" PRIx32 " c=%08" PRIx32
                   ": got %08" PRIx32 " fl %02" PRIx32 ", want %08" PRIx32 " fl %02" PRIx32 "\n",
                   i, op_name[t->op], rm_name[t->rm], t->a, t->b, t->c, z, f, t->want, t->want_flags);
            bad++;
        }
        /* the directed/RNE cases must agree with the host oracle too */
        if (t->rm < 4) {
            uint32_t hf = 0, hz = host_eval(t->op, t->a, t->b, t->c, host_mode[t->rm], &hf);
            if (hz != t->want || (hf & HOST_FLAG_MASK) != (t->want_flags & HOST_FLAG_MASK)) {
                printf("corner #%zu: host oracle disagrees with the table: %08" PRIx32
                       " fl %02" PRIx32 "\n", i, hz, hf);
                bad++;
            }
        }
    }
    printf("%zu corner cases\n", sizeof corners / sizeof corners[0]);
    assert_int_equal(bad, 0);
}

static void test_classify(void **state)
{
    (void)state;
    static const struct {
        uint32_t a, mask;
    } cases[] = {
        {0xff800000, 1u << 0}, {0xbf800000, 1u << 1}, {0xff7fffff, 1u << 1},
        {0x807fffff, 1u << 2}, {0x80000001, 1u << 2}, {0x80000000, 1u << 3},
        {0x00000000, 1u << 4}, {0x00000001, 1u << 5}, {0x007fffff, 1u << 5},
        {0x00800000, 1u << 6}, {0x3f800000, 1u << 6}, {0x7f800000, 1u << 7},
        {0x7f800001, 1u << 8}, {0xff800001, 1u << 8}, {0x7fbfffff, 1u << 8},
        {0x7fc00000, 1u << 9}, {0xffc00000, 1u << 9}, {0x7fffffff, 1u << 9},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        assert_int_equal(fp32_classify(cases[i].a), cases[i].mask);
    /* against the host's classification on random words */
    rng_t r = {g_seed ^ 0xc1a55};
    for (long i = 0; i < g_iters; i++) {
        uint32_t a = gen_value(&r), m = fp32_classify(a);
        float x = u2f(a);
        int neg = signbit(x) != 0;
        uint32_t want;
        switch (fpclassify(x)) {
        case FP_INFINITE: want = neg ? 1u << 0 : 1u << 7; break;
        case FP_NORMAL: want = neg ? 1u << 1 : 1u << 6; break;
        case FP_SUBNORMAL: want = neg ? 1u << 2 : 1u << 5; break;
        case FP_ZERO: want = neg ? 1u << 3 : 1u << 4; break;
        default: want = t_is_snan(a) ? 1u << 8 : 1u << 9; break;
        }
        assert_int_equal(m, want);
    }
}

/* Results must not depend on the host rounding mode or leak host flags. */
static void test_host_mode_independent(void **state)
{
    (void)state;
    rng_t r = {g_seed ^ 0x1de};
    for (long i = 0; i < g_iters / 8; i++) {
        uint32_t a = gen_value(&r), b = gen_value(&r), c = gen_value(&r);
        unsigned rm = rnd32(&r) % 5;
        uint32_t f0 = 0, f1 = 0;
        uint32_t z0 = fp32_fma(a, b, c, 0, 0, rm, &f0) ^ fp32_div(a, b, rm, &f0) ^
                      fp32_sqrt(a, rm, &f0) ^ fp32_add(a, b, rm, &f0);
        fesetround(host_mode[(i % 3) + 1]);
        uint32_t z1 = fp32_fma(a, b, c, 0, 0, rm, &f1) ^ fp32_div(a, b, rm, &f1) ^
                      fp32_sqrt(a, rm, &f1) ^ fp32_add(a, b, rm, &f1);
        fesetround(FE_TONEAREST);
        assert_int_equal(z0, z1);
        assert_int_equal(f0, f1);
    }
}

static void test_flags_accumulate(void **state)
{
    (void)state;
    uint32_t f = FFLAG_DZ;
    (void)fp32_add(0x3f800000, 0x3f800000, FP_RNE, &f); /* exact: leaves DZ alone */
    assert_int_equal(f, FFLAG_DZ);
    (void)fp32_div(0x3f800000, 0x40400000, FP_RNE, &f);
    assert_int_equal(f, FFLAG_DZ | FFLAG_NX);
    (void)fp32_sqrt(0xbf800000, FP_RNE, &f);
    assert_int_equal(f, FFLAG_DZ | FFLAG_NX | FFLAG_NV);
}

/* vfexp: (float)exp((double)x) with host libm in round-to-nearest */
OPAQUE static uint32_t ref_exp(uint32_t a)
{
    volatile double d = exp((double)u2f(a));
    volatile float f = (float)d;
    return f2u(f);
}

static void test_exp(void **state)
{
    (void)state;
    uint32_t f = 0;
    assert_int_equal(fp32_exp(0x00000000, &f), 0x3f800000);
    assert_int_equal(fp32_exp(0x80000000, &f), 0x3f800000);
    assert_int_equal(fp32_exp(0x7f800000, &f), 0x7f800000);
    assert_int_equal(fp32_exp(0xff800000, &f), 0x00000000);
    assert_int_equal(f, 0);
    assert_int_equal(fp32_exp(0x7fc12345, &f), 0x7fc12345); /* payload kept */
    assert_int_equal(fp32_exp(0xffc00001, &f), 0xffc00001);
    assert_int_equal(f, 0);
    assert_int_equal(fp32_exp(0x7f812345, &f), 0x7f812345); /* sNaN unchanged, NV */
    assert_int_equal(f, FFLAG_NV);
    f = 0;
    assert_int_equal(fp32_exp(0x3f800000, &f), 0x402df854); /* e */
    assert_int_equal(f, FFLAG_NX);
    f = 0;
    assert_int_equal(fp32_exp(0x42c80000, &f), 0x7f800000); /* exp(100) */
    assert_int_equal(f, FFLAG_OF | FFLAG_NX);
    f = 0;
    assert_int_equal(fp32_exp(0xc3480000, &f), 0x00000000); /* exp(-200) */
    assert_int_equal(f, FFLAG_UF | FFLAG_NX);

    rng_t r = {g_seed ^ 0xe4b};
    long bad = 0;
    for (long i = 0; i < g_iters; i++) {
        uint32_t a = rnd32(&r) % 2 ? gen_value(&r) : with_exp(&r, 100 + (int32_t)(rnd32(&r) % 34));
        uint32_t want = t_is_nan(a) ? a : ref_exp(a), fl = 0, got = fp32_exp(a, &fl);
        if (got != want) {
            if (bad < 10)
                printf("exp(%08" PRIx32 ") = %08" PRIx32 ", want %08" PRIx32 "\n", a, got, want);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    g_seed = (uint64_t)env_long("FP32_SEED", 0x5eed0f32);
    g_iters = env_long("FP32_ITERS", 200000);
    if (!g_seed)
        g_seed = 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corner_cases),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_flags_accumulate),
        cmocka_unit_test(test_exp),
        cmocka_unit_test(test_nan_results_canonical),
        cmocka_unit_test(test_host_mode_independent),
        cmocka_unit_test(test_random_add),
        cmocka_unit_test(test_random_sub),
        cmocka_unit_test(test_random_mul),
        cmocka_unit_test(test_random_div),
        cmocka_unit_test(test_random_sqrt),
        cmocka_unit_test(test_random_fmadd),
        cmocka_unit_test(test_random_fmsub),
        cmocka_unit_test(test_random_fnmsub),
        cmocka_unit_test(test_random_fnmadd),
        cmocka_unit_test(test_random_to_i32),
        cmocka_unit_test(test_random_to_u32),
        cmocka_unit_test(test_random_from_i32),
        cmocka_unit_test(test_random_from_u32),
        cmocka_unit_test(test_random_eq),
        cmocka_unit_test(test_random_lt),
        cmocka_unit_test(test_random_le),
        cmocka_unit_test(test_random_min),
        cmocka_unit_test(test_random_max),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
