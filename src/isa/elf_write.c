/* ELF32 LE RISC-V writer (libelf, explicit layout so that segment file
 * offsets are congruent to their addresses modulo the page size). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vt_elf.h"
#include "vt_outfile.h"

#define PAGE 0x1000u

typedef struct {
  char *buf;
  size_t len, cap;
} strtab;

static size_t str_add(strtab *t, const char *s) {
  size_t n = strlen(s) + 1;
  if (t->len + n > t->cap) {
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + n) cap *= 2;
    char *b = realloc(t->buf, cap);
    if (!b) return (size_t)-1;
    t->buf = b;
    t->cap = cap;
  }
  memcpy(t->buf + t->len, s, n);
  t->len += n;
  return t->len - n;
}

static uint32_t align_up(uint32_t v, uint32_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

static int elf_fail(vt_error *e, const char *what) {
  return vt_fail(e, VT_ERR_IO, "libelf: %s: %s", what, elf_errmsg(-1));
}

static Elf_Scn *new_section(Elf *elf, size_t name, uint32_t type, uint32_t flags, uint32_t addr,
                            uint32_t off, uint32_t size, uint32_t align, void *buf, Elf_Type dtype,
                            uint32_t link, uint32_t info, uint32_t entsize) {
  Elf_Scn *scn = elf_newscn(elf);
  if (!scn) return NULL;
  Elf_Data *d = elf_newdata(scn);
  if (!d) return NULL;
  d->d_buf = buf;
  d->d_size = size;
  d->d_type = dtype;
  d->d_align = align ? align : 1;
  d->d_off = 0;
  d->d_version = EV_CURRENT;
  GElf_Shdr sh;
  if (!gelf_getshdr(scn, &sh)) return NULL;
  sh.sh_name = name;
  sh.sh_type = type;
  sh.sh_flags = flags;
  sh.sh_addr = addr;
  sh.sh_offset = off;
  sh.sh_size = size;
  sh.sh_addralign = align ? align : 1;
  sh.sh_link = link;
  sh.sh_info = info;
  sh.sh_entsize = entsize;
  if (!gelf_update_shdr(scn, &sh)) return NULL;
  return scn;
}

int vt_elf_write(const char *path, const vt_elf_wimage *img, vt_error *e) {
  if (elf_version(EV_CURRENT) == EV_NONE) return elf_fail(e, "init");
  int ns = img->nsecs;
  /* ELF indices: 1..ns user sections, then .rela.*, .symtab, .strtab, .shstrtab */
  int *rela_count = calloc((size_t)ns + 1, sizeof(int));
  strtab shstr = {0}, str = {0};
  void **bufs = calloc((size_t)ns + 8, sizeof(void *)); /* our allocations */
  int nbufs = 0, rc = -1, fd = -1;
  vt_outfile out;
  Elf *elf = NULL;
  char eb[128]; /* vt_strerror */
  if (!rela_count || !bufs) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
  for (int i = 0; i < img->nrelas; i++) rela_count[img->relas[i].sec]++;
  int nrelsec = 0;
  for (int i = 0; i < ns; i++) nrelsec += rela_count[i] > 0;

  fd = vt_outfile_open(&out, path, img->exec ? 0755 : 0644, e);
  if (fd < 0) goto out;
  elf = elf_begin(fd, ELF_C_WRITE, NULL);
  if (!elf) { elf_fail(e, "elf_begin"); goto out; }
  elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
  if (!gelf_newehdr(elf, ELFCLASS32)) { elf_fail(e, "ehdr"); goto out; }

  /* segments: runs of allocated sections with the same W/X flags */
  int nseg = 0;
  int *seg_first = calloc((size_t)ns + 1, sizeof(int));
  if (!seg_first) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
  bufs[nbufs++] = seg_first;
  if (img->exec) {
    uint32_t prev = 0xffffffffu;
    for (int i = 0; i < ns; i++) {
      const vt_elf_wsec *s = &img->secs[i];
      if (!(s->flags & SHF_ALLOC)) continue;
      uint32_t wx = s->flags & (SHF_WRITE | SHF_EXECINSTR);
      if (wx != prev) seg_first[i] = 1, nseg++;
      prev = wx;
    }
  }
  size_t ehsize = gelf_fsize(elf, ELF_T_EHDR, 1, EV_CURRENT);
  size_t phsize = gelf_fsize(elf, ELF_T_PHDR, 1, EV_CURRENT);
  size_t symsize = gelf_fsize(elf, ELF_T_SYM, 1, EV_CURRENT);
  size_t relasize = gelf_fsize(elf, ELF_T_RELA, 1, EV_CURRENT);
  uint32_t off = (uint32_t)ehsize;
  uint32_t phoff = 0;
  if (nseg) {
    phoff = off;
    off += (uint32_t)(phsize * (size_t)nseg);
  }

  if (str_add(&shstr, "") == (size_t)-1 || str_add(&str, "") == (size_t)-1) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    goto out;
  }
  /* user sections */
  uint32_t *sec_off = calloc((size_t)ns + 1, sizeof(uint32_t));
  if (!sec_off) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
  bufs[nbufs++] = sec_off;
  uint32_t seg_vaddr = 0, seg_off = 0;
  for (int i = 0; i < ns; i++) {
    const vt_elf_wsec *s = &img->secs[i];
    if (img->exec && (s->flags & SHF_ALLOC)) {
      if (seg_first[i]) {
        seg_vaddr = s->addr;
        seg_off = off + ((s->addr - off) % PAGE);
      }
      sec_off[i] = seg_off + (s->addr - seg_vaddr);
    } else {
      sec_off[i] = align_up(off, s->align);
    }
    if (s->type != SHT_NOBITS && sec_off[i] + s->size > off) off = sec_off[i] + s->size;
    if (s->type == SHT_NOBITS && sec_off[i] > off) off = sec_off[i];
    size_t nm = str_add(&shstr, s->name);
    if (nm == (size_t)-1) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
    if (!new_section(elf, (size_t)nm, s->type, s->flags, s->addr, sec_off[i], s->size, s->align,
                     (void *)s->data, ELF_T_BYTE, 0, 0, 0)) {
      elf_fail(e, "section");
      goto out;
    }
  }
  /* symbol table: null, section symbols (relocatable), locals, globals */
  int nsectsym = img->exec ? 0 : ns;
  int nsym = 1 + nsectsym + img->nsyms;
  int *symidx = calloc((size_t)img->nsyms + 1, sizeof(int));
  Elf32_Sym *symbuf = calloc((size_t)nsym, symsize);
  bufs[nbufs++] = symidx; /* NULL is fine: freed at out */
  bufs[nbufs++] = symbuf;
  if (!symidx || !symbuf) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
  int next = 1 + nsectsym;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < img->nsyms; i++)
      if ((img->syms[i].bind == STB_LOCAL) == (pass == 0)) symidx[i] = next++;
  int first_global = 1 + nsectsym;
  for (int i = 0; i < img->nsyms; i++)
    if (img->syms[i].bind == STB_LOCAL) first_global++;
  int symtab_ndx = 1 + ns + nrelsec, strtab_ndx = symtab_ndx + 1, shstrtab_ndx = strtab_ndx + 1;

  /* relocation sections */
  for (int i = 0; i < ns; i++) {
    if (!rela_count[i]) continue;
    Elf32_Rela *rb = calloc((size_t)rela_count[i], relasize);
    if (!rb) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
    bufs[nbufs++] = rb;
    char name[160];
    strcpy(name, ".rela");
    strncat(name, img->secs[i].name, sizeof name - 6);
    size_t nm = str_add(&shstr, name);
    if (nm == (size_t)-1) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
    uint32_t size = (uint32_t)(relasize * (size_t)rela_count[i]);
    off = align_up(off, 4);
    Elf_Scn *scn = new_section(elf, nm, SHT_RELA, SHF_INFO_LINK, 0, off, size, 4, rb, ELF_T_RELA,
                               (uint32_t)symtab_ndx, (uint32_t)(i + 1), (uint32_t)relasize);
    if (!scn) { elf_fail(e, "rela"); goto out; }
    off += size;
    Elf_Data *d = elf_getdata(scn, NULL);
    int k = 0;
    for (int r = 0; r < img->nrelas; r++) {
      const vt_elf_wrela *x = &img->relas[r];
      if (x->sec != i) continue;
      int sym = x->sym >= 0 ? symidx[x->sym] : 1 + (-1 - x->sym);
      GElf_Rela ra = {x->offset, GELF_R_INFO((GElf_Xword)sym, x->type), x->addend};
      if (!gelf_update_rela(d, k++, &ra)) { elf_fail(e, "rela entry"); goto out; }
    }
  }
  /* .symtab */
  off = align_up(off, 4);
  uint32_t symtab_size = (uint32_t)(symsize * (size_t)nsym);
  size_t symtab_name = str_add(&shstr, ".symtab");
  if (symtab_name == (size_t)-1) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
  Elf_Scn *symscn = new_section(elf, symtab_name, SHT_SYMTAB, 0, 0, off,
                                symtab_size, 4, symbuf, ELF_T_SYM, (uint32_t)strtab_ndx,
                                (uint32_t)first_global, (uint32_t)symsize);
  if (!symscn) { elf_fail(e, "symtab"); goto out; }
  off += symtab_size;
  Elf_Data *sd = elf_getdata(symscn, NULL);
  for (int i = 0; i < nsectsym; i++) {
    GElf_Sym s = {0, GELF_ST_INFO(STB_LOCAL, STT_SECTION), 0, (uint16_t)(i + 1), 0, 0};
    if (!gelf_update_sym(sd, 1 + i, &s)) { elf_fail(e, "symbol"); goto out; }
  }
  for (int i = 0; i < img->nsyms; i++) {
    const vt_elf_wsym *y = &img->syms[i];
    size_t nm = str_add(&str, y->name);
    if (nm == (size_t)-1) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
    uint16_t shndx = y->sec >= 0 ? (uint16_t)(y->sec + 1) : y->sec == VT_ELF_SEC_ABS ? SHN_ABS : SHN_UNDEF;
    GElf_Sym s = {(Elf64_Word)nm, GELF_ST_INFO(y->bind, y->type), 0, shndx, y->value, y->size};
    if (!gelf_update_sym(sd, symidx[i], &s)) { elf_fail(e, "symbol"); goto out; }
  }
  /* .strtab, .shstrtab (names added before the buffers are handed over) */
  size_t strtab_name = str_add(&shstr, ".strtab"), shstrtab_name = str_add(&shstr, ".shstrtab");
  if (strtab_name == (size_t)-1 || shstrtab_name == (size_t)-1) { vt_fail(e, VT_ERR_NOMEM, "out of memory"); goto out; }
  if (!new_section(elf, strtab_name, SHT_STRTAB, 0, 0, off, (uint32_t)str.len, 1, str.buf,
                   ELF_T_BYTE, 0, 0, 0)) { elf_fail(e, "strtab"); goto out; }
  off += (uint32_t)str.len;
  if (!new_section(elf, shstrtab_name, SHT_STRTAB, 0, 0, off, (uint32_t)shstr.len, 1, shstr.buf,
                   ELF_T_BYTE, 0, 0, 0)) { elf_fail(e, "shstrtab"); goto out; }
  off += (uint32_t)shstr.len;
  uint32_t shoff = align_up(off, 4);

  GElf_Ehdr eh;
  if (!gelf_getehdr(elf, &eh)) { elf_fail(e, "ehdr"); goto out; }
  eh.e_ident[EI_DATA] = ELFDATA2LSB;
  eh.e_ident[EI_OSABI] = ELFOSABI_NONE;
  eh.e_type = img->exec ? ET_EXEC : ET_REL;
  eh.e_machine = EM_RISCV;
  eh.e_version = EV_CURRENT;
  eh.e_entry = img->exec ? img->entry : 0;
  eh.e_flags = 0; /* ilp32, soft-float ABI */
  eh.e_phoff = phoff;
  eh.e_shoff = shoff;
  eh.e_shstrndx = (uint16_t)shstrtab_ndx;
  if (!gelf_update_ehdr(elf, &eh)) { elf_fail(e, "ehdr"); goto out; }
  if (nseg) {
    if (!gelf_newphdr(elf, (size_t)nseg)) { elf_fail(e, "phdr"); goto out; }
    int p = -1;
    GElf_Phdr ph = {0};
    for (int i = 0; i <= ns; i++) {
      const vt_elf_wsec *s = i < ns ? &img->secs[i] : NULL;
      if (s && !(s->flags & SHF_ALLOC)) continue;
      if (!s || seg_first[i]) {
        if (p >= 0 && !gelf_update_phdr(elf, p, &ph)) { elf_fail(e, "phdr"); goto out; }
        if (!s) break;
        p++;
        ph = (GElf_Phdr){PT_LOAD, PF_R | (s->flags & SHF_WRITE ? PF_W : 0) |
                                      (s->flags & SHF_EXECINSTR ? PF_X : 0),
                         sec_off[i], s->addr, s->addr, 0, 0, PAGE};
      }
      uint32_t end = s->addr + s->size - (uint32_t)ph.p_vaddr;
      if (s->type != SHT_NOBITS && end > ph.p_filesz) ph.p_filesz = end;
      if (end > ph.p_memsz) ph.p_memsz = end;
    }
  }
  if (elf_update(elf, ELF_C_WRITE) < 0) { elf_fail(e, path); goto out; }
  rc = 0;
out:
  if (elf) elf_end(elf);
  if (fd >= 0) {
    if (close(fd) && !rc) rc = vt_fail(e, VT_ERR_IO, "%s: %s", path, vt_strerror(errno, eb, sizeof eb));
    /* no partial output: a failed write leaves the old file or none (a
     * device, pipe or symlink is written in place and left alone) */
    if (vt_outfile_finish(&out, rc, e)) rc = -1;
  }
  for (int i = 0; i < nbufs; i++) free(bufs[i]);
  free(bufs);
  free(rela_count);
  free(str.buf);
  free(shstr.buf);
  return rc;
}
