# attrs.S — a kernel with hand-written argument and attribute sections
# (docs/opencl.md §5.1, §5.6): reqd_work_group_size(4,2,1) and a
# vec_type_hint, read from the binary alone (no compiler needed).
        .text
        .globl  fixed
fixed:
        ret

        .section .ventus.args.fixed, "", @progbits
        .word   1, 1                    # version 1, one argument
        .word   1, 4, 0                 # __global, 4 bytes, no qualifiers
        .asciz  "out"
        .asciz  "int*"
        .balign 4

        .section .ventus.attrs.fixed, "", @progbits
        .word   1                       # version 1
        .word   4, 2, 1                 # reqd_work_group_size
        .asciz  "reqd_work_group_size(4,2,1) vec_type_hint(float4)"
        .balign 4
