/* vremu.vx and vdivu.vx divide all lanes by one scalar through its
 * reciprocal, or a power of two by a shift and a mask
 * (src/core/exec_vector.c); against C's / and % (and the RISC-V rules for
 * a zero divisor: quotient all ones, remainder the dividend) on 32 lanes of
 * edge and random dividends for edge divisors (0, 1, powers of two,
 * 2^32 - 1, the factors 641 and 6700417 of 2^32 + 1, ...) and random ones,
 * with the .vv forms (still dividing per lane) as a second opinion. */
#include "test_core_more.h"

#include "test_rng.h"

#define NDIV 96u
#define DIVS (DATA_BASE + 0x1000u)  /* NDIV divisors */
#define LANES_IN (DATA_BASE + 0x2000u) /* 32 dividends */
#define OUT (DATA_BASE + 0x4000u)   /* per divisor: 32 remainders, 32 quotients, the same by .vv */

static void fill(uint32_t *div, uint32_t *a) {
  static const uint32_t edge_div[] = {0,          1,          2,          3,          5,          6,
                                      7,          10,         641,        6700417,    0x55555555u, 0xaaaaaaabu,
                                      0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 0xffffffffu, 1u << 16,
                                      (1u << 16) + 1, 0xfffffu,  1u << 30,   12345679,   65535,      3u << 30,
                                      4,          16,         256};
  static const uint32_t edge_a[] = {0,           1,           2,           3,          5,          7,
                                    0xff,        0x100,       0xfff,       0x10000,    0x7ffffffeu, 0x7fffffffu,
                                    0x80000000u, 0x80000001u, 0xfffffffdu, 0xfffffffeu, 0xffffffffu, 641u * 6700417u};
  test_rng r = {0x9e3779b97f4a7c15ull};
  size_t ne = sizeof edge_div / sizeof *edge_div, na = sizeof edge_a / sizeof *edge_a;
  for (uint32_t k = 0; k < NDIV; k++)
    div[k] = k < ne ? edge_div[k] : (uint32_t)(test_rng64(&r) >> (k % 3 == 0 ? 40 : 32));
  for (uint32_t i = 0; i < 32; i++) a[i] = i < na ? edge_a[i] : test_rng32(&r);
}

static void vdivu_vremu_by_one_divisor(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  uint32_t div[NDIV], a[32];
  fill(div, a);
  wr_words(d, DIVS, div, NDIV);
  wr_words(d, LANES_IN, a, 32);
  char src[1024];
  snprintf(src, sizeof src,
           "  vid.v v1\n"
           "  vsll.vi v1, v1, 2\n"           /* 4i */
           "  li a0, 0x%08x\n"
           "  vadd.vx v2, v1, a0\n"
           "  vlw12.v v3, 0(v2)\n"           /* dividends */
           "  li s0, 0x%08x\n"               /* divisors */
           "  li s1, 0x%08x\n"               /* out */
           "  li t1, %u\n"
           "loop:\n"
           "  lw a1, 0(s0)\n"
           "  vmv.v.x v9, a1\n"
           "  vremu.vx v4, v3, a1\n"
           "  vdivu.vx v5, v3, a1\n"
           "  vremu.vv v6, v3, v9\n"
           "  vdivu.vv v7, v3, v9\n"
           "  vadd.vx v8, v1, s1\n"
           "  vsw12.v v4, 0(v8)\n"
           "  vsw12.v v5, 128(v8)\n"
           "  vsw12.v v6, 256(v8)\n"
           "  vsw12.v v7, 384(v8)\n"
           "  addi s0, s0, 4\n"
           "  addi s1, s1, 512\n"
           "  addi t1, t1, -1\n"
           "  bnez t1, loop\n"
           "  endprg x0, x0, x0\n",
           LANES_IN, DIVS, OUT, NDIV);
  load_asm(d, src);
  vt_launch l = mklaunch(1, 1, 1, 32, 1);
  launch_ok(d, &l);
  for (uint32_t k = 0; k < NDIV; k++)
    for (uint32_t i = 0; i < 32; i++) {
      uint32_t b = div[k], rem = b ? a[i] % b : a[i], quo = b ? a[i] / b : 0xffffffffu;
      uint32_t at = OUT + 512 * k + 4 * i;
      if (rd32(d, at) != rem || rd32(d, at + 128) != quo)
        fail_msg("%u / %u: remainder %u quotient %u, expected %u %u", a[i], b, rd32(d, at), rd32(d, at + 128),
                 rem, quo);
      assert_int_equal(rd32(d, at + 256), rem);
      assert_int_equal(rd32(d, at + 384), quo);
    }
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(vdivu_vremu_by_one_divisor),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
