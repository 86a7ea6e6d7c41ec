/* AMOs, and LR/SC, a program lists as ones on __local memory
 * (vt_launch.amo_local; src/core/par_launch.c code_allows_parallel,
 * exec_mem.c amo_at, lr_at, sc_at, resv_store): 64 groups of 2 warps.
 * AMO program: each warp adds wid + 1 to its group's local word with
 * amoadd.w whose old value it stores (rd != x0), then warp 0 stores the
 * word's final value.
 *  - listed: the launch runs on 2 host threads, with the memory and
 *    statistics of one (old values 0 and 1 in slot order, final 3);
 *  - not listed: the same memory, on one thread (the old value is used);
 *  - listed, but the address is global memory: the parallel launch stops
 *    with an error naming the atomic, while one thread runs it.
 * LR/SC program (a local atomic_cmpxchg's lr.w and sc.w, both listed): each
 * warp adds wid + 1 in an LR/SC loop and counts its failed SCs; both take
 * their reservations in the same round, so warp 0's SC breaks warp 1's,
 * which fails once and retries (the reservation is counted and broken
 * within the group); the same three cases. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
#define OUT2 (DATA_BASE + 0x2000u)
#define GLOBAL_WORD (DATA_BASE + 0x3000u)
#define FAILS (DATA_BASE + 0x4000u)
#define LOCAL_WORD 0x70000000u
enum { GROUPS = 64 };

/* the two bodies: each adds t2 = wid + 1 to the word at a0, leaving its
 * old value in t0 and the count of failed SCs in s3 */
static const char amo_body[] = "  amoadd.w t0, t2, (a0)\n";
static const char lrsc_body[] = "retry:\n"
                                "  lr.w t0, (a0)\n"
                                "  add t1, t0, t2\n"
                                "  sc.w t3, t1, (a0)\n"
                                "  add s3, s3, t3\n"
                                "  bnez t3, retry\n";

/* body on the word at `word`; t0 and s3 to the warp's slots of OUT and
 * FAILS (8 * group + 4 * wid), then after the barrier warp 0 stores the
 * word's final value to OUT2 + 4 * group */
static const char *program(char *buf, size_t n, const char *body, uint32_t word) {
  snprintf(buf, n,
           "  csrr s1, gidx\n"
           "  csrr s2, wid\n"
           "  li a0, 0x%x\n"
           "  addi t2, s2, 1\n"
           "  li s3, 0\n"
           "%s"
           "  slli t4, s1, 3\n"
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
           word, body, OUT, FAILS, OUT2);
  return buf;
}

typedef struct {
  uint32_t out[GROUPS][2], fails[GROUPS][2], fin[GROUPS], global;
  uint64_t warp_insns, atomics, parallel;
  int rc;
  char msg[512];
} result;

/* every AMO-opcode word of the program listed (the AMO; the lr.w and sc.w) */
static result run_groups(const char *body, uint32_t word, int listed, uint32_t threads) {
  vt_config c = threads_config(threads);
  vt_device *d = mkdev(&c);
  char src[1536];
  load_asm(d, program(src, sizeof src, body, word));
  uint32_t pcs[2], n = 0;
  vt_error e;
  for (uint32_t a = first_amo_pc(d); a < CODE_BASE + 0x400 && n < 2; a += 4) {
    uint32_t w;
    assert_int_equal(vt_mem_read(d, a, &w, 4, &e), 0);
    if ((w & 0x7f) == 0x2f) pcs[n++] = a;
  }
  vt_launch l = mklaunch(GROUPS, 1, 1, 4, 2);
  if (listed) {
    l.amo_local = pcs;
    l.namo_local = n;
  }
  result r = {0};
  r.rc = vt_device_launch(d, &l, &e);
  if (r.rc) snprintf(r.msg, sizeof r.msg, "%s", e.msg);
  for (uint32_t g = 0; g < GROUPS; g++) {
    for (uint32_t k = 0; k < 2; k++) {
      r.out[g][k] = rd32(d, OUT + 8 * g + 4 * k);
      r.fails[g][k] = rd32(d, FAILS + 8 * g + 4 * k);
    }
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
  result two = run_groups(amo_body, LOCAL_WORD, 1, 2), one = run_groups(amo_body, LOCAL_WORD, 1, 1);
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
  result r = run_groups(amo_body, LOCAL_WORD, 0, 2);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) assert_int_equal(r.fin[g], 3);
}

/* a listed AMO, LR or SC on global memory: the parallel launch stops */
static void listed_on_global_stops(const char *body) {
  result two = run_groups(body, GLOBAL_WORD, 1, 2), one = run_groups(body, GLOBAL_WORD, 1, 1);
  assert_int_not_equal(two.rc, 0);
  assert_non_null(strstr(two.msg, "lists as one on __local memory"));
  assert_non_null(strstr(two.msg, "not local memory"));
  assert_int_equal(one.rc, 0); /* in order on one thread: nothing to check */
  assert_int_equal(one.global, 3 * GROUPS);
}

static void listed_amo_on_global_memory_stops_a_parallel_launch(void **state) {
  (void)state;
  listed_on_global_stops(amo_body);
}

static void listed_local_lrsc_run_in_parallel(void **state) {
  (void)state;
  result two = run_groups(lrsc_body, LOCAL_WORD, 1, 2), one = run_groups(lrsc_body, LOCAL_WORD, 1, 1);
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
  result r = run_groups(lrsc_body, LOCAL_WORD, 0, 2);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.parallel, 0);
  for (uint32_t g = 0; g < GROUPS; g++) {
    assert_int_equal(r.fails[g][1], 1);
    assert_int_equal(r.fin[g], 3);
  }
}

static void listed_lrsc_on_global_memory_stops_a_parallel_launch(void **state) {
  (void)state;
  listed_on_global_stops(lrsc_body);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(listed_local_amos_run_in_parallel),
      cmocka_unit_test(unlisted_used_amo_keeps_one_thread),
      cmocka_unit_test(listed_amo_on_global_memory_stops_a_parallel_launch),
      cmocka_unit_test(listed_local_lrsc_run_in_parallel),
      cmocka_unit_test(unlisted_lrsc_keeps_one_thread),
      cmocka_unit_test(listed_lrsc_on_global_memory_stops_a_parallel_launch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
