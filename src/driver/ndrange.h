/* An NDRange launch of a kernel ELF described on the command line (or by
 * an embedding program): argument specs, buffer set-up, argument buffer,
 * kernel metadata block, private region and print buffer (runtime.md §2). */
#ifndef VT_NDRANGE_H
#define VT_NDRANGE_H

#include <stdint.h>

#include "device.h"
#include "elf_load.h"
#include "heap.h"

/* Kernel argument specs (`--arg SPEC`, one per kernel argument, in order):
 *   buf:file=PATH          buffer holding the bytes of PATH
 *   buf:zero:BYTES         zero-filled buffer (BYTES may end in K or M)
 *   buf:TYPE:COUNT[:INIT]  COUNT elements of TYPE (u8 u16 u32 i32 f32);
 *                          INIT = zero (default) | iota | rand[=SEED] | fill=VALUE
 *   u32:VALUE  i32:VALUE  f32:VALUE   a by-value scalar (one 4-byte slot)
 * Every argument takes one 32-bit slot of the argument buffer: the buffer's
 * device address or the scalar's bits. */
enum { VT_KARG_BUF, VT_KARG_SCALAR };

typedef struct {
  int kind;
  uint32_t size;  /* buffer bytes */
  uint8_t *init;  /* buffer initial contents (size bytes), owned; NULL = zeros */
  uint32_t value; /* scalar bits */
  uint32_t addr;  /* device address once set up */
  char spec[96];  /* the spec as given (messages, dumps) */
  char type[4];   /* element type (u8 u16 u32 i32 f32) of a scalar or typed buffer;
                     "" for buf:zero / buf:file (argshow.h picks one) */
} vt_karg;

int vt_karg_parse(const char *spec, vt_karg *a, vt_error *e);
void vt_karg_free(vt_karg *a);

#define VT_DEFAULT_PDS_SIZE 0x1000u
#define VT_DEFAULT_LDS_SIZE 0x1000u
#define VT_DEFAULT_PRINT_SIZE 0x10000u
#define VT_METADATA_BYTES 72u

typedef struct {
  const char *elf, *kernel;
  uint32_t work_dim;
  uint32_t global[3], local[3], offset[3];
  uint32_t threads;              /* threads per warp (wf_size) */
  uint32_t pds_size, lds_size;   /* per thread / per work-group */
  int pds_given;                 /* pds_size was asked for: a kernel needing more is an error
                                    (else pds_size grows to what the kernel's resource section says) */
  uint32_t print_size;           /* 0 = no print buffer */
  vt_karg *args;
  size_t nargs;
  /* set up by vt_ndrange_setup: the kernel ELF's __local AMOs
   * (vt_amo_local_list) and the extents of its code, which the launch
   * points at (vt_launch.amo_local, code_ranges) */
  uint32_t amo_local[VT_AMO_LOCAL_MAX];
  uint32_t namo_local;
  uint32_t code_ranges[VT_CODE_RANGES_MAX]; /* vt_code_extents: vt_launch.code_ranges */
  uint32_t ncode_ranges;
} vt_ndrange;

void vt_ndrange_defaults(vt_ndrange *nd);
/* Parses "X[,Y[,Z]]" into v[3] (missing = 1); returns the dimension count or -1. */
int vt_parse_dims(const char *s, uint32_t v[3]);
/* Parses a global offset "X[,Y[,Z]]" (zeros allowed, missing = 0); the dimension count or -1. */
int vt_parse_offsets(const char *s, uint32_t v[3]);
/* Parses a size "123", "0x40", "4K", "1M" (no sign or blanks; -1 on overflow). */
int vt_parse_size(const char *s, uint64_t *v);

/* Loads the ELF, finds the kernel, allocates and fills the argument
 * buffers, the argument block, the metadata block, the private region and
 * the print buffer from `h`, and fills the launch record. */
int vt_ndrange_setup(vt_device *d, vt_heap *h, vt_ndrange *nd, vt_launch *l, vt_error *e);

/* Private slices to allocate for `groups` work-groups of per_wg private
 * bytes each: one per group (the hardware host's layout: every group's
 * private data stays readable after the launch) while they take at most
 * VT_PRIVATE_BUDGET bytes, else one per work-group slot of the device (the
 * RTL's layout; the core picks the layout from the region's size, see
 * docs/simulator.md §3). 0 when even that exceeds the buffer window. */
#define VT_PRIVATE_BUDGET 0x10000000u
uint64_t vt_private_slices(const vt_config *cfg, uint64_t groups, uint64_t per_wg);

#endif
