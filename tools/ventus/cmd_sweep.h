/* `ventus sweep`: the parts shared by its files (cmd_sweep*.c). */
#ifndef VT_CMD_SWEEP_H
#define VT_CMD_SWEEP_H

#include "sweep_plan.h"
#include "sweep_pool.h"
#include "sweep_spec.h"
#include "sweep_store.h"

typedef struct {
  sw_spec spec;
  sw_plan plan;
  sw_store *store;
  sw_pool *pool;
  char exe[4096]; /* this binary, for the children */
  char *work;     /* STORE.work: built kernels and the runs' output files */
  int jobs, quiet, retry, progress;
  double timeout;
} sweep_ctx;

/* cmd_sweep_run.c: builds the asm kernels into dir (target[k] gets each
 * kernel's file to run); runs every run not yet in the store and records
 * it. *ran and *failed count this invocation's runs, *skipped those found
 * in the store. */
int sweep_build_kernels(sweep_ctx *c, const char *dir, char **target, vt_error *e);
int sweep_run_all(sweep_ctx *c, size_t *ran, size_t *failed, size_t *skipped, vt_error *e);
/* Records run r from dir/ID.json and dir/ID.err (then removed); d is how
 * it ended, NULL when the configuration was refused before it started. */
int sweep_record(sweep_ctx *c, size_t r, const sw_done *d, const char *dir, int *failed, vt_error *e);
/* dir/NAME.EXT, malloc'ed */
char *sweep_file(const char *dir, const char *name, const char *ext);

/* Slurm options (cmd_sweep_slurm.c) */
typedef struct {
  const char *partition, *time, *mem; /* NULL: the cluster's defaults */
  const char *extra[16];              /* --sbatch-arg: more #SBATCH lines */
  int nextra;
  long chunk;    /* runs per array task (0: 1, more when over 1000 tasks) */
  long cpus;     /* --cpus-per-task, and -j within a task */
  int no_submit; /* write the script, do not call sbatch */
} sweep_slurm_opts;

/* cmd_sweep_slurm.c. sweep_slurm_dir: STORE.work/slurm (malloc'ed).
 * sweep_slurm_targets: the files the submitted runs use (the asm kernels
 * built at submission), for --task, --collect and --status. */
char *sweep_slurm_dir(const sweep_ctx *c);
int sweep_slurm_targets(sweep_ctx *c, char **target, vt_error *e);
int sweep_slurm_submit(sweep_ctx *c, const sweep_slurm_opts *o, vt_error *e);
int sweep_slurm_task(sweep_ctx *c, long task, long chunk, vt_error *e);
int sweep_collect(sweep_ctx *c, size_t *collected, vt_error *e);
int sweep_status(sweep_ctx *c, vt_error *e);
/* runs argv to its end, output in files (cmd_sweep_run.c) */
int sweep_run_sync(sweep_ctx *c, char *const *argv, const char *out, const char *err, sw_done *d, vt_error *e);

/* cmd_sweep_plot.c: the SVG plots and their data into dir */
int sweep_plot(sweep_ctx *c, const char *dir, vt_error *e);

#endif
