/* Every word of the code buffer (base 0x80000000) of every corpus image
 * decodes and disassembles, and every instruction of the spike logs at
 * PC >= 0x80000000 decodes to the mnemonic spike printed (aliases mapped
 * explicitly). Skips with a notice when ../shared/corpora is absent. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "isa.h"

static const char *corpus_dir(void) { return VT_SOURCE_DIR "/../shared/corpora"; }

static int have_corpus(void) {
  struct stat st;
  return stat(corpus_dir(), &st) == 0 && S_ISDIR(st.st_mode);
}

typedef void (*file_fn)(const char *path, void *arg);

static void walk(const char *dir, const char *suffix, file_fn fn, void *arg) {
  DIR *d = opendir(dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st)) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(path, suffix, fn, arg);
    } else {
      size_t n = strlen(e->d_name), m = strlen(suffix);
      if (n > m && !strcmp(e->d_name + n - m, suffix)) fn(path, arg);
    }
  }
  closedir(d);
}

/* Reads a file of one hex word per line. */
static uint32_t *read_hex(const char *path, size_t *n) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  size_t cap = 1024;
  uint32_t *v = malloc(cap * sizeof *v);
  char line[64];
  *n = 0;
  while (v && fgets(line, sizeof line, f)) {
    char *end;
    unsigned long x = strtoul(line, &end, 16);
    if (end == line) continue;
    if (*n == cap) v = realloc(v, (cap *= 2) * sizeof *v);
    if (v) v[(*n)++] = (uint32_t)x;
  }
  fclose(f);
  return v;
}

typedef struct {
  int images, words, bad;
} code_stats;

static void check_image(const char *meta_path, void *arg) {
  code_stats *s = arg;
  size_t nm, nd;
  uint32_t *m = read_hex(meta_path, &nm);
  char data_path[1024];
  snprintf(data_path, sizeof data_path, "%.*s.data", (int)(strlen(meta_path) - 9), meta_path);
  uint32_t *d = read_hex(data_path, &nd);
  assert_non_null(m);
  if (!d) { /* a .metadata without .data is not an image */
    free(m);
    return;
  }
#define FIELD(i) ((uint64_t)m[2 * (i)] | (uint64_t)m[2 * (i) + 1] << 32)
  assert_true(nm >= 28);
  uint64_t nbuf = FIELD(13);
  assert_true(nm >= 2 * (14 + 3 * nbuf));
  size_t line = 0;
  int found = 0;
  for (uint64_t b = 0; b < nbuf; b++) {
    uint64_t base = FIELD(14 + b), size = FIELD(14 + nbuf + b);
    size_t words = (size_t)((size + 3) / 4);
    if (base == 0x80000000u) {
      found = 1;
      assert_true(line + words <= nd);
      uint32_t prev = 0;
      for (size_t i = 0; i < words; i++) {
        uint32_t w = d[line + i];
        isa_inst in;
        isa_id pid = isa_lookup(prev);
        isa_id id = isa_decode(w, (pid == ISA_regext || pid == ISA_regexti) ? prev : 0, &in);
        char text[128];
        isa_disasm(&in, text, sizeof text);
        s->words++;
        if (id == ISA_INVALID) {
          s->bad++;
          print_message("%s: word %zu (pc 0x%08zx) 0x%08x does not decode\n", data_path, i,
                        (size_t)(0x80000000u + 4 * i), w);
        }
        prev = w;
      }
    }
    line += words;
  }
  assert_true(found);
  s->images++;
  free(m);
  free(d);
}

static void test_code_buffers(void **state) {
  (void)state;
  if (!have_corpus()) {
    printf("SKIP: ../shared/corpora not found\n");
    skip();
  }
  code_stats s = {0};
  walk(corpus_dir(), ".metadata", check_image, &s);
  print_message("%d images, %d code words, %d undecodable\n", s.images, s.words, s.bad);
  assert_true(s.images > 0);
  assert_int_equal(s.bad, 0);
}

/* spike spelling -> ours, where they differ */
static const struct {
  const char *spike, *ours;
} aliases[] = {
    {"li", "addi"},     {"mv", "addi"},     {"nop", "addi"},   {"j", "jal"},
    {"ret", "jalr"},    {"jr", "jalr"},     {"csrr", "csrrs"}, {"csrw", "csrrw"},
    {"csrs", "csrrs"},  {"csrc", "csrrc"},  {"csrwi", "csrrwi"}, {"csrsi", "csrrsi"},
    {"beqz", "beq"},    {"bnez", "bne"},    {"blez", "bge"},   {"bgez", "bge"},
    {"bltz", "blt"},    {"bgtz", "blt"},    {"bgt", "blt"},    {"ble", "bge"},
    {"bgtu", "bltu"},   {"bleu", "bgeu"},   {"not", "xori"},   {"neg", "sub"},
    {"seqz", "sltiu"},  {"snez", "sltu"},   {"sltz", "slt"},   {"sgtz", "slt"},
    {"fmv.s", "fsgnj.s"}, {"fneg.s", "fsgnjn.s"}, {"fabs.s", "fsgnjx.s"},
    {"jalr", "jalr"},   {"jal", "jal"},
    {"vmv.v.v", "vmv.v.v"},
};

typedef struct {
  int logs, lines, bad;
} log_stats;

static int mnemonic_matches(const char *spike, isa_id id) {
  const char *ours = isa_table[id].mnemonic;
  if (!strcmp(spike, ours)) return 1;
  if (isa_table[id].flags & IF_AQRL) {
    size_t n = strlen(ours);
    if (!strncmp(spike, ours, n) && (!strcmp(spike + n, ".aq") || !strcmp(spike + n, ".rl") ||
                                     !strcmp(spike + n, ".aqrl")))
      return 1;
  }
  for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
    if (!strcmp(aliases[i].spike, spike) && !strcmp(aliases[i].ours, ours)) return 1;
  return 0;
}

static void check_log(const char *path, void *arg) {
  log_stats *s = arg;
  FILE *f = fopen(path, "r");
  assert_non_null(f);
  char line[4096];
  s->logs++;
  uint32_t prev_word[64] = {0};
  while (fgets(line, sizeof line, f)) {
    unsigned core, pc, word;
    char mn[64];
    int pos = 0;
    if (sscanf(line, "core %u: 0x%x (0x%x) %63s%n", &core, &pc, &word, mn, &pos) != 4) continue;
    if (pc < 0x80000000u) continue;
    s->lines++;
    uint32_t prev = core < 64 ? prev_word[core] : 0;
    isa_id pid = isa_lookup(prev);
    isa_inst in;
    isa_id id = isa_decode(word, (pid == ISA_regext || pid == ISA_regexti) ? prev : 0, &in);
    if (core < 64) prev_word[core] = word;
    if (id == ISA_INVALID || !mnemonic_matches(mn, id)) {
      if (s->bad++ < 20)
        print_message("%s: pc 0x%08x word 0x%08x: spike '%s', ours '%s'\n", path, pc, word, mn,
                      id == ISA_INVALID ? "(invalid)" : isa_table[id].mnemonic);
    }
  }
  fclose(f);
}

static void test_logs(void **state) {
  (void)state;
  if (!have_corpus()) {
    printf("SKIP: ../shared/corpora not found\n");
    skip();
  }
  log_stats s = {0};
  walk(corpus_dir(), ".log", check_log, &s);
  print_message("%d logs, %d instruction lines at pc >= 0x80000000, %d mismatches\n", s.logs,
                s.lines, s.bad);
  assert_true(s.lines > 0);
  assert_int_equal(s.bad, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_code_buffers),
      cmocka_unit_test(test_logs),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
