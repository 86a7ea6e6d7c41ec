/* ISA 2025 element widths (docs/isa-extensions.md, "Element widths"):
 * vsetvli with SEW 8/16/32/64, every integer arithmetic, compare, merge and
 * move at every SEW, masked and unmasked, against plain C on int8_t ..
 * int64_t and __int128; the widening forms at SEW 8/16, the narrowing
 * shifts, the extensions, and loads/stores of each width (unit-stride,
 * strided, indexed with every index width). */
#include "isaext_vsew.h"

enum { FVV = 1, FVX = 2, FVI = 4 };
typedef struct {
  const char *mn;
  int forms, uimm, cmp, acc;
} op_t;

static const op_t ops[] = {
    {"vadd", 7, 0, 0, 0},    {"vsub", 3, 0, 0, 0},    {"vrsub", 6, 0, 0, 0},   {"vminu", 3, 0, 0, 0},
    {"vmin", 3, 0, 0, 0},    {"vmaxu", 3, 0, 0, 0},   {"vmax", 3, 0, 0, 0},    {"vand", 7, 0, 0, 0},
    {"vor", 7, 0, 0, 0},     {"vxor", 7, 0, 0, 0},    {"vsll", 7, 1, 0, 0},    {"vsrl", 7, 1, 0, 0},
    {"vsra", 7, 1, 0, 0},    {"vmul", 3, 0, 0, 0},    {"vmulh", 3, 0, 0, 0},   {"vmulhu", 3, 0, 0, 0},
    {"vmulhsu", 3, 0, 0, 0}, {"vdivu", 3, 0, 0, 0},   {"vdiv", 3, 0, 0, 0},    {"vremu", 3, 0, 0, 0},
    {"vrem", 3, 0, 0, 0},    {"vmacc", 3, 0, 0, 1},   {"vnmsac", 3, 0, 0, 1},  {"vmadd", 3, 0, 0, 1},
    {"vnmsub", 3, 0, 0, 1},  {"vmseq", 7, 0, 1, 0},   {"vmsne", 7, 0, 1, 0},   {"vmsltu", 3, 0, 1, 0},
    {"vmslt", 3, 0, 1, 0},   {"vmsleu", 7, 1, 1, 0},  {"vmsle", 7, 0, 1, 0},   {"vmsgtu", 6, 1, 1, 0},
    {"vmsgt", 6, 0, 1, 0},
};

/* a = vs2, b = vs1 / scalar / immediate at sew bits (zero-extended), d = vd */
static uint64_t ref(const char *mn, uint64_t a, uint64_t b, uint64_t d, unsigned sew) {
  int64_t ia = sx(a, sew), ib = sx(b, sew);
  __int128 pa = ia, pb = ib;
  unsigned __int128 ua = a, ub = b;
  unsigned sh = (unsigned)(b % sew);
  int64_t mn_ = sew == 64 ? INT64_MIN : -((int64_t)1 << (sew - 1));
  if (!strcmp(mn, "vadd")) return a + b;
  if (!strcmp(mn, "vsub")) return a - b;
  if (!strcmp(mn, "vrsub")) return b - a;
  if (!strcmp(mn, "vminu")) return a < b ? a : b;
  if (!strcmp(mn, "vmin")) return ia < ib ? a : b;
  if (!strcmp(mn, "vmaxu")) return a > b ? a : b;
  if (!strcmp(mn, "vmax")) return ia > ib ? a : b;
  if (!strcmp(mn, "vand")) return a & b;
  if (!strcmp(mn, "vor")) return a | b;
  if (!strcmp(mn, "vxor")) return a ^ b;
  if (!strcmp(mn, "vsll")) return a << sh;
  if (!strcmp(mn, "vsrl")) return a >> sh;
  if (!strcmp(mn, "vsra")) return (uint64_t)(ia >> sh);
  if (!strcmp(mn, "vmul")) return (uint64_t)(ua * ub);
  if (!strcmp(mn, "vmulh")) return (uint64_t)((pa * pb) >> sew);
  if (!strcmp(mn, "vmulhu")) return (uint64_t)((ua * ub) >> sew);
  if (!strcmp(mn, "vmulhsu")) return (uint64_t)((pa * (__int128)ub) >> sew);
  if (!strcmp(mn, "vdivu")) return b ? a / b : ~0ull;
  if (!strcmp(mn, "vremu")) return b ? a % b : a;
  if (!strcmp(mn, "vdiv")) return !b ? ~0ull : (ia == mn_ && ib == -1) ? a : (uint64_t)(int64_t)(pa / pb);
  if (!strcmp(mn, "vrem")) return !b ? a : (ia == mn_ && ib == -1) ? 0 : (uint64_t)(int64_t)(pa % pb);
  /* the low SEW bits of a product do not depend on signedness */
  if (!strcmp(mn, "vmacc")) return d + a * b;
  if (!strcmp(mn, "vnmsac")) return d - a * b;
  if (!strcmp(mn, "vmadd")) return b * d + a;
  if (!strcmp(mn, "vnmsub")) return a - b * d;
  if (!strcmp(mn, "vmseq")) return a == b;
  if (!strcmp(mn, "vmsne")) return a != b;
  if (!strcmp(mn, "vmsltu")) return a < b;
  if (!strcmp(mn, "vmslt")) return ia < ib;
  if (!strcmp(mn, "vmsleu")) return a <= b;
  if (!strcmp(mn, "vmsle")) return ia <= ib;
  if (!strcmp(mn, "vmsgtu")) return a > b;
  if (!strcmp(mn, "vmsgt")) return ia > ib;
  fail_msg("no reference for %s", mn);
  return 0;
}

typedef struct {
  unsigned sew, nt;
  uint64_t a[32], b[32], old[32];
} case_t;

static void fill(vt_device *d, void *arg) {
  const case_t *c = arg;
  for (uint32_t i = 0; i < 32; i++) {
    wr_el(d, VA, c->sew, i, c->a[i]);
    wr_el(d, VB, c->sew, i, c->b[i]);
    if (c->sew == 64) wr_el(d, VOLD, 64, i, c->old[i]);
    else wr32(d, VOLD + 4 * i, (uint32_t)c->old[i]);
  }
}

/* The expected 32-bit register of lane i (or 64-bit pair at SEW 64) */
static void check_lanes(vt_device *d, const case_t *c, uint32_t em, const uint64_t *exp, unsigned storew,
                        const char *what) {
  for (uint32_t i = 0; i < c->nt; i++) {
    uint64_t want = em >> i & 1 ? exp[i] : zx(c->old[i], storew);
    uint64_t got = storew == 64 ? rd_el(d, VOUT, 64, i) : rd32(d, VOUT + 4 * i);
    if (got != want)
      fail_msg("%s lane %u: got 0x%llx, expected 0x%llx (a 0x%llx b 0x%llx)", what, i, (unsigned long long)got,
               (unsigned long long)want, (unsigned long long)c->a[i], (unsigned long long)c->b[i]);
  }
}

static void test_single_width(void **state) {
  (void)state;
  test_rng r = {0x5eed5eedull};
  static const unsigned sews[] = {8, 16, 32, 64};
  unsigned runs = 0;
  for (size_t s = 0; s < 4; s++)
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
      for (int f = 1; f <= 4; f <<= 1) {
        if (!(ops[k].forms & f)) continue;
        for (int masked = 0; masked < 2; masked++) {
          case_t c = {.sew = sews[s], .nt = masked ? 8 : 32};
          unsigned sew = c.sew;
          for (uint32_t i = 0; i < 32; i++) {
            c.a[i] = rnd_el(&r, sew);
            c.b[i] = rnd_el(&r, sew);
            c.old[i] = sew == 64 ? test_rng64(&r) : test_rng32(&r);
          }
          uint32_t scalar = test_rng32(&r), mask = masked ? test_rng32(&r) : ~0u;
          int imm = ops[k].uimm ? (int)(test_rng32(&r) % 32) : (int)(test_rng32(&r) % 32) - 16;
          char line[96], src[1024];
          const char *sfx = f == FVV ? "vv" : f == FVX ? "vx" : "vi";
          if (f == FVV) snprintf(line, sizeof line, "%s.vv v6, v2, v4", ops[k].mn);
          else if (f == FVX) snprintf(line, sizeof line, "%s.vx v6, v2, a0", ops[k].mn);
          else snprintf(line, sizeof line, "%s.vi v6, v2, %d", ops[k].mn, imm);
          if (ops[k].acc && f == FVV) snprintf(line, sizeof line, "%s.vv v6, v4, v2", ops[k].mn);
          if (ops[k].acc && f == FVX) snprintf(line, sizeof line, "%s.vx v6, a0, v2", ops[k].mn);
          if (masked) strncat(line, ", v0.t", sizeof line - strlen(line) - 1);
          unsigned storew = sew == 64 && !ops[k].cmp ? 64 : 32;
          vsew_prog(src, sizeof src, sew, sew, sew, scalar, mask, sew == 64 ? 64 : 32, storew, line);
          vt_device *d = vsew_run(src, c.nt, fill, &c);
          /* the .vx scalar: truncated to SEW, sign-extended at SEW 64; .vi: the immediate at SEW */
          uint64_t bx = sew == 64 ? (uint64_t)(int64_t)(int32_t)scalar : zx(scalar, sew);
          uint64_t exp[32];
          for (uint32_t i = 0; i < 32; i++) {
            uint64_t b = f == FVV ? c.b[i] : f == FVX ? bx : zx((uint64_t)(int64_t)imm, sew);
            uint64_t v = ref(ops[k].mn, c.a[i], b, zx(c.old[i], sew), sew);
            exp[i] = ops[k].cmp ? v : zx(v, sew);
          }
          char what[64];
          snprintf(what, sizeof what, "%s.%s e%u%s", ops[k].mn, sfx, sew, masked ? " masked" : "");
          check_lanes(d, &c, mask & (c.nt == 32 ? ~0u : (1u << c.nt) - 1), exp, storew, what);
          vt_device_destroy(d);
          runs++;
        }
      }
  print_message("%u programs\n", runs);
}

/* merges and moves: vmerge (v0 selects), vmv.v.*, vmv.s.x (a broadcast),
 * vid.v, vmv.x.s (the last active lane, sign-extended to 32 bits) */
static void test_moves(void **state) {
  (void)state;
  test_rng r = {0x77ull};
  static const unsigned sews[] = {8, 16, 32, 64};
  static const char *const lines[] = {"vmerge.vvm v6, v2, v4, v0", "vmerge.vxm v6, v2, a0, v0",
                                      "vmerge.vim v6, v2, -7, v0", "vmv.v.v v6, v4",
                                      "vmv.v.x v6, a0",            "vmv.v.i v6, -3",
                                      "vmv.s.x v6, a0",            "vid.v v6",
                                      "vmv.x.s a1, v2"};
  for (size_t s = 0; s < 4; s++)
    for (size_t k = 0; k < sizeof lines / sizeof lines[0]; k++) {
      case_t c = {.sew = sews[s], .nt = 32};
      unsigned sew = c.sew;
      for (uint32_t i = 0; i < 32; i++) {
        c.a[i] = rnd_el(&r, sew);
        c.b[i] = rnd_el(&r, sew);
        c.old[i] = sew == 64 ? test_rng64(&r) : test_rng32(&r);
      }
      uint32_t scalar = 0x80000000u | test_rng32(&r), sel = test_rng32(&r);
      char src[1024];
      unsigned storew = sew == 64 ? 64 : 32;
      vsew_prog(src, sizeof src, sew, sew, sew, scalar, sel, storew, storew, lines[k]);
      vt_device *d = vsew_run(src, 32, fill, &c);
      uint64_t bx = sew == 64 ? (uint64_t)(int64_t)(int32_t)scalar : zx(scalar, sew), exp[32];
      for (uint32_t i = 0; i < 32; i++) {
        uint64_t v;
        switch (k) {
        case 0: v = sel >> i & 1 ? c.b[i] : c.a[i]; break;
        case 1: v = sel >> i & 1 ? bx : c.a[i]; break;
        case 2: v = sel >> i & 1 ? zx((uint64_t)-7, sew) : c.a[i]; break;
        case 3: v = c.b[i]; break;
        case 4: case 6: v = bx; break;
        case 5: v = zx((uint64_t)-3, sew); break;
        case 7: v = i; break;
        default: v = zx(c.old[i], storew); break;
        }
        exp[i] = v;
      }
      check_lanes(d, &c, ~0u, exp, storew, lines[k]);
      if (k == 8) assert_int_equal(rd32(d, VXOUT), (uint32_t)sx(c.a[31], sew));
      vt_device_destroy(d);
    }
}

/* vsetvli: SEW 8..64 accepted with LMUL 1 (vtype read back, vl = the
 * threads), LMUL 2 and SEW 128 set vill; the baseline keeps e32 only */
static void test_vsetvli(void **state) {
  (void)state;
  const char *src = "li t0, 0x90000000\nli t4, 100\n"
                    "vsetvli a0, t4, e8, m1, ta, ma\ncsrr a1, vtype\nsw a0, 0(t0)\nsw a1, 4(t0)\n"
                    "vsetivli a0, 5, e16, m1, tu, mu\ncsrr a1, vtype\nsw a0, 8(t0)\nsw a1, 12(t0)\n"
                    "vsetvli a0, t4, e64, m1, ta, mu\ncsrr a1, vtype\nsw a0, 16(t0)\nsw a1, 20(t0)\n"
                    "vsetvli a0, t4, e8, m2, ta, ma\ncsrr a1, vtype\nsw a0, 24(t0)\nsw a1, 28(t0)\n"
                    "li t5, 0x20\nvsetvl a0, t4, t5\ncsrr a1, vtype\nsw a0, 32(t0)\nsw a1, 36(t0)\n"
                    "endprg x0, x0, x0\n";
  vt_device *d = vsew_run(src, 16, NULL, NULL);
  assert_int_equal(rd32(d, DATA_BASE + 0), 16);
  assert_int_equal(rd32(d, DATA_BASE + 4), 0xc0); /* e8 m1 ta ma */
  assert_int_equal(rd32(d, DATA_BASE + 8), 5);
  assert_int_equal(rd32(d, DATA_BASE + 12), 0x08); /* e16 m1 tu mu */
  assert_int_equal(rd32(d, DATA_BASE + 16), 16);
  assert_int_equal(rd32(d, DATA_BASE + 20), 0x58); /* e64 m1 ta mu */
  assert_int_equal(rd32(d, DATA_BASE + 24), 0);
  assert_int_equal(rd32(d, DATA_BASE + 28), 0x80000000u); /* m2: vill */
  assert_int_equal(rd32(d, DATA_BASE + 32), 0);
  assert_int_equal(rd32(d, DATA_BASE + 36), 0x80000000u); /* SEW code 4 (e128): vill */
  vt_device_destroy(d);
  /* the baseline: e8 is vill, and the next vector instruction faults */
  d = ext_dev(0);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_BASE, "li t4, 8\nvsetvli a0, t4, e8, m1, ta, ma\nvadd.vv v1, v2, v3\n"
                                            "endprg x0, x0, x0\n", 8, &e), -1);
  if (!strstr(e.msg, "vill")) fail_msg("%s", e.msg);
  vt_device_destroy(d);
}

/* fp at another SEW, and a widening at SEW 64, are illegal instructions */
static void test_unsupported(void **state) {
  (void)state;
  static const struct {
    const char *src, *msg;
  } cases[] = {
      {"li t4, 8\nvsetvli x0, t4, e8, m1, ta, ma\nvfadd.vv v2, v4, v6\nendprg x0, x0, x0\n",
       "vfadd.vv at SEW = 8"},
      {"li t4, 8\nvsetvli x0, t4, e8, m1, ta, ma\nvfmv.f.s a1, v4\nendprg x0, x0, x0\n",
       "vfmv.f.s at SEW = 8"},
      {"li t4, 8\nvsetvli x0, t4, e64, m1, ta, ma\nvwadd.vv v4, v2, v3\nendprg x0, x0, x0\n",
       "vwadd.vv at SEW = 64"},
      {"li t4, 8\nvsetvli x0, t4, e64, m1, ta, ma\nvnsrl.wi v4, v2, 3\nendprg x0, x0, x0\n",
       "vnsrl.wi at SEW = 64"},
      {"li t4, 8\nvsetvli x0, t4, e8, m1, ta, ma\nvzext.vf2 v4, v2\nendprg x0, x0, x0\n",
       "vzext.vf2 at SEW = 8"},
      {"li t4, 8\nvsetvli x0, t4, e64, m1, ta, ma\nvadd.vv v4, v3, v2\nendprg x0, x0, x0\n", "v3 is odd"},
      /* PREFIX ABS/NEG act on 32-bit elements only */
      {"li t4, 8\nvsetvli x0, t4, e8, m1, ta, ma\nprefix 0, 0, 0, 1\nvsadd.vv v4, v2, v6\nendprg x0, x0, x0\n",
       "vsadd.vv at SEW = 8: PREFIX ABS/NEG"},
      {"li t4, 8\nvsetvli x0, t4, e32, m1, ta, ma\nprefix 0, 0, 2, 0\nvnsrl.wv v4, v2, v6\nendprg x0, x0, x0\n",
       "vnsrl.wv at SEW = 32: PREFIX ABS/NEG"},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    vt_device *d = ext_dev(2025);
    vt_error e = {0};
    assert_int_equal(ext_run(d, ISA_REV_2025, cases[k].src, 8, &e), -1);
    assert_int_equal(e.kind, VT_ERR_ILLEGAL);
    if (!strstr(e.msg, cases[k].msg)) fail_msg("case %zu: %s", k, e.msg);
    vt_device_destroy(d);
  }
}

/* the widening entries at SEW 8, 16 (and 32, the pair form): vd = 2*SEW */
static void test_widening(void **state) {
  (void)state;
  test_rng r = {0x1234ull};
  static const struct {
    const char *mn;
    int wide2, wide1, sa, sb, op; /* op: 0 add 1 sub 2 mul 3 macc */
    int vx;
  } wops[] = {
      {"vwaddu.vv", 0, 0, 0, 0, 0, 0}, {"vwaddu.vx", 0, 0, 0, 0, 0, 1}, {"vwaddu.wv", 1, 1, 0, 0, 0, 0},
      {"vwaddu.wx", 1, 0, 0, 0, 0, 1}, {"vwadd.vv", 0, 0, 1, 1, 0, 0},  {"vwadd.vx", 0, 0, 1, 1, 0, 1},
      {"vwadd.wv", 1, 1, 1, 1, 0, 0},  {"vwadd.wx", 1, 0, 1, 1, 0, 1},  {"vwsubu.vv", 0, 0, 0, 0, 1, 0},
      {"vwsubu.wx", 1, 0, 0, 0, 1, 1}, {"vwsub.vx", 0, 0, 1, 1, 1, 1},  {"vwsub.wv", 1, 1, 1, 1, 1, 0},
      {"vwmulu.vv", 0, 0, 0, 0, 2, 0}, {"vwmul.vx", 0, 0, 1, 1, 2, 1},  {"vwmulsu.vv", 0, 0, 1, 0, 2, 0},
      {"vwmaccu.vx", 0, 0, 0, 0, 3, 1}, {"vwmacc.vv", 0, 0, 1, 1, 3, 0}, {"vwmaccsu.vv", 0, 0, 0, 1, 3, 0},
      {"vwmaccus.vx", 0, 0, 1, 0, 3, 1},
  };
  for (unsigned sew = 8; sew <= 32; sew *= 2)
    for (size_t k = 0; k < sizeof wops / sizeof wops[0]; k++) {
      unsigned dw = 2 * sew, w2 = wops[k].wide2 ? dw : sew, w1 = wops[k].wide1 ? dw : sew;
      case_t a = {.sew = w2, .nt = 32}, b = {.sew = w1, .nt = 32};
      uint64_t old[32];
      for (uint32_t i = 0; i < 32; i++) {
        a.a[i] = rnd_el(&r, w2);
        b.b[i] = rnd_el(&r, w1);
        old[i] = dw == 64 ? test_rng64(&r) : test_rng32(&r);
      }
      uint32_t scalar = test_rng32(&r);
      char line[96], src[1024];
      int macc = wops[k].op == 3;
      if (macc) snprintf(line, sizeof line, "%s v6, %s, v2", wops[k].mn, wops[k].vx ? "a0" : "v4");
      else snprintf(line, sizeof line, "%s v6, v2, %s", wops[k].mn, wops[k].vx ? "a0" : "v4");
      vsew_prog(src, sizeof src, sew, w2, w1, scalar, ~0u, dw == 64 ? 64 : 32, dw == 64 ? 64 : 32, line);
      vt_device *d = ext_dev(2025);
      for (uint32_t i = 0; i < 32; i++) {
        wr_el(d, VA, w2, i, a.a[i]);
        wr_el(d, VB, w1, i, b.b[i]);
        if (dw == 64) wr_el(d, VOLD, 64, i, old[i]);
        else wr32(d, VOLD + 4 * i, (uint32_t)old[i]);
      }
      vt_error e = {0};
      if (ext_run(d, ISA_REV_2025, src, 32, &e)) fail_msg("%s: %s", line, e.msg);
      for (uint32_t i = 0; i < 32; i++) {
        uint64_t x2 = wops[k].wide2 ? a.a[i] : wops[k].sa ? (uint64_t)sx(a.a[i], sew) : a.a[i];
        uint64_t x1 = wops[k].vx ? (wops[k].sb ? (uint64_t)sx(scalar, sew) : zx(scalar, sew))
                      : wops[k].wide1 ? b.b[i]
                      : wops[k].sb    ? (uint64_t)sx(b.b[i], sew)
                                      : b.b[i];
        uint64_t v = wops[k].op == 0 ? x2 + x1 : wops[k].op == 1 ? x2 - x1 : wops[k].op == 2 ? x2 * x1
                                                                        : zx(old[i], dw) + x2 * x1;
        uint64_t got = dw == 64 ? rd_el(d, VOUT, 64, i) : rd32(d, VOUT + 4 * i);
        if (got != zx(v, dw))
          fail_msg("%s e%u lane %u: 0x%llx, expected 0x%llx", wops[k].mn, sew, i, (unsigned long long)got,
                   (unsigned long long)zx(v, dw));
      }
      vt_device_destroy(d);
    }
}

/* vnsrl/vnsra (.wv .wx .wi) at SEW 8, 16, 32 and vzext/vsext */
static void test_narrow_extend(void **state) {
  (void)state;
  test_rng r = {0x4321ull};
  static const char *const nmn[] = {"vnsrl", "vnsra"};
  for (unsigned sew = 8; sew <= 32; sew *= 2)
    for (int k = 0; k < 2; k++)
      for (int f = 0; f < 3; f++) {
        unsigned dw = 2 * sew;
        uint64_t a[32], b[32];
        uint32_t scalar = test_rng32(&r), imm = test_rng32(&r) % 32;
        vt_device *d = ext_dev(2025);
        for (uint32_t i = 0; i < 32; i++) {
          a[i] = rnd_el(&r, dw);
          b[i] = rnd_el(&r, sew);
          wr_el(d, VA, dw, i, a[i]);
          wr_el(d, VB, sew, i, b[i]);
        }
        char line[96], src[1024];
        if (f == 0) snprintf(line, sizeof line, "%s.wv v6, v2, v4", nmn[k]);
        else if (f == 1) snprintf(line, sizeof line, "%s.wx v6, v2, a0", nmn[k]);
        else snprintf(line, sizeof line, "%s.wi v6, v2, %u", nmn[k], imm);
        vsew_prog(src, sizeof src, sew, dw, sew, scalar, ~0u, 32, 32, line);
        vt_error e = {0};
        if (ext_run(d, ISA_REV_2025, src, 32, &e)) fail_msg("%s: %s", line, e.msg);
        for (uint32_t i = 0; i < 32; i++) {
          unsigned sh = (unsigned)((f == 0 ? b[i] : f == 1 ? scalar : imm) % dw);
          uint64_t v = k ? (uint64_t)(sx(a[i], dw) >> sh) : a[i] >> sh;
          if (rd32(d, VOUT + 4 * i) != zx(v, sew)) fail_msg("%s e%u lane %u", line, sew, i);
        }
        vt_device_destroy(d);
      }
  for (unsigned sew = 16; sew <= 64; sew *= 2)
    for (unsigned fct = 2; fct <= 8 && sew / fct >= 8; fct *= 2)
      for (int sign = 0; sign < 2; sign++) {
        unsigned sw = sew / fct;
        uint64_t a[32];
        vt_device *d = ext_dev(2025);
        for (uint32_t i = 0; i < 32; i++) wr_el(d, VA, sw, i, a[i] = rnd_el(&r, sw));
        char line[64], src[1024];
        snprintf(line, sizeof line, "%s.vf%u v6, v2", sign ? "vsext" : "vzext", fct);
        unsigned st = sew == 64 ? 64 : 32;
        vsew_prog(src, sizeof src, sew, sw, sw, 0, ~0u, st, st, line);
        vt_error e = {0};
        if (ext_run(d, ISA_REV_2025, src, 32, &e)) fail_msg("%s: %s", line, e.msg);
        for (uint32_t i = 0; i < 32; i++) {
          uint64_t want = zx(sign ? (uint64_t)sx(a[i], sw) : a[i], sew);
          uint64_t got = st == 64 ? rd_el(d, VOUT, 64, i) : rd32(d, VOUT + 4 * i);
          if (got != want) fail_msg("%s e%u lane %u: 0x%llx", line, sew, i, (unsigned long long)got);
        }
        vt_device_destroy(d);
      }
}

/* loads and stores of every width: unit-stride, strided (a negative
 * stride too), indexed with every index width, masked; a narrow load
 * clears the register's upper bits */
static void test_memory(void **state) {
  (void)state;
  test_rng r = {0x9999ull};
  static const unsigned ws[] = {8, 16, 32, 64};
  for (size_t wi = 0; wi < 4; wi++) {
    unsigned w = ws[wi], bytes = w / 8;
    uint32_t mask = test_rng32(&r);
    /* unit-stride and strided: load A into v6 (its register checked at 32
     * bits), store it back to OUT unmasked and to OUT + 0x200 masked */
    for (int strided = 0; strided < 3; strided++) {
      int32_t stride = strided == 1 ? (int32_t)(3 * bytes) : -(int32_t)bytes;
      uint32_t base = strided == 2 ? VA + 31 * bytes : VA;
      char src[1024];
      const char *ld = strided ? "vlse" : "vle";
      snprintf(src, sizeof src,
               "li t0, 0x%08x\nli t1, %d\nli t3, 0x%08x\nli t5, 0x%08x\nli a1, 0x%08x\nli t4, 32\n"
               "vsetvli x0, t4, e32, m1, ta, ma\nvmv.v.x v0, a1\n"
               "vsetvli x0, t4, e%u, m1, ta, ma\n%s%u.v v6, (t0)%s\n"
               "vse%u.v v6, (t3)\n%s%u.v v6, (t5)%s, v0.t\n"
               "vsetvli x0, t4, e32, m1, ta, ma\nli t3, 0x%08x\nvse32.v v6, (t3)\nendprg x0, x0, x0\n",
               base, stride, VOUT, VOUT + 0x200 + (strided == 2 ? 31 * bytes : 0), mask, w, ld, w, strided ? ", t1" : "", w,
               strided ? "vsse" : "vse", w, strided ? ", t1" : "", VOUT + 0x800);
      vt_device *d = ext_dev(2025);
      uint64_t mem[3 * 32];
      for (uint32_t i = 0; i < 3 * 32; i++) wr_el(d, VA, w, i, mem[i] = rnd_el(&r, w));
      vt_error e = {0};
      if (ext_run(d, ISA_REV_2025, src, 32, &e)) fail_msg("e%u strided %d: %s", w, strided, e.msg);
      for (uint32_t i = 0; i < 32; i++) {
        uint32_t el = strided == 1 ? 3 * i : strided == 2 ? 31 - i : i;
        assert_true(rd_el(d, VOUT, w, i) == mem[el]);
        /* the masked store: lane i's element at its strided place, others untouched (0) */
        uint32_t at = strided == 1 ? 3 * i : strided == 2 ? 31 - i : i;
        uint32_t pos = VOUT + 0x200 + at * bytes;
        uint64_t got = rd_el(d, pos, w, 0);
        assert_true(got == (mask >> i & 1 ? mem[el] : 0));
        if (w < 32) assert_int_equal(rd32(d, VOUT + 0x800 + 4 * i), (uint32_t)mem[el]);
      }
      vt_device_destroy(d);
    }
    /* indexed: data at SEW w, indices of every width (byte offsets of a permutation) */
    for (size_t ii = 0; ii < 4; ii++) {
      unsigned iw = ws[ii];
      vt_device *d = ext_dev(2025);
      uint64_t mem[32], perm[32];
      for (uint32_t i = 0; i < 32; i++) perm[i] = i;
      for (uint32_t i = 31; i > 0; i--) {
        uint32_t j = test_rng32(&r) % (i + 1);
        uint64_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      for (uint32_t i = 0; i < 32; i++) {
        wr_el(d, VA, w, i, mem[i] = rnd_el(&r, w));
        wr_el(d, VB, iw, i, perm[i] * bytes);
      }
      char src[1024];
      snprintf(src, sizeof src,
               "li t0, 0x%08x\nli t1, 0x%08x\nli t3, 0x%08x\nli a1, 0x%08x\nli t4, 32\n"
               "vsetvli x0, t4, e32, m1, ta, ma\nvmv.v.x v0, a1\n"
               "vle%u.v v4, (t1)\n"
               "vsetvli x0, t4, e%u, m1, ta, ma\nvluxei%u.v v6, (t0), v4\nvse%u.v v6, (t3)\n"
               "li t3, 0x%08x\nvsoxei%u.v v6, (t3), v4, v0.t\nendprg x0, x0, x0\n",
               VA, VB, VOUT, mask, iw, w, iw, w, VOUT + 0x200, iw);
      vt_error e = {0};
      if (ext_run(d, ISA_REV_2025, src, 32, &e)) fail_msg("e%u index %u: %s", w, iw, e.msg);
      for (uint32_t i = 0; i < 32; i++) {
        assert_true(rd_el(d, VOUT, w, i) == mem[perm[i]]);
        assert_true(rd_el(d, VOUT + 0x200, w, (uint32_t)perm[i]) == (mask >> i & 1 ? mem[perm[i]] : 0));
      }
      vt_device_destroy(d);
    }
  }
  /* a 64-bit element must be 8-byte aligned; an odd pair faults */
  static const struct {
    const char *src, *msg;
    int kind;
  } bad[] = {
      {"li t0, 0x90000004\nvle64.v v2, (t0)\nendprg x0, x0, x0\n", "misaligned 8-byte load", VT_ERR_MISALIGNED},
      {"li t0, 0x90000000\nli t4, 4\nvsetvli x0, t4, e64, m1, ta, ma\n.word 0x0202f1a7\nendprg x0, x0, x0\n",
       "v3 is odd", VT_ERR_ILLEGAL},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    vt_device *d = ext_dev(2025);
    vt_error e = {0};
    assert_int_equal(ext_run(d, ISA_REV_2025, bad[k].src, 4, &e), -1);
    assert_int_equal(e.kind, bad[k].kind);
    if (!strstr(e.msg, bad[k].msg)) fail_msg("%s", e.msg);
    vt_device_destroy(d);
  }
}

/* vadc/vsbc/vmadc/vmsbc at every SEW: the carry in from bit i of v0 */
static void test_carry(void **state) {
  (void)state;
  test_rng r = {0xca77ull};
  static const char *const mns[] = {"vadc.vvm", "vadc.vxm", "vadc.vim", "vmadc.vvm", "vmadc.vxm", "vmadc.vim",
                                    "vmadc.vv", "vmadc.vx", "vmadc.vi", "vsbc.vvm", "vsbc.vxm",  "vmsbc.vvm",
                                    "vmsbc.vxm", "vmsbc.vv", "vmsbc.vx"};
  static const unsigned sews[] = {8, 16, 32, 64};
  for (size_t s = 0; s < 4; s++)
    for (size_t k = 0; k < sizeof mns / sizeof mns[0]; k++) {
      case_t c = {.sew = sews[s], .nt = 32};
      unsigned sew = c.sew;
      for (uint32_t i = 0; i < 32; i++) {
        c.a[i] = rnd_el(&r, sew);
        c.b[i] = rnd_el(&r, sew);
        c.old[i] = sew == 64 ? test_rng64(&r) : test_rng32(&r);
      }
      uint32_t scalar = test_rng32(&r), sel = test_rng32(&r);
      int imm = (int)(test_rng32(&r) % 32) - 16;
      const char *mn = mns[k], *dot = strchr(mn, '.');
      int sub = mn[1] == 's' || mn[2] == 's', out = mn[1] == 'm', cin = dot[3] == 'm';
      char f = dot[2], line[96], src[1024];
      snprintf(line, sizeof line, "%s v6, v2, %s%s", mn, f == 'v' ? "v4" : f == 'x' ? "a0" : "-5",
               cin ? ", v0" : "");
      if (f == 'i') snprintf(line, sizeof line, "%s v6, v2, %d%s", mn, imm, cin ? ", v0" : "");
      unsigned st = sew == 64 && !out ? 64 : 32;
      vsew_prog(src, sizeof src, sew, sew, sew, scalar, sel, sew == 64 ? 64 : 32, st, line);
      vt_device *d = vsew_run(src, 32, fill, &c);
      uint64_t bx = sew == 64 ? (uint64_t)(int64_t)(int32_t)scalar : zx(scalar, sew), exp[32];
      for (uint32_t i = 0; i < 32; i++) {
        unsigned __int128 a = c.a[i], b = f == 'v' ? c.b[i] : f == 'x' ? bx : zx((uint64_t)(int64_t)imm, sew);
        unsigned __int128 ci = cin ? sel >> i & 1 : 0;
        unsigned __int128 v = sub ? a - b - ci : a + b + ci;
        exp[i] = out ? (sub ? (a < b + ci) : (uint64_t)(v >> sew) & 1) : zx((uint64_t)v, sew);
      }
      char what[64];
      snprintf(what, sizeof what, "%s e%u", mn, sew);
      check_lanes(d, &c, ~0u, exp, st, what);
      vt_device_destroy(d);
    }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_single_width),
      cmocka_unit_test(test_moves),
      cmocka_unit_test(test_vsetvli),
      cmocka_unit_test(test_unsupported),
      cmocka_unit_test(test_widening),
      cmocka_unit_test(test_narrow_extend),
      cmocka_unit_test(test_memory),
      cmocka_unit_test(test_carry),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
