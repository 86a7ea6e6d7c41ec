/* cy_launch gives back the device memory it allocates for a launch (the
 * argument block, private region, print buffer and metadata block), after
 * a successful launch and after one that fails half-way through its set-up.
 * "All memory free" is checked the way a user can see it: a buffer as large
 * as the whole allocation window [0x90000000, 2^32) fits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "host_kernels.h"

#define WINDOW 0x70000000u

static void assert_window_free(cy_device *d) {
  uint32_t a = 0;
  if (cy_alloc(d, WINDOW, &a)) fail_msg("device memory not all free: %s", cy_error(d));
  assert_int_equal(a, 0x90000000u);
  assert_int_equal(cy_free(d, a), 0);
}

static cy_device *open_device(void) {
  char err[256];
  cy_device *d = cy_create(NULL, NULL, 0, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  return d;
}

/* 1000 launches on one device: each must find room and free its blocks */
static void test_launches_free_their_blocks(void **st) {
  (void)st;
  char elf[600], why[512];
  build_example_kernel("vecadd", elf, sizeof elf);
  cy_device *d = open_device();
  for (uint32_t i = 0; i < 1000; i++)
    if (hk_cy_vecadd(d, elf, 1 + i % 100, 32, i, why, sizeof why)) fail_msg("launch %u: %s", i, why);
  cy_stats s;
  cy_get_stats(d, &s);
  assert_int_equal(s.kernels, 1000);
  assert_true(s.warp_insns > 1000 * 20); /* each launch ran the kernel */
  assert_window_free(d);
  cy_destroy(d);
  unlink(elf);
}

/* A launch whose private region does not fit fails with a clear message
 * after it has allocated its argument block; that block is freed too. */
static void test_failed_launch_frees_its_blocks(void **st) {
  (void)st;
  char elf[600];
  build_example_kernel("vecadd", elf, sizeof elf);
  cy_device *d = open_device();
  uint32_t big = 0;
  /* leaves one 4 KiB granule: room for the argument block only */
  assert_int_equal(cy_alloc(d, WINDOW - 0x1000, &big), 0);
  uint32_t slots[4] = {big, big, big, 32};
  cy_ndrange nd = {.work_dim = 1, .global = {32}, .local = {32}, .threads = 32};
  assert_int_equal(cy_launch(d, elf, "vecadd", &nd, slots, 4), -1);
  assert_non_null(strstr(cy_error(d), "device memory exhausted"));
  assert_int_equal(cy_free(d, big), 0);
  assert_window_free(d);
  cy_destroy(d);
  unlink(elf);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_launches_free_their_blocks),
      cmocka_unit_test(test_failed_launch_frees_its_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
