/* Test-vector loader: good input, and each kind of bad input giving one
 * clear VT_ERR_FORMAT that names the file and line. Expected-file reader
 * and memory comparison. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "testvec.h"

typedef struct {
  char dir[64];
  char meta[128], data[128];
} tmpcase;

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

/* metadata words for: grid g, wf, wg, one buffer at 0x90000000 of `size` bytes + knl block */
static void make_meta(char *out, size_t n, uint32_t g, uint32_t wf, uint32_t wg, uint32_t nbuf,
                      const uint32_t *base, const uint32_t *size, const uint32_t *alloc) {
  uint32_t w[64];
  int k = 0;
  uint32_t f[14] = {0x80000000u, 0, g, 1, 1, wf, wg, 0x90010000u, 0x1000, 0x1000, 64, 64, 0x90020000u, nbuf};
  for (int i = 0; i < 14; i++) w[k++] = f[i], w[k++] = 0;
  for (uint32_t i = 0; i < nbuf; i++) w[k++] = base[i], w[k++] = 0;
  for (uint32_t i = 0; i < nbuf; i++) w[k++] = size[i], w[k++] = 0;
  for (uint32_t i = 0; i < nbuf; i++) w[k++] = alloc[i], w[k++] = 0;
  size_t p = 0;
  for (int i = 0; i < k; i++) p += (size_t)snprintf(out + p, n - p, "%08x\n", w[i]);
}

static int setup(void **state) {
  tmpcase *t = calloc(1, sizeof *t);
  strcpy(t->dir, "/tmp/vt_tv_XXXXXX");
  assert_non_null(mkdtemp(t->dir));
  snprintf(t->meta, sizeof t->meta, "%s/k_0.metadata", t->dir);
  snprintf(t->data, sizeof t->data, "%s/k_0.data", t->dir);
  *state = t;
  return 0;
}

static int teardown(void **state) {
  tmpcase *t = *state;
  unlink(t->meta);
  unlink(t->data);
  char p[160];
  snprintf(p, sizeof p, "%s/exp.txt", t->dir);
  unlink(p);
  rmdir(t->dir);
  free(t);
  return 0;
}

static const uint32_t B2[2] = {0x90000000u, 0x90001000u};

static void good_case(void **state) {
  tmpcase *t = *state;
  char m[4096];
  uint32_t sz[2] = {8, 5}, al[2] = {0x1000, 0x1000};
  make_meta(m, sizeof m, 2, 8, 4, 2, B2, sz, al);
  m[strlen(m) - 1] = 0; /* no trailing newline: must be tolerated */
  write_file(t->meta, m);
  write_file(t->data, "00000001\n0x00000002\n11223344\n000000ff\n");
  vt_testvec tv;
  vt_error e;
  assert_int_equal(vt_testvec_load(t->meta, t->data, &tv, &e), 0);
  assert_int_equal(tv.grid[0], 2);
  assert_int_equal(tv.wf_size, 8);
  assert_int_equal(tv.wg_size, 4);
  assert_int_equal(tv.nbuf, 2);
  assert_int_equal(tv.bufs[1].size, 5);
  assert_int_equal(tv.nwords, 4);

  vt_config c;
  vt_config_defaults(&c);
  vt_device *d = vt_device_create(&c, &e);
  assert_non_null(d);
  assert_int_equal(vt_testvec_install(d, &tv, &e), 0);
  uint32_t v[2];
  assert_int_equal(vt_mem_read(d, 0x90001000u, v, 8, &e), 0);
  assert_int_equal(v[0], 0x11223344u);
  assert_int_equal(v[1] & 0xff, 0xff);
  vt_launch l;
  vt_testvec_launch(d, &tv, &l);
  assert_int_equal(l.start_pc, 0x80000000u);
  assert_int_equal(l.num_threads, 8);
  assert_int_equal(l.num_warps, 4);
  assert_int_equal(l.pds_base, 0x90020000u);

  char p[160];
  snprintf(p, sizeof p, "%s/exp.txt", t->dir);
  write_file(p, "# comment\n0x90000000 0x00000001\n90000004 00000002\n");
  vt_memwords mw;
  assert_int_equal(vt_memwords_read(p, &mw, &e), 0);
  assert_int_equal(mw.n, 2);
  assert_int_equal(vt_memwords_compare(d, &mw, "exp", &e), 0);
  mw.w[1].word = 3;
  assert_int_equal(vt_memwords_compare(d, &mw, "exp", &e), -1);
  assert_int_equal(e.kind, VT_ERR_MISMATCH);
  assert_non_null(strstr(e.msg, "0x90000004: got 0x00000002, expected 0x00000003"));
  vt_memwords_free(&mw);
  vt_device_destroy(d);
  vt_testvec_free(&tv);
}

/* loads and expects one format error mentioning `needle` */
static void expect_bad(tmpcase *t, const char *needle) {
  vt_testvec tv;
  vt_error e;
  assert_int_equal(vt_testvec_load(t->meta, t->data, &tv, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  if (!strstr(e.msg, needle)) fail_msg("message '%s' lacks '%s'", e.msg, needle);
}

static void truncated_data(void **state) {
  tmpcase *t = *state;
  char m[4096];
  uint32_t sz[2] = {8, 8}, al[2] = {0x1000, 0x1000};
  make_meta(m, sizeof m, 1, 8, 1, 2, B2, sz, al);
  write_file(t->meta, m);
  write_file(t->data, "00000001\n00000002\n00000003\n");
  expect_bad(t, "truncated data: buffer 1");
  expect_bad(t, "k_0.data:4");
}

static void truncated_meta(void **state) {
  tmpcase *t = *state;
  char m[4096];
  uint32_t sz[2] = {8, 8}, al[2] = {0x1000, 0x1000};
  make_meta(m, sizeof m, 1, 8, 1, 2, B2, sz, al);
  m[strlen(m) - 20] = 0; /* cut the last words */
  write_file(t->meta, m);
  write_file(t->data, "");
  expect_bad(t, "truncated metadata");
}

static void impossible_shapes(void **state) {
  tmpcase *t = *state;
  char m[4096];
  uint32_t sz[2] = {8, 8}, al[2] = {0x1000, 0x1000};
  write_file(t->data, "1\n2\n3\n4\n");
  make_meta(m, sizeof m, 0, 8, 1, 2, B2, sz, al);
  write_file(t->meta, m);
  expect_bad(t, "impossible grid");
  make_meta(m, sizeof m, 1, 0, 1, 2, B2, sz, al);
  write_file(t->meta, m);
  expect_bad(t, "wf_size 0");
  make_meta(m, sizeof m, 1, 64, 1, 2, B2, sz, al);
  write_file(t->meta, m);
  expect_bad(t, "wf_size 64");
  make_meta(m, sizeof m, 1, 8, 0, 2, B2, sz, al);
  write_file(t->meta, m);
  expect_bad(t, "wg_size 0");
  make_meta(m, sizeof m, 1, 8, 1, 2, B2, sz, al);
  memcpy(m + 26 * 9, "000186a0", 8); /* num_buffer = 100000, no arrays that long */
  write_file(t->meta, m);
  expect_bad(t, "num_buffer 100000");
  uint32_t ov[2] = {0x90000000u, 0x90000800u};
  make_meta(m, sizeof m, 1, 8, 1, 2, ov, sz, al);
  write_file(t->meta, m);
  expect_bad(t, "overlaps buffer 0");
  uint32_t big[2] = {0x2000, 8};
  make_meta(m, sizeof m, 1, 8, 1, 2, B2, big, al);
  write_file(t->meta, m);
  expect_bad(t, "exceeds its allocation");
}

static void garbage(void **state) {
  tmpcase *t = *state;
  write_file(t->meta, "80000000\n00000000\nhello world\n");
  write_file(t->data, "");
  expect_bad(t, "k_0.metadata:3: not a 32-bit hex word");
  char m[4096];
  uint32_t sz[2] = {8, 8}, al[2] = {0x1000, 0x1000};
  make_meta(m, sizeof m, 1, 8, 1, 2, B2, sz, al);
  write_file(t->meta, m);
  write_file(t->data, "1\n2\nzz\n4\n");
  expect_bad(t, "k_0.data:3");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(good_case, setup, teardown),
      cmocka_unit_test_setup_teardown(truncated_data, setup, teardown),
      cmocka_unit_test_setup_teardown(truncated_meta, setup, teardown),
      cmocka_unit_test_setup_teardown(impossible_shapes, setup, teardown),
      cmocka_unit_test_setup_teardown(garbage, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
