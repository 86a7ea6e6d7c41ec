/* Warp-by-warp comparison of two commit logs in the reference ISS format
 * (the ISS's own `-l --log-commits` output or our trace writer's).
 *
 * Parsing: a record is a disassembly line followed by the commit line of the
 * same warp; a commit line with no disassembly line before it is a barrier
 * re-check (spin) and is skipped, as are `Executed N times` lines, `[r_pc]`
 * SIMT push lines, the ISS boot stub at 0x1000..0x1010 and everything a
 * warp commits after its endprg (spike_end / tohost). Work-groups: the ISS
 * restarts `core` numbering at 0 for each WG; a new WG starts when a warp
 * whose stream has ended (endprg) shows up again at 0x1000 or 0x80000000,
 * or a warp still running re-enters the boot stub.
 *
 * Comparison per (WG, warp), in order: pc, instruction word, scalar
 * register writes, the vector register written (number, mask, and the
 * lanes under the mask), store addresses and values, load addresses. CSR
 * writes, SIMT state and the disassembly text are not compared. */
#ifndef VT_TRACE_DIFF_H
#define VT_TRACE_DIFF_H

#include <stdio.h>

#include "vt_error.h"

typedef struct {
  size_t max_report; /* differences printed (one per warp at most); 0 = 10 */
  int json;          /* summary as one JSON object instead of text */
  int quiet;         /* no output at all */
} vt_tdiff_opts;

typedef struct {
  size_t streams_a, streams_b;  /* (WG, warp) streams */
  size_t compared;              /* records compared */
  size_t differing;             /* warps with a difference (missing ones included) */
} vt_tdiff_result;

/* Returns 0 when both logs were read (whatever the outcome; see r), -1 on
 * an I/O or parse error. */
int vt_trace_diff_files(const char *a, const char *b, const vt_tdiff_opts *o, FILE *out,
                        vt_tdiff_result *r, vt_error *e);

#endif
