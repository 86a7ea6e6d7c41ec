# vecadd.S — C[i] = A[i] + B[i] for fp32.
#
# Kernel:   vecadd(const float *A, const float *B, float *C, uint n)
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  A   device address of n floats
#     +4  B   device address of n floats
#     +8  C   device address of n floats (written)
#     +12 n   element count
# NDRange:  1-D. global size >= n (any multiple of the local size), any local
#           size; work-items with global id >= n do nothing. Global offset
#           is honoured.
# Reference: ref_vecadd() in tests/kernels/ref_kernels.c.
#
# Link with start.S first:  ventus as start.S vecadd.S -o vecadd.elf

        .include "workitem.inc"

        .text
        .globl  vecadd
vecadd:
        lw      a1, 0(a0)               # A
        lw      a2, 4(a0)               # B
        lw      a3, 8(a0)               # C
        lw      a4, 12(a0)              # n

        vt_global_id_x v1, t0, t2       # v1 = i

        # if (i < n): lanes with i >= n branch straight to the join
        vmv.v.x v2, a4
        vt_setrpc .Lvecadd_end, t1
        vbgeu   v1, v2, .Lvecadd_end           # taken when v1 >= v2 (vs2 OP vs1)

        vsll.vi v3, v1, 2               # byte offset i*4
        vadd.vx v4, v3, a1              # &A[i]
        vadd.vx v5, v3, a2              # &B[i]
        vadd.vx v6, v3, a3              # &C[i]
        vlw12.v v7, 0(v4)
        vlw12.v v8, 0(v5)
        vfadd.vv v9, v7, v8
        vsw12.v v9, 0(v6)
.Lvecadd_end:
        join    zero, zero, 0
        ret
