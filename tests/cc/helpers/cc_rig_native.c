/* The tests/cc rig's native back end: `ventus cc` to an ELF in the build
 * tree, a cy_device per test, cy_launch with the slots as they are.
 * CC_RIG_ISA=2025 compiles for and runs on an ISA revision 2025 device
 * (`ventus cc --isa 2025`, isa = 2025). */
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

#include "cc_rig_impl.h"

extern char **environ;

enum { MAXPROG = 16 };

/* the device of CC_RIG_ISA */
static cy_device *create(char *err, size_t len) {
  const char *isa = getenv("CC_RIG_ISA");
  const char *ov[] = {"isa=2025"};
  return cy_create(NULL, ov, isa && !strcmp(isa, "2025"), err, len);
}

typedef struct {
  cy_device *d;
  char elf[MAXPROG][512];
  int nprog;
} native;

static void *nat_open(void) {
  native *n = calloc(1, sizeof *n);
  char err[256];
  if (n && !(n->d = create(err, sizeof err))) {
    fprintf(stderr, "cy_create: %s\n", err);
    free(n);
    return NULL;
  }
  return n;
}

static void nat_close(void *be) {
  native *n = be;
  for (int i = 0; i < n->nprog; i++) remove(n->elf[i]);
  cy_destroy(n->d);
  free(n);
}

static int nat_load(void *be, const char *name) {
  native *n = be;
  if (n->nprog == MAXPROG) return -1;
  char src[512], *elf = n->elf[n->nprog];
  snprintf(src, sizeof src, "%s/tests/cc/kernels/%s.cl", VT_SOURCE_DIR, name);
  /* copies of a suite (native, valgrind) may run at once under ctest -j */
  snprintf(elf, sizeof n->elf[0], "%s/cc-tests-%s-%ld.elf", VT_BINARY_DIR, name, (long)getpid());
  const char *isa = getenv("CC_RIG_ISA");
  char *argv[] = {(char *)VT_VENTUS_BIN, "cc", "-o", elf, src, NULL, NULL, NULL};
  if (isa && *isa) {
    argv[5] = "--isa";
    argv[6] = (char *)isa;
  }
  pid_t pid;
  int st = -1;
  if (posix_spawn(&pid, VT_VENTUS_BIN, NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0) st = -1;
  int rc = st != -1 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  if (rc == 4 && !cc_rig_have_clang()) return -2;
  if (rc) {
    fprintf(stderr, "ventus cc failed on %s.cl (status %d)\n", name, rc);
    return -1;
  }
  return n->nprog++;
}

static int nat_fresh(void *be) {
  native *n = be;
  char err[256];
  cy_destroy(n->d);
  if (!(n->d = create(err, sizeof err))) fprintf(stderr, "cy_create: %s\n", err);
  return n->d ? 0 : -1;
}

static uint32_t nat_buf(void *be, size_t bytes) {
  native *n = be;
  uint32_t a;
  assert_int_equal(cy_alloc(n->d, bytes, &a), 0);
  return a;
}

static void nat_put(void *be, uint32_t buf, const void *src, size_t bytes) {
  native *n = be;
  assert_int_equal(cy_write(n->d, buf, src, (uint32_t)bytes), 0);
}

static void nat_get(void *be, uint32_t buf, void *dst, size_t bytes) {
  native *n = be;
  assert_int_equal(cy_read(n->d, buf, dst, (uint32_t)bytes), 0);
}

static void nat_launch(void *be, int prog, const char *kernel, const cy_ndrange *nd, const uint32_t *slots, size_t ns) {
  native *n = be;
  assert_true(prog >= 0 && prog < n->nprog);
  if (cy_launch(n->d, n->elf[prog], kernel, nd, slots, ns)) fail_msg("%s: %s", kernel, cy_error(n->d));
}

const cc_rig_backend cc_rig_native = {"native", nat_open, nat_close, nat_load, nat_fresh,
                                      nat_buf,  nat_put,  nat_get,   nat_launch};
