/* A sweep description (docs/sweeps.md): kernels with their launch options,
 * a base device configuration, configuration axes and explicit points.
 * Parsing checks every key and value against the device configuration, so
 * a typo is reported with its line before anything runs. */
#ifndef SWEEP_SPEC_H
#define SWEEP_SPEC_H

#include <stddef.h>

#include "vt_error.h"

typedef enum { SW_ELF, SW_ASM, SW_CASE } sw_kernel_kind;

/* A list of strings (argument vectors, axis values, paths). */
typedef struct {
  char **v;
  size_t n;
} sw_strs;

typedef struct {
  char *name;
  sw_kernel_kind kind;
  sw_strs files; /* absolute: the ELF, the case, or the assembly sources */
  sw_strs run;   /* launch options for `ventus run`, split like a shell line */
  int line;
} sw_kernel;

/* key = value settings in file order (the [config] section, one point). */
typedef struct {
  sw_strs keys, values;
  int line; /* where the point starts */
} sw_settings;

typedef struct {
  char *key;
  sw_strs values; /* expanded: "1..4" is 1 2 3 4 */
  int line;
} sw_axis;

typedef struct {
  char *path;     /* the description file, as given */
  char *dir;      /* its directory, absolute: relative paths start there */
  char *name;     /* [sweep] name (default: the file name without extension) */
  char *config;   /* base device configuration file, absolute, or NULL */
  char *store;    /* SQLite file, absolute (default: beside the file, NAME.db) */
  int timing;     /* run under the timing model (default 1) */
  double timeout; /* seconds per run, 0 = none */
  sw_strs record; /* metric names to keep as columns; empty = all */
  sw_strs plot;   /* metrics --plot draws (default: cycles and ipc, warp_insns untimed) */
  sw_settings baseline; /* the configuration speed-ups are over (--plot), or empty */
  sw_kernel *kernels;
  size_t nkernels;
  sw_settings config_set; /* [config]: applied to every run */
  sw_axis *axes;
  size_t naxes;
  sw_settings *points;
  size_t npoints;
} sw_spec;

/* Reads and checks the description at path. On error returns -1 with
 * "PATH:LINE: why" in e (VT_ERR_FORMAT, or VT_ERR_IO). */
int sw_spec_load(sw_spec *s, const char *path, vt_error *e);
void sw_spec_free(sw_spec *s);

/* list helpers shared by the sweep files */
int sw_strs_push(sw_strs *l, const char *s); /* copies s; -1 when out of memory */
void sw_strs_free(sw_strs *l);
/* dir/p unless p is absolute; malloc'ed, NULL when out of memory */
char *sw_path_join(const char *dir, const char *p);

#endif
