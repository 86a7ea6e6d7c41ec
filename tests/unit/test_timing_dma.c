/* The timing model's copy engine (src/timing/dma.c, docs/timing.md): one
 * warp of 32 threads copies 16 bytes per lane with cp_dma.16 (512 bytes,
 * srcsize 0: no source reads) or a bulk copy, then independent adds, an
 * optional cp_dma_mbarrier and endprg. Hand-computed expectations: the
 * copy completes lat_lsu_l1_hit + 512 / R cycles after it starts; adds
 * after it overlap it; the mbarrier waits for it; a full queue stalls the
 * next copy until the first completes; the bulk copy's source goes to the
 * L2 in line requests; a warp of the group that copied nothing waits for
 * the other's copy; two SMs give the same cycles on one and two host
 * threads; memory equals the functional run's. */
#include <stdio.h>

#include "isaext_prog.h"
#include "timing.h"

#define SRC_OFF 0x1000u
#define OUT_OFF 0x3000u
#define NT 32

typedef struct {
  int copies;   /* cp_dma.16 copies back to back */
  int adds;     /* independent adds after them */
  int mbarrier; /* cp_dma_mbarrier after the adds */
  int bulk;     /* a cp_dma_bulk of this many bytes instead of cp_dma.16 */
  int readback; /* srcsize 16 and the copy read back to global memory */
  int two_warps; /* two warps, of which only warp 1 copies */
  int groups;    /* work-groups (0: 1) */
} shape;

static void program(char *buf, size_t n, shape s) {
  int o = snprintf(buf, n,
                   "vid.v v1\nvsll.vi v1, v1, 4\n"
                   "li t2, 0x70000000\nvadd.vx v3, v1, t2\n"
                   "li t2, 0x%08x\nvadd.vx v2, v1, t2\n"
                   "li t0, %d\nvmv.v.x v4, t0\n",
                   DATA_BASE + SRC_OFF, s.readback ? 16 : 0);
  if (s.bulk)
    o += snprintf(buf + o, n - (size_t)o, "li a0, %d\nli a1, 0x%08x\nli a2, 0x70000000\ncp_dma_bulk a0, a1, a2\n",
                  s.bulk, DATA_BASE + SRC_OFF);
  if (s.two_warps) o += snprintf(buf + o, n - (size_t)o, "csrr s0, 0x805\nbeqz s0, 1f\n");
  for (int i = 0; i < s.copies; i++) o += snprintf(buf + o, n - (size_t)o, "cp_dma.16 v3, v2, v4\n");
  if (s.two_warps) o += snprintf(buf + o, n - (size_t)o, "1:\n");
  for (int i = 0; i < s.adds; i++) o += snprintf(buf + o, n - (size_t)o, "addi x%d, x0, %d\n", 10 + i % 8, i);
  if (s.mbarrier) o += snprintf(buf + o, n - (size_t)o, "cp_dma_mbarrier\n");
  if (s.readback)
    o += snprintf(buf + o, n - (size_t)o, "vlw12.v v5, 0(v3)\nli t2, 0x%08x\nvadd.vx v6, v1, t2\nvsw12.v v5, 0(v6)\n",
                  DATA_BASE + OUT_OFF);
  snprintf(buf + o, n - (size_t)o, "endprg x0, x0, x0\n");
}

static vt_config cfg(uint32_t rate, uint32_t queue, uint32_t lat) {
  vt_config c;
  vt_config_defaults(&c);
  c.isa = 2025;
  c.dma_bytes_per_cycle = rate;
  c.dma_queue = queue;
  c.lat_lsu_l1_hit = lat;
  return c;
}

/* Runs shape s (timed unless `functional`); returns the cycles, SM 0's and
 * the L2's statistics and the first word read back by each lane. */
typedef struct {
  uint64_t cycles;
  vt_sm_timing sm;
  vt_mem_stats mem;
  uint32_t out[NT];
  uint64_t parallel; /* launches run on more than one host thread */
} result;

static result go(const vt_config *c, shape s, int functional) {
  result r = {0};
  vt_error e = {0};
  vt_device *d = vt_device_create(c, &e);
  assert_non_null(d);
  /* code not writable: a writable code mapping keeps a launch on one host thread */
  assert_int_equal(vt_mem_map(d, CODE_BASE, 0x10000, VT_PERM_R | VT_PERM_X, &e), 0);
  assert_int_equal(vt_mem_map(d, DATA_BASE, DATA_SIZE, VT_PERM_R | VT_PERM_W, &e), 0);
  for (uint32_t i = 0; i < NT * 4; i++) wr32(d, DATA_BASE + SRC_OFF + 4 * i, 0x5000u + i * 7);
  vt_timing *t = functional ? NULL : vt_timing_attach(d, &e);
  if (!functional) assert_non_null(t);
  char src[8192];
  program(src, sizeof src, s);
  prog p = {.n = 0};
  vt_error ae = {0};
  p.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, p.w, 4096, &ae);
  if (p.n < 0) fail_msg("assembling failed: %s", ae.msg);
  vt_launch l = mklaunch(s.groups ? (uint32_t)s.groups : 1, 1, 1, NT, s.two_warps ? 2 : 1);
  if (run(d, &p, &l, &e)) fail_msg("launch failed: %s", e.msg);
  if (t) {
    const vt_timing_stats *st = vt_timing_get_stats(t);
    r.cycles = st->cycles;
    r.sm = st->sm[0];
    r.mem = st->mem;
  }
  r.parallel = vt_device_stats(d)->parallel_launches;
  for (uint32_t i = 0; i < NT; i++) r.out[i] = rd32(d, DATA_BASE + OUT_OFF + 16 * i);
  vt_timing_free(t);
  vt_device_destroy(d);
  return r;
}

/* 512 bytes: 512 / R cycles of streaming, then lat_lsu_l1_hit; the launch
 * ends with the copy, so its length moves by exactly the difference */
static void test_completion_is_latency_plus_size_over_rate(void **state) {
  (void)state;
  shape s = {.copies = 1, .mbarrier = 1};
  vt_config c1 = cfg(1, 8, 11), c2 = cfg(2, 8, 11), c3 = cfg(2, 8, 21);
  result a = go(&c1, s, 0), b = go(&c2, s, 0), l = go(&c3, s, 0);
  assert_int_equal(a.cycles - b.cycles, 512 - 256);
  assert_int_equal(l.cycles - b.cycles, 21 - 11);
  assert_int_equal(a.sm.dma_copies, 1);
  assert_int_equal(a.sm.dma_bytes, 512);
  assert_int_equal(a.sm.dma_busy, 512);
  assert_int_equal(b.sm.dma_busy, 256);
  /* the mbarrier's wait is the copy's remaining time: it moves the same */
  assert_int_equal(a.sm.dma_wait - b.sm.dma_wait, 256);
  assert_true(b.sm.dma_wait > 200);
}

/* adds after the copy run while it streams: the launch, which ends with
 * the copy, is no longer, and each add (collector_cycles = 4 apart) takes
 * 4 cycles off the mbarrier's wait */
static void test_independent_work_overlaps(void **state) {
  (void)state;
  vt_config c = cfg(1, 8, 11);
  result a = go(&c, (shape){.copies = 1}, 0), b = go(&c, (shape){.copies = 1, .adds = 10}, 0);
  assert_int_equal(a.cycles, b.cycles);
  assert_int_equal(b.sm.issued, a.sm.issued + 10);
  result m0 = go(&c, (shape){.copies = 1, .mbarrier = 1}, 0);
  result m1 = go(&c, (shape){.copies = 1, .adds = 10, .mbarrier = 1}, 0);
  assert_int_equal(m0.sm.dma_wait - m1.sm.dma_wait, 10 * 4);
  assert_int_equal(m0.cycles, m1.cycles);
}

/* queue 1: the second copy waits for the first's completion (512 + 11
 * cycles after its start; the first 4 are the collector's, structural), so
 * the launch is one latency longer than with room for both */
static void test_full_queue_stalls(void **state) {
  (void)state;
  shape s = {.copies = 2, .mbarrier = 1};
  vt_config q1 = cfg(1, 1, 11), q2 = cfg(1, 2, 11);
  result a = go(&q1, s, 0), b = go(&q2, s, 0);
  assert_int_equal(a.cycles - b.cycles, 11);
  assert_int_equal(a.sm.stall[VT_STALL_DMA], 512 + 11 - 4);
  assert_int_equal(b.sm.stall[VT_STALL_DMA], 0);
  assert_int_equal(a.sm.dma_copies, 2);
  assert_int_equal(a.sm.dma_bytes, 1024);
}

/* a bulk copy's 384-byte source reaches the L2 as three 128-byte lines */
static void test_bulk_reads_lines_through_l2(void **state) {
  (void)state;
  vt_config c = cfg(16, 8, 11);
  assert_int_equal(c.l1d_line, 128);
  result r = go(&c, (shape){.bulk = 384, .mbarrier = 1}, 0);
  assert_int_equal(r.mem.l2_hits + r.mem.l2_misses, 3);
  assert_int_equal(r.sm.dma_bytes, 384);
  assert_int_equal(r.sm.dma_busy, 384 / 16);
  assert_int_equal(r.sm.l1_hits + r.sm.l1_misses, 0); /* the engine bypasses the L1 */
}

/* warps 0 and 1 form one mbarrier group: warp 0, which copies nothing,
 * waits for warp 1's copy too, so halving the copy's 512 cycles takes 256
 * off each warp's wait */
static void test_mbarrier_waits_for_the_group(void **state) {
  (void)state;
  shape s = {.copies = 1, .mbarrier = 1, .two_warps = 1};
  vt_config c1 = cfg(1, 8, 11), c2 = cfg(2, 8, 11);
  result a = go(&c1, s, 0), b = go(&c2, s, 0);
  assert_int_equal(a.sm.dma_copies, 1);
  assert_int_equal(a.sm.dma_wait - b.sm.dma_wait, 2 * 256);
  assert_int_equal(a.cycles - b.cycles, 256);
}

/* two SMs on one and on two host threads: the same cycles and copies */
static void test_same_cycles_on_two_threads(void **state) {
  (void)state;
  shape s = {.bulk = 384, .copies = 2, .adds = 3, .mbarrier = 1, .two_warps = 1, .groups = 4};
  vt_config c1 = cfg(2, 1, 11), c2 = c1;
  c1.num_sm = c2.num_sm = 2;
  c1.host_threads = 1;
  c2.host_threads = 2;
  result a = go(&c1, s, 0), b = go(&c2, s, 0);
  assert_int_equal(a.parallel, 0);
  assert_int_equal(b.parallel, 1);
  assert_int_equal(a.cycles, b.cycles);
  assert_int_equal(a.sm.dma_copies, b.sm.dma_copies);
  assert_int_equal(a.sm.dma_wait, b.sm.dma_wait);
  assert_int_equal(a.sm.stall[VT_STALL_DMA], b.sm.stall[VT_STALL_DMA]);
  assert_true(a.sm.stall[VT_STALL_DMA] > 0);
}

/* the copied data, read back after the mbarrier, as in the functional run */
static void test_results_equal_functional(void **state) {
  (void)state;
  vt_config c = cfg(4, 2, 11);
  shape s = {.copies = 1, .mbarrier = 1, .readback = 1};
  result f = go(&c, s, 1), t = go(&c, s, 0);
  for (uint32_t i = 0; i < NT; i++) {
    assert_int_equal(f.out[i], 0x5000u + 4 * i * 7);
    assert_int_equal(t.out[i], f.out[i]);
  }
  assert_int_equal(t.sm.dma_bytes, 512);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_completion_is_latency_plus_size_over_rate),
      cmocka_unit_test(test_independent_work_overlaps),
      cmocka_unit_test(test_full_queue_stalls),
      cmocka_unit_test(test_bulk_reads_lines_through_l2),
      cmocka_unit_test(test_mbarrier_waits_for_the_group),
      cmocka_unit_test(test_same_cycles_on_two_threads),
      cmocka_unit_test(test_results_equal_functional),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
