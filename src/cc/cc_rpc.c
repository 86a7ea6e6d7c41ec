/* The reconvergence pc set once (docs/compiler.md §4): after register
 * allocation, the auipc + setrpc pair before a SIMT branch goes where every
 * path already set the same value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

/* The rpc CSR that a SIMT branch reads is written by setrpc alone (the
 * RTL's csrfile.v keeps it until the next one; a vector branch and a join
 * leave it), so `@rpc L` (auipc + setrpc) is needed only where the CSR may
 * hold another value. A loop whose SIMT branches all reconverge at the
 * same L and that calls nothing gets one `@rpc L` in each block entering
 * it from outside (unless that block ends in a SIMT branch of its own);
 * then a forward pass over the blocks drops every `@rpc L` that all paths
 * reach with L already set. The two sides of a SIMT branch run one after
 * the other, so a side starts with what the other left: past a SIMT branch
 * the CSR is known only when nothing in its region (up to its join) calls
 * or sets another value. The bitonic sort's step loop loses two
 * instructions per iteration. */
enum { RPC_UNSEEN = INT32_MIN, RPC_UNKNOWN = INT32_MIN + 1 };

static int is_branch(const cc_minst *m) { return !strcmp(m->fmt, "j %0") || cc_branch_inverse(m->fmt); }
static int is_vbranch_fmt(const char *fmt) { return fmt[0] == 'v' && fmt[1] == 'b'; }

/* the machine successors of block b: branch targets, and the next block
 * unless it ends in a jump or a return */
static int msucc(const cc_fn *f, int b, int *out) {
  int n = 0;
  const cc_mblock *mb = &f->mb[b];
  for (int i = 0; i < mb->n; i++) {
    cc_minst *m = &mb->v[i];
    if (!is_branch(m)) continue;
    for (int o = m->nops - 1; o >= 0; o--)
      if (m->op[o].kind == CC_OP_LABEL) {
        out[n++] = m->op[o].v;
        break;
      }
  }
  const char *last = mb->n ? mb->v[mb->n - 1].fmt : "";
  if (strcmp(last, "j %0") && strcmp(last, "ret") && b + 1 < f->nbb) out[n++] = b + 1;
  return n;
}

static int32_t rpc_after(const cc_mblock *mb, int32_t s) {
  for (int i = 0; i < mb->n; i++) {
    if (!strcmp(mb->v[i].fmt, "@rpc %0")) s = mb->v[i].op[0].v;
    else if (!strcmp(mb->v[i].fmt, "@call %0")) s = RPC_UNKNOWN;
  }
  return s;
}

/* one `@rpc label` into block p, before the branches and jumps that end it */
static int insert_rpc(cc_fn *f, int p, int label) {
  cc_mblock *mb = &f->mb[p];
  int at = mb->n;
  while (at > 0 && is_branch(&mb->v[at - 1])) at--;
  if (mb->n == mb->cap) {
    cc_minst *v = realloc(mb->v, sizeof *v * (size_t)(mb->cap + 4));
    if (!v) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
    mb->v = v;
    mb->cap += 4;
  }
  memmove(mb->v + at + 1, mb->v + at, sizeof *mb->v * (size_t)(mb->n - at));
  mb->v[at] = (cc_minst){.fmt = "@rpc %0", .op = {cc_lab(label)}, .nops = 1};
  mb->n++;
  return 0;
}

int cc_rpc_once(cc_fn *f) {
  int nb = f->nbb, rc = -1, maxn = 0;
  for (int b = 0; b < nb; b++)
    if (f->mb[b].n > maxn) maxn = f->mb[b].n;
  /* the machine CFG once: succ[b] at sv + so[b], so[b + 1] - so[b] of them */
  int *so = calloc((size_t)nb + 2, sizeof *so), *sv = NULL, *latch = malloc(sizeof *latch * ((size_t)nb + 1));
  int32_t *in = malloc(sizeof *in * ((size_t)nb + 1));
  int *tmp = malloc(sizeof *tmp * ((size_t)maxn + 2)), *work = NULL;
  uint8_t *clean = NULL, *seen = NULL;
  if (!so || !latch || !in || !tmp) goto oom;
  for (int b = 0; b < nb; b++) so[b + 1] = so[b] + msucc(f, b, tmp);
  if (!(sv = malloc(sizeof *sv * ((size_t)so[nb] + 1)))) goto oom;
  for (int b = 0; b < nb; b++) msucc(f, b, sv + so[b]);
  /* loops: a branch back to an earlier block in layout (reverse post-) order */
  for (int b = 0; b < nb; b++) latch[b] = -1;
  for (int b = 0; b < nb; b++)
    for (int s = so[b]; s < so[b + 1]; s++)
      if (sv[s] <= b && b > latch[sv[s]]) latch[sv[s]] = b;
  long budget = 4L << 20; /* instructions looked at for loops: a bound for huge kernels */
  for (int h = 0; h < nb && budget > 0; h++) {
    if (latch[h] < 0) continue;
    int32_t label = RPC_UNSEEN;
    int ok = 1;
    for (int b = h; b <= latch[h] && ok; b++) {
      budget -= f->mb[b].n;
      for (int i = 0; i < f->mb[b].n && ok; i++) {
        const cc_minst *m = &f->mb[b].v[i];
        if (!strcmp(m->fmt, "@call %0")) ok = 0;
        else if (!strcmp(m->fmt, "@rpc %0")) {
          if (label != RPC_UNSEEN && label != m->op[0].v) ok = 0;
          label = m->op[0].v;
        }
      }
    }
    if (!ok || label == RPC_UNSEEN) continue;
    /* the blocks entering the loop from before it; a scan of the edges
     * (the CFG is not changed by an insertion: no branch is added) */
    for (int p = 0; p < h; p++) {
      int enters = 0;
      for (int s = so[p]; s < so[p + 1]; s++) enters |= sv[s] == h;
      if (!enters) continue;
      const cc_mblock *mb = &f->mb[p];
      int ends_simt = 0;
      for (int i = mb->n - 1; i >= 0 && is_branch(&mb->v[i]); i--) ends_simt |= is_vbranch_fmt(mb->v[i].fmt);
      if (!ends_simt && insert_rpc(f, p, label)) goto done;
    }
    budget -= h;
  }
  /* a SIMT branch whose region only ever sets its own value (or nothing) */
  if (!(clean = calloc((size_t)nb + 1, 1)) || !(seen = calloc((size_t)nb + 1, 1)) ||
      !(work = malloc(sizeof *work * ((size_t)nb + 1))))
    goto oom;
  for (int b = 0; b < nb && budget > 0; b++) {
    if (!f->divbr[b]) continue;
    int32_t label = rpc_after(&f->mb[b], RPC_UNKNOWN);
    int ok = label != RPC_UNKNOWN, nw = 0, nseen = 0;
    for (int s = 0; s < f->nsucc[b]; s++) work[nw++] = f->succ[b][s];
    while (nw && ok) {
      int x = work[--nw];
      if (x == f->ipdom[b] || seen[x]) continue;
      seen[x] = 1;
      work[nb - ++nseen] = x; /* the visited, from the array's end, to clear */
      budget -= f->mb[x].n;
      for (int i = 0; i < f->mb[x].n && ok; i++) {
        const cc_minst *m = &f->mb[x].v[i];
        ok = strcmp(m->fmt, "@call %0") && (strcmp(m->fmt, "@rpc %0") || m->op[0].v == label);
      }
      for (int s = 0; s < f->nsucc[x] && nw + nseen < nb; s++) work[nw++] = f->succ[x][s];
      if (nw + nseen >= nb) ok = 0; /* (no room left: not known) */
    }
    for (int i = 0; i < nseen; i++) seen[work[nb - 1 - i]] = 0;
    clean[b] = (uint8_t)(ok && budget > 0);
  }
  /* what the CSR holds at each block's start, on every path (a must-pass) */
  for (int b = 0; b < nb; b++) in[b] = RPC_UNSEEN;
  in[0] = RPC_UNKNOWN;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = 0; b < nb; b++) {
      if (in[b] == RPC_UNSEEN) continue;
      int32_t out = rpc_after(&f->mb[b], in[b]);
      if (f->divbr[b] && !clean[b]) out = RPC_UNKNOWN;
      for (int s = so[b]; s < so[b + 1]; s++) {
        int32_t *t = &in[sv[s]], v = *t == RPC_UNSEEN || *t == out ? out : RPC_UNKNOWN;
        if (v != *t) *t = v, changed = 1;
      }
    }
  }
  for (int b = 0; b < nb; b++) {
    cc_mblock *mb = &f->mb[b];
    int32_t st = in[b];
    int k = 0;
    for (int i = 0; i < mb->n; i++) {
      cc_minst *m = &mb->v[i];
      if (!strcmp(m->fmt, "@rpc %0")) {
        if (st == m->op[0].v) continue; /* already set on every path here */
        st = m->op[0].v;
      } else if (!strcmp(m->fmt, "@call %0")) {
        st = RPC_UNKNOWN;
      }
      mb->v[k++] = *m;
    }
    mb->n = k;
  }
  rc = 0;
  goto done;
oom:
  vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
done:
  free(so), free(sv), free(latch), free(in), free(tmp), free(clean), free(seen), free(work);
  return rc;
}
