# fault.S — a kernel that stores through its first argument without any
# check: given a NULL buffer it writes to address 0, a device fault.
        .text
        .globl  fault
fault:
        lw      a1, 0(a0)
        sw      zero, 0(a1)
        ret
