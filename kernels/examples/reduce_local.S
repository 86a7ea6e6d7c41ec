# reduce_local.S — work-group sum reduction in a __local argument.
#
# Kernel:   reduce_local(const int *in, int *out, uint n, __local int *scratch)
#           out[g] = sum of in[i] over the work-items i of work-group g
#           with i < n (int32, wrapping). Items with i >= n contribute 0.
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  in   +4  out (one word per work-group)   +8  n
#     +12 scratch: L*4 bytes of the group's local memory, placed by the
#         runtime (OpenCL: clSetKernelArg(k, 3, L*4, NULL))
# NDRange:  as reduce.S: 1-D, local size L a power of two and a multiple of
#           the warp width, global size = groups × L >= n.
# The same tree as reduce.S, which finds its local data at vt_local_base
# instead of taking it as an argument.
# Reference: ref_reduce() in tests/kernels/ref_kernels.c.

        .text
        .globl  reduce_local
reduce_local:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # in
        lw      a2, 4(a0)               # out
        lw      a3, 8(a0)               # n
        lw      a5, 12(a0)              # scratch: &local[0]

        call    vt_local_id_x
        vmv.v.v v1, v0                  # lid
        call    vt_global_id_x
        vmv.v.v v2, v0                  # gid
        vsll.vi v3, v1, 2
        vadd.vx v3, v3, a5              # &local[lid]

        # v4 = (gid < n) ? in[gid] : 0
        vmv.v.i v4, 0
        vmv.v.x v5, a3
        la      t1, .Lreduce_local_loaded
        setrpc  zero, t1, 0
        vbgeu   v2, v5, .Lreduce_local_loaded        # gid >= n keeps 0
        vsll.vi v6, v2, 2
        vadd.vx v6, v6, a1
        vlw12.v v4, 0(v6)
.Lreduce_local_loaded:
        join    zero, zero, 0
        vsw12.v v4, 0(v3)
        barrier zero, zero, 0

        call    vt_local_size_x
        mv      t3, a0                  # L
        srli    t3, t3, 1               # s = L/2 (uniform over the group)
        beqz    t3, .Lreduce_local_write
.Lreduce_local_step:
        vmv.v.x v5, t3
        la      t1, .Lreduce_local_stepped
        setrpc  zero, t1, 0
        vbgeu   v1, v5, .Lreduce_local_stepped       # lid >= s: nothing to add
        slli    t4, t3, 2
        vadd.vx v7, v3, t4              # &local[lid + s]
        vlw12.v v6, 0(v3)
        vlw12.v v8, 0(v7)
        vadd.vv v6, v6, v8
        vsw12.v v6, 0(v3)
.Lreduce_local_stepped:
        join    zero, zero, 0
        barrier zero, zero, 0           # never on a divergent path
        srli    t3, t3, 1
        bnez    t3, .Lreduce_local_step

.Lreduce_local_write:
        vmv.v.i v5, 0
        la      t1, .Lreduce_local_done
        setrpc  zero, t1, 0
        vbne    v1, v5, .Lreduce_local_done          # only lid == 0 stays
        vlw12.v v6, 0(v3)               # local[0]
        csrr    t0, gidx
        slli    t0, t0, 2
        add     t0, t0, a2
        vmv.v.x v7, t0                  # &out[group]
        vsw12.v v6, 0(v7)
.Lreduce_local_done:
        join    zero, zero, 0
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret

# Argument metadata for the OpenCL platform (docs/opencl.md §5.1), written
# with the macros of kernels/lib/args.inc (the other examples spell out the
# same directives by hand).
        .include "../lib/args.inc"
        vt_args             reduce_local, 4
        vt_arg_global_const reduce_local, in, int*
        vt_arg_global       reduce_local, out, int*
        vt_arg_value        reduce_local, n, uint, 4
        vt_arg_local        reduce_local, scratch, int*
