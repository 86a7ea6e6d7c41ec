/* ISA 2025 MMA (seed 002 "自定义矩阵乘加指令"): D = A x B + C computed by the
 * whole warp, for the integer types (INT8, INT4, Binary -> INT32) and
 * FP32, FP16 (-> FP16 or FP32) and BF16 (-> FP32).
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

#include "exec_ext.h"

enum { T_INT, T_BIN, T_F32, T_F16, T_BF16 };

typedef struct {
  unsigned m, n, k;
  unsigned type, bits; /* A/B element type and width */
  unsigned cbits;      /* C/D element width: 32, or 16 for FP16 */
} mma_shape;

static uint32_t f16_to_f32(uint32_t h) {
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

static float as_float(uint32_t u) {
  float f;
  memcpy(&f, &u, sizeof f);
  return f;
}
static uint32_t as_bits(float f) {
  uint32_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

/* the raw bits of element idx of a packed group */
static uint32_t raw(const vt_warp *w, unsigned base, uint32_t nt, unsigned idx, unsigned bits) {
  unsigned per = 32 / bits, word = idx / per, sh = (idx % per) * bits;
  uint32_t v = w->v[base + word / nt][word % nt];
  return bits == 32 ? v : (v >> sh) & ((1u << bits) - 1);
}

static int32_t ival(uint32_t r, unsigned bits) {
  uint32_t sign = 1u << (bits - 1);
  return (int32_t)((r ^ sign) - sign);
}

static float fval(uint32_t r, unsigned type) {
  if (type == T_F16) return as_float(f16_to_f32(r));
  if (type == T_BF16) return as_float(r << 16);
  return as_float(r);
}

static int mma(vt_exec *x, const isa_inst *in, mma_shape s) {
  vt_warp *w = x->w;
  uint32_t nt = w->csr_custom[CSR_NUMT - 0x800];
  if (w->mask != lanes_mask(nt)) {
    vt_fail(x->e, VT_ERR_ILLEGAL, "mma needs every thread of the warp active (mask 0x%x of %u threads)",
            w->mask, nt);
    return -1;
  }
  unsigned al = (in->word >> 14) & 1, bl = (in->word >> 13) & 1;
  unsigned regs_a = (s.m * s.k / (32 / s.bits) + nt - 1) / nt;
  unsigned regs_b = (s.k * s.n / (32 / s.bits) + nt - 1) / nt;
  unsigned cwords = s.m * s.n / (32 / s.cbits), regs_c = (cwords + nt - 1) / nt;
  if (in->rs1 + regs_a > 256 || in->rs2 + regs_b > 256 || in->rd + regs_c > 256) {
    vt_fail(x->e, VT_ERR_ILLEGAL,
            "mma register groups run past v255 (A v%u+%u, B v%u+%u, C/D v%u+%u registers)", in->rs1,
            regs_a, in->rs2, regs_b, in->rd, regs_c);
    return -1;
  }
  int fp = s.type >= T_F32, round = fegetround();
  if (fp) fesetround(FE_TONEAREST); /* the host's mode is not the guest's */
  uint32_t d[16 * 16]; /* the largest C/D of the table, one element each */
  for (unsigned i = 0; i < s.m; i++)
    for (unsigned j = 0; j < s.n; j++) {
      unsigned ci = i * s.n + j;
      uint32_t c = raw(w, in->rd, nt, ci, s.cbits);
      uint32_t acc = 0;
      float facc = s.cbits == 16 ? as_float(f16_to_f32(c)) : as_float(c);
      for (unsigned k = 0; k < s.k; k++) {
        uint32_t a = raw(w, in->rs1, nt, al ? k * s.m + i : i * s.k + k, s.bits);
        uint32_t b = raw(w, in->rs2, nt, bl ? k * s.n + j : j * s.k + k, s.bits);
        if (s.type == T_BIN) acc += a & b;
        else if (s.type == T_INT) acc += (uint32_t)ival(a, s.bits) * (uint32_t)ival(b, s.bits);
        else facc = fmaf(fval(a, s.type), fval(b, s.type), facc);
      }
      d[ci] = !fp ? c + acc : s.cbits == 16 ? f32_to_f16(as_bits(facc)) : as_bits(facc);
    }
  if (fp) fesetround(round);
  unsigned per = 32 / s.cbits;
  for (unsigned wd = 0; wd < cwords; wd++) {
    uint32_t v = 0;
    for (unsigned e = 0; e < per; e++) v |= d[wd * per + e] << (e * s.cbits);
    w->v[in->rd + wd / nt][wd % nt] = v;
  }
  for (unsigned r = 0; r < regs_c; r++) trace_vreg(x, in->rd + r);
  return 0;
}

#define MMA(n, m, nn, k, type, bits, cbits)                                                  \
  HANDLER(n) { return mma(x, in, (mma_shape){m, nn, k, type, bits, cbits}); }
MMA(mma_m8n8k16_s8, 8, 8, 16, T_INT, 8, 32)
MMA(mma_m16n16k16_s8, 16, 16, 16, T_INT, 8, 32)
MMA(mma_m8n8k32_s4, 8, 8, 32, T_INT, 4, 32)
MMA(mma_m16n8k32_s4, 16, 8, 32, T_INT, 4, 32)
MMA(mma_m16n8k64_s4, 16, 8, 64, T_INT, 4, 32)
MMA(mma_m8n8k128_b1, 8, 8, 128, T_BIN, 1, 32)
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
