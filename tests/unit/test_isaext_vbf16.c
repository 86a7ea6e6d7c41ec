/* ISA 2025 bfloat16 at SEW 16 under vtype.altfmt (bit 8, as RVV's Zvfbfa;
 * docs/isa-extensions.md): vsetvl accepts altfmt only with SEW 16 (and
 * only in revision 2025), and the RVV float entries then compute on
 * bfloat16. The reference is independent of fpn.c: the operation on the
 * exactly widened binary32 values by the SoftFloat-exact fp32_*_soft in
 * the same mode (all five), then binary32 -> bfloat16 rounding written
 * here on the bits (the second rounding is innocuous for +, -, *, /, sqrt:
 * 24 >= 2 * 8 + 2; directed modes compose), tininess after rounding. */
#include "fp32.h"
#include "isaext_vsew.h"

static uint32_t wide(uint32_t h) { return h << 16; }
static int bnan(uint32_t h) { return (h & 0x7f80) == 0x7f80 && (h & 0x7f); }
static int bsnan(uint32_t h) { return bnan(h) && !(h & 0x40); }

/* mag rounded at bit k (0 < k < 24) in mode rm */
static uint32_t round_at(uint32_t mag, unsigned k, uint32_t sign, unsigned rm) {
  uint32_t q = mag >> k, rem = mag & ((1u << k) - 1), half = 1u << (k - 1);
  int inc = 0;
  switch (rm) {
  case FP_RNE: inc = rem > half || (rem == half && (q & 1)); break;
  case FP_RTZ: inc = 0; break;
  case FP_RDN: inc = sign && rem; break;
  case FP_RUP: inc = !sign && rem; break;
  default: inc = rem >= half; break;
  }
  return (q + (uint32_t)inc) << k;
}

/* binary32 bits -> bfloat16 in mode rm, with NX, OF, UF */
static uint32_t f2bf(uint32_t f, unsigned rm, uint32_t *fl) {
  uint32_t sign = f >> 31, mag = f & 0x7fffffffu;
  if (mag > 0x7f800000u) return 0x7fc0; /* NaN (its NV came with the operation) */
  if (mag == 0x7f800000u) return f >> 16;
  uint32_t r = round_at(mag, 16, sign, rm) >> 16;
  int inexact = (mag & 0xffff) != 0;
  if (inexact) *fl |= FFLAG_NX;
  if (r >= 0x7f80) *fl |= FFLAG_OF;
  /* tiny: below 2^-126 even when rounded to 8 significant bits, unbounded */
  int tiny = mag < 0x00800000u && !(mag >= 0x00400000u && round_at(mag, 15, sign, rm) >= 0x00800000u);
  if (tiny && inexact) *fl |= FFLAG_UF;
  return sign << 15 | r;
}

enum { B_ADD, B_SUB, B_MUL, B_DIV, B_SQRT, B_MACC, B_MIN, B_MAX, B_EQ, B_LT, B_LE, B_CLASS, B_W2F, B_N2B, B_F2I, B_I2F, B_WADD };
static const struct {
  const char *line;
  int op;
} ents[] = {
    {"vfadd.vv v6, v2, v4", B_ADD},       {"vfsub.vv v6, v2, v4", B_SUB},      {"vfmul.vv v6, v2, v4", B_MUL},
    {"vfdiv.vv v6, v2, v4", B_DIV},       {"vfsqrt.v v6, v2", B_SQRT},         {"vfmacc.vv v6, v4, v2", B_MACC},
    {"vfmin.vv v6, v2, v4", B_MIN},       {"vfmax.vv v6, v2, v4", B_MAX},      {"vmfeq.vv v6, v2, v4", B_EQ},
    {"vmflt.vv v6, v2, v4", B_LT},        {"vmfle.vv v6, v2, v4", B_LE},       {"vfclass.v v6, v2", B_CLASS},
    {"vfwcvt.f.f.v v6, v2", B_W2F},       {"vfncvt.f.f.w v6, v2", B_N2B},      {"vfcvt.x.f.v v6, v2", B_F2I},
    {"vfcvt.f.x.v v6, v2", B_I2F},        {"vfwadd.vv v6, v2, v4", B_WADD},
};

/* a = vs2, b = vs1, d = vd (bfloat16 bits, or binary32 for B_N2B's a and
 * B_W2F/B_WADD's results); *skip when the lane has no exact reference */
static uint32_t ref(int op, uint32_t a, uint32_t b, uint32_t d, unsigned rm, uint32_t *fl, int *skip) {
  uint32_t f = 0, v;
  switch (op) {
  case B_ADD: v = fp32_add_soft(wide(a), wide(b), rm, &f); break;
  case B_SUB: v = fp32_sub_soft(wide(a), wide(b), rm, &f); break;
  case B_MUL: v = fp32_mul_soft(wide(a), wide(b), rm, &f); break;
  case B_DIV: v = fp32_div_soft(wide(a), wide(b), rm, &f); break;
  case B_SQRT: v = fp32_sqrt_soft(wide(a), rm, &f); break;
  case B_MACC: /* an fma rounds twice here unless binary32 holds it exactly */
    v = fp32_fma(wide(b), wide(a), wide(d), 0, 0, rm, &f);
    if (f & FFLAG_NX) *skip = 1;
    break;
  case B_MIN: v = fp32_min(wide(a), wide(b), fl); return v >> 16;
  case B_MAX: v = fp32_max(wide(a), wide(b), fl); return v >> 16;
  case B_EQ: return (uint32_t)fp32_eq(wide(a), wide(b), fl);
  case B_LT: return (uint32_t)fp32_lt(wide(a), wide(b), fl);
  case B_LE: return (uint32_t)fp32_le(wide(a), wide(b), fl);
  case B_CLASS: return fp32_classify(wide(a));
  case B_W2F: /* exact; a NaN becomes the canonical one */
    if (bsnan(a)) *fl |= FFLAG_NV;
    return bnan(a) ? 0x7fc00000u : wide(a);
  case B_N2B: {
    uint32_t snan = (a & 0x7fc00000u) == 0x7f800000u && (a & 0x3fffffu);
    if (snan) *fl |= FFLAG_NV;
    return f2bf(a, rm, fl);
  }
  case B_F2I: { /* to int16: the binary32 conversion, then the 16-bit range */
    uint32_t g = 0;
    int32_t i = fp32_to_i32(wide(a), rm, &g);
    if ((g & FFLAG_NV) || i < -32768 || i > 32767) {
      *fl |= FFLAG_NV;
      return bnan(a) || (!(a >> 15) && i > 0) ? 0x7fff : 0x8000;
    }
    *fl |= g;
    return (uint32_t)i & 0xffff;
  }
  case B_I2F: v = fp32_from_i32((int16_t)a, rm, &f); break; /* exact */
  default: /* B_WADD: binary32 result */
    v = fp32_add_soft(wide(a), wide(b), rm, &f);
    *fl |= f;
    return v;
  }
  /* the binary32 step's invalid, divide-by-zero, inexact and overflow hold
   * for the bfloat16 result too; underflow is bfloat16's own (f2bf) */
  *fl |= f & (FFLAG_NV | FFLAG_DZ | FFLAG_NX | FFLAG_OF);
  /* an underflow of binary32 far below 2^-126 (its result then says too
   * little for f2bf, a zero perhaps) is one of bfloat16 too */
  if ((f & FFLAG_UF) && (v & 0x7fffffffu) < 0x00400000u) *fl |= FFLAG_UF;
  return f2bf(v, rm, fl);
}

static uint32_t rnd_bf(test_rng *r) {
  uint64_t v = test_rng64(r);
  if (v & 1) return (uint32_t)(v >> 16) & 0xffff;
  static const uint32_t edge[] = {0x0000, 0x8000, 0x0001, 0x807f, 0x0080, 0x7f7f, 0xff7f, 0x7f80,
                                  0xff80, 0x7fc0, 0x7f81, 0x3f80, 0xbf80, 0x3eab, 0x4000, 0x0100};
  return edge[(v >> 1) % 16];
}

static void test_bf16_ops(void **state) {
  (void)state;
  test_rng r = {0xbf16bf16ull};
  unsigned runs = 0, skipped = 0;
  for (size_t k = 0; k < sizeof ents / sizeof ents[0]; k++)
    for (unsigned rep = 0; rep < 10; rep++) {
      unsigned rm = rep % 5;
      int masked = rep >= 5, op = ents[k].op;
      uint32_t nt = masked ? 8 : 32, mask = masked ? test_rng32(&r) : ~0u;
      unsigned w2 = op == B_N2B ? 32 : 16, dw = op == B_W2F || op == B_WADD ? 32 : 16;
      uint32_t a[32], b[32], d[32];
      vt_device *dv = ext_dev(2025);
      for (uint32_t i = 0; i < 32; i++) {
        a[i] = op == B_N2B ? (test_rng32(&r) & 1 ? wide(rnd_bf(&r)) | (test_rng32(&r) & 0xffff) : test_rng32(&r))
               : rnd_bf(&r);
        b[i] = rnd_bf(&r);
        d[i] = dw == 32 ? test_rng32(&r) : rnd_bf(&r);
        wr_el(dv, VA, w2, i, a[i]);
        wr_el(dv, VB, 16, i, b[i]);
        wr_el(dv, VOLD, dw, i, d[i]);
      }
      char body[200], src[1400], full[1600], line[80];
      snprintf(line, sizeof line, "%s%s", ents[k].line, masked ? ", v0.t" : "");
      /* e16 with altfmt (0x100), ta, ma */
      snprintf(body, sizeof body, "li s2, 0x1c8\nvsetvl x0, t4, s2\ncsrwi frm, %u\ncsrwi fflags, 0\n%s\ncsrr a1, fflags",
               rm, line);
      vsew_prog(src, sizeof src, 16, w2, 16, 0, mask, dw, dw, body);
      snprintf(full, sizeof full, "li t6, 0x6000\ncsrs mstatus, t6\n%s", src);
      vt_error e = {0};
      if (ext_run(dv, ISA_REV_2025, full, nt, &e)) fail_msg("%s: %s", line, e.msg);
      uint32_t fl = 0;
      int any_skip = 0;
      for (uint32_t i = 0; i < nt; i++) {
        int skip = 0;
        uint32_t want = mask >> i & 1 ? ref(op, a[i], b[i], d[i], rm, &fl, &skip) : d[i];
        uint32_t got = (uint32_t)rd_el(dv, VOUT, dw, i);
        if (skip) {
          any_skip = 1;
          continue;
        }
        if (got != want)
          fail_msg("%s rm %u lane %u: 0x%x, expected 0x%x (a 0x%x b 0x%x d 0x%x)", line, rm, i, got, want, a[i], b[i],
                   d[i]);
      }
      if (!any_skip && rd32(dv, VXOUT) != fl)
        fail_msg("%s rm %u: fflags 0x%x, expected 0x%x", line, rm, rd32(dv, VXOUT), fl);
      skipped += (unsigned)any_skip;
      vt_device_destroy(dv);
      runs++;
    }
  print_message("%u programs (%u with an inexact fma lane left out)\n", runs, skipped);
}

/* altfmt only with SEW 16 and only in revision 2025 */
static void test_altfmt_vtype(void **state) {
  (void)state;
  const char *src = "li s0, 0x90000000\nli t4, 4\n"
                    "li t5, 0x1c8\nvsetvl a0, t4, t5\ncsrr a1, vtype\nsw a0, 0(s0)\nsw a1, 4(s0)\n"
                    "li t5, 0x1d0\nvsetvl a0, t4, t5\ncsrr a1, vtype\nsw a0, 8(s0)\nsw a1, 12(s0)\n"
                    "endprg x0, x0, x0\n";
  vt_device *d = vsew_run(src, 4, NULL, NULL);
  assert_int_equal(rd32(d, DATA_BASE), 4);
  assert_int_equal(rd32(d, DATA_BASE + 4), 0x1c8);
  assert_int_equal(rd32(d, DATA_BASE + 8), 0);
  assert_int_equal(rd32(d, DATA_BASE + 12), 0x80000000u); /* e32 with altfmt: vill */
  vt_device_destroy(d);
  d = ext_dev(0);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_BASE, "li s0, 0x90000000\nli t4, 4\nli t5, 0x1c8\nvsetvl a0, t4, t5\n"
                                            "csrr a1, vtype\nsw a1, 0(s0)\nendprg x0, x0, x0\n", 4, &e), 0);
  assert_int_equal(rd32(d, DATA_BASE), 0x80000000u);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_bf16_ops),
      cmocka_unit_test(test_altfmt_vtype),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
