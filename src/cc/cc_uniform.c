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

/* Scratch of mark_region, allocated once per function: per-block stamps and
 * counters reset through the list of blocks a search touched, so that each
 * divergent branch costs the size of its region, not of the function (a
 * per-lane switch of 20,000 cases is as many divergent branches). */
typedef struct {
  int *work, *seen, stamp, *touched, ntouched;
  uint8_t *cnt, *inr;
} region_scratch;

static int cmp_int(const void *a, const void *b) {
  return (*(const int *)a > *(const int *)b) - (*(const int *)a < *(const int *)b);
}

/* Marks what divergent branch b implies: the blocks between b and its
 * post-dominator (its region: *out, sorted, malloc'd, *nout blocks), and
 * the blocks that paths from two of its successors both reach (their phis
 * merge values of different work-items). Each successor is searched
 * separately; the post-dominator is reached but not passed. */
static int mark_region(cc_fn *f, int b, region_scratch *sc, int **out, int *nout) {
  int n = f->nbb;
  sc->ntouched = 0;
  for (int s = 0; s < f->nsucc[b]; s++) {
    int dup = 0;
    for (int t = 0; t < s; t++) dup |= f->succ[b][t] == f->succ[b][s];
    if (dup) continue;
    int nw = 0, stamp = ++sc->stamp;
    sc->work[nw++] = f->succ[b][s];
    while (nw) {
      int x = sc->work[--nw];
      if (sc->seen[x] == stamp) continue;
      sc->seen[x] = stamp;
      if (!sc->cnt[x]) sc->touched[sc->ntouched++] = x;
      if (sc->cnt[x] < 255) sc->cnt[x]++;
      if (x == f->ipdom[b]) continue;
      sc->inr[x] = 1;
      f->inreg[x] = 1;
      for (int k = 0; k < f->nsucc[x] && nw < 2 * n; k++) sc->work[nw++] = f->succ[x][k];
    }
  }
  int *list = malloc(sizeof(int) * ((size_t)sc->ntouched + 1)), nl = 0;
  for (int i = 0; i < sc->ntouched; i++) {
    int x = sc->touched[i];
    if (sc->cnt[x] >= 2) f->phidiv[x] = 1;
    if (sc->inr[x] && list) list[nl++] = x;
    sc->cnt[x] = 0;
    sc->inr[x] = 0;
  }
  if (!list) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
  qsort(list, (size_t)nl, sizeof *list, cmp_int);
  *out = list;
  *nout = nl;
  return 0;
}

/* The regions of the divergent branches found so far: each as the sorted
 * list of its blocks, and for each block the regions it lies in, so that
 * a function of many blocks costs neither blocks x branches bytes nor a
 * scan of every region per instruction. */
typedef struct {
  int **blocks, *len, n; /* per region, in the order found */
  int **of, *nof, *capof; /* per block: the regions it lies in */
} div_regions;

static void regions_free(div_regions *g, int nb) {
  for (int i = 0; g->blocks && i < g->n; i++) free(g->blocks[i]);
  for (int x = 0; g->of && x < nb; x++) free(g->of[x]);
  free(g->blocks);
  free(g->len);
  free(g->of);
  free(g->nof);
  free(g->capof);
}

static int in_region(const div_regions *g, int i, int x) {
  return bsearch(&x, g->blocks[i], (size_t)g->len[i], sizeof x, cmp_int) != NULL;
}

/* adds the region of divergent branch b (g has room for one more) */
static int add_region(cc_fn *f, div_regions *g, region_scratch *sc, int b) {
  int i = g->n, *list = NULL, nl = 0;
  if (mark_region(f, b, sc, &list, &nl)) return -1;
  g->blocks[i] = list;
  g->len[i] = nl;
  g->n++;
  for (int k = 0; k < nl; k++) {
    int x = list[k];
    if (g->nof[x] == g->capof[x]) {
      int cap = g->capof[x] ? 2 * g->capof[x] : 4, *p = realloc(g->of[x], sizeof(int) * (size_t)cap);
      if (!p) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
      g->of[x] = p;
      g->capof[x] = cap;
    }
    g->of[x][g->nof[x]++] = i;
  }
  return 0;
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
  div_regions regions = {calloc((size_t)nb + 1, sizeof(int *)), calloc((size_t)nb + 1, sizeof(int)), 0,
                         calloc((size_t)nb + 1, sizeof(int *)), calloc((size_t)nb + 1, sizeof(int)),
                         calloc((size_t)nb + 1, sizeof(int))};
  region_scratch sc = {malloc(sizeof(int) * ((size_t)nb + 1) * 2), calloc((size_t)nb + 1, sizeof(int)), 0,
                       malloc(sizeof(int) * ((size_t)nb + 1)), 0, calloc((size_t)nb + 1, 1), calloc((size_t)nb + 1, 1)};
  int rc = -1;
  if (!f->div || !f->folded || !f->vreg || !f->grp || !f->phidiv || !regions.blocks || !regions.len || !regions.of ||
      !regions.nof || !regions.capof || !sc.work || !sc.seen || !sc.touched || !sc.cnt || !sc.inr) {
    vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
    goto done;
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
        for (int j = 0; !d && j < regions.nof[b]; j++) {
          int i = regions.of[b][j];
          for (LLVMUseRef u = LLVMGetFirstUse(in); u && !d; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            int ub = LLVMIsAInstruction(user) ? cc_map_get(&f->blk, LLVMGetInstructionParent(user)) : -1;
            if (ub >= 0 && !in_region(&regions, i, ub)) d = 1;
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
        cc_unsupported(f, t,
                       "a branch on a per-work-item condition whose paths never meet again "
                       "(no common post-dominator)");
        goto done;
      }
      f->divbr[b] = 1;
      f->isjoin[f->ipdom[b]] = 1;
      if (add_region(f, &regions, &sc, b)) goto done;
      changed = 1;
    }
  }
  rc = 0;
done:
  regions_free(&regions, nb);
  free(sc.work);
  free(sc.seen);
  free(sc.touched);
  free(sc.cnt);
  free(sc.inr);
  return rc;
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
