# bad_access.S — a kernel whose argument metadata gives an image two access
# qualifiers (read_only and write_only, qualifier bits 3 and 4):
# clBuildProgram must fail and say so in the build log.
        .text
        .globl  bad_access
bad_access:
        ret

        .section .ventus.args.bad_access, "", @progbits
        .word   1, 1
        .word   1, 4, 0x18
        .asciz  "img"
        .asciz  "image2d_t"
        .balign 4
