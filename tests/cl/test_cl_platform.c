/* The platform through the ICD loader: a dispatch table without a NULL
 * slot, platform/device/context/queue queries with the device
 * configuration's values, and reference counts. */
#define CL_TARGET_OPENCL_VERSION 300 /* the 3.0 queries too */
#include "cl_test.h"

#include <CL/cl_icd.h>

static void test_dispatch(cl_platform_id p) {
  /* every ICD object starts with its dispatch table (the ICD extension) */
  const cl_icd_dispatch *t = *(const cl_icd_dispatch *const *)p;
  void *slots[sizeof *t / sizeof(void *)];
  memcpy(slots, t, sizeof slots);
  size_t null = 0;
  for (size_t i = 0; i < sizeof slots / sizeof *slots; i++)
    if (!slots[i]) {
      fprintf(stderr, "dispatch slot %zu is NULL\n", i);
      null++;
    }
  EXPECT(null == 0);
  EXPECT(sizeof slots / sizeof *slots >= 100); /* at least every OpenCL 1.2 entry */
}

static void test_platform(cl_platform_id p) {
  char s[256];
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_VERSION, sizeof s, s, NULL));
  EXPECT(!strncmp(s, "OpenCL 1.2 ", 11));
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_PROFILE, sizeof s, s, NULL));
  cl_device_id d0;
  cl_bool cc = CL_FALSE;
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d0, NULL));
  CHECK(clGetDeviceInfo(d0, CL_DEVICE_COMPILER_AVAILABLE, sizeof cc, &cc, NULL));
  /* the full profile needs the compiler; without it the device is an embedded one */
  EXPECT(!strcmp(s, cc ? "FULL_PROFILE" : "EMBEDDED_PROFILE"));
  char ds[32];
  CHECK(clGetDeviceInfo(d0, CL_DEVICE_PROFILE, sizeof ds, ds, NULL));
  EXPECT(!strcmp(ds, s));
  size_t pbuf = 0;
  CHECK(clGetDeviceInfo(d0, CL_DEVICE_PRINTF_BUFFER_SIZE, sizeof pbuf, &pbuf, NULL));
  EXPECT(pbuf >= (cc ? 1u << 20 : 1024u));
  size_t n;
  CHECK(clGetPlatformInfo(p, CL_PLATFORM_NAME, 0, NULL, &n));
  EXPECT(n == strlen("chengying") + 1);
  EXPECT_ERR(clGetPlatformInfo(p, CL_PLATFORM_NAME, 3, s, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clGetPlatformInfo(p, 0x7777, sizeof s, s, NULL), CL_INVALID_VALUE);
  cl_device_id d;
  cl_uint nd;
  EXPECT_ERR(clGetDeviceIDs(p, CL_DEVICE_TYPE_CPU, 1, &d, &nd), CL_DEVICE_NOT_FOUND);
  EXPECT(nd == 0);
  EXPECT_ERR(clGetDeviceIDs(p, 0, 1, &d, NULL), CL_INVALID_DEVICE_TYPE);
  EXPECT_ERR(clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 0, &d, NULL), CL_INVALID_VALUE);
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_DEFAULT, 1, &d, &nd));
  EXPECT(nd == 1);
}

static void test_device(cl_device_id d) {
  /* the defaults of docs/simulator.md: 2 SMs, 8 warps of up to 32 threads, 128 KiB local memory */
  cl_uint cu, bits;
  size_t wg, items[3];
  cl_ulong local;
  cl_bool b;
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL));
  EXPECT(cu == 2);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL));
  EXPECT(wg == 8 * 32);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL));
  EXPECT(items[0] == wg && items[2] == wg);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local, &local, NULL));
  EXPECT(local == 128 * 1024 - 8 * 1024);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_ADDRESS_BITS, sizeof bits, &bits, NULL));
  EXPECT(bits == 32);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_IMAGE_SUPPORT, sizeof b, &b, NULL));
  EXPECT(b == CL_TRUE); /* images in software (test_cl_images) */
  CHECK(clGetDeviceInfo(d, CL_DEVICE_COMPILER_AVAILABLE, sizeof b, &b, NULL));
  EXPECT(b == VT_HAVE_CC_BOOL); /* the compiler is there when the build found LLVM 19 */
  /* cl_khr_fp64 (software double) with the configuration OpenCL 1.2 asks of
   * it; cl_khr_fp16 (half in float, rounded once) */
  char ext[512];
  cl_device_fp_config fp;
  CHECK(clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, sizeof ext, ext, NULL));
  EXPECT(strstr(ext, "cl_khr_fp64") != NULL && strstr(ext, "cl_khr_fp16") != NULL);
  EXPECT(strstr(ext, "cl_khr_3d_image_writes") != NULL);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL));
  EXPECT(fp == (CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM));
  CHECK(clGetDeviceInfo(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, sizeof bits, &bits, NULL));
  EXPECT(bits == 1);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_HALF_FP_CONFIG, sizeof fp, &fp, NULL));
  EXPECT(fp == (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA));
  CHECK(clGetDeviceInfo(d, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, sizeof bits, &bits, NULL));
  EXPECT(bits == 1);
  EXPECT_ERR(clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, 2, &cu, NULL), CL_INVALID_VALUE);
  EXPECT_ERR(clGetDeviceInfo(NULL, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL), CL_INVALID_DEVICE);
  /* 2.x/3.0 queries, answered as a 1.2 device */
  cl_version ver;
  cl_device_svm_capabilities svm;
  char conf[8];
  CHECK(clGetDeviceInfo(d, CL_DEVICE_NUMERIC_VERSION, sizeof ver, &ver, NULL));
  EXPECT(CL_VERSION_MAJOR(ver) == 1 && CL_VERSION_MINOR(ver) == 2);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_SVM_CAPABILITIES, sizeof svm, &svm, NULL));
  EXPECT(svm == 0);
  CHECK(clGetDeviceInfo(d, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED, sizeof conf, conf, NULL));
  EXPECT(conf[0] == 0);
  CHECK(clRetainDevice(d));
  CHECK(clReleaseDevice(d));
}

static int notified;
static void CL_CALLBACK on_error(const char *msg, const void *info, size_t cb, void *user) {
  (void)msg, (void)info, (void)cb;
  (*(int *)user)++;
}

static void test_context_queue(cl_platform_id p, cl_device_id d) {
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)p, 0};
  cl_context c = clCreateContext(props, 1, &d, on_error, &notified, &err);
  CHECK(err);
  cl_context_properties got[3];
  size_t n;
  CHECK(clGetContextInfo(c, CL_CONTEXT_PROPERTIES, sizeof got, got, &n));
  EXPECT(n == sizeof props && got[1] == props[1] && got[2] == 0);
  cl_uint refs;
  CHECK(clRetainContext(c));
  CHECK(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, NULL));
  EXPECT(refs == 2);
  CHECK(clReleaseContext(c));
  cl_context_properties bad[] = {0x7777, 1, 0};
  EXPECT(clCreateContext(bad, 1, &d, NULL, NULL, &err) == NULL && err == CL_INVALID_PROPERTY);
  EXPECT(clCreateContext(NULL, 1, &d, NULL, &notified, &err) == NULL && err == CL_INVALID_VALUE);
  cl_context c2 = clCreateContextFromType(NULL, CL_DEVICE_TYPE_GPU, NULL, NULL, &err);
  CHECK(err);
  CHECK(clReleaseContext(c2));

  cl_command_queue q = clCreateCommandQueue(c, d, CL_QUEUE_PROFILING_ENABLE, &err);
  CHECK(err);
  cl_command_queue_properties qp;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof qp, &qp, NULL));
  EXPECT(qp == CL_QUEUE_PROFILING_ENABLE);
  cl_context qc;
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof qc, &qc, NULL));
  EXPECT(qc == c);
  EXPECT(clCreateCommandQueue(c, d, 1u << 20, &err) == NULL && err == CL_INVALID_VALUE);
  /* the 2.0 entry, and the 3.0 query of what it was given */
  cl_queue_properties qprops[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0}, gotp[3];
  cl_command_queue q2 = clCreateCommandQueueWithProperties(c, d, qprops, &err);
  CHECK(err);
  CHECK(clGetCommandQueueInfo(q2, CL_QUEUE_PROPERTIES_ARRAY, sizeof gotp, gotp, &n));
  EXPECT(n == sizeof qprops && gotp[1] == CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE && gotp[2] == 0);
  CHECK(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, NULL, &n));
  EXPECT(n == 0);
  CHECK(clReleaseCommandQueue(q2));
  cl_queue_properties devq[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_ON_DEVICE, 0};
  EXPECT(!clCreateCommandQueueWithProperties(c, d, devq, &err) && err == CL_INVALID_QUEUE_PROPERTIES);
  /* the application's last reference goes, the queue still holds the context */
  CHECK(clReleaseContext(c));
  EXPECT_ERR(clRetainContext(c), CL_INVALID_CONTEXT);
  EXPECT(clCreateBuffer(c, 0, 64, NULL, &err) == NULL && err == CL_INVALID_CONTEXT);
  CHECK(clFinish(q));
  CHECK(clReleaseCommandQueue(q));
}

int main(void) {
  cl_platform_id p = cy_test_platform();
  cl_device_id d = cy_test_device();
  test_dispatch(p);
  test_platform(p);
  test_device(d);
  test_context_queue(p, d);
  return cy_test_end("test_cl_platform");
}
