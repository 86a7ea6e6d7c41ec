/* C99 inline functions across separately compiled units (issue 21): two
 * units include the same header's `inline` function (a C99 inline
 * definition in each, big enough that clang does not inline it), one of
 * them also calls an `extern inline` function of the other; clLinkProgram
 * links them (one body each, no "symbol multiply defined") and the kernel
 * computes the values of plain C. clBuildProgram of one such unit keeps
 * the body its calls need. */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

/* 24 rounds: more than clang inlines at three calls */
#define ROUND(k) "  r = (r << " #k " | r >> (32 - " #k ")) ^ (r * " #k "u + b);\n"
static const char *hdr = "inline uint mixu(uint r, uint b) {\n" ROUND(1) ROUND(2) ROUND(3) ROUND(4) ROUND(5) ROUND(6)
    ROUND(7) ROUND(8) ROUND(9) ROUND(10) ROUND(11) ROUND(12) ROUND(13) ROUND(14) ROUND(15) ROUND(16) ROUND(17)
        ROUND(18) ROUND(19) ROUND(20) ROUND(21) ROUND(22) ROUND(23) ROUND(24) "  return r;\n}\n";
static const char *src_a =
    "#include \"mix.h\"\n"
    "uint other(uint x);\n"
    "__kernel void run(__global uint *out) {\n"
    "  uint i = get_global_id(0);\n"
    "  out[i] = mixu(i, 1) + mixu(i * 3, 2) + mixu(i ^ 5, 3) + other(i);\n"
    "}\n";
static const char *src_b =
    "#include \"mix.h\"\n"
    "extern inline uint other(uint x) { return mixu(x, 4) + mixu(x + 1, 5) + mixu(x + 2, 6); }\n";

static uint32_t mixu(uint32_t r, uint32_t b) {
  for (uint32_t k = 1; k <= 24; k++) r = (r << k | r >> (32 - k)) ^ (r * k + b);
  return r;
}

static uint32_t want(uint32_t i) {
  return mixu(i, 1) + mixu(i * 3, 2) + mixu(i ^ 5, 3) + mixu(i, 4) + mixu(i + 1, 5) + mixu(i + 2, 6);
}

enum { N = 64 };

static cl_program from_source(const char *s) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  CHECK(err);
  return p;
}

static void check_run(cl_program p) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "run", &err);
  CHECK(err);
  cl_mem O = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof O, &O));
  size_t g = N;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL));
  uint32_t out[N];
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (uint32_t i = 0; i < N; i++)
    if (out[i] != want(i)) {
      fprintf(stderr, "run: out[%u] = 0x%08x, expected 0x%08x\n", i, out[i], want(i));
      cy_failures++;
      break;
    }
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseKernel(k));
}

int main(void) {
  if (!cy_test_cc_setup(CL_DEVICE_LINKER_AVAILABLE, &dev, &ctx, &q)) return 0;
  cl_int err;
  cl_program h = from_source(hdr), a = from_source(src_a), b = from_source(src_b);
  const char *name = "mix.h";
  CHECK(clCompileProgram(a, 1, &dev, NULL, 1, &h, &name, NULL, NULL));
  CHECK(clCompileProgram(b, 1, &dev, NULL, 1, &h, &name, NULL, NULL));
  cl_program objs[2] = {a, b};
  cl_program linked = clLinkProgram(ctx, 1, &dev, NULL, 2, objs, NULL, NULL, &err);
  CHECK(err);
  check_run(linked);
  CHECK(clReleaseProgram(linked));

  /* one source with both: the inline definition's body stays for its calls */
  static char both[8192];
  snprintf(both, sizeof both, "%s%s%s", hdr, src_b + strlen("#include \"mix.h\"\n"),
           src_a + strlen("#include \"mix.h\"\n"));
  cl_program p = from_source(both);
  CHECK(clBuildProgram(p, 1, &dev, NULL, NULL, NULL));
  check_run(p);
  CHECK(clReleaseProgram(p));

  CHECK(clReleaseProgram(h));
  CHECK(clReleaseProgram(a));
  CHECK(clReleaseProgram(b));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) fprintf(stderr, "test_cl_inline_link: %d failures\n", cy_failures);
  else printf("test_cl_inline_link: ok\n");
  return cy_failures != 0;
}
