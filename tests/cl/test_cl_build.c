/* clBuildProgram on OpenCL C source (the platform calls the compiler of
 * `ventus cc`): build options reach the source, the kernels run and match
 * plain C, __local arguments, CL_PROGRAM_BINARIES gives an ELF that
 * clCreateProgramWithBinary takes and that computes the same words, the
 * argument info comes from the compiler's metadata, and failed builds
 * have clang's diagnostics in the build log. */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static const char *src =
    "__kernel void scale(__global const int *in, __global int *out, int k) {\n"
    "  uint i = get_global_id(0);\n"
    "  out[i] = in[i] * k + OFFSET;\n"
    "}\n"
    "__kernel void lsum(__global const int *in, __global int *out, __local int *tmp) {\n"
    "  uint l = get_local_id(0), n = get_local_size(0);\n"
    "  tmp[l] = in[get_global_id(0)];\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  for (uint s = n / 2; s > 0; s >>= 1) {\n"
    "    if (l < s) tmp[l] += tmp[l + s];\n"
    "    barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  }\n"
    "  if (l == 0) out[get_group_id(0)] = tmp[0];\n"
    "}\n";

enum { N = 256, L = 64 };

static void run_scale(cl_program p, int *out, const int *in) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "scale", &err);
  CHECK(err);
  cl_mem I = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * 4, (void *)in, &err);
  CHECK(err);
  cl_mem O = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * 4, NULL, &err);
  CHECK(err);
  int kv = -3;
  CHECK(clSetKernelArg(k, 0, sizeof I, &I));
  CHECK(clSetKernelArg(k, 1, sizeof O, &O));
  CHECK(clSetKernelArg(k, 2, sizeof kv, &kv));
  size_t g = N, l = L;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, N * 4, out, 0, NULL, NULL));
  CHECK(clReleaseMemObject(I));
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseKernel(k));
}

int main(void) {
  cl_int err;
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;

  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, "-D OFFSET=7 -cl-mad-enable -cl-kernel-arg-info", NULL, NULL));
  cl_build_status bs;
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
  EXPECT(bs == CL_BUILD_SUCCESS);
  char names[64] = "";
  CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  EXPECT(!strcmp(names, "scale;lsum"));

  static int in[N], out[N], out2[N];
  for (int i = 0; i < N; i++) in[i] = i * 37 - 4000;
  run_scale(p, out, in);
  for (int i = 0; i < N; i++)
    if (out[i] != in[i] * -3 + 7) {
      fprintf(stderr, "scale: element %d is %d, expected %d\n", i, out[i], in[i] * -3 + 7);
      cy_failures++;
      break;
    }

  /* a __local argument placed by the platform */
  cl_kernel k = clCreateKernel(p, "lsum", &err);
  CHECK(err);
  cl_mem I = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  CHECK(err);
  cl_mem O = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N / L * 4, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof I, &I));
  CHECK(clSetKernelArg(k, 1, sizeof O, &O));
  CHECK(clSetKernelArg(k, 2, L * 4, NULL));
  size_t g = N, l = L;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  int sums[N / L];
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof sums, sums, 0, NULL, NULL));
  for (int gi = 0; gi < N / L; gi++) {
    int want = 0;
    for (int j = 0; j < L; j++) want += in[gi * L + j];
    EXPECT(sums[gi] == want);
  }
  /* argument info from the compiler's metadata */
  char aname[32] = "", tname[32] = "";
  cl_kernel_arg_address_qualifier aq;
  CHECK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof aname, aname, NULL));
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof tname, tname, NULL));
  CHECK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(!strcmp(aname, "tmp") && !strcmp(tname, "int*") && aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(I));
  CHECK(clReleaseMemObject(O));

  /* the binary: an ELF that clCreateProgramWithBinary takes, same results */
  size_t size = 0;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  EXPECT(bin && size > 64);
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  EXPECT(!memcmp(bin, "\x7f" "ELF", 4));
  const unsigned char *bins[1] = {bin};
  cl_program pb = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(pb, 1, &dev, NULL, NULL, NULL));
  run_scale(pb, out2, in);
  EXPECT(!memcmp(out, out2, sizeof out));
  CHECK(clReleaseProgram(pb));
  free(bin);
  CHECK(clReleaseProgram(p));

  /* failures: clang's diagnostics in the log; unknown options */
  const char *bad = "__kernel void b(__global int *p) { p[0] = nope; }\n";
  p = clCreateProgramWithSource(ctx, 1, &bad, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[2048] = "";
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
  EXPECT(strstr(log, "use of undeclared identifier 'nope'") && bs == CL_BUILD_ERROR);
  EXPECT(!clCreateKernel(p, "b", &err) && err == CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_ERR(clBuildProgram(p, 1, &dev, "-frobnicate", NULL, NULL), CL_INVALID_BUILD_OPTIONS);
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  EXPECT(strstr(log, "unknown build option '-frobnicate'") != NULL);
  CHECK(clReleaseProgram(p));

  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) fprintf(stderr, "test_cl_build: %d failures\n", cy_failures);
  else printf("test_cl_build: ok\n");
  return cy_failures != 0;
}
