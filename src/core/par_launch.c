/* Parallel functional launches: the SMs of a launch spread over host
 * threads (config key host_threads; the rules are in docs/simulator.md §6).
 *
 * Thread t owns SMs t, t + n, t + 2n, ...: their warp and work-group slots,
 * and a worker (vt_worker) with its own statistics, translation cache and
 * predecode cache, so the step loop shares nothing mutable with the other
 * threads. Work-group ids are claimed by whichever thread has room, each
 * thread from its own block of ids first, then from the others' (struct
 * vt_par); warps inside a group keep the order of the single-
 * threaded loop (one instruction per warp per round, slot order), so a
 * group computes what it computes there, and a race-free kernel leaves the
 * same memory. Shared state is created under a lock (memory pages, mem.c)
 * or read only (regions, the launch, the configuration).
 *
 * Only launches whose result cannot depend on the order across groups run
 * here (par_eligible): no trace or stepping caller, no shared private
 * slice, and code (scanned before the launch: the kernel's region, and
 * executable memory that is not writable; other code is checked as it is
 * decoded) whose atomics are all of one commutative kind with the result
 * discarded and that does not use the print CSR while a print callback is
 * installed. Everything else takes the single-threaded loop.
 *
 * A fault (or a deadlock) stops the groups of higher id; groups of lower id
 * run on, and the fault of the lowest faulting group is reported: every
 * group below it finished, so the report does not depend on timing. */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

#define PAR_AMO_LOCKS 64u        /* AMO word locks, striped by host address */
#define PAR_SCAN_MAX (1u << 20)  /* bytes of (present) code pages the eligibility scan reads */

typedef struct par_worker {
  vt_worker k;
  vt_tlb_entry tlb[VT_TLB_SIZE]; /* workers other than 0 */
  struct vt_par *par;
  vt_device *d;
  uint32_t index;
  uint64_t reported;             /* warp-instructions already handed to the progress callback */
  double cpu;                    /* CPU seconds of this thread in the launch */
  pthread_t tid;
  vt_commit commit;              /* its steps' records when a timing launch drives it */
  uint64_t *due;                 /* [num_sm * warps_per_sm]: worker_run's rounds (own SMs' slots only) */
} par_worker;

struct vt_par {
  par_worker *w[VT_MAX_HOST_THREADS]; /* created on first use */
  pthread_mutex_t amo[PAR_AMO_LOCKS];
  pthread_mutex_t lock;          /* the fault record and the progress callback */
  /* per launch */
  uint32_t n;                    /* threads */
  /* The group ids in n blocks, block t first claimed by thread t, then by
   * the others when theirs is used up: a thread's groups are neighbours,
   * so the host's prefetchers rarely pull lines another thread writes.
   * Claims write a counter for every group: each on a line of its own, so
   * the rounds' reads of fault and over below do not miss after a claim. */
  struct {
    _Alignas(64) uint64_t next;  /* next id of the block to claim (atomic) */
    uint64_t end;                /* one past the block's last id */
  } block[VT_MAX_HOST_THREADS];
  _Alignas(64) uint64_t fault;   /* lowest faulting work-group id, UINT64_MAX = none (atomic) */
  uint64_t steps;                /* warp steps of all threads, added once per round (atomic) */
  int over;                      /* the steps passed max_steps: every thread stops (atomic) */
  vt_error err;                  /* that group's error (under lock) */
  uint64_t done, insns, base;    /* progress: groups finished, warp-instructions (under lock) */
};

/* ---- eligibility -------------------------------------------------------------- */
static int amo_commutes(isa_id id) {
  switch (id) {
  case ISA_amoadd_w: case ISA_amoxor_w: case ISA_amoand_w: case ISA_amoor_w:
  case ISA_amomin_w: case ISA_amomax_w: case ISA_amominu_w: case ISA_amomaxu_w: return 1;
  default: return 0;
  }
}

int par_amo_listed(const vt_device *d, uint32_t pc) {
  const uint32_t *a = d->l.amo_local;
  size_t n = a ? d->l.namo_local : 0, lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a[mid] < pc) lo = mid + 1;
    else hi = mid;
  }
  return lo < n && a[lo] == pc;
}

int par_in_code(const vt_device *d, uint32_t pc) {
  const uint32_t *r = d->l.code_ranges;
  for (uint32_t i = 0; r && i + 1 < d->l.ncode_ranges; i += 2)
    if (pc - r[i] < r[i + 1] - r[i]) return 1;
  return 0;
}

/* The scan's state across the words it decodes. */
typedef struct {
  uint64_t scanned; /* bytes of present pages so far */
  int amo_kind;     /* the one kind of AMO seen, -1 none yet */
} scan_state;

/* Whether the words of [lo, end) allow a parallel launch (the rules of
 * code_allows_parallel); 0 also when the present pages scanned pass
 * PAR_SCAN_MAX. */
static int span_allows_parallel(vt_device *d, uint64_t lo, uint64_t end, scan_state *st) {
  const vt_mem *m = &d->mem;
  isa_rev rev = d->cfg.isa == 2025 ? ISA_REV_2025 : ISA_REV_BASE;
  int prefixed = 0;
  for (uint64_t a = lo & ~3ull; a + 4 <= end; a += 4) {
    const uint8_t *pg = mem_page_peek(m, (uint32_t)a);
    if (!pg) { /* never written: zeros, which decode to nothing */
      a = (((a >> VT_PAGE_BITS) + 1) << VT_PAGE_BITS) - 4;
      prefixed = 0;
      continue;
    }
    if (!(a & (VT_PAGE_SIZE - 1)) && (st->scanned += VT_PAGE_SIZE) > PAR_SCAN_MAX) return 0;
    uint32_t word = ld_u32(pg + (a & (VT_PAGE_SIZE - 1)));
    isa_inst in;
    isa_id id = isa_decode_rev(word, 0, rev, &in);
    int after_prefix = prefixed;
    prefixed = 0;
    if (id == ISA_INVALID) continue;
    uint32_t f = isa_table[id].flags;
    if (f & IF_PREFIX) prefixed = 1;
    else if ((f & IF_CSR) && (word >> 20) == CSR_PRINT && d->print_fn) return 0;
    else if ((f & IF_AMO) && !(!after_prefix && par_amo_listed(d, (uint32_t)a))) {
      if (after_prefix || in.rd != 0 || !amo_commutes(id) || (st->amo_kind >= 0 && st->amo_kind != (int)id)) return 0;
      st->amo_kind = (int)id;
    }
  }
  return 1;
}

/* 1 when no instruction in the executable memory can make the result depend
 * on the order of work-groups: an AMO whose old value is used, LR/SC,
 * swaps, two kinds of AMO (add then or differs from or then add), a 64-bit
 * or prefixed AMO (not checked further), or the print CSR with a print
 * callback installed (the text would interleave). Every aligned word is
 * decoded, data too: a false match only costs the parallelism. An AMO the
 * program lists as one on __local memory (vt_launch.amo_local; an LR or SC
 * too) is passed over: only warps of its own group see that word, and they
 * interleave as on one thread (a reservation there is counted and broken
 * within the group: exec_mem.c resv_store); amo_at, lr_at and sc_at check
 * that it does reach local memory. When the
 * launch names the extents of the code it can run (vt_launch.code_ranges:
 * the start-up code, the kernel and the functions it calls), only those
 * are read, so another kernel of the program that uses an atomic's result
 * or prints keeps nothing on one thread; an instruction decoded outside
 * them is checked as it is decoded (warp.c, par_decode_check). */
static int code_allows_parallel(vt_device *d) {
  const vt_mem *m = &d->mem;
  scan_state st = {0, -1};
  const vt_region *entry = mem_region(m, d->l.start_pc);
  d->code_lo = entry ? entry->base : 0;
  d->code_size = entry ? entry->size : 0;
  d->code_ranged = 0;
  if (d->l.ncode_ranges) {
    const uint32_t *r = d->l.code_ranges;
    for (uint32_t i = 0; i + 1 < d->l.ncode_ranges; i += 2) {
      const vt_region *reg = mem_region(m, r[i]);
      /* code outside one executable region: read it all, as without ranges */
      if (!reg || !(reg->perm & VT_PERM_X) || r[i + 1] < r[i] || (uint64_t)r[i + 1] > (uint64_t)reg->base + reg->size) {
        st = (scan_state){0, -1};
        goto whole;
      }
      if (!span_allows_parallel(d, r[i], r[i + 1], &st)) return 0;
    }
    d->code_ranged = 1;
    return 1;
  }
whole:
  for (size_t i = 0; i < m->nregions; i++) {
    const vt_region *r = &m->regions[i];
    if (!(r->perm & VT_PERM_X)) continue;
    /* a writable one is data as well (test vectors map every buffer so):
     * only the kernel's, the others are checked as they are decoded */
    if ((r->perm & VT_PERM_W) && r != entry) continue;
    if (!span_allows_parallel(d, r->base, (uint64_t)r->base + r->size, &st)) return 0;
  }
  return 1;
}

int par_decode_check(const vt_device *d, const isa_inst *in, isa_id id, vt_error *e) {
  uint32_t f = isa_table[id].flags;
  int print = (f & IF_CSR) && ((unsigned)in->imm & 0xfff) == CSR_PRINT && d->print_fn;
  if (!(f & IF_AMO) && !print) return 0;
  return vt_fail(e, VT_ERR_ILLEGAL,
                 "%s outside the kernel's code region while the launch runs on several host threads: its "
                 "result could depend on the order of work-groups (host_threads = 1 runs it in order)",
                 print ? "a print-CSR access" : "an atomic");
}

int par_eligible(vt_device *d, uint32_t *nthreads) {
  const vt_config *c = &d->cfg;
  uint64_t n = c->host_threads;
  if (!n) {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    n = cpus > 0 ? (uint64_t)cpus : 1;
  }
  if (n > VT_MAX_HOST_THREADS) n = VT_MAX_HOST_THREADS;
  if (n > c->num_sm) n = c->num_sm;
  if (n > d->wg_total) n = d->wg_total;
  if (n < 2 || d->record || d->pds_layout == VT_PDS_SHARED || d->nresv ||
      !code_allows_parallel(d))
    return 0;
  *nthreads = (uint32_t)n;
  return 1;
}

/* ---- workers ---------------------------------------------------------------------- */
static int par_setup(vt_device *d, uint32_t n, vt_error *e) {
  struct vt_par *P = d->par;
  if (!P) {
    if (!(P = aligned_alloc(_Alignof(struct vt_par), sizeof *P)))
      return vt_fail(e, VT_ERR_NOMEM, "out of memory for host threads");
    memset(P, 0, sizeof *P);
    for (unsigned i = 0; i < PAR_AMO_LOCKS; i++) pthread_mutex_init(&P->amo[i], NULL);
    pthread_mutex_init(&P->lock, NULL);
    d->par = P;
  }
  for (uint32_t i = 0; i < n; i++) {
    par_worker *p = P->w[i];
    if (!p) {
      if (!(p = vt_calloc_aligned(1, sizeof *p, 64)))
        return vt_fail(e, VT_ERR_NOMEM, "out of memory for host threads");
      P->w[i] = p;
      p->par = P;
      p->d = d;
      p->index = i;
      p->k.st = &p->k.own;
      /* thread 0 is the caller's: the single-threaded loop's predecode
       * cache, idle meanwhile; but a translation cache of its own, as the
       * loop's lies in the device beside fields every thread reads */
      p->k.tlb = p->tlb;
      p->k.icache = i ? calloc((size_t)1 << VT_ICACHE_BITS, sizeof *p->k.icache) : d->icache;
      if (!p->k.icache) return vt_fail(e, VT_ERR_NOMEM, "out of memory for host threads");
      /* its own array, not d->due: slots of two threads' SMs would share cache lines */
      p->due = vt_calloc_aligned((size_t)d->cfg.num_sm * d->cfg.warps_per_sm, sizeof *p->due, 64);
      if (!p->due) return vt_fail(e, VT_ERR_NOMEM, "out of memory for host threads");
    }
    memset(&p->k.own, 0, sizeof p->k.own);
    memcpy(p->k.vwritten, d->w0.vwritten, sizeof p->k.vwritten);
    memcpy(p->k.xwritten, d->w0.xwritten, sizeof p->k.xwritten);
    memset(p->tlb, 0, sizeof p->tlb); /* regions may have changed since its last launch */
    p->k.code_gen = __atomic_load_n(&d->mem.code_gen, __ATOMIC_ACQUIRE); /* an empty TLB is protected */
    p->k.smc = 0;
    p->k.ahead = 0;
    p->k.parked = 0;
    p->reported = 0;
  }
  return 0;
}

void par_free(vt_device *d) {
  struct vt_par *P = d->par;
  if (!P) return;
  for (unsigned i = 0; i < VT_MAX_HOST_THREADS; i++) {
    if (!P->w[i]) continue;
    if (i) free(P->w[i]->k.icache);
    free(P->w[i]->due);
    free(P->w[i]);
  }
  for (unsigned i = 0; i < PAR_AMO_LOCKS; i++) pthread_mutex_destroy(&P->amo[i]);
  pthread_mutex_destroy(&P->lock);
  free(P);
  d->par = NULL;
}

void par_icache_wipe(vt_device *d) {
  if (!d->par) return;
  for (unsigned i = 1; i < VT_MAX_HOST_THREADS; i++)
    if (d->par->w[i]) memset(d->par->w[i]->k.icache, 0, ((size_t)1 << VT_ICACHE_BITS) * sizeof(vt_icache_entry));
}

static pthread_mutex_t *amo_lock(vt_device *d, const uint8_t *host) {
  return &d->par->amo[((uintptr_t)host >> 2) % PAR_AMO_LOCKS];
}
void par_amo_lock(vt_device *d, const uint8_t *host) { pthread_mutex_lock(amo_lock(d, host)); }
void par_amo_unlock(vt_device *d, const uint8_t *host) { pthread_mutex_unlock(amo_lock(d, host)); }

/* Records group wg's fault if it is the lowest so far. */
static void report(struct vt_par *P, uint64_t wg, const vt_error *e) {
  pthread_mutex_lock(&P->lock);
  if (wg < __atomic_load_n(&P->fault, __ATOMIC_RELAXED)) {
    P->err = *e;
    __atomic_store_n(&P->fault, wg, __ATOMIC_RELAXED);
  }
  pthread_mutex_unlock(&P->lock);
}

/* A finished group: its slot is freed, the progress callback (one call at a
 * time, from any of the threads) sees the groups and warp-instructions of
 * all threads so far. */
static void finish_group(par_worker *p, vt_wg *wg) {
  vt_device *d = p->d;
  struct vt_par *P = p->par;
  wg_release(d, wg);
  p->k.own.wgs++;
  if (!d->progress_fn) return;
  pthread_mutex_lock(&P->lock);
  P->done++;
  P->insns += p->k.own.warp_insns - p->reported;
  p->reported = p->k.own.warp_insns;
  d->progress_fn(d->progress_user, P->done, d->wg_total, P->base + P->insns);
  pthread_mutex_unlock(&P->lock);
}

/* Gives this thread's warps placed since the last call (running, no
 * round yet) the round `at`, and forgets the rounds of emptied slots; 1 if
 * a warp was given one. */
static int due_own_warps(par_worker *p, uint64_t *due, uint64_t at) {
  vt_device *d = p->d;
  const uint32_t nw = d->cfg.warps_per_sm;
  int any = 0;
  for (uint32_t s = p->index; s < d->cfg.num_sm; s += p->par->n)
    for (uint32_t i = 0, j = s * nw; i < nw; i++, j++) {
      const vt_warp *w = &d->sms[s].warps[i];
      if (!w->active || w->ended) due[j] = UINT64_MAX;
      else if (due[j] == UINT64_MAX) {
        due[j] = at;
        any = 1;
      }
    }
  return any;
}

/* The single-threaded loop over this thread's SMs, with the run-ahead of
 * vt_device_launch: a round steps every warp due in it (in slot order),
 * a warp that ran ahead sits out the rounds it ran, a fault met ahead is
 * reported in its own round; then finished groups retire and new ones are
 * claimed. Rounds in which none of this thread's warps is due are
 * skipped. Ends when its SMs are empty and no group is left to claim.
 */
static void *worker_run(void *arg) {
  par_worker *p = arg;
  vt_device *d = p->d;
  struct vt_par *P = p->par;
  const vt_config *c = &d->cfg;
  const uint32_t n = P->n, nw = c->warps_per_sm;
  vt_error err, ahead_err;
  vt_warp *ahead_fault = NULL;
  /* the step limit counts the steps of all threads, ahead ones included:
   * it is passed only if the launch has more than max_steps in all, and
   * then the single-threaded loop meets it too */
  const int run_ahead = c->run_ahead && !d->record && c->isa != 2025;
  uint64_t *due = p->due, round = 0;
  uint32_t parked = 0; /* warps parked at a barrier (park.c) */
  int claiming = 1;
  uint32_t from = 0; /* blocks before (p->index + from) % n have nothing left for this thread */
  uint64_t retired_at = UINT64_MAX; /* the fault id the last retirement saw */
  struct timespec t0, t1;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  due_own_warps(p, due, 0);
  for (;;) {
    uint64_t fault = __atomic_load_n(&P->fault, __ATOMIC_RELAXED);
    if (__atomic_load_n(&P->over, __ATOMIC_RELAXED)) {
      fault = 0; /* abandon everything */
      claiming = 0;
    }
    int any = 0, progress = 0, resident = 0, ended = 0;
    uint64_t steps = 0, next = UINT64_MAX; /* the next round one of this thread's warps is due */
    /* another thread decoded code on a new page: its stores must reach route */
    uint32_t cg = __atomic_load_n(&d->mem.code_gen, __ATOMIC_ACQUIRE);
    if (unlikely(cg != p->k.code_gen)) {
      p->k.code_gen = cg;
      code_tlb_protect(&d->mem, p->k.tlb);
    }
    for (uint32_t s = p->index; s < c->num_sm; s += n) {
      vt_warp *ws = d->sms[s].warps;
      for (uint32_t i = 0, j = s * nw; i < nw; i++, j++) {
        if (due[j] >= VT_DUE_PARKED) continue; /* empty slot, ended warp (due_own_warps), parked */
        vt_warp *w = &ws[i];
        if (unlikely(fault != UINT64_MAX) && w->wg->id >= fault) continue;
        if (due[j] != round) { /* this round's instruction already ran ahead */
          any = progress = 1;
          next = due[j] < next ? due[j] : next;
          continue;
        }
        any = 1;
        if (unlikely(w == ahead_fault)) {
          ahead_fault = NULL;
          report(P, w->wg->id, &ahead_err);
          fault = __atomic_load_n(&P->fault, __ATOMIC_RELAXED);
          progress = 1; /* the group goes (below), not a deadlock */
          continue;
        }
        steps++;
        int fa;
        uint32_t ahead;
        int rc = warp_turn(d, &p->k, w, &err, run_ahead && !ahead_fault ? 256 : 0, &ahead, &ahead_err, &fa);
        if (rc < 0) {
          report(P, w->wg->id, &err);
          fault = __atomic_load_n(&P->fault, __ATOMIC_RELAXED);
          progress = 1; /* the group goes (below), not a deadlock */
          continue;
        }
        /* a store into code: checked against this thread's warps running
         * ahead (other threads' groups running that code would be a race
         * between groups, docs/simulator.md §6) */
        if (unlikely(p->k.smc) && code_store_check(d, &p->k, due, round, j, p->index, n, &err)) {
          report(P, w->wg->id, &err);
          fault = __atomic_load_n(&P->fault, __ATOMIC_RELAXED);
          progress = 1;
          continue;
        }
        if (rc != 2) progress = 1;
        vt_wg *g = w->wg;
        if (unlikely(g->nparked) && (rc == 1 || g->bar_gen != g->park_gen)) { /* the barrier may open */
          park_when t = {round, j, round + 1, round};
          park_wake(d, &p->k, due, g, &t, &parked, &steps, &next);
        }
        if (rc == 1) {
          w->ended = 1;
          g->ended++;
          due[j] = UINT64_MAX;
          ended = 1;
          continue;
        }
        if (rc == 2 && run_ahead && w->bar_wait && w->bar_gen == g->bar_gen) { /* park.c */
          park_warp(w, due, j, round, &parked);
          continue;
        }
        steps += ahead;
        if (fa) ahead_fault = w;
        due[j] = round + 1 + ahead;
        next = due[j] < next ? due[j] : next;
      }
    }
    uint64_t to = next != UINT64_MAX ? next : round + 1;
    /* parked warps re-check in every round up to the next one run (park.c);
     * with nothing else to run (a deadlock), they re-check again. When
     * groups retire (below), new warps may be due in the next round: no
     * rounds are skipped then. */
    if (unlikely(parked)) {
      if (ended || !any || !progress || fault != retired_at) to = round + 1;
      park_advance(d, &p->k, due, p->index, n, round, to, next == UINT64_MAX, &parked, &steps);
    }
    /* the total is the same in any schedule (a group's steps, barrier
     * re-checks included, do not depend on other groups), so passing it is
     * exactly when the single-threaded loop would stop */
    if (c->max_steps && __atomic_add_fetch(&P->steps, steps, __ATOMIC_RELAXED) > c->max_steps)
      __atomic_store_n(&P->over, 1, __ATOMIC_RELAXED);
    /* groups retire and new ones come only when a warp ended, a fault
     * abandoned groups, or nothing ran (as in vt_device_launch) */
    if (!ended && any && progress && fault == retired_at) {
      round = to;
      continue;
    }
    retired_at = fault;
    for (uint32_t s = p->index; s < c->num_sm; s += n)
      for (uint32_t g = 0; g < c->wg_slots_per_sm; g++) {
        vt_wg *wg = &d->sms[s].wgs[g];
        if (!wg->active) continue;
        if (wg->id >= fault) { /* abandoned: a lower group faulted */
          parked -= wg->nparked;
          wg->nparked = 0;
          wg_release(d, wg);
        }
        else if (wg->ended < wg->nwarps) resident = 1;
        else {
          finish_group(p, wg);
          progress = 1;
        }
      }
    if (ahead_fault && !ahead_fault->active) ahead_fault = NULL; /* its group was abandoned */
    if (any && !progress) { /* only this thread's groups can release their barriers */
      uint32_t wg;
      launch_deadlock(d, &p->k, p->index, n, 1, &wg, &err);
      report(P, wg, &err);
      continue; /* the next round releases the groups at and above it */
    }
    while (claiming) {
      int best = -1;
      for (uint32_t s = p->index; s < c->num_sm; s += n)
        if (sm_has_room(d, s) && (best < 0 || d->sms[s].free_warps > d->sms[best].free_warps)) best = (int)s;
      if (best < 0) break;
      uint64_t id = UINT64_MAX;
      for (; from < n; from++) { /* own block first, then the next ones */
        uint32_t b = (p->index + from) % n;
        if (__atomic_load_n(&P->block[b].next, __ATOMIC_RELAXED) >= P->block[b].end) continue;
        id = __atomic_fetch_add(&P->block[b].next, 1, __ATOMIC_RELAXED);
        /* a block's ids only grow: past the end or the fault, it has nothing more */
        if (id < P->block[b].end && id < __atomic_load_n(&P->fault, __ATOMIC_RELAXED)) break;
        id = UINT64_MAX;
      }
      if (id == UINT64_MAX) {
        claiming = 0; /* every block is used up or past the fault */
        break;
      }
      if (wg_place(d, &p->k, (uint32_t)best, id, &err)) {
        report(P, id, &err);
        claiming = 0;
        break;
      }
      resident = 1;
    }
    if (!resident) break;
    if (due_own_warps(p, due, round + 1)) to = round + 1;
    round = to;
  }
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  p->cpu = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  return NULL;
}

int par_run(vt_device *d, uint32_t n, vt_error *e) {
  if (par_setup(d, n, e)) return -1;
  struct vt_par *P = d->par;
  P->n = n;
  for (uint32_t t = 0; t < n; t++) {
    P->block[t].next = d->wg_total * t / n;
    P->block[t].end = d->wg_total * (t + 1) / n;
  }
  P->fault = UINT64_MAX;
  P->steps = 0;
  P->over = 0;
  P->done = P->insns = 0;
  P->base = d->stats.warp_insns;
  d->parallel = 1;
  uint32_t started = 1;
  /* a thread that cannot be created leaves its SMs idle; the others claim
   * every group, so the launch still completes */
  while (started < n && !pthread_create(&P->w[started]->tid, NULL, worker_run, P->w[started])) started++;
  worker_run(P->w[0]);
  for (uint32_t i = 1; i < started; i++) pthread_join(P->w[i]->tid, NULL);
  d->parallel = 0;
  d->stats.parallel_launches++;
  double busiest = 0;
  for (uint32_t i = 0; i < n; i++) {
    par_worker *p = P->w[i];
    if (i >= started) p->cpu = 0; /* never ran */
    busiest = p->cpu > busiest ? p->cpu : busiest;
    d->cpu_all += p->cpu;
    vt_stats_add(&d->stats, &p->k.own);
    d->w0.ahead += p->k.ahead;
    d->w0.parked += p->k.parked;
    for (unsigned r = 0; r < VT_NUM_VREGS / 64; r++) d->w0.vwritten[r] |= p->k.vwritten[r];
    for (unsigned r = 0; r < VT_NUM_XREGS / 64; r++) d->w0.xwritten[r] |= p->k.xwritten[r];
  }
  d->cpu_busiest += busiest;
  if (P->over) {
    vt_fail(e, VT_ERR_STEP_LIMIT,
            "step limit of %llu warp-instructions reached by the launch's %u host threads together "
            "(no single warp to name; host_threads = 1 names it)",
            (unsigned long long)d->cfg.max_steps, n);
    return -1;
  }
  if (P->fault != UINT64_MAX) {
    *e = P->err;
    return -1;
  }
  d->wg_next = d->wg_done = d->wg_total;
  return 0;
}

/* ---- workers for a threaded stepping caller (the timing model) --------------------- */
int par_step_setup(vt_device *d, uint32_t n, vt_error *e) {
  if (par_setup(d, n, e)) return -1;
  for (uint32_t i = 0; i < n; i++) d->par->w[i]->k.commit = &d->par->w[i]->commit;
  return 0;
}

vt_worker *par_step_worker(vt_device *d, uint32_t i) { return &d->par->w[i]->k; }

/* A warp the caller places next (wg_place with worker 0) clears every
 * register some worker's decoded code may have written. */
void par_step_share(vt_device *d, uint32_t n) {
  for (uint32_t i = 0; i < n; i++) {
    for (unsigned r = 0; r < VT_NUM_VREGS / 64; r++) d->w0.vwritten[r] |= d->par->w[i]->k.vwritten[r];
    for (unsigned r = 0; r < VT_NUM_XREGS / 64; r++) d->w0.xwritten[r] |= d->par->w[i]->k.xwritten[r];
  }
}

void par_step_end(vt_device *d, uint32_t n) {
  par_step_share(d, n);
  for (uint32_t i = 0; i < n; i++) {
    vt_worker *k = &d->par->w[i]->k;
    vt_stats_add(&d->stats, &k->own);
    memset(&k->own, 0, sizeof k->own);
    k->commit = NULL;
  }
  d->stats.parallel_launches++;
}
