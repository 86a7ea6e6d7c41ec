/* Executor tests, part 3: statistics counters of a small program counted
 * by hand, vt_stats_print_json / vt_config_print_json checked with a
 * minimal JSON parser (no new dependency), and the progress callback. */
#include <ctype.h>

#include "test_core_more.h"

/* ---- a program whose counters are counted by hand ------------------------------
 * 4 lanes, 2 warps per group, 2 groups. Every warp runs the same path:
 * 11 instructions with all 4 lanes up to the vblt; lane 0 (v1 < 1) takes
 * the branch, lanes 1..3 fall through and run first (fewer lanes taken:
 * the taken entry is pushed). */
static const char stats_src[] =
    "  lui s0, 0x90000\n"                      /* ALU   4 lanes */
    "  addi s1, s0, 0x100\n"                   /* ALU */
    "  vid.v v1\n"                             /* VALU */
    "  lw t0, 0(s0)\n"                         /* LSU   1 load */
    "  vle32.v v2, (s0)\n"                     /* LSU   4 loads */
    "  csrr t1, wid\n"                         /* CSR */
    "  mul t2, t1, t1\n"                       /* MUL */
    "  vmv.v.i v3, 1\n"                        /* VALU */
    ".Lh:\n"
    "  auipc t1, %pcrel_hi(.Ljoin)\n"          /* ALU */
    "  setrpc zero, t1, %pcrel_lo(.Lh)\n"      /* SIMT */
    "  vblt v1, v3, .Lelse\n"                  /* SIMT  divergent: push 2 */
    "  vadd.vi v4, v1, 5\n"                    /* VALU  lanes 1..3 */
    "  j .Ljoin\n"                             /* ALU   lanes 1..3 */
    ".Lelse:\n"
    "  vadd.vi v4, v1, 9\n"                    /* VALU  lane 0 */
    ".Ljoin:\n"
    "  join zero, zero, 0\n"                   /* SIMT  x3: lanes 1..3 (pop -> .Lelse), lane 0
                                                  (pop -> join, full mask), 4 lanes (no entry) */
    "  vse32.v v4, (s1)\n"                     /* LSU   4 stores */
    "  barrier zero, zero, 0\n"                /* CTRL  see below */
    "  endprg x0, x0, x0\n";                   /* CTRL */

static void stats_by_hand(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, stats_src);
  vt_launch l = mklaunch(2, 1, 1, 4, 2);
  launch_ok(d, &l);
  for (uint32_t i = 0; i < 4; i++) assert_int_equal(rd32(d, DATA_BASE + 0x100 + 4 * i), i ? i + 5 : 9);

  /* Barrier accounting of the core (exec_custom.c): the warps of a group
   * run in lock-step, warp 0 arrives first and waits, warp 1 arrives and
   * releases it; a barrier retires once per warp, when it completes (the
   * waiting warp's arrival and re-checks do not count). So b = 1 per warp. */
  const uint64_t warps = 4, b_total = warps;
  const uint64_t per_warp_insns = 11 + 2 + 1 + 1 + 1 + 1 + 1 + 1; /* without the barrier */
  const uint64_t per_warp_lanes = 11 * 4 + (3 + 3) + 3 + 1 + 1 + 4 + 4 + 4;
  const vt_stats *s = vt_device_stats(d);
  assert_int_equal(s->warp_insns, warps * per_warp_insns + b_total);           /* 80 */
  assert_int_equal(s->thread_insns, warps * per_warp_lanes + 4 * b_total);     /* 284 */
  assert_int_equal(s->unit_insns[UNIT_ALU], warps * 4);      /* lui addi auipc j */
  assert_int_equal(s->unit_insns[UNIT_VALU], warps * 4);     /* vid vmv vadd vadd */
  assert_int_equal(s->unit_insns[UNIT_LSU], warps * 3);
  assert_int_equal(s->unit_insns[UNIT_CSR], warps * 1);
  assert_int_equal(s->unit_insns[UNIT_MUL], warps * 1);
  assert_int_equal(s->unit_insns[UNIT_SIMT], warps * 5);     /* setrpc vblt join x3 */
  assert_int_equal(s->unit_insns[UNIT_CTRL], warps * 1 + b_total);
  assert_int_equal(s->unit_insns[UNIT_VFPU], 0);
  assert_int_equal(s->unit_insns[UNIT_SFU], 0);
  assert_int_equal(s->unit_insns[UNIT_TENSOR], 0);
  assert_int_equal(s->vbranches, 4);
  assert_int_equal(s->divergent_branches, 4);
  assert_int_equal(s->joins, 12);
  assert_int_equal(s->reconvergences, 8);
  assert_int_equal(s->barriers, 4);
  assert_int_equal(s->loads, warps * (1 + 4));
  assert_int_equal(s->load_bytes, warps * (1 + 4) * 4);
  assert_int_equal(s->stores, warps * 4);
  assert_int_equal(s->store_bytes, warps * 4 * 4);
  assert_int_equal(s->atomics, 0);
  assert_int_equal(s->global_accesses, warps * (1 + 4 + 4));
  assert_int_equal(s->local_accesses, 0);
  assert_int_equal(s->private_accesses, 0);
  assert_int_equal(s->kernels, 1);
  assert_int_equal(s->wgs, 2);
  assert_int_equal(s->warps, 4);
  assert_int_equal(s->max_simt_depth, 2);

  vt_device_reset_stats(d);
  assert_int_equal(vt_device_stats(d)->warp_insns, 0);
  vt_device_destroy(d);
}

/* ---- a minimal JSON parser: validates the text and collects the numbers by
 * key ("units.ALU" inside the "units" object) ------------------------------- */
typedef struct {
  const char *p;
  char keys[64][48];
  double vals[64];
  int n;
} json;

static void j_ws(json *j) {
  while (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r') j->p++;
}

static int j_string(json *j, char *out, size_t cap) {
  if (*j->p++ != '"') return -1;
  size_t n = 0;
  for (;;) {
    unsigned char c = (unsigned char)*j->p++;
    if (c == '"') break;
    if (c < 0x20) return -1; /* also the terminating NUL */
    if (c == '\\') {
      c = (unsigned char)*j->p++;
      if (c == 'u') {
        for (int k = 0; k < 4; k++)
          if (!isxdigit((unsigned char)*j->p++)) return -1;
        c = '?';
      } else if (!strchr("\"\\/bfnrt", c) || !c) {
        return -1;
      }
    }
    if (n + 1 < cap) out[n++] = (char)c;
  }
  out[n] = 0;
  return 0;
}

static int j_value(json *j, const char *key);

static int j_object(json *j, const char *key) {
  j->p++;
  j_ws(j);
  if (*j->p == '}') return j->p++, 0;
  for (;;) {
    char k[32], path[48];
    j_ws(j);
    if (j_string(j, k, sizeof k)) return -1;
    j_ws(j);
    if (*j->p++ != ':') return -1;
    snprintf(path, sizeof path, "%s%s%s", key, *key ? "." : "", k);
    if (j_value(j, path)) return -1;
    j_ws(j);
    if (*j->p == ',') {
      j->p++;
      continue;
    }
    return *j->p++ == '}' ? 0 : -1;
  }
}

static int j_value(json *j, const char *key) {
  j_ws(j);
  char c = *j->p;
  if (c == '{') return j_object(j, key);
  if (c == '[') {
    j->p++;
    j_ws(j);
    if (*j->p == ']') return j->p++, 0;
    for (;;) {
      if (j_value(j, key)) return -1;
      j_ws(j);
      if (*j->p == ',') {
        j->p++;
        continue;
      }
      return *j->p++ == ']' ? 0 : -1;
    }
  }
  if (c == '"') {
    char tmp[256];
    return j_string(j, tmp, sizeof tmp);
  }
  for (const char *lit[] = {"true", "false", "null"}, **w = lit; w < lit + 3; w++)
    if (!strncmp(j->p, *w, strlen(*w))) return j->p += strlen(*w), 0;
  /* number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  const char *s = j->p;
  if (*j->p == '-') j->p++;
  if (*j->p == '0') j->p++;
  else if (isdigit((unsigned char)*j->p))
    while (isdigit((unsigned char)*j->p)) j->p++;
  else
    return -1;
  if (*j->p == '.') {
    j->p++;
    if (!isdigit((unsigned char)*j->p)) return -1;
    while (isdigit((unsigned char)*j->p)) j->p++;
  }
  if (*j->p == 'e' || *j->p == 'E') {
    j->p++;
    if (*j->p == '+' || *j->p == '-') j->p++;
    if (!isdigit((unsigned char)*j->p)) return -1;
    while (isdigit((unsigned char)*j->p)) j->p++;
  }
  if (j->n < 64) {
    snprintf(j->keys[j->n], sizeof j->keys[0], "%s", key);
    j->vals[j->n++] = strtod(s, NULL);
  }
  return 0;
}

static int json_parse(json *j, const char *text) {
  memset(j, 0, sizeof *j);
  j->p = text;
  if (j_value(j, "")) return -1;
  j_ws(j);
  return *j->p ? -1 : 0;
}

static double json_get(const json *j, const char *key) {
  for (int i = 0; i < j->n; i++)
    if (!strcmp(j->keys[i], key)) return j->vals[i];
  fail_msg("JSON has no number '%s'", key);
  return -1;
}

static void parser_self_test(void **state) {
  (void)state;
  json j;
  assert_int_equal(json_parse(&j, "{\"a\": 1, \"b\": {\"c\": -2.5e3}, \"d\": [true, null, \"x\\n\"]}"), 0);
  assert_true(json_get(&j, "a") == 1 && json_get(&j, "b.c") == -2500);
  const char *bad[] = {"{", "{\"a\" 1}", "{\"a\": 1,}", "{\"a\": 01}", "[1 2]", "{} x", "\"\\q\"", "{\"a\": -}"};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_int_equal(json_parse(&j, bad[i]), -1);
}

static char *capture(void (*fn)(const void *, FILE *), const void *arg) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  assert_non_null(f);
  fn(arg, f);
  assert_int_equal(fclose(f), 0);
  return buf;
}
static void put_stats(const void *s, FILE *f) { vt_stats_print_json(s, f); }
static void put_config(const void *c, FILE *f) { vt_config_print_json(c, f); }

static void stats_json(void **state) {
  (void)state;
  vt_device *d = mkdev(NULL);
  load_asm(d, stats_src);
  vt_launch l = mklaunch(2, 1, 1, 4, 2);
  launch_ok(d, &l);
  const vt_stats *s = vt_device_stats(d);
  char *text = capture(put_stats, s);
  json j;
  if (json_parse(&j, text)) fail_msg("stats JSON does not parse: %s", text);
  assert_true(json_get(&j, "warp_insns") == 80);
  assert_true(json_get(&j, "thread_insns") == 284);
  assert_true(json_get(&j, "divergent_branches") == 4);
  assert_true(json_get(&j, "max_simt_depth") == 2);
  assert_true(json_get(&j, "wgs") == 2);
  double units = 0;
  for (int u = 0; u < UNIT_COUNT; u++) {
    char k[48];
    snprintf(k, sizeof k, "units.%s", isa_unit_name((isa_unit)u));
    units += json_get(&j, k);
  }
  assert_true(units == 80); /* every instruction in exactly one unit */
  free(text);

  vt_config c;
  vt_config_defaults(&c);
  c.num_sm = 3;
  text = capture(put_config, &c);
  if (json_parse(&j, text)) fail_msg("config JSON does not parse: %s", text);
  assert_true(json_get(&j, "num_sm") == 3);
  assert_true(json_get(&j, "lds_base") == 0x70000000);
  free(text);
  vt_device_destroy(d);
}

/* ---- progress: one call per finished work-group ------------------------------- */
typedef struct {
  uint64_t done[16], total[16], insns[16];
  int n;
} calls;
static void on_progress(void *user, uint64_t done, uint64_t total, uint64_t insns) {
  calls *c = user;
  if (c->n < 16) c->done[c->n] = done, c->total[c->n] = total, c->insns[c->n] = insns;
  c->n++;
}

static void progress_calls(void **state) {
  (void)state;
  vt_config cfg;
  vt_config_defaults(&cfg);
  cfg.num_sm = 1;
  cfg.wg_slots_per_sm = 1; /* groups run one after another */
  vt_device *d = mkdev(&cfg);
  calls c = {.n = 0};
  vt_device_set_progress(d, on_progress, &c);
  /* 3 instructions per warp, 2 warps per group: 6 per group */
  load_asm(d, "  vid.v v1\n  addi t0, t0, 1\n  endprg x0, x0, x0\n");
  vt_launch l = mklaunch(5, 1, 1, 4, 2);
  launch_ok(d, &l);
  assert_int_equal(c.n, 5);
  for (int k = 0; k < 5; k++) {
    assert_int_equal(c.done[k], k + 1);
    assert_int_equal(c.total[k], 5);
    assert_int_equal(c.insns[k], 6 * (k + 1));
  }
  /* a second launch: counts restart, the instruction count goes on */
  c.n = 0;
  l = mklaunch(3, 1, 1, 4, 2);
  launch_ok(d, &l);
  assert_int_equal(c.n, 3);
  for (int k = 0; k < 3; k++) {
    assert_int_equal(c.done[k], k + 1);
    assert_int_equal(c.total[k], 3);
    assert_int_equal(c.insns[k], 30 + 6 * (k + 1));
  }
  vt_device_destroy(d);

  /* default device (groups concurrent): still one call per group, in order */
  d = mkdev(NULL);
  c.n = 0;
  vt_device_set_progress(d, on_progress, &c);
  load_asm(d, "  vid.v v1\n  addi t0, t0, 1\n  endprg x0, x0, x0\n");
  l = mklaunch(7, 2, 1, 8, 3);
  launch_ok(d, &l);
  assert_int_equal(c.n, 14);
  for (int k = 0; k < 14; k++) {
    assert_int_equal(c.done[k], k + 1);
    assert_int_equal(c.total[k], 14);
    if (k) assert_true(c.insns[k] >= c.insns[k - 1]);
  }
  assert_int_equal(c.insns[13], 14 * 3 * 3);
  assert_int_equal(vt_device_stats(d)->warp_insns, 14 * 3 * 3);
  vt_device_destroy(d);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(stats_by_hand),
      cmocka_unit_test(parser_self_test),
      cmocka_unit_test(stats_json),
      cmocka_unit_test(progress_calls),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
