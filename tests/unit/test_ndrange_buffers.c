/* The buffers of an NDRange launch (src/driver/ndrange.c):
 *  - zero-initialised --arg buffers (buf:zero:BYTES, buf:TYPE:COUNT[:zero])
 *    cost no host memory: a fresh heap block already reads as zero, so the
 *    driver neither allocates nor copies the zeros (a 1 GiB buffer used to
 *    take 2 GB on the host). Initialised buffers still get their values;
 *  - the launch's metadata and argument blocks are read-only for the device
 *    (so that loads from them may run ahead: docs/simulator.md §2): both
 *    regions are mapped read-only, a kernel that stores into its argument
 *    block stops with a fault naming the address, and the block keeps its
 *    value, while its buffer argument stays writable. */
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

/* the n files of paths assembled into elf */
static void assemble(const char *elf, const char *const *paths, size_t n) {
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  asm_diags dg = {0};
  vt_error e;
  assert_int_equal(asm_assemble_files(paths, n, &opt, elf, &dg, &e), 0);
  asm_diags_free(&dg);
}

/* a new device with an empty heap, and a one-dimensional NDRange of 4
 * work-items of `kernel` in elf */
static vt_device *device_for(vt_heap *h, vt_ndrange *nd, const char *elf, const char *kernel) {
  vt_error e;
  vt_device *d = vt_device_create(NULL, &e);
  assert_non_null(d);
  vt_heap_init(h);
  vt_ndrange_defaults(nd);
  nd->elf = elf;
  nd->kernel = kernel;
  nd->global[0] = 4;
  nd->work_dim = 1;
  return d;
}

static void zero_buffers_cost_nothing(void **state) {
  (void)state;
  char elf[600];
  snprintf(elf, sizeof elf, "%s/ndrange_bufs_%d.elf", VT_BINARY_DIR, (int)getpid());
  char p0[512], p1[512], p2[512];
  snprintf(p0, sizeof p0, "%s/kernels/lib/start.S", VT_SOURCE_DIR);
  snprintf(p1, sizeof p1, "%s/kernels/lib/workitem.S", VT_SOURCE_DIR);
  snprintf(p2, sizeof p2, "%s/kernels/examples/vecadd.S", VT_SOURCE_DIR);
  const char *paths[] = {p0, p1, p2};
  assemble(elf, paths, 3);

  vt_heap h;
  vt_ndrange nd;
  vt_device *d = device_for(&h, &nd, elf, "vecadd");
  vt_error e;
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

static const char kernel_src[] =
    "        .text\n"
    "        .globl  scribble\n"
    "scribble:\n"
    "        lw      t0, 0(a0)\n" /* the buffer's address */
    "        li      t1, 7\n"
    "        sw      t1, 0(t0)\n" /* into the buffer: fine */
    "        sw      t1, 4(a0)\n" /* into the argument block: a fault */
    "        ret\n";

static void argument_block_is_read_only(void **state) {
  (void)state;
  char elf[600], ksrc[600], p0[512];
  snprintf(elf, sizeof elf, "%s/ndrange_ro_%d.elf", VT_BINARY_DIR, (int)getpid());
  snprintf(ksrc, sizeof ksrc, "%s/ndrange_ro_%d.S", VT_BINARY_DIR, (int)getpid());
  snprintf(p0, sizeof p0, "%s/kernels/lib/start.S", VT_SOURCE_DIR);
  FILE *f = fopen(ksrc, "w");
  assert_non_null(f);
  fputs(kernel_src, f);
  fclose(f);
  const char *paths[] = {p0, ksrc};
  assemble(elf, paths, 2);

  vt_heap h;
  vt_ndrange nd;
  vt_device *d = device_for(&h, &nd, elf, "scribble");
  vt_error e;
  vt_karg args[2];
  const char *specs[] = {"buf:u32:4", "u32:5"};
  for (int i = 0; i < 2; i++)
    if (vt_karg_parse(specs[i], &args[i], &e)) fail_msg("%s: %s", specs[i], e.msg);
  nd.args = args;
  nd.nargs = 2;
  vt_launch l;
  if (vt_ndrange_setup(d, &h, &nd, &l, &e)) fail_msg("setup: %s", e.msg);

  uint32_t argaddr = 0, base, size;
  unsigned perm;
  assert_int_equal(vt_mem_read(d, l.knl + 4, &argaddr, 4, &e), 0);
  assert_int_equal(vt_mem_region_from(d, l.knl, &base, &size, &perm), 1);
  assert_int_equal(base, l.knl);
  assert_int_equal(perm, VT_PERM_R);
  assert_int_equal(vt_mem_region_from(d, argaddr, &base, &size, &perm), 1);
  assert_int_equal(base, argaddr);
  assert_int_equal(perm, VT_PERM_R);
  /* the buffer argument stays writable */
  assert_int_equal(vt_mem_region_from(d, args[0].addr, &base, &size, &perm), 1);
  assert_int_equal(perm, VT_PERM_R | VT_PERM_W);

  assert_int_not_equal(vt_device_launch(d, &l, &e), 0);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_non_null(strstr(e.msg, "read-only"));
  assert_int_equal(e.addr, argaddr + 4);
  uint32_t v = 0;
  assert_int_equal(vt_mem_read(d, argaddr + 4, &v, 4, &e), 0);
  assert_int_equal(v, 5);
  assert_int_equal(vt_mem_read(d, args[0].addr, &v, 4, &e), 0);
  assert_int_equal(v, 7);

  for (int i = 0; i < 2; i++) vt_karg_free(&args[i]);
  vt_heap_fini(&h);
  vt_device_destroy(d);
  unlink(elf);
  unlink(ksrc);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(zero_buffers_cost_nothing),
                                     cmocka_unit_test(argument_block_is_read_only)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
