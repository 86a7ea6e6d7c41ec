/* Building a program from source in memory, for the OpenCL platform's
 * clBuildProgram: the build options are split and checked, the source
 * compiled, the result linked into an ELF image in memory, and clang's
 * diagnostics plus our own error line form the build log. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc.h"
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

int cc_build(const char *source, const char *options, uint8_t **elf, size_t *elf_size, char **log, vt_error *e) {
  *elf = NULL;
  *elf_size = 0;
  *log = NULL;
  size_t ol = options ? strlen(options) : 0;
  char *buf = malloc(ol + 1);
  const char **flags = calloc(ol / 2 + 2, sizeof *flags);
  char *text = NULL, *clog = NULL, path[4096] = "";
  int rc = -1, opt = 2, nf = 0;
  if (!buf || !flags) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    goto done;
  }
  memcpy(buf, options ? options : "", ol + 1);
  /* words separated by blanks; "-D X" and "-I DIR" take the next word */
  for (char *save = NULL, *w = strtok_r(buf, " \t\n", &save); w; w = strtok_r(NULL, " \t\n", &save)) {
    if ((!strcmp(w, "-D") || !strcmp(w, "-I"))) {
      char *v = strtok_r(NULL, " \t\n", &save);
      if (!v) {
        vt_fail(e, VT_ERR_USAGE, "build option %s needs a value", w);
        goto done;
      }
      v[-1] = w[1]; /* "-D" "X" -> "DX" in place, after the '-' one byte back */
      v[-2] = '-';
      flags[nf++] = v - 2;
      continue;
    }
    int k = known_option(w, &opt);
    if (k < 0) {
      vt_fail(e, VT_ERR_USAGE, "unknown build option '%s'", w);
      goto done;
    }
    if (k) flags[nf++] = w;
  }
  cc_options o = {flags, nf, opt, 1};
  int c = cc_compile(NULL, source, &o, &text, &clog, e);
  if (c) goto done;
  const char *tmp = getenv("TMPDIR");
  snprintf(path, sizeof path, "%s/ventus-cc-XXXXXX.elf", tmp && *tmp ? tmp : "/tmp");
  int fd = mkstemps(path, 4);
  if (fd < 0) {
    vt_fail(e, VT_ERR_IO, "cannot create a temporary file for the program");
    *path = 0;
    goto done;
  }
  close(fd);
  if (cc_link_file(text, 0, path, e)) goto done;
  size_t n;
  char *img = vt_read_file(path, &n, e);
  if (!img) goto done;
  *elf = (uint8_t *)img;
  *elf_size = n;
  rc = 0;
done:
  if (*path) unlink(path);
  /* the log: clang's diagnostics, then our line if the build failed */
  size_t cl = clog ? strlen(clog) : 0, el = rc ? strlen(e->msg) + 1 : 0;
  *log = malloc(cl + el + 1);
  if (*log) {
    memcpy(*log, clog ? clog : "", cl);
    if (el) {
      memcpy(*log + cl, e->msg, el - 1);
      (*log)[cl + el - 1] = '\n';
    }
    (*log)[cl + el] = 0;
  }
  free(clog);
  free(text);
  free(buf);
  free(flags);
  return rc;
}
