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

/* The copy's summary for the timing model's copy engine (vt_commit's dma
 * fields): a step that records starts it empty; each source read extends the
 * last range when contiguous with it. Nothing when not recording. */
static void dma_begin(vt_exec *x) {
  if (x->m) x->m->dma_bytes = 0, x->m->ndma = 0, x->m->dma_more = 0;
}

static void dma_note(vt_exec *x, uint32_t src, uint32_t len, uint32_t written) {
  vt_commit *c = x->m;
  if (!c) return;
  c->dma_bytes += written;
  if (!len) return;
  if (c->ndma && c->dma[c->ndma - 1].addr + c->dma[c->ndma - 1].len == src && c->dma[c->ndma - 1].len <= UINT32_MAX - len)
    c->dma[c->ndma - 1].len += len;
  else if (c->ndma < VT_MAX_LANES) {
    c->dma[c->ndma].addr = src;
    c->dma[c->ndma++].len = len;
  } else
    c->dma_more += len;
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
  dma_note(x, src, valid < n ? valid : n, n);
  x->st->loads += (valid + unit - 1) / unit;
  x->st->load_bytes += valid;
  x->st->stores += n / unit;
  x->st->store_bytes += n;
  return 0;
}

/* vs3 (the rd field): local destinations, vs1: global sources, vs2: srcsize */
static int cp_dma(vt_exec *x, const isa_inst *in, uint32_t size) {
  const vt_warp *w = x->w;
  dma_begin(x);
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
  dma_begin(x);
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

/* cp_dma_tensor (seed 002's parameter table; values and layout defined
 * here, docs/isa-extensions.md): a box of a rank-1..5 tensor in global
 * memory copied densely (dimension 1 fastest) to shared memory at x[rs3].
 * vs1 lanes: 0 datatype (CUDA's tensor-map codes), 1 rank, 2 global
 * address, 3..7 dims, 8..11 the byte strides of dimensions 2..5 (lane 12,
 * a sixth dimension's, unused); vs2 lanes: 0 the box origin as the byte
 * address of its first element, 1..5 box dims, 6..10 element strides, 11
 * interleave, 12 swizzle, 13 L2 promotion (a hint), 14 out-of-bounds fill
 * (0 zero, 1 NaN). Elements outside the tensor are written as the fill.
 * Interleave and swizzle as CUDA's tensor maps (codes included): with an
 * interleave of I = 16 or 32 bytes dimension 1 is the I-byte channel chunk
 * (NC/8HWC8-style layouts), whole in the box; a swizzle of S = 32, 64 or
 * 128 bytes XORs the 16-byte chunk bits [4 + log2(S/16) - 1 : 4] of each
 * shared address with the bits 3 above them, the box's inner dimension
 * being at most S bytes. */
enum { TMAX = 5 };

static int tensor_bad(vt_exec *x, uint32_t addr, const char *fmt, uint32_t v) {
  char msg[160];
  snprintf(msg, sizeof msg, fmt, v);
  return exec_fault(x, VT_ERR_ILLEGAL, -1, addr, msg);
}

HANDLER(cp_dma_tensor) {
  /* element bytes of CUDA's CUtensorMapDataType 0..12; float types fill NaN */
  static const uint8_t esz[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};
  static const uint8_t isfp[13] = {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
  const uint32_t *p = x->w->v[in->rs1], *q = x->w->v[in->rs2];
  uint32_t type = p[0], rank = p[1], gaddr = p[2], box0 = q[0], fill = q[14];
  dma_begin(x);
  uint32_t dim[TMAX], stride[TMAX], cnt[TMAX], es[TMAX], org[TMAX];
  if (type > 12) return tensor_bad(x, gaddr, "cp_dma_tensor: datatype %u is not 0..12", type);
  if (rank < 1 || rank > TMAX) return tensor_bad(x, gaddr, "cp_dma_tensor: rank %u is not 1..5", rank);
  if (q[11] > 2) return tensor_bad(x, gaddr, "cp_dma_tensor: interleave %u is not 0 (none), 1 (16 B) or 2 (32 B)", q[11]);
  if (q[12] > 3)
    return tensor_bad(x, gaddr, "cp_dma_tensor: swizzle %u is not 0 (none), 1 (32 B), 2 (64 B) or 3 (128 B)", q[12]);
  if (q[13] > 3)
    return tensor_bad(x, gaddr, "cp_dma_tensor: L2 promotion %u is not 0 (none), 1 (64 B), 2 (128 B) or 3 (256 B)",
                      q[13]);
  uint32_t ilv = q[11] ? 8u << q[11] : 0, swz = q[12] ? 16u << q[12] : 0;
  if (fill > 1 || (fill && !isfp[type]))
    return tensor_bad(x, gaddr, "cp_dma_tensor: out-of-bounds fill %u is not 0 (zero) or 1 (NaN, float types)", fill);
  uint32_t size = esz[type];
  uint64_t total = size;
  for (uint32_t d = 0; d < rank; d++) {
    dim[d] = p[3 + d];
    stride[d] = d ? p[7 + d] : size; /* dimension 1 is contiguous */
    uint32_t bd = q[1 + d];
    es[d] = q[6 + d];
    if (!dim[d]) return tensor_bad(x, gaddr, "cp_dma_tensor: dimension %u is 0", d + 1);
    if (d && (!stride[d] || (stride[d] & 15)))
      return tensor_bad(x, gaddr, "cp_dma_tensor: stride 0x%x is not a nonzero multiple of 16", stride[d]);
    if (d && ilv == 32 && (stride[d] & 31))
      return tensor_bad(x, gaddr, "cp_dma_tensor: stride 0x%x is not a multiple of the 32-byte interleave", stride[d]);
    if (bd < 1 || bd > 256) return tensor_bad(x, gaddr, "cp_dma_tensor: box dimension %u is not 1..256", bd);
    if (es[d] < 1 || es[d] > 8) return tensor_bad(x, gaddr, "cp_dma_tensor: element stride %u is not 1..8", es[d]);
    cnt[d] = (bd + es[d] - 1) / es[d];
    total *= cnt[d];
  }
  if (ilv && (dim[0] * size != ilv || q[1] != dim[0] || es[0] != 1))
    return tensor_bad(x, gaddr,
                      "cp_dma_tensor: an interleave of %u bytes needs dimension 1 of that many bytes, whole in the box "
                      "(element stride 1)",
                      ilv);
  if (swz && cnt[0] * size > swz) {
    char msg[120];
    snprintf(msg, sizeof msg, "cp_dma_tensor: the box's inner dimension (%u bytes) is wider than the %u-byte swizzle",
             cnt[0] * size, swz);
    return exec_fault(x, VT_ERR_ILLEGAL, -1, gaddr, msg);
  }
  /* the origin's coordinates, from the highest dimension down */
  uint64_t off = (uint64_t)box0 - gaddr, rest = off;
  for (uint32_t d = rank; d-- > 0;) {
    org[d] = (uint32_t)(rest / stride[d]);
    rest %= stride[d];
  }
  uint64_t back = 0;
  for (uint32_t d = 0; d < rank; d++) back += (uint64_t)org[d] * stride[d];
  for (uint32_t d = 0; d < rank && !rest && back == off; d++)
    if (org[d] >= dim[d]) rest = 1;
  if (box0 < gaddr || rest || back != off)
    return tensor_bad(x, box0, "cp_dma_tensor: box address 0x%08x is not an element of the tensor", box0);
  uint32_t dst = XR(in->rs3);
  if (dst & 15) {
    char msg[100];
    snprintf(msg, sizeof msg, "cp_dma_tensor: shared address 0x%08x is not 16-byte aligned", dst);
    return exec_fault(x, VT_ERR_MISALIGNED, -1, dst, msg);
  }
  if (total > x->d->cfg.lds_window)
    return tensor_bad(x, dst, "cp_dma_tensor: the box is larger than local memory (%u bytes)", x->d->cfg.lds_window);
  if (local_dst(x, "cp_dma_tensor", dst, (uint32_t)total, -1)) return -1;
  /* the canonical quiet NaN of the type, as its words */
  uint32_t nan[2] = {size == 2 ? (type == 9 ? 0x7fc0u : 0x7e00u) : size == 4 ? 0x7fc00000u : 0,
                     size == 8 ? 0x7ff80000u : 0};
  uint32_t k[TMAX] = {0};
  for (uint64_t n = 0; n < total / size; n++) {
    int in_bounds = 1;
    uint64_t src = gaddr;
    for (uint32_t d = 0; d < rank; d++) {
      uint64_t c = (uint64_t)org[d] + (uint64_t)k[d] * es[d];
      in_bounds &= c < dim[d];
      src += c * stride[d];
    }
    uint32_t at = dst + (uint32_t)(n * size);
    if (swz) { /* elements never straddle a 16-byte chunk; the chunk may move within its S bytes */
      at ^= ((at >> 7) & (swz / 16 - 1)) << 4;
      if (local_dst(x, "cp_dma_tensor", at, size, -1)) return -1;
    }
    for (uint32_t b = 0; b < size; b += 4) { /* 8-byte elements as two words */
      unsigned unit = size < 4 ? size : 4;
      uint32_t v = fill ? nan[b / 4] : 0;
      if (in_bounds) {
        if (src + b > UINT32_MAX)
          return tensor_bad(x, gaddr, "cp_dma_tensor: an element lies beyond the 32-bit address space (tensor at 0x%08x)",
                            gaddr);
        const uint8_t *h = route(x, (uint32_t)src + b, unit, ACC_R, 0, -1);
        if (!h) return -1;
        v = ld_n(h, unit, 0);
        trace_mem(x, (uint32_t)src + b, 0, unit, 0);
        dma_note(x, (uint32_t)src + b, unit, 0);
        x->st->loads++;
        x->st->load_bytes += unit;
      }
      uint8_t *h = route(x, at + b, unit, ACC_W, 0, -1);
      if (!h) return -1;
      st_n(h, unit, v);
      trace_mem(x, at + b, v, unit, 1);
      dma_note(x, 0, 0, unit);
      x->st->stores++;
      x->st->store_bytes += unit;
    }
    for (uint32_t d = 0; d < rank && ++k[d] == cnt[d]; d++) k[d] = 0; /* next box position */
  }
  return 0;
}
