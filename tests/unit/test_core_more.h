/* Helpers shared by the test_core_more*.c executor tests: programs written
 * as assembly text (src/isa/asm.h asm_words, so regext/regexti prefixes
 * come from the assembler), loaded at CODE_BASE and launched. */
#ifndef TEST_CORE_MORE_H
#define TEST_CORE_MORE_H

#include <math.h>

#include "asm.h"
#include "test_core_prog.h"

#define MAX_WORDS 1024 /* 4 KiB of code, inside the 64 KiB code region */

/* Assembles `src` at CODE_BASE and copies it into the device. */
static inline void load_asm(vt_device *d, const char *src) {
  uint32_t *w = calloc(MAX_WORDS, 4);
  assert_non_null(w);
  vt_error e;
  int n = asm_words(src, CODE_BASE, w, MAX_WORDS, &e);
  if (n < 0) {
    free(w);
    fail_msg("assembling the test program: %s", e.msg);
  }
  assert_true(n <= MAX_WORDS);
  assert_int_equal(vt_mem_write(d, CODE_BASE, w, (uint32_t)n * 4, &e), 0);
  free(w);
}

/* one SM of two warp slots on one host thread, run-ahead on or off: the
 * run-ahead tests' device */
static inline vt_config two_slot_config(int run_ahead) {
  vt_config c;
  vt_config_defaults(&c);
  c.host_threads = 1;
  c.num_sm = 1;
  c.warps_per_sm = 2;
  c.run_ahead = (uint32_t)run_ahead;
  return c;
}

/* a device of configuration c with the code (read, execute) and data
 * (read, write) regions mapped */
static inline vt_device *mapped_device(const vt_config *c) {
  vt_error me;
  vt_device *d = vt_device_create(c, &me);
  assert_non_null(d);
  assert_int_equal(vt_mem_map(d, CODE_BASE, 0x10000, VT_PERM_R | VT_PERM_X, &me), 0);
  assert_int_equal(vt_mem_map(d, DATA_BASE, DATA_SIZE, VT_PERM_R | VT_PERM_W, &me), 0);
  return d;
}

/* two SMs on `threads` host threads: the parallel launcher's device */
static inline vt_config threads_config(uint32_t threads) {
  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 2;
  c.host_threads = threads;
  return c;
}

/* the address of the first AMO (opcode 0x2f) of the program at CODE_BASE */
static inline uint32_t first_amo_pc(vt_device *d) {
  vt_error e;
  for (uint32_t a = CODE_BASE; a < CODE_BASE + 0x400; a += 4) {
    uint32_t w;
    assert_int_equal(vt_mem_read(d, a, &w, 4, &e), 0);
    if ((w & 0x7f) == 0x2f) return a;
  }
  fail_msg("no AMO in the program");
  return 0;
}

static inline void launch_ok(vt_device *d, const vt_launch *l) {
  vt_error e;
  if (vt_device_launch(d, l, &e)) {
    char buf[512];
    vt_err_format(&e, buf, sizeof buf);
    fail_msg("launch failed: %s", buf);
  }
}

static inline uint32_t bits_of(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline float float_of(uint32_t u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static inline void wr_words(vt_device *d, uint32_t addr, const uint32_t *v, uint32_t n) {
  vt_error e;
  assert_int_equal(vt_mem_write(d, addr, v, 4 * n, &e), 0);
}

#endif
