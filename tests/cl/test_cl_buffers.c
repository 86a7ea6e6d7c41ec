/* Buffers: host-pointer flags, read/write/copy and their rect variants,
 * fill, map/unmap, sub-buffers, migrate, destructor callbacks; the expected
 * contents are computed on the host. */
#include "cl_test.h"

#include <stdint.h>

static cl_context ctx;
static cl_command_queue q;

static cl_mem buffer(cl_mem_flags f, size_t size, void *host) {
  cl_int err;
  cl_mem m = clCreateBuffer(ctx, f, size, host, &err);
  CHECK(err);
  return m;
}

static void test_rw_copy_fill(void) {
  enum { N = 256 };
  uint8_t src[N], got[N], want[N];
  for (int i = 0; i < N; i++) src[i] = (uint8_t)(i * 7 + 3);
  cl_mem a = buffer(CL_MEM_COPY_HOST_PTR, N, src), b = buffer(0, N, NULL);
  CHECK(clEnqueueCopyBuffer(q, a, b, 16, 100, 64, 0, NULL, NULL));
  uint16_t pat = 0xbeef;
  CHECK(clEnqueueFillBuffer(q, b, &pat, sizeof pat, 0, 32, 0, NULL, NULL));
  CHECK(clEnqueueWriteBuffer(q, b, CL_FALSE, 200, 4, "wxyz", 0, NULL, NULL));
  CHECK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N, got, 0, NULL, NULL));
  memset(want, 0, N); /* a fresh buffer reads as zero on this device */
  memcpy(want + 100, src + 16, 64);
  for (int i = 0; i < 32; i += 2) want[i] = 0xef, want[i + 1] = 0xbe;
  memcpy(want + 200, "wxyz", 4);
  EXPECT(!memcmp(got, want, N));
  EXPECT_ERR(clEnqueueCopyBuffer(q, a, a, 0, 8, 16, 0, NULL, NULL), CL_MEM_COPY_OVERLAP);
  EXPECT_ERR(clEnqueueFillBuffer(q, b, &pat, 3, 0, 30, 0, NULL, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clEnqueueReadBuffer(q, b, CL_TRUE, N - 4, 8, got, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(a));
  CHECK(clReleaseMemObject(b));
}

static void test_rect(void) {
  /* a 16x8 byte image; copy the 5x3 block at (2,1) to the host at (1,2) of a 10-wide host image */
  uint8_t img[16 * 8], host[10 * 6], want[10 * 6];
  for (int i = 0; i < 16 * 8; i++) img[i] = (uint8_t)i;
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, sizeof img, img);
  size_t bo[3] = {2, 1, 0}, ho[3] = {1, 2, 0}, region[3] = {5, 3, 1};
  memset(host, 0, sizeof host);
  memset(want, 0, sizeof want);
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) want[(2 + y) * 10 + 1 + x] = img[(1 + y) * 16 + 2 + x];
  CHECK(clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, region, 16, 0, 10, 0, host, 0, NULL, NULL));
  EXPECT(!memcmp(host, want, sizeof host));
  /* write it back shifted to (8,4) and read the whole buffer */
  size_t bo2[3] = {8, 4, 0};
  CHECK(clEnqueueWriteBufferRect(q, m, CL_TRUE, bo2, ho, region, 16, 0, 10, 0, host, 0, NULL, NULL));
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 5; x++) img[(4 + y) * 16 + 8 + x] = want[(2 + y) * 10 + 1 + x];
  uint8_t got[16 * 8];
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  EXPECT(!memcmp(got, img, sizeof got));
  /* copy rect inside one buffer, rows 0..1 cols 0..3 -> rows 6..7 cols 12..15 */
  size_t so[3] = {0, 0, 0}, dof[3] = {12, 6, 0}, r2[3] = {4, 2, 1};
  CHECK(clEnqueueCopyBufferRect(q, m, m, so, dof, r2, 16, 0, 16, 0, 0, NULL, NULL));
  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 4; x++) img[(6 + y) * 16 + 12 + x] = img[y * 16 + x];
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL));
  EXPECT(!memcmp(got, img, sizeof got));
  size_t big[3] = {5, 9, 1};
  EXPECT_ERR(clEnqueueReadBufferRect(q, m, CL_TRUE, bo, ho, big, 16, 0, 10, 0, host, 0, NULL, NULL),
             CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(m));
}

static void test_map_use_host_ptr(void) {
  uint32_t host[64];
  for (int i = 0; i < 64; i++) host[i] = (uint32_t)i;
  cl_mem m = buffer(CL_MEM_USE_HOST_PTR, sizeof host, host);
  uint32_t v = 0xabcd;
  CHECK(clEnqueueFillBuffer(q, m, &v, 4, 16, 16, 0, NULL, NULL));
  cl_int err;
  uint32_t *p = clEnqueueMapBuffer(q, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, sizeof host, 0, NULL, NULL, &err);
  CHECK(err);
  EXPECT(p == host); /* USE_HOST_PTR maps the application's memory, brought up to date */
  EXPECT(host[3] == 3 && host[4] == 0xabcd && host[7] == 0xabcd && host[8] == 8);
  cl_uint maps;
  CHECK(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, NULL));
  EXPECT(maps == 1);
  p[0] = 77;
  CHECK(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL));
  uint32_t first;
  CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, 0, 4, &first, 0, NULL, NULL));
  EXPECT(first == 77);
  EXPECT_ERR(clEnqueueUnmapMemObject(q, m, p, 0, NULL, NULL), CL_INVALID_VALUE);
  CHECK(clReleaseMemObject(m));
}

static int destroyed;
static void CL_CALLBACK on_destroy(cl_mem m, void *user) {
  (void)m;
  *(int *)user = ++destroyed;
}

static void test_sub_buffers(void) {
  uint8_t data[512];
  for (int i = 0; i < 512; i++) data[i] = (uint8_t)(255 - i);
  cl_mem m = buffer(CL_MEM_COPY_HOST_PTR, sizeof data, data);
  cl_buffer_region r = {128, 64};
  cl_int err;
  cl_mem s = clCreateSubBuffer(m, CL_MEM_READ_ONLY, CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
  CHECK(err);
  uint8_t got[64];
  CHECK(clEnqueueReadBuffer(q, s, CL_TRUE, 0, 64, got, 0, NULL, NULL));
  EXPECT(!memcmp(got, data + 128, 64));
  size_t off;
  cl_mem parent;
  CHECK(clGetMemObjectInfo(s, CL_MEM_OFFSET, sizeof off, &off, NULL));
  CHECK(clGetMemObjectInfo(s, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL));
  EXPECT(off == 128 && parent == m);
  cl_buffer_region odd = {100, 8}, past = {500, 64};
  EXPECT(!clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &odd, &err) &&
         err == CL_MISALIGNED_SUB_BUFFER_OFFSET);
  EXPECT(!clCreateSubBuffer(m, 0, CL_BUFFER_CREATE_TYPE_REGION, &past, &err) && err == CL_INVALID_VALUE);
  EXPECT(!clCreateSubBuffer(s, 0, CL_BUFFER_CREATE_TYPE_REGION, &r, &err) && err == CL_INVALID_MEM_OBJECT);
  CHECK(clEnqueueMigrateMemObjects(q, 1, &s, CL_MIGRATE_MEM_OBJECT_HOST, 0, NULL, NULL));
  /* the parent outlives the application's reference while the sub-buffer holds it */
  int order_parent = 0, order_sub = 0;
  CHECK(clSetMemObjectDestructorCallback(m, on_destroy, &order_parent));
  CHECK(clSetMemObjectDestructorCallback(s, on_destroy, &order_sub));
  CHECK(clReleaseMemObject(m));
  EXPECT(order_parent == 0);
  CHECK(clReleaseMemObject(s));
  EXPECT(order_sub == 1 && order_parent == 2);
}

int main(void) {
  cl_int err;
  cl_device_id dev = cy_test_device();
  ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  q = clCreateCommandQueue(ctx, dev, 0, &err);
  CHECK(err);
  test_rw_copy_fill();
  test_rect();
  test_map_use_host_ptr();
  test_sub_buffers();
  CHECK(clReleaseCommandQueue(q));
  CHECK(clReleaseContext(ctx));
  return cy_test_end("test_cl_buffers");
}
