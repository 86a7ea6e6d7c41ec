/* The timing model's LSU and work-group placement on hand-computed
 * programs: a coalesced against a scattered global load (lines, MSHRs),
 * shared-memory bank conflicts, and occupancy limited by local memory and
 * by the register budget. */
#include <string.h>

#include "host_kernels.h"
#include "test_core_prog.h"
#include "timing.h"

/* One launch under the timing model: its cycles, SM 0's statistics. */
static uint64_t timed(const vt_config *c, const prog *p, const vt_launch *l, vt_sm_timing *sm0) {
  vt_device *d = mkdev(c);
  vt_error e;
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  assert_int_equal(run(d, p, l, &e), 0);
  uint64_t cycles = vt_timing_get_stats(t)->cycles;
  if (sm0) *sm0 = vt_timing_get_stats(t)->sm[0];
  vt_timing_free(t);
  vt_device_destroy(d);
  return cycles;
}

/* Lane i loads the word at base + (i << shift), where base is the data
 * region or the group's local memory; a dependent vector add uses it. */
static void build_load_at(prog *p, int local, uint32_t offset, int shift) {
  p->n = 0;
  if (local) E(p, csrrs, T0, CSR_LDS, 0);
  else emit_li(p, T0, DATA_BASE + offset);
  E(p, vid_v, 1, 1);
  E(p, vsll_vi, 5, 1, shift, 1);
  E(p, vadd_vx, 5, 5, T0, 1);
  E(p, vlw12_v, 4, 0, 5);
  E(p, vadd_vv, 6, 4, 4, 1);
  E0(p, endprg);
}
static void build_load(prog *p, int local, int shift) { build_load_at(p, local, 0, shift); }

/* 8 lanes, the default configuration (128-byte L1 lines, 4 L1 MSHRs, a
 * miss back after lat_l2 + lat_dram = 40 cycles). Words 4 bytes apart are
 * one line: one miss, the load takes 11 + 40. Words 128 bytes apart are 8
 * lines sent at cycles 0..7: lines 0-3 come back at 40..43; lines 4-7 wait
 * for those MSHRs and come back at 80..83, 76 cycles after they were sent,
 * so the load takes 11 + 76 + 7 (the LSU sends one line per cycle): 43
 * cycles more. */
static void test_coalesced_and_scattered(void **state) {
  (void)state;
  static prog p;
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_sm_timing a, b;
  build_load(&p, 0, 2);
  uint64_t ca = timed(&c, &p, &l, &a);
  build_load(&p, 0, 7);
  uint64_t cb = timed(&c, &p, &l, &b);
  assert_int_equal(a.gmem_lines, 1);
  assert_int_equal(a.gmem_lanes, 8);
  assert_int_equal(a.l1_misses, 1);
  assert_int_equal(b.gmem_lines, 8);
  assert_int_equal(b.l1_misses, 8);
  assert_int_equal(cb - ca, 43);
}

/* A store of 8 lanes 128 bytes apart: 8 lines written through to the L2,
 * each acknowledged 40 cycles after it is sent (an L2 miss: write-allocate).
 * With 8 write-status registers the lines go at 0..7 and the last ack comes
 * at 47; with 4, lines 4-7 wait for the first acks (40..43) and the last
 * comes at 83. The launch ends with the last ack: 36 cycles later. */
static void test_store_wshrs(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  emit_li(&p, T0, DATA_BASE);
  E(&p, vid_v, 1, 1);
  E(&p, vsll_vi, 5, 1, 7, 1);
  E(&p, vadd_vx, 5, 5, T0, 1);
  E(&p, vsw12_v, 1, 0, 5);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  c.l1d_wshrs = 8;
  uint64_t c8 = timed(&c, &p, &l, NULL);
  c.l1d_wshrs = 4;
  assert_int_equal(timed(&c, &p, &l, NULL) - c8, 36);
}

/* One warp: three loads of one line, then a load of another line. The
 * first misses (back after 40 cycles), the second merges into its MSHR.
 * With 2 sub-entries the third merges too, and the fourth line's miss goes
 * out at once (cycle 3: done at 3 + 11 + 40). With 1 the third waits in
 * the D-cache for the fill (cycle 40), holding the LSU until 41: the fourth
 * goes out at 41 and is done at 41 + 51 = 92, 38 cycles later. */
static void test_mshr_subentries(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  emit_li(&p, T0, DATA_BASE);
  E(&p, lw, A0, 0, T0);
  E(&p, lw, A1, 4, T0);
  E(&p, lw, A2, 8, T0);
  E(&p, lw, A3, 256, T0);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_sm_timing a, b;
  c.l1d_mshr_subs = 2;
  uint64_t c2 = timed(&c, &p, &l, &a);
  c.l1d_mshr_subs = 1;
  assert_int_equal(timed(&c, &p, &l, &b) - c2, 38);
  assert_int_equal(a.l1_merges, 2);
  assert_int_equal(b.l1_merges, 2);
  assert_int_equal(b.l1_misses, 2);
}

/* Local memory with 32 banks of 4-byte words: words 4 bytes apart are in
 * 8 banks (one pass); 128 bytes apart all in bank 0 (8 passes: 7 extra
 * cycles). With 2 banks the 8 consecutive words take 4 passes. */
static void test_bank_conflicts(void **state) {
  (void)state;
  static prog p;
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_sm_timing a, b, k;
  build_load(&p, 1, 2);
  uint64_t ca = timed(&c, &p, &l, &a);
  build_load(&p, 1, 7);
  uint64_t cb = timed(&c, &p, &l, &b);
  assert_int_equal(a.bank_conflicts, 0);
  assert_int_equal(b.bank_conflicts, 7);
  assert_int_equal(a.shared_accesses, 1);
  assert_int_equal(a.l1_misses + a.l1_hits, 0);
  assert_int_equal(cb - ca, 7);
  c.lds_banks = 2;
  build_load(&p, 1, 2);
  assert_int_equal(timed(&c, &p, &l, &k) - ca, 3);
  assert_int_equal(k.bank_conflicts, 3);
}

/* lds_through_l1d: the same local load of 8 consecutive words is one L1
 * line that misses (40 cycles to the L2 and DRAM) instead of one pass of
 * the shared memory: 40 cycles later, no shared access counted. */
static void test_local_memory_through_l1d(void **state) {
  (void)state;
  static prog p;
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1;
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_sm_timing a, b;
  build_load(&p, 1, 2);
  uint64_t shared = timed(&c, &p, &l, &a);
  c.lds_through_l1d = 1;
  assert_int_equal(timed(&c, &p, &l, &b) - shared, 40);
  assert_int_equal(a.shared_accesses, 1);
  assert_int_equal(b.shared_accesses, 0);
  assert_int_equal(b.l1_misses, 1);
  assert_int_equal(b.gmem_lines, 1);
}

/* idle_lanes_access: a warp of 8 threads on 16 lanes loading words 128
 * bytes apart. Its 8 lines come back at 40..43 and 80..83 (4 MSHRs, as in
 * test_coalesced_and_scattered); the 8 idle lanes continue the stride with
 * 8 more lines, back at 120..123 and 160..163: 80 cycles later. With as
 * many lanes as threads there are no idle lanes. */
static void test_idle_lanes_access(void **state) {
  (void)state;
  static prog p;
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1;
  c.num_lanes = 16;
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_sm_timing a, b;
  build_load(&p, 0, 7);
  uint64_t active = timed(&c, &p, &l, &a);
  c.idle_lanes_access = 1;
  assert_int_equal(timed(&c, &p, &l, &b) - active, 80);
  assert_int_equal(a.gmem_lines, 8);
  assert_int_equal(b.gmem_lines, 16);
  assert_int_equal(b.gmem_lanes, 16);
  c.num_lanes = 8;
  assert_int_equal(timed(&c, &p, &l, &b), active);
  assert_int_equal(b.gmem_lines, 8);
}

/* Unit-stride words from byte 0x70 of a line on (lsu.c takes such a run's
 * lines without a pass over the lanes): 8 lanes read 0x70..0x8f, two lines;
 * with the 16 lanes of idle_lanes_access, 0x70..0xaf, still two lines but
 * 16 lanes; from 0x40 all 16 lanes (0x40..0x7f) are one line. */
static void test_unit_stride_runs(void **state) {
  (void)state;
  static prog p;
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1;
  c.num_lanes = 16;
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  vt_sm_timing a;
  build_load_at(&p, 0, 0x70, 2);
  timed(&c, &p, &l, &a);
  assert_int_equal(a.gmem_lines, 2);
  assert_int_equal(a.gmem_lanes, 8);
  assert_int_equal(a.l1_misses, 2);
  c.idle_lanes_access = 1;
  timed(&c, &p, &l, &a);
  assert_int_equal(a.gmem_lines, 2);
  assert_int_equal(a.gmem_lanes, 16);
  build_load_at(&p, 0, 0x40, 2);
  timed(&c, &p, &l, &a);
  assert_int_equal(a.gmem_lines, 1);
  assert_int_equal(a.gmem_lanes, 16);
  assert_int_equal(a.l1_misses, 1);
}

/* ISA 2025: a load under REGPAIR writes a pair, under PREFIX_MEMORY 128
 * bits four registers, and the scoreboard holds all of them. A local load
 * (one lane, 11 cycles) at cycle L, then an addi reading register R: if R
 * is one the load writes, the addi issues at L + 11, endprg (its collector
 * unit: 4 cycles) at L + 15, done at L + 20; if not, the addi issues at
 * L + 4 (the collector), endprg at L + 8, done at L + 13 (the load's L + 11
 * is earlier): 7 cycles apart. */
static uint64_t prefixed_load(int prefix, int reg) {
  static prog p;
  p.n = 0;
  E(&p, csrrs, T0, CSR_LDS, 0); /* an odd base register: never a pair */
  if (prefix == 1) E(&p, regpair, 0, 0, 0);
  if (prefix == 2) E(&p, pre_m_128, 0, 0, 0);
  E(&p, lw, A0, 0, T0);
  E(&p, addi, T2, reg, 1);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.isa = 2025;
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  l.lds_size = 0x100;
  return timed(&c, &p, &l, NULL);
}

static void test_pairs_and_wide_loads_in_scoreboard(void **state) {
  (void)state;
  assert_int_equal(prefixed_load(0, A1) - prefixed_load(0, A2), 0); /* lw writes a0 alone */
  assert_int_equal(prefixed_load(1, A1) - prefixed_load(1, A2), 7); /* the pair a0:a1 */
  assert_int_equal(prefixed_load(2, A3) - prefixed_load(2, A3 + 1), 7); /* a0..a3 */
  assert_int_equal(prefixed_load(2, A1) - prefixed_load(2, A3 + 1), 7);
}

/* Two groups of one warp, each 8 dependent adds and endprg, on one SM with
 * 8 KiB of local memory. Each group asking for 4 KiB, both are resident:
 * warp 0's adds issue at 0, 5, ..., 35, warp 1's at 1, ..., 36, then
 * warp 0's endprg at 37, warp 1's at 38, done 5 cycles later: 43. Asking
 * for 8 KiB, the second group is dispatched when the first ends (its
 * endprg at 36) and issues from 37: its endprg at 73, done at 78. */
static void test_occupancy_by_local_memory(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  for (int i = 0; i < 8; i++) E(&p, addi, T0, T0, 1);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  c.num_sm = 1;
  c.timing_quantum = 1; /* a group dispatches into the room freed at a quantum's end: every cycle */
  c.lds_bytes_per_sm = 0x2000;
  vt_launch l = mklaunch(2, 1, 1, 32, 1);
  l.lds_size = 0x1000;
  assert_int_equal(timed(&c, &p, &l, NULL), 43);
  l.lds_size = 0x2000;
  assert_int_equal(timed(&c, &p, &l, NULL), 78);
  /* the same with the register budget: 128 vector registers per SM hold
   * two groups of 64 per warp, one of 128 */
  l.lds_size = 0x1000;
  c.vgprs_per_sm = 128;
  l.vgprs = 64;
  assert_int_equal(timed(&c, &p, &l, NULL), 43);
  l.vgprs = 128;
  assert_int_equal(timed(&c, &p, &l, NULL), 78);
  c.sgprs_per_sm = 100; /* scalar: 64 fit once, not twice */
  l.vgprs = 0;
  l.sgprs = 64;
  assert_int_equal(timed(&c, &p, &l, NULL), 78);
}

/* A group that needs more registers than an SM has is refused with the key
 * to raise; without a budget (0) the usage is not checked. */
static void test_register_budget_too_small(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  c.vgprs_per_sm = 1024;
  vt_launch l = mklaunch(1, 1, 1, 32, 4);
  l.vgprs = 512;
  vt_device *d = mkdev(&c);
  vt_error e;
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_non_null(strstr(e.msg, "a work-group needs 2048 vector registers (512 per warp x 4 warps), an SM has "
                                "1024: set vgprs_per_sm to at least 2048"));
  vt_device_destroy(d);
  c.vgprs_per_sm = 0;
  d = mkdev(&c);
  assert_int_equal(run(d, &p, &l, &e), 0);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_coalesced_and_scattered),
      cmocka_unit_test(test_bank_conflicts),
      cmocka_unit_test(test_local_memory_through_l1d),
      cmocka_unit_test(test_idle_lanes_access),
      cmocka_unit_test(test_unit_stride_runs),
      cmocka_unit_test(test_store_wshrs),
      cmocka_unit_test(test_mshr_subentries),
      cmocka_unit_test(test_occupancy_by_local_memory),
      cmocka_unit_test(test_pairs_and_wide_loads_in_scoreboard),
      cmocka_unit_test(test_register_budget_too_small),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
