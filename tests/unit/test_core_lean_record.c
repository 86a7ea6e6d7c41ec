/* The commit record a stepping caller gets without a trace sink (the
 * timing model's lean record): a unit-stride word access is one span
 * (unit_lo, unit_n) instead of a lane list, a strided one lists its lanes,
 * and with a trace sink every lane is listed as the commit log needs; a
 * span followed by another access of the instruction is listed lane by
 * lane first (trace_unit_spill). */
#include "core.h"
#include "test_core_prog.h"

/* 8 lanes: a unit-stride load from DATA_BASE + 0x40, a unit-stride store
 * of it to DATA_BASE + 0x200, and a load with a stride of 8 bytes. */
static void build(prog *p) {
  p->n = 0;
  emit_li(p, T0, DATA_BASE + 0x40);
  E(p, vid_v, 1, 1);
  E(p, vsll_vi, 5, 1, 2, 1);
  E(p, vadd_vx, 5, 5, T0, 1);
  E(p, vlw12_v, 4, 0, 5);
  E(p, vsw12_v, 4, 0x1c0, 5);
  E(p, vsll_vi, 6, 1, 3, 1);
  E(p, vadd_vx, 6, 6, T0, 1);
  E(p, vlw12_v, 7, 0, 6);
  E0(p, endprg);
}

typedef struct {
  int n;
  vt_commit c[16];
} seen;

static void keep(void *user, const vt_commit *c) {
  seen *s = user;
  if (s->n < 16) s->c[s->n++] = *c;
}

/* Steps the one warp to its end; rec[i]: the record of its i-th step. */
static int step_all(vt_device *d, vt_commit *rec, int max) {
  vt_error e;
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  assert_int_equal(vt_step_begin(d, &l, &e), 0);
  int n = 0;
  for (;;) {
    const vt_commit *c;
    int rc = vt_step_exec(d, 0, 0, &c, &e);
    assert_true(rc >= 0);
    if (n < max) rec[n++] = *c;
    if (rc == 1) break;
  }
  int done = 0;
  assert_int_equal(vt_step_retire(d, &done, &e), 0);
  assert_int_equal(done, 1);
  return n;
}

static void test_lean_and_full(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  prog p;
  build(&p);
  vt_device *d = mkdev(&c);
  vt_error e;
  assert_int_equal(vt_mem_write(d, CODE_BASE, p.w, (uint32_t)p.n * 4, &e), 0);
  vt_commit rec[16];
  int n = step_all(d, rec, 16);
  int load = 0, store = 0, strided = 0;
  /* the steps: li (1 or 2), vid, vsll, vadd, vlw, vsw, vsll, vadd, vlw, endprg */
  for (int i = 0; i < n; i++) {
    if (rec[i].unit_n && !rec[i].unit_store) load = i;
    if (rec[i].unit_n && rec[i].unit_store) store = i;
    if (rec[i].nmem) strided = i;
  }
  assert_true(load && store == load + 1 && strided == store + 3);
  assert_int_equal(rec[load].unit_lo, DATA_BASE + 0x40);
  assert_int_equal(rec[load].unit_n, 8);
  assert_int_equal(rec[load].nmem, 0);
  assert_int_equal(rec[store].unit_lo, DATA_BASE + 0x200);
  assert_int_equal(rec[store].unit_n, 8);
  assert_int_equal(rec[strided].unit_n, 0);
  assert_int_equal(rec[strided].nmem, 8);
  for (int k = 0; k < 8; k++) assert_int_equal(rec[strided].mem[k].addr, DATA_BASE + 0x40 + 8 * k);

  /* with a trace sink: every lane listed, no span */
  seen s = {0};
  vt_device_set_trace(d, keep, &s);
  n = step_all(d, rec, 16);
  assert_int_equal(s.n, n); /* the sink saw each step */
  assert_int_equal(rec[load].unit_n, 0);
  assert_int_equal(rec[load].nmem, 8);
  assert_int_equal(rec[store].unit_n, 0);
  assert_int_equal(rec[store].nmem, 8);
  for (int k = 0; k < 8; k++) {
    assert_int_equal(rec[load].mem[k].addr, DATA_BASE + 0x40 + 4 * k);
    assert_int_equal(rec[store].mem[k].addr, DATA_BASE + 0x200 + 4 * k);
    assert_int_equal(rec[store].mem[k].store, 1);
  }
  vt_device_destroy(d);
}

static void test_spill(void **state) {
  (void)state;
  vt_commit c;
  memset(&c, 0, sizeof c);
  c.unit_lo = 0x1000;
  c.unit_n = 3;
  c.unit_store = 1;
  trace_unit_spill(&c);
  assert_int_equal(c.unit_n, 0);
  assert_int_equal(c.nmem, 3);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(c.mem[k].addr, 0x1000 + 4 * k);
    assert_int_equal(c.mem[k].size, 4);
    assert_int_equal(c.mem[k].store, 1);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lean_and_full),
      cmocka_unit_test(test_spill),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
