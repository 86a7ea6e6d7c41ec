/* AMOs a program lists as ones on __local memory (vt_launch.amo_local;
 * src/core/par_launch.c code_allows_parallel, exec_mem.c amo_at): 64
 * groups of 2 warps, each warp adding wid + 1 to its group's local word
 * with amoadd.w whose old value it stores (rd != x0), then warp 0 storing
 * the word's final value.
 *  - listed: the launch runs on 2 host threads, with the memory and
 *    statistics of one (old values 0 and 1 in slot order, final 3);
 *  - not listed: the same memory, on one thread (the old value is used);
 *  - listed, but the address is global memory: the parallel launch stops
 *    with an error naming the atomic, while one thread runs it. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
#define OUT2 (DATA_BASE + 0x2000u)
#define GLOBAL_WORD (DATA_BASE + 0x3000u)
enum { GROUPS = 64 };

static const char *program(char *buf, size_t n, uint32_t word) {
  snprintf(buf, n,
           "  csrr s1, gidx\n"
           "  csrr s2, wid\n"
           "  li a0, 0x%x\n"
           "  addi t2, s2, 1\n"
           "  amoadd.w t0, t2, (a0)\n"
           "  slli t3, s1, 3\n"
           "  slli t4, s2, 2\n"
           "  add t3, t3, t4\n"
           "  li a1, 0x%x\n"
           "  add t3, t3, a1\n"
           "  sw t0, 0(t3)\n"
           "  barrier zero, zero, 0\n"
           "  bnez s2, 1f\n"
           "  lw t5, 0(a0)\n"
           "  slli t6, s1, 2\n"
           "  li a2, 0x%x\n"
           "  add t6, t6, a2\n"
           "  sw t5, 0(t6)\n"
           "1:\n"
           "  endprg x0, x0, x0\n",
           word, OUT, OUT2);
  return buf;
}

typedef struct {
  uint32_t out[GROUPS][2], fin[GROUPS], global;
  uint64_t warp_insns, atomics, parallel;
  int rc;
  char msg[512];
} result;

static result run_groups(uint32_t word, int listed, uint32_t threads) {
  vt_config c = threads_config(threads);
  vt_device *d = mkdev(&c);
  char src[1024];
  load_asm(d, program(src, sizeof src, word));
  uint32_t pcs[1] = {first_amo_pc(d)};
  vt_launch l = mklaunch(GROUPS, 1, 1, 4, 2);
  if (listed) {
    l.amo_local = pcs;
    l.namo_local = 1;
  }
  result r = {0};
  vt_error e;
  r.rc = vt_device_launch(d, &l, &e);
  if (r.rc) snprintf(r.msg, sizeof r.msg, "%s", e.msg);
  for (uint32_t g = 0; g < GROUPS; g++) {
    r.out[g][0] = rd32(d, OUT + 8 * g);
    r.out[g][1] = rd32(d, OUT + 8 * g + 4);
    r.fin[g] = rd32(d, OUT2 + 4 * g);
  }
  r.global = rd32(d, GLOBAL_WORD);
  const vt_stats *st = vt_device_stats(d);
  r.warp_insns = st->warp_insns;
  r.atomics = st->atomics;
  r.parallel = st->parallel_launches;
  vt_device_destroy(d);
  return r;
}

static void listed_local_amos_run_in_parallel(void **state) {
  (void)state;
  result two = run_groups(0x70000000u, 1, 2), one = run_groups(0x70000000u, 1, 1);
  assert_int_equal(two.rc, 0);
  assert_int_equal(two.parallel, 1);
  assert_int_equal(one.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) {
    assert_int_equal(two.out[g][0], 0); /* warp 0's AMO first: slot order */
    assert_int_equal(two.out[g][1], 1);
    assert_int_equal(two.fin[g], 1 + 2);
  }
  assert_memory_equal(two.out, one.out, sizeof one.out);
  assert_memory_equal(two.fin, one.fin, sizeof one.fin);
  assert_int_equal(two.warp_insns, one.warp_insns);
  assert_int_equal(two.atomics, 2 * GROUPS);
  assert_int_equal(one.atomics, 2 * GROUPS);
}

static void unlisted_used_amo_keeps_one_thread(void **state) {
  (void)state;
  result r = run_groups(0x70000000u, 0, 2);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) assert_int_equal(r.fin[g], 3);
}

static void listed_amo_on_global_memory_stops_a_parallel_launch(void **state) {
  (void)state;
  result two = run_groups(GLOBAL_WORD, 1, 2), one = run_groups(GLOBAL_WORD, 1, 1);
  assert_int_not_equal(two.rc, 0);
  assert_non_null(strstr(two.msg, "lists as one on __local memory"));
  assert_non_null(strstr(two.msg, "not local memory"));
  assert_int_equal(one.rc, 0); /* in order on one thread: nothing to check */
  assert_int_equal(one.global, 3 * GROUPS);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(listed_local_amos_run_in_parallel),
      cmocka_unit_test(unlisted_used_amo_keeps_one_thread),
      cmocka_unit_test(listed_amo_on_global_memory_stops_a_parallel_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
