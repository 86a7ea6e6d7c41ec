/* ISA 2025 fixed point (docs/isa-extensions.md, "Fixed point"): every
 * instruction and form at every SEW and every vxrm mode, masked and
 * unmasked, against a plain-C reference on __int128 that rounds by
 * arithmetic (floor of v / 2^d + 1/2, ties to even, floor, jamming) rather
 * than by the bit formulas of the executor; vxsat set exactly when an
 * active element saturated, and sticky; the CSRs vxrm, vxsat, vcsr. */
#include "isaext_vsew.h"

typedef __int128 i128;

/* floor(v / 2^d) */
static i128 fdiv(i128 v, unsigned d) {
  i128 p = (i128)1 << d;
  i128 q = v / p;
  return (v % p != 0 && v < 0) ? q - 1 : q;
}

/* v / 2^d rounded in mode rm: 0 to nearest, ties up; 1 to nearest, ties
 * to even; 2 down; 3 to odd (the truncation with its low bit set when
 * inexact) */
static i128 rround(i128 v, unsigned d, unsigned rm) {
  if (d == 0) return v;
  i128 p = (i128)1 << d, q = fdiv(v, d), rem = v - q * p; /* 0 <= rem < p */
  switch (rm) {
  case 0: return rem * 2 >= p ? q + 1 : q;
  case 1: return rem * 2 > p || (rem * 2 == p && (q & 1)) ? q + 1 : q;
  case 2: return q;
  default: return rem ? (q | 1) : q;
  }
}

static i128 smin_(unsigned sew) { return -((i128)1 << (sew - 1)); }
static i128 smax_(unsigned sew) { return ((i128)1 << (sew - 1)) - 1; }
static i128 umax_(unsigned sew) { return ((i128)1 << sew) - 1; }

static uint64_t clampu(i128 v, unsigned sew, int *sat) {
  if (v < 0) return *sat = 1, 0;
  if (v > umax_(sew)) return *sat = 1, (uint64_t)umax_(sew);
  return (uint64_t)v;
}
static uint64_t clamps(i128 v, unsigned sew, int *sat) {
  if (v < smin_(sew)) v = smin_(sew), *sat = 1;
  if (v > smax_(sew)) v = smax_(sew), *sat = 1;
  return zx((uint64_t)v, sew);
}

/* a = vs2, b = the other operand, both zero-extended sew-bit values (a at
 * 2*sew for the clips) */
static uint64_t ref(const char *mn, uint64_t a, uint64_t b, unsigned sew, unsigned rm, int *sat) {
  i128 ua = a, ub = b, sa = sx(a, sew), sb = sx(b, sew);
  if (!strcmp(mn, "vsaddu")) return clampu(ua + ub, sew, sat);
  if (!strcmp(mn, "vsadd")) return clamps(sa + sb, sew, sat);
  if (!strcmp(mn, "vssubu")) return clampu(ua - ub, sew, sat);
  if (!strcmp(mn, "vssub")) return clamps(sa - sb, sew, sat);
  if (!strcmp(mn, "vaaddu")) return zx((uint64_t)rround(ua + ub, 1, rm), sew);
  if (!strcmp(mn, "vaadd")) return zx((uint64_t)rround(sa + sb, 1, rm), sew);
  if (!strcmp(mn, "vasubu")) return zx((uint64_t)rround(ua - ub, 1, rm), sew); /* wraps, as RVV */
  if (!strcmp(mn, "vasub")) return zx((uint64_t)rround(sa - sb, 1, rm), sew);
  if (!strcmp(mn, "vsmul")) return clamps(rround(sa * sb, sew - 1, rm), sew, sat);
  if (!strcmp(mn, "vssrl")) return zx((uint64_t)rround(ua, (unsigned)(b % sew), rm), sew);
  if (!strcmp(mn, "vssra")) return zx((uint64_t)rround(sa, (unsigned)(b % sew), rm), sew);
  i128 wa = sx(a, 2 * sew);
  unsigned sh = (unsigned)(b % (2 * sew));
  if (!strcmp(mn, "vnclipu")) return clampu(rround((i128)zx(a, 2 * sew), sh, rm), sew, sat);
  if (!strcmp(mn, "vnclip")) return clamps(rround(wa, sh, rm), sew, sat);
  fail_msg("no reference for %s", mn);
  return 0;
}

enum { FVV = 1, FVX = 2, FVI = 4 };
static const struct {
  const char *mn;
  int forms, uimm, narrow;
} ops[] = {
    {"vsaddu", 7, 0, 0}, {"vsadd", 7, 0, 0},  {"vssubu", 3, 0, 0}, {"vssub", 3, 0, 0},   {"vaaddu", 3, 0, 0},
    {"vaadd", 3, 0, 0},  {"vasubu", 3, 0, 0}, {"vasub", 3, 0, 0},  {"vsmul", 3, 0, 0},   {"vssrl", 7, 1, 0},
    {"vssra", 7, 1, 0},  {"vnclipu", 7, 1, 1}, {"vnclip", 7, 1, 1},
};

static void test_fixed_point(void **state) {
  (void)state;
  test_rng r = {0xf1eedull};
  static const unsigned sews[] = {8, 16, 32, 64};
  unsigned runs = 0, sats = 0;
  for (size_t s = 0; s < 4; s++)
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
      for (int f = 1; f <= 4; f <<= 1)
        for (unsigned rm = 0; rm < 4; rm++) {
          unsigned sew = sews[s], aw = ops[k].narrow ? 2 * sew : sew;
          if (!(ops[k].forms & f) || aw > 64) continue;
          int masked = (rm & 1) != 0;
          uint32_t nt = masked ? 16 : 32, mask = masked ? test_rng32(&r) : ~0u;
          uint64_t a[32], b[32];
          vt_device *d = ext_dev(2025);
          for (uint32_t i = 0; i < 32; i++) {
            a[i] = rnd_el(&r, aw);
            b[i] = rnd_el(&r, sew);
            if (ops[k].narrow || !strncmp(ops[k].mn, "vss", 3)) b[i] = test_rng32(&r) % (2 * sew); /* shifts */
            wr_el(d, VA, aw, i, a[i]);
            wr_el(d, VB, sew, i, b[i]);
            wr32(d, VOLD + 8 * i, 0xdeadbeefu); /* SEW 64: pairs 0x01234567deadbeef */
            wr32(d, VOLD + 8 * i + 4, sew == 64 ? 0x01234567u : 0xdeadbeefu);
          }
          uint32_t scalar = test_rng32(&r);
          if (ops[k].narrow || !strncmp(ops[k].mn, "vss", 3)) scalar %= 128;
          int imm = ops[k].uimm ? (int)(test_rng32(&r) % 32) : (int)(test_rng32(&r) % 32) - 16;
          const char *sfx = ops[k].narrow ? (f == FVV ? "wv" : f == FVX ? "wx" : "wi")
                                          : (f == FVV ? "vv" : f == FVX ? "vx" : "vi");
          char line[96], src[1200];
          if (f == FVV) snprintf(line, sizeof line, "%s.%s v6, v2, v4", ops[k].mn, sfx);
          else if (f == FVX) snprintf(line, sizeof line, "%s.%s v6, v2, a0", ops[k].mn, sfx);
          else snprintf(line, sizeof line, "%s.%s v6, v2, %d", ops[k].mn, sfx, imm);
          if (masked) strncat(line, ", v0.t", sizeof line - strlen(line) - 1);
          /* vxrm set, vxsat cleared first; vcsr read back after */
          char pre[160];
          snprintf(pre, sizeof pre, "csrwi vxrm, %u\ncsrwi vxsat, 0\n%s\ncsrr a1, vcsr", rm, line);
          unsigned st = sew == 64 ? 64 : 32;
          vsew_prog(src, sizeof src, sew, aw, sew, scalar, mask, st, st, pre);
          vt_error e = {0};
          if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s: %s", line, e.msg);
          uint64_t bx = sew == 64 ? (uint64_t)(int64_t)(int32_t)scalar : zx(scalar, sew);
          uint64_t bi = ops[k].uimm ? (uint64_t)imm : zx((uint64_t)(int64_t)imm, sew);
          int sat = 0;
          for (uint32_t i = 0; i < nt; i++) {
            uint64_t old = st == 64 ? 0x01234567deadbeefull : 0xdeadbeefu;
            uint64_t bb = f == FVV ? b[i] : f == FVX ? (ops[k].narrow ? scalar : bx) : bi;
            int lsat = 0;
            uint64_t want = ref(ops[k].mn, a[i], bb, sew, rm, &lsat);
            if (!(mask >> i & 1)) want = old;
            else sat |= lsat;
            uint64_t got = st == 64 ? rd_el(d, VOUT, 64, i) : rd32(d, VOUT + 4 * i);
            if (got != want)
              fail_msg("%s e%u vxrm %u lane %u: got 0x%llx, expected 0x%llx (a 0x%llx b 0x%llx)", line, sew, rm, i,
                       (unsigned long long)got, (unsigned long long)want, (unsigned long long)a[i],
                       (unsigned long long)bb);
          }
          /* vcsr = vxrm << 1 | vxsat */
          if (rd32(d, VXOUT) != (rm << 1 | (uint32_t)sat))
            fail_msg("%s e%u vxrm %u: vcsr 0x%x, expected vxsat %d", line, sew, rm, rd32(d, VXOUT), sat);
          sats += (unsigned)sat;
          runs++;
          vt_device_destroy(d);
        }
  print_message("%u programs, %u saturated\n", runs, sats);
  assert_true(sats > 50);
}

/* Hand values (int8): saturation, the one vsmul overflow, the four
 * rounding modes on 0b0110_1011 >> 3 (13.375 -> 13/14) and the ties of
 * the averages; vxsat stays set; the CSR fields and their masks. */
static void test_by_hand(void **state) {
  (void)state;
  /* ST(v, width, offset): vd stored at DATA_BASE + offset */
#define ST(v, w, off) "addi s1, s0, " #off "\nvse" #w ".v " #v ", (s1)\n"
  const char *src =
      "li s0, 0x90000000\nli t4, 4\nvsetvli x0, t4, e8, m1, ta, ma\n"
      "li a0, 100\nvmv.v.x v1, a0\nli a0, 50\nvmv.v.x v2, a0\n"
      "vsadd.vv v3, v1, v2\n" ST(v3, 8, 0)                         /* 127, saturated */
      "csrr a1, vxsat\nsw a1, 4(s0)\n"
      "vsaddu.vv v3, v1, v2\n" ST(v3, 8, 8)                        /* 150, not */
      "csrr a1, vxsat\nsw a1, 12(s0)\n"                            /* still 1: sticky */
      "li a0, -128\nvmv.v.x v4, a0\nvsmul.vv v5, v4, v4\n" ST(v5, 8, 16) /* 127 */
      "li a0, 107\nvmv.v.x v6, a0\n"
      "csrwi vxrm, 0\nvssrl.vi v7, v6, 3\n" ST(v7, 8, 20)         /* 13.375: 13 */
      "li a0, 108\nvmv.v.x v6, a0\n"                               /* 13.5 */
      "csrwi vxrm, 0\nvssrl.vi v7, v6, 3\n" ST(v7, 8, 24)         /* rnu 14 */
      "csrwi vxrm, 1\nvssrl.vi v7, v6, 3\n" ST(v7, 8, 28)         /* rne 14 (13 is odd) */
      "csrwi vxrm, 2\nvssrl.vi v7, v6, 3\n" ST(v7, 8, 32)         /* rdn 13 */
      "csrwi vxrm, 3\nvssrl.vi v7, v6, 3\n" ST(v7, 8, 36)         /* rod 13 */
      "li a0, 3\nvmv.v.x v8, a0\nli a0, 0\nvmv.v.x v9, a0\n"
      "csrwi vxrm, 1\nvaadd.vv v10, v8, v9\n" ST(v10, 8, 40)      /* 1.5 rne: 2 */
      "li a0, 5\nvmv.v.x v8, a0\n"
      "vaadd.vv v10, v8, v9\n" ST(v10, 8, 44)                     /* 2.5 rne: 2 */
      "csrwi vxrm, 3\nvaadd.vv v10, v8, v9\n" ST(v10, 8, 48)      /* 2.5 rod: 3 */
      "li a0, 0xff\ncsrw vcsr, a0\ncsrr a1, vcsr\nsw a1, 52(s0)\n" /* 0b111 */
      "csrr a1, vxrm\nsw a1, 56(s0)\n"
      "csrwi vxsat, 0\ncsrr a1, vcsr\nsw a1, 60(s0)\n"             /* 0b110 */
      "vsetvli x0, t4, e32, m1, ta, ma\nli a0, 0x12345678\nvmv.v.x v12, a0\n"
      "vsetvli x0, t4, e16, m1, ta, ma\ncsrwi vxrm, 0\n"
      "vnclipu.wi v14, v12, 4\n" ST(v14, 16, 64)                  /* 0x01234568: 0xffff */
      "vnclip.wi v15, v12, 16\n" ST(v15, 16, 72)                  /* 0x1234 */
      "csrr a1, vxsat\nsw a1, 76(s0)\n"
      "endprg x0, x0, x0\n";
#undef ST
  vt_device *d = vsew_run(src, 4, NULL, NULL);
  assert_int_equal(rd32(d, DATA_BASE) & 0xff, 127);
  assert_int_equal(rd32(d, DATA_BASE + 4), 1);
  assert_int_equal(rd32(d, DATA_BASE + 8) & 0xff, 150);
  assert_int_equal(rd32(d, DATA_BASE + 12), 1);
  assert_int_equal(rd32(d, DATA_BASE + 16) & 0xff, 127);
  assert_int_equal(rd32(d, DATA_BASE + 20) & 0xff, 13);
  assert_int_equal(rd32(d, DATA_BASE + 24) & 0xff, 14);
  assert_int_equal(rd32(d, DATA_BASE + 28) & 0xff, 14);
  assert_int_equal(rd32(d, DATA_BASE + 32) & 0xff, 13);
  assert_int_equal(rd32(d, DATA_BASE + 36) & 0xff, 13);
  assert_int_equal(rd32(d, DATA_BASE + 40) & 0xff, 2);
  assert_int_equal(rd32(d, DATA_BASE + 44) & 0xff, 2);
  assert_int_equal(rd32(d, DATA_BASE + 48) & 0xff, 3);
  assert_int_equal(rd32(d, DATA_BASE + 52), 7);
  assert_int_equal(rd32(d, DATA_BASE + 56), 3);
  assert_int_equal(rd32(d, DATA_BASE + 60), 6);
  assert_int_equal(rd32(d, DATA_BASE + 64) & 0xffff, 0xffff);
  assert_int_equal(rd32(d, DATA_BASE + 72) & 0xffff, 0x1234);
  assert_int_equal(rd32(d, DATA_BASE + 76), 1);
  vt_device_destroy(d);
  /* the baseline keeps the CSRs at 0 and has no fixed-point instructions */
  d = ext_dev(0);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_BASE, "li s0, 0x90000000\ncsrwi vxrm, 3\ncsrr a1, vxrm\nsw a1, 0(s0)\n"
                                            "endprg x0, x0, x0\n", 4, &e), 0);
  assert_int_equal(rd32(d, DATA_BASE), 0);
  vt_device_destroy(d);
  uint32_t w[2];
  assert_int_equal(asm_words_rev("vsadd.vv v1, v2, v3\n", CODE_BASE, ISA_REV_BASE, w, 2, &e), -1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fixed_point),
      cmocka_unit_test(test_by_hand),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
