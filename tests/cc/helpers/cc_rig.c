#include "cc_rig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

extern char **environ;

int cc_rig_compile(const char *name, char *elf, size_t len) {
  char src[512];
  snprintf(src, sizeof src, "%s/tests/cc/kernels/%s.cl", VT_SOURCE_DIR, name);
  snprintf(elf, len, "%s/cc-tests-%s.elf", VT_BINARY_DIR, name);
  char *argv[] = {(char *)VT_VENTUS_BIN, "cc", "-o", elf, src, NULL};
  pid_t pid;
  int st = -1;
  if (posix_spawn(&pid, VT_VENTUS_BIN, NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0) st = -1;
  int rc = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (rc == 4 && system("command -v clang-19 >/dev/null 2>&1")) { /* clang-19 missing: ventus cc says so */
    printf("SKIP: ventus cc cannot run clang-19 here\n");
    exit(0);
  }
  if (rc) {
    fprintf(stderr, "ventus cc failed on %s.cl (status %d)\n", name, rc);
    return -1;
  }
  return 0;
}

int cc_rig_have_libclc(void) { return !access("/usr/lib/clc/nvptx--.bc", R_OK) || getenv("CHENGYING_LIBCLC"); }

uint32_t cc_dev_buf(cy_device *d, const void *data, size_t bytes) {
  uint32_t a;
  size_t n = bytes ? bytes : 4;
  assert_int_equal(cy_alloc(d, n, &a), 0);
  void *z = data ? NULL : calloc(1, n);
  assert_true(data || z);
  assert_int_equal(cy_write(d, a, data ? data : z, (uint32_t)bytes), 0);
  free(z);
  return a;
}

void cc_get(cy_device *d, uint32_t a, void *dst, size_t bytes) { assert_int_equal(cy_read(d, a, dst, (uint32_t)bytes), 0); }

void cc_same_words(const void *got, const void *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++) {
    uint32_t g, w;
    memcpy(&g, (const char *)got + 4 * i, 4);
    memcpy(&w, (const char *)want + 4 * i, 4);
    if (g != w) fail_msg("%s: word %zu is 0x%08x, expected 0x%08x", what, i, g, w);
  }
}
