/* The device thread of a context: it takes the oldest enqueued command
 * whose wait list is complete (or failed), moves its event through
 * SUBMITTED and RUNNING, runs it without the context's lock (so a long or
 * runaway kernel leaves the API, the other queues and other contexts
 * usable) and completes it. Callbacks are called from here, as real
 * platforms do. One thread per context: each context has its own
 * simulated device, which runs one command at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

void cy_cmd_print(cy_cmd *c, const char *text, size_t len) {
  if (c->nout + len > c->capout) {
    size_t n = c->capout ? c->capout : 4096;
    while (n < c->nout + len) n *= 2;
    char *p = realloc(c->out, n);
    if (!p) return; /* output lost rather than the command failing */
    c->out = p, c->capout = n;
  }
  memcpy(c->out + c->nout, text, len);
  c->nout += len;
}

/* A command's printf text goes out before its event completes, so whoever
 * waits for the event (clWaitForEvents, a callback) finds it on stdout;
 * commands run one at a time, so the text keeps their order. */
static void write_text(cy_cmd *c) {
  if (c->nout) {
    fwrite(c->out, 1, c->nout, stdout);
    fflush(stdout);
  }
  free(c->out);
  c->out = NULL;
  c->nout = c->capout = 0;
}

/* 1: every wait complete, 0: not yet, -1: one ended abnormally */
static int readiness(cl_event ev) {
  int r = 1;
  for (size_t i = 0; i < ev->nwaits; i++) {
    if (ev->waits[i]->status < 0) return -1;
    if (ev->waits[i]->status != CL_COMPLETE) r = 0;
  }
  return r;
}

/* The oldest pending command that can start, taken off the list (its
 * reference passes to the caller). */
static cl_event take_ready(cl_context ctx, int *ready) {
  for (size_t i = 0; i < ctx->npending; i++) {
    cl_event ev = ctx->pending[i];
    if (!(*ready = readiness(ev))) continue;
    memmove(&ctx->pending[i], &ctx->pending[i + 1], (ctx->npending - i - 1) * sizeof *ctx->pending);
    ctx->npending--;
    return ev;
  }
  return NULL;
}

void cy_free_dead(cl_context ctx) {
  cy_ctx_enter(ctx);
  uint32_t *dead = ctx->dead;
  size_t n = ctx->ndead;
  ctx->dead = NULL;
  ctx->ndead = ctx->capdead = 0;
  cy_ctx_leave(ctx);
  vt_error e;
  for (size_t i = 0; i < n; i++) vt_heap_free(&ctx->heap, ctx->dev, dead[i], &e);
  free(dead);
}

/* Runs one command (context locked once; unlocked while it runs). */
static void run_one(cl_event ev, int ready) {
  cl_context ctx = ev->ctx;
  cl_command_queue q = ev->queue;
  ctx->current = ev; /* a barrier enqueued meanwhile waits for it (cl_queue.c) */
  if (ready < 0) {
    ev->t[1] = ev->t[2] = ev->t[3] = cy_now_ns();
    cy_event_set(ev, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  } else {
    ev->t[1] = cy_now_ns();
    cy_event_set(ev, CL_SUBMITTED);
    ev->t[2] = cy_now_ns();
    cy_event_set(ev, CL_RUNNING);
    cy_cmd *cmd = ev->cmd;
    cmd->note[0] = 0; /* commands need not clear these when they are made */
    cmd->out = NULL;
    cmd->nout = cmd->capout = 0;
    pthread_mutex_unlock(&ctx->lock);
    pthread_mutex_lock(&ctx->devlock);
    cl_int rc = cmd->run(ev, cmd);
    cy_free_dead(ctx);
    pthread_mutex_unlock(&ctx->devlock);
    write_text(cmd);
    if (cmd->note[0]) cy_ctx_report(ctx, "%s", cmd->note);
    pthread_mutex_lock(&ctx->lock);
    ev->t[3] = cy_now_ns();
    cy_event_set(ev, rc == CL_SUCCESS ? CL_COMPLETE : (rc < 0 ? rc : CL_OUT_OF_RESOURCES));
  }
  ctx->current = NULL;
  ev->cmd->done(ev->cmd);
  ev->cmd = NULL;
  for (size_t i = 0; i < ev->nwaits; i++) cy_event_unref(ev->waits[i]);
  free(ev->waits);
  ev->waits = NULL;
  ev->nwaits = 0;
  q->unfinished--;
  if (q->last == ev) { /* ordering against a finished command is moot; also breaks the queue<->event cycle */
    q->last = NULL;
    cy_event_unref(ev);
  }
  pthread_cond_broadcast(&ctx->changed);
}

static void *worker_main(void *arg) {
  cl_context ctx = arg;
  pthread_mutex_lock(&ctx->lock);
  for (;;) {
    cl_event ev = NULL;
    int ready = 0;
    while (!ctx->stop && !(ev = take_ready(ctx, &ready))) pthread_cond_wait(&ctx->work, &ctx->lock);
    if (!ev) break; /* stop: the context is being freed, nothing is pending */
    /* our own reference: the command's may be the context's last, and the
     * context must outlive the unlock below */
    cy_inner_retain(&ctx->ref);
    run_one(ev, ready);
    cy_event_unref(ev); /* the pending list's reference */
    pthread_mutex_unlock(&ctx->lock);
    if (cy_inner_release(&ctx->ref)) { /* the application let go while we worked */
      cy_context_free(ctx);           /* detaches this thread */
      return NULL;
    }
    pthread_mutex_lock(&ctx->lock);
  }
  pthread_mutex_unlock(&ctx->lock);
  return NULL;
}

cl_int cy_kick(cl_context ctx) {
  if (!ctx->has_worker) {
    if (pthread_create(&ctx->worker, NULL, worker_main, ctx)) return CL_OUT_OF_RESOURCES;
    ctx->has_worker = 1;
  }
  pthread_cond_signal(&ctx->work);
  return CL_SUCCESS;
}

int cy_on_worker(cl_context ctx) { return ctx->has_worker && pthread_equal(pthread_self(), ctx->worker); }

void cy_worker_stop(cl_context ctx) {
  if (!ctx->has_worker) return;
  if (cy_on_worker(ctx)) { /* its last reference dropped on the device thread itself */
    pthread_detach(ctx->worker);
    return;
  }
  pthread_mutex_lock(&ctx->lock);
  ctx->stop = 1;
  pthread_cond_signal(&ctx->work);
  pthread_mutex_unlock(&ctx->lock);
  pthread_join(ctx->worker, NULL);
}
