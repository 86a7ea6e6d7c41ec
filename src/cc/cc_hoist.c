/* Constants made once (docs/compiler.md §4, "Machine-code rewrites"):
 * before register allocation, a constant made inside a loop or made more
 * than once is made at the kernel's start instead. */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

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
