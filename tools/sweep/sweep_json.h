/* The statistics of one `ventus run --json` as named metrics: the numbers
 * of "stats" and "timing" flattened into the store's column names
 * (docs/sweeps.md, "What is recorded"). */
#ifndef SWEEP_JSON_H
#define SWEEP_JSON_H

#include <stddef.h>

#include "vt_error.h"

typedef struct {
  char name[64];
  double value;
} sw_metric;

typedef struct {
  sw_metric *v;
  size_t n;
  /* where the "config" object lies in the text (0, 0 when absent) */
  size_t config_at, config_len;
} sw_metrics;

/* Parses text (one JSON object) into m. -1 with VT_ERR_FORMAT when it is
 * not JSON; unknown members are ignored, so newer outputs still load. */
int sw_json_metrics(const char *text, sw_metrics *m, vt_error *e);
void sw_metrics_free(sw_metrics *m);

#endif
