/* Printing the timing model's statistics: readable lines and JSON. */
#include "timing.h"

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

void vt_timing_print(const vt_timing_stats *s, FILE *f) {
  uint64_t issued = 0;
  for (uint32_t i = 0; i < s->num_sm; i++) issued += s->sm[i].issued;
  fprintf(f, "cycles = %llu\n", (unsigned long long)s->cycles);
  fprintf(f, "timed_launches = %llu\n", (unsigned long long)s->launches);
  fprintf(f, "ipc = %.3f\n", ratio(issued, s->cycles));
  for (uint32_t i = 0; i < s->num_sm; i++) {
    const vt_sm_timing *m = &s->sm[i];
    fprintf(f, "sm%u.cycles = %llu\nsm%u.issued = %llu\nsm%u.ipc = %.3f\n", i, (unsigned long long)m->cycles, i,
            (unsigned long long)m->issued, i, ratio(m->issued, m->cycles));
    for (int k = 0; k < VT_STALL_COUNT; k++)
      fprintf(f, "sm%u.stall_%s = %llu\n", i, vt_stall_name((vt_stall)k), (unsigned long long)m->stall[k]);
    fprintf(f, "sm%u.l1_hits = %llu\nsm%u.l1_misses = %llu\nsm%u.shared_accesses = %llu\n", i,
            (unsigned long long)m->l1_hits, i, (unsigned long long)m->l1_misses, i,
            (unsigned long long)m->shared_accesses);
    fprintf(f, "sm%u.barrier_wait = %llu\n", i, (unsigned long long)m->barrier_wait);
  }
}

void vt_timing_print_json(const vt_timing_stats *s, FILE *f) {
  uint64_t issued = 0;
  for (uint32_t i = 0; i < s->num_sm; i++) issued += s->sm[i].issued;
  fprintf(f, "{\"cycles\": %llu, \"launches\": %llu, \"ipc\": %.4f, \"sm\": [", (unsigned long long)s->cycles,
          (unsigned long long)s->launches, ratio(issued, s->cycles));
  for (uint32_t i = 0; i < s->num_sm; i++) {
    const vt_sm_timing *m = &s->sm[i];
    fprintf(f, "%s{\"cycles\": %llu, \"issued\": %llu, \"ipc\": %.4f, \"stalls\": {", i ? ", " : "",
            (unsigned long long)m->cycles, (unsigned long long)m->issued, ratio(m->issued, m->cycles));
    for (int k = 0; k < VT_STALL_COUNT; k++)
      fprintf(f, "%s\"%s\": %llu", k ? ", " : "", vt_stall_name((vt_stall)k), (unsigned long long)m->stall[k]);
    fprintf(f, "}, \"l1_hits\": %llu, \"l1_misses\": %llu, \"shared_accesses\": %llu, \"barrier_wait\": %llu}",
            (unsigned long long)m->l1_hits, (unsigned long long)m->l1_misses,
            (unsigned long long)m->shared_accesses, (unsigned long long)m->barrier_wait);
  }
  fputs("]}", f);
}
