#include "elf_load.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static Elf *open_elf(const char *path, int *fd, vt_error *e) {
  if (elf_version(EV_CURRENT) == EV_NONE) {
    vt_fail(e, VT_ERR_INTERNAL, "libelf: %s", elf_errmsg(-1));
    return NULL;
  }
  *fd = open(path, O_RDONLY);
  if (*fd < 0) {
    vt_fail(e, VT_ERR_IO, "%s: %s", path, strerror(errno));
    return NULL;
  }
  Elf *elf = elf_begin(*fd, ELF_C_READ, NULL);
  GElf_Ehdr eh;
  if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
    vt_fail(e, VT_ERR_FORMAT, "%s: not an ELF file", path);
  } else if (gelf_getclass(elf) != ELFCLASS32 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
             eh.e_machine != EM_RISCV) {
    vt_fail(e, VT_ERR_FORMAT, "%s: not an ELF32 little-endian RISC-V file", path);
  } else {
    return elf;
  }
  if (elf) elf_end(elf);
  close(*fd);
  return NULL;
}

int vt_elf_load(vt_device *d, const char *path, vt_elf_image *img, vt_error *e) {
  int fd;
  Elf *elf = open_elf(path, &fd, e);
  if (!elf) return -1;
  int rc = -1;
  size_t nph = 0;
  GElf_Ehdr eh;
  gelf_getehdr(elf, &eh);
  if (elf_getphdrnum(elf, &nph) || nph == 0) {
    vt_fail(e, VT_ERR_FORMAT, "%s: no program headers (not an executable?)", path);
    goto out;
  }
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_filesz > ph.p_memsz || ph.p_vaddr + ph.p_memsz > 0x100000000ull) {
      vt_fail(e, VT_ERR_FORMAT, "%s: program header %zu: bad segment [0x%llx, +0x%llx)", path, i,
              (unsigned long long)ph.p_vaddr, (unsigned long long)ph.p_memsz);
      goto out;
    }
    if (ph.p_vaddr < lo) lo = ph.p_vaddr;
    if (ph.p_vaddr + ph.p_memsz > hi) hi = ph.p_vaddr + ph.p_memsz;
  }
  if (lo == UINT64_MAX) {
    vt_fail(e, VT_ERR_FORMAT, "%s: no PT_LOAD segment", path);
    goto out;
  }
  lo &= ~0xfffull;
  hi = (hi + 0xfff) & ~0xfffull;
  if (!vt_mem_is_mapped(d, (uint32_t)lo, (uint32_t)(hi - lo)) &&
      vt_mem_map(d, (uint32_t)lo, (uint32_t)(hi - lo), VT_PERM_RWX, e))
    goto out;
  size_t fsize = 0;
  char *raw = elf_rawfile(elf, &fsize);
  for (size_t i = 0; i < nph; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
    if (ph.p_offset + ph.p_filesz > fsize) {
      vt_fail(e, VT_ERR_FORMAT, "%s: program header %zu: segment past the end of the file", path, i);
      goto out;
    }
    if (ph.p_filesz &&
        vt_mem_write(d, (uint32_t)ph.p_vaddr, raw + ph.p_offset, (uint32_t)ph.p_filesz, e))
      goto out;
    uint64_t z = ph.p_memsz - ph.p_filesz;
    if (z) {
      uint8_t *zeros = calloc(1, (size_t)z);
      if (!zeros) {
        vt_fail(e, VT_ERR_NOMEM, "out of memory");
        goto out;
      }
      int r = vt_mem_write(d, (uint32_t)(ph.p_vaddr + ph.p_filesz), zeros, (uint32_t)z, e);
      free(zeros);
      if (r) goto out;
    }
  }
  if (img) {
    img->lo = (uint32_t)lo;
    img->hi = (uint32_t)(hi - 1) + 1;
    img->entry = (uint32_t)eh.e_entry;
  }
  rc = 0;
out:
  elf_end(elf);
  close(fd);
  return rc;
}

int vt_elf_symbol(const char *path, const char *name, uint32_t *addr, vt_error *e) {
  int fd;
  Elf *elf = open_elf(path, &fd, e);
  if (!elf) return -1;
  int found = 0;
  Elf_Scn *scn = NULL;
  while (!found && (scn = elf_nextscn(elf, scn))) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
    Elf_Data *data = elf_getdata(scn, NULL);
    size_t n = sh.sh_size / sh.sh_entsize;
    for (size_t i = 1; data && i < n; i++) {
      GElf_Sym s;
      if (!gelf_getsym(data, (int)i, &s) || s.st_shndx == SHN_UNDEF) continue;
      const char *nm = elf_strptr(elf, sh.sh_link, s.st_name);
      if (!nm || strcmp(nm, name)) continue;
      *addr = (uint32_t)s.st_value;
      found = 1;
      if (GELF_ST_BIND(s.st_info) == STB_GLOBAL) break;
    }
  }
  elf_end(elf);
  close(fd);
  if (!found) return vt_fail(e, VT_ERR_USAGE, "%s: no symbol named '%s' (the kernel name)", path, name);
  return 0;
}
