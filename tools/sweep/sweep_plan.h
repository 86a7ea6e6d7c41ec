/* A sweep expanded into runs: every kernel under every configuration of
 * the cross product of the axes, then under every explicit point. Each run
 * has a stable id, a hash of its kernel (the bytes of the ELF or case),
 * its launch options and its effective configuration, so a run already in
 * the store is recognised whatever else changed in the description. */
#ifndef SWEEP_PLAN_H
#define SWEEP_PLAN_H

#include <stdint.h>

#include "device.h"
#include "sweep_spec.h"

typedef struct {
  size_t kernel; /* index into the spec's kernels */
  size_t combo;  /* index into the plan's settings */
  char id[17];   /* 16 hex digits */
  char *invalid; /* the configuration check's message when the device refuses it, else NULL */
} sw_run;

typedef struct {
  vt_config base;      /* the defaults with the base configuration file, read once */
  sw_settings *combos; /* the -c overrides of each configuration, in order */
  size_t ncombos;
  size_t nproduct;     /* the first nproduct combos are the axes' product (odometer order) */
  sw_strs columns;     /* the keys the axes and points set: one store column each */
  char **target;       /* per kernel: what `ventus run` is given (the ELF or case) */
  size_t ntargets;
  sw_run *runs;
  size_t nruns;
} sw_plan;

/* Expands s. target[k] is the file kernel k runs (for an asm kernel the ELF
 * built from it); the plan copies it. Returns -1 with e set. */
int sw_plan_make(const sw_spec *s, char *const *target, sw_plan *pl, vt_error *e);
void sw_plan_free(sw_plan *pl);

/* The effective configuration of combo c as JSON (malloc'ed), and in
 * `values` the effective value of each plan column. -1 with e set when the
 * device refuses it (a vt_config_check message). */
int sw_plan_effective(const sw_plan *pl, size_t c, char **json, sw_strs *values, vt_error *e);

/* The argument vector of `ventus run` for run r (argv[0] = exe; NULL
 * terminated, malloc'ed strings; free with sw_argv_free). */
char **sw_plan_argv(const sw_spec *s, const sw_plan *pl, size_t r, const char *exe);
void sw_argv_free(char **argv);

/* 64-bit FNV-1a, continued from h (start with SW_FNV_INIT) */
#define SW_FNV_INIT 0xcbf29ce484222325ull
uint64_t sw_fnv(uint64_t h, const void *p, size_t n);

#endif
