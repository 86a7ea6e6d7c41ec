/* The bfs workload: a deterministic random graph, the host loop over BFS
 * levels, and the same level-synchronous sweeps in plain C. */
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define BFS_UNREACHED 0xffffffffu

/* Out-degree of a node: mostly 0-7, one node in 16 a hub of 16-63 edges
 * (about 5.8 on average), so lanes of a warp loop for very different
 * lengths. */
static uint32_t degree(uint32_t *s) {
  uint32_t r = bench_lcg(s);
  return (r >> 28) == 0 ? 16 + (r >> 8) % 48 : (r >> 8) % 8;
}

/* args: row, col, dist, ctl, n; source node 0 */
static int make_bfs(bench_inst *b, double scale) {
  uint32_t n = bench_scaled(1u << 17, scale, 128), s = 5, m = 0;
  for (uint32_t i = 0; i < n; i++) {
    m += degree(&s);
    bench_lcg(&s); /* the targets use a second stream, below */
  }
  if (bench_buf(b, (n + 1) * 4) || bench_buf(b, m ? m * 4 : 4) || bench_buf(b, n * 4) ||
      bench_buf(b, 8))
    return -1;
  bench_scalar(b, n);
  uint32_t *row = (uint32_t *)b->args[0].init, *col = (uint32_t *)b->args[1].init;
  uint32_t *dist = (uint32_t *)b->args[2].init, t = 17, e = 0;
  s = 5;
  for (uint32_t i = 0; i < n; i++) {
    row[i] = e;
    uint32_t d = degree(&s);
    bench_lcg(&s);
    for (uint32_t k = 0; k < d; k++) col[e++] = bench_lcg(&t) % n;
    dist[i] = BFS_UNREACHED;
  }
  row[n] = e;
  dist[0] = 0;
  bench_geometry_1d(b, n, 128);
  snprintf(b->size, sizeof b->size, "%u nodes, %u edges", n, m);
  return bench_ref_buf(b, 2);
}

static void native_bfs(bench_inst *b) {
  const uint32_t *row = (const uint32_t *)b->args[0].init, *col = (const uint32_t *)b->args[1].init;
  uint32_t n = b->args[4].value, *dist = (uint32_t *)b->ref;
  memcpy(dist, b->args[2].init, (size_t)n * 4);
  for (uint32_t level = 0;; level++) {
    int changed = 0;
    for (uint32_t i = 0; i < n; i++) {
      if (dist[i] != level) continue;
      for (uint32_t e = row[i]; e < row[i + 1]; e++)
        if (dist[col[e]] == BFS_UNREACHED) {
          dist[col[e]] = level + 1;
          changed = 1;
        }
    }
    if (!changed) break;
  }
}

/* After launch `done` (level done-1): stop if it reached nothing, else
 * level = done and clear the flag. */
static int next_bfs(bench_inst *b, vt_device *d, uint32_t done, int *again, vt_error *e) {
  uint32_t ctl[2];
  if (vt_mem_read(d, b->args[3].addr, ctl, sizeof ctl, e)) return -1;
  *again = ctl[1] != 0;
  if (!*again) return 0;
  ctl[0] = done;
  ctl[1] = 0;
  return vt_mem_write(d, b->args[3].addr, ctl, sizeof ctl, e);
}

const bench_workload bench_w_bfs = {
    "bfs",
    "bench/kernels/bfs.S",
    "bfs",
    "level-synchronous BFS, one launch per level: divergent edge loops, scattered loads",
    1.0 / 128,
    make_bfs,
    native_bfs,
    next_bfs};
