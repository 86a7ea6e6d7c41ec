/* Images from the host side (no compiler needed): the device's image
 * limits, the supported formats, creation of every image type with its
 * errors, clGetImageInfo and clGetMemObjectInfo, host reads and writes
 * with pitches and regions, samplers, and buffer commands refusing images
 * (image commands refusing buffers), image copies (to images and
 * buffers and back), fill and map. Kernels on images:
 * test_cl_image_kernels. */
#include "cl_test.h"
#include "image_ref.h"

static cl_context ctx;
static cl_device_id dev;
static cl_command_queue q;

static void test_device(void) {
  cl_bool b = CL_FALSE;
  cl_uint u;
  size_t s;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL));
  EXPECT(b == CL_TRUE);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_READ_IMAGE_ARGS, sizeof u, &u, NULL));
  EXPECT(u == 128);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_WRITE_IMAGE_ARGS, sizeof u, &u, NULL));
  EXPECT(u == 8);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_SAMPLERS, sizeof u, &u, NULL));
  EXPECT(u == 16);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof s, &s, NULL));
  EXPECT(s == 8192);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE2D_MAX_HEIGHT, sizeof s, &s, NULL));
  EXPECT(s == 8192);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE3D_MAX_DEPTH, sizeof s, &s, NULL));
  EXPECT(s == 2048);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof s, &s, NULL));
  EXPECT(s == 65536);
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof s, &s, NULL));
  EXPECT(s == 2048);
}

static int has_format(const cl_image_format *l, cl_uint n, cl_channel_order o, cl_channel_type t) {
  for (cl_uint i = 0; i < n; i++)
    if (l[i].image_channel_order == o && l[i].image_channel_data_type == t) return 1;
  return 0;
}

/* OpenCL 1.2 table 5.8: the minimum list, for every image type */
static void test_formats(void) {
  static const cl_mem_object_type types[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                             CL_MEM_OBJECT_IMAGE1D_ARRAY, CL_MEM_OBJECT_IMAGE2D,
                                             CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D};
  static const cl_channel_type rgba[] = {CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SIGNED_INT8,    CL_SIGNED_INT16,
                                         CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
                                         CL_HALF_FLOAT,   CL_FLOAT};
  for (size_t t = 0; t < 6; t++) {
    cl_uint n = 0;
    CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, types[t], 0, NULL, &n));
    cl_image_format *l = calloc(n, sizeof *l);
    cl_uint n2 = 0;
    CHECK(clGetSupportedImageFormats(ctx, CL_MEM_READ_ONLY, types[t], n, l, &n2));
    EXPECT(n2 == n && n >= 11);
    for (size_t i = 0; i < sizeof rgba / sizeof *rgba; i++) EXPECT(has_format(l, n, CL_RGBA, rgba[i]));
    EXPECT(has_format(l, n, CL_BGRA, CL_UNORM_INT8));
    EXPECT(has_format(l, n, CL_R, CL_FLOAT) && has_format(l, n, CL_RG, CL_SNORM_INT16) &&
           has_format(l, n, CL_A, CL_UNORM_INT8) && has_format(l, n, CL_RA, CL_HALF_FLOAT));
    EXPECT(!has_format(l, n, CL_BGRA, CL_FLOAT) && !has_format(l, n, CL_RGB, CL_UNORM_SHORT_565));
    free(l);
  }
  EXPECT_ERR(clGetSupportedImageFormats(ctx, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clGetSupportedImageFormats(NULL, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0, NULL, NULL), CL_INVALID_CONTEXT);
}

static cl_mem make(const cl_image_format *f, const cl_image_desc *d, cl_mem_flags flags, void *host, cl_int *err) {
  return clCreateImage(ctx, flags, f, d, host, err);
}

static void test_create_errors(void) {
  cl_int err;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D, .image_width = 4, .image_height = 4};
  uint8_t host[4096];
  cl_image_format bad = {0x1234, CL_UNORM_INT8}, rgb = {CL_RGB, CL_UNORM_INT8}, bgraf = {CL_BGRA, CL_FLOAT};
  EXPECT(!make(&bad, &d, 0, NULL, &err) && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT(!make(NULL, &d, 0, NULL, &err) && err == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
  EXPECT(!make(&rgb, &d, 0, NULL, &err) && err == CL_IMAGE_FORMAT_NOT_SUPPORTED);
  EXPECT(!make(&bgraf, &d, 0, NULL, &err) && err == CL_IMAGE_FORMAT_NOT_SUPPORTED);
  EXPECT(!make(&f, NULL, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  cl_image_desc x = d;
  x.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT(!make(&f, &x, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.num_mip_levels = 1;
  EXPECT(!make(&f, &x, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_height = 0;
  EXPECT(!make(&f, &x, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_width = 8193;
  EXPECT(!make(&f, &x, 0, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  x = d, x.image_row_pitch = 16; /* a pitch without a host pointer */
  EXPECT(!make(&f, &x, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_row_pitch = 12; /* less than a row */
  EXPECT(!make(&f, &x, CL_MEM_COPY_HOST_PTR, host, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_row_pitch = 18; /* not a multiple of the texel */
  EXPECT(!make(&f, &x, CL_MEM_COPY_HOST_PTR, host, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  x = d, x.image_row_pitch = SIZE_MAX / 2 & ~(size_t)3; /* a span that wraps around */
  EXPECT(!make(&f, &x, CL_MEM_COPY_HOST_PTR, host, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  EXPECT(!make(&f, &d, CL_MEM_COPY_HOST_PTR, NULL, &err) && err == CL_INVALID_HOST_PTR);
  EXPECT(!make(&f, &d, 0, host, &err) && err == CL_INVALID_HOST_PTR);
  EXPECT(!make(&f, &d, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, NULL, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateImage(NULL, 0, &f, &d, NULL, &err) && err == CL_INVALID_CONTEXT);
  cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 4, .image_depth = 2049};
  EXPECT(!make(&f, &d3, 0, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  EXPECT(!clCreateImage3D(ctx, 0, &f, 4, 4, 1, 0, 0, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  /* 1D buffer images: a buffer, big enough, and nothing of their own */
  cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_ONLY, 64, NULL, &err);
  CHECK(err);
  cl_image_desc db = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = 16, .buffer = buf};
  cl_mem ib = make(&f, &db, 0, NULL, &err);
  CHECK(err);
  cl_mem m;
  CHECK(clGetImageInfo(ib, CL_IMAGE_BUFFER, sizeof m, &m, NULL));
  EXPECT(m == buf);
  CHECK(clGetMemObjectInfo(ib, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof m, &m, NULL));
  EXPECT(m == buf);
  cl_image_desc e = db;
  e.image_width = 17;
  EXPECT(!make(&f, &e, 0, NULL, &err) && err == CL_INVALID_IMAGE_SIZE);
  e = db, e.buffer = NULL;
  EXPECT(!make(&f, &e, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  e = db, e.buffer = ib; /* an image is no buffer */
  EXPECT(!make(&f, &e, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  EXPECT(!make(&f, &db, CL_MEM_WRITE_ONLY, NULL, &err) && err == CL_INVALID_VALUE); /* wider than the buffer's access */
  EXPECT(!make(&f, &db, 0, host, &err) && err == CL_INVALID_HOST_PTR);
  x = d, x.buffer = buf; /* a buffer for a 2D image */
  EXPECT(!make(&f, &x, 0, NULL, &err) && err == CL_INVALID_IMAGE_DESCRIPTOR);
  CHECK(clReleaseMemObject(buf)); /* the image holds it */
  uint8_t px[64];
  size_t o[3] = {0, 0, 0}, r[3] = {16, 1, 1};
  memset(px, 7, sizeof px);
  CHECK(clEnqueueWriteImage(q, ib, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
  memset(px, 0, sizeof px);
  CHECK(clEnqueueReadImage(q, ib, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
  EXPECT(px[0] == 7 && px[63] == 7);
  CHECK(clReleaseMemObject(ib));
}

/* creation with host pitches, every type's info, reads and writes of regions */
static void test_info_and_host_io(void) {
  static const struct {
    cl_mem_object_type t;
    size_t w, h, d, arr;
  } cases[] = {{CL_MEM_OBJECT_IMAGE1D, 7, 1, 1, 1},       {CL_MEM_OBJECT_IMAGE1D_ARRAY, 5, 1, 1, 3},
               {CL_MEM_OBJECT_IMAGE2D, 5, 4, 1, 1},       {CL_MEM_OBJECT_IMAGE2D_ARRAY, 3, 4, 1, 2},
               {CL_MEM_OBJECT_IMAGE3D, 4, 3, 2, 1}};
  cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT16}; /* 8-byte texels */
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    cl_mem_object_type t = cases[c].t;
    int arr1 = t == CL_MEM_OBJECT_IMAGE1D_ARRAY, sliced = t == CL_MEM_OBJECT_IMAGE3D || t == CL_MEM_OBJECT_IMAGE2D_ARRAY || arr1;
    size_t w = cases[c].w, rows = arr1 ? 1 : cases[c].h, slices = t == CL_MEM_OBJECT_IMAGE3D ? cases[c].d : cases[c].arr;
    size_t hrow = w * 8 + 16, hslice = sliced ? hrow * (rows + 1) : 0; /* a multiple of the row pitch */
    size_t hbytes = (sliced ? hslice * slices : hrow * rows);
    uint8_t *host = malloc(hbytes), *tight = malloc(w * rows * slices * 8), *back = malloc(hbytes);
    for (size_t i = 0; i < hbytes; i++) host[i] = (uint8_t)(i * 7 + c);
    for (size_t z = 0; z < slices; z++)
      for (size_t y = 0; y < rows; y++)
        memcpy(tight + ((z * rows + y) * w) * 8, host + z * hslice + y * hrow, w * 8);
    cl_image_desc d = {.image_type = t, .image_width = w, .image_row_pitch = hrow, .image_slice_pitch = hslice};
    if (!arr1 && t != CL_MEM_OBJECT_IMAGE1D) d.image_height = cases[c].h;
    if (t == CL_MEM_OBJECT_IMAGE3D) d.image_depth = cases[c].d;
    if (t == CL_MEM_OBJECT_IMAGE1D_ARRAY || t == CL_MEM_OBJECT_IMAGE2D_ARRAY) d.image_array_size = cases[c].arr;
    if (t == CL_MEM_OBJECT_IMAGE1D) d.image_slice_pitch = 0;
    cl_int err;
    cl_mem im = make(&f, &d, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, host, &err);
    CHECK(err);
    /* info */
    cl_image_format gf;
    size_t v;
    cl_mem_object_type mt;
    CHECK(clGetImageInfo(im, CL_IMAGE_FORMAT, sizeof gf, &gf, NULL));
    EXPECT(gf.image_channel_order == CL_RGBA && gf.image_channel_data_type == CL_UNSIGNED_INT16);
    CHECK(clGetImageInfo(im, CL_IMAGE_ELEMENT_SIZE, sizeof v, &v, NULL));
    EXPECT(v == 8);
    CHECK(clGetImageInfo(im, CL_IMAGE_ROW_PITCH, sizeof v, &v, NULL));
    EXPECT(v == w * 8);
    CHECK(clGetImageInfo(im, CL_IMAGE_SLICE_PITCH, sizeof v, &v, NULL));
    EXPECT(v == (sliced ? w * 8 * rows : 0));
    CHECK(clGetImageInfo(im, CL_IMAGE_WIDTH, sizeof v, &v, NULL));
    EXPECT(v == w);
    CHECK(clGetImageInfo(im, CL_IMAGE_HEIGHT, sizeof v, &v, NULL));
    EXPECT(v == (arr1 || t == CL_MEM_OBJECT_IMAGE1D ? 0 : cases[c].h));
    CHECK(clGetImageInfo(im, CL_IMAGE_DEPTH, sizeof v, &v, NULL));
    EXPECT(v == (t == CL_MEM_OBJECT_IMAGE3D ? cases[c].d : 0));
    CHECK(clGetImageInfo(im, CL_IMAGE_ARRAY_SIZE, sizeof v, &v, NULL));
    EXPECT(v == (arr1 || t == CL_MEM_OBJECT_IMAGE2D_ARRAY ? cases[c].arr : 0));
    EXPECT_ERR(clGetImageInfo(im, 0x7fff, sizeof v, &v, NULL), CL_INVALID_VALUE);
    CHECK(clGetMemObjectInfo(im, CL_MEM_TYPE, sizeof mt, &mt, NULL));
    EXPECT(mt == t);
    CHECK(clGetMemObjectInfo(im, CL_MEM_SIZE, sizeof v, &v, NULL));
    EXPECT(v == w * rows * slices * 8);
    /* the whole image back, packed */
    size_t o[3] = {0, 0, 0}, r[3] = {w, arr1 ? slices : rows, arr1 ? 1 : (sliced ? slices : 1)};
    memset(back, 0, hbytes);
    CHECK(clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL));
    EXPECT(!memcmp(back, tight, w * rows * slices * 8));
    /* a region of one texel in from each side, written with pitches and read back with others */
    size_t ro[3] = {1, 0, 0}, rr[3] = {w - 2, 1, 1};
    if (!arr1 && rows > 2) ro[1] = 1, rr[1] = rows - 2;
    if (arr1) ro[1] = 1, rr[1] = slices - 1;
    if (!arr1 && sliced) ro[2] = 1, rr[2] = slices - 1;
    size_t prow = rr[0] * 8 + 8, pslice = sliced ? prow * rr[1] + 8 : 0;
    size_t pbytes = (sliced ? pslice * (arr1 ? rr[1] : rr[2]) : prow * rr[1]) + 64;
    uint8_t *patch = malloc(pbytes), *got = calloc(1, pbytes);
    for (size_t i = 0; i < pbytes; i++) patch[i] = (uint8_t)(200 - i);
    EXPECT_ERR(clEnqueueWriteImage(q, im, CL_TRUE, ro, rr, prow, arr1 ? prow : pslice, patch, 0, NULL, NULL),
               CL_SUCCESS);
    CHECK(clEnqueueReadImage(q, im, CL_TRUE, ro, rr, prow, arr1 ? prow : pslice, got, 0, NULL, NULL));
    size_t nz = arr1 ? rr[1] : rr[2], ny = arr1 ? 1 : rr[1], ps = arr1 ? prow : pslice;
    int bad = 0;
    for (size_t z = 0; z < nz; z++)
      for (size_t y = 0; y < ny; y++) bad += memcmp(got + z * ps + y * prow, patch + z * ps + y * prow, rr[0] * 8) != 0;
    EXPECT(!bad);
    /* outside the region nothing changed */
    CHECK(clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 0, back, 0, NULL, NULL));
    EXPECT(!memcmp(back, tight, 8)); /* texel (0, 0, 0) */
    EXPECT(!memcmp(back + w * rows * slices * 8 - 8, tight + w * rows * slices * 8 - 8, 8));
    /* regions outside, or naming dimensions the type lacks */
    size_t big[3] = {w + 1, r[1], r[2]};
    EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, big, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    size_t zero[3] = {0, 1, 1};
    EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, zero, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    if (!sliced) {
      size_t z1[3] = {1, 1, 2};
      EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, z1, 0, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
      EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 64, back, 0, NULL, NULL), CL_INVALID_VALUE);
    }
    EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, r, 8, 0, back, 0, NULL, NULL), CL_INVALID_VALUE); /* pitch < row */
    /* a pitch whose span wraps around (a 1D image has one row: any pitch) */
    if (t != CL_MEM_OBJECT_IMAGE1D)
      EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, r, SIZE_MAX / 2, 0, back, 0, NULL, NULL), CL_INVALID_VALUE);
    EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 0, NULL, 0, NULL, NULL), CL_INVALID_VALUE);
    free(patch);
    free(got);
    free(host);
    free(tight);
    free(back);
    CHECK(clReleaseMemObject(im));
  }
}

static void test_host_access_and_kinds(void) {
  cl_int err;
  cl_image_format f = {CL_R, CL_FLOAT};
  cl_mem im = clCreateImage2D(ctx, CL_MEM_HOST_NO_ACCESS, &f, 4, 4, 0, NULL, &err);
  CHECK(err);
  cl_mem wo = clCreateImage2D(ctx, CL_MEM_HOST_WRITE_ONLY, &f, 4, 4, 0, NULL, &err);
  CHECK(err);
  float px[16] = {0};
  size_t o[3] = {0, 0, 0}, r[3] = {4, 4, 1};
  EXPECT_ERR(clEnqueueReadImage(q, im, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
  EXPECT_ERR(clEnqueueWriteImage(q, im, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
  EXPECT_ERR(clEnqueueReadImage(q, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_OPERATION);
  CHECK(clEnqueueWriteImage(q, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL));
  /* buffer commands on an image, image commands on a buffer */
  cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clEnqueueReadBuffer(q, wo, CL_TRUE, 0, 4, px, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clEnqueueCopyBuffer(q, buf, wo, 0, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clEnqueueFillBuffer(q, wo, px, 4, 0, 4, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  cl_buffer_region reg = {0, 4};
  EXPECT(!clCreateSubBuffer(wo, 0, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err) && err == CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clEnqueueReadImage(q, buf, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  size_t v;
  EXPECT_ERR(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clEnqueueReadImage(NULL, wo, CL_TRUE, o, r, 0, 0, px, 0, NULL, NULL), CL_INVALID_COMMAND_QUEUE);
  CHECK(clReleaseMemObject(buf));
  CHECK(clReleaseMemObject(im));
  CHECK(clReleaseMemObject(wo));
  EXPECT_ERR(clGetImageInfo(wo, CL_IMAGE_WIDTH, sizeof v, &v, NULL), CL_INVALID_MEM_OBJECT); /* released */
}

static void test_samplers(void) {
  cl_int err;
  cl_sampler s = clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR, &err);
  CHECK(err);
  cl_bool norm;
  cl_addressing_mode am;
  cl_filter_mode fm;
  cl_uint refs;
  cl_context c;
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_NORMALIZED_COORDS, sizeof norm, &norm, NULL));
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_ADDRESSING_MODE, sizeof am, &am, NULL));
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL));
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_CONTEXT, sizeof c, &c, NULL));
  EXPECT(norm == CL_TRUE && am == CL_ADDRESS_MIRRORED_REPEAT && fm == CL_FILTER_LINEAR && c == ctx);
  CHECK(clRetainSampler(s));
  CHECK(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  EXPECT(refs == 2);
  EXPECT_ERR(clGetSamplerInfo(s, 0x7fff, sizeof refs, &refs, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clGetSamplerInfo(s, CL_SAMPLER_FILTER_MODE, 1, &fm, NULL), CL_INVALID_VALUE);
  CHECK(clReleaseSampler(s));
  CHECK(clReleaseSampler(s));
  EXPECT_ERR(clReleaseSampler(s), CL_INVALID_SAMPLER);
  EXPECT_ERR(clRetainSampler(NULL), CL_INVALID_SAMPLER);
  EXPECT_ERR(clGetSamplerInfo((cl_sampler)ctx, CL_SAMPLER_FILTER_MODE, sizeof fm, &fm, NULL), CL_INVALID_SAMPLER);
  EXPECT(!clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateSampler(ctx, CL_FALSE, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_NEAREST, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateSampler(ctx, CL_TRUE, 0x1200, CL_FILTER_NEAREST, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateSampler(ctx, CL_TRUE, CL_ADDRESS_CLAMP, 0x1200, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateSampler(NULL, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err) && err == CL_INVALID_CONTEXT);
  /* every valid combination */
  for (int n = 0; n < 2; n++)
    for (cl_addressing_mode a = CL_ADDRESS_NONE; a <= CL_ADDRESS_MIRRORED_REPEAT; a++)
      for (cl_filter_mode f = CL_FILTER_NEAREST; f <= CL_FILTER_LINEAR; f++) {
        s = clCreateSampler(ctx, (cl_bool)n, a, f, &err);
        EXPECT((err == CL_SUCCESS) == (n || a < CL_ADDRESS_REPEAT));
        if (s) CHECK(clReleaseSampler(s));
      }
}

/* image to image copies (across types of the same format), overlap and format errors */
static void test_copies(void) {
  cl_int err;
  cl_image_format f = {CL_RGBA, CL_UNORM_INT8}, g = {CL_RGBA, CL_SIGNED_INT8};
  enum { W = 6, H = 5 };
  uint32_t a[W * H], b[W * H], got[W * H];
  for (int i = 0; i < W * H; i++) a[i] = 0x01020304u * (uint32_t)(i + 1), b[i] = 0xdeadbeef;
  cl_mem ia = clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &f, W, H, 0, a, &err);
  CHECK(err);
  cl_mem ib = clCreateImage2D(ctx, CL_MEM_COPY_HOST_PTR, &f, W, H, 0, b, &err);
  CHECK(err);
  size_t so[3] = {1, 2, 0}, dor[3] = {3, 0, 0}, r[3] = {3, 3, 1}, o0[3] = {0, 0, 0}, all[3] = {W, H, 1};
  CHECK(clEnqueueCopyImage(q, ia, ib, so, dor, r, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, ib, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
  int bad = 0;
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) {
      int in = x >= 3 && x < 6 && y < 3;
      bad += got[y * W + x] != (in ? a[(y + 2) * W + (x - 3 + 1)] : b[y * W + x]);
    }
  EXPECT(!bad);
  /* into a slice of a 3D image and out of it into a 2D array's layer */
  cl_image_desc d3 = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = W, .image_height = H, .image_depth = 3};
  cl_image_desc d2a = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = W, .image_height = H, .image_array_size = 2};
  cl_mem i3 = clCreateImage(ctx, 0, &f, &d3, NULL, &err);
  CHECK(err);
  cl_mem i2a = clCreateImage(ctx, 0, &f, &d2a, NULL, &err);
  CHECK(err);
  size_t z2[3] = {0, 0, 2}, l1[3] = {0, 0, 1};
  CHECK(clEnqueueCopyImage(q, ia, i3, o0, z2, all, 0, NULL, NULL));
  CHECK(clEnqueueCopyImage(q, i3, i2a, z2, l1, all, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, i2a, CL_TRUE, l1, all, 0, 0, got, 0, NULL, NULL));
  EXPECT(!memcmp(got, a, sizeof a));
  /* a 1D array's layers into a 2D image's rows */
  cl_image_desc d1a = {.image_type = CL_MEM_OBJECT_IMAGE1D_ARRAY, .image_width = W, .image_array_size = H};
  cl_mem i1a = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d1a, a, &err);
  CHECK(err);
  CHECK(clEnqueueCopyImage(q, i1a, ib, o0, o0, all, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, ib, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
  EXPECT(!memcmp(got, a, sizeof a));
  /* errors */
  cl_mem ig = clCreateImage2D(ctx, 0, &g, W, H, 0, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clEnqueueCopyImage(q, ia, ig, o0, o0, all, 0, NULL, NULL), CL_IMAGE_FORMAT_MISMATCH);
  size_t o1[3] = {1, 1, 0}, r2[3] = {2, 2, 1};
  EXPECT_ERR(clEnqueueCopyImage(q, ia, ia, o0, o1, r2, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  size_t far[3] = {W - 1, 0, 0};
  EXPECT_ERR(clEnqueueCopyImage(q, ia, ib, o0, far, r2, 0, NULL, NULL), CL_INVALID_VALUE);
  size_t r3[3] = {1, 1, 2};
  EXPECT_ERR(clEnqueueCopyImage(q, ia, i3, o0, o0, r3, 0, NULL, NULL), CL_INVALID_VALUE); /* depth 2 of a 2D image */
  cl_mem buf = clCreateBuffer(ctx, 0, 64, NULL, &err);
  CHECK(err);
  EXPECT_ERR(clEnqueueCopyImage(q, ia, buf, o0, o0, r2, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(buf));
  cl_mem list[] = {ia, ib, i3, i2a, i1a, ig};
  for (size_t i = 0; i < 6; i++) CHECK(clReleaseMemObject(list[i]));
}

/* image <-> buffer: the buffer holds the region packed */
static void test_buffer_copies(void) {
  cl_int err;
  cl_image_format f = {CL_RG, CL_UNSIGNED_INT16};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE3D, .image_width = 4, .image_height = 3, .image_depth = 2};
  uint32_t px[24], got[24], packed[8];
  for (int i = 0; i < 24; i++) px[i] = 0x10001u * (uint32_t)i;
  cl_mem im = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
  CHECK(err);
  cl_mem buf = clCreateBuffer(ctx, 0, 256, NULL, &err);
  CHECK(err);
  size_t o[3] = {1, 1, 0}, r[3] = {2, 2, 2}, o0[3] = {0, 0, 0}, all[3] = {4, 3, 2};
  CHECK(clEnqueueCopyImageToBuffer(q, im, buf, o, r, 16, 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 16, sizeof packed, packed, 0, NULL, NULL));
  int bad = 0;
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 2; y++)
      for (int x = 0; x < 2; x++) bad += packed[(z * 2 + y) * 2 + x] != px[z * 12 + (y + 1) * 4 + x + 1];
  EXPECT(!bad);
  /* and back into another place */
  size_t o2[3] = {2, 0, 0};
  CHECK(clEnqueueCopyBufferToImage(q, buf, im, 16, o2, r, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, im, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
  bad = 0;
  for (int z = 0; z < 2; z++)
    for (int y = 0; y < 3; y++)
      for (int x = 0; x < 4; x++) {
        int in = x >= 2 && y < 2;
        uint32_t want = in ? packed[(z * 2 + y) * 2 + x - 2] : px[z * 12 + y * 4 + x];
        bad += got[z * 12 + y * 4 + x] != want;
      }
  EXPECT(!bad);
  EXPECT_ERR(clEnqueueCopyImageToBuffer(q, im, buf, o, r, 256 - 16, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueCopyBufferToImage(q, buf, im, 0, o, all, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueCopyImageToBuffer(q, im, im, o, r, 0, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  EXPECT_ERR(clEnqueueCopyBufferToImage(q, buf, buf, 0, o, r, 0, NULL, NULL), CL_INVALID_MEM_OBJECT);
  CHECK(clReleaseMemObject(im));
  CHECK(clReleaseMemObject(buf));
}

/* fill: the colour converted as write_image* would (image_ref.h's encoder) */
static void test_fill(void) {
  static const cl_image_format fmts[] = {{CL_RGBA, CL_UNORM_INT8},  {CL_BGRA, CL_UNORM_INT8}, {CL_RGBA, CL_HALF_FLOAT},
                                         {CL_RA, CL_SNORM_INT16},   {CL_A, CL_UNORM_INT16},   {CL_R, CL_FLOAT},
                                         {CL_ARGB, CL_SNORM_INT8},  {CL_RG, CL_HALF_FLOAT},
                                         {CL_INTENSITY, CL_FLOAT},  {CL_LUMINANCE, CL_UNORM_INT8}};
  static const float colours[][4] = {{0.5f, 1.5f / 255, 2.5f / 255, -0.25f},
                                     {1.0f / 3, 70000.0f, 65519.0f, 1e-7f},
                                     {NAN, -1.0f, 0.99999f, 3e-5f}};
  cl_int err;
  for (size_t t = 0; t < sizeof fmts / sizeof *fmts; t++)
    for (size_t c = 0; c < 3; c++) {
      cl_mem im = clCreateImage2D(ctx, 0, &fmts[t], 5, 4, 0, NULL, &err);
      CHECK(err);
      size_t es = ref_esize(&fmts[t]), tb = ref_type_bytes(fmts[t].image_channel_data_type);
      uint8_t zero[5 * 4 * 16] = {0}, got[5 * 4 * 16], want[16] = {0};
      size_t o0[3] = {0, 0, 0}, all[3] = {5, 4, 1}, o[3] = {1, 1, 0}, r[3] = {3, 2, 1};
      CHECK(clEnqueueWriteImage(q, im, CL_TRUE, o0, all, 0, 0, zero, 0, NULL, NULL));
      CHECK(clEnqueueFillImage(q, im, colours[c], o, r, 0, NULL, NULL));
      CHECK(clEnqueueReadImage(q, im, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
      int m[4];
      ref_map(fmts[t].image_channel_order, m);
      for (int j = 3; j >= 0; j--) /* a channel several components read (INTENSITY, LUMINANCE) is filled from red */
        if (m[j] >= 0) ref_encode(colours[c][j], fmts[t].image_channel_data_type, want + (size_t)m[j] * tb);
      int bad = 0;
      for (size_t y = 0; y < 4; y++)
        for (size_t x = 0; x < 5; x++) {
          int in = x >= 1 && x < 4 && y >= 1 && y < 3;
          bad += memcmp(got + (y * 5 + x) * es, in ? want : zero, es) != 0;
        }
      if (bad) {
        fprintf(stderr, "fill order 0x%x type 0x%x colour %zu: %d texels wrong\n", (unsigned)fmts[t].image_channel_order,
                (unsigned)fmts[t].image_channel_data_type, c, bad);
        cy_failures++;
      }
      CHECK(clReleaseMemObject(im));
    }
  /* integer colours saturate */
  cl_image_format fi = {CL_RGBA, CL_SIGNED_INT8}, fu = {CL_RGBA, CL_UNSIGNED_INT16};
  cl_int4 ic = {{-300, 300, -5, 127}};
  cl_uint4 uc = {{70000, 65535, 7, 0}};
  cl_mem a = clCreateImage2D(ctx, 0, &fi, 2, 2, 0, NULL, &err);
  CHECK(err);
  cl_mem b = clCreateImage2D(ctx, 0, &fu, 2, 2, 0, NULL, &err);
  CHECK(err);
  size_t o0[3] = {0, 0, 0}, all[3] = {2, 2, 1};
  CHECK(clEnqueueFillImage(q, a, &ic, o0, all, 0, NULL, NULL));
  CHECK(clEnqueueFillImage(q, b, &uc, o0, all, 0, NULL, NULL));
  int8_t ga[16];
  uint16_t gb[16];
  CHECK(clEnqueueReadImage(q, a, CL_TRUE, o0, all, 0, 0, ga, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, b, CL_TRUE, o0, all, 0, 0, gb, 0, NULL, NULL));
  EXPECT(ga[12] == -128 && ga[13] == 127 && ga[14] == -5 && ga[15] == 127);
  EXPECT(gb[12] == 65535 && gb[13] == 65535 && gb[14] == 7 && gb[15] == 0);
  size_t big[3] = {3, 2, 1};
  EXPECT_ERR(clEnqueueFillImage(q, a, &ic, o0, big, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueFillImage(q, a, NULL, o0, all, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(a));
  CHECK(clReleaseMemObject(b));
}

/* map and unmap: packed host copies, and a CL_MEM_USE_HOST_PTR image's own memory */
static void test_map(void) {
  cl_int err;
  cl_image_format f = {CL_RGBA, CL_UNSIGNED_INT8};
  cl_image_desc d = {.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY, .image_width = 4, .image_height = 3, .image_array_size = 2};
  uint32_t px[24], got[24];
  for (int i = 0; i < 24; i++) px[i] = 0x01010101u * (uint32_t)i;
  cl_mem im = clCreateImage(ctx, CL_MEM_COPY_HOST_PTR, &f, &d, px, &err);
  CHECK(err);
  size_t o[3] = {1, 1, 1}, r[3] = {2, 2, 1}, row = 0, slice = 0, o0[3] = {0, 0, 0}, all[3] = {4, 3, 2};
  uint32_t *p = clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, o, r, &row, &slice, 0, NULL, NULL, &err);
  CHECK(err);
  EXPECT(row == 8 && slice == 16);
  EXPECT(p[0] == px[12 + 4 + 1] && p[1] == px[12 + 4 + 2] && p[2] == px[12 + 8 + 1] && p[3] == px[12 + 8 + 2]);
  cl_uint count;
  CHECK(clGetMemObjectInfo(im, CL_MEM_MAP_COUNT, sizeof count, &count, NULL));
  EXPECT(count == 1);
  p[0] = 0xaabbccdd;
  p[3] = 0x11223344;
  CHECK(clEnqueueUnmapMemObject(q, im, p, 0, NULL, NULL));
  CHECK(clEnqueueReadImage(q, im, CL_TRUE, o0, all, 0, 0, got, 0, NULL, NULL));
  px[17] = 0xaabbccdd, px[22] = 0x11223344;
  EXPECT(!memcmp(got, px, sizeof px));
  EXPECT_ERR(clEnqueueUnmapMemObject(q, im, p, 0, NULL, NULL), CL_INVALID_VALUE); /* unmapped already */
  clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_READ, o, r, NULL, &slice, 0, NULL, NULL, &err);
  EXPECT(err == CL_INVALID_VALUE);
  clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_READ, o, r, &row, NULL, 0, NULL, NULL, &err);
  EXPECT(err == CL_INVALID_VALUE); /* an array needs the slice pitch */
  clEnqueueMapImage(q, im, CL_TRUE, CL_MAP_READ, o, all, &row, &slice, 0, NULL, NULL, &err);
  EXPECT(err == CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(im));
  /* CL_MEM_USE_HOST_PTR: the pointer is inside the application's memory, with its pitches */
  uint8_t host[3 * 32];
  for (int i = 0; i < (int)sizeof host; i++) host[i] = (uint8_t)i;
  cl_mem u = clCreateImage2D(ctx, CL_MEM_USE_HOST_PTR, &f, 5, 3, 32, host, &err);
  CHECK(err);
  size_t uo[3] = {2, 1, 0}, ur[3] = {3, 2, 1};
  uint8_t *up = clEnqueueMapImage(q, u, CL_TRUE, CL_MAP_WRITE, uo, ur, &row, &slice, 0, NULL, NULL, &err);
  CHECK(err);
  EXPECT(up == host + 32 + 8 && row == 32 && slice == 0);
  up[0] = 0xee;
  up[32 + 11] = 0xff;
  CHECK(clEnqueueUnmapMemObject(q, u, up, 0, NULL, NULL));
  uint8_t back[5 * 3 * 4];
  size_t ua[3] = {5, 3, 1};
  CHECK(clEnqueueReadImage(q, u, CL_TRUE, o0, ua, 0, 0, back, 0, NULL, NULL));
  EXPECT(back[(1 * 5 + 2) * 4] == 0xee && back[(2 * 5 + 4) * 4 + 3] == 0xff && back[0] == 0);
  CHECK(clReleaseMemObject(u));
}

int main(void) {
  cl_int err;
  dev = cy_test_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  test_device();
  test_formats();
  test_create_errors();
  test_info_and_host_io();
  test_host_access_and_kinds();
  test_samplers();
  test_copies();
  test_buffer_copies();
  test_fill();
  test_map();
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_images");
}
