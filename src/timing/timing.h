/* The timing model: a cycle-approximate SM pipeline that drives the
 * functional core through its stepping interface (device.h). Attached to a
 * device it replaces the functional loop of every launch; results in memory
 * are those of the functional core, only the order of warps differs.
 * What is modelled and what is simplified: docs/timing.md. */
#ifndef VT_TIMING_H
#define VT_TIMING_H

#include <stdint.h>
#include <stdio.h>

#include "device.h"

/* Why an SM issued nothing in a cycle (one reason per SM and cycle). */
typedef enum {
  VT_STALL_SCOREBOARD, /* a source or destination register awaits an ALU/FPU/... result */
  VT_STALL_MEMORY,     /* ... awaits a load */
  VT_STALL_STRUCTURAL, /* the execution unit is busy (folding, coalesced lines) */
  VT_STALL_BARRIER,    /* every candidate warp waits at a barrier */
  VT_STALL_CONTROL,    /* fetch bubble after a taken branch or SIMT op */
  VT_STALL_IDLE,       /* no resident warp, or only the pipeline drain is left */
  VT_STALL_COUNT
} vt_stall;

typedef struct vt_sm_timing {
  uint64_t cycles;     /* cycles of the launches it took part in */
  uint64_t issued;     /* warp-instructions issued (a barrier arrival and its release count as two) */
  uint64_t stall[VT_STALL_COUNT];
  uint64_t l1_hits, l1_misses; /* cache lines looked up by loads and stores */
  uint64_t shared_accesses;    /* memory instructions to the local window */
  uint64_t barrier_wait;       /* warp-cycles spent waiting at barriers */
} vt_sm_timing;

typedef struct vt_timing_stats {
  uint64_t cycles;     /* summed over launches (each starts with a cold L1) */
  uint64_t launches;
  uint32_t num_sm;
  vt_sm_timing *sm;    /* [num_sm] */
} vt_timing_stats;

typedef struct vt_timing vt_timing;

/* Attaches a timing model built from the device's configuration (lat_*,
 * num_lanes, l1d_*): from now on vt_device_launch runs under it. */
vt_timing *vt_timing_attach(vt_device *d, vt_error *e);
/* Detaches (the device runs functionally again) and frees; call it before
 * destroying the device. NULL is a no-op. */
void vt_timing_free(vt_timing *t);
const vt_timing_stats *vt_timing_get_stats(const vt_timing *t);
void vt_timing_reset_stats(vt_timing *t);
const char *vt_stall_name(vt_stall s);
void vt_timing_print(const vt_timing_stats *s, FILE *f);      /* "key = value" lines */
void vt_timing_print_json(const vt_timing_stats *s, FILE *f); /* one JSON object */

#endif
