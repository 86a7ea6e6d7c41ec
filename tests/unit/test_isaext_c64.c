/* ISA 2025 64-bit instruction words and the 64-bit compute format
 * (docs/isa-extensions.md): the length rule, round trips of every 64-bit
 * table entry through the encoder, decoder, disassembler and assembler,
 * fetch across a page and past the end of the code, pc advance and branch
 * targets around 64-bit words, the trace line, and the arithmetic of every
 * entry at every source/destination size against a plain-C reference that
 * uses the compiler's own types (_Float16, float, double, the fixed-width
 * integers) plus hand-computed values. */
#include <math.h>

#include "isaext_prog.h"
#include "trace_fmt.h"

static void run25(vt_device *d, const char *src, uint32_t nt) {
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, nt, &e)) fail_msg("%s", e.msg);
}

static uint32_t rng(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

/* ---- the length rule, table round trips ------------------------------------ */
static void test_length_rule(void **state) {
  (void)state;
  for (uint32_t op = 0; op < 128; op++) {
    unsigned want = (op & 0x3f) == 0x3f ? 8 : 4;
    assert_int_equal(isa_insn_len(op, ISA_REV_2025), want);
    assert_int_equal(isa_insn_len(op, ISA_REV_BASE), 4);
  }
  /* no 32-bit entry of either revision uses a 64-bit major opcode */
  for (unsigned id = 0; id < ISA_COUNT; id++) {
    int islong = (isa_table[id].flags & IF_LONG) != 0;
    assert_int_equal(isa_insn_len(isa_table[id].match, ISA_REV_2025) == 8, islong);
    if (islong) assert_true(isa_table[id].flags & IF_REV_2025);
  }
  /* a 64-bit word decodes to nothing one word at a time, and the baseline
   * has no 64-bit instructions */
  uint32_t lo = isa_table[ISA_vadd64].match;
  isa_inst in;
  assert_int_equal(isa_decode_rev(lo, 0, ISA_REV_2025, &in), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(lo, 0, ISA_REV_2025), ISA_vadd64);
  assert_int_equal(isa_lookup64_rev(lo, 0, ISA_REV_BASE), ISA_INVALID);
  /* reserved fields: size code 3 (8 bits) of a float form, the src3 bits of
   * NEG/ABS, hi[31:24], bit 25; size code 3 is int8 in an integer form */
  uint32_t flo = isa_table[ISA_vfadd64].match, blo = isa_table[ISA_vfadd64_bf16].match;
  assert_int_equal(isa_lookup64_rev(lo, 3u << 20, ISA_REV_2025), ISA_vadd64);
  assert_int_equal(isa_lookup64_rev(lo, 3u << 22, ISA_REV_2025), ISA_vadd64);
  assert_int_equal(isa_lookup64_rev(flo, 3u << 20, ISA_REV_2025), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(flo, 3u << 22, ISA_REV_2025), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(blo, 3u << 22, ISA_REV_2025), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(lo, 1u << 11, ISA_REV_2025), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(lo, 1u << 14, ISA_REV_2025), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(lo, 1u << 24, ISA_REV_2025), ISA_INVALID);
  assert_int_equal(isa_lookup64_rev(lo | 1u << 25, 0, ISA_REV_2025), ISA_INVALID);
  /* the second major opcode of the rule (1111111) is MMA64's
   * (test_isaext_mma64.c) */
  assert_int_equal(isa_lookup64_rev(0x7f, 0, ISA_REV_2025), ISA_mma64_m8n8k8_f32);
}

/* hand-checked encodings of two entries (the field layout of the format) */
static void test_encoding_by_hand(void **state) {
  (void)state;
  isa_opnd o[ISA_MAX_OPNDS];
  assert_int_equal(isa_operands(ISA_vfadd64_bf16, o), 9);
  /* vfadd64.bf16 v254, v100, v201, 16, 64, 7, 3, 3, 3:
   * lo = funct6 0 | vs2 100&31=4 <<20 | vs1 201&31=9 <<15 | f3 2 <<12 | vd 254&31=30 <<7 | 0x3f
   * hi = vd 7 | vs1 6 <<3 | vs2 3 <<6 | neg 3 <<9 | abs 3 <<12 | opsel 7 <<15 | omod 3 <<18
   *      | ss 0 <<20 | ds 2 <<22 */
  int64_t v[ISA_MAX_OPNDS] = {254, 100, 201, 16, 64, 7, 3, 3, 3};
  uint32_t lo, hi;
  char err[160];
  assert_int_equal(isa_encode64(ISA_vfadd64_bf16, v, &lo, &hi, err, sizeof err), 0);
  assert_int_equal(lo, (4u << 20) | (9u << 15) | (2u << 12) | (30u << 7) | 0x3fu);
  assert_int_equal(hi, 7u | 6u << 3 | 3u << 6 | 3u << 9 | 3u << 12 | 7u << 15 | 3u << 18 | 2u << 22);
  /* vmul64 v2, v4, v6, 32, 32, 0, 0, 0, 0: funct6 100101 */
  int64_t w[ISA_MAX_OPNDS] = {2, 4, 6, 32, 32, 0, 0, 0, 0};
  assert_int_equal(isa_encode64(ISA_vmul64, w, &lo, &hi, err, sizeof err), 0);
  assert_int_equal(lo, 0x25u << 26 | 4u << 20 | 6u << 15 | 2u << 7 | 0x3fu);
  assert_int_equal(hi, 1u << 20 | 1u << 22);
  /* errors: a size that is not 16/32/64, an odd pair register, src3 bits */
  w[3] = 48;
  assert_int_equal(isa_encode64(ISA_vmul64, w, &lo, &hi, err, sizeof err), -1);
  assert_non_null(strstr(err, "a data size is 8, 16, 32 or 64, not 48"));
  w[3] = 64;
  w[1] = 5;
  assert_int_equal(isa_encode64(ISA_vmul64, w, &lo, &hi, err, sizeof err), -1);
  assert_non_null(strstr(err, "register 5 is odd"));
  w[1] = 4;
  w[6] = 4;
  assert_int_equal(isa_encode64(ISA_vmul64, w, &lo, &hi, err, sizeof err), -1);
  /* the 32-bit encoder refuses a 64-bit entry */
  uint32_t pre;
  w[6] = 0;
  assert_int_equal(isa_encode(ISA_vmul64, w, 0, &lo, &pre, err, sizeof err), -1);
}

/* every 64-bit entry (the compute format's and MMA64's): random operands -> two words -> decode -> the same
 * operands -> disassembly -> assembler -> the same two words */
static void test_roundtrip_all(void **state) {
  (void)state;
  static const int sizes[3] = {16, 32, 64};
  uint64_t s = 12345;
  int checked = 0;
  for (unsigned id = 0; id < ISA_COUNT; id++) {
    if (!(isa_table[id].flags & IF_LONG)) continue;
    for (int rep = 0; rep < 40; rep++) {
      int64_t v[ISA_MAX_OPNDS] = {0};
      isa_opnd o[ISA_MAX_OPNDS];
      int n = isa_operands((isa_id)id, o);
      int isint = (isa_table[id].match & 0x707f) == 0x3f; /* the compute format's integer forms: int8 too */
      int ss = isint && rng(&s) % 4 == 0 ? 8 : sizes[rng(&s) % 3], ds = isint && rng(&s) % 4 == 0 ? 8 : sizes[rng(&s) % 3];
      int intcd = (isa_table[id].match & 0x7f) == 0x7f && (isa_table[id].match_hi >> 28) >= 5 &&
                  (isa_table[id].match_hi >> 28) <= 7; /* MMA64 with INT32 C/D: RD 0 or 1 */
      /* the warp-group forms' register groups must fit below v256 (the
       * assembler refuses others): registers below 128, N at most 64 */
      int wg = !strncmp(isa_table[id].mnemonic, "mma64.wg.", 9);
      unsigned regs = wg ? 128 : 256;
      for (int i = 0; i < n; i++) {
        switch (o[i].kind) {
        case OPK_VD: v[i] = rng(&s) % regs & (ds == 64 ? ~1 : ~0); break;
        case OPK_VS1: case OPK_VS2: v[i] = rng(&s) % regs & (ss == 64 ? ~1 : ~0); break;
        case OPK_SSZ: v[i] = ss; break;
        case OPK_DSZ: v[i] = ds; break;
        case OPK_VS3: v[i] = rng(&s) % regs; break;
        case OPK_OPSEL: v[i] = rng(&s) % 8; break;
        case OPK_MAL: case OPK_MBL: v[i] = rng(&s) % 2; break;
        case OPK_RDM: v[i] = rng(&s) % (intcd ? 2 : 4); break;
        case OPK_MA: v[i] = rng(&s) % 2; break;
        case OPK_MWGN: v[i] = 8 << rng(&s) % (wg ? 4 : 8); break;
        default: v[i] = rng(&s) % 4; break;
        }
      }
      uint32_t lo, hi;
      char err[160];
      assert_int_equal(isa_encode64((isa_id)id, v, &lo, &hi, err, sizeof err), 0);
      assert_int_equal(isa_insn_len(lo, ISA_REV_2025), 8);
      isa_inst in;
      assert_int_equal(isa_decode64_rev(lo, hi, ISA_REV_2025, &in), id);
      int64_t back[ISA_MAX_OPNDS];
      assert_int_equal(isa_operand_values(&in, o, back), n);
      assert_memory_equal(v, back, (size_t)n * sizeof v[0]);
      char text[160];
      isa_disasm64_rev(lo, hi, ISA_REV_2025, &in, text, sizeof text);
      assert_ptr_equal(strstr(text, isa_table[id].mnemonic), text);
      uint32_t words[4];
      vt_error e = {0};
      assert_int_equal(asm_words_rev(text, CODE_BASE, ISA_REV_2025, words, 4, &e), 2);
      assert_int_equal(words[0], lo);
      assert_int_equal(words[1], hi);
      /* the baseline assembler refuses it */
      assert_true(asm_words_rev(text, CODE_BASE, ISA_REV_BASE, words, 4, &e) < 0);
      checked++;
    }
  }
  assert_int_equal(checked, (17 + 24 + 23 + 25) * 40); /* the compute format, MMA64, sparse, warp group */
  /* a word pair with no spelling prints as two words */
  char text[160];
  isa_inst in;
  uint32_t odd = isa_table[ISA_vadd64].match | 1u << 7; /* vd = v1 ... */
  isa_disasm64_rev(odd, 2u << 22, ISA_REV_2025, &in, text, sizeof text); /* ... as a 64-bit pair */
  assert_string_equal(text, ".word 0x000000bf, 0x00800000");
}

/* ---- fetch, pc, branches, trace ---------------------------------------------- */
static void test_fetch_and_branches(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  /* the branch skips one 64-bit instruction (its target is 12 bytes on), the
   * loop runs back over one (three passes: v2 = 3 * 5) */
  const char *src = "li s0, 0x90000000\nvmv.v.i v2, 0\nvmv.v.i v4, 5\nli t0, 3\n"
                    "beq zero, zero, 1f\n"
                    "vadd64 v2, v2, v4, 32, 32, 0, 0, 0, 2\n" /* skipped: would be 4 * (v2 + v4) */
                    "1:\n"
                    "2: vadd64 v2, v2, v4, 32, 32, 0, 0, 0, 0\n"
                    "addi t0, t0, -1\nbnez t0, 2b\n"
                    "vmv.x.s a0, v2\nsw a0, 0(s0)\n"
                    "endprg x0, x0, x0\n";
  run25(d, src, 1);
  assert_int_equal(rd32(d, DATA_BASE), 15);
  vt_device_destroy(d);
}

/* a 64-bit instruction straddling a page runs; one whose second word is
 * past the end of the mapped code faults naming that word; a 64-bit word
 * on a baseline device is a plain illegal instruction */
static void test_fetch_edges(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  /* jump to CODE_BASE + 0xff8, where vadd64 v2, v2, v2 (x2) straddles the
   * page boundary at + 0x1000 */
  prog p = {.n = 0};
  vt_error e = {0};
  p.n = asm_words_rev("li s0, 0x90000000\nvmv.v.i v2, 21\nli t0, 0x80000ff8\njr t0\n", CODE_BASE,
                      ISA_REV_2025, p.w, 4096, &e);
  assert_true(p.n > 0);
  uint32_t tail[16];
  int nt = asm_words_rev("vadd64 v2, v2, v2, 32, 32, 0, 0, 0, 0\nvmv.x.s a0, v2\nsw a0, 0(s0)\n"
                         "endprg x0, x0, x0\n", CODE_BASE + 0xff8, ISA_REV_2025, tail, 16, &e);
  assert_int_equal(nt, 5);
  for (int i = p.n; i < 0x3fe; i++) p.w[i] = isa_table[ISA_addi].match;
  memcpy(&p.w[0x3fe], tail, sizeof tail[0] * (size_t)nt);
  p.n = 0x3fe + nt;
  vt_launch l = mklaunch(1, 1, 1, 1, 1);
  assert_int_equal(run(d, &p, &l, &e), 0);
  assert_int_equal(rd32(d, DATA_BASE), 42);
  vt_device_destroy(d);

  /* the last word of the mapping (CODE_BASE + 0xfffc) starts a 64-bit one */
  d = ext_dev(2025);
  p.n = asm_words_rev("li t0, 0x8000fffc\njr t0\n", CODE_BASE, ISA_REV_2025, p.w, 4096, &e);
  uint32_t w = isa_table[ISA_vadd64].match;
  assert_int_equal(vt_mem_write(d, CODE_BASE + 0xfffc, &w, 4, &e), 0);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_UNMAPPED);
  assert_non_null(strstr(e.msg, "instruction fetch at 0x80010000: the second word of a 64-bit "
                                "instruction: address is not mapped"));
  vt_device_destroy(d);

  /* reserved fields: an illegal 64-bit instruction shows both words */
  d = ext_dev(2025);
  uint32_t bad[2] = {isa_table[ISA_vfadd64].match, 3u << 20};
  p.n = asm_words_rev("li t0, 0x80000100\njr t0\n", CODE_BASE, ISA_REV_2025, p.w, 4096, &e);
  assert_int_equal(vt_mem_write(d, CODE_BASE + 0x100, bad, 8, &e), 0);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "illegal instruction 0x003000000000103f (64-bit)"));
  vt_device_destroy(d);

  /* the baseline: one illegal 32-bit word */
  d = ext_dev(0);
  p.n = 1;
  p.w[0] = isa_table[ISA_vadd64].match;
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "illegal instruction 0x0000003f"));
  assert_null(strstr(e.msg, "64-bit"));
  vt_device_destroy(d);
}

/* the trace line of a 64-bit instruction shows all 64 bits (second word
 * first, as spike prints a long instruction) and its disassembly */
typedef struct { char line[512]; int seen; } trace_cap;
static void capture(void *user, const vt_commit *c) {
  trace_cap *t = user;
  if (c->insn_len == 8 && !t->seen) {
    vt_trace_format(c, t->line, sizeof t->line);
    t->seen = 1;
  }
}

static void test_trace_line(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  trace_cap t = {.seen = 0};
  vt_device_set_trace(d, capture, &t);
  run25(d, "vmul64 v2, v4, v6, 32, 32, 0, 0, 0, 0\nendprg x0, x0, x0\n", 1);
  assert_int_equal(t.seen, 1);
  assert_non_null(strstr(t.line, "0x80000000 (0x005000009443013f) vmul64 "));
  assert_non_null(strstr(t.line, " v2, v4, v6, 32, 32, 0, 0, 0, 0\n"));
  vt_device_destroy(d);
}

/* ---- arithmetic -------------------------------------------------------------- */
enum { NT = 8 };
enum { KI, KF, KB }; /* integer, IEEE float, bfloat16 */

typedef struct {
  isa_id id;
  int kind;
  char op; /* + - * m M u U (min, max, minu, maxu) */
} c64_entry;
static const c64_entry entries[] = {
    {ISA_vadd64, KI, '+'},      {ISA_vsub64, KI, '-'},       {ISA_vmul64, KI, '*'},
    {ISA_vmin64, KI, 'm'},      {ISA_vmax64, KI, 'M'},       {ISA_vminu64, KI, 'u'},
    {ISA_vmaxu64, KI, 'U'},     {ISA_vfadd64, KF, '+'},      {ISA_vfsub64, KF, '-'},
    {ISA_vfmul64, KF, '*'},     {ISA_vfmin64, KF, 'm'},      {ISA_vfmax64, KF, 'M'},
    {ISA_vfadd64_bf16, KB, '+'}, {ISA_vfsub64_bf16, KB, '-'}, {ISA_vfmul64_bf16, KB, '*'},
    {ISA_vfmin64_bf16, KB, 'm'}, {ISA_vfmax64_bf16, KB, 'M'},
};

typedef struct { unsigned ss, ds, opsel, neg, abs, omod; } mods;

/* integers at each width with the fixed-width C types */
#define IREF(BITS)                                                                        \
  static uint64_t iref##BITS(char op, uint64_t a, uint64_t b, const mods *m) {            \
    uint##BITS##_t x = (uint##BITS##_t)a, y = (uint##BITS##_t)b, r;                      \
    if ((m->abs & 1) && (int##BITS##_t)x < 0) x = (uint##BITS##_t)(0 - x);               \
    if ((m->abs & 2) && (int##BITS##_t)y < 0) y = (uint##BITS##_t)(0 - y);               \
    if (m->neg & 1) x = (uint##BITS##_t)(0 - x);                                          \
    if (m->neg & 2) y = (uint##BITS##_t)(0 - y);                                          \
    switch (op) {                                                                         \
    case '+': r = (uint##BITS##_t)(x + y); break;                                         \
    case '-': r = (uint##BITS##_t)(x - y); break;                                         \
    case '*': r = (uint##BITS##_t)((uint64_t)x * y); break;                               \
    case 'm': r = (int##BITS##_t)x < (int##BITS##_t)y ? x : y; break;                     \
    case 'M': r = (int##BITS##_t)x > (int##BITS##_t)y ? x : y; break;                     \
    case 'u': r = x < y ? x : y; break;                                                   \
    default: r = x > y ? x : y; break;                                                    \
    }                                                                                     \
    int uns = op == 'u' || op == 'U';                                                     \
    if (m->omod == 1) r = (uint##BITS##_t)(r * 2u);                                       \
    if (m->omod == 2) r = (uint##BITS##_t)(r * 4u);                                       \
    if (m->omod == 3) r = uns ? r / 2 : (uint##BITS##_t)((int##BITS##_t)r / 2);           \
    return uns ? (uint64_t)r : (uint64_t)(int64_t)(int##BITS##_t)r;                       \
  }
IREF(8)
IREF(16)
IREF(32)
IREF(64)

static uint16_t h_bits(_Float16 h) { uint16_t u; memcpy(&u, &h, 2); return u; }
static _Float16 h_of(uint64_t v) { uint16_t u = (uint16_t)v; _Float16 h; memcpy(&h, &u, 2); return h; }
static float f_of(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static uint32_t f_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static double d_of(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
static uint64_t d_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* bfloat16 of a float (round to nearest even) and of a double (frexp:
 * the value rounded at its 8-bit significand, or at 2^-133 below the
 * normal range) */
static uint16_t bf_of_float(float f) {
  uint32_t u = f_bits(f);
  if (isnan(f)) return 0x7fc0;
  return (uint16_t)((u + 0x7fffu + ((u >> 16) & 1)) >> 16);
}
static uint16_t bf_of_double(double d) {
  if (isnan(d)) return 0x7fc0;
  if (isinf(d) || d == 0) return (uint16_t)(f_bits((float)d) >> 16);
  double r;
  if (fabs(d) < 0x1p-126) {
    r = ldexp(nearbyint(ldexp(d, 133)), -133);
  } else {
    int e;
    double m = frexp(d, &e);
    r = ldexp(nearbyint(ldexp(m, 8)), e - 8);
  }
  return (uint16_t)(f_bits((float)r) >> 16); /* exact, or infinity beyond float */
}
static float float_of_bf(uint64_t v) { return f_of((uint64_t)(uint16_t)v << 16); }

static double fmm(double x, double y, int max) {
  if (isnan(x)) return y;
  if (isnan(y)) return x;
  if (x == 0 && y == 0) return (signbit(x) ? max : !max) ? y : x; /* -0 < +0 */
  return max ? (x > y ? x : y) : (x < y ? x : y);
}

/* a float source's sign modifiers on its bits */
static uint64_t fmod_bits(uint64_t v, unsigned size, unsigned k, const mods *m) {
  uint64_t sgn = 1ull << (size - 1);
  if (m->abs >> k & 1) v &= ~sgn;
  if (m->neg >> k & 1) v ^= sgn;
  return v;
}

static const double omod_factor[4] = {1, 2, 4, 0.5};

static uint64_t fref(int kind, char op, uint64_t a, uint64_t b, const mods *m) {
  a = fmod_bits(a, m->ss, 0, m);
  b = fmod_bits(b, m->ss, 1, m);
  double r; /* the source-format result, exactly */
  if (m->ss == 16 && kind == KF) {
    _Float16 x = h_of(a), y = h_of(b), t;
    switch (op) {
    case '+': t = x + y; break;
    case '-': t = x - y; break;
    case '*': t = x * y; break;
    default: t = (_Float16)fmm(x, y, op == 'M'); break;
    }
    t = t * (_Float16)omod_factor[m->omod];
    r = t;
  } else if (m->ss == 16) { /* bfloat16: float arithmetic, then rounded */
    float x = float_of_bf(a), y = float_of_bf(b), t;
    switch (op) {
    case '+': t = x + y; break;
    case '-': t = x - y; break;
    case '*': t = x * y; break;
    default: t = (float)fmm(x, y, op == 'M'); break;
    }
    t = float_of_bf(bf_of_float(t));
    r = float_of_bf(bf_of_float(t * (float)omod_factor[m->omod]));
  } else if (m->ss == 32) {
    float x = f_of(a), y = f_of(b), t;
    switch (op) {
    case '+': t = x + y; break;
    case '-': t = x - y; break;
    case '*': t = x * y; break;
    default: t = (float)fmm(x, y, op == 'M'); break;
    }
    r = t * (float)omod_factor[m->omod];
  } else {
    double x = d_of(a), y = d_of(b), t;
    switch (op) {
    case '+': t = x + y; break;
    case '-': t = x - y; break;
    case '*': t = x * y; break;
    default: t = fmm(x, y, op == 'M'); break;
    }
    r = t * omod_factor[m->omod];
  }
  if (m->ds == 16) {
    if (kind == KB) return bf_of_double(r);
    return isnan(r) ? 0x7e00 : h_bits((_Float16)r);
  }
  if (m->ds == 32) return isnan(r) ? 0x7fc00000 : f_bits((float)r);
  return isnan(r) ? 0x7ff8000000000000ull : d_bits(r);
}

static uint64_t src_val(uint64_t raw, unsigned size, unsigned hi) {
  if (size == 64) return raw;
  uint32_t w = (uint32_t)raw;
  if (size == 8) return (hi ? w >> 16 : w) & 0xff; /* the low byte of the selected half */
  return size == 32 ? w : (hi ? w >> 16 : w & 0xffff);
}

/* the expected 64-bit lane contents {v15, v14} after the instruction */
static uint64_t expect(const c64_entry *en, uint64_t a, uint64_t b, uint64_t d0, const mods *m) {
  uint64_t x = src_val(a, m->ss, m->opsel & 1), y = src_val(b, m->ss, m->opsel >> 1 & 1), r;
  if (en->kind == KI) {
    r = m->ss == 8    ? iref8(en->op, x, y, m)
        : m->ss == 16 ? iref16(en->op, x, y, m)
        : m->ss == 32 ? iref32(en->op, x, y, m)
                      : iref64(en->op, x, y, m);
  } else {
    r = fref(en->kind, en->op, x, y, m);
  }
  if (m->ds <= 16) {
    unsigned sh = m->opsel & 4 ? 16 : 0;
    uint64_t fm = m->ds == 8 ? 0xff : 0xffff;
    return (d0 & ~(fm << sh)) | (r & fm) << sh;
  }
  if (m->ds == 32) return (d0 & ~0xffffffffull) | (r & 0xffffffffull);
  return r;
}

/* operands: A in {v11, v10}, B in {v13, v12}, D in {v15, v14}; NT lanes */
static void run_one(vt_device *d, const c64_entry *en, const mods *m, const uint64_t *A,
                    const uint64_t *B, const uint64_t *D0) {
  for (uint32_t i = 0; i < NT; i++) {
    wr32(d, DATA_BASE + 0x00 + 4 * i, (uint32_t)A[i]);
    wr32(d, DATA_BASE + 0x20 + 4 * i, (uint32_t)(A[i] >> 32));
    wr32(d, DATA_BASE + 0x40 + 4 * i, (uint32_t)B[i]);
    wr32(d, DATA_BASE + 0x60 + 4 * i, (uint32_t)(B[i] >> 32));
    wr32(d, DATA_BASE + 0x80 + 4 * i, (uint32_t)D0[i]);
    wr32(d, DATA_BASE + 0xa0 + 4 * i, (uint32_t)(D0[i] >> 32));
  }
  char src[1024];
  snprintf(src, sizeof src,
           "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
           "vlw12.v v10, 0(v1)\nvlw12.v v11, 0x20(v1)\nvlw12.v v12, 0x40(v1)\n"
           "vlw12.v v13, 0x60(v1)\nvlw12.v v14, 0x80(v1)\nvlw12.v v15, 0xa0(v1)\n"
           "%s v14, v10, v12, %u, %u, %u, %u, %u, %u\n"
           "vsw12.v v14, 0x100(v1)\nvsw12.v v15, 0x120(v1)\nendprg x0, x0, x0\n",
           isa_table[en->id].mnemonic, m->ss, m->ds, m->opsel, m->neg, m->abs, m->omod);
  run25(d, src, NT);
  for (uint32_t i = 0; i < NT; i++) {
    uint64_t got = (uint64_t)rd32(d, DATA_BASE + 0x120 + 4 * i) << 32 | rd32(d, DATA_BASE + 0x100 + 4 * i);
    uint64_t want = expect(en, A[i], B[i], D0[i], m);
    if (got != want)
      fail_msg("%s ss %u ds %u opsel %u neg %u abs %u omod %u lane %u: A %016llx B %016llx: got %016llx, want %016llx",
               isa_table[en->id].mnemonic, m->ss, m->ds, m->opsel, m->neg, m->abs, m->omod, i,
               (unsigned long long)A[i], (unsigned long long)B[i], (unsigned long long)got,
               (unsigned long long)want);
  }
}

/* float operands of `size` bits with interesting values mixed in: zeros of
 * both signs, NaN, infinity, subnormals, halfway cases */
static uint64_t fval(uint64_t *s, int kind, unsigned size) {
  static const uint16_t h16[] = {0x0000, 0x8000, 0x7e00, 0x7c00, 0xfc00, 0x0001, 0x03ff, 0x3c00, 0x3c01, 0x7bff, 0x4000, 0xbc00};
  static const uint16_t b16[] = {0x0000, 0x8000, 0x7fc0, 0x7f80, 0xff80, 0x0001, 0x007f, 0x3f80, 0x3f81, 0x7f7f, 0x4000, 0xbf80};
  static const uint32_t f32[] = {0, 0x80000000u, 0x7fc00000u, 0x7f800000u, 0x00000001u, 0x3f800000u, 0x3f800001u, 0x7f7fffffu, 0x33800000u, 0x38800000u};
  uint32_t r = rng(s);
  if (size == 16) {
    uint32_t pick = r % 3 ? rng(s) & 0xffff : (kind == KB ? b16 : h16)[rng(s) % 12];
    return pick | (uint64_t)(rng(s) & 0xffff) << 16; /* the other half: noise */
  }
  if (size == 32) {
    if (r % 4 == 0) return f32[rng(s) % 10];
    /* values near 1 so that sums round, or any bits */
    return r % 4 == 1 ? (0x3f000000u | (rng(s) & 0x00ffffffu)) : rng(s);
  }
  if (r % 4 == 0) return d_bits((double)f_of(f32[rng(s) % 10]));
  uint64_t v = (uint64_t)rng(s) << 32 | rng(s);
  return r % 4 == 1 ? (0x3ff0000000000000ull | (v & 0x000fffffffffffffull)) : v;
}

static void test_arith_all(void **state) {
  (void)state;
  static const unsigned sizes[4] = {16, 32, 64, 8};
  vt_device *d = ext_dev(2025);
  uint64_t s = 99;
  for (size_t k = 0; k < sizeof entries / sizeof entries[0]; k++)
    for (int si = 0; si < 4; si++)
      for (int di = 0; di < 4; di++)
        for (int rep = 0; rep < 2; rep++) {
          const c64_entry *en = &entries[k];
          if (en->kind != KI && (si == 3 || di == 3)) continue; /* 8 bits: the integer forms */
          mods m = {sizes[si], sizes[di], rng(&s) % 8, rng(&s) % 4, rng(&s) % 4, rng(&s) % 4};
          if (rep == 0) m.neg = m.abs = m.omod = 0;
          uint64_t A[NT], B[NT], D0[NT];
          for (int i = 0; i < NT; i++) {
            if (en->kind == KI) {
              A[i] = (uint64_t)rng(&s) << 32 | rng(&s);
              B[i] = i == 0 ? A[i] : (uint64_t)rng(&s) << 32 | rng(&s);
              if (i == 1) A[i] = m.ss == 8 ? 0x00800080u : m.ss == 16 ? 0x80008000u : m.ss == 32 ? 0x80000000u : 1ull << 63;
            } else {
              A[i] = fval(&s, en->kind, m.ss);
              B[i] = fval(&s, en->kind, m.ss);
            }
            D0[i] = (uint64_t)rng(&s) << 32 | rng(&s);
          }
          run_one(d, en, &m, A, B, D0);
        }
  vt_device_destroy(d);
}

/* values worked out by hand */
static void test_arith_by_hand(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  uint64_t A[NT] = {0}, B[NT] = {0}, D0[NT] = {0};
  /* 64-bit subtraction borrows across the words: 0x1_00000000 - 1 */
  A[0] = 0x100000000ull;
  B[0] = 1;
  mods m = {64, 64, 0, 0, 0, 0};
  run_one(d, &entries[1], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100), 0xffffffffu);
  assert_int_equal(rd32(d, DATA_BASE + 0x120), 0);
  /* int16 high halves: max(-3, 2) with src1 = high half of 0xfffd0005,
   * src2 = low half of 0x00000002, into the high half of 0x11112222 */
  A[0] = 0xfffd0005u;
  B[0] = 0x00000002u;
  D0[0] = 0x11112222u;
  m = (mods){16, 16, 1 | 4, 0, 0, 0};
  run_one(d, &entries[4], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100), 0x00022222u);
  /* signed OMOD /2 truncates: (-3 + -4) / 2 = -3; 16 -> 32 sign-extends */
  A[0] = 0xfffd;
  B[0] = 0xfffc;
  m = (mods){16, 32, 0, 0, 0, 3};
  run_one(d, &entries[0], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100), 0xfffffffdu);
  /* int8 wraps: 0x7f + 1 = -128, sign-extended to 32 bits; the bytes come
   * from the low byte of the OPSEL half (src1 high: 0x7f of 0x117f2233) and
   * an 8-bit result goes to the low byte of the selected half of vd */
  A[0] = 0x117f2233u;
  B[0] = 0x00000001u;
  m = (mods){8, 32, 1, 0, 0, 0};
  run_one(d, &entries[0], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100), 0xffffff80u);
  D0[0] = 0xaabbccddu;
  m = (mods){8, 8, 1 | 4, 0, 0, 0};
  run_one(d, &entries[0], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100), 0xaa80ccddu);
  /* unsigned max of 0xff and 0x01 zero-extends; 0x10 * 0x10 wraps to 0;
   * OMOD /2 of -3 truncates to -1 */
  A[0] = 0xff, B[0] = 0x01;
  m = (mods){8, 16, 0, 0, 0, 0};
  run_one(d, &entries[6], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0x00ff);
  A[0] = 0x10, B[0] = 0x10;
  run_one(d, &entries[2], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0);
  A[0] = 0xfd, B[0] = 0;
  m = (mods){8, 64, 0, 0, 0, 3};
  run_one(d, &entries[0], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100), 0xffffffffu);
  assert_int_equal(rd32(d, DATA_BASE + 0x120), 0xffffffffu);
  D0[0] = 0;
  /* fp16: 1 + 2^-11 is a tie, rounds to even 1.0 (0x3c00); x4 OMOD on
   * 0x7bff (65504) overflows to infinity; fp16 NaN min 1.0 is 1.0 */
  A[0] = 0x3c00;
  B[0] = 0x1000; /* 2^-11 */
  m = (mods){16, 16, 0, 0, 0, 0};
  run_one(d, &entries[7], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0x3c00);
  A[0] = 0x7bff;
  B[0] = 0;
  m.omod = 2;
  run_one(d, &entries[7], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0x7c00);
  A[0] = 0x7e00;
  B[0] = 0x3c00;
  m.omod = 0;
  run_one(d, &entries[10], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0x3c00);
  /* bf16 1.0 * 1.0078125 (0x3f81) = 0x3f81; NEG on src2 of an add:
   * 1.0 - 1.0 = +0 */
  A[0] = 0x3f80;
  B[0] = 0x3f81;
  run_one(d, &entries[14], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0x3f81);
  B[0] = 0x3f80;
  m.neg = 2;
  run_one(d, &entries[12], &m, A, B, D0);
  assert_int_equal(rd32(d, DATA_BASE + 0x100) & 0xffff, 0x0000);
  /* fp32 -> fp64: 0.1f + 0.2f rounded in binary32, widened exactly */
  A[0] = f_bits(0.1f);
  B[0] = f_bits(0.2f);
  m = (mods){32, 64, 0, 0, 0, 0};
  run_one(d, &entries[7], &m, A, B, D0);
  double got = d_of((uint64_t)rd32(d, DATA_BASE + 0x120) << 32 | rd32(d, DATA_BASE + 0x100));
  assert_true(got == (double)(0.1f + 0.2f));
  assert_true(got != 0.1 + 0.2);
  vt_device_destroy(d);
}

static void test_odd_pair_faults(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  /* hand-made words: vfadd64 with 64-bit sources and vs2 = v3 */
  prog p = {.n = 0};
  vt_error e = {0};
  int64_t v[ISA_MAX_OPNDS] = {2, 4, 6, 64, 64, 0, 0, 0, 0};
  uint32_t lo, hi;
  assert_int_equal(isa_encode64(ISA_vfadd64, v, &lo, &hi, NULL, 0), 0);
  p.w[p.n++] = lo | 1u << 20; /* vs2 v4 -> v5 */
  p.w[p.n++] = hi;
  vt_launch l = mklaunch(1, 1, 1, 1, 1);
  assert_int_equal(run(d, &p, &l, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  assert_non_null(strstr(e.msg, "v5 is odd"));
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_length_rule),        cmocka_unit_test(test_encoding_by_hand),
      cmocka_unit_test(test_roundtrip_all),      cmocka_unit_test(test_fetch_and_branches),
      cmocka_unit_test(test_fetch_edges),        cmocka_unit_test(test_trace_line),
      cmocka_unit_test(test_arith_all),          cmocka_unit_test(test_arith_by_hand),
      cmocka_unit_test(test_odd_pair_faults),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
