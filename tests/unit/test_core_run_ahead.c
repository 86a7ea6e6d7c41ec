/* Warp run-ahead (src/core/warp.c warp_turn, the launch loop in
 * dispatch.c) must be invisible: two warps of one group, warp 0 looping
 * over register-only instructions (run ahead once predecoded) until its
 * jalr target becomes misaligned, warp 1 incrementing a memory counter
 * per iteration until it loads from an unmapped address. Whichever fault
 * comes first in the round-robin order is the one reported, and the
 * counter holds what warp 1 did until then, exactly as in the same launch
 * with run-ahead off (run_ahead = 0); a step limit is
 * met at the same warp and pc for every limit. Hand-derived round
 * numbers (one instruction per warp and round): warp 0 has 6 instructions
 * of set-up (csrr, lui, bnez, li, auipc + addi) and 5 per pass, so its
 * jalr of pass n0 faults in round 6 + 5 * n0; warp 1 has 4 (csrr, lui,
 * bnez, li), its k-th store is instruction 4 + 5(k - 1) + 3 = 5k + 2, and
 * its unmapped load (after lui) instruction 4 + 5 * n1 + 2.
 *
 * The same with warp 0 looping over fp and CSR instructions (which run
 * ahead too) up to an access to an unknown CSR; and a counter CSR, which
 * must not run ahead (run-ahead adds instret once per run), read where
 * plain round-robin reads it. */
#include "test_core_more.h"

#define COUNTER (DATA_BASE + 0x1000u)

/* Both programs: warp 1 branches to warp1 and stores n1 counts (the
 * second %u), then loads from an unmapped address. */
#define WARP_SPLIT \
  "  csrr t0, wid\n" \
  "  li a0, 0x90001000\n" \
  "  bnez t0, warp1\n"
#define WARP1_LOOP \
  "warp1:\n" \
  "  li t1, %u\n" \
  "loop1:\n" \
  "  lw t3, 0(a0)\n" \
  "  addi t3, t3, 1\n" \
  "  sw t3, 0(a0)\n" \
  "  addi t1, t1, -1\n" \
  "  bnez t1, loop1\n" \
  "  li t2, 0x12345000\n" \
  "  lw t3, 0(t2)\n" \
  "  endprg x0, x0, x0\n"

static const char *program(char *buf, size_t n, unsigned n0, unsigned n1) {
  snprintf(buf, n,
           WARP_SPLIT
           "  li t1, %u\n"
           "  la t4, loop0\n"
           "loop0:\n"
           "  addi t1, t1, -1\n"
           "  seqz t5, t1\n"
           "  slli t5, t5, 1\n"
           "  add t6, t4, t5\n"      /* loop0, or loop0 + 2 after the last pass */
           "  jalr x0, 0(t6)\n"
           WARP1_LOOP,
           n0, n1);
  return buf;
}

/* warp 0: 3 instructions of set-up (lui, csrs mstatus: FS on, li), 4 per
 * pass (fadd.s, csrrw fflags, addi, bnez), then the unknown CSR 0x7c0: round
 * 3 + 3 + 4 * n0 + 1 = 7 + 4 * n0. Warp 1 as in program(). */
static const char *program_fp(char *buf, size_t n, unsigned n0, unsigned n1) {
  snprintf(buf, n,
           WARP_SPLIT
           "  li t2, 0x2000\n"
           "  csrs mstatus, t2\n"
           "  li t1, %u\n"
           "loop0:\n"
           "  fadd.s t3, t3, t2\n"
           "  csrrw t4, fflags, zero\n"
           "  addi t1, t1, -1\n"
           "  bnez t1, loop0\n"
           "  csrr t5, 0x7c0\n"
           WARP1_LOOP,
           n0, n1);
  return buf;
}

typedef const char *program_fn(char *buf, size_t n, unsigned n0, unsigned n1);

/* the launch's error and the counter afterwards, run-ahead on or off,
 * with a step limit (0: none) */
static void launch_limited(program_fn *prog, unsigned n0, unsigned n1, int run_ahead, uint64_t max_steps,
                           vt_error *e, uint32_t *counter) {
  vt_config c;
  vt_config_defaults(&c);
  c.host_threads = 1;
  c.num_sm = 1; /* two warp slots: run-ahead stops 257 * 3 steps before a step limit */
  c.warps_per_sm = 2;
  c.max_steps = max_steps;
  c.run_ahead = (uint32_t)run_ahead;
  vt_device *d = mapped_device(&c);
  char src[1024];
  load_asm(d, prog(src, sizeof src, n0, n1));
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  assert_int_not_equal(vt_device_launch(d, &l, e), 0);
  *counter = rd32(d, COUNTER);
  vt_device_destroy(d);
}

static void launch_prog(program_fn *prog, unsigned n0, unsigned n1, int run_ahead, vt_error *e,
                        uint32_t *counter) {
  launch_limited(prog, n0, n1, run_ahead, 0, e, counter);
}

static void launch_faulting(unsigned n0, unsigned n1, int run_ahead, vt_error *e, uint32_t *counter) {
  launch_prog(program, n0, n1, run_ahead, e, counter);
}

static void check_same_prog(program_fn *prog, unsigned n0, unsigned n1, int want_warp, vt_err_kind want_kind) {
  vt_error on, off;
  uint32_t c_on, c_off;
  launch_prog(prog, n0, n1, 1, &on, &c_on);
  launch_prog(prog, n0, n1, 0, &off, &c_off);
  assert_int_equal(on.kind, want_kind);
  assert_int_equal(on.warp, want_warp);
  assert_string_equal(on.msg, off.msg);
  assert_int_equal(on.kind, off.kind);
  assert_int_equal(on.warp, off.warp);
  assert_int_equal(on.pc, off.pc);
  assert_int_equal(c_on, c_off);
  if (want_warp == 1) assert_int_equal(c_on, n1); /* warp 1 finished its loop */
}

static void check_same(unsigned n0, unsigned n1, int want_warp, vt_err_kind want_kind) {
  check_same_prog(program, n0, n1, want_warp, want_kind);
}

/* warp 0's fault (round 206) comes after warp 1's (round 56): warp 1's is
 * reported although warp 0 met its own long before, running ahead */
static void late_fault_ahead_waits_its_round(void **state) {
  (void)state;
  check_same(40, 10, 1, VT_ERR_UNMAPPED);
}

/* warp 0's fault (round 66) comes first: reported with warp 1's counter as
 * far as the round-robin order had taken it (warp 1 steps after warp 0 in
 * a round, so it ran rounds 1..65: stores 5k + 2 <= 65, k <= 12) */
static void early_fault_ahead_reported_in_its_round(void **state) {
  (void)state;
  check_same(12, 100, 0, VT_ERR_MISALIGNED);
  vt_error e;
  uint32_t counter;
  launch_faulting(12, 100, 1, &e, &counter);
  assert_int_equal(counter, 12);
}

/* warp 0's unknown CSR (round 7 + 4 * 40 = 167) after warp 1's load (round 56) */
static void late_csr_fault_ahead_waits_its_round(void **state) {
  (void)state;
  check_same_prog(program_fp, 40, 10, 1, VT_ERR_UNMAPPED);
}

/* warp 0's unknown CSR (round 7 + 4 * 12 = 55) first: warp 1 ran rounds
 * 1..54, its stores 5k + 2 <= 54, k <= 10 */
static void early_csr_fault_ahead_reported_in_its_round(void **state) {
  (void)state;
  check_same_prog(program_fp, 12, 100, 0, VT_ERR_ILLEGAL);
  vt_error e;
  uint32_t counter;
  launch_prog(program_fp, 12, 100, 1, &e, &counter);
  assert_int_equal(counter, 10);
}

/* Two warps read instret in a loop (run ahead from the second pass on, the
 * rest of the loop being private) and store the last value read: 5
 * instructions before the loop, 3 per pass with the read first, so pass 5
 * reads 5 + 3 * 4 = 17. */
static void counter_read_in_its_round(void **state) {
  (void)state;
  const char *src = "  csrr t0, wid\n"
                    "  slli t0, t0, 2\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t0\n"
                    "  li t1, 5\n"
                    "loop:\n"
                    "  csrr t2, instret\n"
                    "  addi t1, t1, -1\n"
                    "  bnez t1, loop\n"
                    "  sw t2, 0(a0)\n"
                    "  endprg x0, x0, x0\n";
  vt_config c;
  vt_config_defaults(&c);
  c.host_threads = 1;
  vt_device *d = mapped_device(&c);
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  launch_ok(d, &l);
  /* csrr, slli, lui, add, li: 5 before the loop */
  assert_int_equal(rd32(d, COUNTER), 5 + 3 * 4);
  assert_int_equal(rd32(d, COUNTER + 4), 5 + 3 * 4);
  vt_device_destroy(d);
}

/* Every step limit from 1 to past the first fault (warp 0's misaligned
 * jalr after 300 passes, round 6 + 5 * 300 = 1506; warp 0 runs ahead from
 * its second pass on until 771 steps before the limit): the limit, or the
 * fault, is met at the warp and pc of plain round-robin, with the counter
 * of warp 1's stores by then. */
static void step_limit_at_its_place(void **state) {
  (void)state;
  unsigned limits = 0;
  for (uint64_t n = 1; n <= 3020; n++) {
    vt_error on, off;
    uint32_t c_on, c_off;
    launch_limited(program, 300, 400, 1, n, &on, &c_on);
    launch_limited(program, 300, 400, 0, n, &off, &c_off);
    assert_int_equal(on.kind, off.kind);
    assert_int_equal(on.warp, off.warp);
    assert_int_equal(on.pc, off.pc);
    assert_string_equal(on.msg, off.msg);
    assert_int_equal(c_on, c_off);
    limits += on.kind == VT_ERR_STEP_LIMIT;
  }
  /* rounds 1..1505 of two warps come before that jalr: limits 1..3010 */
  assert_int_equal(limits, 3010);
}

/* Barrier parking (dispatch.c): warp 0 loops n passes (2 instructions
 * each) before a barrier that warp 1 reaches at once and re-checks in
 * every round until warp 0 arrives; both then read instret and store it.
 * Warp 0: csrr, slli, lui, add, bnez, li, 2n loop, barrier: it arrives
 * and opens the barrier in round 2n + 7 and reads 2n + 7. Warp 1 (wid 1:
 * the higher slot, or the lower with warps_last_first) re-checks after
 * warp 0 in that round and is through, or before it, and is through in the
 * next: it reads 2n + 7 or 2n + 8. With max_steps, the limit is met at the
 * warp and pc of plain round-robin for every limit. */
/* both barrier programs: warp 0 loops t1 passes, then every warp meets
 * the barrier and stores the instret it reads after it at a0 */
#define BARRIER_TAIL \
  "loop:\n" \
  "  addi t1, t1, -1\n" \
  "  bnez t1, loop\n" \
  "skip:\n" \
  "  barrier x0, x0, 0\n" \
  "  csrr t2, instret\n" \
  "  sw t2, 0(a0)\n" \
  "  endprg x0, x0, x0\n"

static const char barrier_src[] = "  csrr t0, wid\n"
                                  "  slli t0, t0, 2\n"
                                  "  li a0, 0x90001000\n"
                                  "  add a0, a0, t0\n"
                                  "  bnez t0, skip\n"
                                  "  li t1, %u\n"
                                  BARRIER_TAIL;

typedef struct {
  int rc;
  vt_error e;
  uint32_t c0, c1;
  uint64_t warp_insns, barriers, parked;
} barrier_run;

static barrier_run launch_barrier(unsigned n, int run_ahead, int last_first, uint64_t max_steps) {
  vt_config c = two_slot_config(run_ahead);
  c.warps_last_first = (uint32_t)last_first;
  c.max_steps = max_steps;
  vt_device *d = mapped_device(&c);
  char src[1024];
  snprintf(src, sizeof src, barrier_src, n);
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  barrier_run r = {0};
  r.rc = vt_device_launch(d, &l, &r.e);
  r.c0 = rd32(d, COUNTER);
  r.c1 = rd32(d, COUNTER + 4);
  r.warp_insns = vt_device_stats(d)->warp_insns;
  r.barriers = vt_device_stats(d)->barriers;
  r.parked = vt_device_parked_checks(d);
  vt_device_destroy(d);
  return r;
}

static void barrier_parking_invisible(void **state) {
  (void)state;
  for (int lf = 0; lf <= 1; lf++) {
    unsigned n = 500;
    barrier_run on = launch_barrier(n, 1, lf, 0), off = launch_barrier(n, 0, lf, 0);
    assert_int_equal(on.rc, 0);
    assert_int_equal(off.rc, 0);
    assert_int_equal(on.c0, 2 * n + 7);
    assert_int_equal(on.c1, 2 * n + 7 + (unsigned)lf);
    assert_int_equal(off.c0, on.c0);
    assert_int_equal(off.c1, on.c1);
    assert_int_equal(on.warp_insns, off.warp_insns);
    assert_int_equal(on.barriers, off.barriers);
    assert_int_equal(on.barriers, 2);
    /* warp 1 arrived in round 6 and re-checked in round 7, then was parked
     * until warp 0's arrival: 2n - 1 re-checks skipped (one more when it
     * comes first in the round) */
    assert_int_equal(on.parked, 2 * n - 1 + (unsigned)lf);
    assert_int_equal(off.parked, 0);
  }
}

/* every limit from 1 to past the end (2 * (2n + 10) steps or so) */
static void barrier_parking_step_limit(void **state) {
  (void)state;
  unsigned n = 700, limits = 0;
  for (uint64_t m = 1; m <= 2 * (2 * n + 12); m++) {
    barrier_run on = launch_barrier(n, 1, 0, m), off = launch_barrier(n, 0, 0, m);
    assert_int_equal(on.rc, off.rc);
    assert_int_equal(on.e.kind, off.e.kind);
    assert_int_equal(on.e.warp, off.e.warp);
    assert_int_equal(on.e.pc, off.e.pc);
    assert_int_equal(on.c0, off.c0);
    assert_int_equal(on.c1, off.c1);
    limits += on.rc != 0 && on.e.kind == VT_ERR_STEP_LIMIT;
  }
  /* warp 0 runs 2n + 10 instructions, warp 1 one per round until then: every
   * limit below 2 * (2n + 9) + 1 steps stops the launch */
  assert_true(limits > 2 * (2 * n + 8));
}

/* Many groups on two host threads (par_launch.c parks too): group g's
 * warp 0 loops n = 100 + 8g passes after 10 instructions of set-up, so
 * both its warps read instret 2n + 11 after the barrier (warp 1, in the
 * higher slot, is through in the same round), as with one thread and
 * run-ahead off. */
static void barrier_parking_parallel(void **state) {
  (void)state;
  static const char src[] = "  csrr t0, wid\n"
                            "  csrr t3, wgid\n"
                            "  slli t5, t3, 1\n"
                            "  add t5, t5, t0\n"
                            "  slli t5, t5, 2\n"
                            "  li a0, 0x90001000\n"
                            "  add a0, a0, t5\n"
                            "  bnez t0, skip\n"
                            "  slli t1, t3, 3\n"
                            "  addi t1, t1, 100\n"
                            BARRIER_TAIL;
  enum { GROUPS = 32 };
  uint32_t got[2][2 * GROUPS];
  uint64_t insns[2], parked[2], par[2];
  for (int run = 0; run < 2; run++) { /* 0: two threads, run-ahead; 1: one thread, none */
    vt_config c;
    vt_config_defaults(&c);
    c.host_threads = run ? 1 : 2;
    c.num_sm = 4;
    c.warps_per_sm = 2;
    c.run_ahead = run ? 0 : 1;
    vt_device *d = mapped_device(&c);
    load_asm(d, src);
    vt_launch l = mklaunch(GROUPS, 1, 1, 4, 2);
    launch_ok(d, &l);
    for (int i = 0; i < 2 * GROUPS; i++) got[run][i] = rd32(d, COUNTER + 4u * (uint32_t)i);
    insns[run] = vt_device_stats(d)->warp_insns;
    par[run] = vt_device_stats(d)->parallel_launches;
    parked[run] = vt_device_parked_checks(d);
    vt_device_destroy(d);
  }
  for (unsigned g = 0; g < GROUPS; g++) {
    assert_int_equal(got[0][2 * g], 2 * (100 + 8 * g) + 11);
    assert_int_equal(got[0][2 * g + 1], 2 * (100 + 8 * g) + 11);
  }
  assert_memory_equal(got[0], got[1], sizeof got[0]);
  assert_int_equal(insns[0], insns[1]);
  assert_int_equal(par[0], 1);
  assert_int_equal(par[1], 0);
  assert_true(parked[0] > GROUPS * 150);
  assert_int_equal(parked[1], 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(late_fault_ahead_waits_its_round),
      cmocka_unit_test(early_fault_ahead_reported_in_its_round),
      cmocka_unit_test(late_csr_fault_ahead_waits_its_round),
      cmocka_unit_test(early_csr_fault_ahead_reported_in_its_round),
      cmocka_unit_test(counter_read_in_its_round),
      cmocka_unit_test(step_limit_at_its_place),
      cmocka_unit_test(barrier_parking_invisible),
      cmocka_unit_test(barrier_parking_step_limit),
      cmocka_unit_test(barrier_parking_parallel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
