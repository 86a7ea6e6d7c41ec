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
        vsll.vi v3, v1, 2
        vadd.vx v3, v3, a5              # &local[lid]

        # v4 = (gid < n) ? in[gid] : 0
        vmv.v.i v4, 0
        vmv.v.x v5, a3
        la      t1, .Lreduce_loaded
        setrpc  zero, t1, 0
        vbgeu   v2, v5, .Lreduce_loaded        # gid >= n keeps 0
        vsll.vi v6, v2, 2
        vadd.vx v6, v6, a1
        vlw12.v v4, 0(v6)
.Lreduce_loaded:
        join    zero, zero, 0
        vsw12.v v4, 0(v3)
        barrier zero, zero, 0

        call    vt_local_size_x
        mv      t3, a0                  # L
        srli    t3, t3, 1               # s = L/2 (uniform over the group)
        beqz    t3, .Lreduce_write
.Lreduce_step:
        vmv.v.x v5, t3
        la      t1, .Lreduce_stepped
        setrpc  zero, t1, 0
        vbgeu   v1, v5, .Lreduce_stepped       # lid >= s: nothing to add
        slli    t4, t3, 2
        vadd.vx v7, v3, t4              # &local[lid + s]
        vlw12.v v6, 0(v3)
        vlw12.v v8, 0(v7)
        vadd.vv v6, v6, v8
        vsw12.v v6, 0(v3)
.Lreduce_stepped:
        join    zero, zero, 0
        barrier zero, zero, 0           # never on a divergent path
        srli    t3, t3, 1
        bnez    t3, .Lreduce_step

.Lreduce_write:
        vmv.v.i v5, 0
        la      t1, .Lreduce_done
        setrpc  zero, t1, 0
        vbne    v1, v5, .Lreduce_done          # only lid == 0 stays
        vlw12.v v6, 0(v3)               # local[0]
        csrr    t0, gidx
        slli    t0, t0, 2
        add     t0, t0, a2
        vmv.v.x v7, t0                  # &out[group]
        vsw12.v v6, 0(v7)
.Lreduce_done:
        join    zero, zero, 0
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret
