/* ISA 2025 RV64I on register pairs (seed 002 "RV64I"): the W forms read
 * and write 64-bit values in even-aligned x pairs {x[n+1], x[n]}, unlike
 * RV64's 32-bit W semantics. Register shifts use the low 6 bits of rs2;
 * the immediate forms keep the standard 5-bit shamt field. */
#include "exec_ext.h"

#define PAIR_RR(name, expr)                                                                \
  HANDLER(name) {                                                                          \
    NEED_PAIR('x', in->rd);                                                                \
    NEED_PAIR('x', in->rs1);                                                               \
    NEED_PAIR('x', in->rs2);                                                               \
    uint64_t a = get_xpair(x, in->rs1), b = get_xpair(x, in->rs2);                         \
    set_xpair(x, in->rd, (expr));                                                          \
    return 0;                                                                              \
  }
#define PAIR_RI(name, expr)                                                                \
  HANDLER(name) {                                                                          \
    NEED_PAIR('x', in->rd);                                                                \
    NEED_PAIR('x', in->rs1);                                                               \
    uint64_t a = get_xpair(x, in->rs1), b = (uint64_t)(int64_t)in->imm;                    \
    set_xpair(x, in->rd, (expr));                                                          \
    return 0;                                                                              \
  }

/* arithmetic right shift without relying on the implementation-defined >> of
 * a negative value */
static inline uint64_t sra64(uint64_t a, unsigned s) {
  return s ? (a >> s) | (a >> 63 ? ~0ull << (64 - s) : 0) : a;
}

PAIR_RR(addw, a + b)
PAIR_RR(subw, a - b)
PAIR_RR(sllw, a << (b & 63))
PAIR_RR(srlw, a >> (b & 63))
PAIR_RR(sraw, sra64(a, (unsigned)(b & 63)))
PAIR_RI(addiw, a + b)
PAIR_RI(slliw, a << (b & 31))
PAIR_RI(srliw, a >> (b & 31))
PAIR_RI(sraiw, sra64(a, (unsigned)(b & 31)))
