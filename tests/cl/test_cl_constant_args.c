/* __constant buffer arguments (src/cl/cl_launch.c read_only_args): the
 * launch holds a __constant buffer's region read-only, so the kernel's
 * loads from it run ahead of its round (docs/simulator.md §2), unless a
 * __global argument reaches the same region (the same buffer, or another
 * sub-buffer of its parent), which then stays writable. Checked here:
 *  - a 5-tap filter read from a __constant buffer, against the host's sum
 *    in the same order (contraction off on both sides);
 *  - one buffer passed as both the __constant and the __global argument,
 *    and two sub-buffers of one parent, the kernel writing through the
 *    __global one: every word right;
 *  - the filter's buffer written by a kernel afterwards (as __global): its
 *    write permission came back after the launch. */
#include "cl_test.h"

#include <stdint.h>

static const char *src =
    "#pragma OPENCL FP_CONTRACT OFF\n"
    "kernel void taps(global const float *in, global float *out, constant float *f, int n) {\n"
    "  int i = get_global_id(0);\n"
    "  float s = 0.0f;\n"
    "  for (int k = 0; k < 5; k++) s += f[k] * in[(i + k) % n];\n"
    "  out[i] = s;\n"
    "}\n"
    "kernel void both(constant int *c, global int *g) {\n"
    "  int i = get_global_id(0);\n"
    "  g[i] = c[i] * 3 + 1;\n"
    "}\n"
    "kernel void bump(global float *g) { g[get_global_id(0)] += 100.0f; }\n";

enum { N = 256, M = 64 };

static cl_kernel kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK(err);
  return k;
}

static void run(cl_command_queue q, cl_kernel k, size_t n) {
  size_t local = 32;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &local, 0, NULL, NULL));
  CHECK(clFinish(q));
}

int main(void) {
  cl_int err;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;
  cl_program p = cy_test_source_program(ctx, dev, src, "");

  /* the filter from a __constant buffer */
  float in[N], f[5] = {0.125f, -0.5f, 1.75f, 3.0f, -0.0625f}, out[N], want[N];
  for (int i = 0; i < N; i++) in[i] = (float)(i * 37 % 101) * 0.25f - 7.0f;
  for (int i = 0; i < N; i++) {
    float s = 0.0f;
    for (int k = 0; k < 5; k++) s += f[k] * in[(i + k) % N];
    want[i] = s;
  }
  cl_mem I = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof in, in, &err);
  CHECK(err);
  cl_mem O = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof out, NULL, &err);
  CHECK(err);
  float f32[32] = {0};
  memcpy(f32, f, sizeof f);
  cl_mem F = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof f32, f32, &err);
  CHECK(err);
  cl_kernel taps = kernel(p, "taps");
  cl_int n = N;
  CHECK(clSetKernelArg(taps, 0, sizeof I, &I));
  CHECK(clSetKernelArg(taps, 1, sizeof O, &O));
  CHECK(clSetKernelArg(taps, 2, sizeof F, &F));
  CHECK(clSetKernelArg(taps, 3, sizeof n, &n));
  run(q, taps, N);
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < N; i++) EXPECT(memcmp(&out[i], &want[i], 4) == 0);

  /* the filter's buffer written afterwards: writable again */
  cl_kernel bump = kernel(p, "bump");
  CHECK(clSetKernelArg(bump, 0, sizeof F, &F));
  run(q, bump, 32);
  float back[32];
  CHECK(clEnqueueReadBuffer(q, F, CL_TRUE, 0, sizeof back, back, 0, NULL, NULL));
  for (int k = 0; k < 32; k++) EXPECT(back[k] == f32[k] + 100.0f);

  /* one buffer as the __constant and the __global argument */
  int c[M], got[M];
  for (int i = 0; i < M; i++) c[i] = i * i - 50;
  cl_mem C = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof c, c, &err);
  CHECK(err);
  cl_kernel both = kernel(p, "both");
  CHECK(clSetKernelArg(both, 0, sizeof C, &C));
  CHECK(clSetKernelArg(both, 1, sizeof C, &C));
  run(q, both, M);
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  for (int i = 0; i < M; i++) EXPECT(got[i] == c[i] * 3 + 1);

  /* two sub-buffers of one parent: the __constant one and the __global one */
  int two[2 * M];
  for (int i = 0; i < 2 * M; i++) two[i] = 1000 - 7 * i;
  cl_mem P = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof two, two, &err);
  CHECK(err);
  cl_buffer_region r0 = {0, M * 4}, r1 = {M * 4, M * 4};
  cl_mem S0 = clCreateSubBuffer(P, 0, CL_BUFFER_CREATE_TYPE_REGION, &r0, &err);
  CHECK(err);
  cl_mem S1 = clCreateSubBuffer(P, 0, CL_BUFFER_CREATE_TYPE_REGION, &r1, &err);
  CHECK(err);
  CHECK(clSetKernelArg(both, 0, sizeof S0, &S0));
  CHECK(clSetKernelArg(both, 1, sizeof S1, &S1));
  run(q, both, M);
  int after[2 * M];
  CHECK(clEnqueueReadBuffer(q, P, CL_TRUE, 0, sizeof after, after, 0, NULL, NULL));
  for (int i = 0; i < M; i++) {
    EXPECT(after[i] == two[i]);
    EXPECT(after[M + i] == two[i] * 3 + 1);
  }

  cl_mem mems[] = {I, O, F, C, S0, S1, P};
  for (size_t i = 0; i < sizeof mems / sizeof *mems; i++) clReleaseMemObject(mems[i]);
  clReleaseKernel(taps);
  clReleaseKernel(bump);
  clReleaseKernel(both);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  if (cy_failures) fprintf(stderr, "%d failures\n", cy_failures);
  return cy_failures ? 1 : 0;
}
