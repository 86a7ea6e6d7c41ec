/* Images read and written by kernels compiled from source (the compiler's
 * image lowering and src/cc/lib/images.cl) against the host reference of
 * image_ref.h: every image type, the formats, every sampler (normalised
 * or not, each addressing mode, nearest and linear), integer and float
 * coordinates, reads without a sampler, read_imagei/ui, write_imagef/i/ui
 * with their rounding and saturation, the get_image_* queries, a constant
 * sampler in the source, images passed through a helper function (also
 * a noinline one), read_imageh/write_imageh, -cl-opt-disable, a helper
 * taking an image compiled apart and linked (clCompileProgram/clLinkProgram). */
#include <math.h>

#include "cl_test.h"
#include "image_ref.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;
static cl_program prog;

static const char *src =
    "float4 fetch(read_only image2d_t im, sampler_t s, float2 c) { return read_imagef(im, s, c); }\n"
    "kernel void s1d(read_only image1d_t im, sampler_t s, global const float4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, s, c[i].x); }\n"
    "kernel void s1da(read_only image1d_array_t im, sampler_t s, global const float4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, s, c[i].xy); }\n"
    "kernel void s2d(read_only image2d_t im, sampler_t s, global const float4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = fetch(im, s, c[i].xy); }\n"
    "kernel void s2da(read_only image2d_array_t im, sampler_t s, global const float4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void s3d(read_only image3d_t im, sampler_t s, global const float4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    /* integer coordinates, with and without a sampler */
    "kernel void i2d(read_only image2d_t im, sampler_t s, global const int4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[2 * i] = read_imagef(im, s, c[i].xy); o[2 * i + 1] = read_imagef(im, c[i].xy); }\n"
    "kernel void i2da(read_only image2d_array_t im, sampler_t s, global const int4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, s, c[i]); }\n"
    "kernel void i1da(read_only image1d_array_t im, sampler_t s, global const int4 *c, global uint4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imageui(im, s, c[i].xy); }\n"
    "kernel void i3d(read_only image3d_t im, global const int4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, c[i]); }\n"
    "kernel void i1db(read_only image1d_buffer_t im, global const int4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, c[i].x); }\n"
    "kernel void ri2d(read_only image2d_t im, sampler_t s, global const int4 *c, global const float4 *f,\n"
    "                 global int4 *oi, global uint4 *ou) {\n"
    "  int i = get_global_id(0);\n"
    "  oi[2 * i] = read_imagei(im, s, c[i].xy); oi[2 * i + 1] = read_imagei(im, s, f[i].xy);\n"
    "  ou[2 * i] = read_imageui(im, s, c[i].xy); ou[2 * i + 1] = read_imageui(im, c[i].xy); }\n"
    "kernel void cs2d(read_only image2d_t im, global const float4 *c, global float4 *o) {\n"
    "  const sampler_t cs = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;\n"
    "  int i = get_global_id(0); o[i] = read_imagef(im, cs, c[i].xy); }\n"
    /* writes */
    "kernel void wf2d(write_only image2d_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imagef(im, c[i].xy, v[i]); }\n"
    "kernel void wi2d(write_only image2d_t im, global const int4 *c, global const int4 *v) {\n"
    "  int i = get_global_id(0); write_imagei(im, c[i].xy, v[i]); }\n"
    "kernel void wu2d(write_only image2d_t im, global const int4 *c, global const uint4 *v) {\n"
    "  int i = get_global_id(0); write_imageui(im, c[i].xy, v[i]); }\n"
    "kernel void wf1d(write_only image1d_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imagef(im, c[i].x, v[i]); }\n"
    "kernel void wf1db(write_only image1d_buffer_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imagef(im, c[i].x, v[i]); }\n"
    "kernel void wf1da(write_only image1d_array_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imagef(im, c[i].xy, v[i]); }\n"
    "kernel void wf2da(write_only image2d_array_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imagef(im, c[i], v[i]); }\n"
    "#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable\n"
    "kernel void wf3d(write_only image3d_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imagef(im, c[i], v[i]); }\n"
    /* queries */
    "kernel void qs(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,\n"
    "               read_only image1d_t d, read_only image1d_array_t e, write_only image1d_buffer_t f, global int *o) {\n"
    "  int2 da = get_image_dim(a); int4 db = get_image_dim(b); int2 dc = get_image_dim(c);\n"
    "  o[0] = get_image_width(a); o[1] = get_image_height(a); o[2] = da.x; o[3] = da.y;\n"
    "  o[4] = get_image_width(b); o[5] = get_image_height(b); o[6] = get_image_depth(b);\n"
    "  o[7] = db.x; o[8] = db.y; o[9] = db.z; o[10] = db.w;\n"
    "  o[11] = get_image_width(c); o[12] = get_image_height(c); o[13] = (int)get_image_array_size(c); o[14] = dc.y;\n"
    "  o[15] = get_image_width(d); o[16] = get_image_width(e); o[17] = (int)get_image_array_size(e);\n"
    "  o[18] = get_image_width(f); o[19] = get_image_channel_order(a); o[20] = get_image_channel_data_type(a);\n"
    "  o[21] = get_image_channel_order(b); o[22] = get_image_channel_data_type(b); }\n";

static cl_kernel kernel(const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(prog, name, &err);
  CHECK(err);
  return k;
}

static cl_mem buffer(size_t size, const void *data) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, data ? CL_MEM_COPY_HOST_PTR : 0, size, (void *)data, &err);
  CHECK(err);
  return m;
}

static cl_mem image(const ref_image *r, cl_mem buf) {
  cl_image_desc d = {.image_type = r->type, .image_width = r->w, .buffer = buf};
  if (r->type == CL_MEM_OBJECT_IMAGE2D || r->type == CL_MEM_OBJECT_IMAGE2D_ARRAY || r->type == CL_MEM_OBJECT_IMAGE3D)
    d.image_height = r->h;
  if (r->type == CL_MEM_OBJECT_IMAGE3D) d.image_depth = r->d;
  if (r->type == CL_MEM_OBJECT_IMAGE1D_ARRAY || r->type == CL_MEM_OBJECT_IMAGE2D_ARRAY) d.image_array_size = r->arr;
  cl_int err;
  cl_mem m = clCreateImage(ctx, buf ? 0 : CL_MEM_COPY_HOST_PTR, &r->fmt, &d, buf ? NULL : (void *)r->data, &err);
  CHECK(err);
  return m;
}

static size_t ref_bytes(const ref_image *r) { return r->w * r->h * (size_t)ref_layers(r) * ref_esize(&r->fmt); }

/* pseudo-random texel bytes that decode to ordinary values (no NaN/inf) */
static uint8_t *texels(const ref_image *r, unsigned seed) {
  size_t n = ref_bytes(r);
  uint8_t *p = malloc(n);
  for (size_t i = 0; i < n; i++) p[i] = (uint8_t)((seed = seed * 1103515245u + 12345u) >> 16);
  cl_channel_type t = r->fmt.image_channel_data_type;
  if (t == CL_HALF_FLOAT)
    for (size_t i = 0; i + 1 < n; i += 2) {
      _Float16 h = (_Float16)((float)((p[i] | p[i + 1] << 8) % 2001) / 100.0f - 10.0f);
      memcpy(p + i, &h, 2);
    }
  if (t == CL_FLOAT)
    for (size_t i = 0; i + 3 < n; i += 4) {
      float f = (float)((p[i] | p[i + 1] << 8) % 20001) / 1000.0f - 10.0f;
      memcpy(p + i, &f, 4);
    }
  return p;
}

static int close_to(float got, float want, float tol) {
  if (got == want) return 1;
  return fabsf(got - want) <= tol * fmaxf(1.0f, fabsf(want));
}

static cl_sampler sampler(const ref_sampler *s) {
  cl_int err;
  cl_sampler smp = clCreateSampler(ctx, s->norm ? CL_TRUE : CL_FALSE, s->addr, s->filter, &err);
  CHECK(err);
  return smp;
}

static const char *kernel_for(cl_mem_object_type t) {
  switch (t) {
  case CL_MEM_OBJECT_IMAGE1D: return "s1d";
  case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "s1da";
  case CL_MEM_OBJECT_IMAGE2D: return "s2d";
  case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "s2da";
  default: return "s3d";
  }
}

/* coordinates for a sampler: in range (and away from the undefined edges of
 * CLK_ADDRESS_NONE) or across and beyond the image */
static size_t coords(const ref_image *r, const ref_sampler *s, float *c, size_t max, unsigned seed) {
  int nd = ref_dims(r), la = ref_layer_axis(r);
  long n[3] = {(long)r->w, (long)r->h, (long)r->d};
  size_t k = 0;
  for (; k < max; k++) {
    for (int a = 0; a < 4; a++) {
      seed = seed * 1103515245u + 12345u;
      float u = (float)((seed >> 8) % 10000) / 10000.0f; /* [0, 1) */
      float v;
      if (a < nd) {
        if (s->addr == CL_ADDRESS_NONE) /* linear: the two texels inside */
          v = s->filter == CL_FILTER_LINEAR ? 0.5f + u * ((float)n[a] - 1.0f) : u * (float)n[a];
        else
          v = -1.25f + u * ((float)n[a] + 2.5f);
        if (s->norm) v /= (float)n[a];
        if (k % 7 == 3) v = s->norm ? (float)(k % 5) / 4.0f : (float)(k % 5); /* texel edges and centres */
      } else if (a == la) {
        v = -1.0f + u * ((float)r->arr + 1.0f);
      } else {
        v = 0.0f;
      }
      c[4 * k + a] = v;
    }
  }
  return k;
}

/* read_imagef through every sampler on one image */
static void sweep(const ref_image *r, cl_mem img, const char *what) {
  static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                             CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  enum { N = 40 };
  float c[4 * N], out[4 * N];
  cl_kernel k = kernel(kernel_for(r->type));
  int bad = 0;
  for (int norm = 0; norm < 2; norm++)
    for (size_t m = 0; m < 5; m++)
      for (int f = 0; f < 2; f++) {
        ref_sampler s = {norm, modes[m], f ? CL_FILTER_LINEAR : CL_FILTER_NEAREST};
        if (!norm && (s.addr == CL_ADDRESS_REPEAT || s.addr == CL_ADDRESS_MIRRORED_REPEAT)) continue;
        size_t n = coords(r, &s, c, N, (unsigned)(norm * 100 + m * 10 + (size_t)f));
        cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof out, NULL);
        cl_sampler smp = sampler(&s);
        CHECK(clSetKernelArg(k, 0, sizeof img, &img));
        CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
        CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
        CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
        for (size_t i = 0; i < n; i++) {
          float want[4];
          ref_sample(r, &s, c + 4 * i, want);
          for (int j = 0; j < 4; j++)
            if (!close_to(out[4 * i + j], want[j], f ? 2e-6f * 8 : 0) && bad++ < 6)
              fprintf(stderr, "%s: norm %d addr 0x%x filter 0x%x coord (%g, %g, %g): [%d] %.9g, expected %.9g\n",
                      what, norm, (unsigned)s.addr, (unsigned)s.filter, c[4 * i], c[4 * i + 1], c[4 * i + 2], j,
                      out[4 * i + j], want[j]);
        }
        CHECK(clReleaseSampler(smp));
        CHECK(clReleaseMemObject(cb));
        CHECK(clReleaseMemObject(ob));
      }
  if (bad) cy_failures++;
  CHECK(clReleaseKernel(k));
}

static void test_sampling(void) {
  static const cl_image_format fmts[] = {
      {CL_RGBA, CL_UNORM_INT8}, {CL_RGBA, CL_FLOAT},       {CL_BGRA, CL_UNORM_INT8},   {CL_R, CL_UNORM_INT16},
      {CL_RG, CL_SNORM_INT8},   {CL_RA, CL_SNORM_INT16},   {CL_A, CL_HALF_FLOAT},      {CL_RGBA, CL_HALF_FLOAT},
      {CL_ARGB, CL_UNORM_INT8}, {CL_INTENSITY, CL_FLOAT},  {CL_LUMINANCE, CL_UNORM_INT8}};
  /* under valgrind (minutes of simulation) the first two formats; the
   * library's code is the same for all */
  size_t nf = getenv("VT_UNDER_VALGRIND") ? 2 : sizeof fmts / sizeof *fmts;
  for (size_t i = 0; i < nf; i++) {
    ref_image r = {CL_MEM_OBJECT_IMAGE2D, fmts[i], 5, 4, 1, 1, NULL};
    uint8_t *data = texels(&r, (unsigned)i + 1);
    r.data = data;
    cl_mem img = image(&r, NULL);
    char what[64];
    snprintf(what, sizeof what, "2D order 0x%x type 0x%x", (unsigned)fmts[i].image_channel_order,
             (unsigned)fmts[i].image_channel_data_type);
    sweep(&r, img, what);
    CHECK(clReleaseMemObject(img));
    free(data);
  }
  /* the other types, in two formats */
  static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                             CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  for (size_t t = 0; t < 4; t++)
    for (int f = 0; f < (getenv("VT_UNDER_VALGRIND") ? 1 : 2); f++) {
      ref_image r = {types[t], f ? (cl_image_format){CL_RGBA, CL_FLOAT} : (cl_image_format){CL_RGBA, CL_UNORM_INT8},
                     7, 1, 1, 1, NULL};
      if (types[t] != CL_MEM_OBJECT_IMAGE1D && types[t] != CL_MEM_OBJECT_IMAGE1D_ARRAY) r.h = 3;
      if (types[t] == CL_MEM_OBJECT_IMAGE3D) r.d = 3;
      if (types[t] == CL_MEM_OBJECT_IMAGE1D_ARRAY || types[t] == CL_MEM_OBJECT_IMAGE2D_ARRAY) r.arr = 3;
      uint8_t *data = texels(&r, (unsigned)(t * 2 + (size_t)f + 50));
      r.data = data;
      cl_mem img = image(&r, NULL);
      char what[64];
      snprintf(what, sizeof what, "type 0x%x format %s", (unsigned)types[t], f ? "float" : "unorm8");
      sweep(&r, img, what);
      CHECK(clReleaseMemObject(img));
      free(data);
    }
}

/* integer coordinates: with a sampler (clamp to edge or border) and without */
static void test_int_coords(void) {
  ref_image r = {CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_UNORM_INT8}, 4, 3, 1, 1, NULL};
  uint8_t *data = texels(&r, 7);
  r.data = data;
  cl_mem img = image(&r, NULL);
  enum { N = 24 };
  int c[4 * N];
  float out[8 * N];
  for (int i = 0; i < N; i++) c[4 * i] = i % 6 - 1, c[4 * i + 1] = i / 6 - 1, c[4 * i + 2] = c[4 * i + 3] = 0;
  cl_kernel k = kernel("i2d");
  cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof out, NULL);
  for (int clamp = 0; clamp < 2; clamp++) {
    ref_sampler s = {0, clamp ? CL_ADDRESS_CLAMP : CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST};
    cl_sampler smp = sampler(&s);
    size_t n = N;
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
      long x = c[4 * i], y = c[4 * i + 1];
      float want[4], plain[4];
      int inside = x >= 0 && x < 4 && y >= 0 && y < 3;
      if (clamp) ref_texel(&r, x, y, 0, want);
      else ref_texel(&r, x < 0 ? 0 : x > 3 ? 3 : x, y < 0 ? 0 : y > 2 ? 2 : y, 0, want);
      ref_texel(&r, x, y, 0, plain);
      for (int j = 0; j < 4; j++) {
        EXPECT(out[8 * i + j] == want[j]);
        if (inside) EXPECT(out[8 * i + 4 + j] == plain[j]); /* no sampler: defined inside only */
      }
    }
    CHECK(clReleaseSampler(smp));
  }
  CHECK(clReleaseKernel(k));
  /* a 3D image and a 1D buffer image without a sampler */
  ref_image r3 = {CL_MEM_OBJECT_IMAGE3D, {CL_RG, CL_FLOAT}, 3, 2, 2, 1, NULL};
  uint8_t *d3 = texels(&r3, 9);
  r3.data = d3;
  cl_mem i3 = image(&r3, NULL);
  for (int i = 0; i < 12; i++) c[4 * i] = i % 3, c[4 * i + 1] = (i / 3) % 2, c[4 * i + 2] = i / 6;
  CHECK(clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  k = kernel("i3d");
  size_t n = 12;
  CHECK(clSetKernelArg(k, 0, sizeof i3, &i3));
  CHECK(clSetKernelArg(k, 1, sizeof cb, &cb));
  CHECK(clSetKernelArg(k, 2, sizeof ob, &ob));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < 12; i++) {
    float want[4];
    ref_texel(&r3, c[4 * i], c[4 * i + 1], c[4 * i + 2], want);
    for (int j = 0; j < 4; j++) EXPECT(out[4 * i + j] == want[j]);
  }
  CHECK(clReleaseKernel(k));
  ref_image rb = {CL_MEM_OBJECT_IMAGE1D_BUFFER, {CL_RGBA, CL_UNSIGNED_INT8}, 10, 1, 1, 1, NULL};
  uint8_t *db = texels(&rb, 11);
  rb.data = db;
  cl_mem buf = buffer(10 * 4, db), ib = image(&rb, buf);
  for (int i = 0; i < 10; i++) c[4 * i] = i;
  CHECK(clEnqueueWriteBuffer(q, cb, CL_TRUE, 0, sizeof c, c, 0, NULL, NULL));
  k = kernel("i1db");
  n = 10;
  CHECK(clSetKernelArg(k, 0, sizeof ib, &ib));
  CHECK(clSetKernelArg(k, 1, sizeof cb, &cb));
  CHECK(clSetKernelArg(k, 2, sizeof ob, &ob));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (int i = 0; i < 10; i++) {
    float want[4];
    ref_texel(&rb, i, 0, 0, want); /* read_imagef of an integer format: its values (undefined by the spec) */
    for (int j = 0; j < 4; j++) EXPECT(out[4 * i + j] == want[j]);
  }
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(ib));
  CHECK(clReleaseMemObject(buf));
  CHECK(clReleaseMemObject(i3));
  CHECK(clReleaseMemObject(cb));
  CHECK(clReleaseMemObject(ob));
  CHECK(clReleaseMemObject(img));
  free(data);
  free(d3);
  free(db);
}

/* integer coordinates into arrays: the layer is clamped, x and y follow
 * the sampler (edge or border) */
static void test_array_int_coords(void) {
  enum { N = 30 };
  int c[4 * N];
  float of[4 * N];
  uint32_t ou[4 * N];
  for (int i = 0; i < N; i++) c[4 * i] = i % 5 - 1, c[4 * i + 1] = (i / 5) % 3 - 1, c[4 * i + 2] = i / 10 * 2 - 1, c[4 * i + 3] = 0;
  cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof of, NULL);
  for (int clamp = 0; clamp < 2; clamp++) {
    ref_sampler s = {0, clamp ? CL_ADDRESS_CLAMP : CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST};
    cl_sampler smp = sampler(&s);
    /* 2D array of 3 x 2, 2 layers */
    ref_image r = {CL_MEM_OBJECT_IMAGE2D_ARRAY, {CL_RGBA, CL_UNORM_INT16}, 3, 2, 1, 2, NULL};
    uint8_t *data = texels(&r, 41);
    r.data = data;
    cl_mem img = image(&r, NULL);
    cl_kernel k = kernel("i2da");
    size_t n = N;
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof of, of, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
      long x = c[4 * i], y = c[4 * i + 1], l = c[4 * i + 2] < 0 ? 0 : c[4 * i + 2] > 1 ? 1 : c[4 * i + 2];
      if (!clamp) x = x < 0 ? 0 : x > 2 ? 2 : x, y = y < 0 ? 0 : y > 1 ? 1 : y;
      float want[4];
      ref_texel(&r, x, y, l, want);
      for (int j = 0; j < 4; j++) bad += of[4 * i + j] != want[j];
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(img));
    free(data);
    /* 1D array of 3, 4 layers; the layer is c.y */
    ref_image r1 = {CL_MEM_OBJECT_IMAGE1D_ARRAY, {CL_RG, CL_UNSIGNED_INT32}, 3, 1, 1, 4, NULL};
    data = texels(&r1, 43);
    r1.data = data;
    img = image(&r1, NULL);
    k = kernel("i1da");
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof ou, ou, 0, NULL, NULL));
    for (int i = 0; i < N; i++) {
      long x = c[4 * i], l = c[4 * i + 1] < 0 ? 0 : c[4 * i + 1] > 3 ? 3 : c[4 * i + 1];
      if (!clamp) x = x < 0 ? 0 : x > 2 ? 2 : x;
      uint32_t want[4];
      ref_texel_int(&r1, x, 0, l, want);
      for (int j = 0; j < 4; j++) bad += ou[4 * i + j] != want[j];
    }
    if (bad) {
      fprintf(stderr, "array images, integer coordinates, %s: %d wrong\n", clamp ? "clamp" : "clamp to edge", bad);
      cy_failures++;
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(img));
    CHECK(clReleaseSampler(smp));
    free(data);
  }
  CHECK(clReleaseMemObject(cb));
  CHECK(clReleaseMemObject(ob));
}

/* read_imagei / read_imageui on integer formats, nearest through float coordinates too */
static void test_int_reads(void) {
  static const cl_image_format fmts[] = {{CL_RGBA, CL_SIGNED_INT8},    {CL_RGBA, CL_SIGNED_INT16},
                                         {CL_RGBA, CL_SIGNED_INT32},   {CL_RGBA, CL_UNSIGNED_INT8},
                                         {CL_RG, CL_UNSIGNED_INT16},   {CL_R, CL_UNSIGNED_INT32},
                                         {CL_BGRA, CL_SIGNED_INT8},    {CL_RA, CL_SIGNED_INT16}};
  enum { N = 20 };
  int c[4 * N];
  float f[4 * N];
  int32_t oi[8 * N];
  uint32_t ou[8 * N];
  for (int i = 0; i < N; i++) {
    c[4 * i] = i % 5 - 1, c[4 * i + 1] = i / 5 - 1, c[4 * i + 2] = c[4 * i + 3] = 0;
    f[4 * i] = (float)c[4 * i] + 0.75f, f[4 * i + 1] = (float)c[4 * i + 1] + 0.25f, f[4 * i + 2] = f[4 * i + 3] = 0;
  }
  cl_kernel k = kernel("ri2d");
  cl_mem cb = buffer(sizeof c, c), fb = buffer(sizeof f, f), ib = buffer(sizeof oi, NULL), ub = buffer(sizeof ou, NULL);
  ref_sampler s = {0, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
  cl_sampler smp = sampler(&s);
  for (size_t t = 0; t < sizeof fmts / sizeof *fmts; t++) {
    ref_image r = {CL_MEM_OBJECT_IMAGE2D, fmts[t], 3, 2, 1, 1, NULL};
    uint8_t *data = texels(&r, (unsigned)t + 20);
    r.data = data;
    cl_mem img = image(&r, NULL);
    size_t n = N;
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 3, sizeof fb, &fb));
    CHECK(clSetKernelArg(k, 4, sizeof ib, &ib));
    CHECK(clSetKernelArg(k, 5, sizeof ub, &ub));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ib, CL_TRUE, 0, sizeof oi, oi, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ub, CL_TRUE, 0, sizeof ou, ou, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
      uint32_t want[4];
      long x = c[4 * i], y = c[4 * i + 1];
      ref_texel_int(&r, x, y, 0, want);
      for (int j = 0; j < 4; j++) {
        bad += (uint32_t)oi[8 * i + j] != want[j] || (uint32_t)oi[8 * i + 4 + j] != want[j] || ou[8 * i + j] != want[j];
        if (x >= 0 && x < 3 && y >= 0 && y < 2) bad += ou[8 * i + 4 + j] != want[j];
      }
    }
    if (bad) {
      fprintf(stderr, "read_imagei/ui, order 0x%x type 0x%x: %d wrong\n", (unsigned)fmts[t].image_channel_order,
              (unsigned)fmts[t].image_channel_data_type, bad);
      cy_failures++;
    }
    CHECK(clReleaseMemObject(img));
    free(data);
  }
  CHECK(clReleaseSampler(smp));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(cb));
  CHECK(clReleaseMemObject(fb));
  CHECK(clReleaseMemObject(ib));
  CHECK(clReleaseMemObject(ub));
}

/* a constant sampler in the source: normalised, repeat, linear */
static void test_constant_sampler(void) {
  ref_image r = {CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_FLOAT}, 4, 4, 1, 1, NULL};
  uint8_t *data = texels(&r, 3);
  r.data = data;
  cl_mem img = image(&r, NULL);
  ref_sampler s = {1, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR};
  enum { N = 16 };
  float c[4 * N], out[4 * N];
  size_t n = coords(&r, &s, c, N, 77);
  cl_mem cb = buffer(sizeof c, c), ob = buffer(sizeof out, NULL);
  cl_kernel k = kernel("cs2d");
  CHECK(clSetKernelArg(k, 0, sizeof img, &img));
  CHECK(clSetKernelArg(k, 1, sizeof cb, &cb));
  CHECK(clSetKernelArg(k, 2, sizeof ob, &ob));
  CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
  for (size_t i = 0; i < n; i++) {
    float want[4];
    ref_sample(&r, &s, c + 4 * i, want);
    for (int j = 0; j < 4; j++) EXPECT(close_to(out[4 * i + j], want[j], 2e-5f));
  }
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseMemObject(cb));
  CHECK(clReleaseMemObject(ob));
  CHECK(clReleaseMemObject(img));
  free(data);
}

/* write_imagef into each float format: §8.3 rounding and saturation */
static void test_writes(void) {
  static const cl_image_format fmts[] = {{CL_RGBA, CL_UNORM_INT8},  {CL_RGBA, CL_UNORM_INT16}, {CL_RGBA, CL_SNORM_INT8},
                                         {CL_RGBA, CL_SNORM_INT16}, {CL_RGBA, CL_HALF_FLOAT},  {CL_RGBA, CL_FLOAT},
                                         {CL_BGRA, CL_UNORM_INT8},  {CL_R, CL_UNORM_INT8},     {CL_RA, CL_HALF_FLOAT},
                                         {CL_A, CL_SNORM_INT8},     {CL_ARGB, CL_UNORM_INT8},  {CL_RG, CL_FLOAT},
                                         {CL_INTENSITY, CL_UNORM_INT16}, {CL_LUMINANCE, CL_HALF_FLOAT}};
  enum { W = 6, H = 4, N = W * H };
  static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f / 255, 1.5f / 255, 2.5f / 255, 0.5f,
                                  1.5f, -2.0f, NAN, INFINITY, -INFINITY, 70000.0f, 65519.0f, 1e-7f,
                                  0.5f / 127, -0.5f / 127, 1.0f / 3, 2.0f / 3, 254.5f / 255, 0.99999f, 3e-5f, 65504.0f};
  int c[4 * N];
  float v[4 * N];
  for (int i = 0; i < N; i++) {
    c[4 * i] = i % W, c[4 * i + 1] = i / W, c[4 * i + 2] = c[4 * i + 3] = 0;
    for (int j = 0; j < 4; j++) v[4 * i + j] = special[(i + 5 * j) % 24];
  }
  cl_kernel k = kernel("wf2d");
  cl_mem cb = buffer(sizeof c, c), vb = buffer(sizeof v, v);
  for (size_t t = 0; t < sizeof fmts / sizeof *fmts; t++) {
    cl_int err;
    cl_mem img = clCreateImage2D(ctx, CL_MEM_WRITE_ONLY, &fmts[t], W, H, 0, NULL, &err);
    CHECK(err);
    size_t n = N, es = ref_esize(&fmts[t]);
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 2, sizeof vb, &vb));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    uint8_t got[N * 16], want[N * 16];
    size_t o[3] = {0, 0, 0}, rg[3] = {W, H, 1};
    CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, rg, 0, 0, got, 0, NULL, NULL));
    int m[4];
    ref_map(fmts[t].image_channel_order, m);
    size_t tb = ref_type_bytes(fmts[t].image_channel_data_type);
    for (int i = 0; i < N; i++)
      for (int j = 3; j >= 0; j--) /* a channel several components read (INTENSITY, LUMINANCE) is written from red */
        if (m[j] >= 0) ref_encode(v[4 * i + j], fmts[t].image_channel_data_type, want + (size_t)i * es + (size_t)m[j] * tb);
    int bad = 0;
    for (size_t b = 0; b < N * es; b++)
      if (got[b] != want[b] && bad++ < 4)
        fprintf(stderr, "write_imagef order 0x%x type 0x%x: byte %zu (texel %zu) 0x%02x, expected 0x%02x\n",
                (unsigned)fmts[t].image_channel_order, (unsigned)fmts[t].image_channel_data_type, b, b / es, got[b],
                want[b]);
    if (bad) cy_failures++;
    CHECK(clReleaseMemObject(img));
  }
  CHECK(clReleaseKernel(k));
  /* write_imagei / write_imageui: saturating conversions */
  static const int32_t ints[] = {0, 1, -1, 127, 128, -128, -129, 255, 256, 32767, 32768, -32769, 65535, 65536,
                                 INT32_MAX, INT32_MIN, 1000, -1000, 42, 7, 300, -300, 100000, -5};
  int32_t iv[4 * N];
  for (int i = 0; i < 4 * N; i++) iv[i] = ints[i % 24];
  cl_mem ivb = buffer(sizeof iv, iv);
  static const cl_image_format ifmts[] = {{CL_RGBA, CL_SIGNED_INT8},   {CL_RGBA, CL_SIGNED_INT16},
                                          {CL_RGBA, CL_SIGNED_INT32},  {CL_RGBA, CL_UNSIGNED_INT8},
                                          {CL_RGBA, CL_UNSIGNED_INT16}, {CL_RGBA, CL_UNSIGNED_INT32}};
  for (size_t t = 0; t < 6; t++) {
    int sgn = t < 3;
    cl_kernel kw = kernel(sgn ? "wi2d" : "wu2d");
    cl_int err;
    cl_mem img = clCreateImage2D(ctx, CL_MEM_READ_WRITE, &ifmts[t], W, H, 0, NULL, &err);
    CHECK(err);
    size_t n = N, tb = ref_type_bytes(ifmts[t].image_channel_data_type);
    CHECK(clSetKernelArg(kw, 0, sizeof img, &img));
    CHECK(clSetKernelArg(kw, 1, sizeof cb, &cb));
    CHECK(clSetKernelArg(kw, 2, sizeof ivb, &ivb));
    CHECK(clEnqueueNDRangeKernel(q, kw, 1, NULL, &n, NULL, 0, NULL, NULL));
    uint8_t got[N * 16];
    size_t o[3] = {0, 0, 0}, rg[3] = {W, H, 1};
    CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, rg, 0, 0, got, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < 4 * N; i++) {
      int64_t x = sgn ? (int64_t)iv[i] : (int64_t)(uint32_t)iv[i], lo, hi;
      int is_signed = ifmts[t].image_channel_data_type <= CL_SIGNED_INT32;
      lo = is_signed ? -((int64_t)1 << (8 * tb - 1)) : 0;
      hi = is_signed ? ((int64_t)1 << (8 * tb - 1)) - 1 : ((int64_t)1 << (8 * tb)) - 1;
      int64_t want = x < lo ? lo : x > hi ? hi : x;
      uint64_t g = 0;
      memcpy(&g, got + (size_t)i * tb, tb);
      if (is_signed && tb < 8 && (g >> (8 * tb - 1)) & 1) g |= ~(uint64_t)0 << (8 * tb);
      bad += (int64_t)g != want;
    }
    if (bad) {
      fprintf(stderr, "write_image%s type 0x%x: %d wrong\n", sgn ? "i" : "ui", (unsigned)ifmts[t].image_channel_data_type, bad);
      cy_failures++;
    }
    CHECK(clReleaseMemObject(img));
    CHECK(clReleaseKernel(kw));
  }
  CHECK(clReleaseMemObject(ivb));
  CHECK(clReleaseMemObject(cb));
  CHECK(clReleaseMemObject(vb));
}

/* write_imagef into 1D, 1D buffer, 1D array, 2D array and 3D images
 * (cl_khr_3d_image_writes); writes outside the image are dropped */
static void test_writes_other_types(void) {
  static const struct {
    const char *k;
    cl_mem_object_type t;
    size_t w, h, arr;
  } cases[] = {{"wf1d", CL_MEM_OBJECT_IMAGE1D, 9, 1, 1},
               {"wf1db", CL_MEM_OBJECT_IMAGE1D_BUFFER, 9, 1, 1},
               {"wf1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 1, 3},
               {"wf2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 2, 3},
               {"wf3d", CL_MEM_OBJECT_IMAGE3D, 3, 2, 3}}; /* arr: the depth */
  cl_image_format fmt = {CL_RGBA, CL_FLOAT};
  for (size_t t = 0; t < sizeof cases / sizeof *cases; t++) {
    size_t total = cases[t].w * cases[t].h * cases[t].arr;
    int c[4 * 24];
    float v[4 * 24], want[4 * 24], got[4 * 24];
    memset(want, 0, sizeof want);
    size_t n = 0;
    for (size_t i = 0; i < total + 4; i++, n++) { /* four outside */
      size_t x = i % cases[t].w, y = (i / cases[t].w) % cases[t].h, l = i / (cases[t].w * cases[t].h);
      int out = i >= total;
      int cc[4] = {out && i % 2 ? -1 : (int)x, (int)y, (int)l, 0};
      if (out && !(i % 2)) cc[0] = (int)cases[t].w;
      if (cases[t].t == CL_MEM_OBJECT_IMAGE1D_ARRAY) cc[1] = (int)l, cc[2] = 0;
      memcpy(c + 4 * i, cc, sizeof cc);
      for (int j = 0; j < 4; j++) v[4 * i + j] = (float)(i * 4 + (size_t)j) + 0.25f;
      if (!out) memcpy(want + 4 * i, v + 4 * i, 16);
    }
    cl_int err;
    cl_mem buf = NULL, img;
    cl_image_desc d = {.image_type = cases[t].t, .image_width = cases[t].w};
    if (cases[t].t == CL_MEM_OBJECT_IMAGE2D_ARRAY || cases[t].t == CL_MEM_OBJECT_IMAGE3D) d.image_height = cases[t].h;
    if (cases[t].t == CL_MEM_OBJECT_IMAGE3D) d.image_depth = cases[t].arr;
    else if (cases[t].arr > 1) d.image_array_size = cases[t].arr;
    if (cases[t].t == CL_MEM_OBJECT_IMAGE1D_BUFFER) d.buffer = buf = buffer(cases[t].w * 16, NULL);
    img = clCreateImage(ctx, 0, &fmt, &d, NULL, &err);
    CHECK(err);
    cl_float4 zero = {{0, 0, 0, 0}};
    float zeros[4 * 24] = {0};
    size_t o[3] = {0, 0, 0}, rg[3] = {cases[t].w, 1, 1};
    if (cases[t].t == CL_MEM_OBJECT_IMAGE1D_ARRAY) rg[1] = cases[t].arr;
    if (cases[t].t == CL_MEM_OBJECT_IMAGE2D_ARRAY || cases[t].t == CL_MEM_OBJECT_IMAGE3D) rg[1] = cases[t].h, rg[2] = cases[t].arr;
    (void)zero;
    CHECK(clEnqueueWriteImage(q, img, CL_TRUE, o, rg, 0, 0, zeros, 0, NULL, NULL));
    cl_mem cb = buffer(sizeof c, c), vb = buffer(sizeof v, v);
    cl_kernel k = kernel(cases[t].k);
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 2, sizeof vb, &vb));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, rg, 0, 0, got, 0, NULL, NULL));
    if (memcmp(got, want, total * 16)) {
      fprintf(stderr, "write_imagef into %s differs\n", cases[t].k);
      cy_failures++;
    }
    if (buf) { /* the buffer holds the texels */
      CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, total * 16, got, 0, NULL, NULL));
      EXPECT(!memcmp(got, want, total * 16));
      CHECK(clReleaseMemObject(buf));
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseMemObject(cb));
    CHECK(clReleaseMemObject(vb));
    CHECK(clReleaseMemObject(img));
  }
}

static void test_queries(void) {
  cl_int err;
  cl_image_format f8 = {CL_RGBA, CL_UNORM_INT8}, ff = {CL_RG, CL_FLOAT};
  cl_image_desc d2 = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 17, .image_height = 9};
  cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 5, .image_height = 6, .image_depth = 7};
  cl_image_desc d2a = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 3, .image_array_size = 11};
  cl_image_desc d1 = {.image_type = CL_MEM_OBJECT_IMAGE1D, .image_width = 33};
  cl_image_desc d1a = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = 8, .image_array_size = 6};
  cl_mem buf = buffer(4096, NULL);
  cl_image_desc d1b = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 100, .buffer = buf};
  cl_mem im[6];
  const cl_image_desc *ds[6] = {&d2, &d3, &d2a, &d1, &d1a, &d1b};
  for (int i = 0; i < 6; i++) {
    im[i] = clCreateImage(ctx, 0, i == 1 ? &ff : &f8, ds[i], NULL, &err);
    CHECK(err);
  }
  cl_mem ob = buffer(32 * 4, NULL);
  cl_kernel k = kernel("qs");
  for (cl_uint i = 0; i < 6; i++) CHECK(clSetKernelArg(k, i, sizeof im[i], &im[i]));
  CHECK(clSetKernelArg(k, 6, sizeof ob, &ob));
  CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
  int o[23];
  CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof o, o, 0, NULL, NULL));
  static const int want[23] = {17, 9, 17, 9, 5, 6, 7, 5, 6, 7, 0, 4, 3, 11, 3, 33, 8, 6, 100,
                               CL_RGBA, CL_UNORM_INT8, CL_RG, CL_FLOAT};
  for (int i = 0; i < 23; i++)
    if (o[i] != want[i]) {
      fprintf(stderr, "get_image_* query %d: %d, expected %d\n", i, o[i], want[i]);
      cy_failures++;
    }
  /* clGetKernelArgInfo sees the OpenCL C types and access qualifiers */
  CHECK(clReleaseKernel(k));
  for (int i = 0; i < 6; i++) CHECK(clReleaseMemObject(im[i]));
  CHECK(clReleaseMemObject(ob));
  CHECK(clReleaseMemObject(buf));
}

/* argument metadata: types, access qualifiers; clSetKernelArg's checks */
static void test_args(void) {
  cl_int err;
  const char *s = "kernel void a(read_only image2d_t r, write_only image2d_t w, sampler_t s, global int *p) {\n"
                  "  write_imagef(w, (int2)(0, 0), read_imagef(r, s, (int2)(0, 0))); p[0] = 1; }\n";
  cl_program p = clCreateProgramWithSource(ctx, 1, &s, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(p, 1, &dev, "-cl-kernel-arg-info", NULL, NULL));
  cl_kernel k = clCreateKernel(p, "a", &err);
  CHECK(err);
  char type[64];
  cl_kernel_arg_access_qualifier acc;
  cl_kernel_arg_address_qualifier aq;
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
  EXPECT(!strcmp(type, "image2d_t"));
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
  EXPECT(acc == CL_KERNEL_ARG_ACCESS_READ_ONLY);
  CHECK(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof aq, &aq, NULL));
  EXPECT(aq == CL_KERNEL_ARG_ADDRESS_GLOBAL);
  CHECK(clGetKernelArgInfo(k, 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
  EXPECT(acc == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
  CHECK(clGetKernelArgInfo(k, 2, CL_KERNEL_ARG_TYPE_NAME, sizeof type, type, NULL));
  EXPECT(!strcmp(type, "sampler_t"));
  CHECK(clGetKernelArgInfo(k, 3, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof acc, &acc, NULL));
  EXPECT(acc == CL_KERNEL_ARG_ACCESS_NONE);
  cl_image_format fmt = {CL_RGBA, CL_FLOAT};
  cl_mem img = clCreateImage2D(ctx, 0, &fmt, 2, 2, 0, NULL, &err);
  CHECK(err);
  cl_mem ro = clCreateImage2D(ctx, CL_MEM_READ_ONLY, &fmt, 2, 2, 0, NULL, &err);
  CHECK(err);
  cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 2, .image_height = 2, .image_depth = 2};
  cl_mem i3 = clCreateImage(ctx, 0, &fmt, &d3, NULL, &err);
  CHECK(err);
  cl_mem buf = buffer(16, NULL), nul = NULL;
  ref_sampler rs = {0, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
  cl_sampler smp = sampler(&rs);
  EXPECT_ERR(clSetKernelArg(k, 0, sizeof buf, &buf), CL_INVALID_MEM_OBJECT);  /* a buffer for an image */
  EXPECT_ERR(clSetKernelArg(k, 0, sizeof nul, &nul), CL_INVALID_MEM_OBJECT);  /* no NULL image */
  EXPECT_ERR(clSetKernelArg(k, 0, sizeof i3, &i3), CL_INVALID_ARG_VALUE);     /* a 3D image for a 2D one */
  EXPECT_ERR(clSetKernelArg(k, 0, 4, &img), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 1, sizeof ro, &ro), CL_INVALID_ARG_VALUE);    /* read-only image, write_only argument */
  EXPECT_ERR(clSetKernelArg(k, 3, sizeof img, &img), CL_INVALID_MEM_OBJECT); /* an image for a buffer */
  EXPECT_ERR(clSetKernelArg(k, 2, sizeof buf, &buf), CL_INVALID_SAMPLER);
  EXPECT_ERR(clSetKernelArg(k, 2, 4, &smp), CL_INVALID_ARG_SIZE);
  EXPECT_ERR(clSetKernelArg(k, 2, sizeof smp, NULL), CL_INVALID_SAMPLER);
  CHECK(clSetKernelArg(k, 0, sizeof ro, &ro));
  CHECK(clSetKernelArg(k, 1, sizeof img, &img));
  CHECK(clSetKernelArg(k, 2, sizeof smp, &smp));
  CHECK(clSetKernelArg(k, 3, sizeof buf, &buf));
  float v[4] = {1, 2, 3, 4}, got[4] = {0};
  size_t o[3] = {0, 0, 0}, r[3] = {1, 1, 1};
  CHECK(clEnqueueWriteImage(q, ro, CL_TRUE, o, r, 0, 0, v, 0, NULL, NULL));
  CHECK(clReleaseSampler(smp)); /* the argument keeps its value */
  CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, img, CL_TRUE, o, r, 0, 0, got, 0, NULL, NULL));
  EXPECT(!memcmp(v, got, sizeof v));
  CHECK(clReleaseKernel(k));
  CHECK(clReleaseProgram(p));
  CHECK(clReleaseMemObject(img));
  CHECK(clReleaseMemObject(ro));
  CHECK(clReleaseMemObject(i3));
  CHECK(clReleaseMemObject(buf));
}

/* other program forms: cl_khr_fp16's read_imageh/write_imageh, an image
 * through a noinline function, the whole at -cl-opt-disable (clang's
 * unoptimised IR keeps images in allocas), and the refusal of an image
 * passed to a function the program does not define */
static const char *forms_src =
    "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
    "__attribute__((noinline)) float4 nf(read_only image2d_t im, sampler_t s, int2 c) { return read_imagef(im, s, c); }\n"
    "kernel void rh(read_only image2d_t im, sampler_t s, global const int4 *c, global float4 *o) {\n"
    "  int i = get_global_id(0); half4 h = read_imageh(im, s, c[i].xy); o[2 * i] = convert_float4(h);\n"
    "  o[2 * i + 1] = nf(im, s, c[i].xy); }\n"
    "kernel void wh(write_only image2d_t im, global const int4 *c, global const float4 *v) {\n"
    "  int i = get_global_id(0); write_imageh(im, c[i].xy, convert_half4(v[i])); }\n";

static void test_program_forms(void) {
  cl_int err;
  ref_image r = {CL_MEM_OBJECT_IMAGE2D, {CL_RGBA, CL_FLOAT}, 4, 3, 1, 1, NULL};
  uint8_t *data = texels(&r, 31);
  r.data = data;
  enum { N = 12 };
  int c[4 * N];
  float v[4 * N], out[8 * N], got[4 * N];
  for (int i = 0; i < N; i++) {
    c[4 * i] = i % 4, c[4 * i + 1] = i / 4, c[4 * i + 2] = c[4 * i + 3] = 0;
    for (int j = 0; j < 4; j++) v[4 * i + j] = (float)(i * 4 + j) / 7.0f - 3.0f + (j == 3 ? 70000.0f * (i == 5) : 0);
  }
  ref_sampler rs = {0, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST};
  cl_sampler smp = sampler(&rs);
  for (int o0 = 0; o0 < 2; o0++) {
    cl_program p = clCreateProgramWithSource(ctx, 1, &forms_src, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(p, 1, &dev, o0 ? "-cl-opt-disable" : "", NULL, NULL));
    cl_mem img = image(&r, NULL), cb = buffer(sizeof c, c), vb = buffer(sizeof v, v), ob = buffer(sizeof out, NULL);
    cl_kernel k = clCreateKernel(p, "rh", &err);
    CHECK(err);
    size_t n = N;
    CHECK(clSetKernelArg(k, 0, sizeof img, &img));
    CHECK(clSetKernelArg(k, 1, sizeof smp, &smp));
    CHECK(clSetKernelArg(k, 2, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 3, sizeof ob, &ob));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    int bad = 0;
    for (int i = 0; i < N; i++) {
      float want[4];
      ref_texel(&r, c[4 * i], c[4 * i + 1], 0, want);
      for (int j = 0; j < 4; j++) bad += out[8 * i + j] != (float)(_Float16)want[j] || out[8 * i + 4 + j] != want[j];
    }
    CHECK(clReleaseKernel(k));
    cl_mem wi = clCreateImage2D(ctx, 0, &r.fmt, 4, 3, 0, NULL, &err);
    CHECK(err);
    k = clCreateKernel(p, "wh", &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof wi, &wi));
    CHECK(clSetKernelArg(k, 1, sizeof cb, &cb));
    CHECK(clSetKernelArg(k, 2, sizeof vb, &vb));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL));
    size_t org[3] = {0, 0, 0}, rg[3] = {4, 3, 1};
    CHECK(clEnqueueReadImage(q, wi, CL_TRUE, org, rg, 0, 0, got, 0, NULL, NULL));
    for (int i = 0; i < 4 * N; i++) bad += got[i] != (float)(_Float16)v[i];
    if (bad) {
      fprintf(stderr, "read_imageh/write_imageh/noinline%s: %d wrong\n", o0 ? " at -cl-opt-disable" : "", bad);
      cy_failures++;
    }
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(p));
    cl_mem l[] = {img, cb, vb, ob, wi};
    for (int i = 0; i < 5; i++) CHECK(clReleaseMemObject(l[i]));
  }
  free(data);
  /* separate compilation: a helper taking an image in one unit, its caller in another */
  const char *unit_a = "float4 pick(read_only image2d_t im, sampler_t s, int2 c) { return read_imagef(im, s, c) * 2.0f; }\n";
  const char *unit_b = "float4 pick(read_only image2d_t im, sampler_t s, int2 c);\n"
                       "kernel void k(read_only image2d_t im, sampler_t s, global float4 *o) { o[0] = pick(im, s, (int2)(1, 1)); }\n";
  cl_program ua = clCreateProgramWithSource(ctx, 1, &unit_a, NULL, &err), ub;
  CHECK(err);
  ub = clCreateProgramWithSource(ctx, 1, &unit_b, NULL, &err);
  CHECK(err);
  CHECK(clCompileProgram(ua, 1, &dev, "", 0, NULL, NULL, NULL, NULL));
  CHECK(clCompileProgram(ub, 1, &dev, "", 0, NULL, NULL, NULL, NULL));
  cl_program units[2] = {ua, ub};
  cl_program linked = clLinkProgram(ctx, 1, &dev, "", 2, units, NULL, NULL, &err);
  CHECK(err);
  {
    float px[4 * 4] = {0}, got[4];
    for (int i = 0; i < 16; i++) px[i] = (float)i;
    cl_image_format f = {CL_RGBA, CL_FLOAT};
    cl_mem im = clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &f, 2, 2, 0, px, &err);
    CHECK(err);
    cl_mem ob = buffer(16, NULL);
    cl_sampler s2 = sampler(&rs);
    cl_kernel k = clCreateKernel(linked, "k", &err);
    CHECK(err);
    CHECK(clSetKernelArg(k, 0, sizeof im, &im));
    CHECK(clSetKernelArg(k, 1, sizeof s2, &s2));
    CHECK(clSetKernelArg(k, 2, sizeof ob, &ob));
    CHECK(clEnqueueTask(q, k, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(q, ob, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
    EXPECT(got[0] == 24 && got[1] == 26 && got[2] == 28 && got[3] == 30); /* texel (1, 1) doubled */
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseSampler(s2));
    CHECK(clReleaseMemObject(im));
    CHECK(clReleaseMemObject(ob));
  }
  CHECK(clReleaseProgram(linked));
  CHECK(clReleaseProgram(ua));
  CHECK(clReleaseProgram(ub));
  CHECK(clReleaseSampler(smp));
  const char *ext = "float4 ext(read_only image2d_t im);\n"
                    "kernel void k(read_only image2d_t im, global float4 *o) { o[0] = ext(im); }\n";
  cl_program p = clCreateProgramWithSource(ctx, 1, &ext, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clBuildProgram(p, 1, &dev, "", NULL, NULL), CL_BUILD_PROGRAM_FAILURE);
  char log[2048] = "";
  CHECK(clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL));
  EXPECT(strstr(log, "<program source>:2: error: an image or sampler passed to ext: images and samplers may only be "
                     "passed to the program's own functions and the image builtins"));
  CHECK(clReleaseProgram(p));
}

int main(void) {
  if (!cy_test_cc_setup(CL_DEVICE_COMPILER_AVAILABLE, &dev, &ctx, &q)) return 0;
  cl_int err;
  prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &err);
  CHECK(err);
  if (clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS) {
    char log[8192] = "";
    clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log);
    return 1;
  }
  test_queries();
  test_args();
  test_int_coords();
  test_array_int_coords();
  test_int_reads();
  test_constant_sampler();
  test_writes();
  test_writes_other_types();
  test_program_forms();
  test_sampling();
  CHECK(clReleaseProgram(prog));
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_image_kernels");
}
