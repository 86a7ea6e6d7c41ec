/* Zero-initialised --arg buffers (buf:zero:BYTES, buf:TYPE:COUNT[:zero])
 * cost no host memory: a fresh heap block already reads as zero, so the
 * driver neither allocates nor copies the zeros (a 1 GiB buffer used to take
 * 2 GB on the host). Initialised buffers still get their values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "asm.h"
#include "device.h"
#include "heap.h"
#include "ndrange.h"
#include "test_proc.h"

static void zero_buffers_cost_nothing(void **state) {
  (void)state;
  char elf[600];
  snprintf(elf, sizeof elf, "%s/ndrange_bufs_%d.elf", VT_BINARY_DIR, (int)getpid());
  char p0[512], p1[512], p2[512];
  snprintf(p0, sizeof p0, "%s/kernels/lib/start.S", VT_SOURCE_DIR);
  snprintf(p1, sizeof p1, "%s/kernels/lib/workitem.S", VT_SOURCE_DIR);
  snprintf(p2, sizeof p2, "%s/kernels/examples/vecadd.S", VT_SOURCE_DIR);
  const char *paths[] = {p0, p1, p2};
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  asm_diags dg = {0};
  vt_error e;
  assert_int_equal(asm_assemble_files(paths, 3, &opt, elf, &dg, &e), 0);
  asm_diags_free(&dg);

  vt_device *d = vt_device_create(NULL, &e);
  assert_non_null(d);
  vt_heap h;
  vt_heap_init(&h);
  vt_ndrange nd;
  vt_ndrange_defaults(&nd);
  nd.elf = elf;
  nd.kernel = "vecadd";
  nd.global[0] = 4;
  nd.work_dim = 1;
  vt_karg args[4];
  const char *specs[] = {"buf:zero:512M", "buf:u32:100000000", "buf:u32:4:iota", "u32:4"};
  long before = test_rss_kib();
  for (int i = 0; i < 4; i++)
    if (vt_karg_parse(specs[i], &args[i], &e)) fail_msg("%s: %s", specs[i], e.msg);
  nd.args = args;
  nd.nargs = 4;
  vt_launch l;
  if (vt_ndrange_setup(d, &h, &nd, &l, &e)) fail_msg("setup: %s", e.msg);
  long grew = test_rss_kib() - before;
  if (before >= 0 && grew > 64 * 1024) fail_msg("912 MiB of zero buffers took %ld MiB on the host", grew / 1024);
  uint32_t w = 1;
  assert_int_equal(vt_mem_read(d, args[0].addr + (512u << 20) - 4, &w, 4, &e), 0);
  assert_int_equal(w, 0);
  assert_int_equal(vt_mem_read(d, args[1].addr + 4 * 99999999u, &w, 4, &e), 0);
  assert_int_equal(w, 0);
  assert_int_equal(vt_mem_read(d, args[2].addr + 12, &w, 4, &e), 0);
  assert_int_equal(w, 3); /* iota */
  for (int i = 0; i < 4; i++) vt_karg_free(&args[i]);
  vt_heap_fini(&h);
  vt_device_destroy(d);
  unlink(elf);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(zero_buffers_cost_nothing)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
