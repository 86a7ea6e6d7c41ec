/* The OpenCL API as a state machine: the input is a program of at most
 * MAX_CALLS calls on our platform's entry points (linked in, no ICD
 * loader), each an opcode byte and argument bytes (fz_clapi.h). Handles
 * come only from what the platform returned, picked by index from tables
 * that keep released objects too: the tables also hold the application
 * reference count the calls should have left, so a retain, release or info
 * query on an object counted down to 0 must give exactly its
 * CL_INVALID_<OBJECT> (handles are checked through a registry,
 * cl_handles.c), and on a live one must succeed. Buffers are small,
 * kernels tiny (fuzz/kernels/clapi.cl) and launches end at the step budget
 * (FZ_CL_MAX_STEPS).
 *
 * At the end every user event gets a status (so nothing waits for ever),
 * every object is released as often as the table says, and the platform
 * must be quiescent: every device thread gone (the count of the process's
 * threads back to what it was before the first context). That makes
 * libFuzzer's leak detection meaningful for this target: nothing of the
 * platform is still being freed on a device thread when it looks. Then a
 * fresh context must still run add1 and give the right answer. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fz_clapi.h"

static int threads_now(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[128];
  int n = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "Threads:", 8)) n = atoi(line + 8);
  if (f) fclose(f);
  return n;
}

/* the process's threads back to base within 5 s, else a device thread
 * outlived its context (or the context was never freed) */
static void wait_quiescent(int base) {
  for (int i = 0; i < 5000 && threads_now() > base; i++) nanosleep(&(struct timespec){0, 1000000}, NULL);
  if (threads_now() > base) fz_die("a device thread still runs after every object was released", threads_now());
}

/* the platform still works: a new context runs add1 over 16 ints */
static void check_usable(void) {
  cl_context c = fz_cl_context();
  cl_device_id dev = fz_cl_device();
  cl_int rc;
  cl_program p = fz_cl_program(c, fz.bin[0], fz.nbin[0], &rc);
  cl_command_queue q = clCreateCommandQueue(c, dev, 0, &rc);
  int a[16], n = 16;
  for (int i = 0; i < n; i++) a[i] = i * 3;
  cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof a, a, &rc);
  cl_kernel k = p ? clCreateKernel(p, "add1", &rc) : NULL;
  size_t g = 16;
  if (!p || !q || !m || !k || clSetKernelArg(k, 0, sizeof m, &m) || clSetKernelArg(k, 1, sizeof n, &n) ||
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL) ||
      clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof a, a, 0, NULL, NULL))
    fz_die("the platform is no longer usable after the input", rc);
  for (int i = 0; i < n; i++)
    if (a[i] != i * 3 + 1) fz_die("add1 gives a wrong answer after the input", i);
  clReleaseKernel(k);
  clReleaseMemObject(m);
  clReleaseCommandQueue(q);
  clReleaseProgram(p);
  clReleaseContext(c);
}

static void init(void) {
  fz.threads0 = threads_now();
  fz_cl_device();
  fz.bin[0] = fz_cl_seed("kmeta/clapi.elf", &fz.nbin[0]);
  fz.bin[1] = fz_cl_seed("kmeta/kmeta.elf", &fz.nbin[1]);
  size_t n;
  fz.src[0] = (char *)fz_cl_seed("../kernels/clapi.cl", &n);
  fz.src[1] = "__kernel void k(__global int *a) { a[0] = 1 }"; /* a syntax error */
  fz.src[2] = "int f(int x) { return x + 1; }";                 /* no kernels */
  fz.trace = getenv("FZ_CLAPI_TRACE") != NULL;
  fz.inited = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!fz.inited) init();
  memset(&fz.t, 0, sizeof fz.t);
  fz.in = (fz_reader){data, size, 0};
  for (int i = 0; i < MAX_CALLS && fz.in.at < fz.in.n; i++) fz_call(fz_u8());
  fz_cleanup();
  wait_quiescent(fz.threads0);
  check_usable();
  wait_quiescent(fz.threads0);
  return 0;
}
