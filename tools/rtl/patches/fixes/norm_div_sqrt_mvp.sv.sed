# src/gpgpu_top/sm/pipeline/sfu_v2/float_div_mvp/norm_div_sqrt_mvp.sv: the
# rounder of the float divider/square root must round FP32 results as IEEE
# 754 and RISC-V ask in every rounding mode. sfu_exe.v passes the
# instruction's rm (csrfile_rm, RISC-V encoding) to RM_SI unchanged.
# control_mvp.sv.sed supplies the remainder's sticky bit; this file fixes
# the rest of the rounding, all of it combinational (the latency does not
# change). As published, measured with a standalone Verilator bench of
# div_sqrt_top_mvp against the host's IEEE results:
# - RM_SI 2 and 3 are swapped: the module's C_RM_PLUSINF is 3'h2 and
#   C_RM_MINUSINF 3'h3, but RISC-V's 2 is RDN and 3 is RUP, so RDN rounded
#   up and RUP down (wrong in nearly every inexact case). The case bodies
#   for 3'h2 and 3'h3 exchange their signs.
# - RM_SI 4 (RISC-V RMM) rounded up whenever the last kept bit was 1. It
#   becomes round to nearest, ties away from zero (round up when the round
#   bit is set).
# - A quotient above the largest float gave the largest finite number in
#   every mode when its exponent was 256 or more and infinity in every mode
#   when it was 255. Both overflow branches now leave the largest finite
#   number and the rounding adds one ulp (giving infinity) when the mode
#   rounds away from zero (RNE, RMM, RDN for negative, RUP for positive
#   results).
# - For a result in the subnormal range the FP32 sticky ignored the bits
#   shifted below Mant_RS_D (the FP64 case uses them, Mant_forround_D), and
#   a quotient shifted out entirely (by 110 bits or more) left no trace, so
#   tiny quotients were exact zeros even under RUP/RDN. The FP32 sticky now
#   ORs Mant_forround_D in, and a lost nonzero quotient sets its last bit.
# - A subnormal that rounds up to 2^-126 kept exponent 0 (a zero result);
#   the carry into the hidden bit now raises the exponent to 1.
# - A square root returned NaN when the unused second operand happened to be
#   a NaN; that check is for division only.
# - Flags (FP32): OF is also raised when rounding carries into exponent 255,
#   and UF is tiny after rounding and inexact, as RISC-V specifies (it was
#   raised only for a result whose mantissa was zero before rounding). NX
#   was already right once the sticky is. (sfu_exe.v does not forward the
#   flags at all.)
/^  assign  {Mant_RS_D,Mant_forsticky_D} =/a\
  // chengying fix: a nonzero quotient shifted out of both registers\
  logic                                         Mant_lost_S;\
  assign Mant_lost_S = (Mant_in_DI != '0) && (Mant_RS_D == '0) && (Mant_forsticky_D == '0);
s/Mant_forround_D={Mant_forsticky_D\[C_MANT_FP64+4:0\]};   \/\/??/Mant_forround_D={Mant_forsticky_D[C_MANT_FP64+4:1],Mant_forsticky_D[0]|Mant_lost_S};/
s/else if(NaN_b_SI)   \/\/if b is NaN, return NaN/else if(NaN_b_SI\&\&Div_enable_SI)   \/\/if b is NaN, return NaN (division only)/
/Exp_OF_S=1'b1;/,/Exp_res_norm_D=/{
s/Mant_res_norm_D= '0;/Mant_res_norm_D= '1;/
s/Exp_res_norm_D='1;/Exp_res_norm_D={{(C_EXP_FP64-1){1'b1}},1'b0};/
}
s/Mant_sticky_bit_D = | Mant_res_norm_D\[C_MANT_FP64-C_MANT_FP32-3:0\];/Mant_sticky_bit_D = (| Mant_res_norm_D[C_MANT_FP64-C_MANT_FP32-3:0]) | (| Mant_forround_D);/
/C_RM_PLUSINF :/{
n
s/Mant_roundUp_S = Mant_rounded_S & ~Sign_in_DI;/Mant_roundUp_S = Mant_rounded_S \& Sign_in_DI;   \/\/ 3'h2 is RISC-V RDN/
}
/C_RM_MINUSINF:/{
n
s/Mant_roundUp_S = Mant_rounded_S & Sign_in_DI;/Mant_roundUp_S = Mant_rounded_S \& ~Sign_in_DI;  \/\/ 3'h3 is RISC-V RUP/
}
/C_RM_M       :/{
n
s/Mant_roundUp_S = .*/Mant_roundUp_S = Mant_lower_D[1];   \/\/ 3'h4 is RISC-V RMM, ties away from zero/
}
/^  logic  \[C_MANT_FP64:0\]                Mant_roundUp_Vector_S;/a\
  // chengying fix: an overflow rounds to infinity or to the largest finite number by the mode\
  logic                                 Ovf_to_inf_S;\
  logic                                 Mant_roundUp_fin_S;\
  assign Ovf_to_inf_S = (RM_SI==C_RM_NEAREST) | (RM_SI==C_RM_M) | ((RM_SI==C_RM_PLUSINF)&&Sign_in_DI) | ((RM_SI==C_RM_MINUSINF)&&~Sign_in_DI);\
  assign Mant_roundUp_fin_S = Exp_OF_S ? Ovf_to_inf_S : Mant_roundUp_S;
s/^  assign Mant_roundUp_Vector_S=.*/  assign Mant_roundUp_Vector_S={7'h0,(FP16ALT_SI\&\&Mant_roundUp_fin_S),2'h0,(FP16_SI\&\&Mant_roundUp_fin_S),12'h0,(FP32_SI\&\&Mant_roundUp_fin_S),28'h0,(FP64_SI\&\&Mant_roundUp_fin_S)};/
s/^  assign Exp_res_round_D  = Exp_res_norm_D+Mant_renorm_S;/  assign Exp_res_round_D  = Exp_res_norm_D+(Mant_renorm_S | ((Exp_res_norm_D=='0) \&\& Mant_upperRounded_D[C_MANT_FP64])); \/\/ a subnormal rounded up to the smallest normal/
/^assign Fflags_SO = /{
i\
// chengying fix: FP32 OF and UF as RISC-V defines them\
logic Ovf_rnd_S, Tiny_S, Rnd_to_normal_S, Uf_S;\
assign Ovf_rnd_S = FP32_SI && Mant_renorm_S && (Exp_res_round_D[C_EXP_FP32-1:0]=='1) && ~Exp_OF_S;\
assign Tiny_S = Exp_res_norm_D[C_EXP_FP32-1:0]=='0;\
// tiny after rounding: the value would not round up to 2^-126 with an unbounded exponent\
assign Rnd_to_normal_S = (Mant_upper_D[C_MANT_FP64-1:C_MANT_FP64-C_MANT_FP32]=='1) && Mant_lower_D[1] &&\
       ((RM_SI==C_RM_NEAREST) | (RM_SI==C_RM_M) ? Mant_lower_D[0] :\
        ((RM_SI==C_RM_PLUSINF)&&Sign_in_DI) | ((RM_SI==C_RM_MINUSINF)&&~Sign_in_DI) ? (Mant_lower_D[0] | Mant_sticky_bit_D) : 1'b0);\
assign Uf_S = Tiny_S && ~Rnd_to_normal_S && Mant_rounded_S;
s/{NV_OP_S,Div_Zero_S,Exp_OF_S,Exp_UF_S,In_Exact_S}/{NV_OP_S,Div_Zero_S,Exp_OF_S|Ovf_rnd_S,(FP32_SI ? Uf_S : Exp_UF_S),In_Exact_S}/
}
