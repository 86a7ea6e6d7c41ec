/* Executor tests, part 1: the SFU/tensor custom instructions (vfexp.v,
 * vftta.vv) and the RVV unit-stride, strided and indexed memory
 * instructions under a partial SIMT mask. Every expected value is computed
 * here in plain C (host libm, fmaf), never taken from the simulator. */
#include "test_core_more.h"

/* ---- vfexp.v: (float)exp((double)x) per lane; NaNs come back unchanged;
 * custom ops ignore v0 masking (docs/isa.md §4). -------------------------- */
static void vfexp_values(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  const uint32_t in[16] = {
      bits_of(0.0f),   bits_of(-0.0f),  bits_of(1.0f),    bits_of(-1.0f),
      bits_of(0.5f),   bits_of(10.0f),  bits_of(88.5f),   bits_of(89.0f),  /* overflows to inf */
      bits_of(-87.0f), bits_of(-100.f), bits_of(-104.0f), bits_of(1e-8f),  /* subnormal, 0 */
      0x7f800000u,     0xff800000u,     0xffc12345u,      0x7fc00000u,     /* inf, -inf, NaNs */
  };
  wr_words(d, DATA_BASE, in, 16);
  load_asm(d, "  li a0, 0x90000000\n"
              "  vle32.v v1, (a0)\n"
              "  vmv.v.i v0, 0\n"           /* v0 = 0: a standard op with v0.t would do nothing */
              "  vfexp.v v2, v1, v0.t\n"
              "  addi a1, a0, 0x100\n"
              "  vse32.v v2, (a1)\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 16, 1);
  launch_ok(d, &l);
  for (uint32_t i = 0; i < 16; i++) {
    float x = float_of(in[i]);
    uint32_t want = isnan(x) ? in[i] : bits_of((float)exp((double)x));
    if (rd32(d, DATA_BASE + 0x100 + 4 * i) != want)
      fail_msg("lane %u: exp(0x%08x) = 0x%08x, expected 0x%08x", i, in[i],
               rd32(d, DATA_BASE + 0x100 + 4 * i), want);
  }
  /* a few values that must hold whatever the libm: */
  assert_int_equal(rd32(d, DATA_BASE + 0x100 + 4 * 0), 0x3f800000u);  /* e^0 = 1 */
  assert_int_equal(rd32(d, DATA_BASE + 0x100 + 4 * 7), 0x7f800000u);  /* e^89 = inf */
  assert_int_equal(rd32(d, DATA_BASE + 0x100 + 4 * 13), 0);           /* e^-inf = +0 */
  assert_int_equal(rd32(d, DATA_BASE + 0x100 + 4 * 14), 0xffc12345u); /* NaN, sign set, kept */
  vt_device_destroy(d);
}

/* ---- vftta.vv (docs/isa.md §2.2, ISS riscv/insns/vftta_vv.h) ---------------
 * lanes i >= vl/2: vd[i] = float(i + 7);
 * lanes i <  vl/2: for j = 0 .. vl/4-1 in order,
 *                  vd[i] = fmaf(vs1[((i>>2)<<3)+j], vs2[((i&3)<<3)+j], vd[i])
 * (SoftFloat f32_mulAdd: fused, one rounding per step). Element k of a
 * register is lane k % nt of register reg + k / nt (spike's elt()). */
enum { TT_VD = 3, TT_VS1 = 4, TT_VS2 = 5, TT_NREG = 8 }; /* registers v3..v10 are set */

static float tt_value(int reg, uint32_t lane) {
  /* 1 + k/2^16 (17 significant bits), alternating sign: products round */
  float m = 1.0f + (float)((reg * 7919 + (int)lane * 10007) % 65521) / 65536.0f;
  return (lane + (uint32_t)reg) & 1 ? -m : m;
}

static void vftta_run(uint32_t nt) {
  vt_device *d = mkdev(NULL);
  uint32_t R[TT_NREG][32];
  for (int r = 0; r < TT_NREG; r++)
    for (uint32_t i = 0; i < 32; i++) R[r][i] = bits_of(tt_value(r + TT_VD, i));
  for (int r = 0; r < TT_NREG; r++) wr_words(d, DATA_BASE + 0x80 * (uint32_t)r, R[r], nt);
  char src[2048];
  int n = snprintf(src, sizeof src, "  li a0, 0x90000000\n");
  for (int r = 0; r < TT_NREG; r++)
    n += snprintf(src + n, sizeof src - (size_t)n, "  vle32.v v%d, (a0)\n  addi a0, a0, 0x80\n",
                  r + TT_VD);
  snprintf(src + n, sizeof src - (size_t)n,
           "  vftta.vv v3, v5, v4\n" /* vd, vs2, vs1 */
           "  li a0, 0x90001000\n"
           "  vse32.v v3, (a0)\n"
           "  endprg x0, x0, x0\n");
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, nt, 1);
  launch_ok(d, &l);
  uint32_t vl = nt, fused_vs_split = 0;
#define ELT(reg, k) float_of(R[(reg) - TT_VD + (k) / nt][(k) % nt])
  for (uint32_t i = 0; i < vl; i++) {
    float want, split;
    if (i >= vl / 2) {
      want = split = (float)(i + 7);
    } else {
      want = split = float_of(R[0][i]);
      for (uint32_t j = 0; j < vl / 4; j++) {
        uint32_t ia = ((i >> 2) << 3) + j, ib = ((i & 3) << 3) + j;
        want = fmaf(ELT(TT_VS1, ia), ELT(TT_VS2, ib), want);
        float p = ELT(TT_VS1, ia) * ELT(TT_VS2, ib);
        split = split + p;
      }
    }
    uint32_t got = rd32(d, DATA_BASE + 0x1000 + 4 * i);
    if (got != bits_of(want))
      fail_msg("nt %u lane %u: got 0x%08x (%g), expected 0x%08x (%g)", nt, i, got,
               (double)float_of(got), bits_of(want), (double)want);
    fused_vs_split += bits_of(want) != bits_of(split);
  }
#undef ELT
  if (nt == 32) assert_true(fused_vs_split > 0); /* the data tells fused from split */
  vt_device_destroy(d);
}

static void vftta_32(void **state) {
  (void)state;
  vftta_run(32);
}
/* 8 lanes: vs2 elements up to 25 come from v6..v8 */
static void vftta_8(void **state) {
  (void)state;
  vftta_run(8);
}

/* ---- RVV memory instructions under a partial SIMT mask ----------------------
 * 8 lanes; lanes 1, 4, 5, 7 (mask 0xb2) run the body through a divergent
 * branch. Loads must leave the other lanes' registers alone, stores must not
 * touch the other lanes' words. */
#define SRC 0x90001000u
#define IDX1 0x90001200u
#define IDX2 0x90001240u
#define DST 0x90002000u /* + 0x100 * k: unit, strided, ordered-indexed, unordered-indexed */
#define OUT 0x90003000u /* + 0x40 * k: v10..v14 after the region */
#define MASK 0xb2u

static const char masked_mem_src[] =
    "  li a0, 0x90001000\n" /* SRC */
    "  li a1, 12\n"         /* stride */
    "  li a2, 0x90002000\n"
    "  li a3, 0x90002100\n"
    "  li a4, 0x90002200\n"
    "  li a5, 0x90002300\n"
    "  li a6, -4\n"
    "  li a7, 0x90001080\n" /* SRC + 0x80, read downwards */
    "  li t0, 0x90001200\n"
    "  vle32.v v6, (t0)\n"
    "  li t0, 0x90001240\n"
    "  vle32.v v7, (t0)\n"
    "  vid.v v1\n"
    "  li t0, 0x11110000\n" /* sentinels: v10 = 0x11110000 .. v14 = 0x11110004 */
    "  vmv.v.x v10, t0\n  addi t0, t0, 1\n"
    "  vmv.v.x v11, t0\n  addi t0, t0, 1\n"
    "  vmv.v.x v12, t0\n  addi t0, t0, 1\n"
    "  vmv.v.x v13, t0\n  addi t0, t0, 1\n"
    "  vmv.v.x v14, t0\n"
    "  li t0, 1000\n"
    "  vadd.vx v20, v1, t0\n" /* store data 1000 + i */
    "  li t0, 0xb2\n"
    "  vmv.v.x v2, t0\n"
    "  vsrl.vv v2, v2, v1\n"
    "  vand.vi v2, v2, 1\n"
    "  vmv.v.i v3, 0\n"
    "  la t1, .Ljoin\n"
    "  setrpc zero, t1, 0\n"
    "  vbne v2, v3, .Lbody\n" /* lanes of MASK go to the body */
    "  j .Ljoin\n"
    ".Lbody:\n"
    "  vle32.v v10, (a0)\n"
    "  vlse32.v v11, (a0), a1\n"
    "  vloxei32.v v12, (a0), v6\n"
    "  vluxei32.v v13, (a0), v7\n"
    "  vlse32.v v14, (a7), a6\n"
    "  vse32.v v20, (a2)\n"
    "  vsse32.v v20, (a3), a1\n"
    "  vsoxei32.v v20, (a4), v6\n"
    "  vsuxei32.v v20, (a5), v7\n"
    ".Ljoin:\n"
    "  join zero, zero, 0\n"
    "  li t2, 0x90003000\n"
    "  vse32.v v10, (t2)\n  addi t2, t2, 0x40\n"
    "  vse32.v v11, (t2)\n  addi t2, t2, 0x40\n"
    "  vse32.v v12, (t2)\n  addi t2, t2, 0x40\n"
    "  vse32.v v13, (t2)\n  addi t2, t2, 0x40\n"
    "  vse32.v v14, (t2)\n"
    "  endprg x0, x0, x0\n";

static void masked_memory(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  uint32_t src[64], idx1[8], idx2[8], fill[256];
  for (uint32_t k = 0; k < 64; k++) src[k] = 0x5000 + k;
  for (uint32_t i = 0; i < 8; i++) {
    idx1[i] = 4 * ((5 * i + 3) % 16); /* distinct word offsets */
    idx2[i] = 4 * ((3 * i + 1) % 16);
  }
  for (uint32_t k = 0; k < 256; k++) fill[k] = 0xaaaa0000u + k;
  wr_words(d, SRC, src, 64);
  wr_words(d, IDX1, idx1, 8);
  wr_words(d, IDX2, idx2, 8);
  wr_words(d, DST, fill, 256);
  load_asm(d, masked_mem_src);
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  launch_ok(d, &l);

  /* loads: active lanes got the element, the others kept the sentinel */
  for (uint32_t i = 0; i < 8; i++) {
    int on = MASK >> i & 1;
    const uint32_t want[5] = {src[i], src[3 * i], src[idx1[i] / 4], src[idx2[i] / 4], src[32 - i]};
    for (uint32_t k = 0; k < 5; k++) {
      uint32_t got = rd32(d, OUT + 0x40 * k + 4 * i);
      uint32_t exp_ = on ? want[k] : 0x11110000u + k;
      if (got != exp_) fail_msg("load %u lane %u: got 0x%x, expected 0x%x", k, i, got, exp_);
    }
  }
  /* stores: the expected image of each destination region, word by word */
  uint32_t img[256];
  memcpy(img, fill, sizeof img);
  for (uint32_t i = 0; i < 8; i++) {
    if (!(MASK >> i & 1)) continue;
    img[0x00 + i] = 1000 + i;                /* vse32: DST + 4i */
    img[0x40 + 3 * i] = 1000 + i;            /* vsse32: DST + 0x100 + 12i */
    img[0x80 + idx1[i] / 4] = 1000 + i;      /* vsoxei32 */
    img[0xc0 + idx2[i] / 4] = 1000 + i;      /* vsuxei32 */
  }
  for (uint32_t k = 0; k < 256; k++) {
    uint32_t got = rd32(d, DST + 4 * k);
    if (got != img[k]) fail_msg("word 0x%08x: got 0x%x, expected 0x%x", DST + 4 * k, got, img[k]);
  }
  const vt_stats *s = vt_device_stats(d);
  /* 2 full-mask index loads (16 lanes), 5 masked loads and 4 masked stores of 4 lanes,
   * 5 full-mask stores of the results */
  assert_int_equal(s->loads, 16 + 5 * 4);
  assert_int_equal(s->stores, 4 * 4 + 5 * 8);
  vt_device_destroy(d);
}

/* A vector branch compares the lanes of the thread mask below vl only
 * (docs/isa.md §4): with 8 threads and vl = 4, lane 5 equal to the other
 * operand takes nothing (one path, no divergence), lane 2 equal does (both
 * paths run). Each path stores a 1 to its own word. */
static void vbranch_lanes_below_vl(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, "  li t0, 8\n"
              "  vsetvli t0, t0, e32, m1, ta, ma\n"
              "  vid.v v1\n"
              "  vmv.v.i v3, 5\n"
              "  vmv.v.i v4, 2\n"
              "  li t0, 4\n"
              "  vsetvli t0, t0, e32, m1, ta, ma\n"
              "  li a0, 0x90001000\n"
              "  li t2, 1\n"
              "  la t1, .Lj1\n"
              "  setrpc zero, t1, 0\n"
              "  vbeq v1, v3, .Lt1\n"
              "  sw t2, 0(a0)\n"
              "  j .Lj1\n"
              ".Lt1:\n"
              "  sw t2, 4(a0)\n"
              ".Lj1:\n"
              "  join zero, zero, 0\n"
              "  la t1, .Lj2\n"
              "  setrpc zero, t1, 0\n"
              "  vbeq v1, v4, .Lt2\n"
              "  sw t2, 8(a0)\n"
              "  j .Lj2\n"
              ".Lt2:\n"
              "  sw t2, 12(a0)\n"
              ".Lj2:\n"
              "  join zero, zero, 0\n"
              "  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  launch_ok(d, &l);
  assert_int_equal(rd32(d, 0x90001000u), 1);
  assert_int_equal(rd32(d, 0x90001004u), 0);
  assert_int_equal(rd32(d, 0x90001008u), 1);
  assert_int_equal(rd32(d, 0x9000100cu), 1);
  assert_int_equal(vt_device_stats(d)->divergent_branches, 1);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vfexp_values),
      cmocka_unit_test(vftta_32),
      cmocka_unit_test(vftta_8),
      cmocka_unit_test(masked_memory),
      cmocka_unit_test(vbranch_lanes_below_vl),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
