/* Printing the timing model's statistics: readable lines and JSON. */
#include "timing.h"

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

typedef unsigned long long ull;

/* Per-SM counters beyond cycles, issued and stalls, in print order. */
#define SM_COUNTERS(X)                                                                                  \
  X(l1_hits) X(l1_misses) X(l1_merges) X(l1i_hits) X(l1i_misses) X(l1i_merges) X(fetch_replays) X(gmem_insns)          \
  X(gmem_lanes) X(gmem_lines) X(shared_accesses) X(bank_conflicts) X(barrier_wait) X(rf_read_conflicts)     \
  X(rf_write_conflicts) X(dma_copies) X(dma_bytes) X(dma_busy) X(dma_wait)
#define MEM_COUNTERS(X) X(l2_hits) X(l2_misses) X(l2_merges) X(l2_writebacks) X(dram_reads) X(dram_writes) X(xbar_waits) X(set_waits)

void vt_timing_print(const vt_timing_stats *s, FILE *f) {
  uint64_t issued = 0;
  for (uint32_t i = 0; i < s->num_sm; i++) issued += s->sm[i].issued;
  fprintf(f, "cycles = %llu\n", (ull)s->cycles);
  fprintf(f, "timed_launches = %llu\n", (ull)s->launches);
  fprintf(f, "ipc = %.3f\n", ratio(issued, s->cycles));
#define P(k) fprintf(f, #k " = %llu\n", (ull)s->mem.k);
  MEM_COUNTERS(P)
#undef P
  for (uint32_t i = 0; i < s->num_sm; i++) {
    const vt_sm_timing *m = &s->sm[i];
    fprintf(f, "sm%u.cycles = %llu\nsm%u.issued = %llu\nsm%u.ipc = %.3f\n", i, (ull)m->cycles, i, (ull)m->issued, i,
            ratio(m->issued, m->cycles));
    for (int k = 0; k < VT_STALL_COUNT; k++)
      fprintf(f, "sm%u.stall_%s = %llu\n", i, vt_stall_name((vt_stall)k), (ull)m->stall[k]);
#define P(k) fprintf(f, "sm%u." #k " = %llu\n", i, (ull)m->k);
    SM_COUNTERS(P)
#undef P
    /* lanes per line: 1 when every lane needs its own line */
    fprintf(f, "sm%u.coalescing = %.3f\n", i, ratio(m->gmem_lanes, m->gmem_lines));
  }
}

void vt_timing_print_json(const vt_timing_stats *s, FILE *f) {
  uint64_t issued = 0;
  for (uint32_t i = 0; i < s->num_sm; i++) issued += s->sm[i].issued;
  fprintf(f, "{\"cycles\": %llu, \"launches\": %llu, \"ipc\": %.4f", (ull)s->cycles, (ull)s->launches,
          ratio(issued, s->cycles));
#define P(k) fprintf(f, ", \"" #k "\": %llu", (ull)s->mem.k);
  MEM_COUNTERS(P)
#undef P
  fputs(", \"sm\": [", f);
  for (uint32_t i = 0; i < s->num_sm; i++) {
    const vt_sm_timing *m = &s->sm[i];
    fprintf(f, "%s{\"cycles\": %llu, \"issued\": %llu, \"ipc\": %.4f, \"stalls\": {", i ? ", " : "", (ull)m->cycles,
            (ull)m->issued, ratio(m->issued, m->cycles));
    for (int k = 0; k < VT_STALL_COUNT; k++)
      fprintf(f, "%s\"%s\": %llu", k ? ", " : "", vt_stall_name((vt_stall)k), (ull)m->stall[k]);
    fputc('}', f);
#define P(k) fprintf(f, ", \"" #k "\": %llu", (ull)m->k);
    SM_COUNTERS(P)
#undef P
    fprintf(f, ", \"coalescing\": %.4f}", ratio(m->gmem_lanes, m->gmem_lines));
  }
  fputs("]}", f);
}
