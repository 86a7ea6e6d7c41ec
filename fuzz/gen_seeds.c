/* Build-time seed and dictionary maker for the fuzz targets.
 *   gen_seeds OUTDIR SRCDIR
 * assembles each example kernel of SRCDIR/kernels/examples with the
 * start-up code into OUTDIR/elf/<name>.elf (and a relocatable object),
 * OUTDIR/decode/<name> (its .text words) and OUTDIR/exec/<name> (a launch
 * shape byte, then the words), and writes OUTDIR/asm.dict: every mnemonic,
 * register and CSR name of the instruction table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asm.h"
#include "isa.h"

static const char *const examples[] = {"vecadd", "matmul", "reduce", "diverge", "hello"};

static int put(const char *path, const void *p, size_t n, const void *head, size_t hn) {
  FILE *f = fopen(path, "wb");
  if (!f) return -1;
  int bad = (hn && fwrite(head, 1, hn, f) != hn) || (n && fwrite(p, 1, n, f) != n);
  return fclose(f) || bad ? -1 : 0;
}

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *text = NULL;
  size_t n = 0, cap = 0;
  int c;
  while ((c = fgetc(f)) != EOF) {
    if (n + 2 > cap) {
      char *t = realloc(text, cap = cap * 2 + 4096);
      if (!t) break;
      text = t;
    }
    text[n++] = (char)c;
  }
  fclose(f);
  if (text) text[n] = 0;
  return text;
}

/* Assembles the example with the start-up code; writes the executable's
 * .text seeds and both ELF forms. */
static int make_seeds(const char *out, const char *src, const char *name) {
  static const char *const parts[] = {"lib/start", "lib/workitem", "examples/"};
  char paths[3][512], path[600];
  asm_source s[3];
  char *text[3] = {NULL, NULL, NULL};
  int r = -1;
  for (int i = 0; i < 3; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/kernels/%s%s.S", src, parts[i], i == 2 ? name : "");
    s[i] = (asm_source){paths[i], text[i] = slurp(paths[i])};
    if (!text[i]) {
      fprintf(stderr, "gen_seeds: cannot read %s\n", paths[i]);
      goto out;
    }
  }
  for (int rel = 0; rel < 2; rel++) {
    asm_options opt = {.relocatable = rel, .text_addr = ASM_DEFAULT_TEXT_ADDR};
    asm_object *o;
    asm_diags d = {0};
    vt_error e = {0};
    if (asm_assemble(s, 3, &opt, &o, &d, &e)) {
      char line[512];
      if (d.n) asm_diag_format(&d.v[0], line, sizeof line);
      fprintf(stderr, "gen_seeds: %s: %s\n", paths[2], d.n ? line : e.msg);
      asm_diags_free(&d);
      goto out;
    }
    asm_diags_free(&d);
    snprintf(path, sizeof path, "%s/elf/%s%s", out, name, rel ? ".o" : ".elf");
    int bad = asm_write_elf(o, path, &e);
    const uint8_t *words;
    uint32_t size;
    if (!rel && !bad && asm_section(o, ".text", &words, &size, NULL) == 0) {
      const uint8_t shape = 0x8a; /* traced, 8 threads, 2 warps, 1 work-group */
      snprintf(path, sizeof path, "%s/decode/%s", out, name);
      bad |= put(path, words, size, NULL, 0);
      snprintf(path, sizeof path, "%s/exec/%s", out, name);
      bad |= put(path, words, size, &shape, 1);
    }
    asm_free(o);
    if (bad) {
      fprintf(stderr, "gen_seeds: cannot write the seeds of %s\n", name);
      goto out;
    }
  }
  r = 0;
out:
  for (int i = 0; i < 3; i++) free(text[i]);
  return r;
}

static int make_dict(const char *out) {
  char path[600];
  snprintf(path, sizeof path, "%s/asm.dict", out);
  FILE *f = fopen(path, "w");
  if (!f) return -1;
  for (int i = 0; i < ISA_COUNT; i++)
    if (i == 0 || strcmp(isa_table[i].mnemonic, isa_table[i - 1].mnemonic))
      fprintf(f, "\"%s \"\n", isa_table[i].mnemonic);
  for (unsigned r = 0; r < 32; r++) fprintf(f, "\"%s\"\n", isa_xreg_name(r));
  fprintf(f, "\"v0.t\"\n\"v31\"\n\"v255\"\n\"x255\"\n");
  for (unsigned c = 0; c < 4096; c++)
    if (isa_csr_name(c)) fprintf(f, "\"%s\"\n", isa_csr_name(c));
  return fclose(f);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: gen_seeds OUTDIR SRCDIR\n");
    return 2;
  }
  const char *sub[] = {"", "/elf", "/decode", "/exec"};
  for (size_t i = 0; i < sizeof sub / sizeof sub[0]; i++) {
    char p[600];
    snprintf(p, sizeof p, "%s%s", argv[1], sub[i]);
    mkdir(p, 0777);
  }
  for (size_t i = 0; i < sizeof examples / sizeof examples[0]; i++)
    if (make_seeds(argv[1], argv[2], examples[i])) return 1;
  if (make_dict(argv[1])) {
    perror("gen_seeds: asm.dict");
    return 1;
  }
  return 0;
}
