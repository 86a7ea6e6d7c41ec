/* Running clang-19 (cc_front.c). */
#ifndef VT_CC_FRONT_H
#define VT_CC_FRONT_H

#include <stddef.h>

#include "cc.h"

/* what diagnostics call a source given as text (clBuildProgram's), set by
 * a #line before it */
#define CC_SOURCE_NAME "<program source>"
/* the section that marks the functions the source declares inline
 * (cc_inline.c) */
#define CC_INLINE_SECTION ".cy.c99inline"
#define CC_SOURCE_LINE "#line 1 \"" CC_SOURCE_NAME "\"\n"

/* builtins clang's header lacks for the device's OpenCL C version
 * (cc_prelude.c), included when a first compile failed for want of them
 * (cc_front_wants_prelude, from clang's log): a program that defines a
 * function of the same name compiles as it is */
extern const char cc_prelude[];
int cc_front_wants_prelude(const char *log);

/* the source names double or cl_khr_fp64 (cc_front_fp64.c): clang then
 * compiles with cl_khr_fp64, else as for a device without it (constants
 * demoted to float); or clang's log says a compile without it met double */
int cc_front_uses_double(const char *source);
int cc_front_wants_double(const char *log);

/* OpenCL C (file path, or text when not NULL) to LLVM bitcode in *bc
 * (malloc'd). clang's stderr goes to *log (malloc'd or NULL) in any case. */
int cc_run_clang(const char *path, const char *text, const cc_options *o, char **bc, size_t *bclen, char **log,
                 vt_error *e);
/* the same within a budget already started (cc_budget.h): clang is killed
 * at its deadline, VT_ERR_CONFIG; with raw, clang runs none of LLVM's
 * passes (cc_optimise runs them, bounded) */
struct cc_budget_s;
/* the optimisation levels whose passes run in our process (cc_optimise.c):
 * clang is then run raw */
int cc_front_raw(int opt);
int cc_run_clang_by(const char *path, const char *text, const cc_options *o, const struct cc_budget_s *b, int raw,
                    char **bc, size_t *bclen, char **log, vt_error *e);

/* After clang failed: e says why in one line (cc_front_diag.c): VT_ERR_USAGE
 * for a build option it rejected, else VT_ERR_ASM; clang is the front
 * end's name, what the source's. */
int cc_front_failure(const char *log, const char *clang, const char *what, vt_error *e);

#endif
