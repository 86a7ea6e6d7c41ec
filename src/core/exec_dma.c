/* ISA 2025 asynchronous copies (seed 002 "自定义异步数据拷贝指令"), in the
 * functional model: the copy is complete when the instruction retires,
 * which is one valid order of an asynchronous copy (a later access sees
 * it done). cp_dma: each active thread copies 4, 8 or 16 bytes from a
 * global source to local memory, the bytes at and beyond its srcsize
 * written as zero; cp_dma_bulk: one copy of a scalar size from a 16-byte
 * aligned global source to a 16-byte aligned local destination. */
#include <stdio.h>

#include "exec_ext.h"

/* the destination [a, a + n) lies in the local window */
static int local_dst(vt_exec *x, const char *what, uint32_t a, uint32_t n, int lane) {
  uint32_t off = a - x->d->cfg.lds_base, win = x->d->cfg.lds_window;
  if (off < win && win - off >= n) return 0;
  char msg[160];
  snprintf(msg, sizeof msg, "%s destination 0x%08x (+%u bytes) is not in local memory", what, a, n);
  return exec_fault(x, VT_ERR_UNMAPPED, lane, a, msg);
}

/* n bytes in units of `unit`; source bytes from `valid` on read as zero */
static int copy_bytes(vt_exec *x, uint32_t dst, uint32_t src, uint32_t n, uint32_t valid, unsigned unit,
                      int lane) {
  for (uint32_t b = 0; b < n; b += unit) {
    uint32_t v = 0;
    if (b < valid) {
      const uint8_t *h = route(x, src + b, unit, ACC_R, 0, lane);
      if (!h) return -1;
      v = ld_n(h, unit, 0);
      trace_mem(x, src + b, 0, unit, 0);
    }
    uint8_t *h = route(x, dst + b, unit, ACC_W, 0, lane);
    if (!h) return -1;
    st_n(h, unit, v);
    trace_mem(x, dst + b, v, unit, 1);
  }
  x->st->loads += (valid + unit - 1) / unit;
  x->st->load_bytes += valid;
  x->st->stores += n / unit;
  x->st->store_bytes += n;
  return 0;
}

/* vs3 (the rd field): local destinations, vs1: global sources, vs2: srcsize */
static int cp_dma(vt_exec *x, const isa_inst *in, uint32_t size) {
  const vt_warp *w = x->w;
  FOR_LANES(x->emask, i) {
    uint32_t dst = w->v[in->rd][i], src = w->v[in->rs1][i], valid = w->v[in->rs2][i];
    if (valid > size) {
      char msg[100];
      snprintf(msg, sizeof msg, "cp_dma: srcsize %u is larger than the copy size %u", valid, size);
      return exec_fault(x, VT_ERR_ILLEGAL, (int)i, src, msg);
    }
    if (local_dst(x, "cp_dma", dst, size, (int)i) || copy_bytes(x, dst, src, size, valid, 1, (int)i))
      return -1;
  }
  return 0;
}

HANDLER(cp_dma_4) { return cp_dma(x, in, 4); }
HANDLER(cp_dma_8) { return cp_dma(x, in, 8); }
HANDLER(cp_dma_16) { return cp_dma(x, in, 16); }

/* x[rd]: byte count, x[rs1]: global source, x[rs2]: local destination */
HANDLER(cp_dma_bulk) {
  uint32_t n = XR(in->rd), src = XR(in->rs1), dst = XR(in->rs2);
  char msg[120];
  if (n < 4 || (n & 3)) {
    snprintf(msg, sizeof msg, "cp_dma_bulk: size %u is not a multiple of 4 from 4 to 2^32 - 4", n);
    return exec_fault(x, VT_ERR_ILLEGAL, -1, src, msg);
  }
  if ((src | dst) & 15) {
    snprintf(msg, sizeof msg, "cp_dma_bulk: source 0x%08x and destination 0x%08x must be 16-byte aligned",
             src, dst);
    return exec_fault(x, VT_ERR_MISALIGNED, -1, (src & 15) ? src : dst, msg);
  }
  if (local_dst(x, "cp_dma_bulk", dst, n, -1)) return -1;
  return copy_bytes(x, dst, src, n, n, 4, -1);
}
