/* Launches for a runtime that builds the argument block itself (the OpenCL
 * platform in src/cl): kernel ELF images loaded from memory, and an NDRange
 * launch given the prepared argument bytes and the per-group local size.
 * The metadata block, private region and print buffer are allocated from the
 * heap, written, and freed again after the launch, as ndrange.c does for
 * `ventus run`. */
#ifndef VT_LAUNCH_BLOCK_H
#define VT_LAUNCH_BLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "heap.h"
#include "testvec_write.h"
#include "trace_fmt.h"
#include "vt_elf.h"

/* The code region one runtime keeps mapped for its programs: [lo, hi), 0/0 = none. */
typedef struct {
  uint64_t lo, hi;
} vt_code_span;

/* Loads an executable already read with vt_elf_read_mem: maps the page-
 * rounded span of its PT_LOAD segments (reusing *span when it covers them,
 * else unmapping it first, so programs of different sizes can take turns),
 * copies the file bytes and zero-fills each .bss tail, so .data/.bss start
 * fresh at every load. */
int vt_kernel_load_elf(vt_device *d, const vt_elf_file *f, vt_code_span *span, vt_error *e);

typedef struct {
  uint32_t entry;                          /* kernel address (metadata +0) */
  const uint8_t *args;                     /* argument block, args_len bytes */
  uint32_t args_len;
  uint32_t work_dim;
  uint32_t global[3], local[3], offset[3]; /* global is a multiple of local */
  uint32_t threads, warps;                 /* per warp, per work-group */
  uint32_t lds_size;                       /* local bytes per group, warp stacks included */
  uint32_t pds_size;                       /* private bytes per work-item */
  uint32_t print_size;                     /* print buffer bytes, 0 = none */
  vt_trace_writer *trace;                  /* commit log of the launch, or NULL */
  vt_tvexport *exp;                        /* the launch also written as a test vector, or NULL */
  const char *name;                        /* kernel name: the test vector is <name>_<n> */
  uint32_t vgprs, sgprs;                   /* its register counts for the test vector, 0 = unknown */
  /* bases of mapped regions the kernel never writes (OpenCL __constant
   * buffers no other argument shares): held read-only while it runs, so
   * loads from them run ahead; a store into one faults */
  const uint32_t *ro;
  uint32_t nro;
  /* the program's __local AMOs (vt_amo_local_list; vt_launch.amo_local) */
  const uint32_t *amo_local;
  uint32_t namo_local;
  /* the extents of the kernel's code (vt_code_extents; vt_launch.code_ranges) */
  const uint32_t *code_ranges;
  uint32_t ncode_ranges;
} vt_block_launch;

/* Runs the launch to completion; device faults come back as -1 with the
 * core's context (work-group, warp, lane, pc) in *e. */
int vt_launch_block(vt_device *d, vt_heap *h, const vt_block_launch *bl, vt_error *e);

#endif
