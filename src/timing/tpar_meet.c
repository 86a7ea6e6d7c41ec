/* The quantum's SM claims and the meeting of the parallel timing launch
 * (tpar_meet.h). Memory order: a thread reads the quantum (acquire) before
 * it claims for it, so it sees what the tpm_next that started the quantum
 * released; tpm_done's read-modify-writes carry each SM's quantum to the
 * thread that finishes the last one. */
#include "tpar_meet.h"

#include <stdlib.h>
#include <time.h>

/* How long a waiting thread spins before it sleeps adapts to the machine,
 * by how long the waits that ended in a sleep really were: one the thread
 * waited for ends within a few microseconds when it is running, so such a
 * wait raises the budget to twice its length (a sleep and wake-up cost
 * tens of microseconds on a virtual machine); with more runnable threads
 * than CPUs it is often not running, the wait lasts a time slice, and the
 * budget halves so that the waiter soon gives its CPU away
 * (docs/performance.md, "Parallel timing mode"). Only raising it on waits
 * that ended within the spin, as before, let a few long waits on an idle
 * machine drive it down to where every quantum slept: then two threads
 * ran at half the speed of one. */
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
  /* woken once: the quanta that start before a sleeper is back on its
   * CPU make no more system calls */
  __atomic_store_n(&m->sleepers, 0, __ATOMIC_SEQ_CST);
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
  int64_t start = 0;
  for (unsigned i = 1;; i++) {
    if (tpm_gen(m) != seen) return;
    pause_once();
    if (i % TPM_SPIN_CHECK) continue;
    int64_t t = now_ns();
    if (!start) start = t;
    else if (t - start >= *spin) break;
  }
  pthread_mutex_lock(&m->lock);
  __atomic_add_fetch(&m->sleepers, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&m->gen, __ATOMIC_SEQ_CST) == seen) pthread_cond_wait(&m->wake, &m->lock);
  pthread_mutex_unlock(&m->lock);
  *spin = tpm_spin_after(*spin, now_ns() - start);
}

/* A wait shorter than the longest spin means the thread waited for was
 * running: the sleep cost a wake-up, so the next spin covers twice that
 * wait. A longer one means it was not: spin less. */
int64_t tpm_spin_after(int64_t spin, int64_t waited) {
  if (waited >= TPM_SPIN_MAX_NS) return spin / 2;
  if (2 * waited <= spin) return spin;
  return 2 * waited > TPM_SPIN_MAX_NS ? TPM_SPIN_MAX_NS : 2 * waited;
}
