/* What the image command files share (cl_image_ops.c, cl_image_copy.c,
 * cl_image_map.c): the command payload, region checks and texel
 * addresses. Origins and regions are the API's: a 1D array's layer is
 * origin[1]/region[1], a 2D array's origin[2]/region[2]. */
#ifndef CY_CL_IMAGE_CMD_H
#define CY_CL_IMAGE_CMD_H

#include "cl_api.h"

typedef struct {
  cy_cmd base;
  cl_mem a, b;               /* a: the image (a copy's source); b: the other object (inner references) */
  size_t ao[3], bo[3], r[3]; /* origins in a and b (images), the region */
  size_t boff;               /* b as a buffer: byte offset of the packed texels */
  void *ptr;                 /* host memory read into */
  const void *cptr;          /* host memory written from */
  size_t hrow, hslice;       /* its pitches */
  uint8_t texel[16];         /* fill */
  cy_map map;                /* map / unmap */
} cy_imgcmd;

cy_imgcmd *cy_imgcmd_new(cl_int (*run)(cl_event, cy_cmd *), cl_mem a, cl_mem b);
void cy_imgcmd_done(cy_cmd *c);
/* q a queue, m an image of its context */
cl_int cy_image_check(cl_command_queue q, cl_mem m);
/* origin and region inside the image, extents its type lacks 1 and their origins 0 */
cl_int cy_image_region(const cy_image *im, const size_t *o, const size_t *r);
int cy_image_is_1d_array(const cy_image *im);
/* device address of the first texel of row (y, z) of a region at o */
uint32_t cy_image_row(const cy_image *im, const size_t o[3], size_t y, size_t z);
/* host offset of row (y, z) of a region with these host pitches (a 1D
 * array's layers are host slices) */
size_t cy_image_host_row(const cy_image *im, size_t y, size_t z, size_t row, size_t slice);
/* host pitches of a region: 0 = packed; CL_INVALID_VALUE if too small, or
 * a slice pitch for a type without slices */
cl_int cy_image_pitches(const cy_image *im, const size_t *r, size_t *row, size_t *slice);
cl_int cy_dev_rw(cl_mem m, uint32_t addr, void *host, size_t n, int write);
/* the unmap of an image map (cl_image_map.c), for clEnqueueUnmapMemObject */
cl_int cy_image_unmap(cl_command_queue q, cl_mem img, const cy_map *mp, cl_uint n, const cl_event *list,
                      cl_event *event);

#endif
