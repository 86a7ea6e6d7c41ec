# src/gpgpu_top/sm/pipeline/operand_collector/vector_regfile_bank.v: a vector
# register write must leave the lanes outside its mask as they were (the
# SIMT semantics of the ISS and the seeds: an inactive thread keeps its
# registers). As published, the bank writes the whole row with every bit
# enabled (BWEB all ones into dualportSRAM; the T28 macro's active-low BWEB
# is all zeros, the same) and ram_mask puts 0 into the lanes whose rdwmask
# bit is clear, so every write under a partial mask zeroes the other lanes
# (and v0_mem, the bank's copy of row 0, likewise). Kernels whose divergent
# paths write a register that is read after the join end with other results
# (docs/timing.md, "The RTL in the loop"). The fix enables the bits of the
# masked lanes only; which lanes and when a write happens are unchanged, so
# the cycles of a kernel whose results were right are unchanged too.
# `ventus-rtl build --as-published` builds without it.
0,/^  reg \[`XLEN\*`NUM_THREAD-1:0\]   ram_mask  ;/s//&\
  \/\/ chengying fix: per-lane bit enables of a masked write\
  wire [`XLEN*`NUM_THREAD-1:0]   lane_bweb ;\
  genvar lb;\
  generate for (lb=0; lb<`NUM_THREAD; lb=lb+1) begin: lane_bweb_g\
    assign lane_bweb[`XLEN*(lb+1)-1-:`XLEN] = {`XLEN{rdwmask_i[lb]}};\
  end endgenerate/
s/v0_mem <= ram_mask;/v0_mem <= (ram_mask \& lane_bweb) | (v0_mem \& ~lane_bweb);/
s/\.BWEB       ({`XLEN\*`NUM_THREAD{1'b1}}  ),/.BWEB       (lane_bweb                  ),/
