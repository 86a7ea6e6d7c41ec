/* ISA 2025 loads and stores with a 64-bit address from a register pair:
 * vlb12d.v .. vsb12d.v (seed 002 "自定义64位地址空间立即数访存指令"). The
 * device address space is 32 bits, so an address whose high word is not
 * zero after adding the offset is a fault, never a wrap. */
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

/* lane i's address: {vs1+1, vs1}[i] + sext(imm12) */
static int lane_addr(vt_exec *x, const isa_inst *in, uint32_t i, uint32_t *addr) {
  const vt_warp *w = x->w;
  uint64_t base = (uint64_t)w->v[in->rs1 + 1][i] << 32 | w->v[in->rs1][i];
  return addr64(x, base + (uint64_t)(int64_t)in->imm, (int)i, addr);
}

static int vload64(vt_exec *x, const isa_inst *in, unsigned size, int sign) {
  NEED_PAIR('v', in->rs1);
  uint32_t tmp[VT_MAX_LANES];
  uint32_t em = x->emask;
  FOR_LANES(em, i) {
    uint32_t addr;
    if (lane_addr(x, in, i, &addr)) return -1;
    const uint8_t *h = route(x, addr, size, ACC_R, 0, (int)i);
    if (!h) return -1;
    tmp[i] = ld_n(h, size, sign);
    trace_mem(x, addr, 0, size, 0);
  }
  uint32_t *vd = x->w->v[in->rd];
  FOR_LANES(em, i) vd[i] = tmp[i];
  unsigned n = (unsigned)__builtin_popcount(em);
  x->d->stats.loads += n;
  x->d->stats.load_bytes += (uint64_t)n * size;
  trace_vreg(x, in->rd);
  return 0;
}

static int vstore64(vt_exec *x, const isa_inst *in, unsigned size) {
  NEED_PAIR('v', in->rs1);
  uint32_t em = x->emask;
  const uint32_t *vs = x->w->v[in->rs2];
  FOR_LANES(em, i) {
    uint32_t addr;
    if (lane_addr(x, in, i, &addr)) return -1;
    uint8_t *h = route(x, addr, size, ACC_W, 0, (int)i);
    if (!h) return -1;
    uint32_t v = vs[i];
    st_n(h, size, v);
    resv_store(x, h - (addr & 3));
    trace_mem(x, addr, size == 4 ? v : v & ((1u << (8 * size)) - 1), size, 1);
  }
  unsigned n = (unsigned)__builtin_popcount(em);
  x->d->stats.stores += n;
  x->d->stats.store_bytes += (uint64_t)n * size;
  return 0;
}

HANDLER(vlb12d_v) { return vload64(x, in, 1, 1); }
HANDLER(vlh12d_v) { return vload64(x, in, 2, 1); }
HANDLER(vlw12d_v) { return vload64(x, in, 4, 0); }
HANDLER(vlbu12d_v) { return vload64(x, in, 1, 0); }
HANDLER(vlhu12d_v) { return vload64(x, in, 2, 0); }
HANDLER(vsb12d_v) { return vstore64(x, in, 1); }
HANDLER(vsh12d_v) { return vstore64(x, in, 2); }
HANDLER(vsw12d_v) { return vstore64(x, in, 4); }
