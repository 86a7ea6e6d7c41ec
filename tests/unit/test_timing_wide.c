/* The timing model's ISA 2025 wide operands (docs/timing.md, "Register
 * groups and element widths"), on hand-computed programs: MMA register
 * groups in the scoreboard and the operand collector, the spans of MMA64
 * groups and of SEW-64 pairs, the passes of a vector op by element width,
 * a warp-group MMA64's local-memory reads, a 128-bit PREFIX_MEMORY access
 * moving all its words, and 64-bit instructions taking two fetch slots. */
#include "isaext_prog.h"
#include "timing.h"
#include "timing_int.h"

/* One launch of the 2025 program src (nt threads, lds bytes of local
 * memory) under the timing model: its cycles, SM 0's statistics. */
static uint64_t timed_src(const vt_config *c, const char *src, uint32_t nt, uint32_t lds,
                          vt_sm_timing *sm0) {
  static prog p;
  vt_error e = {0};
  p.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, p.w, 4096, &e);
  if (p.n < 0) fail_msg("assembling failed: %s", e.msg);
  vt_device *d = mkdev(c);
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  vt_launch l = mklaunch(1, 1, 1, nt, 1);
  l.lds_size = lds;
  if (run(d, &p, &l, &e)) fail_msg("timed launch failed: %s", e.msg);
  uint64_t cycles = vt_timing_get_stats(t)->cycles;
  if (sm0) *sm0 = vt_timing_get_stats(t)->sm[0];
  vt_timing_free(t);
  vt_device_destroy(d);
  return cycles;
}

static vt_config cfg2025(void) {
  vt_config c;
  vt_config_defaults(&c);
  c.isa = 2025;
  return c;
}

/* mma.m16n16k16.s8 at 32 threads: C/D v16..v23 (256 words), A v8..v9, B
 * v12..v13 (64 words each; registers below 32 need no regext prefix). It
 * issues at 0; its 12 reads go to the 4 banks of warp slot 0 (bank =
 * register mod 4): banks 0 and 1 get 4 each (v16, v20, v8, v12; v17, v21,
 * v9, v13), so the last read is at 3 and the result due at 5 + 3 = 8; the
 * D group's 8 writes, 2 per bank, end at 9. A vadd reading v20, in the
 * middle of D, issues at 9 (cycles 1-8 are scoreboard stalls), endprg at
 * 13 (the collector: 10-12 structural), done at 18.
 * Reading v24 instead it issues at 7 (the MMA's collector: 3 + 4), endprg
 * at 11, done at 16. */
static void test_mma_group_in_scoreboard(void **state) {
  (void)state;
  vt_config c = cfg2025();
  vt_sm_timing m;
  assert_int_equal(
      timed_src(&c, "mma.m16n16k16.s8 v16, v8, v12, 0, 0\nvadd.vv v1, v20, v2\nendprg x0, x0, x0\n",
                32, 0, &m),
      18);
  assert_int_equal(m.rf_read_conflicts, 3);
  assert_int_equal(m.rf_write_conflicts, 1);
  assert_int_equal(m.stall[VT_STALL_SCOREBOARD], 8);
  assert_int_equal(m.stall[VT_STALL_STRUCTURAL], 3);
  assert_int_equal(
      timed_src(&c, "mma.m16n16k16.s8 v16, v8, v12, 0, 0\nvadd.vv v1, v24, v2\nendprg x0, x0, x0\n",
                32, 0, &m),
      16);
}

/* reg_uses of one instruction of a 2025 device: the span of register reg
 * (as destination or source) for nt threads under vtype */
static int span(vt_timing *t, const char *src, uint32_t nt, uint32_t vtype, unsigned reg,
                int dest) {
  uint32_t w[4];
  vt_error e = {0};
  int n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, w, 4, &e);
  if (n < 1) fail_msg("%s: %s", src, e.msg);
  isa_inst in;
  if (isa_insn_len(w[0], ISA_REV_2025) == 8)
    assert_int_not_equal(isa_decode64_rev(w[0], w[1], ISA_REV_2025, &in), ISA_INVALID);
  else
    assert_int_not_equal(isa_decode_rev(w[0], 0, ISA_REV_2025, &in), ISA_INVALID);
  reg_use u[ISA_MAX_OPNDS + 1];
  int k = reg_uses(t, &in, isa_table[in.id].flags, nt, vtype, u);
  for (int i = 0; i < k; i++)
    if (u[i].reg == reg && u[i].dest == dest) return u[i].span;
  fail_msg("%s: register %u not used", src, reg);
  return 0;
}

#define E32 0x10u /* vtype e32 m1 */
#define E64 0x18u
#define E8 0x00u

/* MMA64 groups (words / threads registers; exec_mma*.c's layout): the
 * m16n8k16 f16 -> f32 form has 128 D and C words, 128 A words, 64 B words:
 * 4, 4, 4, 2 registers at 32 threads, 16, 16, 16, 8 at 8. Sparse A keeps
 * K/2: 4 registers plus 16 words of 2-bit metadata (1 register). The warp
 * group with N = 64: C/D 16 x 64 words (32 registers), A from registers 4,
 * by descriptor 2, B always its descriptor pair. SEW 64 makes vector
 * operands and a float scalar pairs, but not a compare's vd, an x scalar
 * or the mask; other widths keep one register. */
static void test_group_and_pair_spans(void **state) {
  (void)state;
  vt_config c = cfg2025();
  vt_device *d = mkdev(&c);
  vt_error e = {0};
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  const char *f = "mma64.m16n8k16.f16.f32 v130, v80, v8, v40, 0, 0, 0";
  assert_int_equal(span(t, f, 32, E32, 130, 1), 4);
  assert_int_equal(span(t, f, 32, E32, 80, 0), 4);
  assert_int_equal(span(t, f, 32, E32, 8, 0), 4);
  assert_int_equal(span(t, f, 32, E32, 40, 0), 2);
  assert_int_equal(span(t, f, 8, E32, 130, 1), 16);
  assert_int_equal(span(t, f, 8, E32, 40, 0), 8);
  assert_int_equal(span(t, "mma64.sp.m16n8k32.f16.f32 v130, v80, v8, v40, 0, 0, 0", 32, E32, 8, 0),
                   5);
  const char *wg = "mma64.wg.m64k16.f16.f32 v130, v80, v8, v40, 0, 0, 0, 1, 64";
  assert_int_equal(span(t, wg, 32, E32, 130, 1), 32);
  assert_int_equal(span(t, wg, 32, E32, 80, 0), 32);
  assert_int_equal(span(t, wg, 32, E32, 8, 0), 4);
  assert_int_equal(span(t, wg, 32, E32, 40, 0), 2);
  assert_int_equal(
      span(t, "mma64.wg.m64k16.f16.f32 v130, v80, v8, v40, 0, 0, 0, 0, 64", 32, E32, 8, 0), 2);
  assert_int_equal(span(t, "vadd.vv v2, v4, v6", 32, E64, 2, 1), 2);
  assert_int_equal(span(t, "vadd.vv v2, v4, v6", 32, E64, 6, 0), 2);
  assert_int_equal(span(t, "vadd.vv v2, v4, v6", 32, E32, 6, 0), 1);
  assert_int_equal(span(t, "vadd.vv v2, v4, v6", 32, E8, 2, 1), 1);
  assert_int_equal(span(t, "vmseq.vv v8, v2, v4", 32, E64, 8, 1), 1);
  assert_int_equal(span(t, "vmseq.vv v8, v2, v4", 32, E64, 2, 0), 2);
  assert_int_equal(span(t, "vadd.vx v2, v4, a0", 32, E64, 10, 0), 1);
  assert_int_equal(span(t, "vfadd.vf v2, v4, fa0", 32, E64, 10, 0), 2);
  assert_int_equal(span(t, "vadd.vv v2, v4, v6, v0.t", 32, E64, 0, 0), 1);
  vt_timing_free(t);
  vt_device_destroy(d);
}

/* n dependent (or independent) vadds at SEW sew, then endprg */
static void sew_chain(char *src, size_t len, unsigned sew, int dep, int n) {
  size_t k = (size_t)snprintf(src, len, "vsetvli t0, zero, e%u, m1, ta, ma\n", sew);
  for (int i = 0; i < n && k < len; i++)
    k += (size_t)snprintf(src + k, len - k, dep ? "vadd.vv v2, v2, v4\n" : "vadd.vv v%u, v4, v6\n",
                          8 + 2 * (i % 8));
  if (k < len) snprintf(src + k, len - k, "endprg x0, x0, x0\n");
}

/* cycles per vadd between 16 and 64 of them */
static uint64_t sew_slope(const vt_config *c, unsigned sew, int dep) {
  static char src[4096];
  sew_chain(src, sizeof src, sew, dep, 16);
  uint64_t a = timed_src(c, src, 32, 0, NULL);
  sew_chain(src, sizeof src, sew, dep, 64);
  uint64_t b = timed_src(c, src, 32, 0, NULL);
  assert_int_equal((b - a) % 48, 0);
  return (b - a) / 48;
}

/* The element width and the vector unit (docs/timing.md): one element per
 * thread in its lane at every SEW (seed 002), so SEW 8, 16 and 32 take
 * ceil(threads / lanes) passes and SEW 64, a register pair per lane, twice
 * that. 32 threads on 8 lanes: a dependent vadd chain is 5 + 3 = 8 cycles
 * per add at SEW 8 and 32, 5 + 7 = 12 at SEW 64; independent vadds keep
 * the vALU busy 4 and 8 cycles. On 32 lanes SEW 64 takes 2 passes: 6. */
static void test_sew_passes(void **state) {
  (void)state;
  vt_config c = cfg2025();
  c.num_lanes = 8;
  assert_int_equal(sew_slope(&c, 32, 1), 8);
  assert_int_equal(sew_slope(&c, 8, 1), 8);
  assert_int_equal(sew_slope(&c, 16, 1), 8);
  assert_int_equal(sew_slope(&c, 64, 1), 12);
  assert_int_equal(sew_slope(&c, 32, 0), 4);
  assert_int_equal(sew_slope(&c, 64, 0), 8);
  c.num_lanes = 0;
  assert_int_equal(sew_slope(&c, 32, 1), 5);
  assert_int_equal(sew_slope(&c, 64, 1), 6);
  c.isa = 0; /* the baseline: e32 only, unchanged */
  assert_int_equal(sew_slope(&c, 32, 1), 5);
}

/* cycles per instruction between 16 and 64 copies of body */
static uint64_t body_slope(const vt_config *c, const char *head, const char *body) {
  static char src[8192];
  uint64_t n[2];
  for (int j = 0; j < 2; j++) {
    size_t k = (size_t)snprintf(src, sizeof src, "%s", head);
    for (int i = 0; i < (j ? 64 : 16) && k < sizeof src; i++) k += (size_t)snprintf(src + k, sizeof src - k, "%s\n", body);
    if (k < sizeof src) snprintf(src + k, sizeof src - k, "endprg x0, x0, x0\n");
    n[j] = timed_src(c, src, 32, 0, NULL);
  }
  assert_int_equal((n[1] - n[0]) % 48, 0);
  return (n[1] - n[0]) / 48;
}

/* The other 64-bit elements take two passes too: the compute format with a
 * 64-bit size and PREFIX pair = 1 before a vector op (32 threads on 8
 * lanes: 12 cycles per dependent op, 8 at 32 bits); SEW 64 does not change
 * the compute format's own 32-bit sizes. */
static void test_pair_passes(void **state) {
  (void)state;
  vt_config c = cfg2025();
  c.num_lanes = 8;
  assert_int_equal(body_slope(&c, "", "vadd64 v2, v2, v4, 64, 64, 0, 0, 0, 0"), 12);
  assert_int_equal(body_slope(&c, "", "vadd64 v2, v2, v4, 32, 32, 0, 0, 0, 0"), 8);
  assert_int_equal(body_slope(&c, "vsetvli t0, zero, e64, m1, ta, ma\n", "vadd64 v2, v2, v4, 32, 32, 0, 0, 0, 0"), 8);
  assert_int_equal(body_slope(&c, "", "prefix 0, 1, 0, 0\nvadd.vv v2, v2, v4"), 12);
}

/* A warp-group MMA64 with A and B from local memory (a = 0, N = 8,
 * f16): B 16 x 8 and the warp's 16 x 16 of A, 768 bytes, read through the
 * shared memory's 32 banks of 4 bytes: 6 passes, its result lat_lsu_l1_hit
 * + 5 cycles after the tensor's own. With 64 banks it is 3 passes: the
 * vadd reading its D, and so the launch, 3 cycles earlier. */
static void test_warp_group_local_reads(void **state) {
  (void)state;
  const char *src =
      "li t0, 0x70000000\nvmv.v.x v8, t0\nvmv.v.x v40, t0\nvmv.v.x v9, zero\nvmv.v.x v41, zero\n"
      "mma64.wg.m64k16.f16.f32 v80, v80, v8, v40, 0, 0, 0, 0, 8\n"
      "vadd.vv v1, v80, v2\nendprg x0, x0, x0\n";
  vt_config c = cfg2025();
  vt_sm_timing a, b;
  uint64_t banks32 = timed_src(&c, src, 32, 0x1000, &a);
  c.lds_banks = 64;
  uint64_t banks64 = timed_src(&c, src, 32, 0x1000, &b);
  assert_int_equal(banks32 - banks64, 3);
  assert_int_equal(a.shared_accesses, 1);
  assert_int_equal(b.shared_accesses, 1);
}

/* A 128-bit PREFIX_MEMORY load of 32 lanes, lane i at base + 16 i: 128
 * words. In global memory they are 4 lines (128-byte lines), sent one a
 * cycle and missing alike: the last back 3 cycles after a 32-bit load
 * (pre_m_32) of 32 consecutive words (one line). In local memory 128 consecutive words
 * over 32 banks take 4 passes (3 extra). */
static void test_prefix_wide_access(void **state) {
  (void)state;
  static char src[512];
  const char *fmt = "%s\nvid.v v1\nvsll.vi v5, v1, %d\nvadd.vx v5, v5, t0\n%svlw12.v v8, 0(v5)\n"
                    "vadd.vv v6, v8, v8\nendprg x0, x0, x0\n";
  vt_config c = cfg2025();
  vt_sm_timing w, n, l;
  snprintf(src, sizeof src, fmt, "li t0, 0x90000000", 4, "pre_m_128 0, 0, 0\n");
  uint64_t wide = timed_src(&c, src, 32, 0, &w);
  snprintf(src, sizeof src, fmt, "li t0, 0x90000000", 2, "pre_m_32 0, 0, 0\n");
  uint64_t narrow = timed_src(&c, src, 32, 0, &n);
  assert_int_equal(w.gmem_lanes, 128);
  assert_int_equal(w.gmem_lines, 4);
  assert_int_equal(n.gmem_lines, 1);
  assert_int_equal(wide - narrow, 3);
  snprintf(src, sizeof src, fmt, "csrr t0, 0x806", 4, "pre_m_128 0, 0, 0\n");
  timed_src(&c, src, 32, 0x1000, &l);
  assert_int_equal(l.shared_accesses, 1);
  assert_int_equal(l.bank_conflicts, 3);
}

/* The modelled front end fetches 2-word blocks (num_fetch 2; an ibuffer of
 * 64 that never fills, so every fetch takes its whole block):
 * 16 vadd.vv and endprg are 17 words, 9 fetches; 16 vadd64 take a block
 * each, 17 fetches. After one addi every vadd64 straddles two blocks: its
 * first word rides in one fetch and its second in the next, still 17
 * fetches (addi + the first half, then each fetch ends one and starts the
 * next, the last ends the 16th with endprg). */
static void test_fetch_slots(void **state) {
  (void)state;
  static char src[2048];
  vt_config c = cfg2025();
  c.l1i_sets = 32;
  c.num_fetch = 2;
  c.ibuffer_depth = 64;
  vt_sm_timing m;
  size_t k = 0;
  for (int i = 0; i < 16; i++)
    k += (size_t)snprintf(src + k, sizeof src - k, "vadd.vv v%d, v4, v6\n", 8 + i);
  snprintf(src + k, sizeof src - k, "endprg x0, x0, x0\n");
  timed_src(&c, src, 32, 0, &m);
  assert_int_equal(m.l1i_hits, 9);
  k = 0;
  for (int i = 0; i < 16; i++)
    k += (size_t)snprintf(src + k, sizeof src - k, "vadd64 v%d, v4, v6, 32, 32, 0, 0, 0, 0\n",
                          8 + i);
  snprintf(src + k, sizeof src - k, "endprg x0, x0, x0\n");
  timed_src(&c, src, 32, 0, &m);
  assert_int_equal(m.l1i_hits, 17);
  assert_int_equal(m.issued, 17);
  k = (size_t)snprintf(src, sizeof src, "addi t1, zero, 1\n");
  for (int i = 0; i < 16; i++)
    k += (size_t)snprintf(src + k, sizeof src - k, "vadd64 v%d, v4, v6, 32, 32, 0, 0, 0, 0\n",
                          8 + i);
  snprintf(src + k, sizeof src - k, "endprg x0, x0, x0\n");
  timed_src(&c, src, 32, 0, &m);
  assert_int_equal(m.l1i_hits, 17);
  assert_int_equal(m.issued, 18);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mma_group_in_scoreboard),
      cmocka_unit_test(test_group_and_pair_spans),
      cmocka_unit_test(test_sew_passes), cmocka_unit_test(test_pair_passes),
      cmocka_unit_test(test_warp_group_local_reads),
      cmocka_unit_test(test_prefix_wide_access),
      cmocka_unit_test(test_fetch_slots),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
