/* Robustness of the kernel-metadata readers: the .ventus.args section of
 * vecadd.elf and the .ventus.attrs section of attrs.elf are overwritten
 * with seeded random and mutated bytes, and every variant is built. The
 * build must succeed (then clCreateKernel works) or fail with
 * CL_BUILD_PROGRAM_FAILURE and a one-line log naming the section;
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

/* ROUNDS variants of section `sec` of kernel `kern` in CY_KERNEL_DIR/elf:
 * each builds (then clCreateKernel works) or is refused with one line
 * naming the section. 0 when both happened. */
static int fuzz_section(cl_context ctx, cl_device_id dev, const char *elf, const char *sec, const char *kern) {
  cl_int err;
  char path[512];
  snprintf(path, sizeof path, "%s/%s", CY_KERNEL_DIR, elf);
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    return 1;
  }
  static unsigned char orig[1 << 16], img[1 << 16];
  size_t len = fread(orig, 1, sizeof orig, f);
  fclose(f);
  size_t off, size;
  if (cy_test_find_section(orig, len, sec, &off, &size) || off + size > len || !size) {
    fprintf(stderr, "%s: no %s section\n", path, sec);
    return 1;
  }
  char want[128];
  size_t wlen = (size_t)snprintf(want, sizeof want, "section %s: ", sec);
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
      cl_kernel k = clCreateKernel(p, kern, &err);
      EXPECT(err == CL_SUCCESS);
      if (k) CHECK(clReleaseKernel(k));
      built++;
    } else {
      EXPECT(rc == CL_BUILD_PROGRAM_FAILURE);
      EXPECT(!strncmp(log, want, wlen) && !strchr(log, '\n'));
      if (strncmp(log, want, wlen)) fprintf(stderr, "%s round %d: log '%s'\n", sec, r, log);
      refused++;
    }
    CHECK(clReleaseProgram(p));
  }
  printf("%s: %d variants built, %d refused\n", sec, built, refused);
  return !(built > 0 && refused > 0);
}

int main(void) {
  cl_int err;
  cl_device_id dev = cy_test_device();
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  EXPECT(!fuzz_section(ctx, dev, "vecadd.elf", ".ventus.args.vecadd", "vecadd"));
  EXPECT(!fuzz_section(ctx, dev, "attrs.elf", ".ventus.attrs.fixed", "fixed"));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_meta_fuzz");
}
