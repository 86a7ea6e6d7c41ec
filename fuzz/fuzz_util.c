/* Scratch files for the harnesses. The directory name lives in a static:
 * a fuzz process is one harness, so this is its only state. */
#include "fuzz_util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char scratch[256];

size_t fz_split(const uint8_t *data, size_t size, fz_part *parts, size_t max) {
  size_t k = 0, start = 0;
  for (size_t i = 0; i < size && k + 1 < max; i++)
    if (data[i] == 0) {
      parts[k++] = (fz_part){data + start, i - start};
      start = i + 1;
    }
  parts[k++] = (fz_part){data + start, size - start};
  return k;
}

static void cleanup(void) {
  DIR *d = opendir(scratch);
  if (d) {
    struct dirent *de;
    char p[512];
    while ((de = readdir(d)))
      if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
        snprintf(p, sizeof p, "%s/%s", scratch, de->d_name);
        unlink(p);
      }
    closedir(d);
  }
  rmdir(scratch);
}

const char *fz_dir(void) {
  if (scratch[0]) return scratch;
  const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
  snprintf(scratch, sizeof scratch, "%s/vt-fuzz-XXXXXX", base ? base : "/tmp");
  if (!mkdtemp(scratch)) {
    perror("fuzz: cannot create the scratch directory");
    abort();
  }
  atexit(cleanup);
  return scratch;
}

void fz_path(char *buf, size_t len, const char *name) {
  snprintf(buf, len, "%s/%s", fz_dir(), name);
}

void fz_write(const char *name, const void *p, size_t n) {
  char path[512];
  fz_path(path, sizeof path, name);
  FILE *f = fopen(path, "wb");
  if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f)) {
    perror(path);
    abort();
  }
}

void fz_remove(const char *name) {
  char path[512];
  fz_path(path, sizeof path, name);
  unlink(path);
}
