/* Kernel ELF loading (audit F6/F8 R04-R06, R09): a huge .bss costs no host
 * memory and reads as zero, also after a reload over dirtied memory;
 * overlapping segments and segments reaching the buffer heap are format
 * errors that name the segments and their addresses. ELFs are built byte by
 * byte here (ELF32 header + program headers, no sections). */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "device.h"
#include "elf_load.h"
#include "test_proc.h"

typedef struct {
  uint32_t vaddr, filesz, memsz;
} seg;

/* writes an ELF32 RISC-V executable with these PT_LOAD segments (file bytes
 * 0x11 0x22 ...) to a temporary file; its path in path[64] */
static void write_elf(char *path, const seg *s, int n) {
  uint8_t buf[4096] = {0};
  Elf32_Ehdr *h = (Elf32_Ehdr *)buf;
  memcpy(h->e_ident, ELFMAG, SELFMAG);
  h->e_ident[EI_CLASS] = ELFCLASS32;
  h->e_ident[EI_DATA] = ELFDATA2LSB;
  h->e_ident[EI_VERSION] = EV_CURRENT;
  h->e_type = ET_EXEC;
  h->e_machine = EM_RISCV;
  h->e_version = EV_CURRENT;
  h->e_entry = 0x80000000u;
  h->e_phoff = sizeof *h;
  h->e_ehsize = sizeof *h;
  h->e_phentsize = sizeof(Elf32_Phdr);
  h->e_phnum = (uint16_t)n;
  uint32_t off = 1024;
  for (int i = 0; i < n; i++) {
    Elf32_Phdr p = {.p_type = PT_LOAD, .p_offset = off, .p_vaddr = s[i].vaddr, .p_paddr = s[i].vaddr,
                    .p_filesz = s[i].filesz, .p_memsz = s[i].memsz, .p_flags = PF_R | PF_W | PF_X,
                    .p_align = 4};
    memcpy(buf + sizeof *h + (size_t)i * sizeof p, &p, sizeof p);
    for (uint32_t k = 0; k < s[i].filesz; k++) buf[off + k] = (uint8_t)(0x11 * (k + 1));
    off += s[i].filesz;
  }
  snprintf(path, 64, "/tmp/vt_elfXXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, buf, off), (ssize_t)off);
  close(fd);
}

static int load(vt_device *d, const seg *s, int n, vt_error *e) {
  char path[64];
  write_elf(path, s, n);
  int r = vt_kernel_load(d, path, NULL, e);
  unlink(path);
  return r;
}

static void big_bss_is_free_and_zero(void **state) {
  (void)state;
  vt_error e;
  vt_device *d = vt_device_create(NULL, &e);
  assert_non_null(d);
  /* 4 bytes of code, then 240 MiB of .bss (it used to be calloc'ed and
   * copied: about 480 MB on the host) */
  const seg s[] = {{0x80000000u, 4, 0x0f000000u}};
  long before = test_rss_kib();
  if (load(d, s, 1, &e)) fail_msg("%s", e.msg);
  long grew = test_rss_kib() - before;
  if (before >= 0 && grew > 64 * 1024) fail_msg("loading took %ld MiB of host memory", grew / 1024);
  uint32_t w = 1;
  assert_int_equal(vt_mem_read(d, 0x80000000u, &w, 4, &e), 0);
  assert_int_equal(w, 0x44332211u);
  assert_int_equal(vt_mem_read(d, 0x80000000u + 0x0f000000u - 4, &w, 4, &e), 0);
  assert_int_equal(w, 0);
  /* a kernel dirtied .bss; loading again must give zeros again */
  w = 0xdeadbeef;
  assert_int_equal(vt_mem_write(d, 0x80001000u, &w, 4, &e), 0);
  if (load(d, s, 1, &e)) fail_msg("%s", e.msg);
  assert_int_equal(vt_mem_read(d, 0x80001000u, &w, 4, &e), 0);
  assert_int_equal(w, 0);
  vt_device_destroy(d);
}

static void overlapping_segments(void **state) {
  (void)state;
  vt_error e;
  vt_device *d = vt_device_create(NULL, &e);
  const seg s[] = {{0x80000000u, 8, 8}, {0x80000004u, 4, 4}};
  assert_int_equal(load(d, s, 2, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_non_null(strstr(e.msg, "segments 0 [0x80000000, +0x8) and 1 [0x80000004, +0x4) overlap"));
  vt_device_destroy(d);
}

static void segment_over_the_heap(void **state) {
  (void)state;
  vt_error e;
  vt_device *d = vt_device_create(NULL, &e);
  const seg s1[] = {{0x80000000u, 4, 4}, {0x80001000u, 0, 0x3fff0000u}}; /* the audit's 1 GiB .bss */
  assert_int_equal(load(d, s1, 2, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_non_null(strstr(e.msg, "segment 1 [0x80001000, +0x3fff0000) reaches into the buffer heap at 0x90000000"));
  const seg s2[] = {{0x90000000u, 4, 4}};
  assert_int_equal(load(d, s2, 1, &e), -1);
  assert_non_null(strstr(e.msg, "segment 0 [0x90000000, +0x4) reaches into the buffer heap"));
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(big_bss_is_free_and_zero),
      cmocka_unit_test(overlapping_segments),
      cmocka_unit_test(segment_over_the_heap),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
