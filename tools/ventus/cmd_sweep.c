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
    "                     metric of 'plot =' (default cycles, ipc), speed-ups over\n"
    "                     'baseline =', CPI stacks; the data beside each (.csv)\n"
    "  --quiet            no progress line and no summary\n"
    "  --help             this text\n"
    "\n"
    "Slurm (a job array; STORE.work/ must be on a file system the nodes share):\n"
    "  --slurm            write STORE.work/slurm/sweep.sbatch for the runs not recorded\n"
    "                     yet and submit it with sbatch\n"
    "  --no-submit        with --slurm: write the script only\n"
    "  --partition P, --time T, --mem M   passed to sbatch (#SBATCH lines)\n"
    "  --sbatch-arg ARG   one more #SBATCH line, e.g. --sbatch-arg --account=X (repeat)\n"
    "  --chunk N          runs per array task (default 1; more when over 1000 tasks)\n"
    "  --cpus-per-task N  CPUs per task, its runs at once (default 1)\n"
    "  --status           runs recorded, finished on the cluster, not yet\n"
    "  --collect          record the runs the cluster finished\n"
    "  --task N           (in the script) run array task N's chunk\n"
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

/* what the invocation does */
typedef enum { MODE_LOCAL, MODE_LIST, MODE_SLURM, MODE_TASK, MODE_COLLECT, MODE_STATUS } sweep_mode;

typedef struct {
  sweep_mode mode;
  int no_run;
  const char *csv, *json, *plot;
  sweep_slurm_opts slurm;
  long task, chunk;
} sweep_args;

static int sweep(sweep_ctx *c, const sweep_args *a, vt_error *e) {
  ssize_t n = readlink("/proc/self/exe", c->exe, sizeof c->exe - 1);
  if (n <= 0 || (size_t)n >= sizeof c->exe - 1)
    return vt_fail(e, VT_ERR_IO, "/proc/self/exe: cannot find this program: %s", VT_STRERROR(errno));
  c->exe[n] = 0;
  if (make_work_dir(c, e) || !(c->pool = sw_pool_new(c->jobs, e))) return -1;
  char **target = calloc(c->spec.nkernels, sizeof *target);
  if (!target) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  int rc = 0;
  if (a->mode == MODE_SLURM) { /* kernels the nodes run: kept until the next submission */
    char *sdir = sweep_slurm_dir(c);
    rc = !sdir ? vt_fail(e, VT_ERR_NOMEM, "out of memory")
         : mkdir(sdir, 0777) && errno != EEXIST
             ? vt_fail(e, VT_ERR_IO, "%s: cannot create the directory: %s", sdir, VT_STRERROR(errno))
             : sweep_build_kernels(c, sdir, target, e);
    free(sdir);
  } else if (a->mode == MODE_TASK || a->mode == MODE_COLLECT || a->mode == MODE_STATUS) {
    rc = sweep_slurm_targets(c, target, e);
  } else {
    rc = sweep_build_kernels(c, c->work, target, e);
  }
  if (!rc) rc = sw_plan_make(&c->spec, target, &c->plan, e);
  for (size_t k = 0; k < c->spec.nkernels; k++) free(target[k]);
  free(target);
  if (rc) return -1;
  if (a->mode == MODE_LIST) {
    list_runs(c);
    return 0;
  }
  if (a->mode == MODE_TASK) return sweep_slurm_task(c, a->task, a->chunk, e); /* never opens the store */
  if (!(c->store = sw_store_open(c->spec.store, e))) return -1;
  if (a->mode == MODE_SLURM) return sweep_slurm_submit(c, &a->slurm, e);
  if (a->mode == MODE_STATUS) return sweep_status(c, e);
  if (a->mode == MODE_COLLECT) {
    size_t got;
    if (sweep_collect(c, &got, e)) return -1;
    if (!c->quiet) printf("ventus sweep: %s: %zu results collected into %s\n", c->spec.name, got, c->spec.store);
  } else if (!a->no_run) {
    /* what a Slurm job of this store finished is recorded, not run again */
    char *rdir = sweep_file(c->work, "results", "");
    size_t got = 0;
    if (!rdir) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    int have = access(rdir, F_OK) == 0;
    free(rdir);
    if (have && sweep_collect(c, &got, e)) return -1;
    if (got && !c->quiet) printf("ventus sweep: %s: %zu results of a Slurm job recorded\n", c->spec.name, got);
    size_t ran = 0, failed = 0, skipped = 0;
    double t0 = sw_now();
    if (sweep_run_all(c, &ran, &failed, &skipped, e)) return -1;
    if (!c->quiet)
      printf("ventus sweep: %s: %zu runs: %zu run now (%zu failed), %zu already in the store, %.1f s; %s\n",
             c->spec.name, c->plan.nruns, ran, failed, skipped, sw_now() - t0, c->spec.store);
  }
  if (a->csv && export(c, a->csv, 0, e)) return -1;
  if (a->json && export(c, a->json, 1, e)) return -1;
  if (a->plot && sweep_plot(c, a->plot, e)) return -1;
  return 0;
}

int cmd_sweep(int argc, char **argv) {
  sweep_ctx c = {0};
  sweep_args a = {.slurm = {.cpus = 1}};
  long jobs = 0;
  const char *spec = NULL, *store = NULL;
  double timeout = -1;
  for (int i = 1; i < argc; i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!strncmp(o, "-j", 2) && (o[2] || v)) {
      const char *t = o[2] ? o : argv[++i];
      if (parse_count(o[2] ? t + 2 : t, 1, 1024, &jobs)) return usage_err("-j: expected 1..1024, not '%s'", t);
    } else if (!strcmp(o, "--timeout") && v) {
      char *end;
      timeout = strtod(argv[++i], &end);
      if (end == argv[i] || *end || !(timeout >= 0) || timeout > 1e7)
        return usage_err("--timeout: expected seconds (0 = none), not '%s'", argv[i]);
    } else if (!strcmp(o, "--store") && v) {
      store = argv[++i];
    } else if (!strcmp(o, "--csv") && v) {
      a.csv = argv[++i];
    } else if (!strcmp(o, "--json") && v) {
      a.json = argv[++i];
    } else if (!strcmp(o, "--plot") && v) {
      a.plot = argv[++i];
    } else if (!strcmp(o, "--partition") && v) {
      a.slurm.partition = argv[++i];
    } else if (!strcmp(o, "--time") && v) {
      a.slurm.time = argv[++i];
    } else if (!strcmp(o, "--mem") && v) {
      a.slurm.mem = argv[++i];
    } else if (!strcmp(o, "--sbatch-arg") && v) {
      if (a.slurm.nextra == 16) return usage_err("%s: at most 16", o);
      a.slurm.extra[a.slurm.nextra++] = argv[++i];
    } else if (!strcmp(o, "--chunk") && v) {
      if (parse_count(argv[++i], 1, 1000000, &a.chunk)) return usage_err("--chunk: expected 1..1000000, not '%s'", argv[i]);
      a.slurm.chunk = a.chunk;
    } else if (!strcmp(o, "--cpus-per-task") && v) {
      if (parse_count(argv[++i], 1, 1024, &a.slurm.cpus)) return usage_err("--cpus-per-task: expected 1..1024, not '%s'", argv[i]);
    } else if (!strcmp(o, "--task") && v) {
      if (parse_count(argv[++i], 0, 1000000, &a.task)) return usage_err("--task: expected a task number, not '%s'", argv[i]);
      a.mode = MODE_TASK;
    } else if (!strcmp(o, "--slurm")) {
      a.mode = MODE_SLURM;
    } else if (!strcmp(o, "--no-submit")) {
      a.slurm.no_submit = 1;
    } else if (!strcmp(o, "--collect")) {
      a.mode = MODE_COLLECT;
    } else if (!strcmp(o, "--status")) {
      a.mode = MODE_STATUS;
    } else if (!strcmp(o, "--retry")) {
      c.retry = 1;
    } else if (!strcmp(o, "--list")) {
      a.mode = MODE_LIST;
    } else if (!strcmp(o, "--no-run")) {
      a.no_run = 1;
    } else if (!strcmp(o, "--quiet")) {
      c.quiet = 1;
    } else if (o[0] == '-' && o[1]) {
      static const char *const valued[] = {"-j", "--timeout", "--store", "--csv", "--json", "--plot", "--partition",
                                           "--time", "--mem", "--sbatch-arg", "--chunk", "--cpus-per-task", "--task"};
      for (size_t k = 0; k < sizeof valued / sizeof valued[0]; k++)
        if (!strcmp(o, valued[k])) return usage_err("'%s' needs a value", o);
      return usage_err("unknown option '%s'", o);
    } else if (spec) {
      return usage_err("one description only: unexpected '%s'", o);
    } else {
      spec = o;
    }
  }
  if (!spec) return usage_err("%s", "no sweep description given");
  if (a.mode == MODE_TASK && a.chunk < 1) return usage_err("%s", "--task needs --chunk");
  /* a Slurm task runs what its allocation holds: -j from the script, or one */
  if (!jobs) jobs = a.mode == MODE_TASK ? 1 : sysconf(_SC_NPROCESSORS_ONLN);
  c.jobs = jobs < 1 ? 1 : (int)jobs;
  c.progress = !c.quiet && isatty(2) && a.mode == MODE_LOCAL;
  vt_error e;
  int rc = 0;
  if (sw_spec_load(&c.spec, spec, &e)) return report(&e);
  if (store) {
    free(c.spec.store);
    char cwd[4096];
    if (store[0] != '/' && !getcwd(cwd, sizeof cwd))
      rc = vt_fail(&e, VT_ERR_IO, "the current directory: %s", VT_STRERROR(errno));
    else if (!(c.spec.store = store[0] == '/' ? strdup(store) : sw_path_join(cwd, store)))
      rc = vt_fail(&e, VT_ERR_NOMEM, "out of memory");
  }
  c.timeout = timeout >= 0 ? timeout : c.spec.timeout;
  if (!rc) rc = sweep(&c, &a, &e);
  sw_pool_free(c.pool);
  sw_store_close(c.store);
  for (size_t k = 0; c.work && k < c.spec.nkernels && a.mode != MODE_SLURM; k++) /* the kernels built for this run */
    if (c.spec.kernels[k].kind == SW_ASM) {
      char *elf = sweep_file(c.work, c.spec.kernels[k].name, ".elf");
      if (elf) unlink(elf);
      free(elf);
    }
  sw_plan_free(&c.plan);
  sw_spec_free(&c.spec);
  if (c.work) rmdir(c.work); /* only when empty: outputs of a failed sweep stay for a look */
  free(c.work);
  return rc ? report(&e) : 0;
}
