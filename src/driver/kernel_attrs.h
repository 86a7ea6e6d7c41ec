/* A kernel's attribute section, `.ventus.attrs.<kernel>` (docs/opencl.md
 * §5.6), as the compiler writes it: read by the OpenCL platform and by
 * `ventus run`. */
#ifndef VT_KERNEL_ATTRS_H
#define VT_KERNEL_ATTRS_H

#include <stddef.h>
#include <stdint.h>

#include "vt_elf.h"

/* Version 1: reqd_work_group_size in reqd (0, 0, 0 = none) and the
 * attribute text into text (cap bytes with its NUL). 0, or -1 with why
 * (a phrase without the section's name) filled in. */
int vt_kernel_attrs_read(const vt_elf_section *s, uint32_t reqd[3], char *text, size_t cap, char *why,
                         size_t why_cap);

#endif
