/* cl_run_dump: one kernel launch through the OpenCL API (the ICD loader),
 * its buffer arguments printed as words, one "0x%08x" a line, in argument
 * order: the OpenCL side of tests/cli/test_cc_run_vs_cl.sh, which compares
 * them with `ventus run --dump` of the same kernel and inputs.
 *   usage: cl_run_dump SOURCE.cl|KERNEL.elf KERNEL GLOBAL LOCAL ARG...
 *   ARG: buf:file=PATH | buf:zero:BYTES | u32:V | i32:V | f32:V
 * A .cl file is built by clBuildProgram (the platform's compiler), anything
 * else loaded with clCreateProgramWithBinary. Exit 0, 2 usage, 4 error. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { MAXARGS = 16, MAXFILE = 16 << 20 };

typedef struct {
  cl_mem mem[MAXARGS];
  size_t bytes[MAXARGS];
} bufs;

static int die(const char *what, cl_int rc) {
  fprintf(stderr, "cl_run_dump: %s failed (%d)\n", what, rc);
  return 4;
}

static unsigned char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  unsigned char *b = f ? malloc(MAXFILE + 1) : NULL;
  *len = b ? fread(b, 1, MAXFILE, f) : 0;
  if (f) fclose(f);
  if (b) b[*len] = 0;
  if (!b) fprintf(stderr, "cl_run_dump: %s: cannot read it\n", path);
  return b;
}

static cl_program program(cl_context ctx, cl_device_id dev, const char *path) {
  size_t len;
  unsigned char *text = slurp(path, &len);
  if (!text) return NULL;
  cl_int rc, st;
  size_t n = strlen(path);
  cl_program p = n > 3 && !strcmp(path + n - 3, ".cl")
                     ? clCreateProgramWithSource(ctx, 1, (const char *[]){(char *)text}, NULL, &rc)
                     : clCreateProgramWithBinary(ctx, 1, &dev, &len, (const unsigned char *[]){text}, &st, &rc);
  free(text);
  if (p && (rc = clBuildProgram(p, 1, &dev, "", NULL, NULL)) != CL_SUCCESS) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "cl_run_dump: %s: clBuildProgram failed (%d)\n%s\n", path, rc, log);
    clReleaseProgram(p);
    return NULL;
  }
  if (!p) die("clCreateProgram", rc);
  return p;
}

/* one ARG spec into argument I; 2 when it is malformed, 4 when OpenCL fails */
static int set_arg(cl_context ctx, cl_command_queue q, cl_kernel k, cl_uint i, const char *spec, bufs *b) {
  char *end;
  cl_int rc;
  if (!strncmp(spec, "buf:file=", 9) || !strncmp(spec, "buf:zero:", 9)) {
    size_t len;
    unsigned char *data;
    if (spec[4] == 'f') {
      if (!(data = slurp(spec + 9, &len))) return 4;
    } else {
      len = strtoul(spec + 9, &end, 0);
      if (*end || !len || len > MAXFILE) return 2;
      if (!(data = calloc(1, len))) return 4;
    }
    b->bytes[i] = len;
    b->mem[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, len ? len : 4, NULL, &rc);
    if (b->mem[i]) rc = clEnqueueWriteBuffer(q, b->mem[i], CL_TRUE, 0, len, data, 0, NULL, NULL);
    free(data);
    if (rc != CL_SUCCESS) return die("writing a buffer", rc);
    rc = clSetKernelArg(k, i, sizeof(cl_mem), &b->mem[i]);
  } else if (!strncmp(spec, "u32:", 4) || !strncmp(spec, "i32:", 4)) {
    uint32_t v = spec[0] == 'u' ? (uint32_t)strtoul(spec + 4, &end, 0) : (uint32_t)strtol(spec + 4, &end, 0);
    if (*end || end == spec + 4) return 2;
    rc = clSetKernelArg(k, i, 4, &v);
  } else if (!strncmp(spec, "f32:", 4)) {
    float v = strtof(spec + 4, &end);
    if (*end || end == spec + 4) return 2;
    rc = clSetKernelArg(k, i, 4, &v);
  } else {
    return 2;
  }
  return rc == CL_SUCCESS ? 0 : die("clSetKernelArg", rc);
}

static int run(cl_context ctx, cl_device_id dev, int argc, char **argv, bufs *b) {
  cl_int rc;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &rc);
  cl_program p = q ? program(ctx, dev, argv[1]) : NULL;
  cl_kernel k = p ? clCreateKernel(p, argv[2], &rc) : NULL;
  int st = k ? 0 : q && p ? die("clCreateKernel", rc) : 4;
  size_t g = strtoul(argv[3], NULL, 0), l = strtoul(argv[4], NULL, 0);
  for (int i = 5; !st && i < argc; i++)
    if ((st = set_arg(ctx, q, k, (cl_uint)(i - 5), argv[i], b)) == 2)
      fprintf(stderr, "cl_run_dump: argument %d: '%s' is no ARG spec\n", i - 5, argv[i]);
  if (!st && (rc = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL)) != CL_SUCCESS)
    st = die("clEnqueueNDRangeKernel", rc);
  for (int i = 0; !st && i < argc - 5; i++) {
    if (!b->mem[i]) continue;
    uint32_t *w = calloc(1, b->bytes[i] + 4);
    if (!w) st = 4;
    else if ((rc = clEnqueueReadBuffer(q, b->mem[i], CL_TRUE, 0, b->bytes[i], w, 0, NULL, NULL)) != CL_SUCCESS)
      st = die("clEnqueueReadBuffer", rc);
    for (size_t j = 0; !st && j < (b->bytes[i] + 3) / 4; j++) printf("0x%08x\n", w[j]);
    free(w);
  }
  if (k) clReleaseKernel(k);
  if (p) clReleaseProgram(p);
  if (q) clReleaseCommandQueue(q);
  return st;
}

int main(int argc, char **argv) {
  if (argc < 5 || argc - 5 > MAXARGS || !strcmp(argv[1], "--help")) {
    fprintf(argc > 1 && !strcmp(argv[1], "--help") ? stdout : stderr,
            "usage: cl_run_dump SOURCE.cl|KERNEL.elf KERNEL GLOBAL LOCAL ARG...\n"
            "  ARG: buf:file=PATH | buf:zero:BYTES | u32:V | i32:V | f32:V (at most %d)\n"
            "  prints every buffer argument after the launch, one word a line\n", MAXARGS);
    return argc > 1 && !strcmp(argv[1], "--help") ? 0 : 2;
  }
  cl_platform_id plats[16];
  cl_uint n = 0;
  cl_device_id dev = NULL;
  cl_int rc = clGetPlatformIDs(16, plats, &n);
  for (cl_uint i = 0; rc == CL_SUCCESS && i < n && i < 16 && !dev; i++) {
    char name[64] = "";
    clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strcmp(name, "chengying") && clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) dev = NULL;
  }
  if (!dev) {
    fprintf(stderr, "cl_run_dump: no chengying OpenCL device (OCL_ICD_VENDORS?)\n");
    return 4;
  }
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &rc);
  if (!ctx) return die("clCreateContext", rc);
  bufs b = {0};
  int st = run(ctx, dev, argc, argv, &b);
  for (int i = 0; i < MAXARGS; i++)
    if (b.mem[i]) clReleaseMemObject(b.mem[i]);
  clReleaseContext(ctx);
  return st;
}
