#include "test_proc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

long test_rss_kib(void) {
  /* under valgrind the process's memory is valgrind's, not the program's */
  if (getenv("VT_UNDER_VALGRIND")) return -1;
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kb = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) kb = strtol(line + 6, NULL, 10);
  if (f) fclose(f);
  return kb;
}
