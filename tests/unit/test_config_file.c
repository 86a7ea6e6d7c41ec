/* Configuration files and values as bad input (audit F5/F6): whole lines
 * however long, NUL bytes, directories, signs and overflow, raw bytes in
 * messages; and a device of the largest configuration takes bounded memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "test_proc.h"

/* writes text to a new temporary file; its path in path[64] */
static void write_tmp(char *path, const char *text, size_t n) {
  snprintf(path, 64, "/tmp/vt_cfgXXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  assert_non_null(f);
  assert_int_equal(fwrite(text, 1, n, f), n);
  fclose(f);
}

/* loads text as a config file over the defaults: 0/-1, the error in e */
static int load_text(const char *text, size_t n, vt_config *c, vt_error *e) {
  char path[64];
  write_tmp(path, text, n);
  vt_config_defaults(c);
  int r = vt_config_load(c, path, e);
  unlink(path);
  return r;
}

static void long_comment_is_one_line(void **state) {
  (void)state;
  /* the audit's reproducer: '#', 510 x's, then "num_sm = 7" in the comment */
  char text[600];
  size_t n = 0;
  text[n++] = '#';
  for (int i = 0; i < 510; i++) text[n++] = 'x';
  n += (size_t)sprintf(text + n, "num_sm = 7\nwarps_per_sm = 5\n");
  vt_config c;
  vt_error e;
  assert_int_equal(load_text(text, n, &c, &e), 0);
  assert_int_equal(c.num_sm, 2); /* the default: a comment sets nothing */
  assert_int_equal(c.warps_per_sm, 5);
}

static void long_value_and_line_numbers(void **state) {
  (void)state;
  char *text = malloc(2000);
  size_t n = (size_t)sprintf(text, "num_sm = ");
  memset(text + n, ' ', 600), n += 600;
  n += (size_t)sprintf(text + n, "4\n#");
  memset(text + n, 'y', 900), n += 900;
  n += (size_t)sprintf(text + n, "\nbogus = 1\n");
  vt_config c;
  vt_error e;
  assert_int_equal(load_text(text, n, &c, &e), -1);
  assert_int_equal(c.num_sm, 4);
  assert_non_null(strstr(e.msg, ":3: unknown config key 'bogus'"));
  free(text);
}

static void overlong_line(void **state) {
  (void)state;
  char *text = malloc(10000);
  size_t n = (size_t)sprintf(text, "num_sm = 3\n#");
  memset(text + n, 'z', 5000), n += 5000;
  text[n++] = '\n';
  vt_config c;
  vt_error e;
  assert_int_equal(load_text(text, n, &c, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_non_null(strstr(e.msg, ":2: line longer than 4096 bytes"));
  free(text);
}

static void dev_zero_and_directory(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  vt_error e;
  assert_int_equal(vt_config_load(&c, "/dev/zero", &e), -1);
  assert_non_null(strstr(e.msg, "/dev/zero:1: NUL byte"));
  assert_int_equal(vt_config_load(&c, "/tmp", &e), -1);
  assert_int_equal(e.kind, VT_ERR_IO);
  assert_non_null(strstr(e.msg, "/tmp: is a directory"));
  static const char nul[] = "num_sm = 3\nwarps\0_per_sm = 4\n";
  assert_int_equal(load_text(nul, sizeof nul - 1, &c, &e), -1);
  assert_non_null(strstr(e.msg, ":2: NUL byte"));
}

static void values(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  vt_error e;
  assert_int_equal(vt_config_set(&c, "num_sm", "-1", &e), -1);
  assert_non_null(strstr(e.msg, "'-1' is not a non-negative integer"));
  assert_int_equal(vt_config_set(&c, "num_sm", "+1", &e), -1);
  assert_int_equal(vt_config_set(&c, "max_steps", "17179869184G", &e), -1);
  assert_non_null(strstr(e.msg, "out of range (at most 18446744073709551615)"));
  assert_int_equal(vt_config_set(&c, "max_steps", "99999999999999999999", &e), -1);
  assert_non_null(strstr(e.msg, "out of range"));
  assert_int_equal(vt_config_set(&c, "num_sm", "4294967296", &e), -1);
  assert_non_null(strstr(e.msg, "out of range (at most 4294967295)"));
  assert_int_equal(vt_config_set(&c, "max_steps", "16G", &e), 0);
  assert_int_equal(c.max_steps, 16ull << 30);
  assert_int_equal(vt_config_set(&c, "num_sm", "0x10", &e), 0);
  assert_int_equal(c.num_sm, 16);
}

static void raw_bytes_escaped(void **state) {
  (void)state;
  static const char text[] = "\xcf\xeb\x1b[2J = 1\n";
  vt_config c;
  vt_error e;
  assert_int_equal(load_text(text, sizeof text - 1, &c, &e), -1);
  assert_non_null(strstr(e.msg, "unknown config key '\\xcf\\xeb\\x1b[2J'"));
  for (const char *p = e.msg; *p; p++) assert_true(*p >= 0x20 && *p < 0x7f);
  assert_int_equal(vt_config_set(&c, "num_sm", "\x80\x81", &e), -1);
  assert_non_null(strstr(e.msg, "'\\x80\\x81'"));
}

/* The largest accepted configuration used to allocate every warp and
 * work-group slot at creation (about 8 GB for 1024 x 1024 warps). */
static void largest_device_is_small(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 1024;
  c.warps_per_sm = 1024;
  c.wg_slots_per_sm = 1024;
  c.simt_stack_depth = 65536;
  long before = test_rss_kib();
  vt_error e;
  vt_device *d = vt_device_create(&c, &e);
  if (!d) fail_msg("%s", e.msg);
  long grew = test_rss_kib() - before;
  vt_device_destroy(d);
  if (before < 0) skip();
  if (grew > 512 * 1024) fail_msg("creating the device took %ld MiB", grew / 1024);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(long_comment_is_one_line), cmocka_unit_test(long_value_and_line_numbers),
      cmocka_unit_test(overlong_line),            cmocka_unit_test(dev_zero_and_directory),
      cmocka_unit_test(values),                   cmocka_unit_test(raw_bytes_escaped),
      cmocka_unit_test(largest_device_is_small),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
