/* ISA 2025 RVV floating point at SEW 64 (binary64 in register pairs;
 * docs/isa-extensions.md "Element widths"): every entry and form, masked
 * and unmasked, in the four rounding modes the host has, against the
 * host's IEEE double (the hardware's arithmetic, the C library's fma and
 * sqrt, its int64 conversions and nearbyint; flags from fetestexcept) and
 * plain C for min/max, compares, sign injection and classify; fflags read
 * back; the .vf scalar from an x pair. */
#include <fenv.h>
#include <math.h>

#include "f16_ref.h"
#include "isaext_vsew.h"

#if defined(__SIZEOF_INT128__)

static const int mode[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static uint64_t db(double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  return v;
}
static double dv(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static int snan64(uint64_t v) { return (v & 0x7ff8000000000000ull) == 0x7ff0000000000000ull && (v << 13); }
static int nan64(uint64_t v) { return (v & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (v << 12); }

static uint32_t flags_now(void) {
  int ex = fetestexcept(FE_ALL_EXCEPT);
  return (ex & FE_INEXACT ? FFLAG_NX : 0) | (ex & FE_UNDERFLOW ? FFLAG_UF : 0) | (ex & FE_OVERFLOW ? FFLAG_OF : 0) |
         (ex & FE_DIVBYZERO ? FFLAG_DZ : 0) | (ex & FE_INVALID ? FFLAG_NV : 0);
}

static uint64_t rnd_d(test_rng *r) {
  uint64_t v = test_rng64(r);
  if (v & 1) return test_rng64(r);
  static const uint64_t edge[] = {0, 0x8000000000000000ull, 1, 0x800fffffffffffffull, 0x0010000000000000ull,
                                  0x7fefffffffffffffull, 0xffefffffffffffffull, 0x7ff0000000000000ull,
                                  0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
                                  0xfff4000000000abcull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                                  0x3fd5555555555555ull, 0x43e0000000000000ull};
  return edge[(v >> 1) % 16];
}

/* op 0 add 1 sub 2 mul 3 div 4 sqrt 5 fma */
static uint64_t host(unsigned op, uint64_t a, uint64_t b, uint64_t c, unsigned rm, uint32_t *fl) {
  volatile double x = dv(a), y = dv(b), z = dv(c), d;
  fesetround(mode[rm]);
  feclearexcept(FE_ALL_EXCEPT);
  switch (op) {
  case 0: d = x + y; break;
  case 1: d = x - y; break;
  case 2: d = x * y; break;
  case 3: d = x / y; break;
  case 4: d = sqrt(x); break;
  default: d = fma(x, y, z); break;
  }
  *fl |= flags_now();
  fesetround(FE_TONEAREST);
  if (op == 5 && isnan(z) && ((isinf(x) && y == 0) || (x == 0 && isinf(y)))) *fl |= FFLAG_NV; /* RISC-V's rule */
  return isnan(d) ? 0x7ff8000000000000ull : db(d);
}
static uint64_t ref_minmax(uint64_t a, uint64_t b, int max, uint32_t *fl) {
  if (snan64(a) || snan64(b)) *fl |= FFLAG_NV;
  if (nan64(a) && nan64(b)) return 0x7ff8000000000000ull;
  if (nan64(a)) return b;
  if (nan64(b)) return a;
  double x = dv(a), y = dv(b);
  int a_less = x < y || (x == y && (a >> 63) && !(b >> 63));
  return (a_less ^ max) ? a : b;
}
static uint64_t ref_cmp(uint64_t a, uint64_t b, int kind, uint32_t *fl) {
  if (nan64(a) || nan64(b)) {
    if (kind || snan64(a) || snan64(b)) *fl |= FFLAG_NV;
    return 0;
  }
  double x = dv(a), y = dv(b);
  return kind == 0 ? x == y : kind == 1 ? x < y : x <= y;
}
static uint64_t ref_class(uint64_t a) {
  int neg = (int)(a >> 63);
  if (nan64(a)) return snan64(a) ? 1u << 8 : 1u << 9;
  switch (fpclassify(dv(a))) {
  case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
  case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
  case FP_SUBNORMAL: return neg ? 1u << 2 : 1u << 5;
  default: return neg ? 1u << 1 : 1u << 6;
  }
}
static uint64_t ref_to_int(uint64_t a, int sgn, unsigned rm, uint32_t *fl) {
  if (nan64(a)) {
    *fl |= FFLAG_NV;
    return sgn ? (uint64_t)INT64_MAX : UINT64_MAX;
  }
  double x = dv(a), lo = sgn ? -0x1p63 : 0.0, hi = sgn ? 0x1p63 : 0x1p64;
  fesetround(mode[rm]);
  double ri = nearbyint(x);
  fesetround(FE_TONEAREST);
  if (ri < lo || ri >= hi) {
    *fl |= FFLAG_NV;
    return ri < lo ? (sgn ? (uint64_t)INT64_MIN : 0) : (sgn ? (uint64_t)INT64_MAX : UINT64_MAX);
  }
  if (ri != x) *fl |= FFLAG_NX;
  return sgn ? (uint64_t)(int64_t)ri : (uint64_t)ri;
}
static uint64_t ref_from_int(uint64_t v, int sgn, unsigned rm, uint32_t *fl) {
  fesetround(mode[rm]);
  feclearexcept(FE_ALL_EXCEPT);
  volatile double d = sgn ? (double)(int64_t)v : (double)v;
  *fl |= flags_now();
  fesetround(FE_TONEAREST);
  return db(d);
}

static const char *const fmas[] = {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub", NULL};
static const char *const mul_vd[] = {"vfmadd", "vfnmadd", "vfmsub", "vfnmsub", NULL};
static const char *const neg_add[] = {"vfnmacc", "vfmsac", "vfnmadd", "vfmsub", NULL};
static int in_list(const char *mn, const char *const *l) {
  for (; *l; l++)
    if (!strcmp(mn, *l)) return 1;
  return 0;
}
static int is(const char *mn, const char *s) { return !strcmp(mn, s); }

static uint64_t ref(const char *mn, uint64_t a, uint64_t b, uint64_t d, unsigned rm, uint32_t *fl) {
  const uint64_t S = 1ull << 63;
  if (is(mn, "vfadd")) return host(0, a, b, 0, rm, fl);
  if (is(mn, "vfsub")) return host(1, a, b, 0, rm, fl);
  if (is(mn, "vfrsub")) return host(1, b, a, 0, rm, fl);
  if (is(mn, "vfmul")) return host(2, a, b, 0, rm, fl);
  if (is(mn, "vfdiv")) return host(3, a, b, 0, rm, fl);
  if (is(mn, "vfrdiv")) return host(3, b, a, 0, rm, fl);
  if (is(mn, "vfsqrt.v")) return host(4, a, 0, 0, rm, fl);
  if (is(mn, "vfmin")) return ref_minmax(a, b, 0, fl);
  if (is(mn, "vfmax")) return ref_minmax(a, b, 1, fl);
  if (is(mn, "vfsgnj")) return (a & ~S) | (b & S);
  if (is(mn, "vfsgnjn")) return (a & ~S) | (~b & S);
  if (is(mn, "vfsgnjx")) return a ^ (b & S);
  if (is(mn, "vmfeq")) return ref_cmp(a, b, 0, fl);
  if (is(mn, "vmfne")) return !ref_cmp(a, b, 0, fl);
  if (is(mn, "vmflt")) return ref_cmp(a, b, 1, fl);
  if (is(mn, "vmfle")) return ref_cmp(a, b, 2, fl);
  if (is(mn, "vmfgt")) return ref_cmp(b, a, 1, fl);
  if (is(mn, "vmfge")) return ref_cmp(b, a, 2, fl);
  if (is(mn, "vfclass.v")) return ref_class(a);
  if (is(mn, "vfcvt.xu.f.v")) return ref_to_int(a, 0, rm, fl);
  if (is(mn, "vfcvt.x.f.v")) return ref_to_int(a, 1, rm, fl);
  if (is(mn, "vfcvt.rtz.xu.f.v")) return ref_to_int(a, 0, 1, fl);
  if (is(mn, "vfcvt.rtz.x.f.v")) return ref_to_int(a, 1, 1, fl);
  if (is(mn, "vfcvt.f.xu.v")) return ref_from_int(a, 0, rm, fl);
  if (is(mn, "vfcvt.f.x.v")) return ref_from_int(a, 1, rm, fl);
  if (is(mn, "vfmv.v.f") || is(mn, "vfmv.s.f")) return b;
  /* the fused forms: ±(b * m) ± add, negations exact on the sign bit */
  int mul_d = in_list(mn, mul_vd), np = mn[2] == 'n', na = in_list(mn, neg_add);
  uint64_t m = mul_d ? d : a, add = mul_d ? a : d;
  return host(5, b ^ (np ? S : 0), m, add ^ (na ? S : 0), rm, fl);
}

static const struct {
  const char *mn;
  int forms; /* 1 .vv, 2 .vf; 0 the others */
} ops[] = {
    {"vfadd", 3},   {"vfsub", 3},    {"vfmul", 3},      {"vfdiv", 3},       {"vfrsub", 2},   {"vfrdiv", 2},
    {"vfmin", 3},   {"vfmax", 3},    {"vfsgnj", 3},     {"vfsgnjn", 3},     {"vfsgnjx", 3},  {"vmfeq", 3},
    {"vmfne", 3},   {"vmflt", 3},    {"vmfle", 3},      {"vmfgt", 2},       {"vmfge", 2},    {"vfmacc", 3},
    {"vfnmacc", 3}, {"vfmsac", 3},   {"vfnmsac", 3},    {"vfmadd", 3},      {"vfnmadd", 3},  {"vfmsub", 3},
    {"vfnmsub", 3}, {"vfsqrt.v", 0}, {"vfclass.v", 0},  {"vfmerge.vfm", 0}, {"vfmv.v.f", 0}, {"vfmv.s.f", 0},
    {"vfcvt.xu.f.v", 0}, {"vfcvt.x.f.v", 0}, {"vfcvt.f.xu.v", 0}, {"vfcvt.f.x.v", 0}, {"vfcvt.rtz.xu.f.v", 0},
    {"vfcvt.rtz.x.f.v", 0},
};

static void test_fp64_ops(void **state) {
  (void)state;
  test_rng r = {0xf64f64ull};
  int directed = host_rounding_works();
  if (!directed) print_message("NOTE: the host ignores fesetround (valgrind?): round to nearest only\n");
  int flags_ok = host_flags_work(); /* valgrind: no host flags, fflags not checked */
  int fused = host_fma_works();
  if (!fused) print_message("NOTE: the host's fma is not fused (valgrind?): the fused forms left out\n");
  unsigned runs = 0;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    for (int f = 0; f < 2; f++) {
      const char *mn = ops[k].mn;
      if (ops[k].forms ? !(ops[k].forms & (1 << f)) : f != 0) continue;
      int unary = is(mn, "vfsqrt.v") || is(mn, "vfclass.v") || !strncmp(mn, "vfcvt", 5);
      int fma = in_list(mn, fmas), merge = is(mn, "vfmerge.vfm"), splat = !ops[k].forms && !unary && !merge;
      if (!fused && in_list(mn, fmas)) continue;
      for (unsigned rep = 0; rep < 8; rep++) {
        unsigned rm = directed ? rep % 4 : 0;
        int masked = rep >= 4 && (ops[k].forms || unary);
        uint32_t nt = masked ? 8 : 32, mask = masked ? test_rng32(&r) : ~0u, sel = test_rng32(&r);
        uint64_t a[32], b[32], d[32], s = rnd_d(&r);
        for (uint32_t i = 0; i < 32; i++) {
          a[i] = rnd_d(&r);
          b[i] = f == 1 || !ops[k].forms ? s : rnd_d(&r);
          d[i] = rnd_d(&r);
        }
        char line[160], src[1600], body[320];
        const char *sfx = f == 0 ? "vv" : "vf";
        if (merge) snprintf(line, sizeof line, "vfmerge.vfm v6, v2, a2, v0");
        else if (splat) snprintf(line, sizeof line, "%s v6, a2", mn);
        else if (unary) snprintf(line, sizeof line, "%s v6, v2%s", mn, masked ? ", v0.t" : "");
        else if (fma) snprintf(line, sizeof line, "%s.%s v6, %s, v2%s", mn, sfx, f ? "a2" : "v4", masked ? ", v0.t" : "");
        else snprintf(line, sizeof line, "%s.%s v6, v2, %s%s", mn, sfx, f ? "a2" : "v4", masked ? ", v0.t" : "");
        /* the scalar: the pair {a3, a2} */
        snprintf(body, sizeof body, "li a2, 0x%08x\nli a3, 0x%08x\ncsrwi frm, %u\ncsrwi fflags, 0\n%s\ncsrr a1, fflags",
                 (uint32_t)s, (uint32_t)(s >> 32), rm, line);
        vt_device *dv_ = ext_dev(2025);
        for (uint32_t i = 0; i < 32; i++) {
          wr_el(dv_, VA, 64, i, a[i]);
          wr_el(dv_, VB, 64, i, b[i]);
          wr_el(dv_, VOLD, 64, i, d[i]);
        }
        int cmp = mn[1] == 'm';
        vsew_prog(src, sizeof src, 64, 64, 64, 0, merge ? sel : mask, 64, cmp ? 32 : 64, body);
        char full[1800];
        snprintf(full, sizeof full, "li t6, 0x6000\ncsrs mstatus, t6\n%s", src);
        vt_error e = {0};
        if (ext_run(dv_, ISA_REV_2025, full, nt, &e)) fail_msg("%s: %s", line, e.msg);
        uint32_t fl = 0;
        for (uint32_t i = 0; i < nt; i++) {
          uint64_t want;
          if (merge) want = sel >> i & 1 ? s : a[i];
          else if (!(mask >> i & 1)) want = cmp ? (uint32_t)d[i] : d[i];
          else want = ref(mn, a[i], b[i], d[i], rm, &fl);
          uint64_t got = cmp ? rd32(dv_, VOUT + 4 * i) : rd_el(dv_, VOUT, 64, i);
          if (got != want)
            fail_msg("%s rm %u lane %u: 0x%016llx, expected 0x%016llx (a 0x%016llx b 0x%016llx d 0x%016llx)", line,
                     rm, i, (unsigned long long)got, (unsigned long long)want, (unsigned long long)a[i],
                     (unsigned long long)b[i], (unsigned long long)d[i]);
        }
        if (flags_ok && rd32(dv_, VXOUT) != fl) fail_msg("%s rm %u: fflags 0x%x, expected 0x%x", line, rm, rd32(dv_, VXOUT), fl);
        vt_device_destroy(dv_);
        runs++;
      }
    }
  print_message("%u programs\n", runs);
}

/* an odd pair faults: the elements and the .vf scalar */
static void test_fp64_pairs(void **state) {
  (void)state;
  static const char *const srcs[] = {"li t4, 4\nvsetvli x0, t4, e64, m1, ta, ma\nvfadd.vv v2, v3, v4\nendprg x0, x0, x0\n",
                                     "li t4, 4\nvsetvli x0, t4, e64, m1, ta, ma\nvfadd.vf v2, v4, a1\nendprg x0, x0, x0\n"};
  static const char *const msgs[] = {"v3 is odd", "x11 is odd"};
  for (int k = 0; k < 2; k++) {
    vt_device *d = ext_dev(2025);
    vt_error e = {0};
    assert_int_equal(ext_run(d, ISA_REV_2025, srcs[k], 4, &e), -1);
    if (!strstr(e.msg, msgs[k])) fail_msg("%s", e.msg);
    vt_device_destroy(d);
  }
}

/* vfmv.f.s at SEW 64: the last active lane's double in the pair {x[rd+1], x[rd]} (Zdinx) */
static void test_fmv_f_s(void **state) {
  (void)state;
  const char *src = "li s0, 0x90000000\nli t4, 4\nvsetvli x0, t4, e64, m1, ta, ma\n"
                    "li a0, 0x12345678\nli a1, 0xc0090000\nvmv.v.x v2, a0\n" /* a pair v2, v3 */
                    "vsetvli x0, t4, e32, m1, ta, ma\nvmv.v.x v3, a1\nvid.v v4\nvadd.vv v2, v2, v4\n"
                    "vsetvli x0, t4, e64, m1, ta, ma\nvfmv.f.s a2, v2\nsw a2, 0(s0)\nsw a3, 4(s0)\n"
                    "endprg x0, x0, x0\n";
  vt_device *d = vsew_run(src, 4, NULL, NULL);
  assert_int_equal(rd32(d, DATA_BASE), 0x1234567bu); /* lane 3 */
  assert_int_equal(rd32(d, DATA_BASE + 4), 0xc0090000u);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp64_ops),
      cmocka_unit_test(test_fmv_f_s),
      cmocka_unit_test(test_fp64_pairs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#else
int main(void) {
  printf("SKIP: no 128-bit integer type: binary64 RVV arithmetic is not built\n");
  return 0;
}
#endif
