/* Statistics report: a table for people, JSON for scripts. */
#include <stdio.h>
#include <stddef.h>

#include "device.h"

typedef struct {
  const char *name;
  size_t off;
} stat_field;

#define F(n) {#n, offsetof(vt_stats, n)}
static const stat_field fields[] = {
    F(kernels),      F(wgs),           F(warps),           F(warp_insns),
    F(thread_insns), F(vbranches),     F(divergent_branches), F(joins),
    F(reconvergences), F(barriers),    F(loads),           F(stores),
    F(atomics),      F(load_bytes),    F(store_bytes),     F(local_accesses),
    F(private_accesses), F(global_accesses), F(max_simt_depth), F(parallel_launches),
};
#define NFIELDS (sizeof fields / sizeof fields[0])

static uint64_t val(const vt_stats *s, const stat_field *f) {
  return *(const uint64_t *)((const char *)s + f->off);
}

void vt_stats_print(const vt_stats *s, FILE *f) {
  for (size_t i = 0; i < NFIELDS; i++)
    fprintf(f, "%-20s %14llu\n", fields[i].name, (unsigned long long)val(s, &fields[i]));
  for (int u = 0; u < UNIT_COUNT; u++)
    fprintf(f, "unit.%-15s %14llu\n", isa_unit_name((isa_unit)u),
            (unsigned long long)s->unit_insns[u]);
}

void vt_stats_print_json(const vt_stats *s, FILE *f) {
  fputc('{', f);
  for (size_t i = 0; i < NFIELDS; i++)
    fprintf(f, "%s\"%s\": %llu", i ? ", " : "", fields[i].name,
            (unsigned long long)val(s, &fields[i]));
  fputs(", \"units\": {", f);
  for (int u = 0; u < UNIT_COUNT; u++)
    fprintf(f, "%s\"%s\": %llu", u ? ", " : "", isa_unit_name((isa_unit)u),
            (unsigned long long)s->unit_insns[u]);
  fputs("}}\n", f);
}

/* Sums per-thread statistics (par_launch.c); the deepest SIMT stack is a maximum. */
void vt_stats_add(vt_stats *dst, const vt_stats *src) {
  _Static_assert(sizeof(vt_stats) % sizeof(uint64_t) == 0, "vt_stats holds only uint64_t counters");
  uint64_t *a = (uint64_t *)dst;
  const uint64_t *b = (const uint64_t *)src;
  size_t depth = offsetof(vt_stats, max_simt_depth) / sizeof(uint64_t);
  for (size_t i = 0; i < sizeof(vt_stats) / sizeof(uint64_t); i++)
    a[i] = i == depth ? (a[i] > b[i] ? a[i] : b[i]) : a[i] + b[i];
}
