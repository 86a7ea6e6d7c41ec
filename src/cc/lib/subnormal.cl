/* Float builtins with subnormal operands or results (cc_subnormal.c links
 * them when a program calls the builtin). libclc's nvptx build is compiled
 * for a device that flushes float subnormals: its exp and exp2 return 0
 * where the result is subnormal, its ldexp drops a subnormal argument, its
 * fmod and remquo lose subnormal operands. Our device computes float
 * subnormals exactly (it reports CL_FP_DENORM), so these replace them.
 * Each part is compiled only when its NEED_* macro is defined. */

#ifdef NEED_EXP
/* Below ln(FLT_MIN) libclc gives 0: there exp(x) = exp(x + 32) * e^-32.
 * x + 32 is exact (x in [-104, -87]: both are multiples of 2^-17 and the
 * sum is below 64), exp's result is normal, and the one multiplication
 * rounds to the subnormal: within 2 ulp of the result. */
float __cy_sub_expf(float x) {
  if (x < -0x1.5d589ep+6f) return exp(x + 32.0f) * 0x1.c8465p-47f;
  return exp(x);
}
#endif

#ifdef NEED_EXP2
/* Below -126 libclc gives 0: exp2(x) = exp2(x + 32) * 2^-32 (x + 32 exact,
 * the scaling by a power of two rounds once) */
float __cy_sub_exp2f(float x) {
  if (x < -126.0f) return exp2(x + 32.0f) * 0x1p-32f;
  return exp2(x);
}
#endif

#ifdef NEED_LDEXP
/* x * 2^n rounded once: steps of 2^127 up, or of 2^-102 down (an
 * intermediate that stays normal, so only the last product rounds), then
 * one multiplication by a power of two built from its bits */
float __cy_sub_ldexpf(float x, int n) {
  float y = x;
  if (n > 127) {
    y *= 0x1p127f;
    n -= 127;
    if (n > 127) {
      y *= 0x1p127f;
      n -= 127;
      if (n > 127) n = 127;
    }
  } else if (n < -126) {
    y *= 0x1p-102f;
    n += 102;
    if (n < -126) {
      y *= 0x1p-102f;
      n += 102;
      if (n < -126) n = -126;
    }
  }
  return y * as_float((uint)(127 + n) << 23);
}
#endif

#ifdef NEED_LDEXPD
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* the same for double (libclc's double ldexp made NaN an infinity or 0):
 * steps of 2^1023 up or 2^-969 down, one rounding at the end; NaN and
 * infinities pass through the multiplications */
double __cy_sub_ldexpd(double x, int n) {
  double y = x;
  if (n > 1023) {
    y *= 0x1p1023;
    n -= 1023;
    if (n > 1023) {
      y *= 0x1p1023;
      n -= 1023;
      if (n > 1023) n = 1023;
    }
  } else if (n < -1022) {
    y *= 0x1p-969;
    n += 969;
    if (n < -1022) {
      y *= 0x1p-969;
      n += 969;
      if (n < -1022) n = -1022;
    }
  }
  return y * as_double((ulong)(1023 + n) << 52);
}
#endif

/* fmod and remquo by binary long division of the significands in
 * integers, at one width: T the float type, U its bits' integer type, M
 * the significand's bits below the hidden one, L the leading zeros of a
 * hidden bit in U, S the sign's shift; ABS, INF, QNAN the magnitude mask,
 * infinity's and the quiet NaN's bits; TINY, TWO, HALF constants of T
 * (suffixed: the double part switches fp64 on for the whole text). The
 * float form keeps subnormals (libclc's nvptx one loses them); the double
 * form replaces libclc's loop over software double operations, which ran
 * for billions of instructions on operands far apart. */
#define CY_REM(T, U, SUF, M, L, S, ABS, INF, QNAN, TINY, TWO, HALF)                                        \
  /* |x| as significand and biased exponent, subnormals normalised: |x| =  \
   * m * 2^(e - bias - M), the hidden bit of m set */                                                      \
  static U unpack##SUF(U a, int *e) {                                                                       \
    if (a >> M) {                                                                                           \
      *e = (int)(a >> M);                                                                                   \
      return (a & (((U)1 << M) - 1)) | ((U)1 << M);                                                         \
    }                                                                                                       \
    int s = (int)clz(a) - L;                                                                                \
    *e = 1 - s;                                                                                             \
    return a << s;                                                                                          \
  }                                                                                                         \
  /* the inverse for 0 < m < 2^(M+1): exact, as a remainder always is */                                  \
  static U pack##SUF(U m, int e) {                                                                          \
    if (!m) return 0;                                                                                       \
    int s = (int)clz(m) - L;                                                                                \
    m <<= s;                                                                                                \
    e -= s;                                                                                                 \
    return e > 0 ? (U)e << M | (m & (((U)1 << M) - 1)) : m >> (1 - e);                                      \
  }                                                                                                         \
  /* |x| mod |y| for finite x, finite non-zero y, |x| >= |y|; *q the low 32 \
   * bits of the truncated quotient */                                                                     \
  static U rem_bits##SUF(U ax, U ay, uint *q) {                                                             \
    int ex, ey;                                                                                             \
    U mx = unpack##SUF(ax, &ex), my = unpack##SUF(ay, &ey);                                                 \
    uint n = 0;                                                                                             \
    for (; ex > ey; ex--) {                                                                                 \
      if (mx >= my) {                                                                                       \
        mx -= my;                                                                                           \
        n++;                                                                                                \
      }                                                                                                     \
      mx <<= 1;                                                                                             \
      n <<= 1;                                                                                              \
    }                                                                                                       \
    if (mx >= my) {                                                                                         \
      mx -= my;                                                                                             \
      n++;                                                                                                  \
    }                                                                                                       \
    *q = n;                                                                                                 \
    return pack##SUF(mx, ey);                                                                               \
  }                                                                                                         \
  T __cy_sub_fmod##SUF(T x, T y) {                                                                          \
    U ux = as_##U(x), uy = as_##U(y), ax = ux & ABS, ay = uy & ABS;                                         \
    uint q;                                                                                                 \
    if (ay == 0 || ax >= INF || ay > INF) return as_##T(QNAN);                                              \
    if (ax < ay) return x;                                                                                  \
    return as_##T(rem_bits##SUF(ax, ay, &q) | (ux & ~ABS));                                                 \
  }                                                                                                         \
  /* x - n*y, n the quotient rounded to nearest even; *quo the low 7 bits  \
   * of |n| with the sign of x / y. Past half of |y|, or at half with q    \
   * odd, one more (|y| - |r| is then exact, Sterbenz); halving |y| is     \
   * exact unless tiny */                                                                                  \
  static T remquo_core##SUF(T x, T y, int *quo) {                                                           \
    U ux = as_##U(x), uy = as_##U(y), ax = ux & ABS, ay = uy & ABS;                                         \
    uint q = 0;                                                                                             \
    *quo = 0;                                                                                               \
    if (ay == 0 || ax >= INF || ay > INF) return as_##T(QNAN);                                              \
    T r = as_##T(ax >= ay ? rem_bits##SUF(ax, ay, &q) : ax), b = as_##T(ay);                                \
    int more = b < TINY ? (TWO * r > b || (TWO * r == b && (q & 1))) : (r > HALF * b || (r == HALF * b && (q & 1))); \
    if (more) {                                                                                             \
      r -= b;                                                                                               \
      q++;                                                                                                  \
    }                                                                                                       \
    int n = (int)(q & 0x7fu);                                                                               \
    *quo = ((ux ^ uy) >> S) ? -n : n;                                                                       \
    return (ux >> S) ? -r : r;                                                                              \
  }                                                                                                         \
  T __cy_sub_remquo##SUF##_p(T x, T y, int *quo) { return remquo_core##SUF(x, y, quo); }                    \
  T __cy_sub_remquo##SUF##_g(T x, T y, __global int *quo) {                                                 \
    int n;                                                                                                  \
    T r = remquo_core##SUF(x, y, &n);                                                                       \
    *quo = n;                                                                                               \
    return r;                                                                                               \
  }                                                                                                         \
  T __cy_sub_remquo##SUF##_l(T x, T y, __local int *quo) {                                                  \
    int n;                                                                                                  \
    T r = remquo_core##SUF(x, y, &n);                                                                       \
    *quo = n;                                                                                               \
    return r;                                                                                               \
  }

#if defined(NEED_FMOD) || defined(NEED_REMQUO)
CY_REM(float, uint, f, 23, 8, 31, 0x7fffffffu, 0x7f800000u, 0x7fc00000u, 0x1p-125f, 2.0f, 0.5f)
#endif

#if defined(NEED_FMODD) || defined(NEED_REMQUOD)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
CY_REM(double, ulong, d, 52, 11, 63, 0x7fffffffffffffffUL, 0x7ff0000000000000UL, 0x7ff8000000000000UL, 0x1p-1021, 2.0, 0.5)
#endif
