/* The LSU's timing: lane addresses coalesced into L1 lines, sent one per
 * cycle in order; loads look up the L1 data cache (misses take a
 * miss-status register or merge into one in flight, and go to the L2);
 * stores write through to the L2 without allocating in L1, each holding a
 * write-status register until the L2 acknowledges it (the RTL's WSHR);
 * AMOs are performed at the L2; the local window goes to the banked shared
 * memory. Two Verilog-RTL behaviours are options: local memory cached like
 * global memory, and memory accesses on lanes past a narrow warp's threads. */
#include "timing_int.h"

/* Whether an access goes to the shared memory. With lds_through_l1d the
 * local window is cached like global memory: the Verilog RTL's LSU sends
 * only addresses below its SHAREMEM_SIZE (1 KiB) to the shared memory, and
 * its lds CSR reads 0x70000000 + the group's offset (docs/timing.md). */
static int is_shared(const vt_config *cf, uint32_t a) {
  return !cf->lds_through_l1d && a - cf->lds_base < cf->lds_window;
}

/* Cycles the local-memory lanes need: the most distinct 4-byte words any
 * one bank serves (lanes reading the same word share it). A word is
 * looked for among the earlier ones only when its bank has one already,
 * so a conflict-free access costs one pass over the lanes. */
static uint32_t lds_passes(const vt_mem_access *mem, int nmem, const vt_config *cf) {
  uint32_t words[VT_MAX_MEM], n = 0, worst = 0;
  uint8_t per_bank[64] = {0}; /* lds_banks is 1..64 (config.c) */
  for (int i = 0; i < nmem; i++) {
    uint32_t a = mem[i].addr;
    if (!is_shared(cf, a)) continue;
    uint32_t wd = a >> 2, b = wd % cf->lds_banks, j = 0;
    if (per_bank[b]) {
      while (j < n && words[j] != wd) j++;
      if (j < n) continue; /* the same word: shared */
    }
    words[n++] = wd;
    if (++per_bank[b] > worst) worst = per_bank[b];
  }
  return worst;
}

/* Whether the total lanes of c (idle ones continuing the stride of the
 * last two) access one run of bytes [*lo, *end) in lane order, each lane
 * the size bytes after the one before, without wrapping: a unit-stride
 * access, whose lines lsu_timing then takes without a pass over the lanes
 * (which gives the same lines, in the same order, and the same lane
 * count). */
static int contiguous(const vt_mem_access *mem, int nmem, int total, uint32_t *lo, uint32_t *end) {
  if (!nmem || (nmem == 1 && total > 1)) return 0;
  uint32_t a0 = mem[0].addr, size = mem[0].size, bad = 0;
  for (int i = 1; i < nmem; i++)
    bad |= (mem[i].addr - a0 - (uint32_t)i * size) | (mem[i].size ^ size);
  uint64_t e = (uint64_t)a0 + (uint64_t)total * size;
  if (bad || e > 0x100000000ull) return 0;
  *lo = a0;
  *end = (uint32_t)e; /* 0 for a run up to 2^32: end - 1 is the last byte */
  return 1;
}

/* whether [lo, end) (end - 1 its last byte) meets the window [base, base + win) */
static int overlaps(uint32_t lo, uint32_t end, uint32_t base, uint32_t win) {
  if (!win) return 0;
  uint64_t l = lo, e = end ? end : 0x100000000ull;
  return l < (uint64_t)base + win && e > base;
}

void lsu_timing(vt_timing *t, uint32_t smi, const vt_commit *c, uint32_t flags, uint32_t idle, uint64_t now,
                uint32_t *lat, uint32_t *occupy) {
  const vt_config *cf = &t->cfg;
  sm_t *sm = &t->sms[smi];
  vt_sm_timing *ss = &t->st.sm[smi];
  vt_cache *l1 = &sm->l1d;
  uint32_t lines[VT_MAX_MEM * 2 + VT_MAX_LANES * 2], n = 0, lanes = 0; /* both ends of each access, idle lanes too */
  int shared = 0; /* recorded accesses to the local window: without one, no bank passes */
  const vt_mem_access *mem = c->mem;
  int nmem = c->nmem, total, run;
  uint32_t sh = l1->line_shift, lds_base = cf->lds_base, lds_win = cf->lds_through_l1d ? 0 : cf->lds_window;
  uint32_t run_lo = 0, run_end = 0;
  if (c->unit_n) { /* a lean record's unit-stride words: what contiguous() finds of their lanes */
    nmem = (int)c->unit_n;
    total = nmem + (int)idle;
    uint64_t e = (uint64_t)c->unit_lo + 4ull * (uint64_t)total;
    run = (nmem > 1 || !idle) && e <= 0x100000000ull;
    run_lo = c->unit_lo;
    run_end = (uint32_t)e;
  } else {
    total = nmem + (nmem ? (int)idle : 0);
    run = contiguous(mem, nmem, total, &run_lo, &run_end);
  }
  vt_mem_access unit[VT_MAX_LANES];
  if (run && !overlaps(run_lo, run_end, lds_base, lds_win)) {
    /* the lanes' lines are those of [run_lo, run_end), in order */
    lanes = (uint32_t)total;
    for (uint32_t l = run_lo >> sh; l <= (run_end - 1) >> sh; l++) lines[n++] = l;
    total = 0;
  } else if (c->unit_n) { /* the span's lanes, for the pass below */
    for (int i = 0; i < nmem; i++)
      unit[i] = (vt_mem_access){c->unit_lo + 4u * (uint32_t)i, 0, 4, (uint8_t)c->unit_store};
    mem = unit;
  }
  /* idle lanes continue the stride of the last two accesses */
  uint32_t stride = total && nmem > 1 ? mem[nmem - 1].addr - mem[nmem - 2].addr : 0;
  for (int i = 0; i < total; i++) {
    int last = i < nmem ? i : nmem - 1;
    uint32_t a = mem[last].addr + (uint32_t)(i - last) * stride;
    if (a - lds_base < lds_win) { /* is_shared */
      shared |= i < nmem;
      continue;
    }
    lanes++;
    uint32_t ends[2] = {a >> sh, (a + mem[last].size - 1) >> sh};
    if (n && lines[n - 1] == ends[0] && ends[0] == ends[1]) continue; /* the common case: all on the lane before's line */
    for (int k = 0; k < 2; k++) {
      if (n && lines[n - 1] == ends[k]) continue; /* the common case: the line of the lane before */
      uint32_t j = 0;
      while (j < n && lines[j] != ends[k]) j++;
      if (j == n) lines[n++] = ends[k];
    }
  }
  /* the D-cache takes the lines in order, one per cycle, and stalls a line
   * it cannot take yet: a miss without a free MSHR, a merge without a free
   * sub-entry, a store without a free write-status register */
  uint64_t tj = now, last = now; /* the line's cycle; the latest data arrival */
  int store = (flags & IF_STORE) && !(flags & IF_AMO);
  for (uint32_t j = 0; j < n; j++, tj++) {
    uint32_t addr = lines[j] << l1->line_shift, victim, k;
    long i = cache_find(l1, addr);
    uint64_t arrive = tj;
    if (flags & IF_AMO) {
      ss->l1_misses++;
      arrive = tp_access(t, smi, tj, addr, 1);
    } else if (store) {
      if (i >= 0) ss->l1_hits++;
      else ss->l1_misses++;
      uint64_t free_at = sm->wshr[0];
      k = 0;
      for (uint32_t w = 1; w < cf->l1d_wshrs; w++)
        if (sm->wshr[w] < free_at) free_at = sm->wshr[w], k = w;
      if (free_at > tj) tj = arrive = free_at;
      uint64_t ack = tp_access(t, smi, tj, addr, 1);
      sm->wshr[k] = ack;
      if (ack > sm->busy_until) sm->busy_until = ack;
    } else if (i >= 0 && l1->way[i].ready <= tj) {
      ss->l1_hits++;
    } else if (i >= 0) {
      ss->l1_merges++;
      if (l1->way[i].merged < cf->l1d_mshr_subs) l1->way[i].merged++;
      else tj = l1->way[i].ready; /* no free sub-entry: wait for the fill, then hit */
      arrive = l1->way[i].ready;
    } else {
      ss->l1_misses++;
      uint64_t free_at = cache_mshr_free(l1, tj, &k);
      if (free_at > tj) tj = free_at;
      arrive = tp_access(t, smi, tj, addr, 0);
      cache_alloc(l1, addr, arrive, &victim); /* write-through: never dirty */
      cache_mshr_set(l1, k, arrive);
    }
    if (arrive > last) last = arrive;
  }
  if (n) {
    ss->gmem_insns++;
    ss->gmem_lanes += lanes;
    ss->gmem_lines += n;
  }
  uint32_t passes = shared ? lds_passes(mem, nmem, cf) : 0;
  if (passes) {
    ss->shared_accesses++;
    ss->bank_conflicts += passes - 1;
  }
  uint64_t busy = (n ? tj - now : 0) + passes;
  *occupy = busy ? (uint32_t)busy : 1;
  *lat = cf->lat_lsu_l1_hit + (uint32_t)(last - now) + (passes > 1 ? passes - 1 : 0);
}
