/* `ventus sweep`: building the kernels, running the runs side by side and
 * recording each as it ends. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "vt_file.h"

char *sweep_file(const char *dir, const char *name, const char *ext) {
  size_t n = strlen(dir) + strlen(name) + strlen(ext) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s", dir, name, ext);
  return p;
}

/* The last non-empty line of a run's stderr (its error message), at most
 * 1000 bytes; NULL when there is none. */
static char *last_line(const char *path) {
  vt_error e;
  size_t len;
  char *t = vt_read_file(path, &len, &e);
  if (!t) return NULL;
  while (len && (t[len - 1] == '\n' || t[len - 1] == '\r' || t[len - 1] == ' ')) t[--len] = 0;
  char *l = strrchr(t, '\n');
  l = l ? l + 1 : t;
  char *r = *l ? strndup(l, 1000) : NULL;
  free(t);
  return r;
}

/* runs one child to its end (the assembler, sbatch) */
int sweep_run_sync(sweep_ctx *c, char *const *argv, const char *out, const char *err, sw_done *d, vt_error *e) {
  if (sw_pool_start(c->pool, argv, NULL, out, err, 0, (size_t)-1, e)) return -1;
  while (!sw_pool_wait(c->pool, 3600, d)) {
  }
  return 0;
}

int sweep_build_kernels(sweep_ctx *c, const char *dir, char **target, vt_error *e) {
  for (size_t k = 0; k < c->spec.nkernels; k++) {
    sw_kernel *kn = &c->spec.kernels[k];
    if (kn->kind != SW_ASM) {
      if (!(target[k] = strdup(kn->files.v[0]))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
      continue;
    }
    char *elf = sweep_file(dir, kn->name, ".elf"), *out = sweep_file(dir, kn->name, ".as.out"),
         *err = sweep_file(dir, kn->name, ".as.err");
    char **argv = calloc(kn->files.n + 5, sizeof *argv);
    int rc = !elf || !out || !err || !argv ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
    if (!rc) {
      argv[0] = c->exe;
      argv[1] = "as";
      argv[2] = "-o";
      argv[3] = elf;
      for (size_t i = 0; i < kn->files.n; i++) argv[4 + i] = kn->files.v[i];
      sw_done d;
      rc = sweep_run_sync(c, argv, out, err, &d, e);
      if (!rc && d.exit_code != 0) {
        char *msg = last_line(err);
        rc = vt_fail(e, VT_ERR_FORMAT, "%s:%d: kernel %s: assembling failed: %s", c->spec.path, kn->line, kn->name,
                     msg ? msg : "(no message)");
        free(msg);
      }
    }
    if (out) unlink(out);
    if (err) unlink(err);
    free(out);
    free(err);
    free(argv);
    target[k] = elf;
    if (rc) return -1;
  }
  return 0;
}

/* the status name for how a run ended */
static const char *status_of(const sw_done *d) {
  if (d->timed_out) return "timeout";
  if (d->signal) return "crashed";
  switch (d->exit_code) {
  case 0: return "ok";
  case 1: return "mismatch";
  case 3: return "fault";
  default: return "error";
  }
}

/* the metrics the description asks to record (all when it names none) */
static void keep_recorded(const sw_spec *s, sw_metrics *m) {
  if (!s->record.n) return;
  size_t k = 0;
  for (size_t i = 0; i < m->n; i++)
    for (size_t j = 0; j < s->record.n; j++)
      if (!strcmp(m->v[i].name, s->record.v[j])) {
        m->v[k++] = m->v[i];
        break;
      }
  m->n = k;
}

int sweep_record(sweep_ctx *c, size_t r, const sw_done *d, const char *dir, int *failed, vt_error *e) {
  const sw_run *run = &c->plan.runs[r];
  char *out = sweep_file(dir, run->id, ".json"), *err = sweep_file(dir, run->id, ".err");
  char *json = NULL, *cfg = NULL, *msg = NULL, *output = NULL;
  sw_strs values = {0};
  sw_metrics m = {0};
  int rc = !out || !err ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
  sw_row row = {.id = run->id, .sweep = c->spec.name, .kernel = c->spec.kernels[run->kernel].name,
                .exit_code = d ? d->exit_code : -1, .wall = d ? d->wall : 0, .columns = &c->plan.columns,
                .values = &values};
  vt_error ce;
  if (!rc && sw_plan_effective(&c->plan, run->combo, &cfg, &values, &ce)) {
    if (ce.kind == VT_ERR_NOMEM) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    /* refused: the columns show the values asked for */
    const sw_settings *st = &c->plan.combos[run->combo];
    sw_strs_free(&values);
    for (size_t i = 0; !rc && i < c->plan.columns.n; i++) {
      const char *v = "";
      for (size_t j = 0; j < st->keys.n; j++)
        if (!strcmp(st->keys.v[j], c->plan.columns.v[i])) v = st->values.v[j];
      if (sw_strs_push(&values, v)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    }
  }
  if (!rc && d) {
    row.status = status_of(d);
    vt_error je;
    json = vt_read_file(out, NULL, &je);
    /* the kernel's printf output comes first; the JSON object is the last line */
    char *obj = json ? strstr(json, "{\"input\":") : NULL;
    for (char *n = obj; n && (n = strstr(n + 1, "\n{\"input\":"));) obj = n + 1;
    if (json && obj && obj != json) {
      output = strndup(json, (size_t)(obj - json) < (64u << 10) ? (size_t)(obj - json) : (64u << 10));
      memmove(json, obj, strlen(obj) + 1);
    }
    if (json && !*json) {
      free(json);
      json = NULL;
    }
    if (json && sw_json_metrics(json, &m, &je)) {
      char b[420];
      vt_err_format(&je, b, sizeof b);
      if (!strcmp(row.status, "ok")) { /* an ok run must give its statistics */
        row.status = "error";
        msg = strdup(b);
      }
      free(json);
      json = NULL;
    }
    if (json && m.config_len) { /* the child's own view of its configuration */
      free(cfg);
      cfg = strndup(json + m.config_at, m.config_len);
    }
    keep_recorded(&c->spec, &m);
    if (strcmp(row.status, "ok") && !msg) {
      char *line = last_line(err), b[1200];
      if (d->timed_out)
        snprintf(b, sizeof b, "timed out after %g s", c->timeout);
      else if (d->signal)
        snprintf(b, sizeof b, "killed by signal %d (%s)%s%s", d->signal, strsignal(d->signal), line ? ": " : "",
                 line ? line : "");
      else
        snprintf(b, sizeof b, "%s", line ? line : "exited with status");
      if (!d->timed_out && !d->signal && !line) snprintf(b, sizeof b, "exited with status %d", d->exit_code);
      free(line);
      msg = strdup(b);
    }
  } else if (!rc) {
    row.status = "error";
    msg = strdup(run->invalid ? run->invalid : "not run");
  }
  if (!rc) {
    row.error = msg;
    row.metrics = &m;
    row.config_json = cfg;
    row.result_json = json;
    row.output = output;
    rc = sw_store_put(c->store, &row, e);
    *failed = strcmp(row.status, "ok") != 0;
  }
  if (out) unlink(out);
  if (err) unlink(err);
  free(out);
  free(err);
  free(json);
  free(cfg);
  free(msg);
  free(output);
  sw_strs_free(&values);
  sw_metrics_free(&m);
  return rc;
}

static void fmt_secs(char *b, size_t n, double s) {
  long t = (long)(s + 0.5);
  if (t >= 3600)
    snprintf(b, n, "%ldh%02ldm", t / 3600, t / 60 % 60);
  else
    snprintf(b, n, "%ldm%02lds", t / 60, t % 60);
}

static void progress(const sweep_ctx *c, size_t done, size_t failed, size_t total, double t0, int final) {
  if (!c->progress) return;
  if (final) {
    fprintf(stderr, "\r\033[K");
    return;
  }
  char eta[32] = "?";
  if (done) fmt_secs(eta, sizeof eta, (sw_now() - t0) / (double)done * (double)(total - done));
  fprintf(stderr, "\r\033[Ksweep: %zu/%zu runs done, %zu failed, %d running, ETA %s", done, total, failed,
          sw_pool_running(c->pool), eta);
}

int sweep_run_all(sweep_ctx *c, size_t *ran, size_t *failed, size_t *skipped, vt_error *e) {
  size_t n = c->plan.nruns;
  char *todo = calloc(n ? n : 1, 1);
  if (!todo) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  size_t total = 0;
  *ran = *failed = *skipped = 0;
  for (size_t r = 0; r < n; r++) {
    e->kind = VT_OK;
    char *st = sw_store_status(c->store, c->plan.runs[r].id, e);
    if (!st && e->kind != VT_OK) {
      free(todo);
      return -1;
    }
    todo[r] = !st || (c->retry && strcmp(st, "ok"));
    total += todo[r];
    *skipped += !todo[r];
    free(st);
  }
  double t0 = sw_now(), shown = 0;
  size_t next = 0, done = 0;
  int rc = 0;
  while (!rc && done < total) {
    /* fill the free slots */
    while (!rc && next < n && sw_pool_free_slots(c->pool) > 0) {
      size_t r = next++;
      if (!todo[r]) continue;
      if (c->plan.runs[r].invalid) { /* the device refuses this configuration */
        int f = 0;
        rc = sweep_record(c, r, NULL, c->work, &f, e);
        done++;
        *failed += f;
        continue;
      }
      char **argv = sw_plan_argv(&c->spec, &c->plan, r, c->exe);
      char *out = sweep_file(c->work, c->plan.runs[r].id, ".json"),
           *err = sweep_file(c->work, c->plan.runs[r].id, ".err");
      if (!argv || !out || !err)
        rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
      else
        rc = sw_pool_start(c->pool, argv, c->spec.dir, out, err, c->timeout, r, e);
      sw_argv_free(argv);
      free(out);
      free(err);
    }
    if (rc) break;
    sw_done d;
    if (sw_pool_wait(c->pool, 0.25, &d)) {
      int f = 0;
      rc = sweep_record(c, d.tag, &d, c->work, &f, e);
      done++;
      *failed += f;
    }
    if (sw_now() - shown >= 0.2 || done == total) {
      progress(c, done, *failed, total, t0, 0);
      shown = sw_now();
    }
  }
  progress(c, 0, 0, 0, 0, 1);
  *ran = done;
  free(todo);
  return rc;
}
