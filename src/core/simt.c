/* Divergence and reconvergence (docs/isa.md §4, ISS/RTL policy): a
 * divergent vector branch pushes the reconvergence entry {rpc, rpc, r} and
 * the entry of the path that runs second; the path with fewer threads runs
 * first, ties run the taken path first. join at pc == TOS.rpc pops and
 * jumps to the entry's pc with its mask (the reconvergence entry jumps to
 * the join itself, which then runs again). */
#include <stdio.h>

#include "exec.h"
#include "host_wide.h"

static void trace_simt(vt_exec *x) {
  vt_commit *c = x->c;
  if (!c) return;
  vt_warp *w = x->w;
  c->has_simt = 1;
  c->simt_mask = w->mask;
  c->simt_npc = w->simt_npc;
  c->simt_depth = w->depth;
  c->simt_stack = w->stack;
}

enum { VB_EQ, VB_NE, VB_LT, VB_GE, VB_LTU, VB_GEU };

static inline uint32_t vb_cmp(int op, uint32_t a, uint32_t b) {
  switch (op) {
  case VB_EQ: return a == b;
  case VB_NE: return a != b;
  case VB_LT: return (int32_t)a < (int32_t)b;
  case VB_GE: return (int32_t)a >= (int32_t)b;
  case VB_LTU: return a < b;
  default: return a >= b;
  }
}

/* inlined into each handler, so that op is a constant */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline int vbranch(vt_exec *x, const isa_inst *in, int op) {
  vt_warp *w = x->w;
  uint32_t r = w->mask, taken = 0, act = r & lanes_mask(w->vl);
  const uint32_t *a = w->v[in->rs2], *b = w->v[in->rs1]; /* vs2 OP vs1 */
  /* every lane compared in a plain loop (a few 256-bit compares in the AVX2
   * clone), the inactive ones masked off after: a partial mask costs what a
   * full one does, not a bit scan, compare, shift and OR per active lane
   * (stencil5 2 % faster, the other patterns within 1 %: performance.md) */
  for (uint32_t i = 0; i < 32; i++) taken |= vb_cmp(op, a[i], b[i]) << i;
  taken &= act;
  uint32_t fall = r & ~taken, target = x->pc + (uint32_t)in->imm;
  /* a target some lanes take must be an instruction address, checked here
   * whether those lanes jump now or are pushed (exec.h, jump_to) */
  if (taken && unlikely(target & 3)) return exec_misaligned_target(x, target);
  vt_stats *s = x->st;
  s->vbranches++;
  if (!taken) {
    x->npc = x->pc + 4;
  } else if (!fall) {
    x->npc = target;
  } else {
    if (w->depth + 2 > x->d->cfg.simt_stack_depth) {
      char msg[96];
      snprintf(msg, sizeof msg, "SIMT stack overflow (depth %u, limit %u)", w->depth + 2,
               x->d->cfg.simt_stack_depth);
      return exec_fault(x, VT_ERR_SIMT, -1, x->pc, msg);
    }
    uint32_t rpc = w->csr_custom[CSR_RPC - 0x800];
    /* join pops only at pc == rpc: an rpc no instruction has would leave
     * the pushed lanes stranded for ever (docs/isa.md §7) */
    if (unlikely(rpc & 3)) {
      char msg[96];
      snprintf(msg, sizeof msg, "divergent branch with misaligned reconvergence pc 0x%08x", rpc);
      return exec_fault(x, VT_ERR_SIMT, -1, rpc, msg);
    }
    w->stack[w->depth++] = (vt_simt_entry){rpc, rpc, r};
    if (popcount32(fall) < popcount32(taken)) {
      w->stack[w->depth++] = (vt_simt_entry){rpc, target, taken};
      w->mask = fall;
      x->npc = x->pc + 4;
    } else {
      w->stack[w->depth++] = (vt_simt_entry){rpc, x->pc + 4, fall};
      w->mask = taken;
      x->npc = target;
    }
    s->divergent_branches++;
    if (w->depth > s->max_simt_depth) s->max_simt_depth = w->depth;
  }
  w->simt_npc = x->npc;
  trace_simt(x);
  return 0;
}

/* the lanes' compares in 256-bit registers where the host has AVX2 */
VT_HOST_WIDE HANDLER(vbeq) { return vbranch(x, in, VB_EQ); }
VT_HOST_WIDE HANDLER(vbne) { return vbranch(x, in, VB_NE); }
VT_HOST_WIDE HANDLER(vblt) { return vbranch(x, in, VB_LT); }
VT_HOST_WIDE HANDLER(vbge) { return vbranch(x, in, VB_GE); }
VT_HOST_WIDE HANDLER(vbltu) { return vbranch(x, in, VB_LTU); }
VT_HOST_WIDE HANDLER(vbgeu) { return vbranch(x, in, VB_GEU); }

HANDLER(join) {
  (void)in;
  vt_warp *w = x->w;
  x->st->joins++;
  if (w->depth && w->stack[w->depth - 1].rpc == x->pc) {
    vt_simt_entry t = w->stack[--w->depth];
    w->mask = t.mask;
    x->npc = t.pc;
    w->simt_npc = t.pc;
    x->st->reconvergences++;
  }
  trace_simt(x);
  return 0;
}

HANDLER(setrpc) {
  uint32_t v = XR(in->rs1) + (uint32_t)in->imm;
  x->w->csr_custom[CSR_RPC - 0x800] = v;
  set_x(x, in->rd, v);
  trace_csr(x, CSR_RPC, v);
  trace_simt(x);
  return 0;
}
