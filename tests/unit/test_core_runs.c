/* Straight runs in the run-ahead loop (src/core/warp.c run_build): a run
 * of predecoded private instructions is looked up and checked once, so
 * what it relies on is tested here against run_ahead = 0 (every
 * instruction in its round, each looked up), functionally and under the
 * timing model (records, same cycles), with hand-computed results:
 *  - entries of a run replaced by code 64 KiB away (the same predecode
 *    slots): a fill clears the runs that counted the entry it replaces;
 *  - a run at the predecode table's end, which must not wrap;
 *  - vsetvli inside straight code (vl changes mid-stream, then vtype.vill
 *    and the fault of the next vector instruction, reported alike);
 *  - divergent SIMT code, whose branches and joins move the mask between
 *    runs: the same thread counts and SIMT statistics;
 *  - a CSR write (the rounding mode) between fp instructions. */
#include "test_core_launch_src.h"

#define OUT (DATA_BASE + 0x1000u)
#define CODE_SIZE 0x20000u

typedef src_result result;

/* With runs (run_ahead = 1) and without: see src_same_as_reference. */
static result same_as_reference(const char *src, uint32_t warps) {
  return src_same_as_reference(src, CODE_SIZE, 32, warps, OUT);
}

/* fa (4 adds and ret) and fb, 64 KiB + 8 bytes further: fb's two
 * instructions take the predecode slots of fa's third and fourth. Each
 * pass calls fa twice (the second call runs fa as one run of 5) and fb
 * once, adding 2 * (1 + 2 + 3 + 4) + 100; a run of fa kept from before
 * fb's fill would run fb's add and ret in fa's place. Two warps, so their
 * turns interleave. */
static void aliased_entries(void **state) {
  (void)state;
  const char *src = "  csrr t0, wid\n"
                    "  slli t0, t0, 2\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t0\n"
                    "  li a2, 0\n"
                    "  li a3, 20\n"
                    "loop:\n"
                    "  jal ra, fa\n"
                    "  jal ra, fa\n"
                    "  jal ra, fb\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, loop\n"
                    "  sw a2, 0(a0)\n"
                    "  endprg x0, x0, x0\n"
                    "fa:\n"
                    "  addi a2, a2, 1\n"
                    "  addi a2, a2, 2\n"
                    "  addi a2, a2, 3\n"
                    "  addi a2, a2, 4\n"
                    "  ret\n"
                    "  .org fa + 0x10008\n"
                    "fb:\n"
                    "  addi a2, a2, 100\n"
                    "  ret\n";
  result r = same_as_reference(src, 2);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.out[0], 20 * 120);
  assert_int_equal(r.out[1], 20 * 120);
  assert_true(r.ahead > 0);
}

/* A straight function of 8 adds whose code spans the predecode table's
 * last slots and its first (CODE_BASE + 0xfff0 .. + 0x10010), called 30
 * times: 30 * (1 + ... + 8). */
static void run_at_table_end(void **state) {
  (void)state;
  const char *src = "  li a0, 0x90001000\n"
                    "  li a2, 0\n"
                    "  li a3, 30\n"
                    "loop:\n"
                    "  jal ra, fc\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, loop\n"
                    "  sw a2, 0(a0)\n"
                    "  endprg x0, x0, x0\n"
                    "  .org 0xfff0\n"
                    "fc:\n"
                    "  addi a2, a2, 1\n"
                    "  addi a2, a2, 2\n"
                    "  addi a2, a2, 3\n"
                    "  addi a2, a2, 4\n"
                    "  addi a2, a2, 5\n"
                    "  addi a2, a2, 6\n"
                    "  addi a2, a2, 7\n"
                    "  addi a2, a2, 8\n"
                    "  ret\n";
  result r = same_as_reference(src, 1);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.out[0], 30 * 36);
  assert_true(r.ahead > 0);
}

/* Three passes (code runs ahead only once predecoded): lane i of out
 * gains 2 a pass for i < 8 (added to under vl = 8 and vl = 32), else 1.
 * With VILL, the third pass's vsetvl asks for e8 (vtype.vill) and the vadd
 * after it faults, at the same pc in both modes. */
#define VL_PROG(LAST_SEW) \
  "  li a0, 0x90001000\n" \
  "  vid.v v1\n" \
  "  vsll.vi v3, v1, 2\n" \
  "  vadd.vx v3, v3, a0\n" \
  "  vmv.v.i v2, 0\n" \
  "  li a3, 3\n" \
  "loop:\n" \
  "  addi t5, a3, -1\n" \
  "  snez t5, t5\n" \
  "  slli t3, t5, 4\n" /* e32 (vsew 2) */ \
  "  ori t3, t3, " LAST_SEW "\n" \
  "  li t0, 8\n" \
  "  vsetvli t1, t0, e32, m1\n" \
  "  vadd.vi v2, v2, 1\n" \
  "  li t0, 32\n" \
  "  vsetvl t1, t0, t3\n" \
  "  vadd.vi v2, v2, 1\n" \
  "  addi a3, a3, -1\n" \
  "  bnez a3, loop\n" \
  "  vsw12.v v2, 0(v3)\n" \
  "  endprg x0, x0, x0\n"

static void vl_and_vill_in_runs(void **state) {
  (void)state;
  result r = same_as_reference(VL_PROG("16"), 1);
  assert_int_equal(r.rc, 0);
  for (unsigned i = 0; i < 32; i++) assert_int_equal(r.out[i], i < 8 ? 6 : 3);
  assert_true(r.ahead > 0);
  r = same_as_reference(VL_PROG("0"), 1);
  assert_int_equal(r.rc, -1);
  assert_int_equal(r.e.pc, CODE_BASE + 4 * 15); /* the vadd after the vsetvl (li a0 is one lui) */
  assert_non_null(strstr(r.e.msg, "vtype.vill"));
}

/* Lane i counts up to i in a divergent loop (each lane leaves at its own
 * pass: a vector branch and a join per pass move the mask), two warps:
 * out[i] = i for the 32 lanes of warp 0 and of warp 1. */
static void divergent_mask_chains(void **state) {
  (void)state;
  const char *src = "  csrr t0, wid\n"
                    "  slli t0, t0, 7\n"
                    "  li a0, 0x90001000\n"
                    "  add a0, a0, t0\n"
                    "  vid.v v1\n"
                    "  vmv.v.i v2, 0\n"
                    "loop:\n"
                    "rpc:\n"
                    "  auipc t1, %pcrel_hi(done)\n"
                    "  setrpc zero, t1, %pcrel_lo(rpc)\n"
                    "  vbgeu v2, v1, done\n"
                    "  vadd.vi v2, v2, 1\n"
                    "  addi t2, t2, 1\n"
                    "  j loop\n"
                    "done:\n"
                    "  join zero, zero, 0\n"
                    "  vsll.vi v3, v1, 2\n"
                    "  vadd.vx v3, v3, a0\n"
                    "  vsw12.v v2, 0(v3)\n"
                    "  endprg x0, x0, x0\n";
  result r = same_as_reference(src, 2);
  assert_int_equal(r.rc, 0);
  for (unsigned i = 0; i < 64; i++) assert_int_equal(r.out[i], i % 32);
  assert_true(r.st.divergent_branches > 0);
  assert_true(r.ahead > 0);
}

/* fcsr's rounding mode changes between two fp adds of 1 and 2^-24 (half
 * an ulp of 1, a tie), three passes: to nearest even 1.0, then upwards
 * 1 + 2^-23, then back to nearest. */
static void csr_write_between_fp(void **state) {
  (void)state;
  const char *src = "  li a0, 0x90001000\n"
                    "  li t2, 0x2000\n"
                    "  csrs mstatus, t2\n"
                    "  li t3, 0x3f800000\n" /* 1.0 */
                    "  li t4, 0x33800000\n" /* 2^-24 */
                    "  li a3, 3\n"
                    "loop:\n"
                    "  csrrwi zero, frm, 0\n"
                    "  fadd.s t5, t3, t4\n"
                    "  csrrwi zero, frm, 3\n" /* round up */
                    "  fadd.s t6, t3, t4\n"
                    "  addi a3, a3, -1\n"
                    "  bnez a3, loop\n"
                    "  sw t5, 0(a0)\n"
                    "  sw t6, 4(a0)\n"
                    "  endprg x0, x0, x0\n";
  result r = same_as_reference(src, 1);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.out[0], 0x3f800000u);
  assert_int_equal(r.out[1], 0x3f800001u);
  assert_true(r.ahead > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(aliased_entries),
      cmocka_unit_test(run_at_table_end),
      cmocka_unit_test(vl_and_vill_in_runs),
      cmocka_unit_test(divergent_mask_chains),
      cmocka_unit_test(csr_write_between_fp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
