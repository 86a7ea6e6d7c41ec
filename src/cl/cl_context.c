/* Contexts: properties, the error callback, and the simulated device with
 * its memory heap that the context's buffers and launches use. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

static void ctx_free(cl_context c) {
  cy_worker_stop(c); /* idle: nothing pending holds the context any more */
  vt_error e;
  vt_heap_free_all(&c->heap, c->dev, &e);
  vt_heap_fini(&c->heap);
  vt_device_destroy(c->dev);
  vt_trace_writer_free(c->trace);
  if (c->trace_file) fclose(c->trace_file);
  vt_tvexport_close(c->exp);
  pthread_mutex_destroy(&c->lock);
  pthread_cond_destroy(&c->changed);
  pthread_cond_destroy(&c->work);
  pthread_mutex_destroy(&c->devlock);
  free(c->dead); /* blocks freed with the heap above */
  free(c->mems);
  free(c->pending);
  cy_build_cache_free(c->cache);
  c->magic = 0;
  cy_handle_drop(CY_HANDLE_CONTEXT, c);
}

void cy_context_free(cl_context c) { ctx_free(c); }

void cy_context_unref(cl_context c) {
  if (cy_inner_release(&c->ref)) ctx_free(c);
}

void cy_ctx_enter(cl_context c) {
  cy_inner_retain(&c->ref);
  pthread_mutex_lock(&c->lock);
}

void cy_ctx_leave(cl_context c) {
  pthread_mutex_unlock(&c->lock);
  cy_context_unref(c);
}

void cy_ctx_report(cl_context c, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (c->notify)
    c->notify(msg, NULL, 0, c->notify_data);
  else
    fprintf(stderr, "chengying-opencl: %s\n", msg);
}

int cy_ctx_add_mem(cl_context c, cl_mem m) {
  if (c->nmems == c->capmems) {
    size_t n = c->capmems ? 2 * c->capmems : 16;
    cl_mem *p = realloc(c->mems, n * sizeof *p);
    if (!p) return -1;
    c->mems = p, c->capmems = n;
  }
  c->mems[c->nmems++] = m;
  return 0;
}

void cy_ctx_remove_mem(cl_context c, cl_mem m) {
  for (size_t i = 0; i < c->nmems; i++)
    if (c->mems[i] == m) {
      c->mems[i] = c->mems[--c->nmems];
      return;
    }
}

/* compares pointers only: the value may be any bytes of a by-value argument */
int cy_ctx_has_mem(cl_context c, cl_mem m) {
  for (size_t i = 0; i < c->nmems; i++)
    if (c->mems[i] == m) return cy_ref_live(&m->ref);
  return 0;
}

/* CHENGYING_TRACE=FILE: every launch of the context appends its commit log
 * (the reference ISS's format, docs/driver.md) to FILE, created anew. */
static cl_int open_trace(cl_context c) {
  const char *path = getenv("CHENGYING_TRACE");
  if (!path || !*path) return CL_SUCCESS;
  if (!(c->trace_file = fopen(path, "w"))) {
    cy_ctx_report(c, "CHENGYING_TRACE=%s: %s", path, strerror(errno));
    return CL_OUT_OF_RESOURCES;
  }
  if (!(c->trace = vt_trace_writer_new(c->trace_file))) return CL_OUT_OF_HOST_MEMORY;
  return CL_SUCCESS;
}

/* CHENGYING_EXPORT_TESTVEC=DIR: every launch of the context is written to
 * DIR as one more upstream test vector (kernels.txt in launch order), to be
 * run by `ventus run DIR` or on the Verilog RTL (docs/opencl.md). */
static cl_int open_export(cl_context c) {
  const char *dir = getenv("CHENGYING_EXPORT_TESTVEC");
  if (!dir || !*dir) return CL_SUCCESS;
  vt_error e;
  if (!(c->exp = vt_tvexport_open(dir, &e))) {
    cy_ctx_report(c, "CHENGYING_EXPORT_TESTVEC: %s", e.msg);
    return e.kind == VT_ERR_NOMEM ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
  }
  return CL_SUCCESS;
}

static cl_int parse_props(const cl_context_properties *p, cl_context_properties out[3], size_t *n) {
  *n = 0;
  if (!p) return CL_SUCCESS;
  int have_platform = 0;
  for (; p[0]; p += 2) {
    if (p[0] != CL_CONTEXT_PLATFORM || have_platform) return CL_INVALID_PROPERTY;
    if ((cl_platform_id)p[1] != cy_platform()) return CL_INVALID_PLATFORM;
    have_platform = 1;
    out[0] = p[0], out[1] = p[1], out[2] = 0;
    *n = 3;
  }
  if (!*n) { /* just the terminator */
    out[0] = 0;
    *n = 1;
  }
  return CL_SUCCESS;
}

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_context c = NULL;
  cl_context_properties props[3];
  size_t nprops;
  if (!devices || !num_devices || (!pfn_notify && user_data)) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  if ((err = parse_props(properties, props, &nprops))) goto out;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!cy_is_device(devices[i])) {
      err = CL_INVALID_DEVICE;
      goto out;
    }
  c = cy_handle_new(CY_HANDLE_CONTEXT);
  if (!c) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  c->dispatch = &cy_cl_dispatch;
  c->magic = CY_MAGIC_CONTEXT;
  cy_ref_init(&c->ref);
  memcpy(c->props, props, sizeof props);
  c->nprops = nprops;
  c->notify = pfn_notify;
  c->notify_data = user_data;
  pthread_mutexattr_t a;
  pthread_mutexattr_init(&a);
  pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&c->lock, &a);
  pthread_mutexattr_destroy(&a);
  pthread_cond_init(&c->changed, NULL);
  pthread_cond_init(&c->work, NULL);
  pthread_mutex_init(&c->devlock, NULL);
  vt_heap_init(&c->heap);
  vt_error e;
  c->dev = vt_device_create(&cy_device()->cfg, &e);
  if (!c->dev)
    err = CL_OUT_OF_HOST_MEMORY;
  else if (!(err = open_trace(c)))
    err = open_export(c);
  if (err) {
    ctx_free(c);
    c = NULL;
  }
out:
  if (errcode_ret) *errcode_ret = err;
  return c;
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                                               void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t,
                                                                             void *),
                                               void *user_data, cl_int *errcode_ret) {
  cl_device_id d;
  cl_int err = clGetDeviceIDs(NULL, device_type, 1, &d, NULL);
  if (err) {
    if (errcode_ret) *errcode_ret = err;
    return NULL;
  }
  return clCreateContext(properties, 1, &d, pfn_notify, user_data, errcode_ret);
}

cl_int CL_API_CALL clRetainContext(cl_context c) {
  if (!cy_is_context(c)) return CL_INVALID_CONTEXT;
  cy_ref_retain(&c->ref);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context c) {
  if (!cy_is_context(c)) return CL_INVALID_CONTEXT;
  if (cy_ref_release(&c->ref)) ctx_free(c);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context c, cl_context_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_context(c)) return CL_INVALID_CONTEXT;
  switch (param_name) {
  case CL_CONTEXT_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&c->ref.refs));
  case CL_CONTEXT_NUM_DEVICES: CY_INFO(cl_uint, 1);
  case CL_CONTEXT_DEVICES: CY_INFO(cl_device_id, cy_device());
  case CL_CONTEXT_PROPERTIES:
    return cy_info(param_value_size, param_value, param_value_size_ret, c->props,
                   c->nprops * sizeof(cl_context_properties));
  default: return CL_INVALID_VALUE;
  }
}
