/* Lines up two issue logs ("CYCLE SM SLOT PC" lines with "# launch"
 * separators: the Verilog RTL testbench's --events and `ventus run
 * --events`) warp by warp and finds where their timing drifts apart. */
#ifndef VT_ISSUE_DIFF_H
#define VT_ISSUE_DIFF_H

#include <stdint.h>
#include <stdio.h>

typedef struct {
  int64_t cycle;
  uint32_t pc;
} idiff_issue;

/* One warp slot's issues in one launch, in order. */
typedef struct {
  uint32_t launch, sm, slot;
  idiff_issue *v;
  size_t n, cap;
} idiff_warp;

typedef struct {
  idiff_warp *w;
  size_t n, cap;
  uint32_t launches;
  int64_t last[64]; /* the last issue cycle of each of the first 64 launches */
} idiff_log;

/* Reads PATH; on a malformed line returns -1 with "PATH:LINE: why" in msg. */
int idiff_read(const char *path, idiff_log *log, char *msg, size_t msgsz);
void idiff_free(idiff_log *log);

typedef struct {
  int64_t abs_cycles; /* drift counted when it passes this many cycles ... */
  double rel;         /* ... and this share of the elapsed cycles */
  unsigned top;       /* instructions listed by the drift they add */
  int json;
} idiff_opts;

/* Prints the comparison of a (the reference) and b to f. Returns 0 when no
 * warp drifts past the thresholds, 1 when one does, 2 when the logs'
 * warps or instruction streams do not correspond. */
int idiff_report(const idiff_log *a, const idiff_log *b, const idiff_opts *o, const char *na, const char *nb, FILE *f);

#endif
