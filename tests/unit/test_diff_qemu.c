/* Differential test of the standard (non-custom) instructions against
 * qemu-riscv32 (QEMU 7.2 user mode, softfloat RISC-V semantics).
 *
 * A seeded generator writes random straight-line programs in three classes:
 *
 *   scalar  RV32I ALU/shift/compare/lui/auipc, forward branches, jal and
 *           jalr over one instruction, M (division by 0 and
 *           INT_MIN/-1 included), loads/stores to a scratch buffer, AMOs and
 *           lr/sc pairs, Zfinx fp with special operands, static and dynamic
 *           rounding modes and fflags/frm/fcsr accesses;
 *           QEMU: -cpu rv32,f=false,d=false,zfinx=true
 *   vint    RVV integer .vv/.vx/.vi arithmetic, logic, shifts, min/max,
 *           mul/mulh*, div/rem, the macc family, vmerge, vmv.v.*, vid,
 *           unit-stride/strided/indexed vle32/vse32, most of them also
 *           masked (v0.t), mixed with scalar integer ops, and in both
 *           vector classes vsetvli/vsetivli/vsetvl with AVL 0..12 and
 *           every tail/mask policy (vl < 8 leaves tail elements alone);
 *   vfp     RVV fp .vv ops (vfadd … vfcvt, the fma family, vfclass), .vf
 *           ops, vfmerge and vfmv.v.f, under frm changes, no Zfinx
 *           instructions (QEMU reads a .vf scalar from f[n]: an fmv.w.x
 *           fn, xn precedes each .vf step), and the F-register forms
 *           flw/fsw/fmv.x.w/fmv.w.x in pairs whose result does not depend
 *           on the ISS's f/x mirroring (docs/isa.md §2): x[n] through fn to
 *           memory or to another x register, memory through fn to x[n];
 *           QEMU (both vector classes): -cpu rv32,v=true,vlen=256,elen=32
 *           (F, since QEMU needs it for vector fp), vl = 8 at e32/m1.
 *
 * Every program is assembled once by our assembler at 0x80000000 (.data on
 * the next page) and run twice: as a static ELF under QEMU, whose Linux
 * write/exit ecalls (emitted as .word 0x00000073: ecall is not in the
 * Ventus table) dump the state to stdout, and as a one-warp, 8-lane launch
 * on our simulator, whose ecalls are nops, which first sets mstatus.FS (the
 * F-register forms need it; QEMU user mode has it on and runs two nops
 * there) and which ends with endprg. The
 * two texts have the same length, so auipc/la give the same values. The dump
 * is the scratch buffer, x1..x30, fcsr and v0..v15; every word is compared.
 * On a mismatch the program is re-run on growing prefixes to find the first
 * instruction whose effect differs, and the program, that instruction and
 * every differing word with both values are printed.
 *
 * Legitimate Ventus differences are not generated (docs/isa.md §7): vector
 * compares and mask logic (0/1 per element instead of a packed mask),
 * vmv.s.x/vfmv.s.f (broadcast), vmv.x.s/vfmv.f.s (Ventus takes the last
 * active lane, RVV element 0), and a vtype other than e32/m1. The v0.t mask
 * layout is the same on both: bit i of v0 selects element i.
 *
 * The program of a seed is the same with every C compiler: each random draw
 * is its own statement (or a sequenced initializer), never one of several
 * in a function call's arguments, whose evaluation order C leaves
 * unspecified. Keep it so when adding cases.
 *
 * The test prints "SKIP: qemu-riscv32 not found" without QEMU.
 * VT_DIFF_SCALE=n runs n times as many programs (other seeds). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "asm.h"
#include "device.h"

#define CODE_BASE 0x80000000u
#define DATA_BASE 0x90000000u
#define NLANES 8
#define NVREG 16         /* v0..v15 take part */
#define SCRATCH_WORDS 32 /* 128-byte scratch buffer for loads/stores */
#define BASE_REG 31      /* x31 = scratch address, never written */
#define MAX_BODY 96
#define BODY_LEN 50
#define ENTRY_LEN 160

/* dump layout (words): scratch, x1..x30, fcsr, v0..v15 */
enum {
  D_SCRATCH = 0,
  D_X = D_SCRATCH + SCRATCH_WORDS,
  D_FCSR = D_X + 30,
  D_V = D_FCSR + 1,
  D_WORDS = D_V + NVREG * NLANES
};

typedef enum { CL_SCALAR, CL_VINT, CL_VFP } pclass;
static const char *const class_name[] = {"scalar", "vint", "vfp"};
static const char *const qemu_cpu[] = {
    "rv32,f=false,d=false,zfinx=true,v=false",
    "rv32,v=true,vext_spec=v1.0,vlen=256,elen=32",
    "rv32,v=true,vext_spec=v1.0,vlen=256,elen=32",
};

typedef struct {
  pclass cls;
  uint32_t seed;
  uint32_t xinit[31]; /* x1..x30 (x31 is the scratch address) */
  uint32_t vinit[NVREG][NLANES];
  uint32_t scratch[SCRATCH_WORDS];
  int n;
  char body[MAX_BODY][ENTRY_LEN]; /* one generated step: 1..3 lines */
} dprog;

/* ---- random numbers and operand values ------------------------------------ */
typedef struct {
  uint64_t s;
} rng;

static uint32_t rnd(rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}
static uint32_t rn(rng *r, uint32_t n) { return rnd(r) % n; }

static uint32_t fp_value(rng *r) {
  static const uint32_t special[] = {
      0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7fa00000,
      0xffa00001, 0x7fc00001, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000,
      0x80800000, 0x7f7fffff, 0xff7fffff, 0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000,
      0x3fc00000, 0x40200000, 0xc0200000, 0x3effffff, 0x4f000000, 0xcf000000, 0x4f800000,
      0x4effffff, 0xcf000001, 0x4b000000, 0x4b7fffff, 0x5f000000, 0x33800000, 0x0c000000,
      0x72000000, 0x00400000, 0x3f7fffff, 0x40490fdb, 0xc2c80000, 0x4f7fffff, 0xbf7fffff};
  uint32_t k = rn(r, 4);
  if (k < 2) return special[rn(r, sizeof special / sizeof special[0])];
  uint32_t sign = rnd(r) & 0x80000000u, man = rnd(r) & 0x7fffff;
  if (k == 2) return sign | (127 - 12 + rn(r, 24)) << 23 | man; /* ordinary magnitudes */
  return sign | rn(r, 256) << 23 | man;                         /* anything, incl. subnormal */
}

static uint32_t int_value(rng *r) {
  static const uint32_t special[] = {0,          1,          2,          3,          31,
                                     32,         33,         0xffffffff, 0xfffffffe, 0x80000000,
                                     0x7fffffff, 0x80000001, 0xffff,     0x8000,     0x7fff,
                                     0xff,       0x80,       0x7f,       0x10000,    0xffff8000};
  switch (rn(r, 3)) {
  case 0: return special[rn(r, sizeof special / sizeof special[0])];
  case 1: return (uint32_t)((int32_t)rn(r, 64) - 32);
  default: return rnd(r);
  }
}

static uint32_t any_value(rng *r) { return rn(r, 2) ? fp_value(r) : int_value(r); }

/* ---- the generator ---------------------------------------------------------- */
static int xrd(rng *r) { return rn(r, 40) ? 1 + (int)rn(r, 30) : 0; } /* sometimes x0 */
static int xrs(rng *r) { return (int)rn(r, 32); }                     /* x31 too */
static int vreg(rng *r) { return (int)rn(r, NVREG); }

static const char *rm_name(rng *r) {
  static const char *const rm[] = {"", ", rne", ", rtz", ", rdn", ", rup", ", rmm", ", dyn"};
  return rm[rn(r, 7)];
}

/* a step that leaves the scratch buffer address + off (word aligned) in a
 * random temporary; returns it */
static int addr_tmp(rng *r, char *s, size_t len, int off) {
  int t = 1 + (int)rn(r, 30);
  snprintf(s, len, "addi x%d, x%d, %d\n", t, BASE_REG, off);
  return t;
}

static void gen_scalar_int(rng *r, char *s, size_t len) {
  static const char *const rr[] = {"add",    "sub",   "sll", "slt",  "sltu", "xor",
                                   "srl",    "sra",   "or",  "and",  "mul",  "mulh",
                                   "mulhsu", "mulhu", "div", "divu", "rem",  "remu"};
  static const char *const ri[] = {"addi", "slti", "sltiu", "xori", "ori", "andi"};
  static const char *const sh[] = {"slli", "srli", "srai"};
  switch (rn(r, 8)) {
  case 0:
  case 1: {
    const char *op = rr[rn(r, 18)];
    int d = xrd(r);
    int a = xrs(r);
    int b = xrs(r);
    snprintf(s, len, "%s x%d, x%d, x%d", op, d, a, b);
    break;
  }
  case 2: {
    const char *op = ri[rn(r, 6)];
    int d = xrd(r);
    int a = xrs(r);
    int imm = (int)rn(r, 4096) - 2048;
    snprintf(s, len, "%s x%d, x%d, %d", op, d, a, imm);
    break;
  }
  case 3: {
    const char *op = sh[rn(r, 3)];
    int d = xrd(r);
    int a = xrs(r);
    uint32_t sa = rn(r, 32);
    snprintf(s, len, "%s x%d, x%d, %u", op, d, a, sa);
    break;
  }
  case 4: {
    const char *op = rn(r, 2) ? "lui" : "auipc";
    int d = xrd(r);
    uint32_t imm = rn(r, 0x100000);
    snprintf(s, len, "%s x%d, 0x%x", op, d, imm);
    break;
  }
  case 5: { /* division corner cases: x / 0, INT_MIN / -1 */
    static const char *const dv[] = {"div", "divu", "rem", "remu"};
    int a = 1 + (int)rn(r, 30), b = 1 + (int)rn(r, 30);
    while (b == a) b = 1 + (int)rn(r, 30);
    int zero = rn(r, 2);
    uint32_t num = zero ? int_value(r) : 0x80000000u;
    const char *op = dv[rn(r, 4)];
    int d = xrd(r);
    snprintf(s, len, "li x%d, 0x%x\nli x%d, %d\n%s x%d, x%d, x%d", a, num, b, zero ? 0 : -1, op, d,
             a, b);
    break;
  }
  default: {
    int d = 1 + (int)rn(r, 30);
    uint32_t v = int_value(r);
    snprintf(s, len, "li x%d, 0x%x", d, v);
    break;
  }
  }
}

/* forward control transfers over one instruction: branches, jal, jalr
 * (odd offset: bit 0 of the target is dropped) */
static void gen_jump(rng *r, char *s, size_t len) {
  static const char *const br[] = {"beq", "bne", "blt", "bge", "bltu", "bgeu"};
  int d = 1 + (int)rn(r, 30);
  switch (rn(r, 4)) {
  case 0:
  case 1: {
    const char *op = br[rn(r, 6)];
    int a = xrs(r);
    int b = xrs(r);
    snprintf(s, len, "%s x%d, x%d, .+8\naddi x%d, x%d, 1", op, a, b, d, d);
    break;
  }
  case 2: snprintf(s, len, "jal x%d, .+8\naddi x%d, x%d, 1", xrd(r), d, d); break;
  default: {
    int t = 1 + (int)rn(r, 30);
    snprintf(s, len, "auipc x%d, 0\njalr x%d, 13(x%d)\naddi x%d, x%d, 1", t, rn(r, 2) ? t : xrd(r),
             t, d, d);
    break;
  }
  }
}

static void gen_mem(rng *r, char *s, size_t len) {
  static const char *const ld[] = {"lb", "lbu", "lh", "lhu", "lw"};
  static const int ldsz[] = {1, 1, 2, 2, 4};
  static const char *const st[] = {"sb", "sh", "sw"};
  static const char *const amo[] = {"amoswap.w", "amoadd.w", "amoxor.w",  "amoand.w", "amoor.w",
                                    "amomin.w",  "amomax.w", "amominu.w", "amomaxu.w"};
  static const char *const aqrl[] = {"", ".aq", ".rl", ".aqrl"};
  int bytes = SCRATCH_WORDS * 4;
  switch (rn(r, 5)) {
  case 0:
  case 1: {
    int k = (int)rn(r, 5);
    int d = xrd(r);
    int off = (int)rn(r, (uint32_t)(bytes / ldsz[k])) * ldsz[k];
    snprintf(s, len, "%s x%d, %d(x%d)", ld[k], d, off, BASE_REG);
    break;
  }
  case 2: {
    int k = (int)rn(r, 3), sz = 1 << k;
    int a = xrs(r);
    int off = (int)rn(r, (uint32_t)(bytes / sz)) * sz;
    snprintf(s, len, "%s x%d, %d(x%d)", st[k], a, off, BASE_REG);
    break;
  }
  case 3: {
    int n = addr_tmp(r, s, len, (int)rn(r, SCRATCH_WORDS) * 4), t = (int)strlen(s);
    const char *op = amo[rn(r, 9)];
    const char *q = aqrl[rn(r, 4)];
    int d = xrd(r);
    int a = xrs(r);
    snprintf(s + t, len - (size_t)t, "%s%s x%d, x%d, (x%d)", op, q, d, a, n);
    break;
  }
  default: { /* lr/sc: same word (succeeds) or another one (fails) */
    int off = (int)rn(r, SCRATCH_WORDS) * 4, n = addr_tmp(r, s, len, off), t = (int)strlen(s);
    int a = 1 + (int)rn(r, 30);
    while (a == n) a = 1 + (int)rn(r, 30);
    int rd = xrd(r);
    while (rd == n) rd = xrd(r);
    int same = rn(r, 3) != 0;
    snprintf(s + t, len - (size_t)t, "lr.w%s x%d, (x%d)\n", aqrl[rn(r, 4)], rd, n);
    t = (int)strlen(s);
    if (same) {
      const char *q = aqrl[rn(r, 4)];
      int d = xrd(r);
      int v = xrs(r);
      snprintf(s + t, len - (size_t)t, "sc.w%s x%d, x%d, (x%d)", q, d, v, n);
    } else {
      int other = (off + 4 * (1 + (int)rn(r, SCRATCH_WORDS - 1))) % (SCRATCH_WORDS * 4);
      int d = xrd(r);
      int v = xrs(r);
      snprintf(s + t, len - (size_t)t, "addi x%d, x%d, %d\nsc.w x%d, x%d, (x%d)", a, BASE_REG,
               other, d, v, a);
    }
    break;
  }
  }
}

/* fflags/frm/fcsr accesses that keep frm a valid rounding mode */
static void gen_fcsr(rng *r, char *s, size_t len) {
  switch (rn(r, 7)) {
  case 0:
  case 1: snprintf(s, len, "csrwi frm, %u", rn(r, 5)); break;
  case 2: {
    int d = xrd(r);
    const char *csr = rn(r, 2) ? "fflags" : "fcsr";
    snprintf(s, len, "csrr x%d, %s", d, csr);
    break;
  }
  case 3: {
    int d = xrd(r);
    int a = xrs(r);
    snprintf(s, len, "csrrw x%d, fflags, x%d", d, a);
    break;
  }
  case 4: {
    int d = xrd(r);
    uint32_t bits = rn(r, 8);
    snprintf(s, len, "csrrci x%d, frm, %u", d, bits);
    break;
  }
  case 5: {
    const char *op = rn(r, 2) ? "s" : "c";
    int d = xrd(r);
    int a = xrs(r);
    snprintf(s, len, "csrr%s x%d, fflags, x%d", op, d, a);
    break;
  }
  default: snprintf(s, len, "csrwi fflags, 0"); break;
  }
}

static void gen_scalar_fp(rng *r, char *s, size_t len) {
  static const char *const r2rm[] = {"fadd.s", "fsub.s", "fmul.s", "fdiv.s"};
  static const char *const r2[] = {"fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s",
                                   "fmax.s",  "feq.s",    "flt.s",    "fle.s"};
  static const char *const r1rm[] = {"fsqrt.s", "fcvt.w.s", "fcvt.wu.s", "fcvt.s.w", "fcvt.s.wu"};
  static const char *const r3[] = {"fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"};
  switch (rn(r, 8)) {
  case 0:
  case 1: {
    const char *op = r2rm[rn(r, 4)];
    int d = xrd(r);
    int a = xrs(r);
    int b = xrs(r);
    const char *rm = rm_name(r);
    snprintf(s, len, "%s x%d, x%d, x%d%s", op, d, a, b, rm);
    break;
  }
  case 2: {
    const char *op = r2[rn(r, 8)];
    int d = xrd(r);
    int a = xrs(r);
    int b = xrs(r);
    snprintf(s, len, "%s x%d, x%d, x%d", op, d, a, b);
    break;
  }
  case 3: {
    const char *op = r1rm[rn(r, 5)];
    int d = xrd(r);
    int a = xrs(r);
    const char *rm = rm_name(r);
    snprintf(s, len, "%s x%d, x%d%s", op, d, a, rm);
    break;
  }
  case 4: {
    int d = xrd(r);
    int a = xrs(r);
    snprintf(s, len, "fclass.s x%d, x%d", d, a);
    break;
  }
  case 5: {
    const char *op = r3[rn(r, 4)];
    int d = xrd(r);
    int a = xrs(r);
    int b = xrs(r);
    int c = xrs(r);
    const char *rm = rm_name(r);
    snprintf(s, len, "%s x%d, x%d, x%d, x%d%s", op, d, a, b, c, rm);
    break;
  }
  default: {
    int d = 1 + (int)rn(r, 30);
    uint32_t v = fp_value(r);
    snprintf(s, len, "li x%d, 0x%x", d, v);
    break;
  }
  }
}

/* vsetvli/vsetivli/vsetvl with AVL 0..12 (vl = min(AVL, 8) on both), the
 * x0 forms, every tail/mask policy (QEMU 7.2 leaves agnostic elements
 * undisturbed, as we do), and reading vl/vtype back */
static void gen_vset(rng *r, char *s, size_t len) {
  static const char *const pol[] = {"tu, mu", "ta, mu", "tu, ma", "ta, ma"};
  uint32_t k = rn(r, 4), avl = rn(r, 13);
  int d = xrd(r), t = 1 + (int)rn(r, 30);
  switch (rn(r, 6)) {
  case 0:
  case 1:
    snprintf(s, len, "li x%d, %u\nvsetvli x%d, x%d, e32, m1, %s", t, avl, d, t, pol[k]);
    break;
  case 2: snprintf(s, len, "vsetivli x%d, %u, e32, m1, %s", d, avl, pol[k]); break;
  case 3: /* rd != x0: vl = VLMAX; rd = x0: vl kept */
    snprintf(s, len, "vsetvli x%d, x0, e32, m1, %s", rn(r, 2) ? d : 0, pol[k]);
    break;
  case 4: {
    int u = t % 30 + 1;
    snprintf(s, len, "li x%d, %u\nli x%d, 0x%x\nvsetvl x%d, x%d, x%d", t, avl, u, 0x10 | k << 6, d,
             t, u);
    break;
  }
  default: snprintf(s, len, "csrr x%d, %s", d, rn(r, 2) ? "vl" : "vtype"); break;
  }
}

/* ", v0.t" for about one op in four; *vd is moved off v0 then (RVV reserves
 * a masked vd = v0) */
static const char *vmask(rng *r, int *vd) {
  if (rn(r, 4)) return "";
  while (*vd == 0) *vd = vreg(r);
  return ", v0.t";
}

static void gen_vint(rng *r, char *s, size_t len) {
  /* .vv and .vx forms; the .vi ones are listed separately */
  static const char *const vvx[] = {"vadd",  "vsub", "vminu",  "vmin", "vmaxu",   "vmax",  "vand",
                                    "vor",   "vxor", "vsll",   "vsrl", "vsra",    "vdivu", "vdiv",
                                    "vremu", "vrem", "vmulhu", "vmul", "vmulhsu", "vmulh"};
  static const char *const vi_s[] = {"vadd", "vrsub", "vand", "vor", "vxor"};
  static const char *const vi_u[] = {"vsll", "vsrl", "vsra"};
  static const char *const mac[] = {"vmacc", "vnmsac", "vmadd", "vnmsub"};
  int vd = vreg(r);
  switch (rn(r, 15)) {
  case 0:
  case 1: {
    const char *m = vmask(r, &vd);
    const char *op = vvx[rn(r, 20)];
    int a = vreg(r);
    int b = vreg(r);
    snprintf(s, len, "%s.vv v%d, v%d, v%d%s", op, vd, a, b, m);
    break;
  }
  case 2: {
    const char *m = vmask(r, &vd);
    int k = (int)rn(r, 21);
    int a = vreg(r);
    int x = xrs(r);
    snprintf(s, len, "%s.vx v%d, v%d, x%d%s", k == 20 ? "vrsub" : vvx[k], vd, a, x, m);
    break;
  }
  case 3: {
    const char *m = vmask(r, &vd);
    if (rn(r, 2)) {
      const char *op = vi_s[rn(r, 5)];
      int a = vreg(r);
      int imm = (int)rn(r, 32) - 16;
      snprintf(s, len, "%s.vi v%d, v%d, %d%s", op, vd, a, imm, m);
    } else {
      const char *op = vi_u[rn(r, 3)];
      int a = vreg(r);
      uint32_t imm = rn(r, 32);
      snprintf(s, len, "%s.vi v%d, v%d, %u%s", op, vd, a, imm, m);
    }
    break;
  }
  case 4: {
    const char *m = vmask(r, &vd);
    if (rn(r, 2)) {
      const char *op = mac[rn(r, 4)];
      int a = vreg(r);
      int b = vreg(r);
      snprintf(s, len, "%s.vv v%d, v%d, v%d%s", op, vd, a, b, m);
    } else {
      const char *op = mac[rn(r, 4)];
      int x = xrs(r);
      int b = vreg(r);
      snprintf(s, len, "%s.vx v%d, x%d, v%d%s", op, vd, x, b, m);
    }
    break;
  }
  case 5: { /* vmerge: vd != v0 */
    while (vd == 0) vd = vreg(r);
    int form = (int)rn(r, 3);
    int a = vreg(r);
    switch (form) {
    case 0: {
      int b = vreg(r);
      snprintf(s, len, "vmerge.vvm v%d, v%d, v%d, v0", vd, a, b);
      break;
    }
    case 1: {
      int x = xrs(r);
      snprintf(s, len, "vmerge.vxm v%d, v%d, x%d, v0", vd, a, x);
      break;
    }
    default: {
      int imm = (int)rn(r, 32) - 16;
      snprintf(s, len, "vmerge.vim v%d, v%d, %d, v0", vd, a, imm);
      break;
    }
    }
    break;
  }
  case 6:
    switch (rn(r, 4)) {
    case 0: snprintf(s, len, "vmv.v.v v%d, v%d", vd, vreg(r)); break;
    case 1: snprintf(s, len, "vmv.v.x v%d, x%d", vd, xrs(r)); break;
    case 2: snprintf(s, len, "vmv.v.i v%d, %d", vd, (int)rn(r, 32) - 16); break;
    default: {
      const char *m = vmask(r, &vd);
      snprintf(s, len, "vid.v v%d%s", vd, m);
      break;
    }
    }
    break;
  case 7: { /* unit stride */
    int t = addr_tmp(r, s, len, (int)rn(r, SCRATCH_WORDS - NLANES + 1) * 4), k = (int)strlen(s);
    const char *m = vmask(r, &vd);
    snprintf(s + k, len - (size_t)k, "%s v%d, (x%d)%s", rn(r, 2) ? "vle32.v" : "vse32.v", vd, t, m);
    break;
  }
  case 8: { /* strided: stride 4*j, j in -3..3, every element inside the buffer */
    int j = (int)rn(r, 7) - 3, lo = j < 0 ? -7 * j : 0,
        hi = SCRATCH_WORDS - 1 - (j > 0 ? 7 * j : 0);
    int t = addr_tmp(r, s, len, (lo + (int)rn(r, (uint32_t)(hi - lo + 1))) * 4), k = (int)strlen(s);
    int st = 1 + (int)rn(r, 30);
    while (st == t) st = 1 + (int)rn(r, 30);
    const char *m = vmask(r, &vd);
    snprintf(s + k, len - (size_t)k, "li x%d, %d\n%s v%d, (x%d), x%d%s", st, 4 * j,
             rn(r, 2) ? "vlse32.v" : "vsse32.v", vd, t, st, m);
    break;
  }
  case 9: { /* indexed: offsets (vs & 15) * 4 + base 0..64 */
    static const char *const ix[] = {"vluxei32.v", "vloxei32.v", "vsuxei32.v", "vsoxei32.v"};
    int vi = vreg(r);
    while (vi == vd) vi = vreg(r);
    int vsrc = vreg(r);
    int k0 = snprintf(s, len, "vand.vi v%d, v%d, 15\nvsll.vi v%d, v%d, 2\n", vi, vsrc, vi, vi);
    int t = 1 + (int)rn(r, 30);
    k0 +=
        snprintf(s + k0, len - (size_t)k0, "addi x%d, x%d, %d\n", t, BASE_REG, (int)rn(r, 17) * 4);
    const char *m = vmask(r, &vd);
    while (vi == vd) vd = 1 + (int)rn(r, NVREG - 1);
    snprintf(s + k0, len - (size_t)k0, "%s v%d, (x%d), v%d%s", ix[rn(r, 4)], vd, t, vi, m);
    break;
  }
  case 10: { /* division corner cases per element */
    static const char *const dv[] = {"vdiv", "vdivu", "vrem", "vremu"};
    int a = 1 + (int)rn(r, NVREG - 1), b = vreg(r), x = 1 + (int)rn(r, 30);
    while (b == a) b = vreg(r);
    int divisor = rn(r, 2) ? 0 : -1;
    const char *op = dv[rn(r, 4)];
    snprintf(
        s, len,
        "li x%d, 0x80000000\nvmerge.vxm v%d, v%d, x%d, v0\nvmv.v.i v%d, %d\n%s.vv v%d, v%d, v%d", x,
        a, a, x, b, divisor, op, vd, a, b);
    break;
  }
  case 11: gen_vset(r, s, len); break;
  default: gen_scalar_int(r, s, len); break;
  }
}

static void gen_vfp(rng *r, char *s, size_t len) {
  static const char *const vv[] = {"vfadd", "vfsub",  "vfmul",   "vfdiv",  "vfmin",
                                   "vfmax", "vfsgnj", "vfsgnjn", "vfsgnjx"};
  static const char *const fma[] = {"vfmacc", "vfnmacc", "vfmsac", "vfnmsac",
                                    "vfmadd", "vfnmadd", "vfmsub", "vfnmsub"};
  static const char *const un[] = {"vfsqrt.v",         "vfclass.v",      "vfcvt.xu.f.v",
                                   "vfcvt.x.f.v",      "vfcvt.f.xu.v",   "vfcvt.f.x.v",
                                   "vfcvt.rtz.xu.f.v", "vfcvt.rtz.x.f.v"};
  int vd = vreg(r);
  switch (rn(r, 14)) {
  case 0:
  case 1:
  case 2: {
    const char *m = vmask(r, &vd);
    const char *op = vv[rn(r, 9)];
    int a = vreg(r);
    int b = vreg(r);
    snprintf(s, len, "%s.vv v%d, v%d, v%d%s", op, vd, a, b, m);
    break;
  }
  case 3:
  case 4: {
    const char *m = vmask(r, &vd);
    const char *op = fma[rn(r, 8)];
    int a = vreg(r);
    int b = vreg(r);
    snprintf(s, len, "%s.vv v%d, v%d, v%d%s", op, vd, a, b, m);
    break;
  }
  case 5:
  case 6: {
    const char *m = vmask(r, &vd);
    int k = (int)rn(r, 8);
    int a = vreg(r);
    if (k < 6) {
      snprintf(s, len, "%s v%d, v%d%s", un[k], vd, a, m);
    } else { /* QEMU 7.2 aborts on vfcvt.rtz.*: see expand_rtz() */
      int t = 1 + (int)rn(r, 30);
      snprintf(s, len, "%s v%d, v%d%s # x%d", un[k], vd, a, m, t);
    }
    break;
  }
  case 7: gen_fcsr(r, s, len); break;
  case 12: gen_vset(r, s, len); break;
  case 9:
  case 10: { /* .vf forms: QEMU reads f[x], we read x[x] (Zfinx) */
    static const char *const vf[] = {"vfadd", "vfsub", "vfrsub", "vfmul",   "vfdiv",  "vfrdiv",
                                     "vfmin", "vfmax", "vfsgnj", "vfsgnjn", "vfsgnjx"};
    int x = xrs(r), k = snprintf(s, len, "fmv.w.x f%d, x%d\n", x, x);
    switch (rn(r, 4)) {
    case 0:
    case 1: {
      const char *m = vmask(r, &vd);
      const char *op = vf[rn(r, 11)];
      int a = vreg(r);
      snprintf(s + k, len - (size_t)k, "%s.vf v%d, v%d, x%d%s", op, vd, a, x, m);
      break;
    }
    case 2: {
      const char *m = vmask(r, &vd);
      const char *op = fma[rn(r, 8)];
      int b = vreg(r);
      snprintf(s + k, len - (size_t)k, "%s.vf v%d, x%d, v%d%s", op, vd, x, b, m);
      break;
    }
    default:
      while (vd == 0) vd = vreg(r);
      if (rn(r, 2))
        snprintf(s + k, len - (size_t)k, "vfmerge.vfm v%d, v%d, x%d, v0", vd, vreg(r), x);
      else
        snprintf(s + k, len - (size_t)k, "vfmv.v.f v%d, x%d", vd, x);
      break;
    }
    break;
  }
  case 13: { /* F-register forms, paired so that standard F and the mirroring agree */
    int n = 1 + (int)rn(r, 30);
    int off = (int)rn(r, SCRATCH_WORDS) * 4;
    switch (rn(r, 3)) {
    case 0: snprintf(s, len, "fmv.w.x f%d, x%d\nfsw f%d, %d(x%d)", n, n, n, off, BASE_REG); break;
    case 1: snprintf(s, len, "flw f%d, %d(x%d)\nfmv.x.w x%d, f%d", n, off, BASE_REG, n, n); break;
    default: {
      int k = xrd(r);
      snprintf(s, len, "fmv.w.x f%d, x%d\nfmv.x.w x%d, f%d", n, n, k, n);
      break;
    }
    }
    break;
  }
  case 8: { /* fresh special values: a broadcast, or merged under v0 */
    int x = 1 + (int)rn(r, 30);
    int k = snprintf(s, len, "li x%d, 0x%x\n", x, fp_value(r));
    while (vd == 0) vd = vreg(r);
    if (rn(r, 2))
      snprintf(s + k, len - (size_t)k, "vmv.v.x v%d, x%d", vd, x);
    else
      snprintf(s + k, len - (size_t)k, "vmerge.vxm v%d, v%d, x%d, v0", vd, vreg(r), x);
    break;
  }
  default: {
    int a = vreg(r);
    int b = vreg(r);
    snprintf(s, len, "vxor.vv v%d, v%d, v%d", vd, a, b);
    break;
  }
  }
}

static void gen_program(dprog *p, pclass cls, uint32_t seed) {
  rng r = {(uint64_t)seed * 0x100000001b3ull + (uint64_t)cls * 0x9e3779b9u + 1};
  memset(p, 0, sizeof *p);
  p->cls = cls;
  p->seed = seed;
  for (int i = 0; i < 30; i++) p->xinit[i] = cls == CL_VINT ? int_value(&r) : any_value(&r);
  for (int v = 0; v < NVREG; v++)
    for (int l = 0; l < NLANES; l++)
      p->vinit[v][l] = cls == CL_VFP ? fp_value(&r) : cls == CL_VINT ? int_value(&r) : 0;
  if (cls == CL_VINT)
    for (int l = 0; l < NLANES; l++) p->vinit[0][l] = rnd(&r); /* a mask with bits set */
  for (int i = 0; i < SCRATCH_WORDS; i++) p->scratch[i] = any_value(&r);
  p->n = BODY_LEN;
  for (int i = 0; i < p->n; i++) {
    char *s = p->body[i];
    switch (cls) {
    case CL_SCALAR:
      switch (rn(&r, 11)) {
      case 0:
      case 1:
      case 2: gen_scalar_int(&r, s, ENTRY_LEN); break;
      case 10: gen_jump(&r, s, ENTRY_LEN); break;
      case 3:
      case 4: gen_mem(&r, s, ENTRY_LEN); break;
      case 5: gen_fcsr(&r, s, ENTRY_LEN); break;
      default: gen_scalar_fp(&r, s, ENTRY_LEN); break;
      }
      break;
    case CL_VINT: gen_vint(&r, s, ENTRY_LEN); break;
    case CL_VFP: gen_vfp(&r, s, ENTRY_LEN); break;
    }
    assert_true(strlen(s) < ENTRY_LEN - 1); /* not cut */
  }
}

/* ---- program text ------------------------------------------------------------ */
typedef struct {
  char *p;
  size_t n, cap;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
    va_end(ap);
    assert_true(k >= 0);
    if (t->p && t->n + (size_t)k < t->cap) {
      t->n += (size_t)k;
      return;
    }
    t->cap = (t->cap + (size_t)k + 1) * 2;
    t->p = realloc(t->p, t->cap);
    assert_non_null(t->p);
  }
}

/* QEMU 7.2 dies on vfcvt.rtz.x.f.v and vfcvt.rtz.xu.f.v (translate.c:
 * decode_save_opc: Assertion `ctx->insn_start != NULL', QEMU issue 1441,
 * fixed in 8.x), so the generator writes "vfcvt.rtz.K.f.v vd, vs[, v0.t] # xT"
 * and the step becomes, with the same length and final state,
 *   ours: csrr xT, frm;       vfcvt.rtz.K.f.v vd, vs;  nop
 *   QEMU: csrrwi xT, frm, 1;  vfcvt.K.f.v vd, vs;      csrw frm, xT
 * which still checks our static-rtz path against QEMU's dynamic one. */
static void put_step(text *t, const char *step, int qemu) {
  const char *h = strstr(step, " # x");
  if (!h || strncmp(step, "vfcvt.rtz.", 10)) {
    put(t, "%s\n", step);
    return;
  }
  int x = atoi(h + 4);
  if (qemu)
    put(t, "csrrwi x%d, frm, 1\nvfcvt.%.*s\ncsrw frm, x%d\n", x, (int)(h - step - 10), step + 10,
        x);
  else
    put(t, "csrr x%d, frm\n%.*s\nnop\n", x, (int)(h - step), step);
}

/* The first `nbody` steps of p, for QEMU (qemu = 1) or for our simulator. */
static char *program_text(const dprog *p, int nbody, int qemu) {
  text t = {0};
  int vec = p->cls != CL_SCALAR;
  put(&t, ".text\n.globl _start\n_start:\n");
  put(&t, "%s", qemu ? "nop\nnop\n" : "lui x5, 2\ncsrrs x0, mstatus, x5\n"); /* FS on */
  if (vec)
    put(&t, "li t0, %d\nvsetvli t0, t0, e32, m1, ta, mu\n", NLANES);
  else
    put(&t, "nop\nnop\n");
  put(&t, "la x%d, vinit\n", BASE_REG);
  if (vec)
    for (int v = 0; v < NVREG; v++)
      put(&t, "vle32.v v%d, (x%d)\naddi x%d, x%d, %d\n", v, BASE_REG, BASE_REG, BASE_REG,
          NLANES * 4);
  for (int i = 0; i < 30; i++) put(&t, "li x%d, 0x%x\n", i + 1, p->xinit[i]);
  put(&t, "la x%d, scratch\ncsrwi fcsr, 0\n# body\n", BASE_REG);
  for (int i = 0; i < nbody; i++) put_step(&t, p->body[i], qemu);
  put(&t, "# dump\n");
  for (int i = 1; i <= 30; i++) put(&t, "sw x%d, %d(x%d)\n", i, 4 * (D_X + i - 1), BASE_REG);
  put(&t, "csrr x1, fcsr\nsw x1, %d(x%d)\n", 4 * D_FCSR, BASE_REG);
  if (vec) { /* all 8 elements, whatever vl the body left */
    put(&t, "vsetivli x0, %d, e32, m1, ta, mu\naddi x1, x%d, %d\n", NLANES, BASE_REG, 4 * D_V);
    for (int v = 0; v < NVREG; v++) put(&t, "vse32.v v%d, (x1)\naddi x1, x1, %d\n", v, NLANES * 4);
  }
  /* write(1, scratch, size); exit(0) -- ecalls are nops on our side */
  const char *ecall = qemu ? ".word 0x00000073" : "nop";
  put(&t, "li a7, 64\nli a0, 1\nmv a1, x%d\nli a2, %d\n%s\n", BASE_REG, 4 * D_WORDS, ecall);
  put(&t, "li a7, 93\nli a0, 0\n%s\n%s\n", ecall, qemu ? "nop" : "endprg x0, x0, x0");
  put(&t, ".data\n.balign 64\nvinit:\n");
  for (int v = 0; v < NVREG; v++)
    for (int l = 0; l < NLANES; l++) put(&t, ".word 0x%08x\n", p->vinit[v][l]);
  put(&t, "scratch:\n");
  for (int i = 0; i < SCRATCH_WORDS; i++) put(&t, ".word 0x%08x\n", p->scratch[i]);
  put(&t, ".space %d\n", 4 * (D_WORDS - SCRATCH_WORDS));
  return t.p;
}

/* ---- running ------------------------------------------------------------------- */
typedef struct {
  char dir[64];
  char elf[96];
  char err[96]; /* QEMU's stderr */
} workdir;

static asm_object *assemble(const char *src, char *err, size_t len) {
  asm_source s = {"diff.S", src};
  asm_options o = {0, CODE_BASE, 0, 0};
  asm_object *obj = NULL;
  asm_diags d = {0};
  vt_error e;
  if (asm_assemble(&s, 1, &o, &obj, &d, &e)) {
    if (d.n)
      asm_diag_format(&d.v[0], err, len);
    else
      snprintf(err, len, "%s", e.msg);
    asm_diags_free(&d);
    return NULL;
  }
  asm_diags_free(&d);
  return obj;
}

/* Runs under QEMU; returns 0 and the dump, or -1 with a message. */
static int run_qemu(const dprog *p, int nbody, const workdir *w, uint32_t *dump, char *err,
                    size_t len) {
  char *src = program_text(p, nbody, 1);
  asm_object *o = assemble(src, err, len);
  free(src);
  if (!o) return -1;
  vt_error e;
  int rc = asm_write_elf(o, w->elf, &e);
  asm_free(o);
  if (rc) {
    snprintf(err, len, "writing %s: %s", w->elf, e.msg);
    return -1;
  }
  char cmd[384];
  snprintf(cmd, sizeof cmd, "qemu-riscv32 -cpu %s %s 2>%s", qemu_cpu[p->cls], w->elf, w->err);
  FILE *f = popen(cmd, "r");
  if (!f) {
    snprintf(err, len, "popen failed");
    return -1;
  }
  size_t got = fread(dump, 1, 4 * D_WORDS, f);
  char tail[200] = "";
  size_t more = fread(tail, 1, sizeof tail - 1, f);
  int st = pclose(f);
  if (got != 4 * D_WORDS || more || st != 0) {
    FILE *ef = fopen(w->err, "r");
    more = ef ? fread(tail, 1, sizeof tail - 1, ef) : 0;
    if (ef) fclose(ef);
    tail[more] = 0;
    for (size_t i = 0; i < more; i++)
      if (tail[i] == '\n' || (unsigned char)tail[i] < 32 || (unsigned char)tail[i] > 126)
        tail[i] = '.';
    snprintf(err, len, "qemu: status %d, %zu bytes of output, stderr: %.160s", st, got, tail);
    return -1;
  }
  return 0;
}

/* Runs on our simulator (one group, one warp of 8 lanes). */
static int run_ours(const dprog *p, int nbody, uint32_t *dump, char *err, size_t len) {
  char *src = program_text(p, nbody, 0);
  asm_object *o = assemble(src, err, len);
  free(src);
  if (!o) return -1;
  const uint8_t *tx, *dt;
  uint32_t tsz, taddr, dsz, daddr, scr;
  int rc = -1;
  vt_error e;
  vt_config c;
  vt_config_defaults(&c);
  vt_device *d = vt_device_create(&c, &e);
  if (!d || asm_section(o, ".text", &tx, &tsz, &taddr) ||
      asm_section(o, ".data", &dt, &dsz, &daddr) || asm_symbol_value(o, "scratch", &scr)) {
    snprintf(err, len, "set-up failed");
    goto out;
  }
  if (vt_mem_map(d, CODE_BASE, 0x10000, VT_PERM_RWX, &e) ||
      vt_mem_map(d, DATA_BASE, 0x100000, VT_PERM_R | VT_PERM_W, &e) ||
      vt_mem_write(d, taddr, tx, tsz, &e) || vt_mem_write(d, daddr, dt, dsz, &e))
    goto fail;
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = CODE_BASE;
  l.grid[0] = l.grid[1] = l.grid[2] = 1;
  l.num_threads = NLANES;
  l.num_warps = 1;
  l.lds_size = 0x1000;
  l.pds_size = 0x100;
  l.pds_base = DATA_BASE + 0x80000;
  l.knl = DATA_BASE + 0xff000;
  if (vt_device_launch(d, &l, &e) || vt_mem_read(d, scr, dump, 4 * D_WORDS, &e)) goto fail;
  rc = 0;
  goto out;
fail:
  vt_err_format(&e, err, len);
out:
  vt_device_destroy(d);
  asm_free(o);
  return rc;
}

/* ---- comparison and report --------------------------------------------------------- */
static void word_name(int i, char *s, size_t len) {
  if (i < D_X)
    snprintf(s, len, "scratch[%d]", i - D_SCRATCH);
  else if (i < D_FCSR)
    snprintf(s, len, "x%d", i - D_X + 1);
  else if (i == D_FCSR)
    snprintf(s, len, "fcsr");
  else
    snprintf(s, len, "v%d[%d]", (i - D_V) / NLANES, (i - D_V) % NLANES);
}

static int dumps_differ(const dprog *p, const uint32_t *a, const uint32_t *b) {
  int n = p->cls == CL_SCALAR ? D_V : D_WORDS;
  for (int i = 0; i < n; i++)
    if (a[i] != b[i]) return 1;
  return 0;
}

/* Runs both on the first k steps; returns 1 if they differ, 0 if not,
 * -1 on a failure to run (message in err). */
static int compare_prefix(const dprog *p, int k, const workdir *w, uint32_t *q, uint32_t *o,
                          char *err, size_t len) {
  if (run_qemu(p, k, w, q, err, len)) return -1;
  if (run_ours(p, k, o, err, len)) return -1;
  return dumps_differ(p, q, o);
}

/* a step on one line */
static void one_line(const char *step, char *out, size_t len) {
  snprintf(out, len, "%s", step);
  for (char *c = out; *c; c++)
    if (*c == '\n') *c = ';';
}

static void print_program(const dprog *p, int mark) {
  printf("program %s seed %u (x1..x30 initially:", class_name[p->cls], p->seed);
  for (int i = 0; i < 30; i++) printf(" %08x", p->xinit[i]);
  printf(")\n");
  for (int i = 0; i < p->n; i++) {
    char line[ENTRY_LEN];
    one_line(p->body[i], line, sizeof line);
    printf("%s %3d: %s\n", i == mark ? ">>" : "  ", i, line);
  }
}

/* Checks one program; prints the report and returns 1 on a mismatch. */
static int check_program(const dprog *p, const workdir *w) {
  uint32_t q[D_WORDS], o[D_WORDS];
  char err[512];
  int r = compare_prefix(p, p->n, w, q, o, err, sizeof err);
  if (r == 0) return 0;
  if (r < 0) {
    print_program(p, -1);
    printf("cannot run the program: %s\n", err);
    return 1;
  }
  int first = p->n - 1;
  for (int k = 1; k <= p->n; k++) {
    int d = compare_prefix(p, k, w, q, o, err, sizeof err);
    if (d != 0) {
      first = k - 1;
      if (d < 0) {
        print_program(p, first);
        printf("cannot run the prefix: %s\n", err);
        return 1;
      }
      break;
    }
  }
  print_program(p, first);
  char line[ENTRY_LEN];
  one_line(p->body[first], line, sizeof line);
  printf("MISMATCH in %s program seed %u at instruction %d: %s\n", class_name[p->cls], p->seed,
         first, line);
  int n = p->cls == CL_SCALAR ? D_V : D_WORDS;
  for (int i = 0; i < n; i++)
    if (q[i] != o[i]) {
      char name[32];
      word_name(i, name, sizeof name);
      printf("  %-12s qemu 0x%08x  ours 0x%08x\n", name, q[i], o[i]);
    }
  return 1;
}

static int qemu_missing(void) { return system("command -v qemu-riscv32 >/dev/null 2>&1") != 0; }

static void run_class(pclass cls, int count) {
  if (qemu_missing()) {
    printf("SKIP: qemu-riscv32 not found\n");
    skip();
  }
  const char *sc = getenv("VT_DIFF_SCALE");
  int scale = sc && atoi(sc) > 0 ? atoi(sc) : 1;
  workdir w;
  snprintf(w.dir, sizeof w.dir, "/tmp/vt_diff_qemu_XXXXXX");
  assert_non_null(mkdtemp(w.dir));
  snprintf(w.elf, sizeof w.elf, "%s/p.elf", w.dir);
  snprintf(w.err, sizeof w.err, "%s/qemu.err", w.dir);
  dprog *p = malloc(sizeof *p);
  assert_non_null(p);
  int bad = 0, n = count * scale;
  for (int s = 0; s < n && bad < 5; s++) {
    gen_program(p, cls, (uint32_t)s);
    bad += check_program(p, &w);
  }
  free(p);
  unlink(w.elf);
  unlink(w.err);
  rmdir(w.dir);
  if (bad) fail_msg("%d %s program(s) differ from qemu-riscv32", bad, class_name[cls]);
  print_message("%d %s programs of %d steps agree with qemu-riscv32\n", n, class_name[cls],
                BODY_LEN);
}

static void test_scalar(void **state) {
  (void)state;
  run_class(CL_SCALAR, 300);
}
static void test_vint(void **state) {
  (void)state;
  run_class(CL_VINT, 250);
}
static void test_vfp(void **state) {
  (void)state;
  run_class(CL_VFP, 250);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar),
      cmocka_unit_test(test_vint),
      cmocka_unit_test(test_vfp),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
