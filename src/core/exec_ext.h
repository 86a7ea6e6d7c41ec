/* Helpers shared by the executors of the ISA 2025 extensions
 * (docs/isa-extensions.md): register pairs and 64-bit addresses. */
#ifndef VT_EXEC_EXT_H
#define VT_EXEC_EXT_H

#include "exec.h"

/* A pair operand names its even low register; an odd one (possible only in
 * a hand-made word, the assembler refuses it) is an illegal instruction. */
int pair_fault(vt_exec *x, char file, unsigned reg);
#define NEED_PAIR(file, reg)                                                              \
  do {                                                                                   \
    if (unlikely((reg) & 1)) return pair_fault(x, file, reg);                            \
  } while (0)

/* The device address of a 64-bit address; one beyond 32 bits faults. */
int addr64(vt_exec *x, uint64_t a, int lane, uint32_t *out);

/* PREFIX/PREFIXI pair = 1 before a computation (exec_pair_compute.c): the
 * instructions it makes 64-bit, and their handler. */
int pair_computable(isa_id id);
int exec_paired(vt_exec *x, const isa_inst *in);

/* The RV32A operations at an address already computed (exec_mem.c); the
 * .d forms of revision 2025 take it from a pair. */
enum { AMO_SWAP, AMO_ADD, AMO_XOR, AMO_AND, AMO_OR, AMO_MIN, AMO_MAX, AMO_MINU, AMO_MAXU };
int amo_at(vt_exec *x, const isa_inst *in, uint32_t addr, int op);
int lr_at(vt_exec *x, const isa_inst *in, uint32_t addr);
int sc_at(vt_exec *x, const isa_inst *in, uint32_t addr);

/* A 64-bit pair of x registers; pair 0 reads as 0 and discards writes
 * (x0 as a pair is the 64-bit zero). */
static inline uint64_t get_xpair(const vt_exec *x, unsigned r) {
  return r ? (uint64_t)x->w->x[r + 1] << 32 | x->w->x[r] : 0;
}
static inline void set_xpair(vt_exec *x, unsigned rd, uint64_t v) {
  if (!rd) return;
  set_x(x, rd, (uint32_t)v);
  set_x(x, rd + 1, (uint32_t)(v >> 32));
}
/* Lane i of a 64-bit pair of v registers. */
static inline uint64_t get_vpair(const vt_exec *x, unsigned r, uint32_t i) {
  return (uint64_t)x->w->v[r + 1][i] << 32 | x->w->v[r][i];
}

/* Loads and stores under a 2025 prefix or with the 2025 flat address check
 * (exec_memext.c); any other instruction runs its own handler. */
int exec_memext(vt_exec *x, const isa_inst *in);
/* An instruction under PREFIX/PREFIXI ABS/NEG bits (exec_modifier.c). */
int exec_modified(vt_exec *x, const isa_inst *in);

#endif
