/* Runs a harness's LLVMFuzzerTestOneInput over files without libFuzzer, so
 * the regression inputs and seeds of fuzz/ are replayed by ctest in every
 * build (the sanitizer build catches what the harness itself does not).
 *   replay_<target> FILE|DIR...   (directories: their regular files)
 * Exit 0 after replaying everything, 4 if an input cannot be read; a
 * failing input aborts, as it does under libFuzzer. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vt_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path, size_t *n) {
  vt_error e = {0};
  size_t len;
  char *buf = vt_read_file(path, &len, &e);
  if (!buf) {
    fprintf(stderr, "replay: %s\n", e.msg);
    return -1;
  }
  fprintf(stderr, "replay: %s\n", path);
  LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
  free(buf);
  ++*n;
  return 0;
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int replay_dir(const char *dir, size_t *n) {
  DIR *d = opendir(dir);
  if (!d) {
    perror(dir);
    return -1;
  }
  char **names = NULL;
  size_t k = 0;
  int rc = 0;
  struct dirent *de;
  while (!rc && (de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    char **nn = realloc(names, (k + 1) * sizeof *nn);
    size_t len = strlen(dir) + strlen(de->d_name) + 2;
    char *p = nn ? malloc(len) : NULL;
    if (!p) rc = -1;
    if (nn) names = nn;
    if (p) snprintf(p, len, "%s/%s", dir, de->d_name), names[k++] = p;
  }
  closedir(d);
  if (names) qsort(names, k, sizeof *names, by_name); /* a stable order for logs */
  for (size_t i = 0; i < k; i++) {
    struct stat st;
    if (!rc && stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) rc = replay_file(names[i], n);
    free(names[i]);
  }
  free(names);
  return rc;
}

int main(int argc, char **argv) {
  size_t n = 0;
  for (int i = 1; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st)) {
      perror(argv[i]);
      return 4;
    }
    if ((S_ISDIR(st.st_mode) ? replay_dir(argv[i], &n) : replay_file(argv[i], &n))) return 4;
  }
  printf("replayed %zu inputs\n", n);
  return 0;
}
