/* The quantum's SM claims and the meeting of the parallel timing launch
 * (tpar_meet.h). Memory order: a claim acquires what the tpm_next before
 * it released; tpm_done's read-modify-writes carry each SM's quantum to
 * the thread that finishes the last one. */
#include "tpar_meet.h"

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

void tpm_init(tp_meet *m, uint32_t nsm) {
  m->next = m->done = 0;
  m->nsm = nsm;
  m->gen = m->sleepers = 0;
  pthread_mutex_init(&m->lock, NULL);
  pthread_cond_init(&m->wake, NULL);
}

void tpm_destroy(tp_meet *m) {
  pthread_mutex_destroy(&m->lock);
  pthread_cond_destroy(&m->wake);
}

uint32_t tpm_gen(const tp_meet *m) { return __atomic_load_n(&m->gen, __ATOMIC_ACQUIRE); }

uint32_t tpm_claim(tp_meet *m) {
  if (__atomic_load_n(&m->next, __ATOMIC_RELAXED) >= m->nsm) return m->nsm; /* no write to a busy line */
  uint32_t s = __atomic_fetch_add(&m->next, 1, __ATOMIC_ACQ_REL);
  return s < m->nsm ? s : m->nsm;
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

void tpm_next(tp_meet *m) {
  __atomic_store_n(&m->done, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&m->next, 0, __ATOMIC_RELEASE);
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
