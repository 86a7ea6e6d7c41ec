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

/* the branch template with the opposite condition, NULL if fmt is none */
const char *cc_branch_inverse(const char *fmt) {
  for (size_t i = 0; i < sizeof inverse / sizeof *inverse; i++)
    for (int s = 0; s < 2; s++)
      if (!strcmp(fmt, inverse[i][s])) return inverse[i][!s];
  return NULL;
}

/* the operand naming a block a branch or jump goes to, or NULL */
static cc_opnd *target(cc_minst *m) {
  if (strcmp(m->fmt, "j %0") && !cc_branch_inverse(m->fmt)) return NULL;
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

static int jump_only(const cc_fn *f, int b) { return f->mb[b].n == 1 && !strcmp(f->mb[b].v[0].fmt, "j %0"); }

/* where a jump to block b ends up: past blocks that only jump */
static int final_block(const cc_fn *f, int b) {
  for (int hops = 0; hops < f->nbb && jump_only(f, b); hops++) {
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
      if (cc_branch_inverse(last->fmt) && next < f->nbb && jump_only(f, next) && !refs[next]) {
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
      const char *inv = cc_branch_inverse(br->fmt);
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
