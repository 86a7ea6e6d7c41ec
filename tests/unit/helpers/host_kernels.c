/* Example kernels through the public host APIs: see host_kernels.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "asm.h"
#include "host_kernels.h"
#include "ref_kernels.h"

void build_example_kernel(const char *name, char *elf, size_t len) {
  char p0[512], p1[512], p2[512];
  snprintf(p0, sizeof p0, "%s/kernels/lib/start.S", VT_SOURCE_DIR);
  snprintf(p1, sizeof p1, "%s/kernels/lib/workitem.S", VT_SOURCE_DIR);
  snprintf(p2, sizeof p2, "%s/kernels/examples/%s.S", VT_SOURCE_DIR, name);
  snprintf(elf, len, "%s/example_%s_%d.elf", VT_BINARY_DIR, name, (int)getpid());
  const char *paths[] = {p0, p1, p2};
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  asm_diags d = {0};
  vt_error e;
  int rc = asm_assemble_files(paths, 3, &opt, elf, &d, &e);
  if (rc) {
    char b[512];
    for (int i = 0; i < d.n; i++) {
      asm_diag_format(&d.v[i], b, sizeof b);
      print_error("%s\n", b);
    }
    vt_err_format(&e, b, sizeof b);
    print_error("%s\n", b);
  }
  asm_diags_free(&d);
  assert_int_equal(rc, 0);
}

uint32_t hk_rand(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }

static void random_floats(float *v, uint32_t n, uint32_t *s) {
  for (uint32_t i = 0; i < n; i++) v[i] = (float)(int32_t)hk_rand(s) / 65536.0f;
}

/* 0 if got equals want bit for bit, else -1 naming the first difference */
static int compare(const void *got, const void *want, uint32_t n, const char *what, char *why, size_t len) {
  const uint32_t *g = got, *w = want;
  for (uint32_t i = 0; i < n; i++)
    if (g[i] != w[i]) {
      snprintf(why, len, "%s[%u] = 0x%08x, want 0x%08x (of %u)", what, i, g[i], w[i], n);
      return -1;
    }
  return 0;
}

#define VT_TRY(call, what)                                                    \
  do {                                                                        \
    if (!rc && (call)) {                                                      \
      snprintf(why, len, "%s failed: %s", what, vt_last_error(d));            \
      rc = -1;                                                                \
    }                                                                         \
  } while (0)

/* The host side of a vecadd check: a and b random from *seed, ref = a + b,
 * c for the device's result; -1 (with why) if the host is out of memory. */
static int vecadd_host(uint32_t n, uint32_t *seed, float **a, float **b, float **c, float **ref, char *why,
                       size_t len) {
  *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4), *ref = malloc(n * 4);
  if (!*a || !*b || !*c || !*ref) {
    free(*a), free(*b), free(*c), free(*ref);
    snprintf(why, len, "out of host memory");
    return -1;
  }
  random_floats(*a, n, seed);
  random_floats(*b, n, seed);
  ref_vecadd(*a, *b, *ref, n);
  return 0;
}

int hk_vt_vecadd(vt_device_h d, uint32_t entry, uint32_t n, uint32_t wf, uint32_t seed, char *why,
                 size_t len) {
  const uint32_t local = 32, groups = (n + local - 1) / local, pds_size = 0x100;
  float *a, *b, *c, *ref;
  uint32_t s = seed;
  if (vecadd_host(n, &s, &a, &b, &c, &ref, why, len)) return -1;
  /* A, B, C, argument block, metadata block, private region */
  uint64_t buf[6] = {0};
  const uint64_t size[6] = {n * 4, n * 4, n * 4, 16, 72, (uint64_t)pds_size * local * groups};
  int rc = 0;
  for (int i = 0; i < 6; i++) VT_TRY(vt_buf_alloc(d, size[i], &buf[i], READ_WRITE, 0, 0), "vt_buf_alloc");
  uint32_t args[4] = {(uint32_t)buf[0], (uint32_t)buf[1], (uint32_t)buf[2], n};
  uint32_t knl[18] = {entry, (uint32_t)buf[3], 1, groups * local, 1, 1, local, 1, 1};
  VT_TRY(vt_copy_to_dev(d, buf[0], a, n * 4, 0, 0), "vt_copy_to_dev A");
  VT_TRY(vt_copy_to_dev(d, buf[1], b, n * 4, 0, 0), "vt_copy_to_dev B");
  VT_TRY(vt_copy_to_dev(d, buf[3], args, sizeof args, 0, 0), "vt_copy_to_dev args");
  VT_TRY(vt_copy_to_dev(d, buf[4], knl, sizeof knl, 0, 0), "vt_copy_to_dev metadata");
  uint64_t meta[12] = {0, groups, 1, 1, wf, local / wf, buf[4], 0x1000, pds_size, 64, 64, buf[5]};
  VT_TRY(vt_start(d, meta, 0), "vt_start");
  VT_TRY(vt_ready_wait(d, MAX_TIMEOUT), "vt_ready_wait");
  VT_TRY(vt_copy_from_dev(d, buf[2], c, n * 4, 0, 0), "vt_copy_from_dev C");
  if (!rc) rc = compare(c, ref, n, "vecadd C", why, len);
  /* free in a seed-dependent order: the allocator must not care */
  for (uint32_t k = 0, start = hk_rand(&s) % 6; k < 6; k++) {
    uint64_t *p = &buf[(start + k * 5) % 6];
    if (*p) VT_TRY(vt_one_buf_free(d, 0, p, 0, 0), "vt_one_buf_free");
  }
  free(a), free(b), free(c), free(ref);
  return rc;
}
#undef VT_TRY

#define CY_TRY(call, what)                                                    \
  do {                                                                        \
    if (!rc && (call)) {                                                      \
      snprintf(why, len, "%s failed: %s", what, cy_error(d));                 \
      rc = -1;                                                                \
    }                                                                         \
  } while (0)

int hk_cy_vecadd(cy_device *d, const char *elf, uint32_t n, uint32_t threads, uint32_t seed, char *why,
                 size_t len) {
  float *a, *b, *c, *ref;
  uint32_t s = seed;
  if (vecadd_host(n, &s, &a, &b, &c, &ref, why, len)) return -1;
  uint32_t buf[3] = {0};
  int rc = 0;
  for (int i = 0; i < 3; i++) CY_TRY(cy_alloc(d, n * 4, &buf[i]), "cy_alloc");
  CY_TRY(cy_write(d, buf[0], a, n * 4), "cy_write A");
  CY_TRY(cy_write(d, buf[1], b, n * 4), "cy_write B");
  uint32_t slots[4] = {buf[0], buf[1], buf[2], n};
  cy_ndrange nd = {.work_dim = 1, .global = {(n + 31) / 32 * 32}, .local = {32}, .threads = threads};
  CY_TRY(cy_launch(d, elf, "vecadd", &nd, slots, 4), "cy_launch vecadd");
  CY_TRY(cy_read(d, buf[2], c, n * 4), "cy_read C");
  if (!rc) rc = compare(c, ref, n, "vecadd C", why, len);
  for (int i = 2; i >= 0; i--)
    if (buf[i]) CY_TRY(cy_free(d, buf[i]), "cy_free");
  free(a), free(b), free(c), free(ref);
  return rc;
}

int hk_cy_reduce(cy_device *d, const char *elf, uint32_t n, uint32_t local, uint32_t seed, char *why,
                 size_t len) {
  uint32_t groups = (n + local - 1) / local;
  int32_t *in = malloc(n * 4), *out = malloc(groups * 4), *ref = malloc(groups * 4);
  if (!in || !out || !ref) {
    free(in), free(out), free(ref);
    snprintf(why, len, "out of host memory");
    return -1;
  }
  uint32_t s = seed;
  for (uint32_t i = 0; i < n; i++) in[i] = (int32_t)hk_rand(&s);
  ref_reduce(in, ref, n, local, groups);
  uint32_t bin = 0, bout = 0;
  int rc = 0;
  CY_TRY(cy_alloc(d, n * 4, &bin), "cy_alloc in");
  CY_TRY(cy_alloc(d, groups * 4, &bout), "cy_alloc out");
  CY_TRY(cy_write(d, bin, in, n * 4), "cy_write in");
  uint32_t slots[3] = {bin, bout, n};
  cy_ndrange nd = {.work_dim = 1, .global = {groups * local}, .local = {local}, .threads = 32};
  CY_TRY(cy_launch(d, elf, "reduce", &nd, slots, 3), "cy_launch reduce");
  CY_TRY(cy_read(d, bout, out, groups * 4), "cy_read out");
  if (!rc) rc = compare(out, ref, groups, "reduce out", why, len);
  if (bin) CY_TRY(cy_free(d, bin), "cy_free in");
  if (bout) CY_TRY(cy_free(d, bout), "cy_free out");
  free(in), free(out), free(ref);
  return rc;
}
