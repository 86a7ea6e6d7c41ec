/* ISA 2025 loads, stores and atomics with a 64-bit address from a register
 * pair: vlb12d.v .. vsb12d.v (seed 002 "自定义64位地址空间立即数访存指令"),
 * ld/sd and the RV64A .d forms. The device address space is 32 bits, so an
 * address whose high word is not zero after adding the offset is a fault,
 * never a wrap. */
#include <stdio.h>

#include "exec_ext.h"

int pair_fault(vt_exec *x, char file, unsigned reg) {
  vt_fail(x->e, VT_ERR_ILLEGAL, "%c%u is odd: a register pair starts at an even register", file,
          reg);
  return -1;
}

int addr64(vt_exec *x, uint64_t a, int lane, uint32_t *out) {
  if (unlikely(a >> 32)) {
    char msg[120];
    snprintf(msg, sizeof msg, "64-bit address 0x%016llx is beyond the 32-bit device address space",
             (unsigned long long)a);
    return exec_fault(x, VT_ERR_UNMAPPED, lane, (uint32_t)a, msg);
  }
  *out = (uint32_t)a;
  return 0;
}

/* The 12D family and ld/sd go through the 2025 memory path, which also
 * serves them under a PREFIX_MEMORY (exec_memext.c). */
HANDLER(vlb12d_v) { return exec_memext(x, in); }
HANDLER(vlh12d_v) { return exec_memext(x, in); }
HANDLER(vlw12d_v) { return exec_memext(x, in); }
HANDLER(vlbu12d_v) { return exec_memext(x, in); }
HANDLER(vlhu12d_v) { return exec_memext(x, in); }
HANDLER(vsb12d_v) { return exec_memext(x, in); }
HANDLER(vsh12d_v) { return exec_memext(x, in); }
HANDLER(vsw12d_v) { return exec_memext(x, in); }
HANDLER(ld) { return exec_memext(x, in); }
HANDLER(sd) { return exec_memext(x, in); }

/* the address of the RV64A forms: the pair rs1 (no offset) */
static int pair_xaddr(vt_exec *x, const isa_inst *in, uint32_t *addr) {
  NEED_PAIR('x', in->rs1);
  return addr64(x, get_xpair(x, in->rs1), -1, addr);
}

/* RV64A (seed 002 "RV64A"): the address is the pair rs1, rd and rs2 32-bit */
#define AMO_D(name, op)                                                                    \
  HANDLER(name) {                                                                          \
    uint32_t addr;                                                                         \
    if (pair_xaddr(x, in, &addr)) return -1;                                               \
    return amo_at(x, in, addr, op);                                                        \
  }
AMO_D(amoswap_d, AMO_SWAP)
AMO_D(amoadd_d, AMO_ADD)
AMO_D(amoxor_d, AMO_XOR)
AMO_D(amoand_d, AMO_AND)
AMO_D(amoor_d, AMO_OR)
AMO_D(amomin_d, AMO_MIN)
AMO_D(amomax_d, AMO_MAX)
AMO_D(amominu_d, AMO_MINU)
AMO_D(amomaxu_d, AMO_MAXU)

HANDLER(lr_d) {
  uint32_t addr;
  if (pair_xaddr(x, in, &addr)) return -1;
  return lr_at(x, in, addr);
}

HANDLER(sc_d) {
  uint32_t addr;
  if (pair_xaddr(x, in, &addr)) return -1;
  return sc_at(x, in, addr);
}
