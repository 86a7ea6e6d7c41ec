# bfs.S — benchmark kernel: one level of a level-synchronous breadth-first
# search over a graph in CSR form (Rodinia-style "push" step).
#
# Kernel:   bfs(const uint *row, const uint *col, uint *dist, uint *ctl, uint n)
#           level = ctl[0];
#           for each work-item i < n with dist[i] == level:
#               for (e = row[i]; e < row[i+1]; e++)       divergent loop
#                   if (dist[col[e]] == 0xffffffff) {     divergent if
#                       dist[col[e]] = level + 1;
#                       ctl[1] = 1;                       "a node was reached"
#                   }
#           Several work-items may reach the same node in one level; they
#           all write level + 1, so the result does not depend on the order.
# Arguments (argument buffer at a0, one 32-bit word each):
#     +0  row (n+1 edge offsets)    +4  col (edge targets)
#     +8  dist (written; 0xffffffff = not reached)
#     +12 ctl (2 words: level, changed; the host loop sets them)    +16 n
# NDRange:  1-D, any global/local size; work-items with i >= n do nothing.
# The host launches it with level = 0, 1, 2, ... (clearing ctl[1] before
# each launch) until a launch reaches no node.
# Reference: bench_graph.c (the same sweeps in plain C).

        .text
        .globl  bfs
bfs:
        sw      ra, 0(sp)               # push ra: the warp stack grows upwards
        addi    sp, sp, 4
        lw      a1, 0(a0)               # row
        lw      a2, 4(a0)               # col
        lw      a3, 8(a0)               # dist
        lw      a4, 12(a0)              # ctl
        lw      a5, 16(a0)              # n

        call    vt_global_id_x
        vmv.v.v v1, v0                  # i
        lw      t2, 0(a4)               # level (uniform)
        addi    t3, t2, 1
        vmv.v.x v20, t3                 # level + 1
        vmv.v.i v21, -1                 # "not reached"
        vmv.v.i v22, 1
        addi    t3, a4, 4
        vmv.v.x v23, t3                 # &ctl[1]

        # ---- if (i < n) --------------------------------------------------
        vmv.v.x v6, a5
        la      t1, .Lbfs_join_guard
        setrpc  zero, t1, 0
        vbgeu   v1, v6, .Lbfs_join_guard
        vsll.vi v7, v1, 2
        vadd.vx v8, v7, a3
        vlw12.v v2, 0(v8)               # dist[i]

        # ---- if (dist[i] == level): the frontier --------------------------
        vmv.v.x v9, t2
        la      t1, .Lbfs_join_front
        setrpc  zero, t1, 0
        vbne    v2, v9, .Lbfs_join_front
        vadd.vx v10, v7, a1
        vlw12.v v11, 0(v10)             # row[i]
        vlw12.v v12, 4(v10)             # row[i+1]
        vsll.vi v11, v11, 2
        vadd.vx v11, v11, a2            # &col[e]
        vsll.vi v12, v12, 2
        vadd.vx v12, v12, a2            # &col[end]

        # ---- for each edge (divergent loop) ------------------------------
.Lbfs_loop:
        la      t1, .Lbfs_join_loop
        setrpc  zero, t1, 0
        vbgeu   v11, v12, .Lbfs_join_loop       # this lane's edges are done
        vlw12.v v13, 0(v11)             # j = col[e]
        vsll.vi v13, v13, 2
        vadd.vx v13, v13, a3            # &dist[j]
        vlw12.v v14, 0(v13)
        la      t1, .Lbfs_join_visit
        setrpc  zero, t1, 0
        vbne    v14, v21, .Lbfs_join_visit      # already reached
        vsw12.v v20, 0(v13)             # dist[j] = level + 1
        vsw12.v v22, 0(v23)             # ctl[1] = 1
.Lbfs_join_visit:
        join    zero, zero, 0
        vadd.vi v11, v11, 4
        j       .Lbfs_loop                      # scalar jump, taken by the active lanes
.Lbfs_join_loop:
        join    zero, zero, 0
.Lbfs_join_front:
        join    zero, zero, 0
.Lbfs_join_guard:
        join    zero, zero, 0
        addi    sp, sp, -4              # pop ra
        lw      ra, 0(sp)
        ret
