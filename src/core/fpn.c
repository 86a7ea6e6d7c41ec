/* IEEE 754 arithmetic for binary formats of up to 32 bits (fpn.h): every
 * finite operand is an integer significand times a power of two, each
 * operation forms its exact result (or the exact leading bits and a
 * sticky bit for everything below them: quotients, roots, far-apart sums)
 * and one routine rounds it to the format in the requested mode. With at
 * most 24-bit significands every exact product fits 48 bits and every
 * aligned sum 63, so 64-bit integers suffice. */
#include "fpn.h"

#include "fp32.h"

enum { C_ZERO, C_FIN, C_INF, C_QNAN, C_SNAN };

typedef struct {
  int cls;
  uint32_t sign;
  int32_t exp;  /* value = sig * 2^exp for C_FIN */
  uint64_t sig; /* nonzero for C_FIN */
} unp;

static int bias(fpn_fmt f) { return (1 << (f.ebits - 1)) - 1; }
static uint32_t emax_field(fpn_fmt f) { return (1u << f.ebits) - 1; }
static uint32_t sign_bit(fpn_fmt f) { return 1u << (f.ebits + f.mbits); }
static uint32_t canonical_nan(fpn_fmt f) { return emax_field(f) << f.mbits | 1u << (f.mbits - 1); }
static uint32_t inf_of(fpn_fmt f, uint32_t sign) { return sign * sign_bit(f) | emax_field(f) << f.mbits; }

static unp unpack(fpn_fmt f, uint32_t a) {
  unp u;
  uint32_t e = a >> f.mbits & emax_field(f), m = a & ((1u << f.mbits) - 1);
  u.sign = a >> (f.ebits + f.mbits) & 1;
  u.exp = 0;
  u.sig = 0;
  if (e == emax_field(f)) u.cls = !m ? C_INF : m >> (f.mbits - 1) ? C_QNAN : C_SNAN;
  else if (!e && !m) u.cls = C_ZERO;
  else {
    u.cls = C_FIN;
    u.sig = e ? m | 1u << f.mbits : m;
    u.exp = (e ? (int32_t)e : 1) - bias(f) - f.mbits;
  }
  return u;
}

static int msb64(uint64_t v) { return 63 - __builtin_clzll(v); }

/* whether the dropped bits (half = the highest of them, below = any lower
 * one) make the kept value q round up in mode rm */
static int round_up(unsigned rm, uint32_t sign, uint64_t q, int half, int below) {
  switch (rm) {
  case FP_RNE: return half && (below || (q & 1));
  case FP_RTZ: return 0;
  case FP_RDN: return sign && (half || below);
  case FP_RUP: return !sign && (half || below);
  default: return half; /* FP_RMM */
  }
}

/* (sig + sticky * epsilon) * 2^exp rounded to f, with sig != 0 */
static uint32_t round_pack(fpn_fmt f, uint32_t sign, int32_t exp, uint64_t sig, int sticky, unsigned rm,
                           uint32_t *flags) {
  int p = f.mbits + 1, emin = 1 - bias(f);
  int32_t lead = exp + msb64(sig); /* the exponent of the leading bit */
  int32_t lsb = (lead >= emin ? lead : emin) - f.mbits;
  int d = (int)(lsb - exp); /* bits to drop */
  uint64_t q;
  int half = 0, below = sticky;
  if (d <= 0) q = sig << -d;
  else {
    q = d < 64 ? sig >> d : 0;
    half = d <= 64 ? (int)(sig >> (d - 1) & 1) : 0;
    below |= d >= 2 && (d > 64 || (sig & ((1ull << (d - 1)) - 1)) != 0);
  }
  int inexact = half || below;
  /* tininess after rounding: below 2^emin even when rounded with an
   * unbounded exponent (to p bits at the leading bit's own scale) */
  if (lead < emin && inexact) {
    int dd = (int)(lead - f.mbits - exp);
    uint64_t qq = dd <= 0 ? sig << -dd : dd < 64 ? sig >> dd : 0;
    int hh = dd > 0 && dd <= 64 ? (int)(sig >> (dd - 1) & 1) : 0;
    int bb = sticky || (dd >= 2 && (dd > 64 || (sig & ((1ull << (dd - 1)) - 1)) != 0));
    qq += (uint64_t)round_up(rm, sign, qq, hh, bb);
    if (!(lead == emin - 1 && qq >> p)) *flags |= FFLAG_UF;
  }
  q += (uint64_t)round_up(rm, sign, q, half, below);
  if (q >> p) { /* the carry made it one bit longer */
    q >>= 1;
    lsb++;
  }
  if (inexact) *flags |= FFLAG_NX;
  if (!q) return sign * sign_bit(f);
  if (!(q >> f.mbits)) return sign * sign_bit(f) | (uint32_t)q; /* subnormal */
  int32_t e = lsb + f.mbits + bias(f);
  if (e >= (int32_t)emax_field(f)) {
    *flags |= FFLAG_OF | FFLAG_NX;
    int to_inf = rm == FP_RNE || rm == FP_RMM || (rm == FP_RUP && !sign) || (rm == FP_RDN && sign);
    return to_inf ? inf_of(f, sign) : sign * sign_bit(f) | (inf_of(f, 0) - 1);
  }
  return sign * sign_bit(f) | (uint32_t)e << f.mbits | ((uint32_t)q & ((1u << f.mbits) - 1));
}

static uint32_t nan_result(fpn_fmt f, const unp *a, const unp *b, uint32_t *flags) {
  if (a->cls == C_SNAN || (b && b->cls == C_SNAN)) *flags |= FFLAG_NV;
  return canonical_nan(f);
}
static int is_nan(const unp *u) { return u->cls == C_QNAN || u->cls == C_SNAN; }

/* the exact sum of two finite or zero values, each sig < 2^49 */
static uint32_t add_unp(fpn_fmt f, unp a, unp b, unsigned rm, uint32_t *flags) {
  if (a.cls == C_ZERO && b.cls == C_ZERO)
    return (a.sign == b.sign ? a.sign : rm == FP_RDN) * sign_bit(f); /* x + -x = +0, -0 in RDN */
  if (a.cls == C_ZERO) return round_pack(f, b.sign, b.exp, b.sig, 0, rm, flags);
  if (b.cls == C_ZERO) return round_pack(f, a.sign, a.exp, a.sig, 0, rm, flags);
  /* both with their leading bit at 60, the larger-scaled one first */
  int sa = 60 - msb64(a.sig), sb = 60 - msb64(b.sig);
  a.sig <<= sa;
  a.exp -= sa;
  b.sig <<= sb;
  b.exp -= sb;
  if (b.exp > a.exp || (b.exp == a.exp && b.sig > a.sig)) {
    unp t = a;
    a = b;
    b = t;
  }
  int sticky = 0;
  int d = (int)(a.exp - b.exp);
  if (d > 0) {
    uint64_t kept = d < 64 ? b.sig >> d : 0;
    sticky = d >= 64 || (b.sig & ((1ull << d) - 1)) != 0;
    b.sig = kept;
  }
  uint64_t s;
  if (a.sign == b.sign) s = a.sig + b.sig;
  else {
    /* a - (b + eps) = (a - b - 1) + (1 - eps): a >= 2^60 > b + 1 when sticky */
    s = a.sig - b.sig - (uint64_t)sticky;
    if (!s && !sticky) return (rm == FP_RDN) * sign_bit(f);
  }
  return round_pack(f, a.sign, a.exp, s, sticky, rm, flags);
}

uint32_t fpn_add(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  if (is_nan(&x) || is_nan(&y)) return nan_result(f, &x, &y, flags);
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_INF && y.cls == C_INF && x.sign != y.sign) {
      *flags |= FFLAG_NV;
      return canonical_nan(f);
    }
    return inf_of(f, x.cls == C_INF ? x.sign : y.sign);
  }
  return add_unp(f, x, y, rm, flags);
}

uint32_t fpn_sub(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags) {
  unp y = unpack(f, b);
  if (is_nan(&y)) return fpn_add(f, a, b, rm, flags); /* NaNs lose their sign anyway */
  return fpn_add(f, a, b ^ sign_bit(f), rm, flags);
}

uint32_t fpn_mul(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  uint32_t sign = x.sign ^ y.sign;
  if (is_nan(&x) || is_nan(&y)) return nan_result(f, &x, &y, flags);
  if (x.cls == C_INF || y.cls == C_INF) {
    if (x.cls == C_ZERO || y.cls == C_ZERO) {
      *flags |= FFLAG_NV;
      return canonical_nan(f);
    }
    return inf_of(f, sign);
  }
  if (x.cls == C_ZERO || y.cls == C_ZERO) return sign * sign_bit(f);
  return round_pack(f, sign, x.exp + y.exp, x.sig * y.sig, 0, rm, flags);
}

uint32_t fpn_div(fpn_fmt f, uint32_t a, uint32_t b, unsigned rm, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  uint32_t sign = x.sign ^ y.sign;
  if (is_nan(&x) || is_nan(&y)) return nan_result(f, &x, &y, flags);
  if (x.cls == C_INF) {
    if (y.cls == C_INF) {
      *flags |= FFLAG_NV;
      return canonical_nan(f);
    }
    return inf_of(f, sign);
  }
  if (y.cls == C_INF) return sign * sign_bit(f);
  if (y.cls == C_ZERO) {
    if (x.cls == C_ZERO) {
      *flags |= FFLAG_NV;
      return canonical_nan(f);
    }
    *flags |= FFLAG_DZ;
    return inf_of(f, sign);
  }
  if (x.cls == C_ZERO) return sign * sign_bit(f);
  /* dividend with its leading bit at 62, divisor at 23: a quotient of at
   * least 39 bits, the remainder sticky */
  int sx = 62 - msb64(x.sig), sy = 23 - msb64(y.sig); /* sy >= 0: at most 24-bit significands */
  x.sig <<= sx;
  x.exp -= sx;
  y.sig <<= sy;
  y.exp -= sy;
  uint64_t q = x.sig / y.sig;
  return round_pack(f, sign, x.exp - y.exp, q, x.sig % y.sig != 0, rm, flags);
}

uint32_t fpn_sqrt(fpn_fmt f, uint32_t a, unsigned rm, uint32_t *flags) {
  unp x = unpack(f, a);
  if (is_nan(&x)) return nan_result(f, &x, NULL, flags);
  if (x.cls == C_ZERO) return a;
  if (x.sign) {
    *flags |= FFLAG_NV;
    return canonical_nan(f);
  }
  if (x.cls == C_INF) return a;
  /* sig * 2^exp with exp even and sig's leading bit at 60 or 61: a root of
   * 31 bits, the remainder sticky */
  int sh = 60 - msb64(x.sig);
  if ((x.exp - sh) & 1) sh++;
  uint64_t v = x.sig << sh, r = 0;
  for (int bit = 31; bit >= 0; bit--) { /* the largest r with r * r <= v */
    uint64_t t = r | 1ull << bit;
    if (t * t <= v) r = t;
  }
  return round_pack(f, 0, (x.exp - sh) / 2, r, r * r != v, rm, flags);
}

uint32_t fpn_fma(fpn_fmt f, uint32_t a, uint32_t b, uint32_t c, int negate_product, int negate_addend,
                 unsigned rm, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b), z = unpack(f, c);
  uint32_t psign = x.sign ^ y.sign ^ (uint32_t)(negate_product != 0);
  z.sign ^= (uint32_t)(negate_addend != 0);
  int inf_zero = (x.cls == C_INF && y.cls == C_ZERO) || (x.cls == C_ZERO && y.cls == C_INF);
  if (inf_zero) *flags |= FFLAG_NV; /* even with a quiet NaN addend, as RISC-V */
  if (is_nan(&x) || is_nan(&y) || is_nan(&z)) {
    if (x.cls == C_SNAN || y.cls == C_SNAN || z.cls == C_SNAN) *flags |= FFLAG_NV;
    return canonical_nan(f);
  }
  if (inf_zero) return canonical_nan(f);
  if (x.cls == C_INF || y.cls == C_INF) {
    if (z.cls == C_INF && z.sign != psign) {
      *flags |= FFLAG_NV;
      return canonical_nan(f);
    }
    return inf_of(f, psign);
  }
  if (z.cls == C_INF) return inf_of(f, z.sign);
  unp p = {C_ZERO, psign, 0, 0};
  if (x.cls == C_FIN && y.cls == C_FIN) p = (unp){C_FIN, psign, x.exp + y.exp, x.sig * y.sig};
  return add_unp(f, p, z, rm, flags);
}

/* ordering of non-NaN values: -0 < +0 for min/max, equal for compares */
static int less(fpn_fmt f, uint32_t a, uint32_t b, int zero_equal) {
  uint32_t sa = a & sign_bit(f), sb = b & sign_bit(f), ma = a & (sign_bit(f) - 1), mb = b & (sign_bit(f) - 1);
  if (zero_equal && !ma && !mb) return 0;
  if (sa != sb) return sa != 0;
  return sa ? ma > mb : ma < mb;
}

static uint32_t minmax(fpn_fmt f, uint32_t a, uint32_t b, int max, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  if (x.cls == C_SNAN || y.cls == C_SNAN) *flags |= FFLAG_NV;
  if (is_nan(&x) && is_nan(&y)) return canonical_nan(f);
  if (is_nan(&x)) return b;
  if (is_nan(&y)) return a;
  return less(f, a, b, 0) ^ max ? a : b;
}
uint32_t fpn_min(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags) { return minmax(f, a, b, 0, flags); }
uint32_t fpn_max(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags) { return minmax(f, a, b, 1, flags); }

int fpn_eq(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  if (is_nan(&x) || is_nan(&y)) {
    if (x.cls == C_SNAN || y.cls == C_SNAN) *flags |= FFLAG_NV;
    return 0;
  }
  return a == b || (x.cls == C_ZERO && y.cls == C_ZERO);
}
int fpn_lt(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  if (is_nan(&x) || is_nan(&y)) {
    *flags |= FFLAG_NV;
    return 0;
  }
  return less(f, a, b, 1);
}
int fpn_le(fpn_fmt f, uint32_t a, uint32_t b, uint32_t *flags) {
  unp x = unpack(f, a), y = unpack(f, b);
  if (is_nan(&x) || is_nan(&y)) {
    *flags |= FFLAG_NV;
    return 0;
  }
  return !less(f, b, a, 1);
}

uint32_t fpn_classify(fpn_fmt f, uint32_t a) {
  unp x = unpack(f, a);
  uint32_t e = a >> f.mbits & emax_field(f);
  switch (x.cls) {
  case C_INF: return x.sign ? 1u << 0 : 1u << 7;
  case C_ZERO: return x.sign ? 1u << 3 : 1u << 4;
  case C_SNAN: return 1u << 8;
  case C_QNAN: return 1u << 9;
  default: return e ? (x.sign ? 1u << 1 : 1u << 6) : (x.sign ? 1u << 2 : 1u << 5);
  }
}

uint32_t fpn_to_int(fpn_fmt f, uint32_t a, unsigned bits, int is_signed, unsigned rm, uint32_t *flags) {
  unp x = unpack(f, a);
  uint32_t sign = is_nan(&x) ? 0 : x.sign; /* a NaN saturates as +overflow */
  uint64_t top = 1ull << (bits - 1), z = 0;
  uint64_t limit = is_signed ? (sign ? top : top - 1) : (sign ? 0 : 2 * top - 1);
  int big = is_nan(&x) || x.cls == C_INF, inexact = 0;
  if (x.cls == C_FIN) {
    if (x.exp >= 0) {
      big = x.exp + msb64(x.sig) >= 40;
      if (!big) z = x.sig << x.exp;
    } else { /* round off the -exp fraction bits */
      int d = -x.exp;
      uint64_t q = d < 64 ? x.sig >> d : 0;
      int half = d <= 64 ? (int)(x.sig >> (d - 1) & 1) : 0;
      int below = d >= 2 && (d > 64 || (x.sig & ((1ull << (d - 1)) - 1)) != 0);
      inexact = half || below;
      z = q + (uint64_t)round_up(rm, sign, q, half, below);
    }
  }
  if (big || z > limit) {
    *flags |= FFLAG_NV;
    return (uint32_t)(sign ? (is_signed ? 0 - top : 0) : limit);
  }
  if (inexact) *flags |= FFLAG_NX;
  return sign ? 0u - (uint32_t)z : (uint32_t)z;
}

uint32_t fpn_from_int(fpn_fmt f, uint32_t v, unsigned bits, int is_signed, unsigned rm, uint32_t *flags) {
  uint64_t m = bits >= 32 ? 0xffffffffull : (1ull << bits) - 1, u = v & m;
  uint32_t sign = is_signed && (u >> (bits - 1) & 1);
  if (sign) u = (0 - u) & m; /* the magnitude; the most negative is its own */
  if (!u) return 0;
  return round_pack(f, sign, 0, u, 0, rm, flags);
}
