/* The whole-register paths as the vector fp handlers use them
 * (src/core/exec_fp.c, exec_custom.c): vfadd.vv, vfdiv.vv, vfsqrt.v and
 * vfexp.v on 32 lanes, with every destination a register that is not a
 * source (the batch then writes it directly) and with the destination a
 * source (through scratch). A register with one lane outside the batch's
 * domain sends the instruction to the per-lane path after the batch has
 * written part of vd: every lane must still be the software result and
 * fflags the OR of the software flags. Expected values: the exact software
 * paths (fp32_*_soft, fp32_exp), lane by lane; each run again with NX
 * raised before every instruction. test_partial_mask: the
 * same under a v0.t mask, lanes off it keeping their old values. */
#include "test_core_more.h"

#include "fp32.h"

#define NT 32

/* the six results v3..v7 and LAST to DATA_BASE + 0x100 + 0x80 * k, then the end */
#define STORE_RESULTS(LAST)                                                                 \
  "  addi a2, a0, 0x100\n"                                                                 \
  "  vse32.v v3, (a2)\n"                                                                   \
  "  addi a2, a2, 0x80\n"                                                                  \
  "  vse32.v v4, (a2)\n"                                                                   \
  "  addi a2, a2, 0x80\n"                                                                  \
  "  vse32.v v5, (a2)\n"                                                                   \
  "  addi a2, a2, 0x80\n"                                                                  \
  "  vse32.v v6, (a2)\n"                                                                   \
  "  addi a2, a2, 0x80\n"                                                                  \
  "  vse32.v v7, (a2)\n"                                                                   \
  "  addi a2, a2, 0x80\n"                                                                  \
  "  vse32.v " LAST ", (a2)\n"                                                             \
  "  endprg x0, x0, x0\n"

/* nx 0: fflags cleared before each instruction; 1: NX raised before each
 * (the batches then skip their NX checks, fp_nx_known) and expected in
 * every flag word beside the software's flags */
/* a (at DATA_BASE) into v1, b (0x80 on) into v2; a0 = DATA_BASE */
#define LOAD_AB                                                                             \
  "  li a0, 0x90000000\n"                                                                  \
  "  vle32.v v1, (a0)\n"                                                                   \
  "  addi a1, a0, 0x80\n"                                                                  \
  "  vle32.v v2, (a1)\n"

/* a device holding a and b, whose program src is made next */
static vt_device *with_ab(const uint32_t a[NT], const uint32_t b[NT]) {
  vt_device *d = mkdev(NULL);
  wr_words(d, DATA_BASE, a, NT);
  wr_words(d, DATA_BASE + 0x80, b, NT);
  return d;
}

static void run_case_nx(const uint32_t a[NT], const uint32_t b[NT], unsigned nx) {
  vt_device *d = with_ab(a, b);
  char src[2048];
  snprintf(src, sizeof src,
           LOAD_AB
           "  vmv.v.v v7, v1\n"
           "  vmv.v.v v8, v1\n"
           "  csrrwi x0, fflags, %1$u\n"
           "  vfadd.vv v3, v1, v2\n" /* into vd directly */
           "  csrrwi t0, fflags, %1$u\n"
           "  sw t0, 0x400(a0)\n"
           "  vfdiv.vv v4, v1, v2\n"
           "  csrrwi t0, fflags, %1$u\n"
           "  sw t0, 0x404(a0)\n"
           "  vfsqrt.v v5, v1\n"
           "  csrrwi t0, fflags, %1$u\n"
           "  sw t0, 0x408(a0)\n"
           "  vfexp.v v6, v1\n"
           "  csrrwi t0, fflags, %1$u\n"
           "  sw t0, 0x40c(a0)\n"
           "  vfadd.vv v7, v7, v2\n" /* vd a source: through scratch */
           "  csrrwi t0, fflags, %1$u\n"
           "  sw t0, 0x410(a0)\n"
           "  vfsqrt.v v8, v8\n"
           "  csrrwi t0, fflags, %1$u\n"
           "  sw t0, 0x414(a0)\n"
           STORE_RESULTS("v8"), nx);
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, NT, 1);
  launch_ok(d, &l);
  uint32_t flags[6] = {nx, nx, nx, nx, nx, nx};
  for (uint32_t i = 0; i < NT; i++) {
    uint32_t exp_flags = 0; /* vfexp.v raises none */
    uint32_t want[6] = {
        fp32_add_soft(a[i], b[i], FP_RNE, &flags[0]), fp32_div_soft(a[i], b[i], FP_RNE, &flags[1]),
        fp32_sqrt_soft(a[i], FP_RNE, &flags[2]),      fp32_exp(a[i], &exp_flags),
        fp32_add_soft(a[i], b[i], FP_RNE, &flags[4]), fp32_sqrt_soft(a[i], FP_RNE, &flags[5])};
    for (uint32_t k = 0; k < 6; k++) {
      uint32_t got = rd32(d, DATA_BASE + 0x100 + 0x80 * k + 4 * i);
      if (got != want[k])
        fail_msg("NX %u before: result %u, lane %u (a %08x, b %08x): %08x, expected %08x", nx, k, i,
                 a[i], b[i], got, want[k]);
    }
  }
  for (uint32_t k = 0; k < 6; k++)
    if (rd32(d, DATA_BASE + 0x400 + 4 * k) != flags[k])
      fail_msg("NX %u before: flags of instruction %u: %x, expected %x", nx, k,
               rd32(d, DATA_BASE + 0x400 + 4 * k), flags[k]);
  vt_device_destroy(d);
}

static void run_case(const uint32_t a[NT], const uint32_t b[NT]) {
  run_case_nx(a, b, 0);
  run_case_nx(a, b, 1);
}

/* The same on a partial mask (v0.t): lanes off the mask hold specials the
 * batch could not take and must keep vd's old value (the lane number);
 * results and flags come from the mask's lanes only. vd is a register
 * apart, then a source (vfmul.vv v1, v1, v2 last). */
static void run_masked(const uint32_t a[NT], const uint32_t b[NT], uint32_t mask) {
  vt_device *d = with_ab(a, b);
  char src[2048];
  snprintf(src, sizeof src,
           LOAD_AB
           "  li t0, %u\n"
           "  vmv.v.x v0, t0\n"
           "  vid.v v3\n"
           "  vid.v v4\n"
           "  vid.v v5\n"
           "  vid.v v6\n"
           "  vid.v v7\n"
           "  csrrw x0, fflags, x0\n"
           "  vfadd.vv v3, v1, v2, v0.t\n"
           "  csrrw t0, fflags, x0\n"
           "  sw t0, 0x400(a0)\n"
           "  vfsub.vv v4, v1, v2, v0.t\n"
           "  csrrw t0, fflags, x0\n"
           "  sw t0, 0x404(a0)\n"
           "  vfdiv.vv v5, v1, v2, v0.t\n"
           "  csrrw t0, fflags, x0\n"
           "  sw t0, 0x408(a0)\n"
           "  vfsqrt.v v6, v1, v0.t\n"
           "  csrrw t0, fflags, x0\n"
           "  sw t0, 0x40c(a0)\n"
           "  vfmul.vf v7, v1, %s, v0.t\n"
           "  csrrw t0, fflags, x0\n"
           "  sw t0, 0x410(a0)\n"
           "  vfmul.vv v1, v1, v2, v0.t\n"
           "  csrrw t0, fflags, x0\n"
           "  sw t0, 0x414(a0)\n"
           STORE_RESULTS("v1"),
           mask, "t1");
  /* t1 = 3.0f, the scalar operand of vfmul.vf */
  char full[2300];
  snprintf(full, sizeof full, "  li t1, 0x40400000\n%s", src);
  load_asm(d, full);
  vt_launch l = mklaunch(1, 1, 1, NT, 1);
  launch_ok(d, &l);
  uint32_t flags[6] = {0};
  for (uint32_t i = 0; i < NT; i++) {
    uint32_t want[6];
    if (mask >> i & 1) {
      want[0] = fp32_add_soft(a[i], b[i], FP_RNE, &flags[0]);
      want[1] = fp32_sub_soft(a[i], b[i], FP_RNE, &flags[1]);
      want[2] = fp32_div_soft(a[i], b[i], FP_RNE, &flags[2]);
      want[3] = fp32_sqrt_soft(a[i], FP_RNE, &flags[3]);
      want[4] = fp32_mul_soft(a[i], 0x40400000u, FP_RNE, &flags[4]);
      want[5] = fp32_mul_soft(a[i], b[i], FP_RNE, &flags[5]);
    } else {
      for (uint32_t k = 0; k < 5; k++) want[k] = i; /* vid.v's value kept */
      want[5] = a[i];                               /* vd was the source a */
    }
    for (uint32_t k = 0; k < 6; k++) {
      uint32_t got = rd32(d, DATA_BASE + 0x100 + 0x80 * k + 4 * i);
      if (got != want[k])
        fail_msg("mask %08x: result %u, lane %u (a %08x, b %08x): %08x, expected %08x", mask, k, i,
                 a[i], b[i], got, want[k]);
    }
  }
  for (uint32_t k = 0; k < 6; k++)
    if (rd32(d, DATA_BASE + 0x400 + 4 * k) != flags[k])
      fail_msg("mask %08x: flags of instruction %u: %x, expected %x", mask,
               k, rd32(d, DATA_BASE + 0x400 + 4 * k), flags[k]);
  vt_device_destroy(d);
}

static void test_partial_mask(void **state) {
  (void)state;
  static const uint32_t masks[] = {0x0000ffffu, 0x55555555u, 0x80000001u, 0x00000100u, 0xfffffffeu};
  uint32_t a[NT], b[NT];
  for (uint32_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
    for (uint32_t i = 0; i < NT; i++) {
      int on = masks[m] >> i & 1;
      /* off the mask: zero, NaN, a subnormal, infinity (outside every batch) */
      static const uint32_t off[4] = {0x00000000u, 0x7fc00000u, 0x00000005u, 0xff800000u};
      a[i] = on ? 0x3fc00000u + i * 0x2345u : off[i % 4];
      b[i] = on ? 0x40400000u - i * 0x1234u : off[(i + 1) % 4];
    }
    run_masked(a, b, masks[m]); /* the batch on the mask's lanes */
    uint32_t lane = (uint32_t)__builtin_ctz(masks[m]), keep = b[lane];
    b[lane] = 0; /* a zero divisor on the mask: the per-lane path, from scratch */
    run_masked(a, b, masks[m]);
    b[lane] = keep;
  }
}

static void test_whole_and_fallback(void **state) {
  (void)state;
  static const uint32_t specials[] = {0x00000000u, 0x80000000u, 0x00000003u, 0xbf800000u,
                                      0x7f800000u, 0x7fc00000u, 0x7f800001u, 0x7f7fffffu};
  uint32_t a[NT], b[NT];
  for (uint32_t i = 0; i < NT; i++) {
    a[i] = 0x3fc00000u + i * 0x2345u; /* 1.5 and up: every lane in every domain */
    b[i] = 0x40400000u - i * 0x1234u; /* about 3 */
  }
  run_case(a, b);
  for (uint32_t s = 0; s < sizeof specials / sizeof specials[0]; s++) {
    uint32_t lane = (s * 11 + 5) % NT, keep_a = a[lane], keep_b = b[lane];
    a[lane] = specials[s]; /* a special operand of every operation */
    run_case(a, b);
    a[lane] = keep_a;
    b[lane] = specials[s]; /* a special divisor and addend */
    run_case(a, b);
    b[lane] = keep_b;
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_whole_and_fallback),
      cmocka_unit_test(test_partial_mask),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
