/* `ventus cc`: OpenCL C to a Ventus ELF (docs/compiler.md). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#ifdef VT_HAVE_CC
#include "cc_load.h"
#include "vt_outfile.h"
#endif

static void usage(FILE *f) {
  fprintf(f,
          "usage: ventus cc [options] file.cl\n"
          "\n"
          "Compiles OpenCL C kernels (clang-19 front end, our Ventus back end) into an\n"
          "ELF that `ventus run` and the OpenCL platform load: the start-up code, the\n"
          "kernels, their argument metadata (.ventus.args.<kernel>), resources\n"
          "(.ventus.resource.<kernel>) and attributes (.ventus.attrs.<kernel>, for kernels\n"
          "declared with reqd_work_group_size, work_group_size_hint or vec_type_hint).\n"
          "  -o FILE          output file (default a.out; with -S: <name>.s; with -c: <name>.o)\n"
          "  -S               write the assembly of the kernels instead\n"
          "  -c               write a relocatable object of the kernels (no start-up code)\n"
          "  -D NAME[=VALUE]  define a macro\n"
          "  -I DIR           add DIR to the #include search path\n"
          "  -cl-std=VERSION  OpenCL C version: CL1.0, CL1.1, CL1.2 (default), CL2.0, CL3.0\n"
          "  -O0 .. -O3       optimisation level of clang's optimiser (default -O2)\n"
          "  -cl-*, -W*, -w   other OpenCL build options and warning flags, given to clang\n"
          "  --max-compile-seconds=N  stop a compilation that takes longer than N seconds\n"
          "                   (front end and back end together; default 120, 0 = none)\n"
          "  --max-compile-insns=N    refuse a kernel or function of more than N LLVM\n"
          "                   operations after inlining and optimisation (default 1000000,\n"
          "                   0 = none)\n"
          "  --isa REV        the device's ISA revision: base (default) or 2025, whose\n"
          "                   SEW-64 vector floats compute double (docs/compiler.md)\n"
          "  -h, --help       this text\n"
          "Diagnostics are clang's, unchanged. A construct the back end does not support\n"
          "is one error naming the source line. CHENGYING_CLANG names the clang to run\n"
          "(default clang-19); CHENGYING_CC_MAX_SECONDS and CHENGYING_CC_MAX_INSNS set\n"
          "the two budgets' defaults.\n"
          "Exit status: 0 compiled, 1 the program has errors, 2 usage, 4 input or other error.\n");
}

int cmd_cc(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    }
#ifndef VT_HAVE_CC
  fprintf(stderr, "ventus cc: this build has no OpenCL C compiler (LLVM 19 development files were not found "
                  "when it was configured: install llvm-19-dev and clang-19, and configure again)\n");
  return 4;
#else
  const char **cflags = calloc((size_t)argc * 2 + 1, sizeof *cflags);
  char **owned = calloc((size_t)argc + 1, sizeof *owned);
  const char *out = NULL, *in = NULL;
  int ncf = 0, nown = 0, asm_only = 0, obj = 0, opt = 2, rc = 2, isa = 0;
  double max_seconds = 0, max_insns = 0; /* 0: the default, < 0: none (cc.h) */
  if (!cflags || !owned) {
    rc = 4;
    goto done;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-S")) {
      asm_only = 1;
    } else if (!strcmp(a, "-c")) {
      obj = 1;
    } else if (!strcmp(a, "-o") || !strcmp(a, "-D") || !strcmp(a, "-I")) {
      if (i + 1 >= argc) {
        fprintf(stderr, "ventus cc: %s needs a value\n", a);
        goto done;
      }
      if (a[1] == 'o') {
        out = argv[++i];
      } else {
        char *s = malloc(strlen(argv[i + 1]) + 3);
        if (!s) {
          rc = 4;
          goto done;
        }
        sprintf(s, "-%c%s", a[1], argv[++i]);
        owned[nown++] = s;
        cflags[ncf++] = s;
      }
    } else if ((a[1] == 'D' || a[1] == 'I') && a[0] == '-' && a[2]) {
      cflags[ncf++] = a;
    } else if (!strncmp(a, "--max-compile-seconds=", 22) || !strncmp(a, "--max-compile-insns=", 20)) {
      const char *v = strchr(a, '=') + 1;
      char *end;
      double d = strtod(v, &end);
      if (!*v || *end || !(d >= 0) || d > 1e15) {
        fprintf(stderr, "ventus cc: %.*s needs a number (0 = none), not '%s'\n", (int)(v - a - 1), a, v);
        goto done;
      }
      *(a[14] == 's' ? &max_seconds : &max_insns) = d ? d : -1;
    } else if (!strcmp(a, "--isa") || !strncmp(a, "--isa=", 6)) {
      const char *v = a[5] == '=' ? a + 6 : i + 1 < argc ? argv[++i] : "";
      if (!strcmp(v, "2025")) isa = 2025;
      else if (!strcmp(v, "base") || !strcmp(v, "0")) isa = 0;
      else {
        fprintf(stderr, "ventus cc: --isa takes 2025 or base, not '%s'\n", v);
        goto done;
      }
    } else if (a[0] == '-' && a[1] == 'O' && a[2] >= '0' && a[2] <= '3' && !a[3]) {
      opt = a[2] - '0';
    } else if (!strncmp(a, "-cl-", 4) || (a[0] == '-' && a[1] == 'W') || !strcmp(a, "-w")) {
      cflags[ncf++] = a;
    } else if (a[0] == '-' && a[1]) {
      fprintf(stderr, "ventus cc: unknown option '%s' (see 'ventus cc --help')\n", a);
      goto done;
    } else if (in) {
      fprintf(stderr, "ventus cc: one input file at a time ('%s' and '%s')\n", in, a);
      goto done;
    } else {
      in = a;
    }
  }
  if (!in) {
    fprintf(stderr, "ventus cc: no input file (see 'ventus cc --help')\n");
    goto done;
  }
  if (asm_only && obj) {
    fprintf(stderr, "ventus cc: -S and -c exclude each other\n");
    goto done;
  }
  /* a missing or unreadable input is an input error, not a program error */
  struct stat st;
  FILE *probe = fopen(in, "r");
  if (!probe || fstat(fileno(probe), &st) || !S_ISREG(st.st_mode)) {
    if (probe) fprintf(stderr, "ventus cc: %s: not a regular file\n", in);
    else fprintf(stderr, "ventus cc: cannot open %s: %s\n", in, strerror(errno));
    if (probe) fclose(probe);
    rc = 4;
    goto done;
  }
  fclose(probe);
  char defout[4096];
  if (!out) {
    if (asm_only || obj) {
      const char *base = strrchr(in, '/');
      base = base ? base + 1 : in;
      const char *dot = strrchr(base, '.');
      int l = dot ? (int)(dot - base) : (int)strlen(base);
      snprintf(defout, sizeof defout, "%.*s.%s", l, base, asm_only ? "s" : "o");
      out = defout;
    } else {
      out = "a.out";
    }
  }
  /* the ELF would replace the source (same file, whatever the spelling), as ventus as refuses too */
  struct stat so;
  if (!stat(out, &so) && so.st_dev == st.st_dev && so.st_ino == st.st_ino) {
    fprintf(stderr, "ventus cc: output file '%s' is the input file '%s'\n", out, in);
    goto done;
  }
  cc_options o = {cflags, ncf, opt, 0, max_seconds, (long)max_insns, isa};
  char *text = NULL, *log = NULL;
  vt_error e = {0};
  cc_api cc;
  int r = cc_load(&cc, &e);
  if (!r) r = cc.compile(in, NULL, &o, &text, &log, &e);
  if (log) fputs(log, stderr);
  free(log);
  if (!r && asm_only) {
    vt_outfile of;
    FILE *fo = vt_outfile_fopen(&of, out, &e);
    if (!fo) {
      r = -1;
    } else {
      int bad = fputs(text, fo) < 0;
      bad |= fclose(fo) != 0;
      if (bad) vt_fail(&e, VT_ERR_IO, "cannot write %s", out);
      r = vt_outfile_finish(&of, bad, bad ? NULL : &e) || bad ? -1 : 0;
    }
  } else if (!r) {
    r = cc.link_file(text, obj, isa, out, &e);
  }
  cc_unload(&cc);
  free(text);
  if (r) {
    fprintf(stderr, "ventus cc: %s\n", e.msg);
    rc = e.kind == VT_ERR_ASM ? 1 : vt_err_exit_code(e.kind);
  } else {
    rc = 0;
  }
done:
  for (int i = 0; i < nown; i++) free(owned[i]);
  free(owned);
  free(cflags);
  return rc;
#endif
}
