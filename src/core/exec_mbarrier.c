/* ISA 2025 cp_dma_mbarrier (seed 002 "自定义异步数据拷贝指令"): a warp
 * continues once its own copies are complete and every warp of its group
 * has arrived. The warps of a work-group form groups of 4 by warp index
 * (wid / 4); the last group of a work-group whose warp count is not a
 * multiple of 4 has only the remaining warps, and waits for them alone.
 *
 * It runs as the work-group barrier does (exec_custom.c): the warp marks
 * itself arrived and re-executes the instruction (a "spin" commit) until
 * its group's generation moves on. Ended warps count as arrived under the
 * same rule as at the work-group barrier (barrier_counts_ended). In the
 * functional model every cp_dma copy is complete when it retires, so the
 * copies of the group are done by the time the last warp arrives. */
#include <stdio.h>

#include "core.h"
#include "exec.h"

/* members of group g: warps [4g, end) */
static uint32_t group_end(const vt_wg *wg, uint32_t g) {
  return 4 * g + 4 < wg->nwarps ? 4 * g + 4 : wg->nwarps;
}

/* arrivals the group has, ended warps included where they count */
static uint32_t group_have(const vt_device *d, const vt_wg *wg, uint32_t g) {
  uint32_t have = wg->mbar[g].arrived;
  if (d->cfg.barrier_counts_ended)
    for (uint32_t i = 4 * g; i < group_end(wg, g); i++) have += wg->warps[i]->ended;
  return have;
}

int mbar_waits(const vt_device *d, const vt_warp *w) {
  const vt_wg *wg = w->wg;
  uint32_t g = w->wid / 4;
  return w->mbar_wait && w->mbar_gen == wg->mbar[g].gen &&
         group_have(d, wg, g) < group_end(wg, g) - 4 * g;
}

HANDLER(cp_dma_mbarrier) {
  (void)in;
  vt_warp *w = x->w;
  vt_wg *wg = x->wg;
  uint32_t g = w->wid / 4;
  vt_mbar *mb = &wg->mbar[g];
  if (!w->mbar_wait) {
    w->mbar_wait = 1;
    w->mbar_gen = mb->gen;
    mb->arrived++;
  } else if (w->mbar_gen != mb->gen) {
    w->mbar_wait = 0; /* released by another warp of the group */
    x->st->barriers++;
    return 0;
  } else {
    x->spin = 1;
  }
  if (group_have(x->d, wg, g) >= group_end(wg, g) - 4 * g) {
    mb->gen++;
    mb->arrived = 0;
    w->mbar_wait = 0;
    x->spin = 0;
    x->st->barriers++;
    return 0;
  }
  x->npc = x->pc;
  x->waits = !x->spin;
  return 0;
}

/* appends " i" for each member of group g that `pick` selects */
static void list_warps(char *buf, size_t n, const vt_wg *wg, uint32_t g,
                       int (*pick)(const vt_warp *)) {
  size_t len = 0;
  buf[0] = 0;
  for (uint32_t i = 4 * g; i < group_end(wg, g); i++)
    if (pick(wg->warps[i]) && len < n - 8) len += (size_t)snprintf(buf + len, n - len, " %u", i);
  if (!len) snprintf(buf, n, " none");
}
static int at_mbar(const vt_warp *w) { return !w->ended && w->mbar_wait; }
static int at_bar(const vt_warp *w) { return !w->ended && w->bar_wait; }
static int has_ended(const vt_warp *w) { return w->ended; }

int mbar_deadlock(vt_device *d, vt_worker *k, const vt_wg *wg, vt_error *e) {
  uint32_t g = 0, pc = 0, insn = 0;
  for (; 4 * g < wg->nwarps; g++) {
    uint32_t i = 4 * g;
    while (i < group_end(wg, g) && !at_mbar(wg->warps[i])) i++;
    if (i < group_end(wg, g)) {
      pc = wg->warps[i]->pc;
      break;
    }
  }
  if (4 * g >= wg->nwarps) return 0;
  char waiting[64], ended[64], other[64];
  list_warps(waiting, sizeof waiting, wg, g, at_mbar);
  list_warps(ended, sizeof ended, wg, g, has_ended);
  list_warps(other, sizeof other, wg, g, at_bar);
  int dummy;
  const uint8_t *h = mem_host_t(&d->mem, k->tlb, pc, 4, ACC_X, &dummy);
  if (h) insn = ld_u32(h);
  vt_fail(
      e, VT_ERR_DEADLOCK,
      "cp_dma_mbarrier can never complete: work-group %u, group %u (warps %u..%u): warps%s wait, "
      "warps%s ended, warps%s wait at the work-group barrier",
      wg->id, g, 4 * g, group_end(wg, g) - 1, waiting, ended, other);
  vt_err_ctx(e, (int)d->l.kernel_id, (int)wg->id, -1, -1, pc, insn);
  return -1;
}
