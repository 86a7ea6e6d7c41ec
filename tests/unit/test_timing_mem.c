/* The timing model's memory system and front end on hand-computed
 * sequences: L2 hits, misses, merges of a line in flight, an LRU victim
 * written back when dirty, the end-of-launch flush, the crossbar's one
 * request per bank and cycle, a full MSHR file, L2 set blocking; and the
 * fetch of a straight-line program through an I-cache of 8-byte lines,
 * with and without the RTL's request of the next line on a miss. */
#include "host_kernels.h"
#include "memsys.h"
#include "test_core_prog.h"
#include "timing.h"

/* 2 sets x 2 ways x 8 B, 1 bank, L2 hit 4 cycles, DRAM 10 cycles and one
 * line per cycle (8 B at 8 B/cycle). Addresses: set = (addr >> 3) & 1. */
static void mk(vt_memsys *m, uint32_t mshrs, uint32_t set_blocking) {
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  c.l2_sets = 2;
  c.l2_ways = 2;
  c.l2_line = 8;
  c.l2_mshrs = mshrs;
  c.l2_set_blocking = set_blocking;
  c.lat_l2 = 4;
  c.lat_dram = 10;
  c.dram_bytes_per_cycle = 8;
  vt_error e;
  assert_int_equal(ms_init(m, &c, &e), 0);
  ms_begin(m);
}

static void test_l2_sequence(void **state) {
  (void)state;
  vt_memsys m;
  mk(&m, 4, 0);
  assert_int_equal(ms_access(&m, 0, 0x0, 0), 14);  /* miss: DRAM 0..10, +4 */
  assert_int_equal(ms_access(&m, 1, 0x4, 0), 14);  /* same line in flight: merges */
  assert_int_equal(ms_access(&m, 2, 0x8, 0), 16);  /* set 1 miss: DRAM 2..12 */
  assert_int_equal(ms_access(&m, 20, 0x0, 1), 24); /* store hit: line 0 dirty */
  assert_int_equal(ms_access(&m, 21, 0x10, 0), 35); /* set 0, second way */
  /* set 0 full: the LRU way (line 0x0, dirty, last used at 20) is written back */
  assert_int_equal(ms_access(&m, 40, 0x20, 0), 54);
  assert_int_equal(m.st.l2_misses, 4);
  assert_int_equal(m.st.l2_merges, 1);
  assert_int_equal(m.st.l2_hits, 1);
  assert_int_equal(m.st.l2_writebacks, 1);
  assert_int_equal(m.st.dram_reads, 4);
  assert_int_equal(ms_flush(&m, 60), 60);          /* nothing dirty */
  assert_int_equal(ms_access(&m, 61, 0x8, 1), 65); /* store hit: line 0x8 dirty */
  assert_int_equal(ms_flush(&m, 70), 80);          /* one write-back, DRAM 70..80 */
  assert_int_equal(ms_flush(&m, 90), 90);          /* clean now */
  assert_int_equal(m.st.dram_writes, 2);
  /* two requests to the one bank in one cycle: the second waits a cycle */
  assert_int_equal(ms_access(&m, 100, 0x8, 0), 104);
  assert_int_equal(ms_access(&m, 100, 0x8, 0), 105);
  assert_int_equal(m.st.xbar_waits, 1);
  ms_free(&m);
}

static void test_l2_mshrs_and_set_blocking(void **state) {
  (void)state;
  vt_memsys m;
  mk(&m, 1, 0); /* one MSHR: the second miss waits for the first fill */
  assert_int_equal(ms_access(&m, 0, 0x0, 0), 14);
  assert_int_equal(ms_access(&m, 0, 0x8, 0), 24); /* bank at 1, MSHR free at 10, DRAM 10..20 */
  ms_free(&m);
  mk(&m, 4, 1); /* set blocking: a hit waits behind its set's miss, the other set does not */
  assert_int_equal(ms_access(&m, 0, 0x0, 0), 14);
  assert_int_equal(ms_access(&m, 1, 0x10, 0), 24); /* set 0 busy until 10; DRAM 10..20 */
  /* set 1 is free, but requests take the DRAM channel in the order they are
   * made: the one made before holds it at 10, so this one starts at 11 */
  assert_int_equal(ms_access(&m, 2, 0x8, 0), 25);
  assert_int_equal(m.st.set_waits, 9);
  ms_free(&m);
}

/* One warp, four independent adds and endprg from 0x80000000 through an
 * I-cache of 8-byte lines (two instructions), two fetched at a time into a
 * 2-deep ibuffer, 3 cycles from fetch to issue; every line misses in L1 and
 * L2 and returns after D + L = 15 + 8 = 23 cycles. Line 0 is requested at
 * 0 and fetched at 23 (adds 0 and 1 issue at 26, 27); fetch of line 1
 * starts when add 0 frees a slot (26): back at 49, adds 2 and 3 issue at 52
 * and 53; line 2 (endprg) is requested at 52, back at 75, issues at 78 and
 * completes 5 cycles later: 83 cycles. */
/* The fetch program's cycles and SM 0's statistics under c: one warp of
 * 32 threads. */
typedef struct {
  uint64_t cycles;
  vt_sm_timing sm0;
} fetch_stats;

static fetch_stats fetch_run(const vt_config *c, const prog *p) {
  vt_device *d = mkdev(c);
  vt_error e;
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  assert_int_equal(run(d, p, &l, &e), 0);
  const vt_timing_stats *ts = vt_timing_get_stats(t);
  fetch_stats st = {ts->cycles, ts->sm[0]};
  vt_timing_free(t);
  vt_device_destroy(d);
  return st;
}

static void test_fetch_misses(void **state) {
  (void)state;
  static prog p;
  p.n = 0;
  for (int i = 0; i < 4; i++) E(&p, addi, 10 + i, 0, i);
  E0(&p, endprg);
  vt_config c;
  vt_config_defaults(&c);
  c.collector_cycles = 1; /* the memory path alone: no per-warp collector interval */
  c.l1i_sets = 32;
  c.l1i_ways = 2;
  c.l1i_line = 8;
  c.l2_sets = 2;
  c.l2_ways = 4;
  c.l2_line = 8;
  c.lat_l2 = 8;
  c.lat_dram = 15;
  fetch_stats st = fetch_run(&c, &p);
  assert_int_equal(st.cycles, 83);
  assert_int_equal(st.sm0.issued, 5);
  assert_int_equal(st.sm0.l1i_misses, 3);
  assert_int_equal(st.sm0.l1i_hits, 3);
  assert_int_equal(st.sm0.stall[VT_STALL_FETCH], 83 - 5 - 4); /* the last 4: the drain */
  /* one fetch per 4 cycles: line 0 is fetched at 23 (the port was taken at
   * 0), line 1 requested at 27 instead of 26 (back at 50, issues at 53 and
   * 54), line 2 requested at 54, fetched at 77, endprg issues at 80: 85 */
  c.fetch_interval = 4;
  assert_int_equal(fetch_run(&c, &p).cycles, 85);
  /* fetch_policy 1 (fixed priority, replay): the warp asks again every
   * cycle while its line is in flight (1..22), and while its fetched pair
   * has not arrived (24, 25: the ibuffer counts only arrived entries, the
   * response finds it full and is replayed). It needs room for a whole
   * pair, so line 1 is requested when add 1 issues (27), back at 50
   * (replays 28..49, 51, 52), adds 2 and 3 at 53 and 54, line 2 requested
   * at 54, fetched at 77 (replays 55..76; none after endprg is fetched),
   * endprg at 80: 85 cycles, 22 + 2 + 22 + 2 + 22 replays */
  c.fetch_interval = 1;
  c.fetch_policy = 1;
  st = fetch_run(&c, &p);
  assert_int_equal(st.cycles, 85);
  assert_int_equal(st.sm0.fetch_replays, 70);
  assert_int_equal(st.sm0.l1i_misses, 3);
  assert_int_equal(st.sm0.l1i_hits, 3);
  /* ... with fetch_miss_next: the first replay after a miss also requests
   * the next line. Line 0 at 0 (back at 23) brings line 1 at 1 (back at
   * 24); adds 0 and 1 issue at 26 and 27, and line 1 is fetched at 27, a
   * hit (ready at 30): adds 2 and 3 at 30 and 31; line 2 requested at 31
   * (back at 54) brings line 3, past the program, at 32; endprg fetched
   * at 54 issues at 57: 62 cycles, 4 misses, 3 hits, replays 1..22, 24,
   * 25, 28, 29, 32..53 */
  c.fetch_miss_next = 1;
  st = fetch_run(&c, &p);
  assert_int_equal(st.cycles, 62);
  assert_int_equal(st.sm0.fetch_replays, 48);
  assert_int_equal(st.sm0.l1i_misses, 4);
  assert_int_equal(st.sm0.l1i_hits, 3);
  /* fetch_miss_next 2: the replays at 1 and 2 request lines 1 and 2
   * (back at 24 and 25); adds 0..3 issue at 26, 27, 30, 31 as above and
   * endprg, fetched at 31 (a hit), at 34: 39 cycles, 3 misses and 3 hits,
   * replays 1..22, 24, 25, 28, 29 */
  c.fetch_miss_next = 2;
  st = fetch_run(&c, &p);
  assert_int_equal(st.cycles, 39);
  assert_int_equal(st.sm0.fetch_replays, 26);
  assert_int_equal(st.sm0.l1i_misses, 3);
  assert_int_equal(st.sm0.l1i_hits, 3);
  c.fetch_miss_next = 1;
  /* with one I-cache MSHR, held by the awaited line, the next line is never
   * requested early: the same 85 cycles and 3 misses as without */
  c.l1i_mshrs = 1;
  st = fetch_run(&c, &p);
  assert_int_equal(st.cycles, 85);
  assert_int_equal(st.sm0.l1i_misses, 3);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_l2_sequence),
      cmocka_unit_test(test_l2_mshrs_and_set_blocking),
      cmocka_unit_test(test_fetch_misses),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
