/* Kernel ELF loading for the driver: PT_LOAD segments into device memory
 * and kernel-name lookup, on the isa layer's ELF reader. */
#ifndef VT_ELF_LOAD_H
#define VT_ELF_LOAD_H

#include <stdint.h>

#include "device.h"

typedef struct {
  uint32_t lo, hi; /* page-rounded span of the loaded segments */
  uint32_t entry;
} vt_kernel_image;

/* Maps the pages of the PT_LOAD segments with their p_flags permissions
 * (executable pages also writable with the writable_code key; pages already
 * mapped are kept), copies p_filesz bytes to p_vaddr and zero-fills up to
 * p_memsz. */
int vt_kernel_load(vt_device *d, const char *path, vt_kernel_image *img, vt_error *e);
/* Address of the defined function/global symbol `name` in the ELF. */
int vt_kernel_symbol(const char *path, const char *name, uint32_t *addr, vt_error *e);

#endif
