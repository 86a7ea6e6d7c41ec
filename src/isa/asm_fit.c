/* The assembler's side of isa_groups_fit (fit.c): an ISA 2025 instruction
 * whose register groups can never fit is an error, not a word the device
 * always refuses. */
#include <string.h>

#include "asm_int.h"

int asm_check_fit(asm_object *o, uint32_t prefix, uint32_t w, uint32_t hi, int is_long, const char *at) {
  isa_inst in;
  memset(&in, 0, sizeof in);
  if (is_long ? isa_decode64_rev(w, hi, ISA_REV_2025, &in) == ISA_INVALID
              : !prefix || isa_decode_rev(w, prefix, ISA_REV_2025, &in) == ISA_INVALID)
    return 0;
  char why[200];
  if (isa_groups_fit(&in, why, sizeof why)) return 0;
  return asm_error(o, at, "%s: %s", isa_table[in.id].mnemonic, why);
}
