/* ISA 2025 RVV floating point at SEW 16 (binary16; docs/isa-extensions.md
 * "Element widths"): every entry and form, masked and unmasked, in the
 * four rounding modes the host has, against the host's binary16 (f16_ref.h)
 * and plain C for min/max, compares, sign injection and classify; fflags
 * read back; round-to-max-magnitude by hand. */
#include "f16_ref.h"
#include "isaext_vsew.h"

/* a random binary16, one time in two an edge (0, subnormal, max, inf, NaNs) */
static uint16_t rnd_h(test_rng *r) {
  uint64_t v = test_rng64(r);
  if (v & 1) return (uint16_t)(v >> 16);
  static const uint16_t edge[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x0400, 0x7bff, 0xfbff, 0x7c00,
                                  0xfc00, 0x7e00, 0x7c01, 0xfd3f, 0x3c00, 0xbc00, 0x3555, 0x1000};
  return edge[(v >> 1) % 16];
}

static double hd(uint16_t v) { return (double)h_val(v); }

/* RISC-V fmin/fmax, -0 below +0 */
static uint32_t ref_minmax(uint16_t a, uint16_t b, int max, uint32_t *fl) {
  if (h_snan(a) || h_snan(b)) *fl |= FFLAG_NV;
  if (h_nan(a) && h_nan(b)) return 0x7e00;
  if (h_nan(a)) return b;
  if (h_nan(b)) return a;
  double x = hd(a), y = hd(b);
  int a_less = x < y || (x == y && (a & 0x8000) && !(b & 0x8000));
  return (a_less ^ max) ? a : b;
}
/* kind 0 eq (quiet), 1 lt, 2 le (signaling) */
static uint32_t ref_cmp(uint16_t a, uint16_t b, int kind, uint32_t *fl) {
  if (h_nan(a) || h_nan(b)) {
    if (kind || h_snan(a) || h_snan(b)) *fl |= FFLAG_NV;
    return 0;
  }
  double x = hd(a), y = hd(b);
  return kind == 0 ? x == y : kind == 1 ? x < y : x <= y;
}
static uint32_t ref_class(uint16_t a) {
  int neg = (a & 0x8000) != 0;
  if (h_nan(a)) return h_snan(a) ? 1u << 8 : 1u << 9;
  switch (fpclassify(hd(a))) {
  case FP_INFINITE: return neg ? 1u << 0 : 1u << 7;
  case FP_ZERO: return neg ? 1u << 3 : 1u << 4;
  default: return (a & 0x7c00) ? (neg ? 1u << 1 : 1u << 6) : (neg ? 1u << 2 : 1u << 5);
  }
}

enum { VV = 1, VF = 2 };
static const struct {
  const char *mn;
  int forms;
} ops[] = {
    {"vfadd", 3},   {"vfsub", 3},   {"vfmul", 3},   {"vfdiv", 3},    {"vfrsub", 2},   {"vfrdiv", 2},
    {"vfmin", 3},   {"vfmax", 3},   {"vfsgnj", 3},  {"vfsgnjn", 3},  {"vfsgnjx", 3},  {"vmfeq", 3},
    {"vmfne", 3},   {"vmflt", 3},   {"vmfle", 3},   {"vmfgt", 2},    {"vmfge", 2},    {"vfmacc", 3},
    {"vfnmacc", 3}, {"vfmsac", 3},  {"vfnmsac", 3}, {"vfmadd", 3},   {"vfnmadd", 3},  {"vfmsub", 3},
    {"vfnmsub", 3}, {"vfsqrt.v", 0}, {"vfclass.v", 0}, {"vfmerge.vfm", 0}, {"vfmv.v.f", 0}, {"vfmv.s.f", 0},
    {"vfcvt.xu.f.v", 0}, {"vfcvt.x.f.v", 0}, {"vfcvt.f.xu.v", 0}, {"vfcvt.f.x.v", 0}, {"vfcvt.rtz.xu.f.v", 0},
    {"vfcvt.rtz.x.f.v", 0},
};

/* binary16 to a 16-bit integer as the host rounds (nearbyint of the exact double), saturating */
static uint32_t ref_to_int(uint16_t a, int sgn, unsigned rm, uint32_t *fl) {
  if (h_nan(a)) {
    *fl |= FFLAG_NV;
    return sgn ? 0x7fff : 0xffff;
  }
  double d = hd(a), lo = sgn ? -32768.0 : 0.0, hi = sgn ? 32767.0 : 65535.0;
  fesetround(f16_host_mode[rm]);
  double ri = nearbyint(d);
  fesetround(FE_TONEAREST);
  if (ri < lo || ri > hi) {
    *fl |= FFLAG_NV;
    return ri < lo ? (sgn ? 0x8000u : 0) : (sgn ? 0x7fffu : 0xffffu);
  }
  if (ri != d) *fl |= FFLAG_NX;
  return (uint32_t)(int32_t)ri & 0xffffu;
}
/* a 16-bit integer to binary16: its exact double through _Float16 in the mode */
static uint32_t ref_from_int(uint16_t v, int sgn, unsigned rm, uint32_t *fl) {
  double d = sgn ? (double)(int16_t)v : (double)v;
  fesetround(f16_host_mode[rm]);
  feclearexcept(FE_ALL_EXCEPT);
  volatile _Float16 h = (_Float16)d;
  int ex = fetestexcept(FE_INEXACT | FE_OVERFLOW);
  fesetround(FE_TONEAREST);
  *fl |= (ex & FE_INEXACT ? FFLAG_NX : 0) | (ex & FE_OVERFLOW ? FFLAG_OF : 0);
  return h_bits(h);
}

static int is(const char *mn, const char *s) { return !strcmp(mn, s); }
static int in_list(const char *mn, const char *const *l) {
  for (; *l; l++)
    if (!strcmp(mn, *l)) return 1;
  return 0;
}
static const char *const fmas[] = {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac", "vfmadd", "vfnmadd", "vfmsub", "vfnmsub", NULL};
static const char *const mul_vd[] = {"vfmadd", "vfnmadd", "vfmsub", "vfnmsub", NULL}; /* b * vd, + vs2 */
static const char *const neg_add[] = {"vfnmacc", "vfmsac", "vfnmadd", "vfmsub", NULL};
static int is_fma(const char *mn) { return in_list(mn, fmas); }

/* lane reference: a = vs2, b = vs1 or the scalar, d = vd */
static uint32_t ref(const char *mn, uint16_t a, uint16_t b, uint16_t d, unsigned rm, uint32_t *fl) {
  uint32_t f = 0, v;
  if (is(mn, "vfadd")) v = host_f16(0, a, b, 0, rm, &f);
  else if (is(mn, "vfsub")) v = host_f16(1, a, b, 0, rm, &f);
  else if (is(mn, "vfrsub")) v = host_f16(1, b, a, 0, rm, &f);
  else if (is(mn, "vfmul")) v = host_f16(2, a, b, 0, rm, &f);
  else if (is(mn, "vfdiv")) v = host_f16(3, a, b, 0, rm, &f);
  else if (is(mn, "vfrdiv")) v = host_f16(3, b, a, 0, rm, &f);
  else if (is(mn, "vfsqrt.v")) v = host_f16(4, a, 0, 0, rm, &f);
  else if (is(mn, "vfmin")) v = ref_minmax(a, b, 0, &f);
  else if (is(mn, "vfmax")) v = ref_minmax(a, b, 1, &f);
  else if (is(mn, "vfsgnj")) v = (a & 0x7fffu) | (b & 0x8000u);
  else if (is(mn, "vfsgnjn")) v = (a & 0x7fffu) | (~b & 0x8000u);
  else if (is(mn, "vfsgnjx")) v = a ^ (b & 0x8000u);
  else if (is(mn, "vmfeq")) v = ref_cmp(a, b, 0, &f);
  else if (is(mn, "vmfne")) v = !ref_cmp(a, b, 0, &f);
  else if (is(mn, "vmflt")) v = ref_cmp(a, b, 1, &f);
  else if (is(mn, "vmfle")) v = ref_cmp(a, b, 2, &f);
  else if (is(mn, "vmfgt")) v = ref_cmp(b, a, 1, &f);
  else if (is(mn, "vmfge")) v = ref_cmp(b, a, 2, &f);
  else if (is(mn, "vfclass.v")) v = ref_class(a);
  else if (is(mn, "vfcvt.xu.f.v")) v = ref_to_int(a, 0, rm, &f);
  else if (is(mn, "vfcvt.x.f.v")) v = ref_to_int(a, 1, rm, &f);
  else if (is(mn, "vfcvt.rtz.xu.f.v")) v = ref_to_int(a, 0, 1, &f);
  else if (is(mn, "vfcvt.rtz.x.f.v")) v = ref_to_int(a, 1, 1, &f);
  else if (is(mn, "vfcvt.f.xu.v")) v = ref_from_int(a, 0, rm, &f);
  else if (is(mn, "vfcvt.f.x.v")) v = ref_from_int(a, 1, rm, &f);
  else if (is(mn, "vfmv.v.f") || is(mn, "vfmv.s.f")) v = b;
  else { /* the fused forms: ±(b * m) ± add, negations exact on the sign bit */
    int mul_d = in_list(mn, mul_vd), np = mn[2] == 'n', na = in_list(mn, neg_add);
    uint16_t m = mul_d ? d : a, add = mul_d ? a : d;
    v = host_f16(5, (uint16_t)(b ^ (np ? 0x8000 : 0)), m, (uint16_t)(add ^ (na ? 0x8000 : 0)), rm, &f);
  }
  *fl |= f;
  return v;
}

/* fma lanes whose double result is exact, and no inf * 0 + NaN (hosts differ on its flag) */
static int fma_ok(const char *mn, uint16_t a, uint16_t b, uint16_t d) {
  int mul_d = in_list(mn, mul_vd);
  uint16_t m = mul_d ? d : a, add = mul_d ? a : d;
  int inf0 = ((b & 0x7fff) == 0x7c00 && !(m & 0x7fff)) || ((m & 0x7fff) == 0x7c00 && !(b & 0x7fff));
  return f16_fma_exact(b, m, add) && !(inf0 && h_nan(add));
}

static void test_fp16_ops(void **state) {
  (void)state;
  test_rng r = {0xf16f16ull};
  int directed = host_rounding_works();
  if (!directed) print_message("NOTE: the host ignores fesetround (valgrind?): round to nearest only\n");
  int flags_ok = host_flags_work(); /* valgrind: no host flags, fflags not checked */
  int fused = host_fma_works();
  if (!fused) print_message("NOTE: the host's fma is not fused (valgrind?): the fused forms left out\n");
  unsigned runs = 0;
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
    for (int f = 0; f < 3; f++) {
      const char *mn = ops[k].mn;
      if (ops[k].forms ? !(ops[k].forms & (1 << f)) || f == 2 : f != 0) continue;
      if (!fused && is_fma(mn)) continue;
      for (unsigned rep = 0; rep < 8; rep++) {
        unsigned rm = directed ? rep % 4 : 0;
        int masked = rep >= 4;
        uint32_t nt = masked ? 8 : 32, mask = masked ? test_rng32(&r) : ~0u, sel = test_rng32(&r);
        uint16_t a[32], b[32], d[32], s = rnd_h(&r);
        for (uint32_t i = 0; i < 32; i++)
          do {
            a[i] = rnd_h(&r);
            b[i] = f == 1 || !ops[k].forms ? s : rnd_h(&r);
            d[i] = rnd_h(&r);
          } while (is_fma(mn) && !fma_ok(mn, a[i], b[i], d[i]));
        char line[160], src[1400];
        int unary = is(mn, "vfsqrt.v") || is(mn, "vfclass.v") || !strncmp(mn, "vfcvt", 5);
        const char *sfx = f == 0 ? "vv" : "vf";
        int fma = is_fma(mn);
        if (!ops[k].forms) {
          if (is(mn, "vfmerge.vfm")) snprintf(line, sizeof line, "vfmerge.vfm v6, v2, a0, v0");
          else if (!unary) snprintf(line, sizeof line, "%s v6, a0", mn);
          else snprintf(line, sizeof line, "%s v6, v2%s", mn, masked ? ", v0.t" : "");
        } else if (fma) {
          snprintf(line, sizeof line, "%s.%s v6, %s, v2%s", mn, sfx, f ? "a0" : "v4", masked ? ", v0.t" : "");
        } else {
          snprintf(line, sizeof line, "%s.%s v6, v2, %s%s", mn, sfx, f ? "a0" : "v4", masked ? ", v0.t" : "");
        }
        if (!ops[k].forms && masked && !unary) continue;
        char body[240];
        snprintf(body, sizeof body, "csrwi frm, %u\ncsrwi fflags, 0\n%s\ncsrr a1, fflags", rm, line);
        vt_device *dv = ext_dev(2025);
        for (uint32_t i = 0; i < 32; i++) {
          wr_el(dv, VA, 16, i, a[i]);
          wr_el(dv, VB, 16, i, b[i]);
          wr32(dv, VOLD + 4 * i, 0xabcd0000u | d[i]);
        }
        /* the scalar's upper half is not part of it */
        uint32_t scalar = 0x5a5a0000u | s;
        uint32_t m_ = is(mn, "vfmerge.vfm") ? sel : mask;
        vsew_prog(src, sizeof src, 16, 16, 16, scalar, m_, 32, 32, body);
        /* mstatus.FS on for the fp CSRs */
        char full[1600];
        snprintf(full, sizeof full, "li t6, 0x6000\ncsrs mstatus, t6\n%s", src);
        vt_error e = {0};
        if (ext_run(dv, ISA_REV_2025, full, nt, &e)) fail_msg("%s: %s", line, e.msg);
        uint32_t fl = 0;
        for (uint32_t i = 0; i < nt; i++) {
          int on = is(mn, "vfmerge.vfm") || (mask >> i & 1) || (!masked);
          uint32_t want;
          if (is(mn, "vfmerge.vfm")) want = sel >> i & 1 ? s : a[i];
          else if (!on) want = 0xabcd0000u | d[i];
          else want = ref(mn, a[i], b[i], d[i], rm, &fl);
          uint32_t got = rd32(dv, VOUT + 4 * i);
          if (got != want)
            fail_msg("%s rm %u lane %u: 0x%08x, expected 0x%08x (a 0x%04x b 0x%04x d 0x%04x)", line, rm, i, got,
                     want, a[i], b[i], d[i]);
        }
        if (flags_ok && rd32(dv, VXOUT) != fl) fail_msg("%s rm %u: fflags 0x%x, expected 0x%x", line, rm, rd32(dv, VXOUT), fl);
        vt_device_destroy(dv);
        runs++;
      }
    }
  print_message("%u programs\n", runs);
}

/* round to max magnitude (frm 4) by hand: 1 + 2^-11 is a tie */
static void test_rmm(void **state) {
  (void)state;
  const char *src = "li t6, 0x6000\ncsrs mstatus, t6\nli s0, 0x90000000\nli t4, 4\n"
                    "vsetvli x0, t4, e16, m1, ta, ma\n"
                    "li a0, 0x3c00\nvmv.v.x v1, a0\nli a0, 0x1000\nvmv.v.x v2, a0\n"
                    "csrwi frm, 4\nvfadd.vv v3, v1, v2\nvse16.v v3, (s0)\n"
                    "csrwi frm, 0\nvfadd.vv v3, v1, v2\naddi s1, s0, 8\nvse16.v v3, (s1)\n"
                    "li a0, 0xbc00\nvmv.v.x v1, a0\nli a0, 0x9000\nvmv.v.x v2, a0\n"
                    "csrwi frm, 4\nvfadd.vv v3, v1, v2\naddi s1, s0, 16\nvse16.v v3, (s1)\n"
                    "csrr a1, fflags\nsw a1, 24(s0)\nendprg x0, x0, x0\n";
  vt_device *d = vsew_run(src, 4, NULL, NULL);
  assert_int_equal(rd32(d, DATA_BASE) & 0xffff, 0x3c01);     /* away from zero */
  assert_int_equal(rd32(d, DATA_BASE + 8) & 0xffff, 0x3c00); /* to even */
  assert_int_equal(rd32(d, DATA_BASE + 16) & 0xffff, 0xbc01);
  assert_int_equal(rd32(d, DATA_BASE + 24), FFLAG_NX);
  vt_device_destroy(d);
}

/* vfmv.f.s at SEW 16: the last active lane's half, sign-extended in x[rd] (Zhinx) */
static void test_fmv_f_s(void **state) {
  (void)state;
  const char *src = "li s0, 0x90000000\nli t4, 4\nvsetvli x0, t4, e16, m1, ta, ma\n"
                    "vid.v v1\nli a0, 0xbc00\nvadd.vx v2, v1, a0\n" /* lanes 0xbc00..0xbc03 */
                    "vfmv.f.s a1, v2\nsw a1, 0(s0)\n"
                    "li a0, 0x3c00\nvmv.v.x v3, a0\nvfmv.f.s a2, v3\nsw a2, 4(s0)\nendprg x0, x0, x0\n";
  vt_device *d = vsew_run(src, 4, NULL, NULL);
  assert_int_equal(rd32(d, DATA_BASE), 0xffffbc03u);
  assert_int_equal(rd32(d, DATA_BASE + 4), 0x3c00u);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fp16_ops),
      cmocka_unit_test(test_rmm),
      cmocka_unit_test(test_fmv_f_s),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
