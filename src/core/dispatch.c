/* A launch: CTA dispatch of work-groups to SMs, the warp scheduler,
 * work-group completion, deadlock and step-limit detection.
 *
 * Scheduling: work-groups are dispatched in linear id order (x fastest) to
 * the SM with the most free warp slots that also has a free work-group slot
 * and enough local memory. Every round, each resident unfinished warp
 * (SMs in order, warp slots in order, so the warps of a group interleave in
 * warp order) executes one instruction; finished groups free their slots at
 * the end of the round and waiting groups are dispatched. The order is
 * deterministic; results of race-free kernels do not depend on it.
 *
 * Address spaces (see route() in exec_mem.c): every work-group reads CSR
 * lds = lds_base, as in the ISS, but the local window is backed per
 * resident group; private memory is ordinary device memory, and group b
 * reads CSR pds = pds_base + b * pds_size * numt * numw (the hardware
 * host's formula), so concurrent groups never collide. */
#include <stdio.h>
#include <stdlib.h>

#include "core.h"

/* crt0 puts a 1 KiB scalar stack per warp at CSR_LDS + wid * 1 KiB, whether
 * or not the launch's local size covers it (the ISS maps 256 MiB there), so
 * a group's local store is at least that large. */
#define VT_WARP_STACK_BYTES 1024u

/* The private region [pds_base, ...) must be one mapped, writable region
 * (the private buffer), or a kernel's private stores would land in other
 * buffers. Its size picks the layout (vt_pds_layout, docs/isa.md §7.24):
 * a slice per group, else a slice per resident slot, else one slice that
 * the groups use one after another. A launch without private memory
 * (pds_size 0) gets no check. */
static int check_private(vt_device *d, const vt_launch *l, vt_error *e) {
  const vt_config *c = &d->cfg;
  uint64_t stride = (uint64_t)l->pds_size * l->num_threads * l->num_warps;
  uint64_t groups = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  d->pds_stride = 0;
  d->pds_layout = VT_PDS_PER_GROUP;
  if (!stride) return 0;
  const vt_region *r = mem_region(&d->mem, l->pds_base);
  uint64_t room = r ? (uint64_t)r->base + r->size - l->pds_base : 0;
  unsigned rw = VT_PERM_R | VT_PERM_W;
  uint64_t slices = r && (r->perm & rw) == rw ? room / stride : 0;
  if (!slices)
    return vt_fail(e, VT_ERR_CONFIG,
                   "launch: the private region at 0x%08x does not hold one work-group's 0x%llx bytes "
                   "(pds_size 0x%x x %u threads x %u warps) in one mapped read-write buffer",
                   l->pds_base, (unsigned long long)stride, l->pds_size, l->num_threads, l->num_warps);
  if (slices >= groups) d->pds_layout = VT_PDS_PER_GROUP;
  else if (slices >= (uint64_t)c->num_sm * c->wg_slots_per_sm) d->pds_layout = VT_PDS_PER_SLOT;
  else d->pds_layout = VT_PDS_SHARED;
  d->pds_stride = (uint32_t)stride;
  return 0;
}

/* A launch the configuration cannot hold is refused with the key to change
 * and the value that would do (the corpus case vecadd_64b32w32t needs 32
 * warp slots; the default is the RTL's 8). */
static int check_launch(vt_device *d, const vt_launch *l, vt_error *e) {
  const vt_config *c = &d->cfg;
  if (l->num_threads < 1 || l->num_threads > 32)
    return vt_fail(e, VT_ERR_CONFIG, "launch: %u threads per warp (a warp has 1..32)", l->num_threads);
  if (l->num_threads > c->max_threads)
    return vt_fail(e, VT_ERR_CONFIG,
                   "launch: %u threads per warp, this device allows 1..%u: set max_threads to at least %u "
                   "(ventus run -c max_threads=%u)",
                   l->num_threads, c->max_threads, l->num_threads, l->num_threads);
  if (l->num_warps < 1) return vt_fail(e, VT_ERR_CONFIG, "launch: a work-group of 0 warps");
  if (l->num_warps > c->warps_per_sm)
    return vt_fail(e, VT_ERR_CONFIG,
                   "launch: a work-group of %u warps does not fit an SM with %u warp slots: set warps_per_sm "
                   "to at least %u (ventus run -c warps_per_sm=%u)",
                   l->num_warps, c->warps_per_sm, l->num_warps, l->num_warps);
  if (!l->grid[0] || !l->grid[1] || !l->grid[2])
    return vt_fail(e, VT_ERR_CONFIG, "launch: empty grid of %ux%ux%u work-groups", l->grid[0], l->grid[1],
                   l->grid[2]);
  uint64_t xy = (uint64_t)l->grid[0] * l->grid[1];
  if (xy > 0xffffffffu || xy * l->grid[2] > 0xffffffffu) /* group ids are 32-bit */
    return vt_fail(e, VT_ERR_CONFIG, "launch: grid of %ux%ux%u work-groups has more than 2^32-1 groups",
                   l->grid[0], l->grid[1], l->grid[2]);
  uint64_t need = l->lds_size;
  if (need < (uint64_t)l->num_warps * VT_WARP_STACK_BYTES) need = (uint64_t)l->num_warps * VT_WARP_STACK_BYTES;
  need = (need + 4095) & ~(uint64_t)4095;
  if (need > c->lds_window)
    return vt_fail(e, VT_ERR_CONFIG,
                   "launch: a work-group needs %llu bytes of local memory, the local window holds %u "
                   "(set lds_window)",
                   (unsigned long long)need, c->lds_window);
  if (need > c->lds_bytes_per_sm)
    return vt_fail(e, VT_ERR_CONFIG,
                   "launch: a work-group needs %llu bytes of local memory, an SM has %u: set lds_bytes_per_sm "
                   "to at least %llu (ventus run -c lds_bytes_per_sm=%llu)",
                   (unsigned long long)need, c->lds_bytes_per_sm, (unsigned long long)need,
                   (unsigned long long)need);
  d->lds_alloc = (uint32_t)need;
  /* the CTA scheduler's register budget (runtime.md: per-WG total = per-warp usage x warps) */
  const char *file[2] = {"vector", "scalar"}, *key[2] = {"vgprs_per_sm", "sgprs_per_sm"};
  uint32_t per[2] = {l->vgprs, l->sgprs}, have[2] = {c->vgprs_per_sm, c->sgprs_per_sm};
  for (int k = 0; k < 2; k++) {
    uint64_t regs = (uint64_t)per[k] * l->num_warps;
    if (have[k] && regs > have[k])
      return vt_fail(e, VT_ERR_CONFIG,
                     "launch: a work-group needs %llu %s registers (%u per warp x %u warps), an SM has %u: "
                     "set %s to at least %llu",
                     (unsigned long long)regs, file[k], per[k], l->num_warps, have[k], key[k],
                     (unsigned long long)regs);
  }
  return check_private(d, l, e);
}

void wg_release(vt_device *d, vt_wg *wg) {
  vt_sm *sm = &d->sms[wg->sm];
  for (uint32_t i = 0; i < wg->nwarps; i++) {
    vt_warp *w = wg->warps[i];
    resv_drop(d, w);
    w->active = 0;
  }
  sm->free_warps += wg->nwarps;
  sm->free_wgs++;
  sm->lds_used -= wg->lds_alloc;
  sm->vgprs_used -= wg->vgprs;
  sm->sgprs_used -= wg->sgprs;
  if (wg->lds_far.n) { /* shared by host threads: no write (and no line taken from them) when it holds none */
    __atomic_fetch_sub(&d->lds_far_pages, wg->lds_far.n, __ATOMIC_RELAXED);
    sparse_clear(&wg->lds_far);
  }
  wg->active = 0;
}

static uint32_t resident_groups(const vt_device *d) {
  uint32_t n = 0;
  for (uint32_t s = 0; s < d->cfg.num_sm; s++) n += d->cfg.wg_slots_per_sm - d->sms[s].free_wgs;
  return n;
}

/* registers a group holds: only where a budget is set (check_launch made it fit one SM) */
static uint32_t group_vgprs(const vt_device *d) { return d->cfg.vgprs_per_sm ? d->l.vgprs * d->l.num_warps : 0; }
static uint32_t group_sgprs(const vt_device *d) { return d->cfg.sgprs_per_sm ? d->l.sgprs * d->l.num_warps : 0; }

int sm_has_room(const vt_device *d, uint32_t s) {
  const vt_config *c = &d->cfg;
  const vt_sm *sm = &d->sms[s];
  uint32_t vgprs = group_vgprs(d), sgprs = group_sgprs(d);
  return sm->free_wgs && sm->free_warps >= d->l.num_warps && sm->lds_used + d->lds_alloc <= c->lds_bytes_per_sm &&
         !(vgprs && sm->vgprs_used + vgprs > c->vgprs_per_sm) && !(sgprs && sm->sgprs_used + sgprs > c->sgprs_per_sm);
}

/* Dispatches waiting groups while some SM has room; -1 on OOM. */
static int dispatch(vt_device *d, vt_error *e) {
  const vt_config *c = &d->cfg;
  while (d->wg_next < d->wg_total) {
    if (d->pds_layout == VT_PDS_SHARED && resident_groups(d)) return 0;
    int best = -1;
    for (uint32_t s = 0; s < c->num_sm; s++)
      if (sm_has_room(d, s) && (best < 0 || d->sms[s].free_warps > d->sms[best].free_warps)) best = (int)s;
    if (best < 0) return 0;
    if (wg_place(d, &d->w0, (uint32_t)best, d->wg_next, e)) return -1;
    d->wg_next++;
  }
  return 0;
}

int wg_place(vt_device *d, vt_worker *k, uint32_t best, uint64_t id, vt_error *e) {
  const vt_config *c = &d->cfg;
  const vt_launch *l = &d->l;
  uint32_t vgprs = group_vgprs(d), sgprs = group_sgprs(d);
  vt_sm *sm = &d->sms[best];
  vt_wg *wg = NULL;
  for (uint32_t g = 0; g < c->wg_slots_per_sm && !wg; g++)
    if (!sm->wgs[g].active) wg = &sm->wgs[g];
  if (!wg->warps) { /* first use of the slot (see vt_device_create) */
    if (!(wg->warps = calloc(c->warps_per_sm, sizeof *wg->warps)) ||
        !(wg->mbar = calloc((c->warps_per_sm + 3) / 4, sizeof *wg->mbar)))
      return vt_fail(e, VT_ERR_NOMEM, "out of memory for a work-group slot");
    wg->sm = (uint32_t)best;
    wg->slot = (uint32_t)(wg - sm->wgs);
  }
  if (wg->lds_alloc < d->lds_alloc || !wg->lds) {
    /* on pages of its own, as the register files (warp_alloc) */
    void *mem;
    uint8_t *p = vt_calloc_pages(d->lds_alloc, &mem);
    if (!p) return vt_fail(e, VT_ERR_NOMEM, "out of memory for local memory");
    free(wg->lds_mem);
    wg->lds = p;
    wg->lds_mem = mem;
  }
  /* every register file first: a failure leaves no half-made group behind */
  uint32_t need = l->num_warps;
  for (uint32_t s = 0; s < c->warps_per_sm && need; s++)
    if (!sm->warps[s].active) {
      if (warp_alloc(d, &sm->warps[s], s, e)) return -1;
      need--;
    }
  wg->lds_alloc = d->lds_alloc;
  memset(wg->lds, 0, wg->lds_alloc);
  wg->active = 1;
  wg->id = (uint32_t)id;
  wg->nwarps = l->num_warps;
  wg->ended = wg->arrived = wg->bar_gen = wg->nparked = wg->nresv = 0;
  memset(wg->mbar, 0, (l->num_warps + 3) / 4 * sizeof *wg->mbar);
  /* warps_last_first: the RTL's cu_handler.v dispatches a group's warps
   * from the last down and cta2warp.v gives each the lowest free slot */
  uint32_t j = 0;
  for (uint32_t s = 0; s < c->warps_per_sm && j < l->num_warps; s++) {
    vt_warp *w = &sm->warps[s];
    if (w->active) continue;
    uint32_t wid = c->warps_last_first ? l->num_warps - 1 - j : j;
    warp_reset(d, k, w, wg, wid);
    wg->warps[wid] = w;
    j++;
  }
  sm->free_warps -= l->num_warps;
  sm->free_wgs--;
  sm->lds_used += wg->lds_alloc;
  wg->vgprs = vgprs;
  wg->sgprs = sgprs;
  sm->vgprs_used += vgprs;
  sm->sgprs_used += sgprs;
  k->st->warps += l->num_warps;
  return 0;
}

static void abort_launch(vt_device *d) {
  for (uint32_t s = 0; s < d->cfg.num_sm; s++)
    for (uint32_t g = 0; g < d->cfg.wg_slots_per_sm; g++)
      if (d->sms[s].wgs[g].active) wg_release(d, &d->sms[s].wgs[g]);
}

/* Reports the first stuck group in SM and slot order, or with `lowest` the
 * one of lowest id (a parallel worker's, independent of its slots). */
int launch_deadlock(vt_device *d, vt_worker *k, uint32_t first, uint32_t step, int lowest, uint32_t *wgid,
                    vt_error *e) {
  vt_wg *pick = NULL;
  for (uint32_t s = first; s < d->cfg.num_sm; s += step)
    for (uint32_t g = 0; g < d->cfg.wg_slots_per_sm; g++) {
      vt_wg *wg = &d->sms[s].wgs[g];
      if (!wg->active || (pick && (!lowest || wg->id > pick->id))) continue;
      for (uint32_t i = 0; i < wg->nwarps; i++)
        if (!wg->warps[i]->ended && (wg->warps[i]->bar_wait || wg->warps[i]->mbar_wait)) {
          pick = wg;
          break;
        }
    }
  *wgid = pick ? pick->id : 0;
  if (!pick) return vt_fail(e, VT_ERR_DEADLOCK, "no warp can make progress");
  if (mbar_deadlock(d, k, pick, e)) return -1;
  char waiting[160] = "", ended[160] = "";
  size_t nw = 0, ne = 0;
  uint32_t pc = 0, insn = 0;
  for (uint32_t i = 0; i < pick->nwarps; i++) {
    vt_warp *w = pick->warps[i];
    if (w->ended) {
      if (ne < sizeof ended - 8) ne += (size_t)snprintf(ended + ne, sizeof ended - ne, " %u", i);
    } else if (w->bar_wait) {
      if (nw < sizeof waiting - 8) nw += (size_t)snprintf(waiting + nw, sizeof waiting - nw, " %u", i);
      pc = w->pc;
    }
  }
  int dummy;
  const uint8_t *h = mem_host_t(&d->mem, k->tlb, pc, 4, ACC_X, &dummy);
  if (h) insn = ld_u32(h);
  vt_fail(e, VT_ERR_DEADLOCK,
          "barrier can never complete: work-group %u warps%s wait, warps%s ended "
          "(barrier_counts_ended = 0)",
          pick->id, waiting, ne ? ended : " none");
  vt_err_ctx(e, (int)d->l.kernel_id, (int)pick->id, -1, -1, pc, insn);
  return -1;
}

/* Checks the launch and sets its state up. */
static int launch_setup(vt_device *d, const vt_launch *l, vt_error *e) {
  if (check_launch(d, l, e)) return -1;
  d->l = *l;
  d->steps = 0;
  d->w0.smc = 0;
  mem_set_ctx(&d->mem, l->ctx);
  if (d->w0.code_gen != d->mem.code_gen) { /* a parallel launch's workers marked code */
    d->w0.code_gen = d->mem.code_gen;
    code_tlb_protect(&d->mem, d->mem.tlb);
  }
  icache_clear(d);
  abort_launch(d); /* defensive: nothing should be resident */
  d->wg_total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  d->wg_next = d->wg_done = 0;
  d->stats.kernels++;
  return 0;
}

/* Checks the launch and dispatches the first groups. */
int launch_begin(vt_device *d, const vt_launch *l, vt_error *e) {
  if (launch_setup(d, l, e)) return -1;
  return dispatch(d, e);
}

/* Retires finished groups (setting *progress), then refills the SMs. */
int launch_retire(vt_device *d, int *progress, vt_error *e) {
  const vt_config *c = &d->cfg;
  for (uint32_t s = 0; s < c->num_sm; s++)
    for (uint32_t g = 0; g < c->wg_slots_per_sm; g++) {
      vt_wg *wg = &d->sms[s].wgs[g];
      if (!wg->active || wg->ended < wg->nwarps) continue;
      wg_release(d, wg);
      d->wg_done++;
      d->stats.wgs++;
      if (d->progress_fn) d->progress_fn(d->progress_user, d->wg_done, d->wg_total, d->stats.warp_insns);
      *progress = 1;
    }
  return dispatch(d, e);
}

/* The step-limit check shared by both loops. */
static int step_limit_at(vt_device *d, vt_warp *w, uint32_t pc, vt_error *e) {
  const vt_config *c = &d->cfg;
  if (!c->max_steps || d->steps < c->max_steps) return 0;
  vt_fail(e, VT_ERR_STEP_LIMIT, "step limit of %llu warp-instructions reached", (unsigned long long)c->max_steps);
  int dummy;
  const uint8_t *h = mem_host(&d->mem, pc, 4, ACC_X, &dummy);
  vt_err_ctx(e, (int)d->l.kernel_id, (int)w->wg->id, (int)w->wid, -1, pc, h ? ld_u32(h) : 0);
  return -1;
}
static int step_limit(vt_device *d, vt_warp *w, vt_error *e) { return step_limit_at(d, w, w->pc, e); }

/* Gives the warps placed since the last call (running, not yet due) the
 * round `at`; 1 if there was one. */
static int due_new_warps(vt_device *d, uint64_t *due, uint64_t at) {
  int any = 0;
  for (uint32_t s = 0, j = 0; s < d->cfg.num_sm; s++)
    for (uint32_t i = 0; i < d->cfg.warps_per_sm; i++, j++) {
      const vt_warp *w = &d->sms[s].warps[i];
      if (w->active && !w->ended && due[j] == UINT64_MAX) {
        due[j] = at;
        any = 1;
      }
    }
  return any;
}

int vt_device_launch(vt_device *d, const vt_launch *l, vt_error *e) {
  vt_error local;
  if (!e) e = &local; /* handlers fill the error unconditionally */
  if (d->launcher) return d->launcher(d->launcher_user, d, l, e);
  if (launch_setup(d, l, e)) goto fail;
  uint32_t nthreads;
  if (par_eligible(d, &nthreads)) {
    if (par_run(d, nthreads, e)) goto fail;
    return 0;
  }
  if (dispatch(d, e)) goto fail;
  const vt_config *c = &d->cfg;
  /* Warp run-ahead (warp_turn): a warp whose next instructions touch
   * only itself runs them now and skips the rounds they belonged to, so
   * every other instruction keeps its place in the round-robin order; a
   * fault met ahead is reported in its own round. Off whenever something
   * could see the difference: a commit log, ISA 2025. A store into code
   * (code_store) is checked against the warps running ahead. Near a step limit too: the steps that ran ahead all belong
   * to the next 257 rounds (at most 257 * slots places), so with no new
   * run in the last `window` steps before the limit, every one of them has
   * had its place before the count reaches the limit, which is then met
   * where plain round-robin meets it. */
  int run_ahead = c->run_ahead && !d->record && c->isa != 2025;
  const uint64_t window = 257 + 257 * (uint64_t)c->num_sm * c->warps_per_sm;
  const uint64_t ahead_until = !c->max_steps ? UINT64_MAX : c->max_steps > window ? c->max_steps - window : 0;
  vt_error ahead_err;
  vt_warp *ahead_fault = NULL;
  /* due[j]: the round in which the warp of slot j (SM-major) runs its next
   * instruction, UINT64_MAX for an empty slot or an ended warp. A round
   * visits the slots in order and steps the warps due; rounds in which no
   * warp is due are skipped. */
  uint64_t *due = d->due, round = 0;
  uint32_t nw = c->warps_per_sm, parked = 0;
  for (uint32_t j = 0; j < c->num_sm * nw; j++) due[j] = UINT64_MAX;
  due_new_warps(d, due, 0);
  while (d->wg_done < d->wg_total) {
    int progress = 0, any = 0, ended = 0;
    uint64_t next = UINT64_MAX; /* the next round a running warp is due */
    for (uint32_t s = 0, j = 0; s < c->num_sm; s++) {
      vt_warp *ws = d->sms[s].warps;
      for (uint32_t i = 0; i < nw; i++, j++) {
        if (due[j] != round) {
          if (due[j] < VT_DUE_PARKED) { /* this round's instruction already ran ahead */
            any = progress = 1;
            next = due[j] < next ? due[j] : next;
          }
          continue;
        }
        vt_warp *w = &ws[i];
        any = 1;
        if (unlikely(w == ahead_fault)) {
          *e = ahead_err;
          goto fail;
        }
        if (unlikely(step_limit(d, w, e))) goto fail;
        d->steps++;
        int fault;
        uint32_t ahead;
        int rc = warp_turn(d, &d->w0, w, e, run_ahead && !ahead_fault && d->steps < ahead_until ? 256 : 0, &ahead,
                           &ahead_err, &fault);
        if (rc < 0) goto fail;
        if (unlikely(d->w0.smc) && code_store_check(d, &d->w0, due, round, j, 0, 1, e)) goto fail;
        if (rc != 2) progress = 1;
        vt_wg *g = w->wg;
        if (unlikely(g->nparked) && (rc == 1 || g->bar_gen != g->park_gen)) { /* the barrier may open */
          park_when t = {round, j, round + 1, round};
          park_wake(d, &d->w0, due, g, &t, &parked, &d->steps, &next);
        }
        if (rc == 1) {
          w->ended = 1;
          g->ended++;
          ended = 1;
          due[j] = UINT64_MAX;
          continue;
        }
        /* a re-check that changed nothing: parked until the barrier opens (park.c) */
        if (rc == 2 && run_ahead && w->bar_wait && w->bar_gen == g->bar_gen && d->steps < ahead_until) {
          park_warp(w, due, j, round, &parked);
          continue;
        }
        d->steps += ahead;
        if (fault) ahead_fault = w;
        due[j] = round + 1 + ahead;
        next = due[j] < next ? due[j] : next;
      }
    }
    /* groups retire only when a warp ended; otherwise nothing to refill */
    if (ended || !any) {
      if (launch_retire(d, &progress, e)) goto fail;
      if (due_new_warps(d, due, round + 1)) next = round + 1;
    }
    if (!progress && any) {
      uint32_t wg;
      launch_deadlock(d, &d->w0, 0, 1, 0, &wg, e);
      goto fail;
    }
    uint64_t to = next != UINT64_MAX ? next : round + 1;
    /* parked warps re-check in every round up to the next one run; near the
     * step limit, or with nothing else to run (a deadlock plain round-robin
     * reports), they all re-check again (park.c) */
    if (unlikely(parked))
      park_advance(d, &d->w0, due, 0, 1, round, to, d->steps + (uint64_t)parked * (to - round) >= ahead_until || next == UINT64_MAX,
                   &parked, &d->steps);
    round = to;
  }
  return 0;
fail:
  abort_launch(d);
  return -1;
}

/* ---- stepping interface ---------------------------------------------------------- */
void vt_device_set_launcher(vt_device *d, vt_launch_fn fn, void *user) {
  d->launcher = fn;
  d->launcher_user = user;
}

int vt_step_begin(vt_device *d, const vt_launch *l, vt_error *e) {
  if (launch_begin(d, l, e)) {
    abort_launch(d);
    return -1;
  }
  return 0;
}

/* A live warp's state: a waiting warp is released by a new generation, or
 * (ISS rule) when the warps that ended make up the missing arrivals: its
 * re-check completes it. */
static vt_warp_state live_state(const vt_device *d, const vt_warp *w) {
  const vt_wg *wg = w->wg;
  uint32_t have = wg->arrived + (d->cfg.barrier_counts_ended ? wg->ended : 0);
  if (w->bar_wait && w->bar_gen == wg->bar_gen && have < wg->nwarps) return VT_WS_BARRIER;
  return w->mbar_wait && mbar_waits(d, w) ? VT_WS_BARRIER : VT_WS_READY;
}

static int step_peek(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, vt_warp_view *v, vt_error *e) {
  vt_warp *w = &d->sms[sm].warps[slot];
  v->state = VT_WS_EMPTY;
  if (!w->active || w->ended) return 0;
  vt_wg *wg = w->wg;
  v->pc = w->pc;
  v->mask = w->mask;
  v->threads = d->l.num_threads;
  v->wg = wg->id;
  v->wid = w->wid;
  const vt_icache_entry *ic = warp_decode(d, k, w, e);
  if (!ic) return -1;
  v->in = &ic->in;
  v->unit = (isa_unit)ic->unit;
  v->flags = ic->flags;
  v->vtype = w->vtype;
  v->priv = ic->private_only && !w->prefix;
  v->state = live_state(d, w);
  return 0;
}

vt_warp_state vt_step_state(const vt_device *d, uint32_t sm, uint32_t slot, uint32_t *pc) {
  const vt_warp *w = &d->sms[sm].warps[slot];
  if (!w->active || w->ended) return VT_WS_EMPTY;
  *pc = w->pc;
  return live_state(d, w);
}

int vt_step_peek(vt_device *d, uint32_t sm, uint32_t slot, vt_warp_view *v, vt_error *e) {
  return step_peek(d, &d->w0, sm, slot, v, e);
}

const uint32_t *vt_step_code_gen_word(const vt_device *d) { return &d->icache_gen; }

int vt_step_exec(vt_device *d, uint32_t sm, uint32_t slot, const vt_commit **rec, vt_error *e) {
  vt_warp *w = &d->sms[sm].warps[slot];
  if (step_limit(d, w, e)) return -1;
  d->steps++;
  int rec_was = d->record;
  d->record = 1;
  d->commit.nmem = 0;
  int rc = warp_step(d, &d->w0, w, e);
  d->record = rec_was;
  *rec = &d->commit;
  if (rc == 1) {
    w->ended = 1;
    w->wg->ended++;
  }
  return rc;
}

uint32_t vt_step_ahead(vt_device *d, uint32_t sm, uint32_t slot, vt_step_rec *r, uint32_t max) {
  return warp_ahead_records(d, &d->w0, &d->sms[sm].warps[slot], r, max);
}

int vt_step_code_writable(const vt_device *d) { return __atomic_load_n(&d->mem.code, __ATOMIC_RELAXED) != NULL; }

int vt_step_count(vt_device *d, uint32_t sm, uint32_t slot, uint32_t pc, vt_error *e) {
  if (step_limit_at(d, &d->sms[sm].warps[slot], pc, e)) return -1;
  d->steps++;
  return 0;
}

uint64_t *vt_step_counter(vt_device *d, uint64_t *limit) {
  *limit = d->cfg.max_steps;
  return &d->steps;
}

int vt_step_code_stored(vt_device *d, vt_worker *k, uint32_t *lo, uint32_t *hi) {
  if (!k) k = &d->w0;
  if (!k->smc) return 0;
  k->smc = 0;
  *lo = k->smc_lo;
  *hi = k->smc_hi;
  return 1;
}

int vt_step_retire(vt_device *d, int *done, vt_error *e) {
  int progress = 0;
  if (launch_retire(d, &progress, e)) {
    abort_launch(d);
    return -1;
  }
  *done = d->wg_done >= d->wg_total;
  return 0;
}

int vt_step_deadlock(vt_device *d, vt_error *e) {
  uint32_t wg;
  launch_deadlock(d, &d->w0, 0, 1, 0, &wg, e);
  abort_launch(d);
  return -1;
}

void vt_step_abort(vt_device *d) { abort_launch(d); }

/* ---- stepping from several host threads ------------------------------------------ */
int vt_step_threads(vt_device *d, uint32_t max, uint32_t *n, vt_error *e) {
  uint32_t k = 1;
  *n = 1;
  if (max < 2 || !par_eligible(d, &k)) return 0; /* one thread: vt_step_peek/exec as ever */
  if (k > max) k = max;
  if (par_step_setup(d, k, e)) return -1;
  *n = k;
  d->record = 1; /* for the whole launch: the threads must not toggle it */
  d->parallel = 1;
  return 0;
}

vt_worker *vt_step_worker(vt_device *d, uint32_t i) { return par_step_worker(d, i); }

int vt_step_peek_on(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, vt_warp_view *v, vt_error *e) {
  return step_peek(d, k, sm, slot, v, e);
}

uint32_t vt_step_ahead_on(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, vt_step_rec *r, uint32_t max) {
  return warp_ahead_records(d, k, &d->sms[sm].warps[slot], r, max);
}

int vt_step_exec_on(vt_device *d, vt_worker *k, uint32_t sm, uint32_t slot, const vt_commit **rec, vt_error *e) {
  vt_warp *w = &d->sms[sm].warps[slot];
  /* another thread decoded code on a new page: this thread's stores into it must reach route */
  uint32_t cg = __atomic_load_n(&d->mem.code_gen, __ATOMIC_ACQUIRE);
  if (unlikely(cg != k->code_gen)) {
    k->code_gen = cg;
    code_tlb_protect(&d->mem, k->tlb);
  }
  k->commit->nmem = 0;
  int rc = warp_step(d, k, w, e);
  *rec = k->commit;
  if (rc == 1) {
    w->ended = 1;
    w->wg->ended++;
  }
  return rc;
}

int vt_step_retire_threads(vt_device *d, uint32_t n, int *done, vt_error *e) {
  if (n > 1) par_step_share(d, n);
  return vt_step_retire(d, done, e);
}

void vt_step_threads_end(vt_device *d, uint32_t n, const double *cpu) {
  if (n < 2) return;
  double busiest = 0;
  for (uint32_t i = 0; i < n; i++) {
    d->cpu_all += cpu[i];
    busiest = cpu[i] > busiest ? cpu[i] : busiest;
  }
  d->cpu_busiest += busiest;
  par_step_end(d, n);
  d->record = d->trace_fn != NULL;
  d->parallel = 0;
}
