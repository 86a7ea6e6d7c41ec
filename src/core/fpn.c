/* IEEE 754 arithmetic in software for the binary formats of fpn.h: the
 * body is fpn_impl.h, instantiated with 64-bit significand integers for the
 * formats of up to 32 bits and, where the compiler has a 128-bit integer,
 * with those for binary64 (whose exact products take 106 bits). */
#include "fpn.h"

#include "fp32.h"

enum { C_ZERO, C_FIN, C_INF, C_QNAN, C_SNAN };

static int bias(fpn_fmt f) { return (1 << (f.ebits - 1)) - 1; }
static uint32_t emax_field(fpn_fmt f) { return (1u << f.ebits) - 1; }
static int msb64(uint64_t v) { return 63 - __builtin_clzll(v); }

/* whether the dropped bits (half = the highest of them, below = any lower
 * one) make the kept value, whose lowest bit is q's, round up in mode rm */
static int round_up(unsigned rm, uint32_t sign, uint64_t q, int half, int below) {
  switch (rm) {
  case FP_RNE: return half && (below || (q & 1));
  case FP_RTZ: return 0;
  case FP_RDN: return sign && (half || below);
  case FP_RUP: return !sign && (half || below);
  case FP_RMM: return half;
  default: return 0; /* FPN_ROD: round_pack sets the lowest bit */
  }
}

#define FPN_VAL uint32_t
#define FPN_SIG uint64_t
#define FPN_W 64
#define FPN_MAXM 23
#define FPN_P(n) fpn_##n
#include "fpn_impl.h"
#undef FPN_VAL
#undef FPN_SIG
#undef FPN_W
#undef FPN_MAXM
#undef FPN_P

#if FPN_HAVE_64
__extension__ typedef unsigned __int128 fpn_u128;
#define FPN_VAL uint64_t
#define FPN_SIG fpn_u128
#define FPN_W 128
#define FPN_MAXM 52
#define FPN_P(n) fpn64_##n
#include "fpn_impl.h"
#undef FPN_VAL
#undef FPN_SIG
#undef FPN_W
#undef FPN_MAXM
#undef FPN_P
#endif
