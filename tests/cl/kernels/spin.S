# spin(global int *a): waits for a[0] != 0, which never happens (a runaway
# kernel for the platform's watchdog, tests/cl/test_cl_robust.c)
        .text
        .globl spin
spin:   lw t0, 0(a0)
1:      lw t1, 0(t0)
        beqz t1, 1b
        ret
        .section .ventus.args.spin, "", @progbits
        .word 1, 1
        .word 1, 4, 0
        .asciz "a"
        .asciz "int*"
        .balign 4
