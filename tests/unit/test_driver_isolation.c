/* Isolation of vt_root_mem_alloc contexts (docs/driver.md): buffers
 * allocated for a context's task id are reachable only by kernels started
 * for that task and only copied for it; vt_root_mem_free frees them.
 * Host copies into a buffer's padding fail under strict_bounds. The ELF
 * loader maps pages with their segments' p_flags. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "chengying.h"
#include "ventus.h"
#include "vt_elf.h"

static char elf_path[64];

/* *(uint32_t *)arg[0] = arg[1] + 1 (as test_driver_api's tiny kernel) */
static int make_elf(void **state) {
  (void)state;
  uint32_t code[7];
  vt_error e;
  assert_int_equal(asm_words("csrr x5, knl\nlw x6, 4(x5)\nlw x7, 0(x6)\nlw x28, 4(x6)\n"
                             "addi x28, x28, 1\nsw x28, 0(x7)\nendprg x0, x0, x0\n",
                             0x80000000u, code, 7, &e),
                   7);
  strcpy(elf_path, "/tmp/vt_ctx_XXXXXX");
  int fd = mkstemp(elf_path);
  assert_true(fd >= 0);
  close(fd);
  /* .text (RX) and .data (RW) share page 0x80000000; page 0x80001000 is
   * in no segment; .rodata (R) is page 0x80002000 */
  static const uint8_t word[4];
  vt_elf_wsec sec[3] = {
      {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x80000000u, 4, (const uint8_t *)code, sizeof code},
      {".data", SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0x80000020u, 4, word, 4},
      {".rodata", SHT_PROGBITS, SHF_ALLOC, 0x80002000u, 4, word, 4},
  };
  vt_elf_wsym sym = {"tiny", 0x80000000u, sizeof code, STT_FUNC, STB_GLOBAL, 0};
  vt_elf_wimage img = {1, 0x80000000u, sec, 3, &sym, 1, NULL, 0};
  if (vt_elf_write(elf_path, &img, &e)) fail_msg("vt_elf_write: %s", e.msg);
  return 0;
}

static int rm_elf(void **state) {
  (void)state;
  unlink(elf_path);
  return 0;
}

typedef struct {
  uint64_t buf, args, knl, pds;
} launch_bufs;

/* the buffers of one launch of the tiny kernel, allocated for `task` */
static void setup(vt_device_h d, uint64_t task, launch_bufs *b) {
  assert_int_equal(vt_buf_alloc(d, 4, &b->buf, 0, task, 0), 0);
  assert_int_equal(vt_buf_alloc(d, 8, &b->args, 0, task, 0), 0);
  assert_int_equal(vt_buf_alloc(d, 72, &b->knl, 0, task, 0), 0);
  assert_int_equal(vt_buf_alloc(d, 0x1000 * 4, &b->pds, 0, task, 0), 0);
  uint32_t argw[2] = {(uint32_t)b->buf, 41};
  uint32_t md[18] = {0x80000000u, (uint32_t)b->args, 1, 4, 1, 1, 4, 1, 1};
  assert_int_equal(vt_copy_to_dev(d, b->args, argw, sizeof argw, task, 0), 0);
  assert_int_equal(vt_copy_to_dev(d, b->knl, md, sizeof md, task, 0), 0);
}

static int start(vt_device_h d, const launch_bufs *b, uint64_t task) {
  uint64_t meta[12] = {0, 1, 1, 1, 4, 1, b->knl, 0x1000, 0x1000, 64, 64, b->pds};
  return vt_start(d, meta, task);
}

static void expect_error(vt_device_h d, const char *part) {
  if (!strstr(vt_last_error(d), part)) fail_msg("error \"%s\" lacks \"%s\"", vt_last_error(d), part);
}

static void contexts_isolated(void **state) {
  (void)state;
  vt_device_h d;
  assert_int_equal(vt_dev_open(&d), 0);
  assert_int_equal(vt_upload_kernel_file(d, elf_path, 0), 0);
  assert_int_equal(vt_root_mem_alloc(d, 1), 0);
  assert_int_equal(vt_root_mem_alloc(d, 2), 0);
  assert_int_equal(vt_root_mem_alloc(d, 1), -1);
  expect_error(d, "vt_root_mem_alloc: context 1 already exists");
  assert_int_equal(vt_root_mem_alloc(d, -3), -1);
  expect_error(d, "task id -3 is negative");
  launch_bufs b1, b2;
  setup(d, 1, &b1);
  setup(d, 2, &b2);
  /* each context runs on its own buffers */
  uint32_t out = 0;
  if (start(d, &b1, 1)) fail_msg("vt_start: %s", vt_last_error(d));
  assert_int_equal(vt_copy_from_dev(d, b1.buf, &out, 4, 1, 0), 0);
  assert_int_equal(out, 42);
  /* the host cannot copy another context's buffer */
  assert_int_equal(vt_copy_from_dev(d, b2.buf, &out, 4, 1, 0), -1);
  char want[128];
  snprintf(want, sizeof want, "buffer 0x%08x belongs to context 2, not to task 1", (unsigned)b2.buf);
  expect_error(d, want);
  /* context 1's kernel given context 2's buffer: a fault naming both */
  uint32_t argw[2] = {(uint32_t)b2.buf, 7};
  assert_int_equal(vt_copy_to_dev(d, b1.args, argw, sizeof argw, 1, 0), 0);
  assert_int_equal(start(d, &b1, 1), -1);
  snprintf(want, sizeof want, "4-byte store at 0x%08x: memory of context 2, the kernel runs for context 1",
           (unsigned)b2.buf);
  expect_error(d, want);
  assert_int_equal(vt_copy_from_dev(d, b2.buf, &out, 4, 2, 0), 0);
  assert_int_equal(out, 0); /* untouched */
  /* a task without a context reaches only shared memory: the metadata
   * block is context 1's */
  assert_int_equal(start(d, &b1, 5), -1);
  snprintf(want, sizeof want, "at 0x%08x: memory of context 1, the kernel runs for no context",
           (unsigned)b1.knl + 4);
  expect_error(d, want);
  /* ending a context frees its buffers */
  assert_int_equal(vt_root_mem_free(d, 2), 0);
  assert_int_equal(vt_copy_from_dev(d, b2.buf, &out, 4, 2, 0), -1);
  assert_int_equal(vt_root_mem_free(d, 2), -1);
  expect_error(d, "vt_root_mem_free: no context 2");
  assert_int_equal(vt_dev_close(d), 0);
}

/* the tiny kernel storing to `target` (a kernel-image address) */
static int store_to(vt_device_h d, uint32_t target) {
  launch_bufs b;
  setup(d, 0, &b);
  uint32_t argw[2] = {target, 9};
  assert_int_equal(vt_copy_to_dev(d, b.args, argw, sizeof argw, 0, 0), 0);
  int rc = start(d, &b, 0);
  assert_int_equal(vt_buf_free(d, 0, &b.buf, 0, 0), 0);
  return rc;
}

static void elf_segment_permissions(void **state) {
  (void)state;
  vt_device_h d;
  assert_int_equal(vt_dev_open(&d), 0);
  assert_int_equal(vt_upload_kernel_file(d, elf_path, 0), 0);
  assert_int_equal(vt_upload_kernel_file(d, elf_path, 0), 0); /* reloading keeps the mappings */
  assert_int_equal(store_to(d, 0x80000020u), 0); /* .data, on the page it shares with .text */
  uint32_t v = 0;
  assert_int_equal(vt_copy_from_dev(d, 0x80000020u, &v, 4, 0, 0), 0);
  assert_int_equal(v, 10);
  assert_int_equal(store_to(d, 0x80002000u), -1);
  expect_error(d, "4-byte store at 0x80002000: memory is read-only");
  assert_int_equal(store_to(d, 0x80001000u), -1);
  expect_error(d, "4-byte store at 0x80001000: address is not mapped");
  assert_int_equal(vt_dev_close(d), 0);
}

/* vt_start takes the private base from the caller: 4 threads x 1 warp x
 * pdsSize 0x1000 need 0x4000 bytes per group; 2 groups share the
 * 0x4000-byte buffer one after another (as upstream spike reuses one
 * region), and a buffer too small for one group is refused before the
 * launch runs */
static void vt_start_private_region(void **state) {
  (void)state;
  vt_device_h d;
  assert_int_equal(vt_dev_open(&d), 0);
  assert_int_equal(vt_upload_kernel_file(d, elf_path, 0), 0);
  launch_bufs b;
  setup(d, 0, &b);
  uint64_t meta[12] = {0, 2, 1, 1, 4, 1, b.knl, 0x1000, 0x1000, 64, 64, b.pds};
  assert_int_equal(vt_start(d, meta, 0), 0);
  meta[8] = 0x2000; /* pdsSize 0x2000: 0x8000 bytes for one group */
  assert_int_equal(vt_start(d, meta, 0), -1);
  char want[160];
  snprintf(want, sizeof want, "private region at 0x%08x does not hold one work-group's 0x8000 bytes",
           (unsigned)b.pds);
  expect_error(d, want);
  assert_int_equal(vt_dev_close(d), 0);
}

/* 6 requested bytes: bytes 0..5 are the buffer, 6..4095 padding */
static void strict_bounds_host_copies(void **state) {
  (void)state;
  char err[256];
  const char *ov[] = {"strict_bounds=1"};
  cy_device *d = cy_create(NULL, ov, 1, err, sizeof err);
  assert_non_null(d);
  uint32_t a;
  uint8_t bytes[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  assert_int_equal(cy_alloc(d, 6, &a), 0);
  assert_int_equal(cy_write(d, a, bytes, 6), 0);
  assert_int_equal(cy_write(d, a, bytes, 8), -1);
  char want[160];
  snprintf(want, sizeof want,
           "host write of 8 bytes at 0x%08x: 0x%08x is in the padding after a buffer's requested size", a,
           a + 6);
  if (!strstr(cy_error(d), want)) fail_msg("error \"%s\" lacks \"%s\"", cy_error(d), want);
  assert_int_equal(cy_read(d, a + 4, bytes, 4), -1);
  /* freeing the buffer frees its padding region too: the next buffer
   * starts at the same address and may be a whole page */
  assert_int_equal(cy_free(d, a), 0);
  uint32_t b;
  assert_int_equal(cy_alloc(d, 4096, &b), 0);
  assert_int_equal(b, a);
  assert_int_equal(cy_write(d, b + 4092, bytes, 4), 0);
  cy_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(contexts_isolated),
      cmocka_unit_test(strict_bounds_host_copies),
      cmocka_unit_test(elf_segment_permissions),
      cmocka_unit_test(vt_start_private_region),
  };
  return cmocka_run_group_tests(tests, make_elf, rm_elf);
}
