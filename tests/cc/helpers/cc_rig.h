/* What the tests/cc suites share: a kernel file of tests/cc/kernels run on
 * the simulated GPGPU through one of two back ends chosen at run time by
 * CC_RIG_API (set by ctest): "native" (default; `ventus cc` to an ELF, the
 * cy_* API) or "opencl" (the chengying OpenCL platform: the .cl source
 * built by clBuildProgram, cl_mem buffers, clEnqueueNDRangeKernel). Tests
 * see buffers as 32-bit handles and pass arguments as the argument
 * buffer's 32-bit words (slots), as cy_launch takes them; every failure is
 * a cmocka failure naming the kernel. */
#ifndef CC_RIG_H
#define CC_RIG_H

#include <stddef.h>
#include <stdint.h>

#include "chengying.h"

typedef struct cc_rig cc_rig;

/* The back end CC_RIG_API names; NULL (with a message) when it cannot start. */
cc_rig *cc_rig_open(void);
void cc_rig_close(cc_rig *r);
/* Whether the rig runs through OpenCL (for the notices of native-only checks). */
int cc_rig_is_opencl(const cc_rig *r);

/* Compiles tests/cc/kernels/NAME.cl: a program index (>= 0), or -1 with a
 * message. When clang-19 cannot run, the suite prints SKIP and exits 0. */
int cc_rig_load(cc_rig *r, const char *name);
/* Fresh device memory for the next test (every earlier buffer is gone). */
int cc_rig_fresh(cc_rig *r);

/* A device buffer of BYTES (at least 4) holding DATA, or zeros when DATA is NULL. */
uint32_t cc_rig_buf(cc_rig *r, const void *data, size_t bytes);
void cc_rig_put(cc_rig *r, uint32_t buf, const void *src, size_t bytes);
void cc_rig_get(cc_rig *r, uint32_t buf, void *dst, size_t bytes);
/* Runs KERNEL of program PROG over ND with the argument words SLOTS. */
void cc_rig_launch(cc_rig *r, int prog, const char *kernel, const cy_ndrange *nd, const uint32_t *slots, size_t n);

/* Whether Debian's libclc-19 (or CHENGYING_LIBCLC) is there for the builtins it supplies. */
int cc_rig_have_libclc(void);

/* A suite of one kernel file: the rig and the loaded program, as the
 * cmocka group state (cc_suite_setup(state, "long64") in a group set-up,
 * cc_suite_teardown in its tear-down). */
typedef struct {
  cc_rig *c;
  int prog;
} cc_suite;
int cc_suite_setup(void **state, const char *name);
int cc_suite_teardown(void **state);
/* N 32-bit words compared as bytes (float arrays come here too); fails naming WHAT and the word. */
void cc_same_words(const void *got, const void *want, size_t n, const char *what);

#endif
