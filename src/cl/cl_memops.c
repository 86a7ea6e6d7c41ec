/* Buffer commands: read, write, copy (and their rect variants), fill,
 * map/unmap and migrate. The device copy is the buffer; a mapped or
 * CL_MEM_USE_HOST_PTR host region is synchronised at map and unmap. */
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"
#include "cl_image_cmd.h"

typedef struct {
  cy_cmd base;
  cl_mem a, b;         /* buffers used (inner references) */
  size_t aoff, boff, size;
  void *ptr;
  const void *cptr;
  size_t ao[3], bo[3], region[3], arow, aslice, brow, bslice; /* rect: a = buffer, b = host or buffer */
  uint8_t pattern[128];
  size_t psize;
  cy_map map;
} memcmd;

static void memcmd_done(cy_cmd *c) {
  memcmd *m = (memcmd *)c;
  if (m->a) cy_mem_unref(m->a);
  if (m->b) cy_mem_unref(m->b);
  free(m);
}

static memcmd *memcmd_new(cl_int (*run)(cl_event, cy_cmd *), cl_mem a, cl_mem b) {
  memcmd *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->base.run = run;
  m->base.done = memcmd_done;
  m->a = a, m->b = b;
  if (a) cy_inner_retain(&a->ref);
  if (b) cy_inner_retain(&b->ref);
  return m;
}

/* a buffer command on m (images have their own, cl_image_ops.c) */
static cl_int check(cl_command_queue q, cl_mem m, cl_uint n, const cl_event *list) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!cy_is_mem(m) || m->img) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  return cy_check_waits(q->ctx, n, list);
}

static int in_range(cl_mem m, size_t off, size_t size) { return off <= m->size && size <= m->size - off; }

static cl_int dev_rw(cl_mem m, size_t off, void *host, size_t size, int write) {
  vt_error e;
  vt_device *d = m->ctx->dev;
  int rc = write ? vt_mem_write(d, m->addr + (uint32_t)off, host, (uint32_t)size, &e)
                 : vt_mem_read(d, m->addr + (uint32_t)off, host, (uint32_t)size, &e);
  return rc ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

/* ---- read / write / copy ------------------------------------------------------- */

static cl_int run_read(cl_event ev, cy_cmd *c) {
  (void)ev;
  memcmd *m = (memcmd *)c;
  return dev_rw(m->a, m->aoff, m->ptr, m->size, 0);
}

static cl_int run_write(cl_event ev, cy_cmd *c) {
  (void)ev;
  memcmd *m = (memcmd *)c;
  return dev_rw(m->a, m->aoff, (void *)m->cptr, m->size, 1);
}

static cl_int run_copy(cl_event ev, cy_cmd *c) {
  (void)ev;
  memcmd *m = (memcmd *)c;
  void *tmp = malloc(m->size);
  if (!tmp) return CL_OUT_OF_HOST_MEMORY;
  cl_int rc = dev_rw(m->a, m->aoff, tmp, m->size, 0);
  if (!rc) rc = dev_rw(m->b, m->boff, tmp, m->size, 1);
  free(tmp);
  return rc;
}

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue q, cl_mem buf, cl_bool blocking, size_t offset,
                                       size_t size, void *ptr, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int rc = check(q, buf, n, list);
  if (rc) return rc;
  if (!ptr || !size || !in_range(buf, offset, size)) return CL_INVALID_VALUE;
  if (buf->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  memcmd *m = memcmd_new(run_read, buf, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  m->aoff = offset, m->size = size, m->ptr = ptr;
  return cy_enqueue(q, CL_COMMAND_READ_BUFFER, &m->base, n, list, event, blocking);
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue q, cl_mem buf, cl_bool blocking, size_t offset,
                                        size_t size, const void *ptr, cl_uint n, const cl_event *list,
                                        cl_event *event) {
  cl_int rc = check(q, buf, n, list);
  if (rc) return rc;
  if (!ptr || !size || !in_range(buf, offset, size)) return CL_INVALID_VALUE;
  if (buf->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)) return CL_INVALID_OPERATION;
  memcmd *m = memcmd_new(run_write, buf, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  m->aoff = offset, m->size = size, m->cptr = ptr;
  return cy_enqueue(q, CL_COMMAND_WRITE_BUFFER, &m->base, n, list, event, blocking);
}

/* the device ranges [a, a+as) and [b, b+bs) of two buffers overlap */
static int overlap(cl_mem x, size_t xo, size_t xs, cl_mem y, size_t yo, size_t ys) {
  uint64_t a = (uint64_t)x->addr + xo, b = (uint64_t)y->addr + yo;
  return a < b + ys && b < a + xs;
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue q, cl_mem src, cl_mem dst, size_t soff, size_t doff,
                                       size_t size, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int rc = check(q, src, n, list);
  if (rc) return rc;
  if (!cy_is_mem(dst) || dst->img) return CL_INVALID_MEM_OBJECT;
  if (dst->ctx != q->ctx) return CL_INVALID_CONTEXT;
  if (!size || !in_range(src, soff, size) || !in_range(dst, doff, size)) return CL_INVALID_VALUE;
  if (overlap(src, soff, size, dst, doff, size)) return CL_MEM_COPY_OVERLAP;
  memcmd *m = memcmd_new(run_copy, src, dst);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  m->aoff = soff, m->boff = doff, m->size = size;
  return cy_enqueue(q, CL_COMMAND_COPY_BUFFER, &m->base, n, list, event, 0);
}

/* ---- rect variants ---------------------------------------------------------------- */

/* Defaults the pitches and checks the region against `limit` bytes (0: host, unchecked). */
static cl_int rect_check(const size_t o[3], const size_t r[3], size_t *row, size_t *slice, size_t limit) {
  if (!o || !r || !r[0] || !r[1] || !r[2]) return CL_INVALID_VALUE;
  if (!*row) *row = r[0];
  if (!*slice) *slice = r[1] * *row;
  if (*row < r[0] || *slice < r[1] * *row || *slice % *row) return CL_INVALID_VALUE;
  if (limit) {
    uint64_t last = (uint64_t)(o[2] + r[2] - 1) * *slice + (uint64_t)(o[1] + r[1] - 1) * *row + o[0] + r[0];
    if (last > limit) return CL_INVALID_VALUE;
  }
  return CL_SUCCESS;
}

static size_t rect_off(const size_t o[3], size_t y, size_t z, size_t row, size_t slice) {
  return (o[2] + z) * slice + (o[1] + y) * row + o[0];
}

/* a: buffer; b: host memory at ptr (read/write) or a second buffer (copy) */
static cl_int run_rect(cl_event ev, cy_cmd *c) {
  memcmd *m = (memcmd *)c;
  cl_command_type t = ev->type;
  void *tmp = NULL;
  if (t == CL_COMMAND_COPY_BUFFER_RECT && !(tmp = malloc(m->region[0]))) return CL_OUT_OF_HOST_MEMORY;
  cl_int rc = CL_SUCCESS;
  for (size_t z = 0; !rc && z < m->region[2]; z++)
    for (size_t y = 0; !rc && y < m->region[1]; y++) {
      size_t ao = rect_off(m->ao, y, z, m->arow, m->aslice), bo = rect_off(m->bo, y, z, m->brow, m->bslice);
      if (t == CL_COMMAND_READ_BUFFER_RECT)
        rc = dev_rw(m->a, ao, (char *)m->ptr + bo, m->region[0], 0);
      else if (t == CL_COMMAND_WRITE_BUFFER_RECT)
        rc = dev_rw(m->a, ao, (char *)m->cptr + bo, m->region[0], 1);
      else if (!(rc = dev_rw(m->a, ao, tmp, m->region[0], 0)))
        rc = dev_rw(m->b, bo, tmp, m->region[0], 1);
    }
  free(tmp);
  return rc;
}

static cl_int host_rect(cl_command_queue q, cl_mem buf, cl_bool blocking, const size_t *bo, const size_t *ho,
                        const size_t *region, size_t brow, size_t bslice, size_t hrow, size_t hslice, void *ptr,
                        const void *cptr, cl_uint n, const cl_event *list, cl_event *event,
                        cl_command_type type) {
  cl_int rc = check(q, buf, n, list);
  if (rc) return rc;
  if ((!ptr && !cptr) || (rc = rect_check(bo, region, &brow, &bslice, buf->size)) ||
      (rc = rect_check(ho, region, &hrow, &hslice, 0)))
    return CL_INVALID_VALUE;
  cl_mem_flags deny = type == CL_COMMAND_READ_BUFFER_RECT ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                                          : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (buf->flags & deny) return CL_INVALID_OPERATION;
  memcmd *m = memcmd_new(run_rect, buf, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->ao, bo, sizeof m->ao);
  memcpy(m->bo, ho, sizeof m->bo);
  memcpy(m->region, region, sizeof m->region);
  m->arow = brow, m->aslice = bslice, m->brow = hrow, m->bslice = hslice;
  m->ptr = ptr, m->cptr = cptr;
  return cy_enqueue(q, type, &m->base, n, list, event, blocking);
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue q, cl_mem buf, cl_bool blocking, const size_t *bo,
                                           const size_t *ho, const size_t *region, size_t brow, size_t bslice,
                                           size_t hrow, size_t hslice, void *ptr, cl_uint n,
                                           const cl_event *list, cl_event *event) {
  return host_rect(q, buf, blocking, bo, ho, region, brow, bslice, hrow, hslice, ptr, NULL, n, list, event,
                   CL_COMMAND_READ_BUFFER_RECT);
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue q, cl_mem buf, cl_bool blocking, const size_t *bo,
                                            const size_t *ho, const size_t *region, size_t brow, size_t bslice,
                                            size_t hrow, size_t hslice, const void *ptr, cl_uint n,
                                            const cl_event *list, cl_event *event) {
  return host_rect(q, buf, blocking, bo, ho, region, brow, bslice, hrow, hslice, NULL, ptr, n, list, event,
                   CL_COMMAND_WRITE_BUFFER_RECT);
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
                                           const size_t *dor, const size_t *region, size_t srow, size_t sslice,
                                           size_t drow, size_t dslice, cl_uint n, const cl_event *list,
                                           cl_event *event) {
  cl_int rc = check(q, src, n, list);
  if (rc) return rc;
  if (!cy_is_mem(dst) || dst->img) return CL_INVALID_MEM_OBJECT;
  if (dst->ctx != q->ctx) return CL_INVALID_CONTEXT;
  if (rect_check(so, region, &srow, &sslice, src->size) || rect_check(dor, region, &drow, &dslice, dst->size))
    return CL_INVALID_VALUE;
  if (src == dst) {
    /* same buffer: the spanned byte ranges must not overlap */
    size_t s0 = rect_off(so, 0, 0, srow, sslice), d0 = rect_off(dor, 0, 0, drow, dslice);
    size_t s1 = rect_off(so, region[1] - 1, region[2] - 1, srow, sslice) + region[0];
    size_t d1 = rect_off(dor, region[1] - 1, region[2] - 1, drow, dslice) + region[0];
    if (srow != drow || sslice != dslice) return CL_INVALID_VALUE;
    if (s0 < d1 && d0 < s1) return CL_MEM_COPY_OVERLAP;
  } else if (overlap(src, 0, src->size, dst, 0, dst->size)) {
    return CL_MEM_COPY_OVERLAP; /* a sub-buffer and its parent, or two overlapping sub-buffers */
  }
  memcmd *m = memcmd_new(run_rect, src, dst);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->ao, so, sizeof m->ao);
  memcpy(m->bo, dor, sizeof m->bo);
  memcpy(m->region, region, sizeof m->region);
  m->arow = srow, m->aslice = sslice, m->brow = drow, m->bslice = dslice;
  return cy_enqueue(q, CL_COMMAND_COPY_BUFFER_RECT, &m->base, n, list, event, 0);
}

/* ---- fill ---------------------------------------------------------------------------- */

static cl_int run_fill(cl_event ev, cy_cmd *c) {
  (void)ev;
  memcmd *m = (memcmd *)c;
  uint8_t *tmp = malloc(m->size);
  if (!tmp) return CL_OUT_OF_HOST_MEMORY;
  for (size_t i = 0; i < m->size; i += m->psize) memcpy(tmp + i, m->pattern, m->psize);
  cl_int rc = dev_rw(m->a, m->aoff, tmp, m->size, 1);
  free(tmp);
  return rc;
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue q, cl_mem buf, const void *pattern, size_t psize,
                                       size_t offset, size_t size, cl_uint n, const cl_event *list,
                                       cl_event *event) {
  cl_int rc = check(q, buf, n, list);
  if (rc) return rc;
  if (!pattern || !psize || psize > 128 || (psize & (psize - 1)) || offset % psize || size % psize ||
      !in_range(buf, offset, size) || !size)
    return CL_INVALID_VALUE;
  memcmd *m = memcmd_new(run_fill, buf, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->pattern, pattern, psize);
  m->psize = psize, m->aoff = offset, m->size = size;
  return cy_enqueue(q, CL_COMMAND_FILL_BUFFER, &m->base, n, list, event, 0);
}

/* ---- map / unmap ------------------------------------------------------------------- */

static cl_int run_map(cl_event ev, cy_cmd *c) {
  (void)ev;
  memcmd *m = (memcmd *)c;
  if (m->map.flags & CL_MAP_WRITE_INVALIDATE_REGION) return CL_SUCCESS; /* contents undefined */
  return dev_rw(m->a, m->map.offset, m->map.ptr, m->map.size, 0);
}

void *CL_API_CALL clEnqueueMapBuffer(cl_command_queue q, cl_mem buf, cl_bool blocking, cl_map_flags flags,
                                     size_t offset, size_t size, cl_uint n, const cl_event *list, cl_event *event,
                                     cl_int *errcode_ret) {
  cl_int rc = check(q, buf, n, list);
  void *p = NULL;
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  if (rc) goto out;
  if (!size || !in_range(buf, offset, size) || (flags & ~known) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
    rc = CL_INVALID_VALUE;
    goto out;
  }
  if (((flags & CL_MAP_READ) && (buf->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
      ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       (buf->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))) {
    rc = CL_INVALID_OPERATION;
    goto out;
  }
  cy_map mp = {NULL, offset, size, flags, 0, {0}, {0}, 0, 0};
  if (buf->host_ptr)
    mp.ptr = (char *)buf->host_ptr + offset;
  else if ((mp.ptr = malloc(size)))
    mp.owned = 1;
  memcmd *m = mp.ptr ? memcmd_new(run_map, buf, NULL) : NULL;
  cy_ctx_enter(q->ctx); /* the map list is shared with unmaps in other threads */
  cy_map *maps = m ? realloc(buf->maps, (buf->nmaps + 1) * sizeof *maps) : NULL;
  if (maps) {
    buf->maps = maps;
    buf->maps[buf->nmaps++] = mp;
  }
  cy_ctx_leave(q->ctx);
  if (!maps) {
    if (m) memcmd_done(&m->base);
    if (mp.owned) free(mp.ptr);
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  m->map = mp;
  rc = cy_enqueue(q, CL_COMMAND_MAP_BUFFER, &m->base, n, list, event, blocking);
  if (rc == CL_SUCCESS) p = mp.ptr;
out:
  if (errcode_ret) *errcode_ret = rc;
  return p;
}

static cl_int run_unmap(cl_event ev, cy_cmd *c) {
  (void)ev;
  memcmd *m = (memcmd *)c;
  if (m->map.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION))
    return dev_rw(m->a, m->map.offset, m->map.ptr, m->map.size, 1);
  return CL_SUCCESS;
}

/* the map's host copy lives until the unmap command is done (run or not) */
static void unmap_done(cy_cmd *c) {
  memcmd *m = (memcmd *)c;
  if (m->map.owned) free(m->map.ptr);
  memcmd_done(c);
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue q, cl_mem mem, void *ptr, cl_uint n,
                                           const cl_event *list, cl_event *event) {
  cl_int rc = cy_is_mem(mem) && mem->img ? cy_image_check(q, mem) : check(q, mem, n, list);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  cy_ctx_enter(q->ctx);
  size_t i = 0;
  while (i < mem->nmaps && mem->maps[i].ptr != ptr) i++;
  cy_map mp = {0};
  if (i < mem->nmaps) {
    mp = mem->maps[i];
    mem->maps[i] = mem->maps[--mem->nmaps];
  }
  cy_ctx_leave(q->ctx);
  if (!mp.ptr) return CL_INVALID_VALUE;
  if (mem->img) return cy_image_unmap(q, mem, &mp, n, list, event);
  memcmd *m = memcmd_new(run_unmap, mem, NULL);
  if (!m) {
    if (mp.owned) free(mp.ptr);
    return CL_OUT_OF_HOST_MEMORY;
  }
  m->base.done = unmap_done;
  m->map = mp;
  return cy_enqueue(q, CL_COMMAND_UNMAP_MEM_OBJECT, &m->base, n, list, event, 0);
}

/* ---- migrate: one device, nothing moves ---------------------------------------- */

static cl_int run_nothing(cl_event ev, cy_cmd *c) {
  (void)ev, (void)c;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue q, cl_uint num, const cl_mem *mems,
                                              cl_mem_migration_flags flags, cl_uint n, const cl_event *list,
                                              cl_event *event) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!num || !mems || (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num; i++) {
    if (!cy_is_mem(mems[i])) return CL_INVALID_MEM_OBJECT;
    if (mems[i]->ctx != q->ctx) return CL_INVALID_CONTEXT;
  }
  cl_int rc = cy_check_waits(q->ctx, n, list);
  if (rc) return rc;
  memcmd *m = memcmd_new(run_nothing, NULL, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  return cy_enqueue(q, CL_COMMAND_MIGRATE_MEM_OBJECTS, &m->base, n, list, event, 0);
}
