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
# Reference: ref_diverge() in tests/kernels/ref_kernels.c.
#
# Every vector branch is preceded by the compiler's idiom
#     .Lrpc_N: auipc t1, %pcrel_hi(JOIN)
#              setrpc zero, t1, %pcrel_lo(.Lrpc_N)
# which loads CSR_RPC with the address of JOIN, the `join zero, zero, 0` at the
# reconvergence point. Lanes whose condition is TRUE go to the branch target.
# Maximum SIMT stack depth: 2 for the guard + 2 for the if/else + at most
# 1 per lane exit in the loop (plus 1 more each time fewer lanes stay than
# leave): well below 64 for 32 lanes.

        .include "workitem.inc"

        .text
        .globl  diverge
diverge:
        lw      a1, 0(a0)               # in
        lw      a2, 4(a0)               # out
        lw      a3, 8(a0)               # n

        vt_global_id_x v1, t0, t2       # v1 = i
        vmv.v.i v4, 1                   # constant 1
        vmv.v.i v5, 0                   # constant 0

        # ---- if (i < n) ----------------------------------------------------
        vmv.v.x v6, a3
.Lrpc_guard:
        auipc   t1, %pcrel_hi(.Ljoin_guard)
        setrpc  zero, t1, %pcrel_lo(.Lrpc_guard)
        vbgeu   v1, v6, .Ljoin_guard    # i >= n: skip everything

        vsll.vi v7, v1, 2
        vadd.vx v8, v7, a1
        vlw12.v v2, 0(v8)               # x = in[i]
        vmv.v.i v3, 0                   # steps = 0

        # ---- while (x > 1) ----------------------------------------------
.Lloop:
.Lrpc_loop:
        auipc   t1, %pcrel_hi(.Ljoin_loop)
        setrpc  zero, t1, %pcrel_lo(.Lrpc_loop)
        vbgeu   v4, v2, .Ljoin_loop     # 1 >= x: this lane leaves the loop

        vand.vi v6, v2, 1
.Lrpc_odd:
        auipc   t1, %pcrel_hi(.Ljoin_odd)
        setrpc  zero, t1, %pcrel_lo(.Lrpc_odd)
        vbne    v6, v5, .Lodd           # odd lanes to .Lodd
        vsrl.vi v2, v2, 1               # even: x >>= 1
        j       .Ljoin_odd
.Lodd:
        vsll.vi v6, v2, 1
        vadd.vv v2, v2, v6
        vadd.vi v2, v2, 1               # odd: x = 3x + 1
.Ljoin_odd:
        join    zero, zero, 0
        vadd.vi v3, v3, 1               # steps++
        j       .Lloop                  # scalar jump, taken by the active lanes
.Ljoin_loop:
        join    zero, zero, 0

        # ---- classification --------------------------------------------
        li      t3, 8
        vmv.v.x v6, t3
.Lrpc_cls:
        auipc   t1, %pcrel_hi(.Ljoin_cls)
        setrpc  zero, t1, %pcrel_lo(.Lrpc_cls)
        vbgeu   v3, v6, .Lbig           # steps >= 8

        # small: cls = (i & 1) ? 1 : 2
        vand.vi v9, v1, 1
.Lrpc_small:
        auipc   t1, %pcrel_hi(.Ljoin_small)
        setrpc  zero, t1, %pcrel_lo(.Lrpc_small)
        vbne    v9, v5, .Lsmall_odd
        vmv.v.i v10, 2
        j       .Ljoin_small
.Lsmall_odd:
        vmv.v.i v10, 1
.Ljoin_small:
        join    zero, zero, 0
        j       .Ljoin_cls

.Lbig:  # big: cls = (steps >= 32) ? 3 : 0
        li      t3, 32
        vmv.v.x v6, t3
.Lrpc_big:
        auipc   t1, %pcrel_hi(.Ljoin_big)
        setrpc  zero, t1, %pcrel_lo(.Lrpc_big)
        vbgeu   v3, v6, .Lhuge
        vmv.v.i v10, 0
        j       .Ljoin_big
.Lhuge:
        vmv.v.i v10, 3
.Ljoin_big:
        join    zero, zero, 0

.Ljoin_cls:
        join    zero, zero, 0

        # out[i] = steps*4 + cls
        vsll.vi v11, v3, 2
        vadd.vv v11, v11, v10
        vadd.vx v12, v7, a2
        vsw12.v v11, 0(v12)

.Ljoin_guard:
        join    zero, zero, 0
        ret
