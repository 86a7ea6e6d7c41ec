/* Kernel arguments by value that are vectors or structs, built from source
 * with clBuildProgram: each value reaches the kernel unchanged (every
 * element written back and compared word for word with what the host
 * set), the argument info and clSetKernelArg's size check follow the
 * declared types (docs/opencl.md §5.1: a 3-element vector is 16 bytes). */
#include "cl_test.h"

#include <stdint.h>

static const char *src =
    "typedef struct { int a; float b; char c; short d[3]; } S;\n"
    "__kernel void vals(__global int *out, char c, int4 v, float3 w, uchar3 u, S s,\n"
    "                   float8 f8, short2 h, uint n) {\n"
    "  int i = get_global_id(0);\n"
    "  __global int *o = out + i * 24;\n"
    "  __global float *of = (__global float *)o;\n"
    "  o[0] = c; o[1] = v.x; o[2] = v.y; o[3] = v.z; o[4] = v.w;\n"
    "  of[5] = w.x; of[6] = w.y; of[7] = w.z;\n"
    "  o[8] = u.x + u.y * 1000 + u.z * 1000000;\n"
    "  o[9] = s.a; of[10] = s.b; o[11] = s.c; o[12] = s.d[i % 3];\n"
    "  of[13] = f8.s0; of[14] = f8.s3; of[15] = f8.s7;\n"
    "  o[16] = h.x; o[17] = h.y; o[18] = (int)n;\n"
    "  o[19] = v.x * i + v.w;\n"
    "  of[20] = w.z * 2.0f;\n"
    "  o[21] = (int)(f8.s1 + f8.s6);\n"
    "  o[22] = s.a + s.d[0] * i;\n"
    "  o[23] = h.x * h.y;\n"
    "}\n";

typedef struct {
  cl_int a;
  cl_float b;
  cl_char c;
  cl_short d[3];
} S;

static int32_t bits(float x) {
  int32_t b;
  memcpy(&b, &x, 4);
  return b;
}

enum { N = 40, W = 24 };

int main(void) {
  cl_int err;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;
  cl_program p = cy_test_source_program(ctx, dev, src, "-cl-kernel-arg-info");
  cl_kernel k = clCreateKernel(p, "vals", &err);
  CHECK(err);
  cl_mem O = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * W * 4, NULL, &err);
  CHECK(err);

  cl_char c = -5;
  cl_int4 v = {{11, -22, 33, 0x7fffffff}};
  cl_float3 w = {{1.5f, -2.25f, 1e10f, 99.0f}}; /* the 4th element is padding */
  cl_uchar3 u = {{0xab, 0xcd, 0xef, 0}};
  S s = {-123456, 3.25f, 'x', {7, -8, 9}};
  cl_float8 f8 = {{0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 7.5f}};
  cl_short2 h = {{-300, 7}};
  cl_uint n = 0xdeadbeefu;

  /* the declared sizes: 16 bytes for float3 and uchar3 is 4 */
  EXPECT_ERR(clSetKernelArg(k, 3, 12, &w), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 2, 8, &v), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 5, sizeof s - 4, &s), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 2, sizeof v, NULL), CL_INVALID_ARG_VALUE);
  CHECK(clSetKernelArg(k, 0, sizeof O, &O));
  CHECK(clSetKernelArg(k, 1, sizeof c, &c));
  CHECK(clSetKernelArg(k, 2, sizeof v, &v));
  CHECK(clSetKernelArg(k, 3, sizeof w, &w));
  CHECK(clSetKernelArg(k, 4, 4, &u));
  CHECK(clSetKernelArg(k, 5, sizeof s, &s));
  CHECK(clSetKernelArg(k, 6, sizeof f8, &f8));
  CHECK(clSetKernelArg(k, 7, sizeof h, &h));
  CHECK(clSetKernelArg(k, 8, sizeof n, &n));

  char type[64] = "";
  CHECK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
  EXPECT(!strcmp(type, "float3"));
  CHECK(clGetKernelArgInfo(k, 6, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
  EXPECT(!strcmp(type, "float8"));
  cl_kernel_arg_address_qualifier aq = 0;
  CHECK(clGetKernelArgInfo(k, 5, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(aq == CL_KERNEL_ARG_ADDRESS_PRIVATE);

  size_t g = N, l = 20;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL));
  static int32_t out[N * W];
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++) {
    const int32_t *o = out + i * W;
    int32_t want[W] = {-5, 11, -22, 33, 0x7fffffff, bits(1.5f), bits(-2.25f), bits(1e10f), 0xab + 0xcd * 1000 + 0xef * 1000000,
                       -123456, bits(3.25f), 'x', s.d[i % 3], bits(0.5f), bits(3.5f), bits(7.5f), -300, 7,
                       (int32_t)0xdeadbeefu, (int32_t)(11u * (uint32_t)i + 0x7fffffffu), bits(2e10f), 8,
                       -123456 + 7 * i, -2100};
    for (int j = 0; j < W; j++)
      if (o[j] != want[j]) {
        fprintf(stderr, "work-item %d word %d: 0x%08x, expected 0x%08x\n", i, j, (unsigned)o[j], (unsigned)want[j]);
        cy_failures++;
      }
  }
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) return 1;
  printf("vector and struct arguments by value: %d work-items x %d words match\n", N, W);
  return 0;
}
