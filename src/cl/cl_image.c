/* Image objects: formats, creation (clCreateImage, clCreateImage2D/3D),
 * clGetImageInfo. An image is a memory object whose device memory starts
 * with the descriptor kernels read (src/cc/lib/images.cl, docs/opencl.md
 * §Images), followed by the texels, rows and slices packed; a 1D buffer
 * image's texels are its buffer's. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

#define CY_MAX_ALLOC (256u << 20) /* CL_DEVICE_MAX_MEM_ALLOC_SIZE */

/* the descriptor's words (images.cl's D_*) */
enum { D_TYPE, D_W, D_H, D_D, D_ARR, D_ORDER, D_DTYPE, D_ESIZE, D_ROW, D_SLICE, D_DATA, D_NCH, D_WORDS = 16 };

static const cl_channel_type all_types[] = {
    CL_UNORM_INT8,   CL_UNORM_INT16,  CL_SNORM_INT8,     CL_SNORM_INT16,     CL_SIGNED_INT8,
    CL_SIGNED_INT16, CL_SIGNED_INT32, CL_UNSIGNED_INT8,  CL_UNSIGNED_INT16,  CL_UNSIGNED_INT32,
    CL_HALF_FLOAT,   CL_FLOAT};

/* bytes of one channel, 0 if the type is not one we store */
static size_t type_bytes(cl_channel_type t) {
  switch (t) {
  case CL_UNORM_INT8:
  case CL_SNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8: return 1;
  case CL_UNORM_INT16:
  case CL_SNORM_INT16:
  case CL_SIGNED_INT16:
  case CL_UNSIGNED_INT16:
  case CL_HALF_FLOAT: return 2;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT: return 4;
  default: return 0;
  }
}

/* channels in memory of an order we store, 0 otherwise */
static size_t order_channels(cl_channel_order o) {
  switch (o) {
  case CL_R:
  case CL_A:
  case CL_INTENSITY:
  case CL_LUMINANCE: return 1;
  case CL_RG:
  case CL_RA: return 2;
  case CL_RGBA:
  case CL_BGRA:
  case CL_ARGB: return 4;
  default: return 0;
  }
}

/* OpenCL 1.2 §5.3.1.1: BGRA and ARGB take 8-bit types only; INTENSITY
 * and LUMINANCE normalised and float types only */
static int supported(const cl_image_format *f) {
  if (!type_bytes(f->image_channel_data_type) || !order_channels(f->image_channel_order)) return 0;
  cl_channel_type t = f->image_channel_data_type;
  switch (f->image_channel_order) {
  case CL_BGRA:
  case CL_ARGB: return type_bytes(t) == 1;
  case CL_INTENSITY:
  case CL_LUMINANCE:
    return t == CL_UNORM_INT8 || t == CL_UNORM_INT16 || t == CL_SNORM_INT8 || t == CL_SNORM_INT16 ||
           t == CL_HALF_FLOAT || t == CL_FLOAT;
  default: return 1;
  }
}

/* a format whose values are OpenCL's at all (else CL_INVALID_IMAGE_FORMAT_DESCRIPTOR) */
static int valid_format(const cl_image_format *f) {
  return f && f->image_channel_order >= CL_R && f->image_channel_order <= CL_ABGR &&
         f->image_channel_data_type >= CL_SNORM_INT8 && f->image_channel_data_type <= CL_UNORM_INT_101010_2;
}

static const cl_mem_flags ACCESS = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
static const cl_mem_flags HOSTACC = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
static const cl_mem_flags HOSTPTR = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

static int several(cl_mem_flags f) { return (f & (f - 1)) != 0; }

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context ctx, cl_mem_flags flags, cl_mem_object_type type,
                                              cl_uint num_entries, cl_image_format *formats, cl_uint *num) {
  if (!cy_is_context(ctx)) return CL_INVALID_CONTEXT;
  if ((flags & ~(ACCESS | HOSTACC | HOSTPTR | CL_MEM_KERNEL_READ_AND_WRITE)) || (!num_entries && formats) ||
      type < CL_MEM_OBJECT_IMAGE2D || type > CL_MEM_OBJECT_IMAGE1D_BUFFER)
    return CL_INVALID_VALUE;
  static const cl_channel_order orders[] = {CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_BGRA, CL_ARGB, CL_INTENSITY, CL_LUMINANCE};
  cl_uint n = 0;
  for (size_t o = 0; o < sizeof orders / sizeof *orders; o++)
    for (size_t t = 0; t < sizeof all_types / sizeof *all_types; t++) {
      cl_image_format f = {orders[o], all_types[t]};
      if (!supported(&f)) continue;
      if (formats && n < num_entries) formats[n] = f;
      n++;
    }
  if (num) *num = n;
  return CL_SUCCESS;
}

int cy_is_image_type(const char *type) { return cy_image_type_of(type) != 0; }

cl_mem_object_type cy_image_type_of(const char *type) {
  static const struct {
    const char *name;
    cl_mem_object_type t;
  } names[] = {{"image1d_t", CL_MEM_OBJECT_IMAGE1D},          {"image1d_array_t", CL_MEM_OBJECT_IMAGE1D_ARRAY},
               {"image1d_buffer_t", CL_MEM_OBJECT_IMAGE1D_BUFFER}, {"image2d_t", CL_MEM_OBJECT_IMAGE2D},
               {"image2d_array_t", CL_MEM_OBJECT_IMAGE2D_ARRAY}, {"image3d_t", CL_MEM_OBJECT_IMAGE3D}};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (!strcmp(type, names[i].name)) return names[i].t;
  return 0;
}

void cy_image_free(cl_mem m) {
  if (m->img->buffer) cy_mem_unref(m->img->buffer);
  free(m->img);
  m->img = NULL;
}

/* the descriptor and, from host memory at host with its pitches, the texels */
typedef struct {
  const void *host;
  size_t hrow, hslice;
} fill_arg;

static cl_int fill_image(cl_mem m, void *arg) {
  const fill_arg *a = arg;
  cy_image *im = m->img;
  vt_error e;
  vt_device *d = m->ctx->dev;
  int arr = im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (im->type != CL_MEM_OBJECT_IMAGE1D_BUFFER) im->data = m->addr + CY_IMAGE_DESC_BYTES;
  uint32_t w[D_WORDS] = {0};
  w[D_TYPE] = (uint32_t)im->type, w[D_W] = (uint32_t)im->w, w[D_H] = (uint32_t)im->h;
  w[D_D] = (uint32_t)(arr ? im->arr : im->d), w[D_ARR] = (uint32_t)im->arr;
  w[D_ORDER] = im->fmt.image_channel_order, w[D_DTYPE] = im->fmt.image_channel_data_type;
  w[D_ESIZE] = (uint32_t)im->esize, w[D_ROW] = (uint32_t)im->row, w[D_SLICE] = (uint32_t)im->slice;
  w[D_DATA] = im->data, w[D_NCH] = (uint32_t)im->nch;
  if (vt_mem_write(d, m->addr, w, sizeof w, &e)) return CL_OUT_OF_RESOURCES;
  if (!a->host) return CL_SUCCESS;
  size_t rows = im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : im->h, slices = arr ? im->arr : im->d;
  for (size_t z = 0; z < slices; z++)
    for (size_t y = 0; y < rows; y++)
      if (vt_mem_write(d, im->data + (uint32_t)(z * im->slice + y * im->row),
                       (const char *)a->host + z * a->hslice + y * a->hrow, (uint32_t)(im->w * im->esize), &e))
        return CL_OUT_OF_RESOURCES;
  return CL_SUCCESS;
}

/* cl_image_desc checks of OpenCL 1.2 §5.3.1 into im; CL_SUCCESS or the error */
static cl_int check_desc(const cl_image_desc *dsc, void *host_ptr, cy_image *im, size_t *hrow, size_t *hslice) {
  const size_t max2d = 8192, max3d = 2048, maxbuf = 65536, maxarr = 2048;
  if (!dsc || dsc->num_mip_levels || dsc->num_samples) return CL_INVALID_IMAGE_DESCRIPTOR;
  cl_mem_object_type t = dsc->image_type;
  im->type = t;
  im->w = dsc->image_width;
  im->h = im->d = im->arr = 1;
  size_t lim_w = max2d;
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D: break;
  case CL_MEM_OBJECT_IMAGE1D_BUFFER: lim_w = maxbuf; break;
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: im->arr = dsc->image_array_size; break;
  case CL_MEM_OBJECT_IMAGE2D: im->h = dsc->image_height; break;
  case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    im->h = dsc->image_height;
    im->arr = dsc->image_array_size;
    break;
  case CL_MEM_OBJECT_IMAGE3D:
    im->h = dsc->image_height;
    im->d = dsc->image_depth;
    lim_w = max3d;
    break;
  default: return CL_INVALID_IMAGE_DESCRIPTOR;
  }
  if (!im->w || !im->h || !im->d || !im->arr) return CL_INVALID_IMAGE_DESCRIPTOR;
  if (im->w > lim_w || im->h > (t == CL_MEM_OBJECT_IMAGE3D ? max3d : max2d) || im->d > max3d || im->arr > maxarr)
    return CL_INVALID_IMAGE_SIZE;
  if ((dsc->buffer != NULL) != (t == CL_MEM_OBJECT_IMAGE1D_BUFFER)) return CL_INVALID_IMAGE_DESCRIPTOR;
  /* host pitches: only with a host pointer; 0 = packed */
  int arr = t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  int has_slice = arr || t == CL_MEM_OBJECT_IMAGE3D;
  size_t tight = im->w * im->esize;
  *hrow = dsc->image_row_pitch;
  *hslice = dsc->image_slice_pitch;
  if (!host_ptr && (*hrow || *hslice)) return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!*hrow) *hrow = tight;
  size_t rows = t == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : im->h;
  size_t layers = t == CL_MEM_OBJECT_IMAGE3D ? im->d : im->arr;
  if (*hrow < tight || *hrow % im->esize || *hrow > SIZE_MAX / rows / layers) return CL_INVALID_IMAGE_DESCRIPTOR;
  if (!has_slice) *hslice = *hrow * rows;
  else if (!*hslice) *hslice = *hrow * rows;
  else if (*hslice < *hrow * rows || *hslice % *hrow || *hslice > SIZE_MAX / layers) return CL_INVALID_IMAGE_DESCRIPTOR;
  im->row = tight;
  im->slice = tight * rows;
  return CL_SUCCESS;
}

static cl_mem image_new(cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt, const cl_image_desc *dsc,
                        void *host_ptr, cl_int *err) {
  cy_image im = {0};
  size_t hrow, hslice;
  cl_mem m = NULL;
  if (!cy_is_context(ctx)) {
    *err = CL_INVALID_CONTEXT;
    return NULL;
  }
  if ((flags & ~(ACCESS | HOSTACC | HOSTPTR)) || several(flags & ACCESS) || several(flags & HOSTACC) ||
      ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))) {
    *err = CL_INVALID_VALUE;
    return NULL;
  }
  if (!valid_format(fmt)) {
    *err = CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
    return NULL;
  }
  /* a valid format that is not ours: the 565/555/101010 and RGB, RGBx, ... */
  if (!supported(fmt)) {
    *err = CL_IMAGE_FORMAT_NOT_SUPPORTED;
    return NULL;
  }
  im.fmt = *fmt;
  im.nch = order_channels(fmt->image_channel_order);
  im.esize = im.nch * type_bytes(fmt->image_channel_data_type);
  if ((*err = check_desc(dsc, host_ptr, &im, &hrow, &hslice))) return NULL;
  cl_mem buf = im.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? dsc->buffer : NULL;
  if (buf) {
    /* a buffer image's memory is its buffer's: no host pointer of its own;
     * access flags no wider than the buffer's, host flags inherited */
    if (!cy_is_mem(buf) || buf->img || buf->ctx != ctx) {
      *err = CL_INVALID_IMAGE_DESCRIPTOR;
      return NULL;
    }
    if (host_ptr) {
      *err = CL_INVALID_HOST_PTR;
      return NULL;
    }
    if ((flags & HOSTPTR) || ((buf->flags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
        ((buf->flags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))) {
      *err = CL_INVALID_VALUE;
      return NULL;
    }
    if (im.w * im.esize > buf->size) {
      *err = CL_INVALID_IMAGE_SIZE;
      return NULL;
    }
    /* unspecified access and host access: the buffer's */
    if (!(flags & ACCESS)) flags |= buf->flags & ACCESS;
    if (!(flags & HOSTACC)) flags |= buf->flags & HOSTACC;
  } else if (!host_ptr != !(flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
    *err = CL_INVALID_HOST_PTR;
    return NULL;
  }
  size_t bytes = im.slice * (im.type == CL_MEM_OBJECT_IMAGE3D ? im.d : im.arr);
  if (bytes > CY_MAX_ALLOC) {
    *err = CL_INVALID_IMAGE_SIZE;
    return NULL;
  }
  cy_image *pi = malloc(sizeof *pi);
  if (!pi || !(m = cy_mem_new(ctx, flags, bytes))) {
    free(pi);
    *err = CL_OUT_OF_HOST_MEMORY;
    return NULL;
  }
  if (!(flags & ACCESS)) m->flags |= CL_MEM_READ_WRITE;
  if (flags & CL_MEM_USE_HOST_PTR) m->host_ptr = host_ptr;
  im.hrow = hrow, im.hslice = hslice;
  if (buf) {
    im.buffer = buf;
    im.data = buf->addr;
    m->host_ptr = NULL;
  }
  *pi = im;
  m->img = pi;
  fill_arg fa = {buf ? NULL : host_ptr, hrow, hslice};
  if ((*err = cy_mem_alloc(ctx, m, CY_IMAGE_DESC_BYTES + (buf ? 0 : bytes), fill_image, &fa))) {
    free(pi);
    cy_handle_drop(CY_HANDLE_MEM, m);
    return NULL;
  }
  if (buf) cy_inner_retain(&buf->ref);
  return m;
}

cl_mem CL_API_CALL clCreateImage(cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt,
                                 const cl_image_desc *dsc, void *host_ptr, cl_int *errcode_ret) {
  cl_int err;
  cl_mem m = image_new(ctx, flags, fmt, dsc, host_ptr, &err);
  if (errcode_ret) *errcode_ret = err;
  return m;
}

cl_mem CL_API_CALL clCreateImage2D(cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt, size_t w,
                                   size_t h, size_t row_pitch, void *host_ptr, cl_int *errcode_ret) {
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = w, .image_height = h,
                     .image_row_pitch = row_pitch};
  return clCreateImage(ctx, flags, fmt, &d, host_ptr, errcode_ret);
}

cl_mem CL_API_CALL clCreateImage3D(cl_context ctx, cl_mem_flags flags, const cl_image_format *fmt, size_t w,
                                   size_t h, size_t depth, size_t row_pitch, size_t slice_pitch, void *host_ptr,
                                   cl_int *errcode_ret) {
  /* OpenCL 1.1: depth must be more than 1 */
  if (depth <= 1 && cy_is_context(ctx) && valid_format(fmt)) {
    if (errcode_ret) *errcode_ret = CL_INVALID_IMAGE_SIZE;
    return NULL;
  }
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = w, .image_height = h,
                     .image_depth = depth, .image_row_pitch = row_pitch, .image_slice_pitch = slice_pitch};
  return clCreateImage(ctx, flags, fmt, &d, host_ptr, errcode_ret);
}

cl_int CL_API_CALL clGetImageInfo(cl_mem m, cl_image_info param_name, size_t param_value_size, void *param_value,
                                  size_t *param_value_size_ret) {
  if (!cy_is_mem(m) || !m->img) return CL_INVALID_MEM_OBJECT;
  const cy_image *im = m->img;
  int arr = im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  int has_h = im->type == CL_MEM_OBJECT_IMAGE2D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
              im->type == CL_MEM_OBJECT_IMAGE3D;
  switch (param_name) {
  case CL_IMAGE_FORMAT: CY_INFO(cl_image_format, im->fmt);
  case CL_IMAGE_ELEMENT_SIZE: CY_INFO(size_t, im->esize);
  case CL_IMAGE_ROW_PITCH: CY_INFO(size_t, im->row);
  /* 0 for images without slices (OpenCL 1.2 §5.3.6) */
  case CL_IMAGE_SLICE_PITCH: CY_INFO(size_t, arr || im->type == CL_MEM_OBJECT_IMAGE3D ? im->slice : 0);
  case CL_IMAGE_WIDTH: CY_INFO(size_t, im->w);
  case CL_IMAGE_HEIGHT: CY_INFO(size_t, has_h ? im->h : 0);
  case CL_IMAGE_DEPTH: CY_INFO(size_t, im->type == CL_MEM_OBJECT_IMAGE3D ? im->d : 0);
  case CL_IMAGE_ARRAY_SIZE: CY_INFO(size_t, arr ? im->arr : 0);
  case CL_IMAGE_BUFFER: CY_INFO(cl_mem, im->buffer);
  case CL_IMAGE_NUM_MIP_LEVELS:
  case CL_IMAGE_NUM_SAMPLES: CY_INFO(cl_uint, 0);
  default: return CL_INVALID_VALUE;
  }
}
