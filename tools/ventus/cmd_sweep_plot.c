/* `ventus sweep --plot DIR`: for every axis with two values or more and
 * every metric of `plot =`, DIR/METRIC-vs-AXIS.svg (one line per kernel
 * and combination of the other axes) and, beside it, the data drawn as
 * DIR/METRIC-vs-AXIS.csv. Only ok runs of the axes' product are drawn. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd_sweep.h"
#include "sweep_svg.h"
#include "vt_outfile.h"

static int numeric(const sw_strs *v) {
  for (size_t i = 0; i < v->n; i++) {
    char *end;
    strtod(v->v[i], &end);
    if (end == v->v[i] || *end) return 0;
  }
  return 1;
}

/* the line plot of metric m against axis a, and its data */
typedef struct {
  sw_series *series;
  char **names;
  double *x, *y; /* nseries x npoints, points per series packed at the front */
  size_t nseries, per;
} lines;

static void lines_free(lines *l) {
  for (size_t s = 0; l->names && s < l->nseries; s++) free(l->names[s]);
  free(l->names);
  free(l->series);
  free(l->x);
  free(l->y);
}

/* the series of run r: its kernel and the values of the other axes */
static size_t series_of(const sweep_ctx *c, size_t r, size_t a, size_t *pos) {
  const sw_spec *s = &c->spec;
  size_t combo = c->plan.runs[r].combo, other = 0;
  for (size_t i = s->naxes; i-- > 0;) { /* the odometer, last axis fastest */
    size_t n = s->axes[i].values.n, v = combo % n;
    combo /= n;
    if (i == a)
      *pos = v;
    else
      other = other * n + v; /* (reversed digits: any fixed numbering will do) */
  }
  return c->plan.runs[r].kernel * (c->plan.nproduct / s->axes[a].values.n) + other;
}

static int series_name(const sweep_ctx *c, size_t r, size_t a, char **out) {
  const sw_spec *s = &c->spec;
  const sw_settings *st = &c->plan.combos[c->plan.runs[r].combo];
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f) return -1;
  fputs(s->kernels[c->plan.runs[r].kernel].name, f);
  for (size_t i = 0; i < s->naxes; i++)
    if (i != a)
      for (size_t j = st->keys.n; j-- > 0;)
        if (!strcmp(st->keys.v[j], s->axes[i].key)) {
          fprintf(f, " %s=%s", s->axes[i].key, st->values.v[j]);
          break;
        }
  if (fclose(f)) return -1;
  *out = buf;
  return 0;
}

static int write_file(const char *path, int svg, const sw_lineplot *p, const sweep_ctx *c, size_t a,
                      const char *metric, vt_error *e) {
  vt_outfile o;
  FILE *f = vt_outfile_fopen(&o, path, e);
  if (!f) return -1;
  if (svg) {
    sw_svg_lines(f, p);
  } else { /* the data: series, axis value, metric */
    fprintf(f, "series,%s,%s\n", c->spec.axes[a].key, metric);
    for (size_t s = 0; s < p->nseries; s++)
      for (size_t i = 0; i < p->series[s].n; i++) {
        double x = p->series[s].x[i];
        fprintf(f, "\"%s\",", p->series[s].name);
        if (p->categories)
          fprintf(f, "%s", p->categories[(size_t)x]);
        else
          fprintf(f, "%.17g", x);
        fprintf(f, ",%.17g\n", p->series[s].y[i]);
      }
  }
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) vt_fail(e, VT_ERR_IO, "%s: writing failed: %s", path, VT_STRERROR(errno));
  return vt_outfile_finish(&o, bad, e) || bad ? -1 : 0;
}

/* metric against axis a; with base (per kernel, NAN = none) the speed-up
 * base / metric instead, named `name` */
static int plot_one(sweep_ctx *c, const char *dir, size_t a, const char *metric, sw_query *q, const double *base,
                    const char *name, vt_error *e) {
  const sw_axis *ax = &c->spec.axes[a];
  lines l = {0};
  l.per = ax->values.n;
  l.nseries = c->spec.nkernels * (c->plan.nproduct / l.per);
  size_t *count = calloc(l.nseries, sizeof *count);
  l.series = calloc(l.nseries, sizeof *l.series);
  l.names = calloc(l.nseries, sizeof *l.names);
  l.x = calloc(l.nseries * l.per, sizeof *l.x);
  l.y = calloc(l.nseries * l.per, sizeof *l.y);
  int rc = !count || !l.series || !l.names || !l.x || !l.y ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
  int num = numeric(&ax->values);
  /* runs come in odometer order, so each series' points come by axis value */
  for (size_t r = 0; !rc && r < c->plan.nruns; r++) {
    if (c->plan.runs[r].combo >= c->plan.nproduct) continue;
    size_t pos = 0, s = series_of(c, r, a, &pos);
    double v;
    if (!sw_query_get(q, c->plan.runs[r].id, &v)) continue;
    if (base) {
      double b = base[c->plan.runs[r].kernel];
      if (isnan(b) || v == 0) continue;
      v = b / v;
    }
    if (!l.names[s] && series_name(c, r, a, &l.names[s])) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    l.x[s * l.per + count[s]] = num ? strtod(ax->values.v[pos], NULL) : (double)pos;
    l.y[s * l.per + count[s]++] = v;
  }
  /* the series with points, in order */
  size_t k = 0;
  int logx = num;
  for (size_t i = 0; num && i < ax->values.n; i++) logx &= strtod(ax->values.v[i], NULL) > 0;
  if (logx) {
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < ax->values.n; i++) {
      lo = fmin(lo, strtod(ax->values.v[i], NULL));
      hi = fmax(hi, strtod(ax->values.v[i], NULL));
    }
    logx = hi / lo >= 16;
  }
  for (size_t s = 0; !rc && s < l.nseries; s++)
    if (count[s]) l.series[k++] = (sw_series){l.names[s], count[s], &l.x[s * l.per], &l.y[s * l.per]};
  char title[240], file[300];
  if (base)
    snprintf(title, sizeof title, "%s: speed-up (%s) over the baseline against %s", c->spec.name, metric, ax->key);
  else
    snprintf(title, sizeof title, "%s: %s against %s", c->spec.name, metric, ax->key);
  sw_lineplot p = {title, ax->key, name, l.series, k, num ? NULL : ax->values.v, num ? 0 : ax->values.n, logx};
  snprintf(file, sizeof file, "%s-vs-%s", name, ax->key);
  char *svg = sweep_file(dir, file, ".svg"), *csv = sweep_file(dir, file, ".csv");
  if (!rc && (!svg || !csv)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  if (!rc) rc = write_file(svg, 1, &p, c, a, name, e) || write_file(csv, 0, &p, c, a, name, e) ? -1 : 0;
  free(svg);
  free(csv);
  free(count);
  lines_free(&l);
  return rc;
}

/* Does run r's configuration have every setting of the baseline? */
static int is_baseline(const sweep_ctx *c, size_t r) {
  const sw_settings *b = &c->spec.baseline, *st = &c->plan.combos[c->plan.runs[r].combo];
  for (size_t i = 0; i < b->keys.n; i++) {
    const char *v = NULL;
    for (size_t j = 0; j < st->keys.n; j++)
      if (!strcmp(st->keys.v[j], b->keys.v[i])) v = st->values.v[j];
    if (!v) return 0;
    char *e1, *e2;
    double x = strtod(v, &e1), y = strtod(b->values.v[i], &e2);
    if (*e1 || *e2 ? strcmp(v, b->values.v[i]) != 0 : x != y) return 0;
  }
  return 1;
}

/* speedup-vs-AXIS: cycles of each kernel's baseline run over each run's */
static int speedups(sweep_ctx *c, const char *dir, vt_error *e) {
  double *base = malloc(c->spec.nkernels * sizeof *base);
  if (!base) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t k = 0; k < c->spec.nkernels; k++) base[k] = NAN;
  sw_query *q = sw_store_metric_query(c->store, "cycles", e);
  size_t found = 0;
  for (size_t r = 0; q && r < c->plan.nruns; r++) {
    size_t k = c->plan.runs[r].kernel;
    double v;
    if (isnan(base[k]) && is_baseline(c, r) && sw_query_get(q, c->plan.runs[r].id, &v) && v > 0) {
      base[k] = v;
      found++;
    }
  }
  int rc = q ? 0 : -1;
  if (!rc && !found)
    rc = vt_fail(e, VT_ERR_USAGE, "--plot: no ok run has the baseline configuration of %s", c->spec.path);
  for (size_t a = 0; !rc && a < c->spec.naxes; a++)
    if (c->spec.axes[a].values.n > 1) rc = plot_one(c, dir, a, "cycles", q, base, "speedup", e);
  sw_query_free(q);
  free(base);
  return rc;
}

static const char *const cpi_parts[] = {"issued",       "stall_scoreboard", "stall_memory",
                                        "stall_structural", "stall_dma",    "stall_fetch",
                                        "stall_barrier", "stall_control",   "stall_idle"};
#define NCPI (sizeof cpi_parts / sizeof cpi_parts[0])

/* cpi-stack-KERNEL: per ok run, SM cycles per issued instruction split
 * into the issue itself and each stall reason (issued + stalls = cycles
 * on every SM, docs/timing.md) */
static int cpi_stack(sweep_ctx *c, const char *dir, size_t k, sw_query *const *q, vt_error *e) {
  size_t n = 0;
  double *v = malloc((c->plan.nruns + 1) * NCPI * sizeof *v);
  char **labels = calloc(c->plan.nruns + 1, sizeof *labels);
  int rc = !v || !labels ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
  for (size_t r = 0; !rc && r < c->plan.nruns; r++) {
    if (c->plan.runs[r].kernel != k) continue;
    double part[NCPI];
    size_t got = 0;
    for (size_t i = 0; i < NCPI; i++) got += (size_t)sw_query_get(q[i], c->plan.runs[r].id, &part[i]);
    if (got != NCPI || part[0] <= 0) continue;
    for (size_t i = 0; i < NCPI; i++) v[n * NCPI + i] = part[i] / part[0];
    /* the label: the settings that vary */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    const sw_settings *st = &c->plan.combos[c->plan.runs[r].combo];
    for (size_t i = 0; f && i < c->plan.columns.n; i++)
      for (size_t j = st->keys.n; j-- > 0;)
        if (!strcmp(st->keys.v[j], c->plan.columns.v[i])) {
          fprintf(f, "%s%s=%s", ftell(f) ? " " : "", st->keys.v[j], st->values.v[j]);
          break;
        }
    if (!f || fclose(f)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    labels[n++] = buf;
  }
  char name[200], title[240];
  snprintf(name, sizeof name, "cpi-stack-%s", c->spec.kernels[k].name);
  snprintf(title, sizeof title, "%s: CPI stack of %s", c->spec.name, c->spec.kernels[k].name);
  char *svg = sweep_file(dir, name, ".svg"), *csv = sweep_file(dir, name, ".csv");
  if (!rc && (!svg || !csv)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (int pass = 0; !rc && n && pass < 2; pass++) {
    vt_outfile o;
    const char *path = pass ? csv : svg;
    FILE *f = vt_outfile_fopen(&o, path, e);
    if (!f) {
      rc = -1;
      break;
    }
    if (!pass) {
      sw_barplot p = {title, "SM cycles per issued instruction", labels, n, cpi_parts, NCPI, v};
      sw_svg_stacked(f, &p);
    } else {
      fputs("configuration", f);
      for (size_t i = 0; i < NCPI; i++) fprintf(f, ",%s", cpi_parts[i]);
      fputc('\n', f);
      for (size_t b = 0; b < n; b++) {
        fprintf(f, "\"%s\"", labels[b]);
        for (size_t i = 0; i < NCPI; i++) fprintf(f, ",%.6g", v[b * NCPI + i]);
        fputc('\n', f);
      }
    }
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad) rc = vt_fail(e, VT_ERR_IO, "%s: writing failed: %s", path, VT_STRERROR(errno));
    if (vt_outfile_finish(&o, bad, e)) rc = -1;
  }
  for (size_t b = 0; labels && b < n; b++) free(labels[b]);
  free(labels);
  free(v);
  free(svg);
  free(csv);
  return rc;
}

int sweep_plot(sweep_ctx *c, const char *dir, vt_error *e) {
  size_t axes = 0;
  for (size_t a = 0; a < c->spec.naxes; a++) axes += c->spec.axes[a].values.n > 1;
  if (!axes) return vt_fail(e, VT_ERR_USAGE, "--plot: the description has no axis with two values or more");
  if (mkdir(dir, 0777) && errno != EEXIST)
    return vt_fail(e, VT_ERR_IO, "%s: cannot create the plot directory: %s", dir, VT_STRERROR(errno));
  for (size_t m = 0; m < c->spec.plot.n; m++) {
    sw_query *q = sw_store_metric_query(c->store, c->spec.plot.v[m], e);
    if (!q) return -1;
    int rc = 0;
    for (size_t a = 0; !rc && a < c->spec.naxes; a++)
      if (c->spec.axes[a].values.n > 1) rc = plot_one(c, dir, a, c->spec.plot.v[m], q, NULL, c->spec.plot.v[m], e);
    sw_query_free(q);
    if (rc) return -1;
  }
  if (c->spec.baseline.keys.n && speedups(c, dir, e)) return -1;
  /* the CPI stacks, when the runs were timed (the store has the stalls) */
  sw_query *q[NCPI] = {0};
  vt_error qe;
  int rc = 0, timed = 1;
  for (size_t i = 0; i < NCPI && timed; i++) timed = (q[i] = sw_store_metric_query(c->store, cpi_parts[i], &qe)) != NULL;
  for (size_t k = 0; timed && !rc && k < c->spec.nkernels; k++) rc = cpi_stack(c, dir, k, q, e);
  for (size_t i = 0; i < NCPI; i++) sw_query_free(q[i]);
  return rc;
}
