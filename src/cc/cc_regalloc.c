/* Register allocation: liveness over the machine CFG, one live interval per
 * virtual register in layout order, then linear scan over the scalar and
 * vector files. When a file runs out, the live value whose interval reaches
 * furthest is spilled everywhere: each definition goes through a short-lived
 * register and a store to its slot, each use through a load, and the
 * allocation starts again. Uniform values go to the warp's stack in local
 * memory (at sp, after the atomics scratch if there is one), per-lane
 * values to the work-item's private frame at tp (vsw.v/vlw.v, the lanes
 * interleaved by the hardware), after the private variables.
 *
 * SIMT detail: the two sides of a divergent branch run one after the other
 * in an order the hardware picks, and a vector write changes only the
 * active lanes. A vector register may therefore be shared between values of
 * both sides, but a scalar one may not: a scalar live into a divergent
 * region stays allocated over the whole region. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_budget.h"
#include "cc_internal.h"

/* allocatable registers: x5-x7 (t0-t2) are scratch of the emitter, x8 (s0)
 * is the local-data base, x10 (a0) the argument buffer, x1-x4 ABI */
static const int sgpr_pool[] = {9,  11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
                                48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
#define NSGPR ((int)(sizeof sgpr_pool / sizeof *sgpr_pool))
#define NVGPR 255 /* v1..v255 */

typedef struct {
  int start, end;
} ival;

static int oom(cc_fn *f) { return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name); }

static void use_pos(ival *iv, int r, int pos) {
  if (iv[r].start > pos) iv[r].start = pos;
  if (iv[r].end < pos) iv[r].end = pos;
}

/* the blocks of divergent branch b's region into list (their number
 * returned), marked in mark; work has room for 2 * nbb + 2 entries */
static int region(cc_fn *f, int b, uint8_t *mark, int *work, int *list) {
  int nw = 0, nl = 0;
  for (int s = 0; s < f->nsucc[b]; s++) work[nw++] = f->succ[b][s];
  while (nw) {
    int x = work[--nw];
    if (x == f->ipdom[b] || mark[x]) continue;
    mark[x] = 1;
    list[nl++] = x;
    for (int s = 0; s < f->nsucc[x] && nw < f->nbb * 2; s++) work[nw++] = f->succ[x][s];
  }
  return nl;
}

typedef struct {
  uint8_t *nospill; /* per vreg: a spill temporary or the frame base, never spilled */
  int cap;
  int nsslot, tpv; /* uniform slots used; the vreg holding tp in every lane (-1 none yet) */
  uint32_t vbase;  /* private frame offset of the first per-lane slot */
  uint32_t vfrom;  /* the offset tpv holds beyond tp: 0, or vbase when vbase is past the
                      vector loads' 11-bit offsets (more than 1 KiB of private variables) */
  int nvslot;
} spill_state;

/* one round of allocation: 0 done, 1 *victim must be spilled first, -1 error.
 * Liveness is solved only for the vregs some block uses before defining
 * them (every live-in and live-out set lies within those): a value made and
 * used inside one block, most of them, needs no bit in any set, so the sets
 * stay small in a function of 80,000 blocks and as many vregs (a 40,000-case
 * switch: dense sets of blocks x vregs bits were 800 MB each and most of
 * the compile time). */
static int alloc_round(cc_fn *f, spill_state *ss, int *victim) {
  int nb = f->nbb, nv = f->nvreg, rc = -1, ng = 0;
  int *gidx = malloc(sizeof(int) * ((size_t)nv + 1)), *glist = malloc(sizeof(int) * ((size_t)nv + 1));
  int *ldef = malloc(sizeof(int) * ((size_t)nv + 1));
  if (!gidx || !glist || !ldef) {
    free(gidx);
    free(glist);
    free(ldef);
    return oom(f);
  }
  for (int r = 0; r < nv; r++) gidx[r] = ldef[r] = -1;
  for (int b = 0; b < nb; b++) /* upward-exposed uses: the "global" vregs */
    for (int i = 0; i < f->mb[b].n; i++) {
      cc_minst *m = &f->mb[b].v[i];
      for (int o = m->ndefs; o < m->nops; o++)
        if (m->op[o].kind == CC_OP_REG && ldef[m->op[o].v] != b && gidx[m->op[o].v] < 0) {
          gidx[m->op[o].v] = ng;
          glist[ng++] = m->op[o].v;
        }
      for (int o = 0; o < m->ndefs; o++) ldef[m->op[o].v] = b;
    }
  free(ldef);
  int words = (ng + 63) / 64;
  uint64_t *use = calloc((size_t)nb * (size_t)words + 1, 8), *def = calloc((size_t)nb * (size_t)words + 1, 8);
  uint64_t *in = calloc((size_t)nb * (size_t)words + 1, 8), *out = calloc((size_t)nb * (size_t)words + 1, 8);
  int *bstart = calloc((size_t)nb + 1, sizeof(int)), *bend = calloc((size_t)nb + 1, sizeof(int));
  ival *iv = malloc(sizeof *iv * ((size_t)nv + 1));
  int *order = malloc(sizeof(int) * ((size_t)nv + 1));
  uint8_t *mark = calloc((size_t)nb + 1, 1);
  int *work = malloc(sizeof(int) * ((size_t)nb * 2 + 2)), *rlist = malloc(sizeof(int) * ((size_t)nb + 1));
  free(f->phys);
  f->phys = malloc(sizeof(int) * ((size_t)nv + 1));
  if (!use || !def || !in || !out || !bstart || !bend || !iv || !order || !mark || !work || !rlist || !f->phys) {
    oom(f);
    goto done;
  }
#define BIT(set, b, g) ((set)[(size_t)(b) * (size_t)words + (size_t)(g) / 64] >> ((g) % 64) & 1)
#define SET(set, b, g) ((set)[(size_t)(b) * (size_t)words + (size_t)(g) / 64] |= 1ull << ((g) % 64))
  int pos = 0;
  for (int r = 0; r < nv; r++) iv[r] = (ival){1 << 30, -1};
  for (int b = 0; b < nb; b++) {
    bstart[b] = pos;
    for (int i = 0; i < f->mb[b].n; i++, pos++) {
      cc_minst *m = &f->mb[b].v[i];
      for (int o = m->ndefs; o < m->nops; o++)
        if (m->op[o].kind == CC_OP_REG) {
          int r = m->op[o].v, g = gidx[r];
          if (g >= 0 && !BIT(def, b, g)) SET(use, b, g);
          use_pos(iv, r, pos);
        }
      for (int o = 0; o < m->ndefs; o++) {
        int g = gidx[m->op[o].v];
        if (g >= 0) SET(def, b, g);
        use_pos(iv, m->op[o].v, pos);
      }
    }
    bend[b] = pos > bstart[b] ? pos - 1 : pos;
    if (pos == bstart[b]) pos++; /* empty block: one position of its own */
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = nb - 1; b >= 0; b--) {
      for (int w = 0; w < words; w++) {
        uint64_t o = 0;
        for (int s = 0; s < f->nsucc[b]; s++) o |= in[(size_t)f->succ[b][s] * (size_t)words + (size_t)w];
        uint64_t i2 = use[(size_t)b * (size_t)words + (size_t)w] | (o & ~def[(size_t)b * (size_t)words + (size_t)w]);
        if (o != out[(size_t)b * (size_t)words + (size_t)w] || i2 != in[(size_t)b * (size_t)words + (size_t)w]) changed = 1;
        out[(size_t)b * (size_t)words + (size_t)w] = o;
        in[(size_t)b * (size_t)words + (size_t)w] = i2;
      }
    }
  }
  for (int b = 0; b < nb; b++)
    for (int g = 0; g < ng; g++) {
      if (BIT(in, b, g)) use_pos(iv, glist[g], bstart[b]);
      if (BIT(out, b, g)) use_pos(iv, glist[g], bend[b]);
    }
  /* scalars live into a divergent region stay live across all of it */
  for (int b = 0; b < nb; b++) {
    if (!f->divbr[b]) continue;
    int nl = region(f, b, mark, work, rlist), lo = bstart[b], hi = bend[b];
    for (int k = 0; k < nl; k++) { /* the marks are cleared for the next region as they are read */
      int x = rlist[k];
      mark[x] = 0;
      if (bstart[x] < lo) lo = bstart[x];
      if (bend[x] > hi) hi = bend[x];
    }
    for (int g = 0; g < ng; g++)
      if (f->rclass[glist[g]] == CC_S && BIT(out, b, g)) {
        use_pos(iv, glist[g], lo);
        use_pos(iv, glist[g], hi);
      }
  }
  /* linear scan: intervals by start, each takes the lowest free register */
  int n = 0;
  for (int r = 0; r < nv; r++) {
    f->phys[r] = -1;
    if (iv[r].end >= 0) order[n++] = r;
  }
  /* stable counting sort by start (positions 0..pos): an insertion sort
   * was quadratic once spilling appends temporaries that start early */
  int *cnt = calloc((size_t)pos + 2, sizeof(int)), *sorted = malloc(sizeof(int) * ((size_t)n + 1));
  if (!cnt || !sorted) {
    free(cnt);
    free(sorted);
    oom(f);
    goto done;
  }
  for (int i = 0; i < n; i++) cnt[iv[order[i]].start + 1]++;
  for (int p = 0; p <= pos; p++) cnt[p + 1] += cnt[p];
  for (int i = 0; i < n; i++) sorted[cnt[iv[order[i]].start]++] = order[i];
  memcpy(order, sorted, sizeof(int) * (size_t)n);
  free(cnt);
  free(sorted);
  int sbusy[NSGPR], vbusy[NVGPR], sown[NSGPR], vown[NVGPR];
  for (int i = 0; i < NSGPR; i++) sbusy[i] = -1;
  for (int i = 0; i < NVGPR; i++) vbusy[i] = -1;
  f->sgprs = 11; /* a0 (x10) is used by every kernel */
  f->vgprs = 0;
  for (int i = 0; i < n; i++) {
    int r = order[i], vec = f->rclass[r] != CC_S, pair = f->rclass[r] == CC_VP;
    int *busy = vec ? vbusy : sbusy, *own = vec ? vown : sown, cnt = vec ? NVGPR : NSGPR, got = -1;
    /* v1..v31 belong to the calling convention where calls are involved (cc_calls.c) */
    int first = vec && (f->is_func || f->ncalls) ? 31 : 0;
    /* a pair (v[k+1] even, v[k+2]) starts at an odd k */
    for (int k = first + (pair && !(first & 1)); k + pair < cnt; k += 1 + pair)
      if (busy[k] < iv[r].start && (!pair || busy[k + 1] < iv[r].start)) {
        got = k;
        break;
      }
    if (got < 0) { /* spill the value, this one or a live one, that reaches furthest */
      int best = ss->nospill[r] ? -1 : r;
      for (int k = first; k < cnt; k++) /* live ones only: a pair may find single registers free */
        if (busy[k] >= iv[r].start && !ss->nospill[own[k]] && (best < 0 || iv[own[k]].end > iv[best].end))
          best = own[k];
      if (best < 0) {
        cc_unsupported(f, NULL, "more values are live at once than the %s register file holds (%d), even after spilling",
                       vec ? "vector" : "scalar", cnt);
        goto done;
      }
      *victim = best;
      rc = 1;
      goto done;
    }
    busy[got] = iv[r].end;
    own[got] = r;
    if (pair) {
      busy[got + 1] = iv[r].end;
      own[got + 1] = r;
    }
    f->phys[r] = vec ? got + 1 : sgpr_pool[got];
    if (vec && got + 2 + pair > f->vgprs) f->vgprs = got + 2 + pair;
    if (!vec && sgpr_pool[got] + 1 > f->sgprs) f->sgprs = sgpr_pool[got] + 1;
  }
  rc = 0;
done:
#undef BIT
#undef SET
  free(use);
  free(def);
  free(in);
  free(out);
  free(bstart);
  free(bend);
  free(iv);
  free(order);
  free(mark);
  free(work);
  free(rlist);
  free(gidx);
  free(glist);
  return rc;
}

static int grow_nospill(cc_fn *f, spill_state *ss) {
  if (f->nvreg <= ss->cap) return 0;
  int cap = f->nvreg * 2 + 16;
  uint8_t *p = realloc(ss->nospill, (size_t)cap);
  if (!p) return oom(f);
  memset(p + ss->cap, 0, (size_t)(cap - ss->cap));
  ss->nospill = p;
  ss->cap = cap;
  return 0;
}

static int temp(cc_fn *f, spill_state *ss, int cls) {
  int t = cc_new_vreg(f, cls);
  if (t < 0 || grow_nospill(f, ss)) return -1;
  ss->nospill[t] = 1;
  return t;
}

static int push(cc_fn *f, cc_mblock *b, const cc_minst *m) {
  if (b->n == b->cap) {
    int cap = b->cap ? b->cap * 2 : 16;
    cc_minst *p = realloc(b->v, sizeof *p * (size_t)cap);
    if (!p) return oom(f);
    b->v = p;
    b->cap = cap;
  }
  b->v[b->n++] = *m;
  return 0;
}

/* the one definition of v when it is a load from the argument buffer
 * (a0 is never written in a kernel) or a constant, else NULL */
static const cc_minst *remat_def(cc_fn *f, int v) {
  const cc_minst *def = NULL;
  for (int bi = 0; bi < f->nbb; bi++)
    for (int i = 0; i < f->mb[bi].n; i++) {
      const cc_minst *m = &f->mb[bi].v[i];
      for (int o = 0; o < m->ndefs; o++)
        if (m->op[o].kind == CC_OP_REG && m->op[o].v == v) {
          if (def) return NULL;
          def = m;
        }
    }
  return def && (!strcmp(def->fmt, "lw %0, %1(a0)") || !strcmp(def->fmt, "lhu %0, %1(a0)") ||
                 !strcmp(def->fmt, "lbu %0, %1(a0)") || !strcmp(def->fmt, "li %0, %1") ||
                 !strcmp(def->fmt, "vmv.v.i %0, %1"))
             ? def
             : NULL;
}

/* a kernel argument is not spilled but loaded again at each use: its
 * definition goes, each use reads it from the argument buffer into a
 * short-lived register (a kernel may take more arguments than there are
 * registers and warp-stack slots); a constant (made once at the start,
 * cc_hoist.c) is made again at each use the same way */
static int rematerialise(cc_fn *f, spill_state *ss, int v, cc_minst def) {
  for (int bi = 0; bi < f->nbb; bi++) {
    cc_mblock old = f->mb[bi], nw = {0};
    for (int i = 0; i < old.n; i++) {
      cc_minst m = old.v[i];
      int used = 0, defd = 0;
      for (int o = 0; o < m.nops; o++)
        if (m.op[o].kind == CC_OP_REG && m.op[o].v == v) *(o < m.ndefs ? &defd : &used) = 1;
      if (defd) continue;
      if (used) {
        cc_minst ld = def;
        int t = temp(f, ss, f->rclass[v]);
        if (t < 0) goto fail;
        ld.op[0].v = t;
        for (int o = 0; o < m.nops; o++)
          if (m.op[o].kind == CC_OP_REG && m.op[o].v == v) m.op[o].v = t;
        if (push(f, &nw, &ld)) goto fail;
      }
      if (push(f, &nw, &m)) goto fail;
    }
    free(old.v);
    f->mb[bi] = nw;
    continue;
  fail:
    free(nw.v);
    return -1;
  }
  return 0;
}

/* rewrites every definition and use of vreg v through its slot */
static int spill(cc_fn *f, spill_state *ss, int v) {
  int vec = f->rclass[v] == CC_V;
  const cc_minst *al = remat_def(f, v);
  if (al) return rematerialise(f, ss, v, *al);
  int32_t off;
  if (vec) {
    if (ss->tpv < 0) { /* tp (+ vfrom) in every lane, from the kernel's first instruction */
      if ((ss->tpv = temp(f, ss, CC_V)) < 0) return -1;
      ss->vbase = (f->pds_bytes + 3) & ~3u;
      ss->vfrom = ss->vbase >= 768 ? ss->vbase : 0; /* room for 256 slots; small frames as before */
      cc_minst m[3];
      int nm = 0, s = -1;
      if (ss->vfrom && (s = temp(f, ss, CC_S)) < 0) return -1;
      if (ss->vfrom) {
        m[nm++] = (cc_minst){.fmt = "li %0, %1", .op = {cc_r(s), cc_imm((int32_t)ss->vfrom)}, .nops = 2, .ndefs = 1};
        m[nm++] = (cc_minst){.fmt = "add %0, %1, tp", .op = {cc_r(s), cc_r(s)}, .nops = 2, .ndefs = 1};
        m[nm++] = (cc_minst){.fmt = "vmv.v.x %0, %1", .op = {cc_r(ss->tpv), cc_r(s)}, .nops = 2, .ndefs = 1};
      } else {
        m[nm++] = (cc_minst){.fmt = "vmv.v.x %0, tp", .op = {cc_r(ss->tpv)}, .nops = 1, .ndefs = 1};
      }
      cc_mblock *b0 = &f->mb[0];
      for (int i = 0; i < nm; i++)
        if (push(f, b0, &m[i])) return -1;
      memmove(b0->v + nm, b0->v, sizeof *b0->v * (size_t)(b0->n - nm));
      memcpy(b0->v, m, sizeof *m * (size_t)nm);
    }
    off = (int32_t)(ss->vbase - ss->vfrom + 4u * (uint32_t)ss->nvslot++);
    if (off + 4 > 1024)
      return cc_unsupported(f, NULL, "more than 1 KiB of private memory per work-item with spilled values");
    f->pds_bytes = ss->vfrom + (uint32_t)off + 4;
  } else {
    off = f->atomics + 4 * ss->nsslot++; /* after the atomics scratch */
    f->nsslot = ss->nsslot;
    if (off + 4 > 1024)
      return cc_unsupported(f, NULL, "more than 128 uniform values spilled (the warp stack is 1 KiB)");
  }
  for (int bi = 0; bi < f->nbb; bi++) {
    cc_mblock old = f->mb[bi], nw = {0};
    for (int i = 0; i < old.n; i++) {
      cc_minst m = old.v[i];
      int used = 0, defd = 0;
      for (int o = 0; o < m.nops; o++)
        if (m.op[o].kind == CC_OP_REG && m.op[o].v == v) *(o < m.ndefs ? &defd : &used) = 1;
      if (!used && !defd) {
        if (push(f, &nw, &m)) goto fail;
        continue;
      }
      int t = temp(f, ss, vec ? CC_V : CC_S); /* one register for both: some instructions read their destination */
      if (t < 0) goto fail;
      for (int o = 0; o < m.nops; o++)
        if (m.op[o].kind == CC_OP_REG && m.op[o].v == v) m.op[o].v = t;
      cc_minst ld = vec ? (cc_minst){.fmt = "vlw.v %0, %2(%1)", .op = {cc_r(t), cc_r(ss->tpv), cc_imm(off)}, .nops = 3, .ndefs = 1}
                        : (cc_minst){.fmt = "lw %0, %1(sp)", .op = {cc_r(t), cc_imm(off)}, .nops = 2, .ndefs = 1};
      cc_minst st = vec ? (cc_minst){.fmt = "vsw.v %0, %2(%1)", .op = {cc_r(t), cc_r(ss->tpv), cc_imm(off)}, .nops = 3}
                        : (cc_minst){.fmt = "sw %0, %1(sp)", .op = {cc_r(t), cc_imm(off)}, .nops = 2};
      if ((used && push(f, &nw, &ld)) || push(f, &nw, &m) || (defd && push(f, &nw, &st))) goto fail;
    }
    free(old.v);
    f->mb[bi] = nw;
    continue;
  fail:
    free(nw.v);
    return -1;
  }
  return 0;
}

int cc_regalloc(cc_fn *f) {
  spill_state ss = {.tpv = -1};
  int rc, victim = -1;
  if (grow_nospill(f, &ss)) return -1;
  for (int r = 0; r < f->nvreg; r++) ss.nospill[r] = f->rclass[r] == CC_VP; /* a pair lives inside one operation */
  /* a round per spilled value: thousands of rounds where thousands of
   * values are live at once, so the deadline is checked at each */
  while ((rc = alloc_round(f, &ss, &victim)) == 1) {
    char what[CC_KERNEL_NAME_MAX + 32];
    snprintf(what, sizeof what, "%s %s", f->is_func ? "function" : "kernel", f->name);
    if (spill(f, &ss, victim) || (f->budget && cc_budget_check(f->budget, what, f->e))) {
      rc = -1;
      break;
    }
  }
  free(ss.nospill);
  return rc;
}
