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
.Lrpc0:
        auipc   t1, %pcrel_hi(.Ljoin0)
        setrpc  zero, t1, %pcrel_lo(.Lrpc0)
        vbeq    v4, v2, .Ltaken0
        vmv.v.i v10, 2
        j       .Ljoin0
.Ltaken0:
        vmv.v.i v10, 1
.Ljoin0:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
.Lrpc1:
        auipc   t1, %pcrel_hi(.Ljoin1)
        setrpc  zero, t1, %pcrel_lo(.Lrpc1)
        vbne    v4, v2, .Ltaken1
        vmv.v.i v10, 2
        j       .Ljoin1
.Ltaken1:
        vmv.v.i v10, 1
.Ljoin1:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
.Lrpc2:
        auipc   t1, %pcrel_hi(.Ljoin2)
        setrpc  zero, t1, %pcrel_lo(.Lrpc2)
        vblt    v4, v2, .Ltaken2
        vmv.v.i v10, 2
        j       .Ljoin2
.Ltaken2:
        vmv.v.i v10, 1
.Ljoin2:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
.Lrpc3:
        auipc   t1, %pcrel_hi(.Ljoin3)
        setrpc  zero, t1, %pcrel_lo(.Lrpc3)
        vbge    v4, v2, .Ltaken3
        vmv.v.i v10, 2
        j       .Ljoin3
.Ltaken3:
        vmv.v.i v10, 1
.Ljoin3:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
.Lrpc4:
        auipc   t1, %pcrel_hi(.Ljoin4)
        setrpc  zero, t1, %pcrel_lo(.Lrpc4)
        vbltu    v4, v2, .Ltaken4
        vmv.v.i v10, 2
        j       .Ljoin4
.Ltaken4:
        vmv.v.i v10, 1
.Ljoin4:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
.Lrpc5:
        auipc   t1, %pcrel_hi(.Ljoin5)
        setrpc  zero, t1, %pcrel_lo(.Lrpc5)
        vbgeu    v4, v2, .Ltaken5
        vmv.v.i v10, 2
        j       .Ljoin5
.Ltaken5:
        vmv.v.i v10, 1
.Ljoin5:
        join    zero, zero, 0
        vsll.vi v11, v11, 2
        vadd.vv v11, v11, v10
        vadd.vx v12, v7, a2
        vsw12.v v11, 0(v12)
        addi    sp, sp, -4
        lw      ra, 0(sp)
        ret

# Argument metadata for the OpenCL platform (docs/opencl.md).
        .section .ventus.args.branches, "", @progbits
        .word   1, 2
        .word   1, 4, 1
        .asciz  "in"
        .asciz  "uint*"
        .balign 4
        .word   1, 4, 0
        .asciz  "out"
        .asciz  "uint*"
        .balign 4
