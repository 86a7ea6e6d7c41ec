/* fuzz_clapi's calls: one per opcode, arguments from the input's next
 * bytes, handles from the tables (fz_clapi.h). Host pointers given to the
 * platform are always inside the harness's own arrays, with room for the
 * size given; anything else about the arguments may be wrong. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz_clapi.h"

static uint8_t host[HOST_BYTES];          /* reads, writes, rects, patterns */
static uint8_t use_host[CAP + 1][MAX_BUF]; /* CL_MEM_USE_HOST_PTR, one per buffer slot */
static int callbacks;                      /* what the callbacks saw (nothing checks it) */

static void CL_CALLBACK on_event(cl_event e, cl_int status, void *user) {
  (void)e, (void)user;
  __atomic_add_fetch(&callbacks, status, __ATOMIC_RELAXED);
}

static void CL_CALLBACK on_mem(cl_mem m, void *user) {
  (void)m, (void)user;
  __atomic_add_fetch(&callbacks, 1, __ATOMIC_RELAXED);
}

static void CL_CALLBACK quiet(const char *msg, const void *info, size_t n, void *user) {
  (void)msg, (void)info, (void)n, (void)user;
}

static int ctx_of(int k, int i) { return i < 0 ? -1 : fz.t.o[k][i].ctx; }

/* an event for the table if the input asks for one. A failed call
 * returns none, except a blocking one whose command was enqueued and then
 * failed (or found its wait list failed): its event has that status
 * (docs/opencl.md §3, as pocl does) */
static void keep_event(cl_event ev, cl_int rc, int queue, cl_bool blocking) {
  if (fz.trace) fprintf(stderr, "  enqueue: %d\n", rc);
  cl_int st = 0;
  if (rc && ev && (!blocking || rc > 0 ||
                   clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, NULL) || st != rc))
    fz_die("a failed enqueue returned an event without its status", rc);
  if (ev) fz_add(K_EVENT, ev, CL_SUCCESS, ctx_of(K_QUEUE, queue));
}

static size_t small(void) { /* sizes and offsets: mostly in range, some not */
  uint8_t b = fz_u8();
  return b & 0x80 ? (size_t)(b & 0x7f) * 8 : b & 0x7f;
}

static void create_context(void) {
  uint8_t how = fz_u8();
  cl_device_id dev = fz_cl_device();
  cl_platform_id plat;
  clGetPlatformIDs(1, &plat, NULL);
  cl_context_properties props[3] = {CL_CONTEXT_PLATFORM, (cl_context_properties)plat, 0};
  if (how & 2) props[0] = 0x1234; /* an unknown property */
  cl_int rc;
  cl_context c = how & 1 ? clCreateContextFromType(how & 4 ? props : NULL,
                                                   how & 8 ? CL_DEVICE_TYPE_CPU : CL_DEVICE_TYPE_DEFAULT, quiet,
                                                   NULL, &rc)
                         : clCreateContext(how & 4 ? props : NULL, 1, &dev, quiet, NULL, &rc);
  int i = fz_add(K_CTX, c, rc, 0);
  if (i >= 0) fz.t.o[K_CTX][i].ctx = i;
}

static void create_queue(void) {
  int c = fz_pick(K_CTX);
  uint8_t how = fz_u8();
  if (c < 0) return;
  static const cl_command_queue_properties props[4] = {0, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                                       CL_QUEUE_PROFILING_ENABLE, 1u << 7};
  cl_int rc;
  cl_command_queue q;
  if (how & 4) {
    cl_queue_properties p[3] = {CL_QUEUE_PROPERTIES, props[how & 3] | (how & 8 ? props[1] : 0), 0};
    q = clCreateCommandQueueWithProperties(fz_h(K_CTX, c), fz_cl_device(), how & 16 ? NULL : p, &rc);
  } else {
    q = clCreateCommandQueue(fz_h(K_CTX, c), fz_cl_device(), props[how & 3], &rc);
  }
  fz_add(K_QUEUE, q, rc, c);
}

static void create_buffer(void) {
  int c = fz_pick(K_CTX);
  uint8_t how = fz_u8();
  size_t size = (size_t)fz_u8() * 2;
  if (c < 0) return;
  static const cl_mem_flags flags[8] = {CL_MEM_READ_WRITE,     CL_MEM_READ_ONLY,        CL_MEM_WRITE_ONLY,
                                        CL_MEM_USE_HOST_PTR,   CL_MEM_COPY_HOST_PTR,    CL_MEM_ALLOC_HOST_PTR,
                                        CL_MEM_HOST_NO_ACCESS, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY};
  cl_mem_flags f = flags[how & 7] | (how & 8 ? CL_MEM_HOST_READ_ONLY : 0);
  int host_ptr = (f & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  /* the buffer's own host memory, big enough for any size asked */
  void *hp = host_ptr != !!(how & 16) ? use_host[fz.t.n[K_MEM]] : NULL;
  if (size > MAX_BUF && hp) size = MAX_BUF;
  cl_int rc;
  cl_mem m = clCreateBuffer(fz_h(K_CTX, c), f, size, hp, &rc);
  int i = fz_add(K_MEM, m, rc, c);
  if (i >= 0) fz.t.o[K_MEM][i].size = size;
}

static void create_sub_buffer(void) {
  int m = fz_pick(K_MEM);
  uint8_t how = fz_u8();
  cl_buffer_region r = {small() * 16, small()};
  if (m < 0) return;
  cl_int rc;
  cl_mem s = clCreateSubBuffer(fz_h(K_MEM, m), how & 1 ? CL_MEM_READ_ONLY : 0,
                               how & 2 ? 0x7777 : CL_BUFFER_CREATE_TYPE_REGION, how & 4 ? NULL : &r, &rc);
  int i = fz_add(K_MEM, s, rc, ctx_of(K_MEM, m));
  if (i >= 0) fz.t.o[K_MEM][i].size = r.size;
}

static const char *const options[6] = {"", "-cl-kernel-arg-info", "-D X=1 -cl-opt-disable", "-bogus", "-D",
                                       "-ventus-max-compile-insns=5"};

static void build(int p) {
  uint8_t how = fz_u8();
  if (p < 0) return;
  cl_device_id dev = fz_cl_device();
  (void)clBuildProgram(fz_h(K_PROG, p), how & 1, how & 1 ? &dev : NULL, options[(how >> 1) % 6], NULL, NULL);
}

static void create_program(void) {
  int c = fz_pick(K_CTX);
  uint8_t how = fz_u8();
  if (c < 0) return;
  cl_int rc, st;
  cl_program p;
  if (how & 1) {
    const char *s = fz.src[(how >> 1) % 3];
    p = clCreateProgramWithSource(fz_h(K_CTX, c), 1, &s, NULL, &rc);
  } else {
    cl_device_id dev = fz_cl_device();
    int b = (how >> 1) & 1;
    size_t n = how & 4 ? fz.nbin[b] / 2 : fz.nbin[b]; /* half a binary: refused */
    const unsigned char *bin = fz.bin[b];
    p = clCreateProgramWithBinary(fz_h(K_CTX, c), 1, &dev, &n, &bin, &st, &rc);
  }
  int i = fz_add(K_PROG, p, rc, c);
  if (how & 8) build(i);
}

static void create_kernel(void) {
  int p = fz_pick(K_PROG);
  uint8_t how = fz_u8();
  if (p < 0) return;
  static const char *const names[8] = {"add1", "scan4", "byval", "spin", "big", "many", "k", "nope"};
  cl_int rc;
  if (how & 8) {
    cl_kernel ks[4];
    cl_uint n = 0;
    rc = clCreateKernelsInProgram(fz_h(K_PROG, p), how & 16 ? 0 : 4, how & 16 ? NULL : ks, &n);
    if (!rc && !(how & 16))
      for (cl_uint i = 0; i < n; i++) fz_add(K_KERNEL, ks[i], CL_SUCCESS, ctx_of(K_PROG, p));
    return;
  }
  cl_kernel k = clCreateKernel(fz_h(K_PROG, p), names[how & 7], &rc);
  fz_add(K_KERNEL, k, rc, ctx_of(K_PROG, p));
}

static void set_arg(void) {
  int k = fz_pick(K_KERNEL);
  uint8_t how = fz_u8(), idx = fz_u8() % 6;
  int m = fz_pick(K_MEM);
  size_t size = small();
  uint8_t val[1024];
  if (k < 0) return;
  memcpy(val, host, size);
  cl_mem mem = how & 2 ? fz_h(K_MEM, m) : NULL;
  switch (how & 3) {
  case 0: /* fallthrough: a NULL buffer */
  case 2: (void)clSetKernelArg(fz_h(K_KERNEL, k), idx, sizeof mem, &mem); break;
  case 1: (void)clSetKernelArg(fz_h(K_KERNEL, k), idx, size, NULL); break; /* __local */
  default: (void)clSetKernelArg(fz_h(K_KERNEL, k), idx, size, how & 4 ? NULL : val);
  }
}

static void ndrange(void) {
  int q = fz_pick(K_QUEUE), k = fz_pick(K_KERNEL);
  uint8_t how = fz_u8();
  cl_event list[3], ev = NULL;
  cl_uint n = fz_waits(list);
  size_t g[3], l[3], o[3];
  for (int d = 0; d < 3; d++) {
    uint8_t b = fz_u8();
    g[d] = (size_t)1 << (b & 3);     /* 1..8 */
    l[d] = b & 4 ? g[d] : (size_t)1 + (b >> 6); /* some do not divide */
    o[d] = b & 8 ? (b >> 4) : 0;
  }
  if (q < 0 || k < 0) return;
  cl_uint dim = 1 + how % 3 + (how & 0x80 ? 1 : 0); /* 4: invalid */
  cl_int rc = how & 8 ? clEnqueueTask(fz_h(K_QUEUE, q), fz_h(K_KERNEL, k), n, n ? list : NULL, how & 4 ? &ev : NULL)
                      : clEnqueueNDRangeKernel(fz_h(K_QUEUE, q), fz_h(K_KERNEL, k), dim, how & 16 ? o : NULL, g,
                                               how & 32 ? l : NULL, n, n ? list : NULL, how & 4 ? &ev : NULL);
  keep_event(ev, rc, q, CL_FALSE);
}

static void read_write(int write) {
  int q = fz_pick(K_QUEUE), m = fz_pick(K_MEM);
  uint8_t how = fz_u8();
  size_t off = small(), size = small(), hoff = (size_t)fz_u8() * 16;
  cl_event list[3], ev = NULL;
  cl_uint n = fz_waits(list);
  if (q < 0 || m < 0) return;
  cl_bool blocking = how & 1;
  if (blocking) fz_settle();
  void *p = how & 2 ? NULL : host + hoff;
  cl_int rc = write ? clEnqueueWriteBuffer(fz_h(K_QUEUE, q), fz_h(K_MEM, m), blocking, off, size, p, n,
                                           n ? list : NULL, how & 4 ? &ev : NULL)
                    : clEnqueueReadBuffer(fz_h(K_QUEUE, q), fz_h(K_MEM, m), blocking, off, size, p, n,
                                          n ? list : NULL, how & 4 ? &ev : NULL);
  keep_event(ev, rc, q, blocking);
}

static void copy_fill(int fill) {
  int q = fz_pick(K_QUEUE), a = fz_pick(K_MEM), b = fz_pick(K_MEM);
  uint8_t how = fz_u8();
  size_t off = small(), off2 = small(), size = small();
  cl_event list[3], ev = NULL;
  cl_uint n = fz_waits(list);
  if (q < 0 || a < 0) return;
  static const size_t pat[8] = {1, 2, 4, 8, 16, 128, 3, 0};
  cl_int rc = fill ? clEnqueueFillBuffer(fz_h(K_QUEUE, q), fz_h(K_MEM, a), host, pat[how >> 5], off, size, n,
                                         n ? list : NULL, how & 4 ? &ev : NULL)
                   : clEnqueueCopyBuffer(fz_h(K_QUEUE, q), fz_h(K_MEM, a), fz_h(K_MEM, b), off, off2, size, n,
                                         n ? list : NULL, how & 4 ? &ev : NULL);
  keep_event(ev, rc, q, CL_FALSE);
}

/* a rectangle whose host side (origin, region, pitches as the platform
 * defaults them) fits host[] */
static void rect(void) {
  int q = fz_pick(K_QUEUE), a = fz_pick(K_MEM), b = fz_pick(K_MEM);
  uint8_t how = fz_u8();
  size_t bo[3], ho[3], r[3], pitch[4];
  for (int d = 0; d < 3; d++) bo[d] = fz_u8() % 16, ho[d] = fz_u8() % 8, r[d] = fz_u8() % 9;
  for (int d = 0; d < 4; d++) pitch[d] = fz_u8() % 64;
  cl_event ev = NULL;
  if (q < 0 || a < 0) return;
  size_t hrp = pitch[2] ? pitch[2] : r[0], hsp = pitch[3] ? pitch[3] : r[1] * hrp;
  size_t end = ho[2] * hsp + ho[1] * hrp + ho[0] + (r[2] ? r[2] - 1 : 0) * hsp + (r[1] ? r[1] - 1 : 0) * hrp + r[0];
  if (end > HOST_BYTES) return;
  cl_bool blocking = how & 1;
  if (blocking) fz_settle();
  cl_command_queue qq = fz_h(K_QUEUE, q);
  cl_mem ma = fz_h(K_MEM, a), mb = fz_h(K_MEM, b);
  cl_int rc;
  switch ((how >> 1) % 3) {
  case 0:
    rc = clEnqueueReadBufferRect(qq, ma, blocking, bo, ho, r, pitch[0], pitch[1], pitch[2], pitch[3], host, 0, NULL,
                                 how & 8 ? &ev : NULL);
    break;
  case 1:
    rc = clEnqueueWriteBufferRect(qq, ma, blocking, bo, ho, r, pitch[0], pitch[1], pitch[2], pitch[3], host, 0,
                                  NULL, how & 8 ? &ev : NULL);
    break;
  default:
    rc = clEnqueueCopyBufferRect(qq, ma, mb, bo, ho, r, pitch[0], pitch[1], pitch[2], pitch[3], 0, NULL,
                                 how & 8 ? &ev : NULL);
  }
  keep_event(ev, rc, q, blocking);
}

static void map(void) {
  int q = fz_pick(K_QUEUE), m = fz_pick(K_MEM);
  uint8_t how = fz_u8();
  size_t off = small(), size = small();
  cl_event list[3], ev = NULL;
  cl_uint n = fz_waits(list);
  if (q < 0 || m < 0) return;
  static const cl_map_flags flags[4] = {CL_MAP_READ, CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION, 0x40};
  cl_bool blocking = how & 1;
  if (blocking) fz_settle();
  cl_int rc;
  void *p = clEnqueueMapBuffer(fz_h(K_QUEUE, q), fz_h(K_MEM, m), blocking, flags[(how >> 1) & 3], off, size, n,
                               n ? list : NULL, how & 8 ? &ev : NULL, &rc);
  if (!p != (rc != CL_SUCCESS)) fz_die("a map's pointer and status disagree", rc);
  keep_event(ev, rc, q, blocking);
  if (!p) return;
  if (blocking) memset(p, how, size); /* the whole mapped range is ours (ASan) */
  if (fz.t.nmaps < CAP) fz.t.maps[fz.t.nmaps++] = (fz_map){p, m, q, size};
}

static void unmap(void) {
  int q = fz_pick(K_QUEUE);
  uint8_t which = fz_u8(), how = fz_u8();
  cl_event ev = NULL;
  if (q < 0 || !fz.t.nmaps) return;
  fz_map *mp = &fz.t.maps[which % fz.t.nmaps];
  int m = how & 2 ? fz_pick(K_MEM) : mp->mem;
  cl_int rc = clEnqueueUnmapMemObject(fz_h(K_QUEUE, q), fz_h(K_MEM, m), mp->ptr, 0, NULL, how & 1 ? &ev : NULL);
  keep_event(ev, rc, q, CL_FALSE);
}

static void user_event(void) {
  int c = fz_pick(K_CTX);
  if (c < 0 || fz.t.n[K_EVENT] == CAP) return;
  cl_int rc;
  cl_event e = clCreateUserEvent(fz_h(K_CTX, c), &rc);
  int i = fz_add(K_EVENT, e, rc, c);
  if (i >= 0) fz.t.o[K_EVENT][i].user = 1;
}

static void set_status(void) {
  int e = fz_pick(K_EVENT);
  uint8_t how = fz_u8();
  if (e < 0) return;
  static const cl_int st[4] = {CL_COMPLETE, -1, CL_RUNNING, -1000};
  fz_obj *o = &fz.t.o[K_EVENT][e];
  cl_int rc = clSetUserEventStatus(o->h, st[how & 3]);
  int should = o->user && o->refs && st[how & 3] != CL_RUNNING;
  if (should && rc) fz_die("clSetUserEventStatus on an unset user event fails", rc);
  if (!should && !rc) fz_die("clSetUserEventStatus succeeds where it must not", o->user);
  if (!rc) o->user = 0;
}

static void wait_finish(void) {
  uint8_t how = fz_u8();
  int q = fz_pick(K_QUEUE);
  cl_event list[3];
  cl_uint n = fz_waits(list);
  if (how % 4) fz_settle(); /* only flush never waits */
  switch (how % 4) {
  case 0: (void)clFlush(fz_h(K_QUEUE, q)); break;
  case 1: (void)clFinish(fz_h(K_QUEUE, q)); break;
  default: (void)clWaitForEvents(n, n ? list : NULL);
  }
}

static void marker_barrier(void) {
  int q = fz_pick(K_QUEUE);
  uint8_t how = fz_u8();
  cl_event list[3], ev = NULL;
  cl_uint n = fz_waits(list);
  if (q < 0) return;
  cl_int rc = how & 1 ? clEnqueueBarrierWithWaitList(fz_h(K_QUEUE, q), n, n ? list : NULL, how & 2 ? &ev : NULL)
                      : clEnqueueMarkerWithWaitList(fz_h(K_QUEUE, q), n, n ? list : NULL, how & 2 ? &ev : NULL);
  keep_event(ev, rc, q, CL_FALSE);
}

static void callback(void) {
  uint8_t how = fz_u8();
  if (how & 1) {
    int m = fz_pick(K_MEM);
    if (m >= 0) (void)clSetMemObjectDestructorCallback(fz_h(K_MEM, m), how & 2 ? NULL : on_mem, NULL);
    return;
  }
  int e = fz_pick(K_EVENT);
  static const cl_int on[4] = {CL_COMPLETE, CL_SUBMITTED, CL_RUNNING, CL_QUEUED};
  if (e >= 0) (void)clSetEventCallback(fz_h(K_EVENT, e), on[(how >> 1) & 3], how & 8 ? NULL : on_event, NULL);
}

void fz_call(uint8_t op) {
  if (fz.trace) fprintf(stderr, "call %d at byte %zu\n", op % 24, fz.in.at - 1);
  switch (op % 24) {
  case 0: create_context(); break;
  case 1: fz_retain(fz_u8() % NKINDS); break;
  case 2: fz_release(fz_u8() % NKINDS); break;
  case 3: fz_info(fz_u8() % NKINDS); break;
  case 4: create_queue(); break;
  case 5: create_buffer(); break;
  case 6: create_sub_buffer(); break;
  case 7: create_program(); break;
  case 8: build(fz_pick(K_PROG)); break;
  case 9: create_kernel(); break;
  case 10: set_arg(); break;
  case 11: ndrange(); break;
  case 12: read_write(0); break;
  case 13: read_write(1); break;
  case 14: copy_fill(0); break;
  case 15: copy_fill(1); break;
  case 16: rect(); break;
  case 17: map(); break;
  case 18: unmap(); break;
  case 19: user_event(); break;
  case 20: set_status(); break;
  case 21: wait_finish(); break;
  case 22: marker_barrier(); break;
  default: callback();
  }
}
