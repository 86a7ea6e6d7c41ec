/* Register groups that can never fit (ISA 2025): an instruction whose
 * registers run past 255 for every warp width, which the device always
 * refuses. The sizes follow from the encoding alone, so the assembler
 * refuses such an instruction and the disassembler prints it as .word
 * (its mnemonic would not assemble back):
 * - mma64.wg: C and D hold 16 x N elements of the C width over at most 32
 *   threads, A (when in registers) 16 x K elements plus the sparse form's
 *   2-bit metadata (as exec_mma64_ext.c counts them, at 32 threads, the
 *   fewest registers);
 * - a PREFIX_MEMORY access moves mwidth + 1 words through consecutive data
 *   registers (exec_memext.c). */
#include <stdio.h>
#include <string.h>

#include "isa.h"

/* registers for `elems` elements of `bits` bits over 32 threads */
static unsigned regs32(unsigned elems, unsigned bits) { return (elems * bits / 32 + 31) / 32; }

static int wg_fits(const isa_inst *in, char *why, size_t len) {
  if (strncmp(isa_table[in->id].mnemonic, "mma64.wg.", 9)) return 1;
  unsigned dt = in->hi >> 28, ct = (in->hi >> 6) & 1, sp = (in->hi >> 4) & 1, areg = (in->word >> 16) & 1;
  /* element width of A and B by data type (insns.def MMA64WG) */
  static const unsigned bits_of[12] = {32, 16, 16, 8, 8, 8, 4, 1, 8, 8, 8, 8};
  if (dt >= 12) return 1;
  unsigned bits = bits_of[dt], cbits = dt == 1 && !ct ? 16 : 32;
  unsigned n = 8u << ((in->hi >> 25) & 7), k = (256 / bits) * (sp ? 2 : 1), ka = sp ? k / 2 : k;
  unsigned rc = regs32(16 * n, cbits), ra = areg ? regs32(16 * ka, bits) + (sp ? regs32(16 * ka, 2) : 0) : 2;
  if (in->rd + rc <= 256 && in->rs3 + rc <= 256 && in->rs1 + ra <= 256) return 1;
  snprintf(why, len,
           "its register groups run past v255 even at 32 threads per warp (A v%u+%u, C v%u+%u, D v%u+%u registers "
           "for N = %u)",
           in->rs1, ra, in->rs3, rc, in->rd, rc, n);
  return 0;
}

static int wide_fits(const isa_inst *in, char *why, size_t len) {
  uint32_t fl = isa_table[in->id].flags;
  if (!(in->pfx & ISA_PFX_MEM) || !(fl & (IF_LOAD | IF_STORE)) || (fl & IF_AMO)) return 1;
  unsigned data = (fl & IF_STORE) ? in->rs2 : in->rd, words = in->mwidth + 1u;
  if (data + words - 1 <= 255) return 1;
  snprintf(why, len, "the %u-bit access under the memory prefix needs %u data registers from %u, past 255", 32 * words,
           words, data);
  return 0;
}

int isa_groups_fit(const isa_inst *in, char *why, size_t len) {
  if (in->id == ISA_INVALID) return 1;
  return (isa_table[in->id].flags & IF_LONG) ? wg_fits(in, why, len) : wide_fits(in, why, len);
}
