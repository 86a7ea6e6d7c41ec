# alu_loop.S — a compute-bound integer kernel for launch-path measurements
# (docs/performance.md: the same launch from an ELF and as a test vector).
#
# Kernel:   alu_loop(const uint *in, uint *out, uint n, uint rounds)
#           for each work-item i < n:
#               x = in[i];
#               repeat rounds times { x = x * 1664525 + 1013904223; x ^= x >> 13; }
#               out[i] = x;
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  in    +4  out (written)    +8  n    +12 rounds

        .text
        .globl  alu_loop
alu_loop:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # in
        lw      a2, 4(a0)               # out
        lw      a3, 8(a0)               # n
        lw      a4, 12(a0)              # rounds
        call    vt_global_id_x
        vmv.v.v v1, v0                  # i
        li      t2, 1664525
        li      t3, 1013904223
        vmv.v.x v6, a3
        la      t1, .Lalu_join
        setrpc  zero, t1, 0
        vbgeu   v1, v6, .Lalu_join      # i >= n: nothing to do
        vsll.vi v7, v1, 2
        vadd.vx v8, v7, a1
        vlw12.v v2, 0(v8)               # x = in[i]
        mv      t4, a4                  # rounds (uniform)
        beqz    t4, .Lalu_store
.Lalu_round:
        vmul.vx v2, v2, t2
        vadd.vx v2, v2, t3
        vsrl.vi v3, v2, 13
        vxor.vv v2, v2, v3
        addi    t4, t4, -1
        bnez    t4, .Lalu_round
.Lalu_store:
        vadd.vx v9, v7, a2
        vsw12.v v2, 0(v9)
.Lalu_join:
        join    zero, zero, 0
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret
