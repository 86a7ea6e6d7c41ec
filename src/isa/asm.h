/* The assembler: GNU-as style source -> sections, symbols, relocations ->
 * ELF32 (relocatable or linked executable). See docs in asm_main.c for the
 * layout rule of executables. */
#ifndef VT_ASM_H
#define VT_ASM_H

#include <stddef.h>
#include <stdint.h>

#include "vt_error.h"

#define ASM_DEFAULT_TEXT_ADDR 0x80000000u

typedef struct {
  int relocatable;    /* -c: ET_REL with .rela sections, no layout */
  uint32_t text_addr; /* executables: address of the first code section */
  int max_errors;     /* diagnostics kept (0 = 50) */
  int isa_rev;        /* isa_rev: which revision's instructions exist (0 = baseline) */
} asm_options;

/* Preprocessing of .S/.sx sources (and where .include/#include look). */
typedef struct {
  const char *const *include_dirs; /* -I, searched after the including file's directory */
  int ninclude_dirs;
  const char *const *defines; /* -D: "NAME" (= 1) or "NAME=value" */
  int ndefines;
} asm_pp_options;

/* One source unit. Several sources are assembled as one unit, in order (as
 * GNU as does with several files), each keeping its own name and lines. */
typedef struct {
  const char *name;
  const char *text;
} asm_source;

typedef struct {
  char file[128];
  int line, col;
  char msg[256];
} asm_diag;

typedef struct {
  asm_diag *v;
  int n;       /* kept */
  int dropped; /* beyond max_errors */
} asm_diags;

typedef struct asm_object asm_object; /* assembled unit, laid out */

/* Assembles. Returns 0 and *out, or -1: with diagnostics in *d (each one
 * "file:line:col: error: msg"; e says how many) or another error in e.
 * Out of memory anywhere stops the unit: -1, VT_ERR_NOMEM "out of memory
 * while assembling FILE", no diagnostics (and, for asm_assemble_files*, no
 * output file). d may be NULL; free it with asm_diags_free. */
int asm_assemble(const asm_source *src, int nsrc, const asm_options *opt, asm_object **out,
                 asm_diags *d, vt_error *e);
/* The same with preprocessing options (pp may be NULL). */
int asm_assemble_ex(const asm_source *src, int nsrc, const asm_options *opt,
                    const asm_pp_options *pp, asm_object **out, asm_diags *d, vt_error *e);
int asm_write_elf(const asm_object *o, const char *path, vt_error *e);
void asm_free(asm_object *o);
void asm_diags_free(asm_diags *d);
/* "file:line:col: error: msg" */
int asm_diag_format(const asm_diag *g, char *buf, size_t len);

/* Reads files, assembles them and writes the ELF file (the `ventus as` core). */
int asm_assemble_files(const char *const *paths, int n, const asm_options *opt,
                       const char *out_path, asm_diags *d, vt_error *e);

int asm_assemble_files_ex(const char *const *paths, int n, const asm_options *opt,
                          const asm_pp_options *pp, const char *out_path, asm_diags *d,
                          vt_error *e);

/* Inspection of an object: a section's bytes and load address (0 in a
 * relocatable object), and a symbol's final value. Return 0 or -1. */
int asm_section(const asm_object *o, const char *name, const uint8_t **data, uint32_t *size,
                uint32_t *addr);
int asm_symbol_value(const asm_object *o, const char *name, uint32_t *value);

/* Convenience for tests and tools: assembles `text` as an executable with
 * .text at `pc` and copies up to max words of .text into words. Returns the
 * word count, or -1 with the first diagnostic in e. */
int asm_words(const char *text, uint32_t pc, uint32_t *words, int max, vt_error *e);
/* The same in ISA revision rev (an isa_rev). */
int asm_words_rev(const char *text, uint32_t pc, int rev, uint32_t *words, int max, vt_error *e);

#endif
