/* The control-flow graph of a kernel, its post-dominators, and the
 * uniformity analysis that decides what lives in scalar registers.
 *
 * A value is divergent (one value per work-item, a vector register) when a
 * work-item builtin, an atomic or private memory produces it, when an
 * operand is divergent, when it is a phi where paths from two sides of a
 * divergent branch meet, or when it is defined inside the region of a
 * divergent branch (up to its immediate post-dominator) and used outside
 * it: work-items leave a loop with a divergent exit at different
 * iterations, each keeping its own value. Branches on divergent conditions
 * become SIMT branches; the rest stays scalar. Iterated to a fixed point,
 * since new divergent branches make new regions. Uniform values computed
 * inside a region stay scalar: the scalar unit runs them once for the
 * active work-items, which all agree on them (cc_regalloc.c keeps such
 * registers apart across the region). */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static int *alloc_ints(int n, int fill) {
  int *p = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  if (p)
    for (int i = 0; i < n; i++) p[i] = fill;
  return p;
}

int cc_build_cfg(cc_fn *f) {
  int n = (int)LLVMCountBasicBlocks(f->fn);
  f->nbb = n;
  f->bb = calloc((size_t)n + 1, sizeof *f->bb);
  f->succ = calloc((size_t)n + 1, sizeof *f->succ);
  f->nsucc = calloc((size_t)n + 1, sizeof *f->nsucc);
  f->divbr = calloc((size_t)n + 1, 1);
  f->inreg = calloc((size_t)n + 1, 1);
  f->isjoin = calloc((size_t)n + 1, 1);
  f->ipdom = alloc_ints(n, -1);
  if (!f->bb || !f->succ || !f->nsucc || !f->divbr || !f->inreg || !f->isjoin || !f->ipdom) goto oom;
  /* layout = reverse post-order from the entry: every definition is laid
   * out (and selected) before its uses outside phis */
  {
    LLVMBasicBlockRef *stk = calloc((size_t)n + 1, sizeof *stk), *po = calloc((size_t)n + 1, sizeof *po);
    unsigned *next = calloc((size_t)n + 1, sizeof *next);
    cc_map seen = {0};
    int sp = 0, np = 0, bad = !stk || !po || !next;
    if (!bad) {
      stk[sp++] = LLVMGetEntryBasicBlock(f->fn);
      bad = cc_map_put(&seen, stk[0], 0);
    }
    while (!bad && sp) {
      LLVMBasicBlockRef b = stk[sp - 1];
      LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
      unsigned k = next[sp - 1];
      if (t && k < LLVMGetNumSuccessors(t)) {
        next[sp - 1]++;
        LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
        if (cc_map_get(&seen, s) < 0 && sp < n) {
          bad = cc_map_put(&seen, s, 0);
          next[sp] = 0;
          stk[sp++] = s;
        }
      } else {
        po[np++] = b;
        sp--;
      }
    }
    for (int k = 0; !bad && k < np; k++) {
      f->bb[k] = po[np - 1 - k];
      bad = cc_map_put(&f->blk, f->bb[k], k);
    }
    free(stk);
    free(po);
    free(next);
    cc_map_free(&seen);
    if (bad) goto oom;
    n = f->nbb = np;
  }
  int i;
  for (i = 0; i < n; i++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->bb[i]);
    if (!t) return vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a block without terminator", f->name);
    int ns = (int)LLVMGetNumSuccessors(t);
    f->succ[i] = alloc_ints(ns, 0);
    if (!f->succ[i]) goto oom;
    f->nsucc[i] = ns;
    for (int s = 0; s < ns; s++) f->succ[i][s] = cc_map_get(&f->blk, LLVMGetSuccessor(t, (unsigned)s));
  }
  /* post-dominators (Cooper, Harvey, Kennedy) on the reversed graph; node n
   * is the exit every returning block leads to */
  int *npred = calloc((size_t)n + 1, sizeof *npred), **pred = calloc((size_t)n + 1, sizeof *pred);
  int *po = alloc_ints(n + 1, -1), *order = alloc_ints(n + 1, 0), *stack = alloc_ints(2 * (n + 1), 0);
  int *dom = alloc_ints(n + 1, -1);
  int rc = -1;
  if (!npred || !pred || !po || !order || !stack || !dom) goto done;
  /* reverse-graph successors of x = forward predecessors of x */
  for (i = 0; i < n; i++)
    for (int s = 0; s < f->nsucc[i]; s++) npred[f->succ[i][s]]++;
  for (i = 0; i < n; i++)
    if (!f->nsucc[i]) npred[n]++;
  for (i = 0; i <= n; i++) {
    pred[i] = alloc_ints(npred[i], 0);
    if (!pred[i]) goto done;
    npred[i] = 0;
  }
  for (i = 0; i < n; i++) {
    for (int s = 0; s < f->nsucc[i]; s++) pred[f->succ[i][s]][npred[f->succ[i][s]]++] = i;
    if (!f->nsucc[i]) pred[n][npred[n]++] = i;
  }
  /* iterative DFS from the exit for a post-order numbering */
  {
    int sp = 0, cnt = 0;
    uint8_t *seen = calloc((size_t)n + 1, 1);
    if (!seen) goto done;
    stack[sp++] = n;
    stack[sp++] = 0;
    seen[n] = 1;
    while (sp) {
      int x = stack[sp - 2], k = stack[sp - 1];
      if (k < npred[x]) {
        stack[sp - 1]++;
        int y = pred[x][k];
        if (!seen[y]) {
          seen[y] = 1;
          stack[sp++] = y;
          stack[sp++] = 0;
        }
      } else {
        sp -= 2;
        po[x] = cnt;
        order[cnt++] = x;
      }
    }
    free(seen);
    dom[n] = n;
    for (int changed = 1; changed;) {
      changed = 0;
      for (int k = cnt - 2; k >= 0; k--) { /* reverse post-order, exit first */
        int b = order[k], nd = -1;
        int ns = b == n ? 0 : f->nsucc[b];
        int exitsucc = b != n && ns == 0;
        for (int s = 0; s < ns + exitsucc; s++) {
          int p = s < ns ? f->succ[b][s] : n;
          if (dom[p] < 0) continue;
          if (nd < 0) {
            nd = p;
            continue;
          }
          int x = p, y = nd;
          while (x != y) {
            while (po[x] < po[y]) x = dom[x];
            while (po[y] < po[x]) y = dom[y];
          }
          nd = x;
        }
        if (nd >= 0 && dom[b] != nd) {
          dom[b] = nd;
          changed = 1;
        }
      }
    }
    for (i = 0; i < n; i++) f->ipdom[i] = dom[i] == n ? -1 : dom[i];
  }
  rc = 0;
done:
  if (pred)
    for (i = 0; i <= n; i++) free(pred[i]);
  free(pred);
  free(npred);
  free(po);
  free(order);
  free(stack);
  free(dom);
  if (rc) goto oom;
  return 0;
oom:
  return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
}

static int is_div_source(LLVMValueRef in) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMAlloca: return 1;
  case LLVMCall: return cc_call_is_divergent(in);
  default: return 0;
  }
}

/* Marks what divergent branch b implies: the blocks between b and its
 * post-dominator (its region), and the blocks that paths from two of its
 * successors both reach (their phis merge values of different work-items).
 * Each successor is searched separately; the post-dominator is reached but
 * not passed. */
static int mark_region(cc_fn *f, int b, uint8_t *inr) {
  int n = f->nbb, rc = 0;
  int *work = malloc(sizeof(int) * (size_t)(n + 1) * 2);
  uint8_t *seen = calloc((size_t)n + 1, 1), *cnt = calloc((size_t)n + 1, 1);
  if (!work || !seen || !cnt) {
    rc = vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
    goto done;
  }
  for (int s = 0; s < f->nsucc[b]; s++) {
    int dup = 0;
    for (int t = 0; t < s; t++) dup |= f->succ[b][t] == f->succ[b][s];
    if (dup) continue;
    memset(seen, 0, (size_t)n);
    int nw = 0;
    work[nw++] = f->succ[b][s];
    while (nw) {
      int x = work[--nw];
      if (seen[x]) continue;
      seen[x] = 1;
      if (cnt[x] < 255) cnt[x]++;
      if (x == f->ipdom[b]) continue;
      inr[x] = 1;
      f->inreg[x] = 1;
      for (int k = 0; k < f->nsucc[x] && nw < 2 * n; k++) work[nw++] = f->succ[x][k];
    }
  }
  for (int x = 0; x < n; x++)
    if (cnt[x] >= 2) f->phidiv[x] = 1;
done:
  free(work);
  free(seen);
  free(cnt);
  return rc;
}

/* The regions of the divergent branches found so far: a row of flags (one
 * per block) for each such branch only, and their list, so that a function
 * of many blocks and few divergent branches costs neither nb x nb bytes nor
 * a scan of every block per instruction. */
typedef struct {
  uint8_t **row; /* [nb]: NULL unless the block ends in a divergent branch */
  int *list, n;
} div_regions;

static void regions_free(div_regions *g) {
  for (int i = 0; g->row && i < g->n; i++) free(g->row[g->list[i]]);
  free(g->row);
  free(g->list);
}

int cc_uniformity(cc_fn *f) {
  /* number the arguments and instructions */
  int n = 0, nb = f->nbb;
  for (LLVMValueRef a = LLVMGetFirstParam(f->fn); a; a = LLVMGetNextParam(a))
    if (cc_map_put(&f->val, a, n++)) goto oom;
  for (int b = 0; b < nb; b++)
    for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[b]); in; in = LLVMGetNextInstruction(in))
      if (cc_map_put(&f->val, in, n++)) goto oom;
  f->nval = n;
  f->div = calloc((size_t)n + 1, 1);
  f->folded = calloc((size_t)n + 1, 1);
  f->vreg = alloc_ints(n, -1);
  f->grp = calloc((size_t)n + 1, sizeof *f->grp);
  f->phidiv = calloc((size_t)nb + 1, 1);
  div_regions regions = {calloc((size_t)nb + 1, sizeof *regions.row), malloc(((size_t)nb + 1) * sizeof(int)), 0};
  if (!f->div || !f->folded || !f->vreg || !f->grp || !f->phidiv || !regions.row || !regions.list) {
    regions_free(&regions);
    goto oom;
  }
  /* a struct by value is a copy in the work-item's private frame */
  for (unsigned i = 0, np = LLVMCountParams(f->fn); i < np; i++)
    if (cc_byval_type(f->fn, i)) f->div[i] = 1; /* parameters are numbered first */
  if (f->is_func) /* a device function's arguments arrive per lane, in v0.. */
    for (int k = 0; k < (int)LLVMCountParams(f->fn); k++) f->div[k] = 1;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = 0; b < nb; b++)
      for (LLVMValueRef in = LLVMGetFirstInstruction(f->bb[b]); in; in = LLVMGetNextInstruction(in)) {
        int k = cc_map_get(&f->val, in);
        if (f->div[k]) continue;
        int d = is_div_source(in) || (f->phidiv[b] && LLVMIsAPHINode(in));
        for (int o = 0, no = LLVMGetNumOperands(in); !d && o < no; o++) {
          int ko = cc_map_get(&f->val, LLVMGetOperand(in, (unsigned)o));
          if (ko >= 0 && f->div[ko]) d = 1;
        }
        /* used outside a divergent region it is defined in: work-items left
         * that region (a loop) at different times, each with its own value */
        for (int i = 0; !d && i < regions.n; i++) {
          const uint8_t *row = regions.row[regions.list[i]];
          if (!row[b]) continue;
          for (LLVMUseRef u = LLVMGetFirstUse(in); u && !d; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            int ub = LLVMIsAInstruction(user) ? cc_map_get(&f->blk, LLVMGetInstructionParent(user)) : -1;
            if (ub >= 0 && !row[ub]) d = 1;
          }
        }
        if (d) {
          f->div[k] = 1;
          changed = 1;
        }
      }
    for (int b = 0; b < nb; b++) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(f->bb[b]);
      if (f->divbr[b] || f->nsucc[b] < 2) continue;
      int kc = cc_map_get(&f->val, LLVMGetCondition(t));
      if (kc < 0 || !f->div[kc]) continue;
      if (f->ipdom[b] < 0) {
        regions_free(&regions);
        return cc_unsupported(f, t,
                              "a branch on a per-work-item condition whose paths never meet again "
                              "(no common post-dominator)");
      }
      f->divbr[b] = 1;
      f->isjoin[f->ipdom[b]] = 1;
      if (!(regions.row[b] = calloc((size_t)nb + 1, 1))) {
        regions_free(&regions);
        goto oom;
      }
      regions.list[regions.n++] = b;
      if (mark_region(f, b, regions.row[b])) {
        regions_free(&regions);
        return -1;
      }
      changed = 1;
    }
  }
  regions_free(&regions);
  return 0;
oom:
  return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
}

void cc_fn_free(cc_fn *f) {
  for (int i = 0; i < f->nbb; i++) free(f->succ ? f->succ[i] : NULL);
  free(f->succ);
  free(f->nsucc);
  free(f->bb);
  free(f->ipdom);
  free(f->divbr);
  free(f->inreg);
  free(f->isjoin);
  free(f->phidiv);
  free(f->pred1);
  free(f->div);
  free(f->folded);
  free(f->vreg);
  for (int i = 0; f->grp && i < f->nval; i++) free(f->grp[i]);
  free(f->grp);
  if (f->mb)
    for (int i = 0; i < f->nbb; i++) free(f->mb[i].v);
  free(f->mb);
  free(f->rclass);
  free(f->phys);
  cc_map_free(&f->blk);
  cc_map_free(&f->val);
}
