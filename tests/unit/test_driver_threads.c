/* Separate devices driven from separate host threads at the same time
 * (docs/driver.md, "Threads"): two threads each own a vt_* device, two
 * each own a cy_* device; every thread runs its launches and checks each
 * result against plain C. The two cy_* threads run the same seeded sequence
 * with a commit log on, so their logs must come out byte for byte equal:
 * the trace writer keeps no state outside its device. Every thread also
 * makes its device fail on a missing file of its own between launches: each
 * device's last error must name that thread's file. Run under
 * AddressSanitizer in the sanitizer build; see docs/driver.md for the
 * ThreadSanitizer check. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "elf_load.h"
#include "host_kernels.h"
#include "vt_error.h"

#define NTHREADS 4
#define LAUNCHES 300
#define TRACED 10 /* the first launches of the cy_* threads write a commit log */

typedef struct {
  int use_cy;
  uint32_t seed;
  const char *vecadd, *reduce;
  uint32_t entry;
  FILE *trace;     /* cy_* threads */
  const char *enoent; /* strerror(ENOENT), from the main thread */
  pthread_barrier_t *start; /* all threads begin together */
  char why[512];   /* "" when every launch matched */
} job;

/* a missing file: the device's message names this thread's path and why */
static void check_missing(job *j, int i, int rc, const char *path, const char *msg) {
  if (j->why[0]) return;
  if (rc != -1 || !strstr(msg, path) || !strstr(msg, j->enoent))
    snprintf(j->why, sizeof j->why, "launch %d: missing %s gave %d, '%.200s'", i, path, rc, msg);
}

static void *run_vt(job *j) {
  vt_device_h d = NULL;
  if (vt_dev_open(&d)) return snprintf(j->why, sizeof j->why, "vt_dev_open failed"), NULL;
  if (vt_upload_kernel_file(d, j->vecadd, 0))
    snprintf(j->why, sizeof j->why, "vt_upload_kernel_file: %s", vt_last_error(d));
  uint32_t s = j->seed;
  static const uint32_t widths[] = {4, 8, 16, 32};
  for (int i = 0; i < LAUNCHES && !j->why[0]; i++) {
    char why[400];
    uint32_t n = 1 + hk_rand(&s) % 256, wf = widths[hk_rand(&s) % 4];
    if (hk_vt_vecadd(d, j->entry, n, wf, hk_rand(&s), why, sizeof why))
      snprintf(j->why, sizeof j->why, "launch %d: %s", i, why);
    if (i % 50 == 0) {
      char path[64];
      snprintf(path, sizeof path, "missing-%u-%d.elf", j->seed, i);
      int rc = vt_upload_kernel_file(d, path, 0);
      check_missing(j, i, rc, path, vt_last_error(d));
    }
  }
  vt_dev_close(d);
  return NULL;
}

static void *run_cy(job *j) {
  char err[256];
  cy_device *d = cy_create(NULL, NULL, 0, err, sizeof err);
  if (!d) return snprintf(j->why, sizeof j->why, "cy_create: %s", err), NULL;
  if (cy_trace(d, j->trace)) snprintf(j->why, sizeof j->why, "cy_trace: %s", cy_error(d));
  uint32_t s = j->seed;
  for (int i = 0; i < LAUNCHES && !j->why[0]; i++) {
    char why[400];
    uint32_t n = 1 + hk_rand(&s) % 256, seed = hk_rand(&s);
    int rc = (hk_rand(&s) & 1) ? hk_cy_vecadd(d, j->vecadd, n, 8, seed, why, sizeof why)
                               : hk_cy_reduce(d, j->reduce, n, 64, seed, why, sizeof why);
    if (rc) snprintf(j->why, sizeof j->why, "launch %d: %s", i, why);
    if (i % 50 == 0) {
      char path[64];
      snprintf(path, sizeof path, "missing-%p-%d.elf", (void *)j, i);
      cy_ndrange nd = {.work_dim = 1, .global = {32}, .local = {32}};
      rc = cy_launch(d, path, "vecadd", &nd, NULL, 0);
      check_missing(j, i, rc, path, cy_error(d));
    }
    if (i + 1 == TRACED && cy_trace(d, NULL)) snprintf(j->why, sizeof j->why, "cy_trace: %s", cy_error(d));
  }
  cy_destroy(d);
  return NULL;
}

static void *run(void *arg) {
  job *j = arg;
  pthread_barrier_wait(j->start);
  return j->use_cy ? run_cy(j) : run_vt(j);
}

static uint8_t *file_bytes(FILE *f, long *n) {
  assert_int_equal(fseek(f, 0, SEEK_END), 0);
  *n = ftell(f);
  rewind(f);
  uint8_t *b = malloc((size_t)*n + 1);
  assert_non_null(b);
  assert_int_equal(fread(b, 1, (size_t)*n, f), (size_t)*n);
  return b;
}

static void test_devices_on_threads(void **st) {
  (void)st;
  char vecadd[600], reduce[600];
  build_example_kernel("vecadd", vecadd, sizeof vecadd);
  build_example_kernel("reduce", reduce, sizeof reduce);
  uint32_t entry;
  vt_error e;
  assert_int_equal(vt_kernel_symbol(vecadd, "vecadd", &entry, &e), 0);
  job jobs[NTHREADS];
  pthread_t tid[NTHREADS];
  pthread_barrier_t start;
  assert_int_equal(pthread_barrier_init(&start, NULL, NTHREADS), 0);
  for (int i = 0; i < NTHREADS; i++) {
    jobs[i] = (job){.use_cy = i >= 2, .seed = i >= 2 ? 42u : 100u + (uint32_t)i, .vecadd = vecadd,
                    .reduce = reduce, .entry = entry, .enoent = strerror(ENOENT), .start = &start};
    if (jobs[i].use_cy) assert_non_null(jobs[i].trace = tmpfile());
  }
  for (int i = 0; i < NTHREADS; i++) assert_int_equal(pthread_create(&tid[i], NULL, run, &jobs[i]), 0);
  for (int i = 0; i < NTHREADS; i++) assert_int_equal(pthread_join(tid[i], NULL), 0);
  pthread_barrier_destroy(&start);
  for (int i = 0; i < NTHREADS; i++)
    if (jobs[i].why[0]) fail_msg("thread %d: %s", i, jobs[i].why);
  long n2, n3;
  uint8_t *t2 = file_bytes(jobs[2].trace, &n2), *t3 = file_bytes(jobs[3].trace, &n3);
  assert_true(n2 > 1000); /* the traced launches wrote their commits */
  assert_int_equal(n2, n3);
  assert_memory_equal(t2, t3, (size_t)n2);
  free(t2), free(t3);
  fclose(jobs[2].trace), fclose(jobs[3].trace);
  unlink(vecadd);
  unlink(reduce);
}

/* vt_strerror words errors as strerror does (called here on one thread) */
static void test_strerror_text(void **st) {
  (void)st;
  char b[128], want[128];
  const int nums[] = {ENOENT, EACCES, ENOSPC, 12345};
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
    snprintf(want, sizeof want, "%s", strerror(nums[i]));
    assert_string_equal(vt_strerror(nums[i], b, sizeof b), want);
  }
  /* a short buffer holds a terminated prefix */
  assert_string_equal(vt_strerror(ENOENT, b, 8), "No such");
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_devices_on_threads),
                                     cmocka_unit_test(test_strerror_text)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
