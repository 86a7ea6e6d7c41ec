/* Barriers, private memory, atomics and LR/SC, fp corner cases, the print
 * handshake, device errors (each followed by a good launch), config. */
#include <unistd.h>

#include "test_core_prog.h"
#include "fp32.h"

static int try_run(vt_device *d, const prog *p, const vt_launch *l, vt_error *e) {
  int rc = run(d, p, l, e);
  if (rc) {
    char buf[512];
    vt_err_format(e, buf, sizeof buf);
    fprintf(stderr, "  (launch: %s)\n", buf);
  }
  return rc;
}
static void must_run(vt_device *d, const prog *p, const vt_launch *l) {
  vt_error e;
  assert_int_equal(try_run(d, p, l, &e), 0);
}

/* ---- barrier ----------------------------------------------------------------- */
/* Warp 3 either delays (variant 0) or ends (variant 1) before the others
 * write; after the barrier every thread reads its mirror thread's value. */
static void build_barrier(prog *p, int early_end) {
  p->n = 0;
  E(p, csrrs, T0, CSR_WID, 0);
  emit_li(p, T1, 3);
  int br = p->n;
  E(p, bne, T0, T1, 0); /* patched */
  if (early_end) {
    E0(p, endprg);
  } else {
    emit_li(p, T2, 100);
    int l = p->n;
    E(p, addi, T2, T2, -1);
    E(p, bne, T2, 0, OFF(p, l));
  }
  int skip = p->n;
  prog q = *p;
  q.n = br;
  E(&q, bne, T0, T1, (int64_t)(skip - br) * 4);
  p->w[br] = q.w[br];
  E(p, csrrs, T2, CSR_TID, 0);
  E(p, vid_v, 1, 1);
  E(p, vadd_vx, 1, 1, T2, 1);
  E(p, vsll_vi, 2, 1, 2, 1);
  E(p, csrrs, T0, CSR_LDS, 0);
  E(p, vadd_vx, 2, 2, T0, 1);
  E(p, vadd_vi, 6, 1, 1, 1);
  E(p, vsw12_v, 6, 0, 2); /* local[id] = id + 1 */
  E(p, barrier, 0, 0, 0);
  emit_li(p, T0, 31);
  E(p, vrsub_vx, 3, 1, T0, 1);
  E(p, vsll_vi, 3, 3, 2, 1);
  E(p, csrrs, T0, CSR_LDS, 0);
  E(p, vadd_vx, 3, 3, T0, 1);
  E(p, vlw12_v, 4, 0, 3);
  emit_lane_addr(p, 5, 0);
  E(p, vsw12_v, 4, 0, 5);
  E0(p, endprg);
}

static void barrier_waits(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p;
  build_barrier(&p, 0);
  vt_launch l = mklaunch(2, 1, 1, 8, 4);
  must_run(d, &p, &l);
  for (uint32_t g = 0; g < 2; g++)
    for (uint32_t t = 0; t < 32; t++) assert_int_equal(rd32(d, DATA_BASE + 4 * (g * 32 + t)), 32 - t);
  assert_int_equal(vt_device_stats(d)->barriers, 8);
  vt_device_destroy(d);
}

static void barrier_early_end(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p;
  build_barrier(&p, 1);
  vt_launch l = mklaunch(1, 1, 1, 8, 4);
  must_run(d, &p, &l); /* ISS: the ended warp counts as arrived */
  for (uint32_t t = 0; t < 24; t++) assert_int_equal(rd32(d, DATA_BASE + 4 * t), t < 8 ? 0 : 32 - t);
  vt_device_destroy(d);

  vt_config c;
  vt_config_defaults(&c);
  c.barrier_counts_ended = 0; /* RTL: deadlock */
  d = mkdev(&c);
  vt_error e;
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_DEADLOCK);
  assert_int_equal(e.wg, 0);
  assert_non_null(strstr(e.msg, "warps 0 1 2 wait"));
  build_barrier(&p, 0); /* the device still works */
  must_run(d, &p, &l);
  assert_int_equal(rd32(d, DATA_BASE), 32);
  vt_device_destroy(d);
}

/* ---- private memory ------------------------------------------------------------- */
static void private_roundtrip(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  E(&p, vid_v, 1, 1);
  E(&p, csrrs, T0, CSR_TID, 0);
  E(&p, vadd_vx, 1, 1, T0, 1);    /* local id */
  emit_li(&p, T0, 1000);
  E(&p, vadd_vx, 2, 1, T0, 1);
  E(&p, csrrs, T1, CSR_WGID, 0);
  emit_li(&p, T0, 100);
  E(&p, mul, T1, T1, T0);
  E(&p, vadd_vx, 2, 2, T1, 1);    /* 1000 + lid + 100 * wg */
  E(&p, vmv_v_x, 3, 0);
  E(&p, vsw_v, 2, 8, 3);          /* private word 2 */
  E(&p, vsh_v, 1, 14, 3);         /* private half at byte 14 (word 3, upper half) */
  E(&p, vlw_v, 4, 8, 3);
  E(&p, vlhu_v, 5, 14, 3);
  emit_lane_addr(&p, 6, 0);
  E(&p, vsw12_v, 4, 0, 6);
  emit_lane_addr(&p, 6, 0x1000);
  E(&p, vsw12_v, 5, 0, 6);
  E0(&p, endprg);
  vt_launch l = mklaunch(2, 1, 1, 4, 2); /* two groups run at once on two SMs */
  must_run(d, &p, &l);
  for (uint32_t g = 0; g < 2; g++)
    for (uint32_t t = 0; t < 8; t++) {
      assert_int_equal(rd32(d, DATA_BASE + 4 * (g * 8 + t)), 1000 + t + 100 * g);
      assert_int_equal(rd32(d, DATA_BASE + 0x1000 + 4 * (g * 8 + t)), t);
    }
  /* private memory is device memory, word w of thread t of group g at
   * pds + g*pds_size*NT*NW + w*4*NT*NW + 4t: each group kept its own slice */
  for (uint32_t g = 0; g < 2; g++)
    for (uint32_t t = 0; t < 8; t++) {
      uint32_t slice = l.pds_base + g * 0x100 * 8;
      assert_int_equal(rd32(d, slice + 2 * 4 * 8 + 4 * t), 1000 + t + 100 * g);
      assert_int_equal(rd32(d, slice + 3 * 4 * 8 + 4 * t), t << 16);
    }
  vt_device_destroy(d);
}

/* ---- atomics ---------------------------------------------------------------------- */
static void amo_contention(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_li(&p, S0, DATA_BASE);
  E(&p, csrrs, T0, CSR_WGID, 0);
  E(&p, addi, T0, T0, 1);
  for (int i = 0; i < 3; i++) E(&p, amoadd_w, T1, T0, S0);
  E(&p, addi, S1, S0, 4);
  E(&p, amomax_w, T1, T0, S1);
  E(&p, addi, S1, S0, 8);
  E(&p, amominu_w, T1, T0, S1);
  /* lr/sc increment of DATA+12, retried until it succeeds */
  E(&p, addi, S1, S0, 12);
  int l = p.n;
  E(&p, lr_w, T1, S1);
  E(&p, addi, T1, T1, 1);
  E(&p, sc_w, T2, T1, S1);
  E(&p, bne, T2, 0, OFF(&p, l));
  E0(&p, endprg);
  wr32(d, DATA_BASE + 8, 0xffffffffu);
  vt_launch l2 = mklaunch(16, 1, 1, 8, 2);
  must_run(d, &p, &l2);
  uint32_t sum = 0;
  for (uint32_t g = 0; g < 16; g++) sum += (g + 1) * 2 * 3;
  assert_int_equal(rd32(d, DATA_BASE), sum);
  assert_int_equal(rd32(d, DATA_BASE + 4), 16);
  assert_int_equal(rd32(d, DATA_BASE + 8), 1);
  assert_int_equal(rd32(d, DATA_BASE + 12), 32);
  vt_device_destroy(d);
}

/* ---- fp through the executor -------------------------------------------------------- */
static void fp_corners(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {0};
  emit_li(&p, S0, DATA_BASE);
  int k = 0;
#define F3(op, a, b, rm)                                                                   \
  do {                                                                                     \
    emit_li(&p, A0, a);                                                                    \
    emit_li(&p, A1, b);                                                                    \
    E(&p, op, T0, A0, A1, rm);                                                         \
    E(&p, sw, T0, 4 * k++, S0);                                                            \
  } while (0)
  F3(fadd_s, 0x7f800001u, 0x3f800000u, 0); /* sNaN + 1 -> canonical NaN, NV */
  F3(fmul_s, 0x80000000u, 0x00000000u, 0); /* -0 * +0 = -0 */
  F3(fadd_s, 0x00000000u, 0x80000000u, 0); /* +0 + -0 = +0 (RNE) */
  F3(fadd_s, 0x00000000u, 0x80000000u, 2); /* ... = -0 (RDN) */
  F3(fmul_s, 0x00800000u, 0x3f000000u, 0); /* min normal / 2: exact denormal */
  F3(fdiv_s, 0x3f800000u, 0x00000000u, 0); /* 1/0 = inf, DZ */
  F3(fadd_s, 0x3f800000u, 0x33800000u, 0); /* 1 + 2^-24: tie -> even = 1, NX */
  E(&p, csrrwi, 0, CSR_FRM, 3);             /* frm = RUP */
  F3(fadd_s, 0x3f800000u, 0x33800000u, 7); /* dynamic: RUP -> 1 + ulp */
  F3(fadd_s, 0x3f800000u, 0x33800000u, 0); /* static RNE wins over frm */
  E(&p, csrrs, T0, CSR_FFLAGS, 0);
  E(&p, sw, T0, 4 * k++, S0);
  E(&p, fcvt_w_s, T0, A0, 1);               /* 1.0 -> 1 */
  E(&p, sw, T0, 4 * k++, S0);
  emit_li(&p, A0, 0x7fc00000u);
  E(&p, fcvt_w_s, T0, A0, 1);               /* NaN -> INT_MAX */
  E(&p, sw, T0, 4 * k++, S0);
  /* vector: lanes add 2^-24 to 1.0 under frm = RUP; NaN lane stays canonical */
  emit_li(&p, A0, 0x3f800000u);
  E(&p, vmv_v_x, 1, A0);
  emit_li(&p, A1, 0x33800000u);
  E(&p, vfadd_vf, 2, 1, A1, 1);
  emit_li(&p, A1, 0xff800001u);             /* negative sNaN */
  E(&p, vfmul_vf, 3, 1, A1, 1);
  emit_lane_addr(&p, 20, 0x100);
  E(&p, vsw12_v, 2, 0, 20);
  E(&p, vsw12_v, 3, 0x100, 20);
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 4, 1);
  must_run(d, &p, &l);
  const uint32_t want[] = {0x7fc00000u, 0x80000000u, 0x00000000u, 0x80000000u, 0x00400000u,
                           0x7f800000u, 0x3f800000u, 0x3f800001u, 0x3f800000u,
                           FFLAG_NV | FFLAG_DZ | FFLAG_NX, 1, 0x7fffffffu};
  for (unsigned i = 0; i < sizeof want / sizeof want[0]; i++)
    assert_int_equal(rd32(d, DATA_BASE + 4 * i), want[i]);
  for (uint32_t t = 0; t < 4; t++) {
    assert_int_equal(rd32(d, DATA_BASE + 0x100 + 4 * t), 0x3f800001u);
    assert_int_equal(rd32(d, DATA_BASE + 0x200 + 4 * t), 0x7fc00000u);
  }
  vt_device_destroy(d);
}

/* ---- print handshake ----------------------------------------------------------------- */
typedef struct {
  char text[64];
  size_t n;
} printed;
static void on_print(void *user, const char *t, size_t n) {
  printed *pr = user;
  memcpy(pr->text + pr->n, t, n);
  pr->n += n;
}

static void print_csr(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  printed pr = {{0}, 0};
  vt_device_set_print(d, on_print, &pr);
  vt_error e;
  assert_int_equal(vt_mem_write(d, DATA_BASE + 0x2000, "hi there\n", 9, &e), 0);
  prog p = {0};
  emit_li(&p, S0, DATA_BASE);
  E(&p, csrrs, T0, CSR_PRINT, 0);
  E(&p, sw, T0, 0, S0);          /* initial value: the print buffer */
  emit_li(&p, T0, 3);
  E(&p, csrrw, 0, CSR_PRINT, T0);
  E(&p, csrrs, T0, CSR_PRINT, 0);
  E(&p, sw, T0, 4, S0);          /* reset to 0 by the host */
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 4, 1);
  l.print_addr = DATA_BASE + 0x2000;
  must_run(d, &p, &l);
  assert_int_equal(pr.n, 3);
  assert_memory_equal(pr.text, "hi ", 3);
  assert_int_equal(rd32(d, DATA_BASE), DATA_BASE + 0x2000);
  assert_int_equal(rd32(d, DATA_BASE + 4), 0);
  vt_device_destroy(d);
}

/* ---- errors -------------------------------------------------------------------------- */
static void good_launch_after(vt_device *d) {
  prog p = {0};
  emit_lane_addr(&p, 1, 0x4000);
  E(&p, vid_v, 2, 1);
  E(&p, vsw12_v, 2, 0, 1);
  E0(&p, endprg);
  vt_launch l = mklaunch(1, 1, 1, 8, 1);
  must_run(d, &p, &l);
  for (uint32_t t = 0; t < 8; t++) assert_int_equal(rd32(d, DATA_BASE + 0x4000 + 4 * t), t);
}

static void errors(void **state) {
  (void)state;
  vt_config c;
  vt_config_defaults(&c);
  c.max_steps = 1000;
  c.simt_stack_depth = 4;
  c.host_threads = 1; /* the single-threaded loop's reports (the step limit names a warp there) */
  vt_device *d = mkdev(&c);
  vt_error e;
  vt_launch l = mklaunch(2, 1, 1, 8, 2);
  prog p;

  /* illegal instruction */
  p.n = 0;
  E(&p, addi, T0, 0, 1);
  p.w[p.n++] = 0xffffffffu;
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_int_equal(e.pc, CODE_BASE + 4);
  assert_int_equal(e.insn, 0xffffffffu);
  assert_int_equal(e.wg, 0);
  good_launch_after(d);

  /* unmapped scalar load */
  p.n = 0;
  emit_li(&p, T0, 0x10000000u);
  E(&p, lw, T1, 4, T0);
  E0(&p, endprg);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_int_equal(e.addr, 0x10000004u);
  assert_int_equal(e.lane, -1);
  good_launch_after(d);

  /* misaligned scalar store */
  p.n = 0;
  emit_li(&p, T0, DATA_BASE + 2);
  E(&p, sw, T1, 0, T0);
  E0(&p, endprg);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_MISALIGNED);
  assert_int_equal(e.addr, DATA_BASE + 2);
  good_launch_after(d);

  /* vector load where lane 5 leaves the mapped region */
  p.n = 0;
  E(&p, vid_v, 1, 1);
  E(&p, vsll_vi, 1, 1, 18, 1); /* lane i: i << 18 = i * 256 KiB */
  emit_li(&p, T0, DATA_BASE);
  E(&p, vadd_vx, 1, 1, T0, 1);
  E(&p, vlw12_v, 2, 0, 1);
  E0(&p, endprg);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_int_equal(e.lane, 4);
  assert_int_equal(e.addr, DATA_BASE + 4 * 0x40000);
  good_launch_after(d);

  /* SIMT stack overflow: a divergent loop nests 2 entries per lane */
  p.n = 0;
  E(&p, vid_v, 1, 1);
  E(&p, vmv_v_x, 5, 0);
  int loop = p.n;
  E(&p, vadd_vi, 5, 5, 1, 1);
  E(&p, auipc, T1, 0);
  E(&p, setrpc, 0, T1, 12);
  E(&p, vbge, 1, 5, OFF(&p, loop));
  E(&p, join, 0, 0, 0);
  E0(&p, endprg);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_SIMT);
  good_launch_after(d);

  /* step limit */
  p.n = 0;
  E(&p, jal, 0, 0);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_STEP_LIMIT);
  assert_int_equal(e.pc, CODE_BASE);
  good_launch_after(d);

  /* a group that does not fit an SM */
  vt_launch big = mklaunch(1, 1, 1, 8, 9);
  assert_int_equal(vt_device_launch(d, &big, &e), -1);
  assert_int_equal(e.kind, VT_ERR_CONFIG);
  big = mklaunch(1, 1, 1, 33, 1);
  assert_int_equal(vt_device_launch(d, &big, &e), -1);
  assert_int_equal(e.kind, VT_ERR_CONFIG);
  good_launch_after(d);
  vt_device_destroy(d);
}

/* ---- config --------------------------------------------------------------------------- */
static void config(void **state) {
  (void)state;
  vt_config c;
  vt_error e;
  vt_config_defaults(&c);
  assert_int_equal(c.num_sm, 2);
  assert_int_equal(c.lds_bytes_per_sm, 128 * 1024);
  assert_int_equal(vt_config_set(&c, "lds_bytes_per_sm", "64K", &e), 0);
  assert_int_equal(c.lds_bytes_per_sm, 64 * 1024);
  assert_int_equal(vt_config_set(&c, "max_steps", "0x10", &e), 0);
  assert_int_equal(c.max_steps, 16);
  assert_int_equal(vt_config_set(&c, "nope", "1", &e), -1);
  assert_int_equal(e.kind, VT_ERR_CONFIG);
  assert_int_equal(vt_config_set(&c, "num_sm", "x", &e), -1);
  char path[] = "/tmp/vt_core_cfgXXXXXX";
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("# comment\n[device]\nnum_sm = 4\nwarps_per_sm=16 # trailing\n", f);
  fclose(f);
  assert_int_equal(vt_config_load(&c, path, &e), 0);
  assert_int_equal(c.num_sm, 4);
  assert_int_equal(c.warps_per_sm, 16);
  f = fopen(path, "w");
  fputs("num_sm 4\n", f);
  fclose(f);
  assert_int_equal(vt_config_load(&c, path, &e), -1);
  unlink(path);
  c.max_threads = 64;
  assert_int_equal(vt_config_check(&c, &e), -1);
  c.max_threads = 32;
  assert_int_equal(vt_config_check(&c, &e), 0);
  char buf[1024];
  FILE *m = fmemopen(buf, sizeof buf, "w");
  vt_config_print_json(&c, m);
  fclose(m);
  assert_non_null(strstr(buf, "\"num_sm\": 4"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(barrier_waits),  cmocka_unit_test(barrier_early_end),
      cmocka_unit_test(private_roundtrip), cmocka_unit_test(amo_contention),
      cmocka_unit_test(fp_corners),     cmocka_unit_test(print_csr),
      cmocka_unit_test(errors),         cmocka_unit_test(config),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
