/* Image commands: read, write, copy (image to image, image to buffer,
 * buffer to image) and fill. Each moves rows of texels between the
 * image's packed device rows (cl_image.c) and host memory or another
 * object, on the context's device thread like the buffer commands. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

/* a box of texels: x, y, z where z is the slice of a 3D image or the layer
 * of an array (a 1D array's layer moves from origin[1] to z) */
typedef struct {
  size_t o[3], r[3];
} box;

typedef struct {
  cy_cmd base;
  cl_mem a, b;       /* a: the image (source of copies); b: the other object */
  box ab, bb;        /* a's box, b's box (image copies) */
  size_t boff;       /* b as a buffer: byte offset of the packed texels */
  void *ptr;         /* host memory (read), or the fill texel */
  const void *cptr;  /* host memory (write) */
  size_t hrow, hslice;
  uint8_t texel[16];
} imgcmd;

static void imgcmd_done(cy_cmd *c) {
  imgcmd *m = (imgcmd *)c;
  if (m->a) cy_mem_unref(m->a);
  if (m->b) cy_mem_unref(m->b);
  free(m);
}

static imgcmd *imgcmd_new(cl_int (*run)(cl_event, cy_cmd *), cl_mem a, cl_mem b) {
  imgcmd *m = calloc(1, sizeof *m);
  if (!m) return NULL;
  m->base.run = run;
  m->base.done = imgcmd_done;
  m->a = a, m->b = b;
  if (a) cy_inner_retain(&a->ref);
  if (b) cy_inner_retain(&b->ref);
  return m;
}

static cl_int check_image(cl_command_queue q, cl_mem m) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!cy_is_mem(m) || !m->img) return CL_INVALID_MEM_OBJECT;
  if (m->ctx != q->ctx) return CL_INVALID_CONTEXT;
  return CL_SUCCESS;
}

/* origin and region of an image command as a box inside the image (OpenCL
 * 1.2 §5.3.3: unused coordinates 0, unused extents 1) */
static cl_int to_box(const cy_image *im, const size_t *o, const size_t *r, box *b) {
  if (!o || !r || !r[0] || !r[1] || !r[2]) return CL_INVALID_VALUE;
  cl_mem_object_type t = im->type;
  int is1d = t == CL_MEM_OBJECT_IMAGE1D || t == CL_MEM_OBJECT_IMAGE1D_BUFFER;
  if ((is1d || t == CL_MEM_OBJECT_IMAGE1D_ARRAY) && (o[2] || r[2] != 1)) return CL_INVALID_VALUE;
  if ((is1d && (o[1] || r[1] != 1)) || (t == CL_MEM_OBJECT_IMAGE2D && (o[2] || r[2] != 1))) return CL_INVALID_VALUE;
  size_t lim[3] = {im->w, im->h, t == CL_MEM_OBJECT_IMAGE3D ? im->d : im->arr};
  *b = (box){{o[0], o[1], o[2]}, {r[0], r[1], r[2]}};
  if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY) *b = (box){{o[0], 0, o[1]}, {r[0], 1, r[1]}};
  for (int i = 0; i < 3; i++)
    if (b->o[i] > lim[i] || b->r[i] > lim[i] - b->o[i]) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

/* device address of texel (x, y, z) of the box */
static uint32_t at(const cy_image *im, const box *b, size_t x, size_t y, size_t z) {
  return im->data + (uint32_t)((b->o[2] + z) * im->slice + (b->o[1] + y) * im->row + (b->o[0] + x) * im->esize);
}

static cl_int dev(cl_mem m, uint32_t addr, void *host, size_t n, int write) {
  vt_error e;
  int rc = write ? vt_mem_write(m->ctx->dev, addr, host, (uint32_t)n, &e)
                 : vt_mem_read(m->ctx->dev, addr, host, (uint32_t)n, &e);
  return rc ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

/* ---- read / write ------------------------------------------------------------ */

static cl_int run_host(cl_event ev, cy_cmd *c) {
  imgcmd *m = (imgcmd *)c;
  const cy_image *im = m->a->img;
  int write = ev->type == CL_COMMAND_WRITE_IMAGE;
  size_t n = m->ab.r[0] * im->esize;
  cl_int rc = CL_SUCCESS;
  for (size_t z = 0; !rc && z < m->ab.r[2]; z++)
    for (size_t y = 0; !rc && y < m->ab.r[1]; y++) {
      size_t h = z * m->hslice + y * m->hrow;
      rc = dev(m->a, at(im, &m->ab, 0, y, z), write ? (char *)m->cptr + h : (char *)m->ptr + h, n, write);
    }
  return rc;
}

/* host pitches of a read or write: 0 = packed; a slice pitch only for
 * images with slices or layers */
static cl_int host_pitches(const cy_image *im, const box *b, size_t *row, size_t *slice) {
  int sliced = im->type == CL_MEM_OBJECT_IMAGE3D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
               im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
  if (!sliced && *slice) return CL_INVALID_VALUE;
  size_t tight = b->r[0] * im->esize;
  if (!*row) *row = tight;
  if (*row < tight) return CL_INVALID_VALUE;
  if (!*slice) *slice = *row * b->r[1];
  if (*slice < *row * b->r[1]) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

static cl_int host_cmd(cl_command_queue q, cl_mem img, cl_bool blocking, const size_t *o, const size_t *r,
                       size_t row, size_t slice, void *ptr, const void *cptr, cl_uint n, const cl_event *list,
                       cl_event *event, cl_command_type type) {
  cl_int rc = check_image(q, img);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  box b;
  if ((!ptr && !cptr) || to_box(img->img, o, r, &b) || host_pitches(img->img, &b, &row, &slice))
    return CL_INVALID_VALUE;
  cl_mem_flags deny = type == CL_COMMAND_READ_IMAGE ? CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS
                                                    : CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
  if (img->flags & deny) return CL_INVALID_OPERATION;
  imgcmd *m = imgcmd_new(run_host, img, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  m->ab = b, m->ptr = ptr, m->cptr = cptr, m->hrow = row, m->hslice = slice;
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
