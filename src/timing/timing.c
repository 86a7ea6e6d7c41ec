/* The timing model's SM pipeline: per-warp in-order issue from the
 * instruction buffers under a register scoreboard, one round-robin issue per
 * SM and cycle, execution units with fixed latencies and folding over the
 * lanes; one SM's cycle. The launch's cycles, over host threads, and
 * the end-of-launch cache flush: tpar.c (docs/timing.md). Fetch:
 * frontend.c; memory: lsu.c, memsys.c. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "collector.h"

static const char *const stall_names[VT_STALL_COUNT] = {"scoreboard", "memory",  "structural", "dma",
                                                        "fetch",      "barrier", "control",    "idle"};
const char *vt_stall_name(vt_stall s) { return s < VT_STALL_COUNT ? stall_names[s] : "?"; }

static int timing_launch(void *user, vt_device *d, const vt_launch *l, vt_error *e);

static void build_ops(vt_timing *t) {
  for (int id = 0; id < ISA_COUNT; id++) {
    isa_opnd o[ISA_MAX_OPNDS];
    int n = isa_operands((isa_id)id, o);
    reg_ops *r = &t->ops[id];
    r->n = 0;
    for (int i = 0; i < n; i++) {
      isa_opk k = (isa_opk)o[i].kind;
      if (!isa_opk_is_reg(k)) continue;
      uint8_t field = k == OPK_RD || k == OPK_VD || k == OPK_VS3 || k == OPK_FRD ? 0
                      : k == OPK_RS1 || k == OPK_VS1 || k == OPK_FRS1          ? 1
                      : k == OPK_RS2 || k == OPK_VS2 || k == OPK_FRS2          ? 2
                                                                                : 3;
      r->field[r->n] = field;
      r->file[r->n] = isa_opk_is_vreg(k) ? 1 : 0;
      r->dest[r->n] = k == OPK_RD || k == OPK_VD || k == OPK_FRD;
      r->pair[r->n] = o[i].pair;
      r->freg[r->n] = isa_opk_is_freg(k) != 0;
      r->n++;
    }
  }
  wide_build(t);
}

static uint32_t reg_of(const isa_inst *in, uint8_t field) {
  return field == 0 ? in->rd : field == 1 ? in->rs1 : field == 2 ? in->rs2 : in->rs3;
}

/* Registers a 2025 prefix or format widens: REGPAIR makes an even data or
 * base register a pair; PREFIX_MEMORY moves mwidth + 1 words through the
 * data registers (as exec_memext.c executes them); PREFIX pair = 1 and the
 * 64-bit compute format's 64-bit sizes make data registers pairs. */
static uint8_t span_of(const isa_inst *in, uint32_t flags, const reg_ops *r, int i, uint32_t reg) {
  if (r->pair[i]) return 2;
  if (in->pfx & ISA_PFX_CPAIR) { /* PREFIX pair = 1: 64-bit data, but a vector compare's vd */
    const isa_pair_op *p = isa_pair_op_of((isa_id)in->id);
    if (p) return r->dest[i] && p->op >= ISA_PO_CMP && p->form >= ISA_PF_VV ? 1 : 2;
  }
  if ((flags & IF_LONG) && (in->word & 0x7f) == 0x3f) /* the compute format: size code 2 is a pair */
    return ((r->field[i] == 0 ? in->hi >> 22 : in->hi >> 20) & 3) == 2 ? 2 : 1;
  if (!(flags & (IF_LOAD | IF_STORE)) || (flags & IF_AMO)) return 1;
  int data = (flags & IF_STORE) ? r->field[i] == 2 : r->field[i] == 0;
  if (data && (in->pfx & ISA_PFX_MEM)) return (uint8_t)(in->mwidth + 1);
  if ((in->pfx & ISA_PFX_PAIR) && !(reg & 1) && (data || r->field[i] == 1)) return 2;
  return 1;
}

int reg_uses(const vt_timing *t, const isa_inst *in, uint32_t flags, uint32_t nt, uint32_t vtype, reg_use *u) {
  const reg_ops *r = &t->ops[in->id];
  uint8_t wide = t->wide[in->id].kind; /* always WIDE_NONE in the baseline */
  if (wide >= WIDE_MMA) return wide_mma_uses(t, in, nt, u);
  /* SEW 64: a prefix's own widths rule (span_of) */
  int sew64 = wide == WIDE_SEW && wide_sew(vtype) == 64 && !in->pfx;
  int n = 0;
  for (int i = 0; i < r->n; i++) {
    uint32_t reg = reg_of(in, r->field[i]);
    if (r->file[i] == 0 && reg == 0 && r->dest[i]) continue; /* x0 is never written */
    uint16_t span = span_of(in, flags, r, i, reg);
    if (sew64 && span == 1) span = wide_sew64_span(t, in, i, reg);
    if (reg + span > NREG) span = (uint16_t)(NREG - reg);
    u[n++] = (reg_use){r->file[i], r->dest[i], span, reg};
  }
  if ((flags & IF_VEC) && !in->vm && !(flags & IF_CUSTOMV)) u[n++] = (reg_use){1, 0, 1, 0}; /* the mask, v0 */
  return n;
}

/* reg_uses of view v through SM sm's memo: the decoded fields reg_uses
 * reads are bytes [0, 16) and [24, 28) of isa_inst (asserted). The
 * answer stays valid until the next call on sm. */
_Static_assert(offsetof(isa_inst, word) == 0 && offsetof(isa_inst, hi) == 4 && offsetof(isa_inst, id) == 8 &&
                   offsetof(isa_inst, rd) == 10 && offsetof(isa_inst, rs3) == 13 && offsetof(isa_inst, vm) == 14 &&
                   offsetof(isa_inst, rm) == 15 && offsetof(isa_inst, pfx) == 24 &&
                   offsetof(isa_inst, mwidth) == 27 && sizeof(isa_inst) == 28,
               "the use memo's key covers every isa_inst field reg_uses reads");
static uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* The memo's issue facts (use_memo.fixed ...) for view v, whose uses m holds. */
static void issue_facts(const vt_timing *t, const vt_warp_view *v, use_memo *m) {
  const vt_config *cf = &t->cfg;
  uint32_t flags = v->flags;
  uint32_t lanes = cf->num_lanes ? cf->num_lanes : v->threads;
  /* SEW 64 (ISA 2025): each lane's element is a register pair, two passes' worth */
  uint32_t per = t->wide[v->in->id].kind ? wide_passes(t, v) : 1;
  m->fold = (flags & IF_VEC) ? div_up(v->threads, lanes) * per : 1;
  /* the collector takes the warp's next instruction after accepting, reading
   * (two cycles, only with register operands) and dispatching this one;
   * endprg and barriers have no operands */
  uint32_t nsrc = v->unit != UNIT_CTRL ? m->nsrc : 0;
  m->hold = nsrc ? cf->collector_cycles : (cf->collector_cycles > 2 ? cf->collector_cycles - 2 : 1);
  m->fixed = 1;
  m->occupy = m->fold;
  switch (v->unit) {
  case UNIT_VALU: m->lat = cf->lat_valu; break;
  case UNIT_VFPU: m->lat = cf->lat_vfpu; break;
  case UNIT_MUL: m->lat = cf->lat_mul; break;
  case UNIT_SFU: {
    uint32_t sfu = cf->num_sfu ? cf->num_sfu : (lanes / 4 ? lanes / 4 : 1);
    m->lat = cf->lat_sfu;
    m->occupy = (flags & IF_VEC) ? div_up(v->threads, sfu) * per : 1;
    break;
  }
  case UNIT_TENSOR: /* fixed unless it reads local memory (issue) */
    m->lat = cf->lat_alu;
    m->fixed = !(t->wide[v->in->id].kind && wide_smem_bytes(t, v->in));
    break;
  case UNIT_LSU: m->fixed = 0; break;
  default: m->lat = cf->lat_alu; break;
  }
}

static const use_memo *uses_of(const vt_timing *t, sm_t *sm, const vt_warp_view *v) {
  const isa_inst *in = v->in;
  uint64_t k0, k1;
  uint32_t k2;
  memcpy(&k0, in, 8);
  memcpy(&k1, (const char *)in + 8, 8);
  memcpy(&k2, (const char *)in + 24, 4);
  use_memo *m = &sm->memo[(v->pc >> 2) % USE_MEMO];
  if (!m->valid || m->k0 != k0 || m->k1 != k1 || m->k2 != k2 || m->flags != v->flags || m->vtype != v->vtype ||
      m->nt != v->threads) {
    *m = (use_memo){k0, k1, k2, v->flags, v->vtype, v->threads, 1, 0, 0, 0, 0, 0, 0, 0, {{0}}};
    m->nu = (uint8_t)reg_uses(t, in, v->flags, v->threads, v->vtype, m->u);
    for (int i = 0; i < m->nu; i++) m->nsrc += !m->u[i].dest;
    issue_facts(t, v, m);
  }
  return m;
}

/* Bytes the model's state takes for configuration c: per warp slot its
 * scoreboard (~5 KiB), per SM its caches and ports, and the L2. Checked
 * before anything is allocated: accepted configuration values (1024 SMs of
 * 1024 warps, 65536-set caches) would otherwise take gigabytes in seconds. */
static uint64_t footprint(const vt_config *c) {
  const uint64_t line = sizeof(vt_way);
  uint64_t sm = sizeof(sm_t) + (uint64_t)c->warps_per_sm * (sizeof(warp_t) + 1 + sizeof(uint32_t)) +
                (uint64_t)c->l1d_wshrs * 8 + 2ull * c->rf_banks * WB_RING * 8 + (uint64_t)c->l1d_sets * c->l1d_ways * line +
                (uint64_t)c->l1d_sets * sizeof(vt_set) +
                (c->l1i_sets ? (uint64_t)c->l1i_sets * (c->l1i_ways * line + sizeof(vt_set)) : 0);
  return (uint64_t)c->num_sm * sm + (uint64_t)c->l2_sets * c->l2_ways * line + (uint64_t)c->l2_sets * (8 + sizeof(vt_set));
}

vt_timing *vt_timing_attach(vt_device *d, vt_error *e) {
  const vt_config *cfg = vt_device_config(d);
  uint64_t need = footprint(cfg);
  if (need > VT_TIMING_MEM_MAX) {
    vt_fail(e, VT_ERR_CONFIG,
            "the timing model of this configuration would take %llu MiB (num_sm %u x warps_per_sm %u, L1 %u x %u, "
            "L2 %u x %u sets x ways), more than its %u MiB: lower num_sm, warps_per_sm or the cache sizes",
            (unsigned long long)(need >> 20), cfg->num_sm, cfg->warps_per_sm, cfg->l1d_sets, cfg->l1d_ways,
            cfg->l2_sets, cfg->l2_ways, (unsigned)(VT_TIMING_MEM_MAX >> 20));
    return NULL;
  }
  vt_timing *t = calloc(1, sizeof *t);
  if (!t) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model");
    return NULL;
  }
  t->d = d;
  t->code_gen = vt_step_code_gen_word(d);
  t->cfg = *vt_device_config(d);
  t->st.num_sm = t->cfg.num_sm;
  t->sms = calloc(t->cfg.num_sm, sizeof *t->sms);
  t->st.sm = calloc(t->cfg.num_sm, sizeof *t->st.sm);
  if (!t->sms || !t->st.sm) goto oom;
  t->frontend = t->cfg.l1i_sets > 0;
  t->bank_mask = (t->cfg.rf_banks & (t->cfg.rf_banks - 1)) == 0 ? t->cfg.rf_banks - 1 : 0;
  if (ms_init(&t->ms, &t->cfg, e)) goto fail;
  for (uint32_t s = 0; s < t->cfg.num_sm; s++) {
    sm_t *sm = &t->sms[s];
    uint32_t w = t->cfg.warps_per_sm;
    /* warp_t's first cache line is what the scan reads: on a line boundary */
    if (!(sm->warps = aligned_alloc(_Alignof(warp_t), w * sizeof *sm->warps))) goto oom;
    memset(sm->warps, 0, w * sizeof *sm->warps);
    if (!(sm->state = calloc(w, 1)) ||
        !(sm->pc = calloc(w, sizeof *sm->pc)) || !(sm->wshr = calloc(t->cfg.l1d_wshrs, sizeof *sm->wshr)) ||
        !(sm->wres = calloc(2u * t->cfg.rf_banks * WB_RING, sizeof *sm->wres)))
      goto oom;
    const vt_config *c = &t->cfg;
    if (cache_init(&sm->l1d, "L1 data cache", c->l1d_sets, c->l1d_ways, c->l1d_line, c->l1d_mshrs, e)) goto fail;
    if (t->frontend &&
        cache_init(&sm->l1i, "L1 instruction cache", c->l1i_sets, c->l1i_ways, c->l1i_line, c->l1i_mshrs, e))
      goto fail;
  }
  build_ops(t);
  if (tp_init(t, e)) goto fail;
  vt_device_set_launcher(d, timing_launch, t);
  return t;
oom:
  vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model");
fail:
  vt_timing_free(t);
  return NULL;
}

void vt_timing_free(vt_timing *t) {
  if (!t) return;
  if (t->d) vt_device_set_launcher(t->d, NULL, NULL);
  for (uint32_t s = 0; t->sms && s < t->cfg.num_sm; s++) {
    free(t->sms[s].warps);
    free(t->sms[s].state);
    free(t->sms[s].pc);
    free(t->sms[s].wshr);
    free(t->sms[s].wres);
    cache_free(&t->sms[s].l1d);
    cache_free(&t->sms[s].l1i);
  }
  tp_free(t);
  ms_free(&t->ms);
  free(t->sms);
  free(t->st.sm);
  free(t);
}

const vt_timing_stats *vt_timing_get_stats(const vt_timing *t) { return &t->st; }

void vt_timing_reset_stats(vt_timing *t) {
  t->st.cycles = t->st.launches = 0;
  memset(t->st.sm, 0, t->cfg.num_sm * sizeof *t->st.sm);
  memset(&t->st.mem, 0, sizeof t->st.mem);
  memset(&t->ms.st, 0, sizeof t->ms.st);
}

/* ---- one launch ------------------------------------------------------------------- */
typedef struct {
  uint64_t wake;      /* earliest cycle the warp could issue (NEVER: only an issue elsewhere helps) */
  vt_stall why;
  int stable;         /* why holds till wake unless the warp issues (hold_until) */
  uint8_t unit;       /* ... and wake is the busy unit's or collector's end (else UNIT_COUNT) */
  const use_memo *m;  /* when it can: the instruction's registers and issue facts (uses_of) */
} block_t;

/* 0 when warp w can issue its next instruction (view v) at cycle now on sm,
 * else why not and when that might change. */
static int blocked(const vt_timing *t, sm_t *sm, warp_t *w, const vt_warp_view *v, uint64_t now,
                   block_t *b) {
  b->stable = 0;
  b->unit = UNIT_COUNT;
  if (v->state == VT_WS_BARRIER) {
    b->wake = NEVER;
    b->why = VT_STALL_BARRIER;
    return 1;
  }
  if (w->dma_gate > now) { /* past cp_dma_mbarrier: its group's copies are not complete */
    b->wake = w->dma_gate;
    b->why = VT_STALL_BARRIER;
    b->stable = 1;
    return 1;
  }
  if (t->frontend) {
    if (w->ib_n && w->ib[w->ib_head].pc != v->pc) /* cannot happen with exact fetch; refetch to be safe */
      fe_reset_warp(w, v->pc);
    if (!w->ib_n || w->ib[w->ib_head].ready > now) {
      /* an empty ibuffer waits for the fetch stage, which reports its own wake-up */
      b->wake = w->ib_n ? w->ib[w->ib_head].ready : NEVER;
      b->why = w->flock && !w->ib_n ? VT_STALL_CONTROL : VT_STALL_FETCH;
      return 1;
    }
  } else if (w->fetch_at > now) {
    b->wake = w->fetch_at;
    b->why = VT_STALL_CONTROL;
    b->stable = 1;
    return 1;
  }
  const use_memo *m = b->m = uses_of(t, sm, v);
  const reg_use *u = m->u;
  uint64_t when = 0;
  int mem = 0;
  for (int i = 0; i < m->nu; i++)
    for (uint32_t k = 0; k < u[i].span; k++) {
      uint64_t rd = w->ready[u[i].file][u[i].reg + k], c = rd & ~READY_MEM;
      if (c > when) {
        when = c;
        mem = (int)(rd >> 63);
      }
    }
  if (when > now) {
    b->wake = when;
    b->why = mem ? VT_STALL_MEMORY : VT_STALL_SCOREBOARD;
    b->stable = 1;
    return 1;
  }
  uint64_t busy = sm->unit_free[v->unit] > w->coll_free ? sm->unit_free[v->unit] : w->coll_free;
  if (busy > now) { /* the unit, or the warp's collector unit */
    b->wake = busy;
    b->why = VT_STALL_STRUCTURAL;
    /* units and collectors only get busier: read again while held */
    b->stable = 1;
    b->unit = (uint8_t)v->unit;
    return 1;
  }
  if (v->unit == UNIT_LSU && dma_is_copy(v->in->id) && (busy = dma_full(t, (uint32_t)(sm - t->sms), now))) {
    b->wake = busy;
    b->why = VT_STALL_DMA;
    return 1;
  }
  return 0;
}

/* Issues the next instruction of warp slot s on SM sm at cycle now; b: its
 * registers, as blocked found them. Returns the core's step result. */
static int issue(vt_timing *t, uint32_t smi, uint32_t s, const vt_warp_view *v, const block_t *b, int queued,
                 uint64_t now, vt_error *e) {
  sm_t *sm = &t->sms[smi];
  vt_sm_timing *ss = &t->st.sm[smi];
  warp_t *w = &sm->warps[s];
  const vt_config *cf = &t->cfg;
  const use_memo *m = b->m;
  const reg_use *u = m->u;
  int nu = m->nu;
  uint32_t flags = v->flags;
  isa_unit unit = v->unit;
  isa_inst in; /* the view's pointer is the core's cache entry, which the step may reuse */
  if (!m->fixed) in = *v->in;
  const vt_commit *c = NULL; /* read only for the LSU: never a recorded (private) instruction */
  int rc = queued ? tp_count(t, smi, s, v->pc, e) : tp_exec(t, smi, s, &c, e);
  if (rc < 0) return -1;
  if (flags & (IF_BARRIER | IF_ENDPRG)) sm->bar_epoch++; /* may release warps waiting at a barrier */
  ss->issued++;
  /* a barrier's re-check at its release is the core's, not an issue of the
   * RTL's (its warp waits at the scheduler): logged once, when it arrives */
  if (t->ilog && !w->bar_since) fprintf(t->ilog, "%llu %u %u 0x%08x\n", (unsigned long long)now, smi, s, v->pc);
  if (t->frontend) {
    w->ib_head = (w->ib_head + 1) % IB_MAX;
    w->ib_n--;
  }
  /* operands first: bank conflicts delay the dispatch to the unit */
  uint32_t wait = unit == UNIT_CTRL ? 0 : oc_collect(t, smi, s, u, nu, now); /* endprg, barrier: no operands */
  uint64_t start = now + wait;
  w->coll_free = start + m->hold;
  uint32_t lat = m->lat, occupy = m->occupy;
  if (!m->fixed) {
    if (unit == UNIT_TENSOR) {
      /* a warp-group MMA64 first reads its local-memory operands through the
       * shared memory's banks, one pass per lds_banks words, on the LSU's port */
      uint32_t passes = div_up(wide_smem_bytes(t, &in), 4 * cf->lds_banks);
      uint64_t s0 = sm->unit_free[UNIT_LSU] > start ? sm->unit_free[UNIT_LSU] : start;
      sm->unit_free[UNIT_LSU] = s0 + passes;
      lat += (uint32_t)(s0 - start) + cf->lat_lsu_l1_hit + passes - 1;
      ss->shared_accesses++;
    } else if (dma_is_copy(in.id)) { /* queued on the copy engine: the warp goes on (dma.c) */
      dma_issue(t, smi, s, c, start);
      lat = 1;
      occupy = 1;
    } else { /* UNIT_LSU */
      /* lanes past the warp's threads that the RTL runs anyway (idle_lanes_access) */
      uint32_t lanes = cf->num_lanes ? cf->num_lanes : v->threads;
      uint32_t full = v->threads >= 32 ? ~0u : (1u << v->threads) - 1;
      uint32_t idle = cf->idle_lanes_access && (flags & IF_VEC) && lanes > v->threads && c->mask == full
                          ? lanes - v->threads : 0;
      lsu_timing(t, smi, c, flags, idle, start, &lat, &occupy);
    }
  }
  lat += m->fold - 1 + wait;
  if (t->tl && unit == UNIT_LSU && lat > cf->lat_lsu_l1_hit && !(flags & IF_STORE))
    tl_span(t, smi, s, "memory", now, now + lat, NULL, "load %u cycles", lat);
  w->issued++;
  w->hold_until = 0;
  if (t->tl && rc == 1)
    tl_span(t, smi, s, "warp", w->since, now + 1, NULL, "wg %u warp %u: %llu instructions", w->wg, w->wid,
            (unsigned long long)w->issued);
  sm->unit_free[unit] = start + occupy;
  uint64_t done = now + lat, last = done;
  for (int i = 0; i < nu; i++) {
    if (!u[i].dest) continue;
    uint64_t wb = oc_writeback(t, smi, s, &u[i], done, now);
    if (wb > last) last = wb;
    uint64_t mark = wb | (unit == UNIT_LSU ? READY_MEM : 0);
    for (uint32_t k = 0; k < u[i].span; k++) w->ready[u[i].file][u[i].reg + k] = mark;
  }
  if (last > sm->busy_until) sm->busy_until = last;
  return rc;
}

/* The next pc after a step is the warp's pc; a branch whose next pc is not
 * the fall-through, and every SIMT op, costs a fetch bubble. */
static void after_issue(vt_timing *t, uint32_t smi, uint32_t s, uint32_t id, uint32_t flags, uint32_t pc,
                        const vt_step_rec *r, uint64_t now) {
  warp_t *w = &t->sms[smi].warps[s];
  int parked = w->bar_since != 0;
  if (w->bar_since) { /* released: its re-check just issued */
    t->st.sm[smi].barrier_wait += now - w->bar_since;
    if (t->tl) tl_span(t, smi, s, "barrier", w->bar_since, now, NULL, "barrier");
    w->bar_since = 0;
  }
  sm_t *sm = &t->sms[smi];
  if (!(flags & CONTROL_FLAGS) && !t->frontend) return;
  vt_warp_view nv; /* state and pc only: the next scan decodes (and reports a fault) */
  if (r) { /* a record's: the core's warp is further on */
    nv.state = VT_WS_READY;
    nv.pc = r->npc;
  } else {
    nv.state = vt_step_state(t->d, smi, s, &nv.pc);
  }
  sm->state[s] = (uint8_t)nv.state;
  if (nv.state == VT_WS_EMPTY) return;
  sm->pc[s] = nv.pc;
  if (nv.state == VT_WS_BARRIER && (flags & IF_BARRIER)) w->bar_since = now + 1;
  else if (id == ISA_cp_dma_mbarrier) dma_release(t, smi, s, !parked, now);
  if (t->frontend) { /* fetch resumes when the op resolves, taken or not */
    if (flags & CONTROL_FLAGS) w->unlock_at = now + 1 + t->cfg.lat_branch;
  } else if ((flags & (IF_VBRANCH | IF_JOIN)) || ((flags & (IF_BRANCH | IF_JUMP)) && nv.pc != pc + 4)) {
    w->fetch_at = now + 1 + t->cfg.lat_branch;
  }
}

/* The view of warp w's next recorded instruction, as a peek had it. */
static void record_view(const warp_t *w, vt_warp_view *v) {
  const vt_step_rec *r = &w->q[w->qh];
  *v = (vt_warp_view){VT_WS_READY, r->pc, r->mask, w->threads, w->wg, w->wid, &r->in, r->unit, r->flags,
                      r->vtype, 1};
}

/* Runs warp w's private instructions from the one peeked (v) ahead, when
 * its view may come from their records: then v is the first's. */
static void fill_records(vt_timing *t, uint32_t smi, uint32_t s, warp_t *w, vt_warp_view *v) {
  uint32_t n = tp_ahead(t, smi, s, w->q, AHEAD_Q);
  if (!n) return;
  w->qh = 0;
  w->qn = n;
  w->qlo = w->qhi = w->q[0].pc;
  for (uint32_t i = 1; i < n; i++) {
    if (w->q[i].pc < w->qlo) w->qlo = w->q[i].pc;
    if (w->q[i].pc > w->qhi) w->qhi = w->q[i].pc;
  }
  record_view(w, v);
}

/* One thread: a store into code must not hit an instruction some warp ran
 * ahead and has not issued yet, which it would have changed (as the
 * functional launch's run-ahead, docs/simulator.md §2). */
static int code_store_check(vt_timing *t, uint32_t pc, vt_error *e) {
  uint32_t lo, hi;
  if (!vt_step_code_stored(t->d, NULL, &lo, &hi)) return 0;
  for (uint32_t smi = 0; smi < t->cfg.num_sm; smi++)
    for (uint32_t s = 0; s < t->cfg.warps_per_sm; s++) {
      const warp_t *w = &t->sms[smi].warps[s];
      if (!w->qn || w->qlo >= hi || (uint64_t)w->qhi + 4 <= lo) continue;
      return vt_fail(e, VT_ERR_ILLEGAL,
                     "store into code at 0x%08x..0x%08x (the instruction at 0x%08x), which warp %u of work-group %u "
                     "ran ahead of its issue (run-ahead, docs/simulator.md §2): the result would depend on it; "
                     "run_ahead = 0 runs every instruction as it issues",
                     lo, hi - 1, pc, w->wid, w->wg);
    }
  return 0;
}

static inline uint32_t code_gen(const vt_timing *t) { return __atomic_load_n(t->code_gen, __ATOMIC_RELAXED); }

/* One cycle of SM smi at now: scans the warp slots from the one after the
 * last issue, issues the first that can issue, runs the fetch stage.
 * Returns 1 when it issued, 0 when not (*why: the stall to charge, *wake:
 * lowered to the next cycle anything could change), -1 on a fault. */
int sm_cycle(vt_timing *t, uint32_t smi, uint64_t now, uint64_t *wake, vt_stall *why, int *ended, vt_error *e) {
  const vt_config *cf = &t->cfg;
  sm_t *sm = &t->sms[smi];
  vt_stall best = VT_STALL_IDLE;
  int picked = 0;
  /* the front end needs every slot's state; without it the scan stops at the pick */
  uint32_t nw = cf->warps_per_sm, gen = code_gen(t);
  uint32_t s = sm->rr;
  for (uint32_t k = 1; k <= nw && (!picked || t->frontend); k++) {
    if (++s == nw) s = 0;
    warp_t *w = &sm->warps[s];
    vt_warp_view v;
    if (w->hold_until && w->hold_gen == gen) { /* held: its state, pc and view are the last peek's */
      if (picked) continue;
      if (w->hold_until > now) {
        uint64_t until = w->hold_until;
        if (w->hold_unit < UNIT_COUNT) /* what blocked() finds now */
          until = sm->unit_free[w->hold_unit] > w->coll_free ? sm->unit_free[w->hold_unit] : w->coll_free;
        if (w->hold_why < best) best = (vt_stall)w->hold_why;
        if (until < *wake) *wake = until;
        continue;
      }
      v = w->view; /* the block is over: check again, without a peek */
      w->hold_until = 0;
    } else if (w->empty && w->empty_at == t->dispatches) {
      continue; /* still no warp: what a peek would say (state and pc kept) */
    } else if (w->bar_held && w->bar_epoch == sm->bar_epoch && w->bar_gen == gen) {
      if (picked) continue; /* still at its barrier: what blocked() says of it */
      if (VT_STALL_BARRIER < best) best = VT_STALL_BARRIER;
      continue;
    } else if (w->qn) { /* its next instruction ran ahead: the record's view */
      record_view(w, &v);
      sm->state[s] = VT_WS_READY;
      sm->pc[s] = v.pc;
      if (picked) continue;
    } else {
      if (tp_peek(t, smi, s, &v, e)) return -1;
      sm->state[s] = (uint8_t)v.state;
      sm->pc[s] = v.pc;
      w->empty = v.state == VT_WS_EMPTY;
      w->empty_at = t->dispatches;
      if (w->empty) continue;
      if (!w->seen || w->wg != v.wg || w->wid != v.wid) { /* a newly dispatched warp */
        memset(w, 0, offsetof(warp_t, q));
        w->seen = 1;
        w->wg = v.wg;
        w->wid = v.wid;
        w->threads = v.threads;
        fe_reset_warp(w, v.pc);
        w->fwait = now;
        w->since = now;
      }
      w->bar_held = v.state == VT_WS_BARRIER;
      w->bar_epoch = sm->bar_epoch;
      w->bar_gen = gen;
      if (v.priv && v.state == VT_WS_READY) fill_records(t, smi, s, w, &v);
      if (picked) continue;
    }
    block_t b;
    if (blocked(t, sm, w, &v, now, &b)) {
      if (b.why < best) best = b.why;
      if (b.wake < *wake) *wake = b.wake;
      if (b.stable) {
        w->hold_until = b.wake;
        w->hold_gen = gen;
        w->hold_why = (uint8_t)b.why;
        w->hold_unit = b.unit;
        if (v.in != &w->vin) { /* keep a copy: the core's decode cache entry may be reused */
          w->vin = *v.in;
          w->view = v;
          w->view.in = &w->vin;
        }
      }
      continue;
    }
    uint32_t flags = v.flags, pc = v.pc, id = v.in->id;
    const vt_step_rec *qr = w->qn ? &w->q[w->qh] : NULL; /* then v is its view */
    int r = issue(t, smi, s, &v, &b, qr != NULL, now, e);
    if (r < 0) return -1;
    if (!qr && code_gen(t) != gen && tp_threads(t) == 1 && code_store_check(t, pc, e)) return -1;
    after_issue(t, smi, s, id, flags, pc, qr, now);
    if (qr) {
      w->qh++;
      w->qn--;
    }
    if (r == 1) *ended = 1;
    sm->rr = s;
    picked = 1;
  }
  if (t->frontend) fe_fetch(t, smi, now, wake);
  *why = best;
  return picked;
}

static int timing_launch(void *user, vt_device *d, const vt_launch *l, vt_error *e) {
  vt_timing *t = user;
  const vt_config *cf = &t->cfg;
  if (vt_step_begin(d, l, e)) return -1;
  for (uint32_t s = 0; s < cf->num_sm; s++) {
    sm_t *sm = &t->sms[s];
    memset(sm->unit_free, 0, sizeof sm->unit_free);
    sm->busy_until = 0;
    sm->dma_free = 0;
    memset(sm->dma_q, 0, sizeof sm->dma_q);
    sm->rr = cf->warps_per_sm - 1;
    sm->fcur = 0;
    sm->fport_free = 0;
    memset(sm->wshr, 0, cf->l1d_wshrs * sizeof *sm->wshr);
    oc_reset(t, s);
    /* the RTL invalidates L1 at the end of every launch: each starts cold */
    cache_invalidate(&sm->l1d);
    if (t->frontend) cache_invalidate(&sm->l1i);
    for (uint32_t w = 0; w < cf->warps_per_sm; w++)
      sm->warps[w].seen = sm->warps[w].hold_until = sm->warps[w].qn = sm->warps[w].bar_held = sm->warps[w].empty = 0;
    t->st.sm[s].stall[VT_STALL_IDLE] += cf->lat_launch;
  }
  ms_begin(&t->ms);
  return tp_launch(t, e); /* the cycles, over host threads (tpar.c) */
}
