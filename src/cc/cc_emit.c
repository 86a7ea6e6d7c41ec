/* Assembly text of one compiled kernel: labels per block, the instruction
 * templates with physical registers, and the reconvergence idiom of the
 * upstream compiler before each SIMT branch (auipc + setrpc, docs/kernels.md). */
#include <stdio.h>
#include <string.h>

#include "cc_internal.h"

const char *cc_fn_label(cc_fn *f, int blk, char *buf, size_t len) {
  snprintf(buf, len, ".L%s_%d", f->name, blk);
  return buf;
}

static void opnd(cc_fn *f, cc_text *t, const cc_opnd *o) {
  char lab[160];
  switch (o->kind) {
  case CC_OP_REG: {
    int p = f->phys[o->v];
    if (f->rclass[o->v] == CC_V) cc_printf(t, "v%d", p);
    else cc_printf(t, "x%d", p);
    break;
  }
  case CC_OP_IMM: cc_printf(t, "%d", (int)o->v); break;
  case CC_OP_LABEL: cc_puts(t, cc_fn_label(f, o->v, lab, sizeof lab)); break;
  case CC_OP_SYM: cc_printf(t, ".Lcc_g%d", (int)o->v); break;
  case CC_OP_LOCAL: cc_printf(t, ".Lloop_%s_%d", f->name, (int)o->v); break;
  default: break;
  }
}

int cc_emit_kernel(cc_fn *f, cc_text *t) {
  char lab[160];
  cc_printf(t, "\n        .text\n        .globl  %s\n        .type   %s, @function\n%s:\n", f->name, f->name, f->name);
  cc_emit_prologue(f, t);
  for (int b = 0; b < f->nbb; b++) {
    cc_printf(t, "%s:\n", cc_fn_label(f, b, lab, sizeof lab));
    for (int i = 0; i < f->mb[b].n; i++) {
      cc_minst *m = &f->mb[b].v[i];
      if (!strncmp(m->fmt, "@rpc", 4)) {
        int n = f->nlabel++;
        cc_printf(t, ".Lrpc_%s_%d:\n        auipc   t1, %%pcrel_hi(%s)\n", f->name, n,
                  cc_fn_label(f, m->op[0].v, lab, sizeof lab));
        cc_printf(t, "        setrpc  zero, t1, %%pcrel_lo(.Lrpc_%s_%d)\n", f->name, n);
        continue;
      }
      if (!strcmp(m->fmt, "@keep")) continue; /* only extends live ranges */
      if (!strcmp(m->fmt, "@argst %0, %1")) {
        cc_emit_argst(f, m, t);
        continue;
      }
      if (!strcmp(m->fmt, "@call %0")) {
        cc_emit_call(f, m, t);
        continue;
      }
      if (!strcmp(m->fmt, "ret")) cc_emit_epilogue(f, t);
      if (!strcmp(m->fmt, "@label %0")) {
        opnd(f, t, &m->op[0]);
        cc_puts(t, ":\n");
        continue;
      }
      cc_puts(t, "        ");
      for (const char *p = m->fmt; *p; p++) {
        if (*p == '%' && p[1] >= '0' && p[1] <= '3') {
          opnd(f, t, &m->op[p[1] - '0']);
          p++;
        } else {
          char c[2] = {*p, 0};
          cc_puts(t, c);
        }
      }
      cc_puts(t, "\n");
    }
  }
  cc_printf(t, "        .size   %s, .-%s\n", f->name, f->name);
  return t->oom ? vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name) : 0;
}
