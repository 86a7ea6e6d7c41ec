/* CSRs: the standard ones the kernels touch, the Ventus custom ones
 * (0x800..0x80c, plain read-write as in the ISS), the print handshake,
 * Zicsr and vsetvl*, and the fp rounding-mode / flag bookkeeping. */
#include <stdio.h>

#include "exec.h"
#include "fp32.h"

/* Writable mstatus bits (MIE, MPIE, MPP, VS, FS); SD is derived. */
#define MSTATUS_WMASK 0x00007faau

static uint32_t mstatus_fix(uint32_t v) {
  v &= MSTATUS_WMASK;
  if ((v & MSTATUS_FS) == MSTATUS_FS || (v & MSTATUS_VS) == MSTATUS_VS) v |= MSTATUS_SD;
  return v;
}

/* Performance-monitor CSRs: spike implements no events, so the counters,
 * their event selectors, mcounteren, mcountinhibit and mconfigptr read 0
 * and ignore writes. */
static int hpm_csr(unsigned csr) {
  return (csr >= 0xc03 && csr <= 0xc1f) || (csr >= 0xc83 && csr <= 0xc9f) ||
         (csr >= 0xb03 && csr <= 0xb1f) || (csr >= 0xb83 && csr <= 0xb9f) ||
         (csr >= 0x323 && csr <= 0x33f) || csr == 0x306 || csr == 0x320 || csr == 0xf15;
}

int csr_read(vt_exec *x, unsigned csr, uint32_t *val) {
  vt_warp *w = x->w;
  if (csr >= 0x800 && csr < 0x800 + VT_NUM_CUSTOM_CSRS) {
    *val = w->csr_custom[csr - 0x800];
    return 0;
  }
  switch (csr) {
  case CSR_FFLAGS: *val = w->fflags; return 0;
  case CSR_FRM: *val = w->frm; return 0;
  case CSR_FCSR: *val = w->frm << 5 | w->fflags; return 0;
  case CSR_VSTART: *val = w->vstart; return 0;
  /* vxsat, vxrm, vcsr: read 0 and ignore writes in the baseline (as
   * before); revision 2025 keeps them for its fixed-point instructions */
  case 0x009: *val = x->d->cfg.isa == 2025 ? w->vxsat : 0; return 0;
  case 0x00a: *val = x->d->cfg.isa == 2025 ? w->vxrm : 0; return 0;
  case 0x00f: *val = x->d->cfg.isa == 2025 ? w->vxrm << 1 | w->vxsat : 0; return 0;
  case CSR_MSTATUS: *val = w->mstatus; return 0;
  case CSR_MISA: *val = 0x40201121u; return 0; /* RV32 I M A F V */
  case 0x304: *val = w->mie; return 0;
  case CSR_MTVEC: *val = w->mtvec; return 0;
  case 0x340: *val = w->mscratch; return 0;
  case 0x341: *val = w->mepc; return 0;
  case 0x342: *val = w->mcause; return 0;
  case 0x343: *val = w->mtval; return 0;
  case 0x344: *val = w->mip; return 0;
  case CSR_MHARTID: *val = w->wid; return 0; /* the ISS: one hart per warp of the group */
  case 0xf11: case 0xf12: case 0xf13: *val = 0; return 0;
  case CSR_VL: *val = w->vl; return 0;
  case CSR_VTYPE: *val = w->vtype; return 0;
  case CSR_VLENB: *val = x->d->l.num_threads * 4; return 0;
  case 0xc00: case 0xc01: case 0xc02: case 0xb00: case 0xb02: *val = (uint32_t)w->instret; return 0;
  case 0xc80: case 0xc81: case 0xc82: case 0xb80: case 0xb82:
    *val = (uint32_t)(w->instret >> 32);
    return 0;
  default:
    if (hpm_csr(csr)) {
      *val = 0;
      return 0;
    }
    break;
  }
  char msg[64];
  snprintf(msg, sizeof msg, "access to unknown CSR 0x%03x", csr);
  vt_fail(x->e, VT_ERR_ILLEGAL, "%s", msg);
  return -1;
}

/* CSR_PRINT handshake: a warp writes the number n of bytes it left in the
 * print buffer; the host callback receives min(n, buffer size) bytes from
 * the buffer (address = metadata word +48 at CSR_KNL, or the launch's
 * print_addr; size = word +52, or n if 0) and the CSR reads 0 again. */
static void print_drain(vt_exec *x, uint32_t n) {
  vt_device *d = x->d;
  if (!d->print_fn) return;
  uint32_t knl = x->w->csr_custom[CSR_KNL - 0x800], meta[2] = {0, 0}, bad;
  uint8_t raw[8];
  if (knl && !mem_copy_out(&d->mem, knl + 48, raw, 8, &bad)) {
    meta[0] = ld_u32(raw);
    meta[1] = ld_u32(raw + 4);
  }
  uint32_t addr = meta[0] ? meta[0] : d->l.print_addr;
  uint32_t len = meta[1] && meta[1] < n ? meta[1] : n;
  if (!addr) return;
  char buf[4096];
  for (uint32_t done = 0; done < len;) {
    uint32_t k = len - done > sizeof buf ? (uint32_t)sizeof buf : len - done;
    if (mem_copy_out(&d->mem, addr + done, buf, k, &bad)) return;
    d->print_fn(d->print_user, buf, k);
    done += k;
  }
}

int csr_write(vt_exec *x, unsigned csr, uint32_t val) {
  vt_warp *w = x->w;
  if ((csr >> 10) == 3) {
    char msg[64];
    snprintf(msg, sizeof msg, "write to read-only CSR 0x%03x", csr);
    vt_fail(x->e, VT_ERR_ILLEGAL, "%s", msg);
    return -1;
  }
  if (csr >= 0x800 && csr < 0x800 + VT_NUM_CUSTOM_CSRS) {
    w->csr_custom[csr - 0x800] = val;
    trace_csr(x, csr, val);
    if (csr == CSR_PRINT && val) {
      print_drain(x, val);
      w->csr_custom[csr - 0x800] = 0;
    }
    return 0;
  }
  switch (csr) {
  case CSR_FFLAGS: w->fflags = val & 0x1f; break;
  case CSR_FRM: w->frm = val & 7; break;
  case CSR_FCSR:
    w->fflags = val & 0x1f;
    w->frm = (val >> 5) & 7;
    break;
  case CSR_VSTART: w->vstart = val; break;
  case 0x009: case 0x00a: case 0x00f:
    if (x->d->cfg.isa != 2025) break;
    if (csr == 0x009) w->vxsat = val & 1;
    else if (csr == 0x00a) w->vxrm = val & 3;
    else {
      w->vxsat = val & 1;
      w->vxrm = (val >> 1) & 3;
    }
    mark_vs_dirty(x);
    break;
  case CSR_MSTATUS: w->mstatus = mstatus_fix(val); break;
  case CSR_MISA: break;
  case 0x304: w->mie = val; break;
  case CSR_MTVEC: w->mtvec = val; break;
  case 0x340: w->mscratch = val; break;
  case 0x341: w->mepc = val; break;
  case 0x342: w->mcause = val; break;
  case 0x343: w->mtval = val; break;
  case 0x344: w->mip = val; break;
  case 0xb00: case 0xb02: case 0xb80: case 0xb82: break;
  default: {
    if (hpm_csr(csr)) break;
    char msg[64];
    snprintf(msg, sizeof msg, "access to unknown CSR 0x%03x", csr);
    vt_fail(x->e, VT_ERR_ILLEGAL, "%s", msg);
    return -1;
  }
  }
  uint32_t now = 0; /* csr was validated above; -O3 cannot see csr_read succeeds */
  csr_read(x, csr, &now);
  trace_csr(x, csr, now);
  if (csr == CSR_FFLAGS || csr == CSR_FRM || csr == CSR_FCSR) mark_fs_dirty(x);
  return 0;
}

/* ---- Zicsr ------------------------------------------------------------------ */
static int zicsr(vt_exec *x, const isa_inst *in, int op, uint32_t src, int do_write) {
  unsigned csr = (unsigned)in->imm & 0xfff;
  uint32_t old;
  if (csr_read(x, csr, &old)) return -1;
  if (do_write) {
    uint32_t nv = op == 0 ? src : op == 1 ? old | src : old & ~src;
    if (csr_write(x, csr, nv)) return -1;
  }
  set_x(x, in->rd, old);
  return 0;
}

int exec_csrr_custom(vt_exec *x, const isa_inst *in) {
  set_x(x, in->rd, x->w->csr_custom[((unsigned)in->imm & 0xfff) - 0x800]);
  return 0;
}

HANDLER(csrrw) { return zicsr(x, in, 0, XR(in->rs1), 1); }
HANDLER(csrrs) { return zicsr(x, in, 1, XR(in->rs1), in->rs1 != 0); }
HANDLER(csrrc) { return zicsr(x, in, 2, XR(in->rs1), in->rs1 != 0); }
HANDLER(csrrwi) { return zicsr(x, in, 0, in->rs1 & 31u, 1); }
HANDLER(csrrsi) { return zicsr(x, in, 1, in->rs1 & 31u, (in->rs1 & 31) != 0); }
HANDLER(csrrci) { return zicsr(x, in, 2, in->rs1 & 31u, (in->rs1 & 31) != 0); }

/* ---- vsetvl*: one element is one thread at every SEW, so VLMAX =
 * num_threads (the ISS's VLEN is 32 * num_threads). SEW is 32 in the
 * baseline, 8, 16, 32 or 64 in revision 2025 (an element narrower than 32
 * bits in the low bits of its lane's register, a 64-bit one in a pair:
 * docs/isa-extensions.md). Any other vtype (another SEW, LMUL != 1,
 * reserved bits, vill) is unsupported: as RVV
 * 1.0 §6.1 prescribes, vtype becomes vill alone and vl 0, and warp_step
 * rejects vector instructions until a supported vsetvl* (docs/isa.md §7). */
static int vtype_supported(uint32_t vtype, int rev2025) {
  unsigned sew = (vtype >> 3) & 7;
  /* revision 2025: bit 8 (altfmt, as RVV's Zvfbfa) makes SEW 16's float format bfloat16 */
  int altfmt_ok = !(vtype & 0x100u) || (rev2025 && sew == 1);
  return (vtype & ~0x1ffu) == 0 && altfmt_ok && (vtype & 7) == 0 && (sew == 2 || (rev2025 && sew <= 3));
}

static int setvl(vt_exec *x, const isa_inst *in, uint32_t avl, uint32_t vtype) {
  vt_warp *w = x->w;
  uint32_t vlmax = x->d->l.num_threads;
  if (vtype_supported(vtype, x->d->cfg.isa == 2025)) {
    w->vl = avl < vlmax ? avl : vlmax;
    w->vtype = vtype;
  } else {
    w->vl = 0;
    w->vtype = VTYPE_VILL;
  }
  w->vstart = 0;
  set_x(x, in->rd, w->vl);
  trace_csr(x, CSR_VSTART, 0);
  trace_csr(x, CSR_VL, w->vl);
  trace_csr(x, CSR_VTYPE, w->vtype);
  mark_vs_dirty(x);
  return 0;
}

static uint32_t avl_of(vt_exec *x, const isa_inst *in) {
  if (in->rs1) return XR(in->rs1);
  return in->rd ? 0xffffffffu : x->w->vl; /* standard RVV: x0/x0 keeps vl */
}

HANDLER(vsetvli) { return setvl(x, in, avl_of(x, in), (uint32_t)in->imm); }
HANDLER(vsetivli) { return setvl(x, in, in->rs1 & 31u, (uint32_t)in->imm); }
HANDLER(vsetvl) { return setvl(x, in, avl_of(x, in), XR(in->rs2)); }

/* ---- fp bookkeeping --------------------------------------------------------- */
int fp_rm(vt_exec *x, unsigned rm, unsigned *out) {
  if (rm == 7) rm = x->w->frm;
  if (rm > FP_RMM) {
    vt_fail(x->e, VT_ERR_ILLEGAL, "invalid rounding mode %u", rm);
    return -1;
  }
  *out = rm;
  return 0;
}

void fp_commit_flags(vt_exec *x) {
  if (!x->fflags) return;
  vt_warp *w = x->w;
  w->fflags |= x->fflags;
  trace_csr(x, CSR_FFLAGS, w->fflags);
  mark_fs_dirty(x);
}
