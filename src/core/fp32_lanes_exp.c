/* vfexp.v for a whole register (fp32_lanes.h): the reference's result is
 * (float)exp((double)x) with glibc's exp (fp32_exp). A call per lane costs
 * more than the rest of the instruction, so every lane first gets its own
 * double approximation y of e^x in branch-free loops the compiler
 * vectorises; a lane whose y could round to another binary32 than glibc's
 * exp does calls fp32_exp instead.
 *
 * The approximation, for |x| < 87 (e^x then a normal binary32), with the
 * host rounding to nearest (the caller checks fp32_host_rne):
 *   k = round(x / ln2) (|k| <= 126), by adding and subtracting 1.5 * 2^52;
 *   r = (x - k * LN2_HI) - k * LN2_LO, |r| < 0.3466: LN2_HI is ln2 to 40
 *     bits, so k * LN2_HI is exact and so is its difference with x (both
 *     multiples of 2^-40 below 1 in magnitude, or k = 0); the second step
 *     rounds once: |r - (x - k ln2)| < 2^-54.4 (LN2_LO misses ln2 - LN2_HI
 *     by < 2^-102);
 *   q = sum of r^i / i! for i <= 9, Horner's scheme in double;
 *   y = q * 2^k (exact: both normal).
 * Relative error of q against e^r, with R = 0.3467 and u = 2^-53:
 * truncation (Lagrange) <= e^R R^10 / 10!, Horner <= 18u/(1-18u) e^R
 * (Higham, Accuracy and Stability of Numerical Algorithms, 5.1), the
 * coefficients' rounding <= u e^R, all divided by e^r >= e^-R: together
 * < 1.3838e-11, and with r's error, eps < 1.3838e-11 (about 2^-36.1).
 * A product in Horner's scheme that underflows (r tiny) errs by < 2^-1022
 * absolute, far below that, whatever the host's flush-to-zero setting.
 *
 * glibc's exp errs by at most 1 ulp of its double result (glibc manual,
 * "Known Maximum Errors in Math Functions", from its libm-test-ulps files):
 * we allow G = 2^-51, two ulps. So |y - exp_glibc(x)| <= (eps + G) e^x <
 * (eps + G)(1 + eps) 2^53 ulp(y) < 124 639 ulp(y) < 2^17 ulp(y). If y is
 * farther than 2^17 of its ulps from every binary32 midpoint (the low 29
 * bits of its significand differ from 2^28 by more; the midpoints of the
 * neighbouring binades are farther still), glibc's result lies strictly on
 * the same side of every midpoint and rounds to the same binary32. That
 * leaves about one lane in 2^11 to fp32_exp.
 *
 * Flags as fp32_exp raises them: its results here are normal, so NX for
 * every nonzero x and nothing for +-0 (e^0 = 1 exactly; y is 1 too). */
#include "fp32_lanes.h"

#include <string.h>

#include "fp32.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

#define EXP_DOMAIN 0x42AE0000u /* 87.0f: |x| below it */
#define NEAR_ULPS (1u << 17)   /* y this close to a midpoint: ask glibc */

static const double INV_LN2 = 0x1.71547652b82fep0;
static const double LN2_HI = 0x1.62e42fefa4000p-1; /* ln2 rounded to 2^-40 */
static const double LN2_LO = -0x1.8432a1b0e2634p-43;
static const double ROUND_SHIFT = 0x1.8p52; /* t + it - it: t rounded to an integer */

static inline uint64_t f64_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

static inline double f64_of(uint64_t u) {
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

/* y = e^x to eps (above), for |x| < 87 */
static inline double exp_approx(double x) {
  double t = x * INV_LN2 + ROUND_SHIFT;
  double k = t - ROUND_SHIFT;
  double r = (x - k * LN2_HI) - k * LN2_LO;
  double q = 1.0 / 362880;
  q = q * r + 1.0 / 40320;
  q = q * r + 1.0 / 5040;
  q = q * r + 1.0 / 720;
  q = q * r + 1.0 / 120;
  q = q * r + 1.0 / 24;
  q = q * r + 1.0 / 6;
  q = q * r + 0.5;
  q = q * r + 1.0;
  q = q * r + 1.0;
  /* t's low bits hold k (two's complement); (k + 1023) << 52 is 2^k, the
   * shift drops t's exponent bits */
  return q * f64_of((f64_bits(t) + 1023u) << 52);
}

double fp32_exp_approx(double x) { return exp_approx(x); }

static inline int lanes_exp(uint32_t *restrict r, const uint32_t *a, unsigned n, uint32_t *flags) {
  uint32_t xs[32], redo[32], any_redo = 0, nx = 0;
  double y[32];
  /* lanes outside the domain (NaN and infinities included) compute e^0,
   * so the host sees no special value; doubles and 32-bit words in
   * separate loops, so that each vectorises */
  for (unsigned i = 0; i < n; i++) xs[i] = (a[i] & 0x7FFFFFFFu) < EXP_DOMAIN ? a[i] : 0;
  for (unsigned i = 0; i < n; i++) y[i] = exp_approx((double)fp32_host_f32(xs[i]));
  for (unsigned i = 0; i < n; i++) {
    uint32_t rest = (uint32_t)f64_bits(y[i]) & 0x1FFFFFFFu; /* below binary32's significand */
    redo[i] = (rest - ((1u << 28) - NEAR_ULPS) <= 2 * NEAR_ULPS) | (xs[i] != a[i]);
    any_redo |= redo[i];
    nx |= (xs[i] << 1) & (redo[i] - 1u); /* a kept lane: nonzero means NX */
    r[i] = fp32_bits((float)y[i]);
  }
  if (any_redo)
    for (unsigned i = 0; i < n; i++)
      if (redo[i]) r[i] = fp32_exp(a[i], flags); /* raises its own flags */
  if (nx) *flags |= FFLAG_NX;
  return 0;
}

/* a register of all 32 lanes, the common case, with a constant trip count */
int fp32_lanes_exp(uint32_t *r, const uint32_t *a, unsigned n, uint32_t *flags) {
  if (n > 32) return -1; /* more than a register (VT_MAX_LANES) */
  return n == 32 ? lanes_exp(r, a, 32, flags) : lanes_exp(r, a, n, flags);
}
