/* Helpers for the element-width tests of revision 2025 (test_isaext_vsew.c,
 * test_isaext_vfixed.c): element values of each SEW in memory, random
 * values with the edges mixed in, and one-instruction programs that load
 * their operands, run the instruction and store vd. Expected values come
 * from plain C in the tests (int8_t..int64_t casts, __int128). */
#ifndef ISAEXT_VSEW_H
#define ISAEXT_VSEW_H

#include "isaext_prog.h"
#include "test_rng.h"

/* memory: A, B (vs2, vs1 operands), OLD (vd before), OUT (vd after) */
#define VA (DATA_BASE + 0x0000u)
#define VB (DATA_BASE + 0x0400u)
#define VOLD (DATA_BASE + 0x0800u)
#define VOUT (DATA_BASE + 0x0c00u)
#define VXOUT (DATA_BASE + 0x1000u)

static inline int64_t sx(uint64_t v, unsigned sew) {
  switch (sew) {
  case 8: return (int8_t)v;
  case 16: return (int16_t)v;
  case 32: return (int32_t)v;
  default: return (int64_t)v;
  }
}
static inline uint64_t zx(uint64_t v, unsigned sew) { return sew == 64 ? v : v & ((1ull << sew) - 1); }

/* element i of an array of sew-bit elements at addr */
static inline void wr_el(vt_device *d, uint32_t addr, unsigned sew, uint32_t i, uint64_t v) {
  uint32_t a = addr + i * (sew / 8);
  if (sew == 64) {
    wr32(d, a, (uint32_t)v);
    wr32(d, a + 4, (uint32_t)(v >> 32));
    return;
  }
  uint32_t w = rd32(d, a & ~3u), sh = 8 * (a & 3), m = sew == 32 ? ~0u : ((1u << sew) - 1) << sh;
  wr32(d, a & ~3u, (w & ~m) | ((uint32_t)v << sh & m));
}
static inline uint64_t rd_el(vt_device *d, uint32_t addr, unsigned sew, uint32_t i) {
  uint32_t a = addr + i * (sew / 8);
  if (sew == 64) return (uint64_t)rd32(d, a + 4) << 32 | rd32(d, a);
  return zx(rd32(d, a & ~3u) >> (8 * (a & 3)), sew);
}

/* a random sew-bit value, one time in four an edge (0, 1, -1, min, max) */
static inline uint64_t rnd_el(test_rng *r, unsigned sew) {
  uint64_t v = test_rng64(r);
  if ((v & 3) == 0) {
    static const uint64_t edge[] = {0, 1, ~0ull, 0x8000000000000000ull, 0x7fffffffffffffffull, 2};
    uint64_t e = edge[(v >> 2) % 6];
    if (e >> 60 == 8) return 1ull << (sew - 1);
    if (e >> 60 == 7) return zx(~0ull, sew) >> 1;
    return zx(e, sew);
  }
  return zx(v >> 3, sew);
}

/* The program: vd = v6 preloaded from OLD (32-bit words, 64-bit pairs at
 * sew 64), vs2 = v2 from A, vs1 = v4 from B (at their widths w2, w1), the
 * scalar a0, v0 = mask; `line` at SEW sew; vd stored to OUT as 32-bit
 * words (store 32) or at SEW 64 as pairs (store 64); a1 = x result to
 * VXOUT. */
static inline void vsew_prog(char *src, size_t len, unsigned sew, unsigned w2, unsigned w1, uint32_t scalar,
                             uint32_t mask, unsigned oldw, unsigned storew, const char *line) {
  snprintf(src, len,
           "li t0, 0x%08x\nli t1, 0x%08x\nli t2, 0x%08x\nli t3, 0x%08x\nli t5, 0x%08x\n"
           "li a0, 0x%08x\nli a1, 0x%08x\nli t4, 32\n"
           "vsetvli x0, t4, e32, m1, ta, ma\nvmv.v.x v0, a1\n"
           "vsetvli x0, t4, e%u, m1, ta, ma\nvle%u.v v6, (t2)\n"
           "vsetvli x0, t4, e%u, m1, ta, ma\nvle%u.v v2, (t0)\n"
           "vsetvli x0, t4, e%u, m1, ta, ma\nvle%u.v v4, (t1)\n"
           "vsetvli x0, t4, e%u, m1, ta, ma\n%s\n"
           "vsetvli x0, t4, e%u, m1, ta, ma\nvse%u.v v6, (t3)\nsw a1, 0(t5)\n"
           "endprg x0, x0, x0\n",
           VA, VB, VOLD, VOUT, VXOUT, scalar, mask, oldw, oldw, w2, w2, w1, w1, sew, line, storew, storew);
}

/* Runs src on a fresh revision-2025 device with nt threads after init
 * filled its memory; fails the test on an error. The caller destroys d. */
static inline vt_device *vsew_run(const char *src, uint32_t nt, void (*init)(vt_device *, void *), void *arg) {
  vt_device *d = ext_dev(2025);
  if (init) init(d, arg);
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s\n%s", e.msg, src);
  return d;
}

#endif
