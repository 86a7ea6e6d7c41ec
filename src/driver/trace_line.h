/* The text of one commit record in the reference ISS's format, written with
 * hand-rolled appenders (no printf: the commit log's hot path).
 *
 * The output is byte for byte what these printf formats gave:
 *   "core %3u: Executed %u times\n"
 *   "core %3u: 0x%08x (0x%08x) " + disassembly ("%-7s %s": mnemonic padded) + "\n"
 *   "core %3u: 3 0x%08x (0x%08x)" + effects + "\n", then the SIMT stack lines
 * (trace_fmt.h describes the layout). The writer (trace_fmt.c) keeps a
 * vt_trace_cache: the disassembly text, table flags and CSR names of recent
 * instruction words, so the disassembler (snprintf) and the CSR-name search
 * run once per distinct word. */
#ifndef VT_TRACE_LINE_H
#define VT_TRACE_LINE_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"

/* Longest disassembly text: isa_disasm's 159 characters plus the mnemonic's
 * padding to 7 columns (and a NUL). */
#define VT_TRACE_DIS_MAX 176

/* What the log shows of one instruction word (decoded with prefix 0, as
 * the commit log always did: the text does not depend on the pc). */
typedef struct vt_trace_insn {
  uint32_t insn;
  uint32_t flags;  /* isa_table flags (0 for an unknown word) */
  uint16_t dislen; /* 0 = slot empty (a disassembly is never empty) */
  char dis[VT_TRACE_DIS_MAX];
} vt_trace_insn;

typedef struct vt_trace_cache vt_trace_cache;

vt_trace_cache *vt_trace_cache_new(void);
void vt_trace_cache_free(vt_trace_cache *k);

/* The word's entry: from k when cached (k may be NULL), else filled into
 * *tmp. Valid until the next call with the same k. */
const vt_trace_insn *vt_trace_insn_info(vt_trace_cache *k, uint32_t insn, vt_trace_insn *tmp);
/* The same for the instruction of a commit, which may be 64 bits long. */
const vt_trace_insn *vt_trace_commit_insn(vt_trace_cache *k, const vt_commit *c, vt_trace_insn *tmp);

/* More than the bytes vt_trace_put_* write for c: the commit line, its SIMT
 * stack lines, plus room for an "Executed" line and the disassembly line. */
size_t vt_trace_bound(vt_trace_cache *k, const vt_commit *c);

/* Each writes at p and returns the end (no NUL). */
char *vt_trace_put_executed(char *p, uint32_t warp, uint32_t times);
char *vt_trace_put_disasm(char *p, const vt_commit *c, const vt_trace_insn *ii);
/* The commit line (a bare one for a barrier spin) and the SIMT stack lines;
 * flags = the instruction's isa_table flags. */
char *vt_trace_put_commit(vt_trace_cache *k, char *p, const vt_commit *c, uint32_t flags);

#endif
