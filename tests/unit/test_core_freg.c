/* The F-register instructions (flw, fsw, fmv.x.w, fmv.w.x) and the f/x
 * mirroring of the reference ISS: every x write is copied to f while
 * mstatus.FS is on, every f write also writes x, f0 stays 0, registers
 * written before FS was set (the boot stub's) are not mirrored, and
 * f writes appear in the commit log as spike prints them. Expected values
 * are the bit patterns of the literals used (1.0f = 0x3f800000, ...). */
#include "test_core_prog.h"
#include "trace_fmt.h"

enum { RA = 1, SP = 2, A4 = 14, A5 = 15, A6 = 16, FS_ON = 0x2000 };

static void emit_fs_on(prog *p) {
  emit_li(p, T0, FS_ON);
  E(p, csrrs, 0, CSR_MSTATUS, T0);
}

/* collects the formatted commit log */
typedef struct {
  char text[16384];
  size_t len;
} log_buf;

static void on_commit(void *user, const vt_commit *c) {
  log_buf *b = user;
  int n = vt_trace_format(c, b->text + b->len, sizeof b->text - b->len);
  assert_true(n > 0 && (size_t)n < sizeof b->text - b->len);
  b->len += (size_t)n;
}

static void run_ok(vt_device *d, const prog *p, log_buf *log) {
  vt_launch l = mklaunch(1, 1, 1, 4, 1);
  vt_error e = {0};
  if (log) vt_device_set_trace(d, on_commit, log);
  if (run(d, p, &l, &e)) fail_msg("%s", e.msg);
  vt_device_set_trace(d, NULL, NULL);
}

static void moves_and_memory(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {.n = 0};
  wr32(d, DATA_BASE + 0x100, 0x40490fdb); /* pi */
  wr32(d, DATA_BASE + 24, 0xdeadbeef);
  emit_fs_on(&p);
  emit_li(&p, S1, DATA_BASE);
  emit_li(&p, A0, 0x3f800000);
  E(&p, fmv_w_x, RA, A0);      /* f1 = 1.0f, and x1 gets the copy */
  E(&p, sw, RA, 0, S1);
  E(&p, fsw, RA, 4, S1);
  E(&p, flw, SP, 0x100, S1);   /* f2 = pi, x2 too */
  E(&p, fmv_x_w, A1, SP);
  E(&p, sw, A1, 8, S1);
  E(&p, sw, SP, 12, S1);
  emit_li(&p, A2, 0x12345678); /* an x write, mirrored into f12 */
  E(&p, fmv_x_w, A3, A2);
  E(&p, sw, A3, 16, S1);
  E(&p, fsw, A2, 20, S1);
  E(&p, fmv_w_x, 0, A0);       /* f0 is hard-wired to 0 */
  E(&p, fsw, 0, 24, S1);
  E(&p, fmv_w_x, 40, A0);      /* f40 through a regext prefix */
  E(&p, fmv_x_w, A4, 40);
  E(&p, sw, A4, 28, S1);
  E(&p, sw, 40, 32, S1);
  E0(&p, endprg);
  log_buf log = {.len = 0};
  run_ok(d, &p, &log);
  assert_int_equal(rd32(d, DATA_BASE + 0), 0x3f800000);
  assert_int_equal(rd32(d, DATA_BASE + 4), 0x3f800000);
  assert_int_equal(rd32(d, DATA_BASE + 8), 0x40490fdb);
  assert_int_equal(rd32(d, DATA_BASE + 12), 0x40490fdb);
  assert_int_equal(rd32(d, DATA_BASE + 16), 0x12345678);
  assert_int_equal(rd32(d, DATA_BASE + 20), 0x12345678);
  assert_int_equal(rd32(d, DATA_BASE + 24), 0);
  assert_int_equal(rd32(d, DATA_BASE + 28), 0x3f800000);
  assert_int_equal(rd32(d, DATA_BASE + 32), 0x3f800000);
  /* spike: " f%-2d 0x%016x" with FLEN 64, the single NaN-boxed */
  assert_non_null(strstr(log.text, "(0xf00500d3) f1  0xffffffff3f800000\n"));
  assert_non_null(strstr(log.text, " f2  0xffffffff40490fdb mem 0x90000100\n"));
  assert_non_null(strstr(log.text, "(0xf0050053) f0  0xffffffff3f800000\n"));
  assert_non_null(strstr(log.text, "(0xe00606d3) x13 0x12345678\n"));
  assert_non_null(strstr(log.text, " mem 0x90000014 0x12345678\n"));
  vt_device_destroy(d);
}

/* The boot stub's registers (x5, x10, x11) and anything written before the
 * start-up code turns FS on are not copied: their f registers keep the
 * reset value 0. */
static void written_before_fs(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {.n = 0};
  for (uint32_t a = 0; a < 16; a += 4) wr32(d, DATA_BASE + a, 0xdeadbeef);
  emit_li(&p, A5, 0x11223344);
  emit_fs_on(&p);
  emit_li(&p, S1, DATA_BASE);
  E(&p, fsw, A5, 0, S1);
  E(&p, fmv_x_w, A6, A5);
  E(&p, sw, A6, 4, S1);
  E(&p, sw, A5, 8, S1);  /* x15 itself is untouched */
  E(&p, fsw, A0, 12, S1); /* x10 = warp id from the boot stub, f10 = 0 */
  E0(&p, endprg);
  run_ok(d, &p, NULL);
  assert_int_equal(rd32(d, DATA_BASE + 0), 0);
  assert_int_equal(rd32(d, DATA_BASE + 4), 0);
  assert_int_equal(rd32(d, DATA_BASE + 8), 0x11223344);
  assert_int_equal(rd32(d, DATA_BASE + 12), 0);
  vt_device_destroy(d);
}

/* Zfinx results and vfmv.f.s land in f as well (the ISS writes them with
 * WRITE_FRD), and the log shows them as f writes; compares are x writes,
 * mirrored. */
static void zfinx_results(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {.n = 0};
  emit_fs_on(&p);
  emit_li(&p, S1, DATA_BASE);
  emit_li(&p, A1, 0x3f800000); /* 1.0 */
  emit_li(&p, A2, 0x40000000); /* 2.0 */
  E(&p, fadd_s, A0, A1, A2, 7);
  E(&p, fsw, A0, 0, S1);
  E(&p, feq_s, A3, A0, A0);
  E(&p, fsw, A3, 4, S1);
  E(&p, fmv_x_w, A4, A0);
  E(&p, sw, A4, 8, S1);
  E(&p, vmv_v_x, 1, A1);       /* every lane 1.0 */
  E(&p, vfmv_f_s, A5, 1);      /* an f result as well (WRITE_FRD) */
  E(&p, fsw, A5, 12, S1);
  E0(&p, endprg);
  log_buf log = {.len = 0};
  run_ok(d, &p, &log);
  assert_int_equal(rd32(d, DATA_BASE + 0), 0x40400000); /* 3.0 */
  assert_int_equal(rd32(d, DATA_BASE + 4), 1);
  assert_int_equal(rd32(d, DATA_BASE + 8), 0x40400000);
  assert_int_equal(rd32(d, DATA_BASE + 12), 0x3f800000);
  /* vstart (written last by the ISS) first, then f15, then the vtype the
   * ISS prints at its vector marker (logged first) */
  assert_non_null(
      strstr(log.text, "(0x421017d7) c8_vstart 0x00000000 f15 0xffffffff3f800000 e32 m1 l4\n"));
  assert_non_null(strstr(log.text, "(0x00c5f553) f10 0xffffffff40400000\n"));
  assert_non_null(strstr(log.text, "(0xa0a526d3) x13 0x00000001\n"));
  vt_device_destroy(d);
}

/* The commit-log line of an f write: spike's log map iterates in reverse
 * insertion order and WRITE_FRD logs the f register before the fflags it
 * raises, so fflags prints first; the same for an x write and fflags
 * (a compare). The csrrs that turns FS on writes x0, whose mirroring
 * already makes FS Dirty: mstatus = 0x200 (VS Initial at reset) | 0x6000
 * (FS Dirty) | SD. */
static void log_order(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  prog p = {.n = 0};
  wr32(d, DATA_BASE + 0x100, 0x40490fdb);
  emit_li(&p, S1, DATA_BASE);
  emit_li(&p, A1, 0x3f800000); /* 1.0 */
  emit_li(&p, A2, 0x30800000); /* 2^-30: 1.0 + 2^-30 rounds to 1.0, inexact */
  emit_li(&p, A4, 0x7fc00000); /* quiet NaN: flt.s signals invalid */
  emit_fs_on(&p);
  E(&p, flw, SP, 0x100, S1);
  E(&p, fadd_s, A0, A1, A2, 7);
  E(&p, flt_s, A3, A1, A4);
  E0(&p, endprg);
  log_buf log = {.len = 0};
  run_ok(d, &p, &log);
  assert_non_null(strstr(log.text, "(0x3002a073) c768_mstatus 0x80006200\n"));
  assert_non_null(strstr(log.text, "(0x1004a107) f2  0xffffffff40490fdb mem 0x90000100\n"));
  assert_non_null(strstr(log.text, "(0x00c5f553) c1_fflags 0x00000001 f10 0xffffffff3f800000\n"));
  assert_non_null(strstr(log.text, "(0xa0e596d3) c1_fflags 0x00000011 x13 0x00000000\n"));
  vt_device_destroy(d);
}

/* Like every F instruction of the ISS (require_fp), they need FS on. */
static void need_fs(void **state) {
  (void)state;
  const isa_id ids[] = {ISA_flw, ISA_fsw, ISA_fmv_x_w, ISA_fmv_w_x};
  for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
    vt_device *d = mkdev(NULL);
    prog p = {.n = 0};
    emit_li(&p, S1, DATA_BASE);
    const int64_t v[3] = {A0, ids[i] == ISA_fmv_x_w || ids[i] == ISA_fmv_w_x ? A1 : 0, S1};
    emit_v(&p, ids[i], ids[i] == ISA_fmv_x_w || ids[i] == ISA_fmv_w_x ? 2 : 3, v);
    E0(&p, endprg);
    vt_launch l = mklaunch(1, 1, 1, 4, 1);
    vt_error e = {0};
    assert_int_not_equal(run(d, &p, &l, &e), 0);
    assert_int_equal(e.kind, VT_ERR_ILLEGAL);
    assert_non_null(strstr(e.msg, "f-register instruction while mstatus.FS is off"));
    assert_int_equal(e.pc, CODE_BASE + 8);
    vt_device_destroy(d);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(moves_and_memory),
      cmocka_unit_test(written_before_fs),
      cmocka_unit_test(zfinx_results),
      cmocka_unit_test(log_order),
      cmocka_unit_test(need_fs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
