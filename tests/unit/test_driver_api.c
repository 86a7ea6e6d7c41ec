/* The upstream vt_* API and the native chengying API: allocation, copies
 * and their range errors, capabilities, and vt_start / cy_launch on a tiny
 * kernel whose words come from isa_encode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chengying.h"
#include "tiny_kernel.h"
#include "ventus.h"

static char elf_path[64];

static int make_elf(void **state) {
  (void)state;
  strcpy(elf_path, "/tmp/vt_api_XXXXXX");
  int fd = mkstemp(elf_path);
  assert_true(fd >= 0);
  close(fd);
  tiny_write_increment(elf_path);
  return 0;
}

static int rm_elf(void **state) {
  (void)state;
  unlink(elf_path);
  return 0;
}

static void alloc_copy_free(void **state) {
  (void)state;
  vt_device_h d;
  assert_int_equal(vt_dev_open(&d), 0);
  uint64_t a, b, c, v;
  assert_int_equal(vt_dev_caps(&d, VT_CAPS_MAX_THREADS, &v), 0);
  assert_true(v >= 4 && v <= 32);
  assert_int_equal(vt_dev_caps(NULL, VT_CAPS_ALLOC_BASE_ADDR, &v), 0);
  assert_int_equal(v, 0x90000000u);
  assert_int_equal(vt_dev_caps(&d, 12345, &v), -1);
  assert_int_equal(vt_buf_alloc(d, 100, &a, 0, 0, 0), 0);
  assert_int_equal(a, 0x90000000u);
  assert_int_equal(vt_buf_alloc(d, 5000, &b, 0, 0, 0), 0);
  assert_int_equal(b, 0x90001000u);
  assert_int_equal(vt_buf_alloc(d, 1, &c, 0, 0, 0), 0);
  assert_int_equal(c, 0x90003000u);
  assert_int_equal(vt_buf_alloc(d, 0, &v, 0, 0, 0), -1);
  /* first fit reuses a freed hole */
  assert_int_equal(vt_one_buf_free(d, 0, &a, 0, 0), 0);
  assert_int_equal(vt_one_buf_free(d, 0, &a, 0, 0), -1);
  assert_non_null(strstr(vt_last_error(d), "not the start"));
  assert_int_equal(vt_buf_alloc(d, 4096, &a, 0, 0, 0), 0);
  assert_int_equal(a, 0x90000000u);

  uint8_t src[8192], dst[8192];
  for (int i = 0; i < 8192; i++) src[i] = (uint8_t)(i * 7);
  assert_int_equal(vt_copy_to_dev(d, b, src, 8192, 0, 0), 0);
  memset(dst, 0, sizeof dst);
  assert_int_equal(vt_copy_from_dev(d, b, dst, 8192, 0, 0), 0);
  assert_memory_equal(src, dst, 8192);
  assert_int_equal(vt_copy_to_dev(d, b, src, 0, 0, 0), -1);           /* size 0 */
  assert_non_null(strstr(vt_last_error(d), "size 0"));
  assert_int_equal(vt_copy_to_dev(d, b + 8000, src, 400, 0, 0), -1);  /* past the block */
  assert_int_equal(vt_copy_from_dev(d, 0x10000000u, dst, 4, 0, 0), -1); /* nowhere */
  assert_int_equal(vt_copy_to_dev(d, b, NULL, 4, 0, 0), -1);
  assert_int_equal(vt_buf_free(d, 0, &a, 0, 0), 0); /* frees everything, as upstream spike */
  assert_int_equal(vt_copy_from_dev(d, b, dst, 4, 0, 0), -1);
  assert_int_equal(vt_ready_wait(d, 1000), 0);
  assert_int_equal(vt_finish_all_kernel(d, NULL), 0);
  assert_int_equal(vt_dev_close(d), 0);
}

static void start_tiny_kernel(void **state) {
  (void)state;
  vt_device_h d;
  assert_int_equal(vt_dev_open(&d), 0);
  assert_int_equal(vt_upload_kernel_file(d, "/nonexistent.elf", 0), -1);
  assert_int_equal(vt_upload_kernel_file(d, elf_path, 0), 0);
  uint64_t buf, args, knl, pds;
  assert_int_equal(vt_buf_alloc(d, 4, &buf, 0, 0, 0), 0);
  assert_int_equal(vt_buf_alloc(d, 8, &args, 0, 0, 0), 0);
  assert_int_equal(vt_buf_alloc(d, 72, &knl, 0, 0, 0), 0);
  assert_int_equal(vt_buf_alloc(d, 0x1000 * 4, &pds, 0, 0, 0), 0);
  uint32_t argw[2] = {(uint32_t)buf, 41};
  uint32_t md[18] = {0x80000000u, (uint32_t)args, 1, 4, 1, 1, 4, 1, 1};
  assert_int_equal(vt_copy_to_dev(d, args, argw, sizeof argw, 0, 0), 0);
  assert_int_equal(vt_copy_to_dev(d, knl, md, sizeof md, 0, 0), 0);
  uint64_t meta[12] = {0, 1, 1, 1, 4, 1, knl, 0x1000, 0x1000, 64, 64, pds};
  if (vt_start(d, meta, 0)) fail_msg("vt_start: %s", vt_last_error(d));
  assert_int_equal(vt_ready_wait(d, 1000), 0);
  uint32_t out = 0;
  assert_int_equal(vt_copy_from_dev(d, buf, &out, 4, 0, 0), 0);
  assert_int_equal(out, 42);
  assert_int_equal(vt_dev_close(d), 0);
}

/* Bad calls fail with a message and leave the device usable. */
static void bad_calls(void **state) {
  (void)state;
  vt_device_h d;
  uint64_t v, buf;
  assert_int_equal(vt_dev_open(NULL), -1);
  assert_int_equal(vt_dev_close(NULL), -1);
  assert_string_equal(vt_last_error(NULL), "no device");
  assert_int_equal(vt_buf_alloc(NULL, 4, &v, 0, 0, 0), -1);
  assert_int_equal(vt_start(NULL, NULL, 0), -1);
  assert_int_equal(vt_dev_open(&d), 0);
  assert_int_equal(vt_dev_caps(&d, VT_CAPS_MAX_WARPS, NULL), -1);
  assert_int_equal(vt_buf_alloc(d, 4, NULL, 0, 0, 0), -1);
  assert_int_equal(vt_buf_alloc(d, 0x80000000ull, &v, 0, 0, 0), -1);
  assert_int_equal(vt_buf_alloc(d, 4096, &buf, 0, 0, 0), 0);
  uint64_t meta[12] = {0, 1, 1, 1, 4, 1, 0, 0x1000, 0x1000, 64, 64, buf};
  /* vt_start before any kernel upload: used to fault at 0x80000000 */
  assert_int_equal(vt_start(d, meta, 0), -1);
  assert_non_null(strstr(vt_last_error(d), "vt_upload_kernel_file"));
  assert_int_equal(vt_upload_kernel_file(d, NULL, 0), -1);
  assert_int_equal(vt_upload_kernel_file(d, elf_path, 0), 0);
  /* a size that wraps addr + size passed the range check and overran the host buffer */
  uint8_t small[16] = {0};
  assert_int_equal(vt_copy_to_dev(d, buf, small, UINT64_MAX, 0, 0), -1);
  assert_non_null(strstr(vt_last_error(d), "outside the 32-bit device"));
  assert_int_equal(vt_copy_from_dev(d, buf + 8, small, UINT64_MAX - 7, 0, 0), -1);
  assert_int_equal(vt_copy_to_dev(d, 0x1000000090000000ull, small, 4, 0, 0), -1);
  assert_int_equal(vt_copy_from_dev(d, buf, NULL, 4, 0, 0), -1);
  /* malformed launch records: NULL, a field above 32 bits, 0 or 33 threads, 0 warps,
   * more warps than slots, an empty grid, a grid of 2^32 groups */
  assert_int_equal(vt_start(d, NULL, 0), -1);
  uint64_t bad[12];
  static const struct {
    int field;
    uint64_t value;
    const char *msg;
  } cases[] = {{1, 1ull << 32, "32 bits"},      {4, 0, "threads per warp"},     {4, 33, "threads per warp"},
               {5, 0, "0 warps"},              {5, 9, "warps_per_sm=9"},        {2, 0, "empty grid"},
               {1, 0xffffffffu, "2^32-1"}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    memcpy(bad, meta, sizeof bad);
    bad[cases[k].field] = cases[k].value;
    if (k == 6) bad[2] = 2;
    assert_int_equal(vt_start(d, bad, 0), -1);
    if (!strstr(vt_last_error(d), cases[k].msg)) fail_msg("case %zu: '%s'", k, vt_last_error(d));
  }
  /* double free, then a good call still works */
  assert_int_equal(vt_one_buf_free(d, 4096, &buf, 0, 0), 0);
  assert_int_equal(vt_one_buf_free(d, 4096, &buf, 0, 0), -1);
  assert_int_equal(vt_one_buf_free(d, 4096, NULL, 0, 0), -1);
  uint64_t b2;
  assert_int_equal(vt_buf_alloc(d, 4, &b2, 0, 0, 0), 0);
  assert_int_equal(b2, buf);
  uint32_t w = 0x12345678, r = 0;
  assert_int_equal(vt_copy_to_dev(d, b2, &w, 4, 0, 0), 0);
  assert_int_equal(vt_copy_from_dev(d, b2, &r, 4, 0, 0), 0);
  assert_int_equal(r, w);
  assert_int_equal(vt_dev_close(d), 0);
}

static void native_launch(void **state) {
  (void)state;
  char err[256];
  const char *ov[] = {"num_sm=1"};
  cy_device *d = cy_create(NULL, ov, 1, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  assert_null(cy_create(NULL, (const char *[]){"no_such_key=1"}, 1, err, sizeof err));
  uint32_t buf;
  assert_int_equal(cy_alloc(d, 4, &buf), 0);
  uint32_t slots[2] = {buf, 99};
  cy_ndrange nd = {.work_dim = 1, .global = {4, 1, 1}, .local = {4, 1, 1}, .threads = 4};
  if (cy_launch(d, elf_path, "tiny", &nd, slots, 2)) fail_msg("cy_launch: %s", cy_error(d));
  uint32_t out = 0;
  assert_int_equal(cy_read(d, buf, &out, 4), 0);
  assert_int_equal(out, 100);
  assert_int_equal(cy_launch(d, elf_path, "missing", &nd, slots, 2), -1);
  assert_non_null(strstr(cy_error(d), "missing"));
  cy_stats s;
  cy_get_stats(d, &s);
  assert_true(s.warp_insns >= 7);
  cy_destroy(d);
}

/* The 16 NULL-argument calls of the robustness audit: each returns an
 * error (or, for the void functions, does nothing) instead of crashing; the
 * device stays usable and names the argument. */
static void native_null_args(void **state) {
  (void)state;
  char err[256] = "";
  const char *ov[] = {"max_steps=100000"};
  cy_device *d = cy_create(NULL, ov, 1, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  uint32_t b = 0, slots[2] = {0, 0};
  assert_int_equal(cy_alloc(d, 4096, &b), 0);
  cy_ndrange nd = {.work_dim = 1, .global = {4, 1, 1}, .local = {4, 1, 1}, .threads = 4};
  char buf[8] = {0};
  assert_null(cy_create(NULL, NULL, 5, err, sizeof err));
  assert_non_null(strstr(err, "NULL"));
  assert_null(cy_create(NULL, (const char *[]){"num_sm=1", NULL}, 2, err, sizeof err));
  assert_int_equal(cy_alloc(d, 4096, NULL), -1);
  assert_non_null(strstr(cy_error(d), "addr is NULL"));
  assert_int_equal(cy_write(d, b, NULL, 4), -1);
  assert_non_null(strstr(cy_error(d), "src is NULL"));
  assert_int_equal(cy_read(d, b, NULL, 4), -1);
  assert_non_null(strstr(cy_error(d), "dst is NULL"));
  assert_int_equal(cy_launch(d, NULL, "tiny", &nd, slots, 2), -1);
  assert_non_null(strstr(cy_error(d), "elf is NULL"));
  assert_int_equal(cy_launch(d, elf_path, NULL, &nd, slots, 2), -1);
  assert_non_null(strstr(cy_error(d), "kernel is NULL"));
  assert_int_equal(cy_launch(d, elf_path, "tiny", NULL, slots, 2), -1);
  assert_non_null(strstr(cy_error(d), "nd is NULL"));
  assert_int_equal(cy_launch(d, elf_path, "tiny", &nd, NULL, 2), -1);
  assert_non_null(strstr(cy_error(d), "slots is NULL"));
  assert_int_equal(cy_run_testvec(d, NULL), -1);
  assert_non_null(strstr(cy_error(d), "path is NULL"));
  assert_int_equal(cy_alloc(NULL, 4096, &b), -1);
  assert_int_equal(cy_write(NULL, b, buf, 4), -1);
  assert_int_equal(cy_read(NULL, b, buf, 4), -1);
  assert_int_equal(cy_free(NULL, b), -1);
  assert_int_equal(cy_launch(NULL, elf_path, "tiny", &nd, slots, 2), -1);
  assert_int_equal(cy_run_testvec(NULL, "x"), -1);
  assert_int_equal(cy_trace(NULL, NULL), -1);
  assert_string_equal(cy_error(NULL), "no device");
  cy_get_stats(d, NULL);
  cy_stats s;
  memset(&s, 0xff, sizeof s);
  cy_get_stats(NULL, &s);
  assert_int_equal(s.warp_insns, 0);
  cy_print_stats(d, NULL, 0);
  cy_print_stats(NULL, stdout, 0);
  /* still usable */
  uint32_t w = 0x01020304, r = 0;
  assert_int_equal(cy_write(d, b, &w, 4), 0);
  assert_int_equal(cy_read(d, b, &r, 4), 0);
  assert_int_equal(r, w);
  cy_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(alloc_copy_free),
      cmocka_unit_test(start_tiny_kernel),
      cmocka_unit_test(bad_calls),
      cmocka_unit_test(native_launch),
      cmocka_unit_test(native_null_args),
  };
  return cmocka_run_group_tests(tests, make_elf, rm_elf);
}
