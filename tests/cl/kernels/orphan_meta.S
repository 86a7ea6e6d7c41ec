# orphan_meta.S — argument metadata for a kernel `ghost` the file never
# defines: clBuildProgram must fail and name it in the build log.
        .text
        .globl  real
real:
        ret

        .section .ventus.args.ghost, "", @progbits
        .word   1, 0
