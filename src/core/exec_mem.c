/* Memory instructions and the one place that routes an address:
 *
 *   [lds_base, lds_base + lds_window)  -> the work-group's own local store:
 *       flat for the launch's local size (at least 1 KiB per warp), sparse
 *       zero-filled pages for the rest of the window, because crt0
 *       versions put warp stacks at CSR_LDS + wid * 1 KiB or wid * 1 MiB
 *       and the ISS maps the whole 256 MiB window; the sparse pages of all
 *       resident groups together are bounded by lds_sparse_limit;
 *   everything else -> global device memory (mapped regions,
 *       permission-checked), private memory included: the private
 *       instructions (vlb.v..vsw.v) only compute a different address
 *       (docs/isa.md §7), exactly as the ISS and the RTL. */
#include <stdio.h>
#include <string.h>

#include "exec_ext.h"
#include "host_wide.h"

/* The local window beyond the group's flat part: a new page counts against
 * the device's lds_sparse_limit (AUDIT R23: 16 groups each touching the
 * whole window took 4 GiB of host memory). */
static uint8_t *local_far(vt_exec *x, uint32_t addr, int lane) {
  vt_device *d = x->d;
  uint8_t *h = sparse_find(&x->wg->lds_far, addr);
  if (likely(h != NULL)) return h;
  /* the count is shared by the host threads of a parallel launch */
  if (__atomic_fetch_add(&d->lds_far_pages, 1, __ATOMIC_RELAXED) >= d->cfg.lds_sparse_limit / VT_PAGE_SIZE) {
    __atomic_fetch_sub(&d->lds_far_pages, 1, __ATOMIC_RELAXED);
    char msg[200];
    snprintf(msg, sizeof msg,
             "local memory at 0x%08x is beyond the work-group's 0x%x bytes and the device's "
             "lds_sparse_limit of 0x%x bytes for such pages is used up",
             addr, x->wg->lds_alloc, d->cfg.lds_sparse_limit);
    exec_fault(x, VT_ERR_UNMAPPED, lane, addr, msg);
    return NULL;
  }
  if (!(h = sparse_host(&x->wg->lds_far, addr))) {
    __atomic_fetch_sub(&d->lds_far_pages, 1, __ATOMIC_RELAXED);
    exec_fault(x, VT_ERR_NOMEM, lane, addr, "out of memory for local memory");
    return NULL;
  }
  return h;
}

/* Why mem_host refused an access (the fault path only). */
static const char *deny_reason(vt_device *d, uint32_t addr, unsigned size, unsigned acc, int denied,
                               char *buf, size_t n) {
  const vt_region *r = mem_region(&d->mem, addr);
  const vt_region *last = mem_region(&d->mem, addr + size - 1); /* the access may straddle */
  if ((r && (r->perm & VT_PERM_GUARD)) || (last && (last->perm & VT_PERM_GUARD)))
    return "address is in the padding after a buffer's requested size (strict_bounds = 1)";
  if (!denied) return "address is not mapped";
  if (denied == 2) {
    if (d->mem.ctx == VT_CTX_NONE)
      snprintf(buf, n, "memory of context %u, the kernel runs for no context", r->owner);
    else
      snprintf(buf, n, "memory of context %u, the kernel runs for context %u", r->owner, d->mem.ctx);
    return buf;
  }
  if ((acc & ACC_W) && (r->perm & ACC_X))
    return "memory is code (read/execute; writable_code = 1 allows stores)";
  return acc & ACC_W ? "memory is read-only" : "memory is not readable";
}

uint8_t *route(vt_exec *x, uint32_t addr, unsigned size, unsigned acc, int priv, int lane) {
  vt_device *d = x->d;
  char msg[160];
  if (addr & (size - 1)) {
    snprintf(msg, sizeof msg, "misaligned %u-byte %s at 0x%08x", size,
             acc & ACC_W ? "store" : "load", addr);
    exec_fault(x, VT_ERR_MISALIGNED, lane, addr, msg);
    return NULL;
  }
  uint32_t off = addr - d->cfg.lds_base;
  if (off < d->cfg.lds_window) {
    x->st->local_accesses++;
    if (likely(off < x->wg->lds_alloc)) return x->wg->lds + off;
    return local_far(x, addr, lane);
  }
  int denied;
  uint8_t *h = mem_host_t(&d->mem, x->k->tlb, addr, size, acc, &denied);
  if (!h) {
    char why[96];
    snprintf(msg, sizeof msg, "%u-byte %s at 0x%08x: %s", size, acc & ACC_W ? "store" : "load",
             addr, deny_reason(d, addr, size, acc, denied, why, sizeof why));
    exec_fault(x, VT_ERR_UNMAPPED, lane, addr, msg);
    return NULL;
  }
  /* the translation caches write-protect pages holding decoded
   * instructions, so every store into one comes here */
  if (unlikely((acc & ACC_W) && code_page(&d->mem, addr)) && code_words(&d->mem, addr, size))
    code_store(x, addr, size);
  if (priv) x->st->private_accesses++;
  else x->st->global_accesses++;
  return h;
}

/* whether host byte h lies in group g's local memory (as integers: the
 * other memory is another object, which C pointers may not be ordered
 * against) */
static inline int in_lds(const vt_wg *g, const uint8_t *h) {
  return (uintptr_t)h - (uintptr_t)g->lds < g->lds_alloc;
}

/* A reservation on a group's local memory can only be held by, and lost
 * to, that group's warps: they are walked alone, and their count is the
 * group's, which the host thread running the group alone touches; so
 * listed LR/SC on local memory may run in parallel launches (§6). Other
 * reservations (one host thread) are looked for in every warp. */
void resv_store(vt_exec *x, const uint8_t *word) {
  vt_device *d = x->d;
  vt_wg *g = x->wg;
  if (likely(!resv_held(x))) return;
  if (in_lds(g, word)) {
    for (uint32_t i = 0; i < g->nwarps && g->nresv; i++) {
      vt_warp *w = g->warps[i];
      if (w->resv == word && w != x->w) resv_drop(d, w);
    }
    return;
  }
  if (!d->nresv) return;
  for (uint32_t s = 0; s < d->cfg.num_sm; s++)
    for (uint32_t i = 0; i < d->cfg.warps_per_sm; i++) {
      vt_warp *w = &d->sms[s].warps[i];
      if (w->resv == word && w != x->w) resv_drop(d, w);
    }
}

void resv_drop(vt_device *d, vt_warp *w) {
  if (!w->resv) return;
  if (w->resv_local)
    w->wg->nresv--;
  else
    d->nresv--;
  w->resv = NULL;
}

static inline const uint8_t *word_of(const uint8_t *h, uint32_t addr) { return h - (addr & 3); }

/* ---- scalar ------------------------------------------------------------------- */
/* route's common outcomes inline: an aligned access to the group's flat
 * local part, or to a global page the translation cache holds with the
 * permission (a page holding decoded code has no write permission there); NULL sends the
 * access to route, which decides everything else. */
static inline uint8_t *route_hit(vt_exec *x, uint32_t addr, unsigned size, unsigned acc) {
  const vt_device *d = x->d;
  if (addr & (size - 1)) return NULL;
  uint32_t off = addr - d->cfg.lds_base;
  if (off < d->cfg.lds_window) {
    if (off >= x->wg->lds_alloc) return NULL;
    x->st->local_accesses++;
    return x->wg->lds + off;
  }
  const vt_tlb_entry *t = &x->k->tlb[(addr >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)];
  uint32_t po = addr & (VT_PAGE_SIZE - 1);
  if (t->page != (addr >> VT_PAGE_BITS) + 1 || po < t->lo || po + size > t->hi || (t->perm & acc) != acc)
    return NULL;
  x->st->global_accesses++;
  return t->host + po;
}

/* inlined into the lb..sw handlers (size a constant there), called by the
 * others through scalar_load and scalar_store */
#if defined(__GNUC__)
#define SCALAR_INLINE static inline __attribute__((always_inline))
#else
#define SCALAR_INLINE static inline
#endif

SCALAR_INLINE int sload_at(vt_exec *x, uint32_t addr, unsigned size, int sign, uint32_t *v) {
  const uint8_t *h = route_hit(x, addr, size, ACC_R);
  if (!h && !(h = route(x, addr, size, ACC_R, 0, -1))) return -1;
  *v = ld_n(h, size, sign);
  trace_mem(x, addr, 0, size, 0);
  x->st->loads++;
  x->st->load_bytes += size;
  return 0;
}

SCALAR_INLINE int sstore_at(vt_exec *x, uint32_t addr, unsigned size, uint32_t v) {
  uint8_t *h = route_hit(x, addr, size, ACC_W);
  if (!h && !(h = route(x, addr, size, ACC_W, 0, -1))) return -1;
  st_n(h, size, v);
  resv_store(x, word_of(h, addr));
  trace_mem(x, addr, size == 4 ? v : v & ((1u << (8 * size)) - 1), size, 1);
  x->st->stores++;
  x->st->store_bytes += size;
  return 0;
}

int scalar_load(vt_exec *x, uint32_t addr, unsigned size, int sign, uint32_t *v) {
  return sload_at(x, addr, size, sign, v);
}

int scalar_store(vt_exec *x, uint32_t addr, unsigned size, uint32_t v) { return sstore_at(x, addr, size, v); }

/* A scalar load running ahead (x->ahead_mem): from a page no store
 * reaches in the launch (a region without write permission, which the
 * translation cache holds without VT_PERM_W and VT_PERM_CODE), aligned;
 * anything else is declined untouched, to run (or fault) in its round. */
SCALAR_INLINE int sload_ahead(vt_exec *x, uint32_t addr, unsigned size, int sign, uint32_t *v) {
  uint32_t off = addr - x->d->cfg.lds_base;
  if (!(x->ahead_mem & VT_AHEAD_RO) || (addr & (size - 1)) || off < x->d->cfg.lds_window) return VT_EXEC_DECLINED;
  int denied;
  const uint8_t *h = mem_host_t(&x->d->mem, x->k->tlb, addr, size, ACC_R, &denied);
  if (!h || (x->k->tlb[(addr >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)].perm & (VT_PERM_W | VT_PERM_CODE)))
    return VT_EXEC_DECLINED;
  *v = ld_n(h, size, sign);
  x->st->global_accesses++;
  x->st->loads++;
  x->st->load_bytes += size;
  return 0;
}

SCALAR_INLINE int sload(vt_exec *x, const isa_inst *in, unsigned size, int sign) {
  uint32_t v, addr = XR(in->rs1) + (uint32_t)in->imm;
  if (unlikely(x->ahead_mem)) {
    int rc = sload_ahead(x, addr, size, sign, &v);
    if (rc) return rc;
  } else if (sload_at(x, addr, size, sign, &v)) {
    return -1;
  }
  set_x(x, in->rd, v);
  return 0;
}

SCALAR_INLINE int sstore(vt_exec *x, const isa_inst *in, unsigned size) {
  return sstore_at(x, XR(in->rs1) + (uint32_t)in->imm, size, XR(in->rs2));
}

HANDLER(lb) { return sload(x, in, 1, 1); }
HANDLER(lh) { return sload(x, in, 2, 1); }
HANDLER(lw) { return sload(x, in, 4, 0); }
HANDLER(lbu) { return sload(x, in, 1, 0); }
HANDLER(lhu) { return sload(x, in, 2, 0); }
HANDLER(sb) { return sstore(x, in, 1); }
HANDLER(sh) { return sstore(x, in, 2); }
HANDLER(sw) { return sstore(x, in, 4); }

/* ---- A: one warp steps at a time per host thread, so an AMO is atomic with
 * respect to the warps of its thread; with several host threads (a
 * parallel launch) the read-modify-write also holds the word's lock. -- */
/* A parallel launch ran although this AMO's old value is used or its kind
 * differs from others', as the program listed it as one on __local memory:
 * it must reach the group's local memory (else the result could depend on
 * the order of work-groups). */
static int listed_off_local(vt_exec *x, uint32_t addr) {
  vt_device *d = x->d;
  if (addr - d->cfg.lds_base < d->cfg.lds_window || !par_amo_listed(d, x->pc)) return 0;
  vt_fail(x->e, VT_ERR_ILLEGAL,
          "an atomic at 0x%08x the program lists as one on __local memory (.ventus.amo_local) reaches 0x%08x, "
          "which is not local memory, while the launch runs on several host threads (host_threads = 1 runs it "
          "in order)",
          x->pc, addr);
  vt_err_addr(x->e, addr);
  return 1;
}
/* the check above, only in a parallel launch of a program with a list
 * (an AMO, LR or SC) */
static inline int amo_listed_not_local(vt_exec *x, uint32_t addr) {
  return unlikely(x->d->parallel) && x->d->l.namo_local && listed_off_local(x, addr);
}

int amo_at(vt_exec *x, const isa_inst *in, uint32_t addr, int op) {
  uint32_t b = XR(in->rs2);
  int par = x->d->parallel;
  if (amo_listed_not_local(x, addr)) return -1;
  uint8_t *h = route(x, addr, 4, ACC_R | ACC_W, 0, -1);
  if (!h) return -1;
  if (unlikely(par)) par_amo_lock(x->d, h);
  uint32_t a = ld_u32(h), r;
  switch (op) {
  case AMO_SWAP: r = b; break;
  case AMO_ADD: r = a + b; break;
  case AMO_XOR: r = a ^ b; break;
  case AMO_AND: r = a & b; break;
  case AMO_OR: r = a | b; break;
  case AMO_MIN: r = (int32_t)a < (int32_t)b ? a : b; break;
  case AMO_MAX: r = (int32_t)a > (int32_t)b ? a : b; break;
  case AMO_MINU: r = a < b ? a : b; break;
  default: r = a > b ? a : b; break;
  }
  st_u32(h, r);
  if (unlikely(par)) par_amo_unlock(x->d, h);
  resv_store(x, h);
  trace_mem(x, addr, 0, 4, 0);
  trace_mem(x, addr, r, 4, 1);
  set_x(x, in->rd, a);
  x->st->atomics++;
  return 0;
}

static int amo(vt_exec *x, const isa_inst *in, int op) { return amo_at(x, in, XR(in->rs1), op); }

HANDLER(amoswap_w) { return amo(x, in, AMO_SWAP); }
HANDLER(amoadd_w) { return amo(x, in, AMO_ADD); }
HANDLER(amoxor_w) { return amo(x, in, AMO_XOR); }
HANDLER(amoand_w) { return amo(x, in, AMO_AND); }
HANDLER(amoor_w) { return amo(x, in, AMO_OR); }
HANDLER(amomin_w) { return amo(x, in, AMO_MIN); }
HANDLER(amomax_w) { return amo(x, in, AMO_MAX); }
HANDLER(amominu_w) { return amo(x, in, AMO_MINU); }
HANDLER(amomaxu_w) { return amo(x, in, AMO_MAXU); }

/* LR/SC per the RISC-V spec, not the ISS (which drops every reservation at
 * each warp switch): one reservation per warp on the word; a store, AMO or
 * successful SC by another warp to that word breaks it; any SC clears it. */
int lr_at(vt_exec *x, const isa_inst *in, uint32_t addr) {
  if (amo_listed_not_local(x, addr)) return -1;
  const uint8_t *h = route(x, addr, 4, ACC_R, 0, -1);
  if (!h) return -1;
  vt_warp *w = x->w;
  vt_wg *g = x->wg;
  resv_drop(x->d, w);
  w->resv_local = in_lds(g, h);
  if (w->resv_local)
    g->nresv++;
  else
    x->d->nresv++;
  w->resv = h;
  trace_mem(x, addr, 0, 4, 0);
  set_x(x, in->rd, ld_u32(h));
  x->st->atomics++;
  return 0;
}

HANDLER(lr_w) { return lr_at(x, in, XR(in->rs1)); }

int sc_at(vt_exec *x, const isa_inst *in, uint32_t addr) {
  uint32_t v = XR(in->rs2);
  if (amo_listed_not_local(x, addr)) return -1;
  uint8_t *h = route(x, addr, 4, ACC_W, 0, -1);
  if (!h) return -1;
  vt_warp *w = x->w;
  int ok = w->resv == h;
  resv_drop(x->d, w);
  if (ok) {
    st_u32(h, v);
    resv_store(x, h);
    trace_mem(x, addr, v, 4, 1);
  }
  set_x(x, in->rd, ok ? 0 : 1);
  x->st->atomics++;
  return 0;
}

HANDLER(sc_w) { return sc_at(x, in, XR(in->rs1)); }

/* ---- vector ------------------------------------------------------------------- */
enum { VA_OFF12, VA_PRIVATE, VA_UNIT, VA_STRIDED, VA_INDEXED };

static inline uint32_t vaddr(vt_exec *x, const isa_inst *in, int kind, uint32_t i) {
  vt_warp *w = x->w;
  switch (kind) {
  case VA_OFF12: return w->v[in->rs1][i] + (uint32_t)in->imm;
  case VA_PRIVATE: {
    /* ISS/RTL interleaving: word w of thread t at pds + w*4*NW*NT + t*4 */
    uint32_t a = w->v[in->rs1][i] + (uint32_t)in->imm;
    const uint32_t *c = w->csr_custom;
    return c[CSR_PDS - 0x800] + (a & ~3u) * c[CSR_NUMW - 0x800] * c[CSR_NUMT - 0x800] +
           (c[CSR_TID - 0x800] + i) * 4 + (a & 3);
  }
  case VA_UNIT: return w->x[in->rs1] + 4 * i;
  case VA_STRIDED: return w->x[in->rs1] + i * w->x[in->rs2];
  default: return w->x[in->rs1] + w->v[in->rs2][i];
  }
}

/* Inlined into every handler so that kind and size are constants and the
 * lane loops specialise (a vlw12.v lane is then a few host instructions),
 * and into its AVX2 clone. */
#if defined(__GNUC__)
#define VMEM_INLINE static inline __attribute__((always_inline))
#else
#define VMEM_INLINE static inline
#endif

/* Where a span's accesses are counted (span_host, span_count). */
enum { SPAN_LOCAL, SPAN_PRIVATE, SPAN_GLOBAL };

/* The host bytes behind [lo, end) when that whole range is one contiguous
 * host block the instruction may access: the group's flat local part, or
 * one global page through the translation cache (*where: which counter its
 * accesses go to; nothing is counted here). NULL = use the per-lane path
 * (another page, the sparse local part, a fault to report, a store into a
 * code page), or, running ahead, memory it may not run ahead on. */
VMEM_INLINE uint8_t *span_host(vt_exec *x, uint32_t lo, uint64_t end, unsigned acc, int priv, int *where) {
  vt_device *d = x->d;
  uint64_t lds = d->cfg.lds_base, lds_end = lds + d->cfg.lds_window;
  if (lo >= lds && end <= lds + x->wg->lds_alloc) {
    if (x->ahead_mem && !(x->ahead_mem & VT_AHEAD_LOCAL)) return NULL; /* declined ahead */
    *where = SPAN_LOCAL;
    return x->wg->lds + (lo - lds);
  }
  /* running ahead (warp_turn), only a load from a page no store reaches */
  if (x->ahead_mem && (!(x->ahead_mem & VT_AHEAD_RO) || (acc & ACC_W) || priv)) return NULL;
  if ((lo < lds_end && end > lds) || (lo >> VT_PAGE_BITS) != ((end - 1) >> VT_PAGE_BITS)) return NULL;
  int denied;
  uint8_t *h = mem_host_t(&d->mem, x->k->tlb, lo, (unsigned)(end - lo), acc, &denied);
  if (!h) return NULL;
  unsigned perm = x->k->tlb[(lo >> VT_PAGE_BITS) & (VT_TLB_SIZE - 1)].perm;
  if (x->ahead_mem && (perm & (VT_PERM_W | VT_PERM_CODE))) return NULL;
  /* a store into a page of decoded code: the per-lane path, through route */
  if ((acc & ACC_W) && (perm & VT_PERM_CODE)) return NULL;
  *where = priv ? SPAN_PRIVATE : SPAN_GLOBAL;
  return h;
}

static inline void span_count(vt_exec *x, int where, unsigned n) {
  if (where == SPAN_LOCAL) x->st->local_accesses += n;
  else if (where == SPAN_PRIVATE) x->st->private_accesses += n;
  else x->st->global_accesses += n;
}

/* span_host with the access counters advanced by n lanes */
static uint8_t *route_span(vt_exec *x, uint32_t lo, uint64_t end, unsigned acc, int priv, unsigned n) {
  int where;
  uint8_t *h = span_host(x, lo, end, acc, priv, &where);
  if (h) span_count(x, where, n);
  return h;
}

/* A full warp of 32 lanes whose two halves each address 16 words in a row
 * (a work-group 16 items wide reading or writing two rows): the host
 * blocks of both halves, counted, or 0 when either half is not one block
 * the access may take (nothing counted). */
VMEM_INLINE int half_rows(vt_exec *x, const uint32_t *a, unsigned acc, uint8_t **h0, uint8_t **h1) {
  uint32_t off = 0;
  for (uint32_t i = 0; i < 16; i++) off |= (a[i] - a[0] - 4 * i) | (a[16 + i] - a[16] - 4 * i);
  if (off || (a[0] & 3) || (a[16] & 3) || a[0] > 0xffffffffu - 63 || a[16] > 0xffffffffu - 63) return 0;
  int w0, w1;
  if (!(*h0 = span_host(x, a[0], (uint64_t)a[0] + 64, acc, 0, &w0)) ||
      !(*h1 = span_host(x, a[16], (uint64_t)a[16] + 64, acc, 0, &w1)))
    return 0;
  span_count(x, w0, 16);
  span_count(x, w1, 16);
  return 1;
}

/* Unit-stride words can be copied as they are on a little-endian host. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_LE 1
#else
#define HOST_LE 0
#endif

/* Every active lane's address into a[], with bounds *lo <= each <= *hi
 * (the exact lowest and highest under a partial mask; under a full one the
 * AND and OR of the addresses, which a plain loop reduces without the
 * unsigned minimum and maximum the host's baseline vector unit lacks;
 * vbounds_exact tightens them) and whether any is misaligned for `size`;
 * a full mask also tells whether lane i reads a[0] + size * i (*unit;
 * else 0). */
VMEM_INLINE int vaddrs(vt_exec *x, const isa_inst *in, int kind, unsigned size, uint32_t em, int wide,
                         uint32_t *a, uint32_t *lo, uint32_t *hi, int *unit) {
  uint32_t mn = UINT32_MAX, mx = 0, bits = 0, vl = x->w->vl;
  *unit = 0;
  if (em == lanes_mask(vl)) {
    uint32_t first = vl ? vaddr(x, in, kind, 0) : 0, off = 0;
    for (uint32_t i = 0; i < vl; i++) {
      uint32_t v = vaddr(x, in, kind, i);
      a[i] = v;
      mn &= v;
      bits |= v;
      off |= v - size * i - first;
    }
    mx = bits;
    *unit = vl && !off;
  } else if (wide) {
    /* every lane, the inactive ones folded out of the bounds: no branch per
     * lane, and in an AVX2 clone a few dozen 256-bit instructions (a
     * bitonic network's or a reduction's half-active warps) */
    for (uint32_t i = 0; i < VT_MAX_LANES; i++) {
      uint32_t v = vaddr(x, in, kind, i), on = 0u - ((em >> i) & 1), l = v | ~on, h = v & on;
      a[i] = v;
      mn = l < mn ? l : mn;
      mx = h > mx ? h : mx;
      bits |= h;
    }
  } else {
    FOR_LANES(em, i) {
      uint32_t v = vaddr(x, in, kind, i);
      a[i] = v;
      mn = v < mn ? v : mn;
      mx = v > mx ? v : mx;
      bits |= v;
    }
  }
  *lo = mn;
  *hi = mx;
  return (bits & (size - 1)) != 0;
}

/* The exact lowest and highest of a full mask's addresses (vaddrs). */
static inline void vbounds_exact(const vt_exec *x, const uint32_t *a, uint32_t *lo, uint32_t *hi) {
  uint32_t mn = UINT32_MAX, mx = 0, vl = x->w->vl;
  for (uint32_t i = 0; i < vl; i++) {
    mn = a[i] < mn ? a[i] : mn;
    mx = a[i] > mx ? a[i] : mx;
  }
  *lo = mn;
  *hi = mx;
}

/* The host bytes behind the lanes' bounds (vaddrs) as one block: tried
 * with the bounds of a full mask first, then with the exact ones. */
VMEM_INLINE uint8_t *vroute(vt_exec *x, uint32_t em, const uint32_t *a, uint32_t *lo, uint32_t *hi, unsigned size,
                            unsigned acc, int priv, unsigned n) {
  uint8_t *h = route_span(x, *lo, (uint64_t)*hi + size, acc, priv, n);
  if (h || em != lanes_mask(x->w->vl)) return h;
  uint32_t l, u;
  vbounds_exact(x, a, &l, &u);
  if (l == *lo && u == *hi) return NULL;
  *lo = l;
  *hi = u;
  return route_span(x, l, (uint64_t)u + size, acc, priv, n);
}

/* Whether a full mask of lanes addresses the words a[0], a[0] + 4, ... in
 * a row, aligned and without wrapping (*lo = a[0]): the common coalesced
 * access, told by one OR-reduction that gcc vectorises, without the lane
 * addresses, minimum and maximum of vaddrs. */
VMEM_INLINE int vunit_words(vt_exec *x, const isa_inst *in, int kind, uint32_t em, uint32_t *lo) {
  uint32_t vl = x->w->vl;
  if (!HOST_LE || !vl || em != lanes_mask(vl)) return 0;
  uint32_t first = vaddr(x, in, kind, 0), off = first & 3;
  if (vl > 1 && vaddr(x, in, kind, 1) != first + 4) return 0; /* most other patterns end here */
  if (kind == VA_OFF12 && vl == 32) { /* the offset cancels: a fixed-count loop over the register */
    const uint32_t *r = x->w->v[in->rs1];
    for (uint32_t i = 0; i < 32; i++) off |= r[i] - 4 * i - r[0];
  } else {
    for (uint32_t i = 2; i < vl; i++) off |= vaddr(x, in, kind, i) - 4 * i - first;
  }
  *lo = first;
  return !off && (uint64_t)first + 4 * (uint64_t)vl <= 0x100000000ull;
}

/* A grid-stride loop moves each warp's unit-stride access by one fixed
 * step per iteration, usually beyond the host page; the host's prefetchers
 * cannot follow it (every simulated access is one memcpy at one host pc).
 * When a pc's access moved by the same step twice, the host prefetches
 * the lines one step on. A hint only: nothing simulated depends on it. */
VMEM_INLINE void stride_hint(vt_exec *x, uint32_t lo, uint32_t bytes, int write) {
  vt_warp *w = x->w;
  unsigned i = (x->pc >> 2) & 7;
  uint32_t step = lo - w->pf_addr[i];
  w->pf_addr[i] = lo;
  if (step != w->pf_step[i]) {
    w->pf_step[i] = step;
    return;
  }
  if (step + VT_PAGE_SIZE <= 2 * VT_PAGE_SIZE) return; /* within a page or two: the host sees it */
  uint32_t next = lo + step;
  const uint8_t *pg = mem_page_hint(&x->d->mem, next);
  if (!pg) return;
  const uint8_t *h = pg + (next & (VT_PAGE_SIZE - 1));
  uint32_t n = bytes < VT_PAGE_SIZE - (next & (VT_PAGE_SIZE - 1)) ? bytes : VT_PAGE_SIZE - (next & (VT_PAGE_SIZE - 1));
  for (uint32_t o = 0; o < n; o += 64) {
    if (write) __builtin_prefetch(h + o, 1);
    else __builtin_prefetch(h + o, 0);
  }
}

/* A unit-stride access of vl words from lo (vs: a store's data): a lean
 * record (the timing model's) takes it as one span, a full one lane by lane. */
static inline void trace_unit(vt_exec *x, uint32_t lo, uint32_t vl, const uint32_t *vs) {
  vt_commit *m = x->m;
  if (!x->c && m->nmem == 0 && m->unit_n == 0) {
    m->unit_lo = lo;
    m->unit_n = vl;
    m->unit_store = vs != NULL;
    return;
  }
  for (uint32_t i = 0; i < vl; i++) trace_mem(x, lo + 4 * i, vs ? vs[i] : 0, 4, vs != NULL);
}

void trace_unit_spill(vt_commit *c) {
  uint32_t n = c->unit_n;
  c->unit_n = 0;
  for (uint32_t i = 0; i < n && c->nmem < VT_MAX_MEM; i++, c->nmem++)
    c->mem[c->nmem] = (vt_mem_access){c->unit_lo + 4 * i, 0, 4, (uint8_t)c->unit_store};
}

/* wide: the handler is an AVX2 clone (host_wide.h) */
VMEM_INLINE int vload(vt_exec *x, const isa_inst *in, int kind, unsigned size, int sign, int wide) {
  uint32_t addr[VT_MAX_LANES], lo, hi;
  uint32_t em = x->emask;
  if (size == 4 && vunit_words(x, in, kind, em, &lo)) {
    uint32_t vl = x->w->vl;
    const uint8_t *h = route_span(x, lo, (uint64_t)lo + 4 * vl, ACC_R, kind == VA_PRIVATE, vl);
    if (h) {
      stride_hint(x, lo, 4 * vl, 0);
      memcpy(x->w->v[in->rd], h, 4 * (size_t)vl);
      if (x->m) trace_unit(x, lo, vl, NULL);
      x->st->loads += vl;
      x->st->load_bytes += 4 * (uint64_t)vl;
      trace_vreg(x, in->rd);
      return 0;
    }
  }
  unsigned n = (unsigned)popcount32(em);
  uint32_t *vd = x->w->v[in->rd], vl = x->w->vl;
  int unit, mis = vaddrs(x, in, kind, size, em, wide, addr, &lo, &hi, &unit);
  uint8_t *h0, *h1;
  if (HOST_LE && size == 4 && em == 0xffffffffu && vl == 32 && kind != VA_PRIVATE &&
      half_rows(x, addr, ACC_R, &h0, &h1)) { /* addresses first, so vd may be a source */
    memcpy(vd, h0, 64);
    memcpy(vd + 16, h1, 64);
    if (x->m) FOR_LANES(em, i) trace_mem(x, addr[i], 0, size, 0);
    x->st->loads += 32;
    x->st->load_bytes += 128;
    trace_vreg(x, in->rd);
    return 0;
  }
  const uint8_t *h = n && !mis ? vroute(x, em, addr, &lo, &hi, size, ACC_R, kind == VA_PRIVATE, n) : NULL;
  if (!h && x->ahead_mem) return VT_EXEC_DECLINED; /* memory it may not run ahead on */
  if (h) { /* addresses were read from the registers first, so vd may be a source */
    if (HOST_LE && size == 4 && unit) /* lanes are little-endian words in a row */
      memcpy(vd, h, 4 * (size_t)vl);
    else if (em == lanes_mask(vl) && lo == hi) /* one word for every lane */
      for (uint32_t i = 0, v = ld_n(h, size, sign); i < vl; i++) vd[i] = v;
    else if (HOST_LE && size == 4 && em == lanes_mask(vl)) /* a gather of words in one block */
      for (uint32_t i = 0; i < vl; i++) memcpy(&vd[i], h + (addr[i] - lo), 4);
    else if (em == lanes_mask(vl))
      for (uint32_t i = 0; i < vl; i++) vd[i] = ld_n(h + (addr[i] - lo), size, sign);
    else
      FOR_LANES(em, i) vd[i] = ld_n(h + (addr[i] - lo), size, sign);
    if (x->m) FOR_LANES(em, i) trace_mem(x, addr[i], 0, size, 0);
  } else {
    uint32_t tmp[VT_MAX_LANES];
    FOR_LANES(em, i) { /* a gather over several pages: most lanes hit the translation cache */
      const uint8_t *p = kind != VA_PRIVATE ? route_hit(x, addr[i], size, ACC_R) : NULL;
      if (!p && !(p = route(x, addr[i], size, ACC_R, kind == VA_PRIVATE, (int)i))) return -1;
      tmp[i] = ld_n(p, size, sign);
      trace_mem(x, addr[i], 0, size, 0);
    }
    FOR_LANES(em, i) vd[i] = tmp[i];
  }
  x->st->loads += n;
  x->st->load_bytes += (uint64_t)n * size;
  trace_vreg(x, in->rd);
  return 0;
}

static inline uint32_t store_val(uint32_t v, unsigned size) {
  return size == 4 ? v : v & ((1u << (8 * size)) - 1);
}

VMEM_INLINE int vstore(vt_exec *x, const isa_inst *in, int kind, unsigned size, unsigned data, int wide) {
  uint32_t addr[VT_MAX_LANES], lo, hi;
  uint32_t em = x->emask;
  const uint32_t *vs = x->w->v[data];
  if (size == 4 && vunit_words(x, in, kind, em, &lo)) {
    uint32_t vl = x->w->vl;
    uint8_t *h = route_span(x, lo, (uint64_t)lo + 4 * vl, ACC_W, kind == VA_PRIVATE, vl);
    if (h) {
      stride_hint(x, lo, 4 * vl, 1);
      memcpy(h, vs, 4 * (size_t)vl);
      if (resv_held(x)) for (uint32_t i = 0; i < vl; i++) resv_store(x, h + 4 * i);
      if (x->m) trace_unit(x, lo, vl, vs);
      x->st->stores += vl;
      x->st->store_bytes += 4 * (uint64_t)vl;
      return 0;
    }
  }
  unsigned n = (unsigned)popcount32(em);
  int unit, mis = vaddrs(x, in, kind, size, em, wide, addr, &lo, &hi, &unit);
  uint8_t *h0, *h1;
  if (HOST_LE && size == 4 && em == 0xffffffffu && x->w->vl == 32 && kind != VA_PRIVATE &&
      half_rows(x, addr, ACC_W, &h0, &h1)) { /* lane order: where the rows overlap the second wins */
    memcpy(h0, vs, 64);
    memcpy(h1, vs + 16, 64);
    if (resv_held(x))
      for (uint32_t i = 0; i < 32; i++) resv_store(x, (i < 16 ? h0 : h1) + 4 * (i & 15));
    if (x->m) FOR_LANES(em, i) trace_mem(x, addr[i], vs[i], size, 1);
    x->st->stores += 32;
    x->st->store_bytes += 128;
    return 0;
  }
  uint8_t *h = n && !mis ? vroute(x, em, addr, &lo, &hi, size, ACC_W, kind == VA_PRIVATE, n) : NULL;
  if (!h && x->ahead_mem) return VT_EXEC_DECLINED;
  if (h) { /* lane order kept: of two lanes storing to one address the higher wins */
    if (HOST_LE && size == 4 && unit)
      memcpy(h, vs, 4 * (size_t)x->w->vl);
    else if (em == lanes_mask(x->w->vl))
      for (uint32_t i = 0; i < x->w->vl; i++) st_n(h + (addr[i] - lo), size, vs[i]);
    else
      FOR_LANES(em, i) st_n(h + (addr[i] - lo), size, vs[i]);
    if (resv_held(x)) FOR_LANES(em, i) resv_store(x, word_of(h + (addr[i] - lo), addr[i]));
    if (x->m) FOR_LANES(em, i) trace_mem(x, addr[i], store_val(vs[i], size), size, 1);
  } else {
    FOR_LANES(em, i) {
      uint8_t *p = kind != VA_PRIVATE ? route_hit(x, addr[i], size, ACC_W) : NULL;
      if (!p && !(p = route(x, addr[i], size, ACC_W, kind == VA_PRIVATE, (int)i))) return -1;
      st_n(p, size, vs[i]);
      resv_store(x, word_of(p, addr[i]));
      trace_mem(x, addr[i], store_val(vs[i], size), size, 1);
    }
  }
  x->st->stores += n;
  x->st->store_bytes += (uint64_t)n * size;
  return 0;
}

/* custom-3: per-lane address vs1[i] + imm12; store data in the vs2 field.
 * The word forms, which compiled kernels use most, run their lanes'
 * address loops in 256-bit registers where the host has AVX2
 * (host_wide.h): integer work, the same at any width. */
HANDLER(vlb12_v) { return vload(x, in, VA_OFF12, 1, 1, 0); }
HANDLER(vlh12_v) { return vload(x, in, VA_OFF12, 2, 1, 0); }
VT_HOST_WIDE HANDLER(vlw12_v) { return vload(x, in, VA_OFF12, 4, 0, 1); }
HANDLER(vlbu12_v) { return vload(x, in, VA_OFF12, 1, 0, 0); }
HANDLER(vlhu12_v) { return vload(x, in, VA_OFF12, 2, 0, 0); }
HANDLER(vsb12_v) { return vstore(x, in, VA_OFF12, 1, in->rs2, 0); }
HANDLER(vsh12_v) { return vstore(x, in, VA_OFF12, 2, in->rs2, 0); }
VT_HOST_WIDE HANDLER(vsw12_v) { return vstore(x, in, VA_OFF12, 4, in->rs2, 1); }

/* custom-1: private memory */
HANDLER(vlb_v) { return vload(x, in, VA_PRIVATE, 1, 1, 0); }
HANDLER(vlh_v) { return vload(x, in, VA_PRIVATE, 2, 1, 0); }
HANDLER(vlw_v) { return vload(x, in, VA_PRIVATE, 4, 0, 0); }
HANDLER(vlbu_v) { return vload(x, in, VA_PRIVATE, 1, 0, 0); }
HANDLER(vlhu_v) { return vload(x, in, VA_PRIVATE, 2, 0, 0); }
HANDLER(vsb_v) { return vstore(x, in, VA_PRIVATE, 1, in->rs2, 0); }
HANDLER(vsh_v) { return vstore(x, in, VA_PRIVATE, 2, in->rs2, 0); }
HANDLER(vsw_v) { return vstore(x, in, VA_PRIVATE, 4, in->rs2, 0); }

/* RVV 32-bit: store data in the vs3 (rd) field */
HANDLER(vle32_v) { return vload(x, in, VA_UNIT, 4, 0, 0); }
HANDLER(vse32_v) { return vstore(x, in, VA_UNIT, 4, in->rd, 0); }
HANDLER(vlse32_v) { return vload(x, in, VA_STRIDED, 4, 0, 0); }
HANDLER(vsse32_v) { return vstore(x, in, VA_STRIDED, 4, in->rd, 0); }
HANDLER(vluxei32_v) { return vload(x, in, VA_INDEXED, 4, 0, 0); }
HANDLER(vloxei32_v) { return vload(x, in, VA_INDEXED, 4, 0, 0); }
HANDLER(vsuxei32_v) { return vstore(x, in, VA_INDEXED, 4, in->rd, 0); }
HANDLER(vsoxei32_v) { return vstore(x, in, VA_INDEXED, 4, in->rd, 0); }
