/* Threads: clWaitForEvents and clFinish in one thread wake when another
 * thread completes the user event they depend on; two threads run vecadd
 * on their own contexts at the same time; two threads enqueue on one shared
 * context. Results are checked against plain C. */
#include "cl_test.h"

#include <pthread.h>
#include <time.h>

#include "ref_kernels.h"

enum { N = 512, ROUNDS = 8 };
static cl_device_id dev;

typedef struct {
  cl_context ctx;       /* NULL: the thread makes its own */
  float scale;
  int bad;
} job;

/* ROUNDS launches of vecadd on fresh data, each result compared */
static void *run_vecadd(void *arg) {
  job *j = arg;
  cl_int err;
  cl_context ctx = j->ctx ? j->ctx : clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  cl_program p = cy_test_program(ctx, dev, "vecadd");
  cl_kernel k = clCreateKernel(p, "vecadd", &err);
  static _Thread_local float a[N], b[N], c[N], want[N];
  cl_mem A = clCreateBuffer(ctx, 0, sizeof a, NULL, &err), B = clCreateBuffer(ctx, 0, sizeof b, NULL, &err);
  cl_mem C = clCreateBuffer(ctx, 0, sizeof c, NULL, &err);
  cl_uint n = N;
  clSetKernelArg(k, 0, sizeof A, &A);
  clSetKernelArg(k, 1, sizeof B, &B);
  clSetKernelArg(k, 2, sizeof C, &C);
  clSetKernelArg(k, 3, sizeof n, &n);
  for (int r = 0; r < ROUNDS; r++) {
    for (int i = 0; i < N; i++) a[i] = j->scale * (float)(i + r), b[i] = (float)r - (float)i;
    ref_vecadd(a, b, want, N);
    size_t global = N, local = 64;
    clEnqueueWriteBuffer(q, A, CL_FALSE, 0, sizeof a, a, 0, NULL, NULL);
    clEnqueueWriteBuffer(q, B, CL_FALSE, 0, sizeof b, b, 0, NULL, NULL);
    clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL) || memcmp(c, want, sizeof c)) j->bad++;
  }
  clReleaseMemObject(A);
  clReleaseMemObject(B);
  clReleaseMemObject(C);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseCommandQueue(q);
  if (!j->ctx) clReleaseContext(ctx);
  return NULL;
}

typedef struct {
  cl_command_queue q;
  cl_event ev;
  cl_int wait_rc, finish_rc;
} waiter;

static void *wait_then_finish(void *arg) {
  waiter *w = arg;
  w->wait_rc = clWaitForEvents(1, &w->ev);
  w->finish_rc = clFinish(w->q);
  return NULL;
}

static void test_wake(void) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  cl_mem m = clCreateBuffer(ctx, 0, 16, NULL, &err);
  CHECK(err);
  cl_event gate = clCreateUserEvent(ctx, &err);
  CHECK(err);
  int v = 99, got = 0;
  waiter w = {q, NULL, 1, 1};
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof v, &v, 1, &gate, &w.ev));
  pthread_t t;
  if (pthread_create(&t, NULL, wait_then_finish, &w)) exit(1);
  struct timespec pause = {0, 20 * 1000 * 1000};
  nanosleep(&pause, NULL); /* let it block (the result does not depend on it) */
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  pthread_join(t, NULL);
  EXPECT(w.wait_rc == CL_SUCCESS && w.finish_rc == CL_SUCCESS);
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
  EXPECT(got == 99);
  CHECK(clReleaseEvent(w.ev));
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
}

static void test_parallel(cl_context shared) {
  job j[2] = {{shared, 0.5f, 0}, {shared, 3.0f, 0}};
  pthread_t t[2];
  for (int i = 0; i < 2; i++)
    if (pthread_create(&t[i], NULL, run_vecadd, &j[i])) exit(1);
  for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
  EXPECT(j[0].bad == 0 && j[1].bad == 0);
}

int main(void) {
  cl_int err;
  dev = cy_test_device();
  test_wake();
  test_parallel(NULL); /* a context each */
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  test_parallel(ctx); /* one context, a queue each */
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_threads");
}
