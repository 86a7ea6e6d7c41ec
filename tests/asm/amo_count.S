# Global AMOs across work-groups for the parallel-launch tests: every warp
# adds 1, n times, to c[0] and to c[1 + group % 7], the old values discarded
# (so any order of the groups gives the same memory). With G groups of W
# warps: c[0] = G*W*n; c[1 + j] = W*n times the number of groups g with
# g % 7 = j.
        .text
        .globl  count
count:
        lw      a1, 0(a0)               # c
        lw      t3, 4(a0)               # n
        csrr    t0, 0x808               # work-group id x
        li      t2, 7
        remu    t0, t0, t2
        addi    t0, t0, 1
        slli    t0, t0, 2
        add     a2, a1, t0
        li      t1, 1
1:      amoadd.w zero, t1, (a1)
        amoadd.w zero, t1, (a2)
        addi    t3, t3, -1
        bnez    t3, 1b
        ret
        .section .ventus.args.count, "", @progbits
        .word   1, 2
        .word   1, 4, 0
        .asciz  "c"
        .asciz  "uint*"
        .balign 4
        .word   0, 4, 0
        .asciz  "n"
        .asciz  "uint"
        .balign 4
