/* The per-SM asynchronous copy engine of cp_dma, cp_dma_bulk and
 * cp_dma_tensor (seed 002 "自定义异步数据拷贝指令": the warp goes on while the
 * copy runs; cp_dma_mbarrier waits for it). The functional core has
 * already copied when the instruction issues; the engine only decides when
 * the copy would be complete. One copy at a time, in issue order: the
 * source is read from the L2 in L1-line requests, one per cycle (the seed's
 * copies go "through the L2", not the L1), while the engine writes the
 * shared memory at dma_bytes_per_cycle; a copy completes lat_lsu_l1_hit
 * cycles (the shared-memory write) after both its last byte is streamed
 * and its last source line has arrived. dma_queue copies may be
 * incomplete at once per SM; a further one stalls its warp (docs/timing.md). */
#include "timing_int.h"

int dma_is_copy(uint32_t id) {
  return id == ISA_cp_dma_4 || id == ISA_cp_dma_8 || id == ISA_cp_dma_16 || id == ISA_cp_dma_bulk ||
         id == ISA_cp_dma_tensor;
}

uint64_t dma_full(const vt_timing *t, uint32_t smi, uint64_t now) {
  const sm_t *sm = &t->sms[smi];
  uint64_t first = NEVER;
  for (uint32_t i = 0; i < t->cfg.dma_queue; i++) {
    if (sm->dma_q[i] <= now) return 0;
    if (sm->dma_q[i] < first) first = sm->dma_q[i];
  }
  return first;
}

void dma_issue(vt_timing *t, uint32_t smi, uint32_t slot, const vt_commit *c, uint64_t now) {
  const vt_config *cf = &t->cfg;
  sm_t *sm = &t->sms[smi];
  vt_sm_timing *ss = &t->st.sm[smi];
  if (!c->dma_bytes) return; /* no active lane: nothing to copy */
  uint64_t start = sm->dma_free > now ? sm->dma_free : now, tj = start, last = start;
  uint32_t shift = sm->l1d.line_shift;
  uint64_t prev = NEVER; /* the line requested last: ranges that share it ask once */
  for (int i = 0; i < c->ndma; i++) {
    uint64_t a = c->dma[i].addr, end = a + c->dma[i].len - 1;
    for (uint64_t ln = a >> shift; ln <= end >> shift; ln++) {
      if (ln == prev) continue;
      prev = ln;
      uint64_t arrive = tp_access(t, smi, tj++, (uint32_t)(ln << shift), 0);
      if (arrive > last) last = arrive;
    }
  }
  uint64_t stream = (c->dma_bytes + (uint64_t)cf->dma_bytes_per_cycle - 1) / cf->dma_bytes_per_cycle;
  if (tj - start > stream) stream = tj - start; /* one line request per cycle */
  sm->dma_free = start + stream;
  uint64_t done = (start + stream > last ? start + stream : last) + cf->lat_lsu_l1_hit;
  uint32_t k = 0; /* the queue entry: blocked() let the warp issue only with one free */
  while (k + 1 < cf->dma_queue && sm->dma_q[k] > now) k++;
  sm->dma_q[k] = done;
  warp_t *w = &sm->warps[slot];
  if (done > w->dma_done) w->dma_done = done;
  if (done > sm->busy_until) sm->busy_until = done; /* the launch ends after its copies */
  ss->dma_copies++;
  ss->dma_bytes += c->dma_bytes;
  ss->dma_busy += stream;
  if (t->tl) tl_span(t, smi, slot, "dma", now, done, NULL, "copy %u bytes", c->dma_bytes);
}

/* The group of cp_dma_mbarrier: warps wid / 4 of the same work-group, all
 * resident on this SM (exec_mbarrier.c). Only the releasing arrival acts:
 * every other member is parked then, its copies final; each member's wait
 * from the release to the gate is counted (for a parked member also part of
 * its barrier_wait: its re-check issues at the gate). */
void dma_release(vt_timing *t, uint32_t smi, uint32_t slot, int first, uint64_t now) {
  sm_t *sm = &t->sms[smi];
  const warp_t *w = &sm->warps[slot];
  if (!first) return;
  uint64_t gate = 0;
  for (uint32_t s = 0; s < t->cfg.warps_per_sm; s++) {
    const warp_t *m = &sm->warps[s];
    if (m->seen && m->wg == w->wg && m->wid / 4 == w->wid / 4 && m->dma_done > gate) gate = m->dma_done;
  }
  for (uint32_t s = 0; s < t->cfg.warps_per_sm; s++) {
    warp_t *m = &sm->warps[s];
    if (!m->seen || m->wg != w->wg || m->wid / 4 != w->wid / 4) continue;
    m->dma_gate = gate;
    if (gate > now + 1) t->st.sm[smi].dma_wait += gate - (now + 1);
  }
}
