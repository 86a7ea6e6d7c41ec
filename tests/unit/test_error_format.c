/* vt_err_format: the one line every tool prints. Quoted input with control
 * characters (a newline, an escape sequence, a bell) is shown as \xNN, so
 * the message stays one line and cannot drive the terminal; other text,
 * UTF-8 file names included, is unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "vt_error.h"

static void control_characters_escaped(void **state) {
  (void)state;
  vt_error e;
  char buf[600];
  vt_fail(&e, VT_ERR_FORMAT, "x.log:2: got '%s'", "\x1b[31mred\x07\nnext\x7f");
  vt_err_format(&e, buf, sizeof buf);
  assert_string_equal(buf, "format error: x.log:2: got '\\x1b[31mred\\x07\\x0anext\\x7f'");
  vt_fail(&e, VT_ERR_IO, "%s: No such file or directory", "乘影.elf");
  vt_err_format(&e, buf, sizeof buf);
  assert_string_equal(buf, "I/O error: 乘影.elf: No such file or directory");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(control_characters_escaped)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
