/* Peak host memory of a simulated run, from Linux's /proc: writing 5 to
 * /proc/self/clear_refs resets the resident-set high-water mark (VmHWM) to
 * the current resident set (proc(5)), so VmHWM after the run minus VmRSS
 * before it is the most memory the run held at once, whatever allocator
 * the device uses. glibc's malloc_trim first returns the free heap to the
 * system, so memory reused from an earlier run counts again. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

/* The "KEY:  N kB" line of /proc/self/status, in bytes; -1 if absent. */
static int64_t status_bytes(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  size_t n = strlen(key);
  long long kib = -1;
  while (fgets(line, sizeof line, f))
    if (!strncmp(line, key, n) && line[n] == ':') {
      if (sscanf(line + n + 1, "%lld", &kib) != 1) kib = -1;
      break;
    }
  fclose(f);
  return kib < 0 ? -1 : (int64_t)kib * 1024;
}

int64_t bench_mem_mark(void) {
  /* hand freed heap back first, or a run reusing what an earlier one freed
   * would not show up in the resident set */
  malloc_trim(0);
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return -1;
  int bad = fputs("5", f) < 0;
  if (fclose(f) || bad) return -1;
  return status_bytes("VmRSS");
}

int64_t bench_mem_peak(void) { return status_bytes("VmHWM"); }
