/* The lean forms the run-ahead loop calls for full warps
 * (src/core/exec_lean.c): each against the handler it stands for on
 * random registers (aliased operands, x0, each state of mstatus.FS; the fp
 * forms on floats with and without NX raised, RNE or not, some lanes
 * outside the batch's domain, where they run the handler), and programs
 * run with and without run-ahead against plain C and hand-computed values:
 *  - an integer hash loop on a full warp (lean) and on 16 threads (not),
 *    with an op under v0 inside the runs;
 *  - the state the lean vector forms skip: mstatus.VS left Initial and a
 *    nonzero vstart must still end Dirty and 0, as the handlers leave them;
 *  - a vector branch between chained runs, and vl below the warp's width:
 *    the lanes off the mask or past vl keep their values. */
#include <stdio.h>

#include "core.h"
#include "fp32.h"
#include "test_core_launch_src.h"

#define OUT (DATA_BASE + 0x1000u)
#define CODE_SIZE 0x1000u

static uint32_t next(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (uint32_t)(*s >> 16);
}

/* a word that is often an edge case of the ops (division, shifts, signs) */
static uint32_t operand(uint64_t *s) {
  static const uint32_t edge[] = {0, 1, 31, 32, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu};
  uint32_t r = next(s);
  return (r & 7) == 0 ? edge[(r >> 3) & 7] : next(s);
}

/* instruction id unmasked (vm = 1), fields to be filled: its lean form or NULL */
static vt_lean_fn lean_inst(unsigned id, isa_inst *in) {
  memset(in, 0, sizeof *in);
  in->id = (uint16_t)id;
  in->vm = 1;
  return exec_lean_of(in);
}

/* the fp lean forms: floats for operands */
static int is_fp(unsigned id) {
  return id == ISA_vfadd_vv || id == ISA_vfadd_vf || id == ISA_vfsub_vv || id == ISA_vfsub_vf ||
         id == ISA_vfmul_vv || id == ISA_vfmul_vf || id == ISA_vfdiv_vv || id == ISA_vfdiv_vf;
}

/* a float of moderate size, either sign; one in 256 a zero, infinity, NaN
 * or subnormal (outside every batch's domain) */
static uint32_t fp_operand(uint64_t *s) {
  static const uint32_t special[] = {0, 0x80000000u, 0x7f800000u, 0x7fc00000u, 0x00000007u, 0x807fffffu};
  uint32_t r = next(s);
  if ((r & 255) == 0) return special[(r >> 8) % 6];
  return (r & 0x80000000u) | (100u + (r >> 9) % 50) << 23 | (next(s) & 0x7fffffu);
}

static void each_lean_form_is_its_handler(void **state) {
  (void)state;
  vt_warp *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
  uint32_t(*va)[VT_MAX_LANES] = calloc(VT_NUM_VREGS, sizeof *va);
  uint32_t(*vb)[VT_MAX_LANES] = calloc(VT_NUM_VREGS, sizeof *vb);
  assert_true(a && b && va && vb);
  uint64_t seed = 0x9e3779b97f4a7c15ull;
  unsigned forms = 0, fp_own = 0;
  for (unsigned id = 0; id < ISA_COUNT; id++) {
    isa_inst in;
    vt_lean_fn lean = lean_inst(id, &in);
    if (!lean) continue;
    forms++;
    if (isa_table[id].flags & IF_VEC) { /* under v0 it writes fewer lanes: no lean form */
      in.vm = 0;
      assert_null(exec_lean_of(&in));
      in.vm = 1;
    }
    for (unsigned trial = 0; trial < 48; trial++) {
      /* registers 0-5 only, so operands alias each other and x0 often */
      in.rd = (uint8_t)(next(&seed) % 6);
      in.rs1 = (uint8_t)(next(&seed) % 6);
      in.rs2 = (uint8_t)(next(&seed) % 6);
      in.imm = (int32_t)(next(&seed) % 4096) - 2048;
      memset(a, 0, sizeof *a);
      int fp = is_fp(id);
      for (unsigned r = 1; r < 6; r++) a->x[r] = fp ? fp_operand(&seed) : operand(&seed);
      for (unsigned r = 0; r < 6; r++) {
        a->f[r] = ((uint64_t)next(&seed) << 32) | next(&seed);
        for (unsigned i = 0; i < VT_MAX_LANES; i++) va[r][i] = fp ? fp_operand(&seed) : operand(&seed);
      }
      if (fp) { /* NX raised in three trials of four (whatever FS), RNE in four of five */
        a->fflags = trial / 4 % 4 ? FFLAG_NX : 0;
        a->frm = trial % 5 == 4 ? FP_RTZ : FP_RNE;
      }
      a->mask = 0xffffffffu;
      a->vl = 32;
      a->mstatus = MSTATUS_VS | (trial & 3) << 13 | MSTATUS_SD; /* FS off, Initial, Clean, Dirty */
      *b = *a;
      memcpy(vb, va, 6 * sizeof *va);
      a->v = va;
      b->v = vb;
      vt_exec x;
      memset(&x, 0, sizeof x);
      x.w = a;
      x.emask = 0xffffffffu;
      x.err_lane = -1;
      assert_int_equal(vt_exec_table[id](&x, &in), 0);
      uint32_t fs = a->mstatus & MSTATUS_FS;
      /* the fp forms' own path: RNE, NX raised and FS off or Dirty */
      fp_own += fp && a->frm == FP_RNE && (a->fflags & FFLAG_NX) && (fs == 0 || fs == MSTATUS_FS);
      vt_exec y; /* stale fields a lean form must not read */
      memset(&y, 0, sizeof y);
      y.w = b;
      y.emask = 0x5u;
      y.fflags = FFLAG_DZ;
      y.err_lane = -1;
      lean(&y, b, &in);
      if (memcmp(a->x, b->x, sizeof a->x) || memcmp(a->f, b->f, sizeof a->f) ||
          memcmp(va, vb, 6 * sizeof *va) || a->mstatus != b->mstatus || a->fflags != b->fflags)
        fail_msg("%s rd %u rs1 %u rs2 %u imm %d: the lean form differs from the handler",
                 isa_table[id].mnemonic, in.rd, in.rs1, in.rs2, in.imm);
    }
  }
  /* 73 vector forms from the op list, 27 scalar, lui, four moves and eight fp */
  assert_int_equal(forms, 113);
  /* the fp forms met their own path often enough to mean something */
  assert_true(fp_own > 80);
  free(a);
  free(b);
  free(va);
  free(vb);
}

/* The handlers of the same vector ops under a partial execution mask (a
 * divergent warp; exec_vector.c computes every lane and merges the mask's
 * when it has 8 lanes or more, else goes lane by lane): on the mask's
 * lanes the result of the full mask, elsewhere vd as it was. Masks of 1 to
 * 31 lanes, operands aliased often. */
static void partial_masks_keep_the_other_lanes(void **state) {
  (void)state;
  vt_warp *w = calloc(1, sizeof *w);
  uint32_t(*v)[VT_MAX_LANES] = calloc(VT_NUM_VREGS, sizeof *v);
  uint32_t(*orig)[VT_MAX_LANES] = calloc(6, sizeof *orig);
  uint32_t full[VT_MAX_LANES];
  assert_true(w && v && orig);
  uint64_t seed = 0x2545f4914f6cdd1dull;
  unsigned ops = 0, wide = 0;
  for (unsigned id = 0; id < ISA_COUNT; id++) {
    isa_inst in;
    if (!lean_inst(id, &in) || !(isa_table[id].flags & IF_VEC)) continue;
    ops++;
    for (unsigned trial = 0; trial < 64; trial++) {
      in.rd = (uint8_t)(next(&seed) % 6);
      in.rs1 = (uint8_t)(next(&seed) % 6);
      in.rs2 = (uint8_t)(next(&seed) % 6);
      in.imm = (int32_t)(next(&seed) % 32) - 16;
      uint32_t mask = next(&seed) | next(&seed) << 16; /* about half the lanes */
      if (trial % 4 == 0) mask &= next(&seed) & next(&seed); /* fewer */
      if (mask == 0 || mask == 0xffffffffu) mask = 0x80000001u;
      wide += __builtin_popcount(mask) >= 8;
      memset(w, 0, sizeof *w);
      w->v = v;
      w->vl = 32;
      w->mask = 0xffffffffu;
      w->mstatus = MSTATUS_VS | MSTATUS_SD;
      for (unsigned r = 1; r < 6; r++) w->x[r] = operand(&seed);
      for (unsigned r = 0; r < 6; r++)
        for (unsigned i = 0; i < VT_MAX_LANES; i++) orig[r][i] = operand(&seed);
      vt_exec x;
      memset(&x, 0, sizeof x);
      x.w = w;
      x.err_lane = -1;
      memcpy(v, orig, 6 * sizeof *orig);
      x.emask = 0xffffffffu;
      assert_int_equal(vt_exec_table[id](&x, &in), 0);
      memcpy(full, v[in.rd], sizeof full);
      memcpy(v, orig, 6 * sizeof *orig);
      x.emask = mask;
      assert_int_equal(vt_exec_table[id](&x, &in), 0);
      for (unsigned i = 0; i < VT_MAX_LANES; i++) {
        uint32_t want = mask >> i & 1 ? full[i] : orig[in.rd][i];
        if (v[in.rd][i] != want)
          fail_msg("%s rd %u rs1 %u rs2 %u mask %08x lane %u: %08x, expected %08x", isa_table[id].mnemonic, in.rd,
                   in.rs1, in.rs2, mask, i, v[in.rd][i], want);
      }
      for (unsigned r = 0; r < 6; r++) /* no other register moved */
        if (r != in.rd && memcmp(v[r], orig[r], sizeof *orig))
          fail_msg("%s: v%u changed", isa_table[id].mnemonic, r);
    }
  }
  assert_int_equal(ops, 85); /* the 73 integer forms, four moves and eight fp */
  assert_true(wide > 3000);
  free(w);
  free(v);
  free(orig);
}

/* Lane i: x = 7i + 1, then 40 rounds of x = x * 1664525 + 1013904223,
 * x ^= x >> 13 and a scalar count; out[i] = x, out[32 + i] = x + i where
 * bit i of 0xff0f is set (an add under v0), else 5; out[63]: the count. */
static const char hash_prog[] = "  vid.v v1\n"
                                "  li t0, 7\n"
                                "  vmul.vx v2, v1, t0\n"
                                "  vadd.vi v2, v2, 1\n"
                                "  li t0, 0xff0f\n"
                                "  vmv.v.x v0, t0\n"
                                "  vmv.v.i v7, 5\n"
                                "  li t2, 1664525\n"
                                "  li t3, 1013904223\n"
                                "  li t4, 40\n"
                                "  li t6, 0\n"
                                "round:\n"
                                "  vmul.vx v2, v2, t2\n"
                                "  vadd.vx v2, v2, t3\n"
                                "  vsrl.vi v3, v2, 13\n"
                                "  vxor.vv v2, v2, v3\n"
                                "  addi t6, t6, 3\n"
                                "  xori t6, t6, 1\n"
                                "  addi t4, t4, -1\n"
                                "  bnez t4, round\n"
                                "  vadd.vv v7, v2, v1, v0.t\n"
                                "  li a0, 0x90001000\n"
                                "  vsll.vi v6, v1, 2\n"
                                "  vadd.vx v6, v6, a0\n"
                                "  vsw12.v v2, 0(v6)\n"
                                "  vsw12.v v7, 128(v6)\n"
                                "  sw t6, 252(a0)\n"
                                "  endprg x0, x0, x0\n";

static void check_hash(const src_result *r, uint32_t nt) {
  uint32_t count = 0;
  for (unsigned k = 0; k < 40; k++) count = (count + 3) ^ 1;
  for (uint32_t i = 0; i < 32; i++) {
    uint32_t x = 7 * i + 1;
    for (unsigned k = 0; k < 40; k++) {
      x = x * 1664525u + 1013904223u;
      x ^= x >> 13;
    }
    assert_int_equal(r->out[i], i < nt ? x : 0);
    if (i < 31) /* word 63 holds the count */
      assert_int_equal(r->out[32 + i], i >= nt ? 0 : (0xff0fu >> i & 1) ? x + i : 5);
  }
  assert_int_equal(r->out[63], count);
}

static void hash_loop_full_and_partial_warps(void **state) {
  (void)state;
  src_result r = src_same_as_reference(hash_prog, CODE_SIZE, 32, 1, OUT);
  assert_int_equal(r.rc, 0);
  assert_true(r.ahead > 0);
  check_hash(&r, 32);
  /* the mask is not full: no lean form */
  r = src_same_as_reference(hash_prog, CODE_SIZE, 16, 1, OUT);
  assert_int_equal(r.rc, 0);
  check_hash(&r, 16);
}

/* The end of the looping programs below: the next of a3 passes, then v2
 * stored to out[lane] (v1: the lane ids) and the warp's end. */
#define NEXT_PASS                                                                                  \
  "  addi a3, a3, -1\n"                                                                            \
  "  bnez a3, pass\n"
#define STORE_V2                                                                                   \
  "  li a0, 0x90001000\n"                                                                          \
  "  vsll.vi v6, v1, 2\n"                                                                          \
  "  vadd.vx v6, v6, a0\n"                                                                         \
  "  vsw12.v v2, 0(v6)\n"                                                                          \
  "  endprg x0, x0, x0\n"

/* Twice (code runs ahead once predecoded): mstatus = ms and vstart = vs,
 * then an x write and vector ops inside a run; out[0]: mstatus after them,
 * out[1]: vstart, out[2]: the x result. VS Initial must end Dirty (with
 * SD) and vstart 0, as the handlers leave them. */
static void state_after(uint32_t ms, unsigned vs) {
  char src[720];
  snprintf(src, sizeof src,
           "  li a3, 2\n"
           "pass:\n"
           "  li t0, %u\n"
           "  csrw mstatus, t0\n"
           "  csrwi vstart, %u\n"
           "  li t1, 3\n"
           "  addi t1, t1, 4\n"
           "  vmv.v.x v1, t1\n"
           "  vadd.vi v1, v1, 1\n"
           "  csrr t2, mstatus\n"
           "  csrr t3, vstart\n"
           "  addi a3, a3, -1\n"
           "  bnez a3, pass\n"
           "  li a0, 0x90001000\n"
           "  sw t2, 0(a0)\n"
           "  sw t3, 4(a0)\n"
           "  sw t1, 8(a0)\n"
           "  endprg x0, x0, x0\n",
           ms, vs);
  src_result r = src_same_as_reference(src, CODE_SIZE, 32, 1, OUT);
  assert_int_equal(r.rc, 0);
  assert_int_equal(r.out[0], 0x80006600u);
  assert_int_equal(r.out[1], 0);
  assert_int_equal(r.out[2], 7);
  assert_true(r.ahead > 0);
}

static void skipped_state_still_changes(void **state) {
  (void)state;
  state_after(0x6200, 0); /* VS Initial */
  state_after(0x6600, 5); /* vstart */
}

/* Three passes (code runs ahead once predecoded) of a vector branch inside
 * a chain of runs, which moves the mask: lanes below 10 add 7 and xor 3 on
 * their own, then every lane adds 1 (VS dirty first, so the runs before
 * the branch are full-warp ones). */
static void mask_moves_between_runs(void **state) {
  (void)state;
  const char *src = "  li t0, 0x600\n"
                    "  csrs mstatus, t0\n"
                    "  vid.v v1\n"
                    "  vmv.v.i v2, 0\n"
                    "  li t0, 10\n"
                    "  vmv.v.x v5, t0\n"
                    "  li a3, 3\n"
                    "pass:\n"
                    "  la t1, done\n"
                    "  setrpc zero, t1, 0\n"
                    "  vbgeu v1, v5, done\n"
                    "  vadd.vi v2, v2, 7\n"
                    "  vxor.vi v2, v2, 3\n"
                    "done:\n"
                    "  join zero, zero, 0\n"
                    "  vadd.vi v2, v2, 1\n" NEXT_PASS STORE_V2;
  src_result r = src_same_as_reference(src, CODE_SIZE, 32, 1, OUT);
  assert_int_equal(r.rc, 0);
  uint32_t low = 0;
  for (unsigned k = 0; k < 3; k++) low = ((low + 7) ^ 3) + 1;
  for (uint32_t i = 0; i < 32; i++) assert_int_equal(r.out[i], i < 10 ? low : 3);
  assert_true(r.ahead > 0);
}

/* Three passes of vl = 8 ops on a full mask (no lean form: the tail
 * lanes keep their values): lane i < 8 gets ((v + 5) ^ i) three times,
 * the others stay 0. */
static void short_vl_keeps_the_tail(void **state) {
  (void)state;
  const char *src = "  vid.v v1\n"
                    "  vmv.v.i v2, 0\n"
                    "  li a3, 3\n"
                    "pass:\n"
                    "  li t0, 8\n"
                    "  vsetvli t1, t0, e32, m1\n"
                    "  vadd.vi v2, v2, 5\n"
                    "  vxor.vv v2, v2, v1\n"
                    "  li t0, 32\n"
                    "  vsetvli t1, t0, e32, m1\n" NEXT_PASS STORE_V2;
  src_result r = src_same_as_reference(src, CODE_SIZE, 32, 1, OUT);
  assert_int_equal(r.rc, 0);
  for (uint32_t i = 0; i < 32; i++) {
    uint32_t v = 0;
    for (unsigned k = 0; k < 3; k++) v = (v + 5) ^ i;
    assert_int_equal(r.out[i], i < 8 ? v : 0);
  }
  assert_true(r.ahead > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(each_lean_form_is_its_handler),
      cmocka_unit_test(partial_masks_keep_the_other_lanes),
      cmocka_unit_test(hash_loop_full_and_partial_warps),
      cmocka_unit_test(skipped_state_still_changes),
      cmocka_unit_test(mask_moves_between_runs),
      cmocka_unit_test(short_vl_keeps_the_tail),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
