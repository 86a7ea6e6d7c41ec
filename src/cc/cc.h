/* The OpenCL C compiler (docs/compiler.md): clang-19 as the front end, LLVM's
 * own passes in the middle, a Ventus back end of ours. */
#ifndef VT_CC_H
#define VT_CC_H

#include <stddef.h>
#include <stdint.h>

#include "vt_error.h"

typedef struct {
  const char *const *cflags; /* given to clang as they are: -D, -I, -cl-std=, -cl-..., -W... */
  int ncflags;
  int opt;         /* 0..3 */
  int allow_empty; /* a program without kernels is not an error (OpenCL allows it) */
  /* the budget (docs/compiler.md "Bounded compilation"): 0 = the default
   * (CHENGYING_CC_MAX_SECONDS / CHENGYING_CC_MAX_INSNS, else 120 s and
   * 1,000,000 operations per function), < 0 = none */
  double max_seconds; /* wall-clock seconds for the whole compilation */
  long max_insns;     /* LLVM instructions per function after optimisation */
  /* the device's ISA revision (docs/isa-extensions.md): 0 the baseline,
   * 2025 revision 2025, whose SEW-64 vector floats compute double natively */
  int isa;
} cc_options;

/* Compiles OpenCL C to Ventus assembly text (*asm_out, malloc'd; it holds
 * the kernels, their argument-metadata and resource sections and their
 * data, but not the start-up code). `text` is the source, or NULL to read
 * the file `path`. clang's diagnostics, unchanged, go to *log (malloc'd or
 * NULL). Returns 0, or -1 with e: VT_ERR_ASM for a program the compiler
 * rejects (clang's errors, or a construct it does not support, naming the
 * source line), VT_ERR_IO when clang-19 cannot be run. */
int cc_compile(const char *path, const char *text, const cc_options *o, char **asm_out, char **log, vt_error *e);

/* Assembles compiled text after the start-up code (kernels/lib/start.S)
 * into an executable, or alone into a relocatable object, at out_path;
 * isa: the revision it was compiled for (cc_options.isa). */
int cc_link_file(const char *asm_text, int relocatable, int isa, const char *out_path, vt_error *e);

/* For clBuildProgram: OpenCL build options (-D, -I, -cl-*, -w, -W*,
 * -cl-opt-disable; anything else is VT_ERR_USAGE), the source, and the
 * executable image in *elf (malloc'd). *log (malloc'd, may be NULL after
 * running out of memory) has clang's diagnostics and, after a failure, the
 * error line. */
int cc_build(const char *source, const char *options, uint8_t **elf, size_t *elf_size, char **log, vt_error *e);

/* For clCompileProgram: the source to an object (*obj, malloc'd: clang's
 * LLVM bitcode), options as cc_build's, and incdir (NULL = none) one more
 * include directory (the program's input headers). */
int cc_compile_object(const char *source, const char *options, const char *incdir, uint8_t **obj, size_t *obj_size,
                      char **log, vt_error *e);
/* For clLinkProgram: objects of cc_compile_object (or libraries of this
 * function) linked into one module by LLVM's linker; with library set the
 * result is that module's bitcode (a library), else the executable image.
 * options: the link options that are build options (-cl-*, -w, -O...). */
int cc_link_objects(const uint8_t *const *objs, const size_t *sizes, int n, const char *options, int library,
                    uint8_t **out, size_t *out_size, char **log, vt_error *e);
#endif
