/* Helpers for the ISA 2025 extension tests: assemble a program in a given
 * revision, run it on a one-work-group launch, read memory back. */
#ifndef ISAEXT_PROG_H
#define ISAEXT_PROG_H

#include <stdio.h>

#include "asm.h"
#include "test_core_prog.h"

/* A device of revision `isa` (0 or 2025) with the test memory map. */
static inline vt_device *ext_dev(uint32_t isa) {
  vt_config c;
  vt_config_defaults(&c);
  c.isa = isa;
  return mkdev(&c);
}

/* Assembles `src` in revision rev (asserting success), runs it with nt
 * threads in one warp, returns the launch's result (0 or -1 with *e). */
static inline int ext_run(vt_device *d, isa_rev rev, const char *src, uint32_t nt, vt_error *e) {
  prog p = {.n = 0};
  vt_error ae = {0};
  p.n = asm_words_rev(src, CODE_BASE, rev, p.w, 4096, &ae);
  if (p.n < 0) fail_msg("assembling failed: %s", ae.msg);
  vt_launch l = mklaunch(1, 1, 1, nt, 1);
  return run(d, &p, &l, e);
}

/* The text of an MMA test program: lane addresses v1..v4 at DATA_BASE and
 * +0x400, +0x800, +0xc00; ra/rb/rc registers of A, B, C loaded from the
 * first three into v8.., v40.., v80..; the instruction line INSN (operands
 * included); D stored from v80.. to the fourth; endprg. nt threads. */
static inline void mma_prog(char *src, size_t len, unsigned ra, unsigned rb, unsigned rc, unsigned nt,
                            const char *insn) {
  size_t n = (size_t)snprintf(src, len,
                              "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
                              "li t0, 0x400\nvadd.vx v2, v1, t0\nvadd.vx v3, v2, t0\nvadd.vx v4, v3, t0\n");
  for (unsigned r = 0; r < ra && n < len; r++)
    n += (size_t)snprintf(src + n, len - n, "vlw12.v v%u, %u(v1)\n", 8 + r, 4 * nt * r);
  for (unsigned r = 0; r < rb && n < len; r++)
    n += (size_t)snprintf(src + n, len - n, "vlw12.v v%u, %u(v2)\n", 40 + r, 4 * nt * r);
  for (unsigned r = 0; r < rc && n < len; r++)
    n += (size_t)snprintf(src + n, len - n, "vlw12.v v%u, %u(v3)\n", 80 + r, 4 * nt * r);
  if (n < len) n += (size_t)snprintf(src + n, len - n, "%s\n", insn);
  for (unsigned r = 0; r < rc && n < len; r++)
    n += (size_t)snprintf(src + n, len - n, "vsw12.v v%u, %u(v4)\n", 80 + r, 4 * nt * r);
  if (n < len) snprintf(src + n, len - n, "endprg x0, x0, x0\n");
}

#endif
