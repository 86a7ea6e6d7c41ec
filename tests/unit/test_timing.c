/* The timing model (src/timing, docs/timing.md) on hand-computed
 * microbenchmarks: dependent chains give the 2025 RTL's issue-to-issue
 * latencies, independent instructions of one warp are collector_cycles
 * apart, register-bank conflicts cost a cycle, folding over fewer lanes,
 * a scoreboard stall, a load's memory stall and a barrier wait cycle by
 * cycle, and memory results identical to the functional loop. */
#include <unistd.h>

#include "host_kernels.h"
#include "test_core_prog.h"
#include "timing.h"

/* One launch of p under the timing model; returns the launch's cycles and,
 * if sm0 is not NULL, copies SM 0's statistics there. */
static uint64_t timed(const vt_config *c, const prog *p, const vt_launch *l, vt_sm_timing *sm0) {
  vt_device *d = mkdev(c);
  vt_error e;
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  if (run(d, p, l, &e)) {
    char buf[512];
    vt_err_format(&e, buf, sizeof buf);
    fail_msg("timed launch failed: %s", buf);
  }
  const vt_timing_stats *st = vt_timing_get_stats(t);
  uint64_t cycles = st->cycles;
  if (sm0) *sm0 = st->sm[0];
  vt_timing_free(t); /* before the device it is attached to */
  vt_device_destroy(d);
  return cycles;
}

typedef enum {
  CHAIN_ADD, CHAIN_VADD, CHAIN_VFADD, CHAIN_LOAD, INDEP_ADD, INDEP_VADD,
  CHAIN_ADD_CONFLICT, CHAIN_VADD_CONFLICT, INDEP_ADD_CONFLICT, CHAIN_VDIV, INDEP_VDIV
} chain_kind;

/* n instructions of one kind (dependent on the previous one or not), then endprg. */
static void build_chain(prog *p, chain_kind k, int n) {
  p->n = 0;
  if (k == CHAIN_LOAD) emit_li(p, T1, DATA_BASE);
  for (int i = 0; i < n; i++) switch (k) {
    case CHAIN_ADD: E(p, addi, T0, T0, 1); break;
    case CHAIN_VADD: E(p, vadd_vv, 1, 1, 2, 1); break;
    case CHAIN_VFADD: E(p, vfadd_vv, 1, 1, 2, 1); break;
    case CHAIN_LOAD: E(p, lw, T0, 0, T1); break; /* same address: the WAW on t0 chains them */
    case INDEP_ADD: E(p, addi, 10 + i % 16, 0, i); break;
    case INDEP_VADD: E(p, vadd_vv, 3 + i % 16, 1, 2, 1); break;
    /* warp slot 0: bank = register mod 4; t0 (x5) and s1 (x9) share bank
     * 1, as do v1 and v5, and t1 (x6) and s10 (x26) bank 2 */
    case CHAIN_ADD_CONFLICT: E(p, add, T0, T0, 9); break;
    case CHAIN_VADD_CONFLICT: E(p, vadd_vv, 1, 1, 5, 1); break;
    case INDEP_ADD_CONFLICT: E(p, add, 10 + i % 16, 6, 26); break;
    case CHAIN_VDIV: E(p, vdivu_vv, 1, 1, 2, 1); break;
    case INDEP_VDIV: E(p, vdivu_vv, 3 + i % 16, 1, 2, 1); break;
    }
  E0(p, endprg);
}

/* Cycles per instruction: the slope between chains of 16 and 64, as the
 * RTL microbenchmarks measure it (fixed start-up costs cancel). */
static uint64_t slope(const vt_config *c, chain_kind k, uint32_t threads) {
  static prog p;
  vt_launch l = mklaunch(1, 1, 1, threads, 1);
  build_chain(&p, k, 16);
  uint64_t a = timed(c, &p, &l, NULL);
  build_chain(&p, k, 64);
  uint64_t b = timed(c, &p, &l, NULL);
  assert_int_equal((b - a) % 48, 0);
  return (b - a) / 48;
}

static void test_dependent_chains(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c); /* the 2025 RTL: 32 lanes for 32 threads */
  assert_int_equal(slope(&c, CHAIN_ADD, 32), 5);
  assert_int_equal(slope(&c, CHAIN_VADD, 32), 5);
  assert_int_equal(slope(&c, CHAIN_VFADD, 32), 7);
  assert_int_equal(slope(&c, CHAIN_LOAD, 32), 11);
}

/* One warp's independent instructions: its collector unit takes one every
 * collector_cycles (accept, two register-read cycles, dispatch). */
/* configs/chisel-2025.cfg models the front end (the Chisel RTL's I-cache,
 * fixed-priority fetch) on the memory the microbenchmarks ran on: fetching
 * ahead hides every I-cache miss, and the chains keep the RTL's slopes
 * exactly, between 16 and 64 and between 64 and 192 instructions. */
static void test_chains_with_modelled_front_end(void **state) {
  (void)state;
  vt_config c;
  vt_error e;
  vt_config_defaults(&c);
  assert_int_equal(vt_config_load(&c, VT_SOURCE_DIR "/configs/chisel-2025.cfg", &e), 0);
  assert_true(c.l1i_sets > 0);
  static const struct { chain_kind k; uint64_t per; } want[] = {
      {CHAIN_ADD, 5}, {CHAIN_VADD, 5}, {CHAIN_VFADD, 7}, {CHAIN_LOAD, 11}};
  static prog p;
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    uint64_t n[3], len[3] = {16, 64, 192};
    for (int j = 0; j < 3; j++) {
      build_chain(&p, want[i].k, (int)len[j]);
      n[j] = timed(&c, &p, &l, NULL);
    }
    assert_int_equal(n[1] - n[0], 48 * want[i].per);
    assert_int_equal(n[2] - n[1], 128 * want[i].per);
  }
}

static void test_independent_and_folding(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  assert_int_equal(slope(&c, INDEP_ADD, 32), 4);
  assert_int_equal(slope(&c, INDEP_VADD, 32), 4);
  c.collector_cycles = 1; /* without the collector's interval: back to back */
  assert_int_equal(slope(&c, INDEP_ADD, 32), 1);
  assert_int_equal(slope(&c, INDEP_VADD, 32), 1);
  c.num_lanes = 8; /* 32 threads over 8 lanes: every vector op takes 4 passes */
  assert_int_equal(slope(&c, INDEP_VADD, 32), 4);   /* the vALU is busy 4 cycles */
  assert_int_equal(slope(&c, CHAIN_VADD, 32), 5 + 3); /* the last pass ends 3 cycles later */
  assert_int_equal(slope(&c, INDEP_ADD, 32), 1);    /* scalar ops do not fold */
}

/* Writeback arbitration, with collector_cycles 1: mul t0 (x5: bank 1)
 * issues at 0, its result due at 6; addi R, x3 issues at 1, due at 6 too.
 * R = s1 (x9) is also in bank 1: its write waits for the port (7), and the
 * addi reading it issues at 7, endprg at 8, done at 13. R = a0 (x10, bank
 * 2) is written at 6: 12 cycles. */
static uint64_t two_writes(uint32_t r, vt_sm_timing *m) {
  static prog p;
  p.n = 0;
  E(&p, mul, T0, 1, 2);
  E(&p, addi, r, 3, 1);
  E(&p, addi, T2, r, 0);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1;
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  return timed(&c, &p, &l, m);
}

static void test_writeback_arbitration(void **state) {
  (void)state;
  vt_sm_timing m;
  assert_int_equal(two_writes(S1, &m), 13);
  assert_int_equal(m.rf_write_conflicts, 1);
  assert_int_equal(two_writes(A0, &m), 12);
  assert_int_equal(m.rf_write_conflicts, 0);
}

/* The SFU has fewer units than lanes (num_sfu, 0 = a quarter of the
 * lanes): a vector divide of 32 threads keeps it busy ceil(32 / num_sfu)
 * cycles, so one warp's independent divides are that far apart (at least
 * the collector's 4); a dependent chain takes lat_sfu (26, measured with 8
 * SFUs), plus the lane folding's extra passes on fewer lanes. */
static void test_sfu_units_and_folding(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c); /* 32 lanes, 8 SFUs */
  assert_int_equal(slope(&c, CHAIN_VDIV, 32), 26);
  assert_int_equal(slope(&c, INDEP_VDIV, 32), 4);
  c.num_sfu = 2;
  assert_int_equal(slope(&c, INDEP_VDIV, 32), 16);
  c.num_sfu = 1;
  assert_int_equal(slope(&c, INDEP_VDIV, 32), 32);
  c.num_sfu = 0;
  c.num_lanes = 8; /* 2 SFUs, and 4 passes over the lanes */
  assert_int_equal(slope(&c, INDEP_VDIV, 32), 16);
  assert_int_equal(slope(&c, CHAIN_VDIV, 32), 26 + 3);
}

/* Two source operands in one register bank are read one after the other:
 * the instruction dispatches a cycle later, so a dependent chain is one
 * cycle slower per instruction, and independent ones hold the collector a
 * cycle longer. With 8 banks the same registers do not conflict. */
static void test_register_bank_conflicts(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  assert_int_equal(slope(&c, CHAIN_ADD_CONFLICT, 32), 5 + 1);
  assert_int_equal(slope(&c, CHAIN_VADD_CONFLICT, 32), 5 + 1);
  assert_int_equal(slope(&c, INDEP_ADD_CONFLICT, 32), 4 + 1);
  c.rf_banks = 8; /* x5/x9, v1/v5 and x6/x26 now in different banks */
  assert_int_equal(slope(&c, CHAIN_ADD_CONFLICT, 32), 5);
  assert_int_equal(slope(&c, CHAIN_VADD_CONFLICT, 32), 5);
  assert_int_equal(slope(&c, INDEP_ADD_CONFLICT, 32), 4);
}

/* addi t0 (cycle 0); addi t1,t0 waits for t0 (issues at 5); addi t2 is
 * independent but waits for the warp's collector unit (5 + 4 = 9); endprg
 * (no register operands: its collector holds the addi 4 cycles) at 13,
 * done at 13 + 5 = 18. Cycles 1-4 are scoreboard stalls, 6-8 and 10-12
 * structural (the collector), 14-17 the drain. */
static void test_scoreboard_stall(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  E(&p, addi, T0, 0, 1);
  E(&p, addi, T1, T0, 1);
  E(&p, addi, T2, 0, 2);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  vt_sm_timing m;
  assert_int_equal(timed(&c, &p, &l, &m), 18);
  assert_int_equal(m.issued, 4);
  assert_int_equal(m.stall[VT_STALL_SCOREBOARD], 4);
  assert_int_equal(m.stall[VT_STALL_STRUCTURAL], 6);
  assert_int_equal(m.stall[VT_STALL_IDLE], 4);
  assert_int_equal(m.cycles, 18);
}

/* A load's consumer waits for memory, an ALU result's for the scoreboard:
 * lui t1 (cycle 0); addi t1 waits for it (issues at 5); lw t0 waits for
 * t1 (at 10) and misses the cold L1 and L2: its data comes lat_lsu_l1_hit
 * + lat_l2 + lat_dram cycles later, at D; addi t2 waits for it from cycle
 * 11 (memory, not scoreboard) and issues at D; endprg waits for its
 * collector (D + 4), done at D + 4 + lat_alu. Under two DRAM latencies. */
static void test_memory_stall(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  emit_li(&p, T1, DATA_BASE);
  E(&p, lw, T0, 0, T1);
  E(&p, addi, T2, T0, 1);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  for (int k = 0; k < 2; k++) {
    if (k) c.lat_dram *= 2;
    vt_launch l = mklaunch(1, 1, 1, 32, 1);
    vt_sm_timing m;
    uint64_t d = 10 + c.lat_lsu_l1_hit + c.lat_l2 + c.lat_dram;
    assert_int_equal(timed(&c, &p, &l, &m), d + 4 + c.lat_alu);
    assert_int_equal(m.issued, 5);
    assert_int_equal(m.stall[VT_STALL_SCOREBOARD], 8);
    assert_int_equal(m.stall[VT_STALL_MEMORY], d - 11);
    assert_int_equal(m.stall[VT_STALL_STRUCTURAL], 3);
  }
}

/* Two warps: warp 1 branches straight to the barrier, warp 0 first runs K
 * dependent adds. Cycle by cycle: csrrs wid at 0 (w0) and 1 (w1); bne at 5
 * (w0, falls through) and 6 (w1, taken: fetch resumes at 6+1+3 = 10);
 * w0's adds at 9 (its collector: 5 + 4), 14, ..., 9+5(K-1); w1 arrives at
 * the barrier at 10 and waits from 11; w0 arrives at 5K+8 (collector) and
 * releases it; w1 re-checks at 5K+9, w0 ends at 5K+10 (a barrier holds the
 * collector 2 cycles), w1 at 5K+11, done 5 cycles later. */
static void test_barrier_wait(void **state) {
  (void)state;
  enum { K = 10 };
  static prog p;
  p.n = 0;
  E(&p, csrrs, T0, CSR_WID, 0);
  E(&p, bne, T0, 0, (K + 1) * 4);
  for (int i = 0; i < K; i++) E(&p, addi, T1, T1, 1);
  E(&p, barrier, 0, 0, 0);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  vt_launch l = mklaunch(1, 1, 1, 32, 2);
  vt_sm_timing m;
  assert_int_equal(timed(&c, &p, &l, &m), 5 * K + 16);
  assert_int_equal(m.barrier_wait, (5 * K + 9) - 11);
  assert_int_equal(m.issued, 2 * (K + 4) - K + 1); /* w1 skips the adds; its barrier issues twice */
  assert_int_equal(m.stall[VT_STALL_CONTROL], 0); /* w0 had work in w1's bubble */
}

/* A kernel with a barrier, local and global memory, run by many groups on
 * two SMs: the same memory in both modes. Each thread writes its global id
 * to local memory, and after the barrier reads its mirror's value. */
static void build_mirror(prog *p) {
  p->n = 0;
  E(p, csrrs, T2, CSR_TID, 0);
  E(p, vid_v, 1, 1);
  E(p, vadd_vx, 1, 1, T2, 1);
  E(p, vsll_vi, 2, 1, 2, 1);
  E(p, csrrs, T0, CSR_LDS, 0);
  E(p, vadd_vx, 2, 2, T0, 1);
  E(p, csrrs, T1, CSR_WGID, 0);
  E(p, vadd_vx, 6, 1, T1, 1);
  E(p, vsw12_v, 6, 0, 2);
  E(p, barrier, 0, 0, 0);
  emit_li(p, T0, 4 * 32 - 1);
  E(p, vrsub_vx, 3, 1, T0, 1);
  E(p, vsll_vi, 3, 3, 2, 1);
  E(p, csrrs, T0, CSR_LDS, 0);
  E(p, vadd_vx, 3, 3, T0, 1);
  E(p, vlw12_v, 4, 0, 3);
  emit_lane_addr(p, 5, 0);
  E(p, vsw12_v, 4, 0, 5);
  E0(p, endprg);
}

static void test_same_memory_as_functional(void **state) {
  (void)state;
  static prog p;
  build_mirror(&p);
  vt_config c;
  vt_config_defaults(&c);
  vt_launch l = mklaunch(6, 1, 1, 32, 4);
  static uint32_t mem[2][6 * 4 * 32];
  for (int mode = 0; mode < 2; mode++) {
    vt_device *d = mkdev(&c);
    vt_error e;
    vt_timing *t = mode ? vt_timing_attach(d, &e) : NULL;
    assert_int_equal(run(d, &p, &l, &e), 0);
    assert_int_equal(vt_mem_read(d, DATA_BASE, mem[mode], sizeof mem[mode], &e), 0);
    if (mode) assert_true(vt_timing_get_stats(t)->cycles > 0);
    vt_timing_free(t);
    vt_device_destroy(d);
  }
  /* thread i of group g holds the mirror's value: (127 - i) + g */
  for (uint32_t g = 0; g < 6; g++)
    for (uint32_t i = 0; i < 128; i++) assert_int_equal(mem[0][g * 128 + i], 127 - i + g);
  assert_memory_equal(mem[0], mem[1], sizeof mem[0]);
}

/* With barrier_counts_ended = 0 a warp that ends before a barrier leaves
 * the others waiting for ever: the timing loop reports the core's deadlock
 * (no warp can ever issue), and the device runs the next launch. */
static void test_barrier_deadlock(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  E(&p, csrrs, T0, CSR_WID, 0);
  E(&p, bne, T0, 0, 8); /* warp 1 skips the barrier */
  E(&p, barrier, 0, 0, 0);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.barrier_counts_ended = 0;
  vt_device *d = mkdev(&c);
  vt_error e;
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  vt_launch l = mklaunch(1, 1, 1, 8, 2);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_DEADLOCK);
  assert_non_null(strstr(e.msg, "work-group 0 warps 0 wait, warps 1 ended"));
  l.num_warps = 1; /* a group of one warp passes its barrier */
  assert_int_equal(run(d, &p, &l, &e), 0);
  assert_int_equal(vt_timing_get_stats(t)->launches, 1);
  vt_timing_free(t);
  vt_device_destroy(d);
}

/* The native API: config key timing = 1 runs launches under the model,
 * with the same results (hk_cy_vecadd checks every element) and the timing
 * statistics in cy_print_stats. */
static void test_native_api_timing_key(void **state) {
  (void)state;
  char elf[600], why[512], err[256];
  build_example_kernel("vecadd", elf, sizeof elf);
  cy_device *d = cy_create(NULL, (const char *[]){"timing=1"}, 1, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  if (hk_cy_vecadd(d, elf, 300, 32, 5, why, sizeof why)) fail_msg("vecadd: %s", why);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  assert_non_null(f);
  cy_print_stats(d, f, 0);
  fclose(f);
  assert_non_null(strstr(text, "\ntimed_launches = 1\n"));
  assert_null(strstr(text, "\ncycles = 0\n"));
  free(text);
  cy_destroy(d);
  unlink(elf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dependent_chains),
      cmocka_unit_test(test_chains_with_modelled_front_end),
      cmocka_unit_test(test_independent_and_folding),
      cmocka_unit_test(test_register_bank_conflicts),
      cmocka_unit_test(test_sfu_units_and_folding),
      cmocka_unit_test(test_writeback_arbitration),
      cmocka_unit_test(test_scoreboard_stall),
      cmocka_unit_test(test_memory_stall),
      cmocka_unit_test(test_barrier_wait),
      cmocka_unit_test(test_same_memory_as_functional),
      cmocka_unit_test(test_native_api_timing_key),
      cmocka_unit_test(test_barrier_deadlock),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
