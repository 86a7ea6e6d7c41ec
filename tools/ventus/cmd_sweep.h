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

/* cmd_sweep_run.c: builds the asm kernels into work/ (target[k] gets each
 * kernel's file to run); runs every run not yet in the store and records
 * it. *ran and *failed count this invocation's runs, *skipped those found
 * in the store. */
int sweep_build_kernels(sweep_ctx *c, char **target, vt_error *e);
int sweep_run_all(sweep_ctx *c, size_t *ran, size_t *failed, size_t *skipped, vt_error *e);

/* cmd_sweep_plot.c: the SVG plots and their data into dir */
int sweep_plot(sweep_ctx *c, const char *dir, vt_error *e);

#endif
