/* The library part of the error catalogue (docs/errors.md, ids P01...):
 * each misuse of the vt_* or cy_* API fails with -1 and its documented
 * message, and the same device then still runs a good launch. */
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

typedef struct {
  char good[64], ill[64], loop[64];
} paths;

static int make_elfs(void **state) {
  paths *p = calloc(1, sizeof *p);
  assert_non_null(p);
  char *names[] = {p->good, p->ill, p->loop};
  for (int i = 0; i < 3; i++) {
    strcpy(names[i], "/tmp/vt_cat_XXXXXX");
    int fd = mkstemp(names[i]);
    assert_true(fd >= 0);
    close(fd);
  }
  tiny_write_increment(p->good);
  const uint32_t ill[] = {0xffffffffu};
  tiny_write_elf(p->ill, "ill", ill, 1);
  const uint32_t loop[] = {tiny_enc(ISA_jal, 0, 0, 0, 0)};
  tiny_write_elf(p->loop, "loop", loop, 1);
  *state = p;
  return 0;
}

static int rm_elfs(void **state) {
  paths *p = *state;
  unlink(p->good);
  unlink(p->ill);
  unlink(p->loop);
  free(p);
  return 0;
}

/* ---- vt_*: a launch record for the tiny kernel, and the good launch ---------- */
typedef struct {
  vt_device_h d;
  uint64_t buf, args, knl, pds;
  uint64_t meta[12];
} vt_env;

static void vt_env_open(vt_env *v, const char *elf) {
  assert_int_equal(vt_dev_open(&v->d), 0);
  assert_int_equal(vt_upload_kernel_file(v->d, elf, 0), 0);
  assert_int_equal(vt_buf_alloc(v->d, 4, &v->buf, 0, 0, 0), 0);
  assert_int_equal(vt_buf_alloc(v->d, 8, &v->args, 0, 0, 0), 0);
  assert_int_equal(vt_buf_alloc(v->d, 72, &v->knl, 0, 0, 0), 0);
  assert_int_equal(vt_buf_alloc(v->d, 0x1000 * 4, &v->pds, 0, 0, 0), 0);
  uint32_t md[18] = {0x80000000u, (uint32_t)v->args, 1, 4, 1, 1, 4, 1, 1};
  assert_int_equal(vt_copy_to_dev(v->d, v->knl, md, sizeof md, 0, 0), 0);
  uint64_t meta[12] = {0, 1, 1, 1, 4, 1, v->knl, 0x1000, 0x1000, 64, 64, v->pds};
  memcpy(v->meta, meta, sizeof meta);
}

/* The device still works: a launch of the tiny kernel gives arg + 1. */
static void vt_still_usable(vt_env *v, const char *elf, uint32_t arg) {
  assert_int_equal(vt_upload_kernel_file(v->d, elf, 0), 0);
  uint32_t argw[2] = {(uint32_t)v->buf, arg};
  assert_int_equal(vt_copy_to_dev(v->d, v->args, argw, sizeof argw, 0, 0), 0);
  if (vt_start(v->d, v->meta, 0)) fail_msg("good launch after an error: %s", vt_last_error(v->d));
  uint32_t out = 0;
  assert_int_equal(vt_copy_from_dev(v->d, v->buf, &out, 4, 0, 0), 0);
  assert_int_equal(out, arg + 1);
}

static void expect_err(vt_device_h d, int rc, const char *id, const char *text) {
  if (rc != -1) fail_msg("%s: returned %d, expected -1", id, rc);
  if (!strstr(vt_last_error(d), text)) fail_msg("%s: '%s' lacks '%s'", id, vt_last_error(d), text);
  if (strchr(vt_last_error(d), '\n')) fail_msg("%s: more than one line", id);
}

static void vt_api_misuse(void **state) {
  paths *p = *state;
  vt_env v;
  vt_env_open(&v, p->good);
  uint64_t x;
  uint8_t host[16] = {0};
  /* P01 */ assert_int_equal(vt_dev_open(NULL), -1);
  /* P02 */ expect_err(v.d, vt_buf_alloc(v.d, 0x80000000ull, &x, 0, 0, 0), "P02", "exceed the device window");
  vt_still_usable(&v, p->good, 1);
  /* P03 */ expect_err(v.d, vt_copy_to_dev(v.d, v.buf, NULL, 4, 0, 0), "P03", "host pointer is NULL");
  /* P04 */ expect_err(v.d, vt_copy_to_dev(v.d, v.buf, host, 0, 0, 0), "P04", "size 0");
  /* P05 */ expect_err(v.d, vt_copy_to_dev(v.d, v.buf, host, UINT64_MAX, 0, 0), "P05",
                       "outside the 32-bit device");
  /* P06 */ expect_err(v.d, vt_copy_from_dev(v.d, 0x10000000u, host, 4, 0, 0), "P06",
                       "is not inside one allocated buffer");
  vt_still_usable(&v, p->good, 2);
  uint64_t extra;
  assert_int_equal(vt_buf_alloc(v.d, 4, &extra, 0, 0, 0), 0);
  assert_int_equal(vt_one_buf_free(v.d, 4, &extra, 0, 0), 0);
  /* P07 */ expect_err(v.d, vt_one_buf_free(v.d, 4, &extra, 0, 0), "P07", "not the start");
  /* P08 */ expect_err(v.d, vt_upload_kernel_file(v.d, "/nonexistent/k.elf", 0), "P08", "/nonexistent/k.elf");
  vt_still_usable(&v, p->good, 3);
  uint64_t bad[12];
  memcpy(bad, v.meta, sizeof bad);
  bad[4] = 33;
  /* P09 */ expect_err(v.d, vt_start(v.d, bad, 0), "P09", "threads per warp");
  memcpy(bad, v.meta, sizeof bad);
  bad[5] = 9;
  /* P10 */ expect_err(v.d, vt_start(v.d, bad, 0), "P10", "warps_per_sm=9");
  memcpy(bad, v.meta, sizeof bad);
  bad[2] = 0;
  /* P11 */ expect_err(v.d, vt_start(v.d, bad, 0), "P11", "empty grid");
  /* P12 */ expect_err(v.d, vt_start(v.d, NULL, 0), "P12", "metaData is NULL");
  /* P13 */ expect_err(v.d, vt_dev_caps(&v.d, 12345, &x), "P13", "unknown capability");
  vt_still_usable(&v, p->good, 4);
  /* P14: a device fault names kernel, work-group, warp, pc and instruction */
  assert_int_equal(vt_upload_kernel_file(v.d, p->ill, 0), 0);
  expect_err(v.d, vt_start(v.d, v.meta, 0), "P14",
             "illegal instruction 0xffffffff [kernel 0 wg 0 warp 0 pc 0x80000000 insn 0xffffffff]");
  vt_still_usable(&v, p->good, 5);
  assert_int_equal(vt_dev_close(v.d), 0);

  /* P15: vt_start before any kernel was uploaded */
  vt_device_h d;
  assert_int_equal(vt_dev_open(&d), 0);
  expect_err(d, vt_start(d, v.meta, 0), "P15", "vt_upload_kernel_file");
  assert_int_equal(vt_dev_close(d), 0);
}

/* ---- cy_* ----------------------------------------------------------------------- */
static void cy_still_usable(cy_device *d, const char *elf, uint32_t arg) {
  uint32_t buf;
  assert_int_equal(cy_alloc(d, 4, &buf), 0);
  uint32_t slots[2] = {buf, arg};
  cy_ndrange nd = {.work_dim = 1, .global = {4, 1, 1}, .local = {4, 1, 1}, .threads = 4};
  if (cy_launch(d, elf, "tiny", &nd, slots, 2)) fail_msg("good launch after an error: %s", cy_error(d));
  uint32_t out = 0;
  assert_int_equal(cy_read(d, buf, &out, 4), 0);
  assert_int_equal(out, arg + 1);
  assert_int_equal(cy_free(d, buf), 0);
}

static void cy_expect(cy_device *d, int rc, const char *id, const char *text) {
  if (rc != -1) fail_msg("%s: returned %d, expected -1", id, rc);
  if (!strstr(cy_error(d), text)) fail_msg("%s: '%s' lacks '%s'", id, cy_error(d), text);
}

static void cy_api_misuse(void **state) {
  paths *p = *state;
  char err[256] = "";
  /* P16 */ assert_null(cy_create(NULL, (const char *[]){"no_such_key=1"}, 1, err, sizeof err));
  if (!strstr(err, "unknown config key 'no_such_key'")) fail_msg("P16: '%s'", err);
  /* P17 */ assert_null(cy_create("/nonexistent/cfg.ini", NULL, 0, err, sizeof err));
  if (!strstr(err, "/nonexistent/cfg.ini")) fail_msg("P17: '%s'", err);
  cy_device *d = cy_create(NULL, (const char *[]){"max_steps=1000"}, 1, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  cy_ndrange nd = {.work_dim = 1, .global = {4, 1, 1}, .local = {4, 1, 1}, .threads = 4};
  uint32_t slots[2] = {0, 0};
  /* P18 */ cy_expect(d, cy_launch(d, p->good, "missing", &nd, slots, 2), "P18", "missing");
  /* P19 */ cy_expect(d, cy_launch(d, p->loop, "loop", &nd, NULL, 0), "P19",
                      "step limit of 1000 warp-instructions reached [kernel 0 wg 0 warp 0 pc 0x80000000");
  cy_still_usable(d, p->good, 7);
  uint32_t word;
  /* P20 */ cy_expect(d, cy_read(d, 0x10000000u, &word, 4), "P20", "0x10000000");
  /* P21 */ cy_expect(d, cy_free(d, 0x90000004u), "P21", "0x90000004");
  cy_ndrange zero = nd;
  zero.global[0] = 6;
  /* P22 */ cy_expect(d, cy_launch(d, p->good, "tiny", &zero, slots, 2), "P22", "global size 6 is not a multiple of the local size 4");
  cy_still_usable(d, p->good, 8);
  cy_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vt_api_misuse),
      cmocka_unit_test(cy_api_misuse),
  };
  return cmocka_run_group_tests(tests, make_elfs, rm_elfs);
}
