/* tests/cc/kernels/double2025.cl: double on an ISA revision 2025 device,
 * where `ventus cc --isa 2025` lowers it to the vector unit's SEW-64 float
 * instructions (cc_lower_f64.c, cc_isel_f64v.c): every native operation
 * over edge and random operands, checked bit for bit against the host's
 * IEEE double (round to nearest); NaN results must be RISC-V's canonical
 * NaN. Then the compiled text: the e64 instructions, no call of the
 * software library, and the baseline's text still the library's; and the
 * warp instructions per add, multiply and divide on both revisions.
 * Native API only (the `_cl` copy skips): test_cc_double_2025_cl runs
 * double through the OpenCL platform on a revision 2025 device. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "chengying.h"
#include "test_bits.h"

extern char **environ;

#define CANON_NAN 0x7ff8000000000000u

typedef struct {
  cy_device *d[2]; /* baseline, revision 2025 */
  char elf[2][512], text[2][512];
} rig;

/* `ventus cc [--isa 2025] [-S] -o out double2025.cl`: its exit status */
static int compile(int rev, int text, const char *out) {
  char src[512];
  snprintf(src, sizeof src, "%s/tests/cc/kernels/double2025.cl", VT_SOURCE_DIR);
  char *argv[9] = {(char *)VT_VENTUS_BIN, "cc", "-o", (char *)out, src};
  int n = 5;
  if (rev) {
    argv[n++] = "--isa";
    argv[n++] = "2025";
  }
  if (text) argv[n++] = "-S";
  argv[n] = NULL;
  pid_t pid;
  int st = -1;
  if (posix_spawn(&pid, VT_VENTUS_BIN, NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0) return -1;
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int group_setup(void **state) {
  const char *api = getenv("CC_RIG_API");
  if (api && !strcmp(api, "opencl")) {
    printf("SKIP: native API only (test_cc_double_2025_cl is the OpenCL platform's)\n");
    exit(0);
  }
  rig *r = calloc(1, sizeof *r);
  if (!r) return -1;
  for (int rev = 0; rev < 2; rev++) {
    snprintf(r->elf[rev], sizeof r->elf[rev], "%s/cc-tests-double2025-%d-%ld.elf", VT_BINARY_DIR, rev, (long)getpid());
    snprintf(r->text[rev], sizeof r->text[rev], "%s/cc-tests-double2025-%d-%ld.s", VT_BINARY_DIR, rev, (long)getpid());
    int rc = compile(rev, 0, r->elf[rev]);
    if (rc == 4 && system("clang-19 --version > /dev/null 2>&1")) {
      printf("SKIP: clang-19 is not installed\n");
      exit(0);
    }
    if (rc || compile(rev, 1, r->text[rev])) {
      fprintf(stderr, "ventus cc%s failed on double2025.cl\n", rev ? " --isa 2025" : "");
      return -1;
    }
    char err[256];
    const char *ov[] = {"isa=2025"};
    if (!(r->d[rev] = cy_create(NULL, ov, (size_t)rev, err, sizeof err))) {
      fprintf(stderr, "cy_create: %s\n", err);
      return -1;
    }
  }
  *state = r;
  return 0;
}

static int group_teardown(void **state) {
  rig *r = *state;
  for (int rev = 0; r && rev < 2; rev++) {
    remove(r->elf[rev]);
    remove(r->text[rev]);
    cy_destroy(r->d[rev]);
  }
  free(r);
  return 0;
}

static uint32_t buf(cy_device *d, const void *data, size_t bytes) {
  uint32_t a;
  assert_int_equal(cy_alloc(d, (uint32_t)bytes, &a), 0);
  if (data) assert_int_equal(cy_write(d, a, data, (uint32_t)bytes), 0);
  return a;
}

static void launch(rig *r, int rev, const char *kernel, int n, const uint32_t *slots, size_t ns) {
  cy_ndrange nd = {.work_dim = 1, .global = {(uint32_t)n}, .local = {32}};
  if (cy_launch(r->d[rev], r->elf[rev], kernel, &nd, slots, ns)) fail_msg("%s: %s", kernel, cy_error(r->d[rev]));
}

/* zeros, infinities, NaNs (quiet, signalling, negative, with payloads),
 * subnormals, the normal extremes, ties of 1 + 2^-53, huge and tiny,
 * values at the integer ranges' edges */
static const uint64_t edges[] = {
    0x0000000000000000u, 0x8000000000000000u, 0x7ff0000000000000u, 0xfff0000000000000u, 0x7ff8000000000000u,
    0xfff8000000000001u, 0x7ff0000000000001u, 0x0000000000000001u, 0x800fffffffffffffu, 0x0010000000000000u,
    0x7fefffffffffffffu, 0x3ff0000000000000u, 0x3ca0000000000000u, 0x3ff0000000000001u, 0xbca0000000000000u,
    0x3fe0000000000000u, 0xbff8000000000000u, 0x4330000000000000u, 0x432fffffffffffffu, 0x43e0000000000000u,
    0xc3e0000000000000u, 0x41dfffffffc00000u, 0xc1e0000000000000u, 0x41efffffffe00000u, 0x41f0000000000000u,
    0x0008000000000000u, 0x3cb0000000000000u, 0x7fe0000000000000u, 0x000fffffffffffffu, 0x3fd5555555555555u,
    0x43f0000000000000u, 0x43efffffffffffffu, 0xc3e0000000000001u, 0x40dfffc000000000u, 0x406fe00000000000u,
    0x3ff8000000000000u};
enum { NE = sizeof edges / sizeof *edges };

/* every edge against every edge, then random values of every kind */
static uint64_t pick(uint64_t *s, int i, int which) {
  if (i < NE * NE) return which ? edges[(i / NE) % NE] : edges[i % NE];
  uint64_t r = rnd64(s);
  switch (r % 7) {
  case 0: return r;
  case 1: return (r & 0x800fffffffffffffu) | ((uint64_t)(1015 + rnd64(s) % 20) << 52); /* near 1 */
  case 2: return r & 0x800fffffffffffffu;                                             /* subnormal */
  case 3: return (r & 0x800fffffffffffffu) | ((uint64_t)(1 + rnd64(s) % 2046) << 52);
  case 4: return bits_of((double)(int32_t)(r >> 40) * 0.5);
  case 5: return (r & 0x800fffffffffffffu) | ((uint64_t)(rnd64(s) % 2 ? 1 + rnd64(s) % 60 : 1985 + rnd64(s) % 61) << 52);
  default: return (r & 0x8000000000000003u) | 0x3ff0000000000000u; /* rounding cases */
  }
}

/* got equals want, or both are NaNs and got is the canonical one */
static int same(double got, double want, int canon) {
  if (isnan(want)) return isnan(got) && (!canon || bits_of(got) == CANON_NAN);
  return bits_of(got) == bits_of(want);
}

static void test_arith(void **state) {
  rig *r = *state;
  enum { N = 2048, R = 12 };
  static double a[N], b[N], c[N], out[N * R], want[N * R];
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i, 0));
    b[i] = d_of(pick(&s, i, 1));
    c[i] = i % 5 ? d_of(pick(&s, NE * NE, 0)) : -a[i] * b[i]; /* cancellation in fma */
  }
  for (int i = 0; i < N; i++) {
    double x = a[i], y = b[i], z = c[i], *o = want + R * i;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrt(x);
    o[5] = fma(x, y, z);
    o[6] = isnan(x) ? y : isnan(y) ? x : x < y ? x : y;
    o[7] = isnan(x) ? y : isnan(y) ? x : x > y ? x : y;
    o[8] = d_of(bits_of(x) ^ 0x8000000000000000u);
    o[9] = d_of(bits_of(x) & 0x7fffffffffffffffu);
    o[10] = d_of((bits_of(x) & 0x7fffffffffffffffu) | (bits_of(y) & 0x8000000000000000u));
    o[11] = fma(x, y, z);
  }
  cy_device *d = r->d[1];
  uint32_t A = buf(d, a, sizeof a), B = buf(d, b, sizeof b), C = buf(d, c, sizeof c), O = buf(d, NULL, sizeof out);
  launch(r, 1, "arith", N, (uint32_t[]){A, B, C, O}, 4);
  assert_int_equal(cy_read(d, O, out, sizeof out), 0);
  static const char *const what[R] = {"+", "-", "*", "/", "sqrt", "fma", "fmin", "fmax", "-x", "fabs", "copysign", "x*y+z"};
  for (int i = 0; i < N; i++)
    for (int k = 0; k < R; k++) {
      double g = out[R * i + k], w = want[R * i + k];
      if (k == 6 || k == 7) /* fmin/fmax of two zeros may give either; of two NaNs, a NaN */
        if ((a[i] == 0 && b[i] == 0 && g == 0) || (isnan(a[i]) && isnan(b[i]) && isnan(g))) continue;
      if (k == 11 && same(g, a[i] * b[i] + c[i], 1)) continue; /* not contracted */
      if (!same(g, w, k < 8 || k == 11))
        fail_msg("%s: lane %d (a = %a 0x%016llx, b = %a, c = %a) is %a (0x%016llx), expected %a (0x%016llx)", what[k], i,
                 a[i], (unsigned long long)bits_of(a[i]), b[i], c[i], g, (unsigned long long)bits_of(g), w,
                 (unsigned long long)bits_of(w));
    }
}

static void test_compare(void **state) {
  rig *r = *state;
  enum { N = 2048 };
  static double a[N], b[N];
  static int32_t out[N];
  uint64_t s = 99;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i, 0));
    b[i] = i % 3 == 2 ? a[i] : d_of(pick(&s, i, 1)); /* equal operands too */
  }
  cy_device *d = r->d[1];
  uint32_t A = buf(d, a, sizeof a), B = buf(d, b, sizeof b), O = buf(d, NULL, sizeof out);
  launch(r, 1, "compare", N, (uint32_t[]){A, B, O}, 3);
  assert_int_equal(cy_read(d, O, out, sizeof out), 0);
  for (int i = 0; i < N; i++) {
    double x = a[i], y = b[i];
    int un = isnan(x) || isnan(y);
    int32_t w = (x == y) << 0 | (x != y) << 1 | (x < y) << 2 | (x <= y) << 3 | (x > y) << 4 | (x >= y) << 5 |
                !(x < y) << 6 | !(x <= y) << 7 | !(x > y) << 8 | !(x >= y) << 9 | (!un && x != y) << 10 |
                (un || x == y) << 11 | !un << 12 | un << 13 | (x == y) << 14;
    if (out[i] != w) fail_msg("compare: lane %d (%a, %a) is 0x%x, expected 0x%x", i, x, y, out[i], w);
  }
}

static void test_convert(void **state) {
  rig *r = *state;
  enum { N = 2048 };
  static double a[N], od[7 * N];
  static float f[N], of[N];
  static int64_t l[N], oi[6 * N];
  uint64_t s = 4242;
  for (int i = 0; i < N; i++) {
    a[i] = d_of(pick(&s, i < NE ? i : NE * NE + i, 0));
    if (i % 4 == 1) a[i] = ldexp((double)(int64_t)rnd64(&s), -(int)(rnd64(&s) % 64)); /* integers, halves, ... */
    if (i % 4 == 2) a[i] = (double)(int32_t)rnd64(&s) + (double)(rnd64(&s) % 4) * 0.25;
    uint32_t fb = (uint32_t)rnd64(&s);
    if (i < NE) fb = (uint32_t)(edges[i] >> 32);
    if (i % 5 == 3) fb &= 0x807fffffu; /* subnormal floats */
    memcpy(&f[i], &fb, 4);
    l[i] = (int64_t)rnd64(&s) >> (rnd64(&s) % 64);
    if (i < 10)
      l[i] = (int64_t[]){0, -1, INT64_MIN, INT64_MAX, 1LL << 53, (1LL << 53) + 1, -(1LL << 54) - 3, 0x7ffffffffffffdffLL,
                         (int64_t)0xfffffffffffffc01u, 0x80000001LL}[i];
  }
  cy_device *d = r->d[1];
  uint32_t A = buf(d, a, sizeof a), F = buf(d, f, sizeof f), L = buf(d, l, sizeof l);
  uint32_t OI = buf(d, NULL, sizeof oi), OD = buf(d, NULL, sizeof od), OF = buf(d, NULL, sizeof of);
  launch(r, 1, "convert", N, (uint32_t[]){A, F, L, OI, OD, OF}, 6);
  assert_int_equal(cy_read(d, OI, oi, sizeof oi), 0);
  assert_int_equal(cy_read(d, OD, od, sizeof od), 0);
  assert_int_equal(cy_read(d, OF, of, sizeof of), 0);
  for (int i = 0; i < N; i++) {
    double x = a[i];
    /* to integers: where the value fits (C leaves the rest undefined), a NaN gives 0 */
    int ok[6] = {x > -0x1p63 - 1 && x < 0x1p63, x > -1 && x < 0x1p64, x > -0x1p31 - 1 && x < 0x1p31,
                 x > -1 && x < 0x1p32, x > -32769 && x < 32768, x > -1 && x < 256};
    int64_t w[6] = {ok[0] ? (int64_t)x : 0, ok[1] ? (int64_t)(uint64_t)x : 0, ok[2] ? (int32_t)x : 0,
                    ok[3] ? (int64_t)(uint32_t)x : 0, ok[4] ? (int16_t)x : 0, ok[5] ? (uint8_t)x : 0};
    for (int k = 0; k < 6; k++)
      if ((ok[k] || isnan(x)) && oi[6 * i + k] != w[k])
        fail_msg("convert: lane %d (%a) to integer %d is %lld, expected %lld", i, x, k, (long long)oi[6 * i + k],
                 (long long)w[k]);
    double wd[7] = {(double)l[i], (double)(uint64_t)l[i], (double)(int32_t)l[i], (double)(uint32_t)l[i],
                    (double)(int16_t)l[i], (double)(uint8_t)l[i], (double)f[i]};
    for (int k = 0; k < 7; k++)
      if (!same(od[7 * i + k], wd[k], 1))
        fail_msg("convert: lane %d (%lld, %a) to double %d is %a, expected %a", i, (long long)l[i], (double)f[i], k,
                 od[7 * i + k], wd[k]);
    float wf = (float)x;
    uint32_t gb, wb;
    memcpy(&gb, &of[i], 4);
    memcpy(&wb, &wf, 4);
    if (isnan(wf) ? gb != 0x7fc00000u : gb != wb)
      fail_msg("convert: lane %d (float)%a is %a (0x%08x), expected %a", i, x, (double)of[i], gb, (double)wf);
  }
}

/* the text of revision `rev` (malloc'd) */
static char *text_of(const rig *r, int rev) {
  FILE *fp = fopen(r->text[rev], "rb");
  assert_non_null(fp);
  static char tmp[1 << 22];
  size_t n = fread(tmp, 1, sizeof tmp - 1, fp);
  fclose(fp);
  char *t = malloc(n + 1);
  assert_non_null(t);
  memcpy(t, tmp, n);
  t[n] = 0;
  return t;
}

static void test_text(void **state) {
  rig *r = *state;
  char *t25 = text_of(r, 1), *tb = text_of(r, 0);
  static const char *const native[] = {"vsetvli zero, zero, e64, m1, ta, ma", "vsetvli zero, zero, e32, m1, ta, ma",
                                       "vfadd.vv", "vfsub.vv", "vfmul.vv", "vfdiv.vv", "vfsqrt.v", "vfmacc.vv",
                                       "vfmin.vv", "vfmax.vv", "vmfeq.vv", "vmflt.vv", "vmfle.vv", "vfcvt.f.x.v",
                                       "vfcvt.f.xu.v", "vfcvt.rtz.x.f.v", "vfcvt.rtz.xu.f.v", "vfwcvt.f.x.v",
                                       "vfwcvt.f.xu.v", "vfwcvt.f.f.v", "vfncvt.rtz.x.f.w", "vfncvt.rtz.xu.f.w",
                                       "vfncvt.f.f.w"};
  for (size_t i = 0; i < sizeof native / sizeof *native; i++) {
    if (!strstr(t25, native[i])) fail_msg("the text for revision 2025 has no %s", native[i]);
    if (i >= 2 && strstr(tb, native[i])) fail_msg("the baseline's text has %s", native[i]);
  }
  if (strstr(t25, "__cy_")) fail_msg("the text for revision 2025 calls the software double library");
  if (strstr(t25, "vlw.v ") || strstr(t25, "vsw.v ")) fail_msg("the text for revision 2025 has baseline private accesses");
  if (!strstr(tb, "__cy_dadd") || !strstr(tb, "__cy_ddiv") || strstr(tb, "e64"))
    fail_msg("the baseline's text is not the software library's");
  /* every SEW-64 stretch ends in the default vtype before the next line */
  for (const char *p = strstr(t25, "e64, m1"); p; p = strstr(p + 1, "e64, m1")) {
    const char *nl = strchr(p, '\n');
    assert_non_null(nl);
    nl = strchr(nl + 1, '\n');
    assert_non_null(nl);
    if (strncmp(nl + 1, "        vsetvli zero, zero, e32, m1, ta, ma", 43)) fail_msg("an e64 stretch is not one instruction long");
  }
  free(t25);
  free(tb);
}

/* warp instructions of one warp running `kernel` on revision rev */
static uint64_t warp_insns(rig *r, int rev, const char *kernel) {
  static double p[64];
  for (int i = 0; i < 32; i++) {
    p[i] = 1.0 + i / 64.0;
    p[i + 32] = 1.0000001 + i / 1024.0;
  }
  uint32_t P = buf(r->d[rev], p, sizeof p);
  cy_stats before, after;
  cy_get_stats(r->d[rev], &before);
  launch(r, rev, kernel, 32, &P, 1);
  cy_get_stats(r->d[rev], &after);
  return after.warp_insns - before.warp_insns;
}

static void test_count(void **state) {
  rig *r = *state;
  static const char *const ops[] = {"add", "mul", "div"};
  double per[2][3];
  for (int rev = 0; rev < 2; rev++) {
    uint64_t none = warp_insns(r, rev, "chain_none");
    for (int k = 0; k < 3; k++) {
      char name[32];
      snprintf(name, sizeof name, "chain_%s", ops[k]);
      per[rev][k] = (double)(warp_insns(r, rev, name) - none) / 16;
    }
  }
  printf("# warp instructions per double operation (16 dependent ones, one warp of 32 lanes)\n");
  printf("# op   baseline (software)  revision 2025 (SEW 64)\n");
  for (int k = 0; k < 3; k++) {
    printf("# %-4s %19.1f %23.1f\n", ops[k], per[0][k], per[1][k]);
    if (!(per[1][k] < 16 && per[0][k] > 10 * per[1][k]))
      fail_msg("%s: %.1f instructions on revision 2025 against %.1f in software", ops[k], per[1][k], per[0][k]);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_arith), cmocka_unit_test(test_compare),
                                     cmocka_unit_test(test_convert), cmocka_unit_test(test_text),
                                     cmocka_unit_test(test_count)};
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
