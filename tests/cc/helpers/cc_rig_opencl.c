/* The tests/cc rig's OpenCL back end: the chengying platform through the
 * ICD loader, the .cl source built by clBuildProgram (the platform's own
 * compiler), buffers as cl_mem behind 32-bit handles. A launch turns the
 * argument words back into clSetKernelArg calls with the kernel's argument
 * metadata: pointers take one word (a handle, mapped to its cl_mem),
 * by-value arguments their size at the alignment of the argument block
 * (next power of two of max(size, 4); docs/runtime.md §2.4). */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cc_rig_impl.h"

enum { MAXPROG = 16 };
#define HANDLE_BASE 0xc0000000u /* handles look like no device address, so a mix-up shows */

typedef struct {
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  cl_program prog[MAXPROG];
  int nprog;
  cl_mem *mems;
  size_t nmems, cap;
  int told_threads; /* the .threads notice is given once */
} opencl;

static void on_error(const char *msg, const void *info, size_t n, void *user) {
  (void)info, (void)n, (void)user;
  fprintf(stderr, "OpenCL: %s\n", msg);
}

static cl_platform_id find_platform(void) {
  cl_platform_id p[16];
  cl_uint n = 0;
  if (clGetPlatformIDs(16, p, &n) != CL_SUCCESS) n = 0;
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[64] = "";
    if (clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof name, name, NULL) == CL_SUCCESS && !strcmp(name, "chengying"))
      return p[i];
  }
  fprintf(stderr, "no chengying OpenCL platform (is OCL_ICD_VENDORS the build tree's icd/ directory?)\n");
  return NULL;
}

static void ocl_close(void *be) {
  opencl *o = be;
  for (size_t i = 0; i < o->nmems; i++) clReleaseMemObject(o->mems[i]);
  free(o->mems);
  for (int i = 0; i < o->nprog; i++) clReleaseProgram(o->prog[i]);
  if (o->q) clReleaseCommandQueue(o->q);
  if (o->ctx) clReleaseContext(o->ctx);
  free(o);
}

static void *ocl_open(void) {
  opencl *o = calloc(1, sizeof *o);
  cl_platform_id p = o ? find_platform() : NULL;
  cl_int rc = CL_INVALID_PLATFORM;
  if (p && (rc = clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &o->dev, NULL)) == CL_SUCCESS)
    o->ctx = clCreateContext(NULL, 1, &o->dev, on_error, NULL, &rc);
  if (o && o->ctx) o->q = clCreateCommandQueue(o->ctx, o->dev, 0, &rc);
  if (!o || !o->q) {
    fprintf(stderr, "the chengying OpenCL device cannot be opened (%d)\n", rc);
    if (o) ocl_close(o);
    return NULL;
  }
  return o;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *s = NULL;
  long n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
  if (n >= 0 && !fseek(f, 0, SEEK_SET) && (s = malloc((size_t)n + 1))) {
    if (fread(s, 1, (size_t)n, f) != (size_t)n) {
      free(s);
      s = NULL;
    } else {
      s[n] = 0;
    }
  }
  fclose(f);
  return s;
}

static int ocl_load(void *be, const char *name) {
  opencl *o = be;
  char path[512];
  snprintf(path, sizeof path, "%s/tests/cc/kernels/%s.cl", VT_SOURCE_DIR, name);
  char *src = o->nprog < MAXPROG ? read_text(path) : NULL;
  if (!src) {
    fprintf(stderr, "%s: cannot read it\n", path);
    return -1;
  }
  cl_int rc;
  const char *text = src;
  cl_program p = clCreateProgramWithSource(o->ctx, 1, &text, NULL, &rc);
  free(src);
  if (!p) {
    fprintf(stderr, "%s: clCreateProgramWithSource returned %d\n", path, rc);
    return -1;
  }
  if ((rc = clBuildProgram(p, 1, &o->dev, "-cl-kernel-arg-info", NULL, NULL)) != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, o->dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    clReleaseProgram(p);
    if (!cc_rig_have_clang()) return -2;
    fprintf(stderr, "%s: clBuildProgram returned %d\n%s\n", path, rc, log);
    return -1;
  }
  o->prog[o->nprog] = p;
  return o->nprog++;
}

static int ocl_fresh(void *be) {
  opencl *o = be;
  for (size_t i = 0; i < o->nmems; i++) clReleaseMemObject(o->mems[i]);
  o->nmems = 0;
  return 0;
}

static uint32_t ocl_buf(void *be, size_t bytes) {
  opencl *o = be;
  if (o->nmems == o->cap) {
    size_t cap = o->cap ? 2 * o->cap : 16;
    cl_mem *m = realloc(o->mems, cap * sizeof *m);
    assert_non_null(m);
    o->mems = m, o->cap = cap;
  }
  cl_int rc;
  cl_mem m = clCreateBuffer(o->ctx, CL_MEM_READ_WRITE, bytes, NULL, &rc);
  if (!m) fail_msg("clCreateBuffer of %zu bytes returned %d", bytes, rc);
  o->mems[o->nmems] = m;
  return HANDLE_BASE + (uint32_t)(++o->nmems << 12);
}

static cl_mem mem_of(const opencl *o, uint32_t h) {
  uint32_t i = (h - HANDLE_BASE) >> 12;
  if (h < HANDLE_BASE || (h & 0xfff) || !i || i > o->nmems) fail_msg("0x%08x is no buffer of this test", h);
  return o->mems[i - 1];
}

static void ocl_put(void *be, uint32_t buf, const void *src, size_t bytes) {
  opencl *o = be;
  cl_int rc = clEnqueueWriteBuffer(o->q, mem_of(o, buf), CL_TRUE, 0, bytes, src, 0, NULL, NULL);
  if (rc != CL_SUCCESS) fail_msg("clEnqueueWriteBuffer returned %d", rc);
}

static void ocl_get(void *be, uint32_t buf, void *dst, size_t bytes) {
  opencl *o = be;
  cl_int rc = clEnqueueReadBuffer(o->q, mem_of(o, buf), CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
  if (rc != CL_SUCCESS) fail_msg("clEnqueueReadBuffer returned %d", rc);
}

/* Bytes of a by-value argument from its OpenCL C type name (spir: 32-bit
 * size_t); 0 for a type the rig does not know. */
static size_t type_size(const char *t) {
  static const struct {
    const char *name;
    size_t size;
  } scalars[] = {{"char", 1},  {"uchar", 1},  {"short", 2},  {"ushort", 2},    {"half", 2},      {"int", 4},
                 {"uint", 4},  {"float", 4},  {"size_t", 4}, {"ptrdiff_t", 4}, {"intptr_t", 4},  {"uintptr_t", 4},
                 {"long", 8},  {"ulong", 8},  {"double", 8}, {"unsigned char", 1}, {"unsigned short", 2},
                 {"unsigned int", 4}, {"unsigned long", 8}};
  size_t len = strlen(t), digits = 0;
  while (digits < len && t[len - 1 - digits] >= '0' && t[len - 1 - digits] <= '9') digits++;
  size_t width = digits ? (size_t)strtoul(t + len - digits, NULL, 10) : 1;
  if (width == 3) width = 4; /* a 3-vector is stored as a 4-vector */
  if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16) return 0;
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++)
    if (strlen(scalars[i].name) == len - digits && !strncmp(t, scalars[i].name, len - digits)) return width * scalars[i].size;
  return 0;
}

static size_t pow2_at_least(size_t n) {
  size_t p = 4;
  while (p < n) p <<= 1;
  return p;
}

/* The argument words back into clSetKernelArg calls. */
static void set_args(opencl *o, cl_kernel k, const char *kernel, const uint32_t *slots, size_t ns) {
  cl_uint nargs = 0;
  assert_int_equal(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL), CL_SUCCESS);
  size_t at = 0; /* byte offset in the argument block */
  for (cl_uint i = 0; i < nargs; i++) {
    cl_kernel_arg_address_qualifier aq;
    char type[128] = "";
    cl_int rc = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL);
    if (rc == CL_SUCCESS) rc = clGetKernelArgInfo(k, i, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL);
    if (rc != CL_SUCCESS) fail_msg("%s: argument %u: clGetKernelArgInfo returned %d", kernel, i, rc);
    if (aq == CL_KERNEL_ARG_ADDRESS_LOCAL) fail_msg("%s: argument %u: __local arguments have no word in the native convention", kernel, i);
    int ptr = aq != CL_KERNEL_ARG_ADDRESS_PRIVATE;
    size_t size = ptr ? 4 : type_size(type), al = ptr ? 4 : pow2_at_least(size);
    if (!size) fail_msg("%s: argument %u: by-value type %s unknown to the rig", kernel, i, type);
    at = (at + al - 1) / al * al;
    if (at + size > 4 * ns) fail_msg("%s: argument %u (%s) lies beyond the %zu words given", kernel, i, type, ns);
    if (ptr) {
      cl_mem m = slots[at / 4] ? mem_of(o, slots[at / 4]) : NULL;
      rc = clSetKernelArg(k, i, sizeof m, &m);
    } else {
      rc = clSetKernelArg(k, i, size, (const char *)slots + at);
    }
    if (rc != CL_SUCCESS) fail_msg("%s: argument %u (%s): clSetKernelArg returned %d", kernel, i, type, rc);
    at += size;
  }
  if ((at + 3) / 4 != ns) fail_msg("%s: %zu argument words given, the arguments take %zu", kernel, ns, (at + 3) / 4);
}

static void ocl_launch(void *be, int prog, const char *kernel, const cy_ndrange *nd, const uint32_t *slots, size_t ns) {
  opencl *o = be;
  assert_true(prog >= 0 && prog < o->nprog);
  cl_int rc;
  cl_kernel k = clCreateKernel(o->prog[prog], kernel, &rc);
  if (!k) fail_msg("%s: clCreateKernel returned %d", kernel, rc);
  set_args(o, k, kernel, slots, ns);
  if (nd->threads && !o->told_threads) { /* OpenCL has no warp width: results must not depend on it */
    printf("NOTE: OpenCL run: the warp width (.threads) is the platform's choice\n");
    o->told_threads = 1;
  }
  cl_uint dim = nd->work_dim ? nd->work_dim : 1;
  size_t g[3], l[3], off[3];
  for (int d = 0; d < 3; d++) { /* zeros are taken as 1, as cy_launch does */
    g[d] = nd->global[d] ? nd->global[d] : 1;
    l[d] = nd->local[d] ? nd->local[d] : 1;
    off[d] = nd->offset[d];
  }
  rc = clEnqueueNDRangeKernel(o->q, k, dim, off, g, l, 0, NULL, NULL);
  if (rc == CL_SUCCESS) rc = clFinish(o->q);
  clReleaseKernel(k);
  if (rc != CL_SUCCESS) fail_msg("%s: clEnqueueNDRangeKernel/clFinish returned %d", kernel, rc);
}

const cc_rig_backend cc_rig_opencl = {"OpenCL", ocl_open, ocl_close, ocl_load, ocl_fresh,
                                      ocl_buf,  ocl_put,  ocl_get,   ocl_launch};
