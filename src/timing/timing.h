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
#include "memsys.h"

/* Why an SM issued nothing in a cycle (one reason per SM and cycle). */
typedef enum {
  VT_STALL_SCOREBOARD, /* a source or destination register awaits an ALU/FPU/... result */
  VT_STALL_MEMORY,     /* ... awaits a load */
  VT_STALL_STRUCTURAL, /* the execution unit is busy (folding, coalesced lines) */
  VT_STALL_DMA,        /* a cp_dma* copy waits for room in its SM's full copy-engine queue */
  VT_STALL_FETCH,      /* the next instruction is not in the instruction buffer yet (I-cache) */
  VT_STALL_BARRIER,    /* every candidate warp waits at a barrier */
  VT_STALL_CONTROL,    /* a branch, jump or SIMT op has not resolved: fetch waits for it */
  VT_STALL_IDLE,       /* no resident warp, or only the pipeline drain is left */
  VT_STALL_COUNT
} vt_stall;

typedef struct vt_sm_timing {
  uint64_t cycles;     /* cycles of the launches it took part in */
  uint64_t issued;     /* warp-instructions issued (a barrier arrival and its release count as two) */
  uint64_t stall[VT_STALL_COUNT];
  uint64_t l1_hits, l1_misses; /* L1 data cache lines looked up by loads and stores */
  uint64_t l1_merges;          /* ... load misses on a line already in flight (MSHR merge) */
  uint64_t l1i_hits, l1i_misses, l1i_merges; /* instruction fetches (front end modelled) */
  uint64_t fetch_replays;      /* fetch_policy 1: fetch cycles lost to a warp whose line is in
                                * flight or whose ibuffer had no room (the RTL rolls its pc back) */
  uint64_t gmem_insns, gmem_lanes; /* global memory instructions and their lane accesses ... */
  uint64_t gmem_lines;         /* ... and the L1 lines they coalesced into */
  uint64_t shared_accesses;    /* memory instructions to the local window */
  uint64_t bank_conflicts;     /* extra local-memory cycles from lanes sharing a bank */
  uint64_t barrier_wait;       /* warp-cycles spent waiting at barriers */
  uint64_t rf_read_conflicts;  /* cycles operand reads waited for a register bank's read port */
  uint64_t rf_write_conflicts; /* cycles results waited for a register bank's write port */
  uint64_t dma_copies, dma_bytes; /* cp_dma* copies queued on the copy engine, bytes written */
  uint64_t dma_busy;           /* cycles the copy engine was streaming a copy */
  uint64_t dma_wait;           /* warp-cycles past cp_dma_mbarrier's group condition waiting for copies */
} vt_sm_timing;

typedef struct vt_timing_stats {
  uint64_t cycles;     /* summed over launches (each starts with a cold L1) */
  uint64_t launches;
  uint32_t num_sm;
  vt_sm_timing *sm;    /* [num_sm] */
  vt_mem_stats mem;    /* the shared L2 and DRAM */
} vt_timing_stats;

typedef struct vt_timing vt_timing;

/* Attaches a timing model built from the device's configuration (lat_*,
 * num_lanes, the cache keys): from now on vt_device_launch runs under it. */
vt_timing *vt_timing_attach(vt_device *d, vt_error *e);
/* Detaches (the device runs functionally again) and frees; call it before
 * destroying the device. NULL is a no-op. */
void vt_timing_free(vt_timing *t);
const vt_timing_stats *vt_timing_get_stats(const vt_timing *t);
void vt_timing_reset_stats(vt_timing *t);
const char *vt_stall_name(vt_stall s);
/* From the next launch on, writes a Chrome/Perfetto trace-event timeline
 * of warp activity to f (opened and closed by the caller; docs/timing.md);
 * vt_timing_end_timeline completes the JSON. Both return -1 on a write
 * error of f. */
int vt_timing_set_timeline(vt_timing *t, FILE *f);
int vt_timing_end_timeline(vt_timing *t);
/* From the next launch on, writes one line per issued instruction to f,
 * "CYCLE SM SLOT PC" with CYCLE counted from the launch's start, and a
 * "# launch N" line before each launch: the format of the Verilog RTL
 * testbench's --events (tools/rtl), so the two line up (ventus
 * issue-diff). NULL stops it. Returns -1 on a write error of f. */
int vt_timing_set_issue_log(vt_timing *t, FILE *f);
void vt_timing_print(const vt_timing_stats *s, FILE *f);      /* "key = value" lines */
void vt_timing_print_json(const vt_timing_stats *s, FILE *f); /* one JSON object */

#endif
