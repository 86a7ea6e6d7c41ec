/* bench_launch: the cost of launching an empty kernel (bench/kernels/
 * empty.S, one work-group of 32 work-items), enqueue to completion, in µs:
 *   vt     the upstream driver API the way pocl drives it per launch
 *          (metadata block upload, vt_start, vt_ready_wait);
 *   opencl clEnqueueNDRangeKernel + clFinish through the ICD loader and
 *          libchengying-opencl.so (argument block, ELF load, launch).
 * Not a test. Usage: bench_launch [--reps N] [--src DIR] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "asm.h"
#include "bench.h"
#include "elf_load.h"
#include "ventus.h"

static int fail(const char *what, long rc) {
  fprintf(stderr, "bench_launch: %s failed (%ld)\n", what, rc);
  return 1;
}

static void report(const char *path, double *t, int n) {
  double min = t[0];
  for (int i = 1; i < n; i++)
    if (t[i] < min) min = t[i];
  printf("%-8s median %8.1f us   min %8.1f us   (%d launches)\n", path, bench_median(t, n) * 1e6, min * 1e6, n);
}

static int bench_vt(const char *elf, int reps, double *t) {
  vt_device_h d = NULL;
  uint32_t entry;
  vt_error e;
  if (vt_kernel_symbol(elf, "empty", &entry, &e)) return fail(e.msg, -1);
  if (vt_dev_open(&d) || vt_upload_kernel_file(d, elf, 0)) return fail("vt_dev_open/upload", -1);
  uint64_t knl, pds;
  if (vt_buf_alloc(d, 72, &knl, 0, 0, 0) || vt_buf_alloc(d, 0x1000 * 32, &pds, 0, 0, 0))
    return fail("vt_buf_alloc", -1);
  uint32_t md[18] = {entry, 0, 1, 32, 1, 1, 32, 1, 1};
  uint64_t meta[12] = {0, 1, 1, 1, 32, 1, knl, 0x1000, 0x1000, 64, 64, pds};
  for (int i = 0; i < reps; i++) {
    double t0 = bench_now();
    if (vt_copy_to_dev(d, knl, md, sizeof md, 0, 0) || vt_start(d, meta, 0) || vt_ready_wait(d, 1000))
      return fail(vt_last_error(d), -1);
    t[i] = bench_now() - t0;
  }
  vt_dev_close(d);
  return 0;
}

static int bench_cl(const char *elf, int reps, double *t) {
  FILE *f = fopen(elf, "rb");
  static unsigned char bin[1 << 16];
  size_t len = f ? fread(bin, 1, sizeof bin, f) : 0;
  if (f) fclose(f);
  if (!len) return fail("reading the kernel ELF", 0);
  cl_platform_id p[8];
  cl_uint np = 0;
  cl_int err = clGetPlatformIDs(8, p, &np);
  cl_device_id dev = NULL;
  for (cl_uint i = 0; !err && i < np && i < 8 && !dev; i++) {
    char name[64] = "";
    clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (!strcmp(name, "chengying")) clGetDeviceIDs(p[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
  }
  if (!dev) return fail("finding the chengying platform (OCL_ICD_VENDORS?)", err);
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  if (err) return fail("clCreateContext", err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  const unsigned char *bins[1] = {bin};
  cl_program prog = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &err);
  if (err || (err = clBuildProgram(prog, 0, NULL, NULL, NULL, NULL))) return fail("program", err);
  cl_kernel k = clCreateKernel(prog, "empty", &err);
  if (err) return fail("clCreateKernel", err);
  size_t g = 32, l = 32;
  for (int i = 0; i < reps; i++) {
    double t0 = bench_now();
    if ((err = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, NULL)) || (err = clFinish(q)))
      return fail("launch", err);
    t[i] = bench_now() - t0;
  }
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return 0;
}

int main(int argc, char **argv) {
  int reps = 200;
  const char *src = VT_SOURCE_DIR;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--src") && i + 1 < argc)
      src = argv[++i];
    else {
      fprintf(stderr, "usage: bench_launch [--reps N] [--src DIR]\n");
      return 2;
    }
  }
  if (reps < 1 || reps > 100000) return fail("--reps must be 1..100000", reps);
  if (!getenv("OCL_ICD_VENDORS")) setenv("OCL_ICD_VENDORS", VT_BINARY_DIR "/icd", 1);
  char p[2][1024], elf[64];
  snprintf(p[0], sizeof p[0], "%s/kernels/lib/start.S", src);
  snprintf(p[1], sizeof p[1], "%s/bench/kernels/empty.S", src);
  snprintf(elf, sizeof elf, "/tmp/bench_launch_%ld.elf", (long)getpid());
  const char *paths[2] = {p[0], p[1]};
  asm_options opt = {0, ASM_DEFAULT_TEXT_ADDR, 0, 0};
  vt_error e;
  if (asm_assemble_files(paths, 2, &opt, elf, NULL, &e)) return fail(e.msg, -1);
  double *t = calloc((size_t)reps, sizeof *t);
  int rc = !t || bench_vt(elf, reps, t);
  if (!rc) report("vt", t, reps);
  if (!rc && !(rc = bench_cl(elf, reps, t))) report("opencl", t, reps);
  free(t);
  unlink(elf);
  return rc;
}
