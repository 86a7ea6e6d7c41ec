/* A reference for the image tests, in plain C on the host: texel formats
 * (OpenCL 1.2 §8.3) and the sampler (§8.2: addressing modes, normalised
 * coordinates, nearest and linear filtering, border colours), written
 * from the specification's formulas for the tests alone. Images are held
 * packed (rows of w texels, then rows, then slices or layers). */
#ifndef CY_IMAGE_REF_H
#define CY_IMAGE_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  cl_mem_object_type type;
  cl_image_format fmt;
  size_t w, h, d, arr; /* 1 where the type has none */
  const uint8_t *data;
} ref_image;

static inline size_t ref_channels(cl_channel_order o) {
  return o == CL_RGBA || o == CL_BGRA || o == CL_ARGB ? 4 : o == CL_RG || o == CL_RA ? 2 : 1;
}

static inline size_t ref_type_bytes(cl_channel_type t) {
  switch (t) {
  case CL_UNORM_INT8:
  case CL_SNORM_INT8:
  case CL_SIGNED_INT8:
  case CL_UNSIGNED_INT8: return 1;
  case CL_SIGNED_INT32:
  case CL_UNSIGNED_INT32:
  case CL_FLOAT: return 4;
  default: return 2;
  }
}

static inline size_t ref_esize(const cl_image_format *f) {
  return ref_channels(f->image_channel_order) * ref_type_bytes(f->image_channel_data_type);
}

static inline int ref_has_alpha(cl_channel_order o) {
  return o == CL_A || o == CL_RA || o == CL_RGBA || o == CL_BGRA || o == CL_ARGB || o == CL_INTENSITY;
}

/* channel k of the texel at p as float */
static inline float ref_chan(const uint8_t *p, size_t k, cl_channel_type t) {
  int8_t c8;
  int16_t s16;
  uint16_t u16;
  int32_t s32;
  uint32_t u32;
  float f;
  _Float16 h;
  switch (t) {
  case CL_UNORM_INT8: return p[k] / 255.0f;
  case CL_SNORM_INT8: memcpy(&c8, p + k, 1); return fmaxf(-1.0f, c8 / 127.0f);
  case CL_SIGNED_INT8: memcpy(&c8, p + k, 1); return (float)c8;
  case CL_UNSIGNED_INT8: return (float)p[k];
  case CL_UNORM_INT16: memcpy(&u16, p + 2 * k, 2); return u16 / 65535.0f;
  case CL_SNORM_INT16: memcpy(&s16, p + 2 * k, 2); return fmaxf(-1.0f, s16 / 32767.0f);
  case CL_SIGNED_INT16: memcpy(&s16, p + 2 * k, 2); return (float)s16;
  case CL_UNSIGNED_INT16: memcpy(&u16, p + 2 * k, 2); return (float)u16;
  case CL_HALF_FLOAT: memcpy(&h, p + 2 * k, 2); return (float)h;
  case CL_SIGNED_INT32: memcpy(&s32, p + 4 * k, 4); return (float)s32;
  case CL_UNSIGNED_INT32: memcpy(&u32, p + 4 * k, 4); return (float)u32;
  default: memcpy(&f, p + 4 * k, 4); return f;
  }
}

/* channel k as the integer read_imagei/ui return */
static inline uint32_t ref_chan_int(const uint8_t *p, size_t k, cl_channel_type t) {
  int8_t c8;
  int16_t s16;
  uint16_t u16;
  uint32_t u32;
  switch (t) {
  case CL_SIGNED_INT8: memcpy(&c8, p + k, 1); return (uint32_t)(int32_t)c8;
  case CL_UNSIGNED_INT8: return p[k];
  case CL_SIGNED_INT16: memcpy(&s16, p + 2 * k, 2); return (uint32_t)(int32_t)s16;
  case CL_UNSIGNED_INT16: memcpy(&u16, p + 2 * k, 2); return u16;
  default: memcpy(&u32, p + 4 * k, 4); return u32;
  }
}

/* where r, g, b, a come from: a memory channel, -1 for 0, -2 for 1 */
static inline void ref_map(cl_channel_order o, int m[4]) {
  m[0] = 0, m[1] = 1, m[2] = 2, m[3] = 3;
  static const struct {
    cl_channel_order o;
    int m[4];
  } maps[] = {{CL_R, {0, -1, -1, -2}},   {CL_A, {-1, -1, -1, 0}},   {CL_RG, {0, 1, -1, -2}},
              {CL_RA, {0, -1, -1, 1}},   {CL_RGBA, {0, 1, 2, 3}},   {CL_BGRA, {2, 1, 0, 3}},
              {CL_ARGB, {1, 2, 3, 0}},   {CL_INTENSITY, {0, 0, 0, 0}}, {CL_LUMINANCE, {0, 0, 0, -2}}};
  for (size_t i = 0; i < sizeof maps / sizeof *maps; i++)
    if (maps[i].o == o) memcpy(m, maps[i].m, sizeof maps[i].m);
}

static inline const uint8_t *ref_at(const ref_image *im, long x, long y, long z) {
  size_t es = ref_esize(&im->fmt);
  return im->data + (((size_t)z * im->h + (size_t)y) * im->w + (size_t)x) * es;
}

static inline long ref_layers(const ref_image *im) {
  return (long)(im->type == CL_MEM_OBJECT_IMAGE3D ? im->d : im->arr);
}

static inline int ref_outside(const ref_image *im, long x, long y, long z) {
  return x < 0 || x >= (long)im->w || y < 0 || y >= (long)im->h || z < 0 || z >= ref_layers(im);
}

/* the texel as float, or the border colour outside */
static inline void ref_texel(const ref_image *im, long x, long y, long z, float *out) {
  int m[4];
  ref_map(im->fmt.image_channel_order, m);
  for (int k = 0; k < 4; k++) out[k] = m[k] == -2 ? 1.0f : 0.0f;
  if (ref_outside(im, x, y, z)) {
    out[3] = ref_has_alpha(im->fmt.image_channel_order) ? 0.0f : 1.0f;
    return;
  }
  const uint8_t *p = ref_at(im, x, y, z);
  for (int k = 0; k < 4; k++)
    if (m[k] >= 0) out[k] = ref_chan(p, (size_t)m[k], im->fmt.image_channel_data_type);
}

/* read_imagei/ui's texel (integer formats), or the border */
static inline void ref_texel_int(const ref_image *im, long x, long y, long z, uint32_t *out) {
  int m[4];
  ref_map(im->fmt.image_channel_order, m);
  for (int k = 0; k < 4; k++) out[k] = m[k] == -2 ? 1u : 0u;
  if (ref_outside(im, x, y, z)) {
    out[3] = ref_has_alpha(im->fmt.image_channel_order) ? 0u : 1u;
    return;
  }
  const uint8_t *p = ref_at(im, x, y, z);
  for (int k = 0; k < 4; k++)
    if (m[k] >= 0) out[k] = ref_chan_int(p, (size_t)m[k], im->fmt.image_channel_data_type);
}

/* sampler: normalised?, CL_ADDRESS_*, CL_FILTER_* */
typedef struct {
  int norm;
  cl_addressing_mode addr;
  cl_filter_mode filter;
} ref_sampler;

/* §8.2.1 nearest: the texel index on an axis of n */
static inline long ref_nearest(const ref_sampler *s, float c, long n) {
  if (s->norm && s->addr == CL_ADDRESS_REPEAT) {
    float u = (c - floorf(c)) * (float)n;
    long i = (long)floorf(u);
    return i > n - 1 ? i - n : i;
  }
  if (s->norm && s->addr == CL_ADDRESS_MIRRORED_REPEAT) {
    float sp = 2.0f * rintf(0.5f * c);
    sp = fabsf(c - sp);
    long i = (long)floorf(sp * (float)n);
    return i < n - 1 ? i : n - 1;
  }
  float u = s->norm ? c * (float)n : c;
  long i = (long)floorf(u);
  long lo = s->addr == CL_ADDRESS_CLAMP ? -1 : 0, hi = s->addr == CL_ADDRESS_CLAMP ? n : n - 1;
  return i < lo ? lo : i > hi ? hi : i;
}

/* §8.2.1 linear: i0, i1 and the weight a of i1 */
static inline float ref_linear(const ref_sampler *s, float c, long n, long *i0, long *i1) {
  float u;
  if (s->norm && s->addr == CL_ADDRESS_REPEAT) u = (c - floorf(c)) * (float)n;
  else if (s->norm && s->addr == CL_ADDRESS_MIRRORED_REPEAT) u = fabsf(c - 2.0f * rintf(0.5f * c)) * (float)n;
  else u = s->norm ? c * (float)n : c;
  float t = u - 0.5f;
  *i0 = (long)floorf(t);
  *i1 = *i0 + 1;
  if (s->norm && s->addr == CL_ADDRESS_REPEAT) {
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (s->norm && s->addr == CL_ADDRESS_MIRRORED_REPEAT) {
    if (*i0 < 0) *i0 = 0;
    if (*i1 > n - 1) *i1 = n - 1;
  } else {
    long lo = s->addr == CL_ADDRESS_CLAMP ? -1 : 0, hi = s->addr == CL_ADDRESS_CLAMP ? n : n - 1;
    *i0 = *i0 < lo ? lo : *i0 > hi ? hi : *i0;
    *i1 = *i1 < lo ? lo : *i1 > hi ? hi : *i1;
  }
  return t - floorf(t);
}

/* dimensions sampled (1, 2, 3) and which coordinate is an array layer (-1 none) */
static inline int ref_dims(const ref_image *im) {
  return im->type == CL_MEM_OBJECT_IMAGE3D ? 3 : im->type == CL_MEM_OBJECT_IMAGE2D || im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2 : 1;
}
static inline int ref_layer_axis(const ref_image *im) {
  return im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : im->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2 : -1;
}

/* read_imagef(image, sampler, float coordinates c) */
static inline void ref_sample(const ref_image *im, const ref_sampler *s, const float *c, float *out) {
  int nd = ref_dims(im), la = ref_layer_axis(im);
  long n[3] = {(long)im->w, (long)im->h, (long)im->d};
  long layer = 0;
  if (la >= 0) {
    long l = (long)rintf(c[la]);
    layer = l < 0 ? 0 : l >= (long)im->arr ? (long)im->arr - 1 : l;
  }
  if (s->filter == CL_FILTER_NEAREST) {
    long i[3] = {0, 0, layer};
    for (int k = 0; k < nd; k++) i[k] = ref_nearest(s, c[k], n[k]);
    ref_texel(im, i[0], i[1], i[2], out);
    return;
  }
  long i0[3] = {0, 0, layer}, i1[3] = {0, 0, layer};
  float a[3] = {0, 0, 0};
  for (int k = 0; k < nd; k++) a[k] = ref_linear(s, c[k], n[k], &i0[k], &i1[k]);
  double acc[4] = {0, 0, 0, 0};
  for (int k = 0; k < 8; k++) {
    int dx = k & 1, dy = (k >> 1) & 1, dz = k >> 2;
    if ((dy && nd < 2) || (dz && nd < 3)) continue;
    double w = (dx ? a[0] : 1.0 - a[0]) * (dy ? a[1] : 1.0 - a[1]) * (dz ? a[2] : 1.0 - a[2]);
    float t[4];
    ref_texel(im, dx ? i1[0] : i0[0], dy ? i1[1] : i0[1], dz ? i1[2] : i0[2], t);
    for (int j = 0; j < 4; j++) acc[j] += w * t[j];
  }
  for (int j = 0; j < 4; j++) out[j] = (float)acc[j];
}

/* §8.3.1: round to nearest even with saturation, NaN -> 0 */
static inline long ref_sat_rte(float x, float lo, float hi) {
  if (x != x) return 0;
  x = x < lo ? lo : x > hi ? hi : x;
  return (long)nearbyintf(x);
}

/* write_imagef's bytes for one channel value */
static inline void ref_encode(float x, cl_channel_type t, uint8_t *p) {
  int8_t c8;
  int16_t s16;
  uint16_t u16;
  _Float16 h;
  switch (t) {
  case CL_UNORM_INT8: p[0] = (uint8_t)ref_sat_rte(x * 255.0f, 0, 255); break;
  case CL_SNORM_INT8: c8 = (int8_t)ref_sat_rte(x * 127.0f, -128, 127), memcpy(p, &c8, 1); break;
  case CL_UNORM_INT16: u16 = (uint16_t)ref_sat_rte(x * 65535.0f, 0, 65535), memcpy(p, &u16, 2); break;
  case CL_SNORM_INT16: s16 = (int16_t)ref_sat_rte(x * 32767.0f, -32768, 32767), memcpy(p, &s16, 2); break;
  case CL_HALF_FLOAT: h = (_Float16)x, memcpy(p, &h, 2); break;
  default: memcpy(p, &x, 4); break;
  }
}

#endif
