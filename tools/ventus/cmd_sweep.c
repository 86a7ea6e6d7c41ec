/* `ventus sweep SPEC`: expand a design-space sweep description into runs,
 * run those not yet in the result store as separate `ventus run`
 * processes, record each in SQLite, and export the results
 * (docs/sweeps.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "commands.h"
#include "vt_outfile.h"

static const char usage_text[] =
    "usage: ventus sweep SPEC [options]\n"
    "\n"
    "Runs every kernel of the sweep description SPEC under every configuration\n"
    "it names (docs/sweeps.md), each run a separate `ventus run --json` process,\n"
    "and records one row per run in an SQLite store (default: NAME.db beside\n"
    "SPEC). Runs already in the store are skipped, so an interrupted sweep\n"
    "resumes where it stopped; a run that fails, faults or times out is\n"
    "recorded with its error and the others go on.\n"
    "\n"
    "options:\n"
    "  -j N               runs at once (default: online CPUs)\n"
    "  --timeout SECONDS  time limit per run (overrides the description's; 0 = none)\n"
    "  --store FILE       the SQLite store (overrides the description's)\n"
    "  --retry            run again the runs recorded as failed\n"
    "  --list             print the runs (id, kernel, settings) and run nothing\n"
    "  --no-run           run nothing: only export what the store holds\n"
    "  --csv FILE         afterwards write the sweep's rows as CSV ('-' = stdout)\n"
    "  --json FILE        afterwards write them as a JSON array ('-' = stdout)\n"
    "  --plot DIR         afterwards draw METRIC-vs-AXIS.svg for every axis and every\n"
    "                     metric of 'plot =' (default cycles, ipc), the data beside (.csv)\n"
    "  --quiet            no progress line and no summary\n"
    "  --help             this text\n"
    "\n"
    "A progress line (runs done/failed, ETA) is shown on stderr when it is a\n"
    "terminal. Exit status: 0 every run recorded (failed runs included), 2 usage,\n"
    "4 a bad description or a store that cannot be written.\n";

static int usage_err(const char *fmt, const char *arg) {
  fprintf(stderr, "ventus sweep: ");
  fprintf(stderr, fmt, arg);
  fprintf(stderr, " (see 'ventus sweep --help')\n");
  return 2;
}

static int report(const vt_error *e) {
  char buf[600];
  vt_err_format(e, buf, sizeof buf);
  fprintf(stderr, "ventus sweep: %s\n", buf);
  return vt_err_exit_code(e->kind) == 2 ? 4 : vt_err_exit_code(e->kind);
}

static int parse_count(const char *t, long lo, long hi, long *v) {
  char *end;
  errno = 0;
  *v = strtol(t, &end, 10);
  return errno || end == t || *end || *v < lo || *v > hi ? -1 : 0;
}

static void list_runs(const sweep_ctx *c) {
  for (size_t r = 0; r < c->plan.nruns; r++) {
    const sw_run *run = &c->plan.runs[r];
    const sw_settings *st = &c->plan.combos[run->combo];
    printf("%s %s", run->id, c->spec.kernels[run->kernel].name);
    for (size_t i = 0; i < st->keys.n; i++) printf(" %s=%s", st->keys.v[i], st->values.v[i]);
    printf("%s\n", run->invalid ? " (refused by the configuration check)" : "");
  }
}

static int export(sweep_ctx *c, const char *path, int json, vt_error *e) {
  char **ids = malloc((c->plan.nruns ? c->plan.nruns : 1) * sizeof *ids);
  if (!ids) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (size_t r = 0; r < c->plan.nruns; r++) ids[r] = c->plan.runs[r].id;
  int rc;
  if (!strcmp(path, "-")) {
    rc = sw_store_export(c->store, ids, c->plan.nruns, json, stdout, e);
  } else {
    vt_outfile o;
    FILE *f = vt_outfile_fopen(&o, path, e);
    rc = f ? sw_store_export(c->store, ids, c->plan.nruns, json, f, e) : -1;
    if (f) {
      int bad = rc || ferror(f);
      bad |= fclose(f) != 0;
      if (bad && !rc) rc = vt_fail(e, VT_ERR_IO, "%s: writing failed: %s", path, VT_STRERROR(errno));
      if (vt_outfile_finish(&o, bad, e)) rc = -1;
    }
  }
  free(ids);
  return rc;
}

static int make_work_dir(sweep_ctx *c, vt_error *e) {
  size_t n = strlen(c->spec.store) + 6;
  if (!(c->work = malloc(n))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  snprintf(c->work, n, "%s.work", c->spec.store);
  if (mkdir(c->work, 0777) && errno != EEXIST)
    return vt_fail(e, VT_ERR_IO, "%s: cannot create the work directory: %s", c->work, VT_STRERROR(errno));
  return 0;
}

static int sweep(sweep_ctx *c, int list, int no_run, const char *csv, const char *json, const char *plot,
                 vt_error *e) {
  ssize_t n = readlink("/proc/self/exe", c->exe, sizeof c->exe - 1);
  if (n <= 0 || (size_t)n >= sizeof c->exe - 1)
    return vt_fail(e, VT_ERR_IO, "/proc/self/exe: cannot find this program: %s", VT_STRERROR(errno));
  c->exe[n] = 0;
  if (make_work_dir(c, e) || !(c->pool = sw_pool_new(c->jobs, e))) return -1;
  char **target = calloc(c->spec.nkernels, sizeof *target);
  if (!target) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  int rc = sweep_build_kernels(c, target, e);
  if (!rc) rc = sw_plan_make(&c->spec, target, &c->plan, e);
  for (size_t k = 0; k < c->spec.nkernels; k++) free(target[k]);
  free(target);
  if (rc) return -1;
  if (list) {
    list_runs(c);
    return 0;
  }
  if (!(c->store = sw_store_open(c->spec.store, e))) return -1;
  size_t ran = 0, failed = 0, skipped = 0;
  double t0 = sw_now();
  if (!no_run && sweep_run_all(c, &ran, &failed, &skipped, e)) return -1;
  if (!no_run && !c->quiet)
    printf("ventus sweep: %s: %zu runs: %zu run now (%zu failed), %zu already in the store, %.1f s; %s\n",
           c->spec.name, c->plan.nruns, ran, failed, skipped, sw_now() - t0, c->spec.store);
  if (csv && export(c, csv, 0, e)) return -1;
  if (json && export(c, json, 1, e)) return -1;
  if (plot && sweep_plot(c, plot, e)) return -1;
  return 0;
}

int cmd_sweep(int argc, char **argv) {
  sweep_ctx c = {0};
  long jobs = sysconf(_SC_NPROCESSORS_ONLN);
  const char *spec = NULL, *store = NULL, *csv = NULL, *json = NULL, *plot = NULL;
  int list = 0, no_run = 0;
  double timeout = -1;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    int has_val = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!strcmp(a, "-j") && has_val) {
      if (parse_count(argv[++i], 1, 1024, &jobs)) return usage_err("-j: expected 1..1024, not '%s'", argv[i]);
    } else if (!strncmp(a, "-j", 2) && a[2]) {
      if (parse_count(a + 2, 1, 1024, &jobs)) return usage_err("-j: expected 1..1024, not '%s'", a + 2);
    } else if (!strcmp(a, "--timeout") && has_val) {
      char *end;
      timeout = strtod(argv[++i], &end);
      if (end == argv[i] || *end || !(timeout >= 0) || timeout > 1e7)
        return usage_err("--timeout: expected seconds (0 = none), not '%s'", argv[i]);
    } else if (!strcmp(a, "--store") && has_val) {
      store = argv[++i];
    } else if (!strcmp(a, "--csv") && has_val) {
      csv = argv[++i];
    } else if (!strcmp(a, "--json") && has_val) {
      json = argv[++i];
    } else if (!strcmp(a, "--plot") && has_val) {
      plot = argv[++i];
    } else if (!strcmp(a, "--retry")) {
      c.retry = 1;
    } else if (!strcmp(a, "--list")) {
      list = 1;
    } else if (!strcmp(a, "--no-run")) {
      no_run = 1;
    } else if (!strcmp(a, "--quiet")) {
      c.quiet = 1;
    } else if (a[0] == '-' && a[1]) {
      int valued = !strcmp(a, "-j") || !strcmp(a, "--timeout") || !strcmp(a, "--store") || !strcmp(a, "--csv") ||
                   !strcmp(a, "--json") || !strcmp(a, "--plot");
      return usage_err(valued ? "'%s' needs a value" : "unknown option '%s'", a);
    } else if (spec) {
      return usage_err("one description only: unexpected '%s'", a);
    } else {
      spec = a;
    }
  }
  if (!spec) return usage_err("%s", "no sweep description given");
  c.jobs = jobs < 1 ? 1 : (int)jobs;
  c.progress = !c.quiet && isatty(2);
  vt_error e;
  int rc = 0;
  if (sw_spec_load(&c.spec, spec, &e)) return report(&e);
  if (store) {
    free(c.spec.store);
    if (!(c.spec.store = strdup(store))) rc = vt_fail(&e, VT_ERR_NOMEM, "out of memory");
  }
  c.timeout = timeout >= 0 ? timeout : c.spec.timeout;
  if (!rc) rc = sweep(&c, list, no_run, csv, json, plot, &e);
  sw_pool_free(c.pool);
  sw_store_close(c.store);
  for (size_t k = 0; c.work && k < c.spec.nkernels; k++) /* the kernels built for this invocation */
    if (c.spec.kernels[k].kind == SW_ASM) {
      size_t n = strlen(c.work) + strlen(c.spec.kernels[k].name) + 6;
      char *elf = malloc(n);
      if (elf) snprintf(elf, n, "%s/%s.elf", c.work, c.spec.kernels[k].name);
      if (elf) unlink(elf);
      free(elf);
    }
  sw_plan_free(&c.plan);
  sw_spec_free(&c.spec);
  if (c.work) rmdir(c.work); /* only when empty: outputs of a failed sweep stay for a look */
  free(c.work);
  return rc ? report(&e) : 0;
}
