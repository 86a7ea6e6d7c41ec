/* What the tests/cc suites share: compiling a kernel file of tests/cc/kernels
 * with `ventus cc` (skipping the suite when clang-19 is not there) and moving
 * buffers to and from the device under cmocka's asserts. */
#ifndef CC_RIG_H
#define CC_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "chengying.h"

/* Compiles tests/cc/kernels/NAME.cl into the build tree; ELF receives the
 * output path. 0 on success; -1 (with a message) when `ventus cc` failed.
 * When `ventus cc` cannot run clang-19 the suite prints SKIP and exits 0. */
int cc_rig_compile(const char *name, char *elf, size_t len);

/* Whether Debian's libclc-19 (or CHENGYING_LIBCLC) is there for the builtins it supplies. */
int cc_rig_have_libclc(void);

/* A device buffer of BYTES (at least 4) holding DATA, or zeros when DATA is NULL. */
uint32_t cc_dev_buf(cy_device *d, const void *data, size_t bytes);
void cc_get(cy_device *d, uint32_t a, void *dst, size_t bytes);
/* N 32-bit words compared as bytes (float arrays come here too); fails naming WHAT and the word. */
void cc_same_words(const void *got, const void *want, size_t n, const char *what);

#endif
