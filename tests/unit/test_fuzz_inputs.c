/* Deterministic mutation fuzzing (fixed seeds, a few seconds) of every
 * reader of outside input: .metadata/.data test vectors, '<address> <word>'
 * files, commit logs for trace-diff, kernel ELFs (byte mutations) and valid
 * ELFs holding random instruction words run under a small step limit. Each
 * input must give 0 or -1 with a message; the sanitizer build catches
 * crashes, overreads and leaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <elf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chengying.h"
#include "test_files.h"
#include "testvec.h"
#include "trace_diff.h"
#include "vt_elf.h"

static char dir[64];

static uint32_t rng(uint32_t *s) {
  *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5;
  return *s;
}

static char *path_of(const char *name) {
  static char p[4][128];
  static int k;
  char *r = p[k++ & 3];
  snprintf(r, 128, "%s/%s", dir, name);
  return r;
}

static void put(const char *path, const void *data, size_t n) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, n, f), n);
  fclose(f);
}

/* One mutation of text or binary: flip a bit, set a byte to an interesting
 * value, delete or duplicate a span, insert a digit run. out has room for 2n+64. */
static size_t mutate(const uint8_t *in, size_t n, uint8_t *out, uint32_t *s) {
  static const uint8_t interesting[] = {0, '\n', ' ', '0', '9', 'f', 'x', '#', ':', ',', '-', 0x7f, 0x80, 0xff};
  memcpy(out, in, n);
  int rounds = 1 + (int)(rng(s) % 4);
  for (int r = 0; r < rounds && n; r++) {
    size_t at = rng(s) % n;
    switch (rng(s) % 6) {
    case 0: out[at] ^= (uint8_t)(1u << (rng(s) % 8)); break;
    case 1: out[at] = interesting[rng(s) % sizeof interesting]; break;
    case 2: { /* delete */
      size_t len = 1 + rng(s) % 16;
      if (at + len > n) len = n - at;
      memmove(out + at, out + at + len, n - at - len);
      n -= len;
      break;
    }
    case 3: { /* duplicate */
      size_t len = 1 + rng(s) % 32;
      if (at + len > n) len = n - at;
      if (n + len > 2 * n + 32) break;
      memmove(out + at + len, out + at, n - at);
      n += len;
      break;
    }
    case 4: { /* a long digit run */
      size_t len = 1 + rng(s) % 24;
      memmove(out + at + len, out + at, n - at);
      for (size_t k = 0; k < len; k++) out[at + k] = (uint8_t)('0' + rng(s) % 10);
      n += len;
      break;
    }
    default: out[at] = (uint8_t)rng(s); break;
    }
  }
  return n;
}

/* A small valid vecadd-like case: 2 buffers of 16 bytes. */
static const char meta_txt[] =
    "80000000\n00000000\n00000000\n00000000\n00000002\n00000000\n00000001\n00000000\n"
    "00000001\n00000000\n00000004\n00000000\n00000001\n00000000\n90002000\n00000000\n"
    "00001000\n00000000\n00001000\n00000000\n00000000\n00000000\n00000000\n00000000\n"
    "90003000\n00000000\n00000002\n00000000\n90000000\n00000000\n90001000\n00000000\n"
    "00000010\n00000000\n00000010\n00000000\n00001000\n00000000\n00001000\n00000000\n";
static const char data_txt[] = "3f800000\n40000000\n40400000\n40800000\n00000000\n00000000\n00000000\n00000000\n";

static void fuzz_testvec(void **state) {
  (void)state;
  char *mp = path_of("f.metadata"), *dp = path_of("f.data");
  vt_testvec tv;
  vt_error e;
  put(mp, meta_txt, sizeof meta_txt - 1);
  put(dp, data_txt, sizeof data_txt - 1);
  if (vt_testvec_load(mp, dp, &tv, &e)) fail_msg("seed case: %s", e.msg);
  vt_testvec_free(&tv);
  uint8_t out[2 * sizeof meta_txt + 64];
  uint32_t s = 0x1234567u;
  int ok = 0, bad = 0;
  for (int i = 0; i < 3000; i++) {
    int which = i & 1;
    const char *src = which ? data_txt : meta_txt;
    size_t n = mutate((const uint8_t *)src, strlen(src), out, &s);
    put(which ? dp : mp, out, n);
    memset(&e, 0, sizeof e);
    if (vt_testvec_load(mp, dp, &tv, &e)) {
      assert_true(e.msg[0] != 0);
      bad++;
    } else {
      ok++;
      vt_testvec_free(&tv);
    }
    put(which ? dp : mp, src, strlen(src));
  }
  assert_true(ok > 0 && bad > 0);
  /* a NUL byte hid the rest of its line */
  put(mp, "80000000\0 garbage\n", 18);
  assert_int_equal(vt_testvec_load(mp, dp, &tv, &e), -1);
  assert_non_null(strstr(e.msg, "NUL byte"));
}

static void fuzz_memwords(void **state) {
  (void)state;
  static const char txt[] = "# expected\n0x90000000 0x3f800000\n0x90000004 0x40000000  # two\n\n90000008 40400000\n";
  char *p = path_of("exp.txt");
  uint8_t out[2 * sizeof txt + 64];
  uint32_t s = 0xbeef;
  vt_memwords m;
  vt_error e;
  for (int i = 0; i < 3000; i++) {
    size_t n = mutate((const uint8_t *)txt, sizeof txt - 1, out, &s);
    put(p, out, n);
    if (vt_memwords_read(p, &m, &e) == 0) {
      for (size_t k = 0; k < m.n; k++) assert_int_equal(m.w[k].addr & 3, 0);
      vt_memwords_free(&m);
    } else {
      assert_true(e.msg[0] != 0);
    }
  }
}

static const char log_txt[] =
    "core   0: 0x80000000 (0x02000e93) li      t4, 32\n"
    "core   0: 3 0x80000000 (0x02000e93) x29 0x00000020\n"
    "core   0: 0x80000004 (0x0d0efed7) vsetvli t4, t4, e32, m1, ta, ma\n"
    "core   0: 3 0x80000004 (0x0d0efed7) x29 0x00000004 c8_vstart 0x00000000 c3104_vl 0x00000004\n"
    "core   0: 0x80000008 (0x0000a07b) vlw12.v v0, 0(v1)\n"
    "core   0: 3 0x80000008 (0x0000a07b) e32 m1 l4 v0  0xf 00000004 00000003 00000002 00000001 mem 0x90000000 mem 0x90000004\n"
    "core   0: Executed 2 times\n"
    "core   0: 0x8000000c (0x0020a023) sw      sp, 0(ra)\n"
    "core   0: 3 0x8000000c (0x0020a023) mem 0x70000000 0x00000001\n"
    "core   0: 0x80000010 (0x0000400b) endprg\n"
    "core   0: 3 0x80000010 (0x0000400b)\n";

static void fuzz_trace_logs(void **state) {
  (void)state;
  char *a = path_of("a.log"), *b = path_of("b.log");
  put(a, log_txt, sizeof log_txt - 1);
  uint8_t out[2 * sizeof log_txt + 64];
  uint32_t s = 77;
  vt_tdiff_opts o = {.quiet = 1};
  vt_tdiff_result r;
  vt_error e;
  put(b, log_txt, sizeof log_txt - 1);
  if (vt_trace_diff_files(a, b, &o, NULL, &r, &e)) fail_msg("seed log: %s", e.msg);
  assert_int_equal(r.differing, 0);
  for (int i = 0; i < 3000; i++) {
    size_t n = mutate((const uint8_t *)log_txt, sizeof log_txt - 1, out, &s);
    put(b, out, n);
    if (vt_trace_diff_files(a, b, &o, NULL, &r, &e)) assert_true(e.msg[0] != 0);
    if (vt_trace_diff_files(b, a, &o, NULL, &r, &e)) assert_true(e.msg[0] != 0);
  }
  /* the text report and JSON of a differing pair, to a real stream */
  FILE *f = fopen("/dev/null", "w");
  vt_tdiff_opts oj = {.json = 1};
  for (int i = 0; i < 200; i++) {
    size_t n = mutate((const uint8_t *)log_txt, sizeof log_txt - 1, out, &s);
    put(b, out, n);
    vt_trace_diff_files(a, b, &oj, f, &r, &e);
    vt_trace_diff_files(b, a, NULL, f, &r, &e);
  }
  fclose(f);
}

/* ELF with `n` code words at 0x80000000 and a kernel symbol 'k'. */
static void write_code_elf(const char *path, const uint32_t *code, size_t n) {
  vt_elf_wsec sec = {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x80000000u, 4, (const uint8_t *)code,
                     (uint32_t)(n * 4)};
  vt_elf_wsym sym = {"k", 0x80000000u, (uint32_t)(n * 4), STT_FUNC, STB_GLOBAL, 0};
  vt_elf_wimage img = {1, 0x80000000u, &sec, 1, &sym, 1, NULL, 0};
  vt_error e;
  if (vt_elf_write(path, &img, &e)) fail_msg("vt_elf_write: %s", e.msg);
}

static void fuzz_random_code(void **state) {
  (void)state;
  const char *ov[] = {"max_steps=300"};
  char err[256];
  cy_device *d = cy_create(NULL, ov, 1, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  uint32_t buf;
  assert_int_equal(cy_alloc(d, 4096, &buf), 0);
  uint32_t slots[2] = {buf, 16};
  cy_ndrange nd = {.work_dim = 1, .global = {16, 1, 1}, .local = {8, 1, 1}, .threads = 4};
  char *p = path_of("rand.elf");
  uint32_t s = 0xc0ffee, code[64];
  int faults = 0;
  for (int i = 0; i < 400; i++) {
    for (int k = 0; k < 64; k++) {
      uint32_t w = rng(&s);
      /* a third of the words: a plausible major opcode, so decoding goes deeper */
      static const uint8_t ops[] = {0x03, 0x13, 0x23, 0x33, 0x37, 0x0b, 0x2b, 0x5b, 0x57, 0x7b, 0x73, 0x63, 0x6f, 0x2f};
      if (k % 3 == 0) w = (w & ~0x7fu) | ops[rng(&s) % sizeof ops];
      code[k] = w;
    }
    code[63] = 0x0000400bu; /* endprg */
    write_code_elf(p, code, 64);
    if (cy_launch(d, p, "k", &nd, slots, 2)) {
      assert_true(cy_error(d)[0] != 0);
      faults++;
    }
  }
  assert_true(faults > 0);
  cy_destroy(d);
}

static void fuzz_elf_bytes(void **state) {
  (void)state;
  uint32_t code[] = {0x02000e93u, 0x0d0efed7u, 0x00000013u, 0x0000400bu};
  char *good = path_of("good.elf"), *p = path_of("mut.elf");
  write_code_elf(good, code, 4);
  size_t n;
  uint8_t *img = slurp(good, &n);
  uint8_t *out = malloc(2 * n + 64);
  const char *ov[] = {"max_steps=100"};
  char err[256];
  cy_device *d = cy_create(NULL, ov, 1, err, sizeof err);
  if (!d) fail_msg("cy_create: %s", err);
  cy_ndrange nd = {.work_dim = 1, .global = {4, 1, 1}, .local = {4, 1, 1}, .threads = 4};
  uint32_t s = 4242;
  for (int i = 0; i < 1500; i++) {
    size_t m = n;
    memcpy(out, img, n);
    int flips = 1 + (int)(rng(&s) % 6);
    for (int k = 0; k < flips; k++) {
      size_t at = rng(&s) % (n < 128 || (i & 1) ? n : 128); /* half of them in the ELF and program headers */
      out[at] = (i & 2) ? (uint8_t)rng(&s) : (uint8_t)(out[at] ^ (1u << (rng(&s) % 8)));
    }
    if (i % 7 == 0) m = rng(&s) % n; /* truncated */
    put(p, out, m);
    if (cy_launch(d, p, "k", &nd, NULL, 0)) assert_true(cy_error(d)[0] != 0);
  }
  free(out);
  free(img);
  cy_destroy(d);
}

static int setup(void **state) {
  (void)state;
  strcpy(dir, "/tmp/vt_fuzz_XXXXXX");
  assert_non_null(mkdtemp(dir));
  return 0;
}

static int teardown(void **state) {
  (void)state;
  static const char *names[] = {"f.metadata", "f.data", "exp.txt", "a.log", "b.log", "rand.elf", "good.elf", "mut.elf"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(path_of(names[i]));
  rmdir(dir);
  return 0;
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(fuzz_testvec),     cmocka_unit_test(fuzz_memwords),  cmocka_unit_test(fuzz_trace_logs),
      cmocka_unit_test(fuzz_random_code), cmocka_unit_test(fuzz_elf_bytes),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
