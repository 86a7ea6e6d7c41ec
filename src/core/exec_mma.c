/* ISA 2025 MMA, integer types (seed 002 "自定义矩阵乘加指令"): D = A x B + C
 * with INT8, INT4 or Binary A/B and INT32 C/D, computed by the whole warp.
 * Fragment layout (defined here, docs/isa-extensions.md): a matrix is a
 * sequence of elements (A: row-major, or column-major with AL = 1; B:
 * column-major, or row-major with BL = 1; C/D row-major), packed from bit 0
 * up into 32-bit words (4 INT8, 8 INT4 or 32 Binary elements, one INT32),
 * and word w lives in register base + w / NT, lane w % NT, NT being the
 * warp's thread count. Binary products are AND, summed by popcount. Sums
 * wrap modulo 2^32. */
#include <stdio.h>

#include "exec_ext.h"

typedef struct {
  unsigned m, n, k, bits; /* bits per A/B element: 8, 4 or 1 */
} mma_shape;

static int32_t element(const vt_warp *w, unsigned base, uint32_t nt, unsigned idx, unsigned bits) {
  unsigned per = 32 / bits, word = idx / per, sh = (idx % per) * bits;
  uint32_t v = w->v[base + word / nt][word % nt] >> sh;
  if (bits == 1) return (int32_t)(v & 1);
  uint32_t m = (1u << bits) - 1, sign = 1u << (bits - 1);
  return (int32_t)(((v & m) ^ sign) - sign); /* signed INT8/INT4 */
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
  unsigned per = 32 / s.bits;
  unsigned regs_a = (s.m * s.k / per + nt - 1) / nt, regs_b = (s.k * s.n / per + nt - 1) / nt;
  unsigned regs_c = (s.m * s.n + nt - 1) / nt;
  if (in->rs1 + regs_a > 256 || in->rs2 + regs_b > 256 || in->rd + regs_c > 256) {
    vt_fail(x->e, VT_ERR_ILLEGAL,
            "mma register groups run past v255 (A v%u+%u, B v%u+%u, C/D v%u+%u registers)", in->rs1,
            regs_a, in->rs2, regs_b, in->rd, regs_c);
    return -1;
  }
  uint32_t d[16 * 16]; /* the largest C/D of the table */
  for (unsigned i = 0; i < s.m; i++)
    for (unsigned j = 0; j < s.n; j++) {
      unsigned ci = i * s.n + j;
      uint32_t acc = w->v[in->rd + ci / nt][ci % nt];
      for (unsigned k = 0; k < s.k; k++) {
        int32_t a = element(w, in->rs1, nt, al ? k * s.m + i : i * s.k + k, s.bits);
        int32_t b = element(w, in->rs2, nt, bl ? k * s.n + j : j * s.k + k, s.bits);
        acc += s.bits == 1 ? (uint32_t)(a & b) : (uint32_t)a * (uint32_t)b;
      }
      d[ci] = acc;
    }
  for (unsigned ci = 0; ci < s.m * s.n; ci++) w->v[in->rd + ci / nt][ci % nt] = d[ci];
  for (unsigned r = 0; r < regs_c; r++) trace_vreg(x, in->rd + r);
  return 0;
}

HANDLER(mma_m8n8k16_s8) { return mma(x, in, (mma_shape){8, 8, 16, 8}); }
HANDLER(mma_m16n16k16_s8) { return mma(x, in, (mma_shape){16, 16, 16, 8}); }
HANDLER(mma_m8n8k32_s4) { return mma(x, in, (mma_shape){8, 8, 32, 4}); }
HANDLER(mma_m16n8k32_s4) { return mma(x, in, (mma_shape){16, 8, 32, 4}); }
HANDLER(mma_m16n8k64_s4) { return mma(x, in, (mma_shape){16, 8, 64, 4}); }
HANDLER(mma_m8n8k128_b1) { return mma(x, in, (mma_shape){8, 8, 128, 1}); }
