/* ISA 2025 widening float arithmetic (vfwadd, vfwsub .vv .vf .wv .wf,
 * vfwmul, vfwmacc, vfwnmacc, vfwmsac, vfwnmsac; docs/isa-extensions.md) at
 * SEW 16 (into binary32) and SEW 32 (into binary64 pairs), masked and
 * unmasked, in the four rounding modes the host has, against the host's
 * float and double arithmetic (fmaf, fma) on the exactly widened operands
 * under fesetround, flags from fetestexcept; fflags read back. */
#include <fenv.h>
#include <math.h>

#include "f16_ref.h"
#include "isaext_vsew.h"

#if defined(__SIZEOF_INT128__)

static uint32_t flags_now(void) {
  int ex = fetestexcept(FE_ALL_EXCEPT);
  return (ex & FE_INEXACT ? FFLAG_NX : 0) | (ex & FE_UNDERFLOW ? FFLAG_UF : 0) | (ex & FE_OVERFLOW ? FFLAG_OF : 0) |
         (ex & FE_DIVBYZERO ? FFLAG_DZ : 0) | (ex & FE_INVALID ? FFLAG_NV : 0);
}
static float fbits(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static uint32_t bitsf(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static double dbits(uint64_t u) {
  double d;
  memcpy(&d, &u, 8);
  return d;
}
static uint64_t bitsd(double d) {
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}
static int snan32(uint32_t v) { return (v & 0x7fc00000u) == 0x7f800000u && (v & 0x3fffffu); }

/* a narrow operand (SEW 16 or 32) as the wide type, exactly; NV for a signaling NaN */
static double widen(uint64_t v, unsigned sew, uint32_t *fl) {
  if (sew == 16) {
    if (h_snan((uint16_t)v)) *fl |= FFLAG_NV;
    return (double)h_val((uint16_t)v);
  }
  if (snan32((uint32_t)v)) *fl |= FFLAG_NV;
  return (double)fbits((uint32_t)v);
}

enum { O_ADD, O_SUB, O_MUL, O_MACC, O_NMACC, O_MSAC, O_NMSAC };
static const struct {
  const char *mn;
  int op, wide2, vec1;
} ents[] = {
    {"vfwadd.vv", O_ADD, 0, 1},   {"vfwadd.vf", O_ADD, 0, 0},   {"vfwadd.wv", O_ADD, 1, 1},
    {"vfwadd.wf", O_ADD, 1, 0},   {"vfwsub.vv", O_SUB, 0, 1},   {"vfwsub.vf", O_SUB, 0, 0},
    {"vfwsub.wv", O_SUB, 1, 1},   {"vfwsub.wf", O_SUB, 1, 0},   {"vfwmul.vv", O_MUL, 0, 1},
    {"vfwmul.vf", O_MUL, 0, 0},   {"vfwmacc.vv", O_MACC, 0, 1}, {"vfwmacc.vf", O_MACC, 0, 0},
    {"vfwnmacc.vv", O_NMACC, 0, 1}, {"vfwnmacc.vf", O_NMACC, 0, 0}, {"vfwmsac.vv", O_MSAC, 0, 1},
    {"vfwmsac.vf", O_MSAC, 0, 0}, {"vfwnmsac.vv", O_NMSAC, 0, 1}, {"vfwnmsac.vf", O_NMSAC, 0, 0},
};

/* a = vs2 (wide when wide2), b = vs1 or the scalar (narrow), d = vd (wide) */
static uint64_t ref(int op, uint64_t a, uint64_t b, uint64_t d, int wide2, unsigned sew, unsigned rm, uint32_t *fl) {
  int mode = f16_host_mode[rm];
  uint32_t f = 0;
  if (sew == 16) {
    float x = wide2 ? fbits((uint32_t)a) : (float)widen(a, 16, &f), y = (float)widen(b, 16, &f), z = fbits((uint32_t)d);
    if (op >= O_MACC && isnan(z) && ((isinf(x) && y == 0) || (x == 0 && isinf(y)))) f |= FFLAG_NV;
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    volatile float res;
    switch (op) {
    case O_ADD: res = x + y; break;
    case O_SUB: res = x - y; break;
    case O_MUL: res = x * y; break;
    case O_MACC: res = fmaf(y, x, z); break;
    case O_NMACC: res = fmaf(-y, x, -z); break;
    case O_MSAC: res = fmaf(y, x, -z); break;
    default: res = fmaf(-y, x, z); break;
    }
    f |= flags_now();
    fesetround(FE_TONEAREST);
    *fl |= f;
    return isnan(res) ? 0x7fc00000u : bitsf(res);
  }
  double x = wide2 ? dbits(a) : widen(a, 32, &f), y = widen(b, 32, &f), z = dbits(d);
  if (op >= O_MACC && isnan(z) && ((isinf(x) && y == 0) || (x == 0 && isinf(y)))) f |= FFLAG_NV;
  fesetround(mode);
  feclearexcept(FE_ALL_EXCEPT);
  volatile double res;
  switch (op) {
  case O_ADD: res = x + y; break;
  case O_SUB: res = x - y; break;
  case O_MUL: res = x * y; break;
  case O_MACC: res = fma(y, x, z); break;
  case O_NMACC: res = fma(-y, x, -z); break;
  case O_MSAC: res = fma(y, x, -z); break;
  default: res = fma(-y, x, z); break;
  }
  f |= flags_now();
  fesetround(FE_TONEAREST);
  *fl |= f;
  return isnan(res) ? 0x7ff8000000000000ull : bitsd(res);
}

/* random bits of w, one time in two an edge: zeros, subnormals, extremes, NaNs, 1 */
static uint64_t rnd_w(test_rng *r, unsigned w) {
  uint64_t v = test_rng64(r);
  if (v & 1) return zx(test_rng64(r), w);
  static const uint64_t e16[] = {0, 0x8000, 1, 0x3ff, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0x3c00, 0x0400, 0xbc01};
  static const uint64_t e32[] = {0, 0x80000000u, 1, 0x7fffff, 0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
                                 0x7f800001, 0x3f800000, 0x00800000, 0xbf800001};
  static const uint64_t e64[] = {0, 0x8000000000000000ull, 1, 0x000fffffffffffffull, 0x7fefffffffffffffull,
                                 0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                                 0x7ff0000000000001ull, 0x3ff0000000000000ull, 0x0010000000000000ull,
                                 0xbff0000000000001ull};
  unsigned k = (unsigned)(v >> 1) % 12;
  return w == 16 ? e16[k] : w == 32 ? e32[k] : e64[k];
}

static void test_widening_fp(void **state) {
  (void)state;
  test_rng r = {0xfa1dull};
  int directed = host_rounding_works();
  if (!directed) print_message("NOTE: the host ignores fesetround (valgrind?): round to nearest only\n");
  int flags_ok = host_flags_work(); /* valgrind: no host flags, fflags not checked */
  int fused = host_fma_works();
  if (!fused) print_message("NOTE: the host's fma is not fused (valgrind?): the fused forms left out\n");
  unsigned runs = 0;
  for (unsigned sew = 16; sew <= 32; sew *= 2)
    for (size_t k = 0; k < sizeof ents / sizeof ents[0]; k++)
      for (unsigned rep = 0; rep < 8 && (fused || ents[k].op < O_MACC); rep++) {
        unsigned dw = 2 * sew, rm = directed ? rep % 4 : 0, w2 = ents[k].wide2 ? dw : sew;
        int masked = rep >= 4, acc = ents[k].op >= O_MACC;
        uint32_t nt = masked ? 8 : 32, mask = masked ? test_rng32(&r) : ~0u;
        uint64_t a[32], b[32], d[32], s = rnd_w(&r, sew);
        vt_device *dv = ext_dev(2025);
        for (uint32_t i = 0; i < 32; i++) {
          a[i] = rnd_w(&r, w2);
          b[i] = ents[k].vec1 ? rnd_w(&r, sew) : s;
          d[i] = rnd_w(&r, dw);
          wr_el(dv, VA, w2, i, a[i]);
          wr_el(dv, VB, sew, i, b[i]);
          wr_el(dv, VOLD, dw, i, d[i]);
        }
        char line[96], body[240], src[1400], full[1600];
        const char *other = ents[k].vec1 ? "v4" : "fa2";
        if (acc) snprintf(line, sizeof line, "%s v6, %s, v2%s", ents[k].mn, other, masked ? ", v0.t" : "");
        else snprintf(line, sizeof line, "%s v6, v2, %s%s", ents[k].mn, other, masked ? ", v0.t" : "");
        /* the scalar in a2 (fa2 is its name here), its upper bits not part of it at SEW 16 */
        snprintf(body, sizeof body, "li a2, 0x%08x\ncsrwi frm, %u\ncsrwi fflags, 0\n%s\ncsrr a1, fflags",
                 (uint32_t)s | (sew == 16 ? 0xa5a50000u : 0), rm, line);
        vsew_prog(src, sizeof src, sew, w2, sew, 0, mask, dw, dw, body);
        snprintf(full, sizeof full, "li t6, 0x6000\ncsrs mstatus, t6\n%s", src);
        vt_error e = {0};
        if (ext_run(dv, ISA_REV_2025, full, nt, &e)) fail_msg("%s e%u: %s", line, sew, e.msg);
        uint32_t fl = 0;
        for (uint32_t i = 0; i < nt; i++) {
          uint64_t want = mask >> i & 1 ? ref(ents[k].op, a[i], b[i], d[i], ents[k].wide2, sew, rm, &fl) : d[i];
          uint64_t got = rd_el(dv, VOUT, dw, i);
          if (got != want)
            fail_msg("%s e%u rm %u lane %u: 0x%llx, expected 0x%llx (a 0x%llx b 0x%llx d 0x%llx)", line, sew, rm, i,
                     (unsigned long long)got, (unsigned long long)want, (unsigned long long)a[i],
                     (unsigned long long)b[i], (unsigned long long)d[i]);
        }
        if (flags_ok && rd32(dv, VXOUT) != fl) fail_msg("%s e%u rm %u: fflags 0x%x, expected 0x%x", line, sew, rm, rd32(dv, VXOUT), fl);
        vt_device_destroy(dv);
        runs++;
      }
  print_message("%u programs\n", runs);
  /* SEW 8 (no 8-bit float) and 64 (no 128-bit one) are illegal */
  static const char *const bad[] = {"e8", "e64"};
  for (int k = 0; k < 2; k++) {
    char src[160];
    snprintf(src, sizeof src, "li t4, 4\nvsetvli x0, t4, %s, m1, ta, ma\nvfwadd.vv v6, v2, v4\nendprg x0, x0, x0\n",
             bad[k]);
    vt_device *d = ext_dev(2025);
    vt_error e = {0};
    assert_int_equal(ext_run(d, ISA_REV_2025, src, 4, &e), -1);
    if (!strstr(e.msg, "needs SEW 16 or 32")) fail_msg("%s", e.msg);
    vt_device_destroy(d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_widening_fp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#else
int main(void) {
  printf("SKIP: no 128-bit integer type: the widening RVV float arithmetic is not built\n");
  return 0;
}
#endif
