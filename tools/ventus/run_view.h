/* `ventus run --show ARG[:COUNT[:TYPE]]` and `--expect-arg ARG[:TYPE]=FILE`:
 * looking at the kernel arguments of an ELF launch after it ran. */
#ifndef VT_RUN_VIEW_H
#define VT_RUN_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "ndrange.h"

#define RUN_MAX_VIEWS 32

typedef struct {
  int show;         /* 1 --show, 0 --expect-arg */
  uint32_t arg;     /* 0-based, --arg order */
  uint32_t count;   /* --show: elements (0 = all) */
  char type[4];     /* "" = the argument's own type */
  const char *path; /* --expect-arg: file of expected values */
} run_view;

typedef struct {
  run_view v[RUN_MAX_VIEWS];
  int n;
} run_views;

/* Parses one option value; prints the usage message and returns -1 if bad. */
int run_view_parse(run_views *vs, int show, const char *spec);
/* Every view names one of the nargs arguments (--expect-arg: a buffer). */
int run_views_check(const run_views *vs, const vt_karg *args, size_t nargs, vt_error *e);
/* In command-line order: --show prints its line on stdout, --expect-arg
 * compares and appends ", argI: N TYPE values match" to summary. Returns -1
 * at the first error (VT_ERR_MISMATCH for a difference). */
int run_views_apply(const run_views *vs, vt_device *d, const vt_karg *args, char *summary, size_t len,
                    vt_error *e);

#endif
