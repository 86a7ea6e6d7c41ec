/* `ventus as`: assemble GNU-as style Ventus assembly into ELF32. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "asm.h"
#include "isa.h"
#include "commands.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: ventus as [-o out] [-c] [--text-addr A] [--isa REV] [-I dir] [-D name[=value]] file.S...\n"
          "\n"
          "Assembles the files as one unit (like GNU as) into an ELF32 RISC-V file.\n"
          "  -o FILE          output file (default a.out)\n"
          "  -c               write a relocatable object (.rela sections) instead of an executable\n"
          "  --text-addr A    executables: address of the first code section (default 0x80000000);\n"
          "                   read-only data follows at the next 4 KiB page, then .data/.bss\n"
          "  --isa REV        ISA revision: base (default, the upstream encodings) or 2025 (the\n"
          "                   seed manual's extensions; docs/isa-extensions.md)\n"
          "  -I DIR           add DIR to the .include/#include search path (after the\n"
          "                   including file's directory)\n"
          "  -D NAME[=VALUE]  define a preprocessor macro for .S/.sx files (VALUE defaults to 1)\n"
          "  -h, --help       this text\n"
          "Entry point: _start if defined, else the start of the code.\n");
}

int cmd_as(int argc, char **argv) {
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 50, 0};
  const char *out = "a.out";
  const char **files = calloc((size_t)argc + 1, sizeof *files);
  const char **incs = calloc((size_t)argc + 1, sizeof *incs);
  const char **defs = calloc((size_t)argc + 1, sizeof *defs);
  int nfiles = 0, nincs = 0, ndefs = 0, rc = 2;
  if (!files || !incs || !defs) {
    rc = 4;
    goto done;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage(stdout);
      rc = 0;
      goto done;
    } else if (!strcmp(a, "-c")) {
      opt.relocatable = 1;
    } else if ((a[0] == '-' && (a[1] == 'I' || a[1] == 'D') && a[2])) {
      if (a[1] == 'I') incs[nincs++] = a + 2;
      else defs[ndefs++] = a + 2;
    } else if (!strcmp(a, "--isa")) {
      isa_rev r;
      if (i + 1 >= argc || isa_parse_rev(argv[i + 1], &r)) {
        fprintf(stderr, "ventus as: --isa needs a revision: base or 2025\n");
        goto done;
      }
      opt.isa_rev = (int)r;
      i++;
    } else if (!strcmp(a, "-o") || !strcmp(a, "--text-addr") || !strcmp(a, "-I") || !strcmp(a, "-D")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "ventus as: %s needs a value\n", a);
        goto done;
      }
      const char *v = argv[++i];
      if (a[1] == 'o') {
        out = v;
      } else if (a[1] == 'I') {
        incs[nincs++] = v;
      } else if (a[1] == 'D') {
        defs[ndefs++] = v;
      } else {
        char *end;
        unsigned long long x = strtoull(v, &end, 0);
        if (*end || !*v || x > 0xffffffffull || (x & 3)) {
          fprintf(stderr, "ventus as: bad --text-addr '%s' (a 4-byte aligned 32-bit address)\n", v);
          goto done;
        }
        opt.text_addr = (uint32_t)x;
      }
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ventus as: unknown option '%s' (see 'ventus as --help')\n", a);
      goto done;
    } else {
      files[nfiles++] = a;
    }
  }
  if (!nfiles) {
    fprintf(stderr, "ventus as: no input files (see 'ventus as --help')\n");
    goto done;
  }
  /* the ELF would replace a source (same file, whatever the spelling) */
  struct stat so;
  if (!stat(out, &so))
    for (int i = 0; i < nfiles; i++) {
      struct stat si;
      if (!stat(files[i], &si) && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
        fprintf(stderr, "ventus as: output file '%s' is the input file '%s'\n", out, files[i]);
        goto done;
      }
    }
  asm_pp_options pp = {incs, nincs, defs, ndefs};
  asm_diags d = {0};
  vt_error e = {0};
  rc = asm_assemble_files_ex(files, nfiles, &opt, &pp, out, &d, &e);
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
    rc = e.kind == VT_ERR_ASM ? 1 : vt_err_exit_code(e.kind);
  }
  asm_diags_free(&d);
done:
  free(files);
  free(incs);
  free(defs);
  return rc;
}
