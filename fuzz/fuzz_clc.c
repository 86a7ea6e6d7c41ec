/* OpenCL C source through the whole compiler as clBuildProgram calls it
 * (cc_build: clang-19's front end, LLVM's passes, our back end, the
 * assembler and linker), the image then read back by our ELF reader and
 * by the platform (clCreateProgramWithBinary, clBuildProgram: the kernel
 * metadata reader, then every kernel's argument info). The input is the
 * source; after a NUL byte, build options (at most 200 bytes). The
 * compile budget is small (MAX_SECONDS, MAX_INSNS, appended last so it
 * wins) to keep one input well under libFuzzer's -timeout. A build that
 * succeeds yields an image both readers accept; one that fails yields a
 * non-empty log and error message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_load.h"
#include "fuzz_util.h"
#include "fz_cl.h"
#include "vt_elf.h"

#define MAX_SOURCE 16384
#define MAX_OPTIONS 200
/* "-DFZ" first: a trailing -D or -I of the input takes it as its value */
#define BUDGET " -DFZ -ventus-max-compile-seconds=3 -ventus-max-compile-insns=20000"

static _Noreturn void fail(const char *what, const char *detail) {
  fprintf(stderr, "fuzz_clc: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  abort();
}

/* the image through the platform's reader of binaries and metadata */
static void check_image(const uint8_t *img, size_t n) {
  static cl_context ctx;
  if (!ctx) ctx = fz_cl_context();
  vt_elf_file f;
  vt_error e = {0};
  if (vt_elf_read_mem(img, n, &f, &e)) fail("our ELF reader refuses the compiler's image", e.msg);
  vt_elf_free(&f);
  cl_int rc;
  cl_program p = fz_cl_program(ctx, img, n, &rc);
  if (!p) {
    char msg[32];
    snprintf(msg, sizeof msg, "%d", rc);
    fail("the platform refuses the compiler's image", msg);
  }
  cl_uint nk = 0;
  cl_kernel ks[16];
  rc = clCreateKernelsInProgram(p, 16, ks, &nk);
  if (rc && rc != CL_INVALID_VALUE) fail("clCreateKernelsInProgram of a compiled program", NULL);
  for (cl_uint i = 0; !rc && i < nk; i++) {
    cl_uint nargs = 0;
    char name[128];
    if (clGetKernelInfo(ks[i], CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL))
      fail("a compiled kernel without CL_KERNEL_NUM_ARGS", NULL);
    for (cl_uint a = 0; a < nargs; a++)
      if (clGetKernelArgInfo(ks[i], a, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, NULL) &&
          clGetKernelArgInfo(ks[i], a, CL_KERNEL_ARG_TYPE_NAME, 0, NULL, NULL))
        fail("an argument of a compiled kernel without its type", NULL);
    clReleaseKernel(ks[i]);
  }
  clReleaseProgram(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static cc_api cc;
  static int loaded;
  if (!loaded) {
    vt_error e = {0};
    if (cc_load(&cc, &e)) fail("the compiler does not load", e.msg);
    loaded = 1;
  }
  if (size > MAX_SOURCE) return 0;
  fz_part part[2];
  size_t np = fz_split(data, size, part, 2);
  if (np > 1 && part[1].n > MAX_OPTIONS) return 0;
  char *src = malloc(part[0].n + 1), opts[MAX_OPTIONS + sizeof BUDGET];
  if (!src) abort();
  memcpy(src, part[0].p, part[0].n);
  src[part[0].n] = 0;
  size_t no = np > 1 ? part[1].n : 0;
  if (no) memcpy(opts, part[1].p, no);
  memcpy(opts + no, BUDGET, sizeof BUDGET);
  if (memchr(opts, 0, no)) { /* a second NUL: the options end there */
    size_t k = strlen(opts);
    memcpy(opts + k, BUDGET, sizeof BUDGET);
  }
  uint8_t *img = NULL;
  size_t n = 0;
  char *log = NULL;
  vt_error e = {0};
  int rc = cc.build(src, opts, &img, &n, &log, &e);
  if (rc) {
    if (img) fail("a failed build returned an image", NULL);
    if (!e.msg[0]) fail("a failed build without an error message", NULL);
    if (!log || !log[0]) fail("a failed build with an empty log", e.msg);
  } else {
    if (!img || !n) fail("a successful build without an image", NULL);
    check_image(img, n);
  }
  free(img);
  free(log);
  free(src);
  return 0;
}
