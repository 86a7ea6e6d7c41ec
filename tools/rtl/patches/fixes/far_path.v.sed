# src/gpgpu_top/sm/pipeline/fpu/fpu/common_cells/far_path.v: the float
# adder's far path (exponents two or more apart, or an effective addition)
# must keep, below its guard bits, the OR of every bit of the aligned sum
# that falls off the end: the sticky bit that round-to-nearest-even and the
# directed modes need. The published module takes the AND of those bits
# (`&addr_result[...]`, in all three normalisation cases), so the sticky is
# set only when every lost bit is 1, and a sum whose round bit is set, the
# next bit clear and a lower bit set is taken for an exact tie and rounded
# down. A float add of two single-precision operands rarely loses bits
# there; a fused multiply-add, whose product has 48 bits, often does:
# bench/rtl/fp_ops.S measured vfmadd 1 ulp toward zero in 20 of 192 random
# cases (docs/timing.md, "What the check found"). The sticky becomes the OR
# reduction; the path's timing is unchanged.
s/,&addr_result\[/,|addr_result[/
