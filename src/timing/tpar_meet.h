/* How the parallel timing launch's host threads share a quantum (tpar.c):
 * each SM is claimed for the quantum by one thread, first by the thread it
 * is home to (SM s of thread s mod n, whose claim word then stays in that
 * thread's cache), then by any thread with nothing of its own left, so a
 * thread the host does not run holds nothing up unless it has claimed an
 * SM. The thread that finishes the quantum's last SM does the serial work
 * between two quanta and starts the next. A thread with nothing left to
 * claim spins on one cache line for a bounded time, then sleeps on a
 * condition variable (whose mutex only that slow path takes). */
#ifndef VT_TPAR_MEET_H
#define VT_TPAR_MEET_H

#include <pthread.h>
#include <stdint.h>

#include "vt_error.h"

typedef struct {
  uint32_t gen;       /* the last quantum this SM was claimed for (atomic) */
  char pad[60];       /* one cache line each */
} tpm_claim_word;

typedef struct tp_meet {
  tpm_claim_word *claim; /* [nsm] */
  uint32_t nsm;
  char pad0[52];
  uint32_t done;      /* SMs of the quantum finished (atomic) */
  char pad1[60];
  uint32_t gen;       /* the current quantum, from 1 (atomic) */
  uint32_t sleepers;  /* threads that stopped spinning (atomic) */
  char pad2[56];
  pthread_mutex_t lock; /* with wake: the slow path only */
  pthread_cond_t wake;
} tp_meet;

/* A thread's place in the claims of the current quantum. */
typedef struct {
  uint32_t gen;       /* the quantum it claims for */
  uint32_t pos;       /* next position: its home SMs, then all of them */
} tpm_cursor;

int tpm_init(tp_meet *m, uint32_t nsm, vt_error *e);
void tpm_free(tp_meet *m);
/* A new launch: quantum 1, nothing claimed. Not while threads meet. */
void tpm_begin(tp_meet *m);
/* The current quantum, for a cursor at its start and to wait for its end. */
uint32_t tpm_gen(const tp_meet *m);
/* An SM of cursor c's quantum for thread `index` of n to run, or nsm when
 * none is left: everything written before the quantum started is visible. */
uint32_t tpm_claim(tp_meet *m, tpm_cursor *c, uint32_t index, uint32_t n);
/* The claimed SM has run its quantum: 1 when it was the last, and then the
 * caller does the serial work and calls tpm_next or tpm_end. */
int tpm_done(tp_meet *m);
/* Starts the next quantum (and moves cursor c, its caller's, to it). */
void tpm_next(tp_meet *m, tpm_cursor *c);
/* The launch is over: the waiting threads return. */
void tpm_end(tp_meet *m);
/* Waits until the quantum is no longer `seen`. *spin: the calling
 * thread's spin budget in nanoseconds (0 at first), adapted here. */
void tpm_wait(tp_meet *m, uint32_t seen, int64_t *spin);
/* The spin budget after a wait of `waited` ns that ended in a sleep. */
int64_t tpm_spin_after(int64_t spin, int64_t waited);

#endif
