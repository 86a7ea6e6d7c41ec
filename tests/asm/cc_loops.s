	.text
	.attribute	4, 16
	.attribute	5, "rv32i2p1_m2p0_a2p1_zicsr2p0_zmmul1p0_zfinx1p0_zve32x1p0_zvl32b1p0"
	.file	"cc_loops.c"
	.globl	sum                             # -- Begin function sum
	.p2align	2
	.type	sum,@function
sum:                                    # @sum
# %bb.0:
	blez	a1, .LBB0_4
# %bb.1:
	li	a3, 0
	li	a2, 0
.LBB0_2:                                # =>This Inner Loop Header: Depth=1
	lw	a4, 0(a0)
	andi	a5, a3, 3
	mul	a4, a4, a5
	add	a2, a4, a2
	addi	a3, a3, 1
	addi	a0, a0, 4
	bne	a1, a3, .LBB0_2
# %bb.3:
	mv	a0, a2
	ret
.LBB0_4:
	li	a2, 0
	mv	a0, a2
	ret
.Lfunc_end0:
	.size	sum, .Lfunc_end0-sum
                                        # -- End function
	.globl	dot                             # -- Begin function dot
	.p2align	2
	.type	dot,@function
dot:                                    # @dot
# %bb.0:
	li	a3, 0
	blez	a2, .LBB1_3
# %bb.1:
	slli	a2, a2, 2
	add	a2, a1, a2
.LBB1_2:                                # =>This Inner Loop Header: Depth=1
	lw	a4, 0(a0)
	lw	a5, 0(a1)
	fmadd.s	a3, a4, a5, a3
	addi	a1, a1, 4
	addi	a0, a0, 4
	bne	a1, a2, .LBB1_2
.LBB1_3:
	mv	a0, a3
	ret
.Lfunc_end1:
	.size	dot, .Lfunc_end1-dot
                                        # -- End function
	.globl	callee                          # -- Begin function callee
	.p2align	2
	.type	callee,@function
callee:                                 # @callee
# %bb.0:
	mul	a0, a0, a0
	addi	a0, a0, 7
	ori	a1, a1, 1
	div	a0, a0, a1
	ret
.Lfunc_end2:
	.size	callee, .Lfunc_end2-callee
                                        # -- End function
	.globl	caller                          # -- Begin function caller
	.p2align	2
	.type	caller,@function
caller:                                 # @caller
# %bb.0:
	addi	sp, sp, -32
	sw	ra, 28(sp)                      # 4-byte Folded Spill
	sw	s0, 24(sp)                      # 4-byte Folded Spill
	sw	s1, 20(sp)                      # 4-byte Folded Spill
	sw	s2, 16(sp)                      # 4-byte Folded Spill
	sw	s3, 12(sp)                      # 4-byte Folded Spill
	blez	a1, .LBB3_3
# %bb.1:
	mv	s0, a1
	mv	s1, a0
	li	s3, 0
	li	s2, 0
.LBB3_2:                                # =>This Inner Loop Header: Depth=1
	mv	a0, s3
	mv	a1, s0
	call	callee
	sw	a0, 0(s1)
	xor	s2, a0, s2
	addi	s3, s3, 1
	addi	s0, s0, -1
	addi	s1, s1, 4
	bnez	s0, .LBB3_2
	j	.LBB3_4
.LBB3_3:
	li	s2, 0
.LBB3_4:
	mv	a0, s2
	lw	ra, 28(sp)                      # 4-byte Folded Reload
	lw	s0, 24(sp)                      # 4-byte Folded Reload
	lw	s1, 20(sp)                      # 4-byte Folded Reload
	lw	s2, 16(sp)                      # 4-byte Folded Reload
	lw	s3, 12(sp)                      # 4-byte Folded Reload
	addi	sp, sp, 32
	ret
.Lfunc_end3:
	.size	caller, .Lfunc_end3-caller
                                        # -- End function
	.globl	scale                           # -- Begin function scale
	.p2align	2
	.type	scale,@function
scale:                                  # @scale
# %bb.0:
	lui	a1, 256000
	lui	a2, 261120
	fmadd.s	a0, a0, a2, a1
	ret
.Lfunc_end4:
	.size	scale, .Lfunc_end4-scale
                                        # -- End function
	.globl	table_lookup                    # -- Begin function table_lookup
	.p2align	2
	.type	table_lookup,@function
table_lookup:                           # @table_lookup
# %bb.0:
	andi	a0, a0, 7
	slli	a0, a0, 2
	lui	a1, %hi(table_lookup.tab)
	addi	a1, a1, %lo(table_lookup.tab)
	add	a0, a1, a0
	lw	a0, 0(a0)
	ret
.Lfunc_end5:
	.size	table_lookup, .Lfunc_end5-table_lookup
                                        # -- End function
	.globl	bump                            # -- Begin function bump
	.p2align	2
	.type	bump,@function
bump:                                   # @bump
# %bb.0:
	lui	a1, %hi(counter)
	lw	a0, %lo(counter)(a1)
	addi	a0, a0, 1
	sw	a0, %lo(counter)(a1)
	ret
.Lfunc_end6:
	.size	bump, .Lfunc_end6-bump
                                        # -- End function
	.globl	sw                              # -- Begin function sw
	.p2align	2
	.type	sw,@function
sw:                                     # @sw
# %bb.0:
	li	a2, 5
	li	a1, -1
	bltu	a2, a0, .LBB7_2
# %bb.1:
	slli	a0, a0, 2
	lui	a1, %hi(.Lswitch.table.sw)
	addi	a1, a1, %lo(.Lswitch.table.sw)
	add	a0, a1, a0
	lw	a1, 0(a0)
.LBB7_2:
	mv	a0, a1
	ret
.Lfunc_end7:
	.size	sw, .Lfunc_end7-sw
                                        # -- End function
	.type	table_lookup.tab,@object        # @table_lookup.tab
	.section	.rodata.cst32,"aM",@progbits,32
	.p2align	2, 0x0
table_lookup.tab:
	.word	3                               # 0x3
	.word	1                               # 0x1
	.word	4                               # 0x4
	.word	1                               # 0x1
	.word	5                               # 0x5
	.word	9                               # 0x9
	.word	2                               # 0x2
	.word	6                               # 0x6
	.size	table_lookup.tab, 32

	.type	counter,@object                 # @counter
	.section	.sbss,"aw",@nobits
	.globl	counter
	.p2align	2, 0x0
counter:
	.word	0                               # 0x0
	.size	counter, 4

	.type	.Lswitch.table.sw,@object       # @switch.table.sw
	.section	.rodata,"a",@progbits
	.p2align	2, 0x0
.Lswitch.table.sw:
	.word	10                              # 0xa
	.word	22                              # 0x16
	.word	31                              # 0x1f
	.word	47                              # 0x2f
	.word	59                              # 0x3b
	.word	61                              # 0x3d
	.size	.Lswitch.table.sw, 24

	.ident	"Debian clang version 19.1.7 (3~deb12u1)"
	.section	".note.GNU-stack","",@progbits
	.addrsig
