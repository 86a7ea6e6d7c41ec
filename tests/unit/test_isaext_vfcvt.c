/* ISA 2025 widening and narrowing float conversions (vfwcvt, vfncvt;
 * docs/isa-extensions.md): every entry at SEW 8, 16 and 32 where its
 * formats exist, masked and unmasked, in the four rounding modes the host
 * has, against the host's conversions (the compiler's _Float16, float and
 * double casts and nearbyint under fesetround, flags from fetestexcept);
 * round to odd as the host's truncation with the low bit set when inexact;
 * the forms that would need an 8-bit float are illegal instructions. */
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

/* a float of w bits: NaN, signaling NaN, value as a double (exact) */
static int fnan(uint64_t v, unsigned w) {
  return w == 16 ? h_nan((uint16_t)v) : w == 32 ? ((v & 0x7f800000u) == 0x7f800000u && (v & 0x7fffffu))
                                                 : ((v >> 52 & 0x7ff) == 0x7ff && (v << 12));
}
static int fsnan(uint64_t v, unsigned w) {
  return fnan(v, w) && !(w == 16 ? v >> 9 & 1 : w == 32 ? v >> 22 & 1 : v >> 51 & 1);
}
static double fval(uint64_t v, unsigned w) {
  if (w == 16) return (double)h_val((uint16_t)v);
  if (w == 32) {
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, 4);
    return f;
  }
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static uint64_t cnan(unsigned w) { return w == 16 ? 0x7e00 : w == 32 ? 0x7fc00000u : 0x7ff8000000000000ull; }

/* the host's conversion of the exact double d (or, from 64-bit integers, of
 * the integer itself) to a float of w bits in the current mode */
static uint64_t to_fw(double d, unsigned w) {
  if (w == 16) return h_bits((_Float16)d);
  if (w == 32) {
    volatile float f = (float)d;
    uint32_t u;
    memcpy(&u, (const void *)&f, 4);
    return u;
  }
  uint64_t u;
  memcpy(&u, &d, 8);
  return u;
}

enum { K_F2U, K_F2I, K_U2F, K_I2F, K_F2F, K_F2U_RTZ, K_F2I_RTZ, K_F2F_ROD };
static const struct {
  const char *mn;
  int widen, kind;
} ents[] = {
    {"vfwcvt.xu.f.v", 1, K_F2U},     {"vfwcvt.x.f.v", 1, K_F2I},     {"vfwcvt.f.xu.v", 1, K_U2F},
    {"vfwcvt.f.x.v", 1, K_I2F},      {"vfwcvt.f.f.v", 1, K_F2F},     {"vfwcvt.rtz.xu.f.v", 1, K_F2U_RTZ},
    {"vfwcvt.rtz.x.f.v", 1, K_F2I_RTZ}, {"vfncvt.xu.f.w", 0, K_F2U}, {"vfncvt.x.f.w", 0, K_F2I},
    {"vfncvt.f.xu.w", 0, K_U2F},     {"vfncvt.f.x.w", 0, K_I2F},     {"vfncvt.f.f.w", 0, K_F2F},
    {"vfncvt.rod.f.f.w", 0, K_F2F_ROD}, {"vfncvt.rtz.xu.f.w", 0, K_F2U_RTZ}, {"vfncvt.rtz.x.f.w", 0, K_F2I_RTZ},
};

static uint64_t ref(int kind, uint64_t a, unsigned sw, unsigned dw, unsigned rm, uint32_t *fl) {
  int from_float = kind != K_U2F && kind != K_I2F;
  if (from_float && fnan(a, sw)) {
    *fl |= kind == K_F2F || kind == K_F2F_ROD ? (fsnan(a, sw) ? FFLAG_NV : 0) : FFLAG_NV;
    if (kind == K_F2F || kind == K_F2F_ROD) return cnan(dw);
    int sgn = kind == K_F2I || kind == K_F2I_RTZ;
    return zx(sgn ? (1ull << (dw - 1)) - 1 : ~0ull, dw);
  }
  int mode = f16_host_mode[kind == K_F2U_RTZ || kind == K_F2I_RTZ || kind == K_F2F_ROD ? 1 : rm];
  uint64_t out;
  if (kind == K_F2F || kind == K_F2F_ROD) {
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    out = to_fw(fval(a, sw), dw);
    uint32_t f = flags_now();
    fesetround(FE_TONEAREST);
    /* round to odd: the truncation, lowest bit set when inexact (the value
     * back in double differs; an infinity stays) */
    if (kind == K_F2F_ROD && !fnan(out, dw) && fval(out, dw) != fval(a, sw) &&
        ((out << 1) >> (dw == 64 ? 53 : dw == 32 ? 24 : 11)) != (dw == 64 ? 0x7ffull : dw == 32 ? 0xffull : 0x1full))
      out |= 1;
    *fl |= f;
    return out;
  }
  if (kind == K_U2F || kind == K_I2F) {
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    if (sw == 64) { /* only into binary32: the host converts the integer itself */
      volatile float f = kind == K_I2F ? (float)(int64_t)a : (float)a;
      uint32_t u;
      memcpy(&u, (const void *)&f, 4);
      out = u;
    } else {
      out = to_fw(kind == K_I2F ? (double)sx(a, sw) : (double)zx(a, sw), dw);
    }
    *fl |= flags_now();
    fesetround(FE_TONEAREST);
    return out;
  }
  /* to an integer of dw bits */
  int sgn = kind == K_F2I || kind == K_F2I_RTZ;
  double d = fval(a, sw);
  fesetround(mode);
  double ri = nearbyint(d);
  fesetround(FE_TONEAREST);
  double lo = sgn ? -ldexp(1, (int)dw - 1) : 0.0, hi = sgn ? ldexp(1, (int)dw - 1) : ldexp(1, (int)dw);
  if (ri < lo || ri >= hi) {
    *fl |= FFLAG_NV;
    return zx(ri < lo ? (sgn ? 1ull << (dw - 1) : 0) : (sgn ? (1ull << (dw - 1)) - 1 : ~0ull), dw);
  }
  if (ri != d) *fl |= FFLAG_NX;
  return zx(sgn ? (uint64_t)(int64_t)ri : (uint64_t)ri, dw);
}

static uint64_t rnd_src(test_rng *r, int from_float, unsigned w) {
  uint64_t v = test_rng64(r);
  if (!from_float) return zx(v >> (test_rng32(r) % 64), w);
  if (v & 1) return zx(test_rng64(r), w);
  /* around 1, the integer limits, the format's extremes, NaNs */
  static const double vals[] = {1.0, -1.0, 0.5, 2.5, -2.5, 127.5, -128.5, 255.5, 32767.5, 65535.4, -32768.6,
                                2147483647.5, 4294967295.5, 1e-8, 1e300, -0.0, 3.4028235e38, 65504.0, 6.1e-5, 1e-40};
  double d = vals[(v >> 1) % 20] * (v >> 8 & 1 ? 1 : 1.0000001);
  if ((v >> 9 & 15) == 0) return w == 16 ? 0x7d00 : w == 32 ? 0x7f800001u : 0x7ff0000000000001ull; /* sNaN */
  if ((v >> 9 & 15) == 1) return cnan(w) | 1;
  return to_fw(d, w);
}

static void test_conversions(void **state) {
  (void)state;
  test_rng r = {0xc0c0ull};
  int directed = host_rounding_works();
  if (!directed) print_message("NOTE: the host ignores fesetround (valgrind?): round to nearest only\n");
  int flags_ok = host_flags_work(); /* valgrind: no host flags, fflags not checked */
  unsigned runs = 0, illegal = 0;
  for (unsigned sew = 8; sew <= 32; sew *= 2)
    for (size_t k = 0; k < sizeof ents / sizeof ents[0]; k++) {
      unsigned sw = ents[k].widen ? sew : 2 * sew, dw = ents[k].widen ? 2 * sew : sew;
      int kind = ents[k].kind, from_float = kind != K_U2F && kind != K_I2F;
      int to_float = kind == K_U2F || kind == K_I2F || kind == K_F2F || kind == K_F2F_ROD;
      char line[96], src[1400], body[200];
      if ((from_float && sw == 8) || (to_float && dw == 8)) { /* no 8-bit float */
        snprintf(src, sizeof src, "li t4, 4\nvsetvli x0, t4, e%u, m1, ta, ma\n%s v6, v2\nendprg x0, x0, x0\n", sew,
                 ents[k].mn);
        vt_device *d = ext_dev(2025);
        vt_error e = {0};
        assert_int_equal(ext_run(d, ISA_REV_2025, src, 4, &e), -1);
        if (!strstr(e.msg, "no 8-bit float")) fail_msg("%s: %s", ents[k].mn, e.msg);
        vt_device_destroy(d);
        illegal++;
        continue;
      }
      for (unsigned rep = 0; rep < 8; rep++) {
        unsigned rm = directed ? rep % 4 : 0;
        int masked = rep >= 4;
        uint32_t nt = masked ? 8 : 32, mask = masked ? test_rng32(&r) : ~0u;
        uint64_t a[32], old[32];
        vt_device *d = ext_dev(2025);
        for (uint32_t i = 0; i < 32; i++) {
          a[i] = rnd_src(&r, from_float, sw);
          old[i] = zx(test_rng64(&r), dw);
          wr_el(d, VA, sw, i, a[i]);
          wr_el(d, VOLD, dw, i, old[i]);
        }
        snprintf(line, sizeof line, "%s v6, v2%s", ents[k].mn, masked ? ", v0.t" : "");
        snprintf(body, sizeof body, "csrwi frm, %u\ncsrwi fflags, 0\n%s\ncsrr a1, fflags", rm, line);
        vsew_prog(src, sizeof src, sew, sw, sw, 0, mask, dw, dw, body);
        char full[1600];
        snprintf(full, sizeof full, "li t6, 0x6000\ncsrs mstatus, t6\n%s", src);
        vt_error e = {0};
        if (ext_run(d, ISA_REV_2025, full, nt, &e)) fail_msg("%s e%u: %s", line, sew, e.msg);
        uint32_t fl = 0;
        for (uint32_t i = 0; i < nt; i++) {
          uint64_t want = mask >> i & 1 ? ref(kind, a[i], sw, dw, rm, &fl) : old[i];
          uint64_t got = rd_el(d, VOUT, dw, i);
          if (got != want)
            fail_msg("%s e%u rm %u lane %u: 0x%llx, expected 0x%llx (source 0x%llx)", line, sew, rm, i,
                     (unsigned long long)got, (unsigned long long)want, (unsigned long long)a[i]);
        }
        if (flags_ok && rd32(d, VXOUT) != fl) fail_msg("%s e%u rm %u: fflags 0x%x, expected 0x%x", line, sew, rm, rd32(d, VXOUT), fl);
        vt_device_destroy(d);
        runs++;
      }
    }
  print_message("%u programs, %u illegal forms\n", runs, illegal);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_conversions),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}

#else
int main(void) {
  printf("SKIP: no 128-bit integer type: the RVV float conversions are not built\n");
  return 0;
}
#endif
