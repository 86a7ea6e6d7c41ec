/* Assembly text of one compiled kernel: labels per block, the instruction
 * templates with physical registers, and the reconvergence idiom of the
 * upstream compiler before each SIMT branch (auipc + setrpc, docs/kernels.md). */
#include <stdio.h>
#include <stdlib.h>
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
    if (f->rclass[o->v] != CC_S) cc_printf(t, "v%d", p);
    else cc_printf(t, "x%d", p);
    break;
  }
  case CC_OP_IMM: cc_printf(t, "%d", (int)o->v); break;
  case CC_OP_PHYS: cc_puts(t, o->v == 0 ? "zero" : o->v == 8 ? "s0" : "?"); break;
  case CC_OP_LABEL: cc_puts(t, cc_fn_label(f, o->v, lab, sizeof lab)); break;
  case CC_OP_SYM: cc_printf(t, ".Lcc_g%d", (int)o->v); break;
  case CC_OP_LOCAL: cc_printf(t, ".Lloop_%s_%d", f->name, (int)o->v); break;
  case CC_OP_AMOL: cc_printf(t, ".Lamol_%s_%d", f->name, (int)o->v); break;
  default: break;
  }
}

/* Conditional branches reach +-4 KiB. A longer scalar one (a huge unrolled
 * loop body) becomes the inverted branch over a `j`; a longer SIMT branch
 * sends its lanes to a `j` next to it (the other lanes jump over that), as
 * a `j` after a vector branch is part of the usual idiom anyway. Distances
 * are judged on upper bounds of each instruction's size, regext prefixes
 * included. */
static int is_vbranch(const char *fmt) {
  static const char *const vb[] = {"vbeq ", "vbne ", "vblt ", "vbge ", "vbltu ", "vbgeu "};
  for (size_t i = 0; i < sizeof vb / sizeof *vb; i++)
    if (!strncmp(fmt, vb[i], strlen(vb[i]))) return 1;
  return 0;
}

static const char *const branch_inv[][2] = {{"beq ", "bne"}, {"bne ", "beq"}, {"blt ", "bge"}, {"bge ", "blt"},
                                            {"bltu ", "bgeu"}, {"bgeu ", "bltu"}, {"beqz ", "bnez"}, {"bnez ", "beqz"}};

static const char *inverse_branch(const char *fmt) {
  for (size_t i = 0; i < sizeof branch_inv / sizeof *branch_inv; i++)
    if (!strncmp(fmt, branch_inv[i][0], strlen(branch_inv[i][0]))) return branch_inv[i][1];
  return NULL;
}

static int text_bytes(const cc_text *t, size_t from) {
  int n = 0;
  for (size_t i = from; i < t->n; i++) n += t->p[i] == '\n';
  return 4 * n;
}

/* 4 more bytes for each instruction of m that names a register above 31:
 * the assembler puts a regext prefix before it (docs/isa.md §2.3) */
static int prefix_bytes(const cc_fn *f, const cc_minst *m, int n) {
  for (int o = 0; o < m->nops; o++)
    if (m->op[o].kind == CC_OP_REG && f->phys[m->op[o].v] > 31) return n;
  return 0;
}

/* A `j` reaches +-1 MiB. In a function whose code may be longer (a
 * 40,000-case switch), each `j` is counted as 8 bytes and one whose target
 * may lie further than this becomes auipc + jalr through t1, the scratch
 * register that @rpc uses too (never allocated, dead between instructions). */
#define CC_JAL_REACH (1048576 - 1024)

/* the jump to label, near or through t1 */
static void emit_jump(cc_fn *f, cc_text *t, const char *label, int far) {
  if (!far) {
    cc_printf(t, "        j       %s\n", label);
    return;
  }
  int n = f->nlabel++;
  cc_printf(t, ".Lfar_%s_%d:\n        auipc   t1, %%pcrel_hi(%s)\n", f->name, n, label);
  cc_printf(t, "        jalr    zero, %%pcrel_lo(.Lfar_%s_%d)(t1)\n", f->name, n);
}

static int max_bytes(const cc_fn *f, const cc_minst *m, int epilogue, int big) {
  if (!strcmp(m->fmt, "j %0")) return big ? 8 : 4;
  if (!strncmp(m->fmt, "@rpc", 4)) return 8;
  if (!strcmp(m->fmt, "@keep") || !strcmp(m->fmt, "@label %0")) return 0;
  if (!strcmp(m->fmt, "@call %0")) return 40;
  if (!strcmp(m->fmt, "@argst %0, %1")) return 16;
  if (!strcmp(m->fmt, "ret")) return 4 + epilogue;
  if (!strncmp(m->fmt, "li ", 3) || !strncmp(m->fmt, "la ", 3)) return 8;
  int n = 4;
  for (const char *p = m->fmt; *p; p++) n += *p == '\n' ? 4 : 0;
  n += prefix_bytes(f, m, n);
  return inverse_branch(m->fmt) ? n + (big ? 8 : 4) : is_vbranch(m->fmt) ? n + (big ? 16 : 8) : n;
}

int cc_emit_kernel(cc_fn *f, cc_text *t) {
  char lab[160];
  cc_printf(t, "\n        .text\n        .globl  %s\n        .type   %s, @function\n%s:\n", f->name, f->name, f->name);
  size_t at = t->n;
  cc_emit_prologue(f, t);
  int pos = text_bytes(t, at);
  cc_text scratch = {0};
  cc_emit_epilogue(f, &scratch);
  int epilogue = text_bytes(&scratch, 0), *boff = calloc((size_t)f->nbb + 1, sizeof *boff);
  free(scratch.p);
  if (!boff) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
  int big = 0; /* may the code be longer than a `j` reaches? then sized again with long jumps */
  for (int pass = 0; pass < 2; pass++) {
    int p = pos;
    for (int b = 0; b < f->nbb; b++) {
      boff[b] = p;
      for (int i = 0; i < f->mb[b].n; i++) p += max_bytes(f, &f->mb[b].v[i], epilogue, big);
    }
    if (big || p - pos < CC_JAL_REACH) break;
    big = 1;
  }
  for (int b = 0; b < f->nbb; b++) {
    cc_printf(t, "%s:\n", cc_fn_label(f, b, lab, sizeof lab));
    pos = boff[b];
    for (int i = 0; i < f->mb[b].n; i++) {
      cc_minst *m = &f->mb[b].v[i];
      int here = pos, far = -1;
      pos += max_bytes(f, m, epilogue, big);
      const char *inv = inverse_branch(m->fmt);
      int vb = is_vbranch(m->fmt);
      for (int o = 0; (inv || vb) && o < m->nops; o++)
        if (m->op[o].kind == CC_OP_LABEL && abs(boff[m->op[o].v] - here) > 3072) far = o;
      if (far >= 0) { /* inverted branch over a jump, or a SIMT branch to a jump */
        cc_printf(t, "        %.*s", vb ? (int)(strchr(m->fmt, ' ') - m->fmt) : (int)strlen(inv), vb ? m->fmt : inv);
        for (const char *p = strchr(m->fmt, ' '); *p; p++) {
          if (*p == '%' && p[1] - '0' == far) {
            cc_puts(t, "1f");
            p++;
          } else if (*p == '%' && p[1] >= '0' && p[1] <= '3') {
            opnd(f, t, &m->op[p[1] - '0']);
            p++;
          } else {
            char c[2] = {*p, 0};
            cc_puts(t, c);
          }
        }
        int farj = big && abs(boff[m->op[far].v] - here) > CC_JAL_REACH;
        cc_puts(t, vb ? "\n        j       2f\n1:\n" : "\n");
        emit_jump(f, t, cc_fn_label(f, m->op[far].v, lab, sizeof lab), farj);
        cc_puts(t, vb ? "2:\n" : "1:\n");
        continue;
      }
      if (big && !strcmp(m->fmt, "j %0") && abs(boff[m->op[0].v] - here) > CC_JAL_REACH) {
        emit_jump(f, t, cc_fn_label(f, m->op[0].v, lab, sizeof lab), 1);
        continue;
      }
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
        } else if (*p == '%' && p[1] == 'h' && p[2] >= '0' && p[2] <= '3') { /* a pair's high register */
          cc_printf(t, "v%d", f->phys[m->op[p[2] - '0'].v] + 1);
          p += 2;
        } else {
          char c[2] = {*p, 0};
          cc_puts(t, c);
        }
      }
      cc_puts(t, "\n");
    }
  }
  free(boff);
  cc_printf(t, ".Lcc_end_%s:\n        .size   %s, .-%s\n", f->name, f->name, f->name);
  /* the addresses of its AMOs on __local memory: a launch may run on
   * several host threads whatever their kinds and results (docs/kernels.md) */
  if (f->namol) cc_puts(t, "        .section .ventus.amo_local, \"\", @progbits\n");
  for (int i = 0; i < f->namol; i++) cc_printf(t, "        .word   .Lamol_%s_%d\n", f->name, i);
  return t->oom ? vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name) : 0;
}
