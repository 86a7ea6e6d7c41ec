# fp_ops.S — one of each float operation on every lane, for checking the
# RTL's float units against the functional simulator (IEEE-754, the ISS).
#
# Kernel:   fp_ops(const float *a, const float *b, const float *c,
#                  float *out, uint n)
#           for each work-item i (the global size must equal n):
#               out[0n + i] = a[i] / b[i]           vfdiv.vv  (the SFU)
#               out[1n + i] = c[i] * a[i] + b[i]    vfmadd.vv
#               out[2n + i] = a[i] * b[i]           vfmul.vv
#               out[3n + i] = a[i] + c[i]           vfadd.vv
#               out[4n + i] = sqrt(a[i])            vfsqrt.v  (the SFU)
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0 a  +4 b  +8 c  +12 out (5n floats, written)  +16 n
# docs/timing.md, "What the check found", says what the RTL does with it.

        .include "../../kernels/lib/args.inc"

        .text
        .globl  fp_ops
fp_ops:
        sw      ra, 0(sp)
        addi    sp, sp, 4
        lw      a1, 0(a0)               # a
        lw      a2, 4(a0)               # b
        lw      a3, 8(a0)               # c
        lw      a4, 12(a0)              # out: 5 results per item, blocks of n
        lw      a5, 16(a0)              # n
        call    vt_global_id_x
        vsll.vi v7, v0, 2
        vadd.vx v8, v7, a1
        vlw12.v v1, 0(v8)
        vadd.vx v8, v7, a2
        vlw12.v v2, 0(v8)
        vadd.vx v8, v7, a3
        vlw12.v v3, 0(v8)
        slli    t2, a5, 2               # block stride in bytes
        vadd.vx v9, v7, a4
        vfdiv.vv v10, v1, v2            # a / b
        vsw12.v v10, 0(v9)
        vadd.vx v9, v9, t2
        vmv.v.v v11, v3
        vfmadd.vv v11, v1, v2           # c * a + b (vd = vd * vs1 + vs2)
        vsw12.v v11, 0(v9)
        vadd.vx v9, v9, t2
        vfmul.vv v12, v1, v2
        vsw12.v v12, 0(v9)
        vadd.vx v9, v9, t2
        vfadd.vv v13, v1, v3
        vsw12.v v13, 0(v9)
        vadd.vx v9, v9, t2
        vfsqrt.v v14, v1
        vsw12.v v14, 0(v9)
        addi    sp, sp, -4
        lw      ra, 0(sp)
        ret

        vt_args fp_ops, 5
        vt_arg_global_const fp_ops, a, float*
        vt_arg_global_const fp_ops, b, float*
        vt_arg_global_const fp_ops, c, float*
        vt_arg_global fp_ops, out, float*
        vt_arg_value fp_ops, n, uint, 4
