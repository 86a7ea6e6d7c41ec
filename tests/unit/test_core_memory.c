/* The device memory model (docs/simulator.md §3, docs/isa.md §7.24):
 * private memory is ordinary device memory seen by every access path, each
 * work-group has its own private slice (at pds + b * pds_size * numt * numw
 * when the region holds one per group, else per slot, else one shared by
 * groups that run one at a time), a launch whose private region is not one
 * mapped buffer is refused, and
 * the local window beyond the groups' local sizes is bounded by
 * lds_sparse_limit, and every group finds its flat local part zeroed
 * whatever the slot's earlier groups wrote there and by which path.
 * Expected values are computed by hand from the interleaving formula:
 * word w of thread t at pds + w*4*numt*numw + 4t. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
#define PDS (DATA_BASE + 0x80000u) /* mklaunch's private base, pds_size 0x100 */

static vt_launch launch_src(vt_device *d, const char *src, uint32_t groups, uint32_t nt, uint32_t nw) {
  load_asm(d, src);
  return mklaunch(groups, 1, 1, nt, nw);
}

/* a private store is seen by vlw12.v and lw at the formula address, and by
 * the host after the launch (1 group, 4 lanes x 2 warps: numt*numw = 8) */
static void private_store_seen_by_ordinary_loads(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  vt_launch l = launch_src(d,
                           "  vid.v v1\n"
                           "  csrr t0, tid\n"
                           "  vadd.vx v1, v1, t0\n"   /* v1 = thread id t */
                           "  vadd.vi v2, v1, 100\n"  /* value 100 + t */
                           "  vmv.v.i v3, 0\n"
                           "  vsw.v v2, 8(v3)\n"      /* private word 2 */
                           "  csrr t1, pds\n"
                           "  vsll.vi v4, v1, 2\n"
                           "  vadd.vx v4, v4, t1\n"   /* pds + 4t */
                           "  vlw12.v v5, 64(v4)\n"   /* + 2*4*8 */
                           "  slli t2, t0, 2\n"
                           "  add t2, t2, t1\n"
                           "  lw a1, 64(t2)\n"        /* lane 0 of the warp: 100 + tid */
                           "  vmv.v.x v6, a1\n"
                           "  li a0, 0x90001000\n"
                           "  slli t2, t0, 2\n"
                           "  add a0, a0, t2\n"
                           "  vse32.v v5, (a0)\n"
                           "  addi a0, a0, 32\n"
                           "  vse32.v v6, (a0)\n"
                           "  endprg x0, x0, x0\n",
                           1, 4, 2);
  launch_ok(d, &l);
  for (uint32_t t = 0; t < 8; t++) {
    assert_int_equal(rd32(d, OUT + 4 * t), 100 + t);
    assert_int_equal(rd32(d, OUT + 32 + 4 * t), 100 + (t & ~3u));
    assert_int_equal(rd32(d, PDS + 2 * 4 * 8 + 4 * t), 100 + t);
  }
  vt_device_destroy(d);
}

/* the reverse: a vsw12.v at the formula address and a host write before
 * the launch are read by vlw.v; an AMO on a private word is seen too */
static void ordinary_stores_seen_by_private_loads(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  for (uint32_t t = 0; t < 8; t++) wr32(d, PDS + 4 * 8 + 4 * t, 0x5000 + t); /* word 1 */
  vt_launch l = launch_src(d,
                           "  vid.v v1\n"
                           "  csrr t0, tid\n"
                           "  vadd.vx v1, v1, t0\n"
                           "  vadd.vi v2, v1, 7\n"    /* 7 + t */
                           "  csrr t1, pds\n"
                           "  vsll.vi v4, v1, 2\n"
                           "  vadd.vx v4, v4, t1\n"
                           "  vsw12.v v2, 0(v4)\n"    /* word 0 of thread t */
                           "  slli t2, t0, 2\n"
                           "  add t2, t2, t1\n"
                           "  li a1, 1000\n"
                           "  amoadd.w x0, a1, (t2)\n" /* word 0 of the warp's first thread */
                           "  vmv.v.i v3, 0\n"
                           "  vlw.v v5, 0(v3)\n"
                           "  vlw.v v6, 4(v3)\n"
                           "  li a0, 0x90001000\n"
                           "  slli t2, t0, 2\n"
                           "  add a0, a0, t2\n"
                           "  vse32.v v5, (a0)\n"
                           "  addi a0, a0, 32\n"
                           "  vse32.v v6, (a0)\n"
                           "  endprg x0, x0, x0\n",
                           1, 4, 2);
  launch_ok(d, &l);
  for (uint32_t t = 0; t < 8; t++) {
    assert_int_equal(rd32(d, OUT + 4 * t), 7 + t + (t % 4 == 0 ? 1000 : 0));
    assert_int_equal(rd32(d, OUT + 32 + 4 * t), 0x5000 + t);
  }
  vt_device_destroy(d);
}

/* 6 groups of 2 warps x 4 lanes: group g reads CSR pds = PDS + g * 0x100
 * * 8, stores 1000*g + t to private word 0, waits (a loop long enough for
 * every resident group to have stored), and reads it back. Run with all
 * groups resident at once (default device) and in waves of 2 (1 SM with 2
 * group slots). */
/* the private layouts of docs/simulator.md §3 */
typedef enum { PER_GROUP, PER_SLOT, SHARED } layout_kind;

static void private_slices(const vt_config *c, uint32_t region_slices, layout_kind layout) {
  vt_device *d = mkdev(c);
  vt_launch l = launch_src(d,
                           "  vid.v v1\n"
                           "  csrr t0, tid\n"
                           "  vadd.vx v1, v1, t0\n"
                           "  csrr s0, wgid\n"
                           "  li t1, 1000\n"
                           "  mul t1, t1, s0\n"
                           "  vadd.vx v2, v1, t1\n"
                           "  vmv.v.i v3, 0\n"
                           "  vsw.v v2, 0(v3)\n"
                           "  li t2, 50\n"
                           "1: addi t2, t2, -1\n"
                           "  bnez t2, 1b\n"
                           "  vlw.v v5, 0(v3)\n"
                           "  slli t1, s0, 5\n"       /* 8 threads * 4 bytes per group */
                           "  slli t2, t0, 2\n"
                           "  add t1, t1, t2\n"
                           "  li a0, 0x90001000\n"
                           "  add a0, a0, t1\n"
                           "  vse32.v v5, (a0)\n"
                           "  csrr t2, pds\n"
                           "  slli t1, s0, 2\n"
                           "  li a0, 0x90002000\n"
                           "  add a0, a0, t1\n"
                           "  sw t2, 0(a0)\n"
                           "  endprg x0, x0, x0\n",
                           6, 4, 2);
  /* the region ends with the data mapping: region_slices slices of 0x800 */
  uint32_t base = DATA_BASE + DATA_SIZE - region_slices * 0x800u;
  l.pds_base = base;
  launch_ok(d, &l);
  uint32_t slots = 0;
  for (uint32_t g = 0; g < 6; g++) {
    uint32_t pds = rd32(d, DATA_BASE + 0x2000 + 4 * g);
    switch (layout) {
    case PER_GROUP: assert_int_equal(pds, base + g * 0x800); break;
    case PER_SLOT: /* the group's slot: 1 SM with 2 slots */
      assert_true(pds == base || pds == base + 0x800);
      slots |= 1u << ((pds - base) / 0x800);
      break;
    case SHARED: assert_int_equal(pds, base); break;
    }
    for (uint32_t t = 0; t < 8; t++) assert_int_equal(rd32(d, OUT + 32 * g + 4 * t), 1000 * g + t);
  }
  if (layout == PER_SLOT) assert_int_equal(slots, 3); /* both slots were used */
  /* the host reads each slice's last group (group 5 in the shared one) */
  if (layout == PER_GROUP)
    for (uint32_t g = 0; g < 6; g++)
      for (uint32_t t = 0; t < 8; t++) assert_int_equal(rd32(d, base + g * 0x800 + 4 * t), 1000 * g + t);
  if (layout == SHARED)
    for (uint32_t t = 0; t < 8; t++) assert_int_equal(rd32(d, base + 4 * t), 5000 + t);
  vt_device_destroy(d);
}

/* the region's size picks the layout: a slice per group (6 fit), per slot
 * (1 SM with 2 slots; 3 slices), or one shared slice (1, fewer than the
 * 2 slots: the groups then run one at a time and still each read back
 * what they stored); also in waves (all 6 fit, 2 slots) */
static void concurrent_groups_private_slices(void **state) {
  (void)state;
  private_slices(NULL, 0x100, PER_GROUP);
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 1;
  c.wg_slots_per_sm = 2;
  private_slices(&c, 0x100, PER_GROUP);
  private_slices(&c, 3, PER_SLOT);
  private_slices(&c, 1, SHARED);
}

static void expect_launch_error(vt_device *d, const vt_launch *l, vt_err_kind kind, const char *part) {
  vt_error e;
  assert_int_equal(vt_device_launch(d, l, &e), -1);
  assert_int_equal(e.kind, kind);
  if (!strstr(e.msg, part)) fail_msg("message \"%s\" lacks \"%s\"", e.msg, part);
}

/* the private region must be one mapped read-write buffer holding at
 * least one group's slice: 0x100 * 8 * 2 = 0x1000 bytes per group, and the
 * region from PDS to the data region's end holds 0x80 of them */
static void private_region_checked(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  vt_launch l = launch_src(d, "  endprg x0, x0, x0\n", 0x81, 8, 2);
  launch_ok(d, &l); /* 0x81 groups: a slice per slot */
  l.pds_base = DATA_BASE + DATA_SIZE - 0x800; /* half a slice */
  expect_launch_error(d, &l, VT_ERR_CONFIG, "private region at 0x900ff800 does not hold one work-group's 0x1000");
  l.grid[0] = 1;
  l.pds_base = 0xa0000000u; /* unmapped */
  expect_launch_error(d, &l, VT_ERR_CONFIG, "in one mapped read-write buffer");
  vt_error e;
  assert_int_equal(vt_mem_map(d, 0xa0000000u, 0x1000, VT_PERM_R, &e), 0); /* read-only */
  expect_launch_error(d, &l, VT_ERR_CONFIG, "in one mapped read-write buffer");
  l.pds_size = 0; /* no private memory: nothing to check */
  launch_ok(d, &l);
  vt_device_destroy(d);
}

/* ---- the local window --------------------------------------------------------- */
/* one store per page of the window above the flat 4 KiB (AUDIT R23): the
 * default 64 MiB allows pages 1..16384, so the store to page 16385 faults */
static void local_window_budget(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  vt_launch l = launch_src(d,
                           "  csrr t0, lds\n"
                           "  li t1, 0x10000000\n"
                           "  add t1, t0, t1\n"
                           "  li t2, 0x1000\n"
                           "1: sw t2, 0(t0)\n"
                           "  add t0, t0, t2\n"
                           "  bltu t0, t1, 1b\n"
                           "  endprg x0, x0, x0\n",
                           1, 4, 1);
  vt_error e;
  assert_int_equal(vt_device_launch(d, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_int_equal(e.addr, 0x70000000u + 16385u * 0x1000u);
  assert_non_null(strstr(e.msg, "lds_sparse_limit of 0x4000000 bytes"));
  vt_device_destroy(d);
}

/* one SM of one work-group slot: the groups of a launch run one after
 * another in the same slot (and on one host thread) */
static vt_config one_slot_config(void) {
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 1;
  c.wg_slots_per_sm = 1;
  c.host_threads = 1;
  return c;
}

/* the budget is per device and returned when groups finish. Warp stacks at
 * wid * 1 MiB (as one crt0 variant puts them): warp 0's is in the flat
 * 4 KiB, every other warp's on a far page. With a 1-page budget, 4 groups
 * of 2 warps pass when they run one at a time; a group of 3 warps fails
 * at warp 2's stack */
static void local_budget_returned(void **state) {
  (void)state;
  vt_config c = one_slot_config();
  c.lds_sparse_limit = 0x1000;
  vt_device *d = mkdev(&c);
  const char *src = "  csrr t0, lds\n"
                    "  csrr t1, wid\n"
                    "  slli t1, t1, 20\n"
                    "  add t0, t0, t1\n"
                    "  addi t0, t0, 0x7f0\n"  /* an address beyond the 4 KiB flat part */
                    "  addi t0, t0, 0x7f0\n"
                    "  sw t1, 0(t0)\n"
                    "  lw t2, 0(t0)\n"
                    "  csrr t3, wgid\n"
                    "  slli t3, t3, 3\n"
                    "  csrr t4, wid\n"
                    "  slli t4, t4, 2\n"
                    "  add t3, t3, t4\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t3\n"
                    "  sw t2, 0(a0)\n"
                    "  endprg x0, x0, x0\n";
  vt_launch l = launch_src(d, src, 4, 4, 2);
  launch_ok(d, &l);
  for (uint32_t g = 0; g < 4; g++)
    for (uint32_t w = 0; w < 2; w++) assert_int_equal(rd32(d, OUT + 8 * g + 4 * w), w << 20);
  l = launch_src(d, src, 1, 4, 3);
  vt_error e;
  assert_int_equal(vt_device_launch(d, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_int_equal(e.addr, 0x70000000u + (2u << 20) + 0xfe0u);
  vt_device_destroy(d);
}

/* Every group of a slot starts with a zeroed flat local part, however the
 * groups before it wrote there: a scalar store (route_hit), a vector store
 * of a span (span_host), an AMO (route). Each launch writes through one path
 * only, at a low, a high or a middle offset of the 4 KiB part, so that a
 * clearing that missed some path's or some offset's bytes would show.
 * Three groups run one after another in the one slot of the one SM; each
 * reads its word, stores a marker (4 * group + 7) there and reads it back.
 * The next launch reuses the slot's local memory, so its first group must
 * find the last launch's marker gone too. */
static void local_zeroed_for_every_group(void **state) {
  (void)state;
  static const struct {
    uint32_t off;
    const char *store; /* t0: the word's address, t4: the marker */
  } cases[] = {
      {0x004, "  sw t4, 0(t0)\n"},
      {0xffc, "  vid.v v3\n"
              "  vsll.vi v3, v3, 2\n"
              "  vadd.vx v1, v3, t0\n"
              "  vadd.vi v1, v1, -12\n" /* the lanes' 4 words up to t0's: 0xff0..0xfff */
              "  vmv.v.x v2, t4\n"
              "  vsw12.v v2, 0(v1)\n"},
      {0x800, "  amoadd.w x0, t4, (t0)\n"},
  };
  vt_config c = one_slot_config();
  vt_device *d = mkdev(&c);
  for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    char src[1024];
    snprintf(src, sizeof src,
             "  csrr t0, lds\n"
             "  li t1, %u\n"
             "  add t0, t0, t1\n"
             "  lw t2, 0(t0)\n"       /* before the group writes: 0 */
             "  csrr t3, wgid\n"
             "  slli t3, t3, 2\n"
             "  addi t4, t3, 7\n"     /* the marker */
             "%s"
             "  lw t5, 0(t0)\n"       /* after: the marker */
             "  li a0, 0x90001000\n"
             "  add a0, a0, t3\n"
             "  sw t2, 0(a0)\n"
             "  sw t5, 64(a0)\n"
             "  endprg x0, x0, x0\n",
             cases[k].off, cases[k].store);
    vt_launch l = launch_src(d, src, 3, 4, 1);
    launch_ok(d, &l);
    for (uint32_t g = 0; g < 3; g++) {
      assert_int_equal(rd32(d, OUT + 4 * g), 0);
      assert_int_equal(rd32(d, OUT + 64 + 4 * g), 4 * g + 7);
    }
  }
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(private_store_seen_by_ordinary_loads),
      cmocka_unit_test(ordinary_stores_seen_by_private_loads),
      cmocka_unit_test(concurrent_groups_private_slices),
      cmocka_unit_test(private_region_checked),
      cmocka_unit_test(local_window_budget),
      cmocka_unit_test(local_budget_returned),
      cmocka_unit_test(local_zeroed_for_every_group),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
