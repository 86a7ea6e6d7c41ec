/* Images in software: the device has no texture unit, so image reads and
 * writes are this code on a descriptor in global memory. cc_lower_image.c
 * turns every image value into the descriptor's address and every sampler
 * into its CLK_* bits, and each read_image / write_image call into a call
 * of a function here; it links the library (compiled by clang from this
 * text) only into programs that use images, before the optimiser. The
 * entry points (__cy_img_*) stay calls, the helpers are inlined into them.
 *
 * Descriptor: 16 words written by the platform (src/cl/cl_image.c, layout
 * in docs/opencl.md §Images). Addressing and filtering follow OpenCL 1.2
 * §8.2, conversions §8.3. Where the specification leaves a result
 * undefined (coordinates out of range with CLK_ADDRESS_NONE, repeat modes
 * with unnormalised coordinates, writes outside the image) the code stays
 * inside the image: reads clamp to the edge, writes are dropped. */

#define D_TYPE 0
#define D_W 1
#define D_H 2
#define D_D 3
#define D_ARR 4
#define D_ORDER 5
#define D_DTYPE 6
#define D_ESIZE 7
#define D_ROW 8
#define D_SLICE 9
#define D_DATA 10
#define D_NCH 11

/* cl_mem_object_type */
#define T_2D 0x10F1
#define T_3D 0x10F2
#define T_2D_ARRAY 0x10F3
#define T_1D 0x10F4
#define T_1D_ARRAY 0x10F5
#define T_1D_BUFFER 0x10F6

#define ADDR_MASK 0xE
#define FILTER_LINEAR 0x20

typedef global const uint *desc_t;

/* the entry points stay calls (noinline): a program carries one copy of
 * each it uses, not one per image builtin call (a sampled read is a few
 * thousand instructions) */
#define CY_API __attribute__((noinline))

/* where texel (x, y, z) starts; z is the layer of an array image */
static global uchar *texel_at(desc_t d, int x, int y, int z) {
  return (global uchar *)(size_t)d[D_DATA] + (size_t)z * d[D_SLICE] + (size_t)y * d[D_ROW] + (size_t)x * d[D_ESIZE];
}

/* one channel of a texel as float (normalised types converted, §8.3.1) */
static float chan_f(global const uchar *p, int k, uint dt) {
  switch (dt) {
  case CLK_UNORM_INT8: return (float)p[k] / 255.0f;
  case CLK_UNORM_INT16: return (float)((global const ushort *)p)[k] / 65535.0f;
  case CLK_SNORM_INT8: return fmax(-1.0f, (float)((global const char *)p)[k] / 127.0f);
  case CLK_SNORM_INT16: return fmax(-1.0f, (float)((global const short *)p)[k] / 32767.0f);
  case CLK_HALF_FLOAT: return vload_half(k, (global const half *)p);
  case CLK_FLOAT: return ((global const float *)p)[k];
  /* integer formats: read_imagef is undefined on them; their values */
  case CLK_SIGNED_INT8: return (float)((global const char *)p)[k];
  case CLK_SIGNED_INT16: return (float)((global const short *)p)[k];
  case CLK_SIGNED_INT32: return (float)((global const int *)p)[k];
  case CLK_UNSIGNED_INT8: return (float)p[k];
  case CLK_UNSIGNED_INT16: return (float)((global const ushort *)p)[k];
  default: return (float)((global const uint *)p)[k];
  }
}

/* one channel as an integer (signed types sign-extended) */
static uint chan_i(global const uchar *p, int k, uint dt) {
  switch (dt) {
  case CLK_SIGNED_INT8: return (uint)(int)((global const char *)p)[k];
  case CLK_SIGNED_INT16: return (uint)(int)((global const short *)p)[k];
  case CLK_UNSIGNED_INT8: return p[k];
  case CLK_UNSIGNED_INT16: return ((global const ushort *)p)[k];
  case CLK_SIGNED_INT32:
  case CLK_UNSIGNED_INT32: return ((global const uint *)p)[k];
  /* float formats: read_imagei/ui are undefined on them; the bits */
  default: return as_uint(chan_f(p, k, dt));
  }
}

/* memory order of the channels (v.s0 first) -> (r, g, b, a); `one` fills
 * a missing alpha. Vectors and constant indices, never private arrays: a
 * variable index would keep them in private memory */
#define SWIZZLE(T, v, order, one)                                        \
  switch (order) {                                                       \
  case CLK_R: return (T)(v.s0, 0, 0, one);                               \
  case CLK_A: return (T)(0, 0, 0, v.s0);                                 \
  case CLK_RG: return (T)(v.s0, v.s1, 0, one);                           \
  case CLK_RA: return (T)(v.s0, 0, 0, v.s1);                             \
  case CLK_BGRA: return (T)(v.s2, v.s1, v.s0, v.s3);                     \
  case CLK_ARGB: return (T)(v.s1, v.s2, v.s3, v.s0);                     \
  case CLK_INTENSITY: return (T)(v.s0, v.s0, v.s0, v.s0);                \
  case CLK_LUMINANCE: return (T)(v.s0, v.s0, v.s0, one);                 \
  default: return v;                                                     \
  }

static float4 texel_f(desc_t d, int x, int y, int z) {
  global const uchar *p = texel_at(d, x, y, z);
  uint dt = d[D_DTYPE], n = d[D_NCH];
  float4 v = (float4)(chan_f(p, 0, dt), n > 1 ? chan_f(p, 1, dt) : 0.0f, n > 2 ? chan_f(p, 2, dt) : 0.0f,
                      n > 3 ? chan_f(p, 3, dt) : 0.0f);
  SWIZZLE(float4, v, d[D_ORDER], 1.0f)
}

static uint4 texel_i(desc_t d, int x, int y, int z) {
  global const uchar *p = texel_at(d, x, y, z);
  uint dt = d[D_DTYPE], n = d[D_NCH];
  uint4 v = (uint4)(chan_i(p, 0, dt), n > 1 ? chan_i(p, 1, dt) : 0u, n > 2 ? chan_i(p, 2, dt) : 0u,
                    n > 3 ? chan_i(p, 3, dt) : 0u);
  SWIZZLE(uint4, v, d[D_ORDER], 1u)
}

/* §8.2: the border colour of CLK_ADDRESS_CLAMP: alpha 0 for orders with an
 * alpha channel, else 1 */
static int has_alpha(uint order) {
  return order == CLK_A || order == CLK_RA || order == CLK_RGBA || order == CLK_BGRA || order == CLK_ARGB ||
         order == CLK_INTENSITY;
}

static int dims(desc_t d) {
  uint t = d[D_TYPE];
  return t == T_3D ? 3 : (t == T_2D || t == T_2D_ARRAY) ? 2 : 1;
}

/* the layer coordinate of an array image (its place in c), -1 if none */
static int layer_axis(desc_t d) {
  uint t = d[D_TYPE];
  return t == T_1D_ARRAY ? 1 : t == T_2D_ARRAY ? 2 : -1;
}

/* a float coordinate to int without undefined behaviour for huge values or NaN */
static int to_int(float x) { return (int)fmin(fmax(x, -16777216.0f), 16777216.0f); }

/* the nearest texel index on one axis of n texels; -1 or n = the border */
static int nearest(float c, int n, uint s) {
  uint addr = s & ADDR_MASK, norm = s & CLK_NORMALIZED_COORDS_TRUE;
  if (norm && addr == CLK_ADDRESS_REPEAT) {
    int i = to_int(floor((c - floor(c)) * (float)n));
    return i > n - 1 ? i - n : i;
  }
  if (norm && addr == CLK_ADDRESS_MIRRORED_REPEAT) {
    float m = fabs(c - 2.0f * rint(0.5f * c));
    return min(to_int(floor(m * (float)n)), n - 1);
  }
  int i = to_int(floor(norm ? c * (float)n : c));
  return addr == CLK_ADDRESS_CLAMP ? clamp(i, -1, n) : clamp(i, 0, n - 1);
}

/* the two texels of linear filtering on one axis and the weight of the second */
static float linear(float c, int n, uint s, int *i0, int *i1) {
  uint addr = s & ADDR_MASK, norm = s & CLK_NORMALIZED_COORDS_TRUE;
  float u;
  if (norm && addr == CLK_ADDRESS_REPEAT) u = (c - floor(c)) * (float)n;
  else if (norm && addr == CLK_ADDRESS_MIRRORED_REPEAT) u = fabs(c - 2.0f * rint(0.5f * c)) * (float)n;
  else u = norm ? c * (float)n : c;
  float t = u - 0.5f, fl = floor(t);
  int j = to_int(fl);
  *i0 = j;
  *i1 = j + 1;
  if (norm && addr == CLK_ADDRESS_REPEAT) {
    if (*i0 < 0) *i0 += n;
    if (*i1 > n - 1) *i1 -= n;
  } else if (norm && addr == CLK_ADDRESS_MIRRORED_REPEAT) {
    *i0 = max(*i0, 0);
    *i1 = min(*i1, n - 1);
  } else if (addr == CLK_ADDRESS_CLAMP) {
    *i0 = clamp(*i0, -1, n);
    *i1 = clamp(*i1, -1, n);
  } else {
    *i0 = clamp(*i0, 0, n - 1);
    *i1 = clamp(*i1, 0, n - 1);
  }
  return t - fl;
}

static int outside(desc_t d, int x, int y, int z) {
  return x < 0 || x >= (int)d[D_W] || y < 0 || y >= (int)d[D_H] || z < 0 || z >= (int)d[D_D];
}

static float4 border_f(desc_t d) { return (float4)(0.0f, 0.0f, 0.0f, has_alpha(d[D_ORDER]) ? 0.0f : 1.0f); }

static float4 texel_or_border(desc_t d, int x, int y, int z) {
  return outside(d, x, y, z) ? border_f(d) : texel_f(d, x, y, z);
}

/* the layer an array coordinate names (§8.2: rounded, clamped) */
static int layer_of(desc_t d, float c) { return clamp(to_int(rint(c)), 0, (int)d[D_ARR] - 1); }

/* float coordinates: texel indices (x, y, z) where z doubles as the layer;
 * an axis the image does not have stays 0 */
CY_API float4 __cy_img_readf_f(desc_t d, uint s, float4 c) {
  int nd = dims(d), la = layer_axis(d), w = (int)d[D_W], h = (int)d[D_H], dp = (int)d[D_D];
  int z0 = la >= 0 ? layer_of(d, la == 1 ? c.y : c.z) : 0;
  if (!(s & FILTER_LINEAR)) {
    int x = nearest(c.x, w, s), y = nd > 1 ? nearest(c.y, h, s) : 0, z = nd > 2 ? nearest(c.z, dp, s) : z0;
    return texel_or_border(d, x, y, z);
  }
  int x0, x1, y0 = 0, y1 = 0, zz0 = z0, zz1 = z0;
  float a = linear(c.x, w, s, &x0, &x1), b = nd > 1 ? linear(c.y, h, s, &y0, &y1) : 0.0f,
        g = nd > 2 ? linear(c.z, dp, s, &zz0, &zz1) : 0.0f;
  float4 r = 0.0f;
  for (int k = 0; k < 8; k++) {
    int dx = k & 1, dy = (k >> 1) & 1, dz = k >> 2;
    if ((dy && nd < 2) || (dz && nd < 3)) continue;
    float wt = (dx ? a : 1.0f - a) * (dy ? b : 1.0f - b) * (dz ? g : 1.0f - g);
    r += wt * texel_or_border(d, dx ? x1 : x0, dy ? y1 : y0, dz ? zz1 : zz0);
  }
  return r;
}

/* integer coordinates (§8.2: unnormalised, nearest; CLK_ADDRESS_CLAMP gives
 * the border outside, every other mode the edge) */
static int icoord(int c, int n, uint s) {
  return (s & ADDR_MASK) == CLK_ADDRESS_CLAMP ? clamp(c, -1, n) : clamp(c, 0, n - 1);
}

static int4 texel_index(desc_t d, uint s, int4 c) {
  int nd = dims(d), la = layer_axis(d);
  int z = la >= 0 ? clamp(la == 1 ? c.y : c.z, 0, (int)d[D_ARR] - 1) : nd > 2 ? icoord(c.z, (int)d[D_D], s) : 0;
  return (int4)(icoord(c.x, (int)d[D_W], s), nd > 1 ? icoord(c.y, (int)d[D_H], s) : 0, z, 0);
}

CY_API float4 __cy_img_readf_i(desc_t d, uint s, int4 c) {
  int4 t = texel_index(d, s, c);
  return texel_or_border(d, t.x, t.y, t.z);
}

/* read_imagei/ui: nearest only (linear filtering is undefined for them) */
static uint4 read_bits(desc_t d, int4 t) {
  if (outside(d, t.x, t.y, t.z)) return (uint4)(0, 0, 0, has_alpha(d[D_ORDER]) ? 0 : 1);
  return texel_i(d, t.x, t.y, t.z);
}

static int4 float_index(desc_t d, uint s, float4 c) {
  int nd = dims(d), la = layer_axis(d);
  int z = la >= 0 ? layer_of(d, la == 1 ? c.y : c.z) : nd > 2 ? nearest(c.z, (int)d[D_D], s) : 0;
  return (int4)(nearest(c.x, (int)d[D_W], s), nd > 1 ? nearest(c.y, (int)d[D_H], s) : 0, z, 0);
}

CY_API int4 __cy_img_readi_i(desc_t d, uint s, int4 c) { return as_int4(read_bits(d, texel_index(d, s, c))); }
CY_API int4 __cy_img_readi_f(desc_t d, uint s, float4 c) { return as_int4(read_bits(d, float_index(d, s, c))); }
CY_API uint4 __cy_img_readui_i(desc_t d, uint s, int4 c) { return read_bits(d, texel_index(d, s, c)); }
CY_API uint4 __cy_img_readui_f(desc_t d, uint s, float4 c) { return read_bits(d, float_index(d, s, c)); }

/* ---- writes -------------------------------------------------------------- */

/* the texel a write names, or NULL outside the image (dropped) */
static global uchar *write_at(desc_t d, int4 c) {
  int nd = dims(d), la = layer_axis(d);
  int x = c.x, y = nd > 1 ? c.y : 0, z = la >= 0 ? (la == 1 ? c.y : c.z) : nd > 2 ? c.z : 0;
  int zmax = la >= 0 ? (int)d[D_ARR] : (int)d[D_D];
  if (x < 0 || x >= (int)d[D_W] || y < 0 || y >= (int)d[D_H] || z < 0 || z >= zmax) return 0;
  return texel_at(d, x, y, z);
}

/* (r, g, b, a) -> the memory order of the channels (inverse of SWIZZLE) */
#define UNSWIZZLE(c, order)                                                 \
  ((order) == CLK_A      ? c.wwww                                            \
   : (order) == CLK_RA   ? c.xwww                                            \
   : (order) == CLK_BGRA ? c.zyxw                                            \
   : (order) == CLK_ARGB ? c.wxyz                                            \
                         : c)

/* §8.3.1: round to nearest even, saturate; NaN -> 0 */
static int sat_rte(float x, float lo, float hi) {
  if (x != x) return 0;
  return (int)rint(fmin(fmax(x, lo), hi));
}

/* channel k of the texel at p from x as write_imagef converts it */
static void put_f(global uchar *p, int k, float x, uint dt) {
  switch (dt) {
  case CLK_UNORM_INT8: p[k] = (uchar)sat_rte(x * 255.0f, 0.0f, 255.0f); break;
  case CLK_UNORM_INT16: ((global ushort *)p)[k] = (ushort)sat_rte(x * 65535.0f, 0.0f, 65535.0f); break;
  case CLK_SNORM_INT8: ((global char *)p)[k] = (char)sat_rte(x * 127.0f, -128.0f, 127.0f); break;
  case CLK_SNORM_INT16: ((global short *)p)[k] = (short)sat_rte(x * 32767.0f, -32768.0f, 32767.0f); break;
  case CLK_HALF_FLOAT: vstore_half_rte(x, k, (global half *)p); break;
  case CLK_FLOAT: ((global float *)p)[k] = x; break;
  default: break; /* integer formats: write_imagef is undefined on them, nothing is written */
  }
}

CY_API void __cy_img_writef(desc_t d, int4 c, float4 col) {
  global uchar *p = write_at(d, c);
  if (!p) return;
  uint dt = d[D_DTYPE], n = d[D_NCH];
  float4 v = UNSWIZZLE(col, d[D_ORDER]);
  put_f(p, 0, v.s0, dt);
  if (n > 1) put_f(p, 1, v.s1, dt);
  if (n > 2) put_f(p, 2, v.s2, dt);
  if (n > 3) put_f(p, 3, v.s3, dt);
}

/* channel k from u, the int (sgn) or uint write_imagei/ui was given */
static void put_i(global uchar *p, int k, uint u, uint dt, int sgn) {
  int si = (int)u;
  /* §8.3.2: convert_<type>_sat of the int (write_imagei) or uint (write_imageui) */
  switch (dt) {
  case CLK_SIGNED_INT8: ((global char *)p)[k] = (char)(sgn ? clamp(si, -128, 127) : (int)min(u, 127u)); break;
  case CLK_SIGNED_INT16: ((global short *)p)[k] = (short)(sgn ? clamp(si, -32768, 32767) : (int)min(u, 32767u)); break;
  case CLK_SIGNED_INT32: ((global int *)p)[k] = sgn ? si : (int)min(u, 0x7fffffffu); break;
  case CLK_UNSIGNED_INT8: p[k] = (uchar)(sgn ? (uint)clamp(si, 0, 255) : min(u, 255u)); break;
  case CLK_UNSIGNED_INT16: ((global ushort *)p)[k] = (ushort)(sgn ? (uint)clamp(si, 0, 65535) : min(u, 65535u)); break;
  case CLK_UNSIGNED_INT32: ((global uint *)p)[k] = sgn ? (uint)max(si, 0) : u; break;
  default: break; /* float formats: write_imagei/ui are undefined on them, nothing is written */
  }
}

static void write_bits(desc_t d, int4 c, uint4 col, int sgn) {
  global uchar *p = write_at(d, c);
  if (!p) return;
  uint dt = d[D_DTYPE], n = d[D_NCH];
  uint4 v = UNSWIZZLE(col, d[D_ORDER]);
  put_i(p, 0, v.s0, dt, sgn);
  if (n > 1) put_i(p, 1, v.s1, dt, sgn);
  if (n > 2) put_i(p, 2, v.s2, dt, sgn);
  if (n > 3) put_i(p, 3, v.s3, dt, sgn);
}

CY_API void __cy_img_writei(desc_t d, int4 c, int4 col) { write_bits(d, c, as_uint4(col), 1); }
CY_API void __cy_img_writeui(desc_t d, int4 c, uint4 col) { write_bits(d, c, col, 0); }
