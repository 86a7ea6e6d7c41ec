/* CHENGYING_EXPORT_TESTVEC=DIR: every NDRange launch of a context is one
 * more test vector of DIR. Two launches of vecadd with a host write between
 * them (C = A + B; B rewritten; A = C + B): kernels.txt lists vecadd_0 and
 * vecadd_1, and `ventus run DIR` (the build tree's ventus) ends with the
 * memory the application read back, the buffers found through the first
 * launch's kernel block and argument block as the kernel finds them. */
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cl_test.h"

enum { N = 1000, MAXW = 1 << 20 };

/* The non-blank hex lines of a test-vector file; the count, or -1. */
static long read_words(const char *path, uint32_t *w) {
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  char line[64];
  long n = 0;
  while (n < MAXW && fgets(line, sizeof line, f))
    if (line[0] != '\n') w[n++] = (uint32_t)strtoul(line, NULL, 16);
  fclose(f);
  return n;
}

typedef struct {
  uint32_t *meta, *data;
  long nmeta, ndata;
} image;

/* The word at addr in the launch's .data, or ~0 when no buffer holds it. */
static uint32_t word_at(const image *im, uint32_t addr) {
  uint32_t nb = im->meta[26];
  long k = 0;
  for (uint32_t i = 0; i < nb; i++) {
    uint32_t base = im->meta[28 + 2 * i], size = im->meta[28 + 2 * (nb + i)];
    if (addr >= base && addr - base < size && k + (addr - base) / 4 < im->ndata) return im->data[k + (addr - base) / 4];
    k += (size + 3) / 4;
  }
  return ~0u;
}

static int run_ventus(const char *dir, const char *expect) {
  char cmd[1600];
  snprintf(cmd, sizeof cmd, "./ventus run '%s' --expect '%s' --quiet 2>/dev/null", dir, expect);
  int rc = system(cmd);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

int main(void) {
  const char *t = getenv("TMPDIR");
  char top[512], dir[600], path[700];
  snprintf(top, sizeof top, "%s/cy-export-XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(top)) {
    perror(top);
    return 1;
  }
  snprintf(dir, sizeof dir, "%s/tv", top); /* the platform creates it */
  setenv("CHENGYING_EXPORT_TESTVEC", dir, 1);

  static float a[N], b[N], b2[N], c[N], a_out[N], b_out[N], want_c[N], want_a[N];
  for (int i = 0; i < N; i++) {
    a[i] = (float)i * 0.25f, b[i] = 1.5f - (float)i, b2[i] = (float)(i % 7) * 3.0f;
    want_c[i] = a[i] + b[i];
    want_a[i] = want_c[i] + b2[i];
  }
  cl_int err;
  cl_device_id dev = cy_test_device();
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  cl_program p = cy_test_program(ctx, dev, "vecadd");
  cl_kernel k = clCreateKernel(p, "vecadd", &err);
  CHECK(err);
  cl_mem A = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof a, a, &err);
  CHECK(err);
  cl_mem B = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, sizeof b, b, &err);
  CHECK(err);
  cl_mem C = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof c, NULL, &err);
  CHECK(err);
  cl_uint n = N;
  size_t global = N, local = 40;
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK(clSetKernelArg(k, 1, sizeof B, &B));
  CHECK(clSetKernelArg(k, 2, sizeof C, &C));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  /* a host write between the launches: the second test vector must carry it */
  CHECK(clEnqueueWriteBuffer(q, B, CL_TRUE, 0, sizeof b2, b2, 0, NULL, NULL));
  CHECK(clSetKernelArg(k, 0, sizeof C, &C));
  CHECK(clSetKernelArg(k, 2, sizeof A, &A));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, A, CL_TRUE, 0, sizeof a_out, a_out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, B, CL_TRUE, 0, sizeof b_out, b_out, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  EXPECT(!memcmp(c, want_c, sizeof c));
  EXPECT(!memcmp(a_out, want_a, sizeof a_out));
  CHECK(clReleaseMemObject(A));
  CHECK(clReleaseMemObject(B));
  CHECK(clReleaseMemObject(C));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));

  /* kernels.txt: the two launches in order */
  snprintf(path, sizeof path, "%s/kernels.txt", dir);
  FILE *f = fopen(path, "r");
  char list[256] = "", line[128];
  while (f && fgets(line, sizeof line, f))
    if (line[0] != '#' && strlen(list) + strlen(line) < sizeof list) strcat(list, line);
  if (f) fclose(f);
  EXPECT(!strcmp(list, "vecadd_0\nvecadd_1\n"));

  /* the buffers' addresses: kernel block (metaDataBaseAddr) +4 = the
   * argument block, whose words 0-2 are A, B and C */
  image im = {malloc(MAXW * sizeof(uint32_t)), malloc(MAXW * sizeof(uint32_t)), 0, 0};
  if (!im.meta || !im.data) return 1;
  snprintf(path, sizeof path, "%s/vecadd_0.metadata", dir);
  im.nmeta = read_words(path, im.meta);
  snprintf(path, sizeof path, "%s/vecadd_0.data", dir);
  im.ndata = read_words(path, im.data);
  EXPECT(im.nmeta >= 28 && im.ndata > 0);
  uint32_t addr[3] = {~0u, ~0u, ~0u};
  if (im.nmeta >= 28 && im.ndata > 0) {
    EXPECT(im.meta[4] == N / local && im.meta[6] == 1); /* grid (25, 1, 1) */
    uint32_t args = word_at(&im, im.meta[14] + 4);
    for (int i = 0; i < 3; i++) addr[i] = word_at(&im, args + 4 * (uint32_t)i);
    /* the first launch's inputs are there, as the application gave them */
    uint32_t w;
    memcpy(&w, &a[5], 4);
    EXPECT(word_at(&im, addr[0] + 20) == w);
  }
  free(im.meta);
  free(im.data);

  /* `ventus run DIR` ends with A, B and C as the application read them */
  char expect[700];
  snprintf(expect, sizeof expect, "%s/expect.txt", top);
  const float *host[3] = {a_out, b_out, c};
  for (int bad = 0; bad < 2; bad++) {
    f = fopen(expect, "w");
    if (!f) return 1;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < N; j++) {
        uint32_t w;
        memcpy(&w, &host[i][j], 4);
        if (bad && i == 0 && j == N - 1) w ^= 1; /* the comparison can fail */
        fprintf(f, "0x%08x 0x%08x\n", addr[i] + 4 * (uint32_t)j, w);
      }
    fclose(f);
    int rc = run_ventus(dir, expect);
    if (bad) EXPECT(rc == 1);
    else EXPECT(rc == 0);
    if (rc != (bad ? 1 : 0)) fprintf(stderr, "ventus run %s --expect: status %d\n", dir, rc);
  }
  snprintf(path, sizeof path, "rm -rf '%s'", top);
  if (system(path)) cy_failures++;
  return cy_test_end("test_cl_export_testvec");
}
