/* The OpenCL harnesses' set-up (fz_cl.h). */
#include "fz_cl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_util.h"
#include "vt_file.h"

cl_device_id fz_cl_device(void) {
  static cl_device_id dev;
  if (dev) return dev;
  /* read once per process by the platform, so set before its first use */
  char cfg[256];
  snprintf(cfg, sizeof cfg, "[device]\nnum_sm = 1\nmax_steps = %d\n", FZ_CL_MAX_STEPS);
  fz_write("device.cfg", cfg, strlen(cfg));
  char path[512];
  fz_path(path, sizeof path, "device.cfg");
  setenv("CHENGYING_CONFIG", path, 1);
  cl_platform_id plat;
  cl_uint n = 0;
  if (clGetPlatformIDs(1, &plat, &n) || !n || clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL)) {
    fprintf(stderr, "fuzz: our OpenCL platform has no usable device\n");
    abort();
  }
  return dev;
}

static void CL_CALLBACK quiet(const char *msg, const void *info, size_t n, void *user) {
  (void)msg, (void)info, (void)n, (void)user;
}

cl_context fz_cl_context(void) {
  cl_device_id dev = fz_cl_device();
  cl_int rc;
  cl_context c = clCreateContext(NULL, 1, &dev, quiet, NULL, &rc);
  if (!c) {
    fprintf(stderr, "fuzz: clCreateContext: %d\n", rc);
    abort();
  }
  return c;
}

uint8_t *fz_cl_seed(const char *name, size_t *n) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", FZ_SEEDS, name);
  vt_error e = {0};
  char *b = vt_read_file(path, n, &e);
  if (!b) {
    fprintf(stderr, "fuzz: %s\n", e.msg);
    abort();
  }
  return (uint8_t *)b;
}

cl_program fz_cl_program(cl_context ctx, const uint8_t *bin, size_t n, cl_int *rc) {
  cl_device_id dev = fz_cl_device();
  cl_int st = 0;
  cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &n, &bin, &st, rc);
  if (!p) {
    if (*rc != CL_INVALID_BINARY || st != CL_INVALID_BINARY) {
      fprintf(stderr, "clCreateProgramWithBinary: %d (binary status %d), not CL_INVALID_BINARY\n", *rc, st);
      abort();
    }
    return NULL;
  }
  *rc = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
  if (*rc == CL_SUCCESS) return p;
  size_t len = 0;
  if (*rc != CL_BUILD_PROGRAM_FAILURE && *rc != CL_OUT_OF_HOST_MEMORY) {
    fprintf(stderr, "clBuildProgram of a binary: %d\n", *rc);
    abort();
  }
  if (*rc == CL_BUILD_PROGRAM_FAILURE &&
      (clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) || len < 2)) {
    fprintf(stderr, "a binary refused without a message in the build log\n");
    abort();
  }
  clReleaseProgram(p);
  return NULL;
}
