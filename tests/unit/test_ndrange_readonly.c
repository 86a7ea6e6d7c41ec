/* The launch's metadata and argument block are read-only for the device
 * (src/driver/ndrange.c, launch_block.c map them VT_PERM_R, so loads from
 * them may run ahead: docs/simulator.md §2): both regions are mapped
 * read-only after vt_ndrange_setup, a kernel that stores into its argument
 * block stops with a fault naming the address, and the block keeps its
 * value. */
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
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  asm_diags dg = {0};
  vt_error e;
  assert_int_equal(asm_assemble_files(paths, 2, &opt, elf, &dg, &e), 0);
  asm_diags_free(&dg);

  vt_device *d = vt_device_create(NULL, &e);
  assert_non_null(d);
  vt_heap h;
  vt_heap_init(&h);
  vt_ndrange nd;
  vt_ndrange_defaults(&nd);
  nd.elf = elf;
  nd.kernel = "scribble";
  nd.global[0] = 4;
  nd.work_dim = 1;
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
  const struct CMUnitTest tests[] = {cmocka_unit_test(argument_block_is_read_only)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
