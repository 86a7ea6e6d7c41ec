/* Executor tests: scalar ALU/M, vector integer ops, divergence, divergent
 * loop, 2-D grid CSRs. Expected values are computed by hand or plain C. */
#include "test_core_prog.h"

static void must_run(vt_device *d, const prog *p, const vt_launch *l) {
  vt_error e;
  int rc = run(d, p, l, &e);
  if (rc) {
    char buf[512];
    vt_err_format(&e, buf, sizeof buf);
    fail_msg("launch failed: %s", buf);
  }
}

static void scalar_alu(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_li(&p, S0, DATA_BASE);
  emit_li(&p, A0, 7);
  emit_li(&p, A1, 0);
  emit_li(&p, A2, 0x80000000u);
  emit_li(&p, A3, 0xffffffffu);
  int k = 0;
#define R3(op, a, b)                                                                       \
  do {                                                                                     \
    E(&p, op, T0, a, b);                                                                   \
    E(&p, sw, T0, 4 * k++, S0);                                                            \
  } while (0)
  R3(div, A0, A1);    /* 7 / 0 = -1 */
  R3(rem, A0, A1);    /* 7 % 0 = 7 */
  R3(divu, A0, A1);   /* 0xffffffff */
  R3(remu, A0, A1);   /* 7 */
  R3(div, A2, A3);    /* INT_MIN / -1 = INT_MIN */
  R3(rem, A2, A3);    /* 0 */
  R3(mulh, A2, A3);   /* (-2^31 * -1) >> 32 = 0 */
  R3(mulhu, A2, A3);  /* (2^31 * (2^32-1)) >> 32 = 0x7fffffff */
  R3(mulhsu, A3, A2); /* (-1 * 2^31) >> 32 = -1 */
  R3(sra, A2, A0);    /* 0x80000000 >> 7 arith = 0xff000000 */
  R3(sll, A0, A3);    /* shift by 31: 7 << 31 = 0x80000000 */
  R3(sltu, A0, A3);   /* 1 */
  R3(slt, A3, A1);    /* -1 < 0 = 1 */
  R3(sub, A1, A0);    /* -7 */
  R3(mul, A0, A3);    /* -7 */
  E(&p, srai, T0, A2, 31);
  E(&p, sw, T0, 4 * k++, S0); /* -1 */
  E(&p, sltiu, T0, A0, -1);
  E(&p, sw, T0, 4 * k++, S0); /* 7 < 0xffffffff = 1 */
  E(&p, addi, 0, A0, 5);      /* x0 stays 0 */
  E(&p, sw, 0, 4 * k++, S0);
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 4, 1);
  must_run(d, &p, &l);
  const uint32_t want[] = {0xffffffffu, 7,          0xffffffffu, 7, 0x80000000u, 0,
                           0,           0x7fffffffu, 0xffffffffu, 0xff000000u,
                           0x80000000u, 1,           1,           (uint32_t)-7, (uint32_t)-7,
                           0xffffffffu, 1,           0};
  for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
    assert_int_equal(rd32(d, DATA_BASE + 4 * i), want[i]);
  vt_device_destroy(d);
}

/* v<r> of every lane to DATA_BASE + slot*0x100 + 4*lane (one warp) */
static void store_v(prog *p, int r, int slot) {
  emit_li(p, A3, (uint32_t)slot * 0x100);
  E(p, vadd_vx, 21, 20, A3, 1);
  E(p, vsw12_v, r, 0, 21);
}

static void vector_int(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_lane_addr(&p, 20, 0);
  E(&p, vid_v, 1, 1);
  emit_li(&p, T0, 3);
  E(&p, vmul_vx, 2, 1, T0, 1);  /* 3i */
  E(&p, vsub_vx, 3, 1, T0, 1);  /* i - 3 */
  E(&p, vdiv_vv, 4, 2, 3, 1);   /* 3i / (i-3), /0 -> -1 */
  E(&p, vrem_vv, 5, 2, 3, 1);   /* 3i % (i-3), %0 -> 3i */
  E(&p, vmslt_vx, 6, 3, 0, 1);  /* i-3 < 0 */
  E(&p, vsra_vi, 7, 3, 1, 1);   /* (i-3) >> 1 */
  E(&p, vmv_v_v, 8, 2);
  E(&p, vmacc_vv, 8, 1, 1, 1);  /* 3i + i*i */
  emit_li(&p, T1, 0x55);
  E(&p, vmv_v_x, 0, T1);        /* v0 element 0 = 0x55: packed mask of lanes 0,2,4,6 */
  emit_li(&p, T2, 100);
  E(&p, vmerge_vxm, 9, 1, T2, 0);
  E(&p, vadd_vi, 10, 1, 10, 0); /* masked: lanes 0,2,4,6 get i+10, others keep 0 */
  E(&p, vmv_x_s, A0, 3);        /* last active lane: 7-3 = 4 */
  E(&p, vmv_v_x, 11, A0);
  E(&p, vmsgtu_vi, 12, 3, 2, 1); /* (u)(i-3) > 2 */
  E(&p, vmand_mm, 13, 6, 12);    /* both 0/1 per element */
  E(&p, vmulh_vv, 14, 3, 2, 1);     /* high word of (i-3)*3i */
  E(&p, vnmsub_vx, 8, T0, 1, 1); /* vd = -(3 * vd) + i */
  for (int r = 2; r <= 14; r++) store_v(&p, r, r);
  store_v(&p, 8, 15);
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  must_run(d, &p, &l);
  for (uint32_t i = 0; i < 8; i++) {
    int32_t a = (int32_t)(3 * i), b = (int32_t)i - 3;
    uint32_t at = DATA_BASE + 4 * i;
    assert_int_equal(rd32(d, at + 0x200), (uint32_t)a);
    assert_int_equal(rd32(d, at + 0x300), (uint32_t)b);
    assert_int_equal(rd32(d, at + 0x400), b ? (uint32_t)(a / b) : 0xffffffffu);
    assert_int_equal(rd32(d, at + 0x500), b ? (uint32_t)(a % b) : (uint32_t)a);
    assert_int_equal(rd32(d, at + 0x600), b < 0);
    assert_int_equal(rd32(d, at + 0x700), (uint32_t)(b >> 1));
    assert_int_equal(rd32(d, at + 0x900), (0x55u >> i & 1) ? 100 : i);
    assert_int_equal(rd32(d, at + 0xa00), (0x55u >> i & 1) ? i + 10 : 0);
    assert_int_equal(rd32(d, at + 0xb00), 4);
    assert_int_equal(rd32(d, at + 0xc00), (uint32_t)b > 2);
    assert_int_equal(rd32(d, at + 0xd00), (b < 0) & ((uint32_t)b > 2));
    assert_int_equal(rd32(d, at + 0xe00), (uint32_t)(((int64_t)a * b) >> 32));
    assert_int_equal(rd32(d, at + 0xf00), i - 3 * (uint32_t)(a + (int32_t)(i * i)));
  }
  vt_device_destroy(d);
}

/* ---- divergence ---------------------------------------------------------------- */
typedef struct {
  uint32_t last_depth, max_depth, nsimt;
} simt_obs;

static void on_commit(void *user, const vt_commit *c) {
  simt_obs *o = user;
  if (!c->has_simt) return;
  o->nsimt++;
  o->last_depth = c->simt_depth;
  if (c->simt_depth > o->max_depth) o->max_depth = c->simt_depth;
}

/* auipc t1, 0 ; setrpc x0, t1, (target - auipc) */
static void emit_setrpc(prog *p, int target) {
  int at = p->n;
  E(p, auipc, T1, 0);
  E(p, setrpc, 0, T1, (int64_t)(target - at) * 4);
}

/* Built twice: the first pass records the label positions (L[]), the
 * second emits the final offsets. */
enum { L_THEN, L_INNER, L_JOIN2, L_JOIN1, L_N };
static void build_nested(prog *p, int *L) {
  p->n = 0;
  emit_lane_addr(p, 20, 0);
  E(p, vid_v, 1, 1);
  emit_li(p, T0, 4);
  E(p, vmv_v_x, 2, T0);
  emit_li(p, T0, 6);
  E(p, vmv_v_x, 4, T0);
  emit_setrpc(p, L[L_JOIN1]);
  E(p, vblt, 1, 2, OFF(p, L[L_THEN]));  /* lanes i < 4 branch */
  emit_setrpc(p, L[L_JOIN2]);
  E(p, vblt, 1, 4, OFF(p, L[L_INNER])); /* of lanes 4..7, lanes 4,5 branch */
  emit_li(p, T0, 300);
  E(p, vadd_vx, 3, 1, T0, 1);
  E(p, jal, 0, OFF(p, L[L_JOIN2]));
  L[L_INNER] = p->n;
  emit_li(p, T0, 200);
  E(p, vadd_vx, 3, 1, T0, 1);
  L[L_JOIN2] = p->n;
  E(p, join, 0, 0, 0);
  E(p, jal, 0, OFF(p, L[L_JOIN1]));
  L[L_THEN] = p->n;
  emit_li(p, T0, 100);
  E(p, vadd_vx, 3, 1, T0, 1);
  L[L_JOIN1] = p->n;
  E(p, join, 0, 0, 0);
  E(p, vsw12_v, 3, 0, 20);
  E0(p, endprg);
}

static void nested_divergence(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  simt_obs o = {0};
  vt_device_set_trace(d, on_commit, &o);
  prog p = {0};
  int L[L_N] = {0};
  build_nested(&p, L);
  build_nested(&p, L);
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  must_run(d, &p, &l);
  for (uint32_t i = 0; i < 8; i++)
    assert_int_equal(rd32(d, DATA_BASE + 4 * i), i + (i < 4 ? 100 : i < 6 ? 200 : 300));
  assert_int_equal(o.max_depth, 3);
  assert_int_equal(o.last_depth, 0);
  assert_int_equal(vt_device_stats(d)->divergent_branches, 2);
  vt_device_destroy(d);
}

static void divergent_loop(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  simt_obs o = {0};
  vt_device_set_trace(d, on_commit, &o);
  prog p = {0};
  emit_lane_addr(&p, 20, 0);
  E(&p, vid_v, 1, 1);
  E(&p, vmv_v_x, 5, 0);
  E(&p, vmv_v_x, 6, 0);
  int loop = p.n;
  int join = loop + 5;
  E(&p, vadd_vi, 5, 5, 1, 1);   /* count++ */
  E(&p, vadd_vv, 6, 6, 5, 1);   /* sum += count */
  emit_setrpc(&p, join);
  E(&p, vbge, 1, 5, OFF(&p, loop)); /* continue while i >= count */
  assert_int_equal(p.n, join);
  E(&p, join, 0, 0, 0);
  E(&p, vsw12_v, 6, 0, 20);
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  must_run(d, &p, &l);
  for (uint32_t i = 0; i < 8; i++) assert_int_equal(rd32(d, DATA_BASE + 4 * i), (i + 1) * (i + 2) / 2);
  assert_int_equal(o.max_depth, 8);
  assert_int_equal(o.last_depth, 0);
  vt_device_destroy(d);
}

/* ---- CSRs of a 3-D grid ---------------------------------------------------------- */
static void grid_csrs(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_lane_addr(&p, 20, 0);
  E(&p, csrrs, A0, CSR_GIDX, 0);
  E(&p, csrrs, A1, CSR_GIDY, 0);
  E(&p, csrrs, A2, CSR_GIDZ, 0);
  E(&p, slli, A1, A1, 8);
  E(&p, slli, A2, A2, 16);
  E(&p, or, A0, A0, A1);
  E(&p, or, A0, A0, A2);
  E(&p, csrrs, A1, CSR_WID, 0);
  E(&p, slli, A1, A1, 24);
  E(&p, or, A0, A0, A1);
  E(&p, vmv_v_x, 1, A0);
  E(&p, vsw12_v, 1, 0, 20);
  E0(&p, endprg);
  vt_launch l = mklaunch(3, 2, 2, 4, 2);
  must_run(d, &p, &l);
  for (uint32_t g = 0; g < 12; g++)
    for (uint32_t t = 0; t < 8; t++) {
      uint32_t want = (g % 3) | (g / 3 % 2) << 8 | (g / 6) << 16 | (t / 4) << 24;
      assert_int_equal(rd32(d, DATA_BASE + 4 * (g * 8 + t)), want);
    }
  const vt_stats *s = vt_device_stats(d);
  assert_int_equal(s->wgs, 12);
  assert_int_equal(s->warps, 24);
  vt_device_destroy(d);
}

/* The commit records of crt0's first instructions, as the ISS logs them. */
typedef struct {
  vt_commit c[8];
  int n;
} rec;
static void keep(void *user, const vt_commit *c) {
  rec *r = user;
  if (r->n < 8) r->c[r->n++] = *c;
}

static void trace_records(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  rec r = {.n = 0};
  vt_device_set_trace(d, keep, &r);
  prog p = {0};
  E(&p, addi, 29, 0, 32);
  E(&p, vsetvli, 29, 29, 0xd0);
  E(&p, lui, 29, 2);
  E(&p, csrrs, 29, CSR_MSTATUS, 29);
  E(&p, vid_v, 1, 1);
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 16, 1);
  must_run(d, &p, &l);
  assert_int_equal(r.n, 6);
  const vt_commit *c = &r.c[1]; /* vsetvli: x29 0x10, vstart, vl, vtype, mstatus */
  assert_int_equal(c->nx, 1);
  assert_int_equal(c->x[0].reg, 29);
  assert_int_equal(c->x[0].val, 16);
  assert_int_equal(c->ncsr, 4);
  assert_int_equal(c->csr[0].csr, CSR_VSTART);
  assert_int_equal(c->csr[1].csr, CSR_VL);
  assert_int_equal(c->csr[1].val, 16);
  assert_int_equal(c->csr[2].val, 0xd0);
  assert_int_equal(c->csr[3].csr, CSR_MSTATUS);
  assert_int_equal(c->csr[3].val, 0x80000600u);
  assert_int_equal(c->vtag, 0);
  c = &r.c[3]; /* csrrs: x29 = old 0x80000600, mstatus 0x80006600 (FS dirtied by zfinx) */
  assert_int_equal(c->x[0].val, 0x80000600u);
  assert_int_equal(c->ncsr, 1);
  assert_int_equal(c->csr[0].val, 0x80006600u);
  c = &r.c[4]; /* vid.v: vstart only, full register */
  assert_int_equal(c->ncsr, 1);
  assert_int_equal(c->csr[0].csr, CSR_VSTART);
  assert_true(c->has_v && c->vtag);
  assert_int_equal(c->vmask, 0xffff);
  assert_int_equal(c->vl, 16);
  assert_int_equal(c->v[15], 15);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(scalar_alu),        cmocka_unit_test(vector_int),
      cmocka_unit_test(nested_divergence), cmocka_unit_test(divergent_loop),
      cmocka_unit_test(grid_csrs),         cmocka_unit_test(trace_records),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
