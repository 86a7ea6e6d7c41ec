/* Register groups that can never fit (ISA 2025): the assembler refuses an
 * instruction whose registers run past v255 for every warp width, since
 * the sizes follow from the encoding alone and the device would always
 * fault on it:
 * - mma64.wg: C and D hold 16 x N elements of the C width over at most 32
 *   threads, A (when in registers) 16 x K elements plus the sparse form's
 *   2-bit metadata (as exec_mma64_ext.c counts them, at 32 threads, the
 *   fewest registers);
 * - a PREFIX_MEMORY access moves mwidth + 1 words through consecutive data
 *   registers (exec_memext.c). */
#include <string.h>

#include "asm_int.h"

/* registers for `elems` elements of `bits` bits over 32 threads */
static unsigned regs32(unsigned elems, unsigned bits) { return (elems * bits / 32 + 31) / 32; }

static int wg_fits(asm_object *o, const isa_inst *in, const char *at) {
  const char *mn = isa_table[in->id].mnemonic;
  if (strncmp(mn, "mma64.wg.", 9)) return 0;
  unsigned dt = in->hi >> 28, ct = (in->hi >> 6) & 1, sp = (in->hi >> 4) & 1;
  /* element width of A and B by data type (insns.def MMA64WG), C's width */
  static const unsigned bits_of[12] = {32, 16, 16, 8, 8, 8, 4, 1, 8, 8, 8, 8};
  if (dt >= 12) return 0;
  unsigned bits = bits_of[dt], cbits = dt == 1 && !ct ? 16 : 32;
  unsigned n = 8u << ((in->hi >> 25) & 7), k = (256 / bits) * (sp ? 2 : 1), ka = sp ? k / 2 : k;
  unsigned rc = regs32(16 * n, cbits), ra = (in->word >> 16) & 1 ? regs32(16 * ka, bits) : 2;
  if (sp && ((in->word >> 16) & 1)) ra += regs32(16 * ka, 2);
  if (in->rd + rc > 256 || in->rs3 + rc > 256 || in->rs1 + ra > 256)
    return asm_error(o, at,
                     "%s: its register groups run past v255 even at 32 threads per warp (A v%u+%u, C v%u+%u, "
                     "D v%u+%u registers for N = %u)",
                     mn, in->rs1, ra, in->rs3, rc, in->rd, rc, n);
  return 0;
}

static int wide_fits(asm_object *o, const isa_inst *in, const char *at) {
  uint32_t fl = isa_table[in->id].flags;
  if (!(in->pfx & ISA_PFX_MEM) || !(fl & (IF_LOAD | IF_STORE)) || (fl & IF_AMO)) return 0;
  unsigned data = (fl & IF_STORE) ? in->rs2 : in->rd, words = in->mwidth + 1u;
  if (data + words - 1 > 255)
    return asm_error(o, at, "%s: the %u-bit access under the memory prefix needs %u data registers from %u, past 255",
                     isa_table[in->id].mnemonic, 32 * words, words, data);
  return 0;
}

int asm_check_fit(asm_object *o, uint32_t prefix, uint32_t w, uint32_t hi, int is_long, const char *at) {
  isa_inst in;
  memset(&in, 0, sizeof in);
  if (is_long) {
    if (isa_decode64_rev(w, hi, ISA_REV_2025, &in) == ISA_INVALID) return 0;
    return wg_fits(o, &in, at);
  }
  if (!prefix || isa_decode_rev(w, prefix, ISA_REV_2025, &in) == ISA_INVALID) return 0;
  return wide_fits(o, &in, at);
}
