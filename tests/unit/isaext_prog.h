/* Helpers for the ISA 2025 extension tests: assemble a program in a given
 * revision, run it on a one-work-group launch, read memory back. */
#ifndef ISAEXT_PROG_H
#define ISAEXT_PROG_H

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

#endif
