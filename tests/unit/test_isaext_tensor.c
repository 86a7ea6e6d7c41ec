/* ISA 2025 cp_dma_tensor (docs/isa-extensions.md): boxes of rank-1..5
 * tensors copied to shared memory, inside the tensor and crossing its
 * edge with zero and NaN fill, element strides, each parameter error.
 * Expected boxes are computed here with five nested loops over a host copy
 * of the tensor. */
#include "isaext_prog.h"

enum { NT = 16, PARAMS = 0x0, TENSOR = 0x1000, OUT = 0x10000, MAXBOX = 2048 };

typedef struct {
  uint32_t type, rank, dim[5], stride[5]; /* stride[d]: bytes between indices of dimension d+2 */
  uint32_t org[5], box[5], es[5], interleave, swizzle, fill, l2;
} tparams;

static const unsigned esize[13] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

/* the byte offset of element c in the tensor */
static uint64_t elem_off(const tparams *t, const uint32_t *c) {
  uint64_t o = (uint64_t)c[0] * esize[t->type < 13 ? t->type : 0]; /* 13: the bad-datatype case */
  for (uint32_t d = 1; d < t->rank; d++) o += (uint64_t)c[d] * t->stride[d - 1];
  return o;
}

/* writes the params, runs the copy and the copy-out of `bytes` bytes;
 * returns the launch result */
static int run_tensor(vt_device *d, const tparams *t, uint32_t bytes, vt_error *e) {
  uint32_t p[NT] = {0}, q[NT] = {0};
  p[0] = t->type;
  p[1] = t->rank;
  p[2] = DATA_BASE + TENSOR;
  for (int i = 0; i < 5; i++) {
    p[3 + i] = t->dim[i];
    p[8 + i] = t->stride[i];
    q[1 + i] = t->box[i];
    q[6 + i] = t->es[i];
  }
  q[0] = DATA_BASE + TENSOR + (uint32_t)elem_off(t, t->org);
  q[11] = t->interleave;
  q[12] = t->swizzle;
  q[13] = t->l2; /* L2 promotion: a hint */
  q[14] = t->fill;
  for (int i = 0; i < NT; i++) {
    wr32(d, DATA_BASE + PARAMS + 4 * (uint32_t)i, p[i]);
    wr32(d, DATA_BASE + PARAMS + 0x40 + 4 * (uint32_t)i, q[i]);
  }
  static char src[32768];
  size_t n = (size_t)snprintf(src, sizeof src,
                              "vid.v v3\nvsll.vi v3, v3, 2\nli t0, 0x90000000\nvadd.vx v4, v3, t0\n"
                              "li t0, 0x90010000\nvadd.vx v5, v3, t0\n"
                              "vlw12.v v1, 0(v4)\nvlw12.v v2, 0x40(v4)\ncsrr s1, 0x806\n"
                              "cp_dma_tensor v1, v2, s1\n");
  for (uint32_t o = 0; o < bytes; o += 4 * NT) {
    if (o && o % 2048 == 0) /* beyond the 12-bit offsets: move the bases on */
      n += (size_t)snprintf(src + n, sizeof src - n, "li t0, 2048\nvadd.vx v3, v3, t0\nvadd.vx v5, v5, t0\n");
    n += (size_t)snprintf(src + n, sizeof src - n, "vlw_local.v v6, %u(v3)\nvsw12.v v6, %u(v5)\n", o % 2048,
                          o % 2048);
  }
  snprintf(src + n, sizeof src - n, "endprg x0, x0, x0\n");
  return ext_run(d, ISA_REV_2025, src, NT, e);
}

/* the expected box: element (k1..k5) at dense position, the tensor's
 * element at org + k * es, or the fill beyond the dimensions */
static uint32_t expect_box(const tparams *t, const uint8_t *tensor, uint8_t *out) {
  unsigned sz = esize[t->type];
  uint32_t cnt[5] = {1, 1, 1, 1, 1};
  for (uint32_t d = 0; d < t->rank; d++) cnt[d] = (t->box[d] + t->es[d] - 1) / t->es[d];
  uint8_t nan[8] = {0};
  uint64_t nanv = t->type == 6 ? 0x7e00 : t->type == 9 ? 0x7fc0 : sz == 4 ? 0x7fc00000u : 0x7ff8000000000000ull;
  memcpy(nan, &nanv, 8);
  uint32_t pos = 0;
  for (uint32_t k4 = 0; k4 < cnt[4]; k4++)
    for (uint32_t k3 = 0; k3 < cnt[3]; k3++)
      for (uint32_t k2 = 0; k2 < cnt[2]; k2++)
        for (uint32_t k1 = 0; k1 < cnt[1]; k1++)
          for (uint32_t k0 = 0; k0 < cnt[0]; k0++) {
            uint32_t k[5] = {k0, k1, k2, k3, k4}, c[5] = {0};
            int inside = 1;
            for (uint32_t d = 0; d < t->rank; d++) {
              c[d] = t->org[d] + k[d] * t->es[d];
              if (c[d] >= t->dim[d]) inside = 0;
            }
            if (inside) memcpy(out + pos, tensor + elem_off(t, c), sz);
            else if (t->fill) memcpy(out + pos, nan, sz);
            else memset(out + pos, 0, sz);
            pos += sz;
          }
  return pos;
}

static void check_case(const tparams *t, uint32_t tensor_bytes) {
  static uint8_t tensor[0x8000], want[MAXBOX];
  uint64_t s = 7 + t->type * 31 + t->rank;
  for (uint32_t i = 0; i < tensor_bytes; i++) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    tensor[i] = (uint8_t)(s >> 56);
  }
  memset(want, 0, sizeof want); /* past the box: local memory's zeros */
  uint32_t bytes = expect_box(t, tensor, want);
  assert_true(bytes <= MAXBOX);
  if (t->swizzle) { /* each 16-byte chunk c of the dense box moves to c ^ (row bits): local is at 0x70000000 */
    static uint8_t dense[MAXBOX];
    memcpy(dense, want, sizeof dense);
    memset(want, 0, sizeof dense); /* places no element moves to keep local memory's zeros */
    unsigned span = 16u << t->swizzle;
    for (uint32_t o = 0; o < bytes; o++) want[o ^ (((o >> 7) & (span / 16 - 1)) << 4)] = dense[o];
    bytes = (bytes + span - 1) / span * span;
  }
  vt_device *d = ext_dev(2025);
  for (uint32_t i = 0; i < tensor_bytes; i += 4) {
    uint32_t w;
    memcpy(&w, tensor + i, 4);
    wr32(d, DATA_BASE + TENSOR + i, w);
  }
  vt_error e = {0};
  if (run_tensor(d, t, bytes, &e)) fail_msg("%s", e.msg);
  for (uint32_t i = 0; i < bytes; i += 4) {
    uint32_t w;
    memcpy(&w, want + i, 4);
    if (rd32(d, DATA_BASE + OUT + i) != w)
      fail_msg("type %u rank %u: bytes %u..%u of the box: 0x%08x, expected 0x%08x", t->type, t->rank, i, i + 3,
               rd32(d, DATA_BASE + OUT + i), w);
  }
  vt_device_destroy(d);
}

#define ONES5 {1, 1, 1, 1, 1}

/* a 10 x 7 fp32 tensor (rows 48 bytes apart), a 4 x 3 box at (8, 5):
 * it crosses both edges; zero and NaN fill */
static void test_rank2_edges(void **state) {
  (void)state;
  tparams t = {.type = 7, .rank = 2, .dim = {10, 7}, .stride = {48}, .org = {8, 5}, .box = {4, 3},
               .es = ONES5};
  check_case(&t, 48 * 7);
  t.fill = 1;
  check_case(&t, 48 * 7);
  /* inside: the whole box at (2, 1) */
  t.org[0] = 2;
  t.org[1] = 1;
  check_case(&t, 48 * 7);
}

/* hand-checked: a 3 x 2 uint32 tensor {1..6}, box 2 x 2 at (2, 1) with
 * zero fill holds {6, 0, 0, 0} */
static void test_by_hand(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  for (uint32_t i = 0; i < 6; i++) wr32(d, DATA_BASE + TENSOR + 16 * (i / 3) + 4 * (i % 3), i + 1);
  tparams t = {.type = 2, .rank = 2, .dim = {3, 2}, .stride = {16}, .org = {2, 1}, .box = {2, 2}, .es = ONES5};
  vt_error e = {0};
  if (run_tensor(d, &t, 16, &e)) fail_msg("%s", e.msg);
  assert_int_equal(rd32(d, DATA_BASE + OUT), 6);
  assert_int_equal(rd32(d, DATA_BASE + OUT + 4), 0);
  assert_int_equal(rd32(d, DATA_BASE + OUT + 8), 0);
  assert_int_equal(rd32(d, DATA_BASE + OUT + 12), 0);
  vt_device_destroy(d);
}

/* element strides (every 2nd element, boxes of odd size round up), rank 3
 * uint16, crossing the edge */
static void test_element_strides(void **state) {
  (void)state;
  tparams t = {.type = 1, .rank = 3, .dim = {9, 4, 3}, .stride = {32, 128}, .org = {6, 2, 1},
               .box = {5, 3, 2}, .es = {2, 1, 2, 1, 1}};
  check_case(&t, 128 * 3);
  t.type = 6; /* fp16, NaN fill */
  t.fill = 1;
  check_case(&t, 128 * 3);
}

/* every rank: 1 (fp64, NaN fill), 4 and 5 (uint8), bf16 rank 2 */
static void test_ranks(void **state) {
  (void)state;
  tparams t1 = {.type = 8, .rank = 1, .dim = {5}, .org = {3}, .box = {4}, .es = ONES5, .fill = 1};
  check_case(&t1, 40);
  tparams t4 = {.type = 0, .rank = 4, .dim = {3, 2, 2, 3}, .stride = {16, 32, 64}, .org = {1, 1, 0, 2},
                .box = {3, 2, 2, 2}, .es = ONES5};
  check_case(&t4, 64 * 3);
  tparams t5 = {.type = 0, .rank = 5, .dim = {2, 2, 2, 2, 3}, .stride = {16, 32, 64, 128},
                .org = {1, 0, 1, 1, 1}, .box = {2, 2, 2, 2, 3}, .es = {1, 1, 1, 2, 1}};
  check_case(&t5, 128 * 3);
  tparams tb = {.type = 9, .rank = 2, .dim = {5, 3}, .stride = {16}, .org = {4, 2}, .box = {2, 2},
                .es = ONES5, .fill = 1};
  check_case(&tb, 48);
}

static void expect_fault(tparams t, vt_err_kind kind, const char *what) {
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(run_tensor(d, &t, 0, &e), -1);
  if (e.kind != kind || !strstr(e.msg, what)) fail_msg("got '%s', expected '%s'", e.msg, what);
  vt_device_destroy(d);
}

static void test_errors(void **state) {
  (void)state;
  tparams ok = {.type = 2, .rank = 2, .dim = {3, 2}, .stride = {16}, .org = {0, 0}, .box = {2, 2}, .es = ONES5};
  tparams t = ok;
  t.rank = 6;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: rank 6 is not 1..5");
  t = ok;
  t.type = 13;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: datatype 13 is not 0..12");
  t = ok;
  t.stride[0] = 20;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: stride 0x14 is not a nonzero multiple of 16");
  t = ok;
  t.box[1] = 257;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: box dimension 257 is not 1..256");
  t = ok;
  t.es[0] = 9;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: element stride 9 is not 1..8");
  t = ok;
  t.dim[1] = 0;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: dimension 2 is 0");
  t = ok;
  t.interleave = 3;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: interleave 3 is not 0 (none), 1 (16 B) or 2 (32 B)");
  t = ok;
  t.interleave = 1; /* dimension 1 is 12 bytes */
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: an interleave of 16 bytes needs dimension 1 of that many bytes");
  t = ok;
  t.swizzle = 4;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: swizzle 4 is not 0 (none), 1 (32 B), 2 (64 B) or 3 (128 B)");
  t = ok;
  t.dim[0] = 12;
  t.box[0] = 9; /* 36 bytes in a 32-byte swizzle */
  t.swizzle = 1;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: the box's inner dimension (36 bytes) is wider than the 32-byte swizzle");
  t = ok;
  t.l2 = 4;
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: L2 promotion 4 is not 0 (none), 1 (64 B), 2 (128 B) or 3 (256 B)");
  t = (tparams){.type = 1, .rank = 2, .dim = {16, 2}, .stride = {48}, .box = {16, 2}, .es = ONES5, .interleave = 2};
  expect_fault(t, VT_ERR_ILLEGAL, "cp_dma_tensor: stride 0x30 is not a multiple of the 32-byte interleave");
  t = ok;
  t.fill = 1; /* NaN for an integer type */
  expect_fault(t, VT_ERR_ILLEGAL, "out-of-bounds fill 1 is not 0 (zero) or 1 (NaN, float types)");
  t = ok;
  t.org[0] = 3; /* one past the last element of dimension 1: the next row's first element */
  t.org[1] = 1; /* ... and past the tensor */
  expect_fault(t, VT_ERR_ILLEGAL, "is not an element of the tensor");
}

/* Swizzles by hand: a 16 x 8 fp16 tensor, the whole of it as the box (32-byte
 * rows, the 32-byte swizzle, S = 1: chunk bit 4 ^= bit 7); elements (r, c)
 * hold r * 16 + c. Dense offset of (r, c) is 32 r + 2 c: (0, 8) at 16 stays
 * (bit 7 = 0); (4, 0) at 128 moves to 144; (4, 8) at 144 to 128; (5, 9)
 * at 178 to 162. The 128-byte swizzle (S = 3: bits [6:4] ^= [9:7]) on a
 * 32 x 64 uint16 box: (1, 0) at 128 moves to 144; (3, 9) at 402 = 384 +
 * 1 * 16 + 2 to 384 + (1 ^ 3) * 16 + 2 = 418; (9, 63) at 1278 = 1152 +
 * 7 * 16 + 14 to 1152 + (7 ^ 1) * 16 + 14 = 1262; (0, 0) stays at 0. */
static void test_swizzle_by_hand(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  for (uint32_t r = 0; r < 16; r++)
    for (uint32_t c = 0; c < 16; c += 2)
      wr32(d, DATA_BASE + TENSOR + 32 * r + 2 * c, (r * 16 + c) | (r * 16 + c + 1) << 16);
  tparams t = {.type = 1, .rank = 2, .dim = {16, 16}, .stride = {32}, .box = {16, 16}, .es = ONES5, .swizzle = 1};
  vt_error e = {0};
  if (run_tensor(d, &t, 512, &e)) fail_msg("%s", e.msg);
  static const struct { uint32_t at, v; } sw32[] = {{16, 8}, {144, 4 * 16}, {128, 4 * 16 + 8}, {162, 5 * 16 + 9}};
  for (size_t i = 0; i < sizeof sw32 / sizeof sw32[0]; i++)
    assert_int_equal(rd32(d, DATA_BASE + OUT + (sw32[i].at & ~3u)) >> (8 * (sw32[i].at & 3)) & 0xffff, sw32[i].v);
  vt_device_destroy(d);
  d = ext_dev(2025);
  for (uint32_t r = 0; r < 32; r++)
    for (uint32_t c = 0; c < 64; c += 2)
      wr32(d, DATA_BASE + TENSOR + 128 * r + 2 * c, (r * 64 + c) | (r * 64 + c + 1) << 16);
  t = (tparams){.type = 1, .rank = 2, .dim = {64, 32}, .stride = {128}, .box = {64, 32}, .es = ONES5, .swizzle = 3};
  if (run_tensor(d, &t, 4096, &e)) fail_msg("%s", e.msg);
  static const struct { uint32_t at, v; } sw128[] = {{144, 64}, {418, 3 * 64 + 9}, {1262, 9 * 64 + 63}, {0, 0}};
  for (size_t i = 0; i < sizeof sw128 / sizeof sw128[0]; i++)
    assert_int_equal(rd32(d, DATA_BASE + OUT + (sw128[i].at & ~3u)) >> (8 * (sw128[i].at & 3)) & 0xffff, sw128[i].v);
  vt_device_destroy(d);
}

/* every swizzle against the dense box permuted here, boxes crossing the
 * edge with both fills, narrower rows than the span (64-byte swizzle,
 * 40-byte rows) */
static void test_swizzles(void **state) {
  (void)state;
  for (uint32_t sw = 1; sw <= 3; sw++) {
    tparams t = {.type = 7, .rank = 2, .dim = {4u << sw, 20}, .stride = {(16u << sw) + 16}, .org = {2, 9},
                 .box = {4u << sw, 12}, .es = ONES5, .swizzle = sw, .fill = sw & 1};
    check_case(&t, ((16u << sw) + 16) * 20);
  }
  tparams t = {.type = 6, .rank = 3, .dim = {20, 6, 3}, .stride = {48, 320}, .org = {3, 2, 1}, .box = {20, 5, 2},
               .es = ONES5, .swizzle = 2, .fill = 1};
  check_case(&t, 320 * 3);
}

/* interleave: NC/8HWC8 fp16 (16 bytes of dimension 1) and NC/16HWC16 (32
 * bytes), the box covering the chunk; the copy is the dense box, with the
 * 32-byte swizzle on top for the 32-byte chunks */
static void test_interleave(void **state) {
  (void)state;
  tparams t = {.type = 6, .rank = 4, .dim = {8, 5, 4, 2}, .stride = {16, 80, 320}, .org = {0, 3, 1, 1},
               .box = {8, 4, 3, 1}, .es = ONES5, .interleave = 1};
  check_case(&t, 640);
  tparams u = {.type = 9, .rank = 3, .dim = {16, 6, 3}, .stride = {32, 192}, .org = {0, 1, 2}, .box = {16, 6, 2},
               .es = ONES5, .interleave = 2, .swizzle = 1, .fill = 1};
  check_case(&u, 576);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rank2_edges),     cmocka_unit_test(test_by_hand),
      cmocka_unit_test(test_element_strides), cmocka_unit_test(test_ranks),
      cmocka_unit_test(test_errors),          cmocka_unit_test(test_swizzle_by_hand),
      cmocka_unit_test(test_swizzles),        cmocka_unit_test(test_interleave),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
