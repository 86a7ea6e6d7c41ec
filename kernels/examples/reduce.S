# reduce.S — work-group sum reduction through local memory.
#
# Kernel:   reduce(const int *in, int *out, uint n)
#           out[g] = sum of in[i] over the work-items i of work-group g
#           with i < n (int32, wrapping). Items with i >= n contribute 0.
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  in     +4  out (one word per work-group, written)     +8  n
# NDRange:  1-D, global offset 0. The local size L must be a power of two
#           and a multiple of the warp width (num_thread), so no lane of the
#           group is a "phantom"; several warps per group are expected
#           (e.g. L = 64 with 8 or 32 threads per warp). Global size =
#           groups × L >= n.
# Local memory: numw·1 KiB of warp stacks (start.S) + L·4 bytes of data;
#           the launch's per-group local size must cover that (ventus run
#           --lds-size; e.g. 0x4000 for L = 64 with 8 threads per warp).
# Uses the work-item routines of kernels/lib/workitem.S (saves ra first).
# Reference: ref_reduce() in tests/kernels/ref_kernels.c.
#
# Algorithm (tree):
#     local[lid] = (gid < n) ? in[gid] : 0;  barrier
#     for (s = L/2; s > 0; s >>= 1) {
#         if (lid < s) local[lid] += local[lid + s];      (divergent)
#         barrier                                         (all lanes, all warps)
#     }
#     if (lid == 0) out[group_id] = local[0];

        .include "reduce_tree.inc"

        .text
        .globl  reduce
reduce:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # in
        lw      a2, 4(a0)               # out
        lw      a3, 8(a0)               # n

        call    vt_local_id_x
        vmv.v.v v1, v0                  # lid
        call    vt_global_id_x
        vmv.v.v v2, v0                  # gid
        call    vt_local_base
        mv      a5, a0                  # &local[0]
        vt_reduce_tree reduce
