/* How the parallel timing launch's host threads share a quantum (tpar.c):
 * the quantum's SMs are claimed one at a time by whichever thread is
 * free, so a thread the host does not run holds nothing up unless it has
 * claimed an SM; the thread that finishes the quantum's last SM does the
 * serial work between two quanta and starts the next one. A thread with
 * nothing left to claim spins on one cache line for a bounded time, then
 * sleeps on a condition variable (whose mutex only that slow path takes). */
#ifndef VT_TPAR_MEET_H
#define VT_TPAR_MEET_H

#include <pthread.h>
#include <stdint.h>

typedef struct tp_meet {
  uint32_t next;      /* the quantum's next SM to claim (atomic) */
  uint32_t done;      /* ... SMs finished (atomic) */
  uint32_t nsm;
  char pad0[52];      /* the claims and the releases on their own cache lines */
  uint32_t gen;       /* quanta started (atomic) */
  uint32_t sleepers;  /* threads that stopped spinning (atomic) */
  char pad1[56];
  pthread_mutex_t lock; /* with wake: the slow path only */
  pthread_cond_t wake;
} tp_meet;

void tpm_init(tp_meet *m, uint32_t nsm);
void tpm_destroy(tp_meet *m);
/* The quantum generation: read before claiming, to wait for its change. */
uint32_t tpm_gen(const tp_meet *m);
/* An SM of the current quantum to run, nsm when all are claimed. */
uint32_t tpm_claim(tp_meet *m);
/* The claimed SM has run its quantum: 1 when it was the last, and then the
 * caller does the serial work and calls tpm_next or tpm_end. */
int tpm_done(tp_meet *m);
/* Starts the next quantum, everything written before visible to its claims. */
void tpm_next(tp_meet *m);
/* The launch is over: no more claims succeed, the waiting threads return. */
void tpm_end(tp_meet *m);
/* Waits until the generation is no longer `seen`. *spin: the calling
 * thread's spin budget in nanoseconds (0 at first), adapted here. */
void tpm_wait(tp_meet *m, uint32_t seen, int64_t *spin);

#endif
