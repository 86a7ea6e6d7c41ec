/* The body of fpn.c, instantiated once per significand width (fpn.c):
 *   FPN_VAL   the type of a value's bits (uint32_t, uint64_t)
 *   FPN_SIG   the significand integer (uint64_t, or a 128-bit one for binary64)
 *   FPN_W     its bits (64, 128)
 *   FPN_MAXM  the widest fraction of the formats it serves (23, 52)
 *   FPN_P(n)  the name of function n in this instance
 * Every finite operand is an integer significand times a power of two;
 * each operation forms its exact result (or the exact leading bits and a
 * sticky bit for everything below them: quotients, roots, far-apart sums)
 * and one routine rounds it to the format in the requested mode. A
 * significand of at most FPN_MAXM + 1 bits makes every exact product fit
 * FPN_W - 16 bits and every aligned sum FPN_W - 1. */

#define V FPN_VAL
#define S FPN_SIG
#define W FPN_W

typedef struct {
  int cls;
  uint32_t sign;
  int32_t exp; /* value = sig * 2^exp for C_FIN */
  S sig;       /* nonzero for C_FIN */
} FPN_P(unp);
#define UNP FPN_P(unp)

static V FPN_P(sign_bit)(fpn_fmt f) { return (V)1 << (f.ebits + f.mbits); }
static V FPN_P(canonical_nan)(fpn_fmt f) { return (V)emax_field(f) << f.mbits | (V)1 << (f.mbits - 1); }
static V FPN_P(inf_of)(fpn_fmt f, uint32_t sign) { return sign * FPN_P(sign_bit)(f) | (V)emax_field(f) << f.mbits; }
#define SIGN_BIT(f) FPN_P(sign_bit)(f)
#define CNAN(f) FPN_P(canonical_nan)(f)
#define INF(f, s) FPN_P(inf_of)(f, s)

static UNP FPN_P(unpack)(fpn_fmt f, V a) {
  UNP u;
  uint32_t e = (uint32_t)(a >> f.mbits) & emax_field(f);
  V m = a & (((V)1 << f.mbits) - 1);
  u.sign = (uint32_t)(a >> (f.ebits + f.mbits)) & 1;
  u.exp = 0;
  u.sig = 0;
  if (e == emax_field(f)) u.cls = !m ? C_INF : m >> (f.mbits - 1) ? C_QNAN : C_SNAN;
  else if (!e && !m) u.cls = C_ZERO;
  else {
    u.cls = C_FIN;
    u.sig = e ? (S)(m | (V)1 << f.mbits) : (S)m;
    u.exp = (e ? (int32_t)e : 1) - bias(f) - f.mbits;
  }
  return u;
}

static int FPN_P(msb)(S v) {
#if FPN_W > 64
  uint64_t hi = (uint64_t)(v >> 64);
  return hi ? 64 + msb64(hi) : msb64((uint64_t)v);
#else
  return msb64(v);
#endif
}
#define MSB(v) FPN_P(msb)(v)

/* the bits of sig below bit d (d >= 1) are not all zero */
static int FPN_P(low_any)(S sig, int d) { return d >= W ? sig != 0 : (sig & (((S)1 << d) - 1)) != 0; }

/* sig >> d (d >= 1) and the round and sticky bits it drops */
static S FPN_P(shr_round)(S sig, int d, int *half, int *below) {
  *half = d <= W ? (int)(sig >> (d - 1) & 1) : 0;
  *below = d >= 2 && FPN_P(low_any)(sig, d - 1);
  return d < W ? sig >> d : 0;
}

/* (sig + sticky * epsilon) * 2^exp rounded to f, with sig != 0 */
static V FPN_P(round_pack)(fpn_fmt f, uint32_t sign, int32_t exp, S sig, int sticky, unsigned rm,
                           uint32_t *flags) {
  int p = f.mbits + 1, emin = 1 - bias(f);
  int32_t lead = exp + MSB(sig); /* the exponent of the leading bit */
  int32_t lsb = (lead >= emin ? lead : emin) - f.mbits;
  int d = (int)(lsb - exp); /* bits to drop */
  S q;
  int half = 0, below = 0;
  if (d <= 0) q = sig << -d;
  else q = FPN_P(shr_round)(sig, d, &half, &below);
  below |= sticky;
  int inexact = half || below;
  /* tininess after rounding: below 2^emin even when rounded with an
   * unbounded exponent (to p bits at the leading bit's own scale) */
  if (lead < emin && inexact) {
    int dd = (int)(lead - f.mbits - exp), hh = 0, bb = 0;
    S qq = dd <= 0 ? sig << -dd : FPN_P(shr_round)(sig, dd, &hh, &bb);
    qq += (S)round_up(rm, sign, (uint64_t)qq, hh, bb || sticky);
    if (!(lead == emin - 1 && qq >> p)) *flags |= FFLAG_UF;
  }
  q += (S)round_up(rm, sign, (uint64_t)q, half, below);
  if (rm == FPN_ROD && inexact) q |= 1;
  if (q >> p) { /* the carry made it one bit longer */
    q >>= 1;
    lsb++;
  }
  if (inexact) *flags |= FFLAG_NX;
  if (!q) return sign * SIGN_BIT(f);
  if (!(q >> f.mbits)) return sign * SIGN_BIT(f) | (V)q; /* subnormal */
  int32_t e = lsb + f.mbits + bias(f);
  if (e >= (int32_t)emax_field(f)) {
    *flags |= FFLAG_OF | FFLAG_NX;
    int to_inf = rm == FP_RNE || rm == FP_RMM || (rm == FP_RUP && !sign) || (rm == FP_RDN && sign);
    return to_inf ? INF(f, sign) : sign * SIGN_BIT(f) | (INF(f, 0) - 1);
  }
  return sign * SIGN_BIT(f) | (V)e << f.mbits | ((V)q & (((V)1 << f.mbits) - 1));
}
#define ROUND_PACK FPN_P(round_pack)

static int FPN_P(is_nan)(const UNP *u) { return u->cls == C_QNAN || u->cls == C_SNAN; }
#define ISNAN(u) FPN_P(is_nan)(u)
static V FPN_P(nan_result)(fpn_fmt f, const UNP *a, const UNP *b, uint32_t *flags) {
  if (a->cls == C_SNAN || (b && b->cls == C_SNAN)) *flags |= FFLAG_NV;
  return CNAN(f);
}

/* the exact sum of two finite or zero values, each sig < 2^(W - 15) */
static V FPN_P(add_unp)(fpn_fmt f, UNP a, UNP b, unsigned rm, uint32_t *flags) {
  if (a.cls == C_ZERO && b.cls == C_ZERO)
    return (a.sign == b.sign ? a.sign : rm == FP_RDN) * SIGN_BIT(f); /* x + -x = +0, -0 in RDN */
  if (a.cls == C_ZERO) return ROUND_PACK(f, b.sign, b.exp, b.sig, 0, rm, flags);
  if (b.cls == C_ZERO) return ROUND_PACK(f, a.sign, a.exp, a.sig, 0, rm, flags);
  /* both with their leading bit at W - 4, the larger one first */
  int sa = W - 4 - MSB(a.sig), sb = W - 4 - MSB(b.sig);
  a.sig <<= sa;
  a.exp -= sa;
  b.sig <<= sb;
  b.exp -= sb;
  if (b.exp > a.exp || (b.exp == a.exp && b.sig > a.sig)) {
    UNP t = a;
    a = b;
    b = t;
  }
  int sticky = 0;
  int d = (int)(a.exp - b.exp);
  if (d > 0) {
    sticky = FPN_P(low_any)(b.sig, d);
    b.sig = d < W ? b.sig >> d : 0;
  }
  S s;
  if (a.sign == b.sign) s = a.sig + b.sig;
  else {
    /* a - (b + eps) = (a - b - 1) + (1 - eps): a >= 2^(W-4) > b + 1 when sticky */
    s = a.sig - b.sig - (S)sticky;
    if (!s && !sticky) return (rm == FP_RDN) * SIGN_BIT(f);
  }
  return ROUND_PACK(f, a.sign, a.exp, s, sticky, rm, flags);
}

V FPN_P(add)(fpn_fmt f, V a, V b, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  if (ISNAN(&x) || ISNAN(&y)) return FPN_P(nan_result)(f, &x, &y, flags);
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_INF && y.cls == C_INF && x.sign != y.sign) {
      *flags |= FFLAG_NV;
      return CNAN(f);
    }
    return INF(f, x.cls == C_INF ? x.sign : y.sign);
  }
  return FPN_P(add_unp)(f, x, y, rm, flags);
}

V FPN_P(sub)(fpn_fmt f, V a, V b, unsigned rm, uint32_t *flags) {
  UNP y = FPN_P(unpack)(f, b);
  if (ISNAN(&y)) return FPN_P(add)(f, a, b, rm, flags); /* NaNs lose their sign anyway */
  return FPN_P(add)(f, a, b ^ SIGN_BIT(f), rm, flags);
}

V FPN_P(mul)(fpn_fmt f, V a, V b, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  uint32_t sign = x.sign ^ y.sign;
  if (ISNAN(&x) || ISNAN(&y)) return FPN_P(nan_result)(f, &x, &y, flags);
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_ZERO || y.cls == C_ZERO) {
      *flags |= FFLAG_NV;
      return CNAN(f);
    }
    return INF(f, sign);
  }
  if (x.cls == C_ZERO || y.cls == C_ZERO) return sign * SIGN_BIT(f);
  return ROUND_PACK(f, sign, x.exp + y.exp, x.sig * y.sig, 0, rm, flags);
}

V FPN_P(div)(fpn_fmt f, V a, V b, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  uint32_t sign = x.sign ^ y.sign;
  if (ISNAN(&x) || ISNAN(&y)) return FPN_P(nan_result)(f, &x, &y, flags);
  if (x.cls == C_INF) {
    if (y.cls == C_INF) {
      *flags |= FFLAG_NV;
      return CNAN(f);
    }
    return INF(f, sign);
  }
  if (y.cls == C_INF) return sign * SIGN_BIT(f);
  if (y.cls == C_ZERO) {
    if (x.cls == C_ZERO) {
      *flags |= FFLAG_NV;
      return CNAN(f);
    }
    *flags |= FFLAG_DZ;
    return INF(f, sign);
  }
  if (x.cls == C_ZERO) return sign * SIGN_BIT(f);
  /* dividend with its leading bit at W - 2, divisor at FPN_MAXM: a quotient
   * of at least W - FPN_MAXM - 3 bits (39, 73), the remainder sticky */
  int sx = W - 2 - MSB(x.sig), sy = FPN_MAXM - MSB(y.sig);
  x.sig <<= sx;
  x.exp -= sx;
  y.sig <<= sy;
  y.exp -= sy;
  S q = x.sig / y.sig;
  return ROUND_PACK(f, sign, x.exp - y.exp, q, x.sig % y.sig != 0, rm, flags);
}

V FPN_P(sqrt)(fpn_fmt f, V a, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a);
  if (ISNAN(&x)) return FPN_P(nan_result)(f, &x, NULL, flags);
  if (x.cls == C_ZERO) return a;
  if (x.sign) {
    *flags |= FFLAG_NV;
    return CNAN(f);
  }
  if (x.cls == C_INF) return a;
  /* sig * 2^exp with exp even and sig's leading bit at W - 4 or W - 3: a
   * root of W/2 - 1 bits, the remainder sticky */
  int sh = W - 4 - MSB(x.sig);
  if ((x.exp - sh) & 1) sh++;
  S v = x.sig << sh, r = 0;
  for (int bit = W / 2 - 1; bit >= 0; bit--) { /* the largest r with r * r <= v */
    S t = r | (S)1 << bit;
    if (t * t <= v) r = t;
  }
  return ROUND_PACK(f, 0, (x.exp - sh) / 2, r, r * r != v, rm, flags);
}

V FPN_P(fma)(fpn_fmt f, V a, V b, V c, int negate_product, int negate_addend, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b), z = FPN_P(unpack)(f, c);
  uint32_t psign = x.sign ^ y.sign ^ (uint32_t)(negate_product != 0);
  z.sign ^= (uint32_t)(negate_addend != 0);
  int inf_zero = (x.cls == C_INF && y.cls == C_ZERO) || (x.cls == C_ZERO && y.cls == C_INF);
  if (inf_zero) *flags |= FFLAG_NV; /* even with a quiet NaN addend, as RISC-V */
  if (ISNAN(&x) || ISNAN(&y) || ISNAN(&z)) {
    if (x.cls == C_SNAN || y.cls == C_SNAN || z.cls == C_SNAN) *flags |= FFLAG_NV;
    return CNAN(f);
  }
  if (inf_zero) return CNAN(f);
  if (x.cls == C_INF || y.cls == C_INF) {
    if (z.cls == C_INF && z.sign != psign) {
      *flags |= FFLAG_NV;
      return CNAN(f);
    }
    return INF(f, psign);
  }
  if (z.cls == C_INF) return INF(f, z.sign);
  UNP p = {C_ZERO, psign, 0, 0};
  if (x.cls == C_FIN && y.cls == C_FIN) p = (UNP){C_FIN, psign, x.exp + y.exp, x.sig * y.sig};
  return FPN_P(add_unp)(f, p, z, rm, flags);
}

/* ordering of non-NaN values: -0 < +0 for min/max, equal for compares */
static int FPN_P(less)(fpn_fmt f, V a, V b, int zero_equal) {
  V sa = a & SIGN_BIT(f), sb = b & SIGN_BIT(f), ma = a & (SIGN_BIT(f) - 1), mb = b & (SIGN_BIT(f) - 1);
  if (zero_equal && !ma && !mb) return 0;
  if (sa != sb) return sa != 0;
  return sa ? ma > mb : ma < mb;
}

static V FPN_P(minmax)(fpn_fmt f, V a, V b, int max, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  if (x.cls == C_SNAN || y.cls == C_SNAN) *flags |= FFLAG_NV;
  if (ISNAN(&x) && ISNAN(&y)) return CNAN(f);
  if (ISNAN(&x)) return b;
  if (ISNAN(&y)) return a;
  return FPN_P(less)(f, a, b, 0) ^ max ? a : b;
}
V FPN_P(min)(fpn_fmt f, V a, V b, uint32_t *flags) { return FPN_P(minmax)(f, a, b, 0, flags); }
V FPN_P(max)(fpn_fmt f, V a, V b, uint32_t *flags) { return FPN_P(minmax)(f, a, b, 1, flags); }

int FPN_P(eq)(fpn_fmt f, V a, V b, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  if (ISNAN(&x) || ISNAN(&y)) {
    if (x.cls == C_SNAN || y.cls == C_SNAN) *flags |= FFLAG_NV;
    return 0;
  }
  return a == b || (x.cls == C_ZERO && y.cls == C_ZERO);
}
int FPN_P(lt)(fpn_fmt f, V a, V b, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  if (ISNAN(&x) || ISNAN(&y)) {
    *flags |= FFLAG_NV;
    return 0;
  }
  return FPN_P(less)(f, a, b, 1);
}
int FPN_P(le)(fpn_fmt f, V a, V b, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a), y = FPN_P(unpack)(f, b);
  if (ISNAN(&x) || ISNAN(&y)) {
    *flags |= FFLAG_NV;
    return 0;
  }
  return !FPN_P(less)(f, b, a, 1);
}

uint32_t FPN_P(classify)(fpn_fmt f, V a) {
  UNP x = FPN_P(unpack)(f, a);
  uint32_t e = (uint32_t)(a >> f.mbits) & emax_field(f);
  switch (x.cls) {
  case C_INF: return x.sign ? 1u << 0 : 1u << 7;
  case C_ZERO: return x.sign ? 1u << 3 : 1u << 4;
  case C_SNAN: return 1u << 8;
  case C_QNAN: return 1u << 9;
  default: return e ? (x.sign ? 1u << 1 : 1u << 6) : (x.sign ? 1u << 2 : 1u << 5);
  }
}

V FPN_P(to_int)(fpn_fmt f, V a, unsigned bits, int is_signed, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(f, a);
  uint32_t sign = ISNAN(&x) ? 0 : x.sign; /* a NaN saturates as +overflow */
  S top = (S)1 << (bits - 1), z = 0;
  S limit = is_signed ? (sign ? top : top - 1) : (sign ? 0 : 2 * top - 1);
  int big = ISNAN(&x) || x.cls == C_INF, inexact = 0;
  if (x.cls == C_FIN) {
    if (x.exp >= 0) {
      big = x.exp + MSB(x.sig) > (int)bits; /* at least 2^(bits + 1) */
      if (!big) z = x.sig << x.exp;
    } else { /* round off the -exp fraction bits */
      int half, below;
      S q = FPN_P(shr_round)(x.sig, -x.exp, &half, &below);
      inexact = half || below;
      z = q + (S)round_up(rm, sign, (uint64_t)q, half, below);
    }
  }
  if (big || z > limit) {
    *flags |= FFLAG_NV;
    return (V)(sign ? (is_signed ? 0 - top : 0) : limit);
  }
  if (inexact) *flags |= FFLAG_NX;
  return sign ? (V)0 - (V)z : (V)z;
}

V FPN_P(from_int)(fpn_fmt f, V v, unsigned bits, int is_signed, unsigned rm, uint32_t *flags) {
  S m = ((S)1 << bits) - 1, u = (S)v & m;
  uint32_t sign = is_signed && (u >> (bits - 1) & 1);
  if (sign) u = (0 - u) & m; /* the magnitude; the most negative is its own */
  if (!u) return 0;
  return ROUND_PACK(f, sign, 0, u, 0, rm, flags);
}

V FPN_P(convert)(fpn_fmt from, fpn_fmt to, V a, unsigned rm, uint32_t *flags) {
  UNP x = FPN_P(unpack)(from, a);
  if (ISNAN(&x)) return FPN_P(nan_result)(to, &x, NULL, flags);
  if (x.cls == C_INF) return INF(to, x.sign);
  if (x.cls == C_ZERO) return x.sign * SIGN_BIT(to);
  return ROUND_PACK(to, x.sign, x.exp, x.sig, 0, rm, flags);
}

#undef V
#undef S
#undef W
#undef UNP
#undef SIGN_BIT
#undef CNAN
#undef INF
#undef MSB
#undef ROUND_PACK
#undef ISNAN
