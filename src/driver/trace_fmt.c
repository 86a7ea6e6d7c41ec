#include "trace_fmt.h"
#include "trace_line.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* The lines of the lowest unfinished WG collect in the writer's buffer of
 * this size and reach the FILE in blocks (fwrite), flushed when a record
 * might not fit, before a buffered WG's block and at the end. */
#define OUT_CAP (1u << 20)

/* Lines of later WGs held in memory at most this many bytes in all; beyond
 * it they move to an anonymous temporary file (a group that never finishes
 * would otherwise make the others' lines grow without bound). */
#define HOLD_LIMIT ((size_t)64 << 20)

typedef struct {
  char *p;
  size_t len, cap;
} sbuf;

typedef struct {
  uint64_t off;
  size_t len;
} span;

typedef struct {
  uint32_t wg;
  uint32_t ended; /* warps that executed endprg */
  span *spills;   /* earlier lines in the spill file, in order, before text */
  size_t nspills, capspills;
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
  size_t held, hold_limit; /* bytes in the open WGs' text buffers, and their bound */
  FILE *spill;             /* temporary file of held lines (created when first needed) */
  uint64_t spill_end, spilled;
};

/* A record longer than this was cut here (the old formatter's line buffer
 * held 8191 characters); kept so the output stays the same byte for byte. */
#define RECORD_MAX 8191

int vt_trace_format(const vt_commit *c, char *buf, size_t len) {
  vt_trace_insn tmp;
  const vt_trace_insn *ii = vt_trace_commit_insn(NULL, c, &tmp);
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
  w->held -= b->text.len;
  free(b->spills);
  free(b->text.p);
  free(b->last_pc);
  free(b->reps);
  *b = w->open[--w->nopen];
}

static int is_done(const vt_trace_writer *w, uint64_t wg) {
  return w->done && wg < w->total_wgs && (w->done[wg >> 3] >> (wg & 7) & 1);
}

/* An unlinked temporary file in $TMPDIR (or /tmp): gone when closed. */
static FILE *spill_open(void) {
  const char *dir = getenv("TMPDIR");
  char path[4096];
  snprintf(path, sizeof path, "%s/ventus-trace-XXXXXX", dir && *dir ? dir : "/tmp");
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  unlink(path);
  FILE *f = fdopen(fd, "w+b");
  if (!f) close(fd);
  return f;
}

/* Moves every open WG's held lines to the spill file. */
static void spill_all(vt_trace_writer *w) {
  if (!w->spill && !(w->spill = spill_open())) {
    w->failed = 1;
    return;
  }
  for (size_t i = 0; i < w->nopen; i++) {
    wg_buf *b = &w->open[i];
    if (!b->text.len) continue;
    if (b->nspills == b->capspills) {
      size_t nc = b->capspills ? b->capspills * 2 : 4;
      span *ns = realloc(b->spills, nc * sizeof *ns);
      if (!ns) {
        w->failed = 1;
        return;
      }
      b->spills = ns, b->capspills = nc;
    }
    if (fseeko(w->spill, (off_t)w->spill_end, SEEK_SET) ||
        fwrite(b->text.p, 1, b->text.len, w->spill) != b->text.len) {
      w->failed = 1;
      return;
    }
    b->spills[b->nspills++] = (span){w->spill_end, b->text.len};
    w->spill_end += b->text.len;
    w->spilled += b->text.len;
    w->held -= b->text.len;
    free(b->text.p); /* the memory itself goes back, not just the length */
    b->text = (sbuf){0};
  }
}

/* Writes a WG's held lines (spilled ones first) to the file and forgets them. */
static void put_held(vt_trace_writer *w, wg_buf *b) {
  char chunk[1 << 16];
  for (size_t i = 0; i < b->nspills; i++) {
    uint64_t off = b->spills[i].off;
    size_t left = b->spills[i].len;
    if (fseeko(w->spill, (off_t)off, SEEK_SET)) {
      w->failed = 1;
      break;
    }
    while (left) {
      size_t k = left < sizeof chunk ? left : sizeof chunk;
      if (fread(chunk, 1, k, w->spill) != k) {
        w->failed = 1;
        break;
      }
      put_file(w, chunk, k);
      left -= k;
    }
  }
  b->nspills = 0;
  put_file(w, b->text.p, b->text.len);
  w->held -= b->text.len;
  b->text.len = 0;
}

/* Writes every finished WG from next_emit on, and the buffered lines of the
 * first unfinished one (whose later lines then go to the out buffer). */
static void advance(vt_trace_writer *w) {
  for (;;) {
    wg_buf *b = find_open(w, (uint32_t)w->next_emit, 0);
    if (b && (b->text.len || b->nspills)) {
      flush_out(w);
      put_held(w, b);
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
  const vt_trace_insn *ii = c->spin ? NULL : vt_trace_commit_insn(w->cache, c, &tmp);
  uint32_t wp = c->warp < w->num_warps ? c->warp : 0;
  int repeat = b->reps[wp] && b->last_pc[wp] == c->pc;
  char *p = start;
  if (!repeat && b->reps[wp] > 1) p = vt_trace_put_executed(p, c->warp, b->reps[wp]);
  if (ii && !repeat) p = vt_trace_put_disasm(p, c, ii);
  p = vt_trace_put_commit(w->cache, p, c, ii ? ii->flags : 0);
  size_t len = (size_t)(p - start);
  len = len < RECORD_MAX ? len : RECORD_MAX;
  dst->len += len;
  if (!direct && (w->held += len) > w->hold_limit) spill_all(w);
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
  w->hold_limit = HOLD_LIMIT;
  w->cache = vt_trace_cache_new();
  if (!w->cache || !sb_reserve(&w->out, OUT_CAP)) {
    vt_trace_writer_free(w);
    return NULL;
  }
  return w;
}

void vt_trace_writer_begin(vt_trace_writer *w, vt_device *d, const vt_launch *l) {
  while (w->nopen) drop_open(w, &w->open[0]);
  if (w->spill) { /* nothing in it is needed any more: start it afresh */
    fflush(w->spill);
    if (ftruncate(fileno(w->spill), 0)) w->failed = 1;
    w->spill_end = 0;
  }
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
    put_held(w, b);
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
  if (w->spill) fclose(w->spill);
  vt_trace_cache_free(w->cache);
  free(w);
}

void vt_trace_writer_set_hold_limit(vt_trace_writer *w, size_t bytes) { w->hold_limit = bytes; }

uint64_t vt_trace_writer_spilled(const vt_trace_writer *w) { return w->spilled; }
