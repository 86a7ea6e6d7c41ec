/* Run-ahead over local memory (src/core/warp.c run_ahead, exec_mem.c
 * vload/vstore): a warp whose group's other warps all wait at the barrier
 * may run its vector loads and stores of the group's local memory ahead,
 * and only those; everything else stays as plain round-robin runs it.
 * Two warps of 4 threads in one group, warp 1 going straight to the
 * barrier:
 *  - alone: warp 0 loops N times over vsw12 / vlw12 of local words and
 *    four register instructions, then both warps copy the local words to
 *    global memory; lane i ends with N * (i + 1) (by hand). Without local
 *    run-ahead at most the four register instructions of a pass run ahead
 *    (the loop's local access in each turn runs in its round), so more
 *    than 5N instructions ahead shows the loads and stores went too;
 *  - declined: the same loop loads from global memory instead; that load
 *    is not run ahead (at most 5 of the 6 instructions of a pass are);
 *  - racing: warp 1 does not wait but stores 1..N into a local word while
 *    warp 0 sums what it loads from there: the sum is the round-robin
 *    interleaving's (the same launch with run_ahead = 0) and much more
 *    than a warp 0 running ahead of warp 1's stores would see. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
#define N 200u

/* both warps: the group's four local words to OUT + 16 * wid */
#define COPY_OUT \
  "tail:\n" \
  "  csrr t0, wid\n" \
  "  slli t0, t0, 4\n" \
  "  add a0, a0, t0\n" \
  "  vid.v v1\n" \
  "  vsll.vi v2, v1, 2\n" \
  "  vadd.vx v7, v2, a0\n" \
  "  vadd.vx v2, v2, a1\n" \
  "  vlw12.v v5, 0(v2)\n" \
  "  vsw12.v v5, 0(v7)\n" \
  "  endprg x0, x0, x0\n"

/* warp 0's loop: v3 = v(local) + lane + 1 each pass; LOAD_FROM is the
 * register holding the loaded words' addresses (v2 local, v8 global) */
static const char *alone_program(char *buf, size_t n, int global_load) {
  snprintf(buf, n,
           "  csrr t0, wid\n"
           "  li a1, 0x70000000\n" /* the group's local memory */
           "  li a0, 0x90001000\n"
           "  bnez t0, w1\n"
           "  li t1, %u\n"
           "  vid.v v1\n"
           "  vsll.vi v2, v1, 2\n"
           "  vadd.vx v8, v2, a0\n"
           "  addi t2, a0, 0x100\n"
           "  vadd.vx v8, v2, t2\n" /* global words at OUT + 0x100, zero */
           "  vadd.vx v2, v2, a1\n"
           "  vmv.v.i v3, 0\n"
           "loop:\n"
           "  vsw12.v v3, 0(v2)\n"
           "  vlw12.v v4, 0(%s)\n"
           "  vadd.vv v3, v4, v1\n"
           "  vadd.vi v3, v3, 1\n"
           "  addi t1, t1, -1\n"
           "  bnez t1, loop\n"
           "  vsw12.v v3, 0(v2)\n"
           "  barrier x0, x0, 0\n"
           "  j tail\n"
           "w1:\n"
           "  barrier x0, x0, 0\n" COPY_OUT,
           N, global_load ? "v8" : "v2");
  return buf;
}

/* warp 1 stores k = 1..N into local word 0 (scalar sw), warp 0 loads it N
 * times with vlw12 and sums lane 0; the sum goes to OUT + 0x200 */
static const char *race_program(char *buf, size_t n) {
  snprintf(buf, n,
           "  csrr t0, wid\n"
           "  li a1, 0x70000000\n"
           "  li a0, 0x90001000\n"
           "  li t1, %u\n"
           "  bnez t0, w1\n"
           "  vmv.v.x v2, a1\n"
           "  li t3, 0\n"
           "loop0:\n"
           "  vlw12.v v4, 0(v2)\n"
           "  vmv.x.s t4, v4\n"
           "  add t3, t3, t4\n"
           "  addi t1, t1, -1\n"
           "  bnez t1, loop0\n"
           "  sw t3, 0x200(a0)\n"
           "  endprg x0, x0, x0\n"
           "w1:\n"
           "  li t2, 0\n"
           "loop1:\n"
           "  addi t2, t2, 1\n"
           "  sw t2, 0(a1)\n"
           "  bne t2, t1, loop1\n"
           "  endprg x0, x0, x0\n",
           N);
  return buf;
}

typedef struct {
  uint32_t out[8], sum;
  uint64_t ahead, warp_insns, local;
} run_result;

static run_result launch(const char *src, int run_ahead) {
  vt_config c = two_slot_config(run_ahead);
  vt_device *d = mapped_device(&c);
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  launch_ok(d, &l);
  run_result r = {0};
  for (uint32_t i = 0; i < 8; i++) r.out[i] = rd32(d, OUT + 4 * i);
  r.sum = rd32(d, OUT + 0x200);
  r.ahead = vt_device_ahead_insns(d);
  r.warp_insns = vt_device_stats(d)->warp_insns;
  r.local = vt_device_stats(d)->local_accesses;
  vt_device_destroy(d);
  return r;
}

static void same_as_round_robin(const run_result *on, const run_result *off) {
  assert_memory_equal(on->out, off->out, sizeof on->out);
  assert_int_equal(on->sum, off->sum);
  assert_int_equal(on->warp_insns, off->warp_insns);
  assert_int_equal(on->local, off->local);
  assert_int_equal(off->ahead, 0);
}

/* src with and without run-ahead: lane i of both warps ends with
 * scale * (i + 1), the same as round-robin; the run-ahead launch */
static run_result alone_runs(const char *src, uint32_t scale) {
  run_result on = launch(src, 1), off = launch(src, 0);
  for (uint32_t w = 0; w < 2; w++)
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(on.out[4 * w + i], scale * (i + 1));
  same_as_round_robin(&on, &off);
  return on;
}

static void local_accesses_run_ahead_alone(void **state) {
  (void)state;
  char src[2048];
  alone_program(src, sizeof src, 0);
  run_result on = alone_runs(src, N);
  assert_true(on.ahead > 5 * N);
}

static void global_access_declined(void **state) {
  (void)state;
  char src[2048];
  alone_program(src, sizeof src, 1);
  run_result on = alone_runs(src, 1); /* the loaded words stay 0: v3 = lane + 1 after the last pass */
  assert_true(on.ahead <= 5 * N);
  assert_true(on.ahead > 4 * N); /* the local stores still ran ahead */
}

static void racing_warp_not_alone(void **state) {
  (void)state;
  char src[2048];
  race_program(src, sizeof src);
  run_result on = launch(src, 1), off = launch(src, 0);
  same_as_round_robin(&on, &off);
  /* round-robin: warp 0 loads after most of warp 1's stores; a warp 0 run
   * ahead of them would sum little more than zeros */
  assert_true(on.sum > N * N / 4);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(local_accesses_run_ahead_alone),
      cmocka_unit_test(global_access_declined),
      cmocka_unit_test(racing_warp_not_alone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
