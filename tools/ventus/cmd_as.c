/* `ventus as`: assemble GNU-as style Ventus assembly into ELF32. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "commands.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ventus as [-o out] [-c] [--text-addr A] file.S...\n"
          "\n"
          "Assembles the files as one unit (like GNU as) into an ELF32 RISC-V file.\n"
          "  -o FILE          output file (default a.out)\n"
          "  -c               write a relocatable object (.rela sections) instead of an executable\n"
          "  --text-addr A    executables: address of the first code section (default 0x80000000);\n"
          "                   read-only data follows at the next 4 KiB page, then .data/.bss\n"
          "  -h, --help       this text\n"
          "Entry point: _start if defined, else the start of the code.\n");
}

int cmd_as(int argc, char **argv) {
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 50};
  const char *out = "a.out";
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  int nfiles = 0;
  if (!files) return 4;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      free(files);
      return 0;
    } else if (!strcmp(a, "-c")) {
      opt.relocatable = 1;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--text-addr")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "ventus as: %s needs a value\n", a);
        free(files);
        return 2;
      }
      const char *v = argv[++i];
      if (a[1] == 'o') {
        out = v;
      } else {
        char *end;
        unsigned long long x = strtoull(v, &end, 0);
        if (*end || !*v || x > 0xffffffffull || (x & 3)) {
          fprintf(stderr, "ventus as: bad --text-addr '%s' (a 4-byte aligned 32-bit address)\n", v);
          free(files);
          return 2;
        }
        opt.text_addr = (uint32_t)x;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ventus as: unknown option '%s' (see 'ventus as --help')\n", a);
      free(files);
      return 2;
    } else {
      files[nfiles++] = a;
    }
  }
  if (!nfiles) {
    fprintf(stderr, "ventus as: no input files (see 'ventus as --help')\n");
    free(files);
    return 2;
  }
  asm_diags d = {0};
  vt_error e = {0};
  int rc = asm_assemble_files(files, nfiles, &opt, out, &d, &e);
  free(files);
  if (rc) {
    if (d.n) {
      char line[512];
      for (int i = 0; i < d.n; i++) {
        asm_diag_format(&d.v[i], line, sizeof line);
        fprintf(stderr, "ventus as: %s\n", line);
      }
      if (d.dropped) fprintf(stderr, "ventus as: %d more error(s) not shown\n", d.dropped);
    } else {
      fprintf(stderr, "ventus as: %s\n", e.msg);
    }
    asm_diags_free(&d);
    return e.kind == VT_ERR_ASM ? 1 : vt_err_exit_code(e.kind);
  }
  asm_diags_free(&d);
  return 0;
}
