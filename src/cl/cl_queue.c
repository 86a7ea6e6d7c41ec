/* Command queues and the scheduler: every command is an event with a wait
 * list; the queue's ordering rules are turned into wait-list entries at
 * enqueue (in order: the previous command; out of order: the last barrier,
 * and a barrier or a marker without a list waits for every command before
 * it), and the device thread (cl_worker.c) runs whatever is ready. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

static void queue_free(cl_command_queue q) {
  cl_context ctx = q->ctx;
  if (q->last) cy_event_unref(q->last);
  q->magic = 0;
  cy_handle_drop(CY_HANDLE_QUEUE, q);
  cy_context_unref(ctx);
}

void cy_queue_unref(cl_command_queue q) {
  if (cy_inner_release(&q->ref)) queue_free(q);
}

static cl_command_queue queue_new(cl_context ctx, cl_device_id dev, cl_command_queue_properties props,
                                  cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_command_queue q = NULL;
  const cl_command_queue_properties known = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
  if (!cy_is_context(ctx))
    err = CL_INVALID_CONTEXT;
  else if (!cy_is_device(dev))
    err = CL_INVALID_DEVICE;
  else if (props & ~(known | CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
    err = CL_INVALID_VALUE;
  else if (props & ~known)
    err = CL_INVALID_QUEUE_PROPERTIES; /* valid, but no device-side queues */
  else if (!(q = cy_handle_new(CY_HANDLE_QUEUE)))
    err = CL_OUT_OF_HOST_MEMORY;
  else {
    q->dispatch = &cy_cl_dispatch;
    q->magic = CY_MAGIC_QUEUE;
    cy_ref_init(&q->ref);
    q->ctx = ctx;
    cy_inner_retain(&ctx->ref);
    q->props = props;
  }
  if (errcode_ret) *errcode_ret = err;
  return q;
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context ctx, cl_device_id dev,
                                                  cl_command_queue_properties props, cl_int *errcode_ret) {
  return queue_new(ctx, dev, props, errcode_ret);
}

cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context ctx, cl_device_id dev,
                                                                const cl_queue_properties *props,
                                                                cl_int *errcode_ret) {
  cl_command_queue_properties p = 0;
  size_t n = 0;
  for (const cl_queue_properties *x = props; x && x[0]; x += 2, n += 2) {
    if (x[0] != CL_QUEUE_PROPERTIES || n) { /* CL_QUEUE_SIZE is for device queues only */
      if (errcode_ret) *errcode_ret = CL_INVALID_VALUE;
      return NULL;
    }
    p = x[1];
  }
  cl_command_queue q = queue_new(ctx, dev, p, errcode_ret);
  if (q && props) {
    memcpy(q->props_array, props, (n + 1) * sizeof *props);
    q->nprops_array = n + 1;
  }
  return q;
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue q) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  cy_ref_retain(&q->ref);
  return CL_SUCCESS;
}

/* The last release flushes, it does not wait: commands still blocked (on a
 * user event, say) keep the queue alive through their events and run when
 * they can. */
cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue q) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (cy_ref_release(&q->ref)) queue_free(q);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue q, cl_command_queue_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  switch (param_name) {
  case CL_QUEUE_CONTEXT: CY_INFO(cl_context, q->ctx);
  case CL_QUEUE_DEVICE: CY_INFO(cl_device_id, cy_device());
  case CL_QUEUE_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&q->ref.refs));
  case CL_QUEUE_PROPERTIES: CY_INFO(cl_command_queue_properties, q->props);
  case CL_QUEUE_PROPERTIES_ARRAY:
    return cy_info(param_value_size, param_value, param_value_size_ret, q->props_array,
                   q->nprops_array * sizeof *q->props_array);
  case CL_QUEUE_DEVICE_DEFAULT: CY_INFO(cl_command_queue, NULL);
  case CL_QUEUE_SIZE: return CL_INVALID_COMMAND_QUEUE; /* a host queue has no size */
  default: return CL_INVALID_VALUE;
  }
}

/* ---- scheduling ------------------------------------------------------------ */

static int add_wait(cl_event ev, cl_event w) {
  if (!w || w->status <= CL_COMPLETE) return 0; /* done (or failed: checked at run time too) */
  for (size_t i = 0; i < ev->nwaits; i++)
    if (ev->waits[i] == w) return 0;
  cl_event *p = realloc(ev->waits, (ev->nwaits + 1) * sizeof *p);
  if (!p) return -1;
  ev->waits = p;
  p[ev->nwaits++] = w;
  cy_inner_retain(&w->ref);
  return 0;
}

cl_int cy_enqueue(cl_command_queue q, cl_command_type type, cy_cmd *cmd, cl_uint n, const cl_event *list,
                  cl_event *out, int blocking) {
  cl_context ctx = q->ctx;
  cy_ctx_enter(ctx);
  cl_event ev = NULL;
  cl_int rc = cy_kick(ctx); /* the device thread, started here the first time */
  if (rc) goto fail;
  if (ctx->npending == ctx->cappending) {
    size_t c = ctx->cappending ? 2 * ctx->cappending : 16;
    cl_event *p = realloc(ctx->pending, c * sizeof *p);
    if (!p) {
      rc = CL_OUT_OF_HOST_MEMORY;
      goto fail;
    }
    ctx->pending = p, ctx->cappending = c;
  }
  if (!(ev = cy_event_new(ctx, q, type))) {
    rc = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  ev->cmd = cmd;
  cmd = NULL;
  int ooo = !!(q->props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  int fence = type == CL_COMMAND_BARRIER || (type == CL_COMMAND_MARKER && !n);
  int bad = 0;
  for (cl_uint i = 0; i < n; i++) bad |= add_wait(ev, list[i]);
  bad |= add_wait(ev, q->last);
  if (ooo && fence)
    for (size_t i = 0; i < ctx->npending; i++)
      if (ctx->pending[i]->queue == q) bad |= add_wait(ev, ctx->pending[i]);
  if (ooo && fence && ctx->current && ctx->current->queue == q) bad |= add_wait(ev, ctx->current);
  if (bad) {
    rc = CL_OUT_OF_HOST_MEMORY;
    goto fail;
  }
  if (!ooo || type == CL_COMMAND_BARRIER) {
    if (q->last) cy_event_unref(q->last);
    q->last = ev;
    cy_inner_retain(&ev->ref);
  }
  ctx->pending[ctx->npending++] = ev;
  cy_inner_retain(&ev->ref);
  q->unfinished++;
  cy_inner_retain(&ev->ref); /* ours until the end of this call */
  if (out) {
    cy_ref_retain(&ev->ref);
    *out = ev;
  }
  cy_kick(ctx);
  if (blocking && (rc = cy_wait(ctx, 1, &ev)) == CL_SUCCESS && ev->status < 0)
    rc = ev->status; /* its own failure, or CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST */
  cy_event_unref(ev);
  cy_ctx_leave(ctx);
  return rc;
fail:
  if (cmd) cmd->done(cmd);
  if (ev) { /* never listed anywhere: free it through the inner count */
    cy_inner_retain(&ev->ref);
    cy_event_unref(ev);
  }
  cy_ctx_leave(ctx);
  return rc;
}

cl_int CL_API_CALL clFlush(cl_command_queue q) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  return CL_SUCCESS; /* commands are submitted to the device thread as they are enqueued */
}

cl_int CL_API_CALL clFinish(cl_command_queue q) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  cl_context ctx = q->ctx;
  cy_ctx_enter(ctx);
  cl_int rc = cy_on_worker(ctx) ? CL_INVALID_OPERATION : CL_SUCCESS; /* it would wait for itself */
  while (!rc && q->unfinished) pthread_cond_wait(&ctx->changed, &ctx->lock);
  cy_ctx_leave(ctx);
  return rc;
}

/* ---- markers and barriers: commands that do nothing but order ---------- */

static cl_int nop_run(cl_event ev, cy_cmd *cmd) {
  (void)ev, (void)cmd;
  return CL_SUCCESS;
}

static void nop_done(cy_cmd *cmd) { free(cmd); }

static cl_int enqueue_nop(cl_command_queue q, cl_command_type type, cl_uint n, const cl_event *list,
                          cl_event *out) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  cl_int rc = cy_check_waits(q->ctx, n, list);
  if (rc) return rc;
  cy_cmd *c = malloc(sizeof *c);
  if (!c) return CL_OUT_OF_HOST_MEMORY;
  c->run = nop_run;
  c->done = nop_done;
  return cy_enqueue(q, type, c, n, list, out, 0);
}

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                               cl_event *event) {
  return enqueue_nop(q, CL_COMMAND_MARKER, n, list, event);
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue q, cl_uint n, const cl_event *list,
                                                cl_event *event) {
  return enqueue_nop(q, CL_COMMAND_BARRIER, n, list, event);
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue q, cl_event *event) {
  if (!event) return CL_INVALID_VALUE;
  return enqueue_nop(q, CL_COMMAND_MARKER, 0, NULL, event);
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue q) { return enqueue_nop(q, CL_COMMAND_BARRIER, 0, NULL, NULL); }

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue q, cl_uint n, const cl_event *list) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!n || !list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < n; i++)
    if (!cy_is_event(list[i])) return CL_INVALID_EVENT;
  return enqueue_nop(q, CL_COMMAND_BARRIER, n, list, NULL);
}
