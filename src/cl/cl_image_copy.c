/* Image commands inside the device: copies between images, between an
 * image and a buffer (texels packed in the buffer, rows then slices), and
 * fill, whose colour is converted on the host as write_image* would
 * (OpenCL 1.2 §8.3: round to nearest even with saturation). */
#include <stdlib.h>
#include <string.h>

#include "cl_image_cmd.h"

/* rows one at a time through the host; run on the device thread */
static cl_int copy_rows(cy_imgcmd *m, cl_command_type t) {
  const cy_image *ai = m->a->img, *bi = m->b->img;
  size_t es = (ai ? ai : bi)->esize, n = m->r[0] * es;
  void *tmp = malloc(n ? n : 1);
  if (!tmp) return CL_OUT_OF_HOST_MEMORY;
  cl_int rc = CL_SUCCESS;
  for (size_t z = 0; !rc && z < m->r[2]; z++)
    for (size_t y = 0; !rc && y < m->r[1]; y++) {
      uint32_t packed = (uint32_t)(m->boff + (z * m->r[1] + y) * n);
      if (t == CL_COMMAND_COPY_IMAGE) { /* a's rows into b's */
        rc = cy_dev_rw(m->a, cy_image_row(ai, m->ao, y, z), tmp, n, 0);
        if (!rc) rc = cy_dev_rw(m->b, cy_image_row(bi, m->bo, y, z), tmp, n, 1);
      } else if (t == CL_COMMAND_COPY_IMAGE_TO_BUFFER) {
        rc = cy_dev_rw(m->a, cy_image_row(ai, m->ao, y, z), tmp, n, 0);
        if (!rc) rc = cy_dev_rw(m->b, m->b->addr + packed, tmp, n, 1);
      } else { /* buffer a into image b */
        rc = cy_dev_rw(m->a, m->a->addr + packed, tmp, n, 0);
        if (!rc) rc = cy_dev_rw(m->b, cy_image_row(bi, m->bo, y, z), tmp, n, 1);
      }
    }
  free(tmp);
  return rc;
}

static cl_int run_copy(cl_event ev, cy_cmd *c) { return copy_rows((cy_imgcmd *)c, ev->type); }

/* the boxes [o, o + r) of one image overlap (in texels) */
static int overlap(const size_t *a, const size_t *b, const size_t *r) {
  for (int i = 0; i < 3; i++)
    if (a[i] + r[i] <= b[i] || b[i] + r[i] <= a[i]) return 0;
  return 1;
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
                                      const size_t *dor, const size_t *region, cl_uint n, const cl_event *list,
                                      cl_event *event) {
  cl_int rc = cy_image_check(q, src);
  if (rc || (rc = cy_image_check(q, dst)) || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  const cy_image *si = src->img, *di = dst->img;
  if (si->fmt.image_channel_order != di->fmt.image_channel_order ||
      si->fmt.image_channel_data_type != di->fmt.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  if (cy_image_region(si, so, region) || cy_image_region(di, dor, region)) return CL_INVALID_VALUE;
  if (src == dst && overlap(so, dor, region)) return CL_MEM_COPY_OVERLAP;
  cy_imgcmd *m = cy_imgcmd_new(run_copy, src, dst);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->ao, so, sizeof m->ao);
  memcpy(m->bo, dor, sizeof m->bo);
  memcpy(m->r, region, sizeof m->r);
  return cy_enqueue(q, CL_COMMAND_COPY_IMAGE, &m->base, n, list, event, 0);
}

/* a buffer of the queue's context holding region's texels packed at off */
static cl_int check_buffer(cl_command_queue q, cl_mem b, const cy_image *im, const size_t *r, size_t off) {
  if (!cy_is_mem(b) || b->img) return CL_INVALID_MEM_OBJECT;
  if (b->ctx != q->ctx) return CL_INVALID_CONTEXT;
  size_t bytes = r[0] * r[1] * r[2] * im->esize;
  if (off > b->size || bytes > b->size - off) return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue q, cl_mem src, cl_mem dst, const size_t *so,
                                              const size_t *region, size_t doff, cl_uint n, const cl_event *list,
                                              cl_event *event) {
  cl_int rc = cy_image_check(q, src);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  if (cy_image_region(src->img, so, region)) return CL_INVALID_VALUE;
  if ((rc = check_buffer(q, dst, src->img, region, doff))) return rc;
  cy_imgcmd *m = cy_imgcmd_new(run_copy, src, dst);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->ao, so, sizeof m->ao);
  memcpy(m->r, region, sizeof m->r);
  m->boff = doff;
  return cy_enqueue(q, CL_COMMAND_COPY_IMAGE_TO_BUFFER, &m->base, n, list, event, 0);
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue q, cl_mem src, cl_mem dst, size_t soff,
                                              const size_t *dor, const size_t *region, cl_uint n,
                                              const cl_event *list, cl_event *event) {
  cl_int rc = cy_image_check(q, dst);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  if (cy_image_region(dst->img, dor, region)) return CL_INVALID_VALUE;
  if ((rc = check_buffer(q, src, dst->img, region, soff))) return rc;
  cy_imgcmd *m = cy_imgcmd_new(run_copy, src, dst);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->bo, dor, sizeof m->bo);
  memcpy(m->r, region, sizeof m->r);
  m->boff = soff;
  return cy_enqueue(q, CL_COMMAND_COPY_BUFFER_TO_IMAGE, &m->base, n, list, event, 0);
}

/* ---- fill ---------------------------------------------------------------------------- */

/* round to nearest even of x, |x| <= 65536 (after saturation) */
static float rte(float x) {
  float fl = (float)(long)x;
  if (fl > x) fl -= 1.0f; /* floor of a negative value */
  float d = x - fl;
  if (d > 0.5f || (d == 0.5f && ((long)fl & 1))) return fl + 1.0f;
  return fl;
}

/* §8.3.1: saturate, round to nearest even; NaN -> 0 */
static long sat_rte(float x, float lo, float hi) {
  if (x != x) return 0;
  return (long)rte(x < lo ? lo : x > hi ? hi : x);
}

/* float to IEEE binary16, round to nearest even (vstore_half_rte) */
static uint16_t to_half(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  uint16_t sign = (uint16_t)((u >> 16) & 0x8000);
  uint32_t a = u & 0x7fffffff;
  if (a >= 0x7f800000) return sign | (a > 0x7f800000 ? 0x7e00 : 0x7c00); /* NaN, inf */
  if (a >= 0x477ff000) return sign | 0x7c00;                             /* rounds past 65504 */
  if (a < 0x33000000) return sign;                                       /* below half the least subnormal */
  int e = (int)(a >> 23) - 127;
  uint32_t m = (a & 0x7fffff) | 0x800000; /* 24 bits */
  int shift = e < -14 ? 13 + (-14 - e) : 13; /* bits dropped: to 10 fraction bits, more for subnormals */
  uint32_t q = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
  if (rem > half || (rem == half && (q & 1))) q++;
  /* normal: exponent field e + 15 with the hidden bit added in; a carry moves into it */
  uint32_t h = e < -14 ? q : ((uint32_t)(e + 14) << 10) + q;
  return (uint16_t)(sign | h);
}

/* the fill colour (float4, int4 or uint4 by the channel type) as one texel */
static void encode(const cy_image *im, const void *color, uint8_t *out) {
  float f[4];
  int32_t i[4];
  memcpy(f, color, 16);
  memcpy(i, color, 16);
  int comp[4] = {0, 1, 2, 3}; /* memory channel k takes colour component comp[k] */
  switch (im->fmt.image_channel_order) {
  case CL_A: comp[0] = 3; break;
  case CL_RA: comp[1] = 3; break;
  case CL_BGRA: comp[0] = 2, comp[2] = 0; break;
  case CL_ARGB: comp[0] = 3, comp[1] = 0, comp[2] = 1, comp[3] = 2; break;
  default: break;
  }
  size_t tb = im->esize / im->nch;
  for (size_t k = 0; k < im->nch; k++) {
    float x = f[comp[k]];
    int32_t s = i[comp[k]];
    uint32_t u = (uint32_t)s;
    uint8_t *p = out + k * tb;
    int32_t v32;
    uint16_t v16;
    switch (im->fmt.image_channel_data_type) {
    case CL_UNORM_INT8: p[0] = (uint8_t)sat_rte(x * 255.0f, 0, 255); break;
    case CL_SNORM_INT8: p[0] = (uint8_t)(int8_t)sat_rte(x * 127.0f, -128, 127); break;
    case CL_UNORM_INT16: v16 = (uint16_t)sat_rte(x * 65535.0f, 0, 65535), memcpy(p, &v16, 2); break;
    case CL_SNORM_INT16: v16 = (uint16_t)(int16_t)sat_rte(x * 32767.0f, -32768, 32767), memcpy(p, &v16, 2); break;
    case CL_HALF_FLOAT: v16 = to_half(x), memcpy(p, &v16, 2); break;
    case CL_FLOAT: memcpy(p, &x, 4); break;
    /* §8.3.2: convert_<type>_sat of the int4 (signed types) or uint4 */
    case CL_SIGNED_INT8: p[0] = (uint8_t)(int8_t)(s < -128 ? -128 : s > 127 ? 127 : s); break;
    case CL_SIGNED_INT16: v16 = (uint16_t)(int16_t)(s < -32768 ? -32768 : s > 32767 ? 32767 : s), memcpy(p, &v16, 2); break;
    case CL_SIGNED_INT32: memcpy(p, &s, 4); break;
    case CL_UNSIGNED_INT8: p[0] = (uint8_t)(u > 255 ? 255 : u); break;
    case CL_UNSIGNED_INT16: v16 = (uint16_t)(u > 65535 ? 65535 : u), memcpy(p, &v16, 2); break;
    default: v32 = (int32_t)u, memcpy(p, &v32, 4); break;
    }
  }
}

static cl_int run_fill(cl_event ev, cy_cmd *c) {
  (void)ev;
  cy_imgcmd *m = (cy_imgcmd *)c;
  const cy_image *im = m->a->img;
  size_t n = m->r[0] * im->esize;
  uint8_t *row = malloc(n);
  if (!row) return CL_OUT_OF_HOST_MEMORY;
  for (size_t x = 0; x < m->r[0]; x++) memcpy(row + x * im->esize, m->texel, im->esize);
  cl_int rc = CL_SUCCESS;
  for (size_t z = 0; !rc && z < m->r[2]; z++)
    for (size_t y = 0; !rc && y < m->r[1]; y++) rc = cy_dev_rw(m->a, cy_image_row(im, m->ao, y, z), row, n, 1);
  free(row);
  return rc;
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue q, cl_mem img, const void *color, const size_t *o,
                                      const size_t *r, cl_uint n, const cl_event *list, cl_event *event) {
  cl_int rc = cy_image_check(q, img);
  if (rc || (rc = cy_check_waits(q->ctx, n, list))) return rc;
  if (!color || cy_image_region(img->img, o, r)) return CL_INVALID_VALUE;
  cy_imgcmd *m = cy_imgcmd_new(run_fill, img, NULL);
  if (!m) return CL_OUT_OF_HOST_MEMORY;
  memcpy(m->ao, o, sizeof m->ao);
  memcpy(m->r, r, sizeof m->r);
  encode(img->img, color, m->texel);
  return cy_enqueue(q, CL_COMMAND_FILL_IMAGE, &m->base, n, list, event, 0);
}
