/* LR/SC a program lists as on __local memory (vt_launch.amo_local; the
 * compiler lists a local atomic_cmpxchg's lr.w and sc.w): 64 groups of 2
 * warps, each warp adding wid + 1 to its group's local word in an LR/SC
 * loop, counting its failed SCs; then warp 0 stores the word's value.
 * Both warps take their reservations in the same round, so warp 0's SC
 * breaks warp 1's, which fails and retries (exec_mem.c resv_store, within
 * the group).
 *  - listed: the launch runs on 2 host threads with the memory and
 *    statistics of one: old values 0 and 1, warp 1 failing once, final 3;
 *  - not listed: the same memory, on one thread;
 *  - listed, but the word is global memory: the parallel launch stops
 *    with an error naming the LR, while one thread runs it. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
#define FAILS (DATA_BASE + 0x2000u)
#define FIN (DATA_BASE + 0x3000u)
#define GLOBAL_WORD (DATA_BASE + 0x4000u)
enum { GROUPS = 64 };

static const char *program(char *buf, size_t n, uint32_t word) {
  snprintf(buf, n,
           "  csrr s1, gidx\n"
           "  csrr s2, wid\n"
           "  li a0, 0x%x\n"
           "  addi t2, s2, 1\n"
           "  li s3, 0\n"
           "retry:\n"
           "  lr.w t0, (a0)\n"
           "  add t1, t0, t2\n"
           "  sc.w t3, t1, (a0)\n"
           "  add s3, s3, t3\n"
           "  bnez t3, retry\n"
           "  slli t4, s1, 3\n" /* this warp's slot: 8 * group + 4 * wid */
           "  slli t5, s2, 2\n"
           "  add t4, t4, t5\n"
           "  li a1, 0x%x\n"
           "  add a1, a1, t4\n"
           "  sw t0, 0(a1)\n"
           "  li a1, 0x%x\n"
           "  add a1, a1, t4\n"
           "  sw s3, 0(a1)\n"
           "  barrier zero, zero, 0\n"
           "  bnez s2, 1f\n"
           "  lw t5, 0(a0)\n"
           "  slli t6, s1, 2\n"
           "  li a2, 0x%x\n"
           "  add t6, t6, a2\n"
           "  sw t5, 0(t6)\n"
           "1:\n"
           "  endprg x0, x0, x0\n",
           word, OUT, FAILS, FIN);
  return buf;
}

typedef struct {
  uint32_t out[GROUPS][2], fails[GROUPS][2], fin[GROUPS], global;
  uint64_t warp_insns, atomics, parallel;
  int rc;
  char msg[512];
} result;

static result run_groups(uint32_t word, int listed, uint32_t threads) {
  vt_config c = threads_config(threads);
  vt_device *d = mkdev(&c);
  char src[1536];
  load_asm(d, program(src, sizeof src, word));
  uint32_t pcs[2] = {0, 0}, n = 0; /* the lr.w and the sc.w */
  vt_error e;
  for (uint32_t a = CODE_BASE; a < CODE_BASE + 0x400 && n < 2; a += 4) {
    uint32_t w;
    assert_int_equal(vt_mem_read(d, a, &w, 4, &e), 0);
    if ((w & 0x7f) == 0x2f) pcs[n++] = a;
  }
  assert_int_equal(n, 2);
  vt_launch l = mklaunch(GROUPS, 1, 1, 4, 2);
  if (listed) {
    l.amo_local = pcs;
    l.namo_local = 2;
  }
  result r = {0};
  r.rc = vt_device_launch(d, &l, &e);
  if (r.rc) snprintf(r.msg, sizeof r.msg, "%s", e.msg);
  for (uint32_t g = 0; g < GROUPS; g++) {
    for (uint32_t k = 0; k < 2; k++) {
      r.out[g][k] = rd32(d, OUT + 8 * g + 4 * k);
      r.fails[g][k] = rd32(d, FAILS + 8 * g + 4 * k);
    }
    r.fin[g] = rd32(d, FIN + 4 * g);
  }
  r.global = rd32(d, GLOBAL_WORD);
  const vt_stats *st = vt_device_stats(d);
  r.warp_insns = st->warp_insns;
  r.atomics = st->atomics;
  r.parallel = st->parallel_launches;
  vt_device_destroy(d);
  return r;
}

static void listed_local_lrsc_run_in_parallel(void **state) {
  (void)state;
  result two = run_groups(0x70000000u, 1, 2), one = run_groups(0x70000000u, 1, 1);
  if (two.rc) fail_msg("%s", two.msg);
  assert_int_equal(two.parallel, 1);
  assert_int_equal(one.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) {
    /* warp 0's SC first (slot order) breaks warp 1's reservation */
    assert_int_equal(two.out[g][0], 0);
    assert_int_equal(two.fails[g][0], 0);
    assert_int_equal(two.out[g][1], 1);
    assert_int_equal(two.fails[g][1], 1);
    assert_int_equal(two.fin[g], 1 + 2);
  }
  assert_memory_equal(two.out, one.out, sizeof one.out);
  assert_memory_equal(two.fails, one.fails, sizeof one.fails);
  assert_memory_equal(two.fin, one.fin, sizeof one.fin);
  assert_int_equal(two.warp_insns, one.warp_insns);
  assert_int_equal(two.atomics, one.atomics);
}

static void unlisted_lrsc_keeps_one_thread(void **state) {
  (void)state;
  result r = run_groups(0x70000000u, 0, 2);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) {
    assert_int_equal(r.fails[g][1], 1);
    assert_int_equal(r.fin[g], 3);
  }
}

static void listed_lr_on_global_memory_stops_a_parallel_launch(void **state) {
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
      cmocka_unit_test(listed_local_lrsc_run_in_parallel),
      cmocka_unit_test(unlisted_lrsc_keeps_one_thread),
      cmocka_unit_test(listed_lr_on_global_memory_stops_a_parallel_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
