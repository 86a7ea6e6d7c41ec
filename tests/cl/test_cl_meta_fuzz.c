/* Robustness of the argument-metadata reader: the .ventus.args section of
 * vecadd.elf is overwritten with seeded random and mutated bytes, and every
 * variant is built. The build must succeed (then clCreateKernel works) or
 * fail with CL_BUILD_PROGRAM_FAILURE and a one-line log naming the section;
 * nothing may crash or read outside the section (the sanitizer build runs
 * this too). */
#include "cl_test.h"

#include <stdint.h>

#define ROUNDS 400

static uint32_t rng = 12345;
static uint32_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 17, rng ^= rng << 5;
  return rng;
}

int main(void) {
  cl_int err;
  cl_device_id dev = cy_test_device();
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  char path[512];
  snprintf(path, sizeof path, "%s/vecadd.elf", CY_KERNEL_DIR);
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  static unsigned char orig[1 << 16], img[1 << 16];
  size_t len = fread(orig, 1, sizeof orig, f);
  fclose(f);
  size_t off, size;
  if (cy_test_find_section(orig, len, ".ventus.args.vecadd", &off, &size) || off + size > len) {
    fprintf(stderr, "%s: no .ventus.args.vecadd section\n", path);
    return 1;
  }
  int built = 0, refused = 0;
  for (int r = 0; r < ROUNDS; r++) {
    memcpy(img, orig, len);
    if (r % 4 == 0) { /* all random */
      for (size_t i = 0; i < size; i++) img[off + i] = (unsigned char)next();
    } else { /* a few mutations of the valid section; small counts and sizes stay likely */
      int n = 1 + (int)(next() % 4);
      for (int k = 0; k < n; k++) {
        size_t at = off + next() % size;
        uint32_t how = next() % 4;
        img[at] = how == 0 ? 0 : how == 1 ? (unsigned char)next() : how == 2 ? (unsigned char)(img[at] ^ (1u << (next() % 8))) : 0xff;
      }
    }
    const unsigned char *bins[1] = {img};
    cl_program p = clCreateProgramWithBinary(ctx, 1, &dev, &len, bins, NULL, &err);
    CHECK(err); /* the section is not loaded: the ELF itself stays valid */
    cl_int rc = clBuildProgram(p, 0, NULL, NULL, NULL, NULL);
    char log[600] = "";
    CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
    if (rc == CL_SUCCESS) {
      cl_kernel k = clCreateKernel(p, "vecadd", &err);
      EXPECT(err == CL_SUCCESS);
      if (k) CHECK(clReleaseKernel(k));
      built++;
    } else {
      EXPECT(rc == CL_BUILD_PROGRAM_FAILURE);
      EXPECT(!strncmp(log, "section .ventus.args.vecadd: ", 29) && !strchr(log, '\n'));
      if (strncmp(log, "section .ventus.args.vecadd: ", 29)) fprintf(stderr, "round %d: log '%s'\n", r, log);
      refused++;
    }
    CHECK(clReleaseProgram(p));
  }
  printf("%d variants built, %d refused\n", built, refused);
  EXPECT(built > 0 && refused > 0);
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_meta_fuzz");
}
