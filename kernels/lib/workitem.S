# workitem.S — OpenCL work-item builtins as routines, called with `call`.
#
#     ventus as -o k.elf kernels/lib/start.S kernels/lib/workitem.S k.S
#
# Calling convention of these routines (simpler than a general ABI, so that
# kernels can keep almost everything in registers across calls):
#   * per-lane results (ids) are returned in v0, one element per work-item;
#     uniform results (sizes, group ids, ...) in a0;
#   * they clobber only t0, t1 and the result register (v0 or a0); every
#     other x and v register, and sp, are preserved;
#   * call them with the full SIMT mask (outside divergent regions); since a
#     call overwrites ra, a kernel that calls them saves its own ra first.
#
# Work-items of a group are numbered linearly, x fastest, and warps take
# consecutive slices: lin = CSR_TID + lane (CSR_TID = wid * num_thread).
#     local_id.x = lin % lsx
#     local_id.y = (lin % (lsx*lsy)) / lsx
#     local_id.z = lin / (lsx*lsy)
#     global_id.d = group_id.d * local_size.d + global_offset.d + local_id.d
# Metadata block at CSR_KNL: +8 work_dim, +12/16/20 global size,
# +24/28/32 local size, +36/40/44 global offset (docs/kernels.md §5).

        .equ    WI_WORK_DIM,     8
        .equ    WI_GL_SIZE_X,    12
        .equ    WI_GL_SIZE_Y,    16
        .equ    WI_GL_SIZE_Z,    20
        .equ    WI_LC_SIZE_X,    24
        .equ    WI_LC_SIZE_Y,    28
        .equ    WI_LC_SIZE_Z,    32
        .equ    WI_GL_OFFSET_X,  36
        .equ    WI_GL_OFFSET_Y,  40
        .equ    WI_GL_OFFSET_Z,  44

        .text

# ---- per-lane ids (v0) -------------------------------------------------------

        .globl  vt_local_linear_id
vt_local_linear_id:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0
        ret

        .globl  vt_local_id_x
vt_local_id_x:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0              # lin
        csrr    t0, knl
        lw      t0, WI_LC_SIZE_X(t0)
        vremu.vx v0, v0, t0
        ret

        .globl  vt_local_id_y
vt_local_id_y:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0              # lin
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_X(t1)
        lw      t1, WI_LC_SIZE_Y(t1)
        mul     t1, t1, t0              # lsx * lsy
        vremu.vx v0, v0, t1
        vdivu.vx v0, v0, t0
        ret

        .globl  vt_local_id_z
vt_local_id_z:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0              # lin
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_X(t1)
        lw      t1, WI_LC_SIZE_Y(t1)
        mul     t1, t1, t0              # lsx * lsy
        vdivu.vx v0, v0, t1
        ret

        .globl  vt_global_id_x
vt_global_id_x:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0              # lin
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_X(t1)
        vremu.vx v0, v0, t0             # local id x
        csrr    t1, gidx
        mul     t0, t0, t1              # group * local size
        csrr    t1, knl
        lw      t1, WI_GL_OFFSET_X(t1)
        add     t0, t0, t1
        vadd.vx v0, v0, t0
        ret

        .globl  vt_global_id_y
vt_global_id_y:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0              # lin
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_X(t1)
        lw      t1, WI_LC_SIZE_Y(t1)
        mul     t1, t1, t0
        vremu.vx v0, v0, t1
        vdivu.vx v0, v0, t0             # local id y
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_Y(t1)
        csrr    t1, gidy
        mul     t0, t0, t1
        csrr    t1, knl
        lw      t1, WI_GL_OFFSET_Y(t1)
        add     t0, t0, t1
        vadd.vx v0, v0, t0
        ret

        .globl  vt_global_id_z
vt_global_id_z:
        vid.v   v0
        csrr    t0, tid
        vadd.vx v0, v0, t0              # lin
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_X(t1)
        lw      t1, WI_LC_SIZE_Y(t1)
        mul     t1, t1, t0
        vdivu.vx v0, v0, t1             # local id z
        csrr    t1, knl
        lw      t0, WI_LC_SIZE_Z(t1)
        csrr    t1, gidz
        mul     t0, t0, t1
        csrr    t1, knl
        lw      t1, WI_GL_OFFSET_Z(t1)
        add     t0, t0, t1
        vadd.vx v0, v0, t0
        ret

# ---- uniform values (a0) -----------------------------------------------------

        .globl  vt_group_id_x
vt_group_id_x:
        csrr    a0, gidx
        ret
        .globl  vt_group_id_y
vt_group_id_y:
        csrr    a0, gidy
        ret
        .globl  vt_group_id_z
vt_group_id_z:
        csrr    a0, gidz
        ret

        .globl  vt_work_dim
vt_work_dim:
        csrr    a0, knl
        lw      a0, WI_WORK_DIM(a0)
        ret

        .globl  vt_local_size_x
vt_local_size_x:
        csrr    a0, knl
        lw      a0, WI_LC_SIZE_X(a0)
        ret
        .globl  vt_local_size_y
vt_local_size_y:
        csrr    a0, knl
        lw      a0, WI_LC_SIZE_Y(a0)
        ret
        .globl  vt_local_size_z
vt_local_size_z:
        csrr    a0, knl
        lw      a0, WI_LC_SIZE_Z(a0)
        ret

        .globl  vt_global_size_x
vt_global_size_x:
        csrr    a0, knl
        lw      a0, WI_GL_SIZE_X(a0)
        ret
        .globl  vt_global_size_y
vt_global_size_y:
        csrr    a0, knl
        lw      a0, WI_GL_SIZE_Y(a0)
        ret
        .globl  vt_global_size_z
vt_global_size_z:
        csrr    a0, knl
        lw      a0, WI_GL_SIZE_Z(a0)
        ret

        .globl  vt_global_offset_x
vt_global_offset_x:
        csrr    a0, knl
        lw      a0, WI_GL_OFFSET_X(a0)
        ret
        .globl  vt_global_offset_y
vt_global_offset_y:
        csrr    a0, knl
        lw      a0, WI_GL_OFFSET_Y(a0)
        ret
        .globl  vt_global_offset_z
vt_global_offset_z:
        csrr    a0, knl
        lw      a0, WI_GL_OFFSET_Z(a0)
        ret

        .globl  vt_num_groups_x
vt_num_groups_x:
        csrr    t0, knl
        lw      a0, WI_GL_SIZE_X(t0)
        lw      t0, WI_LC_SIZE_X(t0)
        divu    a0, a0, t0
        ret
        .globl  vt_num_groups_y
vt_num_groups_y:
        csrr    t0, knl
        lw      a0, WI_GL_SIZE_Y(t0)
        lw      t0, WI_LC_SIZE_Y(t0)
        divu    a0, a0, t0
        ret
        .globl  vt_num_groups_z
vt_num_groups_z:
        csrr    t0, knl
        lw      a0, WI_GL_SIZE_Z(t0)
        lw      t0, WI_LC_SIZE_Z(t0)
        divu    a0, a0, t0
        ret

# a0 = first byte of the work-group's __local data: CSR_LDS plus the 1 KiB
# warp stacks start.S puts at the bottom of local memory.
        .globl  vt_local_base
vt_local_base:
        csrr    a0, lds
        csrr    t0, numw
        slli    t0, t0, 10
        add     a0, a0, t0
        ret
