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
# Uses the work-item routines of kernels/lib/workitem.S (saves ra first).
# Reference: ref_vecadd() in tests/kernels/ref_kernels.c.
#
# Link with start.S first:  ventus as -o vecadd.elf start.S workitem.S vecadd.S

        .text
        .globl  vecadd
vecadd:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # A
        lw      a2, 4(a0)               # B
        lw      a3, 8(a0)               # C
        lw      a4, 12(a0)              # n

        call    vt_global_id_x
        vmv.v.v v1, v0                  # v1 = i

        # if (i < n): lanes with i >= n branch straight to the join
        vmv.v.x v2, a4
        la      t1, .Lvecadd_end
        setrpc  zero, t1, 0
        vbgeu   v1, v2, .Lvecadd_end  # taken when v1 >= v2 (vs2 OP vs1)

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
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret

# Argument metadata for the OpenCL platform (docs/opencl.md, "argument
# metadata"): version 1, the argument count, then per argument its
# address space (0 by value, 1 global, 2 constant, 3 local), size,
# type qualifiers (1 const), name and type name.
        .section .ventus.args.vecadd, "", @progbits
        .word   1, 4
        .word   1, 4, 1
        .asciz  "A"
        .asciz  "float*"
        .balign 4
        .word   1, 4, 1
        .asciz  "B"
        .asciz  "float*"
        .balign 4
        .word   1, 4, 0
        .asciz  "C"
        .asciz  "float*"
        .balign 4
        .word   0, 4, 0
        .asciz  "n"
        .asciz  "uint"
        .balign 4
