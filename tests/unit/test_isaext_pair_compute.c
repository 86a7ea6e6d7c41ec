/* ISA 2025: the pair bit of PREFIX/PREFIXI before a computation
 * (docs/isa-extensions.md): every instruction it covers, scalar and vector,
 * on random 64-bit pairs with carries across the words, against plain C
 * on uint64_t/int64_t; ABS/NEG at 64 bits; masked lanes; the bit void
 * before other instructions; odd registers fault. */
#include "isaext_prog.h"
#include "timing_int.h"

static uint32_t rng(uint64_t *s) {
  *s = *s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(*s >> 33);
}

/* an operand: random, or one whose low word carries / borrows */
static uint64_t operand(uint64_t *s) {
  static const uint64_t edge[] = {0x00000000ffffffffull,
                                  0x0000000100000000ull,
                                  0xffffffffffffffffull,
                                  0x8000000000000000ull,
                                  0x7fffffffffffffffull,
                                  0,
                                  1,
                                  0xfffffffe00000001ull};
  uint32_t k = rng(s) % 3;
  if (k == 0) return edge[rng(s) % 8];
  return (uint64_t)rng(s) << 32 | rng(s);
}

static uint64_t sra(uint64_t a, unsigned n) { return (uint64_t)((int64_t)a >> n); }

/* plain C: a is src2 of a vector form (vs2) or src1 of a scalar one */
static uint64_t ref(const char *op, uint64_t a, uint64_t b) {
  int64_t x = (int64_t)a, y = (int64_t)b;
  if (!strcmp(op, "add")) return a + b;
  if (!strcmp(op, "sub")) return a - b;
  if (!strcmp(op, "rsub")) return b - a;
  if (!strcmp(op, "and")) return a & b;
  if (!strcmp(op, "or")) return a | b;
  if (!strcmp(op, "xor")) return a ^ b;
  if (!strcmp(op, "sll")) return a << (b % 64);
  if (!strcmp(op, "srl")) return a >> (b % 64);
  if (!strcmp(op, "sra")) return sra(a, (unsigned)(b % 64));
  if (!strcmp(op, "mul")) return a * b;
  if (!strcmp(op, "min")) return x < y ? a : b;
  if (!strcmp(op, "minu")) return a < b ? a : b;
  if (!strcmp(op, "max")) return x > y ? a : b;
  if (!strcmp(op, "maxu")) return a > b ? a : b;
  if (!strcmp(op, "slt") || !strcmp(op, "mslt")) return x < y;
  if (!strcmp(op, "sltu") || !strcmp(op, "msltu")) return a < b;
  if (!strcmp(op, "mseq")) return a == b;
  if (!strcmp(op, "msne")) return a != b;
  if (!strcmp(op, "msle")) return x <= y;
  if (!strcmp(op, "msleu")) return a <= b;
  if (!strcmp(op, "msgt")) return x > y;
  if (!strcmp(op, "msgtu")) return a > b;
  fail_msg("no reference for %s", op);
  return 0;
}

static void li64(char *buf, size_t n, size_t *at, unsigned reg, uint64_t v) {
  *at += (size_t)snprintf(buf + *at, n - *at, "li x%u, 0x%08x\nli x%u, 0x%08x\n", reg, (uint32_t)v,
                          reg + 1, (uint32_t)(v >> 32));
}

/* rd = a0/a1 (x10), rs1 = x12, rs2 = x14; the result pair stored at DATA */
static uint64_t run_scalar(const char *insn, uint64_t a, uint64_t b, const char *prefix) {
  char src[1024];
  size_t n = 0;
  li64(src, sizeof src, &n, 12, a);
  li64(src, sizeof src, &n, 14, b);
  n += (size_t)snprintf(src + n, sizeof src - n,
                        "li a0, 0x5555\nli a1, 0x6666\n%s\n%s\n"
                        "li t0, 0x90000000\nsw a0, 0(t0)\nsw a1, 4(t0)\nendprg x0, x0, x0\n",
                        prefix, insn);
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, 1, &e)) fail_msg("%s: %s", insn, e.msg);
  uint64_t r = (uint64_t)rd32(d, DATA_BASE + 4) << 32 | rd32(d, DATA_BASE);
  vt_device_destroy(d);
  return r;
}

static void test_scalar_ops(void **state) {
  (void)state;
  static const char *rr[] = {"add", "sub", "and", "or",   "xor", "sll",
                             "srl", "sra", "slt", "sltu", "mul"};
  static const char *ri[] = {"addi", "andi", "ori", "xori", "slti", "sltiu"};
  static const char *sh[] = {"slli", "srli", "srai"};
  uint64_t s = 31;
  for (int rep = 0; rep < 6; rep++) {
    for (size_t k = 0; k < sizeof rr / sizeof rr[0]; k++) {
      uint64_t a = operand(&s), b = operand(&s);
      if (rep == 0 && k < 2) a = 0x00000000ffffffffull, b = 1; /* a carry (add) and none (sub) */
      char insn[64];
      snprintf(insn, sizeof insn, "%s a0, a2, a4", rr[k]);
      uint64_t got = run_scalar(insn, a, b, "prefix 0, 1, 0, 0"), want = ref(rr[k], a, b);
      if (got != want)
        fail_msg("%s %016llx, %016llx: %016llx, expected %016llx", rr[k], (unsigned long long)a,
                 (unsigned long long)b, (unsigned long long)got, (unsigned long long)want);
    }
    for (size_t k = 0; k < sizeof ri / sizeof ri[0]; k++) {
      uint64_t a = operand(&s);
      int32_t imm = (int32_t)(rng(&s) % 4096) - 2048;
      char insn[64], op[8];
      snprintf(insn, sizeof insn, "%s a0, a2, %d", ri[k], imm);
      snprintf(op, sizeof op, "%.*s", (int)strlen(ri[k]) - 1,
               ri[k]); /* addi -> add, sltiu -> sltu */
      if (!strcmp(ri[k], "sltiu")) strcpy(op, "sltu");
      uint64_t got = run_scalar(insn, a, 0, "prefix 0, 1, 0, 0"),
               want = ref(op, a, (uint64_t)(int64_t)imm);
      if (got != want)
        fail_msg("%s %016llx, %d: %016llx", ri[k], (unsigned long long)a, imm,
                 (unsigned long long)got);
    }
    for (size_t k = 0; k < sizeof sh / sizeof sh[0]; k++) {
      uint64_t a = operand(&s);
      unsigned amt = rng(&s) % 32;
      char insn[64], op[4];
      snprintf(insn, sizeof insn, "%s a0, a2, %u", sh[k], amt);
      snprintf(op, sizeof op, "%.3s", sh[k]);
      uint64_t got = run_scalar(insn, a, 0, "prefix 0, 1, 0, 0");
      assert_int_equal(got, ref(op, a, amt));
    }
  }
}

/* worked out by hand: carries, borrows, 64-bit shifts and products */
static void test_scalar_by_hand(void **state) {
  (void)state;
  assert_int_equal(run_scalar("add a0, a2, a4", 0xffffffffull, 1, "prefix 0, 1, 0, 0"),
                   0x100000000ull);
  assert_int_equal(run_scalar("sub a0, a2, a4", 0x100000000ull, 1, "prefix 0, 1, 0, 0"),
                   0xffffffffull);
  assert_int_equal(run_scalar("sll a0, a2, a4", 1, 36, "prefix 0, 1, 0, 0"), 1ull << 36);
  assert_int_equal(run_scalar("sll a0, a2, a4", 1, 65, "prefix 0, 1, 0, 0"), 2); /* 65 mod 64 */
  assert_int_equal(run_scalar("sra a0, a2, a4", 0x8000000000000000ull, 63, "prefix 0, 1, 0, 0"),
                   ~0ull);
  assert_int_equal(
      run_scalar("mul a0, a2, a4", 0x100000001ull, 0x100000001ull, "prefix 0, 1, 0, 0"),
      0x200000001ull); /* (2^32 + 1)^2 mod 2^64 */
  assert_int_equal(run_scalar("slt a0, a2, a4", 0xffffffff00000000ull, 0, "prefix 0, 1, 0, 0"), 1);
  assert_int_equal(run_scalar("sltu a0, a2, a4", 0xffffffff00000000ull, 0, "prefix 0, 1, 0, 0"), 0);
  assert_int_equal(run_scalar("addi a0, a2, -1", 0, 0, "prefix 0, 1, 0, 0"),
                   ~0ull); /* sign-extended to 64 */
  /* ABS on src1 and NEG on src2 at 64 bits: |-2^32| - (-5) */
  assert_int_equal(run_scalar("add a0, a2, a4", (uint64_t) - (int64_t)0x100000000ll, (uint64_t)-5ll,
                              "prefix 0, 1, 1, 2"),
                   0x100000005ull);
  /* without the pair bit: 32-bit add, a1 untouched */
  assert_int_equal(run_scalar("add a0, a2, a4", 0xffffffffull, 1, "prefix 0, 0, 0, 0"),
                   0x0000666600000000ull);
  /* void before an instruction it does not cover (mulh): 32-bit result */
  assert_int_equal(run_scalar("mulh a0, a2, a4", 0x80000000ull, 2, "prefix 0, 1, 0, 0"),
                   0x00006666ffffffffull);
  /* regpair is for loads and stores only */
  assert_int_equal(run_scalar("add a0, a2, a4", 0xffffffffull, 1, "regpair x0, x0, 0"),
                   0x0000666600000000ull);
}

/* lanes of vs2 in {v3, v2}, vs1 in {v5, v4}, the scalar in {x13, x12}; vd
 * {v9, v8} preset to a pattern; lane 2 masked off with v0 where vm = 0 */
static void check_vector(const char *op, const char *form, uint64_t *s, int masked) {
  enum { NT = 4 };
  uint64_t A[NT], B[NT], X = operand(s);
  vt_device *d = ext_dev(2025);
  for (uint32_t i = 0; i < NT; i++) {
    A[i] = operand(s);
    B[i] = i == 1 ? A[i] : operand(s); /* equal values for the compares */
    wr32(d, DATA_BASE + 4 * i, (uint32_t)A[i]);
    wr32(d, DATA_BASE + 0x10 + 4 * i, (uint32_t)(A[i] >> 32));
    wr32(d, DATA_BASE + 0x20 + 4 * i, (uint32_t)B[i]);
    wr32(d, DATA_BASE + 0x30 + 4 * i, (uint32_t)(B[i] >> 32));
  }
  int uimm = !strcmp(op, "sll") || !strcmp(op, "srl") || !strcmp(op, "sra") ||
             !strcmp(op, "msleu") || !strcmp(op, "msgtu");
  int imm = uimm ? 7 : -5;
  char insn[64];
  const char *mask = masked ? ", v0.t" : "";
  if (!strcmp(form, "vv"))
    snprintf(insn, sizeof insn, "v%s.vv v8, v2, v4%s", op, mask);
  else if (!strcmp(form, "vx"))
    snprintf(insn, sizeof insn, "v%s.vx v8, v2, a2%s", op, mask);
  else
    snprintf(insn, sizeof insn, "v%s.vi v8, v2, %d%s", op, imm, mask);
  char src[2048];
  size_t n = 0;
  li64(src, sizeof src, &n, 12, X);
  snprintf(src + n, sizeof src - n,
           "vid.v v1\nvsll.vi v1, v1, 2\nli t0, 0x90000000\nvadd.vx v1, v1, t0\n"
           "vlw12.v v2, 0(v1)\nvlw12.v v3, 0x10(v1)\nvlw12.v v4, 0x20(v1)\nvlw12.v v5, 0x30(v1)\n"
           "li t0, 0x11111111\nvmv.v.x v8, t0\nli t0, 0x22222222\nvmv.v.x v9, t0\n"
           "li t0, 0xb\nvmv.v.x v0, t0\n" /* lanes 0, 1, 3 */
           "prefix 0, 1, 0, 0\n%s\n"
           "vsw12.v v8, 0x40(v1)\nvsw12.v v9, 0x50(v1)\nendprg x0, x0, x0\n",
           insn);
  vt_error e = {0};
  if (ext_run(d, ISA_REV_2025, src, NT, &e)) fail_msg("%s: %s", insn, e.msg);
  int cmp = op[0] == 'm' && op[1] == 's';
  for (uint32_t i = 0; i < NT; i++) {
    uint64_t b = !strcmp(form, "vv") ? B[i] : !strcmp(form, "vx") ? X : (uint64_t)(int64_t)imm;
    uint64_t want = ref(op, A[i], b);
    uint64_t got =
        (uint64_t)rd32(d, DATA_BASE + 0x50 + 4 * i) << 32 | rd32(d, DATA_BASE + 0x40 + 4 * i);
    if (masked && i == 2)
      want = 0x2222222211111111ull;
    else if (cmp)
      want = 0x2222222200000000ull | want; /* 0/1 in vd alone */
    if (got != want)
      fail_msg("%s lane %u: A %016llx B %016llx: %016llx, expected %016llx", insn, i,
               (unsigned long long)A[i], (unsigned long long)b, (unsigned long long)got,
               (unsigned long long)want);
  }
  vt_device_destroy(d);
}

static void test_vector_ops(void **state) {
  (void)state;
  static const struct {
    const char *op, *forms;
  } v[] = {
      {"add", "vv vx vi"}, {"sub", "vv vx"},    {"rsub", "vx vi"},    {"and", "vv vx vi"},
      {"or", "vv vx vi"},  {"xor", "vv vx vi"}, {"sll", "vv vx vi"},  {"srl", "vv vx vi"},
      {"sra", "vv vx vi"}, {"mul", "vv vx"},    {"min", "vv vx"},     {"minu", "vv vx"},
      {"max", "vv vx"},    {"maxu", "vv vx"},   {"mseq", "vv vx vi"}, {"msne", "vv vx vi"},
      {"mslt", "vv vx"},   {"msltu", "vv vx"},  {"msle", "vv vx vi"}, {"msleu", "vv vx vi"},
      {"msgt", "vx vi"},   {"msgtu", "vx vi"},
  };
  uint64_t s = 77;
  for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
    for (const char *f = v[k].forms; *f; f += f[2] ? 3 : 2) {
      char form[3] = {f[0], f[1], 0};
      check_vector(v[k].op, form, &s, 0);
      check_vector(v[k].op, form, &s, 1);
    }
}

static void expect_fault(const char *src, const char *msg) {
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  assert_int_equal(ext_run(d, ISA_REV_2025, src, 1, &e), -1);
  assert_int_equal(e.kind, VT_ERR_ILLEGAL);
  if (!strstr(e.msg, msg)) fail_msg("'%s' lacks '%s'", e.msg, msg);
  vt_device_destroy(d);
}

static void test_odd_registers(void **state) {
  (void)state;
  expect_fault("prefix 0, 1, 0, 0\nadd a0, a3, a4\nendprg x0, x0, x0\n",
               "x13 is odd: a register pair starts at an even register");
  expect_fault("prefix 0, 1, 0, 0\nvadd.vv v9, v2, v4\nendprg x0, x0, x0\n",
               "v9 is odd: a register pair starts at an even register");
  expect_fault("prefix 0, 1, 0, 0\nvadd.vx v8, v2, a3\nendprg x0, x0, x0\n",
               "x13 is odd: a register pair starts at an even register");
}

/* the timing model's scoreboard sees both registers of each pair: rd, rs1
 * and rs2 of a prefixed add span 2, a vector compare's vd 1; the compute
 * format's 64-bit sizes span 2, its 32-bit ones 1 */
static int span(vt_timing *t, uint32_t word, uint32_t hi, uint32_t prefix, unsigned reg, int dest) {
  isa_inst in;
  if (hi) assert_int_not_equal(isa_decode64_rev(word, hi, ISA_REV_2025, &in), ISA_INVALID);
  else assert_int_not_equal(isa_decode_rev(word, prefix, ISA_REV_2025, &in), ISA_INVALID);
  reg_use u[ISA_MAX_OPNDS + 1];
  int n = reg_uses(t, &in, isa_table[in.id].flags, 32, 0x10 /* e32 */, u);
  for (int i = 0; i < n; i++)
    if (u[i].reg == reg && u[i].dest == dest) return u[i].span;
  fail_msg("register %u not used", reg);
  return 0;
}

static uint32_t word_of(const char *text) {
  uint32_t w[4];
  vt_error e = {0};
  int n = asm_words_rev(text, CODE_BASE, ISA_REV_2025, w, 4, &e);
  if (n < 1) fail_msg("%s: %s", text, e.msg);
  return n == 2 ? w[1] : w[0]; /* the instruction after a prefix */
}

static void test_timing_spans(void **state) {
  (void)state;
  vt_device *d = ext_dev(2025);
  vt_error e = {0};
  vt_timing *t = vt_timing_attach(d, &e);
  assert_non_null(t);
  uint32_t pfx = word_of("prefix 0, 1, 0, 0"), nopair = word_of("prefix 0, 0, 0, 1");
  uint32_t add = word_of("add a0, a2, a4"), cmp = word_of("vmseq.vv v8, v2, v4");
  assert_int_equal(span(t, add, 0, pfx, 10, 1), 2);
  assert_int_equal(span(t, add, 0, pfx, 12, 0), 2);
  assert_int_equal(span(t, add, 0, pfx, 14, 0), 2);
  assert_int_equal(span(t, add, 0, nopair, 10, 1), 1);
  assert_int_equal(span(t, cmp, 0, pfx, 8, 1), 1);
  assert_int_equal(span(t, cmp, 0, pfx, 2, 0), 2);
  uint32_t w[4];
  assert_int_equal(asm_words_rev("vadd64 v2, v4, v6, 64, 32, 0, 0, 0, 0", CODE_BASE, ISA_REV_2025, w, 4, &e), 2);
  assert_int_equal(span(t, w[0], w[1], 0, 4, 0), 2);
  assert_int_equal(span(t, w[0], w[1], 0, 6, 0), 2);
  assert_int_equal(span(t, w[0], w[1], 0, 2, 1), 1);
  vt_timing_free(t);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scalar_ops),
      cmocka_unit_test(test_scalar_by_hand),
      cmocka_unit_test(test_vector_ops),
      cmocka_unit_test(test_odd_registers),
      cmocka_unit_test(test_timing_spans),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
