# src/common_cell/dualportSRAM.v: Verilator 5.006 refuses a delayed (<=)
# assignment to an array element inside a for loop (BLKLOOPINIT: "Unsupported:
# Delayed assignment to array inside for loops"). The write process is
# rewritten with blocking assignments. The same clock edge cannot observe the
# difference: the read port samples mem_core[AB] and the module's contract
# (its own comment) forbids AB == AA in a cycle that writes, and the reset
# loop runs only while the design is held in reset.
s/mem_core\[jj\] <= 'd0;/mem_core[jj] = 'd0;/
s/mem_core\[AA\]\[ii\] <= D\[ii\];/mem_core[AA][ii] = D[ii];/
