/* Small rewrites of the machine code around register allocation
 * (docs/compiler.md "Code quality"):
 *
 *   before: a scalar defined once as zero or as the start of __local data
 *           (s0) is read from x0 / s0 directly, and its definition goes;
 *   after:  copies of a register onto itself go; a branch or jump to a
 *           block that only jumps goes straight to where that one goes; a
 *           conditional branch over a `j` to the next block is inverted
 *           (`bltu a, b, NEXT; j FAR` becomes `bgeu a, b, FAR`), SIMT
 *           branches included; a `j` to the next block goes.
 *
 * Inverting a SIMT branch swaps its taken and fall-through lanes: the
 * region's two sides still both run before the join, only a tie in their
 * sizes may now run the other side first (docs/isa.md §4). */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static int is_pseudo(const cc_minst *m) { return m->fmt[0] == '@' || strstr(m->fmt, "%h"); }

/* ---- before allocation: x0 and s0 as operands ----------------------------------- */

/* the fixed register a vreg defined only by m stands for, or -1 */
static int fixed_reg(const cc_minst *m) {
  if (!strcmp(m->fmt, "mv %0, zero")) return 0;
  if (!strcmp(m->fmt, "addi %0, s0, %1") && m->op[1].kind == CC_OP_IMM && m->op[1].v == 0) return 8;
  return -1;
}

int cc_fixed_operands(cc_fn *f) {
  int nv = f->nvreg;
  int *ndef = calloc((size_t)nv + 1, sizeof *ndef), *fix = malloc(((size_t)nv + 1) * sizeof *fix);
  int *left = calloc((size_t)nv + 1, sizeof *left);
  if (!ndef || !fix || !left) {
    free(ndef), free(fix), free(left);
    return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
  }
  for (int r = 0; r < nv; r++) fix[r] = -1;
  for (int b = 0; b < f->nbb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      const cc_minst *m = &f->mb[b].v[i];
      for (int o = 0; o < m->ndefs; o++)
        if (m->op[o].kind == CC_OP_REG && ++ndef[m->op[o].v] == 1) fix[m->op[o].v] = fixed_reg(m);
    }
  for (int r = 0; r < nv; r++)
    if (ndef[r] != 1 || f->rclass[r] != CC_S) fix[r] = -1;
  /* uses in plain templates read the register itself; others keep the vreg */
  for (int b = 0; b < f->nbb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      cc_minst *m = &f->mb[b].v[i];
      for (int o = m->ndefs; o < m->nops; o++) {
        if (m->op[o].kind != CC_OP_REG || fix[m->op[o].v] < 0) continue;
        if (is_pseudo(m)) left[m->op[o].v] = 1;
        else m->op[o] = (cc_opnd){CC_OP_PHYS, fix[m->op[o].v]};
      }
    }
  for (int b = 0; b < f->nbb; b++) {
    cc_mblock *mb = &f->mb[b];
    int k = 0;
    for (int i = 0; i < mb->n; i++) {
      const cc_minst *m = &mb->v[i];
      if (m->ndefs == 1 && m->op[0].kind == CC_OP_REG && fix[m->op[0].v] >= 0 && !left[m->op[0].v]) continue;
      mb->v[k++] = *m;
    }
    mb->n = k;
  }
  free(ndef), free(fix), free(left);
  return 0;
}

/* ---- after allocation: copies, jumps and branches ------------------------------ */

static const char *const inverse[][2] = {
    {"beq %0, %1, %2", "bne %0, %1, %2"},         {"blt %0, %1, %2", "bge %0, %1, %2"},
    {"bltu %0, %1, %2", "bgeu %0, %1, %2"},       {"beq %0, zero, %1", "bne %0, zero, %1"},
    {"blt %0, zero, %1", "bge %0, zero, %1"},     {"bltu %0, zero, %1", "bgeu %0, zero, %1"},
    {"blt zero, %0, %1", "bge zero, %0, %1"},     {"bltu zero, %0, %1", "bgeu zero, %0, %1"},
    {"bnez %0, %1", "beqz %0, %1"},               {"vbeq %0, %1, %2", "vbne %0, %1, %2"},
    {"vblt %0, %1, %2", "vbge %0, %1, %2"},       {"vbltu %0, %1, %2", "vbgeu %0, %1, %2"},
};

static const char *inverted(const char *fmt) {
  for (size_t i = 0; i < sizeof inverse / sizeof *inverse; i++)
    for (int s = 0; s < 2; s++)
      if (!strcmp(fmt, inverse[i][s])) return inverse[i][!s];
  return NULL;
}

/* the operand naming a block a branch or jump goes to, or NULL */
static cc_opnd *target(cc_minst *m) {
  if (strcmp(m->fmt, "j %0") && !inverted(m->fmt)) return NULL;
  for (int o = m->nops - 1; o >= 0; o--)
    if (m->op[o].kind == CC_OP_LABEL) return &m->op[o];
  return NULL;
}

static int is_copy(const cc_fn *f, const cc_minst *m) {
  if (strcmp(m->fmt, "mv %0, %1") && strcmp(m->fmt, "vmv.v.v %0, %1")) return 0;
  if (m->op[0].kind != CC_OP_REG || m->op[1].kind != CC_OP_REG) return 0;
  int a = m->op[0].v, b = m->op[1].v;
  return (f->rclass[a] == CC_S) == (f->rclass[b] == CC_S) && f->phys[a] == f->phys[b];
}

/* where a jump to block b ends up: past blocks that only jump */
static int final_block(const cc_fn *f, int b) {
  for (int hops = 0; hops < f->nbb && f->mb[b].n == 1 && !strcmp(f->mb[b].v[0].fmt, "j %0"); hops++) {
    int t = f->mb[b].v[0].op[0].v;
    if (t == b) break;
    b = t;
  }
  return b;
}

/* the block execution falls into after b: the next one with instructions */
static int fall_block(const cc_fn *f, int b) {
  int n = b + 1;
  while (n < f->nbb && !f->mb[n].n) n++;
  return n;
}

static int jump_only(const cc_fn *f, int b) { return f->mb[b].n == 1 && !strcmp(f->mb[b].v[0].fmt, "j %0"); }

/* Sweeps over the blocks in layout order, a few at most: each is linear
 * in the code (a 40,000-case switch has 80,000 blocks), and a second one
 * only catches a block emptied after the one before it was looked at. */
int cc_peephole(cc_fn *f) {
  for (int b = 0; b < f->nbb; b++) {
    cc_mblock *mb = &f->mb[b];
    int k = 0;
    for (int i = 0; i < mb->n; i++)
      if (!is_copy(f, &mb->v[i])) mb->v[k++] = mb->v[i];
    mb->n = k;
  }
  int *refs = calloc((size_t)f->nbb + 1, sizeof *refs);
  if (!refs) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
  for (int b = 0; b < f->nbb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      cc_opnd *t = target(&f->mb[b].v[i]);
      if (!t) continue;
      int to = final_block(f, t->v);
      if (!(f->mb[b].n == 1 && to == b)) t->v = to;
      refs[t->v]++;
    }
  for (int sweep = 0, changed = 1; changed && sweep < 4; sweep++) {
    changed = 0;
    for (int b = 0; b < f->nbb; b++) {
      cc_mblock *mb = &f->mb[b];
      if (!mb->n) continue;
      cc_minst *last = &mb->v[mb->n - 1];
      int next = fall_block(f, b);
      /* a branch falling into a jump nothing else reaches: that jump is
       * this block's own (moved here, its block left empty) */
      if (inverted(last->fmt) && next < f->nbb && jump_only(f, next) && !refs[next]) {
        if (mb->n == mb->cap) {
          cc_minst *v = realloc(mb->v, sizeof *v * (size_t)(mb->cap + 1));
          if (!v) {
            free(refs);
            return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
          }
          mb->v = v;
          mb->cap++;
        }
        mb->v[mb->n++] = f->mb[next].v[0];
        f->mb[next].n = 0;
        last = &mb->v[mb->n - 1];
        next = fall_block(f, b);
        changed = 1;
      }
      if (!strcmp(last->fmt, "j %0") && last->op[0].v == next) { /* falls there anyway */
        refs[next]--;
        mb->n--;
        changed = 1;
        continue;
      }
      if (mb->n < 2 || strcmp(last->fmt, "j %0")) continue;
      cc_minst *br = &mb->v[mb->n - 2];
      cc_opnd *t = target(br);
      const char *inv = inverted(br->fmt);
      if (!t || !inv || t->v != next || last->op[0].v == next) continue;
      br->fmt = inv;
      refs[t->v]--;
      t->v = last->op[0].v; /* the jump's reference moves to the branch */
      mb->n--;
      changed = 1;
    }
  }
  free(refs);
  return 0;
}

/* ---- before allocation: constants made once --------------------------------------- */

/* A constant (`li`, or `vmv.v.i` for a vector one) made inside a loop, or
 * made more than once, is made once at the kernel's start instead: its
 * register then lives across the kernel, and when registers run short the
 * allocator makes it again at each use rather than spilling it
 * (cc_regalloc.c). At most CC_HOIST_MAX of each file: a kernel with many
 * constants keeps the rest where they are. Not in device functions, whose
 * entry reads the arguments out of the calling convention's registers.
 * A vector write at the start covers every lane a later use can have. */
#define CC_HOIST_MAX 16

/* a constant's key in a map: its value and file, never NULL */
static const void *const_key(const cc_minst *m) {
  return (const void *)(uintptr_t)((((uint64_t)(uint32_t)m->op[1].v << 1 | (m->fmt[0] == 'v')) << 1) | 1);
}

static int is_const_def(const cc_minst *m) {
  return m->ndefs == 1 && m->op[0].kind == CC_OP_REG && m->op[1].kind == CC_OP_IMM &&
         (!strcmp(m->fmt, "li %0, %1") || !strcmp(m->fmt, "vmv.v.i %0, %1"));
}

int cc_hoist_constants(cc_fn *f) {
  if (f->is_func) return 0;
  int nv = f->nvreg, nb = f->nbb, rc = -1;
  int *ndef = calloc((size_t)nv + 1, sizeof *ndef), *to = malloc(((size_t)nv + 1) * sizeof *to);
  uint8_t *loop = calloc((size_t)nb + 1, 1);
  struct key {
    const char *fmt;
    int32_t imm;
    int reg, n, hot;
  } *keys = NULL;
  int nkeys = 0;
  cc_map index = {0}; /* const_key -> keys[] */
  if (!ndef || !to || !loop) goto oom;
  for (int r = 0; r < nv; r++) to[r] = r;
  /* in layout (reverse post-) order an edge back to an earlier block closes a loop */
  for (int b = 0; b < nb; b++)
    for (int s = 0; s < f->nsucc[b]; s++)
      if (f->succ[b][s] <= b) memset(loop + f->succ[b][s], 1, (size_t)(b - f->succ[b][s] + 1));
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      const cc_minst *m = &f->mb[b].v[i];
      for (int o = 0; o < m->ndefs; o++)
        if (m->op[o].kind == CC_OP_REG) ndef[m->op[o].v]++;
    }
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      const cc_minst *m = &f->mb[b].v[i];
      if (!is_const_def(m) || ndef[m->op[0].v] != 1) continue;
      int k = cc_map_get(&index, const_key(m));
      if (k < 0) {
        if (!(nkeys & (nkeys - 1))) {
          struct key *p = realloc(keys, sizeof *keys * ((size_t)nkeys * 2 + 1));
          if (!p) goto oom;
          keys = p;
        }
        if (cc_map_put(&index, const_key(m), k = nkeys)) goto oom;
        keys[nkeys++] = (struct key){m->fmt, m->op[1].v, m->op[0].v, 0, 0};
      }
      if (keys[k].fmt != m->fmt || keys[k].imm != m->op[1].v) continue; /* a key cut short by a 32-bit host */
      keys[k].n++;
      keys[k].hot |= loop[b];
    }
  /* the ones worth it, loops first, up to the cap per file */
  int taken[2] = {0, 0};
  uint8_t *hoist = calloc((size_t)nkeys + 1, 1);
  if (!hoist) goto oom;
  for (int pass = 0; pass < 2; pass++)
    for (int k = 0; k < nkeys; k++) {
      int vec = keys[k].fmt[0] == 'v';
      if (hoist[k] || taken[vec] >= CC_HOIST_MAX || !(pass ? keys[k].n > 1 : keys[k].hot)) continue;
      hoist[k] = 1;
      taken[vec]++;
    }
  int nh = 0;
  cc_minst first[2 * CC_HOIST_MAX];
  for (int k = 0; k < nkeys; k++)
    if (hoist[k]) first[nh++] = (cc_minst){.fmt = keys[k].fmt, .op = {cc_r(keys[k].reg), cc_imm(keys[k].imm)}, .nops = 2, .ndefs = 1};
  /* every definition of a hoisted constant goes; its uses read the first's register */
  for (int b = 0; b < nb; b++) {
    cc_mblock *mb = &f->mb[b];
    int n = 0;
    for (int i = 0; i < mb->n; i++) {
      cc_minst *m = &mb->v[i];
      if (is_const_def(m) && ndef[m->op[0].v] == 1) {
        int k = cc_map_get(&index, const_key(m));
        if (k >= 0 && hoist[k] && keys[k].fmt == m->fmt && keys[k].imm == m->op[1].v) {
          to[m->op[0].v] = keys[k].reg;
          continue;
        }
      }
      mb->v[n++] = *m;
    }
    mb->n = n;
  }
  for (int b = 0; b < nb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      cc_minst *m = &f->mb[b].v[i];
      for (int o = m->ndefs; o < m->nops; o++)
        if (m->op[o].kind == CC_OP_REG) m->op[o].v = to[m->op[o].v];
    }
  cc_mblock *b0 = &f->mb[0];
  if (nh && b0->n + nh > b0->cap) {
    cc_minst *p = realloc(b0->v, sizeof *p * (size_t)(b0->n + nh));
    if (!p) {
      free(hoist);
      goto oom;
    }
    b0->v = p;
    b0->cap = b0->n + nh;
  }
  if (nh) {
    memmove(b0->v + nh, b0->v, sizeof *b0->v * (size_t)b0->n);
    memcpy(b0->v, first, sizeof *first * (size_t)nh);
    b0->n += nh;
  }
  free(hoist);
  rc = 0;
  goto done;
oom:
  vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
done:
  free(ndef), free(to), free(loop), free(keys);
  cc_map_free(&index);
  return rc;
}

/* ---- after allocation: the reconvergence pc set once per loop ---------------------- */

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

static int is_branch(const cc_minst *m) { return !strcmp(m->fmt, "j %0") || inverted(m->fmt); }
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
