/* Whole-register fast paths of vfadd/vfsub/vfmul/vfdiv/vfsqrt/vfexp: all n
 * lanes at once in host arithmetic, in loops without branches that the
 * compiler can vectorise. Valid only while the host rounds to nearest
 * without flushing subnormals (fp32_host_rne) and the guest's rm is RNE;
 * each returns 0 with NX (the only flag these lanes can raise) added to
 * *flags (flags NULL: not looked for, as when NX is raised already), or -1 when some lane is outside the proven domain (the caller
 * then runs the exact per-lane path on the unchanged sources; r[] is
 * scratch and must not overlap the sources). Why each is exact:
 * fp32_lanes.c and fp32_lanes_exp.c. */
#ifndef VT_FP32_LANES_H
#define VT_FP32_LANES_H

#include <stdint.h>

/* 1 if the host's SSE (or default) floating point rounds to nearest-even
 * and, with SSE, keeps subnormals (FTZ and DAZ off); inline, as every
 * vector fp instruction asks */
#if defined(__SSE__) && (defined(__GNUC__) || defined(__clang__))
/* MXCSR bits 13-14: the rounding of SSE arithmetic, which is what float and
 * double use here (fegetround reads the x87 control word); bit 15 flushes
 * subnormal results to zero (FTZ), bit 6 reads subnormal operands as zero
 * (DAZ), as -ffast-math start-up code sets them */
#define FP32_HOST_SEES_FLUSH 1
static inline int fp32_host_rne(void) { return (__builtin_ia32_stmxcsr() & 0xE040u) == 0; }
#else
#include <fenv.h>
#define FP32_HOST_SEES_FLUSH 0
static inline int fp32_host_rne(void) { return fegetround() == FE_TONEAREST; }
#endif

int fp32_lanes_add(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags);
int fp32_lanes_mul(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags);
int fp32_lanes_div(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *flags);
/* r = sqrt(a): every lane a positive normal number */
int fp32_lanes_sqrt(uint32_t *r, const uint32_t *a, unsigned n, uint32_t *flags);
/* r = fp32_exp(a) lane by lane with the flags fp32_exp raises, mostly
 * without calling the host's exp (fp32_lanes_exp.c); it takes every
 * register (-1 only for n > 32) */
int fp32_lanes_exp(uint32_t *r, const uint32_t *a, unsigned n, uint32_t *flags);
/* its double approximation of e^x for |x| < 87, within a relative 1.3838e-11
 * (for the tests and bench/check_exp) */
double fp32_exp_approx(double x);

#endif
