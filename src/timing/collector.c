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

#include "collector.h"

void oc_reset(vt_timing *t, uint32_t smi) {
  sm_t *sm = &t->sms[smi];
  memset(sm->rport, 0, sizeof sm->rport);
  for (size_t i = 0; i < 2u * t->cfg.rf_banks * WB_RING; i++) sm->wres[i] = NEVER;
}
