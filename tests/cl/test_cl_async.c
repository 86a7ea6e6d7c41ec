/* Asynchronous queues (issue 22 item 3): enqueue calls return before their
 * command is done, a device thread per context runs the commands, and a
 * runaway kernel ends at the step budget with an error on its event while
 * another context's queue completes its work and the device stays usable.
 * Also: a user event gating a kernel, callbacks (from the device thread,
 * with the right status), clFinish ordering with profiling times, blocking
 * reads, releasing a queue and a context while work is queued, and a
 * callback that calls clFinish (an error, not a deadlock).
 *
 * The device's step budget is lowered through CHENGYING_CONFIG (read once,
 * at the first OpenCL call) so the runaway kernel ends in under a second. */
#include "cl_test.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "ref_kernels.h"

enum { N = 1024 };
static cl_device_id dev;
static pthread_t main_thread;
static unsigned long long budget;

static cl_int status(cl_event e) {
  cl_int s;
  CHECK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL));
  return s;
}

static char note[512];
static atomic_int notes;
static void CL_CALLBACK on_note(const char *msg, const void *info, size_t n, void *user) {
  (void)info, (void)n, (void)user;
  snprintf(note, sizeof note, "%s", msg);
  atomic_fetch_add(&notes, 1);
}

/* what the callbacks of one event saw, in call order */
typedef struct {
  atomic_int n;
  cl_int got[3];        /* status passed */
  int off_main[3];      /* called on another thread than main's */
} cb_log;

static void CL_CALLBACK on_status(cl_event e, cl_int st, void *user) {
  (void)e;
  cb_log *l = user;
  int i = atomic_fetch_add(&l->n, 1);
  if (i < 3) {
    l->got[i] = st;
    l->off_main[i] = !pthread_equal(pthread_self(), main_thread);
  }
}

static cl_program program(cl_context ctx, const char *name) { return cy_test_program(ctx, dev, name); }

static cl_kernel vecadd(cl_program p, cl_mem a, cl_mem b, cl_mem c) {
  cl_int err;
  cl_kernel k = clCreateKernel(p, "vecadd", &err);
  CHECK(err);
  cl_uint n = N;
  CHECK(clSetKernelArg(k, 0, sizeof a, &a));
  CHECK(clSetKernelArg(k, 1, sizeof b, &b));
  CHECK(clSetKernelArg(k, 2, sizeof c, &c));
  CHECK(clSetKernelArg(k, 3, sizeof n, &n));
  return k;
}

static cl_mem buffer(cl_context ctx, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, init ? CL_MEM_COPY_HOST_PTR : 0, N * sizeof(float), (void *)init, &err);
  CHECK(err);
  return m;
}

static void fill(float *a, float *b, float *want, float s) {
  for (int i = 0; i < N; i++) a[i] = s * (float)i, b[i] = 1.0f - (float)i / 7.0f;
  ref_vecadd(a, b, want, N);
}

/* The runaway kernel: the enqueue returns while it runs; a queue of another
 * context (another device) finishes its work meanwhile; a second queue of
 * the same context runs after it; its event ends CL_OUT_OF_RESOURCES with a
 * message naming kernel, work-group, warp and pc; the device stays usable. */
static void runaway(void) {
  cl_int err;
  note[0] = 0;
  cl_context c1 = clCreateContext(NULL, 1, &dev, on_note, NULL, &err);
  CHECK(err);
  cl_command_queue q1 = clCreateCommandQueue(c1, dev, 0, &err);
  CHECK(err);
  cl_command_queue q1b = clCreateCommandQueue(c1, dev, 0, &err);
  CHECK(err);
  cl_program ps = program(c1, "spin");
  cl_kernel ks = clCreateKernel(ps, "spin", &err);
  CHECK(err);
  int z = 0;
  cl_mem flag = clCreateBuffer(c1, CL_MEM_COPY_HOST_PTR, 4, &z, &err);
  CHECK(err);
  CHECK(clSetKernelArg(ks, 0, sizeof flag, &flag));
  /* made first: creating a buffer waits while its device runs a command */
  float a[N], b[N], got[N], want[N], back[N];
  fill(a, b, want, 0.5f);
  cl_mem m1 = buffer(c1, NULL);
  /* another context with its own device and device thread, its program
   * built before the runaway starts: a compile takes seconds under valgrind,
   * longer than the runaway's budget there, and only the launch itself must
   * happen while the runaway runs */
  cl_context c2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q2 = clCreateCommandQueue(c2, dev, 0, &err);
  CHECK(err);
  cl_program p2 = program(c2, "vecadd");
  cl_mem A = buffer(c2, a), B = buffer(c2, b), C = buffer(c2, NULL);
  cl_kernel k2 = vecadd(p2, A, B, C);
  size_t g = 64, l = 64;
  cl_event es;
  CHECK(clEnqueueNDRangeKernel(q1, ks, 1, NULL, &g, &l, 0, NULL, &es));
  cl_int st = status(es);
  EXPECT(st == CL_QUEUED || st == CL_SUBMITTED || st == CL_RUNNING); /* returned before it ended */
  cb_log done = {0};
  CHECK(clSetEventCallback(es, CL_COMPLETE, on_status, &done));

  /* same context, second queue: queued behind the kernel on the one device */
  cl_event w1, r1;
  CHECK(clEnqueueWriteBuffer(q1b, m1, CL_FALSE, 0, sizeof a, a, 0, NULL, &w1));
  CHECK(clEnqueueReadBuffer(q1b, m1, CL_FALSE, 0, sizeof back, back, 0, NULL, &r1));

  /* the device thread has started it (it may take a moment to be scheduled) */
  for (int i = 0; i < 10000 && status(es) != CL_RUNNING; i++) usleep(1000);
  EXPECT(status(es) == CL_RUNNING);

  /* the other context is not held up */
  size_t gn = N;
  CHECK(clEnqueueNDRangeKernel(q2, k2, 1, NULL, &gn, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q2, C, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  cl_int st_then = status(es);
  EXPECT(!memcmp(got, want, sizeof got));
  EXPECT(st_then == CL_RUNNING); /* the other context finished while the runaway still ran */

  CHECK(clFinish(q1));
  EXPECT(status(es) == CL_OUT_OF_RESOURCES);
  char want_note[128];
  snprintf(want_note, sizeof want_note,
           "kernel spin: step limit: step limit of %llu warp-instructions reached [kernel 0 wg 0 warp 0 pc 0x",
           budget);
  EXPECT(strstr(note, want_note) != NULL);
  EXPECT(atomic_load(&done.n) == 1 && done.got[0] == CL_OUT_OF_RESOURCES && done.off_main[0]);
  CHECK(clFinish(q1b));
  EXPECT(status(w1) == CL_COMPLETE && status(r1) == CL_COMPLETE);
  EXPECT(!memcmp(back, a, sizeof back));
  printf("runaway: status %d while the other context finished, then %d: %s\n", st_then, status(es), note);

  /* the device stays usable: vecadd on the queue that ran the runaway */
  cl_program p1 = program(c1, "vecadd");
  cl_mem A1 = buffer(c1, a), B1 = buffer(c1, b), C1 = buffer(c1, NULL);
  cl_kernel k1 = vecadd(p1, A1, B1, C1);
  memset(got, 0, sizeof got);
  CHECK(clEnqueueNDRangeKernel(q1, k1, 1, NULL, &gn, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q1, C1, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  EXPECT(!memcmp(got, want, sizeof got));

  cl_event evs[] = {es, w1, r1};
  for (int i = 0; i < 3; i++) CHECK(clReleaseEvent(evs[i]));
  cl_mem ms[] = {flag, m1, A, B, C, A1, B1, C1};
  for (int i = 0; i < 8; i++) CHECK(clReleaseMemObject(ms[i]));
  CHECK(clReleaseKernel(ks));
  CHECK(clReleaseKernel(k1));
  CHECK(clReleaseKernel(k2));
  CHECK(clReleaseProgram(ps));
  CHECK(clReleaseProgram(p1));
  CHECK(clReleaseProgram(p2));
  CHECK(clReleaseCommandQueue(q1));
  CHECK(clReleaseCommandQueue(q1b));
  CHECK(clReleaseCommandQueue(q2));
  CHECK(clReleaseContext(c1));
  CHECK(clReleaseContext(c2));
}

/* A user event holds a kernel back (on a queue of its own, the event made
 * on the context); its callbacks run from the device thread with SUBMITTED,
 * RUNNING and COMPLETE, in that order. A failed gate fails the kernel,
 * whose callback gets the error. */
static void user_gate(void) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  cl_command_queue qr = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  float a[N], b[N], got[N], want[N];
  fill(a, b, want, 3.0f);
  cl_program p = program(ctx, "vecadd");
  cl_mem A = buffer(ctx, a), B = buffer(ctx, b), C = buffer(ctx, NULL);
  cl_kernel k = vecadd(p, A, B, C);
  cl_event gate = clCreateUserEvent(ctx, &err), ek, er;
  CHECK(err);
  size_t gn = N;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gn, NULL, 1, &gate, &ek));
  CHECK(clEnqueueReadBuffer(qr, C, CL_FALSE, 0, sizeof got, got, 1, &ek, &er)); /* across queues */
  cb_log log = {0};
  CHECK(clSetEventCallback(ek, CL_SUBMITTED, on_status, &log));
  CHECK(clSetEventCallback(ek, CL_RUNNING, on_status, &log));
  CHECK(clSetEventCallback(ek, CL_COMPLETE, on_status, &log));
  CHECK(clFlush(q));
  usleep(20000); /* were it not gated, it would have run by now */
  EXPECT(status(ek) == CL_QUEUED && status(er) == CL_QUEUED && atomic_load(&log.n) == 0);
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clFinish(q));
  EXPECT(atomic_load(&log.n) == 3);
  EXPECT(log.got[0] == CL_SUBMITTED && log.got[1] == CL_RUNNING && log.got[2] == CL_COMPLETE);
  EXPECT(log.off_main[0] && log.off_main[1] && log.off_main[2]);
  CHECK(clWaitForEvents(1, &er));
  EXPECT(!memcmp(got, want, sizeof got));
  cl_ulong t[4];
  cl_profiling_info what[4] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT, CL_PROFILING_COMMAND_START,
                               CL_PROFILING_COMMAND_END};
  for (int i = 0; i < 4; i++) CHECK(clGetEventProfilingInfo(ek, what[i], sizeof t[i], &t[i], NULL));
  EXPECT(t[0] <= t[1] && t[1] <= t[2] && t[2] < t[3]);

  /* a failed gate: the kernel does not run, its callback gets the error */
  cl_event gate2 = clCreateUserEvent(ctx, &err), ek2;
  CHECK(err);
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gn, NULL, 1, &gate2, &ek2));
  cb_log log2 = {0};
  CHECK(clSetEventCallback(ek2, CL_COMPLETE, on_status, &log2));
  CHECK(clSetUserEventStatus(gate2, -9));
  EXPECT_ERR(clWaitForEvents(1, &ek2), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  CHECK(clFinish(q));
  EXPECT(status(ek2) == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT(atomic_load(&log2.n) == 1 && log2.got[0] == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);

  cl_event evs[] = {gate, ek, er, gate2, ek2};
  for (int i = 0; i < 5; i++) CHECK(clReleaseEvent(evs[i]));
  cl_mem ms[] = {A, B, C};
  for (int i = 0; i < 3; i++) CHECK(clReleaseMemObject(ms[i]));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseCommandQueue(qr));
  CHECK(clReleaseContext(ctx));
}

/* In order, nothing waited for until clFinish: write, write, two kernels, a
 * copy and a read end in enqueue order (profiling: each starts after the
 * one before ended) with the right data; then a blocking read right after
 * a kernel returns its result. */
static void finish_order(void) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  float a[N], b[N], c[N], d[N], got[N], want[N];
  fill(a, b, c, -2.0f);
  ref_vecadd(c, c, want, N);
  cl_program p = program(ctx, "vecadd");
  cl_mem A = buffer(ctx, NULL), B = buffer(ctx, NULL), C = buffer(ctx, NULL), D = buffer(ctx, NULL);
  cl_mem E = buffer(ctx, NULL);
  cl_kernel k1 = vecadd(p, A, B, C), k2 = vecadd(p, C, C, D);
  size_t gn = N;
  enum { K = 6 };
  cl_event e[K];
  memset(got, 0, sizeof got);
  CHECK(clEnqueueWriteBuffer(q, A, CL_FALSE, 0, sizeof a, a, 0, NULL, &e[0]));
  CHECK(clEnqueueWriteBuffer(q, B, CL_FALSE, 0, sizeof b, b, 0, NULL, &e[1]));
  CHECK(clEnqueueNDRangeKernel(q, k1, 1, NULL, &gn, NULL, 0, NULL, &e[2]));
  CHECK(clEnqueueNDRangeKernel(q, k2, 1, NULL, &gn, NULL, 0, NULL, &e[3]));
  CHECK(clEnqueueCopyBuffer(q, D, E, 0, 0, sizeof d, 0, NULL, &e[4]));
  CHECK(clEnqueueReadBuffer(q, E, CL_FALSE, 0, sizeof got, got, 0, NULL, &e[5]));
  CHECK(clFinish(q));
  EXPECT(!memcmp(got, want, sizeof got));
  cl_ulong prev_end = 0;
  for (int i = 0; i < K; i++) {
    cl_ulong s, t;
    EXPECT(status(e[i]) == CL_COMPLETE);
    CHECK(clGetEventProfilingInfo(e[i], CL_PROFILING_COMMAND_START, sizeof s, &s, NULL));
    CHECK(clGetEventProfilingInfo(e[i], CL_PROFILING_COMMAND_END, sizeof t, &t, NULL));
    EXPECT(prev_end <= s && s <= t);
    prev_end = t;
    CHECK(clReleaseEvent(e[i]));
  }
  /* blocking read straight after a kernel that doubles D into C */
  cl_kernel k3 = vecadd(p, D, D, C);
  CHECK(clEnqueueNDRangeKernel(q, k3, 1, NULL, &gn, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, C, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  ref_vecadd(want, want, d, N);
  EXPECT(!memcmp(got, d, sizeof got));
  cl_mem ms[] = {A, B, C, D, E};
  for (int i = 0; i < 5; i++) CHECK(clReleaseMemObject(ms[i]));
  CHECK(clReleaseKernel(k1));
  CHECK(clReleaseKernel(k2));
  CHECK(clReleaseKernel(k3));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
}

static atomic_int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *user) {
  (void)m, (void)user;
  atomic_fetch_add(&destroyed, 1);
}

/* Queue and context released while their work waits: it still runs (the
 * events hold what it needs); when the application lets go of everything
 * while a kernel runs, the device thread frees the context itself. */
static void release_while_queued(void) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  float a[N], b[N], got[N], want[N];
  fill(a, b, want, 1.25f);
  cl_program p = program(ctx, "vecadd");
  cl_mem A = buffer(ctx, a), B = buffer(ctx, b), C = buffer(ctx, NULL);
  cl_kernel k = vecadd(p, A, B, C);
  cl_event gate = clCreateUserEvent(ctx, &err), ek, er;
  CHECK(err);
  size_t gn = N;
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gn, NULL, 1, &gate, &ek));
  CHECK(clEnqueueReadBuffer(q, C, CL_FALSE, 0, sizeof got, got, 0, NULL, &er));
  CHECK(clReleaseKernel(k));
  cl_mem ms[] = {A, B, C};
  for (int i = 0; i < 3; i++) CHECK(clReleaseMemObject(ms[i]));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clWaitForEvents(1, &er));
  EXPECT(status(ek) == CL_COMPLETE);
  EXPECT(!memcmp(got, want, sizeof got));
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseEvent(ek));
  CHECK(clReleaseEvent(er)); /* the last reference: the context goes here */

  /* everything released while the kernel may still run */
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  p = program(ctx, "vecadd");
  A = buffer(ctx, a), B = buffer(ctx, b), C = buffer(ctx, NULL);
  CHECK(clSetMemObjectDestructorCallback(C, on_destroy, NULL));
  k = vecadd(p, A, B, C);
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &gn, NULL, 0, NULL, NULL));
  CHECK(clReleaseKernel(k));
  for (int i = 0; i < 3; i++) CHECK(clReleaseMemObject((cl_mem[]){A, B, C}[i]));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  for (int i = 0; i < 6000 && !atomic_load(&destroyed); i++) usleep(10000);
  EXPECT(atomic_load(&destroyed) == 1);
  usleep(200000); /* the device thread frees the context just after the buffer (for the leak check) */
}

/* A callback on the device thread that waits would wait for itself: the
 * wait is refused instead of hanging. */
static cl_command_queue cb_queue;
static cl_int cb_finish_rc = 1;
static void CL_CALLBACK finish_in_callback(cl_event e, cl_int st, void *user) {
  (void)e, (void)st, (void)user;
  cb_finish_rc = clFinish(cb_queue);
}

static void wait_in_callback(void) {
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cb_queue = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  cl_event gate = clCreateUserEvent(ctx, &err), m;
  CHECK(err);
  CHECK(clEnqueueMarkerWithWaitList(cb_queue, 1, &gate, &m));
  CHECK(clSetEventCallback(m, CL_COMPLETE, finish_in_callback, NULL));
  CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
  CHECK(clFinish(cb_queue));
  EXPECT(cb_finish_rc == CL_INVALID_OPERATION);
  CHECK(clReleaseEvent(gate));
  CHECK(clReleaseEvent(m));
  CHECK(clReleaseCommandQueue(cb_queue));
  CHECK(clReleaseContext(ctx));
}

int main(void) {
  main_thread = pthread_self();
  /* a budget that ends the runaway kernel in well under a second (release
   * build); under valgrind, a tenth of it */
  budget = getenv("VT_UNDER_VALGRIND") ? 2000000ull : 20000000ull;
  char cfg[] = "/tmp/cl_async_cfgXXXXXX";
  int fd = mkstemp(cfg);
  if (fd < 0) {
    perror("mkstemp");
    return 1;
  }
  FILE *f = fdopen(fd, "w");
  fprintf(f, "max_steps = %llu\n", budget);
  fclose(f);
  setenv("CHENGYING_CONFIG", cfg, 1);
  dev = cy_test_device();
  unlink(cfg);
  runaway();
  user_gate();
  finish_order();
  release_while_queued();
  wait_in_callback();
  return cy_test_end("test_cl_async");
}
