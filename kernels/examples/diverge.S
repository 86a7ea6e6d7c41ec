# diverge.S — nested divergent branches and a divergent loop.
#
# Kernel:   diverge(const uint *in, uint *out, uint n)
#           for each work-item i < n:
#               x = in[i]; steps = 0;
#               while (x > 1) {                      divergent loop
#                   if (x & 1) x = 3*x + 1;          divergent if/else
#                   else       x = x >> 1;           (inside the loop)
#                   steps++;
#               }
#               if (steps < 8) cls = (i & 1) ? 1 : 2;        nested
#               else           cls = (steps >= 32) ? 3 : 0;  if/else
#               out[i] = steps * 4 + cls;
#           (uint32 arithmetic, wrapping; a lane whose sequence never
#           reaches 1 never ends, so pick inputs that do, e.g. 0..10000.)
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  in     +4  out (written)     +8  n
# NDRange:  1-D, any global/local size; work-items with i >= n do nothing.
# Uses the work-item routines of kernels/lib/workitem.S (saves ra first).
# Reference: ref_diverge() in tests/kernels/ref_kernels.c.
#
# Every vector branch is preceded by the compiler's idiom
#     .Ldiverge_rpc_N: auipc t1, %pcrel_hi(JOIN)
#              setrpc zero, t1, %pcrel_lo(.Ldiverge_rpc_N)
# which loads CSR_RPC with the address of JOIN, the `join zero, zero, 0` at the
# reconvergence point. Lanes whose condition is TRUE go to the branch target.
# Maximum SIMT stack depth: 2 for the guard + 2 for the if/else + at most
# 1 per lane exit in the loop (plus 1 more each time fewer lanes stay than
# leave): well below 64 for 32 lanes.

        .text
        .globl  diverge
diverge:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # in
        lw      a2, 4(a0)               # out
        lw      a3, 8(a0)               # n

        call    vt_global_id_x
        vmv.v.v v1, v0                  # v1 = i
        vmv.v.i v4, 1                   # constant 1
        vmv.v.i v5, 0                   # constant 0

        # ---- if (i < n) ----------------------------------------------------
        vmv.v.x v6, a3
.Ldiverge_rpc_guard:
        auipc   t1, %pcrel_hi(.Ldiverge_join_guard)
        setrpc  zero, t1, %pcrel_lo(.Ldiverge_rpc_guard)
        vbgeu   v1, v6, .Ldiverge_join_guard    # i >= n: skip everything

        vsll.vi v7, v1, 2
        vadd.vx v8, v7, a1
        vlw12.v v2, 0(v8)               # x = in[i]
        vmv.v.i v3, 0                   # steps = 0

        # ---- while (x > 1) ----------------------------------------------
.Ldiverge_loop:
.Ldiverge_rpc_loop:
        auipc   t1, %pcrel_hi(.Ldiverge_join_loop)
        setrpc  zero, t1, %pcrel_lo(.Ldiverge_rpc_loop)
        vbgeu   v4, v2, .Ldiverge_join_loop     # 1 >= x: this lane leaves the loop

        vand.vi v6, v2, 1
.Ldiverge_rpc_odd:
        auipc   t1, %pcrel_hi(.Ldiverge_join_odd)
        setrpc  zero, t1, %pcrel_lo(.Ldiverge_rpc_odd)
        vbne    v6, v5, .Ldiverge_odd           # odd lanes to .Ldiverge_odd
        vsrl.vi v2, v2, 1               # even: x >>= 1
        j       .Ldiverge_join_odd
.Ldiverge_odd:
        vsll.vi v6, v2, 1
        vadd.vv v2, v2, v6
        vadd.vi v2, v2, 1               # odd: x = 3x + 1
.Ldiverge_join_odd:
        join    zero, zero, 0
        vadd.vi v3, v3, 1               # steps++
        j       .Ldiverge_loop                  # scalar jump, taken by the active lanes
.Ldiverge_join_loop:
        join    zero, zero, 0

        # ---- classification --------------------------------------------
        li      t3, 8
        vmv.v.x v6, t3
.Ldiverge_rpc_cls:
        auipc   t1, %pcrel_hi(.Ldiverge_join_cls)
        setrpc  zero, t1, %pcrel_lo(.Ldiverge_rpc_cls)
        vbgeu   v3, v6, .Ldiverge_big           # steps >= 8

        # small: cls = (i & 1) ? 1 : 2
        vand.vi v9, v1, 1
.Ldiverge_rpc_small:
        auipc   t1, %pcrel_hi(.Ldiverge_join_small)
        setrpc  zero, t1, %pcrel_lo(.Ldiverge_rpc_small)
        vbne    v9, v5, .Ldiverge_small_odd
        vmv.v.i v10, 2
        j       .Ldiverge_join_small
.Ldiverge_small_odd:
        vmv.v.i v10, 1
.Ldiverge_join_small:
        join    zero, zero, 0
        j       .Ldiverge_join_cls

.Ldiverge_big:  # big: cls = (steps >= 32) ? 3 : 0
        li      t3, 32
        vmv.v.x v6, t3
.Ldiverge_rpc_big:
        auipc   t1, %pcrel_hi(.Ldiverge_join_big)
        setrpc  zero, t1, %pcrel_lo(.Ldiverge_rpc_big)
        vbgeu   v3, v6, .Ldiverge_huge
        vmv.v.i v10, 0
        j       .Ldiverge_join_big
.Ldiverge_huge:
        vmv.v.i v10, 3
.Ldiverge_join_big:
        join    zero, zero, 0

.Ldiverge_join_cls:
        join    zero, zero, 0

        # out[i] = steps*4 + cls
        vsll.vi v11, v3, 2
        vadd.vv v11, v11, v10
        vadd.vx v12, v7, a2
        vsw12.v v11, 0(v12)

.Ldiverge_join_guard:
        join    zero, zero, 0
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret

# Argument metadata for the OpenCL platform (docs/opencl.md, "argument
# metadata"): version 1, the argument count, then per argument its
# address space (0 by value, 1 global, 2 constant, 3 local), size,
# type qualifiers (1 const), name and type name.
        .section .ventus.args.diverge, "", @progbits
        .word   1, 3
        .word   1, 4, 1
        .asciz  "in"
        .asciz  "uint*"
        .balign 4
        .word   1, 4, 0
        .asciz  "out"
        .asciz  "uint*"
        .balign 4
        .word   0, 4, 0
        .asciz  "n"
        .asciz  "uint"
        .balign 4
