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

#if defined(NEED_FMOD) || defined(NEED_REMQUO)
/* |x| as significand and biased exponent with subnormals normalised, so
 * that |x| = m * 2^(e - 150) and bit 23 of m is set */
static uint unpack(uint a, int *e) {
  if (a >> 23) {
    *e = (int)(a >> 23);
    return (a & 0x7fffffu) | 0x800000u;
  }
  int s = (int)clz(a) - 8;
  *e = 1 - s;
  return a << s;
}

/* m * 2^(e - 150) for 0 < m < 2^24 as a float's magnitude bits: exact,
 * as a remainder always is */
static uint pack(uint m, int e) {
  if (!m) return 0;
  int s = (int)clz(m) - 8;
  m <<= s;
  e -= s;
  return e > 0 ? (uint)e << 23 | (m & 0x7fffffu) : m >> (1 - e);
}

/* |x| mod |y| for finite x and finite non-zero y with |x| >= |y|, by
 * binary long division; *q gets the low 32 bits of the truncated quotient */
static uint rem_bits(uint ax, uint ay, uint *q) {
  int ex, ey;
  uint mx = unpack(ax, &ex), my = unpack(ay, &ey), n = 0;
  for (; ex > ey; ex--) {
    if (mx >= my) {
      mx -= my;
      n++;
    }
    mx <<= 1;
    n <<= 1;
  }
  if (mx >= my) {
    mx -= my;
    n++;
  }
  *q = n;
  return pack(mx, ey);
}
#endif

#if defined(NEED_FMODD) || defined(NEED_REMQUOD)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
/* the double forms: libclc's loop over software double operations ran for
 * billions of instructions on operands far apart; these divide the 53-bit
 * significands in 64-bit integers */
static ulong unpackd(ulong a, int *e) {
  if (a >> 52) {
    *e = (int)(a >> 52);
    return (a & 0xfffffffffffffUL) | 0x10000000000000UL;
  }
  int s = (int)clz(a) - 11;
  *e = 1 - s;
  return a << s;
}

static ulong packd(ulong m, int e) {
  if (!m) return 0;
  int s = (int)clz(m) - 11;
  m <<= s;
  e -= s;
  return e > 0 ? (ulong)e << 52 | (m & 0xfffffffffffffUL) : m >> (1 - e);
}

static ulong rem_bitsd(ulong ax, ulong ay, uint *q) {
  int ex, ey;
  ulong mx = unpackd(ax, &ex), my = unpackd(ay, &ey);
  uint n = 0;
  for (; ex > ey; ex--) {
    if (mx >= my) {
      mx -= my;
      n++;
    }
    mx <<= 1;
    n <<= 1;
  }
  if (mx >= my) {
    mx -= my;
    n++;
  }
  *q = n;
  return packd(mx, ey);
}
#endif

#ifdef NEED_FMODD
double __cy_sub_fmodd(double x, double y) {
  ulong ux = as_ulong(x), uy = as_ulong(y), ax = ux & 0x7fffffffffffffffUL, ay = uy & 0x7fffffffffffffffUL;
  uint q;
  if (ay == 0 || ax >= 0x7ff0000000000000UL || ay > 0x7ff0000000000000UL) return as_double(0x7ff8000000000000UL);
  if (ax < ay) return x;
  return as_double(rem_bitsd(ax, ay, &q) | (ux & 0x8000000000000000UL));
}
#endif

#ifdef NEED_REMQUOD
static double remquod_core(double x, double y, int *quo) {
  ulong ux = as_ulong(x), uy = as_ulong(y), ax = ux & 0x7fffffffffffffffUL, ay = uy & 0x7fffffffffffffffUL;
  uint q = 0;
  *quo = 0;
  if (ay == 0 || ax >= 0x7ff0000000000000UL || ay > 0x7ff0000000000000UL) return as_double(0x7ff8000000000000UL);
  double r = as_double(ax >= ay ? rem_bitsd(ax, ay, &q) : ax), b = as_double(ay);
  int more = b < 0x1p-1021 ? (2.0 * r > b || (2.0 * r == b && (q & 1))) : (r > 0.5 * b || (r == 0.5 * b && (q & 1)));
  if (more) {
    r -= b;
    q++;
  }
  int n = (int)(q & 0x7fu);
  *quo = ((ux ^ uy) >> 63) ? -n : n;
  return (ux >> 63) ? -r : r;
}

double __cy_sub_remquod_p(double x, double y, int *quo) { return remquod_core(x, y, quo); }

double __cy_sub_remquod_g(double x, double y, __global int *quo) {
  int n;
  double r = remquod_core(x, y, &n);
  *quo = n;
  return r;
}

double __cy_sub_remquod_l(double x, double y, __local int *quo) {
  int n;
  double r = remquod_core(x, y, &n);
  *quo = n;
  return r;
}
#endif

#ifdef NEED_FMOD
float __cy_sub_fmodf(float x, float y) {
  uint ux = as_uint(x), uy = as_uint(y), ax = ux & 0x7fffffffu, ay = uy & 0x7fffffffu, q;
  if (ay == 0 || ax >= 0x7f800000u || ay > 0x7f800000u) return as_float(0x7fc00000u);
  if (ax < ay) return x;
  return as_float(rem_bits(ax, ay, &q) | (ux & 0x80000000u));
}
#endif

#ifdef NEED_REMQUO
/* x - n*y with n the quotient rounded to nearest even; *quo the low 7 bits
 * of |n| with the sign of x / y */
static float remquo_core(float x, float y, int *quo) {
  uint ux = as_uint(x), uy = as_uint(y), ax = ux & 0x7fffffffu, ay = uy & 0x7fffffffu, q = 0;
  *quo = 0;
  if (ay == 0 || ax >= 0x7f800000u || ay > 0x7f800000u) return as_float(0x7fc00000u);
  uint ar = ax >= ay ? rem_bits(ax, ay, &q) : ax;
  float r = as_float(ar), b = as_float(ay);
  /* round the quotient: past half of |y|, or at half with q odd, one more
   * (|y| - |r| is then exact, Sterbenz); halving |y| is exact unless tiny */
  int more = b < 0x1p-125f ? (2.0f * r > b || (2.0f * r == b && (q & 1)))
                           : (r > 0.5f * b || (r == 0.5f * b && (q & 1)));
  if (more) {
    r -= b;
    q++;
  }
  int n = (int)(q & 0x7fu);
  *quo = (ux ^ uy) >> 31 ? -n : n;
  return (ux >> 31) ? -r : r;
}

float __cy_sub_remquof_p(float x, float y, int *quo) { return remquo_core(x, y, quo); }

float __cy_sub_remquof_g(float x, float y, __global int *quo) {
  int n;
  float r = remquo_core(x, y, &n);
  *quo = n;
  return r;
}

float __cy_sub_remquof_l(float x, float y, __local int *quo) {
  int n;
  float r = remquo_core(x, y, &n);
  *quo = n;
  return r;
}
#endif
