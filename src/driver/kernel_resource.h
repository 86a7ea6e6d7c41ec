/* The register counts of a compiled kernel, from its resource section
 * `.ventus.resource.<kernel>` (shared docs runtime.md §3.2), as a launch
 * record's sgprUsage/vgprUsage: what the Verilog RTL allocates per warp, a
 * warp's register r living at its base + r, so a count too small lets one
 * warp overwrite the next one's registers. */
#ifndef VT_KERNEL_RESOURCE_H
#define VT_KERNEL_RESOURCE_H

#include <stdint.h>

#include "vt_elf.h"

/* pocl's fixed counts, which the start-up code is written for */
#define VT_GPRS_DEFAULT 64u

/* From the 8-byte form (four u16: VGPRs, SGPRs, LDS, PDS) or the versioned
 * one (version 2/3, u64 VGPRs at +8, SGPRs at +16): each count rounded up
 * to the RTL's 4 register banks and at least VT_GPRS_DEFAULT. 0, or -1 when
 * the ELF has no such section or it is malformed (*vgprs, *sgprs untouched). */
int vt_kernel_gpr_usage(const vt_elf_file *f, const char *kernel, uint32_t *vgprs, uint32_t *sgprs);

/* The private bytes a work-item of the kernel uses (the 8-byte form's PDS
 * count, or the versioned form's PDS bytes + stack peak), rounded up to a
 * word: 0 with *bytes set, or -1 when the section is absent, malformed or
 * does not know (*bytes untouched). */
int vt_kernel_pds_usage(const vt_elf_file *f, const char *kernel, uint64_t *bytes);

#endif
