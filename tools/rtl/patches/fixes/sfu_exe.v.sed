# src/gpgpu_top/sm/pipeline/sfu_v2/sfu_exe.v: a float division or square
# root whose result cannot leave the SFU in the cycle it is done waits in
# float_result_reg, one 32-bit field per divider unit; the output then reads
# float_result_reg[`NUM_SFU*(n+1)-1:`NUM_SFU*n], a field NUM_SFU bits wide
# (1, 2 or 4 bits for 4, 8 or 16 threads), so the waiting result comes out
# as its low bits zero-extended. It happens whenever the units of one batch
# of lanes finish at different times: a special case (a zero or infinite
# operand, a NaN, the root of a negative number) is done at once while the
# others take 9 cycles. The gaussian case 1w16t divides 0 by -0.6 in lane 2
# beside two ordinary quotients: the RTL stored +0 where -0 is due, and
# sqrt(-0.3) beside ordinary roots came out 0 instead of the NaN. The
# output reads the unit's own 32-bit field, and the register takes a
# unit's result only in the cycle that unit is done (it took every unit's
# current output whenever any unit was done). When results leave is
# unchanged.
s/float_result_reg\[`NUM_SFU\*(n+1)-1:`NUM_SFU\*n\]/float_result_reg[(EXPWIDTH+PRECISION)*(n+1)-1:(EXPWIDTH+PRECISION)*n]/
s/^\(\s*\)if(float_done_s0) begin/\1if(float_done_s0[n]) begin/
