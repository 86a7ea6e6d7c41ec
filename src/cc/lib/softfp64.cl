/* IEEE-754 double in software for the baseline device, which has no fp64
 * unit: every operation on the bits (ulong), rounded to nearest even as
 * LLVM's fadd/fmul/... are. The back end lowers double IR to calls of
 * these (cc_lower_f64.c); they stay calls (noinline) so a kernel carries
 * one copy of each. The helpers are inlined into them, because the library
 * is linked after the optimiser has run.
 *
 * A finite value is carried as (s, e, m): value = m * 2^(e - 1084), where m
 * has its leading bit at bit 62 when normalised; packing adds m >> 10 (the
 * hidden bit at 52) to e << 52, so e is the biased exponent less one and a
 * rounding carry moves into the exponent on its own. The file is also
 * valid C (host tests define the OpenCL types). */
#ifdef __OPENCL_VERSION__
#define CY_API __attribute__((noinline))
#define CY_IN static __attribute__((always_inline)) /* not `inline`: the front end redefines it */
#else
#define CY_API
#define CY_IN static inline
#endif

#define CY_SIGN 0x8000000000000000UL
#define CY_ABS 0x7fffffffffffffffUL
#define CY_FRAC 0x000fffffffffffffUL
#define CY_HID 0x0010000000000000UL
#define CY_INF 0x7ff0000000000000UL
#define CY_QNAN 0x7ff8000000000000UL

CY_IN int cy_clz(ulong x) {
  int n = 0;
  if (!(x >> 32)) n += 32, x <<= 32;
  if (!(x >> 48)) n += 16, x <<= 16;
  if (!(x >> 56)) n += 8, x <<= 8;
  if (!(x >> 60)) n += 4, x <<= 4;
  if (!(x >> 62)) n += 2, x <<= 2;
  if (!(x >> 63)) n += 1;
  return n;
}

/* x >> n with the lost bits ORed into bit 0 (any n >= 0) */
CY_IN ulong cy_jam(ulong x, int n) {
  if (n <= 0) return x;
  if (n >= 63) return x != 0;
  return (x >> n) | ((x << (64 - n)) != 0);
}

CY_IN int cy_isnan(ulong a) { return (a & CY_ABS) > CY_INF; }

/* the NaN an operation on a NaN gives: the first NaN operand, quieted */
CY_IN ulong cy_nan2(ulong a, ulong b) { return (cy_isnan(a) ? a : b) | 0x0008000000000000UL; }

/* in rounding mode rm: 0 to nearest even, 1 toward zero, 2 up, 3 down
 * (the overflow of a mode that rounds toward zero is the largest double) */
CY_IN ulong cy_round_pack_rm(ulong s, int e, ulong m, uint rm) {
  ulong inc = rm == 0 ? 0x200 : rm == 1 ? 0 : (rm == 2) == !s ? 0x3ff : 0;
  if (e < 0) {
    m = cy_jam(m, -e);
    e = 0;
  } else if (e > 0x7fd || (e == 0x7fd && m + inc >= CY_SIGN)) {
    return (s << 63) | (inc ? CY_INF : CY_INF - 1);
  }
  ulong r = m & 0x3ff;
  m = (m + inc) >> 10;
  if (rm == 0 && r == 0x200) m &= ~1UL;
  return (s << 63) + ((m ? (ulong)e : 0) << 52) + m;
}

CY_IN ulong cy_round_pack(ulong s, int e, ulong m) { return cy_round_pack_rm(s, e, m, 0); }

/* m != 0 shifted so its leading bit is bit 62 */
CY_IN ulong cy_norm_round_pack(ulong s, int e, ulong m) {
  if (!m) return s << 63;
  int sh = cy_clz(m) - 1;
  if (sh < 0) return cy_round_pack(s, e + 1, cy_jam(m, 1));
  return cy_round_pack(s, e - sh, m << sh);
}

/* a finite non-zero operand's significand with the hidden bit at 52 and
 * its biased exponent (below 1 for subnormals) */
CY_IN ulong cy_unpack(ulong a, int *e) {
  int ex = (int)(a >> 52) & 0x7ff;
  ulong m = a & CY_FRAC;
  if (ex) {
    *e = ex;
    return m | CY_HID;
  }
  int sh = cy_clz(m) - 11;
  *e = 1 - sh;
  return m << sh;
}

CY_API ulong __cy_dadd(ulong a, ulong b) {
  ulong aa = a & CY_ABS, ab = b & CY_ABS;
  if (aa > CY_INF || ab > CY_INF) return cy_nan2(a, b);
  if (aa == CY_INF) return ab == CY_INF && (a ^ b) >> 63 ? CY_QNAN : a;
  if (ab == CY_INF) return b;
  if (!aa) return ab ? b : a & b; /* -0 + -0 = -0, else +0 */
  if (!ab) return a;
  if (aa < ab) { /* a the larger magnitude */
    ulong t = a;
    a = b;
    b = t;
  }
  int ea, eb;
  ulong ma = cy_unpack(a, &ea) << 9, mb = cy_unpack(b, &eb) << 9;
  mb = cy_jam(mb, ea - eb);
  ulong s = a >> 63;
  if ((a ^ b) >> 63) {
    ulong m = ma - mb;
    return m ? cy_norm_round_pack(s, ea, m) : 0; /* exact cancellation: +0 */
  }
  return cy_norm_round_pack(s, ea, ma + mb);
}

CY_API ulong __cy_dsub(ulong a, ulong b) { return __cy_dadd(a, cy_isnan(b) ? b : b ^ CY_SIGN); }

/* the 128-bit product of a and b: *hi, *lo */
CY_IN void cy_mul128(ulong a, ulong b, ulong *hi, ulong *lo) {
  ulong a0 = a & 0xffffffffUL, a1 = a >> 32, b0 = b & 0xffffffffUL, b1 = b >> 32;
  ulong p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  ulong mid = (p00 >> 32) + (p01 & 0xffffffffUL) + (p10 & 0xffffffffUL);
  *lo = (mid << 32) | (p00 & 0xffffffffUL);
  *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

CY_API ulong __cy_dmul(ulong a, ulong b) {
  ulong aa = a & CY_ABS, ab = b & CY_ABS, s = (a ^ b) >> 63;
  if (aa > CY_INF || ab > CY_INF) return cy_nan2(a, b);
  if (aa == CY_INF || ab == CY_INF) return !aa || !ab ? CY_QNAN : (s << 63) | CY_INF;
  if (!aa || !ab) return s << 63;
  int ea, eb;
  ulong ma = cy_unpack(a, &ea) << 10, mb = cy_unpack(b, &eb) << 11, hi, lo;
  cy_mul128(ma, mb, &hi, &lo);
  return cy_norm_round_pack(s, ea + eb - 0x3ff, hi | (lo != 0));
}

CY_API ulong __cy_ddiv(ulong a, ulong b) {
  ulong aa = a & CY_ABS, ab = b & CY_ABS, s = (a ^ b) >> 63;
  if (aa > CY_INF || ab > CY_INF) return cy_nan2(a, b);
  if (aa == CY_INF) return ab == CY_INF ? CY_QNAN : (s << 63) | CY_INF;
  if (ab == CY_INF) return s << 63;
  if (!ab) return aa ? (s << 63) | CY_INF : CY_QNAN;
  if (!aa) return s << 63;
  int ea, eb;
  ulong ma = cy_unpack(a, &ea), mb = cy_unpack(b, &eb), q = 0;
  if (ma < mb) {
    ma <<= 1;
    ea--;
  }
  for (int i = 0; i < 55; i++) { /* 55 quotient bits: the leading one at 54 */
    q <<= 1;
    if (ma >= mb) {
      ma -= mb;
      q |= 1;
    }
    ma <<= 1;
  }
  return cy_round_pack(s, ea - eb + 1022, (q << 8) | (ma != 0));
}

CY_API ulong __cy_dsqrt(ulong a) {
  ulong aa = a & CY_ABS;
  if (aa > CY_INF) return a | 0x0008000000000000UL;
  if (!aa) return a;
  if (a >> 63) return CY_QNAN | CY_SIGN;
  if (aa == CY_INF) return a;
  int ea;
  ulong m = cy_unpack(a, &ea);
  int t = ea - 1075;
  if (t & 1) {
    m <<= 1;
    t--;
  }
  /* digit by digit: the root of m * 2^58, 56 bits; m is its top 54 bits */
  ulong root = 0, rem = 0;
  for (int i = 0; i < 56; i++) {
    int at = 52 - 2 * i;
    ulong two = at >= 0 ? (m >> at) & 3 : 0;
    rem = (rem << 2) | two;
    ulong trial = (root << 2) | 1;
    root <<= 1;
    if (rem >= trial) {
      rem -= trial;
      root |= 1;
    }
  }
  return cy_round_pack(0, t / 2 + 1048, (root << 7) | (rem != 0));
}

/* x >> n of the 128-bit {hi, lo}, the lost bits ORed into bit 0 */
CY_IN void cy_jam128(ulong *hi, ulong *lo, int n) {
  if (n <= 0) return;
  if (n >= 128) {
    *lo = (*hi | *lo) != 0;
    *hi = 0;
  } else if (n >= 64) {
    ulong sticky = *lo != 0 || (n > 64 && (*hi << (128 - n)) != 0);
    *lo = (n == 64 ? *hi : *hi >> (n - 64)) | sticky;
    *hi = 0;
  } else {
    ulong sticky = (*lo << (64 - n)) != 0;
    *lo = (*lo >> n) | (*hi << (64 - n)) | sticky;
    *hi >>= n;
  }
}

CY_API ulong __cy_dfma(ulong a, ulong b, ulong c) {
  ulong aa = a & CY_ABS, ab = b & CY_ABS, ac = c & CY_ABS, s = (a ^ b) >> 63;
  if (aa > CY_INF || ab > CY_INF || ac > CY_INF) return cy_nan2(cy_nan2(a, b), c);
  if (aa == CY_INF || ab == CY_INF) {
    if (!aa || !ab) return CY_QNAN;
    if (ac == CY_INF && (c >> 63) != s) return CY_QNAN;
    return (s << 63) | CY_INF;
  }
  if (ac == CY_INF) return c;
  if (!aa || !ab) return __cy_dadd(s << 63, c); /* the signs of an exact zero sum */
  int ea, eb, ec = 0;
  ulong xh, xl, yh = 0, yl = 0;
  cy_mul128(cy_unpack(a, &ea), cy_unpack(b, &eb), &xh, &xl);
  /* the product (2^104..2^106, scale 2^(ea+eb-2150)) and c (2^52..2^53)
   * moved up to 2^124..2^126: X * 2^xp and Y * 2^yp */
  xh = (xh << 20) | (xl >> 44);
  xl <<= 20;
  int xp = ea + eb - 2170, yp = xp;
  ulong sc = c >> 63;
  if (ac) {
    yh = cy_unpack(c, &ec) << 8;
    yp = ec - 1147;
  }
  int ez = xp > yp ? xp : yp;
  cy_jam128(&xh, &xl, ez - xp);
  cy_jam128(&yh, &yl, ez - yp);
  ulong zh, zl;
  if (!ac || s == sc) {
    zl = xl + yl;
    zh = xh + yh + (zl < xl);
  } else if (xh > yh || (xh == yh && xl >= yl)) {
    zl = xl - yl;
    zh = xh - yh - (xl < yl);
  } else {
    zl = yl - xl;
    zh = yh - xh - (yl < xl);
    s = sc;
  }
  if (!zh && !zl) return 0; /* exact cancellation: +0 */
  int n = zh ? cy_clz(zh) : 64 + cy_clz(zl);
  if (n >= 64) {
    zh = zl << (n - 64);
    zl = 0;
  } else if (n) {
    zh = (zh << n) | (zl >> (64 - n));
    zl <<= n;
  }
  return cy_round_pack(s, 1149 + ez - n, (zh >> 1) | ((zh & 1) | (zl != 0)));
}

/* fmod: exact, by shifting and subtracting the divisor's significand */
CY_API ulong __cy_drem(ulong a, ulong b) {
  ulong aa = a & CY_ABS, ab = b & CY_ABS;
  if (aa > CY_INF || ab > CY_INF) return cy_nan2(a, b);
  if (aa == CY_INF || !ab) return CY_QNAN;
  if (ab == CY_INF || !aa) return a;
  int ea, eb;
  ulong r = cy_unpack(a, &ea), mb = cy_unpack(b, &eb);
  if (ea < eb) return a;
  for (int i = ea - eb; i > 0; i--) {
    if (r >= mb) r -= mb;
    r <<= 1;
  }
  if (r >= mb) r -= mb;
  return cy_norm_round_pack(a >> 63, eb, r << 9);
}

/* the relation of a to b as fcmp's predicate bits: 1 equal, 2 greater,
 * 4 less, 8 unordered */
CY_API uint __cy_dcmp(ulong a, ulong b) {
  if (cy_isnan(a) || cy_isnan(b)) return 8;
  long ka = a >> 63 ? -(long)(a & CY_ABS) : (long)a, kb = b >> 63 ? -(long)(b & CY_ABS) : (long)b;
  return ka == kb ? 1 : ka > kb ? 2 : 4;
}

/* llvm.is.fpclass's class bit of a: 0 signalling NaN, 1 quiet NaN, 2..5
 * negative infinity, normal, subnormal, zero, 6..9 the positive ones up */
CY_API uint __cy_dclass(ulong a) {
  ulong aa = a & CY_ABS;
  int neg = (int)(a >> 63);
  if (aa > CY_INF) return aa >= CY_QNAN ? 2 : 1;
  int c = aa == CY_INF ? 0 : aa >= CY_HID ? 1 : aa ? 2 : 3;
  return 1u << (neg ? 2 + c : 9 - c);
}

CY_API ulong __cy_ftod(uint f) {
  ulong s = (ulong)(f >> 31) << 63;
  uint ex = (f >> 23) & 0xff, fr = f & 0x7fffff;
  if (ex == 0xff) return s | CY_INF | ((ulong)fr << 29) | (fr ? 0x0008000000000000UL : 0);
  if (!ex) {
    if (!fr) return s;
    int sh = cy_clz(fr) - 40; /* the leading bit to 23 */
    return s | ((ulong)(1023 - 126 - sh) << 52) | (((ulong)fr << (29 + sh)) & CY_FRAC);
  }
  return s | ((ulong)(ex + 896) << 52) | ((ulong)fr << 29);
}

/* to float, rounded to nearest even: as cy_round_pack with a 24-bit
 * significand (value = m * 2^(e - 188), m's leading bit at 62) */
CY_API uint __cy_dtof(ulong a) {
  ulong aa = a & CY_ABS;
  uint s = (uint)(a >> 63) << 31;
  if (aa > CY_INF) return s | 0x7fc00000u | (uint)((aa >> 29) & 0x3fffff);
  if (aa == CY_INF) return s | 0x7f800000u;
  if (!aa) return s;
  int ea;
  ulong m = cy_unpack(a, &ea) << 10;
  int e = ea - 897;
  if (e < 0) {
    m = cy_jam(m, -e);
    e = 0;
  } else if (e > 0xfd || (e == 0xfd && m + (1UL << 38) >= CY_SIGN)) {
    return s | 0x7f800000u;
  }
  ulong r = m & ((1UL << 39) - 1);
  m = (m + (1UL << 38)) >> 39;
  if (r == 1UL << 38) m &= ~1UL;
  return s | (uint)((m ? (ulong)e << 23 : 0) + m);
}

/* convert_double_rt?(ulong), convert_double_rt?(long) in rounding mode rm
 * (as cy_round_pack_rm) */
CY_IN ulong cy_int_pack(ulong s, ulong x, uint rm) {
  if (!x) return 0;
  int sh = cy_clz(x) - 1;
  return sh < 0 ? cy_round_pack_rm(s, 1085, cy_jam(x, 1), rm) : cy_round_pack_rm(s, 1084 - sh, x << sh, rm);
}

/* to half's bits (vstore_half of double) in rounding mode rm, as
 * cy_round_pack_rm with an 11-bit significand (value = m * 2^(e - 76), m's
 * leading bit at 62): one rounding, subnormal halves included */
CY_API uint __cy_dtoh(ulong a, uint rm) {
  ulong aa = a & CY_ABS, s = a >> 63;
  uint sh = (uint)s << 15;
  if (aa > CY_INF) return sh | 0x7e00u | (uint)((aa >> 42) & 0x3ff);
  if (aa == CY_INF) return sh | 0x7c00u;
  if (!aa) return sh;
  int ea;
  ulong m = cy_unpack(a, &ea) << 10;
  int e = ea - 1009;
  ulong inc = rm == 0 ? 1UL << 51 : rm == 1 ? 0 : (rm == 2) == !s ? (1UL << 52) - 1 : 0;
  if (e < 0) {
    m = cy_jam(m, -e);
    e = 0;
  } else if (e > 29 || (e == 29 && m + inc >= CY_SIGN)) {
    return sh | (inc ? 0x7c00u : 0x7bffu);
  }
  ulong r = m & ((1UL << 52) - 1);
  m = (m + inc) >> 52;
  if (rm == 0 && r == 1UL << 51) m &= ~1UL;
  return sh | (uint)((m ? (ulong)e << 10 : 0) + m);
}

CY_API ulong __cy_u64tod_rm(ulong x, uint rm) { return cy_int_pack(0, x, rm); }

CY_API ulong __cy_i64tod_rm(long x, uint rm) {
  ulong s = x < 0;
  return cy_int_pack(s, s ? 0 - (ulong)x : (ulong)x, rm);
}

CY_API ulong __cy_u64tod(ulong x) { return x ? cy_norm_round_pack(0, 1084, x) : 0; }

CY_API ulong __cy_i64tod(long x) {
  ulong s = x < 0, mag = s ? 0 - (ulong)x : (ulong)x;
  return mag ? cy_norm_round_pack(s, 1084, mag) : 0;
}

/* to integers toward zero; out of range saturates, NaN gives 0 (LLVM
 * leaves both undefined) */
CY_API long __cy_dtoi64(ulong a) {
  ulong aa = a & CY_ABS;
  if (aa > CY_INF) return 0;
  int ex = (int)(aa >> 52);
  if (ex < 1023) return 0;
  if (ex >= 1023 + 63) return a >> 63 ? (long)CY_SIGN : (long)CY_ABS;
  ulong m = (aa & CY_FRAC) | CY_HID;
  m = ex >= 1075 ? m << (ex - 1075) : m >> (1075 - ex);
  return a >> 63 ? -(long)m : (long)m;
}

CY_API ulong __cy_dtou64(ulong a) {
  ulong aa = a & CY_ABS;
  int ex = (int)(aa >> 52);
  if (aa > CY_INF || ex < 1023) return 0;
  if (a >> 63) return 0;
  if (ex >= 1023 + 64) return ~0UL;
  ulong m = (aa & CY_FRAC) | CY_HID;
  return ex >= 1075 ? m << (ex - 1075) : m >> (1075 - ex);
}

/* to an integral value: mode 0 nearest even (rint), 1 toward zero, 2 down
 * (floor), 3 up (ceil), 4 nearest, ties away (round) */
CY_API ulong __cy_dround(ulong a, uint mode) {
  ulong aa = a & CY_ABS, neg = a >> 63;
  int ex = (int)(aa >> 52);
  if (aa > CY_INF) return a | 0x0008000000000000UL;
  if (ex >= 1075) return a;
  int up;
  ulong t;
  if (ex < 1023) { /* |a| < 1: 0 or 1 */
    t = 0;
    up = aa && (mode == 0 ? aa > 0x3fe0000000000000UL : mode == 4 ? aa >= 0x3fe0000000000000UL
                : mode == 2 ? (int)neg : mode == 3 ? !neg : 0);
    return (neg << 63) | (up ? 0x3ff0000000000000UL : 0);
  }
  ulong unit = 1UL << (1075 - ex), fr = aa & (unit - 1), hf = unit >> 1;
  t = aa - fr;
  up = fr && (mode == 0 ? fr > hf || (fr == hf && (t & unit)) : mode == 4 ? fr >= hf
              : mode == 2 ? (int)neg : mode == 3 ? !neg : 0);
  return (neg << 63) | (t + (up ? unit : 0));
}

/* minnum/maxnum: a NaN operand loses; -0 is below +0 */
CY_API ulong __cy_dminmax(ulong a, ulong b, uint max) {
  if (cy_isnan(a)) return cy_isnan(b) ? cy_nan2(a, b) : b;
  if (cy_isnan(b)) return a;
  uint c = __cy_dcmp(a, b);
  if (c == 1) return max ? a & b : a | b;
  return (c == 2) == (max != 0) ? a : b;
}

/* a * 2^n, rounded once */
CY_API ulong __cy_dldexp(ulong a, int n) {
  ulong aa = a & CY_ABS;
  if (aa > CY_INF) return a | 0x0008000000000000UL;
  if (aa == CY_INF || !aa) return a;
  n = n > 4000 ? 4000 : n < -4000 ? -4000 : n;
  int ea;
  ulong m = cy_unpack(a, &ea) << 10;
  return cy_round_pack(a >> 63, ea - 1 + n, m);
}
