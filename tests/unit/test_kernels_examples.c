/* The example kernels of kernels/examples, assembled with start.S and the
 * work-item routines, run on the simulated GPGPU and are checked word for
 * word against the plain-C references of tests/kernels/ref_kernels.c, for
 * several warp widths and work-group shapes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "heap.h"
#include "host_kernels.h"
#include "ndrange.h"
#include "ref_kernels.h"

static vt_karg buf_arg(const void *data, uint32_t bytes) {
  vt_karg a;
  memset(&a, 0, sizeof a);
  a.kind = VT_KARG_BUF;
  a.size = bytes;
  a.init = calloc(1, bytes ? bytes : 1);
  if (data) memcpy(a.init, data, bytes);
  snprintf(a.spec, sizeof a.spec, "buf:%u", bytes);
  return a;
}

static vt_karg scalar_arg(uint32_t v) {
  vt_karg a;
  memset(&a, 0, sizeof a);
  a.kind = VT_KARG_SCALAR;
  a.value = v;
  snprintf(a.spec, sizeof a.spec, "u32:%u", v);
  return a;
}

typedef struct {
  vt_device *dev;
  vt_heap heap;
} rig;

static void rig_open(rig *r) {
  vt_config c;
  vt_config_defaults(&c);
  c.max_steps = 100000000;
  vt_error e;
  r->dev = vt_device_create(&c, &e);
  assert_non_null(r->dev);
  vt_heap_init(&r->heap);
}

static void rig_close(rig *r) {
  vt_heap_fini(&r->heap);
  vt_device_destroy(r->dev);
}

/* Sets up and launches; on failure prints the device error. */
static void launch(rig *r, vt_ndrange *nd) {
  vt_launch l;
  vt_error e;
  int rc = vt_ndrange_setup(r->dev, &r->heap, nd, &l, &e);
  if (!rc) rc = vt_device_launch(r->dev, &l, &e);
  if (rc) {
    char b[512];
    vt_err_format(&e, b, sizeof b);
    print_error("%s\n", b);
  }
  assert_int_equal(rc, 0);
}

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

/* A one-dimensional launch shape: n work-items rounded up to whole groups. */
static void nd_1d(vt_ndrange *nd, uint32_t threads, uint32_t n, uint32_t local) {
  vt_ndrange_defaults(nd);
  nd->work_dim = 1;
  nd->global[0] = (n + local - 1) / local * local;
  nd->local[0] = local;
  nd->threads = threads;
}

/* Assembles kernels/examples/<name>.S, launches its kernel <name> with the
 * shape in nd and the nargs args on a fresh device, reads argument buffer
 * args[out] back and checks it word for word against ref; frees the args.
 * The launch's statistics are copied to *stats when it is not NULL. */
static void run_example(const char *name, vt_ndrange *nd, vt_karg *args, size_t nargs, size_t out,
                        const void *ref, vt_stats *stats) {
  char elf[600];
  build_example_kernel(name, elf, sizeof elf);
  rig r;
  rig_open(&r);
  nd->elf = elf;
  nd->kernel = name;
  nd->args = args;
  nd->nargs = nargs;
  launch(&r, nd);
  void *got = malloc(args[out].size);
  vt_error e;
  assert_int_equal(vt_mem_read(r.dev, args[out].addr, got, args[out].size, &e), 0);
  assert_memory_equal(got, ref, args[out].size);
  if (stats) *stats = *vt_device_stats(r.dev);
  free(got);
  for (size_t i = 0; i < nargs; i++) vt_karg_free(&args[i]);
  rig_close(&r);
  unlink(elf);
}

static void run_vecadd(uint32_t threads, uint32_t n, uint32_t local) {
  float *a = malloc(n * 4), *b = malloc(n * 4), *ref = malloc(n * 4);
  uint32_t s = 7;
  for (uint32_t i = 0; i < n; i++) {
    a[i] = (float)(int32_t)lcg(&s) / 65536.0f;
    b[i] = (float)(lcg(&s) >> 8) * 1e-3f;
  }
  ref_vecadd(a, b, ref, n);
  vt_karg args[4] = {buf_arg(a, n * 4), buf_arg(b, n * 4), buf_arg(NULL, n * 4), scalar_arg(n)};
  vt_ndrange nd;
  nd_1d(&nd, threads, n, local);
  run_example("vecadd", &nd, args, 4, 2, ref, NULL);
  free(a), free(b), free(ref);
}

static void test_vecadd(void **st) {
  (void)st;
  run_vecadd(8, 1000, 32);
  run_vecadd(32, 4096, 128);
  run_vecadd(4, 77, 16);
}

static void run_matmul(uint32_t threads, uint32_t m, uint32_t k, uint32_t n, uint32_t lx, uint32_t ly) {
  int32_t *A = malloc(m * k * 4 + 4), *B = malloc(k * n * 4 + 4), *R = malloc(m * n * 4);
  uint32_t s = 99;
  for (uint32_t i = 0; i < m * k; i++) A[i] = (int32_t)(lcg(&s) % 201) - 100;
  for (uint32_t i = 0; i < k * n; i++) B[i] = (int32_t)(lcg(&s) % 201) - 100;
  ref_matmul(A, B, R, m, k, n);
  vt_karg args[6] = {buf_arg(A, m * k * 4 + 4), buf_arg(B, k * n * 4 + 4), buf_arg(NULL, m * n * 4),
                     scalar_arg(m), scalar_arg(k), scalar_arg(n)};
  vt_ndrange nd;
  nd_1d(&nd, threads, n, lx);
  nd.work_dim = 2;
  nd.global[1] = (m + ly - 1) / ly * ly;
  nd.local[1] = ly;
  run_example("matmul", &nd, args, 6, 2, R, NULL);
  free(A), free(B), free(R);
}

static void test_matmul(void **st) {
  (void)st;
  run_matmul(8, 13, 7, 11, 8, 4);
  run_matmul(32, 32, 16, 24, 8, 4);
  run_matmul(16, 5, 0, 3, 4, 4); /* K = 0: all zeros */
}

static void run_reduce(uint32_t threads, uint32_t n, uint32_t local) {
  uint32_t groups = (n + local - 1) / local;
  int32_t *in = malloc(n * 4), *ref = malloc(groups * 4);
  uint32_t s = 3;
  for (uint32_t i = 0; i < n; i++) in[i] = (int32_t)lcg(&s);
  ref_reduce(in, ref, n, local, groups);
  vt_karg args[3] = {buf_arg(in, n * 4), buf_arg(NULL, groups * 4), scalar_arg(n)};
  vt_ndrange nd;
  nd_1d(&nd, threads, n, local); /* global = groups * local */
  nd.lds_size = (local / threads) * 1024 + local * 4;
  run_example("reduce", &nd, args, 3, 1, ref, NULL);
  free(in), free(ref);
}

static void test_reduce(void **st) {
  (void)st;
  run_reduce(8, 1000, 64);  /* 8 warps per group, last group partial */
  run_reduce(32, 4096, 64); /* 2 warps per group */
  run_reduce(4, 300, 32);
}

static void run_diverge(uint32_t threads, uint32_t n, uint32_t local) {
  uint32_t *in = malloc(n * 4), *ref = malloc(n * 4);
  uint32_t s = 11;
  for (uint32_t i = 0; i < n; i++) in[i] = lcg(&s) % 10000;
  ref_diverge(in, ref, n);
  vt_karg args[3] = {buf_arg(in, n * 4), buf_arg(NULL, n * 4), scalar_arg(n)};
  vt_ndrange nd;
  nd_1d(&nd, threads, n, local);
  vt_stats st;
  run_example("diverge", &nd, args, 3, 1, ref, &st);
  assert_true(st.divergent_branches > 0); /* the kernel really diverged */
  free(in), free(ref);
}

static void test_diverge(void **st) {
  (void)st;
  run_diverge(8, 500, 16);
  run_diverge(32, 1000, 64);
  run_diverge(16, 37, 48);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vecadd),
      cmocka_unit_test(test_matmul),
      cmocka_unit_test(test_reduce),
      cmocka_unit_test(test_diverge),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
