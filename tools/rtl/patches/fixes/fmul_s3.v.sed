# src/gpgpu_top/sm/pipeline/tensor/fmul_s3.v: the float multiplier's last
# stage must round with the sticky bit of everything below the rounding
# position. It keeps the top PRECISION+2 bits of the shifted product
# (sig_shifted[3P+1:2P]) and ORs only sig_shifted[P+1:0] into the sticky, so
# the bits in between (2P-1 down to P+2) are lost: when the round bit is set,
# the result's last bit clear and only those bits set, the product is taken
# for an exact tie and rounded to even, that is down. bench/rtl/fp_ops.S
# measures it: vfmul gives the value rounded toward zero in 31 of 192
# random products as published (docs/timing.md, "What the check found").
# The sticky becomes the OR of all of sig_shifted[2P-1:0], as round-to-
# nearest-even needs (every bit below the round bit). The stage's
# timing is unchanged.
s/assign raw_in_sig  = {sig_shifted\[PRECISION\*3+1:PRECISION\*2],|sig_shifted\[PRECISION+1:0\]} ;/assign raw_in_sig  = {sig_shifted[PRECISION*3+1:PRECISION*2],|sig_shifted[PRECISION*2-1:0]} ;/
