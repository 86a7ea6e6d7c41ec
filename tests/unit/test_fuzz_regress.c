/* Defects found by the fuzz targets of fuzz/, each checked for its exact
 * outcome (fuzz/regress/ keeps the inputs; the fuzz_replay_* tests replay
 * them through the harnesses). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "trace_diff.h"
#include "vt_error.h"

#define REGRESS VT_SOURCE_DIR "/fuzz/regress"

/* trace-diff of a regression log against itself: a format error whose
 * message is "<log>:2: " followed by `msg` */
static void expect_format_error(const char *name, const char *msg) {
  char log[512], want[1024];
  snprintf(log, sizeof log, "%s/trace/%s", REGRESS, name);
  vt_tdiff_opts o = {.quiet = 1};
  vt_tdiff_result r = {0};
  vt_error e = {0};
  assert_int_equal(vt_trace_diff_files(log, log, &o, NULL, &r, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  snprintf(want, sizeof want, "%s:2: %s", log, msg);
  assert_string_equal(e.msg, want);
}

/* fuzz_trace: a commit line writing x29 twice made trace-diff pair the
 * first write of one side with the second of the other, so the log
 * differed from itself. The ISS logs a register once per commit: a repeat
 * is a format error at that line. */
static void test_trace_register_written_twice(void **state) {
  (void)state;
  expect_format_error("register-written-twice.log",
                      "register written twice: 'core1:3 0x808(2000e93)x29 00x29 2'");
}

/* fuzz_trace (UBSan: index 32 out of bounds): a vector write of one
 * element (vl 0) followed by the header 'e2 m l80' made the parser copy
 * 80 elements from its 32-element buffer. The ISS prints the header
 * before the write, so a header after it is a format error. */
static void test_trace_vector_header_after_write(void **state) {
  (void)state;
  expect_format_error("vector-header-after-write.log",
                      "vector header after the vector write: 'core0:3 0x800000c8(5e004057)v0f 0 e2 m l80'");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_trace_register_written_twice),
      cmocka_unit_test(test_trace_vector_header_after_write),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
