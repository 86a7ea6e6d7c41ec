/* Throughput of a vecadd-like loop (loads, fp add, store, loop control);
 * prints thread-instructions per second. The bound asserted is loose
 * because the machine is shared. */
#include <time.h>

#include "test_core_prog.h"

static void vecadd_loop(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_lane_addr(&p, 1, 0);       /* a */
  emit_lane_addr(&p, 2, 0x20000); /* b */
  emit_lane_addr(&p, 3, 0x40000); /* c */
  emit_li(&p, S0, 2000);
  int loop = p.n;
  E(&p, vlw12_v, 4, 0, 1);
  E(&p, vlw12_v, 5, 0, 2);
  E(&p, vfadd_vv, 6, 4, 5, 1);
  E(&p, vsw12_v, 6, 0, 3);
  E(&p, vadd_vi, 1, 1, 4, 1);
  E(&p, vadd_vi, 2, 2, 4, 1);
  E(&p, vadd_vi, 3, 3, 4, 1);
  E(&p, addi, S0, S0, -1);
  E(&p, bne, S0, 0, OFF(&p, loop));
  E0(&p, endprg);
  vt_launch l = mklaunch(8, 1, 1, 32, 4);
  vt_error e;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  assert_int_equal(run(d, &p, &l, &e), 0);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  const vt_stats *st = vt_device_stats(d);
  printf("vecadd loop: %llu thread-insns in %.3f s = %.1f M thread-insns/s (%.2f M warp-insns/s)\n",
         (unsigned long long)st->thread_insns, s, (double)st->thread_insns / s / 1e6,
         (double)st->warp_insns / s / 1e6);
  assert_true((double)st->thread_insns / s > 2e6);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(vecadd_loop)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
