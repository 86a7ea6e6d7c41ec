/* The timing model's SM pipeline: per-warp in-order issue under a register
 * scoreboard, one round-robin issue per SM and cycle, execution units with
 * fixed latencies and folding over the lanes, an L1 data cache with
 * coalescing of lane addresses into lines (docs/timing.md). */
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#include "l1cache.h"

#define NREG 256
#define NEVER UINT64_MAX

/* Register operands of one instruction kind: field and file (0 = x/f, which
 * the ISS mirrors into each other, 1 = v). */
typedef struct {
  uint8_t n;
  uint8_t field[ISA_MAX_OPNDS]; /* 0 rd, 1 rs1, 2 rs2, 3 rs3 */
  uint8_t file[ISA_MAX_OPNDS];
  uint8_t dest[ISA_MAX_OPNDS];
} reg_ops;

typedef struct {
  int seen;           /* the slot's warp (wg, wid) is known */
  uint32_t wg, wid;
  uint64_t ready[2][NREG]; /* cycle a register's pending write completes */
  uint8_t from_mem[2][NREG];
  uint64_t fetch_at;  /* first cycle after a fetch bubble */
  uint64_t bar_since; /* cycle it started waiting at a barrier, 0 = not waiting */
} warp_t;

typedef struct {
  warp_t *warps;
  uint64_t unit_free[UNIT_COUNT];
  uint32_t rr;        /* slot issued last */
  uint64_t busy_until; /* last completion of an instruction issued here */
  vt_l1 l1;
} sm_t;

struct vt_timing {
  vt_device *d;
  vt_config cfg;
  sm_t *sms;
  reg_ops ops[ISA_COUNT];
  vt_timing_stats st;
};

static const char *const stall_names[VT_STALL_COUNT] = {"scoreboard", "memory", "structural",
                                                        "barrier",    "control", "idle"};
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
      r->n++;
    }
  }
}

static uint32_t reg_of(const isa_inst *in, uint8_t field) {
  return field == 0 ? in->rd : field == 1 ? in->rs1 : field == 2 ? in->rs2 : in->rs3;
}

vt_timing *vt_timing_attach(vt_device *d, vt_error *e) {
  vt_timing *t = calloc(1, sizeof *t);
  if (!t) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model");
    return NULL;
  }
  t->d = d;
  t->cfg = *vt_device_config(d);
  t->st.num_sm = t->cfg.num_sm;
  t->sms = calloc(t->cfg.num_sm, sizeof *t->sms);
  t->st.sm = calloc(t->cfg.num_sm, sizeof *t->st.sm);
  if (!t->sms || !t->st.sm) goto oom;
  for (uint32_t s = 0; s < t->cfg.num_sm; s++) {
    if (!(t->sms[s].warps = calloc(t->cfg.warps_per_sm, sizeof *t->sms[s].warps))) goto oom;
    if (l1_init(&t->sms[s].l1, t->cfg.l1d_sets, t->cfg.l1d_ways, t->cfg.l1d_line, e)) goto fail;
  }
  build_ops(t);
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
    l1_free(&t->sms[s].l1);
  }
  free(t->sms);
  free(t->st.sm);
  free(t);
}

const vt_timing_stats *vt_timing_get_stats(const vt_timing *t) { return &t->st; }

void vt_timing_reset_stats(vt_timing *t) {
  t->st.cycles = t->st.launches = 0;
  memset(t->st.sm, 0, t->cfg.num_sm * sizeof *t->st.sm);
}

/* ---- one launch ------------------------------------------------------------------- */
typedef struct {
  uint64_t wake;      /* earliest cycle the warp could issue (NEVER: only an issue elsewhere helps) */
  vt_stall why;
} block_t;

/* 0 when warp w can issue its next instruction (view v) at cycle now on sm,
 * else why not and when that might change. */
static int blocked(const vt_timing *t, const sm_t *sm, const warp_t *w, const vt_warp_view *v,
                   uint64_t now, block_t *b) {
  if (v->state == VT_WS_BARRIER) {
    b->wake = NEVER;
    b->why = VT_STALL_BARRIER;
    return 1;
  }
  if (w->fetch_at > now) {
    b->wake = w->fetch_at;
    b->why = VT_STALL_CONTROL;
    return 1;
  }
  const reg_ops *r = &t->ops[v->in->id];
  uint64_t when = 0;
  int mem = 0;
  for (int i = 0; i < r->n; i++) {
    uint32_t reg = reg_of(v->in, r->field[i]);
    if (r->file[i] == 0 && reg == 0) continue; /* x0 */
    uint64_t rd = w->ready[r->file[i]][reg];
    if (rd > when) {
      when = rd;
      mem = w->from_mem[r->file[i]][reg];
    }
  }
  if ((v->flags & IF_VEC) && !v->in->vm && !(v->flags & IF_CUSTOMV) && w->ready[1][0] > when) {
    when = w->ready[1][0];
    mem = w->from_mem[1][0];
  }
  if (when > now) {
    b->wake = when;
    b->why = mem ? VT_STALL_MEMORY : VT_STALL_SCOREBOARD;
    return 1;
  }
  if (sm->unit_free[v->unit] > now) {
    b->wake = sm->unit_free[v->unit];
    b->why = VT_STALL_STRUCTURAL;
    return 1;
  }
  return 0;
}

static uint32_t div_up(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

/* Timing of the memory accesses of one instruction: distinct lines (the
 * coalesced requests) through the L1, or the local window's fixed latency. */
static void mem_timing(vt_timing *t, sm_t *sm, vt_sm_timing *ss, const vt_commit *c, uint32_t flags,
                       uint32_t *lat, uint32_t *occupy) {
  const vt_config *cf = &t->cfg;
  uint32_t lines[VT_MAX_LANES * 2], n = 0;
  int shared = 0, miss = 0;
  for (int i = 0; i < c->nmem; i++) {
    uint32_t a = c->mem[i].addr;
    if (a - cf->lds_base < cf->lds_window) {
      shared = 1;
      continue;
    }
    uint32_t ends[2] = {a >> sm->l1.line_shift, (a + c->mem[i].size - 1) >> sm->l1.line_shift};
    for (int k = 0; k < 2; k++) {
      uint32_t j = 0;
      while (j < n && lines[j] != ends[k]) j++;
      if (j == n) lines[n++] = ends[k];
    }
  }
  int load = !(flags & IF_STORE) || (flags & IF_AMO);
  for (uint32_t j = 0; j < n; j++) {
    int hit = !(flags & IF_AMO) && l1_access(&sm->l1, lines[j] << sm->l1.line_shift, load);
    if (hit) ss->l1_hits++;
    else ss->l1_misses++;
    miss |= !hit;
  }
  if (shared) ss->shared_accesses++;
  *occupy = n ? n : 1;
  *lat = cf->lat_lsu_l1_hit + (miss ? cf->lat_dram : 0) + (n > 1 ? n - 1 : 0);
}

/* Issues the next instruction of warp slot s on SM sm at cycle now. Returns
 * the core's step result. */
static int issue(vt_timing *t, uint32_t smi, uint32_t s, const vt_warp_view *v, uint64_t now, vt_error *e) {
  sm_t *sm = &t->sms[smi];
  vt_sm_timing *ss = &t->st.sm[smi];
  warp_t *w = &sm->warps[s];
  const vt_config *cf = &t->cfg;
  isa_inst in = *v->in; /* the view's pointer is the core's cache entry */
  uint32_t flags = v->flags;
  isa_unit unit = v->unit;
  const vt_commit *c;
  int rc = vt_step_exec(t->d, smi, s, &c, e);
  if (rc < 0) return -1;
  ss->issued++;
  uint32_t lanes = cf->num_lanes ? cf->num_lanes : v->threads;
  uint32_t fold = (flags & IF_VEC) ? div_up(v->threads, lanes) : 1;
  uint32_t lat, occupy = fold;
  switch (unit) {
  case UNIT_VALU: lat = cf->lat_valu; break;
  case UNIT_VFPU: lat = cf->lat_vfpu; break;
  case UNIT_MUL: lat = cf->lat_mul; break;
  case UNIT_SFU: {
    uint32_t sfu = cf->num_sfu ? cf->num_sfu : (lanes / 4 ? lanes / 4 : 1);
    lat = cf->lat_sfu;
    occupy = (flags & IF_VEC) ? div_up(v->threads, sfu) : 1;
    break;
  }
  case UNIT_LSU: mem_timing(t, sm, ss, c, flags, &lat, &occupy); break;
  default: lat = cf->lat_alu; break;
  }
  lat += fold - 1;
  sm->unit_free[unit] = now + occupy;
  uint64_t done = now + lat;
  const reg_ops *r = &t->ops[in.id];
  for (int i = 0; i < r->n; i++) {
    if (!r->dest[i]) continue;
    uint32_t reg = reg_of(&in, r->field[i]);
    if (r->file[i] == 0 && reg == 0) continue;
    w->ready[r->file[i]][reg] = done;
    w->from_mem[r->file[i]][reg] = unit == UNIT_LSU;
  }
  if (done > sm->busy_until) sm->busy_until = done;
  return rc;
}

/* The next pc after a step is the warp's pc; a branch whose next pc is not
 * the fall-through, and every SIMT op, costs a fetch bubble. */
static void after_issue(vt_timing *t, uint32_t smi, uint32_t s, uint32_t flags, uint32_t pc, uint64_t now,
                        vt_error *e) {
  warp_t *w = &t->sms[smi].warps[s];
  if (w->bar_since) { /* released: its re-check just issued */
    t->st.sm[smi].barrier_wait += now - w->bar_since;
    w->bar_since = 0;
  }
  if (!(flags & (IF_BRANCH | IF_JUMP | IF_VBRANCH | IF_JOIN | IF_BARRIER))) return;
  vt_warp_view nv;
  if (vt_step_peek(t->d, smi, s, &nv, e) || nv.state == VT_WS_EMPTY) return;
  if (nv.state == VT_WS_BARRIER) w->bar_since = now + 1;
  else if ((flags & (IF_VBRANCH | IF_JOIN)) || ((flags & (IF_BRANCH | IF_JUMP)) && nv.pc != pc + 4))
    w->fetch_at = now + 1 + t->cfg.lat_branch;
}

static int timing_launch(void *user, vt_device *d, const vt_launch *l, vt_error *e) {
  vt_timing *t = user;
  const vt_config *cf = &t->cfg;
  if (vt_step_begin(d, l, e)) return -1;
  for (uint32_t s = 0; s < cf->num_sm; s++) {
    sm_t *sm = &t->sms[s];
    memset(sm->unit_free, 0, sizeof sm->unit_free);
    sm->busy_until = 0;
    sm->rr = cf->warps_per_sm - 1;
    l1_invalidate(&sm->l1); /* the RTL invalidates L1 at the end of every launch */
    for (uint32_t w = 0; w < cf->warps_per_sm; w++) sm->warps[w].seen = 0;
  }
  uint64_t now = 0, last_issue = 0;
  vt_stall *why = calloc(cf->num_sm, sizeof *why);
  if (!why) {
    vt_step_abort(d);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model");
  }
  int rc = 0, done = 0;
  while (!done) {
    int issued_any = 0, ended = 0;
    uint64_t wake = NEVER;
    for (uint32_t smi = 0; smi < cf->num_sm; smi++) {
      sm_t *sm = &t->sms[smi];
      vt_stall best = VT_STALL_IDLE;
      int picked = 0;
      for (uint32_t k = 1; k <= cf->warps_per_sm && !picked; k++) {
        uint32_t s = (sm->rr + k) % cf->warps_per_sm;
        vt_warp_view v;
        if (vt_step_peek(d, smi, s, &v, e)) goto fail;
        if (v.state == VT_WS_EMPTY) continue;
        warp_t *w = &sm->warps[s];
        if (!w->seen || w->wg != v.wg || w->wid != v.wid) { /* a newly dispatched warp */
          memset(w, 0, sizeof *w);
          w->seen = 1;
          w->wg = v.wg;
          w->wid = v.wid;
        }
        block_t b;
        if (blocked(t, sm, w, &v, now, &b)) {
          if (b.why < best) best = b.why;
          if (b.wake < wake) wake = b.wake;
          continue;
        }
        uint32_t flags = v.flags, pc = v.pc;
        int r = issue(t, smi, s, &v, now, e);
        if (r < 0) goto fail;
        after_issue(t, smi, s, flags, pc, now, e);
        if (r == 1) ended = 1;
        sm->rr = s;
        picked = 1;
      }
      if (picked) issued_any = 1, last_issue = now;
      else t->st.sm[smi].stall[best]++;
      why[smi] = picked ? VT_STALL_COUNT : best;
    }
    if (ended || issued_any) {
      if (vt_step_retire(d, &done, e)) goto fail_retired;
    }
    if (done) break;
    if (issued_any) {
      now++;
      continue;
    }
    if (wake == NEVER) { /* every warp waits at a barrier nobody can release */
      vt_step_deadlock(d, e);
      goto fail_retired;
    }
    /* nothing can change before `wake`: skip there, charging each SM its reason */
    for (uint32_t smi = 0; smi < cf->num_sm; smi++)
      if (why[smi] < VT_STALL_COUNT) t->st.sm[smi].stall[why[smi]] += wake - now - 1;
    now = wake;
  }
  {
    uint64_t end = last_issue + 1;
    for (uint32_t smi = 0; smi < cf->num_sm; smi++)
      if (t->sms[smi].busy_until > end) end = t->sms[smi].busy_until;
    for (uint32_t smi = 0; smi < cf->num_sm; smi++) {
      vt_sm_timing *ss = &t->st.sm[smi];
      ss->cycles += end;
      ss->stall[VT_STALL_IDLE] += end - (now + 1); /* the drain after the last issue */
    }
    t->st.cycles += end;
    t->st.launches++;
  }
  free(why);
  return rc;
fail:
  vt_step_abort(d);
fail_retired:
  free(why);
  return -1;
}
