/* The operand collector's per-issue arithmetic (collector.c holds the
 * model's description): inline, since sm_cycle calls it for every issue. */
#ifndef VT_COLLECTOR_H
#define VT_COLLECTOR_H

#include "timing_int.h"

static inline uint32_t bank_of(const vt_timing *t, uint32_t slot, uint32_t reg) {
  return t->bank_mask ? (slot + reg) & t->bank_mask : (slot + reg) % t->cfg.rf_banks;
}

/* The operand collector of warp slot `slot` on SM smi, for an instruction
 * issued at now: the cycles its source reads wait for the register banks'
 * read ports (one per bank and file and cycle; bank = (slot + register) mod
 * rf_banks, as the RTL's collector unit computes it). */
static inline uint32_t oc_collect(vt_timing *t, uint32_t smi, uint32_t slot, const reg_use *u, int n, uint64_t now) {
  sm_t *sm = &t->sms[smi];
  uint64_t last = now;
  for (int i = 0; i < n; i++) {
    if (u[i].dest) continue;
    for (uint32_t k = 0; k < u[i].span; k++) {
      uint64_t *port = &sm->rport[u[i].file][bank_of(t, slot, u[i].reg + k)];
      uint64_t at = *port > now ? *port : now; /* reads are requested in issue order */
      *port = at + 1;
      if (at > last) last = at;
    }
  }
  t->st.sm[smi].rf_read_conflicts += last - now;
  return (uint32_t)(last - now);
}

/* ... and the cycle a result due at `done` is written: the first at or after
 * it in which the bank's write port is free (writeback arbitration). */
static inline uint64_t oc_writeback(vt_timing *t, uint32_t smi, uint32_t slot, const reg_use *u, uint64_t done,
                                    uint64_t now) {
  sm_t *sm = &t->sms[smi];
  if (done - now >= WB_RING / 2) return done; /* beyond the window: not arbitrated */
  uint64_t at = done;
  for (uint32_t k = 0; k < u->span; k++) {
    uint64_t *ring = sm->wres + ((size_t)u->file * t->cfg.rf_banks + bank_of(t, slot, u->reg + k)) * WB_RING;
    uint64_t c = done;
    while (ring[c % WB_RING] == c && c - now < WB_RING - 1) c++; /* taken by an earlier result */
    ring[c % WB_RING] = c;
    if (c > at) at = c;
  }
  t->st.sm[smi].rf_write_conflicts += at - done;
  return at;
}

#endif
