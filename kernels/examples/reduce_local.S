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

        .include "reduce_tree.inc"

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
        vt_reduce_tree reduce_local

# Argument metadata for the OpenCL platform (docs/opencl.md §5.1), written
# with the macros of kernels/lib/args.inc (the other examples spell out the
# same directives by hand).
        .include "../lib/args.inc"
        vt_args             reduce_local, 4
        vt_arg_global_const reduce_local, in, int*
        vt_arg_global       reduce_local, out, int*
        vt_arg_value        reduce_local, n, uint, 4
        vt_arg_local        reduce_local, scratch, int*
