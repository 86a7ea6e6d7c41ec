/* The lane patterns the vector load/store handlers copy in one piece
 * (src/core/exec_mem.c): a full mask whose lanes address consecutive words
 * (one memcpy), every lane the same word (one load), against the patterns
 * that take the lane loops (reversed order, partial vl, one lane out of
 * the run), with the destination register also the address source; and a
 * run of consecutive words that is misaligned or wraps past 0xffffffff,
 * which must fault on the right lane; a gather whose full-mask bounds
 * (AND and OR of the addresses) reach past its block; a full warp whose
 * two halves address 16 words in a row each (two rows of a work-group 16
 * wide: two copies), on pages apart, overlapping, one in local and one in
 * global memory, and crossing a page (the lane loops). Expected words are
 * computed here from the input formula in[k] = 0x1000 + 7k. */
#include "test_core_more.h"

#define IN (DATA_BASE + 0x2000u)
#define OUT (DATA_BASE + 0x3000u)

static uint32_t in_word(uint32_t k) { return 0x1000u + 7u * k; }

/* in[0..n) at IN */
static void write_inputs(vt_device *d, uint32_t n) {
  uint32_t in[64];
  for (uint32_t k = 0; k < n; k++) in[k] = in_word(k);
  wr_words(d, IN, in, n);
}

static void unit_and_same_word_patterns(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  write_inputs(d, 16);
  load_asm(d, "  vid.v v1\n"
              "  vsll.vi v2, v1, 2\n"       /* 4i */
              "  li a0, 0x90002000\n"
              "  vadd.vx v3, v2, a0\n"      /* &in[i] */
              "  vlw12.v v4, 0(v3)\n"       /* unit: in[i] */
              "  vlw12.v v5, 12(v3)\n"      /* unit: in[i + 3] */
              "  vmv.v.x v6, a0\n"
              "  vlw12.v v7, 8(v6)\n"       /* one word: in[2] */
              "  li t0, 7\n"
              "  vmv.v.x v8, t0\n"
              "  vsub.vv v8, v8, v1\n"      /* 7 - i */
              "  vsll.vi v8, v8, 2\n"
              "  vadd.vx v8, v8, a0\n"
              "  vlw12.v v9, 0(v8)\n"       /* reversed: in[7 - i] */
              "  vlw12.v v3, 0(v3)\n"       /* vd is the address source: in[i] */
              "  li a1, 0x90003000\n"
              "  vadd.vx v10, v2, a1\n"     /* &out[i] */
              "  vsw12.v v4, 0(v10)\n"      /* out[0..7] unit store */
              "  vsw12.v v9, 32(v10)\n"     /* out[8..15] */
              "  vsw12.v v7, 64(v10)\n"     /* out[16..23] */
              "  vsw12.v v5, 96(v10)\n"     /* out[24..31] */
              "  vsw12.v v3, 128(v10)\n"    /* out[32..39] */
              "  vmv.v.x v11, a1\n"
              "  vsw12.v v1, 160(v11)\n"    /* every lane to out[40]: the last lane's 7 wins */
              "  vle32.v v12, (a0)\n"       /* RVV unit stride: in[i] */
              "  addi a2, a1, 192\n"
              "  vse32.v v12, (a2)\n"       /* out[48..55] */
              "  li t1, 5\n"
              "  vsetvli t1, t1, e32, m1\n" /* vl 5: the lane loops, not the copy */
              "  vlw12.v v13, 16(v6)\n"     /* in[4] on lanes 0..4 */
              "  addi a2, a1, 256\n"
              "  vse32.v v13, (a2)\n"       /* out[64..68] */
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  launch_ok(d, &l);
  for (uint32_t i = 0; i < 8; i++) {
    assert_int_equal(rd32(d, OUT + 4 * i), in_word(i));
    assert_int_equal(rd32(d, OUT + 32 + 4 * i), in_word(7 - i));
    assert_int_equal(rd32(d, OUT + 64 + 4 * i), in_word(2));
    assert_int_equal(rd32(d, OUT + 96 + 4 * i), in_word(i + 3));
    assert_int_equal(rd32(d, OUT + 128 + 4 * i), in_word(i));
    assert_int_equal(rd32(d, OUT + 192 + 4 * i), in_word(i));
  }
  assert_int_equal(rd32(d, OUT + 160), 7);
  for (uint32_t i = 0; i < 5; i++) assert_int_equal(rd32(d, OUT + 256 + 4 * i), in_word(4));
  assert_int_equal(rd32(d, OUT + 256 + 20), 0); /* lane 5 is beyond vl */
  vt_device_destroy(d);
}

/* a unit-stride run that crosses a page boundary takes the per-lane path
 * and still reads both pages */
static void unit_stride_across_pages(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  uint32_t in[8];
  for (uint32_t k = 0; k < 8; k++) in[k] = in_word(k);
  wr_words(d, DATA_BASE + 0x4ff0u, in, 8); /* words 4..7 on the next page */
  load_asm(d, "  vid.v v1\n"
              "  vsll.vi v2, v1, 2\n"
              "  li a0, 0x90004ff0\n"
              "  vadd.vx v3, v2, a0\n"
              "  vlw12.v v4, 0(v3)\n"
              "  li a1, 0x90003000\n"
              "  vadd.vx v5, v2, a1\n"
              "  vsw12.v v4, 0(v5)\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  launch_ok(d, &l);
  for (uint32_t i = 0; i < 8; i++) assert_int_equal(rd32(d, OUT + 4 * i), in_word(i));
  vt_device_destroy(d);
}

/* lanes 0..7 address in[i] except lane 5, which reads in[0]: not a run */
static void one_lane_out_of_the_run(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  write_inputs(d, 8);
  load_asm(d, "  vid.v v1\n"
              "  vsll.vi v2, v1, 2\n"
              "  li a0, 0x90002000\n"
              "  vadd.vx v3, v2, a0\n"
              "  li t0, 0x20\n"
              "  vmv.s.x v0, t0\n"          /* mask bit 5 (bit i of v0[0]) */
              "  vmerge.vxm v3, v3, a0, v0\n" /* lane 5: &in[0] */
              "  vlw12.v v4, 0(v3)\n"
              "  li a1, 0x90003000\n"
              "  vadd.vx v5, v2, a1\n"
              "  vsw12.v v4, 0(v5)\n"
              "  vsw12.v v4, 0(v3)\n"       /* and stored back through the same lanes */
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  launch_ok(d, &l);
  for (uint32_t i = 0; i < 8; i++) assert_int_equal(rd32(d, OUT + 4 * i), in_word(i == 5 ? 0 : i));
  /* lane 5 stored in[0] to in[0] after lane 0 stored it there too */
  for (uint32_t i = 0; i < 8; i++) assert_int_equal(rd32(d, IN + 4 * i), in_word(i == 5 ? 5 : i));
  vt_device_destroy(d);
}

/* consecutive words from a - 2: misaligned, reported for lane 0 */
static void misaligned_run_faults(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, "  vid.v v1\n"
              "  vsll.vi v2, v1, 2\n"
              "  li a0, 0x90002002\n"
              "  vadd.vx v3, v2, a0\n"
              "  vlw12.v v4, 0(v3)\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_error e;
  assert_int_not_equal(vt_device_launch(d, &l, &e), 0);
  assert_int_equal(e.kind, VT_ERR_MISALIGNED);
  assert_int_equal(e.lane, 0);
  assert_int_equal(e.addr, 0x90002002u);
  vt_device_destroy(d);
}

/* consecutive words from 0xfffffff0: lanes 4..7 wrap to 0x0..0xc, which
 * is not mapped; lanes 0..3 are (the last page) */
static void wrapping_run_faults_on_its_first_unmapped_lane(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  vt_error e;
  assert_int_equal(vt_mem_map(d, 0xfffff000u, 0x1000, VT_PERM_R | VT_PERM_W, &e), 0);
  load_asm(d, "  vid.v v1\n"
              "  vsll.vi v2, v1, 2\n"
              "  li a0, 0xfffffff0\n"
              "  vadd.vx v3, v2, a0\n"
              "  vsw12.v v1, 0(v3)\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  assert_int_not_equal(vt_device_launch(d, &l, &e), 0);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_int_equal(e.lane, 4);
  assert_int_equal(e.addr, 0);
  vt_device_destroy(d);
}

/* A gather whose lanes' AND and OR (the bounds vaddrs keeps under a full
 * mask) reach past the group's 12 KiB of local memory although every lane
 * is inside it: offsets 0x1004 and 0x2004 (OR 0x3004). The exact bounds
 * are taken then, and the lanes read the right words through them. */
static void gather_bounds_past_the_local_part(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, "  li a1, 0x70001000\n"
              "  li t0, 1111\n"
              "  sw t0, 4(a1)\n"           /* 0x1004 */
              "  li t0, 2222\n"
              "  li a2, 0x70002000\n"
              "  sw t0, 4(a2)\n"           /* 0x2004 */
              "  vid.v v1\n"
              "  vand.vi v2, v1, 1\n"      /* lane parity */
              "  vsll.vi v2, v2, 12\n"     /* 0 or 0x1000 */
              "  vadd.vx v2, v2, a1\n"
              "  vlw12.v v3, 4(v2)\n"      /* even lanes 0x1004, odd lanes 0x2004 */
              "  li a0, 0x90003000\n"
              "  vsll.vi v4, v1, 2\n"
              "  vadd.vx v4, v4, a0\n"
              "  vsw12.v v3, 0(v4)\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  l.lds_size = 0x3000;
  launch_ok(d, &l);
  for (uint32_t i = 0; i < 8; i++) assert_int_equal(rd32(d, OUT + 4 * i), i % 2 ? 2222u : 1111u);
  assert_int_equal(vt_device_stats(d)->local_accesses, 2 + 8);
  vt_device_destroy(d);
}

/* lane i of a warp of 32 at row i / 16, column i % 16: rows 0x2000 bytes
 * apart (two pages) from IN2, loaded and stored to OUT2 alike; from OUT2 +
 * 0xfe0 (both rows cross a page: the lane loops) likewise; the lane ids
 * stored to rows 32 bytes apart at OUT3 (the second row overwrites the
 * first's last 8 words); and to row 0 in local memory, row 1 at OUT4, the
 * local row then copied to OUT4 + 64 by a unit store of 16 lanes */
#define IN2 (DATA_BASE + 0x10000u)
#define OUT2 (DATA_BASE + 0x20000u)
#define OUT3 (DATA_BASE + 0x30000u)
#define OUT4 (DATA_BASE + 0x31000u)
static void two_rows_of_sixteen(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  uint32_t row[16];
  for (uint32_t r = 0; r < 2; r++) {
    for (uint32_t k = 0; k < 16; k++) row[k] = in_word(16 * r + k);
    wr_words(d, IN2 + 0x2000u * r, row, 16);
    wr_words(d, IN2 + 0xfe0u + 0x2000u * r, row, 16);
  }
  load_asm(d, "  vid.v v1\n"
              "  vand.vi v2, v1, 15\n"
              "  vsll.vi v2, v2, 2\n"      /* 4 (i % 16) */
              "  vsrl.vi v3, v1, 4\n"      /* i / 16 */
              "  li t0, 0x2000\n"
              "  vmul.vx v4, v3, t0\n"
              "  vadd.vv v4, v4, v2\n"     /* the row's offset */
              "  li a0, 0x90010000\n"
              "  vadd.vx v5, v4, a0\n"
              "  vlw12.v v6, 0(v5)\n"
              "  li a1, 0x90020000\n"
              "  vadd.vx v7, v4, a1\n"
              "  vsw12.v v6, 0(v7)\n"
              "  li t3, 0xfe0\n"
              "  vadd.vx v5, v5, t3\n"
              "  vadd.vx v7, v7, t3\n"
              "  vlw12.v v8, 0(v5)\n"      /* rows across a page */
              "  vsw12.v v8, 0(v7)\n"
              "  vsll.vi v9, v3, 5\n"
              "  vadd.vv v9, v9, v2\n"     /* rows 32 bytes apart */
              "  li a2, 0x90030000\n"
              "  vadd.vx v10, v9, a2\n"
              "  vsw12.v v1, 0(v10)\n"
              "  li t1, 0x20031000\n"      /* OUT4 - the local base */
              "  vmul.vx v11, v3, t1\n"
              "  li a3, 0x70000000\n"
              "  vadd.vx v11, v11, a3\n"
              "  vadd.vv v11, v11, v2\n"   /* row 0 local, row 1 at OUT4 */
              "  vsw12.v v1, 0(v11)\n"
              "  li t2, 16\n"
              "  vsetvli t2, t2, e32, m1\n"
              "  vlw12.v v12, 0(v11)\n"    /* the local row, a unit copy */
              "  li a4, 0x90031040\n"
              "  vse32.v v12, (a4)\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  l.lds_size = 0x1000;
  launch_ok(d, &l);
  for (uint32_t r = 0; r < 2; r++)
    for (uint32_t k = 0; k < 16; k++) {
      assert_int_equal(rd32(d, OUT2 + 0x2000u * r + 4 * k), in_word(16 * r + k));
      assert_int_equal(rd32(d, OUT2 + 0xfe0u + 0x2000u * r + 4 * k), in_word(16 * r + k));
    }
  for (uint32_t j = 0; j < 24; j++) assert_int_equal(rd32(d, OUT3 + 4 * j), j < 8 ? j : j + 8);
  for (uint32_t k = 0; k < 16; k++) {
    assert_int_equal(rd32(d, OUT4 + 4 * k), 16 + k);
    assert_int_equal(rd32(d, OUT4 + 64 + 4 * k), k);
  }
  const vt_stats *st = vt_device_stats(d);
  assert_int_equal(st->loads, 32 + 32 + 16);
  assert_int_equal(st->stores, 32 + 32 + 32 + 32 + 16);
  assert_int_equal(st->local_accesses, 16 + 16);
  assert_int_equal(st->global_accesses, 5 * 32 + 16 + 16);
  vt_device_destroy(d);
}

/* Half-active warps (a bitonic network's compare-exchange, a reduction's
 * upper half): a gather and scatters under a divergent mask, whose
 * inactive lanes hold an unmapped, misaligned address (src/core/exec_mem.c
 * vaddrs: folded out of the bounds and the alignment test, not a fault);
 * the scatter goes to local memory, two active lanes of four storing to
 * one word (the highest wins), then copied out with a full mask. */
static void partial_masks_gather_and_scatter(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  write_inputs(d, 32);
  load_asm(d, "  vid.v v1\n"
              "  li t0, 0x12\n"
              "  vmv.v.x v8, t0\n"           /* every lane: unmapped and misaligned */
              "  vmv.v.x v9, t0\n"
              "  vmv.v.x v12, t0\n"
              "  vmv.v.i v10, 0\n"
              "  vmv.v.i v4, -1\n"           /* the skipped lanes keep -1 */
              "  vand.vi v6, v1, 3\n"
              ".Lrpc:\n"
              "  auipc t1, %pcrel_hi(.Ljoin)\n"
              "  setrpc zero, t1, %pcrel_lo(.Lrpc)\n"
              "  vbeq v6, v10, .Ljoin\n"     /* lanes i % 4 == 0 skip */
              "  vxor.vi v7, v1, 5\n"
              "  vsll.vi v7, v7, 2\n"
              "  li a0, 0x90002000\n"
              "  vadd.vx v8, v7, a0\n"       /* &in[i ^ 5] */
              "  vlw12.v v4, 0(v8)\n"        /* the gather */
              "  li t2, 7\n"
              "  vmul.vx v11, v1, t2\n"
              "  li t3, 31\n"
              "  vand.vx v11, v11, t3\n"     /* 7i mod 32: a permutation */
              "  vsll.vi v11, v11, 2\n"
              "  li a1, 0x70000000\n"
              "  vadd.vx v9, v11, a1\n"
              "  vsw12.v v4, 0(v9)\n"        /* local[7i mod 32] = in[i ^ 5] */
              "  vsrl.vi v12, v1, 2\n"
              "  vsll.vi v12, v12, 2\n"
              "  vadd.vx v12, v12, a1\n"
              "  vsw12.v v1, 128(v12)\n"     /* local[32 + i / 4] = i: lane 4k + 3 wins */
              ".Ljoin:\n"
              "  join zero, zero, 0\n"
              "  vsll.vi v2, v1, 2\n"
              "  li a1, 0x70000000\n"
              "  vadd.vx v3, v2, a1\n"
              "  vlw12.v v13, 0(v3)\n"
              "  vlw12.v v14, 128(v3)\n"
              "  li a2, 0x90003000\n"
              "  vadd.vx v5, v2, a2\n"
              "  vsw12.v v13, 0(v5)\n"       /* out[i] = local[i] */
              "  vsw12.v v14, 128(v5)\n"     /* out[32 + i] = local[32 + i] */
              "  vsw12.v v4, 256(v5)\n"      /* out[64 + i] = the gathered register */
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  l.lds_size = 0x1000;
  launch_ok(d, &l);
  uint32_t local[64] = {0}, reg[32];
  for (uint32_t i = 0; i < 32; i++) {
    int on = (i & 3) != 0;
    reg[i] = on ? in_word(i ^ 5) : 0xffffffffu;
    if (on) local[(7 * i) % 32] = in_word(i ^ 5);
    if (on) local[32 + i / 4] = i;
  }
  for (uint32_t i = 0; i < 32; i++) {
    assert_int_equal(rd32(d, OUT + 4 * i), local[i]);
    assert_int_equal(rd32(d, OUT + 128 + 4 * i), local[32 + i]);
    assert_int_equal(rd32(d, OUT + 256 + 4 * i), reg[i]);
  }
  for (uint32_t k = 0; k < 8; k++) assert_int_equal(local[32 + k], 4 * k + 3);
  const vt_stats *st = vt_device_stats(d);
  assert_int_equal(st->loads, 24 + 32 + 32);
  assert_int_equal(st->stores, 24 + 24 + 3 * 32);
  assert_int_equal(st->local_accesses, 24 + 24 + 32 + 32);
  assert_int_equal(st->global_accesses, 24 + 3 * 32);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(unit_and_same_word_patterns),
      cmocka_unit_test(unit_stride_across_pages),
      cmocka_unit_test(one_lane_out_of_the_run),
      cmocka_unit_test(misaligned_run_faults),
      cmocka_unit_test(wrapping_run_faults_on_its_first_unmapped_lane),
      cmocka_unit_test(gather_bounds_past_the_local_part),
      cmocka_unit_test(two_rows_of_sixteen),
      cmocka_unit_test(partial_masks_gather_and_scatter),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
