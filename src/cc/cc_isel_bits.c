/* Bit-manipulation builtins: clz, ctz, popcount, rotate, bitselect and
 * byte swaps, as the OpenCL functions and as the LLVM intrinsics the
 * optimiser forms (llvm.ctlz, llvm.cttz, llvm.ctpop, llvm.fshl/fshr,
 * llvm.bswap). The baseline ISA has no bit-counting instructions (no Zbb),
 * so each is a short branch-free sequence; narrow integers stay
 * zero-extended in their 32-bit registers. */
#include <string.h>

#include "cc_internal.h"

static int li(cc_fn *f, int32_t v) { return cc_xk(f, 0, v); }

/* x & m for a 32-bit mask m (a scalar constant, used through .vx) */
static int and_mask(cc_fn *f, int vec, int x, int32_t m) {
  if (m >= -16 && m <= 15) return cc_xi(f, vec, CC_XAND, -1, x, m);
  if (!vec && m >= -2048 && m <= 2047) return cc_xi(f, 0, CC_XAND, -1, x, m);
  int k = li(f, m), d = cc_new_vreg(f, vec ? CC_V : CC_S);
  if (k < 0 || d < 0 || x < 0) return -1;
  return CC_EMIT(f, vec ? "vand.vx %0, %1, %2" : "and %0, %1, %2", 1, cc_r(d), cc_r(x), cc_r(k)) ? -1 : d;
}

int cc_bits_popcount(cc_fn *f, int vec, int x) {
  int t = cc_x3(f, vec, CC_XSUB, -1, x, and_mask(f, vec, cc_xi(f, vec, CC_XSRL, -1, x, 1), 0x55555555));
  t = cc_x3(f, vec, CC_XADD, -1, and_mask(f, vec, t, 0x33333333),
            and_mask(f, vec, cc_xi(f, vec, CC_XSRL, -1, t, 2), 0x33333333));
  t = and_mask(f, vec, cc_x3(f, vec, CC_XADD, -1, t, cc_xi(f, vec, CC_XSRL, -1, t, 4)), 0x0f0f0f0f);
  t = cc_x3(f, vec, CC_XADD, -1, t, cc_xi(f, vec, CC_XSRL, -1, t, 8));
  t = cc_x3(f, vec, CC_XADD, -1, t, cc_xi(f, vec, CC_XSRL, -1, t, 16));
  return cc_xi(f, vec, CC_XAND, -1, t, 63);
}

/* leading zeros of a 32-bit word: 32 - popcount of the smeared word (32 for 0) */
int cc_bits_clz(cc_fn *f, int vec, int x) {
  for (int s = 1; s <= 16; s *= 2) x = cc_x3(f, vec, CC_XOR, -1, x, cc_xi(f, vec, CC_XSRL, -1, x, s));
  int p = cc_bits_popcount(f, vec, x), d = cc_new_vreg(f, vec ? CC_V : CC_S), k = li(f, 32);
  if (p < 0 || d < 0 || k < 0) return -1;
  if (vec) return CC_EMIT(f, "vrsub.vx %0, %1, %2", 1, cc_r(d), cc_r(p), cc_r(k)) ? -1 : d;
  return CC_EMIT(f, "sub %0, %1, %2", 1, cc_r(d), cc_r(k), cc_r(p)) ? -1 : d;
}

/* trailing zeros: popcount(~x & (x - 1)), 32 for 0 */
int cc_bits_ctz(cc_fn *f, int vec, int x) {
  int t = cc_x3(f, vec, CC_XAND, -1, cc_xi(f, vec, CC_XXOR, -1, x, -1), cc_xi(f, vec, CC_XADD, -1, x, -1));
  return cc_bits_popcount(f, vec, t);
}

int cc_bits_bswap32(cc_fn *f, int vec, int x) {
  int a = cc_xi(f, vec, CC_XSRL, -1, x, 24), b = cc_xi(f, vec, CC_XSLL, -1, x, 24);
  int c = and_mask(f, vec, cc_xi(f, vec, CC_XSRL, -1, x, 8), 0xff00);
  int d = and_mask(f, vec, cc_xi(f, vec, CC_XSLL, -1, x, 8), 0xff0000);
  return cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XOR, -1, a, b), cc_x3(f, vec, CC_XOR, -1, c, d));
}

/* funnel shifts of w-bit values: fshl(a, b, s) = top w bits of (a:b) << (s mod w),
 * fshr = bottom w bits of (a:b) >> (s mod w); rotate is fshl(x, x, s) */
static int funnel(cc_fn *f, int vec, int left, int a, int b, int s, int w) {
  if (w < 32) { /* a:b fits one register */
    int ab = cc_x3(f, vec, CC_XOR, -1, cc_xi(f, vec, CC_XSLL, -1, a, w), b), sm = cc_xi(f, vec, CC_XAND, -1, s, w - 1);
    int r = left ? cc_xi(f, vec, CC_XSRL, -1, cc_x3(f, vec, CC_XSLL, -1, ab, sm), w) : cc_x3(f, vec, CC_XSRL, -1, ab, sm);
    return r < 0 ? -1 : cc_mask_to(f, r, vec, w);
  }
  /* the word moving across goes one step and then 31 - s more, so s = 0 moves nothing */
  int inv = cc_xi(f, vec, CC_XXOR, -1, s, 31);
  if (left)
    return cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XSLL, -1, a, s),
                 cc_x3(f, vec, CC_XSRL, -1, cc_xi(f, vec, CC_XSRL, -1, b, 1), inv));
  return cc_x3(f, vec, CC_XOR, -1, cc_x3(f, vec, CC_XSRL, -1, b, s),
               cc_x3(f, vec, CC_XSLL, -1, cc_xi(f, vec, CC_XSLL, -1, a, 1), inv));
}

enum { K_CLZ, K_CTZ, K_POP, K_ROTL, K_FSHL, K_FSHR, K_BSWAP, K_BITSEL };

/* the OpenCL name's argument letters: (un)signed char, short, int, float */
static int cl_name(const char *name, const char *base, int nargs) {
  size_t l = strlen(base);
  if (strncmp(name, base, l)) return 0;
  const char *t = name + l;
  if (strlen(t) != (size_t)nargs || !strchr("chstijf", t[0]) || (t[0] == 'f' && nargs != 3)) return 0;
  for (int i = 1; i < nargs; i++)
    if (t[i] != t[0]) return 0;
  return 1;
}

static int kind_of(const char *name) {
  static const struct {
    const char *p;
    int kind;
  } intr[] = {{"llvm.ctlz.i", K_CLZ}, {"llvm.cttz.i", K_CTZ}, {"llvm.ctpop.i", K_POP}, {"llvm.fshl.i", K_FSHL},
              {"llvm.fshr.i", K_FSHR}, {"llvm.bswap.i", K_BSWAP}};
  for (size_t i = 0; i < sizeof intr / sizeof *intr; i++)
    if (!strncmp(name, intr[i].p, strlen(intr[i].p))) return intr[i].kind;
  if (cl_name(name, "_Z3clz", 1)) return K_CLZ;
  if (cl_name(name, "_Z3ctz", 1)) return K_CTZ;
  if (cl_name(name, "_Z8popcount", 1)) return K_POP;
  if (cl_name(name, "_Z6rotate", 2)) return K_ROTL;
  if (cl_name(name, "_Z9bitselect", 3)) return K_BITSEL;
  return -1;
}

int cc_bits_known(const char *name) { return kind_of(name) >= 0; }

int cc_select_bits_call(cc_fn *f, LLVMValueRef call, const char *name) {
  int kind = kind_of(name), k = cc_val_num(f, call);
  if (kind < 0) return -1;
  int w = cc_int_width(LLVMTypeOf(call)), vec = f->div[k];
  if (!w || (kind == K_BSWAP && w != 16 && w != 32)) {
    cc_unsupported(f, call, "the builtin function '%s' on this type", name);
    return -2;
  }
  int n = (int)LLVMGetNumArgOperands(call), a[3] = {-1, -1, -1};
  for (int i = 0; i < n && i < 3; i++)
    if ((a[i] = cc_operand(f, LLVMGetOperand(call, (unsigned)i), vec, 0)) < 0) return -2;
  int r;
  switch (kind) {
  case K_CLZ: /* the word's count less the 32 - w zero bits above a narrow value */
    r = cc_bits_clz(f, vec, a[0]);
    if (w < 32) r = cc_xi(f, vec, CC_XADD, -1, r, w - 32);
    break;
  case K_CTZ: /* bit w set above a narrow value: w for 0 */
    r = cc_bits_ctz(f, vec, w < 32 ? cc_x3(f, vec, CC_XOR, -1, a[0], cc_xk(f, vec, 1 << w)) : a[0]);
    break;
  case K_POP: r = cc_bits_popcount(f, vec, a[0]); break;
  case K_ROTL: r = funnel(f, vec, 1, a[0], a[0], a[1], w); break;
  case K_FSHL: r = funnel(f, vec, 1, a[0], a[1], a[2], w); break;
  case K_FSHR: r = funnel(f, vec, 0, a[0], a[1], a[2], w); break;
  case K_BSWAP:
    r = cc_bits_bswap32(f, vec, a[0]);
    if (w == 16) r = cc_xi(f, vec, CC_XSRL, -1, r, 16);
    break;
  default: /* bitselect(a, b, c): bits of b where c is set, else of a */
    r = cc_x3(f, vec, CC_XXOR, -1, a[0], cc_x3(f, vec, CC_XAND, -1, cc_x3(f, vec, CC_XXOR, -1, a[0], a[1]), a[2]));
  }
  if (r < 0) return -2;
  f->vreg[k] = r;
  return 0;
}
