/* Helpers for the core tests: build tiny programs with isa_encode, load
 * them at 0x80000000, map a data region at 0x90000000, launch. */
#ifndef TEST_CORE_PROG_H
#define TEST_CORE_PROG_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "device.h"
#include "isa.h"

#define CODE_BASE 0x80000000u
#define DATA_BASE 0x90000000u
#define DATA_SIZE 0x00100000u

typedef struct {
  uint32_t w[4096];
  int n;
} prog;

/* Appends one instruction (its regext/regexti prefix first if needed);
 * operands in syntax order as isa_operand_values gives them. */
static inline void emit_v(prog *p, isa_id id, int n, const int64_t *v) {
  int64_t vals[ISA_MAX_OPNDS] = {0};
  for (int i = 0; i < n && i < ISA_MAX_OPNDS; i++) vals[i] = v[i];
  uint32_t word, prefix;
  char err[128];
  if (isa_encode(id, vals, 0, &word, &prefix, err, sizeof err)) {
    fprintf(stderr, "encode %s: %s\n", isa_table[id].mnemonic, err);
    abort();
  }
  if (prefix) p->w[p->n++] = prefix;
  p->w[p->n++] = word;
}
#define E(p, id, ...)                                                                      \
  do {                                                                                     \
    const int64_t _v[] = {__VA_ARGS__};                                                    \
    emit_v((p), ISA_##id, (int)(sizeof _v / sizeof _v[0]), _v);                            \
  } while (0)
#define E0(p, id) emit_v((p), ISA_##id, 0, NULL)
/* byte offset from the current position to instruction index `target` */
#define OFF(p, target) ((int64_t)((target) - (p)->n) * 4)

/* li rd, v (lui + addi) */
static inline void emit_li(prog *p, int rd, uint32_t v) {
  uint32_t hi = (v + 0x800) >> 12;
  int32_t lo = (int32_t)(v - (hi << 12));
  E(p, lui, rd, hi & 0xfffff);
  E(p, addi, rd, rd, lo);
}

static inline vt_device *mkdev(const vt_config *c) {
  vt_error e;
  vt_device *d = vt_device_create(c, &e);
  assert_non_null(d);
  assert_int_equal(vt_mem_map(d, CODE_BASE, 0x10000, VT_PERM_RWX, &e), 0);
  assert_int_equal(vt_mem_map(d, DATA_BASE, DATA_SIZE, VT_PERM_R | VT_PERM_W, &e), 0);
  return d;
}

static inline vt_launch mklaunch(uint32_t gx, uint32_t gy, uint32_t gz, uint32_t nt, uint32_t nw) {
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = CODE_BASE;
  l.grid[0] = gx;
  l.grid[1] = gy;
  l.grid[2] = gz;
  l.num_threads = nt;
  l.num_warps = nw;
  l.lds_size = 0x1000;
  l.pds_size = 0x100;
  l.pds_base = DATA_BASE + 0x80000;
  l.knl = DATA_BASE + 0xff000;
  return l;
}

static inline int run(vt_device *d, const prog *p, const vt_launch *l, vt_error *e) {
  vt_error e2;
  assert_int_equal(vt_mem_write(d, CODE_BASE, p->w, (uint32_t)p->n * 4, &e2), 0);
  return vt_device_launch(d, l, e);
}

static inline uint32_t rd32(vt_device *d, uint32_t addr) {
  uint32_t v;
  vt_error e;
  assert_int_equal(vt_mem_read(d, addr, &v, 4, &e), 0);
  return v;
}
static inline void wr32(vt_device *d, uint32_t addr, uint32_t v) {
  vt_error e;
  assert_int_equal(vt_mem_write(d, addr, &v, 4, &e), 0);
}

/* store v<vreg> of every active lane at DATA_BASE + base + 4*(global lane) */
enum { T0 = 5, T1 = 6, T2 = 7, S0 = 8, S1 = 9, A0 = 10, A1 = 11, A2 = 12, A3 = 13 };

/* vaddr = DATA_BASE + off + 4 * (wgid*numw*numt + tid + lane) into v<vaddr>;
 * clobbers t0..t2 and v31 */
static inline void emit_lane_addr(prog *p, int vaddr, uint32_t off) {
  E(p, csrrs, T0, CSR_WGID, 0);
  E(p, csrrs, T1, CSR_NUMW, 0);
  E(p, csrrs, T2, CSR_NUMT, 0);
  E(p, mul, T1, T1, T2);
  E(p, mul, T0, T0, T1);
  E(p, csrrs, T1, CSR_TID, 0);
  E(p, add, T0, T0, T1);
  E(p, vid_v, 31, 1);
  E(p, vadd_vx, 31, 31, T0, 1);
  E(p, vsll_vi, 31, 31, 2, 1);
  emit_li(p, T0, DATA_BASE + off);
  E(p, vadd_vx, vaddr, 31, T0, 1);
}

#endif
