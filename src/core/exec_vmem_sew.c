/* RVV loads and stores of 8-, 16- and 64-bit elements (revision 2025,
 * seed 002 "RV32V-LoadsAndStores": each thread's element goes to its own
 * lane's register, not packed): vle/vse/vlse/vsse of width 8, 16, 64 and
 * the indexed forms, whose data are SEW wide (vluxei32 & co. at SEW != 32
 * come here through exec_vsew). An 8- or 16-bit element loads into the low
 * bits of its lane's register (the bits above cleared), a 64-bit one into
 * the pair {v[n+1], v[n]}; an index is unsigned, a 64-bit index keeps its
 * low 32 bits (the device address space). Every element must be aligned to
 * its size. Loads read every lane before writing vd, so vd may also be the
 * index register. */
#include <stdio.h>

#include "exec_vsew.h"

enum { M_UNIT, M_STRIDED, M_INDEXED };

/* the element's device address: x[rs1] + i * size, + i * x[rs2], + index */
static uint32_t maddr(const vt_exec *x, const isa_inst *in, int kind, unsigned bytes, unsigned ieew, uint32_t i) {
  uint32_t base = x->w->x[in->rs1];
  if (kind == M_UNIT) return base + i * bytes;
  if (kind == M_STRIDED) return base + i * x->w->x[in->rs2];
  return base + (uint32_t)vel_get(x, in->rs2, i, ieew);
}

/* a 64-bit element must be 8-byte aligned (it moves as two words) */
static int align8(vt_exec *x, uint32_t addr, unsigned acc, int lane) {
  if (!(addr & 7)) return 0;
  char msg[80];
  snprintf(msg, sizeof msg, "misaligned 8-byte %s at 0x%08x", acc & ACC_W ? "store" : "load", addr);
  return exec_fault(x, VT_ERR_MISALIGNED, lane, addr, msg);
}

static int vmem(vt_exec *x, const isa_inst *in, int kind, unsigned eew, unsigned ieew, int store) {
  NEED_SEW_REG(in->rd, eew);
  if (kind == M_INDEXED) NEED_SEW_REG(in->rs2, ieew);
  unsigned bytes = eew / 8;
  uint32_t em = x->emask, addr[VT_MAX_LANES];
  uint64_t val[VT_MAX_LANES];
  FOR_LANES(em, i) addr[i] = maddr(x, in, kind, bytes, ieew, i);
  FOR_LANES(em, i) {
    if (bytes == 8 && align8(x, addr[i], store ? ACC_W : ACC_R, (int)i)) return -1;
    if (store) {
      uint64_t v = vel_get(x, in->rd, i, eew);
      for (unsigned k = 0; k < bytes; k += 4) {
        unsigned n = bytes < 4 ? bytes : 4;
        uint8_t *h = route(x, addr[i] + k, n, ACC_W, 0, (int)i);
        if (!h) return -1;
        uint32_t part = (uint32_t)(v >> (8 * k));
        st_n(h, n, part);
        resv_store(x, h - ((addr[i] + k) & 3));
        trace_mem(x, addr[i] + k, n == 4 ? part : part & ((1u << (8 * n)) - 1), n, 1);
      }
      continue;
    }
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k += 4) {
      unsigned n = bytes < 4 ? bytes : 4;
      const uint8_t *h = route(x, addr[i] + k, n, ACC_R, 0, (int)i);
      if (!h) return -1;
      v |= (uint64_t)ld_n(h, n, 0) << (8 * k);
      trace_mem(x, addr[i] + k, 0, n, 0);
    }
    val[i] = v;
  }
  unsigned n = (unsigned)popcount32(em) * (bytes == 8 ? 2 : 1);
  if (store) {
    x->st->stores += n;
    x->st->store_bytes += (uint64_t)popcount32(em) * bytes;
    return 0;
  }
  x->st->loads += n;
  x->st->load_bytes += (uint64_t)popcount32(em) * bytes;
  FOR_LANES(em, i) vel_set(x, in->rd, i, eew, val[i]);
  trace_vreg(x, in->rd);
  return 0;
}

int vsew_indexed(vt_exec *x, const isa_inst *in, unsigned ieew, int store) {
  return vmem(x, in, M_INDEXED, vsew_of(x->w), ieew, store);
}

#define VMEMW(w)                                                                           \
  HANDLER(vle##w##_v) { return vmem(x, in, M_UNIT, w, 0, 0); }                             \
  HANDLER(vse##w##_v) { return vmem(x, in, M_UNIT, w, 0, 1); }                             \
  HANDLER(vlse##w##_v) { return vmem(x, in, M_STRIDED, w, 0, 0); }                         \
  HANDLER(vsse##w##_v) { return vmem(x, in, M_STRIDED, w, 0, 1); }                         \
  HANDLER(vluxei##w##_v) { return vsew_indexed(x, in, w, 0); }                             \
  HANDLER(vloxei##w##_v) { return vsew_indexed(x, in, w, 0); }                             \
  HANDLER(vsuxei##w##_v) { return vsew_indexed(x, in, w, 1); }                             \
  HANDLER(vsoxei##w##_v) { return vsew_indexed(x, in, w, 1); }
VMEMW(8)
VMEMW(16)
VMEMW(64)
#undef VMEMW
