/* `ventus issue-diff A B`: where two issue logs' timing drifts apart. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "issue_diff.h"

static const char usage_text[] =
    "usage: ventus issue-diff [--cycles N] [--share P] [--top N] [--json] A.events B.events\n"
    "\n"
    "Lines up two issue logs: 'CYCLE SM SLOT PC' lines, '# launch' lines between\n"
    "launches, as the Verilog RTL testbench writes them (tools/rtl/ventus-rtl run --events)\n"
    "and as 'ventus run --events' writes the timing model's. Warps are matched by launch,\n"
    "SM and warp slot, and their issues in order; SMs are numbered per launch in the order\n"
    "of their first issue (the two may place work-groups on different SMs). Prints each\n"
    "launch's last issue in both,\n"
    "the first issue (earliest in A) where a warp's cycle in B differs from A's by more\n"
    "than --cycles and --share of the elapsed time, and the instructions that add the\n"
    "most drift (B's gap before the issue minus A's, summed over the warps).\n"
    "\n"
    "  --cycles N   drift threshold in cycles (default 50)\n"
    "  --share P    drift threshold in percent of the elapsed cycles (default 10)\n"
    "  --top N      instructions to list (default 10)\n"
    "  --json       one JSON object on stdout\n"
    "\n"
    "exit status: 0 no drift past the thresholds, 1 a warp drifts, 2 usage error or logs\n"
    "whose warps do not correspond, 4 unreadable or malformed log\n";

static int num_arg(const char *opt, const char *v, unsigned long long max, unsigned long long *out) {
  char *end;
  errno = 0;
  unsigned long long n = (v[0] >= '0' && v[0] <= '9') ? strtoull(v, &end, 10) : 0;
  if (!(v[0] >= '0' && v[0] <= '9') || errno || *end || n > max) {
    fprintf(stderr, "ventus issue-diff: %s %s: expected a number 0..%llu\n", opt, v, max);
    return -1;
  }
  *out = n;
  return 0;
}

int cmd_issue_diff(int argc, char **argv) {
  idiff_opts o = {.abs_cycles = 50, .rel = 0.10, .top = 10};
  const char *files[2];
  int nf = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    unsigned long long n;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      o.json = 1;
    } else if (!strcmp(a, "--cycles") || !strcmp(a, "--share") || !strcmp(a, "--top")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "ventus issue-diff: %s needs a value (see 'ventus issue-diff --help')\n", a);
        return 2;
      }
      if (num_arg(a, argv[i + 1], !strcmp(a, "--share") ? 1000 : 1000000000, &n)) return 2;
      if (!strcmp(a, "--cycles")) o.abs_cycles = (int64_t)n;
      else if (!strcmp(a, "--share")) o.rel = (double)n / 100.0;
      else o.top = (unsigned)n;
      i++;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ventus issue-diff: unknown option %s (see 'ventus issue-diff --help')\n", a);
      return 2;
    } else if (nf == 2) {
      fprintf(stderr, "ventus issue-diff: expects exactly two logs\n");
      return 2;
    } else {
      files[nf++] = a;
    }
  }
  if (nf != 2) {
    fprintf(stderr, "ventus issue-diff: expects two logs (see 'ventus issue-diff --help')\n");
    return 2;
  }
  idiff_log la, lb;
  char msg[512];
  if (idiff_read(files[0], &la, msg, sizeof msg)) {
    fprintf(stderr, "ventus issue-diff: %s\n", msg);
    return 4;
  }
  if (idiff_read(files[1], &lb, msg, sizeof msg)) {
    idiff_free(&la);
    fprintf(stderr, "ventus issue-diff: %s\n", msg);
    return 4;
  }
  int rc = idiff_report(&la, &lb, &o, files[0], files[1], stdout);
  idiff_free(&la);
  idiff_free(&lb);
  if (fflush(stdout) || ferror(stdout)) {
    fprintf(stderr, "ventus issue-diff: stdout: write error\n");
    return 4;
  }
  return rc;
}
