/* The extents of the code a launch can run (vt_launch.code_ranges;
 * src/core/par_launch.c code_allows_parallel, warp.c's check as it
 * decodes): a program of a kernel A (each warp stores 7 for its group)
 * and, after it, code B no launch of A runs: an amoswap whose old value is
 * used, which keeps any launch whose scan reads it on one host thread.
 *  - A's extent named: the scan reads only A, the launch runs on 2 host
 *    threads, its memory that of one;
 *  - none named, or one outside executable memory: the whole region is
 *    read, so one thread;
 *  - an extent that leaves out an AMO A does run (amoadd, which alone
 *    would run in parallel): the parallel launch stops when it decodes it,
 *    naming it, rather than run code its scan never read. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
enum { GROUPS = 64 };

static const char *program(char *buf, size_t n, int amo_in_a) {
  snprintf(buf, n,
           "  csrr s1, gidx\n"
           "  slli t0, s1, 2\n"
           "  li a1, 0x%x\n"
           "  add t0, t0, a1\n"
           "  li t1, 7\n"
           "  sw t1, 0(t0)\n"
           "%s"
           "  endprg x0, x0, x0\n"
           "  amoswap.w t2, t1, (a1)\n" /* B */
           "  endprg x0, x0, x0\n",
           OUT, amo_in_a ? "  amoadd.w zero, t1, (a1)\n" : "");
  return buf;
}

typedef struct {
  int rc;
  char msg[512];
  uint64_t parallel, warp_insns;
  uint32_t out[GROUPS];
} result;

/* ranges: 0 = one extent, from A's start to the first AMO; 1 = none; 2 =
 * one outside executable memory */
static result run_a(int amo_in_a, int ranges) {
  vt_config c = threads_config(2);
  vt_device *d = mkdev(&c);
  char src[1024];
  load_asm(d, program(src, sizeof src, amo_in_a));
  uint32_t r[2] = {CODE_BASE, first_amo_pc(d)};
  if (ranges == 2) r[0] = DATA_BASE, r[1] = DATA_BASE + 64;
  vt_launch l = mklaunch(GROUPS, 1, 1, 4, 2);
  if (ranges != 1) {
    l.code_ranges = r;
    l.ncode_ranges = 2;
  }
  result res = {0};
  vt_error e;
  res.rc = vt_device_launch(d, &l, &e);
  if (res.rc) snprintf(res.msg, sizeof res.msg, "%s", e.msg);
  for (uint32_t g = 0; g < GROUPS; g++) res.out[g] = rd32(d, OUT + 4 * g);
  res.parallel = vt_device_stats(d)->parallel_launches;
  res.warp_insns = vt_device_stats(d)->warp_insns;
  vt_device_destroy(d);
  return res;
}

static void the_kernels_extent_alone_is_read(void **state) {
  (void)state;
  result ranged = run_a(0, 0), whole = run_a(0, 1);
  assert_int_equal(ranged.rc, 0);
  assert_int_equal(whole.rc, 0);
  assert_int_equal(ranged.parallel, 1);
  assert_int_equal(whole.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) assert_int_equal(ranged.out[g], 7);
  assert_memory_equal(ranged.out, whole.out, sizeof whole.out);
  assert_int_equal(ranged.warp_insns, whole.warp_insns);
}

static void an_extent_outside_executable_memory_reads_all(void **state) {
  (void)state;
  result r = run_a(0, 2);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) assert_int_equal(r.out[g], 7);
}

static void an_amo_outside_the_extents_stops_the_launch(void **state) {
  (void)state;
  result r = run_a(1, 0);
  assert_int_not_equal(r.rc, 0);
  assert_non_null(strstr(r.msg, "an atomic outside the kernel's code region"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(the_kernels_extent_alone_is_read),
      cmocka_unit_test(an_extent_outside_executable_memory_reads_all),
      cmocka_unit_test(an_amo_outside_the_extents_stops_the_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
