# matmul_tiled.S — benchmark kernel: int32 C = A · B with 16×16 tiles in
# local memory.
#
# Kernel:   matmul_tiled(const int *A, const int *B, int *C, uint M, uint K, uint N)
#           A is M×K, B is K×N, C is M×N (row-major, int32, wrapping);
#           the same result as kernels/examples/matmul.S, computed the way
#           a GPU programmer would: per 16-wide slice of K the work-group
#           copies a tile of A and one of B into __local memory, waits at a
#           barrier, accumulates 16 products per work-item from local
#           memory, and waits again before the tiles are overwritten.
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  A    +4  B    +8  C (written)    +12 M    +16 K    +20 N
# NDRange:  2-D, local size exactly 16×16 (256 work-items, the tile),
#           global size (N, M); M, N and K multiples of 16 (no guards: every
#           work-item takes part in every barrier). x = column, y = row.
# Local memory: numw·1 KiB of warp stacks + 2 tiles of 1 KiB.
# Reference: ref_matmul() in tests/kernels/ref_kernels.c (same products,
# summed in the same order k = 0..K-1).

        .equ    MMT_TILE_BYTES, 1024    # 16×16 int32

        .text
        .globl  matmul_tiled
matmul_tiled:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # A
        lw      a2, 4(a0)               # B
        lw      a3, 8(a0)               # C
        lw      a5, 16(a0)              # K
        lw      a6, 20(a0)              # N

        call    vt_local_id_x
        vmv.v.v v1, v0                  # tx
        call    vt_local_id_y
        vmv.v.v v2, v0                  # ty
        call    vt_global_id_x
        vmv.v.v v3, v0                  # col
        call    vt_global_id_y
        vmv.v.v v4, v0                  # row
        call    vt_local_base           # a0 = As; Bs = As + MMT_TILE_BYTES

        # where this work-item stores its element of each tile: As[ty][tx]
        vsll.vi v5, v2, 4
        vadd.vv v5, v5, v1
        vsll.vi v5, v5, 2
        vadd.vx v5, v5, a0
        # where it reads: As[ty][k] = v6 + 4k, Bs[k][tx] = v7 + 64k
        vsll.vi v6, v2, 6
        vadd.vx v6, v6, a0
        vsll.vi v7, v1, 2
        addi    t2, a0, MMT_TILE_BYTES
        vadd.vx v7, v7, t2
        # global sources of the first tiles: &A[row][tx], &B[ty][col]
        vmul.vx v10, v4, a5
        vadd.vv v10, v10, v1
        vsll.vi v10, v10, 2
        vadd.vx v10, v10, a1
        vmul.vx v11, v2, a6
        vadd.vv v11, v11, v3
        vsll.vi v11, v11, 2
        vadd.vx v11, v11, a2
        slli    t3, a6, 6               # 16 rows of B, in bytes
        srli    t4, a5, 4               # tiles along K (uniform)
        li      t5, 64                  # 16 columns of A, in bytes

        vmv.v.i v12, 0                  # acc
        beqz    t4, .Lmmt_store
.Lmmt_tile:
        vlw12.v v8, 0(v10)
        vsw12.v v8, 0(v5)               # As[ty][tx] = A[row][t*16 + tx]
        vlw12.v v9, 0(v11)
        vsw12.v v9, MMT_TILE_BYTES(v5)  # Bs[ty][tx] = B[t*16 + ty][col]
        barrier zero, zero, 0
        .irp    k, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15
        vlw12.v v8, 4*\k(v6)
        vlw12.v v9, 64*\k(v7)
        vmul.vv v8, v8, v9
        vadd.vv v12, v12, v8
        .endr
        barrier zero, zero, 0           # nobody overwrites a tile still read
        addi    t4, t4, -1
        vadd.vx v10, v10, t5            # 16 columns of A further
        vadd.vx v11, v11, t3            # 16 rows of B further
        bnez    t4, .Lmmt_tile
.Lmmt_store:
        vmul.vx v13, v4, a6             # row*N
        vadd.vv v13, v13, v3            # + col
        vsll.vi v13, v13, 2
        vadd.vx v13, v13, a3
        vsw12.v v12, 0(v13)
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret
