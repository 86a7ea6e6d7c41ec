/* Image commands between an image and host memory: read and write, with
 * what the image command files share (cl_image_cmd.h). Each moves rows of
 * texels between the image's packed device rows (cl_image.c) and the host,
 * on the context's device thread like the buffer commands. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cl_image_cmd.h"

void cy_imgcmd_done(cy_cmd *c) {
  cy_imgcmd *m = (cy_imgcmd *)c;
  if (m->a) cy_mem_unref(m->a);
  if (m->b) cy_mem_unref(m->b);
  free(m);
}

cy_imgcmd *cy_imgcmd_new(cl_int (*run)(cl_event, cy_cmd *), cl_mem a, cl_mem b) {
  cy_imgcmd *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->base.run = run;
  m->base.done = cy_imgcmd_done;
  m->a = a, m->b = b;
  if (a) cy_inner_retain(&a->ref);
  if (b) cy_inner_retain(&b->ref);
  return m;
}

cl_int cy_image_check(cl_command_queue q, cl_mem m) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!cy_is_mem(m) || !m->img) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

int cy_image_is_1d_array(const cy_image *im) { return im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY; }

/* OpenCL 1.2 §5.3.3: coordinates a type lacks are 0 and their extents 1 */
cl_int cy_image_region(const cy_image *im, const size_t *o, const size_t *r) {
  if (!o || !r || !r[0] || !r[1] || !r[2]) return CL_INVALID_VALUE;
  cl_mem_object_type t = im->type;
  size_t lim[3] = {im->w, 1, 1};
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) lim[1] = im->arr;
  if (t == CL_MEM_OBJECT_IMAGE2D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || t == CL_MEM_OBJECT_IMAGE3D) lim[1] = im->h;
  if (t == CL_MEM_OBJECT_IMAGE2D_ARRAY) lim[2] = im->arr;
  if (t == CL_MEM_OBJECT_IMAGE3D) lim[2] = im->d;
  for (int i = 0; i < 3; i++)
    if (o[i] > lim[i] || r[i] > lim[i] - o[i]) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

uint32_t cy_image_row(const cy_image *im, const size_t o[3], size_t y, size_t z) {
  if (cy_image_is_1d_array(im)) return im->data + (uint32_t)((o[1] + y) * im->slice + o[0] * im->esize);
  return im->data + (uint32_t)((o[2] + z) * im->slice + (o[1] + y) * im->row + o[0] * im->esize);
}

size_t cy_image_host_row(const cy_image *im, size_t y, size_t z, size_t row, size_t slice) {
  return cy_image_is_1d_array(im) ? y * slice : z * slice + y * row;
}

cl_int cy_image_pitches(const cy_image *im, const size_t *r, size_t *row, size_t *slice) {
  int sliced = im->type == CL_MEM_OBJECT_IMAGE3D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
               cy_image_is_1d_array(im);
  if (!sliced && *slice) return CL_INVALID_VALUE;
  size_t tight = r[0] * im->esize, rows = cy_image_is_1d_array(im) ? 1 : r[1];
  if (!*row) *row = tight;
  if (*row < tight || *row > SIZE_MAX / rows / (sliced ? r[cy_image_is_1d_array(im) ? 1 : 2] : 1))
    return CL_INVALID_VALUE; /* pitches whose host span does not fit a size_t */
  if (!*slice) *slice = *row * rows;
  if (sliced && *slice > SIZE_MAX / r[cy_image_is_1d_array(im) ? 1 : 2]) return CL_INVALID_VALUE;
  if (*slice < *row * rows) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int cy_dev_rw(cl_mem m, uint32_t addr, void *host, size_t n, int write) {
  vt_error e;
  int rc = write ? vt_mem_write(m->ctx->dev, addr, host, (uint32_t)n, &e)
                 : vt_mem_read(m->ctx->dev, addr, host, (uint32_t)n, &e);
  return rc ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

/* ---- read / write ------------------------------------------------------------ */

static cl_int run_host(cl_event ev, cy_cmd *c) {
  cy_imgcmd *m = (cy_imgcmd *)c;
  const cy_image *im = m->a->img;
  int write = ev->type == CL_COMMAND_WRITE_IMAGE;
  size_t n = m->r[0] * im->esize;
  cl_int rc = CL_SUCCESS;
  for (size_t z = 0; !rc && z < m->r[2]; z++)
    for (size_t y = 0; !rc && y < m->r[1]; y++) {
      size_t h = cy_image_host_row(im, y, z, m->hrow, m->hslice);
      rc = cy_dev_rw(m->a, cy_image_row(im, m->ao, y, z), write ? (char *)m->cptr + h : (char *)m->ptr + h, n, write);
    }
  return rc;
}

static cl_int host_cmd(cl_command_queue q, cl_mem img, cl_bool blocking, const size_t *o, const size_t *r,
                       size_t row, size_t slice, void *ptr, const void *cptr, cl_uint n, const cl_event *list,
                       cl_event *event, cl_command_type type) {
  cl_int rc = cy_image_check(q, img);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  if ((!ptr && !cptr) || cy_image_region(img->img, o, r) || cy_image_pitches(img->img, r, &row, &slice))
    return CL_INVALID_VALUE;
  cl_mem_flags deny = type == CL_COMMAND_READ_IMAGE ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                                    : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (img->flags & deny) return CL_INVALID_OPERATION;
  cy_imgcmd *m = cy_imgcmd_new(run_host, img, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->ao, o, sizeof m->ao);
  memcpy(m->r, r, sizeof m->r);
  m->ptr = ptr, m->cptr = cptr, m->hrow = row, m->hslice = slice;
  return cy_enqueue(q, type, &m->base, n, list, event, blocking);
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue q, cl_mem img, cl_bool blocking, const size_t *origin,
                                      const size_t *region, size_t row_pitch, size_t slice_pitch, void *ptr,
                                      cl_uint n, const cl_event *list, cl_event *event) {
  return host_cmd(q, img, blocking, origin, region, row_pitch, slice_pitch, ptr, NULL, n, list, event,
                  CL_COMMAND_READ_IMAGE);
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue q, cl_mem img, cl_bool blocking, const size_t *origin,
                                       const size_t *region, size_t row_pitch, size_t slice_pitch, const void *ptr,
                                       cl_uint n, const cl_event *list, cl_event *event) {
  return host_cmd(q, img, blocking, origin, region, row_pitch, slice_pitch, NULL, ptr, n, list, event,
                  CL_COMMAND_WRITE_IMAGE);
}
