/* The example kernels through OpenCL, results checked against the plain-C
 * references of tests/kernels/ref_kernels.c: vector add (with a global
 * offset and a NULL local size), matrix multiply (2-D), a reduction with a
 * __local argument, a divergent kernel, printf through the print buffer
 * (on stdout when the launch's event completes), the argument metadata
 * queries, and argument buffers released while a kernel or a launch holds
 * them. */
#include "cl_test.h"

#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ref_kernels.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static cl_mem buffer(cl_mem_flags f, size_t size, void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, f, size, host, &err);
  CHECK(err);
  return m;
}

static cl_kernel kernel(cl_program p, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, name, &err);
  CHECK(err);
  return k;
}

static void test_vecadd(void) {
  enum { N = 1000 };
  static float a[N], b[N], c[N], want[N];
  for (int i = 0; i < N; i++) a[i] = (float)i * 0.25f, b[i] = 1.5f - (float)i;
  ref_vecadd(a, b, want, N);
  cl_program p = cy_test_program(ctx, dev, "vecadd");
  cl_kernel k = kernel(p, "vecadd");
  cl_mem A = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
  cl_mem B = buffer(CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, sizeof b, b);
  cl_mem C = buffer(CL_MEM_WRITE_ONLY, sizeof c, NULL);
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK(clSetKernelArg(k, 1, sizeof B, &B));
  CHECK(clSetKernelArg(k, 2, sizeof C, &C));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global = N, local = 40;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  EXPECT(!memcmp(c, want, sizeof c));
  /* global offset 600, NULL local size: items 600..999 recomputed into a zeroed C */
  float zero = 0;
  CHECK(clEnqueueFillBuffer(q, C, &zero, sizeof zero, 0, sizeof c, 0, NULL, NULL));
  size_t off = 600, g2 = N - 600;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, &off, &g2, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  int bad = 0;
  for (int i = 0; i < N; i++) bad += c[i] != (i < 600 ? 0.0f : want[i]);
  EXPECT(bad == 0);
  /* the metadata of vecadd.S */
  char s[64];
  cl_kernel_arg_address_qualifier aq;
  CHECK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_NAME, sizeof s, s, NULL));
  EXPECT(!strcmp(s, "C"));
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof s, s, NULL));
  EXPECT(!strcmp(s, "float*"));
  CHECK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(aq == CL_KERNEL_ARG_ADDRESS_PRIVATE);
  cl_uint nargs;
  CHECK(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL));
  EXPECT(nargs == 4);
  CHECK(clReleaseMemObject(A));
  CHECK(clReleaseMemObject(B));
  CHECK(clReleaseMemObject(C));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

static void test_matmul(void) {
  enum { M = 24, K = 20, N = 28 };
  static int32_t a[M * K], b[K * N], c[M * N], want[M * N];
  for (int i = 0; i < M * K; i++) a[i] = i % 13 - 6;
  for (int i = 0; i < K * N; i++) b[i] = (i * 7) % 11 - 5;
  ref_matmul(a, b, want, M, K, N);
  cl_program p = cy_test_program(ctx, dev, "matmul");
  cl_kernel k = kernel(p, "matmul");
  cl_mem A = buffer(CL_MEM_COPY_HOST_PTR, sizeof a, a), B = buffer(CL_MEM_COPY_HOST_PTR, sizeof b, b);
  cl_mem C = buffer(CL_MEM_ALLOC_HOST_PTR, sizeof c, NULL);
  cl_uint m = M, kk = K, n = N;
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK(clSetKernelArg(k, 1, sizeof B, &B));
  CHECK(clSetKernelArg(k, 2, sizeof C, &C));
  CHECK(clSetKernelArg(k, 3, sizeof m, &m));
  CHECK(clSetKernelArg(k, 4, sizeof kk, &kk));
  CHECK(clSetKernelArg(k, 5, sizeof n, &n));
  size_t global[2] = {N, M}, local[2] = {4, 8};
  CHECK(clEnqueueNDRangeKernel(q, k, 2, NULL, global, local, 0, NULL, NULL));
  cl_int err;
  int32_t *map = clEnqueueMapBuffer(q, C, CL_TRUE, CL_MAP_READ, 0, sizeof c, 0, NULL, NULL, &err);
  CHECK(err);
  EXPECT(!memcmp(map, want, sizeof c));
  CHECK(clEnqueueUnmapMemObject(q, C, map, 0, NULL, NULL));
  CHECK(clFinish(q));
  CHECK(clReleaseMemObject(A));
  CHECK(clReleaseMemObject(B));
  CHECK(clReleaseMemObject(C));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

static void test_reduce_local(void) {
  enum { N = 1000, L = 64, G = (N + L - 1) / L };
  static int32_t in[N], out[G], want[G];
  for (int i = 0; i < N; i++) in[i] = (i * 37) % 101 - 50;
  ref_reduce(in, want, N, L, G);
  cl_program p = cy_test_program(ctx, dev, "reduce_local");
  cl_kernel k = kernel(p, "reduce_local");
  cl_mem I = buffer(CL_MEM_COPY_HOST_PTR, sizeof in, in), O = buffer(0, sizeof out, NULL);
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof I, &I));
  CHECK(clSetKernelArg(k, 1, sizeof O, &O));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  CHECK(clSetKernelArg(k, 3, L * sizeof(int32_t), NULL));
  /* its metadata comes from the macros of kernels/lib/args.inc */
  char name[32];
  cl_kernel_arg_address_qualifier aq;
  cl_kernel_arg_type_qualifier tq;
  CHECK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_NAME, sizeof name, name, NULL));
  CHECK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(!strcmp(name, "scratch") && aq == CL_KERNEL_ARG_ADDRESS_LOCAL);
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_QUALIFIER, sizeof tq, &tq, NULL));
  EXPECT(tq == CL_KERNEL_ARG_TYPE_CONST);
  cl_ulong lm;
  CHECK(clGetKernelWorkGroupInfo(k, dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL));
  EXPECT(lm == L * sizeof(int32_t));
  size_t global = G * L, local = L;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  EXPECT(!memcmp(out, want, sizeof out));
  CHECK(clReleaseMemObject(I));
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

static void test_diverge(void) {
  enum { N = 300 };
  static uint32_t in[N], out[N], want[N];
  for (int i = 0; i < N; i++) in[i] = (uint32_t)(i * 2654435761u) % 1000;
  ref_diverge(in, want, N);
  cl_program p = cy_test_program(ctx, dev, "diverge");
  /* no metadata needed to find it, but it has some: CL_PROGRAM_KERNEL_NAMES lists it */
  char names[64];
  CHECK(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, NULL));
  EXPECT(!strcmp(names, "diverge"));
  cl_kernel k;
  cl_uint nk;
  CHECK(clCreateKernelsInProgram(p, 1, &k, &nk));
  EXPECT(nk == 1);
  cl_mem I = buffer(CL_MEM_COPY_HOST_PTR, sizeof in, in), O = buffer(0, sizeof out, NULL);
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof I, &I));
  CHECK(clSetKernelArg(k, 1, sizeof O, &O));
  CHECK(clSetKernelArg(k, 2, sizeof n, &n));
  size_t global = N, local = 20; /* a warp width that divides 20: no idle lanes */
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  EXPECT(!memcmp(out, want, sizeof out));
  CHECK(clReleaseMemObject(I));
  CHECK(clReleaseMemObject(O));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

/* hello.S prints one line per work-group. Each launch's text reaches
 * stdout before its event is complete and before its callbacks run (the
 * CTS's test_printf waits for the event only, then reads the file), in
 * launch order. */
static int printed_at_callback = -1;
static void CL_CALLBACK on_hello_done(cl_event ev, cl_int st, void *user) {
  (void)ev;
  struct stat sb;
  printed_at_callback = st == CL_COMPLETE && !fstat(*(int *)user, &sb) ? (int)sb.st_size : -2;
}

static void test_printf(void) {
  cl_program p = cy_test_program(ctx, dev, "hello");
  cl_kernel k = kernel(p, "hello");
  size_t g4 = 4 * 32, g2 = 2 * 32, local = 32;
  fflush(stdout);
  FILE *tmp = tmpfile();
  int saved = dup(1), fd = tmp ? fileno(tmp) : -1;
  if (!tmp || saved < 0 || dup2(fd, 1) < 0) {
    perror("redirecting stdout");
    exit(1);
  }
  cl_event e1, e2;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g4, &local, 0, NULL, &e1));
  CHECK(clSetEventCallback(e1, CL_COMPLETE, on_hello_done, &fd));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g2, &local, 0, NULL, &e2));
  CHECK(clWaitForEvents(1, &e2)); /* no clFinish */
  dup2(saved, 1);
  close(saved);
  char got[512] = "";
  rewind(tmp);
  size_t n = fread(got, 1, sizeof got - 1, tmp);
  got[n] = 0;
  fclose(tmp);
  char want[512];
  int at = 0;
  for (int g = 0; g < 4; g++) at += snprintf(want + at, sizeof want - (size_t)at, "hello from work-group %d\n", g);
  int first = at; /* the first launch's text */
  for (int g = 0; g < 2; g++) at += snprintf(want + at, sizeof want - (size_t)at, "hello from work-group %d\n", g);
  if (strcmp(got, want)) fprintf(stderr, "printf output:\n%s", got);
  EXPECT(!strcmp(got, want));
  EXPECT(printed_at_callback >= first); /* the callback ran after e1, when its text was in the file */
  CHECK(clReleaseEvent(e1));
  CHECK(clReleaseEvent(e2));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

/* clSetKernelArg holds no reference (OpenCL 1.2; the CTS's
 * retain_mem_object_set_kernel_arg): a released argument buffer is
 * destroyed at once while the kernel lives. An enqueued launch holds its
 * buffers until it has run. */
static void CL_CALLBACK on_destroy(cl_mem m, void *user) {
  (void)m;
  ++*(int *)user;
}

static void test_arg_release(void) {
  enum { N = 256 };
  static float a[N], b[N], c[N], want[N];
  for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f * (float)i;
  ref_vecadd(a, b, want, N);
  cl_program p = cy_test_program(ctx, dev, "vecadd");
  cl_kernel k = kernel(p, "vecadd");
  int gone_a = 0, gone_b = 0;
  cl_mem A = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
  CHECK(clSetMemObjectDestructorCallback(A, on_destroy, &gone_a));
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  CHECK(clReleaseMemObject(A));
  EXPECT(gone_a == 1); /* at once, the kernel still alive */
  cl_mem B = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof b, b);
  cl_mem C = buffer(CL_MEM_WRITE_ONLY, sizeof c, NULL);
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 1, sizeof B, &B));
  CHECK(clSetKernelArg(k, 2, sizeof C, &C));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  size_t global = N, local = 64;
  /* argument 0 names a buffer that is gone */
  EXPECT_ERR(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  /* held back by a user event, then its inputs released: it still computes */
  gone_a = 0;
  A = buffer(CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof a, a);
  CHECK(clSetMemObjectDestructorCallback(A, on_destroy, &gone_a));
  CHECK(clSetMemObjectDestructorCallback(B, on_destroy, &gone_b));
  CHECK(clSetKernelArg(k, 0, sizeof A, &A));
  cl_int err;
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK(err);
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 1, &gate, NULL));
  CHECK(clReleaseMemObject(A));
  CHECK(clReleaseMemObject(B));
  EXPECT(gone_a == 0 && gone_b == 0); /* the queued launch holds them */
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  EXPECT(!memcmp(c, want, sizeof c));
  CHECK(clFinish(q));
  EXPECT(gone_a == 1 && gone_b == 1); /* released when the launch ended */
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseMemObject(C));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
}

int main(void) {
  cl_int err;
  dev = cy_test_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  test_vecadd();
  test_matmul();
  test_reduce_local();
  test_diverge();
  test_printf();
  test_arg_release();
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_kernels");
}
