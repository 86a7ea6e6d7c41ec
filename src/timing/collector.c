/* The operand collector and writeback arbitration (seed 004 "操作数收集";
 * the Verilog RTL's operand_collector/: collector_unit.v, operand_arbiter.v).
 * Each warp has one collector unit. It takes an instruction, requests its
 * register operands from the banked register file, and dispatches it once
 * all have arrived; then it takes the next. The scalar and the vector file
 * each have rf_banks banks with one read and one write port; a bank serves
 * one read per cycle, so two operands in one bank (of one instruction or of
 * two warps in the same cycle) cost a cycle. The fixed part of the
 * collection is inside the measured unit latencies (lat_alu ...); only the
 * conflict cycles are added here. */
#include <string.h>

#include "timing_int.h"

static uint32_t bank_of(const vt_timing *t, uint32_t slot, uint32_t reg) {
  return t->bank_mask ? (slot + reg) & t->bank_mask : (slot + reg) % t->cfg.rf_banks;
}

uint32_t oc_collect(vt_timing *t, uint32_t smi, uint32_t slot, const reg_use *u, int n, uint64_t now) {
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

uint64_t oc_writeback(vt_timing *t, uint32_t smi, uint32_t slot, const reg_use *u, uint64_t done, uint64_t now) {
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

void oc_reset(vt_timing *t, uint32_t smi) {
  sm_t *sm = &t->sms[smi];
  memset(sm->rport, 0, sizeof sm->rport);
  for (size_t i = 0; i < 2u * t->cfg.rf_banks * WB_RING; i++) sm->wres[i] = NEVER;
}
