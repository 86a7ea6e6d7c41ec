/* One warp: start-up state, the predecoded-instruction cache, and the
 * fetch/execute/retire step with its trace record. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

int warp_alloc(vt_device *d, vt_warp *w, uint32_t slot, vt_error *e) {
  if (w->v) return 0;
  w->slot = slot;
  /* A whole number of registers (128 bytes) past a page boundary: the one
   * memcpy of a unit-stride access between a register and a row-aligned
   * span then never has its destination 1-127 bytes above its source
   * modulo 4 KiB, where the host CPU stalls every load of the copy on the
   * stores before it (4 KiB aliasing); and the register files of the slots
   * start slot mod 32 registers past the boundary, so that one register of every
   * warp does not crowd the same host cache sets. Placed by the heap, the
   * files of one SM made memory-bound kernels 30 % slower there than on
   * another, and a kernel's speed varied with the heap's layout. */
  enum { SKEW = 32 }; /* files of slots 0..31 start 0..31 registers on */
  uint8_t *file = vt_calloc_pages((VT_NUM_VREGS + SKEW) * sizeof *w->v, &w->v_mem);
  if (file) w->v = (void *)(file + (size_t)(slot % SKEW) * sizeof *w->v);
  w->stack = calloc(d->cfg.simt_stack_depth, sizeof *w->stack);
  if (w->v && w->stack) return 0;
  free(w->v_mem);
  free(w->stack);
  w->v = NULL;
  w->v_mem = NULL;
  w->stack = NULL;
  return vt_fail(e, VT_ERR_NOMEM, "out of memory for warp slot %u", slot);
}

/* warp_reset clears [0, x) and [active, end) whole, x and f by register */
_Static_assert(offsetof(vt_warp, x) < offsetof(vt_warp, f) &&
                   offsetof(vt_warp, f) + sizeof(((vt_warp *)0)->f) == offsetof(vt_warp, active),
               "vt_warp: the register files must lie between vl and active");

void warp_reset(vt_device *d, vt_worker *k, vt_warp *w, vt_wg *wg, uint32_t wid) {
  const vt_launch *l = &d->l;
  if (w->resv && !w->resv_local) d->nresv--; /* (its group's count starts again at its dispatch) */
  uint32_t (*v)[VT_MAX_LANES] = w->v;
  vt_simt_entry *stack = w->stack;
  uint32_t slot = w->slot;
  /* everything but the register files, then of these only the registers
   * some decoded instruction may have written (vwritten, xwritten): the
   * rest still hold the zeros of their allocation. Clearing the whole
   * 3 KiB of x and f and 32 KiB of v per warp pushed short warps' own
   * state out of the L1 cache. */
  memset(w, 0, offsetof(vt_warp, x));
  memset(&w->active, 0, sizeof *w - offsetof(vt_warp, active));
  for (unsigned i = 0; i < VT_NUM_XREGS / 64; i++)
    for (uint64_t m = k->xwritten[i]; m; m &= m - 1) {
      unsigned r = 64 * i + (unsigned)__builtin_ctzll(m);
      w->x[r] = 0;
      w->f[r] = 0;
    }
  static const uint32_t zero_reg[VT_MAX_LANES]; /* copied, not memset: gcc's memset of
                                                 * 128 bytes is a slow-starting rep stos */
  for (unsigned i = 0; i < VT_NUM_VREGS / 64; i++)
    for (uint64_t m = k->vwritten[i]; m; m &= m - 1)
      memcpy(v[64 * i + (unsigned)__builtin_ctzll(m)], zero_reg, sizeof *v);
  w->v = v;
  w->stack = stack;
  w->slot = slot;
  w->active = 1;
  w->wg = wg;
  w->wid = wid;
  w->pc = l->start_pc;
  uint32_t first = wid * l->num_threads, live = l->num_threads;
  if (l->wg_threads && l->wg_threads - first < live) live = l->wg_threads - first;
  w->mask = lanes_mask(live);
  /* vl/vtype as crt0's vsetvli leaves them, so hand-written programs can
   * use vector ops directly; crt0 rewrites both anyway. */
  w->vl = l->num_threads;
  w->vtype = 0xd0;
  w->mstatus = MSTATUS_RESET;
  /* registers as the ISS boot stub at 0x1000 leaves them */
  w->x[5] = l->start_pc;
  w->x[10] = wid;
  w->x[11] = 0x1020;
  uint32_t *c = w->csr_custom;
  c[CSR_TID - 0x800] = wid * l->num_threads;
  c[CSR_NUMW - 0x800] = l->num_warps;
  c[CSR_NUMT - 0x800] = l->num_threads;
  c[CSR_KNL - 0x800] = l->knl;
  c[CSR_WGID - 0x800] = wg->id;
  c[CSR_WID - 0x800] = wid;
  c[CSR_LDS - 0x800] = d->cfg.lds_base; /* same for every WG, as the ISS */
  /* the group's private slice (vt_pds_layout, docs/isa.md §7.24); group 0
   * gets the launch's base, the value the ISS gives every group */
  uint32_t slice = d->pds_layout == VT_PDS_PER_GROUP  ? wg->id
                   : d->pds_layout == VT_PDS_PER_SLOT ? wg->sm * d->cfg.wg_slots_per_sm + wg->slot
                                                      : 0;
  c[CSR_PDS - 0x800] = l->pds_base + slice * d->pds_stride;
  uint32_t gx = l->grid[0] ? l->grid[0] : 1, gy = l->grid[1] ? l->grid[1] : 1;
  c[CSR_GIDX - 0x800] = wg->id % gx;
  c[CSR_GIDY - 0x800] = (wg->id / gx) % gy;
  c[CSR_GIDZ - 0x800] = wg->id / gx / gy;
  c[CSR_PRINT - 0x800] = l->print_addr;
  c[CSR_RPC - 0x800] = 0;
}

/* ---- predecoded instruction cache ------------------------------------------ */
/* Entries are valid for one generation; clearing is a counter bump, so a
 * host write (new code) costs nothing. */
void icache_clear(vt_device *d) {
  /* atomic: the workers of a parallel launch read it at every decode */
  if (__atomic_add_fetch(&d->icache_gen, 1, __ATOMIC_RELAXED) == 0 && !d->parallel) {
    /* wrapped: really clear (every worker's cache; not while the workers of
     * a parallel launch run: a store into code 2^32 clears after an
     * instruction's decode would have to meet that stale entry) */
    memset(d->icache, 0, ((size_t)1 << VT_ICACHE_BITS) * sizeof *d->icache);
    par_icache_wipe(d);
    d->icache_gen = 1;
  }
}

static inline uint32_t icache_index(uint32_t pc, uint32_t prefix) {
  return ((pc >> 2) ^ ((prefix * 0x9e3779b1u) >> 17)) & ((1u << VT_ICACHE_BITS) - 1);
}

/* The memory an instruction may run ahead on (VT_AHEAD_*): the vector
 * loads and stores whose handlers (vload, vstore in exec_mem.c) decline,
 * while x->ahead_mem is set, an access outside what it allows, and the
 * scalar loads (sload). Private-memory ones are left out (their region is
 * writable global memory, so they would always decline). */
static uint8_t mem_ahead_of(isa_id id) {
  switch (id) {
  case ISA_vlb12_v: case ISA_vlh12_v: case ISA_vlw12_v: case ISA_vlbu12_v: case ISA_vlhu12_v:
  case ISA_vle32_v: case ISA_vlse32_v: case ISA_vluxei32_v: case ISA_vloxei32_v:
    return VT_AHEAD_LOCAL | VT_AHEAD_RO;
  case ISA_vsb12_v: case ISA_vsh12_v: case ISA_vsw12_v:
  case ISA_vse32_v: case ISA_vsse32_v: case ISA_vsuxei32_v: case ISA_vsoxei32_v: return VT_AHEAD_LOCAL;
  case ISA_lb: case ISA_lh: case ISA_lw: case ISA_lbu: case ISA_lhu: return VT_AHEAD_RO;
  default: return 0;
  }
}

/* vsetvl* and Zicsr on CSRs that are the warp's own state (mstatus, fcsr,
 * vl, vtype, the Ventus CSRs, ...; csr.c): private to the warp as well, an
 * unknown CSR being a fault like any other. Not private: CSR_PRINT, whose
 * write hands the print buffer to the host, and the counters, which read
 * instret (added once per run-ahead). */
static int csr_private(isa_id id, const isa_inst *in) {
  if (id == ISA_vsetvli || id == ISA_vsetivli || id == ISA_vsetvl) return 1;
  if (id != ISA_csrrw && id != ISA_csrrs && id != ISA_csrrc && id != ISA_csrrwi && id != ISA_csrrsi &&
      id != ISA_csrrci)
    return 0;
  unsigned csr = (unsigned)in->imm & 0xfff;
  int counter = (csr >= 0xc00 && csr <= 0xc02) || (csr >= 0xc80 && csr <= 0xc82) || csr == 0xb00 ||
                csr == 0xb02 || csr == 0xb80 || csr == 0xb82;
  return csr != CSR_PRINT && !counter;
}

/* Decodes the instruction at the warp's pc into the cache entry; *word gets
 * the fetched word (0 if the fetch itself failed) for the error context. */
static int icache_fill(vt_device *d, vt_worker *k, vt_warp *w, vt_icache_entry *ic, uint32_t *word_out,
                       vt_error *e) {
  uint32_t pc = w->pc;
  *word_out = 0;
  if (pc & 3) {
    vt_fail(e, VT_ERR_MISALIGNED, "instruction fetch at misaligned pc 0x%08x", pc);
    vt_err_addr(e, pc);
    return -1;
  }
  int denied;
  const uint8_t *h = mem_host_t(&d->mem, k->tlb, pc, 4, ACC_X, &denied);
  if (!h) {
    vt_fail(e, VT_ERR_UNMAPPED, "instruction fetch at 0x%08x: %s", pc,
            denied ? "memory is not executable" : "address is not mapped");
    vt_err_addr(e, pc);
    return -1;
  }
  uint32_t word = ld_u32(h);
  *word_out = word;
  /* code a store may rewrite: marked, and its page write-protected here
   * (the other workers' caches when they see code_gen move) */
  vt_tlb_entry *t = &k->tlb[(pc >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)];
  if (t->perm & (VT_PERM_W | VT_PERM_CODE)) {
    if (code_mark(&d->mem, pc) < 0) return vt_fail(e, VT_ERR_NOMEM, "out of memory for the code map");
    if (t->perm & VT_PERM_W) t->perm = (t->perm & ~VT_PERM_W) | VT_PERM_CODE;
  }
  isa_inst in;
  isa_rev rev = d->cfg.isa == 2025 ? ISA_REV_2025 : ISA_REV_BASE;
  isa_id id;
  if (unlikely(isa_insn_len(word, rev) == 8)) { /* the second word of a 64-bit instruction */
    const uint8_t *h2 = mem_host_t(&d->mem, k->tlb, pc + 4, 4, ACC_X, &denied);
    if (!h2) {
      vt_fail(e, VT_ERR_UNMAPPED, "instruction fetch at 0x%08x: the second word of a 64-bit instruction: %s",
              pc + 4, denied ? "memory is not executable" : "address is not mapped");
      vt_err_addr(e, pc + 4);
      return -1;
    }
    vt_tlb_entry *t2 = &k->tlb[((pc + 4) >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)];
    if (t2->perm & (VT_PERM_W | VT_PERM_CODE)) {
      if (code_mark(&d->mem, pc + 4) < 0) return vt_fail(e, VT_ERR_NOMEM, "out of memory for the code map");
      if (t2->perm & VT_PERM_W) t2->perm = (t2->perm & ~VT_PERM_W) | VT_PERM_CODE;
    }
    id = isa_decode64_rev(word, ld_u32(h2), rev, &in);
    if (id == ISA_INVALID) {
      vt_fail(e, VT_ERR_ILLEGAL, "illegal instruction 0x%08x%08x (64-bit)", in.hi, word);
      return -1;
    }
  } else {
    id = isa_decode_rev(word, w->prefix, rev, &in);
  }
  if (id == ISA_INVALID) {
    if (rev == ISA_REV_BASE && isa_lookup_rev(word, ISA_REV_2025) != ISA_INVALID)
      vt_fail(e, VT_ERR_ILLEGAL, "illegal instruction 0x%08x (%s exists only in ISA revision 2025: isa = 2025)",
              word, isa_table[isa_lookup_rev(word, ISA_REV_2025)].mnemonic);
    else
      vt_fail(e, VT_ERR_ILLEGAL, "illegal instruction 0x%08x", word);
    return -1;
  }
  /* a parallel launch scanned the kernel's region only, or only the code
   * extents the launch names (par_launch.c) */
  if (unlikely(d->parallel) &&
      (((t->perm & (VT_PERM_W | VT_PERM_CODE)) && pc - d->code_lo >= d->code_size) ||
       (d->code_ranged && !par_in_code(d, pc))) &&
      par_decode_check(d, &in, id, e))
    return -1;
  /* an MMA writes a whole D register group (up to 32 registers with
   * 8-thread warps): every register from rd up may hold its results. In
   * the base revision only IF_VEC instructions write vector registers (the
   * others' rd is an x or f register); revision 2025 executors may write
   * from any instruction's rd. */
  unsigned span = isa_table[id].unit == UNIT_TENSOR                     ? VT_NUM_VREGS
                  : rev == ISA_REV_2025 || (isa_table[id].flags & IF_VEC) ? VT_VWRITE_SPAN
                                                                          : 0;
  for (unsigned r = in.rd; r < in.rd + span; r++)
    k->vwritten[(r % VT_NUM_VREGS) / 64] |= 1ull << (r % 64);
  for (unsigned r = in.rd; r < in.rd + VT_XWRITE_SPAN; r++)
    k->xwritten[(r % VT_NUM_XREGS) / 64] |= 1ull << (r % 64);
  ic->pc = pc;
  ic->prefix = w->prefix;
  ic->gen = __atomic_load_n(&d->icache_gen, __ATOMIC_RELAXED);
  ic->in = in;
  vt_exec_fn fn = rev == ISA_REV_2025 ? exec_select_2025(&in) : NULL;
  unsigned csr = (unsigned)in.imm & 0xfff;
  if (!fn && id == ISA_csrrs && in.rs1 == 0 && csr >= 0x800 && csr < 0x800 + VT_NUM_CUSTOM_CSRS)
    ic->fn = exec_csrr_custom; /* the commonest CSR access: a Ventus CSR read */
  else
    ic->fn = fn ? fn : vt_exec_table[id];
  ic->flags = isa_table[id].flags;
  ic->unit = (uint8_t)isa_table[id].unit;
  /* integer, fp, branch and SIMT units of the base ISA: registers, pc,
   * mask, SIMT stack, fcsr and mstatus of the warp only (no memory,
   * barrier, prefix, or host-visible CSR) */
  unsigned u = isa_table[id].unit;
  int regs = u == UNIT_ALU || u == UNIT_VALU || u == UNIT_MUL || u == UNIT_SIMT || u == UNIT_SFU ||
             u == UNIT_VFPU;
  ic->private_only = rev == ISA_REV_BASE && !fn &&
                     ((regs && !(ic->flags & (IF_LOAD | IF_STORE | IF_AMO | IF_CSR | IF_PREFIX | IF_ENDPRG |
                                              IF_BARRIER | IF_LONG))) ||
                      csr_private(id, &in));
  ic->mem_ahead = rev == ISA_REV_BASE && !fn ? mem_ahead_of(id) : 0;
  ic->lean = ic->private_only && ic->fn == vt_exec_table[id] ? exec_lean_of(&in) : NULL;
  /* the runs that may have counted the entry this one replaced */
  uint32_t at = (uint32_t)(ic - k->icache);
  for (uint32_t j = 0; j < VT_RUN_MAX; j++) k->icache[(at - j) & ((1u << VT_ICACHE_BITS) - 1)].run = 0;
  return 0;
}

/* ---- trace helpers ------------------------------------------------------------ */
void trace_csr(vt_exec *x, unsigned csr, uint32_t val) {
  vt_commit *c = x->c;
  if (!c) return;
  for (int i = 0; i < c->ncsr; i++)
    if (c->csr[i].csr == csr) {
      c->csr[i].val = val; /* the ISS log keeps one entry per CSR: the last value */
      return;
    }
  if (c->ncsr < 6) {
    c->csr[c->ncsr].csr = (uint16_t)csr;
    c->csr[c->ncsr].val = val;
    c->ncsr++;
  }
}

void trace_vreg_record(vt_exec *x, unsigned reg) {
  vt_commit *c = x->c;
  c->has_v = 1;
  c->vreg = (uint16_t)reg;
  c->vmask = x->emask;
  c->vl = x->w->vl;
  memcpy(c->v, x->w->v[reg], sizeof c->v);
}

void mark_fs_dirty(vt_exec *x) {
  vt_warp *w = x->w;
  if ((w->mstatus & MSTATUS_FS) == 0 || (w->mstatus & MSTATUS_FS) == MSTATUS_FS) return;
  w->mstatus |= MSTATUS_FS | MSTATUS_SD;
  trace_csr(x, CSR_MSTATUS, w->mstatus);
}

void mark_vs_dirty(vt_exec *x) {
  vt_warp *w = x->w;
  if ((w->mstatus & MSTATUS_VS) == MSTATUS_VS) return;
  w->mstatus |= MSTATUS_VS | MSTATUS_SD;
  trace_csr(x, CSR_MSTATUS, w->mstatus);
}

int exec_fault(vt_exec *x, vt_err_kind k, int lane, uint32_t addr, const char *what) {
  vt_fail(x->e, k, "%s", what);
  x->err_lane = lane;
  x->e->addr = addr;
  x->e->has_addr = 1;
  return -1;
}

/* ---- the step ------------------------------------------------------------------- */
static inline vt_icache_entry *decode_next(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e) {
  uint32_t pc = w->pc;
  vt_icache_entry *ic = &k->icache[icache_index(pc, w->prefix)];
  if (unlikely(ic->pc != pc || ic->prefix != w->prefix || ic->gen != __atomic_load_n(&d->icache_gen, __ATOMIC_RELAXED))) {
    uint32_t insn;
    if (icache_fill(d, k, w, ic, &insn, e)) {
      vt_wg *wg = w->wg;
      uint32_t addr = e->addr;
      int has_addr = e->has_addr;
      vt_err_ctx(e, (int)d->l.kernel_id, (int)wg->id, (int)w->wid, -1, pc, insn);
      if (has_addr) vt_err_addr(e, addr);
      return NULL;
    }
  }
  return ic;
}

const vt_icache_entry *warp_decode(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e) {
  return decode_next(d, k, w, e);
}

/* vector instructions are illegal while vtype.vill is set */
static int vill_fault(vt_device *d, vt_warp *w, vt_error *e, const vt_icache_entry *ic) {
  vt_fail(e, VT_ERR_ILLEGAL,
          "vector instruction while vtype.vill is set (the last vsetvl* asked for an "
          "unsupported SEW/LMUL; only %s is implemented)",
          d->cfg.isa == 2025 ? "e8, e16, e32, e64 with m1" : "e32, m1");
  vt_err_ctx(e, (int)d->l.kernel_id, (int)w->wg->id, (int)w->wid, -1, w->pc, ic->in.word);
  return -1;
}

/* the context of a handler's failure (the handler filled e) */
static int handler_fault(vt_device *d, vt_warp *w, vt_error *e, const vt_exec *x) {
  uint32_t addr = e->addr;
  int has_addr = e->has_addr;
  vt_err_ctx(e, (int)d->l.kernel_id, (int)w->wg->id, (int)w->wid, x->err_lane, x->pc, x->word);
  if (has_addr) vt_err_addr(e, addr);
  return -1;
}

/* The lanes an instruction writes: standard RVV ops honour v0 (packed bit
 * i, as ISS and RTL agree), Ventus custom ops only the SIMT mask (mask; a
 * vector op's vmask is the mask and vl's lanes). */
static inline uint32_t lanes_of(const vt_warp *w, const vt_icache_entry *ic, uint32_t flags, uint32_t mask,
                                uint32_t vmask) {
  if (!(flags & IF_VEC)) return mask;
  return !ic->in.vm && !(flags & IF_CUSTOMV) ? vmask & w->v[0][0] : vmask;
}
static inline uint32_t exec_mask(const vt_warp *w, const vt_icache_entry *ic, uint32_t flags) {
  return lanes_of(w, ic, flags, w->mask, w->mask & lanes_mask(w->vl));
}

/* The state every instruction of one warp shares. */
static inline void exec_init(vt_exec *x, vt_device *d, vt_worker *k, vt_warp *w, vt_error *e) {
  x->d = d;
  x->k = k;
  x->st = k->st;
  x->w = w;
  x->wg = w->wg;
  x->e = e;
  x->fflags = 0;
  x->err_lane = -1;
  x->spin = 0;
  x->waits = 0;
  x->stop = 0;
  x->ahead_mem = 0;
  x->c = NULL;
  x->m = NULL;
}

/* Executes the predecoded ic at w's pc with x set up by exec_init
 * (warp_step, warp_turn); with record = 0 the commit-record code drops
 * out. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int step_at(vt_exec *x, const vt_icache_entry *ic, int record) {
  vt_device *d = x->d;
  vt_warp *w = x->w;
  uint32_t pc = w->pc;
  x->pc = pc;
  x->npc = pc + 4;
  x->word = ic->in.word;
  uint32_t flags = ic->flags;
  uint32_t mask = w->mask;
  if (unlikely((flags & (IF_VEC | IF_VBRANCH)) && (w->vtype & VTYPE_VILL))) return vill_fault(d, w, x->e, ic);
  x->emask = exec_mask(w, ic, flags);
  if (record && !d->trace_fn) { /* a stepping caller (the timing model): the lean record */
    vt_commit *c = x->k->commit ? x->k->commit : &d->commit;
    c->nmem = 0;
    c->unit_n = 0;
    c->mask = mask;
    x->m = c;
  } else if (record) {
    vt_commit *c = x->k->commit ? x->k->commit : &d->commit;
    memset(c, 0, offsetof(vt_commit, v));
    c->ncsr = 0; /* fields after v[] are not covered by the memset */
    c->vtag = 0;
    c->nmem = 0;
    c->has_simt = 0;
    c->simt_stack = NULL;
    c->wg = w->wg->id;
    c->warp = w->wid;
    c->sm = w->wg->sm;
    c->pc = pc;
    c->insn = x->word;
    if (unlikely(flags & IF_LONG)) {
      c->insn_hi = ic->in.hi;
      c->insn_len = 8;
    }
    c->mask = mask;
    c->vl = w->vl;
    c->vtype = w->vtype;
    x->c = x->m = c;
    if (flags & (IF_VEC | IF_VBRANCH)) {
      c->vtag = !((flags & IF_PRIVATE) && (flags & IF_STORE));
      trace_csr(x, CSR_VSTART, 0);
    }
  }
  if (unlikely(ic->fn(x, &ic->in))) return handler_fault(d, w, x->e, x);
  if (flags & (IF_VEC | IF_VBRANCH)) {
    w->vstart = 0;
    if (unlikely((w->mstatus & MSTATUS_VS) != MSTATUS_VS)) mark_vs_dirty(x);
  }
  w->prefix = (flags & IF_PREFIX) ? x->word : 0;
  w->pc = x->npc;
  w->instret++;
  vt_stats *s = x->st;
  if (!x->spin && !x->waits) { /* a barrier counts once per warp, when it completes */
    s->warp_insns++;
    s->thread_insns += popcount32(mask);
    s->unit_insns[ic->unit]++;
  }
  if (record && x->c) {
    x->c->spin = x->spin;
    if (d->trace_fn) d->trace_fn(d->trace_user, x->c);
  }
  return x->stop ? 1 : x->spin ? 2 : 0;
}

int warp_step(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e) {
  vt_icache_entry *ic = decode_next(d, k, w, e);
  if (unlikely(!ic)) return -1;
  vt_exec x;
  exec_init(&x, d, k, w, e);
  return d->record ? step_at(&x, ic, 1) : step_at(&x, ic, 0);
}

/* The length of the straight run from the valid private entry at index
 * at (pc, generation gen), stored in it: entries at consecutive pcs of the
 * same generation, private, up to and including the first that may branch
 * or change the warp's mask, vl, vtype or CSRs (a branch, jump, SIMT or
 * CSR-unit instruction but setrpc and CSR reads) or is not one of the
 * register-only units. */
static uint32_t run_build(vt_worker *k, uint32_t at, uint32_t pc, uint32_t gen) {
  uint32_t n = 0, after = VT_RUN_SAME; /* cut short: the next one is not (yet) part of it */
  while (n < VT_RUN_MAX && at + n < (1u << VT_ICACHE_BITS)) { /* not across the table's end */
    const vt_icache_entry *e = &k->icache[at + n];
    if (e->pc != pc + 4 * n || e->prefix != 0 || e->gen != gen || !e->private_only) break;
    n++;
    unsigned u = e->unit;
    /* setrpc writes the rpc CSR and rd only; a CSR read (rs1 = x0 for a
     * set or clear) reads the warp's own state and writes rd only */
    if (e->in.id == ISA_setrpc || ((e->in.id == ISA_csrrs || e->in.id == ISA_csrrc || e->in.id == ISA_csrrsi ||
                                    e->in.id == ISA_csrrci) && e->in.rs1 == 0))
      continue;
    if ((e->flags & (IF_BRANCH | IF_JUMP | IF_VBRANCH | IF_JOIN | IF_CSR | IF_PREFIX | IF_LONG)) ||
        !(u == UNIT_ALU || u == UNIT_VALU || u == UNIT_MUL || u == UNIT_SFU || u == UNIT_VFPU)) {
      after = u == UNIT_SIMT ? VT_RUN_MASK : u == UNIT_ALU && (e->flags & (IF_BRANCH | IF_JUMP)) ? VT_RUN_SAME : 0;
      break;
    }
  }
  k->icache[at].run = (uint8_t)(n | after);
  return n | after;
}

/* One instruction of the run-ahead loop: ic at pc, under the warp's mask
 * and vtype (VILL clear for a vector one; vmask: the mask and vl's lanes,
 * read for a vector one only); records it in r (a stepping
 * caller) as a peek would have seen it. The handler's return code. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int ahead_one(vt_exec *x, vt_stats *s, const vt_icache_entry *ic, uint32_t pc, uint32_t mask,
                            uint32_t vmask, uint32_t vtype, vt_step_rec *r) {
  vt_warp *w = x->w;
  uint32_t f = ic->flags;
  x->pc = pc;
  x->npc = pc + 4;
  x->word = ic->in.word; /* the context of a store into code */
  x->emask = lanes_of(w, ic, f, mask, vmask);
  x->fflags = 0;
  if (r) *r = (vt_step_rec){ic->in, pc, 0, mask, vtype, f, (isa_unit)ic->unit};
  int rc = ic->fn(x, &ic->in);
  if (unlikely(rc)) return rc;
  if (f & (IF_VEC | IF_VBRANCH)) {
    w->vstart = 0;
    if (unlikely((w->mstatus & MSTATUS_VS) != MSTATUS_VS)) mark_vs_dirty(x);
  }
  if (r) r->npc = x->npc;
  s->unit_insns[ic->unit]++;
  return 0;
}

/* Whether the run-ahead loop may call lean forms (exec_lean.c) in runs
 * under a full mask: vl 32, vstart 0, VS dirty. A run keeps that: vl,
 * vtype and CSRs change only at its end (run_build), and a handler only
 * clears vstart and marks VS dirty. */
static inline int lean_state(const vt_warp *w) {
  return w->vl == 32 && !w->vstart && (w->mstatus & MSTATUS_VS) == MSTATUS_VS;
}

/* The cnt instructions from ic of a straight run under a full mask and
 * lean_state, for run_ahead: lean forms where there are, the others as
 * ahead_one runs them. Out of line, so that the
 * loop of the other runs keeps its registers, in two copies: with records
 * (a stepping caller) and without. The first failing handler's return code
 * (*done: the instructions before it), or 0 (*done = cnt). */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int lean_body(vt_exec *x, vt_stats *s, const vt_icache_entry *ic, uint32_t cnt, uint32_t vtype,
                            vt_step_rec *rec, uint32_t *done) {
  vt_warp *w = x->w;
  uint32_t i = 0;
  int rc = 0;
  for (; i < cnt; i++, ic++) {
    if (ic->lean) { /* the handler's result without its checks */
      if (rec) rec[i] = (vt_step_rec){ic->in, ic->pc, ic->pc + 4, 0xffffffffu, vtype, ic->flags, (isa_unit)ic->unit};
      ic->lean(x, w, &ic->in);
      s->unit_insns[ic->unit]++;
    } else if (unlikely(rc = ahead_one(x, s, ic, ic->pc, 0xffffffffu, 0xffffffffu, vtype, rec ? &rec[i] : NULL))) {
      break;
    }
  }
  if (!rc && ic[-1].lean) x->npc = ic[-1].pc + 4; /* a lean form leaves x alone */
  *done = i;
  return rc;
}
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int lean_run_plain(vt_exec *x, vt_stats *s, const vt_icache_entry *ic, uint32_t cnt, uint32_t vtype,
                          uint32_t *done) {
  return lean_body(x, s, ic, cnt, vtype, NULL, done);
}
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int lean_run_rec(vt_exec *x, vt_stats *s, const vt_icache_entry *ic, uint32_t cnt, uint32_t vtype,
                        vt_step_rec *rec, uint32_t *done) {
  return lean_body(x, s, ic, cnt, vtype, rec, done);
}
static inline int lean_run(vt_exec *x, vt_stats *s, const vt_icache_entry *ic, uint32_t cnt, uint32_t vtype,
                           vt_step_rec *rec, uint32_t *done) {
  return rec ? lean_run_rec(x, s, ic, cnt, vtype, rec, done) : lean_run_plain(x, s, ic, cnt, vtype, done);
}

/* Thread counts of the run-ahead loop: one popcount per mask, not per
 * instruction (run_n instructions ran under run_mask). */
static inline void new_mask(uint32_t mask, uint32_t *run_mask, uint32_t *run_n, uint64_t *threads) {
  *threads += (uint64_t)popcount32(*run_mask) * *run_n;
  *run_mask = mask;
  *run_n = 0;
}

/* The run-ahead loop on x (set up for w, errors going to x->e): private
 * instructions only, which never end the warp, wait at a barrier, prefix
 * the next instruction or record a commit (run-ahead is off while
 * recording); the warp's counters are added once at the end. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline uint32_t run_ahead(vt_exec *x, uint32_t limit, int *fault, int track, vt_step_rec *rec) {
  vt_device *d = x->d;
  vt_worker *k = x->k;
  vt_warp *w = x->w;
  vt_stats *s = x->st;
  /* private instructions store nowhere, so only another host thread's
   * store into code can move it */
  uint32_t gen = __atomic_load_n(&d->icache_gen, __ATOMIC_RELAXED);
  uint64_t threads = 0;
  uint32_t start = w->pc, span = 0; /* the bits in which the run's pcs differ from start */
  uint32_t n = 0, run_mask = w->mask, run_n = 0; /* run_n instructions so far under run_mask */
  *fault = 0;
  /* an instruction a prefix modifies is left to its round: private ones
   * never set a prefix, so the loop looks up prefix 0 only */
  if (w->prefix) limit = 0;
  /* Alone in its group: every other warp of it has arrived at the barrier
   * (or ended), and none runs again before this warp arrives there too,
   * which ends the run; no other group reaches this one's local memory.
   * So its accesses to that memory may run now instead of in their rounds:
   * no other instruction of the order between could see or change them.
   * Loads from memory no store can reach in the launch (the launch's
   * metadata and argument block, code and constants of a read-only
   * segment) read what they would read in their rounds, alone or not. A
   * stepping caller times memory accesses, so none runs ahead for it. */
  vt_wg *g = w->wg;
  uint8_t may = rec ? 0 : (uint8_t)(VT_AHEAD_RO | (g->arrived + g->ended + 1 >= g->nwarps ? VT_AHEAD_LOCAL : 0));
  x->ahead_mem = may;
  while (n < limit) {
    /* only instructions already predecoded: a fetch fault or a decode is
     * left to the instruction's own round */
    uint32_t pc = w->pc, at = icache_index(pc, 0);
    const vt_icache_entry *ic = &k->icache[at];
    if (ic->pc != pc || ic->prefix != 0 || ic->gen != gen || !(ic->private_only | (ic->mem_ahead & may)))
      break;
    uint32_t mask = w->mask, vtype = w->vtype;
    if (unlikely(mask != run_mask)) new_mask(mask, &run_mask, &run_n, &threads);
    int rc;
    if (unlikely(!ic->private_only || (vtype & VTYPE_VILL))) { /* a memory access, or anything under VILL */
      if ((vtype & VTYPE_VILL) && (ic->flags & (IF_VEC | IF_VBRANCH))) {
        vill_fault(d, w, x->e, ic);
        *fault = 1;
        break;
      }
      uint32_t vmask = ic->flags & IF_VEC ? mask & lanes_mask(w->vl) : 0;
      if (unlikely(rc = ahead_one(x, s, ic, pc, mask, vmask, vtype, rec ? &rec[n] : NULL))) {
        if (rc == VT_EXEC_DECLINED) { /* memory it may not run ahead on: it runs in its own round */
          /* a load that found other than read-only memory is not tried
           * again (until a fill): most loads read the same memory each
           * time, and a try computes every lane's address */
          if (may & VT_AHEAD_RO) k->icache[at].mem_ahead &= (uint8_t)~VT_AHEAD_RO;
          break;
        }
        handler_fault(d, w, x->e, x);
        *fault = 1;
        break;
      }
      w->pc = x->npc;
      run_n++;
      if (track) span |= pc ^ start;
      n++;
      continue;
    }
    /* Straight runs (run_build), each looked up and checked once: up to a
     * run's last instruction the mask, vl and vtype stay, and only the last
     * may branch; while that is a scalar branch or jump, or a SIMT
     * instruction (which may move the mask only), the next run follows
     * under the same vl and vtype. */
    uint32_t vmask = mask & lanes_mask(w->vl);
    int lean = mask == 0xffffffffu && lean_state(w);
    for (;;) {
      uint32_t run = ic->run ? ic->run : run_build(k, at, pc, gen), len = run & VT_RUN_LEN, n0 = n, stop;
      stop = n + (len < limit - n ? len : limit - n);
      rc = 0;
      if (lean && ic->lean) { /* (a run that starts with one has more, mostly) */
        uint32_t done;
        rc = lean_run(x, s, ic, stop - n, vtype, rec ? rec + n : NULL, &done);
        ic += done;
        n += done;
      } else {
        for (;;) {
          if (unlikely(rc = ahead_one(x, s, ic, ic->pc, mask, vmask, vtype, rec ? &rec[n] : NULL))) break;
          ic++;
          if (++n == stop) break;
        }
      }
      run_n += n - n0;
      if (unlikely(rc)) {
        if (track && n != n0) span |= (pc ^ start) | ((ic - 1)->pc ^ start);
        w->pc = ic->pc;
        if (rc == VT_EXEC_DECLINED) goto out;
        handler_fault(d, w, x->e, x);
        *fault = 1;
        goto out;
      }
      if (track) span |= (pc ^ start) | ((ic - 1)->pc ^ start); /* the ends' span is the run's */
      pc = x->npc;
      if (n == limit) break;
      if (run & VT_RUN_MASK) { /* a vector branch or a join: the mask may have moved */
        mask = w->mask;
        vmask = mask & lanes_mask(w->vl);
        lean = mask == 0xffffffffu && lean_state(w);
        if (mask != run_mask) new_mask(mask, &run_mask, &run_n, &threads);
      } else if (!(run & VT_RUN_SAME)) { /* a CSR write or vsetvl: vl and vtype too */
        break;
      }
      at = icache_index(pc, 0);
      ic = &k->icache[at];
      if (ic->pc != pc || ic->prefix != 0 || ic->gen != gen || !ic->private_only) break;
    }
    w->pc = pc;
  }
out:
  if (n) { /* untracked: no instruction it ran is writable, so no store can change one */
    /* every pc of the run has start's bits above span's highest one */
    uint32_t m = span ? 0xffffffffu >> __builtin_clz(span) : 0;
    w->ahead_lo = track ? start & ~m : 1;
    w->ahead_hi = track ? start | m | 3 : 0;
  }
  threads += (uint64_t)popcount32(run_mask) * run_n;
  w->instret += n;
  s->warp_insns += n;
  s->thread_insns += threads;
  return n;
}

int warp_turn(vt_device *d, vt_worker *k, vt_warp *w, vt_error *e, uint32_t limit, uint32_t *ahead,
              vt_error *ahead_e, int *fault) {
  *ahead = 0;
  *fault = 0;
  vt_icache_entry *ic = decode_next(d, k, w, e);
  if (unlikely(!ic)) return -1;
  vt_exec x;
  exec_init(&x, d, k, w, e);
  int rc = d->record ? step_at(&x, ic, 1) : step_at(&x, ic, 0);
  if (rc || !limit) return rc;
  x.e = ahead_e;
  x.waits = 0; /* a barrier arrival (rc 0) may have set it */
  /* the pcs of a run are tracked only once code of a writable region has
   * been decoded (and so marked): before, no store can reach one of them */
  *ahead = __atomic_load_n(&d->mem.code, __ATOMIC_RELAXED) ? run_ahead(&x, limit, fault, 1, NULL)
                                                            : run_ahead(&x, limit, fault, 0, NULL);
  k->ahead += *ahead;
  return 0;
}

uint32_t warp_ahead_records(vt_device *d, vt_worker *k, vt_warp *w, vt_step_rec *rec, uint32_t max) {
  if (d->trace_fn || !d->cfg.run_ahead) return 0; /* a commit log wants each step as it issues */
  vt_exec x;
  vt_error scratch; /* a fault is left to the instruction's own step */
  int fault;
  exec_init(&x, d, k, w, &scratch);
  return run_ahead(&x, max, &fault, 0, rec);
}

/* ---- stores into code -------------------------------------------------------- */
void code_store(vt_exec *x, uint32_t addr, unsigned size) {
  vt_worker *k = x->k;
  icache_clear(x->d);
  if (!k->smc || addr < k->smc_lo) k->smc_lo = addr;
  if (!k->smc || addr + size > k->smc_hi) k->smc_hi = addr + size;
  k->smc = 1;
  k->smc_pc = x->pc;
  k->smc_word = x->word;
}

/* A warp ran an instruction of a later round than the store's only if it
 * is due after it: slots before the store's in a later round than the
 * next, slots after it in a later one than this. */
int code_store_check(vt_device *d, vt_worker *k, const uint64_t *due, uint64_t round, uint32_t self,
                     uint32_t first, uint32_t step, vt_error *e) {
  uint32_t lo = k->smc_lo, hi = k->smc_hi, nw = d->cfg.warps_per_sm;
  k->smc = 0;
  for (uint32_t s = first; s < d->cfg.num_sm; s += step)
    for (uint32_t i = 0, j = s * nw; i < nw; i++, j++) {
      const vt_warp *a = &d->sms[s].warps[i];
      /* UINT64_MAX: no warp; UINT64_MAX - 1: parked at a barrier, not ahead */
      if (j == self || due[j] >= VT_DUE_PARKED || due[j] <= (j < self ? round + 1 : round)) continue;
      if (a->ahead_hi < lo || a->ahead_lo >= hi) continue;
      const vt_warp *w = &d->sms[self / nw].warps[self % nw];
      vt_fail(e, VT_ERR_ILLEGAL,
              "store into code at 0x%08x..0x%08x, which warp %u of work-group %u may already have run "
              "ahead of this round (run-ahead, docs/simulator.md §2): the result would depend on it; "
              "run_ahead = 0 runs every instruction in its round",
              lo, hi - 1, a->wid, a->wg->id);
      vt_err_ctx(e, (int)d->l.kernel_id, (int)w->wg->id, (int)w->wid, -1, k->smc_pc, k->smc_word);
      vt_err_addr(e, lo);
      return -1;
    }
  return 0;
}

uint64_t vt_device_ahead_insns(const vt_device *d) { return d->w0.ahead; }
uint64_t vt_device_parked_checks(const vt_device *d) { return d->w0.parked; }
