/* ISA 2025 MMA (seed 002 "自定义矩阵乘加指令"): D = A x B + C computed by the
 * whole warp, for the integer types (INT8, INT4, Binary -> INT32) and
 * FP32, FP16 (-> FP16 or FP32), BF16 (-> FP32) and FP8 (-> INT32).
 * Fragment layout (defined here, docs/isa-extensions.md): a matrix is a
 * sequence of elements (A: row-major, or column-major with AL = 1; B:
 * column-major, or row-major with BL = 1; C/D row-major), packed from bit 0
 * up into 32-bit words (32 / element bits per word), and word w lives in
 * register base + w / NT, lane w % NT, NT being the warp's thread count.
 * Integers: signed INT8/INT4, Binary products are AND summed by popcount,
 * sums wrap modulo 2^32. Floats: binary32 fused multiply-adds in k order,
 * round to nearest even; FP16 C is widened exactly and D rounded once to
 * FP16 at the end. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>

#include "exec_mma.h"


uint32_t mma_f16_to_f32(uint32_t h) {
  uint32_t s = (h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e == 0x1f) return s | 0x7f800000u | m << 13;
  if (e) return s | (e + 112) << 23 | m << 13;
  if (!m) return s;
  int x = 113; /* subnormal: normalise */
  while (!(m & 0x400)) m <<= 1, x--;
  return s | (uint32_t)x << 23 | (m & 0x3ff) << 13;
}

/* binary32 -> binary16, round to nearest even (NaNs stay quiet NaNs) */
static uint32_t f32_to_f16(uint32_t f) {
  uint32_t s = (f >> 16) & 0x8000u, m = f & 0x7fffff;
  int e = (int)((f >> 23) & 0xff);
  if (e == 0xff) return s | 0x7c00u | (m ? 0x200u | m >> 13 : 0);
  int ne = e - 112;
  if (ne >= 0x1f) return s | 0x7c00u;
  if (ne <= 0) {
    if (ne < -10) return s;
    m |= 0x800000u;
    unsigned sh = (unsigned)(14 - ne);
    uint32_t hm = m >> sh, rem = m & ((1u << sh) - 1), half = 1u << (sh - 1);
    if (rem > half || (rem == half && (hm & 1))) hm++;
    return s | hm; /* a carry makes the smallest normal */
  }
  uint32_t hm = m >> 13, rem = m & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (hm & 1))) {
    if (++hm == 0x400) {
      hm = 0;
      if (++ne >= 0x1f) return s | 0x7c00u;
    }
  }
  return s | (uint32_t)ne << 10 | hm;
}


/* the raw bits of element idx of a packed group */
uint32_t mma_raw(const vt_warp *w, unsigned base, uint32_t nt, unsigned idx, unsigned bits) {
  unsigned per = 32 / bits, word = idx / per, sh = (idx % per) * bits;
  uint32_t v = w->v[base + word / nt][word % nt];
  return bits == 32 ? v : (v >> sh) & ((1u << bits) - 1);
}

int32_t mma_ival(uint32_t r, unsigned bits) {
  uint32_t sign = 1u << (bits - 1);
  return (int32_t)((r ^ sign) - sign);
}

/* A small float (sign, e exponent bits of the given bias, m fraction bits)
 * as a float, exactly. FP8 E4M3 (OCP): NaN is S.1111.111, no infinity;
 * E5M2: IEEE-like infinities and NaNs; FP6/FP4 (OCP MX) and E3M0 (bias 3,
 * defined here): every pattern a number, E3M0's exponent 0 is zero. */
static float minifloat(uint32_t r, unsigned type) {
  static const struct { unsigned e, m; int bias; } f[] = {
      [T_E4M3] = {4, 3, 7}, [T_E5M2] = {5, 2, 15}, [T_E3M2] = {3, 2, 3},
      [T_E2M3] = {2, 3, 1}, [T_E2M1] = {2, 1, 1},  [T_E3M0] = {3, 0, 3}};
  unsigned eb = f[type].e, mb = f[type].m;
  uint32_t m = r & ((1u << mb) - 1), e = (r >> mb) & ((1u << eb) - 1);
  float sign = (r >> (eb + mb)) & 1 ? -1.0f : 1.0f;
  if (type == T_E4M3 && e == 15 && m == 7) return NAN;
  if (type == T_E5M2 && e == 31) return m ? NAN : sign * INFINITY;
  if (!e) return sign * ldexpf((float)m, 1 - f[type].bias - (int)mb);
  return sign * ldexpf((float)(m | 1u << mb), (int)e - f[type].bias - (int)mb);
}

float mma_fval(uint32_t r, unsigned type) {
  if (type >= T_E4M3) return minifloat(r, type);
  if (type == T_F16) return fp32_host_f32(mma_f16_to_f32(r));
  if (type == T_BF16) return fp32_host_f32(r << 16);
  return fp32_host_f32(r);
}

/* Where the operands live and how results round: the 32-bit MMA has C and
 * D in one group, rounds to nearest even and wraps; MMA64 names C apart
 * and takes its RD field. */
typedef struct {
  unsigned d, c, a, b, al, bl;
  int fmode; /* FE_* rounding of the float steps */
  int sat;   /* integer D saturates instead of wrapping */
} mma_ops;

/* An FP8 element as (-1)^neg * sig * 2^exp; 0 for a number, 1 for an
 * infinity (E5M2), 2 for a NaN */
static int fp8_parts(uint32_t r, unsigned type, int *neg, uint32_t *sig, int *exp) {
  unsigned mb = type == T_E4M3 ? 3 : 2;
  int bias = type == T_E4M3 ? 7 : 15;
  uint32_t m = r & ((1u << mb) - 1), e = (r & 0x7f) >> mb;
  *neg = (r >> 7) & 1;
  if (type == T_E4M3 && e == 15 && m == 7) return 2;
  if (type == T_E5M2 && e == 31) return m ? 2 : 1;
  *sig = e ? m | 1u << mb : m;
  *exp = (e ? (int)e : 1) - bias - (int)mb;
  return 0;
}

/* C + sum of A[i][k] * B[k][j] over FP8 elements, formed exactly and
 * converted once to INT32 as fcvt.w.s with rm = rne converts: to nearest,
 * ties to even, saturating, a NaN (also inf * 0, inf - inf) giving
 * INT32_MAX. Products have 8-bit significands and exponents from -32
 * (E5M2: 2^-16 * 2^-16) to 26, so the sum is an integer part in int64 plus
 * a fraction in units of 2^-32, both far from overflow for k = 32. */
static uint32_t fp8_dot_int(const vt_warp *w, const mma_ops *o, mma_shape s, uint32_t nt, unsigned i,
                            unsigned j, int32_t c) {
  int64_t ip = c, fr = 0;
  int nan = 0, pinf = 0, ninf = 0;
  for (unsigned k = 0; k < s.k; k++) {
    uint32_t a = mma_raw(w, o->a, nt, o->al ? k * s.m + i : i * s.k + k, 8);
    uint32_t b = mma_raw(w, o->b, nt, o->bl ? k * s.n + j : j * s.k + k, 8);
    int na, nb, ea = 0, eb = 0;
    uint32_t sa = 0, sb = 0;
    int ka = fp8_parts(a, s.type, &na, &sa, &ea), kb = fp8_parts(b, s.type, &nb, &sb, &eb);
    if (ka == 2 || kb == 2 || (ka == 1 && !sb && !kb) || (kb == 1 && !sa && !ka)) {
      nan = 1;
    } else if (ka || kb) {
      *(na != nb ? &ninf : &pinf) = 1;
    } else {
      int64_t p = (int64_t)sa * sb, e = ea + eb;
      if (na != nb) p = -p;
      if (e >= 0) ip += p * ((int64_t)1 << e);
      else fr += p * ((int64_t)1 << (e + 32));
    }
  }
  if (nan || (pinf && ninf) || pinf) return (uint32_t)INT32_MAX;
  if (ninf) return (uint32_t)INT32_MIN;
  const int64_t one = (int64_t)1 << 32;
  int64_t q = fr >= 0 ? fr / one : -((-fr + one - 1) / one); /* floor */
  uint64_t f = (uint64_t)(fr - q * one);                      /* 0 .. 2^32 - 1 */
  ip += q;
  if (f > (uint64_t)one / 2 || (f == (uint64_t)one / 2 && (ip & 1))) ip++;
  return (uint32_t)(ip > INT32_MAX ? INT32_MAX : ip < INT32_MIN ? INT32_MIN : ip);
}

/* binary32 -> binary16 in rounding mode fmode: the nearest-even result,
 * moved one step when it lies on the wrong side of f for a directed mode
 * (binary16 bit patterns are monotonic in magnitude) */
uint32_t mma_f32_to_f16_mode(uint32_t f, int fmode) {
  uint32_t h = f32_to_f16(f);
  float v = fp32_host_f32(f), hv = fp32_host_f32(mma_f16_to_f32(h));
  if (fmode == FE_TONEAREST || isnan(v) || hv == v) return h;
  int neg = (h & 0x8000u) != 0; /* the nearest-even result keeps the sign of f */
  if (fmode == FE_TOWARDZERO) return fabsf(hv) > fabsf(v) ? h - 1 : h;
  if (fmode == FE_DOWNWARD && hv > v) return neg ? h + 1 : h - 1;
  if (fmode == FE_UPWARD && hv < v) return neg ? h - 1 : h + 1;
  return h;
}

static int mma_run(vt_exec *x, const mma_ops *o, mma_shape s, const char *what) {
  vt_warp *w = x->w;
  uint32_t nt = w->csr_custom[CSR_NUMT - 0x800];
  if (w->mask != lanes_mask(nt)) {
    vt_fail(x->e, VT_ERR_ILLEGAL, "%s needs every thread of the warp active (mask 0x%x of %u threads)",
            what, w->mask, nt);
    return -1;
  }
  unsigned regs_a = (s.m * s.k / (32 / s.bits) + nt - 1) / nt;
  unsigned regs_b = (s.k * s.n / (32 / s.bits) + nt - 1) / nt;
  unsigned cwords = s.m * s.n / (32 / s.cbits), regs_c = (cwords + nt - 1) / nt;
  if (o->a + regs_a > 256 || o->b + regs_b > 256 || o->c + regs_c > 256 || o->d + regs_c > 256) {
    vt_fail(x->e, VT_ERR_ILLEGAL,
            "%s register groups run past v255 (A v%u+%u, B v%u+%u, C v%u+%u, D v%u+%u registers)", what,
            o->a, regs_a, o->b, regs_b, o->c, regs_c, o->d, regs_c);
    return -1;
  }
  int fp = s.type >= T_F32 && !s.fp8int, round = fegetround();
  if (fp) fesetround(o->fmode); /* the host's mode is not the guest's */
  uint32_t d[16 * 16]; /* the largest C/D of the table, one element each */
  for (unsigned i = 0; i < s.m; i++)
    for (unsigned j = 0; j < s.n; j++) {
      unsigned ci = i * s.n + j;
      uint32_t c = mma_raw(w, o->c, nt, ci, s.cbits);
      int64_t acc = (int32_t)c;
      float facc = s.cbits == 16 ? fp32_host_f32(mma_f16_to_f32(c)) : fp32_host_f32(c);
      if (s.fp8int) {
        d[ci] = fp8_dot_int(w, o, s, nt, i, j, (int32_t)c);
        continue;
      }
      for (unsigned k = 0; k < s.k; k++) {
        uint32_t a = mma_raw(w, o->a, nt, o->al ? k * s.m + i : i * s.k + k, s.bits);
        uint32_t b = mma_raw(w, o->b, nt, o->bl ? k * s.n + j : j * s.k + k, s.bits);
        if (s.type == T_BIN) acc += a & b;
        else if (s.type == T_INT) acc += (int64_t)mma_ival(a, s.bits) * mma_ival(b, s.bits);
        else facc = fmaf(mma_fval(a, s.type), mma_fval(b, s.type), facc);
      }
      if (!fp && o->sat) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
      d[ci] = !fp ? (uint32_t)acc : s.cbits == 16 ? mma_f32_to_f16_mode(fp32_bits(facc), o->fmode) : fp32_bits(facc);
    }
  if (fp) fesetround(round);
  unsigned per = 32 / s.cbits;
  for (unsigned wd = 0; wd < cwords; wd++) {
    uint32_t v = 0;
    for (unsigned e = 0; e < per; e++) v |= d[wd * per + e] << (e * s.cbits);
    w->v[o->d + wd / nt][wd % nt] = v;
  }
  for (unsigned r = 0; r < regs_c; r++) trace_vreg(x, o->d + r);
  return 0;
}

static int mma(vt_exec *x, const isa_inst *in, mma_shape s) {
  mma_ops o = {in->rd, in->rd, in->rs1, in->rs2, (in->word >> 14) & 1, (in->word >> 13) & 1,
               FE_TONEAREST, 0};
  return mma_run(x, &o, s, "mma");
}

int mma64_fmode(unsigned rd) {
  static const int modes[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
  return modes[rd & 3];
}

/* MMA64: RD is the rounding of float C/D (00 to nearest even, 01 toward
 * zero, 10 down, 11 up) or, for INT32, 00 saturate and 01 wrap */
static int mma64(vt_exec *x, const isa_inst *in, mma_shape s) {
  unsigned rd = (in->word >> 18) & 3;
  mma_ops o = {in->rd, in->rs3, in->rs1, in->rs2, (in->hi >> 8) & 1, (in->hi >> 7) & 1, mma64_fmode(rd), rd == 0};
  int rc = mma_run(x, &o, s, "mma64");
  x->npc = x->pc + 8;
  return rc;
}

#define SHAPE(M, N, K, TY, BI, CB) .m = M, .n = N, .k = K, .type = TY, .bits = BI, .cbits = CB
#define MMA(n, ...) \
  HANDLER(n) { return mma(x, in, (mma_shape){SHAPE(__VA_ARGS__)}); }
/* FP8 A/B into INT32 C/D */
#define MMA_FP8(n, ...) \
  HANDLER(n) { return mma(x, in, (mma_shape){SHAPE(__VA_ARGS__), .fp8int = 1}); }
MMA(mma_m8n8k16_s8, 8, 8, 16, T_INT, 8, 32)
MMA(mma_m16n16k16_s8, 16, 16, 16, T_INT, 8, 32)
MMA(mma_m8n8k32_s4, 8, 8, 32, T_INT, 4, 32)
MMA(mma_m16n8k32_s4, 16, 8, 32, T_INT, 4, 32)
MMA(mma_m16n8k64_s4, 16, 8, 64, T_INT, 4, 32)
MMA(mma_m8n8k128_b1, 8, 8, 128, T_BIN, 1, 32)
MMA_FP8(mma_m16n8k32_e4m3, 16, 8, 32, T_E4M3, 8, 32)
MMA_FP8(mma_m16n8k32_e5m2, 16, 8, 32, T_E5M2, 8, 32)
MMA(mma_m8n8k8_f32, 8, 8, 8, T_F32, 32, 32)
MMA(mma_m16n8k8_f32, 16, 8, 8, T_F32, 32, 32)
MMA(mma_m16n8k16_f32, 16, 8, 16, T_F32, 32, 32)
MMA(mma_m8n8k8_f16, 8, 8, 8, T_F16, 16, 16)
MMA(mma_m16n8k8_f16, 16, 8, 8, T_F16, 16, 16)
MMA(mma_m16n8k16_f16, 16, 8, 16, T_F16, 16, 16)
MMA(mma_m8n8k8_f16_f32, 8, 8, 8, T_F16, 16, 32)
MMA(mma_m16n8k8_f16_f32, 16, 8, 8, T_F16, 16, 32)
MMA(mma_m16n8k16_f16_f32, 16, 8, 16, T_F16, 16, 32)
MMA(mma_m8n8k8_bf16, 8, 8, 8, T_BF16, 16, 32)
MMA(mma_m16n8k8_bf16, 16, 8, 8, T_BF16, 16, 32)
MMA(mma_m16n8k16_bf16, 16, 8, 16, T_BF16, 16, 32)

#define MMA64(n, ...)                                                \
  HANDLER(n) { return mma64(x, in, (mma_shape){SHAPE(__VA_ARGS__)}); }
MMA64(mma64_m8n8k8_f32, 8, 8, 8, T_F32, 32, 32)
MMA64(mma64_m16n8k8_f32, 16, 8, 8, T_F32, 32, 32)
MMA64(mma64_m16n8k16_f32, 16, 8, 16, T_F32, 32, 32)
MMA64(mma64_m8n8k8_f16, 8, 8, 8, T_F16, 16, 16)
MMA64(mma64_m16n8k8_f16, 16, 8, 8, T_F16, 16, 16)
MMA64(mma64_m16n8k16_f16, 16, 8, 16, T_F16, 16, 16)
MMA64(mma64_m8n8k8_f16_f32, 8, 8, 8, T_F16, 16, 32)
MMA64(mma64_m16n8k8_f16_f32, 16, 8, 8, T_F16, 16, 32)
MMA64(mma64_m16n8k16_f16_f32, 16, 8, 16, T_F16, 16, 32)
MMA64(mma64_m8n8k8_bf16, 8, 8, 8, T_BF16, 16, 32)
MMA64(mma64_m16n8k8_bf16, 16, 8, 8, T_BF16, 16, 32)
MMA64(mma64_m16n8k16_bf16, 16, 8, 16, T_BF16, 16, 32)
MMA64(mma64_m16n8k32_e4m3, 16, 8, 32, T_E4M3, 8, 32)
MMA64(mma64_m16n8k32_e5m2, 16, 8, 32, T_E5M2, 8, 32)
MMA64(mma64_m8n8k16_s8, 8, 8, 16, T_INT, 8, 32)
MMA64(mma64_m16n16k16_s8, 16, 16, 16, T_INT, 8, 32)
MMA64(mma64_m8n8k32_s4, 8, 8, 32, T_INT, 4, 32)
MMA64(mma64_m16n8k32_s4, 16, 8, 32, T_INT, 4, 32)
MMA64(mma64_m16n8k64_s4, 16, 8, 64, T_INT, 4, 32)
MMA64(mma64_m8n8k128_b1, 8, 8, 128, T_BIN, 1, 32)
MMA64(mma64_m16n8k32_e3m2, 16, 8, 32, T_E3M2, 8, 32)
MMA64(mma64_m16n8k32_e2m3, 16, 8, 32, T_E2M3, 8, 32)
MMA64(mma64_m16n8k32_e2m1, 16, 8, 32, T_E2M1, 8, 32)
MMA64(mma64_m16n8k32_e3m0, 16, 8, 32, T_E3M0, 8, 32)
