# hello.S — every work-group says hello through the print buffer.
#
# Kernel:   hello(void)            (no arguments)
# Output:   one line per work-group, written by its warp 0:
#               hello from work-group N
#           N = linear work-group id (CSR wgid), lines in order of N.
# NDRange:  any. Other warps of a group print nothing.
#
# Print protocol (docs/kernels.md §9): the warp writes its text at the start
# of the print buffer (address/size from metadata +48/+52, which start.S
# copies to BUFFER_ADDR/BUFFER_SIZE) and then writes the byte count to CSR
# print; the host drains that many bytes and sets the CSR back to 0. The
# buffer is shared by every warp of the launch, so printing warps must not
# overlap: warp 0 of group N waits until the global word hello_turn equals
# N, prints, and hands the turn to N+1. Groups are dispatched in id order,
# so group N-1 is resident or finished whenever group N waits (no deadlock),
# and the lines come out in group order.
#
# Link with start.S first:  ventus as -o hello.elf start.S workitem.S hello.S
# Run:  ventus run hello.elf --kernel hello --global 32 --local 8 --threads 4

        .equ    HELLO_MAX_LINE, 33      # "hello from work-group " + 10 digits + '\n'

        .text
        .globl  hello
hello:
        csrr    t0, wid
        bnez    t0, .Lhello_ret         # warp-uniform: a scalar branch is fine
        csrr    a1, wgid                # N
        la      t1, hello_turn
.Lhello_wait:                           # wait for our turn
        lw      t2, 0(t1)
        bne     t2, a1, .Lhello_wait

        la      t3, BUFFER_ADDR
        lw      a2, 0(t3)               # print buffer
        lw      a3, 4(t3)               # BUFFER_SIZE follows BUFFER_ADDR
        beqz    a2, .Lhello_pass        # no print buffer: nothing to say
        li      t3, HELLO_MAX_LINE
        bltu    a3, t3, .Lhello_pass    # too small for a line

        # the fixed text
        la      t4, .Lhello_text
        mv      a4, a2                  # write pointer
.Lhello_copy:
        lbu     t5, 0(t4)
        beqz    t5, .Lhello_number
        sb      t5, 0(a4)
        addi    t4, t4, 1
        addi    a4, a4, 1
        j       .Lhello_copy

        # N in decimal: count the digits, then write them backwards
.Lhello_number:
        li      t6, 10
        mv      t5, a1
        li      t4, 0
.Lhello_count:
        addi    t4, t4, 1
        divu    t5, t5, t6
        bnez    t5, .Lhello_count
        add     a4, a4, t4              # one past the last digit
        mv      t2, a4
        mv      t5, a1
.Lhello_digit:
        remu    t3, t5, t6
        addi    t3, t3, '0'
        addi    t2, t2, -1
        sb      t3, 0(t2)
        divu    t5, t5, t6
        bnez    t5, .Lhello_digit
        li      t3, 10                  # '\n'
        sb      t3, 0(a4)
        addi    a4, a4, 1

        sub     t3, a4, a2              # byte count
        csrw    print, t3               # the host prints the line now
.Lhello_pass:
        fence                           # the line is out before the turn moves on
        addi    t2, a1, 1
        sw      t2, 0(t1)               # next group's turn
.Lhello_ret:
        ret

        .section .rodata
.Lhello_text:
        .asciz  "hello from work-group "

        .data
        .align  2
hello_turn:
        .word   0

# Argument metadata for the OpenCL platform (docs/opencl.md, "argument
# metadata"): version 1, the argument count, then per argument its
# address space (0 by value, 1 global, 2 constant, 3 local), size,
# type qualifiers (1 const), name and type name.
        .section .ventus.args.hello, "", @progbits
        .word   1, 0
