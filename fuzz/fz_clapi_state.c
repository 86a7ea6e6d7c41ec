/* fuzz_clapi's tables of handles and the calls checked against them:
 * retain, release, info queries, wait lists, the end of an input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz_clapi.h"

fz_state fz;

uint8_t fz_u8(void) { return fz.in.at < fz.in.n ? fz.in.p[fz.in.at++] : 0; }

uint32_t fz_u32(void) {
  uint32_t v = 0;
  for (int i = 0; i < 4; i++) v |= (uint32_t)fz_u8() << (8 * i);
  return v;
}

_Noreturn void fz_die(const char *what, long v) {
  fprintf(stderr, "fuzz_clapi: %s (%ld)\n", what, v);
  abort();
}

int fz_pick(int k) {
  uint8_t b = fz_u8();
  return fz.t.n[k] ? b % fz.t.n[k] : -1;
}

void *fz_h(int k, int i) { return i < 0 ? NULL : fz.t.o[k][i].h; }

static const cl_int invalid[NKINDS] = {CL_INVALID_CONTEXT, CL_INVALID_COMMAND_QUEUE, CL_INVALID_MEM_OBJECT,
                                       CL_INVALID_PROGRAM, CL_INVALID_KERNEL,        CL_INVALID_EVENT};

static cl_int release(int k, void *h) {
  switch (k) {
  case K_CTX: return clReleaseContext(h);
  case K_QUEUE: return clReleaseCommandQueue(h);
  case K_MEM: return clReleaseMemObject(h);
  case K_PROG: return clReleaseProgram(h);
  case K_KERNEL: return clReleaseKernel(h);
  default: return clReleaseEvent(h);
  }
}

static cl_int retain(int k, void *h) {
  switch (k) {
  case K_CTX: return clRetainContext(h);
  case K_QUEUE: return clRetainCommandQueue(h);
  case K_MEM: return clRetainMemObject(h);
  case K_PROG: return clRetainProgram(h);
  case K_KERNEL: return clRetainKernel(h);
  default: return clRetainEvent(h);
  }
}

int fz_add(int k, void *h, cl_int rc, int ctx) {
  if (fz.trace) fprintf(stderr, "  new kind %d: %d\n", k, rc);
  if (!h != (rc != CL_SUCCESS)) fz_die("a create call's handle and status disagree", rc);
  if (!h) return -1;
  if (fz.t.n[k] == CAP) { /* full: not kept (user events are not made then) */
    if (release(k, h)) fz_die("releasing a new object fails", k);
    return -1;
  }
  int i = fz.t.n[k]++;
  fz.t.o[k][i] = (fz_obj){.h = h, .refs = 1, .ctx = ctx};
  return i;
}

/* a call on object i of kind k returned rc: an object counted down to 0
 * must be refused as invalid, a live one must not be */
static void expect(int k, int i, cl_int rc, const char *call) {
  int live = fz.t.o[k][i].refs > 0;
  if (live ? rc == invalid[k] : rc != invalid[k]) {
    fprintf(stderr, "fuzz_clapi: %s on a %s object of kind %d returned %d\n", call, live ? "live" : "released", k,
            rc);
    abort();
  }
}

void fz_retain(int k) {
  int i = fz_pick(k);
  if (i < 0) return;
  cl_int rc = retain(k, fz.t.o[k][i].h);
  expect(k, i, rc, "retain");
  if (!rc) fz.t.o[k][i].refs++;
  else if (fz.t.o[k][i].refs) fz_die("retain of a live object fails", rc);
}

void fz_release(int k) {
  int i = fz_pick(k);
  if (i < 0) return;
  fz_obj *o = &fz.t.o[k][i];
  /* commands waiting for a user event wait for ever once its last
   * reference is gone (OpenCL says so): give it a status first */
  if (k == K_EVENT && o->user && o->refs == 1 && !clSetUserEventStatus(o->h, CL_COMPLETE)) o->user = 0;
  cl_int rc = release(k, o->h);
  expect(k, i, rc, "release");
  if (!rc) o->refs--;
  else if (o->refs) fz_die("release of a live object fails", rc);
}

static const size_t sizes[8] = {0, 1, 4, 8, 16, 24, 64, 300};

void fz_info(int k) {
  int i = fz_pick(k);
  uint8_t sel = fz_u8(), how = fz_u8();
  if (i < 0) return;
  void *h = fz.t.o[k][i].h;
  size_t want = sizes[how & 7], ret = (size_t)-1;
  /* zeroed: CL_PROGRAM_BINARIES then holds NULL pointers, which it skips */
  void *buf = how & 8 ? NULL : calloc(1, want ? want : 1), *val = how & 8 ? NULL : buf;
  static const cl_uint base[NKINDS][2] = {{CL_CONTEXT_REFERENCE_COUNT, 8},     {CL_QUEUE_CONTEXT, 12},
                                          {CL_MEM_TYPE, 12},                   {CL_PROGRAM_REFERENCE_COUNT, 12},
                                          {CL_KERNEL_FUNCTION_NAME, 8},        {CL_EVENT_COMMAND_QUEUE, 6}};
  cl_uint param = sel & 0x80 ? fz_u32() : base[k][0] + (sel & 0x7f) % base[k][1];
  cl_device_id dev = fz_cl_device();
  cl_int rc;
  int variant = (how >> 4) & 3;
  switch (k) {
  case K_CTX: rc = clGetContextInfo(h, param, want, val, &ret); break;
  case K_QUEUE: rc = clGetCommandQueueInfo(h, param, want, val, &ret); break;
  case K_MEM: rc = clGetMemObjectInfo(h, param, want, val, &ret); break;
  case K_PROG:
    rc = variant ? clGetProgramBuildInfo(h, dev, CL_PROGRAM_BUILD_STATUS + (sel & 0x7f) % 6, want, val, &ret)
                 : clGetProgramInfo(h, param, want, val, &ret);
    break;
  case K_KERNEL:
    rc = variant == 1   ? clGetKernelWorkGroupInfo(h, dev, CL_KERNEL_WORK_GROUP_SIZE + (sel & 0x7f) % 10, want, val,
                                                   &ret)
         : variant == 2 ? clGetKernelArgInfo(h, how >> 6, CL_KERNEL_ARG_ADDRESS_QUALIFIER + (sel & 0x7f) % 6, want,
                                             val, &ret)
                        : clGetKernelInfo(h, param, want, val, &ret);
    break;
  default:
    rc = variant ? clGetEventProfilingInfo(h, CL_PROFILING_COMMAND_QUEUED + (sel & 0x7f) % 6, want, val, &ret)
                 : clGetEventInfo(h, param, want, val, &ret);
  }
  if (!fz.t.o[k][i].refs && rc != invalid[k]) fz_die("an info query on a released object answered", rc);
  /* CL_QUEUE_SIZE: "not a device queue" is CL_INVALID_COMMAND_QUEUE (OpenCL 3.0) */
  int device_queue_only = k == K_QUEUE && param == CL_QUEUE_SIZE;
  if (fz.t.o[k][i].refs && rc == invalid[k] && !device_queue_only)
    fz_die("an info query on a live object said invalid", rc);
  if (!rc && ret == (size_t)-1) fz_die("an info query succeeded without its size", (long)param);
  if (!rc && val && ret > want) fz_die("an info query succeeded with a short buffer", (long)param);
  free(buf);
}

cl_uint fz_waits(cl_event *list) {
  cl_uint n = 0, want = fz_u8() % 4;
  for (cl_uint i = 0; i < want; i++) {
    int e = fz_pick(K_EVENT);
    if (e >= 0) list[n++] = fz.t.o[K_EVENT][e].h;
  }
  return n;
}

void fz_settle(void) {
  for (int i = 0; i < fz.t.n[K_EVENT]; i++) {
    fz_obj *o = &fz.t.o[K_EVENT][i];
    if (o->user && o->refs && clSetUserEventStatus(o->h, i & 1 ? -5 : CL_COMPLETE))
      fz_die("setting a user event's status fails", i);
    o->user = 0;
  }
}

void fz_cleanup(void) {
  fz_settle();
  for (int i = 0; i < fz.t.n[K_QUEUE]; i++)
    if (fz.t.o[K_QUEUE][i].refs && clFinish(fz.t.o[K_QUEUE][i].h)) fz_die("clFinish at the end fails", i);
  static const int order[NKINDS] = {K_KERNEL, K_EVENT, K_MEM, K_PROG, K_QUEUE, K_CTX};
  for (int j = 0; j < NKINDS; j++) {
    int k = order[j];
    for (int i = 0; i < fz.t.n[k]; i++)
      for (fz_obj *o = &fz.t.o[k][i]; o->refs; o->refs--)
        if (release(k, o->h)) fz_die("a release at the end fails", k);
  }
}
