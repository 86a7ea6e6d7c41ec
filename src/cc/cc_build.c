/* Building a program from source in memory, for the OpenCL platform's
 * clBuildProgram: the build options are split and checked, the source
 * compiled, the result linked into an ELF image in memory, and clang's
 * diagnostics plus our own error line form the build log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc.h"
#include "cc_budget.h"
#include "cc_front.h"
#include "cc_internal.h"
#include "vt_file.h"

/* OpenCL build options that clang takes as they are, or that mean an
 * optimisation level */
static int known_option(const char *o, int *opt) {
  if (!strcmp(o, "-cl-opt-disable")) {
    *opt = 0;
    return 0;
  }
  if (!strncmp(o, "-D", 2) || !strncmp(o, "-I", 2) || !strncmp(o, "-cl-", 4) || !strncmp(o, "-W", 2) ||
      !strcmp(o, "-w") || !strcmp(o, "-Werror"))
    return 1;
  if (o[0] == '-' && o[1] == 'O' && o[2] >= '0' && o[2] <= '3' && !o[3]) {
    *opt = o[2] - '0';
    return 0;
  }
  return -1;
}

/* -ventus-max-compile-seconds=N / -ventus-max-compile-insns=N (N >= 0,
 * 0 = none): the budget (cc_budget.h) into o; 1 if w is not one of them */
static int budget_option(const char *w, cc_options *o, vt_error *e) {
  static const char sec[] = "-ventus-max-compile-seconds=", ins[] = "-ventus-max-compile-insns=";
  int is_sec = !strncmp(w, sec, sizeof sec - 1);
  if (!is_sec && strncmp(w, ins, sizeof ins - 1)) return 1;
  const char *v = w + (is_sec ? sizeof sec : sizeof ins) - 1;
  char *end;
  double d = strtod(v, &end);
  if (!*v || *end || !(d >= 0) || d > 1e15)
    return vt_fail(e, VT_ERR_USAGE, "build option %.*s needs a number of %s (0 = none), not '%s'",
                   (int)(v - w - 1), w, is_sec ? "seconds" : "operations", v);
  if (is_sec) o->max_seconds = d ? d : -1;
  else o->max_insns = d ? (long)d : -1;
  return 0;
}

/* Splits and checks OpenCL build options into clang flags (pointing into
 * *buf, both malloc'd), an optimisation level and the budget (in *o);
 * extra (may be NULL) is one more flag appended, e.g. the -I of
 * clCompileProgram's headers. */
static int parse_options(const char *options, const char *extra, char **buf, const char ***flags, int *nf, int *opt,
                         cc_options *o, vt_error *e) {
  size_t ol = options ? strlen(options) : 0;
  *buf = malloc(ol + 1);
  *flags = calloc(ol / 2 + 3, sizeof **flags);
  *nf = 0;
  *opt = 2;
  if (!*buf || !*flags) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  memcpy(*buf, options ? options : "", ol + 1);
  /* words separated by blanks; "-D X" and "-I DIR" take the next word */
  for (char *save = NULL, *w = strtok_r(*buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
    if ((!strcmp(w, "-D") || !strcmp(w, "-I"))) {
      char *v = strtok_r(NULL, " \t\n", &save);
      if (!v) return vt_fail(e, VT_ERR_USAGE, "build option %s needs a value", w);
      v[-1] = w[1]; /* "-D" "X" -> "DX" in place, after the '-' one byte back */
      v[-2] = '-';
      (*flags)[(*nf)++] = v - 2;
      continue;
    }
    int bo = budget_option(w, o, e);
    if (bo < 0) return -1;
    if (!bo) continue;
    if (!strncmp(w, "-ventus-isa=", 12)) { /* the device's ISA revision, which the platform appends */
      if (strcmp(w + 12, "2025") && strcmp(w + 12, "base") && strcmp(w + 12, "0"))
        return vt_fail(e, VT_ERR_USAGE, "build option -ventus-isa takes 2025 or base, not '%s'", w + 12);
      o->isa = strcmp(w + 12, "2025") ? 0 : 2025;
      continue;
    }
    int k = known_option(w, opt);
    if (k < 0) return vt_fail(e, VT_ERR_USAGE, "unknown build option '%s'", w);
    if (k) (*flags)[(*nf)++] = w;
  }
  if (extra) (*flags)[(*nf)++] = extra;
  return 0;
}

/* assembly text after the start-up code, as an executable image in memory */
static int image_of(const char *text, int isa, uint8_t **elf, size_t *elf_size, vt_error *e) {
  char path[4096];
  const char *tmp = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/ventus-cc-XXXXXX.elf", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemps(path, 4);
  if (fd < 0) return vt_fail(e, VT_ERR_IO, "cannot create a temporary file for the program");
  close(fd);
  int rc = -1;
  if (!cc_link_file(text, 0, isa, path, e)) {
    size_t n;
    char *img = vt_read_file(path, &n, e);
    if (img) {
      *elf = (uint8_t *)img;
      *elf_size = n;
      rc = 0;
    }
  }
  unlink(path);
  return rc;
}

/* the log: clang's diagnostics, then our line if the build failed */
static char *make_log(const char *clog, int failed, const vt_error *e) {
  size_t cl = clog ? strlen(clog) : 0, el = failed ? strlen(e->msg) + 1 : 0;
  char *log = malloc(cl + el + 1);
  if (log) {
    memcpy(log, clog ? clog : "", cl);
    if (el) {
      memcpy(log + cl, e->msg, el - 1);
      log[cl + el - 1] = '\n';
    }
    log[cl + el] = 0;
  }
  return log;
}

int cc_build(const char *source, const char *options, uint8_t **elf, size_t *elf_size, char **log, vt_error *e) {
  *elf = NULL;
  *elf_size = 0;
  char *buf = NULL, *text = NULL, *clog = NULL;
  const char **flags = NULL;
  int nf, opt, rc = -1;
  cc_options o = {.allow_empty = 1};
  if (!parse_options(options, NULL, &buf, &flags, &nf, &opt, &o, e)) {
    o.cflags = flags;
    o.ncflags = nf;
    o.opt = opt;
    if (!cc_compile(NULL, source, &o, &text, &clog, e) && !image_of(text, o.isa, elf, elf_size, e)) rc = 0;
  }
  *log = make_log(clog, rc, e);
  free(clog);
  free(text);
  free(buf);
  free(flags);
  return rc;
}

int cc_compile_object(const char *source, const char *options, const char *incdir, uint8_t **obj, size_t *obj_size,
                      char **log, vt_error *e) {
  *obj = NULL;
  *obj_size = 0;
  char *buf = NULL, *clog = NULL, *bc = NULL, inc[4200] = "";
  const char **flags = NULL;
  int nf, opt, rc = -1;
  if (incdir) snprintf(inc, sizeof inc, "-I%s", incdir);
  cc_options o = {.allow_empty = 1};
  if (!parse_options(options, incdir ? inc : NULL, &buf, &flags, &nf, &opt, &o, e)) {
    o.cflags = flags;
    o.ncflags = nf;
    o.opt = opt;
    size_t n = 0;
    cc_budget b;
    cc_budget_start(&b, &o);
    /* at -O2/-O3 unoptimised: clang's passes run at link time, bounded (cc_optimise.c) */
    if (!cc_run_clang_by(NULL, source, &o, &b, cc_front_raw(o.opt), &bc, &n, &clog, e)) {
      *obj = (uint8_t *)bc;
      *obj_size = n;
      rc = 0;
    }
  }
  *log = make_log(clog, rc, e);
  free(clog);
  free(buf);
  free(flags);
  return rc;
}

int cc_link_objects(const uint8_t *const *objs, const size_t *sizes, int n, const char *options, int library,
                    uint8_t **out, size_t *out_size, char **log, vt_error *e) {
  *out = NULL;
  *out_size = 0;
  char *buf = NULL, *text = NULL;
  const char **flags = NULL;
  int nf, opt, rc = -1;
  cc_options o = {.allow_empty = 1};
  if (!parse_options(options, NULL, &buf, &flags, &nf, &opt, &o, e)) {
    o.cflags = flags;
    o.ncflags = nf;
    o.opt = opt;
    if (library) rc = cc_link_bitcode((const char *const *)objs, sizes, n, out, out_size, e);
    else if (!cc_compile_bitcode((const char *const *)objs, sizes, n, &o, "linked program", &text, e) &&
             !image_of(text, o.isa, out, out_size, e))
      rc = 0;
  }
  *log = make_log(NULL, rc, e);
  free(text);
  free(buf);
  free(flags);
  return rc;
}
