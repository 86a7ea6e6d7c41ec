/* The argument block and __local placement, seen from inside a kernel
 * (tests/cl/kernels/probe*.S copy their argument block out): kernels
 * without argument metadata (arguments classified by value), by-value
 * alignment next_pow2(max(size, 4)), __local arguments after the warp
 * stacks and the static local data of a resource section (both forms),
 * rounded to 128 bytes; the resource sizes in the kernel queries. */
#include "cl_test.h"

#include <stdint.h>

#define LDS_BASE 0x70000000u /* vt_config lds_base default */
#define WARP_STACK 1024u      /* start.S */

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static uint32_t round128(uint32_t x) { return (x + 127u) & ~127u; }

/* Runs `name` with (out, __local 100 B, uint 7, ulong, __local 16 B) on one
 * work-item (one warp) and returns the seven words it copied. */
static void probe(const char *name, uint32_t w[7], cl_ulong *local_bytes, cl_ulong *private_bytes) {
  cl_int err;
  cl_program p = cy_test_program(ctx, dev, name);
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK(err);
  cl_mem out = clCreateBuffer(ctx, 0, 64, NULL, &err);
  CHECK(err);
  cl_uint v = 7;
  cl_ulong wide = 0x1122334455667788ull;
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clSetKernelArg(k, 1, 100, NULL));
  CHECK(clSetKernelArg(k, 2, sizeof v, &v));
  CHECK(clSetKernelArg(k, 3, sizeof wide, &wide));
  CHECK(clSetKernelArg(k, 4, 16, NULL));
  cl_uint nargs;
  CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  EXPECT(nargs == 5);
  EXPECT_ERR(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, 0, NULL, NULL), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof *local_bytes, local_bytes, NULL));
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof *private_bytes, private_bytes, NULL));
  CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 7 * sizeof *w, w, 0, NULL, NULL));
  CHECK(clReleaseMemObject(out));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

/* the layout every probe shares: the expected words for a static local size */
static void expect_layout(const uint32_t w[7], uint32_t lds_static) {
  uint32_t local1 = round128(LDS_BASE + WARP_STACK + lds_static);
  uint32_t local2 = round128(local1 + 100);
  EXPECT(w[0] >= 0x90000000u && w[0] % 4096 == 0); /* the out buffer's own address */
  EXPECT(w[1] == local1);
  EXPECT(w[2] == 7);
  EXPECT(w[3] == 0);                               /* padding: the ulong is 8-byte aligned */
  EXPECT(w[4] == 0x55667788u && w[5] == 0x11223344u);
  EXPECT(w[6] == local2);
  if (w[1] != local1 || w[6] != local2)
    fprintf(stderr, "local arguments at 0x%08x, 0x%08x; expected 0x%08x, 0x%08x\n", w[1], w[6], local1, local2);
}

int main(void) {
  cl_int err;
  dev = cy_test_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  uint32_t w[7];
  cl_ulong lm, pm;

  probe("probe", w, &lm, &pm); /* no sections: no static local data, 4 KiB private */
  expect_layout(w, 0);
  EXPECT(lm == round128(100) + 16 && pm == 4096);

  probe("probe_res", w, &lm, &pm); /* 8-byte form: LDS 200, PDS 64 */
  expect_layout(w, 200);
  EXPECT(lm == round128(round128(200) + 100) + 16 && pm == 64);

  probe("probe_res3", w, &lm, &pm); /* version 3: LDS 300, PDS 32 + 96 */
  expect_layout(w, 300);
  EXPECT(lm == round128(round128(300) + 100) + 16 && pm == 128);

  /* kernel attributes from a hand-written .ventus.attrs section (docs/opencl.md §5.6) */
  {
    cl_program pa = cy_test_program(ctx, dev, "attrs");
    cl_kernel ka = clCreateKernel(pa, "fixed", &err);
    CHECK(err);
    char text[128] = "";
    size_t wg[3] = {0, 0, 0};
    CHECK(clGetKernelInfo(ka, CL_KERNEL_ATTRIBUTES, sizeof text, text, NULL));
    CHECK(clGetKernelWorkGroupInfo(ka, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL));
    EXPECT(!strcmp(text, "reqd_work_group_size(4,2,1) vec_type_hint(float4)"));
    EXPECT(wg[0] == 4 && wg[1] == 2 && wg[2] == 1);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(ka, 0, sizeof out, &out));
    size_t g[2] = {8, 4}, l[2] = {4, 2}, l2[2] = {2, 4}, g3[2] = {6, 4};
    /* a NULL local size takes the declared one, which must divide the global size */
    EXPECT_ERR(clEnqueueNDRangeKernel(q, ka, 2, NULL, g3, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    EXPECT_ERR(clEnqueueNDRangeKernel(q, ka, 2, NULL, g, l2, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
    CHECK(clEnqueueNDRangeKernel(q, ka, 2, NULL, g, NULL, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(q, ka, 2, NULL, g, l, 0, NULL, NULL));
    CHECK(clFinish(q));
    /* a kernel without the section: no attributes, 0, 0, 0 */
    cl_kernel kp = clCreateKernel(cy_test_program(ctx, dev, "probe_res"), "probe_res", &err);
    CHECK(err);
    text[0] = 'x';
    CHECK(clGetKernelInfo(kp, CL_KERNEL_ATTRIBUTES, sizeof text, text, NULL));
    CHECK(clGetKernelWorkGroupInfo(kp, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL));
    EXPECT(!text[0] && !wg[0] && !wg[1] && !wg[2]);
    cl_program pp;
    CHECK(clGetKernelInfo(kp, CL_KERNEL_PROGRAM, sizeof pp, &pp, NULL));
    CHECK(clReleaseKernel(kp));
    CHECK(clReleaseProgram(pp));
    CHECK(clReleaseMemObject(out));
    CHECK(clReleaseKernel(ka));
    CHECK(clReleaseProgram(pa));
  }

  /* a program listing: only kernels with a section are named */
  cl_program p = cy_test_program(ctx, dev, "probe_res");
  char names[64];
  CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  EXPECT(!strcmp(names, "probe_res"));
  CHECK(clReleaseProgram(p));
  p = cy_test_program(ctx, dev, "probe");
  size_t nk;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof nk, &nk, NULL));
  EXPECT(nk == 0);
  CHECK(clReleaseProgram(p));

  /* CL_KERNEL_WORK_GROUP_SIZE leaves room for the __local data: with 125 KiB
   * of it, 3 warp stacks (of 8) still fit in the 128 KiB of an SM */
  p = cy_test_program(ctx, dev, "probe");
  cl_kernel k = clCreateKernel(p, "probe", &err);
  CHECK(err);
  size_t wg;
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  EXPECT(wg == 8 * 32);
  CHECK(clSetKernelArg(k, 1, 125 * 1024, NULL));
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  EXPECT(wg == 3 * 32);
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));

  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_args");
}
