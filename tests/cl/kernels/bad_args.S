# bad_args.S — a kernel whose argument metadata is invalid (a pointer of
# 8 bytes): clBuildProgram must fail and say so in the build log.
        .text
        .globl  bad_args
bad_args:
        ret

        .section .ventus.args.bad_args, "", @progbits
        .word   1, 1
        .word   1, 8, 0
        .asciz  "p"
        .asciz  "int*"
        .balign 4
