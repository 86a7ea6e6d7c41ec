/* ISA 2025 MMA64's sparse (SP = 01) and warp-group (wg = 1) forms
 * (seed 002 "64bit指令字长矩阵乘加"; the formats are defined in
 * docs/isa-extensions.md, after NVIDIA's conventions).
 *
 * Sparsity: A is stored compressed, two of every four elements along K
 * (K/2 per row), with a 2-bit index per kept element naming its place in
 * its group of four; the indices are a packed stream of 2-bit fields in the
 * register group right after A's (after the descriptor pair when A comes
 * from local memory). Only the kept elements take part in the sum.
 *
 * Warp group: warp wid % 4 of its group of four computes rows 16 (wid % 4)
 * .. +15 of a 64 x N D from the same B; it needs no other warp to do so,
 * so each warp computes its slice when it executes the instruction (the
 * program orders the local-memory operands, e.g. with cp_dma_mbarrier).
 * A local-memory operand is described by the 64-bit descriptor in the pair
 * {v[r+1], v[r]}, lane 0: the low word the start address (16-byte aligned,
 * in the local window), the high word LBO / 16 in [13:0], SBO / 16 in
 * [27:14], the swizzle in [29:28] (0 none, 1 128 B, 2 64 B, 3 32 B) and
 * [31:30] reserved 0. The matrix is made of atoms of 8 lines of W bytes,
 * W the swizzle span or 16 without one; a line runs along the contiguous
 * dimension (K for K-major A/B, M or N for the other layout); element
 * (line l, byte p along it) is at start + (l / 8) SBO + (p / W) LBO +
 * (l % 8) W + p % W, and a swizzle of W bytes then XORs address bits
 * [4 + log2(W/16) - 1 : 4] (the 16-byte chunk) with the bits 3 above
 * them (the line in the atom): CUDA's 32/64/128-byte swizzle modes. */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "exec_mma.h"

typedef struct {
  int smem;                 /* from local memory through a descriptor */
  unsigned reg;             /* register group, or the descriptor pair */
  uint32_t start, lbo, sbo; /* descriptor fields, bytes */
  unsigned swz;             /* swizzle span in bytes, 0 for none */
} mma_src;

typedef struct {
  mma_shape s;   /* m, n: the warp's part of D; k: the logical K */
  unsigned sp;   /* A compressed 2:4 */
  unsigned row0; /* first row of A in a local-memory A (warp group) */
  unsigned al, bl, d, c, meta;
  mma_src a, b;
  int fmode, sat;
} mma_job;

static int read_desc(vt_exec *x, unsigned r, mma_src *o) {
  NEED_PAIR('v', r);
  uint32_t lo = x->w->v[r][0], hi = x->w->v[r + 1][0];
  static const unsigned spans[4] = {0, 128, 64, 32};
  char msg[120];
  if (hi >> 30) {
    snprintf(msg, sizeof msg,
             "mma64 descriptor v%u: reserved bits 31:30 of its high word are set (0x%08x)", r + 1,
             hi);
    return exec_fault(x, VT_ERR_ILLEGAL, -1, lo, msg);
  }
  if (lo & 15) {
    snprintf(msg, sizeof msg, "mma64 descriptor v%u: start 0x%08x is not 16-byte aligned", r, lo);
    return exec_fault(x, VT_ERR_MISALIGNED, -1, lo, msg);
  }
  *o = (mma_src){1, r, lo, (hi & 0x3fff) * 16, ((hi >> 14) & 0x3fff) * 16, spans[(hi >> 28) & 3]};
  return 0;
}

/* element (line, pos) of a local-memory operand; -1 on a fault */
static int smem_elem(vt_exec *x, const mma_src *o, unsigned line, unsigned pos, unsigned bits,
                     uint32_t *out) {
  uint32_t bit = pos * bits, bytes = bits >= 8 ? bits / 8 : 1;
  uint32_t span = o->swz ? o->swz : 16, p = bit / 8;
  uint32_t a = o->start + (line / 8) * o->sbo + (p / span) * o->lbo + (line % 8) * span + p % span;
  if (o->swz) a ^= ((a >> 7) & (o->swz / 16 - 1)) << 4;
  uint32_t off = a - x->d->cfg.lds_base;
  if (off >= x->d->cfg.lds_window || x->d->cfg.lds_window - off < bytes) {
    char msg[100];
    snprintf(msg, sizeof msg, "mma64 operand address 0x%08x is not in local memory", a);
    return exec_fault(x, VT_ERR_UNMAPPED, -1, a, msg);
  }
  const uint8_t *h = route(x, a, bytes, ACC_R, 0, -1);
  if (!h) return -1;
  uint32_t v = ld_n(h, bytes, 0);
  *out = bits >= 8 ? v : (v >> (bit % 8)) & ((1u << bits) - 1);
  return 0;
}

static int a_elem(vt_exec *x, const mma_job *j, uint32_t nt, unsigned i, unsigned t, unsigned ka,
                  uint32_t *out) {
  const mma_shape *s = &j->s;
  if (!j->a.smem) {
    *out = mma_raw(x->w, j->a.reg, nt, j->al ? t * s->m + i : i * ka + t, s->bits);
    return 0;
  }
  unsigned r = j->row0 + i;
  return smem_elem(x, &j->a, j->al ? t : r, j->al ? r : t, s->bits, out);
}

static int b_elem(vt_exec *x, const mma_job *j, uint32_t nt, unsigned k, unsigned c,
                  uint32_t *out) {
  const mma_shape *s = &j->s;
  if (!j->b.smem) {
    *out = mma_raw(x->w, j->b.reg, nt, j->bl ? k * s->n + c : c * s->k + k, s->bits);
    return 0;
  }
  return smem_elem(x, &j->b, j->bl ? k : c, j->bl ? c : k, s->bits, out);
}

static unsigned regs_for(unsigned elems, unsigned bits, uint32_t nt) {
  return (elems * bits / 32 + nt - 1) / nt;
}

static int mma_job_run(vt_exec *x, mma_job *j) {
  vt_warp *w = x->w;
  const mma_shape *s = &j->s;
  uint32_t nt = w->csr_custom[CSR_NUMT - 0x800];
  if (w->mask != lanes_mask(nt)) {
    vt_fail(x->e, VT_ERR_ILLEGAL,
            "mma64 needs every thread of the warp active (mask 0x%x of %u threads)", w->mask, nt);
    return -1;
  }
  unsigned ka = j->sp ? s->k / 2 : s->k;
  unsigned ra = j->a.smem ? 2 : regs_for(s->m * ka, s->bits, nt);
  unsigned rm = j->sp ? regs_for(s->m * ka, 2, nt) : 0;
  unsigned rb = j->b.smem ? 2 : regs_for(s->k * s->n, s->bits, nt);
  unsigned rc = regs_for(s->m * s->n, s->cbits, nt);
  if (j->a.reg + ra + rm > 256 || j->b.reg + rb > 256 || j->c + rc > 256 || j->d + rc > 256) {
    vt_fail(
        x->e, VT_ERR_ILLEGAL,
        "mma64 register groups run past v255 (A v%u+%u, B v%u+%u, C v%u+%u, D v%u+%u registers)",
        j->a.reg, ra + rm, j->b.reg, rb, j->c, rc, j->d, rc);
    return -1;
  }
  if (j->a.smem && read_desc(x, j->a.reg, &j->a)) return -1;
  if (j->b.smem && read_desc(x, j->b.reg, &j->b)) return -1;
  unsigned meta = j->a.reg + ra;
  unsigned cwords = s->m * s->n * s->cbits / 32, per = 32 / s->cbits;
  uint32_t *d = calloc(s->m * s->n, sizeof *d);
  if (!d) return vt_fail(x->e, VT_ERR_NOMEM, "out of memory for an mma64 result");
  int fp = s->type >= T_F32, round = fegetround(), rc_ = 0;
  if (fp) fesetround(j->fmode);
  for (unsigned i = 0; i < s->m && !rc_; i++)
    for (unsigned c = 0; c < s->n && !rc_; c++) {
      unsigned ci = i * s->n + c;
      uint32_t cv = mma_raw(w, j->c, nt, ci, s->cbits);
      int64_t acc = (int32_t)cv;
      float facc = s->cbits == 16 ? fp32_host_f32(mma_f16_to_f32(cv)) : fp32_host_f32(cv);
      for (unsigned t = 0; t < ka; t++) {
        unsigned k = j->sp ? t / 2 * 4 + mma_raw(w, meta, nt, i * ka + t, 2) : t;
        uint32_t a, b;
        if (a_elem(x, j, nt, i, t, ka, &a) || b_elem(x, j, nt, k, c, &b)) {
          rc_ = -1;
          break;
        }
        if (s->type == T_BIN)
          acc += a & b;
        else if (s->type == T_INT)
          acc += (int64_t)mma_ival(a, s->bits) * mma_ival(b, s->bits);
        else
          facc = fmaf(mma_fval(a, s->type), mma_fval(b, s->type), facc);
      }
      if (!fp && j->sat) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
      d[ci] = !fp              ? (uint32_t)acc
              : s->cbits == 16 ? mma_f32_to_f16_mode(fp32_bits(facc), j->fmode)
                               : fp32_bits(facc);
    }
  if (fp) fesetround(round);
  if (!rc_) {
    for (unsigned wd = 0; wd < cwords; wd++) {
      uint32_t v = 0;
      for (unsigned e = 0; e < per; e++) v |= d[wd * per + e] << (e * s->cbits);
      w->v[j->d + wd / nt][wd % nt] = v;
    }
    for (unsigned r = 0; r < rc; r++) trace_vreg(x, j->d + r);
  }
  free(d);
  x->npc = x->pc + 8;
  return rc_;
}

static void job_fields(mma_job *j, const isa_inst *in) {
  unsigned rd = (in->word >> 18) & 3;
  j->d = in->rd;
  j->c = in->rs3;
  j->al = (in->hi >> 8) & 1;
  j->bl = (in->hi >> 7) & 1;
  j->fmode = mma64_fmode(rd);
  j->sat = rd == 0;
  j->a = (mma_src){.reg = in->rs1};
  j->b = (mma_src){.reg = in->rs2};
}

/* the warp form with sparse A: A and B in registers */
static int mma64_sp(vt_exec *x, const isa_inst *in, mma_shape s) {
  mma_job j = {.s = s, .sp = 1};
  job_fields(&j, in);
  return mma_job_run(x, &j);
}

/* the warp-group form: N from the shape field, this warp's 16 rows */
static int mma64_wg(vt_exec *x, const isa_inst *in, mma_shape s, unsigned sp) {
  s.m = 16;
  s.n = 8u << ((in->hi >> 25) & 7);
  mma_job j = {.s = s, .sp = sp, .row0 = 16 * (x->w->wid % 4)};
  job_fields(&j, in);
  j.a.smem = !((in->word >> 16) & 1);
  j.b.smem = 1;
  return mma_job_run(x, &j);
}

#define SHAPE(M, N, K, TY, BI, CB) .m = M, .n = N, .k = K, .type = TY, .bits = BI, .cbits = CB
#define SP(n, ...)                                                                                 \
  HANDLER(n) { return mma64_sp(x, in, (mma_shape){SHAPE(__VA_ARGS__)}); }
SP(mma64_sp_m8n8k16_f32, 8, 8, 16, T_F32, 32, 32)
SP(mma64_sp_m16n8k16_f32, 16, 8, 16, T_F32, 32, 32)
SP(mma64_sp_m16n8k32_f32, 16, 8, 32, T_F32, 32, 32)
SP(mma64_sp_m8n8k16_f16, 8, 8, 16, T_F16, 16, 16)
SP(mma64_sp_m16n8k16_f16, 16, 8, 16, T_F16, 16, 16)
SP(mma64_sp_m16n8k32_f16, 16, 8, 32, T_F16, 16, 16)
SP(mma64_sp_m8n8k16_f16_f32, 8, 8, 16, T_F16, 16, 32)
SP(mma64_sp_m16n8k16_f16_f32, 16, 8, 16, T_F16, 16, 32)
SP(mma64_sp_m16n8k32_f16_f32, 16, 8, 32, T_F16, 16, 32)
SP(mma64_sp_m8n8k16_bf16, 8, 8, 16, T_BF16, 16, 32)
SP(mma64_sp_m16n8k16_bf16, 16, 8, 16, T_BF16, 16, 32)
SP(mma64_sp_m16n8k32_bf16, 16, 8, 32, T_BF16, 16, 32)
SP(mma64_sp_m16n8k64_e4m3, 16, 8, 64, T_E4M3, 8, 32)
SP(mma64_sp_m16n8k64_e5m2, 16, 8, 64, T_E5M2, 8, 32)
SP(mma64_sp_m8n8k32_s8, 8, 8, 32, T_INT, 8, 32)
SP(mma64_sp_m16n16k32_s8, 16, 16, 32, T_INT, 8, 32)
SP(mma64_sp_m8n8k64_s4, 8, 8, 64, T_INT, 4, 32)
SP(mma64_sp_m16n8k64_s4, 16, 8, 64, T_INT, 4, 32)
SP(mma64_sp_m16n8k128_s4, 16, 8, 128, T_INT, 4, 32)
SP(mma64_sp_m16n8k64_e3m2, 16, 8, 64, T_E3M2, 8, 32)
SP(mma64_sp_m16n8k64_e2m3, 16, 8, 64, T_E2M3, 8, 32)
SP(mma64_sp_m16n8k64_e2m1, 16, 8, 64, T_E2M1, 8, 32)
SP(mma64_sp_m16n8k64_e3m0, 16, 8, 64, T_E3M0, 8, 32)

/* m and n are set from the instruction */
#define WG(n, sp, K, TY, BI, CB)                                                                   \
  HANDLER(n) { return mma64_wg(x, in, (mma_shape){SHAPE(16, 8, K, TY, BI, CB)}, sp); }
WG(mma64_wg_m64k8_f32, 0, 8, T_F32, 32, 32)
WG(mma64_wg_m64k16_f16, 0, 16, T_F16, 16, 16)
WG(mma64_wg_m64k16_f16_f32, 0, 16, T_F16, 16, 32)
WG(mma64_wg_m64k16_bf16, 0, 16, T_BF16, 16, 32)
WG(mma64_wg_m64k32_e4m3, 0, 32, T_E4M3, 8, 32)
WG(mma64_wg_m64k32_e5m2, 0, 32, T_E5M2, 8, 32)
WG(mma64_wg_m64k32_s8, 0, 32, T_INT, 8, 32)
WG(mma64_wg_m64k64_s4, 0, 64, T_INT, 4, 32)
WG(mma64_wg_m64k256_b1, 0, 256, T_BIN, 1, 32)
WG(mma64_wg_m64k32_e3m2, 0, 32, T_E3M2, 8, 32)
WG(mma64_wg_m64k32_e2m3, 0, 32, T_E2M3, 8, 32)
WG(mma64_wg_m64k32_e2m1, 0, 32, T_E2M1, 8, 32)
WG(mma64_wg_m64k32_e3m0, 0, 32, T_E3M0, 8, 32)
WG(mma64_wg_sp_m64k16_f32, 1, 16, T_F32, 32, 32)
WG(mma64_wg_sp_m64k32_f16, 1, 32, T_F16, 16, 16)
WG(mma64_wg_sp_m64k32_f16_f32, 1, 32, T_F16, 16, 32)
WG(mma64_wg_sp_m64k32_bf16, 1, 32, T_BF16, 16, 32)
WG(mma64_wg_sp_m64k64_e4m3, 1, 64, T_E4M3, 8, 32)
WG(mma64_wg_sp_m64k64_e5m2, 1, 64, T_E5M2, 8, 32)
WG(mma64_wg_sp_m64k64_s8, 1, 64, T_INT, 8, 32)
WG(mma64_wg_sp_m64k128_s4, 1, 128, T_INT, 4, 32)
WG(mma64_wg_sp_m64k64_e3m2, 1, 64, T_E3M2, 8, 32)
WG(mma64_wg_sp_m64k64_e2m3, 1, 64, T_E2M3, 8, 32)
WG(mma64_wg_sp_m64k64_e2m1, 1, 64, T_E2M1, 8, 32)
WG(mma64_wg_sp_m64k64_e3m0, 1, 64, T_E3M0, 8, 32)
