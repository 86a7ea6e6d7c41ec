/* Enumerates the corpus cases for the corpus tests (header-only, shared by
 * test_corpus_results.c and test_corpus_traces.c): every configuration
 * directory of verilog-tc/<kernel>/<cfg>/ and every .metadata of
 * rtlsim-multiwg/vecadd/, with the expected-result file of each; runs a
 * test function once per case as a cmocka group (corpus_run_group) on the
 * device the corpus needs (corpus_device). */
#ifndef VT_CORPUS_CASES_H
#define VT_CORPUS_CASES_H

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "device.h"

#define CORPUS_DIR VT_SOURCE_DIR "/../shared/corpora"

typedef struct {
  char name[128];     /* e.g. verilog-tc/bfs/4x8 */
  char path[1024];    /* case directory or .metadata */
  char expect[1024];  /* expected words */
} corpus_case;

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorted entries of a directory (without . and ..) */
static size_t list_dir(const char *dir, char ***out) {
  DIR *d = opendir(dir);
  *out = NULL;
  if (!d) return 0;
  size_t n = 0, cap = 0;
  char **v = NULL;
  struct dirent *de;
  while ((de = readdir(d))) {
    if (de->d_name[0] == '.') continue;
    if (n == cap) v = realloc(v, (cap = cap ? cap * 2 : 16) * sizeof *v);
    v[n++] = strdup(de->d_name);
  }
  closedir(d);
  qsort(v, n, sizeof *v, cmp_str);
  *out = v;
  return n;
}

static void free_list(char **v, size_t n) {
  for (size_t i = 0; i < n; i++) free(v[i]);
  free(v);
}

static int corpus_present(void) {
  struct stat st;
  return stat(CORPUS_DIR, &st) == 0 && S_ISDIR(st.st_mode);
}

static size_t corpus_cases(corpus_case **out) {
  size_t n = 0, cap = 64;
  corpus_case *c = calloc(cap, sizeof *c);
  char **k;
  size_t nk = list_dir(CORPUS_DIR "/verilog-tc", &k);
  for (size_t i = 0; i < nk; i++) {
    char kd[400];
    snprintf(kd, sizeof kd, "%s/verilog-tc/%.100s", CORPUS_DIR, k[i]);
    char **cf;
    size_t ncf = list_dir(kd, &cf);
    for (size_t j = 0; j < ncf; j++) {
      if (n == cap) c = realloc(c, (cap *= 2) * sizeof *c);
      snprintf(c[n].name, sizeof c[n].name, "verilog-tc/%.40s/%.40s", k[i], cf[j]);
      snprintf(c[n].path, sizeof c[n].path, "%s/%.100s", kd, cf[j]);
      snprintf(c[n].expect, sizeof c[n].expect, "%s/%.100s/expected_spike.txt", kd, cf[j]);
      n++;
    }
    free_list(cf, ncf);
  }
  free_list(k, nk);
  char **m;
  size_t nm = list_dir(CORPUS_DIR "/rtlsim-multiwg/vecadd", &m);
  for (size_t i = 0; i < nm; i++) {
    size_t l = strlen(m[i]);
    if (l < 10 || strcmp(m[i] + l - 9, ".metadata")) continue;
    if (n == cap) c = realloc(c, (cap *= 2) * sizeof *c);
    snprintf(c[n].name, sizeof c[n].name, "rtlsim-multiwg/vecadd/%.*s", (int)(l - 9), m[i]);
    snprintf(c[n].path, sizeof c[n].path, "%s/rtlsim-multiwg/vecadd/%s", CORPUS_DIR, m[i]);
    snprintf(c[n].expect, sizeof c[n].expect, "%s/rtlsim-multiwg/vecadd/%.*s.expected.txt", CORPUS_DIR,
             (int)(l - 9), m[i]);
    n++;
  }
  free_list(m, nm);
  *out = c;
  return n;
}

/* A device for corpus case cc: the defaults with a step limit, and 32 warp
 * slots per SM because the ISS has no warp-slot limit (vecadd_64b32w32t has
 * 32-warp groups). Fails the test when it cannot be created. */
static vt_device *corpus_device(const corpus_case *cc) {
  vt_config cfg;
  vt_config_defaults(&cfg);
  cfg.max_steps = 100000000u;
  cfg.warps_per_sm = 32;
  vt_error e;
  vt_device *d = vt_device_create(&cfg, &e);
  if (!d) fail_msg("%s: device: %s", cc->name, e.msg);
  return d;
}

static void no_corpus(void **state) {
  (void)state;
  printf("SKIP: ../shared/corpora not found\n");
  skip();
}

/* Runs fn once per corpus case (the case is its state) as the cmocka group
 * `group`, or a single skipped test when the corpus is absent; returns
 * cmocka's result. */
static int corpus_run_group(const char *group, CMUnitTestFunction fn) {
  if (!corpus_present()) {
    const struct CMUnitTest t[] = {cmocka_unit_test(no_corpus)};
    return cmocka_run_group_tests_name(group, t, NULL, NULL);
  }
  corpus_case *cases;
  size_t n = corpus_cases(&cases);
  struct CMUnitTest *t = calloc(n, sizeof *t);
  for (size_t i = 0; i < n; i++) {
    t[i].name = cases[i].name;
    t[i].test_func = fn;
    t[i].initial_state = &cases[i];
  }
  int r = _cmocka_run_group_tests(group, t, n, NULL, NULL);
  free(t);
  free(cases);
  return r;
}

#endif
