/* What the compiler passes on about a kernel beyond its code (OpenCL 1.2
 * §5.7.3, §5.8, §6.10): CL_KERNEL_ATTRIBUTES and
 * CL_KERNEL_COMPILE_WORK_GROUP_SIZE from __attribute__((...)), a
 * reqd_work_group_size enforced at clEnqueueNDRangeKernel, argument
 * information only when -cl-kernel-arg-info asked for it (clBuildProgram,
 * and clCompileProgram through clLinkProgram), and the predefined macros
 * that describe the device (__OPENCL_VERSION__, __IMAGE_SUPPORT__). */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static const char *attr_src =
    "__kernel __attribute__((reqd_work_group_size(4, 2, 1))) __attribute__((vec_type_hint(uint4)))\n"
    "void fixed(__global int *out) {\n"
    "  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] =\n"
    "      (int)(get_local_size(0) * 100 + get_local_size(1) * 10 + get_local_id(0) + get_local_id(1));\n"
    "}\n"
    "__kernel __attribute__((work_group_size_hint(1, 1, 1))) void hinted(int i) {}\n"
    "__kernel void plain(__global int *a, int b) {}\n";

static cl_program build(const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, options, NULL, NULL));
  return p;
}

static cl_kernel kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK(err);
  return k;
}

static void expect_attrs(cl_program p, const char *name, const char *want, size_t x, size_t y, size_t z) {
  cl_kernel k = kernel(p, name);
  char got[256] = "?";
  size_t len = 0, wg[3] = {9, 9, 9};
  CHECK(clGetKernelInfo(k, CL_KERNEL_ATTRIBUTES, sizeof got, got, &len));
  if (strcmp(got, want) || len != strlen(want) + 1) {
    fprintf(stderr, "%s: CL_KERNEL_ATTRIBUTES \"%s\" (%zu bytes), expected \"%s\"\n", name, got, len, want);
    cy_failures++;
  }
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof wg, wg, NULL));
  if (wg[0] != x || wg[1] != y || wg[2] != z) {
    fprintf(stderr, "%s: CL_KERNEL_COMPILE_WORK_GROUP_SIZE %zu,%zu,%zu, expected %zu,%zu,%zu\n", name, wg[0], wg[1],
            wg[2], x, y, z);
    cy_failures++;
  }
  CHECK(clReleaseKernel(k));
}

static void test_attributes(void) {
  cl_program p = build(attr_src, NULL);
  expect_attrs(p, "fixed", "reqd_work_group_size(4,2,1) vec_type_hint(uint4)", 4, 2, 1);
  expect_attrs(p, "hinted", "work_group_size_hint(1,1,1)", 0, 0, 0);
  expect_attrs(p, "plain", "", 0, 0, 0);

  /* reqd_work_group_size: the group size is it; a NULL local size takes it */
  cl_int err;
  cl_kernel k = kernel(p, "fixed");
  enum { GX = 8, GY = 4 };
  cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, GX * GY * 4, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  size_t g[2] = {GX, GY}, wrong[2] = {8, 1}, right[2] = {4, 2}, g1 = 8, l1 = 4;
  size_t odd[2] = {GX, 3};
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, g, wrong, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* one dimension: the group is (4, 1, 1), not (4, 2, 1), given or not */
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, &l1, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &g1, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  /* a global size the declared group does not divide */
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 2, NULL, odd, NULL, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_ERR(clEnqueueTask(q, k, 0, NULL, NULL), CL_INVALID_WORK_GROUP_SIZE);
  int res[GX * GY];
  for (int pass = 0; pass < 2; pass++) {
    CHECK(clEnqueueFillBuffer(q, out, &(int){-1}, sizeof(int), 0, sizeof res, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, g, pass ? NULL : right, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof res, res, 0, NULL, NULL));
    for (int y = 0; y < GY; y++)
      for (int x = 0; x < GX; x++) {
        int want = 4 * 100 + 2 * 10 + x % 4 + y % 2;
        if (res[y * GX + x] != want) {
          fprintf(stderr, "fixed (%s local size): (%d,%d) is %d, expected %d\n", pass ? "NULL" : "given", x, y,
                  res[y * GX + x], want);
          cy_failures++;
          y = GY;
          break;
        }
      }
  }
  CHECK(clReleaseMemObject(out));
  CHECK(clReleaseKernel(k));

  /* the same through a binary taken from the program */
  size_t size = 0;
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
  unsigned char *bin = malloc(size);
  EXPECT(bin != NULL);
  CHECK(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL));
  const unsigned char *bins[1] = {bin};
  cl_program pb = clCreateProgramWithBinary(ctx, 1, &dev, &size, bins, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(pb, 1, &dev, NULL, NULL, NULL));
  expect_attrs(pb, "fixed", "reqd_work_group_size(4,2,1) vec_type_hint(uint4)", 4, 2, 1);
  expect_attrs(pb, "hinted", "work_group_size_hint(1,1,1)", 0, 0, 0);
  CHECK(clReleaseProgram(pb));

  /* a damaged attribute section: refused with one line naming it */
  size_t off = 0, len = 0;
  int found = !cy_test_find_section(bin, size, ".ventus.attrs.fixed", &off, &len) && len >= 20 && off + len <= size;
  EXPECT(found);
  static const struct {
    size_t at;
    unsigned char byte;
    const char *why;
  } bad[] = {{0, 2, "version 2"}, {8, 0, "has a zero dimension"}, {0, 0, "version 0"}};
  unsigned char *mut = malloc(size);
  EXPECT(mut != NULL);
  for (size_t i = 0; found && i < sizeof bad / sizeof *bad + 1; i++) {
    memcpy(mut, bin, size);
    if (i < sizeof bad / sizeof *bad) mut[off + bad[i].at] = bad[i].byte;
    else memset(mut + off + 16, 'x', len - 16); /* the text without its NUL */
    const unsigned char *m[1] = {mut};
    cl_program pm = clCreateProgramWithBinary(ctx, 1, &dev, &size, m, NULL, &err);
    CHECK(err);
    EXPECT_ERR(clBuildProgram(pm, 1, &dev, NULL, NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
    char log[512] = "";
    CHECK(clGetProgramBuildInfo(pm, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    const char *why = i < sizeof bad / sizeof *bad ? bad[i].why : "not NUL-terminated";
    if (!strstr(log, ".ventus.attrs.fixed") || !strstr(log, why) || strchr(log, '\n')) {
      fprintf(stderr, "damaged attributes (%s): log \"%s\"\n", why, log);
      cy_failures++;
    }
    CHECK(clReleaseProgram(pm));
  }
  free(mut);
  free(bin);
  CHECK(clReleaseProgram(p));
}

/* argument 1 of `plain`, or the error clGetKernelArgInfo gives */
static cl_int arg_name(cl_program p, char *name, size_t cap) {
  cl_kernel k = kernel(p, "plain");
  cl_int rc = clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_NAME, cap, name, NULL);
  CHECK(clReleaseKernel(k));
  return rc;
}

static void test_arg_info(void) {
  char name[16] = "";
  cl_program p = build(attr_src, "-cl-kernel-arg-info");
  CHECK(arg_name(p, name, sizeof name));
  EXPECT(!strcmp(name, "b"));
  CHECK(clReleaseProgram(p));
  p = build(attr_src, "-cl-mad-enable");
  EXPECT_ERR(arg_name(p, name, sizeof name), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  CHECK(clReleaseProgram(p));
  /* a word of its own, not part of another */
  p = build(attr_src, "-DX=-cl-kernel-arg-info-not");
  EXPECT_ERR(arg_name(p, name, sizeof name), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
  CHECK(clReleaseProgram(p));

  /* separate compilation: the compile options decide */
  for (int with = 0; with < 2; with++) {
    cl_int err;
    cl_program c = clCreateProgramWithSource(ctx, 1, &attr_src, NULL, &err);
    CHECK(err);
    CHECK(clCompileProgram(c, 1, &dev, with ? "-cl-kernel-arg-info" : "", 0, NULL, NULL, NULL, NULL));
    cl_program l = clLinkProgram(ctx, 1, &dev, "", 1, &c, NULL, NULL, &err);
    CHECK(err);
    if (with) {
      CHECK(arg_name(l, name, sizeof name));
      EXPECT(!strcmp(name, "b"));
    } else {
      EXPECT_ERR(arg_name(l, name, sizeof name), CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    }
    CHECK(clReleaseProgram(l));
    CHECK(clReleaseProgram(c));
  }
}

static void test_macros(void) {
  static const char *src = "__kernel void m(__global int *out) {\n"
                           "#ifdef __OPENCL_VERSION__\n"
                           "  out[0] = __OPENCL_VERSION__;\n"
                           "#else\n"
                           "  out[0] = -1;\n"
                           "#endif\n"
                           "#ifdef __IMAGE_SUPPORT__\n"
                           "  out[1] = 1;\n"
                           "#else\n"
                           "  out[1] = 0;\n"
                           "#endif\n"
                           "  out[2] = __OPENCL_C_VERSION__;\n"
                           "  out[3] = __ENDIAN_LITTLE__;\n"
                           "}\n";
  cl_program p = build(src, NULL);
  cl_int err;
  cl_kernel k = kernel(p, "m");
  cl_mem out = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 16, NULL, &err);
  CHECK(err);
  CHECK(clSetKernelArg(k, 0, sizeof out, &out));
  CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
  int v[4];
  CHECK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, sizeof v, v, 0, NULL, NULL));
  /* the device is OpenCL 1.2 (CL_DEVICE_VERSION) with images */
  if (v[0] != 120 || v[1] != 1 || v[2] != 120 || v[3] != 1) {
    fprintf(stderr, "macros: __OPENCL_VERSION__ %d, __IMAGE_SUPPORT__ %d, __OPENCL_C_VERSION__ %d, "
            "__ENDIAN_LITTLE__ %d; expected 120, 1, 120, 1\n", v[0], v[1], v[2], v[3]);
    cy_failures++;
  }
  char dv[64] = "", cv[64] = "";
  cl_bool images = CL_FALSE;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_VERSION, sizeof dv, dv, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_OPENCL_C_VERSION, sizeof cv, cv, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
  EXPECT(!strncmp(dv, "OpenCL 1.2 ", 11) && !strncmp(cv, "OpenCL C 1.2 ", 13) && !strstr(cv, "compiler") &&
         images == CL_TRUE);
  CHECK(clReleaseMemObject(out));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

int main(void) {
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;
  test_attributes();
  test_arg_info();
  test_macros();
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) fprintf(stderr, "test_cl_kernel_attrs: %d failures\n", cy_failures);
  else printf("test_cl_kernel_attrs: ok\n");
  return cy_failures != 0;
}
