/* Example kernels driven through the public host APIs (include/ventus.h and
 * include/chengying.h) and checked against the plain-C references of
 * tests/kernels/ref_kernels.c. Shared by the soak and thread tests.
 *
 * The run functions use no cmocka assertion, so they may run on any host
 * thread: they return 0 when every result matches, otherwise -1 with one
 * line in why (the failing call and the device's message, or the first
 * differing element). */
#ifndef VT_HOST_KERNELS_H
#define VT_HOST_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "chengying.h"
#include "ventus.h"

/* Assembles kernels/lib/start.S + workitem.S + kernels/examples/<name>.S
 * into a new ELF in the build directory (path in elf); fails the current
 * test on an assembly error. Call it from the test's main thread. */
void build_example_kernel(const char *name, char *elf, size_t len);

/* A small PRNG (LCG), so every run with a seed sees the same sequence. */
uint32_t hk_rand(uint32_t *state);

/* vecadd of n random floats through the upstream calling sequence:
 * vt_buf_alloc of A, B, C, the argument block, the metadata block and the
 * private region, vt_copy_to_dev, vt_start with the 12-field record, C read
 * back and compared; every buffer is freed again with vt_one_buf_free (in
 * an order chosen by seed). entry: the kernel's address in the ELF already
 * uploaded with vt_upload_kernel_file. */
int hk_vt_vecadd(vt_device_h d, uint32_t entry, uint32_t n, uint32_t threads, uint32_t seed, char *why,
                 size_t len);

/* vecadd of n random floats with cy_launch; buffers from cy_alloc, freed. */
int hk_cy_vecadd(cy_device *d, const char *elf, uint32_t n, uint32_t threads, uint32_t seed, char *why,
                 size_t len);

/* reduce of n random ints with cy_launch, 32 threads per warp and local
 * size `local` (32 or 64: the default local memory holds its stacks). */
int hk_cy_reduce(cy_device *d, const char *elf, uint32_t n, uint32_t local, uint32_t seed, char *why,
                 size_t len);

#endif
