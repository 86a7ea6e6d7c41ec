/* Buffers and sub-buffers: flags, host pointers, device memory from the
 * context's heap, queries, destructor callbacks. */
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

#define CY_MAX_ALLOC (256u << 20) /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */
#define CY_SUB_ALIGN 128u         /* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes */

/* context locked */
static void defer_free(cl_context ctx, uint32_t addr) {
  if (ctx->ndead == ctx->capdead) {
    size_t n = ctx->capdead ? 2 * ctx->capdead : 16;
    uint32_t *p = realloc(ctx->dead, n * sizeof *p);
    if (!p) return;
    ctx->dead = p, ctx->capdead = n;
  }
  ctx->dead[ctx->ndead++] = addr;
}

static void mem_free(cl_mem m) {
  cl_context ctx = m->ctx;
  for (size_t i = m->ncbs; i-- > 0;) m->cbs[i].fn(m, m->cbs[i].data); /* last registered first */
  cy_ctx_enter(ctx);
  cy_ctx_remove_mem(ctx, m);
  if (!m->parent) {
    vt_error e;
    if (!pthread_mutex_trylock(&ctx->devlock)) {
      vt_heap_free(&ctx->heap, ctx->dev, m->addr, &e);
      pthread_mutex_unlock(&ctx->devlock);
    } else {
      /* the device is busy (and we may hold the context's lock, which
       * must not wait for it): its thread frees the block after the
       * command it runs. Without memory for that, the block stays
       * allocated until the context goes. */
      defer_free(ctx, m->addr);
    }
  }
  cy_ctx_leave(ctx);
  for (size_t i = 0; i < m->nmaps; i++)
    if (m->maps[i].owned) free(m->maps[i].ptr);
  free(m->maps);
  free(m->cbs);
  cl_mem parent = m->parent;
  if (m->img) cy_image_free(m);
  m->magic = 0;
  cy_handle_drop(CY_HANDLE_MEM, m);
  if (parent) cy_mem_unref(parent);
  cy_context_unref(ctx);
}

void cy_mem_unref(cl_mem m) {
  if (cy_inner_release(&m->ref)) mem_free(m);
}

static const cl_mem_flags ACCESS = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags HOSTACC = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static const cl_mem_flags HOSTPTR = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

static int several(cl_mem_flags f) { return (f & (f - 1)) != 0; }

cl_mem cy_mem_new(cl_context ctx, cl_mem_flags flags, size_t size) {
  cl_mem m = cy_handle_new(CY_HANDLE_MEM);
  if (!m) return NULL;
  m->dispatch = &cy_cl_dispatch;
  m->magic = CY_MAGIC_MEM;
  cy_ref_init(&m->ref);
  m->ctx = ctx;
  m->flags = flags;
  m->size = size;
  return m;
}

cl_int cy_mem_alloc(cl_context ctx, cl_mem m, size_t bytes, cl_int (*fill)(cl_mem, void *), void *arg) {
  vt_error e;
  cl_int err = CL_SUCCESS;
  /* the device's memory: waits while the device thread runs a command
   * (not holding the context's lock, which must not wait for it) */
  cy_inner_retain(&ctx->ref);
  pthread_mutex_lock(&ctx->devlock);
  cy_free_dead(ctx); /* blocks released meanwhile may be reused */
  if (vt_heap_alloc(&ctx->heap, ctx->dev, bytes, &m->addr, &e))
    err = CL_MEM_OBJECT_ALLOCATION_FAILURE;
  else if (fill && (err = fill(m, arg))) {
    vt_heap_free(&ctx->heap, ctx->dev, m->addr, &e);
  } else {
    cy_ctx_enter(ctx);
    if (cy_ctx_add_mem(ctx, m)) {
      vt_heap_free(&ctx->heap, ctx->dev, m->addr, &e);
      err = CL_OUT_OF_HOST_MEMORY;
    }
    cy_ctx_leave(ctx);
  }
  pthread_mutex_unlock(&ctx->devlock);
  if (err) cy_context_unref(ctx); /* else the object's reference */
  return err;
}

static cl_int copy_in(cl_mem m, void *host) {
  vt_error e;
  return vt_mem_write(m->ctx->dev, m->addr, host, (uint32_t)m->size, &e) ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

cl_mem CL_API_CALL clCreateBuffer(cl_context ctx, cl_mem_flags flags, size_t size, void *host_ptr,
                                  cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  if (!flags) flags = CL_MEM_READ_WRITE;
  if (!cy_is_context(ctx))
    err = CL_INVALID_CONTEXT;
  else if ((flags & ~(ACCESS | HOSTACC | HOSTPTR)) || several(flags & ACCESS) || several(flags & HOSTACC) ||
           ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))))
    err = CL_INVALID_VALUE;
  else if (!size || size > CY_MAX_ALLOC)
    err = CL_INVALID_BUFFER_SIZE;
  else if (!host_ptr != !(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)))
    err = CL_INVALID_HOST_PTR;
  else if (!(m = cy_mem_new(ctx, flags, size)))
    err = CL_OUT_OF_HOST_MEMORY;
  else {
    if (!(flags & ACCESS)) m->flags |= CL_MEM_READ_WRITE;
    if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
    if ((err = cy_mem_alloc(ctx, m, size, host_ptr ? copy_in : NULL, host_ptr))) {
      cy_handle_drop(CY_HANDLE_MEM, m);
      m = NULL;
    }
  }
  if (errcode_ret) *errcode_ret = err;
  return m;
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buf, cl_mem_flags flags, cl_buffer_create_type type,
                                     const void *info, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_mem m = NULL;
  const cl_buffer_region *r = info;
  if (!cy_is_mem(buf) || buf->parent || buf->img) {
    err = CL_INVALID_MEM_OBJECT;
    goto out;
  }
  cl_mem_flags pf = buf->flags;
  if ((flags & ~(ACCESS | HOSTACC)) || several(flags & ACCESS) || several(flags & HOSTACC) ||
      ((pf & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
      ((pf & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY))) ||
      ((pf & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((pf & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((pf & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY))) ||
      type != CL_BUFFER_CREATE_TYPE_REGION || !r || r->origin > buf->size || r->size > buf->size - r->origin) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  if (!r->size) {
    err = CL_INVALID_BUFFER_SIZE;
    goto out;
  }
  if (r->origin % CY_SUB_ALIGN) {
    err = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    goto out;
  }
  /* unspecified access and host flags are inherited, as are the host pointer flags */
  cl_mem_flags f = flags;
  if (!(f & ACCESS)) f |= pf & ACCESS;
  if (!(f & HOSTACC)) f |= pf & HOSTACC;
  f |= pf & HOSTPTR;
  if (!(m = cy_mem_new(buf->ctx, f, r->size))) {
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  m->parent = buf;
  m->offset = r->origin;
  m->addr = buf->addr + (uint32_t)r->origin;
  if (buf->host_ptr) m->host_ptr = (char *)buf->host_ptr + r->origin;
  cy_ctx_enter(buf->ctx);
  if (cy_ctx_add_mem(buf->ctx, m)) {
    cy_handle_drop(CY_HANDLE_MEM, m);
    m = NULL;
    err = CL_OUT_OF_HOST_MEMORY;
  } else {
    cy_inner_retain(&buf->ref);
    cy_inner_retain(&buf->ctx->ref);
  }
  cy_ctx_leave(buf->ctx);
out:
  if (errcode_ret) *errcode_ret = err;
  return m;
}

cl_int CL_API_CALL clRetainMemObject(cl_mem m) {
  if (!cy_is_mem(m)) return CL_INVALID_MEM_OBJECT;
  cy_ref_retain(&m->ref);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem m) {
  if (!cy_is_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (cy_ref_release(&m->ref)) mem_free(m);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem m, void(CL_CALLBACK *fn)(cl_mem, void *),
                                                    void *user_data) {
  if (!cy_is_mem(m)) return CL_INVALID_MEM_OBJECT;
  if (!fn) return CL_INVALID_VALUE;
  cy_ctx_enter(m->ctx);
  cy_mem_cb *p = realloc(m->cbs, (m->ncbs + 1) * sizeof *p);
  if (p) {
    m->cbs = p;
    p[m->ncbs++] = (cy_mem_cb){fn, user_data};
  }
  cy_ctx_leave(m->ctx);
  return p ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem m, cl_mem_info param_name, size_t param_value_size,
                                      void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_mem(m)) return CL_INVALID_MEM_OBJECT;
  switch (param_name) {
  case CL_MEM_TYPE: CY_INFO(cl_mem_object_type, m->img ? m->img->type : CL_MEM_OBJECT_BUFFER);
  case CL_MEM_FLAGS: CY_INFO(cl_mem_flags, m->flags);
  case CL_MEM_SIZE: CY_INFO(size_t, m->size);
  case CL_MEM_HOST_PTR: CY_INFO(void *, m->host_ptr);
  case CL_MEM_MAP_COUNT: CY_INFO(cl_uint, (cl_uint)m->nmaps);
  case CL_MEM_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&m->ref.refs));
  case CL_MEM_CONTEXT: CY_INFO(cl_context, m->ctx);
  case CL_MEM_ASSOCIATED_MEMOBJECT: CY_INFO(cl_mem, m->img ? m->img->buffer : m->parent);
  case CL_MEM_OFFSET: CY_INFO(size_t, m->offset);
  case CL_MEM_USES_SVM_POINTER: CY_INFO(cl_bool, CL_FALSE);
  case CL_MEM_PROPERTIES: return cy_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  default: return CL_INVALID_VALUE;
  }
}
