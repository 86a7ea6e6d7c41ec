/* The quantum's SM claims and the meeting of the parallel timing launch
 * (tpar_meet.h). Memory order: a thread reads the quantum (acquire) before
 * it claims for it, so it sees what the tpm_next that started the quantum
 * released; tpm_done's read-modify-writes carry each SM's quantum to the
 * thread that finishes the last one. */
#include "tpar_meet.h"

#include <stdlib.h>
#include <time.h>

/* How long a waiting thread spins before it sleeps adapts to the machine:
 * a quantum is a few microseconds of simulation, so on an idle machine the
 * quantum ends within the spin and the budget grows; with more runnable
 * threads than CPUs the thread waited for is often not running, the spin
 * runs out, and the budget shrinks so that the waiter soon gives its CPU
 * away (docs/performance.md, "Parallel timing mode"). */
#define TPM_SPIN_MIN_NS 1000
#define TPM_SPIN_MAX_NS 50000
#define TPM_SPIN_CHECK 16 /* spins between two looks at the clock */

static void pause_once(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int tpm_init(tp_meet *m, uint32_t nsm, vt_error *e) {
  m->nsm = nsm;
  /* a cache line per SM, whatever malloc's alignment */
  m->claim = aligned_alloc(sizeof *m->claim, nsm * sizeof *m->claim);
  if (!m->claim) return vt_fail(e, VT_ERR_NOMEM, "out of memory for the timing model");
  pthread_mutex_init(&m->lock, NULL);
  pthread_cond_init(&m->wake, NULL);
  tpm_begin(m);
  return 0;
}

void tpm_free(tp_meet *m) {
  if (!m->claim) return;
  free(m->claim);
  m->claim = NULL;
  pthread_mutex_destroy(&m->lock);
  pthread_cond_destroy(&m->wake);
}

void tpm_begin(tp_meet *m) {
  for (uint32_t s = 0; s < m->nsm; s++) m->claim[s].gen = 0;
  m->done = 0;
  m->gen = 1;
  m->sleepers = 0;
}

uint32_t tpm_gen(const tp_meet *m) { return __atomic_load_n(&m->gen, __ATOMIC_ACQUIRE); }

uint32_t tpm_claim(tp_meet *m, tpm_cursor *c, uint32_t index, uint32_t n) {
  uint32_t home = index < m->nsm ? (m->nsm - index + n - 1) / n : 0; /* SMs index, index + n, ... */
  for (; c->pos < home + m->nsm; c->pos++) {
    uint32_t s = c->pos < home ? index + c->pos * n : c->pos - home;
    uint32_t *g = &m->claim[s].gen, want = c->gen - 1;
    /* claimed for this quantum when it still holds the last one; a
     * thread whose cursor is a quantum behind fails on every SM */
    if (__atomic_load_n(g, __ATOMIC_RELAXED) == want &&
        __atomic_compare_exchange_n(g, &want, c->gen, 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
      return s;
  }
  return m->nsm;
}

int tpm_done(tp_meet *m) { return __atomic_add_fetch(&m->done, 1, __ATOMIC_ACQ_REL) == m->nsm; }

/* Both sequentially consistent with the sleeper's count and look at gen
 * in tpm_wait: either this sees the sleeper or the sleeper sees the new
 * generation, so no wake-up is lost. */
static void release(tp_meet *m) {
  __atomic_add_fetch(&m->gen, 1, __ATOMIC_SEQ_CST);
  if (!__atomic_load_n(&m->sleepers, __ATOMIC_SEQ_CST)) return;
  pthread_mutex_lock(&m->lock);
  pthread_cond_broadcast(&m->wake);
  pthread_mutex_unlock(&m->lock);
}

void tpm_next(tp_meet *m, tpm_cursor *c) {
  __atomic_store_n(&m->done, 0, __ATOMIC_RELAXED); /* published by the release of gen */
  *c = (tpm_cursor){c->gen + 1, 0};
  release(m);
}

void tpm_end(tp_meet *m) { release(m); }

void tpm_wait(tp_meet *m, uint32_t seen, int64_t *spin) {
  if (*spin < TPM_SPIN_MIN_NS) *spin = TPM_SPIN_MIN_NS;
  int64_t until = 0;
  for (unsigned i = 1;; i++) {
    if (tpm_gen(m) != seen) {
      if (until && *spin < TPM_SPIN_MAX_NS) *spin += *spin / 8; /* it came after a while: worth waiting for */
      return;
    }
    pause_once();
    if (i % TPM_SPIN_CHECK) continue;
    int64_t t = now_ns();
    if (!until) until = t + *spin;
    else if (t >= until) break;
  }
  *spin /= 2;
  __atomic_add_fetch(&m->sleepers, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_lock(&m->lock);
  while (__atomic_load_n(&m->gen, __ATOMIC_SEQ_CST) == seen) pthread_cond_wait(&m->wake, &m->lock);
  pthread_mutex_unlock(&m->lock);
  __atomic_sub_fetch(&m->sleepers, 1, __ATOMIC_SEQ_CST);
}
