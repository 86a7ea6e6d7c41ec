#include "trace_fmt.h"
#include "vt_strbuf.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  char *p;
  size_t len, cap;
} sbuf;

typedef struct {
  uint32_t wg;
  uint32_t ended; /* warps that executed endprg */
  sbuf text;
  uint32_t *last_pc; /* per warp: pc of the last commit (ISS dedup of repeats) */
  uint32_t *reps;    /* per warp: executions of last_pc in a row (0 = none yet) */
} wg_buf;

struct vt_trace_writer {
  FILE *f;
  uint32_t num_warps;
  uint64_t total_wgs, next_emit;
  uint8_t *done; /* one bit per WG */
  wg_buf *open;  /* WGs with pending lines or state, unordered */
  size_t nopen, capopen;
  int failed;
};

/* Spike's style: mnemonic padded to 7 columns, one space, operands. */
static void emit_disasm(vt_strbuf *o, const isa_inst *in) {
  char d[160];
  isa_disasm(in, d, sizeof d);
  char *sp = strchr(d, ' ');
  if (!sp) {
    vt_emit(o, "%s", d);
    return;
  }
  *sp = 0;
  vt_emit(o, "%-7s %s", d, sp + 1);
}

static void emit_csr(vt_strbuf *o, unsigned csr, uint32_t val) {
  const char *n = isa_csr_name(csr);
  vt_emit(o, " c%u_%s 0x%08x", csr, n ? n : "unknown", val);
}

static int format(const vt_commit *c, int disasm, char *buf, size_t len) {
  vt_strbuf o = vt_strbuf_init(buf, len);
  isa_inst in;
  isa_decode(c->insn, 0, &in);
  uint32_t flags = in.id < ISA_COUNT ? isa_table[in.id].flags : 0;
  if (disasm && !c->spin) {
    vt_emit(&o, "core %3u: 0x%08x (0x%08x) ", c->warp, c->pc, c->insn);
    emit_disasm(&o, &in);
    vt_emit(&o, "\n");
  }
  vt_emit(&o, "core %3u: 3 0x%08x (0x%08x)", c->warp, c->pc, c->insn);
  if (c->spin) {
    vt_emit(&o, "\n");
    return o.total;
  }
  /* the core says when the ISS prints "eSEW mLMUL lVL" (require_vector) */
  int vhdr = c->has_v || c->vtag;
  char vt[32];
  uint32_t sew = c->vtype ? 8u << ((c->vtype >> 3) & 7) : 32, lmul = c->vtype ? 1u << (c->vtype & 3) : 1;
  snprintf(vt, sizeof vt, " e%u m%u l%u", sew, lmul, c->vl);
  int vload_first = c->has_v && (flags & IF_LOAD);
  if (vload_first) {
    /* the ISS lists a vector load's register before its CSR writes */
    vt_emit(&o, "%s", vt);
    goto vreg;
  }
  for (int i = 0; i < c->nx; i++)
    if (c->x[i].reg) vt_emit(&o, " x%-2u 0x%08x", c->x[i].reg, c->x[i].val);
  for (int i = 0; i < c->ncsr; i++) emit_csr(&o, c->csr[i].csr, c->csr[i].val);
  if (vhdr) vt_emit(&o, "%s", vt);
vreg:
  if (c->has_v) {
    uint32_t n = c->vl ? c->vl : 1;
    if (n > VT_MAX_LANES) n = VT_MAX_LANES;
    vt_emit(&o, " v%-2u %08x 0x%08x", c->vreg, c->vmask, c->v[n - 1]);
    for (uint32_t k = n - 1; k-- > 0;) vt_emit(&o, " %08x", c->v[k]);
    vt_emit(&o, " ");
  }
  if (vload_first) {
    for (int i = 0; i < c->nx; i++)
      if (c->x[i].reg) vt_emit(&o, " x%-2u 0x%08x", c->x[i].reg, c->x[i].val);
    for (int i = 0; i < c->ncsr; i++) emit_csr(&o, c->csr[i].csr, c->csr[i].val);
  }
  for (int i = 0; i < c->nmem; i++) {
    if (!c->mem[i].store) {
      vt_emit(&o, " mem 0x%08x", c->mem[i].addr);
    } else if (c->mem[i].size == 1) {
      vt_emit(&o, " mem 0x%08x 0x%x", c->mem[i].addr, c->mem[i].val & 0xff);
    } else if (c->mem[i].size == 2) {
      vt_emit(&o, " mem 0x%08x 0x%04x", c->mem[i].addr, c->mem[i].val & 0xffff);
    } else {
      vt_emit(&o, " mem 0x%08x 0x%08x", c->mem[i].addr, c->mem[i].val);
    }
  }
  if (c->has_simt)
    vt_emit(&o, " current mask:\t%08x current npc:\t%08x stack size: %u", c->simt_mask, c->simt_npc,
         c->simt_depth);
  vt_emit(&o, "\n");
  /* after a SIMT-state line the ISS lists the stack, top entry first */
  if (c->has_simt && c->simt_stack)
    for (uint32_t k = c->simt_depth; k-- > 0;)
      vt_emit(&o, "[r_pc] %08x [else_pc] %08x [else_mask] %08x \n", c->simt_stack[k].rpc, c->simt_stack[k].pc,
           c->simt_stack[k].mask);
  return o.total;
}

int vt_trace_format(const vt_commit *c, char *buf, size_t len) { return format(c, 1, buf, len); }

/* ---- grouping per work-group ------------------------------------------------ */
static int sb_add(sbuf *b, const char *s, size_t n) {
  if (b->len + n > b->cap) {
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->len + n) nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np) return -1;
    b->p = np, b->cap = nc;
  }
  memcpy(b->p + b->len, s, n);
  b->len += n;
  return 0;
}

static wg_buf *find_open(vt_trace_writer *w, uint32_t wg, int create) {
  for (size_t i = 0; i < w->nopen; i++)
    if (w->open[i].wg == wg) return &w->open[i];
  if (!create) return NULL;
  if (w->nopen == w->capopen) {
    size_t nc = w->capopen ? w->capopen * 2 : 16;
    wg_buf *no = realloc(w->open, nc * sizeof *no);
    if (!no) return NULL;
    w->open = no, w->capopen = nc;
  }
  wg_buf *b = &w->open[w->nopen];
  memset(b, 0, sizeof *b);
  b->wg = wg;
  b->last_pc = calloc(w->num_warps ? w->num_warps : 1, sizeof *b->last_pc);
  b->reps = calloc(w->num_warps ? w->num_warps : 1, sizeof *b->reps);
  if (!b->last_pc || !b->reps) {
    free(b->last_pc);
    free(b->reps);
    return NULL;
  }
  w->nopen++;
  return b;
}

static void drop_open(vt_trace_writer *w, wg_buf *b) {
  free(b->text.p);
  free(b->last_pc);
  free(b->reps);
  *b = w->open[--w->nopen];
}

static int is_done(const vt_trace_writer *w, uint64_t wg) {
  return w->done && wg < w->total_wgs && (w->done[wg >> 3] >> (wg & 7) & 1);
}

/* Writes every finished WG from next_emit on, and the buffered lines of the
 * first unfinished one (whose later lines then go straight to the file). */
static void advance(vt_trace_writer *w) {
  for (;;) {
    wg_buf *b = find_open(w, (uint32_t)w->next_emit, 0);
    if (b && b->text.len) {
      if (fwrite(b->text.p, 1, b->text.len, w->f) != b->text.len) w->failed = 1;
      b->text.len = 0;
    }
    if (!is_done(w, w->next_emit)) return;
    if (b) drop_open(w, b);
    w->next_emit++;
  }
}

/* The ISS prints the disassembly line only when a warp's pc changes: a
 * re-execution of the same instruction (barrier re-check, a join popping
 * several entries) shows only its commit line, and the run ends with
 * "core   W: Executed N times" before the warp's next instruction. */
static void on_commit(void *user, const vt_commit *c) {
  vt_trace_writer *w = user;
  wg_buf *b = find_open(w, c->wg, 1);
  if (!b) {
    w->failed = 1;
    return;
  }
  char line[8192];
  size_t len = 0;
  uint32_t wp = c->warp < w->num_warps ? c->warp : 0;
  int repeat = b->reps[wp] && b->last_pc[wp] == c->pc;
  if (!repeat && b->reps[wp] > 1)
    len = (size_t)snprintf(line, sizeof line, "core %3u: Executed %u times\n", c->warp, b->reps[wp]);
  int n = format(c, !repeat, line + len, sizeof line - len);
  if (n < 0) return;
  len += (size_t)n < sizeof line - len ? (size_t)n : sizeof line - len - 1;
  b->reps[wp] = repeat ? b->reps[wp] + 1 : 1;
  b->last_pc[wp] = c->pc;
  int endprg = 0;
  if (!c->spin) {
    isa_inst in;
    isa_decode(c->insn, 0, &in);
    endprg = in.id < ISA_COUNT && (isa_table[in.id].flags & IF_ENDPRG);
  }
  if (c->wg == w->next_emit) {
    if (fwrite(line, 1, len, w->f) != len) w->failed = 1;
  } else if (sb_add(&b->text, line, len)) {
    w->failed = 1;
  }
  if (endprg && ++b->ended >= w->num_warps && c->wg < w->total_wgs) {
    w->done[c->wg >> 3] |= (uint8_t)(1u << (c->wg & 7));
    if (c->wg == w->next_emit) advance(w);
  }
}

vt_trace_writer *vt_trace_writer_new(FILE *f) {
  vt_trace_writer *w = calloc(1, sizeof *w);
  if (w) w->f = f;
  return w;
}

void vt_trace_writer_begin(vt_trace_writer *w, vt_device *d, const vt_launch *l) {
  while (w->nopen) drop_open(w, &w->open[0]);
  free(w->done);
  w->num_warps = l->num_warps;
  w->total_wgs = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  w->done = calloc((size_t)(w->total_wgs + 7) / 8 + 1, 1);
  if (!w->done) w->failed = 1;
  w->next_emit = 0;
  vt_device_set_trace(d, on_commit, w);
}

int vt_trace_writer_end(vt_trace_writer *w, vt_device *d) {
  vt_device_set_trace(d, NULL, NULL);
  /* WGs cut short by an error: write what there is, in WG order */
  while (w->nopen) {
    size_t best = 0;
    for (size_t i = 1; i < w->nopen; i++)
      if (w->open[i].wg < w->open[best].wg) best = i;
    wg_buf *b = &w->open[best];
    if (b->text.len && fwrite(b->text.p, 1, b->text.len, w->f) != b->text.len) w->failed = 1;
    drop_open(w, b);
  }
  free(w->done);
  w->done = NULL;
  if (fflush(w->f)) w->failed = 1;
  return w->failed ? -1 : 0;
}

void vt_trace_writer_free(vt_trace_writer *w) {
  if (!w) return;
  while (w->nopen) drop_open(w, &w->open[0]);
  free(w->open);
  free(w->done);
  free(w);
}
