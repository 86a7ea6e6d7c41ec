/* Self-modifying code with the fast paths on (docs/simulator.md §2, §3, §6):
 * code mapped writable and executable, as test vectors and OpenCL
 * programs map it, keeps warp run-ahead and the parallel launcher, and a
 * store into a decoded instruction is still seen by every later fetch.
 * Each program runs with run-ahead and up to two host threads and again
 * with run_ahead = 0 on one thread (every instruction in its round: the
 * reference semantics), and both must leave the same words; a store into
 * code that another warp already ran ahead over is reported, not run with
 * the stale instruction. A test-vector launch (the upstream format's
 * loader) runs ahead and on two host threads. */
#include <unistd.h>

#include "test_core_launch_src.h"
#include "testvec.h"

#define OUT (DATA_BASE + 0x1000u)

typedef src_result result;

/* timing: under the timing model, whose run-ahead runs a warp's private
 * instructions before they issue (docs/timing.md) */
static result run_smc(const char *src, uint32_t groups, uint32_t warps, int run_ahead, uint32_t host_threads,
                      int timing) {
  return launch_src(src, 0x10000, groups, 4, warps, run_ahead, host_threads, timing, OUT);
}

/* run-ahead (host_threads threads) and the reference leave the same words;
 * under the timing model too, in the same cycles */
static result same_as_reference(const char *src, uint32_t groups, uint32_t warps, uint32_t host_threads) {
  result fast = run_smc(src, groups, warps, 1, host_threads, 0), ref = run_smc(src, groups, warps, 0, 1, 0);
  if (fast.rc || ref.rc) fail_msg("launch failed: %s / %s", fast.rc ? fast.e.msg : "-", ref.rc ? ref.e.msg : "-");
  assert_memory_equal(fast.out, ref.out, sizeof fast.out);
  assert_int_equal(ref.ahead, 0);
  for (uint32_t th = 1; th <= host_threads + 1; th++) {
    result tf = run_smc(src, groups, warps, 1, th, 1), tr = run_smc(src, groups, warps, 0, th, 1);
    if (tf.rc || tr.rc) fail_msg("timed launch failed: %s / %s", tf.rc ? tf.e.msg : "-", tr.rc ? tr.e.msg : "-");
    assert_memory_equal(tf.out, ref.out, sizeof tf.out);
    assert_memory_equal(tr.out, ref.out, sizeof tr.out);
    assert_int_equal(tf.cycles, tr.cycles);
  }
  return fast;
}

/* One warp: a loop of register-only instructions (run ahead once
 * predecoded) adds 1 fifty times, then the loop's add is overwritten with
 * "add 100" and the loop runs again: 50 + 5000. An instruction not yet
 * decoded is overwritten before its first fetch: 7, not 1. */
static void patch_after_and_before_predecode(void **state) {
  (void)state;
  const char *src = "  li a0, 0x90001000\n"
                    "  la t0, body\n"
                    "  la t1, newword\n"
                    "  lw t2, 0(t1)\n"
                    "  li a2, 0\n"
                    "  li a4, 2\n"
                    "outer:\n"
                    "  li a3, 50\n"
                    "body:\n"
                    "  addi a2, a2, 1\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, body\n"
                    "  sw t2, 0(t0)\n"
                    "  addi a4, a4, -1\n"
                    "  bnez a4, outer\n"
                    "  sw a2, 0(a0)\n"
                    "  la t0, later\n"
                    "  la t1, newword2\n"
                    "  lw t2, 0(t1)\n"
                    "  li a5, 0\n"
                    "  sw t2, 0(t0)\n"
                    "later:\n"
                    "  addi a5, a5, 1\n"
                    "  sw a5, 4(a0)\n"
                    "  endprg x0, x0, x0\n"
                    "newword:\n"
                    "  addi a2, a2, 100\n"
                    "newword2:\n"
                    "  addi a5, a5, 7\n";
  result r = same_as_reference(src, 1, 1, 0);
  assert_int_equal(r.out[0], 50 + 50 * 100);
  assert_int_equal(r.out[1], 7);
  assert_true(r.ahead > 0);
}

/* Four warps run ahead through a loop (300 x 3), warp 0 then patches the
 * instruction after the group's barrier, and every warp runs the new one:
 * 900 + 1000 each. */
static void patch_then_barrier(void **state) {
  (void)state;
  const char *src = "  csrr t0, wid\n"
                    "  slli t1, t0, 2\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t1\n"
                    "  li a2, 0\n"
                    "  li a3, 300\n"
                    "loop:\n"
                    "  addi a2, a2, 3\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, loop\n"
                    "  bnez t0, wait\n"
                    "  la t3, target\n"
                    "  la t4, newword\n"
                    "  lw t5, 0(t4)\n"
                    "  sw t5, 0(t3)\n"
                    "wait:\n"
                    "  barrier zero, zero, 0\n"
                    "target:\n"
                    "  addi a2, a2, 1\n"
                    "  sw a2, 0(a0)\n"
                    "  endprg x0, x0, x0\n"
                    "newword:\n"
                    "  addi a2, a2, 1000\n";
  result r = same_as_reference(src, 1, 4, 1);
  for (unsigned i = 0; i < 4; i++) assert_int_equal(r.out[i], 1900);
  assert_true(r.ahead > 0);
}

/* Two groups on two host threads: each patches an instruction (with the
 * same word) before running it: 1000 in both, the launch parallel. */
static void patch_on_two_threads(void **state) {
  (void)state;
  const char *src = "  csrr t0, wgid\n"
                    "  slli t1, t0, 2\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t1\n"
                    "  li a2, 0\n"
                    "  li a3, 400\n"
                    "loop:\n"
                    "  addi a2, a2, 1\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, loop\n"
                    "  la t3, target\n"
                    "  la t4, newword\n"
                    "  lw t5, 0(t4)\n"
                    "  sw t5, 0(t3)\n"
                    "target:\n"
                    "  addi a2, a2, 1\n"
                    "  sw a2, 0(a0)\n"
                    "  endprg x0, x0, x0\n"
                    "newword:\n"
                    "  addi a2, a2, 1000\n";
  result r = same_as_reference(src, 2, 1, 2);
  assert_int_equal(r.out[0], 1400);
  assert_int_equal(r.out[1], 1400);
  if (sysconf(_SC_NPROCESSORS_ONLN) >= 1) assert_int_equal(r.st.parallel_launches, 1);
}

/* Warp 1 loops over `target` (running ahead) while warp 0, without
 * waiting for it, overwrites `target`: the instructions warp 1 already
 * ran ahead belong to rounds after the store, so the launch reports it;
 * run_ahead = 0 runs it (some passes add 1, the later ones 1000). */
static void patch_raced_by_run_ahead(void **state) {
  (void)state;
  const char *src = "  csrr t0, wid\n"
                    "  slli t1, t0, 2\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t1\n"
                    "  li a2, 0\n"
                    "  bnez t0, spin\n"
                    "  la t3, target\n"
                    "  la t4, newword\n"
                    "  lw t5, 0(t4)\n"
                    "  sw t5, 0(t3)\n"
                    "  j done\n"
                    "spin:\n"
                    "  li a3, 400\n"
                    "target:\n"
                    "  addi a2, a2, 1\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, target\n"
                    "done:\n"
                    "  sw a2, 0(a0)\n"
                    "  endprg x0, x0, x0\n"
                    "newword:\n"
                    "  addi a2, a2, 1000\n";
  /* functionally, then under the timing model (whose run-ahead ran warp
   * 1's loop instructions before they issue) */
  for (int timing = 0; timing <= 1; timing++) {
    result ref = run_smc(src, 1, 2, 0, 1, timing);
    assert_int_equal(ref.rc, 0);
    assert_true(ref.out[1] > 1000 && ref.out[1] < 400 * 1000);
    result fast = run_smc(src, 1, 2, 1, 1, timing);
    assert_int_equal(fast.rc, -1);
    assert_int_equal(fast.e.kind, VT_ERR_ILLEGAL);
    if (!timing) assert_int_equal(fast.e.warp, 0);
    assert_non_null(strstr(fast.e.msg, timing ? "which warp 1 of work-group 0 ran ahead of its issue"
                                              : "warp 1 of work-group 0 may already have run ahead"));
  }
}

/* ---- a test-vector launch --------------------------------------------------- */
static void put_words(FILE *f, const uint32_t *w, size_t n) {
  for (size_t i = 0; i < n; i++) fprintf(f, "%08x\n", w[i]);
}

/* 8 groups of 2 warps, each warp 200 passes of a register-only loop, then
 * its result at OUT + 4 * (2 * wgid + wid): written as .metadata + .data
 * (code buffer at 0x80000000, data at 0x90000000), loaded by the
 * test-vector loader, which maps both writable and executable. */
static void testvec_runs_ahead_on_two_threads(void **state) {
  (void)state;
  const char *src = "  csrr t0, wgid\n"
                    "  csrr t1, wid\n"
                    "  slli t0, t0, 1\n"
                    "  add t0, t0, t1\n"
                    "  slli t0, t0, 2\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t0\n"
                    "  li a2, 0\n"
                    "  li a3, 200\n"
                    "loop:\n"
                    "  addi a2, a2, 5\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, loop\n"
                    "  sw a2, 0(a0)\n"
                    "  endprg x0, x0, x0\n";
  uint32_t code[MAX_WORDS];
  vt_error e;
  int n = asm_words(src, CODE_BASE, code, MAX_WORDS, &e);
  assert_true(n > 0);
  char dir[] = "/tmp/vt_smc_XXXXXX", meta[64], data[64];
  assert_non_null(mkdtemp(dir));
  snprintf(meta, sizeof meta, "%s/k_0.metadata", dir);
  snprintf(data, sizeof data, "%s/k_0.data", dir);
  /* start_pc, kernel_id, grid x/y/z, wf, wg, knl, lds, pds, sgprs, vgprs, pds_base, buffers */
  const uint32_t f[14] = {CODE_BASE, 0, 8, 1, 1, 4, 2, DATA_BASE + 0xff000u, 0x1000, 0x100, 64, 64,
                          DATA_BASE + 0x80000u, 2};
  const uint32_t bufs[6] = {CODE_BASE, DATA_BASE, (uint32_t)n * 4, 0x2000, 0x10000, DATA_SIZE};
  FILE *m = fopen(meta, "w");
  assert_non_null(m);
  for (int i = 0; i < 14; i++) fprintf(m, "%08x\n%08x\n", f[i], 0u);
  for (int i = 0; i < 6; i++) fprintf(m, "%08x\n%08x\n", bufs[i], 0u);
  fclose(m);
  FILE *dt = fopen(data, "w");
  assert_non_null(dt);
  put_words(dt, code, (size_t)n);
  static const uint32_t zeros[0x2000 / 4];
  put_words(dt, zeros, 0x2000 / 4);
  fclose(dt);

  vt_config c;
  vt_config_defaults(&c);
  c.host_threads = 2;
  vt_device *d = vt_device_create(&c, &e);
  assert_non_null(d);
  vt_testvec tv;
  assert_int_equal(vt_testvec_load(meta, data, &tv, &e), 0);
  assert_int_equal(vt_testvec_install(d, &tv, &e), 0);
  vt_launch l;
  vt_testvec_launch(d, &tv, &l);
  if (vt_device_launch(d, &l, &e)) fail_msg("launch failed: %s", e.msg);
  for (unsigned i = 0; i < 16; i++) assert_int_equal(rd32(d, OUT + 4 * i), 1000);
  assert_int_equal(vt_device_stats(d)->parallel_launches, 1);
  /* each warp runs most of its 600 loop instructions ahead */
  assert_true(vt_device_ahead_insns(d) > 16 * 500);
  vt_testvec_free(&tv);
  vt_device_destroy(d);
  unlink(meta);
  unlink(data);
  rmdir(dir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(patch_after_and_before_predecode),
      cmocka_unit_test(patch_then_barrier),
      cmocka_unit_test(patch_on_two_threads),
      cmocka_unit_test(patch_raced_by_run_ahead),
      cmocka_unit_test(testvec_runs_ahead_on_two_threads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
