/* Executor review: edge cases of the custom instructions and of the
 * standard ones that neither the QEMU differential test nor the corpus
 * reach (docs/isa.md §4, §7). Expected values come from the RISC-V specs,
 * the reference ISS sources and hand computation, never from the
 * simulator. Programs are assembly text (asm_words). */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)

/* Runs `src` with nt lanes and nw warps; returns the launch status. */
static int run_src(vt_device *d, const char *src, uint32_t nt, uint32_t nw, vt_error *e) {
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, nt, nw);
  return vt_device_launch(d, &l, e);
}

static void run_src_ok(vt_device *d, const char *src, uint32_t nt, uint32_t nw) {
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, nt, nw);
  launch_ok(d, &l);
}

/* stores v<reg> of lanes 0..nt-1 (whatever the mask) to OUT + off: the
 * program must end with the full mask, so "vse32.v vN, (a0)" suffices;
 * this reads them back */
static void expect_words(vt_device *d, uint32_t addr, const uint32_t *want, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t got = rd32(d, addr + 4 * i);
    if (got != want[i])
      fail_msg("word %u at 0x%08x: got 0x%08x, expected 0x%08x", i, addr + 4 * i, got, want[i]);
  }
}

/* ---- SIMT stack -------------------------------------------------------------- */

/* A vector branch whose target is the reconvergence point itself (the
 * "if" without else: taken lanes skip the body). Lanes 0..5 of 8 are taken
 * (more lanes: taken path first, which is the join): the join pops the
 * fall-through entry and runs lanes 6,7 through the body; their join pops
 * the reconvergence entry; the full mask resumes. */
static void vbranch_to_join(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  li t0, 6\n"
             "  vmv.v.x v2, t0\n"
             "  vmv.v.i v3, 0\n"
             "  la t1, .Ljoin\n"
             "  setrpc zero, t1, 0\n"
             "  vblt v1, v2, .Ljoin\n" /* lanes 0..5 */
             "  vadd.vi v3, v3, 7\n"   /* lanes 6,7 only */
             ".Ljoin:\n"
             "  join zero, zero, 0\n"
             "  vadd.vi v3, v3, 1\n" /* all lanes, once */
             "  li a0, 0x90001000\n"
             "  vse32.v v3, (a0)\n"
             "  endprg x0, x0, x0\n",
             8, 1);
  const uint32_t want[8] = {1, 1, 1, 1, 1, 1, 8, 8};
  expect_words(d, OUT, want, 8);
  vt_device_destroy(d);
}

/* join with an empty stack, and join at an address that is not the top
 * entry's rpc, do nothing (ISS riscv/insns/join.h) */
static void join_empty_stack(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  join zero, zero, 0\n"
             "  vid.v v1\n"
             "  join zero, zero, 0\n"
             "  vadd.vi v1, v1, 3\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v1, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[4] = {3, 4, 5, 6};
  expect_words(d, OUT, want, 4);
  vt_device_destroy(d);
}

/* Two nested regions that share one reconvergence point:
 *   if (i < 6) { a += 10; if (i < 2) a += 100; }  a += 1
 * with both branches sending the lanes that skip to .Ljoin. */
static void nested_same_rpc(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  vmv.v.i v3, 0\n"
             "  li t0, 6\n"
             "  vmv.v.x v2, t0\n"
             "  li t0, 2\n"
             "  vmv.v.x v4, t0\n"
             "  la t1, .Ljoin\n"
             "  setrpc zero, t1, 0\n"
             "  vbge v1, v2, .Ljoin\n" /* lanes 6,7 skip */
             "  vadd.vi v3, v3, 10\n"
             "  setrpc zero, t1, 0\n"
             "  vbge v1, v4, .Ljoin\n" /* lanes 2..5 skip */
             "  li t2, 100\n"
             "  vadd.vx v3, v3, t2\n"
             ".Ljoin:\n"
             "  join zero, zero, 0\n"
             "  vadd.vi v3, v3, 1\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v3, (a0)\n"
             "  endprg x0, x0, x0\n",
             8, 1);
  const uint32_t want[8] = {111, 111, 11, 11, 11, 11, 1, 1};
  expect_words(d, OUT, want, 8);
  vt_device_destroy(d);
}

/* A divergent loop inside a divergent region: lanes with i odd run
 *   for (k = 0; k < i; k++) s += k + 1
 * lanes with i even set s = 1000 + i. The loop exit branch sends the
 * finished lanes to the loop's join; the region has its own join. */
static void loop_inside_divergence(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  vand.vi v2, v1, 1\n"
             "  vmv.v.i v0, 0\n"
             "  vmv.v.i v5, 0\n" /* s */
             "  vmv.v.i v6, 0\n" /* k */
             "  la t1, .Lend\n"
             "  setrpc zero, t1, 0\n"
             "  vbeq v2, v0, .Leven\n"
             ".Lloop:\n"
             "  la t2, .Lexit\n"
             "  setrpc zero, t2, 0\n"
             "  vbge v6, v1, .Lexit\n" /* lanes with k >= i leave */
             "  vadd.vi v6, v6, 1\n"
             "  vadd.vv v5, v5, v6\n"
             "  j .Lloop\n"
             ".Lexit:\n"
             "  join zero, zero, 0\n"
             "  j .Lend\n"
             ".Leven:\n"
             "  li t0, 1000\n"
             "  vadd.vx v5, v1, t0\n"
             ".Lend:\n"
             "  join zero, zero, 0\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v5, (a0)\n"
             "  endprg x0, x0, x0\n",
             8, 1);
  uint32_t want[8];
  for (uint32_t i = 0; i < 8; i++) want[i] = (i & 1) ? i * (i + 1) / 2 : 1000 + i;
  expect_words(d, OUT, want, 8);
  vt_device_destroy(d);
}

/* csrw rpc is the same register setrpc writes: a branch after csrw uses it */
static void csrw_rpc_then_branch(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  vmv.v.i v2, 1\n"
             "  vmv.v.i v3, 0\n"
             "  la t1, .Lelse\n"
             "  setrpc zero, t1, 0\n" /* wrong rpc, overwritten below */
             "  la t1, .Ljoin\n"
             "  csrw rpc, t1\n"
             "  csrr a1, rpc\n"
             "  vblt v1, v2, .Lelse\n" /* lane 0 */
             "  vadd.vi v3, v3, 5\n"
             "  j .Ljoin\n"
             ".Lelse:\n"
             "  vadd.vi v3, v3, 9\n"
             ".Ljoin:\n"
             "  join zero, zero, 0\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v3, (a0)\n"
             "  sub a1, a1, t1\n"
             "  sw a1, 16(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[5] = {9, 5, 5, 5, 0};
  expect_words(d, OUT, want, 5);
  vt_device_destroy(d);
}

/* ---- custom-0/3 immediates and sign extension -------------------------------- */

static void vadd12_vsub12_signed(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  vadd12.vi v2, v1, -2048\n"
             "  vadd12.vi v3, v1, 2047\n"
             "  vsub12.vi v4, v1, -5\n"
             "  vsub12.vi v5, v1, 2000\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v2, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v3, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v4, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v5, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  uint32_t want[16];
  for (uint32_t i = 0; i < 4; i++) {
    want[i] = i - 2048u;
    want[4 + i] = i + 2047u;
    want[8 + i] = i + 5u;
    want[12 + i] = i - 2000u;
  }
  expect_words(d, OUT, want, 16);
  vt_device_destroy(d);
}

static void vl12_sign_extension(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  const uint32_t src[2] = {0x7f80ff01u, 0x8000fffeu};
  wr_words(d, DATA_BASE, src, 2);
  run_src_ok(d,
             "  vid.v v1\n"
             "  li t0, 0x90000000\n"
             "  vadd.vx v1, v1, t0\n" /* lane i: DATA_BASE + i */
             "  vlb12.v v2, 0(v1)\n"   /* bytes 01 ff 80 7f */
             "  vlbu12.v v3, 0(v1)\n"
             "  vadd.vv v4, v1, v1\n"
             "  vsub.vx v4, v4, t0\n"  /* DATA_BASE + 2i */
             "  vlh12.v v5, 0(v4)\n"   /* halves ff01 7f80 fffe 8000 */
             "  vlhu12.v v6, 0(v4)\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v2, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v3, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v5, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v6, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[16] = {1,           0xffffffffu, 0xffffff80u, 0x7f,
                             1,           0xff,        0x80,        0x7f,
                             0xffffff01u, 0x7f80,      0xfffffffeu, 0xffff8000u,
                             0xff01,      0x7f80,      0xfffe,      0x8000};
  expect_words(d, OUT, want, 16);
  vt_device_destroy(d);
}

/* ---- private memory with byte/half offsets (docs/isa.md §7.7):
 * address = pds + (a & ~3)*numw*numt + (tid + i)*4 + (a & 3) ------------------ */
static void private_byte_half_offsets(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  /* 4 lanes, 2 warps: numw*numt = 8. Each lane stores byte i+1 at private
   * offset 5 (word 1, byte 1) and half 0xa00i at offset 10 (word 2, byte 2),
   * then loads them back signed and unsigned. */
  run_src_ok(d,
             "  vid.v v1\n"
             "  vadd.vi v2, v1, 1\n"
             "  vmv.v.i v3, 0\n"
             "  vsb.v v2, 5(v3)\n"
             "  li t0, 0xa000\n"
             "  vor.vx v4, v1, t0\n"
             "  vsh.v v4, 10(v3)\n"
             "  vlh.v v5, 10(v3)\n"
             "  vlhu.v v6, 10(v3)\n"
             "  vlbu.v v7, 5(v3)\n"
             "  csrr t1, wid\n"
             "  slli t1, t1, 6\n"
             "  li a0, 0x90001000\n"
             "  add a0, a0, t1\n"
             "  vse32.v v5, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v6, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v7, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 2);
  const uint32_t pds = DATA_BASE + 0x80000;
  for (uint32_t w = 0; w < 2; w++)
    for (uint32_t i = 0; i < 4; i++) {
      uint32_t t = w * 4 + i;
      uint8_t b, h[2];
      vt_error e;
      assert_int_equal(vt_mem_read(d, pds + 4 * 8 + t * 4 + 1, &b, 1, &e), 0);
      assert_int_equal(b, i + 1);
      assert_int_equal(vt_mem_read(d, pds + 8 * 8 + t * 4 + 2, h, 2, &e), 0);
      assert_int_equal(h[0] | h[1] << 8, 0xa000 | i);
      assert_int_equal(rd32(d, OUT + 64 * w + 4 * i), 0xffffa000u | i);
      assert_int_equal(rd32(d, OUT + 64 * w + 16 + 4 * i), 0xa000u | i);
      assert_int_equal(rd32(d, OUT + 64 * w + 32 + 4 * i), i + 1);
    }
  vt_device_destroy(d);
}

/* regext on S-type stores: the data register comes from the rs2 field and
 * its high bits from regext bits 8:6, the immediate is untouched */
static void regext_store_data_register(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  li t0, 0x90001000\n"
             "  vmv.v.x v2, t0\n"
             "  vsll.vi v3, v1, 2\n"
             "  vadd.vv v2, v2, v3\n"   /* OUT + 4i */
             "  vadd.vi v40, v1, 7\n"
             "  vadd.vi v72, v1, 11\n"
             "  vsw12.v v40, 4(v2)\n"   /* OUT+4..: i+7 */
             "  vsw12.v v72, 36(v2)\n"  /* OUT+36..: i+11 (4 lanes) */
             "  li x45, 0x1234\n"
             "  sw x45, 64(t0)\n"
             "  sh x45, 70(t0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[9] = {0, 7, 8, 9, 10, 0, 0, 0, 0};
  expect_words(d, OUT, want, 5);
  const uint32_t want2[4] = {11, 12, 13, 14};
  expect_words(d, OUT + 36, want2, 4);
  assert_int_equal(rd32(d, OUT + 64), 0x1234);
  assert_int_equal(rd32(d, OUT + 68), 0x12340000u);
  vt_device_destroy(d);
}

/* ---- vector compares: 0/1 per element (docs/isa.md §7.12) ------------------- */
static void vector_compares_elements(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  const uint32_t a[4] = {0xfffffffeu, 3, 5, 0x80000000u};
  wr_words(d, DATA_BASE, a, 4);
  run_src_ok(d,
             "  li a0, 0x90000000\n"
             "  vle32.v v1, (a0)\n"
             "  li t0, 3\n"
             "  vmsgt.vx v2, v1, t0\n"
             "  vmsgtu.vx v3, v1, t0\n"
             "  vmsgt.vi v4, v1, -2\n"
             "  vmsgtu.vi v5, v1, 4\n"
             "  vmsle.vi v6, v1, 3\n"
             "  vmsleu.vi v7, v1, 3\n"
             "  vmsne.vi v8, v1, 5\n"
             "  vmslt.vx v9, v1, t0\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v2, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v3, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v4, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v5, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v6, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v7, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v8, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v9, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[32] = {
      0, 0, 1, 0, /* vmsgt.vx 3   (signed) */
      1, 0, 1, 1, /* vmsgtu.vx 3 */
      0, 1, 1, 0, /* vmsgt.vi -2 */
      1, 0, 1, 1, /* vmsgtu.vi 4 */
      1, 1, 0, 1, /* vmsle.vi 3 */
      0, 1, 0, 0, /* vmsleu.vi 3 */
      1, 1, 0, 1, /* vmsne.vi 5 */
      1, 0, 0, 1, /* vmslt.vx 3 */
  };
  expect_words(d, OUT, want, 32);
  vt_device_destroy(d);
}

/* fp compares with NaNs: feq/vmfeq/vmfne are quiet (NV only for sNaN),
 * flt/fle/vmflt/vmfle/vmfgt/vmfge signal NV on any NaN (IEEE 754, RISC-V F
 * §11.8, RVV §13.13) */
static void fp_compares_nan_flags(void **state) {
  (void)state;
  static const struct {
    const char *op;
    uint32_t b;    /* scalar operand */
    uint32_t want; /* result bits of lanes 0..3, lane i = bit i */
    uint32_t nv;   /* NV expected */
  } cases[] = {
      {"vmfeq.vf", 0x7fc00000u, 0x0, 0},  /* qNaN: quiet, false */
      {"vmfne.vf", 0x7fc00000u, 0xf, 0},  /* qNaN: quiet, true */
      {"vmfeq.vf", 0x7f800001u, 0x0, 1},  /* sNaN: NV */
      {"vmflt.vf", 0x7fc00000u, 0x0, 1},  /* qNaN: signalling */
      {"vmfle.vf", 0x7fc00000u, 0x0, 1},
      {"vmfgt.vf", 0x7fc00000u, 0x0, 1},
      {"vmfge.vf", 0x7fc00000u, 0x0, 1},
      {"vmfgt.vf", 0x3f800000u, 0x4, 0},  /* > 1.0: lane 2 (2.0) */
      {"vmfge.vf", 0x3f800000u, 0x6, 0},  /* >= 1.0: lanes 1, 2 */
      {"vmfeq.vf", 0x00000000u, 0x1, 0},  /* -0 == +0 in lane 0 */
  };
  const uint32_t lanes[4] = {0x80000000u, 0x3f800000u, 0x40000000u, 0x7fc00000u};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    vt_device *d = mkdev(NULL);
    wr_words(d, DATA_BASE, lanes, 4);
    /* lane 3 holds a qNaN, so every ordered compare signals NV whatever b;
     * mask lane 3 off (vl = 3) to look at b's effect alone */
    char src[1024];
    snprintf(src, sizeof src,
             "  li t0, 3\n"
             "  vsetvli t1, t0, e32, m1, ta, ma\n"
             "  li a0, 0x90000000\n"
             "  vle32.v v1, (a0)\n"
             "  vmv.v.i v2, 0\n"
             "  li t2, 0x%08x\n"
             "  %s v2, v1, t2\n"
             "  csrr a1, fflags\n"
             "  li t0, 4\n"
             "  vsetvli t1, t0, e32, m1, ta, ma\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v2, (a0)\n"
             "  sw a1, 16(a0)\n"
             "  endprg x0, x0, x0\n",
             cases[k].b, cases[k].op);
    run_src_ok(d, src, 4, 1);
    for (uint32_t i = 0; i < 3; i++)
      if (rd32(d, OUT + 4 * i) != ((cases[k].want >> i) & 1))
        fail_msg("%s b=0x%08x lane %u: got %u", cases[k].op, cases[k].b, i, rd32(d, OUT + 4 * i));
    if (rd32(d, OUT + 16) != (cases[k].nv ? 0x10u : 0u))
      fail_msg("%s b=0x%08x: fflags 0x%x", cases[k].op, cases[k].b, rd32(d, OUT + 16));
    vt_device_destroy(d);
  }
}

/* ---- vmerge: v0 bit i of element 0 selects (ISS VI_MERGE_VARS, RTL mask =
 * v0 element 0 bits), SIMT-inactive lanes keep their value --------------------- */
static void vmerge_packed_v0_and_simt_mask(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  vadd.vi v2, v1, 10\n"   /* vs1 */
             "  vmv.v.i v3, -1\n"       /* vs2 */
             "  vmv.v.i v4, 7\n"        /* vd old value */
             "  li t0, 0b0110\n"
             "  vmv.v.x v0, t0\n"       /* packed: lanes 1, 2 select vs1 */
             "  vmv.v.i v5, 3\n"
             "  la t1, .Ljoin\n"
             "  setrpc zero, t1, 0\n"
             "  vbeq v1, v5, .Ljoin\n"  /* lane 3 inactive during the merge */
             "  vmerge.vvm v4, v3, v2, v0\n"
             "  vmv.v.i v6, 5\n"
             "  vfmerge.vfm v6, v3, t0, v0\n"
             ".Ljoin:\n"
             "  join zero, zero, 0\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v4, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v6, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[8] = {0xffffffffu, 11, 12, 7, 0xffffffffu, 6, 6, 0};
  expect_words(d, OUT, want, 8);
  vt_device_destroy(d);
}

/* vid.v under a partial mask writes only active lanes, each its own index */
static void vid_partial_mask(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vmv.v.i v2, -1\n"
             "  li t0, 0b1010\n"
             "  vmv.v.x v0, t0\n"
             "  vid.v v2, v0.t\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v2, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[4] = {0xffffffffu, 1, 0xffffffffu, 3};
  expect_words(d, OUT, want, 4);
  vt_device_destroy(d);
}

/* vmv.x.s with an empty mask leaves rd unchanged (docs/isa.md §7.17) */
static void vmv_x_s_empty_mask(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  vid.v v1\n"
             "  li a1, 77\n"
             "  li a2, 78\n"
             "  vmv.v.i v2, 0\n"
             "  la t1, .Ljoin\n"
             "  setrpc zero, t1, 0\n"
             "  vbne v1, v2, .Ljoin\n" /* lanes 1..3 taken, run first */
             "  vmv.x.s a1, v1\n"      /* lane 0 only: 0 */
             ".Ljoin:\n"
             "  join zero, zero, 0\n"
             "  li t0, 0\n"
             "  vsetvli t1, t0, e32, m1, ta, ma\n" /* vl = 0: no active lane */
             "  vmv.x.s a2, v1\n"
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  sw a2, 4(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[2] = {0, 78};
  expect_words(d, OUT, want, 2);
  vt_device_destroy(d);
}

/* ---- vsetvli ------------------------------------------------------------------- */
static void vsetvli_corners(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  li t0, 3\n"
             "  vsetvli a1, t0, e32, m1, ta, ma\n"  /* 3 */
             "  vsetvli x0, x0, e32, m1, tu, mu\n"  /* keeps vl = 3 */
             "  csrr a2, vl\n"
             "  vsetvli a3, x0, e32, m1, ta, ma\n"  /* rd != x0, rs1 = x0: VLMAX */
             "  li t0, 1000\n"
             "  vsetvli a4, t0, e32, m1, ta, ma\n"  /* AVL > VLMAX: VLMAX */
             "  vsetivli a5, 2, e32, m1, ta, ma\n"
             "  csrr a6, vtype\n"
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  sw a2, 4(a0)\n"
             "  sw a3, 8(a0)\n"
             "  sw a4, 12(a0)\n"
             "  sw a5, 16(a0)\n"
             "  sw a6, 20(a0)\n"
             "  endprg x0, x0, x0\n",
             8, 1);
  const uint32_t want[6] = {3, 3, 8, 8, 2, 0xd0};
  expect_words(d, OUT, want, 6);
  vt_device_destroy(d);
}

/* ---- CSR instructions: rd = x0 / rs1 = x0 (Zicsr §9.1) ------------------------ */
static void csr_x0_forms(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  /* reading a read-only CSR without writing is fine */
  run_src_ok(d,
             "  csrrs a1, cycle, x0\n"
             "  csrrc x0, cycle, x0\n"
             "  csrrsi x0, cycle, 0\n"
             "  csrr a2, vlenb\n"
             "  li a0, 0x90001000\n"
             "  sw a2, 0(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  assert_int_equal(rd32(d, OUT), 16);
  /* csrrw always writes, even with rd = x0 or a zero source */
  static const char *writes[] = {
      "  csrrw x0, cycle, x0\n",
      "  csrrwi x0, cycle, 0\n",
      "  li t0, 0\n  csrrs x0, cycle, t0\n", /* rs1 != x0: a write, even of 0 */
  };
  for (size_t k = 0; k < 3; k++) {
    char src[256];
    snprintf(src, sizeof src, "%s  endprg x0, x0, x0\n", writes[k]);
    vt_error e;
    assert_int_not_equal(run_src(d, src, 4, 1, &e), 0);
    assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  }
  vt_device_destroy(d);
}

/* ---- rounding modes: rm 5/6 and dynamic with frm 5..7 are illegal ---------------- */
static void fp_invalid_rounding_modes(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  /* a valid frm with a static rm works */
  run_src_ok(d,
             "  li t0, 0x3f800000\n"
             "  csrwi frm, 5\n"          /* writing an invalid frm is allowed */
             "  fadd.s a1, t0, t0, rne\n"
             "  csrr a2, frm\n"
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  sw a2, 4(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  assert_int_equal(rd32(d, OUT), 0x40000000u);
  assert_int_equal(rd32(d, OUT + 4), 5);
  static const char *bad[] = {
      "  csrwi frm, 5\n  fadd.s a1, t0, t0\n",        /* dyn with frm 5 */
      "  csrwi frm, 7\n  fmul.s a1, t0, t0, dyn\n",   /* dyn with frm 7 */
      "  .word 0x0052d5d3\n",                         /* fadd.s a1, t0, t0 with rm = 5 */
      "  .word 0x0052e5d3\n",                         /* rm = 6 */
      "  csrwi frm, 6\n  vfadd.vv v1, v1, v1\n",      /* vector ops use frm */
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char src[256];
    snprintf(src, sizeof src, "  li t0, 0x3f800000\n%s  endprg x0, x0, x0\n", bad[k]);
    vt_error e;
    if (!run_src(d, src, 4, 1, &e)) fail_msg("case %zu: no error", k);
    assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  }
  vt_device_destroy(d);
}

/* Zfinx: an fp op with rd = x0 discards the result but still raises flags */
static void zfinx_x0_destination(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  li t0, 0x7f800001\n"   /* sNaN */
             "  fadd.s x0, t0, t0\n"
             "  csrr a1, fflags\n"
             "  li a0, 0x90001000\n"
             "  sw x0, 0(a0)\n"
             "  sw a1, 4(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  assert_int_equal(rd32(d, OUT), 0);
  assert_int_equal(rd32(d, OUT + 4), 0x10);
  vt_device_destroy(d);
}

/* ---- A: AMOs on local memory, misaligned AMOs, LR/SC ------------------------------- */
static void amo_local_and_misaligned(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  csrr t0, lds\n"
             "  li t1, 40\n"
             "  sw t1, 8(t0)\n"
             "  addi t2, t0, 8\n"
             "  li t1, 2\n"
             "  amoadd.w a1, t1, (t2)\n"
             "  li t1, -7\n"
             "  amomin.w a2, t1, (t2)\n"
             "  amomaxu.w a3, t1, (t2)\n"
             "  lw a4, 8(t0)\n"
             "  lr.w a5, (t2)\n"
             "  sc.w a6, t1, (t2)\n"     /* succeeds: 0 */
             "  sc.w a7, t1, (t2)\n"     /* no reservation: 1 */
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  sw a2, 4(a0)\n"
             "  sw a3, 8(a0)\n"
             "  sw a4, 12(a0)\n"
             "  sw a5, 16(a0)\n"
             "  sw a6, 20(a0)\n"
             "  sw a7, 24(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[7] = {40, 42, 0xfffffff9u, 0xfffffff9u, 0xfffffff9u, 0, 1};
  expect_words(d, OUT, want, 7);
  static const char *bad[] = {
      "  li t2, 0x90000002\n  amoadd.w a1, t1, (t2)\n",
      "  csrr t2, lds\n  addi t2, t2, 1\n  amoswap.w a1, t1, (t2)\n",
      "  li t2, 0x90000002\n  lr.w a1, (t2)\n",
      "  li t2, 0x90000006\n  sc.w a1, t1, (t2)\n",
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char src[256];
    snprintf(src, sizeof src, "  li t1, 1\n%s  endprg x0, x0, x0\n", bad[k]);
    vt_error e;
    if (!run_src(d, src, 4, 1, &e)) fail_msg("case %zu: no error", k);
    assert_int_equal(e.kind, VT_ERR_MISALIGNED);
  }
  vt_device_destroy(d);
}

/* ---- barrier + endprg, barriersub -------------------------------------------------- */
static void barrier_after_endprg(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  /* warp 1 ends before the barrier; warp 0 passes it (ended warps count as
   * arrived, docs/isa.md §7.15); barriersub never waits */
  run_src_ok(d,
             "  csrr t0, wid\n"
             "  bnez t0, .Lend\n"
             "  barriersub zero, zero, 0\n"
             "  barrier zero, zero, 0\n"
             "  li a0, 0x90001000\n"
             "  li t1, 99\n"
             "  sw t1, 0(a0)\n"
             ".Lend:\n"
             "  endprg x0, x0, x0\n",
             4, 2);
  assert_int_equal(rd32(d, OUT), 99);
  vt_device_destroy(d);
}


/* ---- vtype values the executor does not implement (RVV 1.0 §6.1: an
 * unsupported vtype sets vill, clears the other bits and vl; any vector
 * instruction then raises illegal instruction) ------------------------------------ */
static void vsetvli_unsupported_vtype(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  static const char *cfg[] = {
      "  vsetvli a1, t0, e8, m2, ta, ma\n",
      "  vsetvli a1, t0, e16, m1, ta, ma\n",
      "  vsetvli a1, t0, e32, m2, ta, ma\n",
      "  vsetvli a1, t0, e32, mf2, ta, ma\n",
      "  li t1, 0x80000000\n  vsetvl a1, t0, t1\n",  /* vill itself */
      "  li t1, 0x1d0\n  vsetvl a1, t0, t1\n",      /* reserved bit 8 */
  };
  for (size_t k = 0; k < sizeof cfg / sizeof cfg[0]; k++) {
    char src[512];
    /* the state after vsetvli is visible through scalar reads ... */
    snprintf(src, sizeof src,
             "  li t0, 4\n%s"
             "  csrr a2, vtype\n"
             "  csrr a3, vl\n"
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  sw a2, 4(a0)\n"
             "  sw a3, 8(a0)\n"
             "  endprg x0, x0, x0\n",
             cfg[k]);
    wr32(d, OUT, 0xdead);
    run_src_ok(d, src, 4, 1);
    const uint32_t want[3] = {0, 0x80000000u, 0};
    expect_words(d, OUT, want, 3);
    /* ... and the next vector instruction, standard or custom, is illegal */
    static const char *use[] = {"  vadd.vv v1, v1, v1\n", "  vadd12.vi v1, v1, 1\n",
                                "  vbeq v1, v1, .+8\n", "  vmv.x.s a4, v1\n"};
    for (size_t u = 0; u < 4; u++) {
      snprintf(src, sizeof src, "  li t0, 4\n%s%s  endprg x0, x0, x0\n", cfg[k], use[u]);
      vt_error e;
      if (!run_src(d, src, 4, 1, &e)) fail_msg("vtype case %zu, use %zu: no error", k, u);
      assert_int_equal(e.kind, VT_ERR_ILLEGAL);
    }
  }
  /* a later vsetvli with a supported vtype clears vill */
  run_src_ok(d,
             "  vsetvli a1, x0, e8, m1, ta, ma\n"
             "  li t0, 2\n"
             "  vsetvli a1, t0, e32, m1, ta, ma\n"
             "  vid.v v1\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v1, (a0)\n"
             "  csrr a2, vtype\n"
             "  sw a2, 8(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[3] = {0, 1, 0xd0};
  expect_words(d, OUT, want, 3);
  vt_device_destroy(d);
}

/* ---- jumps and branches to addresses that are not 4-byte aligned (no C
 * extension): instruction-address-misaligned is raised by the jump itself
 * (RISC-V unprivileged §2.5), so the error names the jump's pc and the
 * target, and rd is not written. jalr clears bit 0 first. ------------------ */
static void misaligned_jump_targets(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  static const struct {
    const char *src;
    uint32_t at;     /* offset of the faulting instruction */
    uint32_t target; /* offset of the target */
  } cases[] = {
      {"  nop\n  .word 0x002000ef\n", 4, 6},          /* jal ra, .+2 */
      {"  .word 0x00000363\n", 0, 6},                 /* beq x0, x0, .+6 */
      {"  la t0, 0x80000000\n  .word 0x002280e7\n", 8, 2}, /* jalr ra, 2(t0) */
      {"  .word 0x0000035b\n", 0, 6},                 /* vbeq v0, v0, .+6: every lane taken */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char src[256];
    snprintf(src, sizeof src, "%s  endprg x0, x0, x0\n", cases[k].src);
    vt_error e;
    if (!run_src(d, src, 4, 1, &e)) fail_msg("case %zu: no error", k);
    assert_int_equal(e.kind, VT_ERR_MISALIGNED);
    if (e.pc != CODE_BASE + cases[k].at)
      fail_msg("case %zu: error at pc 0x%08x, expected the jump at 0x%08x", k, e.pc,
               CODE_BASE + cases[k].at);
    assert_true(e.has_addr);
    assert_int_equal(e.addr, CODE_BASE + cases[k].target);
  }
  /* a not-taken branch to a misaligned target is no error; jalr drops bit 0 */
  run_src_ok(d,
             "  li a1, 0\n"
             "  li t1, 1\n"
             "  .word 0x00030363\n" /* beq t1, x0, .+6: not taken */
             "  la t0, .Lt\n"
             "  jalr x0, 1(t0)\n"
             "  li a1, 5\n"
             ".Lt:\n"
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  assert_int_equal(rd32(d, OUT), 0);
  vt_device_destroy(d);
}

/* A divergent vector branch with a reconvergence pc that no instruction can
 * have (rpc & 3 != 0) would never reconverge: the lanes of the pushed path
 * would silently never run. It is a device error at the branch. */
static void misaligned_rpc_divergence(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  vt_error e;
  int rc = run_src(d,
                   "  vid.v v1\n"
                   "  vmv.v.i v2, 2\n"
                   "  la t1, .Ljoin\n"
                   "  setrpc zero, t1, 2\n"
                   "  vblt v1, v2, .Ljoin\n"
                   "  nop\n"
                   ".Ljoin:\n"
                   "  join zero, zero, 0\n"
                   "  endprg x0, x0, x0\n",
                   4, 1, &e);
  assert_int_not_equal(rc, 0);
  assert_int_equal(e.kind, VT_ERR_SIMT);
  assert_int_equal(e.pc, CODE_BASE + 0x14); /* the vblt */
  vt_device_destroy(d);
}

/* docs/isa.md §7.20: vmsleu.vi/vmsgtu.vi read the immediate unsigned
 * (ISS, LLVM uimm5), so 31 is 31, not RVV's sign-extended 0xffffffff */
static void vmsleu_vmsgtu_unsigned_imm(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  const uint32_t a[4] = {0xfffffffeu, 31, 32, 0};
  wr_words(d, DATA_BASE, a, 4);
  run_src_ok(d,
             "  li a0, 0x90000000\n"
             "  vle32.v v1, (a0)\n"
             "  vmsleu.vi v2, v1, 31\n"
             "  vmsgtu.vi v3, v1, 31\n"
             "  li a0, 0x90001000\n"
             "  vse32.v v2, (a0)\n"
             "  addi a0, a0, 16\n"
             "  vse32.v v3, (a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  const uint32_t want[8] = {0, 1, 0, 1, 1, 0, 1, 0};
  expect_words(d, OUT, want, 8);
  vt_device_destroy(d);
}

/* docs/isa.md §7.21: the custom CSRs are read-write as in the ISS; private
 * addresses follow the current tid/numw/numt/pds */
static void custom_csrs_writable(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  run_src_ok(d,
             "  li t0, 0x1234\n"
             "  csrw wgid, t0\n"
             "  csrr a1, wgid\n"
             "  li t0, 0x90001100\n"
             "  csrw pds, t0\n"
             "  vid.v v1\n"
             "  vmv.v.i v2, 0\n"
             "  vsw.v v1, 4(v2)\n" /* pds + 4*numw*numt + (tid+i)*4 */
             "  li a0, 0x90001000\n"
             "  sw a1, 0(a0)\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  assert_int_equal(rd32(d, OUT), 0x1234);
  const uint32_t want[4] = {0, 1, 2, 3};
  expect_words(d, OUT + 0x100 + 16, want, 4);
  vt_device_destroy(d);
}

/* endprg on a divergent path: lanes 1..3 (more lanes) fall through first,
 * their join starts lane 0 at .Lzero, which ends without its join; the
 * reconvergence entry, i.e. lanes 1..3 continuing after the join, would
 * never run. A SIMT error, not a warp that ends with part of its work
 * skipped (docs/isa.md §7.23) */
static void endprg_inside_divergence(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  vt_error e;
  int rc = run_src(d,
                   "  vid.v v1\n"
                   "  vmv.v.i v2, 1\n"
                   "  la t1, .Ljoin\n"
                   "  setrpc zero, t1, 0\n"
                   "  vblt v1, v2, .Lzero\n" /* lane 0 taken */
                   "  nop\n"
                   ".Ljoin:\n"
                   "  join zero, zero, 0\n"
                   "  endprg x0, x0, x0\n"
                   ".Lzero:\n"
                   "  endprg x0, x0, x0\n", /* lane 0 ends without its join */
                   4, 1, &e);
  assert_int_not_equal(rc, 0);
  assert_int_equal(e.kind, VT_ERR_SIMT);
  assert_int_equal(e.pc, CODE_BASE + 0x24);
  /* the same region closed by its join ends normally */
  run_src_ok(d,
             "  vid.v v1\n"
             "  vmv.v.i v2, 1\n"
             "  la t1, .Ljoin\n"
             "  setrpc zero, t1, 0\n"
             "  vblt v1, v2, .Ljoin\n"
             "  nop\n"
             ".Ljoin:\n"
             "  join zero, zero, 0\n"
             "  endprg x0, x0, x0\n",
             4, 1);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vbranch_to_join),
      cmocka_unit_test(join_empty_stack),
      cmocka_unit_test(nested_same_rpc),
      cmocka_unit_test(loop_inside_divergence),
      cmocka_unit_test(csrw_rpc_then_branch),
      cmocka_unit_test(vadd12_vsub12_signed),
      cmocka_unit_test(vl12_sign_extension),
      cmocka_unit_test(private_byte_half_offsets),
      cmocka_unit_test(regext_store_data_register),
      cmocka_unit_test(vector_compares_elements),
      cmocka_unit_test(fp_compares_nan_flags),
      cmocka_unit_test(vmerge_packed_v0_and_simt_mask),
      cmocka_unit_test(vid_partial_mask),
      cmocka_unit_test(vmv_x_s_empty_mask),
      cmocka_unit_test(vsetvli_corners),
      cmocka_unit_test(csr_x0_forms),
      cmocka_unit_test(fp_invalid_rounding_modes),
      cmocka_unit_test(zfinx_x0_destination),
      cmocka_unit_test(amo_local_and_misaligned),
      cmocka_unit_test(barrier_after_endprg),
      cmocka_unit_test(vsetvli_unsupported_vtype),
      cmocka_unit_test(misaligned_jump_targets),
      cmocka_unit_test(misaligned_rpc_divergence),
      cmocka_unit_test(vmsleu_vmsgtu_unsigned_imm),
      cmocka_unit_test(custom_csrs_writable),
      cmocka_unit_test(endprg_inside_divergence),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
