/* The dispatch table: one handler per insns.def entry, so an instruction
 * without a handler is a link error. */
#include "exec.h"

const vt_exec_fn vt_exec_table[ISA_COUNT] = {
#define INSN(id, mn, match, mask, syn, unit, flags) [ISA_##id] = exec_##id,
#include "insns.def"
#undef INSN
};
