/* Loads from read-only memory run ahead (src/core/warp.c run_ahead,
 * exec_mem.c sload_ahead and route_span): a scalar or vector load whose
 * bytes lie in a region without write permission may run ahead of its
 * round, since no store of the launch can change what it reads; a load
 * from writable memory still runs in its round.
 * Two warps of 4 threads in one group, both looping N times over a scalar
 * load of table word k and a vector load of words k + lane (k = 0..N-1),
 * summing each; then warp w writes its lanes' sums and the scalar sum to
 * OUT + 32 * w. The table is host-written (T[k] = k * k + 3) into a
 * read-only region, or into the writable data region:
 *  - read-only: the sums are the plain-C ones, the same as round-robin
 *    (run_ahead = 0), and more than 7 of each pass's 8 instructions ran
 *    ahead (the loads too);
 *  - writable: the same sums, but at most the 6 other instructions of a
 *    pass ran ahead;
 *  - a store into the read-only region is a fault that names it;
 *  - a writable region made read-only between launches (vt_mem_set_perm,
 *    as the OpenCL platform does for __constant buffers) is read ahead
 *    like one mapped so, refuses stores, and takes them again once its
 *    write permission is given back. */
#include "test_core_more.h"

#define OUT (DATA_BASE + 0x1000u)
#define RO_BASE 0xa0000000u
#define RW_TABLE (DATA_BASE + 0x4000u)
#define N 200u
#define TABLE_WORDS (N + 4u)

static const char *program(char *buf, size_t n, uint32_t table) {
  snprintf(buf, n,
           "  csrr t0, wid\n"
           "  li a0, 0x%x\n"
           "  li a2, 0x%x\n"
           "  li t1, %u\n"
           "  mv t2, a2\n"
           "  li s0, 0\n"
           "  vid.v v1\n"
           "  vsll.vi v2, v1, 2\n"
           "  vadd.vx v2, v2, a2\n"
           "  vmv.v.i v3, 0\n"
           "loop:\n"
           "  lw t3, 0(t2)\n"
           "  add s0, s0, t3\n"
           "  vlw12.v v4, 0(v2)\n"
           "  vadd.vv v3, v3, v4\n"
           "  vadd.vi v2, v2, 4\n"
           "  addi t2, t2, 4\n"
           "  addi t1, t1, -1\n"
           "  bnez t1, loop\n"
           "  slli t0, t0, 5\n"
           "  add a0, a0, t0\n"
           "  vsll.vi v5, v1, 2\n"
           "  vadd.vx v5, v5, a0\n"
           "  vsw12.v v3, 0(v5)\n"
           "  sw s0, 16(a0)\n"
           "  endprg x0, x0, x0\n",
           OUT, table, N);
  return buf;
}

typedef struct {
  uint32_t out[2][5];
  uint64_t ahead, warp_insns, loads, global;
} run_result;

static vt_device *device(int run_ahead) {
  vt_config c = two_slot_config(run_ahead);
  vt_device *d = mapped_device(&c);
  vt_error me;
  assert_int_equal(vt_mem_map(d, RO_BASE, 0x1000, VT_PERM_R, &me), 0);
  uint32_t t[TABLE_WORDS];
  for (uint32_t k = 0; k < TABLE_WORDS; k++) t[k] = k * k + 3;
  wr_words(d, RO_BASE, t, TABLE_WORDS);
  wr_words(d, RW_TABLE, t, TABLE_WORDS);
  return d;
}

static run_result launch(uint32_t table, int run_ahead) {
  vt_device *d = device(run_ahead);
  char src[2048];
  load_asm(d, program(src, sizeof src, table));
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  launch_ok(d, &l);
  run_result r = {0};
  for (uint32_t w = 0; w < 2; w++)
    for (uint32_t i = 0; i < 5; i++) r.out[w][i] = rd32(d, OUT + 32 * w + 4 * i);
  r.ahead = vt_device_ahead_insns(d);
  r.warp_insns = vt_device_stats(d)->warp_insns;
  r.loads = vt_device_stats(d)->loads;
  r.global = vt_device_stats(d)->global_accesses;
  vt_device_destroy(d);
  return r;
}

/* the table's sums in plain C, then the launch with and without run-ahead */
static run_result sums_as_round_robin(uint32_t table) {
  uint32_t lane[4] = {0}, scalar = 0;
  for (uint32_t k = 0; k < N; k++) {
    scalar += k * k + 3;
    for (uint32_t i = 0; i < 4; i++) lane[i] += (k + i) * (k + i) + 3;
  }
  run_result on = launch(table, 1), off = launch(table, 0);
  for (uint32_t w = 0; w < 2; w++) {
    for (uint32_t i = 0; i < 4; i++) assert_int_equal(on.out[w][i], lane[i]);
    assert_int_equal(on.out[w][4], scalar);
  }
  assert_memory_equal(on.out, off.out, sizeof on.out);
  assert_int_equal(on.warp_insns, off.warp_insns);
  assert_int_equal(on.loads, off.loads);
  assert_int_equal(on.global, off.global);
  assert_int_equal(off.ahead, 0);
  return on;
}

static void read_only_loads_run_ahead(void **state) {
  (void)state;
  run_result on = sums_as_round_robin(RO_BASE);
  assert_true(on.ahead > 2 * 7 * N);
}

static void writable_loads_keep_their_rounds(void **state) {
  (void)state;
  run_result on = sums_as_round_robin(RW_TABLE);
  assert_true(on.ahead <= 2 * 6 * N + 40); /* + the few instructions around the loop */
  assert_true(on.ahead > 2 * 5 * N);
}

static void store_into_read_only_faults(void **state) {
  (void)state;
  vt_device *d = device(1);
  char src[256];
  snprintf(src, sizeof src, "  li a2, 0x%x\n  lw t0, 8(a2)\n  sw t0, 4(a2)\n  endprg x0, x0, x0\n", RO_BASE);
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  vt_error e;
  assert_int_not_equal(vt_device_launch(d, &l, &e), 0);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_non_null(strstr(e.msg, "read-only"));
  assert_int_equal(e.addr, RO_BASE + 4);
  assert_int_equal(rd32(d, RO_BASE + 4), 1 * 1 + 3); /* unchanged */
  vt_device_destroy(d);
}

static void write_permission_taken_and_given_back(void **state) {
  (void)state;
  const uint32_t base = 0xa0010000u;
  vt_device *d = device(1);
  vt_error e;
  assert_int_equal(vt_mem_map(d, base, 0x1000, VT_PERM_R | VT_PERM_W, &e), 0);
  uint32_t t[TABLE_WORDS];
  for (uint32_t k = 0; k < TABLE_WORDS; k++) t[k] = k * k + 3;
  wr_words(d, base, t, TABLE_WORDS);
  assert_int_not_equal(vt_mem_set_perm(d, base + 4, VT_PERM_R, &e), 0); /* not a region's base */
  assert_int_not_equal(vt_mem_set_perm(d, base, 0x40, &e), 0);         /* no such permission */
  assert_int_equal(vt_mem_set_perm(d, base, VT_PERM_R, &e), 0);
  uint32_t rb, rs;
  unsigned perm;
  assert_int_equal(vt_mem_region_from(d, base, &rb, &rs, &perm), 1);
  assert_int_equal(perm, VT_PERM_R);

  char src[2048];
  load_asm(d, program(src, sizeof src, base));
  vt_launch l = mklaunch(1, 1, 1, 4, 2);
  launch_ok(d, &l);
  uint32_t scalar = 0;
  for (uint32_t k = 0; k < N; k++) scalar += k * k + 3;
  assert_int_equal(rd32(d, OUT + 16), scalar);
  assert_int_equal(rd32(d, OUT + 32 + 16), scalar);
  assert_true(vt_device_ahead_insns(d) > 2 * 7 * N); /* the loads ran ahead */

  snprintf(src, sizeof src, "  li a2, 0x%x\n  lw t0, 8(a2)\n  sw t0, 4(a2)\n  endprg x0, x0, x0\n", base);
  load_asm(d, src);
  assert_int_not_equal(vt_device_launch(d, &l, &e), 0);
  assert_non_null(strstr(e.msg, "read-only"));
  assert_int_equal(rd32(d, base + 4), 1 * 1 + 3);
  assert_int_equal(vt_mem_set_perm(d, base, VT_PERM_R | VT_PERM_W, &e), 0);
  launch_ok(d, &l);
  assert_int_equal(rd32(d, base + 4), 2 * 2 + 3); /* word 2 into word 1 */
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(read_only_loads_run_ahead),
      cmocka_unit_test(writable_loads_keep_their_rounds),
      cmocka_unit_test(store_into_read_only_faults),
      cmocka_unit_test(write_permission_taken_and_given_back),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
