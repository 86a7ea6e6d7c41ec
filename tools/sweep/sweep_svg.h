/* SVG line plots for `ventus sweep --plot`: one line per series over a
 * shared x axis, self-contained files any browser opens. */
#ifndef SWEEP_SVG_H
#define SWEEP_SVG_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
  const char *name;
  size_t n;
  const double *x, *y; /* n points; x in the axis's units (or category index) */
} sw_series;

typedef struct {
  const char *title, *xlabel, *ylabel;
  const sw_series *series;
  size_t nseries;
  char *const *categories; /* x labels when the axis is not numeric, else NULL */
  size_t ncategories;
  int logx; /* a log2 x axis (values over a factor) */
} sw_lineplot;

/* Writes the plot; returns -1 when writing failed (ferror). */
int sw_svg_lines(FILE *f, const sw_lineplot *p);

/* Stacked bars: one bar per label, parts stacked bottom up in order. */
typedef struct {
  const char *title, *ylabel;
  char *const *labels; /* nbars */
  size_t nbars;
  const char *const *parts; /* nparts */
  size_t nparts;
  const double *v; /* nbars x nparts */
} sw_barplot;

int sw_svg_stacked(FILE *f, const sw_barplot *p);

#endif
