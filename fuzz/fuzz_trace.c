/* trace-diff's commit-log reader: the input is two logs split at a NUL
 * byte (one log alone is compared with itself), compared with the text
 * and the JSON summary. A log compared with itself must show no
 * difference. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "trace_diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_part part[2];
  size_t np = fz_split(data, size, part, 2);
  fz_write("a.log", part[0].p, part[0].n);
  if (np > 1) fz_write("b.log", part[1].p, part[1].n);
  char a[512], b[512];
  fz_path(a, sizeof a, "a.log");
  fz_path(b, sizeof b, np > 1 ? "b.log" : "a.log");
  FILE *null = fopen("/dev/null", "w");
  if (!null) abort();
  vt_tdiff_opts o = {.max_report = 3, .json = (int)(size & 1)};
  vt_tdiff_result r;
  vt_error e = {0};
  (void)vt_trace_diff_files(a, b, &o, null, &r, &e);
  memset(&r, 0, sizeof r);
  if (vt_trace_diff_files(a, a, &o, null, &r, &e) == 0 && r.differing) {
    fprintf(stderr, "a log differs from itself in %zu warps\n", r.differing);
    abort();
  }
  fclose(null);
  return 0;
}
