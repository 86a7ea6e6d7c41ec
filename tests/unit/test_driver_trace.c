/* The ISS-format trace writer (exact line text) and trace-diff on small
 * hand-written log pairs: equal, a differing value, a differing pc, barrier
 * spins and lines after endprg ignored, work-group splitting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device.h"
#include "trace_diff.h"
#include "trace_fmt.h"

static void format_lines(void **state) {
  (void)state;
  char buf[4096];
  vt_commit c;
  memset(&c, 0, sizeof c);
  c.warp = 1, c.pc = 0x8000001c, c.insn = 0x80502373, c.nx = 1, c.x[0].reg = 6, c.x[0].val = 1;
  vt_trace_format(&c, buf, sizeof buf);
  const char *nl = strchr(buf, '\n');
  assert_non_null(nl);
  assert_string_equal(nl + 1, "core   1: 3 0x8000001c (0x80502373) x6  0x00000001\n");
  assert_memory_equal(buf, "core   1: 0x8000001c (0x80502373) csrr", 38);

  /* vector ALU write: vstart first, mask, lanes high to low, trailing space */
  memset(&c, 0, sizeof c);
  c.pc = 0x800000c8, c.insn = 0x5e004057, c.ncsr = 1, c.csr[0].csr = 8, c.has_v = 1, c.vreg = 0,
  c.vmask = 0xff, c.vl = 8;
  for (int i = 0; i < 8; i++) c.v[i] = (uint32_t)i;
  vt_trace_format(&c, buf, sizeof buf);
  assert_string_equal(strchr(buf, '\n') + 1,
                      "core   0: 3 0x800000c8 (0x5e004057) c8_vstart 0x00000000 e32 m1 l8 v0  000000ff "
                      "0x00000007 00000006 00000005 00000004 00000003 00000002 00000001 00000000 \n");

  /* scalar store, byte vector store, SIMT state */
  memset(&c, 0, sizeof c);
  c.pc = 0x80000078, c.insn = 0x007ea023, c.nmem = 1, c.mem[0].addr = 0x80003000, c.mem[0].size = 4,
  c.mem[0].store = 1;
  vt_trace_format(&c, buf, sizeof buf);
  assert_string_equal(strchr(buf, '\n') + 1, "core   0: 3 0x80000078 (0x007ea023) mem 0x80003000 0x00000000\n");
  memset(&c, 0, sizeof c);
  c.pc = 0x8000029c, c.insn = 0x04c3305b, c.ncsr = 1, c.csr[0].csr = 0x80c, c.csr[0].val = 0x800002e4,
  c.has_simt = 1, c.simt_mask = 0xff;
  vt_trace_format(&c, buf, sizeof buf);
  assert_string_equal(strchr(buf, '\n') + 1,
                      "core   0: 3 0x8000029c (0x04c3305b) c2060_rpc 0x800002e4 current mask:\t000000ff "
                      "current npc:\t00000000 stack size: 0\n");
  /* barrier spin: the commit line only */
  memset(&c, 0, sizeof c);
  c.warp = 2, c.pc = 0x80000100, c.insn = 0x0402400b, c.spin = 1;
  vt_trace_format(&c, buf, sizeof buf);
  assert_string_equal(buf, "core   2: 3 0x80000100 (0x0402400b)\n");
}

static const char *base_log =
    "core   0: 0x00001000 (0x00000297) auipc   x5, 0x0\n"
    "core   0: 3 0x00001000 (0x00000297) x5  0x00001000\n"
    "core   1: 0x00001000 (0x00000297) auipc   x5, 0x0\n"
    "core   1: 3 0x00001000 (0x00000297) x5  0x00001000\n"
    "core   0: 0x80000000 (0x00004197) auipc   x3, 0x4\n"
    "core   0: 3 0x80000000 (0x00004197) x3  0x80004000\n"
    "core   1: 0x80000000 (0x00004197) auipc   x3, 0x4\n"
    "core   1: 3 0x80000000 (0x00004197) x3  0x80004000\n"
    "core   0: 0x800000c8 (0x5e004057) vmv.v.i v0, 0\n"
    "core   0: 3 0x800000c8 (0x5e004057) c8_vstart 0x00000000 e32 m1 l4 v0  00000003 0x0000dead 0000beef 00000001 00000002 \n"
    "core   1: 0x800000f8 (0x0010607b) vsw12.v v1, v0, 0\n"
    "core   1: 3 0x800000f8 (0x0010607b) c8_vstart 0x00000000 e32 m1 l4 mem 0x90002000 0x42000000 mem 0x90002004 0x42000000\n"
    "core   0: 0x80000090 (0x0000400b) endprg  x0, x0, x0\n"
    "core   0: 3 0x80000090 (0x0000400b)\n"
    "core   1: 0x80000090 (0x0000400b) endprg  x0, x0, x0\n"
    "core   1: 3 0x80000090 (0x0000400b)\n"
    "core   0: 0x80000094 (0x0040006f) j       pc + 0x4\n"
    "core   0: 3 0x80000094 (0x0040006f)\n"
    "core   0: Executed 2 times\n";

/* the same warps' work, written by us: no boot stub, a barrier spin line,
 * warp order interleaved differently, vector lanes outside the mask differ */
static const char *ours_equal =
    "core   1: 0x80000000 (0x00004197) auipc gp, 4\n"
    "core   1: 3 0x80000000 (0x00004197) x3  0x80004000\n"
    "core   1: 3 0x80000000 (0x00004197)\n"
    "core   0: 0x80000000 (0x00004197) auipc gp, 4\n"
    "core   0: 3 0x80000000 (0x00004197) x3  0x80004000\n"
    "core   1: 0x800000f8 (0x0010607b) vsw12.v v1, 0(v0)\n"
    "core   1: 3 0x800000f8 (0x0010607b) c8_vstart 0x00000000 e32 m1 l4 mem 0x90002000 0x42000000 mem 0x90002004 0x42000000\n"
    "core   0: 0x800000c8 (0x5e004057) vmv.v.i v0, 0\n"
    "core   0: 3 0x800000c8 (0x5e004057) c8_vstart 0x00000000 e32 m1 l4 v0  00000003 0x00000000 00000000 00000001 00000002 \n"
    "core   1: 0x80000090 (0x0000400b) endprg zero, zero, zero\n"
    "core   1: 3 0x80000090 (0x0000400b)\n"
    "core   0: 0x80000090 (0x0000400b) endprg zero, zero, zero\n"
    "core   0: 3 0x80000090 (0x0000400b)\n";

static char dir[64];

static char *put(const char *name, const char *text) {
  static char path[4][128];
  static int k;
  char *p = path[k++ & 3];
  snprintf(p, 128, "%s/%s", dir, name);
  FILE *f = fopen(p, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return p;
}

static size_t diff(const char *a, const char *b, char *out, size_t n) {
  FILE *f = fmemopen(out, n, "w");
  vt_tdiff_opts o = {0};
  vt_tdiff_result r;
  vt_error e;
  if (vt_trace_diff_files(a, b, &o, f, &r, &e)) fail_msg("trace diff: %s", e.msg);
  fclose(f);
  return r.differing;
}

static void diff_equal(void **state) {
  (void)state;
  char out[4096];
  char *a = put("a.log", base_log), *b = put("b.log", ours_equal);
  assert_int_equal(diff(a, b, out, sizeof out), 0);
  assert_non_null(strstr(out, "EQUAL"));
  assert_int_equal(diff(a, a, out, sizeof out), 0);
}

static char *replace(const char *s, const char *from, const char *to) {
  const char *p = strstr(s, from);
  assert_non_null(p);
  char *r = malloc(strlen(s) + strlen(to) + 1);
  size_t k = (size_t)(p - s);
  memcpy(r, s, k);
  strcpy(r + k, to);
  strcat(r, p + strlen(from));
  return r;
}

static void diff_value(void **state) {
  (void)state;
  char out[4096];
  char *m = replace(ours_equal, "mem 0x90002004 0x42000000", "mem 0x90002004 0x42000001");
  char *a = put("a.log", base_log), *b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "wg 0 warp 1, instruction 1: store 1"));
  assert_non_null(strstr(out, "DIFFERENT"));
  free(m);
  /* a lane under the mask */
  m = replace(ours_equal, "00000001 00000002 \n", "00000001 00000003 \n");
  b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "v0 lane 0"));
  free(m);
}

static void diff_pc(void **state) {
  (void)state;
  char out[4096];
  char *m1 = replace(ours_equal, "core   0: 0x800000c8", "core   0: 0x800000cc");
  char *m = replace(m1, "core   0: 3 0x800000c8", "core   0: 3 0x800000cc");
  char *a = put("a.log", base_log), *b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "wg 0 warp 0, instruction 1: pc 0x800000c8 vs 0x800000cc"));
  free(m1);
  free(m);
  /* a missing instruction at the end */
  m = replace(ours_equal, "core   0: 0x80000090 (0x0000400b) endprg zero, zero, zero\ncore   0: 3 0x80000090 (0x0000400b)\n", "");
  b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "A has 1 more instructions"));
  free(m);
}

/* f writes ("fN  0x<16 digits>", FLEN 64) are compared in full */
static void diff_fregs(void **state) {
  (void)state;
  char out[4096];
  static const char *flog = "core   0: 0x80000000 (0xf00500d3) fmv.w.x ft1, a0\n"
                            "core   0: 3 0x80000000 (0xf00500d3) f1  0xffffffff3f800000\n"
                            "core   0: 0x80000004 (0x0000400b) endprg\n"
                            "core   0: 3 0x80000004 (0x0000400b)\n";
  char *a = put("a.log", flog);
  assert_int_equal(diff(a, a, out, sizeof out), 0);
  char *m = replace(flog, "f1  0xffffffff3f800000", "f1  0x000000003f800000");
  char *b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "instruction 0: f1 = 0xffffffff3f800000 vs f1 = 0x000000003f800000"));
  free(m);
  m = replace(flog, " f1  0xffffffff3f800000", "");
  b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "instruction 0: f register written only in A"));
  free(m);
}

/* ISA 2025 long formats are logged with their whole 64-bit word (16 digits);
 * the reader used to refuse them as "bad instruction word". */
static void diff_64bit_words(void **state) {
  (void)state;
  char out[4096];
  static const char *llog = "core   0: 0x80000000 (0x000000ff0000993f) vfadd64 v242, v96, v225\n"
                            "core   0: 3 0x80000000 (0x000000ff0000993f)\n"
                            "core   0: 0x80000008 (0x0000400b) endprg\n"
                            "core   0: 3 0x80000008 (0x0000400b)\n";
  char *a = put("a.log", llog);
  assert_int_equal(diff(a, a, out, sizeof out), 0);
  char *m1 = replace(llog, "0x000000ff0000993f)\n", "0x000001ff0000993f)\n");
  char *m = replace(m1, "(0x000000ff0000993f) vf", "(0x000001ff0000993f) vf");
  free(m1);
  char *b = put("b.log", m);
  assert_int_equal(diff(a, b, out, sizeof out), 1);
  assert_non_null(strstr(out, "instruction 0x000000ff0000993f vs 0x000001ff0000993f"));
  free(m);
}

static void diff_workgroups(void **state) {
  (void)state;
  char out[4096];
  /* two WGs in a row: core numbering restarts */
  size_t n = strlen(base_log);
  char *two = malloc(2 * n + 1);
  strcpy(two, base_log);
  strcat(two, base_log);
  char *a = put("a.log", two), *b = put("b.log", ours_equal);
  FILE *f = fmemopen(out, sizeof out, "w");
  vt_tdiff_opts o = {0};
  vt_tdiff_result r;
  vt_error e;
  assert_int_equal(vt_trace_diff_files(a, b, &o, f, &r, &e), 0);
  fclose(f);
  assert_int_equal(r.streams_a, 4);
  assert_int_equal(r.streams_b, 2);
  assert_int_equal(r.differing, 2);
  assert_non_null(strstr(out, "wg 1 warp 0"));
  free(two);
  /* malformed input */
  b = put("b.log", "core   0: 0x80000000 (0x00004197) auipc\ncore   0: 3 0x80000000 (0x00004197) q7 0x1\n");
  assert_int_equal(vt_trace_diff_files(a, b, &o, NULL, &r, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_non_null(strstr(e.msg, "b.log:2"));
}

/* A damaged pc used to make the parser skip the line silently (the
 * records around it were then paired wrongly and a bogus pc difference was
 * reported); a file with no commit lines compared EQUAL to another such. */
static void diff_rejects_damaged_and_empty(void **state) {
  (void)state;
  vt_tdiff_opts o = {.quiet = 1};
  vt_tdiff_result r;
  vt_error e;
  char *m = replace(ours_equal, "core   0: 3 0x800000c8", "core   0: 3 0y800000c8");
  char *a = put("a.log", base_log), *b = put("b.log", m);
  assert_int_equal(vt_trace_diff_files(a, b, &o, NULL, &r, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_non_null(strstr(e.msg, "expected a pc"));
  free(m);
  b = put("b.log", "core 0 without a colon\n");
  assert_int_equal(vt_trace_diff_files(a, b, &o, NULL, &r, &e), -1);
  assert_non_null(strstr(e.msg, "b.log:1"));
  /* 'Executed' lines are still fine */
  m = replace(ours_equal, "core   0: 3 0x800000c8", "core   0: Executed 2 times\ncore   0: 3 0x800000c8");
  b = put("b.log", m);
  assert_int_equal(vt_trace_diff_files(a, b, &o, NULL, &r, &e), 0);
  free(m);
  a = put("a.log", "root:x:0:0:root:/root:/bin/bash\n");
  b = put("b.log", "");
  assert_int_equal(vt_trace_diff_files(a, b, &o, NULL, &r, &e), -1);
  assert_int_equal(e.kind, VT_ERR_FORMAT);
  assert_non_null(strstr(e.msg, "no commit log lines"));
}

static int setup(void **state) {
  (void)state;
  strcpy(dir, "/tmp/vt_td_XXXXXX");
  assert_non_null(mkdtemp(dir));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  char p[128];
  snprintf(p, sizeof p, "%s/a.log", dir);
  unlink(p);
  snprintf(p, sizeof p, "%s/b.log", dir);
  unlink(p);
  rmdir(dir);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(format_lines),  cmocka_unit_test(diff_equal), cmocka_unit_test(diff_value),
      cmocka_unit_test(diff_pc),       cmocka_unit_test(diff_workgroups), cmocka_unit_test(diff_fregs),
      cmocka_unit_test(diff_64bit_words),
      cmocka_unit_test(diff_rejects_damaged_and_empty),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
