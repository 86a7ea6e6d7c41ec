/* Standard CSRs a kernel may read, compared with what the reference ISS
 * (spike) gives: vlenb = 4·numt, mhartid = warp id, the performance
 * monitor (no events: reads 0, writes ignored), and an unknown CSR is an
 * illegal-instruction fault naming it. */
#include "test_core_more.h"

#define OUT 0x90003000u

static void standard_csrs(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, "  li a0, 0x90003000\n"
              "  csrr t0, vlenb\n      sw t0, 0(a0)\n"
              "  csrr t0, mhartid\n    slli t1, t0, 2\n add t1, a0, t1\n sw t0, 64(t1)\n"
              "  csrw mhpmevent3, a0\n"   /* ignored */
              "  csrr t0, hpmcounter3\n sw t0, 8(a0)\n"
              "  csrr t0, mhpmcounter31h\n sw t0, 12(a0)\n"
              "  csrr t0, mcounteren\n  sw t0, 16(a0)\n"
              "  csrr t0, numt\n       sw t0, 20(a0)\n"
              "  endprg x0, x0, x0\n");
  /* two warps: each stores its mhartid at OUT + 64 + 4·warp */
  wr32(d, OUT + 64, 0xdead);
  wr32(d, OUT + 68, 0xdead);
  vt_launch l = mklaunch(1, 1, 1, 8, 2);
  launch_ok(d, &l);
  assert_int_equal(rd32(d, OUT + 0), 8 * 4);
  assert_int_equal(rd32(d, OUT + 64), 0);
  assert_int_equal(rd32(d, OUT + 68), 1);
  assert_int_equal(rd32(d, OUT + 8), 0);
  assert_int_equal(rd32(d, OUT + 12), 0);
  assert_int_equal(rd32(d, OUT + 16), 0);
  assert_int_equal(rd32(d, OUT + 20), 8);
  vt_device_destroy(d);
}

static void unknown_csr_faults(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, "  nop\n  csrr t0, 0x7c0\n  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_error e;
  assert_int_equal(vt_device_launch(d, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "0x7c0"));
  assert_true(e.has_ctx);
  assert_int_equal(e.pc, 0x80000004u);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(standard_csrs),
      cmocka_unit_test(unknown_csr_faults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
