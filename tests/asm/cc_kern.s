	.text
	.attribute	4, 16
	.attribute	5, "rv32i2p1_m2p0_a2p1_zicsr2p0_zmmul1p0_zfinx1p0_zve32x1p0_zvl32b1p0"
	.file	"cc_kern.cl"
	.globl	vecadd                          # -- Begin function vecadd
	.p2align	2
	.type	vecadd,@function
vecadd:                                 # @vecadd
# %bb.0:
	addi	sp, sp, -32
	sw	ra, 28(sp)                      # 4-byte Folded Spill
	sw	s0, 24(sp)                      # 4-byte Folded Spill
	sw	s1, 20(sp)                      # 4-byte Folded Spill
	sw	s2, 16(sp)                      # 4-byte Folded Spill
	sw	s3, 12(sp)                      # 4-byte Folded Spill
	mv	s3, a3
	mv	s0, a2
	mv	s1, a1
	mv	s2, a0
	li	a0, 0
	call	_Z13get_global_idj
	bgeu	a0, s3, .LBB0_2
# %bb.1:
	slli	a0, a0, 2
	add	s2, s2, a0
	lw	a1, 0(s2)
	add	s1, s1, a0
	lw	a2, 0(s1)
	fadd.s	a1, a1, a2
	add	a0, s0, a0
	sw	a1, 0(a0)
.LBB0_2:
	lw	ra, 28(sp)                      # 4-byte Folded Reload
	lw	s0, 24(sp)                      # 4-byte Folded Reload
	lw	s1, 20(sp)                      # 4-byte Folded Reload
	lw	s2, 16(sp)                      # 4-byte Folded Reload
	lw	s3, 12(sp)                      # 4-byte Folded Reload
	addi	sp, sp, 32
	ret
.Lfunc_end0:
	.size	vecadd, .Lfunc_end0-vecadd
                                        # -- End function
	.globl	reduce_local                    # -- Begin function reduce_local
	.p2align	2
	.type	reduce_local,@function
reduce_local:                           # @reduce_local
# %bb.0:
	addi	sp, sp, -32
	sw	ra, 28(sp)                      # 4-byte Folded Spill
	sw	s0, 24(sp)                      # 4-byte Folded Spill
	sw	s1, 20(sp)                      # 4-byte Folded Spill
	sw	s2, 16(sp)                      # 4-byte Folded Spill
	sw	s3, 12(sp)                      # 4-byte Folded Spill
	sw	s4, 8(sp)                       # 4-byte Folded Spill
	sw	s5, 4(sp)                       # 4-byte Folded Spill
	sw	s6, 0(sp)                       # 4-byte Folded Spill
	mv	s1, a2
	mv	s0, a1
	mv	s3, a0
	li	a0, 0
	call	_Z12get_local_idj
	mv	s2, a0
	li	a0, 0
	call	_Z13get_global_idj
	slli	a0, a0, 2
	add	a0, s3, a0
	lw	a0, 0(a0)
	slli	s4, s2, 2
	add	s4, s1, s4
	sw	a0, 0(s4)
	li	a0, 1
	call	_Z7barrierj
	li	a0, 0
	call	_Z14get_local_sizej
	li	a1, 2
	bgeu	a0, a1, .LBB1_4
.LBB1_1:
	bnez	s2, .LBB1_3
# %bb.2:
	lw	s1, 0(s1)
	li	a0, 0
	call	_Z12get_group_idj
	slli	a0, a0, 2
	add	a0, s0, a0
	sw	s1, 0(a0)
.LBB1_3:
	lw	ra, 28(sp)                      # 4-byte Folded Reload
	lw	s0, 24(sp)                      # 4-byte Folded Reload
	lw	s1, 20(sp)                      # 4-byte Folded Reload
	lw	s2, 16(sp)                      # 4-byte Folded Reload
	lw	s3, 12(sp)                      # 4-byte Folded Reload
	lw	s4, 8(sp)                       # 4-byte Folded Reload
	lw	s5, 4(sp)                       # 4-byte Folded Reload
	lw	s6, 0(sp)                       # 4-byte Folded Reload
	addi	sp, sp, 32
	ret
.LBB1_4:
	mv	s3, a0
	li	s5, 4
	j	.LBB1_6
.LBB1_5:                                #   in Loop: Header=BB1_6 Depth=1
	li	a0, 1
	call	_Z7barrierj
	bltu	s6, s5, .LBB1_1
.LBB1_6:                                # =>This Inner Loop Header: Depth=1
	mv	s6, s3
	srli	s3, s3, 1
	bgeu	s2, s3, .LBB1_5
# %bb.7:                                #   in Loop: Header=BB1_6 Depth=1
	slli	a0, s3, 2
	add	a0, s4, a0
	lw	a0, 0(a0)
	lw	a1, 0(s4)
	add	a0, a1, a0
	sw	a0, 0(s4)
	j	.LBB1_5
.Lfunc_end1:
	.size	reduce_local, .Lfunc_end1-reduce_local
                                        # -- End function
	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
