/* Ventus custom-0 instructions: 12-bit vector immediates, register
 * prefixes, warp end, barriers, and the SFU/tensor toys. */
#include <stdio.h>

#include "exec.h"
#include "fp32.h"
#include "fp32_lanes.h"

HANDLER(vadd12_vi) {
  uint32_t *vd = VR(in->rd);
  const uint32_t *a = VR(in->rs1);
  FOR_LANES(x->emask, i) vd[i] = a[i] + (uint32_t)in->imm;
  trace_vreg(x, in->rd);
  return 0;
}

HANDLER(vsub12_vi) {
  uint32_t *vd = VR(in->rd);
  const uint32_t *a = VR(in->rs1);
  FOR_LANES(x->emask, i) vd[i] = a[i] - (uint32_t)in->imm;
  trace_vreg(x, in->rd);
  return 0;
}

/* The prefix retires on its own; warp_step hands its word to the next
 * instruction's decode (the predecode cache is keyed by pc and prefix). */
HANDLER(regext) {
  (void)x;
  (void)in;
  return 0;
}
HANDLER(regexti) {
  (void)x;
  (void)in;
  return 0;
}

/* A non-empty SIMT stack at endprg means lanes that still had to run (the
 * pushed path, or the code after the join for the reconvergence entry):
 * the ISS ends the warp and silently drops them; we report it
 * (docs/isa.md §7.23). */
HANDLER(endprg) {
  (void)in;
  vt_warp *w = x->w;
  if (unlikely(w->depth)) {
    char msg[192];
    snprintf(msg, sizeof msg,
             "endprg with %u SIMT stack entries left (a divergent region was not closed by its "
             "join; lanes 0x%x of the next entry never ran)",
             w->depth, w->stack[w->depth - 1].mask);
    return exec_fault(x, VT_ERR_SIMT, -1, w->stack[w->depth - 1].pc, msg);
  }
  x->stop = 1;
  return 0;
}

/* Work-group barrier as the ISS runs it: the warp marks itself arrived and
 * re-executes the barrier (each re-check is a "spin" commit) until every
 * unfinished warp of its group has arrived. With barrier_counts_ended = 1
 * (ISS) ended warps count as arrived; with 0 (RTL) they do not, so a warp
 * that ended early leaves the others waiting forever (the scheduler then
 * reports VT_ERR_DEADLOCK). A generation counter tells re-checking warps
 * that the barrier they wait at has been released. */
HANDLER(barrier) {
  (void)in;
  vt_warp *w = x->w;
  vt_wg *wg = x->wg;
  if (!w->bar_wait) {
    w->bar_wait = 1;
    w->bar_gen = wg->bar_gen;
    wg->arrived++;
  } else if (w->bar_gen != wg->bar_gen) {
    w->bar_wait = 0; /* released by another warp */
    x->st->barriers++;
    return 0;
  } else {
    x->spin = 1;
  }
  uint32_t have = wg->arrived + (x->d->cfg.barrier_counts_ended ? wg->ended : 0);
  if (have >= wg->nwarps) {
    wg->bar_gen++;
    wg->arrived = 0;
    w->bar_wait = 0;
    x->spin = 0;
    x->st->barriers++;
    return 0;
  }
  x->npc = x->pc;
  x->waits = !x->spin;
  return 0;
}

/* The ISS's barriersub is empty: a warp-scope barrier completes at once for
 * the single warp it names (the RTL would treat it as a full barrier). */
HANDLER(barriersub) {
  (void)in;
  x->st->barriers++;
  return 0;
}

/* vftta.vv: the ISS's illustrative semantics (docs/isa.md §2.2) exactly as
 * riscv/insns/vftta_vv.h computes them: lanes i >= vl/2 get float(i+7);
 * lanes i < vl/2 accumulate in place, j = 0 .. vl/4-1 in order,
 *     vd[i] = fma(vs1[((i>>2)<<3)+j], vs2[((i&3)<<3)+j], vd[i])
 * with SoftFloat's fused f32_mulAdd (one rounding per step, RNE). Lanes are
 * processed in increasing order and vd is updated in place, so an operand
 * that aliases vd sees the lanes already written (as in the ISS). Element k
 * of a register lies beyond its num_threads lanes when k >= num_threads;
 * spike's elt() then reads element k % num_threads of the register
 * k / num_threads further on, and so do we. No fflags (the ISS raises none). */
static uint32_t velt(const vt_exec *x, unsigned reg, uint32_t k) {
  uint32_t nt = x->d->l.num_threads;
  return x->w->v[(reg + k / nt) % VT_NUM_VREGS][k % nt];
}

HANDLER(vftta_vv) {
  vt_warp *w = x->w;
  uint32_t vl = w->vl, fl = 0;
  uint32_t *d = w->v[in->rd];
  FOR_LANES(x->emask, i) {
    if (i >= vl / 2) {
      d[i] = fp32_from_i32((int32_t)i + 7, FP_RNE, &fl);
      continue;
    }
    for (uint32_t j = 0; j < vl / 4; j++) {
      uint32_t a = velt(x, in->rs1, ((i >> 2) << 3) + j), b = velt(x, in->rs2, ((i & 3) << 3) + j);
      d[i] = fp32_fma(a, b, d[i], 0, 0, FP_RNE, &fl);
    }
  }
  trace_vreg(x, in->rd);
  return 0;
}

/* vfexp.v: (float)exp((double)x) like the ISS; no fflags. While the host
 * rounds to nearest, the lanes up to the last active one go through
 * fp32_lanes_exp (the same results, mostly without a libm call). */
HANDLER(vfexp_v) {
  uint32_t *vd = VR(in->rd), fl = 0, em = x->emask;
  const uint32_t *a = VR(in->rs2);
  if (em && fp32_host_rne()) {
    uint32_t r[VT_MAX_LANES], n = 32u - (uint32_t)__builtin_clz(em), full = em == lanes_mask(n);
    if (full && vd != a) { /* straight into vd */
      fp32_lanes_exp(vd, a, n, &fl);
    } else {
      fp32_lanes_exp(r, a, n, &fl);
      if (full)
        memcpy(vd, r, 4 * (size_t)n);
      else
        FOR_LANES(em, i) vd[i] = r[i];
    }
  } else {
    FOR_LANES(em, i) vd[i] = fp32_exp(a[i], &fl);
  }
  trace_vreg(x, in->rd);
  return 0;
}

/* ISA 2025 register-pair prefixes: like regext/regexti, the decoder applies
 * them to the next instruction (exec_memext.c). */
HANDLER(regpair) {
  (void)x;
  (void)in;
  return 0;
}
HANDLER(regpairi) {
  (void)x;
  (void)in;
  return 0;
}

/* ISA 2025 compute and memory prefixes: applied at decode time to the next
 * instruction (exec_memext.c, exec_modifier.c). */
#define PREFIX_HANDLER(n)                                                                  \
  HANDLER(n) {                                                                             \
    (void)x;                                                                               \
    (void)in;                                                                              \
    return 0;                                                                              \
  }
PREFIX_HANDLER(prefix)
PREFIX_HANDLER(prefixi)
PREFIX_HANDLER(pre_m_32)
PREFIX_HANDLER(pre_m_64)
PREFIX_HANDLER(pre_m_96)
PREFIX_HANDLER(pre_m_128)
PREFIX_HANDLER(pre_m_global_32)
PREFIX_HANDLER(pre_m_global_64)
PREFIX_HANDLER(pre_m_global_96)
PREFIX_HANDLER(pre_m_global_128)
PREFIX_HANDLER(pre_m_private_32)
PREFIX_HANDLER(pre_m_private_64)
PREFIX_HANDLER(pre_m_private_96)
PREFIX_HANDLER(pre_m_private_128)
PREFIX_HANDLER(pre_m_local_32)
PREFIX_HANDLER(pre_m_local_64)
PREFIX_HANDLER(pre_m_local_96)
PREFIX_HANDLER(pre_m_local_128)
