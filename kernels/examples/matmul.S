# matmul.S — C = A · B for int32 matrices, row-major.
#
# Kernel:   matmul(const int *A, const int *B, int *C, uint M, uint K, uint N)
#           A is M×K, B is K×N, C is M×N (all row-major, int32, wrapping
#           arithmetic).
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  A    +4  B    +8  C (written)    +12 M    +16 K    +20 N
# NDRange:  2-D, one work-item per element of C:
#             dimension 0 (x) = column j, global size >= N
#             dimension 1 (y) = row i,    global size >= M
#           any local size (e.g. 8×4); work-items outside M×N do nothing.
#           K may be 0 (C is then all zeros).
# Uses the work-item routines of kernels/lib/workitem.S (saves ra first).
# Reference: ref_matmul() in tests/kernels/ref_kernels.c.

        .text
        .globl  matmul
matmul:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # A
        lw      a2, 4(a0)               # B
        lw      a3, 8(a0)               # C
        lw      a4, 12(a0)              # M
        lw      a5, 16(a0)              # K
        lw      a6, 20(a0)              # N

        call    vt_global_id_x
        vmv.v.v v1, v0                  # v1 = j (column)
        call    vt_global_id_y
        vmv.v.v v2, v0                  # v2 = i (row)

        # inside = (j < N) & (i < M); compares give 0/1 per element
        vmsltu.vx v3, v1, a6
        vmsltu.vx v4, v2, a4
        vand.vv v3, v3, v4
        vmv.v.i v11, 0
        la      t1, .Lmatmul_end
        setrpc  zero, t1, 0
        vbeq    v3, v11, .Lmatmul_end          # outside lanes skip the body

        vmv.v.i v7, 0                   # acc
        beqz    a5, .Lmatmul_store             # K == 0 (uniform)
        vmul.vx v5, v2, a5              # i*K
        vsll.vi v5, v5, 2
        vadd.vx v5, v5, a1              # &A[i][0]
        vsll.vi v6, v1, 2
        vadd.vx v6, v6, a2              # &B[0][j]
        slli    t3, a6, 2               # row pitch of B in bytes
        mv      t4, a5                  # k counter (uniform)
.Lmatmul_k:
        vlw12.v v8, 0(v5)               # A[i][k]
        vlw12.v v9, 0(v6)               # B[k][j]
        vmul.vv v8, v8, v9
        vadd.vv v7, v7, v8
        vadd.vi v5, v5, 4
        vadd.vx v6, v6, t3
        addi    t4, t4, -1
        bnez    t4, .Lmatmul_k
.Lmatmul_store:
        vmul.vx v10, v2, a6             # i*N
        vadd.vv v10, v10, v1            # + j
        vsll.vi v10, v10, 2
        vadd.vx v10, v10, a3            # &C[i][j]
        vsw12.v v7, 0(v10)
.Lmatmul_end:
        join    zero, zero, 0
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret

# Argument metadata for the OpenCL platform (docs/opencl.md, "argument
# metadata"): version 1, the argument count, then per argument its
# address space (0 by value, 1 global, 2 constant, 3 local), size,
# type qualifiers (1 const), name and type name.
        .section .ventus.args.matmul, "", @progbits
        .word   1, 6
        .word   1, 4, 1
        .asciz  "A"
        .asciz  "int*"
        .balign 4
        .word   1, 4, 1
        .asciz  "B"
        .asciz  "int*"
        .balign 4
        .word   1, 4, 0
        .asciz  "C"
        .asciz  "int*"
        .balign 4
        .word   0, 4, 0
        .asciz  "M"
        .asciz  "uint"
        .balign 4
        .word   0, 4, 0
        .asciz  "K"
        .asciz  "uint"
        .balign 4
        .word   0, 4, 0
        .asciz  "N"
        .asciz  "uint"
        .balign 4
