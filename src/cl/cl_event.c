/* Events: status transitions, callbacks, profiling times, user events and
 * waiting. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cl_api.h"

cl_ulong cy_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (cl_ulong)ts.tv_sec * 1000000000u + (cl_ulong)ts.tv_nsec;
}

cl_event cy_event_new(cl_context ctx, cl_command_queue q, cl_command_type type) {
  cl_event ev = cy_handle_new(CY_HANDLE_EVENT);
  if (!ev) return NULL;
  ev->dispatch = &cy_cl_dispatch;
  ev->magic = CY_MAGIC_EVENT;
  atomic_init(&ev->ref.refs, 0); /* the creator adds its references */
  atomic_init(&ev->ref.inner, 0);
  atomic_init(&ev->ref.all, 0);
  ev->ctx = ctx;
  cy_inner_retain(&ctx->ref);
  ev->queue = q;
  if (q) cy_inner_retain(&q->ref);
  ev->type = type;
  ev->status = q ? CL_QUEUED : CL_SUBMITTED;
  ev->t[0] = cy_now_ns();
  return ev;
}

static void event_free(cl_event ev) {
  for (size_t i = 0; i < ev->nwaits; i++) cy_event_unref(ev->waits[i]);
  free(ev->waits);
  if (ev->cmd) ev->cmd->done(ev->cmd);
  free(ev->cbs);
  cl_context ctx = ev->ctx;
  cl_command_queue q = ev->queue;
  ev->magic = 0;
  cy_handle_drop(CY_HANDLE_EVENT, ev);
  if (q) cy_queue_unref(q);
  cy_context_unref(ctx);
}

void cy_event_unref(cl_event ev) {
  if (cy_inner_release(&ev->ref)) event_free(ev);
}

/* Callbacks fire once, when the status reaches (or passes) their trigger;
 * an abnormal end (negative status) fires every one still registered. Each
 * is called without the context's lock (the caller holds it once), so it
 * may call any entry point; the list is searched afresh after each call,
 * as a callback may register more. */
void cy_event_set(cl_event ev, cl_int status) {
  cl_context ctx = ev->ctx;
  ev->status = status;
  pthread_cond_broadcast(&ctx->changed);
  cy_inner_retain(&ev->ref); /* a callback may release the event */
  for (;;) {
    size_t i = 0;
    while (i < ev->ncbs && !(ev->cbs[i].fn && status <= ev->cbs[i].on)) i++;
    if (i == ev->ncbs) break;
    cy_event_cb cb = ev->cbs[i];
    ev->cbs[i].fn = NULL;
    pthread_mutex_unlock(&ctx->lock);
    cb.fn(ev, status < 0 ? status : cb.on, cb.data);
    pthread_mutex_lock(&ctx->lock);
  }
  cy_event_unref(ev);
}

cl_int cy_wait(cl_context ctx, cl_uint n, const cl_event *list) {
  if (cy_on_worker(ctx)) return CL_INVALID_OPERATION;
  for (cl_uint i = 0; i < n; i++)
    while (list[i]->status > CL_COMPLETE) pthread_cond_wait(&ctx->changed, &ctx->lock);
  return CL_SUCCESS;
}

cl_int cy_check_waits(cl_context ctx, cl_uint n, const cl_event *list) {
  if ((n && !list) || (!n && list)) return CL_INVALID_EVENT_WAIT_LIST;
  for (cl_uint i = 0; i < n; i++) {
    if (!cy_is_event(list[i])) return CL_INVALID_EVENT_WAIT_LIST;
    if (list[i]->ctx != ctx) return CL_INVALID_CONTEXT;
  }
  return CL_SUCCESS;
}

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event *event_list) {
  if (!num_events || !event_list) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_events; i++) {
    if (!cy_is_event(event_list[i])) return CL_INVALID_EVENT;
    if (event_list[i]->ctx != event_list[0]->ctx) return CL_INVALID_CONTEXT;
  }
  cl_context ctx = event_list[0]->ctx;
  cy_ctx_enter(ctx);
  cl_int rc = cy_wait(ctx, num_events, event_list);
  for (cl_uint i = 0; !rc && i < num_events; i++)
    if (event_list[i]->status < 0) rc = CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST;
  cy_ctx_leave(ctx);
  return rc;
}

cl_int CL_API_CALL clGetEventInfo(cl_event ev, cl_event_info param_name, size_t param_value_size,
                                  void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_event(ev)) return CL_INVALID_EVENT;
  switch (param_name) {
  case CL_EVENT_COMMAND_QUEUE: CY_INFO(cl_command_queue, ev->queue);
  case CL_EVENT_CONTEXT: CY_INFO(cl_context, ev->ctx);
  case CL_EVENT_COMMAND_TYPE: CY_INFO(cl_command_type, ev->type);
  case CL_EVENT_COMMAND_EXECUTION_STATUS: {
    cy_ctx_enter(ev->ctx); /* the device thread sets it */
    cl_int st = ev->status;
    cy_ctx_leave(ev->ctx);
    CY_INFO(cl_int, st);
  }
  case CL_EVENT_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&ev->ref.refs));
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event ev, cl_profiling_info param_name, size_t param_value_size,
                                           void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_event(ev)) return CL_INVALID_EVENT;
  cy_ctx_enter(ev->ctx); /* the device thread sets them */
  cl_int st = ev->status;
  cl_ulong t[4];
  memcpy(t, ev->t, sizeof t);
  cy_ctx_leave(ev->ctx);
  if (!ev->queue || !(ev->queue->props & CL_QUEUE_PROFILING_ENABLE) || st != CL_COMPLETE)
    return CL_PROFILING_INFO_NOT_AVAILABLE;
  switch (param_name) {
  case CL_PROFILING_COMMAND_QUEUED: CY_INFO(cl_ulong, t[0]);
  case CL_PROFILING_COMMAND_SUBMIT: CY_INFO(cl_ulong, t[1]);
  case CL_PROFILING_COMMAND_START: CY_INFO(cl_ulong, t[2]);
  case CL_PROFILING_COMMAND_END:
  case CL_PROFILING_COMMAND_COMPLETE: CY_INFO(cl_ulong, t[3]);
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clRetainEvent(cl_event ev) {
  if (!cy_is_event(ev)) return CL_INVALID_EVENT;
  cy_ref_retain(&ev->ref);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseEvent(cl_event ev) {
  if (!cy_is_event(ev)) return CL_INVALID_EVENT;
  if (cy_ref_release(&ev->ref)) event_free(ev);
  return CL_SUCCESS;
}

cl_event CL_API_CALL clCreateUserEvent(cl_context ctx, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_event ev = NULL;
  if (!cy_is_context(ctx))
    err = CL_INVALID_CONTEXT;
  else if (!(ev = cy_event_new(ctx, NULL, CL_COMMAND_USER)))
    err = CL_OUT_OF_HOST_MEMORY;
  else
    cy_ref_retain(&ev->ref);
  if (errcode_ret) *errcode_ret = err;
  return ev;
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event ev, cl_int execution_status) {
  if (!cy_is_event(ev) || ev->type != CL_COMMAND_USER) return CL_INVALID_EVENT;
  if (execution_status != CL_COMPLETE && execution_status >= 0) return CL_INVALID_VALUE;
  cl_context ctx = ev->ctx;
  cy_ctx_enter(ctx);
  cl_int rc = CL_SUCCESS;
  if (ev->status != CL_SUBMITTED)
    rc = CL_INVALID_OPERATION; /* already set */
  else {
    ev->t[3] = cy_now_ns();
    cy_event_set(ev, execution_status);
    if (ctx->has_worker) cy_kick(ctx); /* commands waiting for it may start now */
  }
  cy_ctx_leave(ctx);
  return rc;
}

cl_int CL_API_CALL clSetEventCallback(cl_event ev, cl_int type,
                                      void(CL_CALLBACK *fn)(cl_event, cl_int, void *), void *user_data) {
  if (!cy_is_event(ev)) return CL_INVALID_EVENT;
  if (!fn || (type != CL_SUBMITTED && type != CL_RUNNING && type != CL_COMPLETE)) return CL_INVALID_VALUE;
  cl_context ctx = ev->ctx;
  cy_ctx_enter(ctx);
  cl_int rc = CL_SUCCESS;
  if (ev->status <= type) { /* already reached: called at once, unlocked as from the device thread */
    cl_int st = ev->status < 0 ? ev->status : type;
    cy_ctx_leave(ctx);
    fn(ev, st, user_data);
    return CL_SUCCESS;
  } else {
    cy_event_cb *p = realloc(ev->cbs, (ev->ncbs + 1) * sizeof *p);
    if (!p)
      rc = CL_OUT_OF_HOST_MEMORY;
    else {
      ev->cbs = p;
      p[ev->ncbs++] = (cy_event_cb){fn, user_data, type};
    }
  }
  cy_ctx_leave(ctx);
  return rc;
}
