/* printf in a kernel built with clBuildProgram: the text clFinish writes
 * to stdout is exactly what C's printf gives for the same values, work-
 * items in lane order within each call, calls in program order (one warp,
 * so the order is fixed), only the work-items that reach the call
 * (divergent if and loop), vectors, strings, length modifiers and %%. */
#include "cl_test.h"

#include <stdint.h>
#include <unistd.h>

#include <stdlib.h>

static const char *src =
    "__kernel void p(__global const int *a, float x, int4 v) {\n"
    "  int i = get_global_id(0);\n"
    "  if (i % 3 == 1)\n"
    "    printf(\"wi %d: %5.2f %c|%-4s|%x %v4d %hhd\\n\", i, x * i, 'A' + i, \"ab\", a[i], v, (char)(200 + i));\n"
    "  for (int j = 0; j < i % 3; j++) printf(\"%d.%d\\n\", i, j);\n"
    "  if (i == 0) printf(\"100%% done, %s, %v2hlf\\n\", \"zero\", (float2)(x, -x));\n"
    "}\n";

/* the expected text, from C's own printf: the if's lines (lane order), the
 * loop's lines (any order between work-items: the compiler may reshape a
 * loop whose trip count it can bound, so they are compared sorted), the
 * last line */
static void expected(char *ifs, char *loop, char *last, size_t cap, int n, float x) {
  size_t at = 0;
  for (int i = 0; i < n; i++)
    if (i % 3 == 1)
      at += (size_t)snprintf(ifs + at, cap - at, "wi %d: %5.2f %c|%-4s|%x %d,%d,%d,%d %hhd\n", i, (double)(x * (float)i),
                             'A' + i, "ab", i * 0x1111, 7, -8, 9, 2147483647, (char)(200 + i));
  at = 0;
  for (int j = 0; j < 2; j++)
    for (int i = 0; i < n; i++)
      if (j < i % 3) at += (size_t)snprintf(loop + at, cap - at, "%d.%d\n", i, j);
  snprintf(last, cap, "100%% done, %s, %f,%f\n", "zero", (double)x, (double)-x);
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* the lines of s, sorted, joined again */
static void sort_lines(char *s) {
  static char *v[4096];
  static char copy[16384];
  size_t n = 0, len = strlen(s);
  memcpy(copy, s, len + 1);
  for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l && n < 4096; l = strtok_r(NULL, "\n", &save)) v[n++] = l;
  qsort(v, n, sizeof *v, cmp_line);
  s[0] = 0;
  for (size_t i = 0; i < n; i++) strcat(strcat(s, v[i]), "\n");
}

int main(void) {
  cl_int err;
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue q;
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;
  cl_program p = cy_test_source_program(ctx, dev, src, "-w");
  cl_kernel k = clCreateKernel(p, "p", &err);
  CHECK(err);
  size_t n = 0; /* one warp: the lanes of one work-group */
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof n, &n, NULL));
  if (n > 64) n = 64;
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i * 0x1111;
  cl_mem A = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  CHECK(err);
  float x = 1.25f;
  cl_int4 v = {{7, -8, 9, 2147483647}};
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK(clSetKernelArg(k, 1, sizeof x, &x));
  CHECK(clSetKernelArg(k, 2, sizeof v, &v));

  /* stdout into a file while the queue finishes */
  char path[] = "/tmp/cy-printf-XXXXXX";
  int fd = mkstemp(path);
  EXPECT(fd >= 0);
  fflush(stdout);
  int saved = dup(1);
  dup2(fd, 1);
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, &n, 0, NULL, NULL));
  CHECK(clFinish(q));
  fflush(stdout);
  dup2(saved, 1);
  close(saved);
  static char got[16384], ifs[16384], loop[16384], last[256];
  ssize_t len = pread(fd, got, sizeof got - 1, 0);
  close(fd);
  unlink(path);
  got[len > 0 ? len : 0] = 0;
  expected(ifs, loop, last, sizeof ifs, (int)n, x);
  size_t li = strlen(ifs), ll = strlen(loop), lt = strlen(last), lg = strlen(got);
  int ok = lg == li + ll + lt && !strncmp(got, ifs, li) && !strcmp(got + li + ll, last);
  if (ok) {
    got[li + ll] = 0;
    sort_lines(got + li);
    sort_lines(loop);
    ok = !strcmp(got + li, loop);
  }
  if (!ok) {
    fprintf(stderr, "printed:\n%s\nexpected:\n%s%s%s\n", got, ifs, loop, last);
    cy_failures++;
  }
  CHECK(clReleaseMemObject(A));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  if (cy_failures) return 1;
  printf("printf: %zu work-items, the text matches C's printf\n", n);
  return 0;
}
