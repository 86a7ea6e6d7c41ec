/* Validating ELF32 LE RISC-V reader. Every offset and size is checked
 * against the file before use; a malformed file gives one VT_ERR_FORMAT. */
#include <elf.h>
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vt_elf.h"
#include "vt_file.h"

typedef struct {
  char *buf;
  size_t len, cap;
} pool;

/* Returns the pool offset of a copy of s, or (size_t)-1. */
static size_t pool_add(pool *p, const char *s) {
  size_t n = strlen(s) + 1;
  if (p->len + n > p->cap) {
    size_t cap = p->cap ? p->cap : 1024;
    while (cap < p->len + n) cap *= 2;
    char *b = realloc(p->buf, cap);
    if (!b) return (size_t)-1;
    p->buf = b;
    p->cap = cap;
  }
  memcpy(p->buf + p->len, s, n);
  p->len += n;
  return p->len - n;
}

static int in_file(uint64_t off, uint64_t size, size_t len) {
  return off <= len && size <= len - off;
}

void vt_elf_free(vt_elf_file *f) {
  if (!f) return;
  free(f->secs);
  free(f->segs);
  free(f->syms);
  free(f->file);
  free(f->names);
  memset(f, 0, sizeof *f);
}

#define BAD(...) do { vt_fail(e, VT_ERR_FORMAT, __VA_ARGS__); goto fail; } while (0)

/* Takes ownership of buf. */
static int parse(uint8_t *buf, size_t len, vt_elf_file *f, vt_error *e) {
  memset(f, 0, sizeof *f);
  f->file = buf;
  f->file_size = len;
  pool names = {0};
  size_t *sec_name = NULL, *sym_name = NULL;
  Elf *elf = NULL;
  if (elf_version(EV_CURRENT) == EV_NONE) BAD("libelf initialisation failed");
  if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG)) BAD("not an ELF file");
  if (buf[EI_CLASS] != ELFCLASS32) BAD("not a 32-bit ELF file (class %u)", buf[EI_CLASS]);
  if (buf[EI_DATA] != ELFDATA2LSB) BAD("not a little-endian ELF file");
  elf = elf_memory((char *)buf, len);
  if (!elf || elf_kind(elf) != ELF_K_ELF) BAD("malformed ELF: %s", elf_errmsg(-1));
  GElf_Ehdr eh;
  if (!gelf_getehdr(elf, &eh)) BAD("malformed ELF header: %s", elf_errmsg(-1));
  if (eh.e_machine != EM_RISCV) BAD("not a RISC-V ELF file (machine %u)", eh.e_machine);
  f->type = eh.e_type;
  f->entry = (uint32_t)eh.e_entry;

  size_t shnum = 0, phnum = 0, shstrndx = 0;
  if (elf_getshdrnum(elf, &shnum)) BAD("malformed section header table: %s", elf_errmsg(-1));
  if (elf_getphdrnum(elf, &phnum)) BAD("malformed program header table: %s", elf_errmsg(-1));
  /* libelf may quietly drop tables that do not fit: check the header's own counts */
  if ((shnum || eh.e_shnum || eh.e_shoff) &&
      (eh.e_shentsize != sizeof(Elf32_Shdr) ||
       !in_file(eh.e_shoff, (uint64_t)(shnum > eh.e_shnum ? shnum : eh.e_shnum) * eh.e_shentsize, len)))
    BAD("section header table beyond the end of the file or malformed");
  if ((phnum || eh.e_phnum) &&
      (eh.e_phentsize != sizeof(Elf32_Phdr) ||
       !in_file(eh.e_phoff, (uint64_t)(phnum > eh.e_phnum ? phnum : eh.e_phnum) * eh.e_phentsize, len)))
    BAD("program header table beyond the end of the file or malformed");
  if (shnum && elf_getshdrstrndx(elf, &shstrndx)) BAD("bad section name table index");
  if (shnum && shstrndx >= shnum) BAD("section name table index %zu out of range", shstrndx);

  /* sections */
  f->secs = calloc(shnum ? shnum : 1, sizeof *f->secs);
  sec_name = calloc(shnum ? shnum : 1, sizeof *sec_name);
  if (!f->secs || !sec_name) BAD("out of memory");
  f->nsecs = shnum;
  size_t symtab = 0;
  for (size_t i = 1; i < shnum; i++) {
    Elf_Scn *scn = elf_getscn(elf, i);
    GElf_Shdr sh;
    if (!scn || !gelf_getshdr(scn, &sh)) BAD("malformed section header %zu", i);
    if (sh.sh_type != SHT_NOBITS && !in_file(sh.sh_offset, sh.sh_size, len))
      BAD("section %zu extends beyond the end of the file", i);
    const char *nm = elf_strptr(elf, shstrndx, sh.sh_name);
    if (!nm) BAD("section %zu has a bad name offset", i);
    sec_name[i] = pool_add(&names, nm);
    if (sec_name[i] == (size_t)-1) BAD("out of memory");
    vt_elf_section *s = &f->secs[i];
    s->type = sh.sh_type;
    s->flags = (uint32_t)sh.sh_flags;
    s->addr = (uint32_t)sh.sh_addr;
    s->offset = (uint32_t)sh.sh_offset;
    s->size = (uint32_t)sh.sh_size;
    s->align = (uint32_t)sh.sh_addralign;
    s->link = sh.sh_link;
    s->info = sh.sh_info;
    s->entsize = (uint32_t)sh.sh_entsize;
    s->data = sh.sh_type == SHT_NOBITS ? NULL : buf + sh.sh_offset;
    if ((sh.sh_flags & SHF_ALLOC) && (uint64_t)sh.sh_addr + sh.sh_size > 0x100000000ull)
      BAD("section %zu wraps around the 32-bit address space", i);
    if (sh.sh_type == SHT_SYMTAB) {
      if (symtab) BAD("more than one symbol table");
      symtab = i;
    }
  }

  /* symbols */
  if (symtab) {
    const vt_elf_section *s = &f->secs[symtab];
    size_t ent = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
    if (s->entsize != ent || s->size % ent) BAD("bad symbol table entry size");
    if (s->link == 0 || s->link >= shnum || f->secs[s->link].type != SHT_STRTAB)
      BAD("symbol table has no valid string table");
    Elf_Data *d = elf_getdata(elf_getscn(elf, symtab), NULL);
    if (!d || d->d_size != s->size) BAD("cannot read the symbol table: %s", elf_errmsg(-1));
    size_t n = s->size / ent;
    f->syms = calloc(n ? n : 1, sizeof *f->syms);
    sym_name = calloc(n ? n : 1, sizeof *sym_name);
    if (!f->syms || !sym_name) BAD("out of memory");
    for (size_t i = 1; i < n; i++) {
      GElf_Sym y;
      if (!gelf_getsym(d, (int)i, &y)) BAD("bad symbol %zu", i);
      const char *nm = elf_strptr(elf, s->link, y.st_name);
      if (!nm) BAD("symbol %zu has a bad name offset", i);
      if (y.st_shndx != SHN_UNDEF && y.st_shndx < SHN_LORESERVE && y.st_shndx >= shnum)
        BAD("symbol '%s' refers to section %u, which does not exist", nm, y.st_shndx);
      vt_elf_symbol *o = &f->syms[f->nsyms];
      sym_name[f->nsyms] = pool_add(&names, nm);
      if (sym_name[f->nsyms] == (size_t)-1) BAD("out of memory");
      o->value = (uint32_t)y.st_value;
      o->size = (uint32_t)y.st_size;
      o->type = (uint8_t)GELF_ST_TYPE(y.st_info);
      o->bind = (uint8_t)GELF_ST_BIND(y.st_info);
      o->shndx = y.st_shndx;
      f->nsyms++;
    }
  }

  /* PT_LOAD segments */
  f->segs = calloc(phnum ? phnum : 1, sizeof *f->segs);
  if (!f->segs) BAD("out of memory");
  for (size_t i = 0; i < phnum; i++) {
    GElf_Phdr ph;
    if (!gelf_getphdr(elf, (int)i, &ph)) BAD("malformed program header %zu", i);
    if (ph.p_type != PT_LOAD) continue;
    if (!in_file(ph.p_offset, ph.p_filesz, len)) BAD("segment %zu extends beyond the end of the file", i);
    if (ph.p_filesz > ph.p_memsz) BAD("segment %zu has a file size larger than its memory size", i);
    if ((uint64_t)ph.p_vaddr + ph.p_memsz > 0x100000000ull)
      BAD("segment %zu wraps around the 32-bit address space", i);
    vt_elf_segment *g = &f->segs[f->nsegs++];
    g->vaddr = (uint32_t)ph.p_vaddr;
    g->filesz = (uint32_t)ph.p_filesz;
    g->memsz = (uint32_t)ph.p_memsz;
    g->flags = ph.p_flags;
    g->bytes = buf + ph.p_offset;
  }
  if (f->type == ET_EXEC && !f->nsegs) BAD("executable without PT_LOAD segments");

  elf_end(elf);
  elf = NULL;
  f->names = names.buf;
  for (size_t i = 1; i < f->nsecs; i++) f->secs[i].name = names.buf + sec_name[i];
  if (f->nsecs) f->secs[0].name = "";
  for (size_t i = 0; i < f->nsyms; i++) f->syms[i].name = names.buf + sym_name[i];
  free(sec_name);
  free(sym_name);
  return 0;
fail:
  if (elf) elf_end(elf);
  free(names.buf);
  free(sec_name);
  free(sym_name);
  vt_elf_free(f);
  return -1;
}

int vt_elf_read_mem(const void *buf, size_t len, vt_elf_file *f, vt_error *e) {
  uint8_t *copy = malloc(len ? len : 1);
  if (!copy) {
    memset(f, 0, sizeof *f);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  if (len) memcpy(copy, buf, len);
  return parse(copy, len, f, e);
}

int vt_elf_read_file(const char *path, vt_elf_file *f, vt_error *e) {
  memset(f, 0, sizeof *f);
  size_t len;
  uint8_t *buf = (uint8_t *)vt_read_file(path, &len, e);
  if (!buf) return -1;
  if (parse(buf, len, f, e)) {
    char msg[sizeof e->msg];
    snprintf(msg, sizeof msg, "%s", e->msg);
    vt_fail(e, e->kind, "%s: %s", path, msg);
    return -1;
  }
  return 0;
}

const vt_elf_symbol *vt_elf_find_symbol(const vt_elf_file *f, const char *name) {
  const vt_elf_symbol *local = NULL;
  for (size_t i = 0; i < f->nsyms; i++) {
    const vt_elf_symbol *y = &f->syms[i];
    if (y->shndx == SHN_UNDEF || strcmp(y->name, name)) continue;
    if (y->bind != STB_LOCAL) return y;
    if (!local) local = y;
  }
  return local;
}

const vt_elf_section *vt_elf_find_section(const vt_elf_file *f, const char *name) {
  for (size_t i = 1; i < f->nsecs; i++)
    if (f->secs[i].name && !strcmp(f->secs[i].name, name)) return &f->secs[i];
  return NULL;
}
