# src/gpgpu_top/sm/pipeline/sfu_v2/float_div_mvp/preprocess_mvp.sv: a square
# root has one operand, so only that operand being a signaling NaN may raise
# the invalid flag. The float divider/square root latches SNaN_SN (the NV of
# a NaN result) from both operands whatever the operation, and sfu_exe.v
# drives Operand_b_DI from its second operand for a vfsqrt too, so a square
# root of a quiet NaN raised NV whenever that unused operand happened to be
# a signaling NaN (4 to 8 in a million random operand
# pairs in a standalone bench against the host's IEEE flags). The second
# operand now counts for a division only. The result (the canonical NaN) and
# the timing are unchanged; with norm_div_sqrt_mvp.sv.sed, which stops that
# operand from turning a square root into a NaN, the square root ignores it.
s/(Mant_b_prenorm_SNaN_S&&NaN_b_SN)/(Mant_b_prenorm_SNaN_S\&\&NaN_b_SN\&\&Div_start_SI)/
