/* The ISA 2025 memory path (docs/isa-extensions.md): one executor for every
 * load/store a 2025 prefix modifies (a register pair, or PREFIX_MEMORY's
 * address space and 32..128-bit width) and for the 2025 flat loads/stores
 * of custom-3, whose address space follows from the base address. Only
 * revision 2025 reaches it (exec_select_2025 at decode time), so the
 * baseline handlers stay as they are. */
#include <stdio.h>

#include "exec_vsew.h"

/* How an instruction forms its address. */
enum {
  SP_IDENT,   /* the address as computed (scalar RV loads/stores, 12D, ld/sd) */
  SP_FLAT,    /* 2025 custom-3: the space the base address falls in */
  SP_GLOBAL,  /* + csr_gds (0: global addresses are device addresses) */
  SP_PRIVATE, /* the interleaved private formula */
  SP_LOCAL,   /* + csr_lds */
};

typedef struct {
  uint8_t vec, store, size, sign;
  uint8_t space;  /* SP_* */
  uint8_t pair64; /* the base is always a pair (12D, ld/sd) */
} mdesc;

static int describe(isa_id id, mdesc *m) {
  static const struct {
    uint16_t id;
    mdesc m;
  } t[] = {
      {ISA_lb, {0, 0, 1, 1, SP_IDENT, 0}},       {ISA_lh, {0, 0, 2, 1, SP_IDENT, 0}},
      {ISA_lw, {0, 0, 4, 0, SP_IDENT, 0}},       {ISA_lbu, {0, 0, 1, 0, SP_IDENT, 0}},
      {ISA_lhu, {0, 0, 2, 0, SP_IDENT, 0}},      {ISA_sb, {0, 1, 1, 0, SP_IDENT, 0}},
      {ISA_sh, {0, 1, 2, 0, SP_IDENT, 0}},       {ISA_sw, {0, 1, 4, 0, SP_IDENT, 0}},
      {ISA_ld, {0, 0, 4, 0, SP_IDENT, 1}},       {ISA_sd, {0, 1, 4, 0, SP_IDENT, 1}},
      {ISA_vlb12_v, {1, 0, 1, 1, SP_FLAT, 0}},   {ISA_vlh12_v, {1, 0, 2, 1, SP_FLAT, 0}},
      {ISA_vlw12_v, {1, 0, 4, 0, SP_FLAT, 0}},   {ISA_vlbu12_v, {1, 0, 1, 0, SP_FLAT, 0}},
      {ISA_vlhu12_v, {1, 0, 2, 0, SP_FLAT, 0}},  {ISA_vsb12_v, {1, 1, 1, 0, SP_FLAT, 0}},
      {ISA_vsh12_v, {1, 1, 2, 0, SP_FLAT, 0}},   {ISA_vsw12_v, {1, 1, 4, 0, SP_FLAT, 0}},
      {ISA_vlb12d_v, {1, 0, 1, 1, SP_IDENT, 1}}, {ISA_vlh12d_v, {1, 0, 2, 1, SP_IDENT, 1}},
      {ISA_vlw12d_v, {1, 0, 4, 0, SP_IDENT, 1}}, {ISA_vlbu12d_v, {1, 0, 1, 0, SP_IDENT, 1}},
      {ISA_vlhu12d_v, {1, 0, 2, 0, SP_IDENT, 1}}, {ISA_vsb12d_v, {1, 1, 1, 0, SP_IDENT, 1}},
      {ISA_vsh12d_v, {1, 1, 2, 0, SP_IDENT, 1}}, {ISA_vsw12d_v, {1, 1, 4, 0, SP_IDENT, 1}},
      {ISA_vlb_global_v, {1, 0, 1, 1, SP_GLOBAL, 0}}, {ISA_vlh_global_v, {1, 0, 2, 1, SP_GLOBAL, 0}},
      {ISA_vlw_global_v, {1, 0, 4, 0, SP_GLOBAL, 0}}, {ISA_vlbu_global_v, {1, 0, 1, 0, SP_GLOBAL, 0}},
      {ISA_vlhu_global_v, {1, 0, 2, 0, SP_GLOBAL, 0}}, {ISA_vsb_global_v, {1, 1, 1, 0, SP_GLOBAL, 0}},
      {ISA_vsh_global_v, {1, 1, 2, 0, SP_GLOBAL, 0}}, {ISA_vsw_global_v, {1, 1, 4, 0, SP_GLOBAL, 0}},
      {ISA_vlb_local_v, {1, 0, 1, 1, SP_LOCAL, 0}}, {ISA_vlh_local_v, {1, 0, 2, 1, SP_LOCAL, 0}},
      {ISA_vlw_local_v, {1, 0, 4, 0, SP_LOCAL, 0}}, {ISA_vlbu_local_v, {1, 0, 1, 0, SP_LOCAL, 0}},
      {ISA_vlhu_local_v, {1, 0, 2, 0, SP_LOCAL, 0}}, {ISA_vsb_local_v, {1, 1, 1, 0, SP_LOCAL, 0}},
      {ISA_vsh_local_v, {1, 1, 2, 0, SP_LOCAL, 0}}, {ISA_vsw_local_v, {1, 1, 4, 0, SP_LOCAL, 0}},
      {ISA_vlb_private_v, {1, 0, 1, 1, SP_PRIVATE, 0}}, {ISA_vlh_private_v, {1, 0, 2, 1, SP_PRIVATE, 0}},
      {ISA_vlw_private_v, {1, 0, 4, 0, SP_PRIVATE, 0}}, {ISA_vlbu_private_v, {1, 0, 1, 0, SP_PRIVATE, 0}},
      {ISA_vlhu_private_v, {1, 0, 2, 0, SP_PRIVATE, 0}}, {ISA_vsb_private_v, {1, 1, 1, 0, SP_PRIVATE, 0}},
      {ISA_vsh_private_v, {1, 1, 2, 0, SP_PRIVATE, 0}}, {ISA_vsw_private_v, {1, 1, 4, 0, SP_PRIVATE, 0}},
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (t[i].id == id) {
      *m = t[i].m;
      return 1;
    }
  return 0;
}

/* The device address of logical address a (word k of the access) in space
 * sp for lane i; 0, or -1 after a fault. */
static int place(vt_exec *x, int sp, uint64_t a, int lane, uint32_t i, uint32_t *out) {
  const uint32_t *c = x->w->csr_custom;
  switch (sp) {
  case SP_PRIVATE: {
    /* seed 002: ((a)[31:2] << 2) * num_thread + a[1:0] + thread_idx << 2 +
     * csr_pds, with the baseline's word interleaving of all the group's
     * threads (docs/isa.md §7); only a[31:0] takes part */
    uint32_t l = (uint32_t)a;
    *out = c[CSR_PDS - 0x800] + (l & ~3u) * c[CSR_NUMW - 0x800] * c[CSR_NUMT - 0x800] +
           (c[CSR_TID - 0x800] + i) * 4 + (l & 3);
    return 0;
  }
  case SP_LOCAL: a += c[CSR_LDS - 0x800]; break;
  default: break; /* global: csr_gds is 0 */
  }
  return addr64(x, a, lane, out);
}

/* SP_FLAT: the space the base value falls in (seed 002 flat loads: local
 * window, private when bits 31:24 are 0, global otherwise) */
static int flat_space(const vt_exec *x, uint64_t base) {
  uint64_t off = base - x->d->cfg.lds_base;
  if (off < x->d->cfg.lds_window) return SP_IDENT; /* local: the address as it is */
  if ((base >> 24) == 0) return SP_PRIVATE;
  return SP_IDENT;
}

static int mem_fault(vt_exec *x, const char *what) {
  vt_fail(x->e, VT_ERR_ILLEGAL, "%s", what);
  return -1;
}

int exec_memext(vt_exec *x, const isa_inst *in) {
  mdesc m;
  if (!describe((isa_id)in->id, &m)) return vt_exec_table[in->id](x, in); /* prefix void */
  unsigned base = in->rs1, data = m.store ? in->rs2 : in->rd;
  int pair_req = (in->pfx & ISA_PFX_PAIR) != 0;
  if (m.pair64) NEED_PAIR(m.vec ? 'v' : 'x', base);
  /* a pair request makes an even register a pair; an odd one stays 32-bit
   * (seed 001 REGPAIR) */
  int base64 = m.pair64 || (pair_req && !(base & 1) && (m.vec || base != 0));
  unsigned words = 1;
  if (in->pfx & ISA_PFX_MEM) words = in->mwidth + 1u;
  else if (pair_req && !(data & 1) && m.size == 4 && (m.vec || data != 0)) words = 2;
  if (words > 1 && m.size != 4)
    return mem_fault(x, "a 64/96/128-bit access needs a word load or store (lw/sw, vlw*/vsw*)");
  if (data + words - 1 > 255) return mem_fault(x, "the data registers of a wide access run past register 255");
  int sp = (in->pfx & ISA_PFX_MEM) && in->mspace ? (in->mspace == 1   ? SP_GLOBAL
                                                    : in->mspace == 2 ? SP_PRIVATE
                                                                      : SP_LOCAL)
                                                 : m.space;
  vt_warp *w = x->w;
  uint32_t em = m.vec ? x->emask : 1u;
  uint32_t tmp[4][VT_MAX_LANES];
  FOR_LANES(em, i) {
    uint64_t b;
    if (m.vec) b = base64 ? get_vpair(x, base, i) : w->v[base][i];
    else b = base64 ? get_xpair(x, base) : w->x[base];
    int lsp = sp == SP_FLAT ? flat_space(x, b) : sp;
    int lane = m.vec ? (int)i : -1;
    uint64_t a = b + (uint64_t)(int64_t)in->imm;
    for (unsigned k = 0; k < words; k++) {
      uint32_t addr;
      if (place(x, lsp, a + 4 * k, lane, i, &addr)) return -1;
      uint8_t *h = route(x, addr, m.size, m.store ? ACC_W : ACC_R, lsp == SP_PRIVATE, lane);
      if (!h) return -1;
      if (m.store) {
        uint32_t v = m.vec ? w->v[data + k][i] : w->x[data + k];
        st_n(h, m.size, v);
        resv_store(x, h - (addr & 3));
        trace_mem(x, addr, m.size == 4 ? v : v & ((1u << (8 * m.size)) - 1), m.size, 1);
      } else {
        tmp[k][i] = ld_n(h, m.size, m.sign);
        trace_mem(x, addr, 0, m.size, 0);
      }
    }
  }
  unsigned n = (unsigned)__builtin_popcount(em) * words;
  if (m.store) {
    x->st->stores += n;
    x->st->store_bytes += (uint64_t)n * m.size;
    return 0;
  }
  x->st->loads += n;
  x->st->load_bytes += (uint64_t)n * m.size;
  for (unsigned k = 0; k < words; k++) {
    if (m.vec) {
      FOR_LANES(em, i) w->v[data + k][i] = tmp[k][i];
      trace_vreg(x, data + k);
    } else {
      set_x(x, data + k, tmp[k][0]);
    }
  }
  return 0;
}

vt_exec_fn exec_select_2025(const isa_inst *in) {
  mdesc m;
  int mem = describe((isa_id)in->id, &m);
  if (mem && ((in->pfx & (ISA_PFX_PAIR | ISA_PFX_MEM)) || m.space == SP_FLAT)) return exec_memext;
  if (!mem && (in->pfx & ISA_PFX_CPAIR) && pair_computable((isa_id)in->id)) return exec_paired;
  if (!mem && (in->pfx & ISA_PFX_MOD)) return exec_modified;
  if (vsew_aware((isa_id)in->id)) return exec_vsew; /* SEW 8/16/64 (exec_vsew.c) */
  return NULL; /* no prefix, or one that is void for this instruction */
}

/* The address-space families (seed 002): their own space, every prefix. */
#define SPACE_HANDLERS(sp)                                                                 \
  HANDLER(vlb_##sp##_v) { return exec_memext(x, in); }                                     \
  HANDLER(vlh_##sp##_v) { return exec_memext(x, in); }                                     \
  HANDLER(vlw_##sp##_v) { return exec_memext(x, in); }                                     \
  HANDLER(vlbu_##sp##_v) { return exec_memext(x, in); }                                    \
  HANDLER(vlhu_##sp##_v) { return exec_memext(x, in); }                                    \
  HANDLER(vsb_##sp##_v) { return exec_memext(x, in); }                                     \
  HANDLER(vsh_##sp##_v) { return exec_memext(x, in); }                                     \
  HANDLER(vsw_##sp##_v) { return exec_memext(x, in); }
SPACE_HANDLERS(global)
SPACE_HANDLERS(local)
SPACE_HANDLERS(private)
