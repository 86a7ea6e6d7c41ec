/* Warp run-ahead (src/core/warp.c warp_run_ahead, the launch loop in
 * dispatch.c) must be invisible: two warps of one group, warp 0 looping
 * over register-only instructions (run ahead once predecoded) until its
 * jalr target becomes misaligned, warp 1 incrementing a memory counter
 * per iteration until it loads from an unmapped address. Whichever fault
 * comes first in the round-robin order is the one reported, and the
 * counter holds what warp 1 did until then, exactly as in the same launch
 * with run-ahead off (a step limit turns it off). Hand-derived round
 * numbers (one instruction per warp and round): warp 0 has 6 instructions
 * of set-up (csrr, lui, bnez, li, auipc + addi) and 5 per pass, so its
 * jalr of pass n0 faults in round 6 + 5 * n0; warp 1 has 4 (csrr, lui,
 * bnez, li), its k-th store is instruction 4 + 5(k - 1) + 3 = 5k + 2, and
 * its unmapped load (after lui) instruction 4 + 5 * n1 + 2. */
#include "test_core_more.h"

#define COUNTER (DATA_BASE + 0x1000u)

static const char *program(char *buf, size_t n, unsigned n0, unsigned n1) {
  snprintf(buf, n,
           "  csrr t0, wid\n"
           "  li a0, 0x90001000\n"
           "  bnez t0, warp1\n"
           "  li t1, %u\n"
           "  la t4, loop0\n"
           "loop0:\n"
           "  addi t1, t1, -1\n"
           "  seqz t5, t1\n"
           "  slli t5, t5, 1\n"
           "  add t6, t4, t5\n"      /* loop0, or loop0 + 2 after the last pass */
           "  jalr x0, 0(t6)\n"
           "warp1:\n"
           "  li t1, %u\n"
           "loop1:\n"
           "  lw t3, 0(a0)\n"
           "  addi t3, t3, 1\n"
           "  sw t3, 0(a0)\n"
           "  addi t1, t1, -1\n"
           "  bnez t1, loop1\n"
           "  li t2, 0x12345000\n"
           "  lw t3, 0(t2)\n"
           "  endprg x0, x0, x0\n",
           n0, n1);
  return buf;
}

/* the launch's error and the counter afterwards, run-ahead on or off */
static void launch_faulting(unsigned n0, unsigned n1, int run_ahead, vt_error *e, uint32_t *counter) {
  vt_config c;
  vt_config_defaults(&c);
  c.host_threads = 1;
  if (!run_ahead) c.max_steps = 1u << 30; /* any step limit disables run-ahead */
  /* code read/execute only: writable code turns run-ahead off as well */
  vt_error me;
  vt_device *d = vt_device_create(&c, &me);
  assert_non_null(d);
  assert_int_equal(vt_mem_map(d, CODE_BASE, 0x10000, VT_PERM_R | VT_PERM_X, &me), 0);
  assert_int_equal(vt_mem_map(d, DATA_BASE, DATA_SIZE, VT_PERM_R | VT_PERM_W, &me), 0);
  char src[1024];
  load_asm(d, program(src, sizeof src, n0, n1));
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  assert_int_not_equal(vt_device_launch(d, &l, e), 0);
  *counter = rd32(d, COUNTER);
  vt_device_destroy(d);
}

static void check_same(unsigned n0, unsigned n1, int want_warp, vt_err_kind want_kind) {
  vt_error on, off;
  uint32_t c_on, c_off;
  launch_faulting(n0, n1, 1, &on, &c_on);
  launch_faulting(n0, n1, 0, &off, &c_off);
  assert_int_equal(on.kind, want_kind);
  assert_int_equal(on.warp, want_warp);
  assert_string_equal(on.msg, off.msg);
  assert_int_equal(on.kind, off.kind);
  assert_int_equal(on.warp, off.warp);
  assert_int_equal(on.pc, off.pc);
  assert_int_equal(c_on, c_off);
  if (want_warp == 1) assert_int_equal(c_on, n1); /* warp 1 finished its loop */
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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(late_fault_ahead_waits_its_round),
      cmocka_unit_test(early_fault_ahead_reported_in_its_round),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
