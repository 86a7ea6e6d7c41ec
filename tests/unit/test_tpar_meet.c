/* The parallel timing launch's quantum sharing (src/timing/tpar_meet.c):
 * host threads claim the SMs of each quantum, the thread that finishes the
 * last one does the serial step and starts the next; each thread claims
 * its home SMs first, then any left. Checked with plain
 * (non-atomic) counters that a lost or doubled claim, an SM run in the
 * wrong quantum or a serial step that overlaps a run would change: every
 * SM runs exactly once per quantum, in order, and the serial step runs
 * once between two quanta, seeing every SM done. Some runs sleep longer
 * than the longest spin, so the sleeping path is taken too. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "tpar_meet.h"

#define MAX_SM 8

typedef struct {
  tp_meet m;
  uint32_t nsm, quanta, threads;
  uint32_t quantum;      /* quanta completed: written by the serial step only */
  uint32_t ran[MAX_SM];  /* each SM's runs */
  uint32_t serial;       /* serial steps */
  uint32_t bad;          /* an SM run in the wrong quantum, or a serial step too early */
  uint32_t sleep_every;  /* 0: never, else every this many runs of SM 0 sleep 100 us */
  int over;
} rig;

static void run_sm(rig *r, uint32_t s) {
  if (r->ran[s] != r->quantum) r->bad++;
  r->ran[s]++;
  if (s == 0 && r->sleep_every && r->ran[0] % r->sleep_every == 0) {
    struct timespec ts = {0, 100000};
    nanosleep(&ts, NULL);
  }
}

typedef struct {
  rig *r;
  uint32_t index;
} thread_arg;

/* The loop of tpar.c's quanta(), with run_sm for an SM's quantum. */
static void *loop(void *arg) {
  rig *r = ((thread_arg *)arg)->r;
  uint32_t index = ((thread_arg *)arg)->index;
  int64_t spin = 0;
  for (;;) {
    tpm_cursor c = {tpm_gen(&r->m), 0};
    if (__atomic_load_n(&r->over, __ATOMIC_RELAXED)) return NULL;
    for (uint32_t s; (s = tpm_claim(&r->m, &c, index, r->threads)) < r->nsm;) {
      run_sm(r, s);
      if (!tpm_done(&r->m)) continue;
      for (uint32_t i = 0; i < r->nsm; i++)
        if (r->ran[i] != r->quantum + 1) r->bad++;
      r->serial++;
      r->quantum++;
      if (r->quantum == r->quanta) {
        __atomic_store_n(&r->over, 1, __ATOMIC_RELAXED);
        tpm_end(&r->m);
        return NULL;
      }
      tpm_next(&r->m, &c);
    }
    tpm_wait(&r->m, c.gen, &spin);
  }
}

/* `started` of the threads run: the others' home SMs are left to them */
static void check(uint32_t threads, uint32_t started, uint32_t nsm, uint32_t quanta, uint32_t sleep_every) {
  rig r = {.nsm = nsm, .quanta = quanta, .threads = threads, .sleep_every = sleep_every};
  vt_error e;
  assert_int_equal(tpm_init(&r.m, nsm, &e), 0);
  pthread_t tid[8];
  thread_arg arg[8];
  for (uint32_t i = 0; i < started; i++) arg[i] = (thread_arg){&r, i};
  for (uint32_t i = 1; i < started; i++) assert_int_equal(pthread_create(&tid[i], NULL, loop, &arg[i]), 0);
  loop(&arg[0]);
  for (uint32_t i = 1; i < started; i++) pthread_join(tid[i], NULL);
  tpm_free(&r.m);
  assert_int_equal(r.bad, 0);
  assert_int_equal(r.serial, quanta);
  for (uint32_t s = 0; s < nsm; s++) assert_int_equal(r.ran[s], quanta);
}

static void test_two_threads_two_sms(void **state) {
  (void)state;
  check(2, 2, 2, 20000, 0);
}

static void test_more_sms_than_threads(void **state) {
  (void)state;
  check(3, 3, 8, 5000, 0);
}

static void test_more_threads_than_sms(void **state) {
  (void)state;
  check(4, 4, 1, 5000, 0);
}

/* SM 0 sleeps 100 us every 50 runs: the other threads outwait their spin */
static void test_sleeping_waiters(void **state) {
  (void)state;
  check(3, 3, 4, 2000, 50);
}

static void test_one_thread(void **state) {
  (void)state;
  check(1, 1, 3, 1000, 0);
}

/* two of three threads run: the third's home SMs (2 and 5) are claimed by them */
static void test_missing_thread(void **state) {
  (void)state;
  check(3, 2, 6, 2000, 0);
}

/* The spin budget after a wait that ended in a sleep (ns): a wait of a
 * running thread (under 50 us) makes it twice that wait, never less than
 * it was and at most 50 us; a longer wait halves it. */
static void test_spin_budget(void **state) {
  (void)state;
  assert_int_equal(tpm_spin_after(1000, 3000), 6000);
  assert_int_equal(tpm_spin_after(8000, 3000), 8000);
  assert_int_equal(tpm_spin_after(8000, 4001), 8002);
  assert_int_equal(tpm_spin_after(1000, 30000), 50000);
  assert_int_equal(tpm_spin_after(50000, 49999), 50000);
  assert_int_equal(tpm_spin_after(8000, 50000), 4000);
  assert_int_equal(tpm_spin_after(8000, 2000000), 4000);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_two_threads_two_sms), cmocka_unit_test(test_more_sms_than_threads),
      cmocka_unit_test(test_more_threads_than_sms), cmocka_unit_test(test_sleeping_waiters),
      cmocka_unit_test(test_one_thread),      cmocka_unit_test(test_missing_thread),
      cmocka_unit_test(test_spin_budget),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
