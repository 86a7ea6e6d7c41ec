/* What a failed clBuildProgram/clCompileProgram says (issue 21): a build
 * option the front end rejects is CL_INVALID_BUILD_OPTIONS
 * (CL_INVALID_COMPILER_OPTIONS for clCompileProgram; OpenCL 1.2 §5.6.2),
 * not a build failure; the log names the source as "<program source>"
 * with its line, never the compiler's temporary file; `double` data
 * builds (software cl_khr_fp64), and a back-end refusal carries its line too (the kernel's when it has no
 * instruction of its own). */
#include "cl_test.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static char logbuf[16384];

static const char *build_log(cl_program p) {
  logbuf[0] = 0;
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof logbuf, logbuf, NULL));
  return logbuf;
}

/* builds src with options: the error code, the log in logbuf */
static cl_int build(const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  cl_int rc = clBuildProgram(p, 1, &dev, options, NULL, NULL);
  build_log(p);
  CHECK(clReleaseProgram(p));
  return rc;
}

static void expect_in_log(const char *what) {
  if (!strstr(logbuf, what)) {
    fprintf(stderr, "the build log lacks \"%s\":\n%s\n", what, logbuf);
    cy_failures++;
  }
  if (strstr(logbuf, "ventus-cc-")) {
    fprintf(stderr, "the build log names a temporary file:\n%s\n", logbuf);
    cy_failures++;
  }
}

static const char *ok_src = "__kernel void k(__global int *p) { p[get_global_id(0)] = 1; }\n";

int main(void) {
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;

  /* options clang rejects: the driver's unknown argument, cc1's bad value */
  EXPECT_ERR(build(ok_src, "-cl-nv-verbose"), CL_INVALID_BUILD_OPTIONS);
  expect_in_log("unknown argument: '-cl-nv-verbose'");
  EXPECT_ERR(build(ok_src, "-cl-std=CL9.9"), CL_INVALID_BUILD_OPTIONS);
  expect_in_log("-cl-std=CL9.9");
  /* a source error is still a build failure, named by line */
  EXPECT_ERR(build("\n\n__kernel void k(__global int *p) { p[0] = nope; }\n", "-cl-mad-enable"), CL_BUILD_PROGRAM_FAILURE);
  expect_in_log("<program source>:3:");
  expect_in_log("use of undeclared identifier 'nope'");

  /* clCompileProgram: the same option is an invalid compiler option */
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &ok_src, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clCompileProgram(p, 1, &dev, "-cl-nv-verbose", 0, NULL, NULL, NULL, NULL), CL_INVALID_COMPILER_OPTIONS);
  build_log(p);
  expect_in_log("unknown argument: '-cl-nv-verbose'");
  CHECK(clReleaseProgram(p));

  /* `double` data: built with cl_khr_fp64 (software double), no pragma needed */
  EXPECT_ERR(build("__kernel void k(__global float *p) {\n"
                   "  double d = p[0];\n"
                   "  p[1] = (float)(d * 3);\n"
                   "}\n",
                   NULL),
             CL_SUCCESS);

  /* a refusal of the back end: recursion, named by its line */
  EXPECT_ERR(build("__attribute__((noinline)) int f(int n) {\n"
                   "  return n < 2 ? n : f(n - 1) * 3 + f(n - 2);\n"
                   "}\n"
                   "__kernel void k(__global int *p) { p[0] = f(p[1]); }\n",
                   NULL),
             CL_BUILD_PROGRAM_FAILURE);
  expect_in_log("<program source>:");
  expect_in_log("recursion");

  /* a refusal without an instruction of its own: the kernel's line */
  EXPECT_ERR(build("\n\n__kernel void k(write_only pipe int p, __global int *a) {\n"
                   "  write_pipe(p, &a[0]);\n"
                   "}\n",
                   "-cl-std=CL2.0"),
             CL_BUILD_PROGRAM_FAILURE);
  expect_in_log("<program source>:3: error: a pipe argument");

  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) fprintf(stderr, "test_cl_build_diag: %d failures\n", cy_failures);
  else printf("test_cl_build_diag: ok\n");
  return cy_failures != 0;
}
