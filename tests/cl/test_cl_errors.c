/* The error codes of invalid calls: kernel arguments (index, size, value),
 * work-group sizes, released objects, bad flags, NULL pointers, programs
 * that cannot be built, and a kernel that faults on the device. */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static char reported[1024];
static void CL_CALLBACK on_error(const char *msg, const void *info, size_t cb, void *user) {
  (void)info, (void)cb, (void)user;
  snprintf(reported, sizeof reported, "%s", msg);
}

static cl_program binary(const char *name, cl_int *build_rc) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.elf", CY_KERNEL_DIR, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  static unsigned char buf[1 << 20];
  size_t len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  const unsigned char *bins[1] = {buf};
  cl_int err;
  cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &err);
  CHECK(err);
  *build_rc = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
  return p;
}

static void test_args(void) {
  cl_int err, rc;
  cl_program p = binary("vecadd", &rc);
  CHECK(rc);
  cl_kernel k = clCreateKernel(p, "vecadd", &err);
  CHECK(err);
  cl_mem m = clCreateBuffer(ctx, 0, 4096, NULL, &err);
  CHECK(err);
  cl_uint n = 1024;
  uint64_t wide = 1;
  void *garbage = &wide;
  EXPECT_ERR(clSetKernelArg(k, 4, sizeof n, &n), CL_INVALID_ARG_INDEX);
  EXPECT_ERR(clSetKernelArg(k, 3, sizeof wide, &wide), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 3, sizeof n, NULL), CL_INVALID_ARG_VALUE);
  EXPECT_ERR(clSetKernelArg(k, 0, 4, &m), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 0, sizeof garbage, &garbage), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clSetKernelArg(NULL, 0, sizeof m, &m), CL_INVALID_KERNEL);
  size_t global = 1024, local = 64;
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_INVALID_KERNEL_ARGS);
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(clSetKernelArg(k, 1, sizeof m, &m));
  CHECK(clSetKernelArg(k, 2, sizeof m, &m));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  /* work-group sizes */
  size_t bad_local = 48, huge = 512, zero = 0, two[2] = {1024, 1}, lbig[2] = {256, 2};
  size_t off = SIZE_MAX - 10;
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &bad_local, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &huge, 0, NULL, NULL), CL_INVALID_WORK_ITEM_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, two, lbig, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &zero, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &zero, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, NULL, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 0, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 4, NULL, &global, NULL, 0, NULL, NULL), CL_INVALID_WORK_DIMENSION);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, &off, &global, NULL, 0, NULL, NULL), CL_INVALID_GLOBAL_OFFSET);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 1, NULL, NULL), CL_INVALID_EVENT_WAIT_LIST);
  /* a buffer released by the application while a kernel argument still names it */
  CHECK(clReleaseMemObject(m));
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clGetKernelArgInfo(k, 9, CL_KERNEL_ARG_NAME, 0, NULL, NULL), CL_INVALID_ARG_INDEX);
  EXPECT(!clCreateKernel(p, "no_such_kernel", &err) && err == CL_INVALID_KERNEL_NAME);
  EXPECT(!clCreateKernel(p, NULL, &err) && err == CL_INVALID_VALUE);
  EXPECT_ERR(clBuildProgram(p, 0, NULL, NULL, NULL, NULL), CL_INVALID_OPERATION); /* a kernel is attached */
  /* a program released while its kernel holds it */
  CHECK(clReleaseProgram(p));
  EXPECT(!clCreateKernel(p, "vecadd", &err) && err == CL_INVALID_PROGRAM);
  CHECK(clReleaseKernel(k));
}

static void test_local_args(void) {
  cl_int err, rc;
  cl_program p = binary("reduce_local", &rc);
  CHECK(rc);
  cl_kernel k = clCreateKernel(p, "reduce_local", &err);
  CHECK(err);
  int v = 0;
  EXPECT_ERR(clSetKernelArg(k, 3, sizeof v, &v), CL_INVALID_ARG_VALUE);
  EXPECT_ERR(clSetKernelArg(k, 3, 0, NULL), CL_INVALID_ARG_SIZE);
  cl_mem m = clCreateBuffer(ctx, 0, 4096, NULL, &err);
  CHECK(err);
  cl_uint n = 64;
  CHECK(clSetKernelArg(k, 0, sizeof m, &m));
  CHECK(clSetKernelArg(k, 1, sizeof m, &m));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  cl_ulong avail;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_LOCAL_MEM_SIZE, sizeof avail, &avail, NULL));
  CHECK(clSetKernelArg(k, 3, (size_t)avail + 16384, NULL)); /* more __local memory than an SM has */
  size_t global = 64, local = 64;
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_OUT_OF_RESOURCES);
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

static void test_buffers_flags(void) {
  cl_int err;
  char host[64];
  EXPECT(!clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, 64, NULL, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR, 64, host, &err) &&
         err == CL_INVALID_VALUE);
  EXPECT(!clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 64, NULL, &err) && err == CL_INVALID_HOST_PTR);
  EXPECT(!clCreateBuffer(ctx, 0, 64, host, &err) && err == CL_INVALID_HOST_PTR);
  EXPECT(!clCreateBuffer(ctx, 0, 0, NULL, &err) && err == CL_INVALID_BUFFER_SIZE);
  EXPECT(!clCreateBuffer(ctx, (cl_mem_flags)1 << 40, 64, NULL, &err) && err == CL_INVALID_VALUE);
  cl_mem m = clCreateBuffer(ctx, CL_MEM_HOST_NO_ACCESS, 64, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 64, host, 0, NULL, NULL), CL_INVALID_OPERATION);
  EXPECT_ERR(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, 64, host, 0, NULL, NULL), CL_INVALID_OPERATION);
  cl_mem rw = clCreateBuffer(ctx, 0, 64, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clEnqueueReadBuffer(q, rw, CL_TRUE, 0, 64, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
  clEnqueueMapBuffer(q, rw, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, NULL, NULL, &err);
  EXPECT(err == CL_INVALID_VALUE);
  cl_image_format fmt = {CL_RGBA, CL_UNORM_INT8};
  EXPECT(!clCreateImage2D(ctx, 0, NULL, 4, 4, 0, NULL, &err) && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT(!clCreateImage2D(ctx, 0, &fmt, 0, 4, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  EXPECT(!clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateCommandQueue(ctx, dev, (cl_command_queue_properties)1 << 30, &err) && err == CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseMemObject(rw));
}

static void test_nulls_and_released(void) {
  cl_int err;
  EXPECT_ERR(clReleaseContext(NULL), CL_INVALID_CONTEXT);
  EXPECT_ERR(clReleaseCommandQueue(NULL), CL_INVALID_COMMAND_QUEUE);
  EXPECT_ERR(clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clReleaseProgram(NULL), CL_INVALID_PROGRAM);
  EXPECT_ERR(clReleaseKernel(NULL), CL_INVALID_KERNEL);
  EXPECT_ERR(clReleaseEvent(NULL), CL_INVALID_EVENT);
  EXPECT_ERR(clWaitForEvents(0, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clGetDeviceIDs(NULL, CL_DEVICE_TYPE_ALL, 1, NULL, NULL), CL_INVALID_VALUE);
  EXPECT(!clCreateContext(NULL, 0, NULL, NULL, NULL, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateProgramWithSource(ctx, 0, NULL, NULL, &err) && err == CL_INVALID_VALUE);
  /* an event the application released while its command waits is no longer valid */
  cl_mem m = clCreateBuffer(ctx, 0, 64, NULL, &err);
  CHECK(err);
  cl_event gate = clCreateUserEvent(ctx, &err), w;
  CHECK(err);
  int v = 1;
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, &v, 1, &gate, &w));
  CHECK(clReleaseEvent(w));
  cl_int st;
  EXPECT_ERR(clGetEventInfo(w, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL), CL_INVALID_EVENT);
  EXPECT_ERR(clSetUserEventStatus(gate, 1), CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clFinish(q));
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseMemObject(m));
}

static void test_programs(void) {
  cl_int err, rc;
  const char *src = "__kernel void k(__global int *p) { p[0] = 1; }";
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  cl_bool cc = CL_FALSE; /* with the compiler, tests/cl/test_cl_build.c covers the build */
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_COMPILER_AVAILABLE, sizeof cc, &cc, NULL));
  char log[512];
  if (!cc) {
    EXPECT_ERR(clBuildProgram(p, 1, &dev, NULL, NULL, NULL), CL_COMPILER_NOT_AVAILABLE);
    cl_build_status bs;
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_STATUS, sizeof bs, &bs, NULL));
    EXPECT(strstr(log, "no OpenCL C compiler") && bs == CL_BUILD_ERROR);
    EXPECT(!clCreateKernel(p, "k", &err) && err == CL_INVALID_PROGRAM_EXECUTABLE);
  }
  CHECK(clReleaseProgram(p));

  const unsigned char junk[] = "not an ELF file";
  const unsigned char *bins[1] = {junk};
  size_t len = sizeof junk;
  cl_int status = 0;
  EXPECT(!clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err) && err == CL_INVALID_BINARY &&
         status == CL_INVALID_BINARY);

  /* an executable linked at the buffers' addresses (ventus as --text-addr 0x90000000) */
  char path[512];
  snprintf(path, sizeof path, "%s/high_text.elf", CY_KERNEL_DIR);
  FILE *f = fopen(path, "rb");
  static unsigned char high[1 << 16];
  size_t hlen = f ? fread(high, 1, sizeof high, f) : 0;
  if (f) fclose(f);
  const unsigned char *hbins[1] = {high};
  status = 0;
  EXPECT(hlen > 0 && !clCreateProgramWithBinary(ctx, 1, &dev, &hlen, hbins, &status, &err) &&
         err == CL_INVALID_BINARY && status == CL_INVALID_BINARY);

  p = binary("orphan_meta", &rc);
  EXPECT(rc == CL_BUILD_PROGRAM_FAILURE);
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  EXPECT(!strcmp(log, "kernel ghost: metadata sections name it, but the ELF defines no such symbol"));
  CHECK(clReleaseProgram(p));

  p = binary("bad_res", &rc);
  EXPECT(rc == CL_BUILD_PROGRAM_FAILURE);
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  EXPECT(!strcmp(log, "section .ventus.resource.bad_res: 6 bytes is neither the 8-byte nor the versioned 56-byte form"));
  CHECK(clReleaseProgram(p));

  p = binary("bad_args", &rc);
  EXPECT(rc == CL_BUILD_PROGRAM_FAILURE);
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  EXPECT(!strcmp(log, "section .ventus.args.bad_args: argument 0: a pointer has size 4, not 8"));
  CHECK(clReleaseProgram(p));

  p = binary("bad_access", &rc);
  EXPECT(rc == CL_BUILD_PROGRAM_FAILURE);
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  EXPECT(!strcmp(log, "section .ventus.args.bad_access: argument 0: more than one access qualifier (bits 0x18)"));
  CHECK(clReleaseProgram(p));
}

/* a store to address 0: the event fails, the context callback names the place */
static void test_device_fault(void) {
  cl_int err, rc;
  cl_program p = binary("fault", &rc);
  CHECK(rc);
  cl_kernel k = clCreateKernel(p, "fault", &err); /* no metadata: found by its symbol */
  CHECK(err);
  cl_mem none = NULL;
  CHECK(clSetKernelArg(k, 0, sizeof none, &none));
  cl_event e;
  size_t one = 1;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, &e));
  EXPECT_ERR(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int st;
  CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL));
  EXPECT(st == CL_OUT_OF_RESOURCES);
  if (!strstr(reported, "kernel fault: ") || !strstr(reported, "pc 0x")) fprintf(stderr, "reported: %s\n", reported);
  EXPECT(strstr(reported, "kernel fault: ") && strstr(reported, "pc 0x"));
  CHECK(clReleaseEvent(e));
  /* the context stays usable */
  int v = 5, got = 0;
  cl_mem m = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof v, &v, &err);
  CHECK(err);
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
  EXPECT(got == 5);
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

int main(void) {
  cl_int err;
  dev = cy_test_device();
  ctx = clCreateContext(NULL, 1, &dev, on_error, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  test_args();
  test_local_args();
  test_buffers_flags();
  test_nulls_and_released();
  test_programs();
  test_device_fault();
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_errors");
}
