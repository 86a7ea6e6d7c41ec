# start.S — warp start-up code for chengying kernels.
#
# Every warp of every work-group begins here, at 0x80000000. This file must be
# the FIRST input of the link so that _start is the first word of .text:
#     ventus as -o vecadd.elf kernels/lib/start.S kernels/lib/workitem.S kernels/examples/vecadd.S
#
# What it does, in order (docs/kernels.md has the full ABI):
#   1. vl  = min(32, VLMAX) with SEW=32, LMUL=1, i.e. one element per thread;
#   2. mstatus.FS = Initial, so the Zfinx fp instructions may run;
#   3. sp  = CSR_LDS + CSR_WID*1024   per-warp scalar stack in local memory,
#                                     1 KiB per warp, grows upwards;
#      s0  = CSR_LDS + CSR_NUMW*1024  first byte of local memory after the
#                                     warp stacks (work-group __local data);
#      tp  = 0                        per-thread private stack, as an OFFSET
#                                     into private space: vlw.v/vsw.v add
#                                     CSR_PDS themselves (word-interleaved),
#                                     so tp must not contain CSR_PDS again;
#   4. (.bss needs no clearing: the loader zero-fills it at each load);
#   5. copy the print-buffer address/size (metadata +48/+52) to the global
#      words BUFFER_ADDR / BUFFER_SIZE, for library code that prints (not
#      in programs of `ventus cc`, which assembles this file with
#      VT_CC_START defined: compiled code reads the metadata itself, and
#      two stores of every warp into .data cost each warp two turns);
#   6. a0 = argument buffer (metadata +4), call the kernel (metadata +0);
#   7. endprg: the warp is finished (it also counts as arrived at barriers).

        .equ    CRT_KNL_ENTRY,      0
        .equ    CRT_KNL_ARG_BASE,   4
        .equ    CRT_KNL_PRINT_ADDR, 48
        .equ    CRT_KNL_PRINT_SIZE, 52
        .equ    CRT_WARP_STACK,     1024    # bytes of scalar stack per warp
        .equ    CRT_MSTATUS_FS, 0x2000  # mstatus.FS = 01 (Initial)

        .text
        .globl  _start
_start:
        # 1. one 32-bit element per thread: vl = min(AVL=32, VLMAX = num_thread)
        li      t4, 32
        vsetvli t4, t4, e32, m1, ta, ma

        # 2. floating point on (Zfinx still checks mstatus.FS)
#ifndef VT_CC_NO_FP
        li      t4, CRT_MSTATUS_FS
        csrrs   zero, 0x300, t4         # 0x300 = mstatus
#endif

        # 3. stacks. `ventus cc` leaves out what no instruction of its
        #    program reads (VT_CC_NO_SP, _S0, _TP, _LDS, _FP: cc_module.c)
#ifndef VT_CC_NO_SP
        csrr    t1, wid
#endif
#ifndef VT_CC_NO_LDS
        csrr    t2, lds
#endif
#ifndef VT_CC_NO_SP
        slli    t1, t1, 10              # wid * CRT_WARP_STACK
        add     sp, t2, t1
#endif
#ifndef VT_CC_NO_S0
        csrr    t5, numw
        slli    t5, t5, 10              # numw * CRT_WARP_STACK
        add     s0, t2, t5
#endif
#ifndef VT_CC_NO_TP
        li      tp, 0
#endif

        # 4. .bss is not cleared here: the ELF loader zero-fills every
        #    segment's p_memsz - p_filesz tail at each load (as upstream's
        #    newest crt0 assumes too), and our assembler's layout defines no
        #    _edata/_end bounds to clear between.

        # 5./6. metadata block
        csrr    t0, knl
        lw      t1, CRT_KNL_ENTRY(t0)
        lw      a0, CRT_KNL_ARG_BASE(t0)
#ifndef VT_CC_START
        lw      t2, CRT_KNL_PRINT_ADDR(t0)
        lw      t3, CRT_KNL_PRINT_SIZE(t0)
        la      t4, BUFFER_ADDR
        sw      t2, 0(t4)
        sw      t3, 4(t4)               # BUFFER_SIZE follows BUFFER_ADDR
#endif
        jalr    ra, 0(t1)

        # 7. done
        endprg  x0, x0, x0
.Lcrt_hang:                             # endprg never returns; be safe
        j       .Lcrt_hang
        .size   _start, .-_start        # the start-up code's extent: a driver
                                        # scans it with the kernel's own code

        .data
        .align  2
        .globl  BUFFER_ADDR
        .globl  BUFFER_SIZE
BUFFER_ADDR:
        .word   0
BUFFER_SIZE:
        .word   0
