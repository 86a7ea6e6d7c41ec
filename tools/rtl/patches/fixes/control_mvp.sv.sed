# src/gpgpu_top/sm/pipeline/sfu_v2/float_div_mvp/control_mvp.sv: the float
# divider/square root (PULP's fpu_div_sqrt_mvp, which sfu_exe.v drives for
# vfdiv and vfsqrt in FP32 at full precision) must hand the rounder a sticky
# bit that says whether anything nonzero lies below the bits it computed.
# With three iteration units it computes 27 quotient (root) bits in 9
# cycles, the FP32 case of Mant_result_prenorm_DO passes just those bits
# (Quotient_DP[26:0], zeros below), and norm_div_sqrt_mvp.sv takes its
# sticky from the bits below the round bit, that is from one or two
# quotient bits. Whether the final partial remainder (Partial_remainder_DP)
# is zero is never looked at. So a quotient whose round bit is set and whose
# remaining quotient bits are 0 is taken for an exact tie although the
# remainder is not zero, and round-to-nearest-even rounds it down; the
# directed modes and the inexact flag miss it the same way. A standalone
# Verilator bench of div_sqrt_top_mvp against the host's IEEE results
# measured 1 ulp low in about 9% of vfdiv and 6% of vfsqrt with random
# operands in [0,1) under RNE, never at an exact tie (the published issue
# pulp-platform/fpu_div_sqrt_mvp#29 is the same defect).
# The fix computes Rem_nonzero_S from the remainder register in the cycle
# Done_SO is high, where the quotient is final, and puts it just below the
# FP32 quotient bits of Mant_result_prenorm_DO, where the rounder's sticky
# (and, through norm_div_sqrt_mvp.sv.sed, its right-shift for subnormal
# results) picks it up. For division the remainder is nonrestoring: it is
# exactly zero when the register's FP32 window [57:33] is 0 or is -D (the
# remainder stays at -D once a division came out exact). For the square
# root the window is [30:2] (the last cell's sum, already shifted by two for
# a next step) and holds floor((X - (Q|1)^2)/4); the root is exact exactly
# when that equals ~(Q>>1), that is -(2Q+1)/4 rounded down with Q even. The
# counter, Done_SO and Ready_SO are untouched: the latency stays the same
# (9 cycles from the start edge to Done_SO in both operations).
/Quotient_DP <= Quotient_DN;/{
n
a\
\
   // chengying fix: is the final remainder nonzero (the sticky bit for FP32)\
   logic [C_MANT_FP32+1:0]                  Div_rem_plus_den_D;\
   logic                                    Rem_nonzero_S;\
   assign Div_rem_plus_den_D = Partial_remainder_DP[C_MANT_FP64+5:C_MANT_FP64-C_MANT_FP32+4]\
                             + {1'b0,Denominator_DI[C_MANT_FP64:C_MANT_FP64-C_MANT_FP32]};\
   assign Rem_nonzero_S = Sqrt_enable_SO\
                        ? (Partial_remainder_DP[C_MANT_FP32+7:2] != ~{3'b000,Quotient_DP[C_MANT_FP32+3:1]})\
                        : ((Partial_remainder_DP[C_MANT_FP64+5:C_MANT_FP64-C_MANT_FP32+4] != '0) && (Div_rem_plus_den_D != '0));
}
s/Mant_result_prenorm_DO = {Quotient_DP\[C_MANT_FP32+3:0\],{(C_MANT_FP64-C_MANT_FP32+1){1'b0}}}; \/\/+3/Mant_result_prenorm_DO = {Quotient_DP[C_MANT_FP32+3:0],Rem_nonzero_S,{(C_MANT_FP64-C_MANT_FP32){1'b0}}}; \/\/+3, remainder sticky/
