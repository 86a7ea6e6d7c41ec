/* Events and queues: a multi-kernel pipeline on an out-of-order queue held
 * back by a user event, status transitions, callbacks, profiling times,
 * barriers and markers, and failure propagation through wait lists. */
#include "cl_test.h"

#include <unistd.h>

#include "ref_kernels.h"

enum { N = 256 };
static cl_context ctx;
static cl_device_id dev;

static cl_int status(cl_event e) {
  cl_int s;
  CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
  return s;
}

static int completions;
static void CL_CALLBACK on_complete(cl_event e, cl_int st, void *user) {
  (void)e;
  if (st == CL_COMPLETE) completions += *(int *)user;
}

static void set_vecadd(cl_kernel k, cl_mem a, cl_mem b, cl_mem c) {
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK(clSetKernelArg(k, 1, sizeof b, &b));
  CHECK(clSetKernelArg(k, 2, sizeof c, &c));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
}

/* D = (A + B) + (A + B), every command ordered only by events */
static void test_pipeline(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
                                                          CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  static float a[N], b[N], c[N], d[N], want[N];
  for (int i = 0; i < N; i++) a[i] = (float)i / 3.0f, b[i] = 100.0f - (float)i;
  ref_vecadd(a, b, c, N);
  ref_vecadd(c, c, want, N);
  cl_program p = cy_test_program(ctx, dev, "vecadd");
  cl_kernel k1 = clCreateKernel(p, "vecadd", &err);
  CHECK(err);
  cl_kernel k2 = clCreateKernel(p, "vecadd", &err);
  CHECK(err);
  cl_mem A = clCreateBuffer(ctx, 0, sizeof a, NULL, &err), B = clCreateBuffer(ctx, 0, sizeof b, NULL, &err);
  cl_mem C = clCreateBuffer(ctx, 0, sizeof c, NULL, &err), D = clCreateBuffer(ctx, 0, sizeof d, NULL, &err);
  CHECK(err);
  set_vecadd(k1, A, B, C);
  set_vecadd(k2, C, C, D);
  cl_event go = clCreateUserEvent(ctx, &err);
  CHECK(err);
  EXPECT(status(go) == CL_SUBMITTED);
  cl_event w[2], e3, e4, e5;
  CHECK(clEnqueueWriteBuffer(q, A, CL_FALSE, 0, sizeof a, a, 1, &go, &w[0]));
  CHECK(clEnqueueWriteBuffer(q, B, CL_FALSE, 0, sizeof b, b, 1, &go, &w[1]));
  size_t global = N, local = 32;
  CHECK(clEnqueueNDRangeKernel(q, k1, 1, NULL, &global, &local, 2, w, &e3));
  CHECK(clEnqueueNDRangeKernel(q, k2, 1, NULL, &global, &local, 1, &e3, &e4));
  CHECK(clEnqueueReadBuffer(q, D, CL_FALSE, 0, sizeof d, d, 1, &e4, &e5));
  int weight = 1;
  CHECK(clSetEventCallback(e4, CL_COMPLETE, on_complete, &weight));
  CHECK(clFlush(q));
  EXPECT(status(w[0]) == CL_QUEUED && status(e4) == CL_QUEUED && completions == 0);
  CHECK(clSetUserEventStatus(go, CL_COMPLETE));
  EXPECT_ERR(clSetUserEventStatus(go, CL_COMPLETE), CL_INVALID_OPERATION);
  CHECK(clWaitForEvents(1, &e5));
  EXPECT(!memcmp(d, want, sizeof d));
  EXPECT(completions == 1);
  /* a callback registered after completion runs at once */
  weight = 10;
  CHECK(clSetEventCallback(e4, CL_COMPLETE, on_complete, &weight));
  EXPECT(completions == 11);
  cl_ulong t[4];
  cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                               CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; i++) CHECK(clGetEventProfilingInfo(e3, what[i], sizeof t[i], &t[i], NULL));
  EXPECT(t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3]);
  EXPECT_ERR(clGetEventProfilingInfo(go, CL_PROFILING_COMMAND_END, sizeof t[0], t, NULL),
             CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_command_type type;
  CHECK(clGetEventInfo(e3, CL_EVENT_COMMAND_TYPE, sizeof type, &type, NULL));
  EXPECT(type == CL_COMMAND_NDRANGE_KERNEL);
  cl_event all[] = {go, w[0], w[1], e3, e4, e5};
  for (int i = 0; i < 6; i++) CHECK(clReleaseEvent(all[i]));
  cl_mem mems[] = {A, B, C, D};
  for (int i = 0; i < 4; i++) CHECK(clReleaseMemObject(mems[i]));
  CHECK(clReleaseKernel(k1));
  CHECK(clReleaseKernel(k2));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
}

/* out of order: a barrier holds every later command behind the earlier ones */
static void test_barrier_marker(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
  CHECK(err);
  cl_mem m = clCreateBuffer(ctx, 0, 16, NULL, &err);
  CHECK(err);
  cl_event gate = clCreateUserEvent(ctx, &err), blocked, barrier, after, marker, free_run;
  CHECK(err);
  int v1 = 1, v2 = 2, v3 = 3, got[2];
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, &v1, 1, &gate, &blocked));
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 8, 4, &v3, 0, NULL, &free_run));
  CHECK(clWaitForEvents(1, &free_run)); /* out of order: not behind the blocked write */
  EXPECT(status(free_run) == CL_COMPLETE && status(blocked) == CL_QUEUED);
  CHECK(clEnqueueMarkerWithWaitList(q, 0, NULL, &marker));
  CHECK(clEnqueueBarrierWithWaitList(q, 0, NULL, &barrier));
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, &v2, 0, NULL, &after));
  EXPECT(status(marker) == CL_QUEUED && status(barrier) == CL_QUEUED && status(after) == CL_QUEUED);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clFinish(q));
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 8, got, 0, NULL, NULL));
  EXPECT(got[0] == 2); /* v1 first, then v2 after the barrier */
  EXPECT(status(marker) == CL_COMPLETE && status(after) == CL_COMPLETE);
  cl_event all[] = {gate, blocked, barrier, after, marker, free_run};
  for (int i = 0; i < 6; i++) CHECK(clReleaseEvent(all[i]));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q));
}

/* a failed user event fails what waits for it, transitively, and nothing runs */
static void test_failure(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  cl_mem m = clCreateBuffer(ctx, 0, 16, NULL, &err);
  CHECK(err);
  cl_event gate = clCreateUserEvent(ctx, &err), w, r;
  CHECK(err);
  int v = 42, got = 0;
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, 4, &v, 1, &gate, &w));
  CHECK(clEnqueueReadBuffer(q, m, CL_FALSE, 0, 4, &got, 0, NULL, &r)); /* in order: behind w */
  EXPECT_ERR(clSetUserEventStatus(gate, 5), CL_INVALID_VALUE);
  CHECK(clSetUserEventStatus(gate, -77));
  EXPECT(status(gate) == -77);
  EXPECT_ERR(clWaitForEvents(1, &w), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST); /* the device thread fails it */
  EXPECT(status(w) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_ERR(clWaitForEvents(1, &r), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT(status(r) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT(got == 0);
  CHECK(clFinish(q));
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseEvent(w));
  CHECK(clReleaseEvent(r));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q));
}

/* releasing a queue flushes but does not wait: a command still blocked on
 * a user event runs later, when the event completes */
static void test_release_pending(void) {
  cl_int err;
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  cl_mem m = clCreateBuffer(ctx, 0, 16, NULL, &err);
  CHECK(err);
  cl_event gate = clCreateUserEvent(ctx, &err), w;
  CHECK(err);
  int v = 7, got = 0;
  CHECK(clEnqueueWriteBuffer(q, m, CL_FALSE, 0, sizeof v, &v, 1, &gate, &w));
  alarm(20); /* a release that waited for the gate would never return */
  CHECK(clReleaseCommandQueue(q));
  alarm(0);
  EXPECT(status(w) == CL_QUEUED);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &w));
  cl_command_queue q2 = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  CHECK(clEnqueueReadBuffer(q2, m, CL_TRUE, 0, sizeof got, &got, 0, NULL, NULL));
  EXPECT(got == 7);
  CHECK(clReleaseEvent(w));
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseMemObject(m));
  CHECK(clReleaseCommandQueue(q2));
}

int main(void) {
  cl_int err;
  dev = cy_test_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  test_pipeline();
  test_barrier_marker();
  test_failure();
  test_release_pending();
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_events");
}
