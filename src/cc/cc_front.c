/* The front end: clang-19 run as a program. OpenCL C to LLVM bitcode for
 * the `spir` target (32-bit pointers, the OpenCL address spaces numbered
 * 0 private, 1 global, 2 constant, 3 local) with the default OpenCL
 * header, kernel-argument metadata and line tables. Its diagnostics are
 * collected unchanged. (Why a program and not libclang: docs/compiler.md.) */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cc_budget.h"
#include "cc_front.h"
#include "vt_file.h"

extern char **environ;

static const char *tmpdir(void) {
  const char *t = getenv("TMPDIR");
  return t && *t ? t : "/tmp";
}

static int make_temp(char *buf, size_t len, const char *suffix, vt_error *e) {
  snprintf(buf, len, "%s/ventus-cc-XXXXXX%s", tmpdir(), suffix);
  int fd = mkstemps(buf, (int)strlen(suffix));
  if (fd < 0) return vt_fail(e, VT_ERR_IO, "cannot create a temporary file in %s: %s", tmpdir(), VT_STRERROR(errno));
  return fd;
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* runs clang with its stderr collected in *log (up to 1 MiB, the rest
 * drained; *len bytes) and its wait status in *st; past b's deadline it is
 * killed and *late set */
static int spawn(const char *clang, const char *const *argv, const cc_budget *b, char **log, size_t *len, int *st,
                 int *late, vt_error *e) {
  int pfd[2];
  if (pipe(pfd)) return vt_fail(e, VT_ERR_IO, "cannot run %s: %s", clang, VT_STRERROR(errno));
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pfd[1], 2);
  posix_spawn_file_actions_addclose(&fa, pfd[0]);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid;
  int se = posix_spawnp(&pid, clang, &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pfd[1]);
  if (se) {
    close(pfd[0]);
    return vt_fail(e, VT_ERR_IO, "cannot run the OpenCL C front end '%s': %s (install clang-19, or set CHENGYING_CLANG)",
                   clang, VT_STRERROR(se));
  }
  size_t cap = 0;
  char buf[4096];
  *len = 0;
  for (;;) {
    double left = cc_budget_left(b);
    struct pollfd pf = {pfd[0], POLLIN, 0};
    int pr = left <= 0 ? 0 : poll(&pf, 1, left > 3.6e6 ? 3600000 : (int)(left * 1000) + 1);
    if (pr < 0 && errno == EINTR) continue;
    if (pr == 0 && cc_budget_left(b) <= 0) { /* the budget is spent: clang ends here, not at its leisure */
      kill(pid, SIGKILL);
      *late = 1;
      break;
    }
    if (pr == 0) continue;
    ssize_t r = read(pfd[0], buf, sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    if (*len + (size_t)r + 1 > cap && *len < (1u << 20)) {
      size_t nc = cap ? cap * 2 : 8192;
      while (nc < *len + (size_t)r + 1) nc *= 2;
      char *p = realloc(*log, nc);
      if (!p) continue;
      *log = p;
      cap = nc;
    }
    if (*len + (size_t)r + 1 <= cap) {
      memcpy(*log + *len, buf, (size_t)r);
      *len += (size_t)r;
      (*log)[*len] = 0;
    }
  }
  close(pfd[0]);
  while (waitpid(pid, st, 0) < 0 && errno == EINTR) {
  }
  return 0;
}

int cc_run_clang(const char *path, const char *text, const cc_options *o, char **bc, size_t *bclen, char **log,
                 vt_error *e) {
  cc_budget b;
  cc_budget_start(&b, o);
  return cc_run_clang_by(path, text, o, &b, 0, bc, bclen, log, e);
}

int cc_run_clang_by(const char *path, const char *text, const cc_options *o, const cc_budget *b, int raw, char **bc,
                    size_t *bclen, char **log, vt_error *e) {
  char src[4096] = "", out[4096], hdr[4096] = "";
  int rc = -1;
  const char **argv = NULL;
  *bc = NULL;
  *log = NULL;
  int ofd = make_temp(out, sizeof out, ".bc", e);
  if (ofd < 0) return -1;
  close(ofd);
  if (text) {
    int sfd = make_temp(src, sizeof src, ".cl", e);
    if (sfd < 0) goto done;
    /* diagnostics and line tables name the program's source, not this file */
    if (write_all(sfd, CC_SOURCE_LINE, strlen(CC_SOURCE_LINE)) || write_all(sfd, text, strlen(text))) {
      close(sfd);
      vt_fail(e, VT_ERR_IO, "cannot write %s: %s", src, VT_STRERROR(errno));
      goto done;
    }
    close(sfd);
  }
  const char *clang = getenv("CHENGYING_CLANG");
  if (!clang || !*clang) clang = "clang-19";
  /* every user flag reaches clang: the vector is sized for them */
  argv = malloc(sizeof *argv * ((size_t)o->ncflags + 32));
  if (!argv) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    goto done;
  }
  int n = 0, has_std = 0, cxx = 0;
  char optflag[8];
  snprintf(optflag, sizeof optflag, "-O%d", o->opt);
  argv[n++] = clang;
  argv[n++] = "-x";
  argv[n++] = "cl";
  for (int i = 0; i < o->ncflags; i++)
    if (!strncmp(o->cflags[i], "-cl-std=", 8)) {
      has_std = 1;
      cxx = strstr(o->cflags[i], "++") != NULL; /* C++ for OpenCL: its inline is C++'s */
    }
  if (!has_std) argv[n++] = "-cl-std=CL1.2";
  argv[n++] = "-target";
  argv[n++] = "spir";
  argv[n++] = "-emit-llvm";
  argv[n++] = "-c";
  argv[n++] = optflag;
  if (!o->opt) { /* -O0 would mark every function optnone: our passes must still run */
    argv[n++] = "-Xclang";
    argv[n++] = "-disable-O0-optnone";
  } else if (raw) { /* the IR of -On, but its passes run in our process (cc_optimise.c) */
    argv[n++] = "-Xclang";
    argv[n++] = "-disable-llvm-passes";
  }
  /* one work-item per lane: LLVM's own vectorisers would only build
   * vectors that the back end has to split again */
  argv[n++] = "-fno-vectorize";
  argv[n++] = "-fno-slp-vectorize";
  argv[n++] = "-cl-kernel-arg-info";
  /* the device's OpenCL version (clang leaves __OPENCL_VERSION__ to the
   * platform); __IMAGE_SUPPORT__ is clang's spir target's, and true
   * (images in software, cc_lower_image.c) */
  argv[n++] = "-D__OPENCL_VERSION__=120";
  /* without double in the source, as for a device without fp64: clang
   * then demotes unsuffixed constants (0.5, M_PI) to float (cc_front_fp64.c) */
  static const char no_fp64[] = "-cl-ext=-cl_khr_fp64,-__opencl_c_fp64", fp64[] = "-cl-ext=+cl_khr_fp64,+__opencl_c_fp64";
  char *file_text = text ? NULL : vt_read_file(path, &(size_t){0}, &(vt_error){0});
  int uses_double = cc_front_uses_double(text ? text : file_text);
  free(file_text);
  argv[n++] = "-Xclang";
  int ext = n;
  argv[n++] = uses_double ? fp64 : no_fp64;
  /* a C99 inline function without an external definition would leave a
   * call to a missing body where clang does not inline it: as pocl does,
   * the keyword goes, so every such function keeps its body; a section
   * marks them for linking (cc_inline.c) */
  if (!cxx) argv[n++] = "-Dinline=__attribute__((section(\"" CC_INLINE_SECTION "\")))";
  argv[n++] = "-gline-tables-only";
  argv[n++] = "-fno-color-diagnostics";
  for (int i = 0; i < o->ncflags; i++) argv[n++] = o->cflags[i];
  int tail = n; /* -o out input: the prelude's -include goes before them on a retry */
  argv[n++] = "-o";
  argv[n++] = out;
  argv[n++] = text ? src : path;
  argv[n] = NULL;
  int st, late = 0;
  size_t len;
  if (spawn(clang, argv, b, log, &len, &st, &late, e)) goto done;
  if (!late && (!WIFEXITED(st) || WEXITSTATUS(st)) && cc_front_wants_prelude(*log)) {
    /* an OpenCL C 2.0 builtin called in 1.x (ctz): again with its declarations */
    int hfd = make_temp(hdr, sizeof hdr, ".h", e);
    if (hfd < 0) goto done;
    if (write_all(hfd, cc_prelude, strlen(cc_prelude))) {
      close(hfd);
      vt_fail(e, VT_ERR_IO, "cannot write %s: %s", hdr, VT_STRERROR(errno));
      goto done;
    }
    close(hfd);
    memmove(argv + tail + 2, argv + tail, 4 * sizeof *argv);
    argv[tail] = "-include";
    argv[tail + 1] = hdr;
    free(*log);
    *log = NULL;
    if (spawn(clang, argv, b, log, &len, &st, &late, e)) goto done;
  }
  if (!late && (!WIFEXITED(st) || WEXITSTATUS(st)) && !uses_double && cc_front_wants_double(*log)) {
    /* double from a header: again with cl_khr_fp64 */
    argv[ext] = fp64;
    free(*log);
    *log = NULL;
    if (spawn(clang, argv, b, log, &len, &st, &late, e)) goto done;
  }
  if (late) {
    vt_fail(e, VT_ERR_CONFIG,
            "%s: the OpenCL C front end '%s' ran past the compile-time budget of %g s and was stopped (" CC_BUDGET_HOW_SECONDS
            ")",
            text ? CC_SOURCE_NAME : path, clang, b->seconds);
    goto done;
  }
  if (!WIFEXITED(st) || WEXITSTATUS(st)) {
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
      vt_fail(e, VT_ERR_IO, "cannot run the OpenCL C front end '%s' (install clang-19, or set CHENGYING_CLANG)", clang);
    else if (WIFSIGNALED(st))
      vt_fail(e, VT_ERR_ASM, "%s: the OpenCL C front end '%s' was killed by signal %d (%s)", text ? CC_SOURCE_NAME : path,
              clang, WTERMSIG(st), strsignal(WTERMSIG(st)));
    else if (!len) /* nothing above to point at */
      vt_fail(e, VT_ERR_ASM, "%s: the OpenCL C front end '%s' failed (exit status %d) without printing a diagnostic",
              text ? CC_SOURCE_NAME : path, clang, WEXITSTATUS(st));
    else
      cc_front_failure(*log, clang, text ? CC_SOURCE_NAME : path, e);
    goto done;
  }
  *bc = vt_read_file(out, bclen, e);
  if (!*bc) goto done;
  rc = 0;
done:
  free(argv);
  unlink(out);
  if (*src) unlink(src);
  if (*hdr) unlink(hdr);
  return rc;
}
