# branches.S — each vector branch (vbeq, vbne, vblt, vbge, vbltu, vbgeu)
# once, under divergence, each path writing one register that is read after
# the join: a check of the SIMT stack and of masked register writes
# (docs/timing.md, "A defect of the RTL, fixed at build time").
#
# Kernel:   branches(const uint *in, uint *out)
#           for each work-item i: x = in[i], r = 0, then for each branch k
#           in the order above, in base 4:
#               r = 4r + (5 OP_k x ? 1 : 2)
#           out[i] = r   (6 digits; OP: ==, !=, <, >=, <u, >=u)
# Arguments (argument buffer at a0): +0 in, +4 out (written).
        .text
        .globl  branches

        .include "../../kernels/lib/args.inc"

        # branch K, OP: r = 4r + (5 OP x ? 1 : 2), with v4 = 5, v2 = x,
        # v11 = r; each side of the divergent branch writes v10
        .macro  branch k:req, op:req
.Lrpc\k:
        auipc   t1, %pcrel_hi(.Ljoin\k)
        setrpc  zero, t1, %pcrel_lo(.Lrpc\k)
        \op     v4, v2, .Ltaken\k
        vmv.v.i v10, 2
        j       .Ljoin\k
.Ltaken\k:
        vmv.v.i v10, 1
.Ljoin\k:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
        .endm

        .text
        .globl  branches
branches:
        sw      ra, 0(sp)
        addi    sp, sp, 4
        lw      a1, 0(a0)
        lw      a2, 4(a0)
        call    vt_global_id_x
        vmv.v.v v1, v0
        vsll.vi v7, v1, 2
        vadd.vx v8, v7, a1
        vlw12.v v2, 0(v8)               # x = in[i]
        li      t3, 5
        vmv.v.x v4, t3                  # v4 = 5
        vmv.v.i v11, 0
        branch  0, vbeq
        branch  1, vbne
        branch  2, vblt
        branch  3, vbge
        branch  4, vbltu
        branch  5, vbgeu
        vadd.vx v12, v7, a2
        vsw12.v v11, 0(v12)
        addi    sp, sp, -4
        lw      ra, 0(sp)
        ret

        vt_args branches, 2
        vt_arg_global_const branches, in, uint*
        vt_arg_global branches, out, uint*
