/* Core smoke test: every work-item of a 2-D grid writes its global linear
 * id computed from the CSRs. */
#include "test_core_prog.h"

static void grid_ids(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_lane_addr(&p, 1, 0);
  E(&p, vsub_vx, 2, 1, T0, 1);    /* 4 * linear id */
  E(&p, vsrl_vi, 2, 2, 2, 1);     /* linear id */
  E(&p, vsw12_v, 2, 0, 1);
  E0(&p, endprg);
  vt_launch l = mklaunch(3, 2, 1, 8, 2);
  vt_error e;
  int rc = run(d, &p, &l, &e);
  if (rc) {
    char buf[512];
    vt_err_format(&e, buf, sizeof buf);
    fprintf(stderr, "%s\n", buf);
  }
  assert_int_equal(rc, 0);
  for (uint32_t i = 0; i < 6 * 16; i++) assert_int_equal(rd32(d, DATA_BASE + 4 * i), i);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(grid_ids)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
