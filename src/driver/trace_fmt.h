/* Commit-log writer in the reference ISS's format (docs/corpora.md §2.6):
 *   core   W: 0xPPPPPPPP (0xIIIIIIII) <disasm>
 *   core   W: 3 0xPPPPPPPP (0xIIIIIIII) <effects>
 *
 * Grouping: the ISS runs work-groups one after another and numbers warps
 * ("core") from 0 inside each, so its log is WG 0's lines, then WG 1's, ...
 * Our work-groups run concurrently, so the writer emits lines in work-group
 * id order: the lines of the lowest unfinished WG go straight to the file,
 * those of later WGs are buffered in memory until every earlier WG has
 * finished (all its warps executed endprg), then written as one block.
 * Held lines beyond 64 MiB in all move to an unlinked temporary file in
 * $TMPDIR (or /tmp) and come back from there, so the memory stays bounded
 * even when the lowest group never finishes; the log is the same.
 * Inside a WG the lines keep the simulator's commit order (warps
 * interleaved); trace-diff compares warp by warp, so the interleaving does
 * not matter. The ISS boot stub (0x1000..0x1010) and its code after endprg
 * (spike_end/tohost) are not produced.
 *
 * The text is made without printf (trace_line.h); the lowest WG's lines
 * collect in a 1 MiB buffer of the writer and reach the FILE in blocks, so
 * between begin and end the FILE belongs to the writer: everything is in it
 * after vt_trace_writer_end (which flushes). */
#ifndef VT_TRACE_FMT_H
#define VT_TRACE_FMT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"

typedef struct vt_trace_writer vt_trace_writer;

vt_trace_writer *vt_trace_writer_new(FILE *f);
/* Installs the writer as `d`'s trace sink for launch `l`. */
void vt_trace_writer_begin(vt_trace_writer *w, vt_device *d, const vt_launch *l);
/* Writes whatever is still buffered and removes the sink. */
int vt_trace_writer_end(vt_trace_writer *w, vt_device *d);
/* Bytes of later groups' lines held in memory before they are spilled
 * (default 64 MiB; tests set it small), and how many bytes were spilled. */
void vt_trace_writer_set_hold_limit(vt_trace_writer *w, size_t bytes);
uint64_t vt_trace_writer_spilled(const vt_trace_writer *w);
void vt_trace_writer_free(vt_trace_writer *w);

/* Formats one commit record as its two lines (one for a barrier spin) into
 * buf; returns the length (snprintf semantics). */
int vt_trace_format(const vt_commit *c, char *buf, size_t len);

#endif
