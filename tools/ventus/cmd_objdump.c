/* `ventus objdump`: disassemble the code sections of an ELF file, raw
 * binary words, or words given on the command line. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "vt_file.h"
#include "isa.h"
#include "vt_elf.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ventus objdump [-d] [--isa REV] [--start-address A] [--stop-address A] file.elf\n"
          "       ventus objdump [--isa REV] --word W [W...]\n"
          "       ventus objdump [--isa REV] --raw file.bin [--base A]\n"
          "\n"
          "Disassembles the code sections of an ELF32 RISC-V file (address, word, text,\n"
          "<symbol>: labels, branch targets as <symbol+off>). A regext/regexti prefix is\n"
          "printed as itself and applied to the next instruction; words that decode to\n"
          "nothing are printed as .word. The text re-assembles to the same words.\n"
          "  --word W...   disassemble these 32-bit words (hex or decimal)\n"
          "  --raw FILE    disassemble a file of little-endian 32-bit words at --base (default 0)\n"
          "  --isa REV     ISA revision: base (default, the upstream encodings) or 2025 (the\n"
          "                seed manual's extensions; docs/isa-extensions.md)\n");
}

static int parse_u32(const char *s, uint32_t *v) {
  char *end;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (!*s || *end || errno || x > 0xffffffffull) return -1;
  *v = (uint32_t)x;
  return 0;
}

typedef struct {
  const vt_elf_file *f;
  size_t sec;
  isa_rev rev;
} ctx;

/* Best symbol at or before addr in the section (function/object/notype). */
static const vt_elf_symbol *sym_before(const ctx *c, uint32_t addr) {
  const vt_elf_symbol *best = NULL;
  if (!c->f) return NULL;
  for (size_t i = 0; i < c->f->nsyms; i++) {
    const vt_elf_symbol *y = &c->f->syms[i];
    if (y->shndx != c->sec || y->type == STT_SECTION || y->type == STT_FILE) continue;
    if (y->value > addr) continue;
    if (!best || y->value > best->value ||
        (y->value == best->value && y->bind != STB_LOCAL && best->bind == STB_LOCAL))
      best = y;
  }
  return best;
}

static void disasm_words(const ctx *c, const uint8_t *p, uint32_t n, uint32_t base,
                         uint32_t start, uint32_t stop) {
  uint32_t prev = 0;
  for (uint32_t i = 0; i + 4 <= n; i += 4) {
    uint32_t pc = base + i;
    uint32_t w = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 | (uint32_t)p[i + 2] << 16 |
                 (uint32_t)p[i + 3] << 24;
    if (pc < start || pc >= stop) {
      prev = 0;
      continue;
    }
    if (c->f)
      for (size_t k = 0; k < c->f->nsyms; k++) {
        const vt_elf_symbol *y = &c->f->syms[k];
        if (y->shndx == c->sec && y->value == pc && y->type != STT_SECTION && y->type != STT_FILE)
          printf("\n%08x <%s>:\n", pc, y->name);
      }
    isa_inst in;
    char text[160];
    if (isa_insn_len(w, c->rev) == 8 && i + 8 <= n && pc + 4 < stop) {
      /* a 64-bit instruction: shown as one value, its second word first */
      uint32_t hi = (uint32_t)p[i + 4] | (uint32_t)p[i + 5] << 8 | (uint32_t)p[i + 6] << 16 |
                    (uint32_t)p[i + 7] << 24;
      isa_disasm64_rev(w, hi, c->rev, &in, text, sizeof text);
      printf("%8x: %08x%08x\t%s\n", pc, hi, w, text);
      prev = 0;
      i += 4;
      continue;
    }
    isa_disasm_next_rev(w, prev, c->rev, &in, text, sizeof text);
    printf("%8x: %08x     \t%s", pc, w, text);
    int has;
    uint32_t t = isa_branch_target(&in, pc, &has);
    if (has) {
      const vt_elf_symbol *y = sym_before(c, t);
      if (y && t == y->value) printf(" <%s>", y->name);
      else if (y) printf(" <%s+0x%x>", y->name, t - y->value);
      else printf(" <0x%x>", t);
    }
    printf("\n");
    prev = w;
  }
  /* bytes after the last whole word: shown, not dropped */
  uint32_t tail = n % 4, at = base + (n - tail);
  if (tail && at >= start && at < stop) {
    printf("%8x: ", at);
    for (uint32_t k = 0; k < tail; k++) printf("%02x", p[n - tail + k]);
    printf("%*s\t.byte ", (int)(13 - 2 * tail), "");
    for (uint32_t k = 0; k < tail; k++) printf("%s0x%02x", k ? ", " : "", p[n - tail + k]);
    printf("   # %u byte(s) after the last whole word\n", tail);
  }
}

/* A directory would only get "read error" from the file readers. */
static int is_dir(const char *path) {
  struct stat st;
  if (stat(path, &st) || !S_ISDIR(st.st_mode)) return 0;
  fprintf(stderr, "ventus objdump: %s: is a directory\n", path);
  return 1;
}

static int dump_elf(const char *path, uint32_t start, uint32_t stop, isa_rev rev) {
  vt_elf_file f;
  vt_error e = {0};
  if (is_dir(path)) return vt_err_exit_code(VT_ERR_IO);
  if (vt_elf_read_file(path, &f, &e)) {
    fprintf(stderr, "ventus objdump: %s\n", e.msg);
    return vt_err_exit_code(e.kind);
  }
  printf("\n%s:\tfile format elf32-littleriscv\n", path);
  for (size_t i = 1; i < f.nsecs; i++) {
    const vt_elf_section *s = &f.secs[i];
    if (!(s->flags & SHF_EXECINSTR) || s->type != SHT_PROGBITS) continue;
    printf("\nDisassembly of section %s:\n", s->name);
    ctx c = {&f, i, rev};
    disasm_words(&c, s->data, s->size, s->addr, start, stop);
  }
  vt_elf_free(&f);
  return 0;
}

static int dump_raw(const char *path, uint32_t base, uint32_t start, uint32_t stop, isa_rev rev) {
  size_t n;
  vt_error e;
  if (is_dir(path)) return vt_err_exit_code(VT_ERR_IO);
  uint8_t *buf = (uint8_t *)vt_read_file(path, &n, &e);
  if (!buf) {
    fprintf(stderr, "ventus objdump: %s\n", e.msg);
    return vt_err_exit_code(e.kind);
  }
  ctx c = {NULL, 0, rev};
  disasm_words(&c, buf, (uint32_t)n, base, start, stop);
  free(buf);
  return 0;
}

int cmd_objdump(int argc, char **argv) {
  uint32_t start = 0, stop = 0xffffffffu, base = 0;
  const char *file = NULL, *raw = NULL;
  int words_from = 0;
  isa_rev rev = ISA_REV_BASE;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(a, "-d") || !strcmp(a, "--disassemble")) continue;
    if (!strcmp(a, "--word")) {
      words_from = i + 1;
      break;
    }
    const char *val = NULL;
    const char *opts[] = {"--start-address", "--stop-address", "--raw", "--base", "--isa"};
    int which = -1;
    for (int k = 0; k < 5; k++) {
      size_t n = strlen(opts[k]);
      if (!strncmp(a, opts[k], n) && (a[n] == '=' || !a[n])) {
        which = k;
        val = a[n] == '=' ? a + n + 1 : (i + 1 < argc ? argv[++i] : NULL);
      }
    }
    if (which < 0) {
      if (a[0] == '-' && a[1]) {
        fprintf(stderr, "ventus objdump: unknown option '%s' (see 'ventus objdump --help')\n", a);
        return 2;
      }
      if (file) {
        fprintf(stderr, "ventus objdump: only one input file\n");
        return 2;
      }
      file = a;
      continue;
    }
    if (!val) {
      fprintf(stderr, "ventus objdump: %s needs a value\n", opts[which]);
      return 2;
    }
    if (which == 2) {
      raw = val;
      continue;
    }
    if (which == 4) {
      if (isa_parse_rev(val, &rev)) {
        fprintf(stderr, "ventus objdump: bad --isa '%s' (base or 2025)\n", val);
        return 2;
      }
      continue;
    }
    uint32_t v;
    if (parse_u32(val, &v)) {
      fprintf(stderr, "ventus objdump: bad address '%s'\n", val);
      return 2;
    }
    if (which == 0) start = v;
    else if (which == 1) stop = v;
    else base = v;
  }
  if (words_from) {
    if (words_from >= argc) {
      fprintf(stderr, "ventus objdump: --word needs at least one word\n");
      return 2;
    }
    int n = argc - words_from;
    uint8_t *buf = malloc((size_t)n * 4);
    if (!buf) return 4;
    for (int i = 0; i < n; i++) {
      uint32_t w;
      if (parse_u32(argv[words_from + i], &w)) {
        fprintf(stderr, "ventus objdump: bad word '%s'\n", argv[words_from + i]);
        free(buf);
        return 2;
      }
      for (int k = 0; k < 4; k++) buf[4 * i + k] = (uint8_t)(w >> (8 * k));
    }
    ctx c = {NULL, 0, rev};
    disasm_words(&c, buf, (uint32_t)n * 4, base, 0, 0xffffffffu);
    free(buf);
    return 0;
  }
  if (start >= stop) {
    fprintf(stderr, "ventus objdump: --start-address 0x%x is not below --stop-address 0x%x\n",
            start, stop);
    return 2;
  }
  if (raw) return dump_raw(raw, base, start, stop, rev);
  if (!file) {
    fprintf(stderr, "ventus objdump: no input file (see 'ventus objdump --help')\n");
    return 2;
  }
  return dump_elf(file, start, stop, rev);
}
