/* ISA 2025 MMA64's sparse (SP = 01) and warp-group (wg = 1) forms
 * (docs/isa-extensions.md), every entry against a plain-C D = A x B + C:
 * sparse A as kept elements with 2-bit indices into their groups of four,
 * the warp group as four warps each computing 16 rows of a 64 x N D with
 * A from registers or from local memory and B from local memory through
 * descriptors, in both layouts and every swizzle mode. The local-memory
 * image is laid out here from the documented formula; one element placed
 * at an address worked out by hand checks the formula itself. */
#include "isaext_mma_ref.h"

typedef struct {
  const char *mn;
  unsigned m, n, k, type, bits, cbits; /* k: the logical K (twice the kept elements when sparse) */
  unsigned sp;
} shape;

static const shape sparse[] = {
    {"mma64.sp.m8n8k16.f32", 8, 8, 16, T_F32, 32, 32, 1},
    {"mma64.sp.m16n8k16.f32", 16, 8, 16, T_F32, 32, 32, 1},
    {"mma64.sp.m16n8k32.f32", 16, 8, 32, T_F32, 32, 32, 1},
    {"mma64.sp.m8n8k16.f16", 8, 8, 16, T_F16, 16, 16, 1},
    {"mma64.sp.m16n8k16.f16", 16, 8, 16, T_F16, 16, 16, 1},
    {"mma64.sp.m16n8k32.f16", 16, 8, 32, T_F16, 16, 16, 1},
    {"mma64.sp.m8n8k16.f16.f32", 8, 8, 16, T_F16, 16, 32, 1},
    {"mma64.sp.m16n8k16.f16.f32", 16, 8, 16, T_F16, 16, 32, 1},
    {"mma64.sp.m16n8k32.f16.f32", 16, 8, 32, T_F16, 16, 32, 1},
    {"mma64.sp.m8n8k16.bf16", 8, 8, 16, T_BF16, 16, 32, 1},
    {"mma64.sp.m16n8k16.bf16", 16, 8, 16, T_BF16, 16, 32, 1},
    {"mma64.sp.m16n8k32.bf16", 16, 8, 32, T_BF16, 16, 32, 1},
    {"mma64.sp.m16n8k64.e4m3", 16, 8, 64, T_E4M3, 8, 32, 1},
    {"mma64.sp.m16n8k64.e5m2", 16, 8, 64, T_E5M2, 8, 32, 1},
    {"mma64.sp.m8n8k32.s8", 8, 8, 32, T_INT, 8, 32, 1},
    {"mma64.sp.m16n16k32.s8", 16, 16, 32, T_INT, 8, 32, 1},
    {"mma64.sp.m8n8k64.s4", 8, 8, 64, T_INT, 4, 32, 1},
    {"mma64.sp.m16n8k64.s4", 16, 8, 64, T_INT, 4, 32, 1},
    {"mma64.sp.m16n8k128.s4", 16, 8, 128, T_INT, 4, 32, 1},
    {"mma64.sp.m16n8k64.e3m2", 16, 8, 64, T_E3M2, 8, 32, 1},
    {"mma64.sp.m16n8k64.e2m3", 16, 8, 64, T_E2M3, 8, 32, 1},
    {"mma64.sp.m16n8k64.e2m1", 16, 8, 64, T_E2M1, 8, 32, 1},
    {"mma64.sp.m16n8k64.e3m0", 16, 8, 64, T_E3M0, 8, 32, 1},
};

/* m = 64; n is chosen per run */
static const shape group[] = {
    {"mma64.wg.m64k8.f32", 64, 0, 8, T_F32, 32, 32, 0},
    {"mma64.wg.m64k16.f16", 64, 0, 16, T_F16, 16, 16, 0},
    {"mma64.wg.m64k16.f16.f32", 64, 0, 16, T_F16, 16, 32, 0},
    {"mma64.wg.m64k16.bf16", 64, 0, 16, T_BF16, 16, 32, 0},
    {"mma64.wg.m64k32.e4m3", 64, 0, 32, T_E4M3, 8, 32, 0},
    {"mma64.wg.m64k32.e5m2", 64, 0, 32, T_E5M2, 8, 32, 0},
    {"mma64.wg.m64k32.s8", 64, 0, 32, T_INT, 8, 32, 0},
    {"mma64.wg.m64k64.s4", 64, 0, 64, T_INT, 4, 32, 0},
    {"mma64.wg.m64k256.b1", 64, 0, 256, T_BIN, 1, 32, 0},
    {"mma64.wg.m64k32.e3m2", 64, 0, 32, T_E3M2, 8, 32, 0},
    {"mma64.wg.m64k32.e2m3", 64, 0, 32, T_E2M3, 8, 32, 0},
    {"mma64.wg.m64k32.e2m1", 64, 0, 32, T_E2M1, 8, 32, 0},
    {"mma64.wg.m64k32.e3m0", 64, 0, 32, T_E3M0, 8, 32, 0},
    {"mma64.wg.sp.m64k16.f32", 64, 0, 16, T_F32, 32, 32, 1},
    {"mma64.wg.sp.m64k32.f16", 64, 0, 32, T_F16, 16, 16, 1},
    {"mma64.wg.sp.m64k32.f16.f32", 64, 0, 32, T_F16, 16, 32, 1},
    {"mma64.wg.sp.m64k32.bf16", 64, 0, 32, T_BF16, 16, 32, 1},
    {"mma64.wg.sp.m64k64.e4m3", 64, 0, 64, T_E4M3, 8, 32, 1},
    {"mma64.wg.sp.m64k64.e5m2", 64, 0, 64, T_E5M2, 8, 32, 1},
    {"mma64.wg.sp.m64k64.s8", 64, 0, 64, T_INT, 8, 32, 1},
    {"mma64.wg.sp.m64k128.s4", 64, 0, 128, T_INT, 4, 32, 1},
    {"mma64.wg.sp.m64k64.e3m2", 64, 0, 64, T_E3M2, 8, 32, 1},
    {"mma64.wg.sp.m64k64.e2m3", 64, 0, 64, T_E2M3, 8, 32, 1},
    {"mma64.wg.sp.m64k64.e2m1", 64, 0, 64, T_E2M1, 8, 32, 1},
    {"mma64.wg.sp.m64k64.e3m0", 64, 0, 64, T_E3M0, 8, 32, 1},
};

/* The logical problem: A kept elements (all of A when dense) with their
 * K indices, B, C; sizes for the largest case */
typedef struct {
  elem A[64][256];
  unsigned kidx[64][256]; /* K index of kept element t of row i */
  elem B[256][32], C[64][32];
} problem;

static void make_problem(problem *p, const shape *sh, unsigned n, uint64_t seed) {
  uint64_t s = seed;
  unsigned ka = sh->sp ? sh->k / 2 : sh->k;
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned t = 0; t < ka; t++) {
      p->A[i][t] = rand_elem(&s, sh->type, sh->bits);
      if (!sh->sp) {
        p->kidx[i][t] = t;
      } else if (t % 2 == 0) { /* two different places of the group, in either order */
        unsigned x = rng_next(&s) % 4, y = (x + 1 + rng_next(&s) % 3) % 4;
        p->kidx[i][t] = t / 2 * 4 + x;
        p->kidx[i][t + 1] = t / 2 * 4 + y;
      }
    }
  for (unsigned k = 0; k < sh->k; k++)
    for (unsigned j = 0; j < n; j++) p->B[k][j] = rand_elem(&s, sh->type, sh->bits);
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < n; j++) {
      elem c = {0, 0, 0};
      if (sh->type <= T_BIN) {
        c.raw = (uint32_t)((int32_t)rng_next(&s) >> (rng_next(&s) % 31));
        if (rng_next(&s) % 8 == 0) c.raw = rng_next(&s) % 2 ? 0x7fffff00u : 0x80000100u;
      } else {
        c = rand_elem(&s, sh->cbits == 16 ? T_F16 : T_F32, sh->cbits);
      }
      p->C[i][j] = c;
    }
}

/* the plain-C D[i][j]: C plus the kept products in order, RD rd */
static uint32_t reference(const problem *p, const shape *sh, unsigned rd, unsigned i, unsigned j) {
  unsigned ka = sh->sp ? sh->k / 2 : sh->k;
  if (sh->type <= T_BIN) {
    int64_t acc = (int32_t)p->C[i][j].raw;
    for (unsigned t = 0; t < ka; t++) {
      const elem *a = &p->A[i][t], *b = &p->B[p->kidx[i][t]][j];
      acc += sh->type == T_BIN ? (a->i & b->i) : (int64_t)a->i * b->i;
    }
    if (rd == 0) acc = acc > INT32_MAX ? INT32_MAX : acc < INT32_MIN ? INT32_MIN : acc;
    return (uint32_t)acc;
  }
  int round = fegetround();
  fesetround(fe_modes[rd]);
  float acc = sh->cbits == 16 ? (float)u2h(p->C[i][j].raw) : p->C[i][j].f;
  for (unsigned t = 0; t < ka; t++) acc = fmaf(p->A[i][t].f, p->B[p->kidx[i][t]][j].f, acc);
  uint32_t want = sh->cbits == 16 ? h2u((_Float16)acc) : f2u(acc);
  fesetround(round);
  return want;
}

/* "li t0, addr; vadd.vx v2, v1, t0; vlw12.v / vsw12.v vR, 0(v2)" for each register of a group */
static size_t move_regs(char *src, size_t n, size_t cap, const char *op, unsigned reg0,
                        unsigned nregs, uint32_t addr, unsigned nt) {
  for (unsigned r = 0; r < nregs; r++)
    n += (size_t)snprintf(src + n, cap - n, "li t0, 0x%08x\nvadd.vx v2, v1, t0\n%s v%u, 0(v2)\n",
                          addr + 4 * nt * r, op, reg0 + r);
  return n;
}

static unsigned regs_for(unsigned elems, unsigned bits, unsigned nt) {
  return (elems * bits / 32 + nt - 1) / nt;
}

/* ---- the sparse warp form: A (kept) at v8, its indices after it, B at v64,
 * C at v120, D at v180; global regions 0x2000 apart ----------------------- */
static void check_sparse(const shape *sh, unsigned nt, unsigned al, unsigned bl, unsigned rd,
                         uint64_t seed) {
  static problem p;
  make_problem(&p, sh, sh->n, seed);
  unsigned ka = sh->k / 2;
  static uint32_t wa[1024], wm[1024], wb[1024], wc[1024];
  memset(wa, 0, sizeof wa), memset(wm, 0, sizeof wm), memset(wb, 0, sizeof wb),
      memset(wc, 0, sizeof wc);
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned t = 0; t < ka; t++) {
      pack(wa, al ? t * sh->m + i : i * ka + t, p.A[i][t].raw, sh->bits);
      pack(wm, i * ka + t, p.kidx[i][t] % 4, 2);
    }
  for (unsigned k = 0; k < sh->k; k++)
    for (unsigned j = 0; j < sh->n; j++)
      pack(wb, bl ? k * sh->n + j : j * sh->k + k, p.B[k][j].raw, sh->bits);
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < sh->n; j++) pack(wc, i * sh->n + j, p.C[i][j].raw, sh->cbits);
  unsigned ra = regs_for(sh->m * ka, sh->bits, nt), rm = regs_for(sh->m * ka, 2, nt);
  unsigned rb = regs_for(sh->k * sh->n, sh->bits, nt), rc = regs_for(sh->m * sh->n, sh->cbits, nt);
  vt_device *d = ext_dev(2025);
  for (unsigned w = 0; w < 1024; w++) {
    wr32(d, DATA_BASE + 4 * w, wa[w]);
    wr32(d, DATA_BASE + 0x2000 + 4 * w, wm[w]);
    wr32(d, DATA_BASE + 0x4000 + 4 * w, wb[w]);
    wr32(d, DATA_BASE + 0x6000 + 4 * w, wc[w]);
  }
  static char src[65536];
  size_t n = (size_t)snprintf(src, sizeof src,
                              "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x%08x\nvadd.vx v1, v1, t0\n",
                              DATA_BASE);
  n = move_regs(src, n, sizeof src, "vlw12.v", 8, ra, 0, nt);
  n = move_regs(src, n, sizeof src, "vlw12.v", 8 + ra, rm, 0x2000, nt);
  n = move_regs(src, n, sizeof src, "vlw12.v", 64, rb, 0x4000, nt);
  n = move_regs(src, n, sizeof src, "vlw12.v", 120, rc, 0x6000, nt);
  n += (size_t)snprintf(src + n, sizeof src - n, "%s v180, v120, v8, v64, %u, %u, %u\n", sh->mn, rd,
                        al, bl);
  n = move_regs(src, n, sizeof src, "vsw12.v", 180, rc, 0x8000, nt);
  snprintf(src + n, sizeof src - n, "endprg x0, x0, x0\n");
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s: %s", sh->mn, e.msg);
  for (unsigned i = 0; i < sh->m; i++)
    for (unsigned j = 0; j < sh->n; j++) {
      uint32_t want = reference(&p, sh, rd, i, j),
               got = unpack(d, DATA_BASE + 0x8000, i * sh->n + j, sh->cbits);
      if (got != want)
        fail_msg("%s nt %u rd %u al %u bl %u: D[%u][%u] = 0x%08x, expected 0x%08x", sh->mn, nt, rd,
                 al, bl, i, j, got, want);
    }
  vt_device_destroy(d);
}

static void test_sparse_every_entry(void **state) {
  (void)state;
  int directed = host_rounds_directed();
  for (size_t t = 0; t < sizeof sparse / sizeof sparse[0]; t++) {
    unsigned nrd = sparse[t].type <= T_BIN ? 2 : directed ? 4 : 1;
    for (unsigned rd = 0; rd < nrd; rd++)
      check_sparse(&sparse[t], 32, rd & 1, (rd >> 1) ^ (unsigned)(t & 1), rd, 7000 + t * 8 + rd);
  }
  check_sparse(&sparse[2], 8, 1, 0, 0, 71); /* an 8-thread warp */
  check_sparse(&sparse[18], 8, 0, 1, 1, 72);
}

/* ---- the warp group -------------------------------------------------------- */
#define LDS 0x70000000u
#define IMG (DATA_BASE + 0x20000u) /* the local-memory image, copied in by warp 0 */
#define IMG_SIZE 0x10000u
#define B_OFF 0x8000u /* B's place in it (A's is 0) */
#define WARP_AREA(q)                                                                               \
  (DATA_BASE + 0x40000u + (q)*0x4000u) /* A regs +0, indices +0x800, C +0x1000, D +0x2000 */

typedef struct {
  unsigned w;        /* atom width: the swizzle span, or 16 */
  unsigned swz_code; /* 0 none, 1 128 B, 2 64 B, 3 32 B */
  uint32_t lbo, sbo;
} layout;

static layout make_layout(unsigned swz, unsigned line_bits) {
  layout l = {swz ? swz : 16, swz == 128 ? 1u : swz == 64 ? 2u : swz == 32 ? 3u : 0u, 0, 0};
  unsigned line_bytes = (line_bits + 7) / 8, atoms = (line_bytes + l.w - 1) / l.w;
  l.lbo = 8 * l.w;         /* the next atom along a line */
  l.sbo = 8 * l.w * atoms; /* the next 8 lines */
  return l;
}

/* writes an element at (line, pos) of the documented layout */
static void place(uint8_t *img, uint32_t base, const layout *l, unsigned line, unsigned pos,
                  unsigned bits, uint32_t raw) {
  uint32_t bit = pos * bits, p = bit / 8;
  uint32_t off = base + (line / 8) * l->sbo + (p / l->w) * l->lbo + (line % 8) * l->w + p % l->w;
  if (l->swz_code) off ^= ((off >> 7) & (l->w / 16 - 1)) << 4;
  assert_true(off + 4 <= IMG_SIZE);
  if (bits >= 8)
    for (unsigned b = 0; b < bits / 8; b++) img[off + b] = (uint8_t)(raw >> (8 * b));
  else
    img[off] |= (uint8_t)((raw & ((1u << bits) - 1)) << (bit % 8));
}

static uint32_t desc_hi(const layout *l) {
  return l->lbo / 16 | (l->sbo / 16) << 14 | l->swz_code << 28;
}

static void check_group(const shape *sh0, unsigned n, unsigned a_regs, unsigned al, unsigned bl,
                        unsigned swz, unsigned rd, uint64_t seed) {
  enum { NT = 32 };
  shape sh = *sh0;
  sh.n = n;
  static problem p;
  make_problem(&p, &sh, n, seed);
  unsigned ka = sh.sp ? sh.k / 2 : sh.k;
  static uint8_t img[IMG_SIZE];
  memset(img, 0, sizeof img);
  /* A: K-major lines are rows (ka elements), else lines are K (64 elements) */
  layout la = make_layout(swz, (al ? 64 : ka) * sh.bits),
         lb = make_layout(swz, (bl ? n : sh.k) * sh.bits);
  for (unsigned i = 0; i < 64; i++)
    for (unsigned t = 0; t < ka; t++)
      place(img, 0, &la, al ? t : i, al ? i : t, sh.bits, p.A[i][t].raw);
  for (unsigned k = 0; k < sh.k; k++)
    for (unsigned j = 0; j < n; j++)
      place(img, B_OFF, &lb, bl ? k : j, bl ? j : k, sh.bits, p.B[k][j].raw);
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(vt_mem_write(d, IMG, img, IMG_SIZE, &e), 0);
  unsigned ra = a_regs ? regs_for(16 * ka, sh.bits, NT) : 2,
           rm = sh.sp ? regs_for(16 * ka, 2, NT) : 0;
  unsigned rc = regs_for(16 * n, sh.cbits, NT);
  for (unsigned q = 0; q < 4; q++) {
    static uint32_t wa[512], wm[512], wc[512];
    memset(wa, 0, sizeof wa), memset(wm, 0, sizeof wm), memset(wc, 0, sizeof wc);
    for (unsigned i = 0; i < 16; i++) {
      for (unsigned t = 0; t < ka; t++) {
        pack(wa, al ? t * 16 + i : i * ka + t, p.A[16 * q + i][t].raw, sh.bits);
        pack(wm, i * ka + t, p.kidx[16 * q + i][t] % 4, 2);
      }
      for (unsigned j = 0; j < n; j++) pack(wc, i * n + j, p.C[16 * q + i][j].raw, sh.cbits);
    }
    for (unsigned w = 0; w < 512; w++) {
      wr32(d, WARP_AREA(q) + 4 * w, wa[w]);
      wr32(d, WARP_AREA(q) + 0x800 + 4 * w, wm[w]);
      wr32(d, WARP_AREA(q) + 0x1000 + 4 * w, wc[w]);
    }
  }
  static char src[65536];
  size_t c = (size_t)snprintf(
      src, sizeof src,
      "csrr s0, 0x805\nbnez s0, 1f\n"
      "li a0, 0x%x\nli a1, 0x%08x\nli a2, 0x%08x\ncp_dma_bulk a0, a1, a2\n"
      "1: barrier x0, x0, 0\n"
      "vid.v v1\nvsll.vi v1, v1, 2\nslli t1, s0, 14\nli t0, 0x%08x\nadd t0, t0, t1\n"
      "vadd.vx v1, v1, t0\n",
      IMG_SIZE, IMG, LDS, WARP_AREA(0));
  if (a_regs) {
    c = move_regs(src, c, sizeof src, "vlw12.v", 8, ra, 0, NT);
  } else {
    c += (size_t)snprintf(src + c, sizeof src - c,
                          "li t0, 0x%08x\nvmv.v.x v8, t0\nli t0, 0x%08x\nvmv.v.x v9, t0\n", LDS,
                          desc_hi(&la));
  }
  c = move_regs(src, c, sizeof src, "vlw12.v", 8 + ra, rm, 0x800, NT);
  c += (size_t)snprintf(src + c, sizeof src - c,
                        "li t0, 0x%08x\nvmv.v.x v40, t0\nli t0, 0x%08x\nvmv.v.x v41, t0\n",
                        LDS + B_OFF, desc_hi(&lb));
  c = move_regs(src, c, sizeof src, "vlw12.v", 80, rc, 0x1000, NT);
  c += (size_t)snprintf(src + c, sizeof src - c, "%s v130, v80, v8, v40, %u, %u, %u, %u, %u\n",
                        sh.mn, rd, al, bl, a_regs, n);
  c = move_regs(src, c, sizeof src, "vsw12.v", 130, rc, 0x2000, NT);
  snprintf(src + c, sizeof src - c, "endprg x0, x0, x0\n");
  prog pr = {.n = 0};
  vt_error ae = {0};
  pr.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, pr.w, 4096, &ae);
  if (pr.n < 0) fail_msg("assembling failed: %s", ae.msg);
  vt_launch l = mklaunch(1, 1, 1, NT, 4);
  if (run(d, &pr, &l, &e)) fail_msg("%s: %s", sh.mn, e.msg);
  for (unsigned q = 0; q < 4; q++)
    for (unsigned i = 0; i < 16; i++)
      for (unsigned j = 0; j < n; j++) {
        uint32_t want = reference(&p, &sh, rd, 16 * q + i, j);
        uint32_t got = unpack(d, WARP_AREA(q) + 0x2000, i * n + j, sh.cbits);
        if (got != want)
          fail_msg("%s n %u a %u al %u bl %u swizzle %u rd %u: D[%u][%u] = 0x%08x, expected 0x%08x",
                   sh.mn, n, a_regs, al, bl, swz, rd, 16 * q + i, j, got, want);
      }
  vt_device_destroy(d);
}

static void test_group_every_entry(void **state) {
  (void)state;
  static const unsigned swz[4] = {0, 128, 64, 32}, ns[3] = {8, 16, 32};
  int directed = host_rounds_directed();
  for (unsigned t = 0; t < sizeof group / sizeof group[0]; t++)
    for (unsigned v = 0; v < 2; v++) {
      unsigned x = 2 * t + v;
      unsigned rd = group[t].type <= T_BIN ? v : directed ? x % 4 : 0;
      check_group(&group[t], ns[x % 3], v, (x / 2) % 2, (x / 4) % 2, swz[(t + 2 * v) % 4], rd,
                  9000 + x);
    }
}

/* A from local memory, FP16 K-major with the 128-byte swizzle (atom width
 * 128, LBO 1024, SBO 1024): element (row 9, k 10) is byte 20 of line 9,
 * at 0x70000000 + 1 * 1024 + (9 % 8) * 128 + 20 = 0x70000494, whose chunk
 * bits [6:4] = 1 XOR line bits [9:7] = 1 give 0x70000484. With it 1.0,
 * every other A 0 and B[k][j] = k (K-major, no swizzle, LBO 128, SBO 256:
 * column j, k at 0x70008000 + (j / 8) 256 + (2k / 16) 128 + (j % 8) 16 +
 * 2k % 16), D row 9 is 10 and every other row 0. */
static void test_swizzled_address_by_hand(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  static uint8_t img[IMG_SIZE];
  memset(img, 0, sizeof img);
  img[0x484] = 0x00, img[0x485] = 0x3c; /* 1.0 */
  for (unsigned j = 0; j < 8; j++)
    for (unsigned k = 0; k < 16; k++) {
      uint32_t h = h2u((_Float16)k), at = B_OFF + (2 * k / 16) * 128 + j * 16 + 2 * k % 16;
      img[at] = (uint8_t)h, img[at + 1] = (uint8_t)(h >> 8);
    }
  assert_int_equal(vt_mem_write(d, IMG, img, IMG_SIZE, &e), 0);
  char src[2048];
  snprintf(
      src, sizeof src,
      "csrr s0, 0x805\nbnez s0, 1f\n"
      "li a0, 0x%x\nli a1, 0x%08x\nli a2, 0x%08x\ncp_dma_bulk a0, a1, a2\n"
      "1: barrier x0, x0, 0\n"
      "li t0, 0x70000000\nvmv.v.x v8, t0\nli t0, 0x%08x\nvmv.v.x v9, t0\n"
      "li t0, 0x%08x\nvmv.v.x v40, t0\nli t0, 0x%08x\nvmv.v.x v41, t0\n"
      "vmv.v.i v80, 0\nvmv.v.i v81, 0\n"
      "mma64.wg.m64k16.f16.f32 v130, v80, v8, v40, 0, 0, 0, 0, 8\n"
      "vid.v v1\nvsll.vi v1, v1, 2\nslli t1, s0, 9\nli t0, 0x90000000\nadd t0, t0, t1\nvadd.vx v1, "
      "v1, t0\n"
      "vsw12.v v130, 0(v1)\nvsw12.v v131, 128(v1)\nvsw12.v v132, 256(v1)\nvsw12.v v133, 384(v1)\n"
      "endprg x0, x0, x0\n",
      IMG_SIZE, IMG, LDS, 1024u / 16 | (1024u / 16) << 14 | 1u << 28, LDS + B_OFF,
      128u / 16 | (256u / 16) << 14);
  vt_error ae = {0};
  prog pr = {.n = 0};
  pr.n = asm_words_rev(src, CODE_BASE, ISA_REV_2025, pr.w, 4096, &ae);
  if (pr.n < 0) fail_msg("assembling failed: %s", ae.msg);
  vt_launch l = mklaunch(1, 1, 1, 32, 4);
  if (run(d, &pr, &l, &e)) fail_msg("%s", e.msg);
  /* warp q's 16 x 8 FP32 D (128 words) at 0x90000000 + 512 q: row i, column j is word 8 i + j */
  for (unsigned q = 0; q < 4; q++)
    for (unsigned w = 0; w < 128; w++) {
      uint32_t want = 16 * q + w / 8 == 9 ? f2u(10.0f) : 0;
      if (rd32(d, DATA_BASE + 512 * q + 4 * w) != want)
        fail_msg("warp %u D[%u][%u] = 0x%08x, expected 0x%08x", q, 16 * q + w / 8, w % 8,
                 rd32(d, DATA_BASE + 512 * q + 4 * w), want);
    }
  vt_device_destroy(d);
}

static void expect_fault(const char *src, vt_err_kind kind, const char *msg) {
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  if (!ext_run(d, ISA_REV_2025, src, 32, &e)) fail_msg("no fault for %s", msg);
  assert_int_equal(e.kind, kind);
  if (!strstr(e.msg, msg)) fail_msg("message '%s' lacks '%s'", e.msg, msg);
  vt_device_destroy(d);
}

static void test_errors(void **state) {
  (void)state;
  expect_fault("li t0, 0x70000000\nvmv.v.x v8, t0\nli t0, 0x40000000\nvmv.v.x v9, t0\n"
               "vmv.v.x v40, t0\nvmv.v.x v41, t0\n"
               "mma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 0, 8\nendprg x0, x0, x0\n",
               VT_ERR_ILLEGAL,
               "mma64 descriptor v9: reserved bits 31:30 of its high word are set (0x40000000)");
  expect_fault("li t0, 0x70000008\nvmv.v.x v8, t0\nvmv.v.i v9, 1\nvmv.v.x v40, t0\nvmv.v.i v41, 1\n"
               "mma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 0, 8\nendprg x0, x0, x0\n",
               VT_ERR_MISALIGNED, "mma64 descriptor v8: start 0x70000008 is not 16-byte aligned");
  expect_fault("li t0, 0x90000000\nvmv.v.x v8, t0\nvmv.v.i v9, 1\nvmv.v.x v40, t0\nvmv.v.i v41, 1\n"
               "mma64.wg.m64k16.f16 v130, v80, v8, v40, 0, 0, 0, 0, 8\nendprg x0, x0, x0\n",
               VT_ERR_UNMAPPED, "mma64 operand address 0x90000000 is not in local memory");
  expect_fault("mma64.wg.m64k16.f16 v130, v80, v9, v40, 0, 0, 0, 0, 8\nendprg x0, x0, x0\n",
               VT_ERR_ILLEGAL, "v9 is odd: a register pair starts at an even register");
  /* N = 1024 FP32: 16 x 1024 words of D need 512 registers; the assembler
   * refuses it (asm_fit.c), so the device sees it as raw words */
  expect_fault(".word 0x0823007f\n.word 0x0e501005\nendprg x0, x0, x0\n", VT_ERR_ILLEGAL,
               "mma64 register groups run past v255");
  vt_error e = {0};
  uint32_t w[4];
  assert_true(asm_words_rev("mma64.wg.m64k8.f32 v130, v80, v8, v40, 0, 0, 0, 1, 1024", CODE_BASE, ISA_REV_2025, w,
                            4, &e) < 0);
  assert_non_null(strstr(e.msg, "its register groups run past v255 even at 32 threads per warp (A v8+4, C v80+512, "
                                "D v130+512 registers for N = 1024)"));
  assert_true(asm_words_rev("mma64.wg.m64k8.f32 v130, v80, v8, v40, 0, 0, 0, 1, 24", CODE_BASE,
                            ISA_REV_2025, w, 4, &e) < 0);
  assert_non_null(strstr(e.msg, "the warp-group N is 8, 16, 32, ... 1024, not 24"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sparse_every_entry),
      cmocka_unit_test(test_group_every_entry),
      cmocka_unit_test(test_swizzled_address_by_hand),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
