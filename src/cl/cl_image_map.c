/* clEnqueueMapImage and the unmap of an image map: the region is copied
 * to host memory at the map (unless CL_MAP_WRITE_INVALIDATE_REGION) and
 * back at the unmap of a write map. The host copy is packed, or, for a
 * CL_MEM_USE_HOST_PTR image, the region inside the application's memory
 * with the pitches it gave at creation (OpenCL 1.2 §5.3.5 derives the
 * pointer from host_ptr then). */
#include <stdlib.h>
#include <string.h>

#include "cl_image_cmd.h"

/* map: device rows to host (read 0) or back (unmap of a write map, 1) */
static cl_int move_rows(cy_imgcmd *m, int write) {
  const cy_image *im = m->a->img;
  const cy_map *mp = &m->map;
  size_t n = mp->r[0] * im->esize;
  cl_int rc = CL_SUCCESS;
  for (size_t z = 0; !rc && z < mp->r[2]; z++)
    for (size_t y = 0; !rc && y < mp->r[1]; y++)
      rc = cy_dev_rw(m->a, cy_image_row(im, mp->o, y, z),
                     (char *)mp->ptr + cy_image_host_row(im, y, z, mp->row, mp->slice), n, write);
  return rc;
}

static cl_int run_map(cl_event ev, cy_cmd *c) {
  (void)ev;
  cy_imgcmd *m = (cy_imgcmd *)c;
  if (m->map.flags & CL_MAP_WRITE_INVALIDATE_REGION) return CL_SUCCESS; /* contents undefined */
  return move_rows(m, 0);
}

static cl_int run_unmap(cl_event ev, cy_cmd *c) {
  (void)ev;
  cy_imgcmd *m = (cy_imgcmd *)c;
  return m->map.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION) ? move_rows(m, 1) : CL_SUCCESS;
}

/* the map's host copy lives until the unmap command is done (run or not) */
static void unmap_done(cy_cmd *c) {
  cy_imgcmd *m = (cy_imgcmd *)c;
  if (m->map.owned) free(m->map.ptr);
  cy_imgcmd_done(c);
}

cl_int cy_image_unmap(cl_command_queue q, cl_mem img, const cy_map *mp, cl_uint n, const cl_event *list,
                      cl_event *event) {
  cy_imgcmd *m = cy_imgcmd_new(run_unmap, img, NULL);
  if (!m) {
    if (mp->owned) free(mp->ptr);
    return CL_OUT_OF_HOST_MEMORY;
  }
  m->base.done = unmap_done;
  m->map = *mp;
  return cy_enqueue(q, CL_COMMAND_UNMAP_MEM_OBJECT, &m->base, n, list, event, 0);
}

void *CL_API_CALL clEnqueueMapImage(cl_command_queue q, cl_mem img, cl_bool blocking, cl_map_flags flags,
                                    const size_t *o, const size_t *r, size_t *row_pitch, size_t *slice_pitch,
                                    cl_uint n, const cl_event *list, cl_event *event, cl_int *errcode_ret) {
  const cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  void *p = NULL;
  cl_int rc = cy_image_check(q, img);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) goto out;
  const cy_image *im = img->img;
  int sliced = im->type == CL_MEM_OBJECT_IMAGE3D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
               cy_image_is_1d_array(im);
  if (cy_image_region(im, o, r) || !row_pitch || (sliced && !slice_pitch) || (flags & ~known) ||
      ((flags & CL_MAP_WRITE_INVALIDATE_REGION) && (flags & (CL_MAP_READ | CL_MAP_WRITE)))) {
    rc = CL_INVALID_VALUE;
    goto out;
  }
  if (((flags & CL_MAP_READ) && (img->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS))) ||
      ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) &&
       (img->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)))) {
    rc = CL_INVALID_OPERATION;
    goto out;
  }
  cy_map mp = {NULL, 0, 0, flags, 0, {o[0], o[1], o[2]}, {r[0], r[1], r[2]}, 0, 0};
  if (img->host_ptr) { /* inside the application's memory, its pitches */
    mp.row = im->hrow, mp.slice = im->hslice;
    size_t at = cy_image_is_1d_array(im) ? o[1] * mp.slice + o[0] * im->esize
                                         : o[2] * mp.slice + o[1] * mp.row + o[0] * im->esize;
    mp.ptr = (char *)img->host_ptr + at;
  } else {
    mp.row = r[0] * im->esize;
    mp.slice = cy_image_is_1d_array(im) ? mp.row : mp.row * r[1];
    size_t layers = cy_image_is_1d_array(im) ? r[1] : r[2];
    if ((mp.ptr = malloc(mp.slice * layers))) mp.owned = 1;
  }
  cy_imgcmd *m = mp.ptr ? cy_imgcmd_new(run_map, img, NULL) : NULL;
  cy_ctx_enter(q->ctx); /* the map list is shared with unmaps in other threads */
  cy_map *maps = m ? realloc(img->maps, (img->nmaps + 1) * sizeof *maps) : NULL;
  if (maps) {
    img->maps = maps;
    img->maps[img->nmaps++] = mp;
  }
  cy_ctx_leave(q->ctx);
  if (!maps) {
    if (m) cy_imgcmd_done(&m->base);
    if (mp.owned) free(mp.ptr);
    rc = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  m->map = mp;
  *row_pitch = mp.row;
  if (slice_pitch) *slice_pitch = sliced ? mp.slice : 0;
  rc = cy_enqueue(q, CL_COMMAND_MAP_IMAGE, &m->base, n, list, event, blocking);
  if (rc == CL_SUCCESS) p = mp.ptr;
out:
  if (errcode_ret) *errcode_ret = rc;
  return p;
}
