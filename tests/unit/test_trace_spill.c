/* The trace writer's bound on held lines (audit F6, R71): while work-group
 * 0 runs, the lines of the groups after it are held; past the hold limit
 * they move to a temporary file. The log must be byte for byte the one
 * written without spilling, and the spill must really have happened; on
 * every corpus case too. */
#include "corpus_cases.h"
#include "test_core_more.h"
#include "testvec.h"
#include "trace_fmt.h"

/* 4 groups of one warp: group 0 loops 3000 times, the others 200 times, so
 * groups 1..3 finish first and their lines are held while group 0 runs. */
static const char prog_src[] =
    "  csrr t0, 0x804\n"
    "  li t1, 200\n"
    "  bnez t0, loop\n"
    "  li t1, 3000\n"
    "loop:\n"
    "  addi t1, t1, -1\n"
    "  bnez t1, loop\n"
    "  endprg x0, x0, x0\n";

/* runs the program with a trace; the log in *buf (malloc'ed), its spill count */
static size_t traced_run(size_t hold_limit, char **buf, uint64_t *spilled) {
  vt_config c;
  vt_config_defaults(&c);
  vt_device *d = mkdev(&c);
  load_asm(d, prog_src);
  size_t len = 0;
  FILE *f = open_memstream(buf, &len);
  assert_non_null(f);
  vt_trace_writer *w = vt_trace_writer_new(f);
  assert_non_null(w);
  if (hold_limit) vt_trace_writer_set_hold_limit(w, hold_limit);
  vt_launch l = mklaunch(4, 1, 1, 4, 1);
  vt_trace_writer_begin(w, d, &l);
  launch_ok(d, &l);
  assert_int_equal(vt_trace_writer_end(w, d), 0);
  *spilled = vt_trace_writer_spilled(w);
  vt_trace_writer_free(w);
  fclose(f);
  vt_device_destroy(d);
  return len;
}

static void spilled_log_is_identical(void **state) {
  (void)state;
  char *plain, *spilt;
  uint64_t s0, s1;
  size_t n0 = traced_run(0, &plain, &s0);
  size_t n1 = traced_run(1024, &spilt, &s1);
  assert_int_equal(s0, 0);
  assert_true(s1 > 0);
  assert_int_equal(n0, n1);
  assert_memory_equal(plain, spilt, n0);
  /* every group ended: endprg's disassembly and commit line, 4 times */
  int ends = 0;
  for (const char *p = plain; (p = strstr(p, "(0x0000400b)")); p++) ends++;
  assert_int_equal(ends, 8);
  free(plain);
  free(spilt);
}

typedef struct {
  vt_trace_writer *w;
  vt_device *d;
  size_t limit;
  uint64_t spilled;
} corpus_ctx;

static int begin(void *user, size_t i, const vt_launch *l, vt_error *e) {
  (void)i, (void)e;
  corpus_ctx *c = user;
  vt_trace_writer_begin(c->w, c->d, l);
  return 0;
}

static int end(void *user, size_t i, const vt_launch *l, vt_error *e) {
  (void)i, (void)l;
  corpus_ctx *c = user;
  return vt_trace_writer_end(c->w, c->d) ? vt_fail(e, VT_ERR_IO, "trace write failed") : 0;
}

/* every launch of case cc traced into one log (*buf), hold limit `limit` */
static size_t corpus_log(const corpus_case *cc, size_t limit, char **buf, uint64_t *spilled) {
  vt_error e;
  vt_device *d = corpus_device(cc);
  vt_case cs;
  if (vt_case_open(cc->path, &cs, &e)) fail_msg("%s: %s", cc->name, e.msg);
  size_t len = 0;
  FILE *f = open_memstream(buf, &len);
  corpus_ctx c = {vt_trace_writer_new(f), d, limit, 0};
  assert_non_null(c.w);
  if (limit) vt_trace_writer_set_hold_limit(c.w, limit);
  for (size_t i = 0; i < cs.n; i++)
    if (vt_case_run(&cs, d, i, begin, end, &c, &e)) fail_msg("%s: %s", cc->name, e.msg);
  *spilled = vt_trace_writer_spilled(c.w);
  vt_trace_writer_free(c.w);
  fclose(f);
  vt_case_free(&cs);
  vt_device_destroy(d);
  return len;
}

static void corpus_case_identical(void **state) {
  const corpus_case *cc = *state;
  char *plain, *spilt;
  uint64_t s0, s1;
  size_t n0 = corpus_log(cc, 0, &plain, &s0);
  size_t n1 = corpus_log(cc, 256, &spilt, &s1);
  if (n0 != n1 || memcmp(plain, spilt, n0)) fail_msg("%s: the log differs when held lines spill", cc->name);
  print_message("%s: %zu bytes, %llu spilled\n", cc->name, n0, (unsigned long long)s1);
  free(plain);
  free(spilt);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(spilled_log_is_identical)};
  int r = cmocka_run_group_tests(tests, NULL, NULL);
  return r | corpus_run_group("trace_spill_corpus", corpus_case_identical);
}
