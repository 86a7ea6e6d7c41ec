/* `ventus trace-diff A B`: compare two commit logs warp by warp. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "trace_diff.h"

static const char usage_text[] =
    "usage: ventus trace-diff [--max N] [--json] [--quiet] A.log B.log\n"
    "\n"
    "Compares two commit logs in the reference ISS format (spike -l --log-commits, or\n"
    "'ventus run --trace') per (work-group, warp), in order: pc, instruction word, scalar\n"
    "register writes, vector register writes (lanes under the mask), store addresses and\n"
    "values, load addresses. Ignores the ISS boot stub, barrier spins, 'Executed' and\n"
    "'[r_pc]' lines and everything after a warp's endprg.\n"
    "\n"
    "  --max N    report at most N differing warps, 1..4294967295 (default 10)\n"
    "  --json     one JSON object (differences and summary) on stdout\n"
    "  --quiet    no output, only the exit status\n"
    "\n"
    "exit status: 0 equal, 1 different, 2 usage error, 4 unreadable or malformed log\n";

int cmd_trace_diff(int argc, char **argv) {
  vt_tdiff_opts o = {0};
  const char *files[2];
  int nf = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage_text, stdout);
      return 0;
    } else if (!strcmp(a, "--json")) {
      o.json = 1;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
      o.quiet = 1;
    } else if (!strcmp(a, "--max")) {
      /* digits only: strtoul would take "-1" as ULONG_MAX and saturate on overflow */
      if (i + 1 >= argc) {
        fprintf(stderr, "ventus trace-diff: --max needs a value (see 'ventus trace-diff --help')\n");
        return 2;
      }
      const char *v = argv[i + 1];
      char *end;
      errno = 0;
      unsigned long long n = isdigit((unsigned char)v[0]) ? strtoull(v, &end, 10) : 0;
      if (!n || errno || *end || n > UINT32_MAX) {
        fprintf(stderr, "ventus trace-diff: --max %s: expected a number of warps 1..4294967295\n", v);
        return 2;
      }
      o.max_report = (size_t)n;
      i++;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ventus trace-diff: unknown option %s (see 'ventus trace-diff --help')\n", a);
      return 2;
    } else if (nf == 2) {
      fprintf(stderr, "ventus trace-diff: expects exactly two logs\n");
      return 2;
    } else {
      files[nf++] = a;
    }
  }
  if (nf != 2) {
    fprintf(stderr, "ventus trace-diff: expects exactly two logs (see 'ventus trace-diff --help')\n");
    return 2;
  }
  vt_error e;
  vt_tdiff_result r;
  if (vt_trace_diff_files(files[0], files[1], &o, stdout, &r, &e)) {
    char buf[600];
    vt_err_format(&e, buf, sizeof buf);
    fprintf(stderr, "ventus trace-diff: %s\n", buf);
    return vt_err_exit_code(e.kind); /* 4: unreadable or malformed (2 is for usage errors) */
  }
  return r.differing ? 1 : 0;
}
