/* Prototypes of the instruction handlers, one per insns.def entry
 * (exec_<id>), and small helpers shared by the exec_*.c files. */
#ifndef VT_EXEC_H
#define VT_EXEC_H

#include "core.h"

#define INSN(id, mn, match, mask, syn, unit, flags) int exec_##id(vt_exec *x, const isa_inst *in);
#include "insns.def"
#undef INSN

#define HANDLER(id) int exec_##id(vt_exec *x, const isa_inst *in)
#define XR(r) (x->w->x[(r)])
#define VR(r) (x->w->v[(r)])

/* Iterate over the lanes set in a mask. */
#define FOR_LANES(m, i)                                                                    \
  for (uint32_t _m = (m), i = 0; _m && ((i = (uint32_t)__builtin_ctz(_m)), 1); _m &= _m - 1)

/* Runs the body for every lane i of the mask; a full mask becomes a plain
 * counted loop the compiler can vectorise. */
#define LANES(em, i, ...)                                                                  \
  do {                                                                                     \
    uint32_t _em = (em), _vl = x->w->vl;                                                   \
    if (_em == lanes_mask(_vl)) {                                                          \
      for (uint32_t i = 0; i < _vl; i++) __VA_ARGS__;                                      \
    } else {                                                                               \
      FOR_LANES(_em, i) __VA_ARGS__;                                                       \
    }                                                                                      \
  } while (0)

/* RISC-V M results (divide by zero, overflow), shared by scalar and vector */
uint32_t rv_div(uint32_t a, uint32_t b);
uint32_t rv_divu(uint32_t a, uint32_t b);
uint32_t rv_rem(uint32_t a, uint32_t b);
uint32_t rv_remu(uint32_t a, uint32_t b);
uint32_t rv_mulh(uint32_t a, uint32_t b);
uint32_t rv_mulhu(uint32_t a, uint32_t b);
uint32_t rv_mulhsu(uint32_t a, uint32_t b);

#endif
