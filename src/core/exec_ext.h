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

#endif
