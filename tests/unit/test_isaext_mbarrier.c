/* ISA 2025 cp_dma_mbarrier (docs/isa-extensions.md): the warps of a
 * work-group wait in groups of 4 (the last group may be smaller) for each
 * other and for their copies. Each warp copies its own 16 bytes with
 * cp_dma after a delay that grows with its place in the group, passes the
 * mbarrier and reads every group member's copy back from local memory: the
 * values must all be there. The same program without the mbarrier must see
 * missing copies (so the check can fail), groups do not wait for each
 * other, and a group whose member ended (barrier_counts_ended = 0) is a
 * deadlock named by work-group, group and warps. The timing model parks a
 * waiting warp as at a barrier and gets the same result. */
#include "isaext_prog.h"
#include "timing.h"

#define SRC_OFF 0x1000u /* global source: warp w, lane i at DATA + SRC_OFF + 16 w + 4 i */
#define RES_OFF                                                                                    \
  0x2000u /* warp w's copy of member k's lane i at DATA + RES_OFF + 64 w + 16 k + 4 i */
#define NT 4

static uint32_t src_val(uint32_t w, uint32_t i) { return 0x1000u * (w + 1) + i + 1; }

/* `sync` is the instruction between the copy and the read-back */
static void program(char *buf, size_t n, const char *sync) {
  snprintf(buf, n,
           "csrr s0, 0x805\n"                            /* wid */
           "vid.v v1\nvsll.vi v1, v1, 2\n"               /* 4 * lane */
           "andi t0, s0, 3\nli t1, 25\nmul t0, t0, t1\n" /* delay (wid %% 4) * 25 loops */
           "1: beqz t0, 2f\naddi t0, t0, -1\nj 1b\n"
           "2: slli t1, s0, 4\n"
           "li t2, 0x%08x\nadd t2, t2, t1\nvadd.vx v2, v1, t2\n"     /* sources */
           "li t2, 0x70000000\nadd t2, t2, t1\nvadd.vx v3, v1, t2\n" /* local destinations */
           "vmv.v.i v4, 4\n"
           "cp_dma.4 v3, v2, v4\n"
           "%s\n"
           "andi a0, s0, -4\naddi a1, a0, 4\n" /* members a0 .. a1 - 1 */
           "csrr t0, 0x801\nbge t0, a1, 3f\nmv a1, t0\n"
           "3: mv a2, a0\n"
           "4: slli t1, a2, 4\nli t2, 0x70000000\nadd t2, t2, t1\nvadd.vx v5, v1, t2\n"
           "vlw12.v v6, 0(v5)\n"
           "sub t1, a2, a0\nslli t1, t1, 4\nslli t2, s0, 6\nadd t1, t1, t2\n"
           "li t2, 0x%08x\nadd t2, t2, t1\nvadd.vx v7, v1, t2\n"
           "vsw12.v v6, 0(v7)\n"
           "addi a2, a2, 1\nblt a2, a1, 4b\n"
           "endprg x0, x0, x0\n",
           DATA_BASE + SRC_OFF, sync, DATA_BASE + RES_OFF);
}

static vt_device *setup(uint32_t counts_ended, uint32_t nw) {
  vt_config c;
  vt_config_defaults(&c);
  c.isa = 2025;
  c.barrier_counts_ended = counts_ended;
  vt_device *d = mkdev(&c);
  for (uint32_t w = 0; w < nw; w++)
    for (uint32_t i = 0; i < NT; i++) {
      wr32(d, DATA_BASE + SRC_OFF + 16 * w + 4 * i, src_val(w, i));
      for (uint32_t k = 0; k < 4; k++)
        wr32(d, DATA_BASE + RES_OFF + 64 * w + 16 * k + 4 * i, 0xdeadbeef);
    }
  return d;
}

static int launch(vt_device *d, const char *sync, uint32_t nw, vt_error *e) {
  char src[4096];
  program(src, sizeof src, sync);
  prog p = {.n = 0};
  vt_error ae = {0};
  p.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, p.w, 4096, &ae);
  if (p.n < 0) fail_msg("assembling failed: %s", ae.msg);
  vt_launch l = mklaunch(1, 1, 1, NT, nw);
  return run(d, &p, &l, e);
}

/* how many of the values the warps read back differ from the copies */
static unsigned mismatches(vt_device *d, uint32_t nw) {
  unsigned bad = 0;
  for (uint32_t w = 0; w < nw; w++) {
    uint32_t first = w & ~3u, end = first + 4 < nw ? first + 4 : nw;
    for (uint32_t m = first; m < end; m++)
      for (uint32_t i = 0; i < NT; i++)
        bad += rd32(d, DATA_BASE + RES_OFF + 64 * w + 16 * (m - first) + 4 * i) != src_val(m, i);
  }
  return bad;
}

/* 6 warps: a full group 0..3 and a partial group 4..5 */
static void test_mbarrier_orders_the_group(void **state) {
  (void)state;
  for (uint32_t nw = 1; nw <= 6; nw++) {
    vt_device *d = setup(1, nw);
    vt_error e = {0};
    if (launch(d, "cp_dma_mbarrier", nw, &e)) fail_msg("%u warps: %s", nw, e.msg);
    unsigned bad = mismatches(d, nw);
    if (bad) fail_msg("%u warps: %u values read before their copy", nw, bad);
    vt_device_destroy(d);
  }
}

/* without it the early warps read members' areas before their copies */
static void test_without_mbarrier_copies_are_missed(void **state) {
  (void)state;
  vt_device *d = setup(1, 6);
  vt_error e = {0};
  if (launch(d, "addi x0, x0, 0", 6, &e)) fail_msg("%s", e.msg);
  assert_true(mismatches(d, 6) > 0);
  /* warp 0 reads warp 3's area first: nothing was copied there yet */
  assert_int_equal(rd32(d, DATA_BASE + RES_OFF + 16 * 3), 0);
  vt_device_destroy(d);
}

/* warps 4 and 5 (group 1) end at once; group 0 still completes, and with
 * the RTL rule a group with an ended member is a deadlock report */
static void test_groups_and_deadlock(void **state) {
  (void)state;
  const char *src = "csrr t0, 0x805\nli t1, 5\nbeq t0, t1, 1f\n"
                    "cp_dma_mbarrier\n"
                    "1: endprg x0, x0, x0\n";
  for (uint32_t ended_counts = 0; ended_counts < 2; ended_counts++) {
    vt_config c;
    vt_config_defaults(&c);
    c.isa = 2025;
    c.barrier_counts_ended = ended_counts;
    vt_device *d = mkdev(&c);
    vt_error e = {0};
    /* 5 warps: group 1 is warp 4 alone, so it passes */
    if (ext_run(d, ISA_REV_2025, src, NT, &e)) fail_msg("%s", e.msg);
    prog p = {.n = 0};
    vt_error ae = {0};
    p.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, p.w, 4096, &ae);
    vt_launch l = mklaunch(1, 1, 1, NT, 5);
    if (run(d, &p, &l, &e)) fail_msg("5 warps: %s", e.msg);
    l.num_warps = 6; /* warp 5 ends without arriving */
    int rc = run(d, &p, &l, &e);
    if (ended_counts) {
      if (rc) fail_msg("6 warps, ended warps count: %s", e.msg);
    } else {
      assert_int_equal(rc, -1);
      assert_int_equal(e.kind, VT_ERR_DEADLOCK);
      assert_string_equal(e.msg,
                          "cp_dma_mbarrier can never complete: work-group 0, group 1 (warps 4..5): "
                          "warps 4 wait, warps 5 ended, warps none wait at the work-group barrier");
      assert_int_equal(e.pc, CODE_BASE + 12);
    }
    vt_device_destroy(d);
  }
}

/* a group whose member waits at the work-group barrier instead */
static void test_deadlock_against_the_barrier(void **state) {
  (void)state;
  const char *src = "csrr t0, 0x805\nbeqz t0, 1f\ncp_dma_mbarrier\nj 2f\n"
                    "1: barrier x0, x0, 0\n2: endprg x0, x0, x0\n";
  vt_device *d = ext_dev(2025);
  prog p = {.n = 0};
  vt_error ae = {0}, e = {0};
  p.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, p.w, 4096, &ae);
  vt_launch l = mklaunch(1, 1, 1, NT, 3);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_DEADLOCK);
  assert_string_equal(e.msg,
                      "cp_dma_mbarrier can never complete: work-group 0, group 0 (warps 0..2): "
                      "warps 1 2 wait, warps none ended, warps 0 wait at the work-group barrier");
  vt_device_destroy(d);
}

/* the timing model parks a waiting warp (barrier stall) with the same result */
static void test_mbarrier_under_timing(void **state) {
  (void)state;
  vt_device *d = setup(1, 6);
  vt_error e = {0};
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  if (launch(d, "cp_dma_mbarrier", 6, &e)) fail_msg("%s", e.msg);
  assert_int_equal(mismatches(d, 6), 0);
  const vt_timing_stats *s = vt_timing_get_stats(t);
  assert_true(s->sm[0].barrier_wait > 0);
  vt_timing_free(t);
  vt_device_destroy(d);
}

/* a baseline device does not know the word */
static void test_baseline_refuses(void **state) {
  (void)state;
  vt_error e = {0};
  assert_true(asm_words_rev("cp_dma_mbarrier\n", CODE_BASE, ISA_REV_BASE, (uint32_t[4]){0}, 4, &e) <
              0);
  assert_non_null(strstr(e.msg, "2025"));
  isa_inst in;
  assert_int_equal(isa_decode_rev(0x00004041u, 0, ISA_REV_2025, &in), ISA_cp_dma_mbarrier);
  assert_int_equal(isa_decode_rev(0x00004041u, 0, ISA_REV_BASE, &in), ISA_INVALID);
  assert_int_equal(isa_lookup_rev(0x00004041u | 1u << 7, ISA_REV_2025),
                   ISA_INVALID); /* rd must be 0 */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mbarrier_orders_the_group),
      cmocka_unit_test(test_without_mbarrier_copies_are_missed),
      cmocka_unit_test(test_groups_and_deadlock),
      cmocka_unit_test(test_deadlock_against_the_barrier),
      cmocka_unit_test(test_mbarrier_under_timing),
      cmocka_unit_test(test_baseline_refuses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
