/* The front end: greedy fetch through the L1 instruction cache into per-warp
 * instruction buffers (seed 004 "warp 调度", "取指": the fetch keeps its warp
 * until an I-cache miss or a full ibuffer, then switches). There is no branch
 * prediction: after fetching a branch, jump, SIMT op, barrier or endprg a
 * warp fetches nothing more until that op has resolved, so the fetched path
 * is always the executed one. */
#include <string.h>

#include "timing_int.h"

void fe_reset_warp(warp_t *w, uint32_t pc) {
  w->fpc = pc;
  w->fwait = 0;
  w->flock = 0;
  w->unlock_at = 0;
  w->ib_head = w->ib_n = 0;
  w->half = 0;
}

static void lower(uint64_t *wake, uint64_t t) {
  if (t < *wake) *wake = t;
}

/* Is the instruction at pc a control op? An unreadable word is not: the
 * core faults on it when it executes. *len: its length in bytes (8 for the
 * first word of a 64-bit instruction of revision 2025, which is never a
 * control op). */
static int is_control(vt_device *d, isa_rev rev, uint32_t pc, uint32_t *len) {
  uint32_t word;
  vt_error e;
  *len = 4;
  if (vt_mem_read(d, pc, &word, 4, &e)) return 0;
  if ((*len = isa_insn_len(word, rev)) == 8) return 0;
  isa_id id = isa_lookup_rev(word, rev);
  return id != ISA_INVALID && (isa_table[id].flags & CONTROL_FLAGS);
}

/* One fetch for warp slot s: a hit moves up to num_fetch instructions of the
 * aligned block into the ibuffer; a miss (or a line still in flight) parks
 * the warp until the fill. Returns 1 on a hit. */
static int fetch_one(vt_timing *t, uint32_t smi, uint32_t slot, warp_t *w, uint64_t now, uint64_t *wake) {
  sm_t *sm = &t->sms[smi];
  vt_sm_timing *ss = &t->st.sm[smi];
  const vt_config *cf = &t->cfg;
  uint32_t pc = w->fpc;
  long i = cache_find(&sm->l1i, pc);
  if (i >= 0 && sm->l1i.way[i].ready <= now) {
    ss->l1i_hits++;
    /* the block's words are the fetch's slots: a 64-bit instruction takes
     * two, and one that starts in the block's last slot takes the first
     * slot of the next fetch too (its entry waits in w->half) */
    isa_rev rev = t->cfg.isa == 2025 ? ISA_REV_2025 : ISA_REV_BASE;
    uint32_t block = cf->num_fetch * 4;
    uint32_t slots = (block - (pc & (block - 1))) / 4, j = 0;
    while (j < slots && w->ib_n < cf->ibuffer_depth) {
      uint32_t len = 4, at = w->half ? w->half_pc : pc;
      int ctl = w->half ? 0 : is_control(t->d, rev, pc, &len);
      if (len == 8 && j + 2 > slots) { /* the second word is in the next block */
        w->half = 1;
        w->half_pc = pc;
        pc += 4;
        break;
      }
      ib_entry *en = &w->ib[(w->ib_head + w->ib_n++) % IB_MAX];
      en->pc = at;
      en->ready = now + cf->lat_fetch;
      pc += w->half ? 4 : len;
      j += w->half ? 1 : len / 4;
      w->half = 0;
      if (ctl) {
        w->flock = 1;
        w->unlock_at = NEVER;
        break;
      }
    }
    w->fpc = pc;
    lower(wake, now + (cf->lat_fetch ? cf->lat_fetch : 1));
    return 1;
  }
  if (i >= 0) { /* in flight for another warp: wait for the same fill */
    ss->l1i_merges++;
    w->fwait = sm->l1i.way[i].ready;
  } else {
    uint32_t k, victim;
    uint64_t free_at = cache_mshr_free(&sm->l1i, now, &k);
    if (free_at > now) {
      w->fwait = free_at; /* every MSHR busy: retry when one frees */
    } else {
      ss->l1i_misses++;
      uint64_t r = tp_access(t, smi, now, pc & ~((1u << sm->l1i.line_shift) - 1), 0);
      cache_alloc(&sm->l1i, pc, r, &victim);
      cache_mshr_set(&sm->l1i, k, r);
      w->fwait = r;
    }
  }
  if (t->tl && w->fwait > now) tl_span(t, smi, slot, "fetch", now, w->fwait, NULL, "I-cache miss");
  lower(wake, w->fwait);
  return 0;
}

/* Whether a warp whose fetch waits for a control op may fetch again now. */
static int unlocked(const sm_t *sm, uint32_t s, warp_t *w, uint64_t now, uint64_t *wake) {
  if (!w->flock) return 1;
  if (w->unlock_at == NEVER) return 0; /* the control op is still in the ibuffer */
  if (w->unlock_at > now) {
    lower(wake, w->unlock_at);
    return 0;
  }
  w->flock = 0;
  w->fpc = sm->pc[s];
  return 1;
}

/* fetch_miss_next N: each replay of a warp waiting for an I-cache fill
 * also requests the first of the N blocks after the missed one that is
 * neither present nor in flight. In the RTL the warp's pc advances a block
 * every cycle it holds the port, so before the miss comes back from the
 * I-cache's second stage it has asked for the next two blocks, and the
 * first stage sends their misses to the MSHRs even though the rollback
 * drops the responses (instruction_cache.v: cacheMiss_st1 is not gated by
 * shouldFlushCoreRsp_st1): the Verilog RTL's fetch requests come in threes,
 * B, B+1, B+2 on consecutive cycles (tools/rtl, docs/timing.md), the
 * Chisel RTL's bfs log shows pairs. No free MSHR asks nothing. */
static void fetch_next_block(vt_timing *t, uint32_t smi, const warp_t *w, uint64_t now) {
  sm_t *sm = &t->sms[smi];
  uint32_t block = t->cfg.num_fetch * 4, k, victim, i;
  uint32_t pc = w->fpc & ~(block - 1);
  for (i = 1; i <= t->cfg.fetch_miss_next; i++)
    if (cache_find(&sm->l1i, pc + i * block) < 0) break;
  if (i > t->cfg.fetch_miss_next || cache_mshr_free(&sm->l1i, now, &k) > now) return;
  pc += i * block;
  t->st.sm[smi].l1i_misses++;
  uint64_t r = tp_access(t, smi, now, pc & ~((1u << sm->l1i.line_shift) - 1), 0);
  cache_alloc(&sm->l1i, pc, r, &victim);
  cache_mshr_set(&sm->l1i, k, r);
}

/* fetch_policy 1, the Verilog RTL (warp_scheduler.v, ibuffer.v): every
 * cycle the fetch goes to the lowest-numbered warp whose ibuffer is not
 * full, counting only instructions that have arrived. The pc advances
 * speculatively; a response that misses in the I-cache, or that finds the
 * ibuffer full after all, rolls the warp's pc back, and the warp, still the
 * first ready one, asks again next cycle: so a warp waiting for an I-cache
 * fill, or one whose earlier fetches are still on their way, takes the
 * fetch port from the warps behind it. */
static void fetch_fixed(vt_timing *t, uint32_t smi, uint64_t now, uint64_t *wake) {
  const vt_config *cf = &t->cfg;
  sm_t *sm = &t->sms[smi];
  if (sm->fport_free > now) {
    lower(wake, sm->fport_free);
    return;
  }
  for (uint32_t s = 0; s < cf->warps_per_sm; s++) {
    if (sm->state[s] != VT_WS_READY) continue;
    warp_t *w = &sm->warps[s];
    if (!unlocked(sm, s, w, now, wake)) continue;
    uint32_t arrived = 0, block = cf->num_fetch * 4;
    while (arrived < w->ib_n && w->ib[(w->ib_head + arrived) % IB_MAX].ready <= now) arrived++;
    uint32_t n = (block - (w->fpc & (block - 1))) / 4;
    if (arrived + n > cf->ibuffer_depth) continue; /* full: an issue of this warp frees room */
    sm->fport_free = now + cf->fetch_interval;
    lower(wake, now + 1);
    if (w->fwait > now || w->ib_n + n > cf->ibuffer_depth) {
      t->st.sm[smi].fetch_replays++; /* its line is in flight, or earlier fetches fill the ibuffer */
      if (cf->fetch_miss_next && w->fwait > now) fetch_next_block(t, smi, w, now);
      return;
    }
    fetch_one(t, smi, s, w, now, wake);
    return;
  }
}

void fe_fetch(vt_timing *t, uint32_t smi, uint64_t now, uint64_t *wake) {
  if (t->cfg.fetch_policy == 1) {
    fetch_fixed(t, smi, now, wake);
    return;
  }
  const vt_config *cf = &t->cfg;
  sm_t *sm = &t->sms[smi];
  int used = sm->fport_free > now; /* fetch_interval: the port is still busy */
  if (used) lower(wake, sm->fport_free);
  for (uint32_t k = 0; k < cf->warps_per_sm; k++) {
    uint32_t s = (sm->fcur + k) % cf->warps_per_sm;
    if (sm->state[s] != VT_WS_READY) continue; /* empty, or at a barrier: an issue elsewhere releases it */
    warp_t *w = &sm->warps[s];
    if (!unlocked(sm, s, w, now, wake)) continue;
    if (w->ib_n >= cf->ibuffer_depth) continue; /* its issue frees room */
    if (w->fwait > now) {
      lower(wake, w->fwait);
      continue;
    }
    if (used) { /* the port is taken */
      lower(wake, sm->fport_free > now ? sm->fport_free : now + 1);
      break;
    }
    used = 1;
    sm->fport_free = now + cf->fetch_interval;
    int hit = fetch_one(t, smi, s, w, now, wake);
    /* greedy: stay with a warp that hit and has room, else switch */
    sm->fcur = hit && !w->flock && w->ib_n < cf->ibuffer_depth ? s : (s + 1) % cf->warps_per_sm;
  }
}
