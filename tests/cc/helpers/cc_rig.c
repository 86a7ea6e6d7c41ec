#include "cc_rig.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cc_rig_impl.h"

struct cc_rig {
  const cc_rig_backend *be;
  void *state;
};

cc_rig *cc_rig_open(void) {
  const char *api = getenv("CC_RIG_API");
  const cc_rig_backend *be = NULL;
  if (!api || !*api || !strcmp(api, "native")) be = &cc_rig_native;
#ifdef CC_RIG_HAVE_OPENCL
  else if (!strcmp(api, "opencl")) be = &cc_rig_opencl;
#endif
  if (!be) {
    fprintf(stderr, "CC_RIG_API=%s: not a back end of this build (native%s)\n", api,
#ifdef CC_RIG_HAVE_OPENCL
            ", opencl"
#else
            ""
#endif
    );
    return NULL;
  }
  cc_rig *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->be = be;
  if (!(r->state = be->open())) {
    free(r);
    return NULL;
  }
  printf("NOTE: the kernels run through the %s API\n", be->name);
  return r;
}

void cc_rig_close(cc_rig *r) {
  if (!r) return;
  r->be->close(r->state);
  free(r);
}

int cc_rig_is_opencl(const cc_rig *r) { return strcmp(r->be->name, "native") != 0; }

int cc_rig_have_clang(void) { return !system("command -v clang-19 >/dev/null 2>&1"); }

int cc_rig_load(cc_rig *r, const char *name) {
  int p = r->be->load(r->state, name);
  if (p == -2) { /* clang-19 missing: the compiler says so */
    printf("SKIP: the compiler cannot run clang-19 here\n");
    cc_rig_close(r);
    exit(0);
  }
  return p;
}

int cc_rig_fresh(cc_rig *r) { return r->be->fresh(r->state); }

uint32_t cc_rig_buf(cc_rig *r, const void *data, size_t bytes) {
  size_t n = bytes ? bytes : 4;
  uint32_t b = r->be->buf(r->state, n);
  void *z = data ? NULL : calloc(1, n);
  assert_true(data || z);
  r->be->put(r->state, b, data ? data : z, n);
  free(z);
  return b;
}

void cc_rig_put(cc_rig *r, uint32_t buf, const void *src, size_t bytes) { r->be->put(r->state, buf, src, bytes); }

void cc_rig_get(cc_rig *r, uint32_t buf, void *dst, size_t bytes) { r->be->get(r->state, buf, dst, bytes); }

void cc_rig_launch(cc_rig *r, int prog, const char *kernel, const cy_ndrange *nd, const uint32_t *slots, size_t n) {
  r->be->launch(r->state, prog, kernel, nd, slots, n);
}

int cc_rig_have_libclc(void) { return !access("/usr/lib/clc/nvptx--.bc", R_OK) || getenv("CHENGYING_LIBCLC"); }

void cc_same_words(const void *got, const void *want, size_t n, const char *what) {
  for (size_t i = 0; i < n; i++) {
    uint32_t g, w;
    memcpy(&g, (const char *)got + 4 * i, 4);
    memcpy(&w, (const char *)want + 4 * i, 4);
    if (g != w) fail_msg("%s: word %zu is 0x%08x, expected 0x%08x", what, i, g, w);
  }
}

int cc_suite_setup(void **state, const char *name) {
  cc_suite *r = calloc(1, sizeof *r);
  if (!r || !(r->c = cc_rig_open()) || (r->prog = cc_rig_load(r->c, name)) < 0) {
    if (r) cc_rig_close(r->c);
    free(r);
    return -1;
  }
  *state = r;
  return 0;
}

int cc_suite_teardown(void **state) {
  cc_suite *r = *state;
  if (r) cc_rig_close(r->c);
  free(r);
  return 0;
}
