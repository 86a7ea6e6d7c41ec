/* ELF writer + reader: an assembled executable reads back with the expected
 * entry, segments, sections and symbols; relocatable output has .rela
 * entries; malformed and truncated files are rejected with one error and
 * never crash (truncation at every length, header corruptions, bit flips). */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "asm.h"
#include "isa.h"
#include "test_files.h"
#include "vt_elf.h"

static const char *prog =
    "  .text\n"
    "  .globl _start\n"
    "_start:\n"
    "  la a0, table\n"        /* auipc + addi */
    "  call kern\n"            /* auipc + jalr */
    "  endprg x0, x0, x0\n"
    "  .globl kern\n"
    "  .type kern, @function\n"
    "kern:\n"
    "  lw a1, 0(a0)\n"
    "  ret\n"
    "  .size kern, .-kern\n"
    "  .data\n"
    "table: .word 1, 2, kern\n"
    "  .bss\n"
    "scratch: .zero 32\n";

/* Assembles prog into a new file made from the mkstemp template path. */
static void write_prog(char *path, int relocatable) {
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  close(fd);
  asm_source s = {"prog.S", prog};
  asm_options opt = {relocatable, 0x80000000u, 10, 0};
  asm_object *o;
  asm_diags d = {0};
  vt_error e = {0};
  if (asm_assemble(&s, 1, &opt, &o, &d, &e)) fail_msg("assemble: %s", e.msg);
  asm_diags_free(&d);
  if (asm_write_elf(o, path, &e)) fail_msg("write: %s", e.msg);
  asm_free(o);
}

static uint32_t word_at(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void test_exec_roundtrip(void **state) {
  (void)state;
  char path[] = "/tmp/vt_elf_XXXXXX";
  write_prog(path, 0);
  vt_elf_file f;
  vt_error e = {0};
  if (vt_elf_read_file(path, &f, &e)) fail_msg("read: %s", e.msg);
  assert_int_equal(f.type, ET_EXEC);
  assert_int_equal(f.entry, 0x80000000u);
  /* code, data(+bss) */
  assert_int_equal(f.nsegs, 2);
  assert_int_equal(f.segs[0].vaddr, 0x80000000u);
  assert_int_equal(f.segs[0].filesz, 7 * 4);
  assert_int_equal(f.segs[0].flags, PF_R | PF_X);
  assert_int_equal(f.segs[1].vaddr, 0x80001000u); /* next page */
  assert_int_equal(f.segs[1].filesz, 12);
  assert_int_equal(f.segs[1].memsz, 12 + 32);
  assert_int_equal(f.segs[1].flags, PF_R | PF_W);
  /* la a0, table: auipc a0, 1 ; addi a0, a0, 0 (table at 0x80001000) */
  assert_int_equal(word_at(f.segs[0].bytes), 0x00001517u);
  assert_int_equal(word_at(f.segs[0].bytes + 4), 0x00050513u);
  /* call kern (pc 0x80000008 -> 0x80000014): auipc ra, 0 ; jalr ra, 12(ra) */
  assert_int_equal(word_at(f.segs[0].bytes + 8), 0x00000097u);
  assert_int_equal(word_at(f.segs[0].bytes + 12), 0x00c080e7u);
  /* .word kern holds its address */
  assert_int_equal(word_at(f.segs[1].bytes + 8), 0x80000014u);
  const vt_elf_symbol *k = vt_elf_find_symbol(&f, "kern");
  assert_non_null(k);
  assert_int_equal(k->value, 0x80000014u);
  assert_int_equal(k->size, 8);
  assert_int_equal(k->type, STT_FUNC);
  assert_int_equal(k->bind, STB_GLOBAL);
  const vt_elf_symbol *t = vt_elf_find_symbol(&f, "table");
  assert_non_null(t);
  assert_int_equal(t->value, 0x80001000u);
  assert_int_equal(t->bind, STB_LOCAL);
  assert_null(vt_elf_find_symbol(&f, "nothing"));
  const vt_elf_section *bss = vt_elf_find_section(&f, ".bss");
  assert_non_null(bss);
  assert_int_equal(bss->type, SHT_NOBITS);
  assert_int_equal(bss->addr, 0x8000100cu);
  vt_elf_free(&f);
  unlink(path);
}

static void test_relocatable(void **state) {
  (void)state;
  char path[] = "/tmp/vt_elf_XXXXXX";
  write_prog(path, 1);
  vt_elf_file f;
  vt_error e = {0};
  if (vt_elf_read_file(path, &f, &e)) fail_msg("read: %s", e.msg);
  assert_int_equal(f.type, ET_REL);
  assert_int_equal(f.nsegs, 0);
  const vt_elf_section *r = vt_elf_find_section(&f, ".rela.text");
  /* la table (cross-section): PCREL_HI20 + PCREL_LO12_I; call kern (a global
   * symbol, so a relocation even in the same section, as GNU as/llvm-mc) */
  assert_non_null(r);
  assert_int_equal(r->size, 3 * 12);
  assert_int_equal(r->type, SHT_RELA);
  const uint8_t *p = r->data;
  assert_int_equal(word_at(p + 4) & 0xff, R_RISCV_PCREL_HI20);
  assert_int_equal(word_at(p + 16) & 0xff, R_RISCV_PCREL_LO12_I);
  assert_int_equal(word_at(p + 28) & 0xff, R_RISCV_CALL_PLT);
  const vt_elf_section *rd = vt_elf_find_section(&f, ".rela.data");
  assert_non_null(rd);
  assert_int_equal(word_at(rd->data + 4) & 0xff, R_RISCV_32);
  vt_elf_free(&f);
  unlink(path);
}

static void expect_reject(const uint8_t *buf, size_t n, const char *what) {
  vt_elf_file f;
  vt_error e = {0};
  if (!vt_elf_read_mem(buf, n, &f, &e)) {
    vt_elf_free(&f);
    fail_msg("%s (%zu bytes) was accepted", what, n);
  }
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_true(strlen(e.msg) > 0);
  assert_null(strchr(e.msg, '\n'));
}

static void put32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static void test_malformed(void **state) {
  (void)state;
  char path[] = "/tmp/vt_elf_XXXXXX";
  write_prog(path, 0);
  size_t n;
  uint8_t *good = slurp(path, &n);
  unlink(path);
  uint8_t *b = malloc(n);
  assert_non_null(b);

  for (size_t len = 0; len < n; len++) expect_reject(good, len, "a truncated file");

  memcpy(b, good, n);
  b[EI_CLASS] = ELFCLASS64;
  expect_reject(b, n, "ELFCLASS64");
  memcpy(b, good, n);
  b[EI_DATA] = ELFDATA2MSB;
  expect_reject(b, n, "big-endian");
  memcpy(b, good, n);
  b[offsetof(Elf32_Ehdr, e_machine)] = EM_386;
  expect_reject(b, n, "a wrong machine");
  memcpy(b, good, n);
  b[0] = 0;
  expect_reject(b, n, "a bad magic");
  /* a segment beyond the end of the file */
  memcpy(b, good, n);
  uint32_t phoff = word_at(b + offsetof(Elf32_Ehdr, e_phoff));
  put32(b + phoff + offsetof(Elf32_Phdr, p_offset), (uint32_t)n - 4);
  expect_reject(b, n, "a segment beyond the file");
  /* filesz > memsz */
  memcpy(b, good, n);
  put32(b + phoff + offsetof(Elf32_Phdr, p_memsz), 0);
  expect_reject(b, n, "filesz > memsz");
  /* a section beyond the end of the file */
  memcpy(b, good, n);
  uint32_t shoff = word_at(b + offsetof(Elf32_Ehdr, e_shoff));
  put32(b + shoff + sizeof(Elf32_Shdr) + offsetof(Elf32_Shdr, sh_size), 0x7fffffff);
  expect_reject(b, n, "a section beyond the file");
  /* section headers beyond the file */
  memcpy(b, good, n);
  put32(b + offsetof(Elf32_Ehdr, e_shoff), (uint32_t)n);
  expect_reject(b, n, "a section header table beyond the file");

  /* bit flips: accepted or rejected, never a crash (ASan builds check) */
  uint64_t s = 12345;
  int rejected = 0;
  for (int i = 0; i < 3000; i++) {
    memcpy(b, good, n);
    for (int k = 0; k < 1 + i % 4; k++) {
      s = s * 6364136223846793005ull + 1;
      size_t pos = (size_t)(s >> 33) % n;
      b[pos] ^= (uint8_t)(1u << ((s >> 20) % 8));
    }
    vt_elf_file f;
    vt_error e = {0};
    if (vt_elf_read_mem(b, n, &f, &e)) {
      rejected++;
      assert_true(strlen(e.msg) > 0);
    } else {
      for (size_t j = 0; j < f.nsegs; j++) /* touch every byte the reader promises */
        for (uint32_t q = 0; q < f.segs[j].filesz; q++) s += f.segs[j].bytes[q];
      for (size_t j = 0; j < f.nsyms; j++) s += strlen(f.syms[j].name);
      vt_elf_free(&f);
    }
  }
  print_message("bit flips: %d of 3000 rejected\n", rejected);
  free(b);
  free(good);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_exec_roundtrip),
      cmocka_unit_test(test_relocatable),
      cmocka_unit_test(test_malformed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
