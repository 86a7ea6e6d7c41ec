/* The timing launch's cycles: SMs advance in quanta of Q cycles
 * (timing_quantum, 0 = lat_l2), claimed quantum by quantum by host threads
 * (host_threads, the same rules as a functional launch, docs/simulator.md
 * §6; the claims and the meeting: tpar_meet.c), with results that do not
 * depend on the number of threads (docs/timing.md "Parallel timing").
 *
 * Inside a quantum the SMs share nothing the model changes: each has its
 * own view of the L2/crossbar/DRAM state (a copy of the shared one as it
 * was at the quantum's start, plus its own requests), which answers its
 * L1 misses, write-throughs, AMOs and I-cache fills at once, and every
 * request is queued stamped (cycle, SM, sequence). At the quantum's end
 * the thread that finished its last SM replays the queued requests of all
 * SMs in that order on the shared L2 (its statistics are the launch's),
 * retires finished work-groups and dispatches new ones (their warps start
 * at the next quantum), and counts the steps against max_steps; each SM,
 * as it starts the next quantum, copies the touched sets and the crossbar,
 * MSHR and DRAM timers into its view (view_sync). So what an SM
 * sees of the other SMs is at most one quantum old, and the order of the
 * work between two quanta is fixed: SM by SM, whatever thread runs it. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timing_int.h"
#include "tpar_meet.h"

typedef struct {
  uint64_t cycle;
  uint32_t sm, seq, addr, write;
} tp_req;

typedef struct {
  vt_memsys view;     /* the L2 as this SM sees it during a quantum */
  tp_req *q;          /* its requests of the quantum */
  size_t n, cap;
  int oom;            /* a request could not be queued */
  vt_worker *k;       /* the worker of the thread that runs it */
  uint64_t clock;     /* first cycle not yet simulated */
  vt_stall why;       /* the stall charged up to the next evaluation */
  uint64_t wake;      /* next cycle it could issue (NEVER: only a dispatch helps) */
  uint64_t last_issue, steps;
  uint64_t synced;    /* replays its view has taken in (view_sync) */
  int issued, ended, failed;
  vt_error err;
} tp_sm;

struct tpar {
  tp_sm *sm;          /* [num_sm] */
  tp_req *all;        /* the quantum's requests of all SMs, merged */
  size_t cap;
  size_t nall;        /* ... how many the last replay had */
  uint64_t replays;   /* replays of the launch so far */
  uint32_t n;         /* threads of this launch */
  uint64_t from, to;  /* the quantum being run */
  uint64_t q;         /* cycles per quantum */
  int rc;             /* between quanta: 1 the launch is over, -1 an error (err) */
  vt_error err;
  tp_meet meet;
  vt_timing *t;
  uint64_t *count, limit; /* the device's step count and max_steps (tp_count) */
};

typedef struct {
  struct tpar *P;
  uint32_t index;
  double cpu;         /* its CPU seconds in the launch */
} tp_thread;

int tp_init(vt_timing *t, vt_error *e) {
  struct tpar *P = calloc(1, sizeof *P);
  if (!P || !(P->sm = calloc(t->cfg.num_sm, sizeof *P->sm))) {
    free(P);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model");
  }
  t->tp = P;
  P->t = t;
  for (uint32_t s = 0; s < t->cfg.num_sm; s++)
    if (ms_init(&P->sm[s].view, &t->cfg, e)) return -1; /* tp_free releases what was made */
  return tpm_init(&P->meet, t->cfg.num_sm, e);
}

void tp_free(vt_timing *t) {
  struct tpar *P = t->tp;
  if (!P) return;
  for (uint32_t s = 0; s < t->cfg.num_sm; s++) {
    ms_free(&P->sm[s].view);
    free(P->sm[s].q);
  }
  free(P->sm);
  free(P->all);
  tpm_free(&P->meet);
  free(P);
  t->tp = NULL;
}

uint64_t tp_access(vt_timing *t, uint32_t smi, uint64_t now, uint32_t addr, int write) {
  tp_sm *s = &t->tp->sm[smi];
  if (s->n == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    tp_req *q = realloc(s->q, cap * sizeof *q);
    if (q) s->q = q, s->cap = cap;
  }
  if (s->n < s->cap) s->q[s->n] = (tp_req){now, smi, (uint32_t)s->n, addr, (uint32_t)write}, s->n++;
  else s->oom = 1; /* reported at the quantum's end */
  return ms_access(&s->view, now, addr, write);
}

/* One thread: the device's own stepping, which names the warp at the step limit. */
int tp_peek(vt_timing *t, uint32_t smi, uint32_t slot, vt_warp_view *v, vt_error *e) {
  vt_worker *k = t->tp->sm[smi].k;
  return k ? vt_step_peek_on(t->d, k, smi, slot, v, e) : vt_step_peek(t->d, smi, slot, v, e);
}

int tp_exec(vt_timing *t, uint32_t smi, uint32_t slot, const vt_commit **c, vt_error *e) {
  tp_sm *s = &t->tp->sm[smi];
  s->steps++;
  return s->k ? vt_step_exec_on(t->d, s->k, smi, slot, c, e) : vt_step_exec(t->d, smi, slot, c, e);
}

uint32_t tp_ahead(vt_timing *t, uint32_t smi, uint32_t slot, vt_step_rec *r, uint32_t max) {
  vt_worker *k = t->tp->sm[smi].k;
  if (!k) return vt_step_ahead(t->d, smi, slot, r, max);
  return vt_step_code_writable(t->d) ? 0 : vt_step_ahead_on(t->d, k, smi, slot, r, max);
}

int tp_count(vt_timing *t, uint32_t smi, uint32_t slot, uint32_t pc, vt_error *e) {
  struct tpar *P = t->tp;
  tp_sm *s = &P->sm[smi];
  s->steps++;
  if (s->k) return 0; /* several threads: between() counts */
  if (!P->limit || *P->count < P->limit) {
    ++*P->count;
    return 0;
  }
  return vt_step_count(t->d, smi, slot, pc, e);
}

uint32_t tp_threads(const vt_timing *t) { return t->tp->n; }

/* ---- the shared L2 and the views ------------------------------------------------ */
/* Everything of the shared state but the sets: crossbar, MSHRs, DRAM. */
static void copy_timers(vt_memsys *dst, const vt_memsys *src) {
  memcpy(dst->bank_free, src->bank_free, src->banks * sizeof *dst->bank_free);
  cache_mshr_copy(&dst->l2, &src->l2);
  dst->dram_free = src->dram_free;
}

static void copy_all(vt_memsys *dst, const vt_memsys *src) {
  cache_copy_sets(&dst->l2, &src->l2);
  if (src->set_free) memcpy(dst->set_free, src->set_free, src->l2.sets * sizeof *dst->set_free);
  copy_timers(dst, src);
}

static int req_order(const void *a, const void *b) {
  const tp_req *x = a, *y = b;
  if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
  if (x->sm != y->sm) return x->sm < y->sm ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The quantum's requests on the shared L2 in (cycle, SM, sequence) order,
 * kept in P->all for the views (view_sync). */
static int replay(struct tpar *P, vt_error *e) {
  vt_timing *t = P->t;
  uint32_t nsm = t->cfg.num_sm;
  size_t total = 0;
  for (uint32_t s = 0; s < nsm; s++) {
    if (P->sm[s].oom) return vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model's L2 request queue");
    total += P->sm[s].n;
  }
  if (!total) return 0;
  if (total > P->cap) {
    tp_req *a = realloc(P->all, total * sizeof *a);
    if (!a) return vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model's L2 request queue");
    P->all = a;
    P->cap = total;
  }
  size_t k = 0;
  for (uint32_t s = 0; s < nsm; s++) {
    if (!P->sm[s].n) continue; /* its queue may never have been allocated */
    memcpy(P->all + k, P->sm[s].q, P->sm[s].n * sizeof *P->all);
    k += P->sm[s].n;
    P->sm[s].n = 0;
  }
  qsort(P->all, total, sizeof *P->all, req_order);
  for (size_t i = 0; i < total; i++) ms_access(&t->ms, P->all[i].cycle, P->all[i].addr, (int)P->all[i].write);
  /* each SM's thread brings its view up to date as it starts the next
   * quantum (view_sync): in parallel, and on the CPU that uses it */
  P->nall = total;
  P->replays++;
  return 0;
}

/* The sets the last replay touched and the timers, from the shared L2 into
 * SM smi's view; the whole of it if the view missed a replay. */
static void view_sync(struct tpar *P, tp_sm *s) {
  vt_timing *t = P->t;
  vt_memsys *v = &s->view;
  if (s->synced == P->replays) return;
  if (s->synced + 1 != P->replays) {
    copy_all(v, &t->ms);
  } else {
    for (size_t i = 0; i < P->nall; i++) {
      cache_copy_set(&v->l2, &t->ms.l2, P->all[i].addr);
      if (v->set_free) {
        uint32_t set = (P->all[i].addr >> v->l2.line_shift) & (v->l2.sets - 1);
        v->set_free[set] = t->ms.set_free[set];
      }
    }
    copy_timers(v, &t->ms);
  }
  s->synced = P->replays;
}

/* ---- the quanta ------------------------------------------------------------------- */
/* SM smi through cycles [from, to): issues where it can, skips to its next
 * wake-up where it cannot, charging each cycle to its stall reason. */
static void sm_run(struct tpar *P, uint32_t smi) {
  vt_timing *t = P->t;
  tp_sm *s = &P->sm[smi];
  uint64_t *stall = t->st.sm[smi].stall;
  s->issued = s->ended = 0;
  if (s->failed) return;
  view_sync(P, s);
  uint64_t c = s->clock, to = P->to;
  if (c < P->from) { /* every SM waited through the quanta skipped */
    stall[s->why] += P->from - c;
    c = P->from;
  }
  uint64_t wake = c;
  while (c < to) {
    vt_stall why;
    uint64_t w = NEVER;
    int r = sm_cycle(t, smi, c, &w, &why, &s->ended, &s->err);
    if (r < 0) {
      s->failed = 1;
      break;
    }
    if (r) {
      s->issued = 1;
      s->last_issue = c + 1;
      wake = ++c;
      continue;
    }
    /* nothing changes here before w (a dispatch comes at a quantum's end) */
    uint64_t next = w <= c ? c + 1 : w > to ? to : w;
    stall[why] += next - c;
    s->why = why;
    wake = w;
    c = next;
  }
  s->clock = c;
  s->wake = wake;
}

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* What happens between two quanta, on the last thread to meet. 1: the launch is over,
 * 0: go on (P->from set), -1: error. */
static int between(struct tpar *P, vt_error *e) {
  vt_timing *t = P->t;
  const vt_config *cf = &t->cfg;
  for (uint32_t s = 0; s < cf->num_sm; s++)
    if (P->sm[s].failed) { /* the lowest SM's fault: the same whatever the threads */
      *e = P->sm[s].err;
      vt_step_abort(t->d);
      return -1;
    }
  if (replay(P, e)) {
    vt_step_abort(t->d);
    return -1;
  }
  uint64_t steps = 0, wake = NEVER;
  int issued = 0, ended = 0;
  for (uint32_t s = 0; s < cf->num_sm; s++) {
    steps += P->sm[s].steps;
    issued |= P->sm[s].issued;
    ended |= P->sm[s].ended;
    if (P->sm[s].wake < wake) wake = P->sm[s].wake;
  }
  if (P->n > 1 && cf->max_steps && steps > cf->max_steps) { /* one thread: vt_step_exec stops at the step */
    vt_step_abort(t->d);
    return vt_fail(e, VT_ERR_STEP_LIMIT,
                   "step limit of %llu warp-instructions reached by the timing launch's %u host threads "
                   "together (counted every %llu cycles; host_threads = 1 names the warp)",
                   (unsigned long long)cf->max_steps, P->n, (unsigned long long)(P->to - P->from));
  }
  if (ended) {
    int done = 0;
    if (vt_step_retire_threads(t->d, P->n, &done, e)) return -1;
    t->dispatches++; /* slots may hold new warps */
    if (done) return 1;
  }
  if (issued || ended) {
    P->from = P->to;
  } else if (wake == NEVER) { /* every warp waits at a barrier nobody can release */
    vt_step_deadlock(t->d, e);
    return -1;
  } else {
    P->from = wake > P->to ? wake : P->to;
  }
  return 0;
}

/* Thread `index`'s quanta: it runs the SMs it claims, and the thread
 * that finishes a quantum's last SM does the work between two quanta.
 * Which thread runs an SM changes nothing but the worker it steps with.
 * Returns when the launch is over. */
static void quanta(struct tpar *P, uint32_t index) {
  uint32_t nsm = P->t->cfg.num_sm;
  if (P->n == 1) /* the same quanta without claims, atomics or a worker */
    for (int rc = 0;; P->to = P->from + P->q) {
      for (uint32_t s = 0; s < nsm; s++) sm_run(P, s);
      if ((rc = between(P, &P->err))) {
        P->rc = rc;
        return;
      }
    }
  vt_worker *k = vt_step_worker(P->t->d, index);
  int64_t spin = 0;
  for (;;) {
    tpm_cursor c = {tpm_gen(&P->meet), 0};
    if (__atomic_load_n(&P->rc, __ATOMIC_RELAXED)) return; /* seen with the quantum that set it */
    for (uint32_t s; (s = tpm_claim(&P->meet, &c, index, P->n)) < nsm;) {
      P->sm[s].k = k;
      sm_run(P, s);
      if (!tpm_done(&P->meet)) continue;
      int rc = between(P, &P->err);
      P->to = P->from + P->q;
      __atomic_store_n(&P->rc, rc, __ATOMIC_RELAXED);
      if (rc) {
        tpm_end(&P->meet);
        return;
      }
      tpm_next(&P->meet, &c);
    }
    tpm_wait(&P->meet, c.gen, &spin);
  }
}

static void *thread_run(void *arg) {
  tp_thread *th = arg;
  double c0 = cpu_now();
  quanta(th->P, th->index);
  th->cpu = cpu_now() - c0;
  return NULL;
}

/* The launch end: the drain after the last issue, the L2 flush. */
static void finish(struct tpar *P) {
  vt_timing *t = P->t;
  const vt_config *cf = &t->cfg;
  uint64_t end = cf->lat_launch + 1;
  for (uint32_t s = 0; s < cf->num_sm; s++) {
    if (P->sm[s].last_issue > end) end = P->sm[s].last_issue;
    if (t->sms[s].busy_until > end) end = t->sms[s].busy_until;
  }
  /* as the RTL, the launch ends after the L1 invalidate and the L2 flush */
  end = ms_flush(&t->ms, end) + cf->lat_flush;
  t->st.mem = t->ms.st;
  for (uint32_t s = 0; s < cf->num_sm; s++) {
    vt_sm_timing *ss = &t->st.sm[s];
    ss->cycles += end;
    /* every cycle an SM ran after its last issue was idle: now up to the end */
    ss->stall[VT_STALL_IDLE] += end - P->sm[s].clock;
  }
  if (t->tl) {
    tl_span(t, cf->num_sm, 0, "launch", 0, end, NULL, "launch %llu", (unsigned long long)t->st.launches);
    t->tl_base += end;
  }
  t->st.cycles += end;
  t->st.launches++;
}

int tp_launch(vt_timing *t, vt_error *e) {
  struct tpar *P = t->tp;
  const vt_config *cf = &t->cfg;
  uint32_t n;
  /* The timeline is one file written in the order of the cycles. The
   * default (host_threads = 0) is one thread: the threads meet every
   * quantum, which gains nothing on a loaded machine (docs/performance.md),
   * so several run only when asked for. */
  uint32_t max = t->tl || t->ilog || !cf->host_threads ? 1 : cf->host_threads;
  if (t->ilog) fprintf(t->ilog, "# launch %llu\n", (unsigned long long)t->st.launches);
  if (vt_step_threads(t->d, max, &n, e)) {
    vt_step_abort(t->d);
    return -1;
  }
  P->n = n;
  for (uint32_t s = 0; s < cf->num_sm; s++) {
    tp_sm *m = &P->sm[s];
    copy_all(&m->view, &t->ms);
    m->n = 0;
    m->oom = m->failed = 0;
    m->k = NULL; /* the worker of the thread that claims it */
    m->clock = cf->lat_launch;
    m->why = VT_STALL_IDLE;
    m->wake = NEVER;
    m->last_issue = m->steps = 0;
    m->synced = 0;
  }
  P->replays = P->nall = 0;
  P->count = vt_step_counter(t->d, &P->limit);
  P->q = cf->timing_quantum ? cf->timing_quantum : cf->lat_l2 ? cf->lat_l2 : 1;
  P->from = cf->lat_launch;
  P->to = P->from + P->q;
  P->rc = 0;
  tp_thread th[VT_MAX_HOST_THREADS];
  pthread_t tid[VT_MAX_HOST_THREADS];
  double cpu[VT_MAX_HOST_THREADS] = {0}, c0 = cpu_now();
  uint32_t started = 1;
  tpm_begin(&P->meet);
  /* a thread that cannot be created leaves its share to the others */
  for (; started < n; started++) {
    th[started] = (tp_thread){P, started, 0};
    if (pthread_create(&tid[started], NULL, thread_run, &th[started])) break;
  }
  quanta(P, 0);
  cpu[0] = cpu_now() - c0;
  for (uint32_t i = 1; i < started; i++) {
    pthread_join(tid[i], NULL);
    cpu[i] = th[i].cpu;
  }
  vt_step_threads_end(t->d, n, cpu);
  if (P->rc < 0) {
    *e = P->err;
    return -1;
  }
  finish(P);
  return 0;
}
