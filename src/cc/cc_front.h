/* Running clang-19 (cc_front.c). */
#ifndef VT_CC_FRONT_H
#define VT_CC_FRONT_H

#include <stddef.h>

#include "cc.h"

/* OpenCL C (file path, or text when not NULL) to LLVM bitcode in *bc
 * (malloc'd). clang's stderr goes to *log (malloc'd or NULL) in any case. */
int cc_run_clang(const char *path, const char *text, const cc_options *o, char **bc, size_t *bclen, char **log,
                 vt_error *e);

#endif
