/* The shared L2, crossbar and DRAM (see memsys.h). */
#include "memsys.h"

#include <stdlib.h>
#include <string.h>

int ms_init(vt_memsys *m, const vt_config *c, vt_error *e) {
  memset(m, 0, sizeof *m);
  m->banks = c->l2_banks;
  m->lat_l2 = c->lat_l2;
  m->lat_dram = c->lat_dram;
  m->flush_walk = c->l2_flush_walk;
  m->cold_launch = c->l2_cold_launch != 0;
  /* 0 bytes per cycle: unlimited bandwidth */
  m->dram_busy = c->dram_bytes_per_cycle ? (c->l2_line + c->dram_bytes_per_cycle - 1) / c->dram_bytes_per_cycle : 0;
  if (cache_init(&m->l2, "L2 cache", c->l2_sets, c->l2_ways, c->l2_line, c->l2_mshrs, e)) return -1;
  m->set_free = c->l2_set_blocking ? calloc(c->l2_sets, sizeof *m->set_free) : NULL;
  if (!(m->bank_free = calloc(m->banks, sizeof *m->bank_free)) || (c->l2_set_blocking && !m->set_free)) {
    ms_free(m);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory for the L2 cache model (%u banks)", c->l2_banks);
  }
  return 0;
}

void ms_free(vt_memsys *m) {
  cache_free(&m->l2);
  free(m->bank_free);
  free(m->set_free);
  m->bank_free = NULL;
  m->set_free = NULL;
}

void ms_begin(vt_memsys *m) {
  memset(m->bank_free, 0, m->banks * sizeof *m->bank_free);
  if (m->set_free) memset(m->set_free, 0, m->l2.sets * sizeof *m->set_free);
  cache_mshr_clear(&m->l2);
  for (size_t i = 0; i < (size_t)m->l2.sets * m->l2.ways; i++) m->l2.way[i].ready = 0;
  m->dram_free = 0;
  if (m->cold_launch) cache_invalidate(&m->l2);
}

/* One line over the DRAM channel from cycle t: returns when it is done. */
static uint64_t dram(vt_memsys *m, uint64_t t) {
  uint64_t s = t > m->dram_free ? t : m->dram_free;
  m->dram_free = s + m->dram_busy;
  return s + m->lat_dram;
}

uint64_t ms_access(vt_memsys *m, uint64_t now, uint32_t addr, int write) {
  uint32_t bank = (addr >> m->l2.line_shift) % m->banks;
  uint64_t t = now > m->bank_free[bank] ? now : m->bank_free[bank];
  m->st.xbar_waits += t - now;
  m->bank_free[bank] = t + 1;
  /* with set blocking, a request waits while a miss of its set is in flight */
  uint64_t *set_free = m->set_free ? &m->set_free[(addr >> m->l2.line_shift) & (m->l2.sets - 1)] : NULL;
  if (set_free && *set_free > t) {
    m->st.set_waits += *set_free - t;
    t = *set_free;
  }
  long i = cache_find(&m->l2, addr);
  if (i >= 0) {
    if (m->l2.way[i].ready > t) m->st.l2_merges++;
    else m->st.l2_hits++;
    if (write) m->l2.way[i].dirty = 1;
    uint64_t r = m->l2.way[i].ready > t ? m->l2.way[i].ready : t;
    return r + m->lat_l2;
  }
  /* a miss: a free MSHR fetches the line (a store's partial line too:
   * write-allocate), writing a dirty victim back first */
  m->st.l2_misses++;
  uint32_t k, victim;
  uint64_t s = cache_mshr_free(&m->l2, t, &k);
  uint64_t fill = dram(m, s);
  m->st.dram_reads++;
  i = cache_alloc(&m->l2, addr, fill, &victim);
  uint64_t busy = fill;
  if (victim) {
    uint64_t wb = dram(m, s);
    if (wb > busy) busy = wb;
    m->st.dram_writes++;
    m->st.l2_writebacks++;
  }
  cache_mshr_set(&m->l2, k, busy);
  if (set_free) *set_free = busy;
  if (write) m->l2.way[i].dirty = 1;
  return fill + m->lat_l2;
}

uint64_t ms_flush(vt_memsys *m, uint64_t now) {
  size_t lines = (size_t)m->l2.sets * m->l2.ways;
  /* the RTL's directory walks every line, one a cycle (l2cache/directory_test.v, flushCount) */
  uint64_t end = now + (uint64_t)lines * m->flush_walk;
  for (size_t i = 0; i < lines; i++) {
    if (!m->l2.way[i].tag || !m->l2.way[i].dirty) continue;
    uint64_t at = now + (uint64_t)i * m->flush_walk;
    uint64_t d = dram(m, at > m->l2.way[i].ready ? at : m->l2.way[i].ready);
    if (d > end) end = d;
    m->l2.way[i].dirty = 0;
    m->st.dram_writes++;
    m->st.l2_writebacks++;
  }
  return end;
}
