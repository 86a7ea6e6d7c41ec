#include "trace_fmt.h"
#include "trace_line.h"

#include <stdlib.h>
#include <string.h>

/* The lines of the lowest unfinished WG collect in the writer's buffer of
 * this size and reach the FILE in blocks (fwrite), flushed when a record
 * might not fit, before a buffered WG's block and at the end. */
#define OUT_CAP (1u << 20)

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
  sbuf out;              /* lines of WG next_emit not yet written (cap OUT_CAP or more) */
  vt_trace_cache *cache; /* disassembly text and flags per word, CSR names */
};

/* A record longer than this was cut here (the old formatter's line buffer
 * held 8191 characters); kept so the output stays the same byte for byte. */
#define RECORD_MAX 8191

int vt_trace_format(const vt_commit *c, char *buf, size_t len) {
  vt_trace_insn tmp;
  const vt_trace_insn *ii = vt_trace_insn_info(NULL, c->insn, &tmp);
  size_t need = vt_trace_bound(NULL, c);
  char stackbuf[8192];
  char *t = need <= sizeof stackbuf ? stackbuf : malloc(need);
  if (!t) return -1;
  char *p = t;
  if (!c->spin) p = vt_trace_put_disasm(p, c, ii);
  p = vt_trace_put_commit(NULL, p, c, ii->flags);
  size_t n = (size_t)(p - t);
  if (len) {
    size_t k = n < len ? n : len - 1;
    memcpy(buf, t, k);
    buf[k] = 0;
  }
  if (t != stackbuf) free(t);
  return (int)n;
}

/* ---- grouping per work-group ------------------------------------------------ */
/* Room for n more bytes at the end of b. */
static char *sb_reserve(sbuf *b, size_t n) {
  if (b->len + n > b->cap) {
    size_t nc = b->cap ? b->cap : 4096;
    while (nc < b->len + n) nc *= 2;
    char *np = realloc(b->p, nc);
    if (!np) return NULL;
    b->p = np, b->cap = nc;
  }
  return b->p + b->len;
}

static void put_file(vt_trace_writer *w, const char *p, size_t n) {
  if (n && fwrite(p, 1, n, w->f) != n) w->failed = 1;
}

static void flush_out(vt_trace_writer *w) {
  put_file(w, w->out.p, w->out.len);
  w->out.len = 0;
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
 * first unfinished one (whose later lines then go to the out buffer). */
static void advance(vt_trace_writer *w) {
  for (;;) {
    wg_buf *b = find_open(w, (uint32_t)w->next_emit, 0);
    if (b && b->text.len) {
      flush_out(w);
      put_file(w, b->text.p, b->text.len);
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
  /* the lowest unfinished WG writes to the out buffer, later ones to theirs */
  int direct = c->wg == w->next_emit;
  sbuf *dst = direct ? &w->out : &b->text;
  size_t need = vt_trace_bound(w->cache, c);
  if (direct && w->out.len + need > w->out.cap) flush_out(w);
  char *start = sb_reserve(dst, need);
  if (!start) {
    w->failed = 1;
    return;
  }
  vt_trace_insn tmp;
  const vt_trace_insn *ii = c->spin ? NULL : vt_trace_insn_info(w->cache, c->insn, &tmp);
  uint32_t wp = c->warp < w->num_warps ? c->warp : 0;
  int repeat = b->reps[wp] && b->last_pc[wp] == c->pc;
  char *p = start;
  if (!repeat && b->reps[wp] > 1) p = vt_trace_put_executed(p, c->warp, b->reps[wp]);
  if (ii && !repeat) p = vt_trace_put_disasm(p, c, ii);
  p = vt_trace_put_commit(w->cache, p, c, ii ? ii->flags : 0);
  size_t len = (size_t)(p - start);
  dst->len += len < RECORD_MAX ? len : RECORD_MAX;
  b->reps[wp] = repeat ? b->reps[wp] + 1 : 1;
  b->last_pc[wp] = c->pc;
  int endprg = ii && (ii->flags & IF_ENDPRG);
  if (endprg && ++b->ended >= w->num_warps && c->wg < w->total_wgs) {
    w->done[c->wg >> 3] |= (uint8_t)(1u << (c->wg & 7));
    if (direct) advance(w);
  }
}

vt_trace_writer *vt_trace_writer_new(FILE *f) {
  vt_trace_writer *w = calloc(1, sizeof *w);
  if (!w) return NULL;
  w->f = f;
  w->cache = vt_trace_cache_new();
  if (!w->cache || !sb_reserve(&w->out, OUT_CAP)) {
    vt_trace_writer_free(w);
    return NULL;
  }
  return w;
}

void vt_trace_writer_begin(vt_trace_writer *w, vt_device *d, const vt_launch *l) {
  while (w->nopen) drop_open(w, &w->open[0]);
  free(w->done);
  flush_out(w);
  w->num_warps = l->num_warps;
  w->total_wgs = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
  w->done = calloc((size_t)(w->total_wgs + 7) / 8 + 1, 1);
  if (!w->done) w->failed = 1;
  w->next_emit = 0;
  vt_device_set_trace(d, on_commit, w);
}

int vt_trace_writer_end(vt_trace_writer *w, vt_device *d) {
  vt_device_set_trace(d, NULL, NULL);
  flush_out(w);
  /* WGs cut short by an error: write what there is, in WG order */
  while (w->nopen) {
    size_t best = 0;
    for (size_t i = 1; i < w->nopen; i++)
      if (w->open[i].wg < w->open[best].wg) best = i;
    wg_buf *b = &w->open[best];
    put_file(w, b->text.p, b->text.len);
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
  free(w->out.p);
  vt_trace_cache_free(w->cache);
  free(w);
}
