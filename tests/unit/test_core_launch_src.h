/* One launch of an assembled program on a fresh device, for the tests that
 * compare run-ahead with run_ahead = 0 (test_core_smc.c, test_core_runs.c,
 * test_core_lean.c):
 * code mapped writable and executable at CODE_BASE, optionally under the
 * timing model, and what the comparison needs afterwards. */
#ifndef TEST_CORE_LAUNCH_SRC_H
#define TEST_CORE_LAUNCH_SRC_H

#include "test_core_more.h"
#include "timing.h"

typedef struct {
  int rc;
  vt_error e;
  uint32_t out[64]; /* the words at the program's output address */
  vt_stats st;
  uint64_t ahead, cycles;
} src_result;

/* src assembled into code_size bytes at CODE_BASE; groups of warps warps
 * of nt threads; timing: under the timing model (cycles) */
static inline src_result launch_src(const char *src, uint32_t code_size, uint32_t groups, uint32_t nt, uint32_t warps,
                                    int run_ahead, uint32_t host_threads, int timing, uint32_t out) {
  vt_config c;
  vt_config_defaults(&c);
  c.run_ahead = (uint32_t)run_ahead;
  c.host_threads = host_threads;
  vt_error me;
  vt_device *d = vt_device_create(&c, &me);
  assert_non_null(d);
  vt_timing *t = timing ? vt_timing_attach(d, &me) : NULL;
  if (timing) assert_non_null(t);
  assert_int_equal(vt_mem_map(d, CODE_BASE, code_size, VT_PERM_RWX, &me), 0);
  assert_int_equal(vt_mem_map(d, DATA_BASE, DATA_SIZE, VT_PERM_R | VT_PERM_W, &me), 0);
  uint32_t *w = calloc(code_size / 4, 4);
  assert_non_null(w);
  int n = asm_words(src, CODE_BASE, w, code_size / 4, &me);
  if (n < 0) fail_msg("assembling the test program: %s", me.msg);
  assert_int_equal(vt_mem_write(d, CODE_BASE, w, (uint32_t)n * 4, &me), 0);
  free(w);
  vt_launch l = mklaunch(groups, 1, 1, nt, warps);
  src_result r;
  memset(&r, 0, sizeof r);
  r.rc = vt_device_launch(d, &l, &r.e);
  for (unsigned i = 0; i < 64; i++) r.out[i] = rd32(d, out + 4 * i);
  r.st = *vt_device_stats(d);
  r.ahead = vt_device_ahead_insns(d);
  r.cycles = t ? vt_timing_get_stats(t)->cycles : 0;
  vt_timing_free(t);
  vt_device_destroy(d);
  return r;
}

/* With run-ahead and with run_ahead = 0 (every instruction in its round,
 * each looked up), functionally and timed: the same words, statistics,
 * error and cycles. Returns the functional run with run-ahead. */
static inline src_result src_same_as_reference(const char *src, uint32_t code_size, uint32_t nt, uint32_t warps,
                                               uint32_t out) {
  src_result fast = launch_src(src, code_size, 1, nt, warps, 1, 1, 0, out);
  src_result ref = launch_src(src, code_size, 1, nt, warps, 0, 1, 0, out);
  assert_int_equal(fast.rc, ref.rc);
  if (fast.rc) {
    assert_string_equal(fast.e.msg, ref.e.msg);
    assert_int_equal(fast.e.pc, ref.e.pc);
    assert_int_equal(fast.e.warp, ref.e.warp);
  }
  assert_memory_equal(fast.out, ref.out, sizeof fast.out);
  assert_memory_equal(&fast.st, &ref.st, sizeof fast.st);
  assert_int_equal(ref.ahead, 0);
  src_result tf = launch_src(src, code_size, 1, nt, warps, 1, 1, 1, out);
  src_result tr = launch_src(src, code_size, 1, nt, warps, 0, 1, 1, out);
  assert_int_equal(tf.rc, ref.rc);
  assert_int_equal(tr.rc, ref.rc);
  assert_memory_equal(tf.out, ref.out, sizeof tf.out);
  assert_memory_equal(tr.out, ref.out, sizeof tr.out);
  assert_int_equal(tf.cycles, tr.cycles);
  return fast;
}

#endif
