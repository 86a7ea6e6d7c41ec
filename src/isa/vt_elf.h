/* ELF32 little-endian RISC-V images: a writer (the assembler's output) and
 * a validating reader (objdump, the simulator's loader, the runtime).
 * All ELF work goes through libelf/gelf. */
#ifndef VT_ELF_H
#define VT_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "vt_error.h"

/* ---- writer ---------------------------------------------------------------- */
enum { VT_ELF_SEC_UNDEF = -1, VT_ELF_SEC_ABS = -2 };

typedef struct {
  const char *name;
  uint32_t type;  /* SHT_PROGBITS or SHT_NOBITS */
  uint32_t flags; /* SHF_ALLOC | SHF_WRITE | SHF_EXECINSTR */
  uint32_t addr;  /* load address (executables); 0 in relocatables */
  uint32_t align;
  const uint8_t *data; /* NULL for NOBITS */
  uint32_t size;
} vt_elf_wsec;

typedef struct {
  const char *name;
  uint32_t value, size;
  uint8_t type, bind; /* STT_*, STB_* */
  int sec;            /* index into secs, VT_ELF_SEC_UNDEF or VT_ELF_SEC_ABS */
} vt_elf_wsym;

typedef struct {
  int sec;         /* section the relocation patches */
  uint32_t offset; /* within that section */
  uint32_t type;   /* R_RISCV_* */
  int sym;         /* index into syms, or -1 - i for the section symbol of secs[i] */
  int32_t addend;
} vt_elf_wrela;

typedef struct {
  int exec;       /* ET_EXEC (with PT_LOAD headers) or ET_REL */
  uint32_t entry; /* executables */
  const vt_elf_wsec *secs;
  int nsecs;
  const vt_elf_wsym *syms; /* locals first is not required: the writer sorts */
  int nsyms;
  const vt_elf_wrela *relas;
  int nrelas;
} vt_elf_wimage;

/* Writes the image. Executables get one PT_LOAD per run of consecutive
 * allocated sections with the same W/X flags, each starting a new 4 KiB page
 * in the file as in memory (offset == vaddr modulo 4096). */
int vt_elf_write(const char *path, const vt_elf_wimage *img, vt_error *e);

/* ---- reader ---------------------------------------------------------------- */
typedef struct {
  const char *name;
  uint32_t type, flags, addr, offset, size, align;
  uint32_t link, info, entsize;
  const uint8_t *data; /* size bytes; NULL for NOBITS */
} vt_elf_section;

typedef struct {
  uint32_t vaddr, filesz, memsz, flags; /* PF_* */
  const uint8_t *bytes;                 /* filesz bytes; the rest is zero */
} vt_elf_segment;

typedef struct {
  const char *name;
  uint32_t value, size;
  uint8_t type, bind;
  uint16_t shndx;
} vt_elf_symbol;

typedef struct {
  uint16_t type; /* ET_EXEC, ET_REL, ... */
  uint32_t entry;
  vt_elf_section *secs; /* index = ELF section index (0 is the null section) */
  size_t nsecs;
  vt_elf_segment *segs; /* PT_LOAD only */
  size_t nsegs;
  vt_elf_symbol *syms; /* .symtab without the null entry */
  size_t nsyms;
  uint8_t *file; /* private copy of the file; sections/segments point into it */
  size_t file_size;
  char *names; /* private name pool */
} vt_elf_file;

/* Reads and validates an ELF32 LE RISC-V file. On error *f is left empty. */
int vt_elf_read_file(const char *path, vt_elf_file *f, vt_error *e);
int vt_elf_read_mem(const void *buf, size_t len, vt_elf_file *f, vt_error *e);
void vt_elf_free(vt_elf_file *f);

/* The defined symbol named `name` (global preferred over local), or NULL. */
const vt_elf_symbol *vt_elf_find_symbol(const vt_elf_file *f, const char *name);
/* The section named `name`, or NULL. */
const vt_elf_section *vt_elf_find_section(const vt_elf_file *f, const char *name);

#endif
