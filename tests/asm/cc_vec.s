	.text
	.attribute	4, 16
	.attribute	5, "rv32i2p1_m2p0_a2p1_zicsr2p0_zmmul1p0_zfinx1p0_zve32x1p0_zvl32b1p0"
	.file	"cc_vec.c"
	.globl	axpy3                           # -- Begin function axpy3
	.p2align	2
	.type	axpy3,@function
axpy3:                                  # @axpy3
# %bb.0:
	blez	a3, .LBB0_8
# %bb.1:
	li	a5, 3
	bltu	a5, a3, .LBB0_3
# %bb.2:
	li	a4, 0
	j	.LBB0_6
.LBB0_3:
	lui	a4, 524288
	addi	a4, a4, -4
	and	a4, a3, a4
	slli	a6, a4, 2
	add	a6, a6, a1
	mv	a7, a0
	mv	t0, a2
	mv	t1, a1
	vsetivli	zero, 2, e32, m2, ta, ma
.LBB0_4:                                # =>This Inner Loop Header: Depth=1
	addi	t2, t0, 8
	addi	t3, t1, 8
	vle32.v	v8, (t1)
	vle32.v	v10, (t3)
	vle32.v	v12, (t0)
	vle32.v	v14, (t2)
	addi	t2, a7, 8
	vmadd.vx	v12, a5, v8
	vmadd.vx	v14, a5, v10
	vse32.v	v12, (a7)
	vse32.v	v14, (t2)
	addi	t1, t1, 16
	addi	t0, t0, 16
	addi	a7, a7, 16
	bne	t1, a6, .LBB0_4
# %bb.5:
	beq	a4, a3, .LBB0_8
.LBB0_6:
	slli	a5, a4, 2
	add	a4, a0, a5
	add	a2, a2, a5
	add	a1, a1, a5
	slli	a3, a3, 2
	add	a0, a0, a3
.LBB0_7:                                # =>This Inner Loop Header: Depth=1
	lw	a3, 0(a2)
	lw	a5, 0(a1)
	slli	a6, a3, 1
	add	a3, a3, a5
	add	a3, a6, a3
	sw	a3, 0(a4)
	addi	a4, a4, 4
	addi	a2, a2, 4
	addi	a1, a1, 4
	bne	a4, a0, .LBB0_7
.LBB0_8:
	ret
.Lfunc_end0:
	.size	axpy3, .Lfunc_end0-axpy3
                                        # -- End function
	.globl	shift_mask                      # -- Begin function shift_mask
	.p2align	2
	.type	shift_mask,@function
shift_mask:                             # @shift_mask
# %bb.0:
	blez	a2, .LBB1_8
# %bb.1:
	li	a3, 3
	bltu	a3, a2, .LBB1_3
# %bb.2:
	li	a3, 0
	j	.LBB1_6
.LBB1_3:
	lui	a3, 524288
	addi	a3, a3, -4
	and	a3, a2, a3
	slli	a4, a3, 2
	add	a4, a4, a1
	li	a5, 255
	mv	a6, a0
	mv	a7, a1
	vsetivli	zero, 2, e32, m2, ta, ma
.LBB1_4:                                # =>This Inner Loop Header: Depth=1
	addi	t0, a7, 8
	vle32.v	v8, (a7)
	vle32.v	v10, (t0)
	addi	t0, a6, 8
	vsrl.vi	v8, v8, 2
	vsrl.vi	v10, v10, 2
	vand.vx	v8, v8, a5
	vand.vx	v10, v10, a5
	vse32.v	v8, (a6)
	vse32.v	v10, (t0)
	addi	a7, a7, 16
	addi	a6, a6, 16
	bne	a7, a4, .LBB1_4
# %bb.5:
	beq	a3, a2, .LBB1_8
.LBB1_6:
	slli	a4, a3, 2
	add	a3, a0, a4
	add	a1, a1, a4
	slli	a2, a2, 2
	add	a0, a0, a2
.LBB1_7:                                # =>This Inner Loop Header: Depth=1
	lw	a2, 0(a1)
	slli	a2, a2, 22
	srli	a2, a2, 24
	sw	a2, 0(a3)
	addi	a3, a3, 4
	addi	a1, a1, 4
	bne	a3, a0, .LBB1_7
.LBB1_8:
	ret
.Lfunc_end1:
	.size	shift_mask, .Lfunc_end1-shift_mask
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
