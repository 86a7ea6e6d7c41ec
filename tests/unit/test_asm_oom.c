/* Out of memory in the assembler: every allocation of a small unit (C
 * preprocessing with #include and macros, .include, .macro/.rept/.irp,
 * numeric and named labels, pseudo-instructions, relocations, the ELF
 * writer) is failed in turn. Each run must return -1 with one VT_ERR_NOMEM
 * error, no diagnostics and no output file; once N exceeds the allocations
 * the unit needs, it must assemble to the same bytes as an undisturbed run.
 *
 * The failures are injected with link-time wrappers (-Wl,--wrap=malloc and
 * friends, tests/unit/test_asm_oom.cmake), so they reach exactly the code
 * linked statically into this test: the assembler. Two modes: only the Nth
 * allocation fails (later ones succeed: the failure must stick), or the Nth
 * and every later one. Under VT_SANITIZE the wrappers call ASan's malloc,
 * so LeakSanitizer also checks that every failure path frees what it took. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "asm.h"
#include "test_files.h"

/* ---- allocation failure injection (test-only static state) ---------------- */
void *__real_malloc(size_t n);
void *__real_realloc(void *p, size_t n);
void *__real_calloc(size_t n, size_t k);
char *__real_strdup(const char *s);
char *__real_strndup(const char *s, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_calloc(size_t n, size_t k);
char *__wrap_strdup(const char *s);
char *__wrap_strndup(const char *s, size_t n);

/* volatile: the compiler takes malloc for a builtin that touches no user
 * state, and would otherwise move these stores across the calls */
static volatile int armed;     /* count (and maybe fail) allocations */
static volatile long count;    /* allocations since armed */
static volatile long fail_at;  /* 0: none fails */
static volatile int fail_rest; /* the ones after fail_at fail too */
static volatile long injected; /* failures handed out */

static int fail_now(void) {
  if (!armed) return 0;
  long k = ++count;
  if (fail_at && (k == fail_at || (fail_rest && k > fail_at))) {
    injected++;
    return 1;
  }
  return 0;
}

void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
void *__wrap_calloc(size_t n, size_t k) { return fail_now() ? NULL : __real_calloc(n, k); }
char *__wrap_strdup(const char *s) { return fail_now() ? NULL : __real_strdup(s); }
char *__wrap_strndup(const char *s, size_t n) { return fail_now() ? NULL : __real_strndup(s, n); }

static void arm(long at, int rest) {
  count = injected = 0;
  fail_at = at;
  fail_rest = rest;
  armed = 1;
}

static void disarm(void) { armed = 0; }

/* The test's own allocations while armed are neither counted nor failed. */
static int pause_alloc(void) {
  int was = armed;
  armed = 0;
  return was;
}

/* ---- the unit -------------------------------------------------------------- */
static const char defs_h[] = "#define SCALE 4\n"
                             "#define ADDI(rd, rs, imm) addi rd, rs, (imm) * SCALE\n"
                             "#define ARGS(...) __VA_ARGS__\n";
static const char inc_s[] = "  .macro bump reg, n=1\n"
                            "  addi \\reg, \\reg, \\n\n"
                            "  .endm\n";
static const char main_S[] = "#include \"defs.h\"\n"
                             "#ifdef EXTRA\n"
                             "  .equ COUNT, EXTRA\n"
                             "#else\n"
                             "  .equ COUNT, 2\n"
                             "#endif\n"
                             "  .include \"inc.s\"\n"
                             "  .text\n"
                             "  .globl _start\n"
                             "_start:\n"
                             "  ADDI(a0, zero, 1)   // C comment\n"
                             "  la a1, table        # asm comment\n"
                             "  bump a0, 3\n"
                             "  bump a0\n"
                             "  .rept COUNT\n"
                             "  addi ARGS(a0, a0, 1)\n"
                             "  .endr\n"
                             "  .irp r, a2, a3\n"
                             "  li \\r, 0x12345\n"
                             "  .endr\n"
                             "1: addi a0, a0, -1; bnez a0, 1b\n"
                             "  call helper\n"
                             "  call ext_fn\n" /* a relocation with -c */
                             "  j 1f\n"
                             "1: ret\n"
                             "  .data\n"
                             "table: .word 1, 2, 3, _start\n"
                             "msg: .string \"hello\"\n"
                             "  .section .rodata\n"
                             "  .byte 1, 2\n"
                             "  .bss\n"
                             "buf: .space 64\n";
static const char second_s[] = "  .text\n"
                               "  .globl helper, ext_fn\n"
                               "helper:\n"
                               "  add a0, a0, a1\n"
                               "  ret\n";
static const char ext_s[] = "  .text\n"
                            "ext_fn: ret\n";

static char dir[512];
static char p_main[600], p_second[600], p_ext[600], p_out[600];

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  assert_int_equal(fputs(text, f) >= 0, 1);
  assert_int_equal(fclose(f), 0);
}

static int setup(void **state) {
  (void)state;
  snprintf(dir, sizeof dir, "%s/asm_oom_XXXXXX", VT_BINARY_DIR);
  if (!mkdtemp(dir)) return -1;
  char p[600];
  snprintf(p, sizeof p, "%s/defs.h", dir);
  put(p, defs_h);
  snprintf(p, sizeof p, "%s/inc.s", dir);
  put(p, inc_s);
  snprintf(p_main, sizeof p_main, "%s/main.S", dir);
  put(p_main, main_S);
  snprintf(p_second, sizeof p_second, "%s/second.s", dir);
  put(p_second, second_s);
  snprintf(p_ext, sizeof p_ext, "%s/ext.s", dir);
  put(p_ext, ext_s);
  snprintf(p_out, sizeof p_out, "%s/out.elf", dir);
  return 0;
}

static int teardown(void **state) {
  (void)state;
  const char *names[] = {"defs.h", "inc.s", "main.S", "second.s", "ext.s", "out.elf"};
  char p[600];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    snprintf(p, sizeof p, "%s/%s", dir, names[i]);
    unlink(p);
  }
  rmdir(dir);
  return 0;
}

static const char *const defines[] = {"EXTRA=3"};
static const char *const incdirs[] = {"."};
static const asm_pp_options pp = {incdirs, 1, defines, 1};

/* One run of a scenario: 0 or -1, with e (and the assembler's diagnostic
 * count) filled in. */
typedef int (*scenario)(vt_error *e, int *ndiags, uint8_t **bytes, size_t *nbytes);

/* Whole files to an executable: reading, preprocessing, expansion, passes,
 * the ELF writer. The result is the output file. */
static int files_exec(vt_error *e, int *ndiags, uint8_t **bytes, size_t *nbytes) {
  const char *paths[] = {p_main, p_second, p_ext};
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  asm_diags d = {0};
  unlink(p_out);
  int rc = asm_assemble_files_ex(paths, 3, &opt, &pp, p_out, &d, e);
  *ndiags = d.n + d.dropped;
  asm_diags_free(&d);
  *bytes = NULL;
  *nbytes = 0;
  int was = pause_alloc();
  if (!rc) *bytes = slurp(p_out, nbytes);
  armed = was;
  if (rc) assert_int_equal(access(p_out, F_OK), -1); /* no partial output */
  return rc;
}

/* In-memory sources assembled relocatable (relocations, no file I/O of the
 * sources themselves; #include/.include still read files). The result is
 * the .text bytes. */
static int memory_reloc(vt_error *e, int *ndiags, uint8_t **bytes, size_t *nbytes) {
  asm_source src[] = {{p_main, main_S}, {p_second, second_s}};
  asm_options opt = {1, 0, 0, 0};
  asm_object *o = NULL;
  asm_diags d = {0};
  int rc = asm_assemble_ex(src, 2, &opt, &pp, &o, &d, e);
  *ndiags = d.n + d.dropped;
  asm_diags_free(&d);
  *bytes = NULL;
  *nbytes = 0;
  if (!rc) {
    const uint8_t *data;
    uint32_t size;
    assert_int_equal(asm_section(o, ".text", &data, &size, NULL), 0);
    *bytes = __real_malloc(size + 1); /* the test's own: never failed */
    assert_non_null(*bytes);
    memcpy(*bytes, data, size);
    *nbytes = size;
    asm_free(o);
  } else {
    assert_null(o);
  }
  return rc;
}

static void run_all(scenario run, const char *what) {
  vt_error e = {0};
  int nd = 0;
  uint8_t *ref, *got;
  size_t nref, ngot;
  arm(0, 0); /* measure an undisturbed run */
  int rc = run(&e, &nd, &ref, &nref);
  long need = count;
  disarm();
  if (rc) fail_msg("%s: undisturbed run failed: %s", what, e.msg);
  if (need == 0) {
    /* the wrappers are not in effect (test_asm_oom.cmake not applied) */
    printf("SKIP: %s: allocation wrappers not linked in\n", what);
    free(ref);
    return;
  }
  for (int rest = 0; rest <= 1; rest++) {
    long failures = 0;
    for (long n = 1; n <= need + 2; n++) {
      memset(&e, 0, sizeof e);
      arm(n, rest);
      rc = run(&e, &nd, &got, &ngot);
      long hit = injected;
      disarm();
      if (hit) {
        failures++;
        if (rc != -1 || e.kind != VT_ERR_NOMEM || nd != 0 || !strstr(e.msg, "out of memory"))
          fail_msg("%s: allocation %ld of %ld failed (%s): rc %d, %s '%s', %d diagnostic(s)",
                   what, n, need, rest ? "and the rest" : "only", rc, vt_err_kind_name(e.kind),
                   e.msg, nd);
      } else {
        if (rc != 0) fail_msg("%s: no allocation failed (N=%ld) but: %s", what, n, e.msg);
        assert_int_equal(ngot, nref);
        assert_memory_equal(got, ref, nref);
      }
      free(got);
    }
    assert_int_equal(failures, need); /* every allocation was failed once */
  }
  printf("%s: %ld allocations, each failed in turn\n", what, need);
  free(ref);
}

static void test_files_exec(void **state) {
  (void)state;
  run_all(files_exec, "asm_assemble_files_ex");
}

static void test_memory_reloc(void **state) {
  (void)state;
  run_all(memory_reloc, "asm_assemble_ex -c");
}

/* The error names the unit. */
static void test_message(void **state) {
  (void)state;
  vt_error e = {0};
  asm_source s = {"kernel.s", "  addi a0, a0, 1\n"};
  asm_object *o = NULL;
  arm(1, 1);
  int rc = asm_assemble(&s, 1, NULL, &o, NULL, &e);
  disarm();
  if (!injected) {
    printf("SKIP: allocation wrappers not linked in\n");
    asm_free(o);
    return;
  }
  assert_int_equal(rc, -1);
  assert_null(o);
  assert_int_equal(e.kind, VT_ERR_NOMEM);
  assert_string_equal(e.msg, "out of memory while assembling kernel.s");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_files_exec),
      cmocka_unit_test(test_memory_reloc),
      cmocka_unit_test(test_message),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
