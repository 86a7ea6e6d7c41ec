/* Kernel ELF loading for the driver: PT_LOAD segments into device memory
 * and kernel-name lookup, on the isa layer's ELF reader. */
#ifndef VT_ELF_LOAD_H
#define VT_ELF_LOAD_H

#include <stdint.h>

#include "device.h"
#include "vt_elf.h"

typedef struct {
  uint32_t lo, hi; /* page-rounded span of the loaded segments */
  uint32_t entry;
} vt_kernel_image;

/* Maps the pages of the PT_LOAD segments with their p_flags permissions
 * (executable pages also writable with the writable_code key; an image
 * loaded again over the same span is mapped afresh), copies p_filesz bytes
 * to p_vaddr; the rest up to p_memsz reads as zero without host memory
 * (pages are allocated on first touch). Overlapping segments and segments
 * reaching the buffer heap (0x90000000) are format errors naming them. */
int vt_kernel_load(vt_device *d, const char *path, vt_kernel_image *img, vt_error *e);
/* Address of the defined function/global symbol `name` in the ELF. */
int vt_kernel_symbol(const char *path, const char *name, uint32_t *addr, vt_error *e);

/* The AMO addresses a program lists in its section .ventus.amo_local (the
 * ones `ventus cc` emits for __local atomics), ascending and without
 * repeats, into out (cap entries): their count; 0 when the section is
 * absent, not whole words or longer than cap (every AMO then counts as
 * one on any memory: vt_launch.amo_local). */
#define VT_AMO_LOCAL_MAX 256u
uint32_t vt_amo_local_list(const vt_elf_file *f, uint32_t *out, uint32_t cap);

/* The extents of the code a launch of `kernel` can run, as words lo, hi,
 * ... into out (cap words): the start-up code (the symbol _start and its
 * size) and the ranges the program lists in .ventus.code.<kernel> (the
 * kernel and the functions it calls, which `ventus cc` writes). Their
 * count; 0 when either is missing or malformed or they pass cap (the
 * launch then scans all code: vt_launch.code_ranges). */
#define VT_CODE_RANGES_MAX 516u
uint32_t vt_code_extents(const vt_elf_file *f, const char *kernel, uint32_t *out, uint32_t cap);

#endif
