/* Barrier parking, for the launch loops of dispatch.c (vt_device_launch)
 * and par_launch.c (worker_run). A warp whose re-check of a barrier
 * changed nothing would re-check it in every round until the barrier
 * opens, each time only counting a step and one instret: in barrier-heavy
 * kernels whose warps arrive unevenly most turns were such re-checks. It
 * is parked instead (due = VT_DUE_PARKED) and woken for the round in which
 * its re-check would first see the barrier open: the same round if its
 * slot comes after the one that opened it, else the next. Its skipped
 * re-checks are added to its instret then, and to the loop's step count
 * round by round, so the counters and the step limit are those of plain
 * round-robin (tests/unit/test_core_run_ahead.c). */
#include "core.h"

void park_warp(vt_warp *w, uint64_t *due, uint32_t j, uint64_t round, uint32_t *parked) {
  vt_wg *g = w->wg;
  w->park_round = round;
  g->park_gen = g->bar_gen;
  g->nparked++;
  (*parked)++;
  due[j] = VT_DUE_PARKED;
}

void park_wake(vt_device *d, vt_worker *k, uint64_t *due, vt_wg *g, const park_when *t, uint32_t *parked,
               uint64_t *steps, uint64_t *next) {
  uint32_t nw = d->cfg.warps_per_sm;
  for (uint32_t i = 0; i < g->nwarps && g->nparked; i++) {
    vt_warp *p = g->warps[i];
    uint32_t j = g->sm * nw + p->slot;
    if (due[j] != VT_DUE_PARKED) continue;
    uint64_t when = j > t->self ? t->round : t->at;
    uint64_t skipped = when - p->park_round - 1; /* its re-checks in the rounds between */
    p->instret += skipped;
    k->parked += skipped;
    /* counted as re-checks up to round t->counted, but from `when` it runs
     * (unsigned: a parallel worker's count of one pass may wrap, its sum
     * with the others' is right) */
    if (when <= t->counted) *steps -= t->counted - when + 1;
    due[j] = when;
    *next = when < *next ? when : *next;
    g->nparked--;
    (*parked)--;
  }
}

void park_wake_all(vt_device *d, vt_worker *k, uint64_t *due, uint32_t first, uint32_t step, uint64_t round,
                   uint32_t *parked, uint64_t *steps, uint64_t *next) {
  park_when t = {round, 0, round, round};
  for (uint32_t s = first; s < d->cfg.num_sm && *parked; s += step)
    for (uint32_t g = 0; g < d->cfg.wg_slots_per_sm; g++) {
      vt_wg *wg = &d->sms[s].wgs[g];
      if (wg->active && wg->nparked) park_wake(d, k, due, wg, &t, parked, steps, next);
    }
}

void park_advance(vt_device *d, vt_worker *k, uint64_t *due, uint32_t first, uint32_t step, uint64_t round,
                  uint64_t to, int wake, uint32_t *parked, uint64_t *steps) {
  *steps += (uint64_t)*parked * (to - round); /* their re-checks in rounds round + 1 .. to */
  uint64_t next = UINT64_MAX;
  if (wake) park_wake_all(d, k, due, first, step, to, parked, steps, &next);
}
