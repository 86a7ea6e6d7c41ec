# empty.S — a kernel that returns at once: what a launch costs besides the
# kernel's own work (bench_launch). Link after start.S.
        .text
        .globl  empty
empty:
        ret

        .section .ventus.args.empty, "", @progbits
        .word   1, 0
