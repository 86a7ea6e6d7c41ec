/* The result store: one SQLite table `runs`, one row per run, keyed by the
 * run's id. Columns: the fixed ones below, one per configuration key the
 * sweep varies, one per metric (added as they first appear, so a store
 * grows with newer statistics), the effective configuration and the whole
 * `ventus run --json` output as JSON text. */
#ifndef SWEEP_STORE_H
#define SWEEP_STORE_H

#include <stdio.h>

#include "sweep_json.h"
#include "sweep_spec.h"
#include "vt_error.h"

typedef struct sw_store sw_store;

typedef struct {
  const char *id, *sweep, *kernel;
  const char *status; /* ok, mismatch, fault, error, crashed, timeout */
  const char *error;  /* NULL when ok */
  int exit_code;      /* -1 when it did not exit */
  double wall;        /* seconds */
  const sw_strs *columns, *values; /* configuration columns and their effective values */
  const sw_metrics *metrics;       /* may be NULL */
  const char *config_json, *result_json; /* may be NULL */
  const char *output; /* what the kernel printed before the JSON (printf), or NULL */
} sw_row;

sw_store *sw_store_open(const char *path, vt_error *e);
void sw_store_close(sw_store *st);
/* The status recorded for id, or NULL when it has no row (malloc'ed). */
char *sw_store_status(sw_store *st, const char *id, vt_error *e);
int sw_store_put(sw_store *st, const sw_row *row, vt_error *e);

/* One metric (a column) of ok runs, for plots: sw_store_metric_query
 * fails (VT_ERR_USAGE) when the store has no such column. */
typedef struct sw_query sw_query;
sw_query *sw_store_metric_query(sw_store *st, const char *metric, vt_error *e);
/* 1 with *v when run id is ok and has the metric, else 0 */
int sw_query_get(sw_query *q, const char *id, double *v);
void sw_query_free(sw_query *q);

/* Writes the rows of ids[0..n) (in that order; ids without a row are left
 * out) as CSV (the JSON text columns left out) or as a JSON array of
 * objects (the configuration and result as nested objects). */
int sw_store_export(sw_store *st, char *const *ids, size_t n, int json, FILE *f, vt_error *e);

#endif
