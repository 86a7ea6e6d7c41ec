/* Common part of the OpenCL host tests: plain OpenCL programs built against
 * the standard headers, linked with -lOpenCL and run through the ICD loader
 * (OCL_ICD_VENDORS = the build tree's icd/ directory, set by CTest). Kernel
 * binaries are the examples assembled by `ventus as` into CY_KERNEL_DIR. */
#ifndef CY_CL_TEST_H
#define CY_CL_TEST_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cy_failures;

/* A call that must succeed: the test stops at the first failure. */
#define CHECK(x)                                                                                               \
  do {                                                                                                         \
    cl_int rc_ = (x);                                                                                          \
    if (rc_ != CL_SUCCESS) {                                                                                   \
      fprintf(stderr, "%s:%d: %s returned %d\n", __FILE__, __LINE__, #x, rc_);                                 \
      exit(1);                                                                                                 \
    }                                                                                                          \
  } while (0)

/* A call that must fail with `code`; the test goes on either way. */
#define EXPECT_ERR(x, code)                                                                                    \
  do {                                                                                                         \
    cl_int rc_ = (x);                                                                                          \
    if (rc_ != (code)) {                                                                                       \
      fprintf(stderr, "%s:%d: %s returned %d, expected %s (%d)\n", __FILE__, __LINE__, #x, rc_, #code, code);   \
      cy_failures++;                                                                                           \
    }                                                                                                          \
  } while (0)

#define EXPECT(cond)                                                                                           \
  do {                                                                                                         \
    if (!(cond)) {                                                                                             \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);                                      \
      cy_failures++;                                                                                           \
    }                                                                                                          \
  } while (0)

/* The chengying platform among those the loader knows (others may be installed). */
static inline cl_platform_id cy_test_platform(void) {
  cl_platform_id p[16];
  cl_uint n = 0;
  CHECK(clGetPlatformIDs(16, p, &n));
  for (cl_uint i = 0; i < n && i < 16; i++) {
    char name[64] = "";
    CHECK(clGetPlatformInfo(p[i], CL_PLATFORM_NAME, sizeof name, name, NULL));
    if (!strcmp(name, "chengying")) return p[i];
  }
  fprintf(stderr, "no chengying platform (is OCL_ICD_VENDORS the build tree's icd/ directory?)\n");
  exit(1);
}

static inline cl_device_id cy_test_device(void) {
  cl_device_id d;
  CHECK(clGetDeviceIDs(cy_test_platform(), CL_DEVICE_TYPE_ALL, 1, &d, NULL));
  return d;
}

/* A program from the kernel binary CY_KERNEL_DIR/<name>.elf, built. */
static inline cl_program cy_test_program(cl_context ctx, cl_device_id dev, const char *name) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s.elf", CY_KERNEL_DIR, name);
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  enum { MAX = 1 << 20 };
  unsigned char *buf = malloc(MAX); /* not static: threads load programs too */
  size_t len = buf ? fread(buf, 1, MAX, f) : 0;
  fclose(f);
  const unsigned char *bins[1] = {buf};
  cl_int err, status;
  cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, &status, &err);
  free(buf);
  CHECK(err);
  CHECK(status);
  CHECK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
  return p;
}

/* A program built from OpenCL C source with `options`; a failed build
 * prints its log and ends the test with status 1. */
static inline cl_program cy_test_source_program(cl_context ctx, cl_device_id dev, const char *src, const char *options) {
  cl_int err;
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  if (clBuildProgram(p, 1, &dev, options, NULL, NULL)) {
    char log[4096] = "";
    clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    exit(1);
  }
  return p;
}

static inline int cy_test_end(const char *name) {
  if (cy_failures) {
    printf("%s: %d failures\n", name, cy_failures);
    return 1;
  }
  printf("%s: ok\n", name);
  return 0;
}

/* The chengying device with a context and an in-order queue, when the
 * platform has `cap` (CL_DEVICE_COMPILER_AVAILABLE or
 * CL_DEVICE_LINKER_AVAILABLE); otherwise a SKIP line and 0, and the test
 * ends with status 0. */
static inline int cy_test_cc_setup(cl_device_info cap, cl_device_id *dev, cl_context *ctx, cl_command_queue *q) {
  cl_int err;
  CHECK(clGetDeviceIDs(cy_test_platform(), CL_DEVICE_TYPE_ALL, 1, dev, NULL));
  cl_bool have = CL_FALSE;
  CHECK(clGetDeviceInfo(*dev, cap, sizeof have, &have, NULL));
  if (!have) {
    printf("SKIP: this build of the platform has no OpenCL C compiler\n");
    return 0;
  }
  *ctx = clCreateContext(NULL, 1, dev, NULL, NULL, &err);
  CHECK(err);
  *q = clCreateCommandQueue(*ctx, *dev, 0, &err);
  CHECK(err);
  return 1;
}

/* file offset and size of the section `name` in an ELF32 image */
static inline int cy_test_find_section(const unsigned char *img, size_t len, const char *name, size_t *off, size_t *size) {
  Elf32_Ehdr eh;
  if (len < sizeof eh) return -1;
  memcpy(&eh, img, sizeof eh);
  if ((size_t)eh.e_shoff + (size_t)eh.e_shnum * sizeof(Elf32_Shdr) > len || eh.e_shstrndx >= eh.e_shnum) return -1;
  Elf32_Shdr strs;
  memcpy(&strs, img + eh.e_shoff + eh.e_shstrndx * sizeof strs, sizeof strs);
  for (unsigned i = 0; i < eh.e_shnum; i++) {
    Elf32_Shdr sh;
    memcpy(&sh, img + eh.e_shoff + i * sizeof sh, sizeof sh);
    if (strs.sh_offset + sh.sh_name < len && !strcmp((const char *)img + strs.sh_offset + sh.sh_name, name)) {
      *off = sh.sh_offset;
      *size = sh.sh_size;
      return 0;
    }
  }
  return -1;
}

#endif
