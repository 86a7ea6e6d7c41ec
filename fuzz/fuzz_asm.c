/* Assembler: the input is source text (up to two sources split at a NUL
 * byte: a.S, C-preprocessed, then b.s), assembled as one unit into an
 * executable, or a relocatable object when the input length is odd. The
 * sources live in the scratch directory, so #include/.include can only
 * reach files there. A successful unit must write an ELF that our own
 * reader accepts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "fuzz_util.h"
#include "vt_elf.h"

static char *cstr(fz_part p) {
  char *s = malloc(p.n + 1);
  if (!s) abort();
  memcpy(s, p.p, p.n);
  s[p.n] = 0;
  return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz_part part[2];
  size_t np = fz_split(data, size, part, 2);
  char name[2][512];
  fz_path(name[0], sizeof name[0], "a.S");
  fz_path(name[1], sizeof name[1], "b.s");
  asm_source src[2];
  char *text[2] = {NULL, NULL};
  for (size_t i = 0; i < np; i++) {
    text[i] = cstr(part[i]);
    src[i] = (asm_source){name[i], text[i]};
  }
  asm_options opt = {.relocatable = (int)(size & 1), .text_addr = ASM_DEFAULT_TEXT_ADDR};
  asm_object *o = NULL;
  asm_diags d = {0};
  vt_error e = {0};
  if (asm_assemble(src, (int)np, &opt, &o, &d, &e) == 0) {
    const uint8_t *bytes;
    uint32_t n, addr, v;
    (void)asm_section(o, ".text", &bytes, &n, &addr);
    (void)asm_symbol_value(o, "main", &v);
    char out[512];
    fz_path(out, sizeof out, "out.elf");
    if (asm_write_elf(o, out, &e)) {
      fprintf(stderr, "assembled, but the ELF was not written: %s\n", e.msg);
      abort();
    }
    vt_elf_file f;
    if (vt_elf_read_file(out, &f, &e)) {
      fprintf(stderr, "our own ELF is rejected by our reader: %s\n", e.msg);
      abort();
    }
    vt_elf_free(&f);
    fz_remove("out.elf");
    asm_free(o);
  } else {
    char line[512];
    for (int i = 0; i < d.n; i++) asm_diag_format(&d.v[i], line, sizeof line);
  }
  asm_diags_free(&d);
  free(text[0]);
  free(text[1]);
  return 0;
}
