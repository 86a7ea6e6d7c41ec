/* ISA 2025 64-bit compute format (seed 002 "自定义64位计算指令"): vd = vs2 op
 * vs1 per active lane with the modifiers of the second word. Size code 3,
 * reserved in the seed, is int8 for the integer forms (defined here: an
 * 8-bit source or destination is the low byte of the OPSEL half). The order of
 * the steps is defined here (docs/isa-extensions.md), the seed giving only
 * the fields:
 *   1. each source is read at VSSIZE bits: a 16-bit one from the half of
 *      its register OPSEL selects (bit 0 src1 = vs2, bit 1 src2 = vs1;
 *      0 low, 1 high), a 64-bit one from the even pair {v[n+1], v[n]};
 *   2. ABS, then NEG (bit 0 src1, bit 1 src2): the sign bit of a float,
 *      two's complement at the source width for an integer;
 *   3. the operation in the source format: integers wrap, floats round once
 *      to nearest even (min/max as RISC-V fmin/fmax: a NaN loses to a
 *      number, -0 < +0);
 *   4. OMOD x2, x4 or /2 in the source format (integer /2 truncates toward
 *      zero for the signed operations, shifts for minu/maxu);
 *   5. conversion to VDSIZE bits (integers sign-extend, zero-extend for
 *      minu/maxu, or truncate; floats widen exactly or round to nearest
 *      even) and the write: a 16-bit result into the half of vd OPSEL bit 2
 *      selects (the other half kept), a 64-bit one into the pair {vd+1, vd}.
 * A NaN result is the destination format's canonical quiet NaN. The 16-bit
 * float format is binary16, or bfloat16 for the .bf16 forms; fflags are not
 * updated (the seed names no exception behaviour for the format). */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "exec_ext.h"

enum { OP_ADD, OP_SUB, OP_MIN, OP_MAX, OP_MINU, OP_MAXU, OP_MUL };
enum { K_INT, K_IEEE, K_BF16 };

/* Exponent and fraction widths of the float formats by size code (16, 32). */
typedef struct { int ebits, mbits; } ffmt;
static ffmt fmt_of(int kind, unsigned size) {
  if (size == 32) return (ffmt){8, 23};
  return kind == K_BF16 ? (ffmt){8, 7} : (ffmt){5, 10};
}

/* A float of format f (bits v) as a double, exactly. */
static double widen(uint32_t v, ffmt f) {
  int bias = (1 << (f.ebits - 1)) - 1;
  uint32_t m = v & ((1u << f.mbits) - 1), e = (v >> f.mbits) & ((1u << f.ebits) - 1);
  int neg = (v >> (f.ebits + f.mbits)) & 1;
  double r;
  if (e == (1u << f.ebits) - 1) r = m ? NAN : INFINITY;
  else if (!e) r = ldexp((double)m, 1 - bias - f.mbits);
  else r = ldexp((double)(m | 1u << f.mbits), (int)e - bias - f.mbits);
  return neg ? -r : r;
}

/* A double rounded to format f, to nearest even (NaN: the canonical one). */
static uint32_t narrow(double d, ffmt f) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  uint32_t sign = (uint32_t)(b >> 63) << (f.ebits + f.mbits);
  uint32_t emask = (1u << f.ebits) - 1;
  int e = (int)((b >> 52) & 0x7ff);
  uint64_t m = b & ((1ull << 52) - 1);
  if (e == 0x7ff) return m ? (emask << f.mbits | 1u << (f.mbits - 1)) : sign | emask << f.mbits;
  if (!e) return sign; /* a double subnormal is below every target's smallest */
  int bias = (1 << (f.ebits - 1)) - 1;
  int te = e - 1023 + bias; /* the target's biased exponent */
  uint64_t sig = m | 1ull << 52;
  int shift = 52 - f.mbits + (te >= 1 ? 0 : 1 - te);
  if (shift > 54) return sign; /* below half the smallest subnormal */
  uint64_t q = sig >> shift, rem = sig & ((1ull << shift) - 1), half = 1ull << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  if (te < 1) return sign | (uint32_t)q; /* a carry into bit mbits makes the smallest normal */
  if (q >> (f.mbits + 1)) {
    q >>= 1;
    te++;
  }
  if (te >= (int)emask) return sign | emask << f.mbits;
  return sign | (uint32_t)te << f.mbits | ((uint32_t)q & ((1u << f.mbits) - 1));
}

/* The value of a float of `size` bits (raw bits v) as a double, and back. */
static double fget(uint64_t v, int kind, unsigned size) {
  if (size == 64) {
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
  }
  return widen((uint32_t)v, fmt_of(kind, size));
}
static uint64_t fput(double d, int kind, unsigned size) {
  if (size != 64) return narrow(d, fmt_of(kind, size));
  if (isnan(d)) return 0x7ff8000000000000ull;
  uint64_t v;
  memcpy(&v, &d, sizeof v);
  return v;
}

/* RISC-V fmin/fmax (minimumNumber/maximumNumber of IEEE 754-2019). */
static double fminmax(double a, double b, int max) {
  if (isnan(a)) return b;
  if (isnan(b)) return a;
  if (a == b && signbit(a) != signbit(b)) /* -0 < +0 */
    return (max ? !signbit(a) : signbit(a) != 0) ? a : b;
  return (max ? a > b : a < b) ? a : b;
}

static uint64_t mask_of(unsigned size) { return size == 64 ? ~0ull : (1ull << size) - 1; }
static int64_t sext_of(uint64_t v, unsigned size) {
  return size == 64 ? (int64_t)v : (int64_t)(v << (64 - size)) >> (64 - size);
}

/* One lane's result at the destination size (raw bits). */
static uint64_t lane_op(int kind, int op, uint64_t a, uint64_t b, unsigned ss, unsigned ds,
                        unsigned absb, unsigned negb, unsigned omod) {
  uint64_t sm = mask_of(ss), sgn = 1ull << (ss - 1);
  uint64_t src[2] = {a, b};
  for (int k = 0; k < 2; k++) { /* ABS before NEG */
    uint64_t v = src[k];
    if (kind != K_INT) {
      if (absb >> k & 1) v &= ~sgn;
      if (negb >> k & 1) v ^= sgn;
    } else {
      if ((absb >> k & 1) && (v & sgn)) v = (0 - v) & sm;
      if (negb >> k & 1) v = (0 - v) & sm;
    }
    src[k] = v;
  }
  if (kind == K_INT) {
    int uns = op == OP_MINU || op == OP_MAXU;
    int64_t x = sext_of(src[0], ss), y = sext_of(src[1], ss);
    uint64_t ux = src[0], uy = src[1], r;
    switch (op) {
    case OP_ADD: r = ux + uy; break;
    case OP_SUB: r = ux - uy; break;
    case OP_MUL: r = ux * uy; break;
    case OP_MIN: r = x < y ? ux : uy; break;
    case OP_MAX: r = x > y ? ux : uy; break;
    case OP_MINU: r = ux < uy ? ux : uy; break;
    default: r = ux > uy ? ux : uy; break;
    }
    r &= sm;
    if (omod == 1) r = (r << 1) & sm;
    else if (omod == 2) r = (r << 2) & sm;
    else if (omod == 3) r = uns ? r >> 1 : (uint64_t)(sext_of(r, ss) / 2) & sm;
    return (uns ? r : (uint64_t)sext_of(r, ss)) & mask_of(ds);
  }
  double x = fget(src[0], kind, ss), y = fget(src[1], kind, ss), r;
  switch (op) {
  case OP_ADD: r = x + y; break;
  case OP_SUB: r = x - y; break;
  case OP_MUL: r = x * y; break;
  default: r = fminmax(x, y, op == OP_MAX); break;
  }
  /* one rounding to the source format: for 16- and 32-bit sources the
   * double result is innocuous to round again (53 >= 2p + 2) */
  r = fget(fput(r, kind, ss), kind, ss);
  if (omod) r = fget(fput(r * (omod == 1 ? 2.0 : omod == 2 ? 4.0 : 0.5), kind, ss), kind, ss);
  return fput(r, kind, ds);
}

/* an 8-bit source is the low byte of the half OPSEL selects */
static uint64_t read_src(const vt_exec *x, unsigned reg, uint32_t i, unsigned size, unsigned hi) {
  if (size == 64) return get_vpair(x, reg, i);
  uint32_t v = x->w->v[reg][i];
  if (size == 32) return v;
  v = hi ? v >> 16 : v & 0xffff;
  return size == 8 ? v & 0xff : v;
}

/* size codes 0..3: 16, 32, 64 bits and (integer forms only) 8 */
static unsigned size_of(uint32_t code) { return code == 3 ? 8 : 16u << code; }

static int c64(vt_exec *x, const isa_inst *in, int kind, int op) {
  uint32_t h = in->hi;
  unsigned ss = size_of((h >> 20) & 3), ds = size_of((h >> 22) & 3);
  unsigned negb = (h >> 9) & 3, absb = (h >> 12) & 3, opsel = (h >> 15) & 7, omod = (h >> 18) & 3;
  if (ss == 64) {
    NEED_PAIR('v', in->rs2);
    NEED_PAIR('v', in->rs1);
  }
  if (ds == 64) NEED_PAIR('v', in->rd);
  int round = 0;
  if (kind != K_INT) {
    round = fegetround();
    fesetround(FE_TONEAREST); /* the host's mode is not the guest's */
  }
  uint32_t(*v)[VT_MAX_LANES] = x->w->v;
  FOR_LANES(x->emask, i) {
    uint64_t a = read_src(x, in->rs2, i, ss, opsel & 1), b = read_src(x, in->rs1, i, ss, opsel >> 1 & 1);
    uint64_t r = lane_op(kind, op, a, b, ss, ds, absb, negb, omod);
    if (ds <= 16) { /* into the half OPSEL bit 2 selects (an 8-bit result: its low byte) */
      unsigned sh = opsel & 4 ? 16 : 0;
      uint32_t m = (ds == 8 ? 0xffu : 0xffffu) << sh;
      v[in->rd][i] = (v[in->rd][i] & ~m) | (uint32_t)r << sh;
    } else {
      v[in->rd][i] = (uint32_t)r;
      if (ds == 64) v[in->rd + 1][i] = (uint32_t)(r >> 32);
    }
  }
  if (kind != K_INT) fesetround(round);
  x->npc = x->pc + 8;
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vadd64) { return c64(x, in, K_INT, OP_ADD); }
HANDLER(vsub64) { return c64(x, in, K_INT, OP_SUB); }
HANDLER(vminu64) { return c64(x, in, K_INT, OP_MINU); }
HANDLER(vmin64) { return c64(x, in, K_INT, OP_MIN); }
HANDLER(vmaxu64) { return c64(x, in, K_INT, OP_MAXU); }
HANDLER(vmax64) { return c64(x, in, K_INT, OP_MAX); }
HANDLER(vmul64) { return c64(x, in, K_INT, OP_MUL); }
HANDLER(vfadd64) { return c64(x, in, K_IEEE, OP_ADD); }
HANDLER(vfsub64) { return c64(x, in, K_IEEE, OP_SUB); }
HANDLER(vfmin64) { return c64(x, in, K_IEEE, OP_MIN); }
HANDLER(vfmax64) { return c64(x, in, K_IEEE, OP_MAX); }
HANDLER(vfmul64) { return c64(x, in, K_IEEE, OP_MUL); }
HANDLER(vfadd64_bf16) { return c64(x, in, K_BF16, OP_ADD); }
HANDLER(vfsub64_bf16) { return c64(x, in, K_BF16, OP_SUB); }
HANDLER(vfmin64_bf16) { return c64(x, in, K_BF16, OP_MIN); }
HANDLER(vfmax64_bf16) { return c64(x, in, K_BF16, OP_MAX); }
HANDLER(vfmul64_bf16) { return c64(x, in, K_BF16, OP_MUL); }
