/* vt_read_file on what is not a regular file (audit F6/F8): a device whose
 * reads never end (/dev/zero) and a directory are refused at once with a
 * message saying what they are; a file over the 1 GiB input limit (sparse,
 * so the test writes nothing) is refused before being read; a FIFO is read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "vt_file.h"

static void device_and_directory(void **state) {
  (void)state;
  vt_error e;
  size_t n;
  assert_null(vt_read_file("/dev/zero", &n, &e));
  assert_int_equal(e.kind, VT_ERR_IO);
  assert_string_equal(e.msg, "/dev/zero: not a regular file (a device or socket)");
  assert_null(vt_read_file("/tmp", &n, &e));
  assert_string_equal(e.msg, "/tmp: is a directory");
}

static void over_the_limit(void **state) {
  (void)state;
  char path[] = "/tmp/vt_bigXXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(ftruncate(fd, (off_t)VT_READ_MAX + 1), 0);
  close(fd);
  vt_error e;
  char *buf = vt_read_file(path, NULL, &e);
  unlink(path);
  assert_null(buf);
  assert_non_null(strstr(e.msg, "larger than the 1024 MiB input limit"));
}

static void fifo_is_read(void **state) {
  (void)state;
  char dir[] = "/tmp/vt_fifoXXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[64];
  snprintf(path, sizeof path, "%s/f", dir);
  assert_int_equal(mkfifo(path, 0600), 0);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    FILE *f = fopen(path, "w");
    if (f) fputs("hello\n", f), fclose(f);
    _exit(0);
  }
  vt_error e;
  size_t n = 0;
  char *buf = vt_read_file(path, &n, &e);
  waitpid(pid, NULL, 0);
  unlink(path);
  rmdir(dir);
  assert_non_null(buf);
  assert_int_equal(n, 6);
  assert_string_equal(buf, "hello\n");
  free(buf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(device_and_directory),
      cmocka_unit_test(over_the_limit),
      cmocka_unit_test(fifo_is_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
