# stream.S — benchmark kernel: a grid-stride fp32 vector add.
#
# Kernel:   stream(const float *A, const float *B, float *C, uint n)
#           for (i = global_id; i < n; i += global_size) C[i] = A[i] + B[i]
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  A    +4  B    +8  C (written)    +12 n
# NDRange:  1-D, global offset 0, n a multiple of the global size, global
#           size a multiple of the local size and the local size a multiple
#           of num_thread (no lane is out of range, so the loop is uniform:
#           a scalar counter, no SIMT region).
# The loop body is 9 warp-instructions (2 vector loads, fp add, vector
# store, 3 pointer bumps, counter, branch): a streaming memory + ALU mix
# with little start-up code per element (compare vecadd.S: one element per
# work-item). Reference result: ref_vecadd() over n elements.

        .text
        .globl  stream
stream:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # A
        lw      a2, 4(a0)               # B
        lw      a3, 8(a0)               # C
        lw      a4, 12(a0)              # n
        call    vt_global_id_x          # v0 = i
        call    vt_global_size_x        # a0 = G
        divu    a5, a4, a0              # iterations (uniform)
        slli    a6, a0, 2               # stride in bytes
        vsll.vi v3, v0, 2
        vadd.vx v4, v3, a1              # &A[i]
        vadd.vx v5, v3, a2              # &B[i]
        vadd.vx v6, v3, a3              # &C[i]
        beqz    a5, .Lstream_end
.Lstream_loop:
        vlw12.v v7, 0(v4)
        vlw12.v v8, 0(v5)
        vfadd.vv v9, v7, v8
        vsw12.v v9, 0(v6)
        vadd.vx v4, v4, a6
        vadd.vx v5, v5, a6
        vadd.vx v6, v6, a6
        addi    a5, a5, -1
        bnez    a5, .Lstream_loop
.Lstream_end:
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret
