/* `ventus sweep --slurm`: the sweep as one Slurm job array. Submission
 * builds the kernels into STORE.work/slurm/, lists the runs not yet
 * recorded (runs.txt) and writes sweep.sbatch, whose array tasks each run
 * `ventus sweep SPEC --task N` on a node: a chunk of runs.txt, results as
 * files in STORE.work/results/ (never the SQLite file: SQLite over a
 * network file system is unsafe). `--collect` records those files in the
 * store, `--status` counts. Everything lives on a directory the nodes
 * share with the submitting machine. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd_sweep.h"
#include "vt_file.h"
#include "vt_outfile.h"

/* Slurm's default MaxArraySize is 1001: at most 1000 tasks (0..999) */
#define MAX_TASKS 1000

char *sweep_slurm_dir(const sweep_ctx *c) { return sweep_file(c->work, "slurm", ""); }

static char *results_dir(const sweep_ctx *c) { return sweep_file(c->work, "results", ""); }

static char *find_program(const char *name);

static int make_dir(const char *d, vt_error *e) {
  if (mkdir(d, 0777) && errno != EEXIST)
    return vt_fail(e, VT_ERR_IO, "%s: cannot create the directory: %s", d, VT_STRERROR(errno));
  return 0;
}

int sweep_slurm_targets(sweep_ctx *c, char **target, vt_error *e) {
  char *dir = sweep_slurm_dir(c);
  if (!dir) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  int rc = 0;
  for (size_t k = 0; !rc && k < c->spec.nkernels; k++) {
    const sw_kernel *kn = &c->spec.kernels[k];
    target[k] = kn->kind == SW_ASM ? sweep_file(dir, kn->name, ".elf") : strdup(kn->files.v[0]);
    if (!target[k])
      rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    else if (kn->kind == SW_ASM && access(target[k], R_OK))
      rc = vt_fail(e, VT_ERR_IO, "%s: %s (nothing submitted with --slurm yet?)", target[k], VT_STRERROR(errno));
  }
  free(dir);
  return rc;
}

/* 'text' for the shell, quotes inside as '\'' */
static void shell_quote(FILE *f, const char *t) {
  fputc('\'', f);
  for (; *t; t++)
    if (*t == '\'')
      fputs("'\\''", f);
    else
      fputc(*t, f);
  fputc('\'', f);
}

static int exists(const char *dir, const char *id, const char *ext) {
  char *f = sweep_file(dir, id, ext);
  int r = f && access(f, F_OK) == 0;
  free(f);
  return r;
}

int sweep_collect(sweep_ctx *c, size_t *collected, vt_error *e) {
  char *dir = results_dir(c);
  if (!dir) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  int rc = 0;
  *collected = 0;
  for (size_t r = 0; !rc && r < c->plan.nruns; r++) {
    char *st = sweep_file(dir, c->plan.runs[r].id, ".status");
    if (!st) {
      rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
      break;
    }
    vt_error fe;
    char *text = access(st, F_OK) == 0 ? vt_read_file(st, NULL, &fe) : NULL;
    sw_done d = {.tag = r};
    if (text && sscanf(text, "%d %d %d %lf", &d.exit_code, &d.signal, &d.timed_out, &d.wall) == 4) {
      int f = 0;
      rc = sweep_record(c, r, &d, dir, &f, e);
      if (!rc) {
        unlink(st);
        ++*collected;
      }
    }
    free(text);
    free(st);
  }
  free(dir);
  return rc;
}

/* " (tasks: N PENDING, M RUNNING)" from squeue, or "" when squeue is
 * absent, fails or lists nothing (the job has ended) */
static void job_tasks(sweep_ctx *c, const char *sdir, const char *job, char *buf, size_t len) {
  char *squeue = find_program("squeue"), *out = sweep_file(sdir, "squeue", ".out"),
       *err = sweep_file(sdir, "squeue", ".err");
  snprintf(buf, len, " (squeue -j %s for its tasks)", job);
  char *argv[] = {squeue, "-h", "-r", "-j", (char *)job, "-o", "%T", NULL};
  sw_done d;
  vt_error e;
  char *text = NULL;
  if (squeue && out && err && !sweep_run_sync(c, argv, out, err, &d, &e) && d.exit_code == 0)
    text = vt_read_file(out, NULL, &e);
  if (text) { /* one state a line: count them in order of appearance */
    char states[8][24];
    size_t counts[8] = {0}, ns = 0;
    for (char *l = text, *next; *l; l = next) {
      next = l + strcspn(l, "\n");
      if (*next) *next++ = 0;
      if (!*l) continue;
      size_t i = 0;
      while (i < ns && strcmp(states[i], l)) i++;
      if (i == ns && ns < 8) snprintf(states[ns++], sizeof states[0], "%s", l);
      if (i < ns) counts[i]++;
    }
    if (ns) {
      size_t k = (size_t)snprintf(buf, len, " (tasks:");
      for (size_t i = 0; i < ns && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s %zu %s", i ? "," : "", counts[i], states[i]);
      if (k < len) snprintf(buf + k, len - k, ")");
    } else {
      snprintf(buf, len, " (no task left in squeue)");
    }
  }
  if (out) unlink(out);
  if (err) unlink(err);
  free(text);
  free(squeue);
  free(out);
  free(err);
}

int sweep_status(sweep_ctx *c, vt_error *e) {
  char *dir = results_dir(c), *sdir = sweep_slurm_dir(c);
  if (!dir || !sdir) {
    free(dir);
    free(sdir);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  size_t ok = 0, failed = 0, waiting = 0, rest = 0;
  int rc = 0;
  for (size_t r = 0; !rc && r < c->plan.nruns; r++) {
    e->kind = VT_OK;
    char *st = sw_store_status(c->store, c->plan.runs[r].id, e);
    if (!st && e->kind != VT_OK) rc = -1;
    if (st && !strcmp(st, "ok"))
      ok++;
    else if (st)
      failed++;
    else if (exists(dir, c->plan.runs[r].id, ".status"))
      waiting++;
    else
      rest++;
    free(st);
  }
  char *jobf = sweep_file(sdir, "job", ""), *job = NULL;
  vt_error je;
  if (jobf && access(jobf, F_OK) == 0) job = vt_read_file(jobf, NULL, &je);
  if (job) job[strcspn(job, "\n")] = 0;
  char tasks[200] = "";
  if (!rc && job) job_tasks(c, sdir, job, tasks, sizeof tasks);
  if (!rc)
    printf("ventus sweep: %s: %zu runs: %zu recorded ok, %zu recorded failed, %zu finished on the cluster"
           " (--collect records them), %zu not yet%s%s%s\n",
           c->spec.name, c->plan.nruns, ok, failed, waiting, rest, job ? "; Slurm job " : "", job ? job : "",
           job ? tasks : "");
  free(job);
  free(jobf);
  free(dir);
  free(sdir);
  return rc;
}

/* The runs of the job, one id a line, and the script. */
static int write_script(sweep_ctx *c, const sweep_slurm_opts *o, const char *sdir, size_t nrun, long chunk,
                        const char *script, vt_error *e) {
  char spec[4096];
  if (!realpath(c->spec.path, spec)) return vt_fail(e, VT_ERR_IO, "%s: %s", c->spec.path, VT_STRERROR(errno));
  vt_outfile of;
  FILE *f = vt_outfile_fopen(&of, script, e);
  if (!f) return -1;
  long tasks = (long)((nrun + (size_t)chunk - 1) / (size_t)chunk);
  fprintf(f, "#!/bin/sh\n# ventus sweep %s: %zu runs as a job array of %ld tasks of %ld runs\n"
             "# (written by ventus sweep --slurm; submit with sbatch, then ventus sweep SPEC --collect)\n",
          c->spec.name, nrun, tasks, chunk);
  fprintf(f, "#SBATCH --job-name=vsweep-%s\n#SBATCH --array=0-%ld\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%ld\n",
          c->spec.name, tasks - 1, o->cpus);
  fprintf(f, "#SBATCH --output=%s/logs/%%A_%%a.log\n", sdir);
  if (o->partition) fprintf(f, "#SBATCH --partition=%s\n", o->partition);
  if (o->time) fprintf(f, "#SBATCH --time=%s\n", o->time);
  if (o->mem) fprintf(f, "#SBATCH --mem=%s\n", o->mem);
  for (int i = 0; i < o->nextra; i++) fprintf(f, "#SBATCH %s\n", o->extra[i]);
  fputs("exec ", f);
  shell_quote(f, c->exe);
  fputs(" sweep ", f);
  shell_quote(f, spec);
  fputs(" --store ", f);
  shell_quote(f, c->spec.store);
  fprintf(f, " --task \"$SLURM_ARRAY_TASK_ID\" --chunk %ld -j %ld --timeout %g\n", chunk, o->cpus, c->timeout);
  int bad = ferror(f);
  bad |= fclose(f) != 0;
  if (bad) vt_fail(e, VT_ERR_IO, "%s: writing failed: %s", script, VT_STRERROR(errno));
  if (vt_outfile_finish(&of, bad, e) || bad) return -1;
  chmod(script, 0755);
  return 0;
}

/* a program in PATH (malloc'ed), or NULL */
static char *find_program(const char *name) {
  const char *path = getenv("PATH");
  if (!path) return NULL;
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, ":");
    char *d = strndup(p, n), *f = d ? sweep_file(n ? d : ".", name, "") : NULL;
    free(d);
    if (f && access(f, X_OK) == 0) return f;
    free(f);
    p += n + (p[n] == ':');
  }
  return NULL;
}

static int submit(sweep_ctx *c, const char *sdir, const char *script, vt_error *e) {
  char *sbatch = find_program("sbatch");
  if (!sbatch)
    return vt_fail(e, VT_ERR_IO, "sbatch not found in PATH: the job is written as %s; submit it with sbatch", script);
  char *out = sweep_file(sdir, "sbatch", ".out"), *err = sweep_file(sdir, "sbatch", ".err"),
       *jobf = sweep_file(sdir, "job", "");
  char *argv[] = {sbatch, "--parsable", (char *)script, NULL};
  sw_done d;
  int rc = !out || !err || !jobf ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : sweep_run_sync(c, argv, out, err, &d, e);
  vt_error fe;
  char *text = rc ? NULL : vt_read_file(d.exit_code == 0 ? out : err, NULL, &fe);
  if (!rc && d.exit_code != 0) {
    if (text) text[strcspn(text, "\n")] = 0;
    rc = vt_fail(e, VT_ERR_IO, "sbatch %s failed: %s", script, text && *text ? text : "(no message)");
  } else if (!rc) {
    text[strcspn(text, ";\n")] = 0; /* --parsable: JOBID[;CLUSTER] */
    FILE *f = fopen(jobf, "w");
    if (f) {
      fprintf(f, "%s\n", text);
      fclose(f);
    }
    if (!c->quiet) printf("ventus sweep: %s: submitted as Slurm job %s\n", c->spec.name, text);
  }
  free(text);
  free(out);
  free(err);
  free(jobf);
  free(sbatch);
  return rc;
}

int sweep_slurm_submit(sweep_ctx *c, const sweep_slurm_opts *o, vt_error *e) {
  char *sdir = sweep_slurm_dir(c), *rdir = results_dir(c), *logs = sdir ? sweep_file(sdir, "logs", "") : NULL;
  char *runs = sdir ? sweep_file(sdir, "runs", ".txt") : NULL, *script = sdir ? sweep_file(sdir, "sweep", ".sbatch") : NULL;
  int rc = !sdir || !rdir || !logs || !runs || !script ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
  if (!rc) rc = make_dir(rdir, e) || make_dir(logs, e);
  /* what earlier tasks finished goes into the store first */
  size_t collected = 0, nrun = 0, refused = 0;
  if (!rc) rc = sweep_collect(c, &collected, e);
  FILE *f = NULL;
  vt_outfile of;
  if (!rc && !(f = vt_outfile_fopen(&of, runs, e))) rc = -1;
  for (size_t r = 0; !rc && r < c->plan.nruns; r++) {
    const sw_run *run = &c->plan.runs[r];
    e->kind = VT_OK;
    char *st = sw_store_status(c->store, run->id, e);
    if (!st && e->kind != VT_OK) rc = -1;
    int todo = !st || (c->retry && strcmp(st, "ok")); /* --retry: the failed runs again */
    if (!rc && todo && run->invalid) { /* refused: recorded here, nothing to run */
      int fl;
      rc = sweep_record(c, r, NULL, rdir, &fl, e);
      refused++;
    } else if (!rc && todo && !exists(rdir, run->id, ".status")) {
      fprintf(f, "%s\n", run->id);
      nrun++;
    }
    free(st);
  }
  if (f) {
    int bad = rc || ferror(f);
    bad |= fclose(f) != 0;
    if (bad && !rc) rc = vt_fail(e, VT_ERR_IO, "%s: writing failed: %s", runs, VT_STRERROR(errno));
    if (vt_outfile_finish(&of, bad, e)) rc = -1;
  }
  long chunk = o->chunk > 0 ? o->chunk : 1;
  if ((nrun + (size_t)chunk - 1) / (size_t)chunk > MAX_TASKS) chunk = (long)((nrun + MAX_TASKS - 1) / MAX_TASKS);
  if (!rc && nrun == 0) {
    if (!c->quiet)
      printf("ventus sweep: %s: nothing to submit: every run is recorded%s\n", c->spec.name,
             collected ? " (some just collected)" : "");
  } else if (!rc) {
    rc = write_script(c, o, sdir, nrun, chunk, script, e);
    if (!rc && !c->quiet)
      printf("ventus sweep: %s: %zu runs as %ld Slurm array tasks: %s\n", c->spec.name, nrun,
             (long)((nrun + (size_t)chunk - 1) / (size_t)chunk), script);
    if (!rc && !o->no_submit) rc = submit(c, sdir, script, e);
  }
  if (!rc && refused && !c->quiet)
    printf("ventus sweep: %s: %zu runs refused by the configuration check, recorded\n", c->spec.name, refused);
  free(sdir);
  free(rdir);
  free(logs);
  free(runs);
  free(script);
  return rc;
}

/* status file: "EXIT SIGNAL TIMED_OUT WALL", written whole by a rename,
 * so --collect sees only finished runs */
static int write_status(const char *dir, const char *id, const sw_done *d, vt_error *e) {
  char *st = sweep_file(dir, id, ".status"), *tmp = sweep_file(dir, id, ".status.tmp");
  int rc = !st || !tmp ? vt_fail(e, VT_ERR_NOMEM, "out of memory") : 0;
  FILE *f = rc ? NULL : fopen(tmp, "w");
  if (!rc && !f) rc = vt_fail(e, VT_ERR_IO, "%s: %s", tmp, VT_STRERROR(errno));
  if (f) {
    fprintf(f, "%d %d %d %.9f\n", d->exit_code, d->signal, d->timed_out, d->wall);
    if (ferror(f) | (fclose(f) != 0) || rename(tmp, st))
      rc = vt_fail(e, VT_ERR_IO, "%s: writing failed: %s", st, VT_STRERROR(errno));
  }
  free(st);
  free(tmp);
  return rc;
}

int sweep_slurm_task(sweep_ctx *c, long task, long chunk, vt_error *e) {
  char *sdir = sweep_slurm_dir(c), *rdir = results_dir(c), *runs = sdir ? sweep_file(sdir, "runs", ".txt") : NULL;
  if (!sdir || !rdir || !runs) {
    free(sdir);
    free(rdir);
    free(runs);
    return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  }
  char *list = vt_read_file(runs, NULL, e);
  int rc = list ? 0 : -1;
  size_t line = 0, started = 0, ended = 0;
  size_t first = (size_t)task * (size_t)chunk, last = first + (size_t)chunk;
  for (char *l = list, *next; !rc && l && *l; l = next, line++) {
    next = strchr(l, '\n');
    if (next) *next++ = 0;
    if (line < first || line >= last) continue;
    if (exists(rdir, l, ".status")) continue; /* a requeued task: done already */
    size_t r = 0;
    while (r < c->plan.nruns && strcmp(c->plan.runs[r].id, l)) r++;
    if (r == c->plan.nruns) {
      rc = vt_fail(e, VT_ERR_FORMAT, "%s:%zu: run %s is not in %s (the description changed since --slurm)", runs,
                   line + 1, l, c->spec.path);
      break;
    }
    while (!rc && sw_pool_free_slots(c->pool) == 0) { /* -j N within the task */
      sw_done d;
      if (sw_pool_wait(c->pool, 3600, &d)) {
        rc = write_status(rdir, c->plan.runs[d.tag].id, &d, e);
        ended++;
      }
    }
    char **argv = rc ? NULL : sw_plan_argv(&c->spec, &c->plan, r, c->exe);
    char *out = sweep_file(rdir, l, ".json"), *err = sweep_file(rdir, l, ".err");
    if (!rc && (!argv || !out || !err)) rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
    if (!rc) rc = sw_pool_start(c->pool, argv, c->spec.dir, out, err, c->timeout, r, e);
    started += !rc;
    sw_argv_free(argv);
    free(out);
    free(err);
  }
  while (!rc && ended < started) {
    sw_done d;
    if (sw_pool_wait(c->pool, 3600, &d)) {
      rc = write_status(rdir, c->plan.runs[d.tag].id, &d, e);
      ended++;
    }
  }
  free(list);
  free(sdir);
  free(rdir);
  free(runs);
  return rc;
}
