/* Issue-log comparison (issue_diff.h). A warp's drift at its k-th issue is
 * the second log's cycle minus the first's; it "drifts apart" at the first
 * issue where that passes both thresholds. The drift each instruction adds
 * (its issue gap in the second log minus its gap in the first) is summed
 * per pc over all warps, which names the instructions the two disagree on. */
#include "issue_diff.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static idiff_warp *warp_of(idiff_log *log, uint32_t launch, uint32_t sm, uint32_t slot) {
  /* the logs list a launch's issues in cycle order, so the warp is most
   * often one of the last few touched: search from the end */
  for (size_t i = log->n; i-- > 0;) {
    idiff_warp *w = &log->w[i];
    if (w->launch != launch) break;
    if (w->sm == sm && w->slot == slot) return w;
  }
  if (log->n == log->cap) {
    size_t cap = log->cap ? 2 * log->cap : 64;
    idiff_warp *nw = realloc(log->w, cap * sizeof *nw);
    if (!nw) return NULL;
    log->w = nw;
    log->cap = cap;
  }
  idiff_warp *w = &log->w[log->n++];
  memset(w, 0, sizeof *w);
  w->launch = launch, w->sm = sm, w->slot = slot;
  return w;
}

/* The CTA schedulers of the RTL and of the model may place a launch's
 * first work-group on different SMs: SMs are numbered, per launch, in the
 * order of their first issue, so warps match by position, not by SM id. */
static void renumber_sms(idiff_log *log) {
  for (uint32_t l = 0; l < log->launches; l++) {
    uint32_t ids[64], n = 0;
    int64_t first[64];
    for (size_t i = 0; i < log->n; i++) {
      idiff_warp *w = &log->w[i];
      if (w->launch != l || !w->n) continue;
      uint32_t k = 0;
      while (k < n && ids[k] != w->sm) k++;
      if (k == n) {
        if (n == 64) return; /* more SMs than this renumbers: keep the ids */
        ids[n] = w->sm, first[n] = w->v[0].cycle, n++;
      } else if (w->v[0].cycle < first[k]) {
        first[k] = w->v[0].cycle;
      }
    }
    for (size_t i = 0; i < log->n; i++) {
      idiff_warp *w = &log->w[i];
      if (w->launch != l) continue;
      uint32_t k = 0, rank = 0;
      while (k < n && ids[k] != w->sm) k++;
      for (uint32_t j = 0; j < n; j++)
        rank += first[j] < first[k] || (first[j] == first[k] && ids[j] < ids[k]);
      w->sm = rank;
    }
  }
}

int idiff_read(const char *path, idiff_log *log, char *msg, size_t msgsz) {
  memset(log, 0, sizeof *log);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(msg, msgsz, "%s: %s", path, strerror(errno));
    return -1;
  }
  char line[256];
  unsigned long lineno = 0;
  int launch = -1;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (!strchr(line, '\n') && !feof(f)) {
      snprintf(msg, msgsz, "%s:%lu: line too long", path, lineno);
      goto bad;
    }
    char *p = line;
    while (isspace((unsigned char)*p)) p++;
    if (!*p) continue;
    if (*p == '#') {
      if (!strncmp(p, "# launch", 8)) launch++;
      continue;
    }
    long long cyc;
    unsigned sm, slot, pc;
    char extra;
    if (sscanf(p, "%lld %u %u %x %c", &cyc, &sm, &slot, &pc, &extra) != 4) {
      snprintf(msg, msgsz, "%s:%lu: expected 'CYCLE SM SLOT PC'", path, lineno);
      goto bad;
    }
    if (launch < 0) launch = 0; /* a log without launch lines is one launch */
    idiff_warp *w = warp_of(log, (uint32_t)launch, sm, slot);
    if (!w) goto oom;
    if (w->n == w->cap) {
      size_t cap = w->cap ? 2 * w->cap : 64;
      idiff_issue *nv = realloc(w->v, cap * sizeof *nv);
      if (!nv) goto oom;
      w->v = nv;
      w->cap = cap;
    }
    w->v[w->n++] = (idiff_issue){cyc, pc};
    if (launch < 64 && cyc > log->last[launch]) log->last[launch] = cyc;
  }
  if (ferror(f)) {
    snprintf(msg, msgsz, "%s: read error", path);
    goto bad;
  }
  fclose(f);
  log->launches = (uint32_t)(launch + 1);
  renumber_sms(log);
  return 0;
oom:
  snprintf(msg, msgsz, "%s: out of memory", path);
bad:
  fclose(f);
  idiff_free(log);
  return -1;
}

void idiff_free(idiff_log *log) {
  for (size_t i = 0; i < log->n; i++) free(log->w[i].v);
  free(log->w);
  memset(log, 0, sizeof *log);
}

static const idiff_warp *find(const idiff_log *log, const idiff_warp *w) {
  for (size_t i = 0; i < log->n; i++)
    if (log->w[i].launch == w->launch && log->w[i].sm == w->sm && log->w[i].slot == w->slot) return &log->w[i];
  return NULL;
}

typedef struct {
  uint32_t pc;
  int64_t add;
  uint64_t n;
} pc_drift;

static int by_abs_drift(const void *x, const void *y) {
  int64_t a = llabs(((const pc_drift *)x)->add), b = llabs(((const pc_drift *)y)->add);
  return a < b ? 1 : a > b ? -1 : 0;
}

static int add_drift(pc_drift **t, size_t *n, size_t *cap, uint32_t pc, int64_t d) {
  for (size_t i = 0; i < *n; i++)
    if ((*t)[i].pc == pc) {
      (*t)[i].add += d;
      (*t)[i].n++;
      return 0;
    }
  if (*n == *cap) {
    size_t c = *cap ? 2 * *cap : 64;
    pc_drift *nt = realloc(*t, c * sizeof *nt);
    if (!nt) return -1;
    *t = nt;
    *cap = c;
  }
  (*t)[(*n)++] = (pc_drift){pc, d, 1};
  return 0;
}

int idiff_report(const idiff_log *a, const idiff_log *b, const idiff_opts *o, const char *na, const char *nb, FILE *f) {
  size_t matched = 0, unmatched = 0, diverged = 0;
  /* the earliest drift over all warps, by the first log's cycle */
  const idiff_warp *fw = NULL;
  size_t fk = 0;
  pc_drift *tab = NULL;
  size_t nt = 0, ct = 0;
  for (size_t i = 0; i < a->n; i++) {
    const idiff_warp *wa = &a->w[i], *wb = find(b, wa);
    if (!wb) {
      unmatched++;
      continue;
    }
    matched++;
    size_t n = wa->n < wb->n ? wa->n : wb->n;
    if (wa->n != wb->n) diverged++;
    int drifted = 0;
    for (size_t k = 0; k < n; k++) {
      if (wa->v[k].pc != wb->v[k].pc) { /* the streams part: compare no further */
        diverged++;
        n = k;
        break;
      }
      int64_t d = wb->v[k].cycle - wa->v[k].cycle;
      int64_t step = k ? d - (wb->v[k - 1].cycle - wa->v[k - 1].cycle) : d;
      if (add_drift(&tab, &nt, &ct, wa->v[k].pc, step)) {
        free(tab);
        fprintf(stderr, "ventus issue-diff: out of memory\n");
        return 2;
      }
      int64_t el = wa->v[k].cycle > 0 ? wa->v[k].cycle : 0;
      if (!drifted && llabs(d) > o->abs_cycles && (double)llabs(d) > o->rel * (double)el) {
        drifted = 1;
        if (!fw || wa->v[k].cycle < fw->v[fk].cycle) fw = wa, fk = k;
      }
    }
  }
  for (size_t i = 0; i < b->n; i++)
    if (!find(a, &b->w[i])) unmatched++;
  if (nt) qsort(tab, nt, sizeof *tab, by_abs_drift); /* tab is NULL when no warp matched */
  size_t top = 0; /* the largest non-zero drifts, at most o->top */
  while (top < nt && top < o->top && tab[top].add) top++;
  const idiff_warp *fb = fw ? find(b, fw) : NULL;
  int rc = unmatched > matched || !matched ? 2 : fw ? 1 : 0;

  if (o->json) {
    fprintf(f, "{\"a\": \"%s\", \"b\": \"%s\", \"warps_matched\": %zu, \"warps_unmatched\": %zu, \"warps_diverged\": %zu",
            na, nb, matched, unmatched, diverged);
    fprintf(f, ", \"launches\": [");
    uint32_t nl = a->launches > b->launches ? a->launches : b->launches;
    for (uint32_t l = 0; l < nl && l < 64; l++)
      fprintf(f, "%s{\"a_last_issue\": %" PRId64 ", \"b_last_issue\": %" PRId64 "}", l ? ", " : "", a->last[l],
              b->last[l]);
    fprintf(f, "], \"first_drift\": ");
    if (fw && fb)
      fprintf(f,
              "{\"launch\": %u, \"sm\": %u, \"slot\": %u, \"index\": %zu, \"pc\": \"0x%08x\", \"a_cycle\": %" PRId64
              ", \"b_cycle\": %" PRId64 "}",
              fw->launch, fw->sm, fw->slot, fk, fw->v[fk].pc, fw->v[fk].cycle, fb->v[fk].cycle);
    else
      fprintf(f, "null");
    fprintf(f, ", \"drift_by_pc\": [");
    for (size_t i = 0; i < top; i++)
      fprintf(f, "%s{\"pc\": \"0x%08x\", \"cycles\": %" PRId64 ", \"issues\": %" PRIu64 "}", i ? ", " : "", tab[i].pc,
              tab[i].add, tab[i].n);
    fprintf(f, "]}\n");
  } else {
    fprintf(f, "issue-diff: %s (a) against %s (b): %zu warp slots matched, %zu only in one log, %zu whose "
               "instruction streams differ\n",
            na, nb, matched, unmatched, diverged);
    uint32_t nl = a->launches > b->launches ? a->launches : b->launches;
    for (uint32_t l = 0; l < nl && l < 64; l++)
      fprintf(f, "launch %u: last issue at cycle %" PRId64 " (a) and %" PRId64 " (b), %+.1f%%\n", l, a->last[l],
              b->last[l], a->last[l] ? 100.0 * (double)(b->last[l] - a->last[l]) / (double)a->last[l] : 0.0);
    if (fw && fb)
      fprintf(f,
              "first drift: launch %u, SM %u, slot %u, issue #%zu at pc 0x%08x: cycle %" PRId64 " (a), %" PRId64
              " (b): %+" PRId64 " cycles, past %" PRId64 " cycles and %.0f%% of the elapsed time\n",
              fw->launch, fw->sm, fw->slot, fk, fw->v[fk].pc, fw->v[fk].cycle, fb->v[fk].cycle,
              fb->v[fk].cycle - fw->v[fk].cycle, o->abs_cycles, 100 * o->rel);
    else if (matched)
      fprintf(f, "no warp drifts past %" PRId64 " cycles and %.0f%% of the elapsed time\n", o->abs_cycles, 100 * o->rel);
    if (top) fprintf(f, "drift added per instruction (b's issue gap minus a's, summed over the warps):\n");
    for (size_t i = 0; i < top; i++)
      fprintf(f, "  pc 0x%08x: %+" PRId64 " cycles over %" PRIu64 " issues\n", tab[i].pc, tab[i].add, tab[i].n);
    if (rc == 2) fprintf(f, "the logs' warp slots do not correspond (work-groups placed differently?)\n");
  }
  free(tab);
  return rc;
}
