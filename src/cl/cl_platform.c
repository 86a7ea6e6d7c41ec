/* The platform and its one device: identity, and every clGetPlatformInfo /
 * clGetDeviceInfo answer, taken from the device configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

/* The extensions OpenCL 1.2 requires of every device (spec table 4.3),
 * all backed by the hardware: 32-bit AMOs on global and local memory, and
 * byte/half stores; the 64-bit atomics, which the compiler builds from
 * 32-bit AMOs and a lock table (docs/compiler.md, "64-bit atomics");
 * cl_khr_fp64, IEEE double in software (docs/compiler.md, "double"); and
 * cl_khr_fp16, half computed in float and rounded once (docs/compiler.md,
 * "half"); cl_khr_3d_image_writes, which the software images
 * (src/cc/lib/images.cl) do like any other write. */
static const char *const cy_device_extensions[] = {
    "cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
    "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
    "cl_khr_byte_addressable_store", "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics", "cl_khr_fp64",
    "cl_khr_fp16", "cl_khr_3d_image_writes"};
enum { CY_NEXT = sizeof cy_device_extensions / sizeof *cy_device_extensions };

#define CY_CL_VERSION "0.1"
/* FULL with the compiler: OpenCL C whole (64-bit integers, double, half,
 * images) and the full profile's minimums (image sizes, 1 MiB of printf
 * buffer, float subnormals and the full ULP bounds). A build without the
 * compiler has no CL_DEVICE_COMPILER_AVAILABLE, which only an embedded
 * device may lack. */
#ifdef VT_HAVE_CC
#define CY_PROFILE "FULL_PROFILE"
#else
#define CY_PROFILE "EMBEDDED_PROFILE"
#endif


typedef struct {
  struct _cl_platform_id plat;
  struct _cl_device_id dev;
  pthread_once_t once;
} cy_world;

/* The process-wide handles (the ICD loader keeps them for the whole
 * process); written once under pthread_once, read only afterwards. */
static cy_world world = {.plat = {&cy_cl_dispatch, CY_MAGIC_PLATFORM},
                         .dev = {.dispatch = &cy_cl_dispatch, .magic = CY_MAGIC_DEVICE},
                         .once = PTHREAD_ONCE_INIT};

static void world_init(void) {
  cl_device_id d = &world.dev;
  vt_config_defaults(&d->cfg);
  /* the watchdog: a kernel that never ends stops at this many
   * warp-instructions per launch (CL_OUT_OF_RESOURCES on its event, the
   * message naming kernel, work-group, warp and pc), as under ventus run
   * but with a larger budget; CHENGYING_CONFIG's max_steps changes it
   * (0 = no limit) */
  d->cfg.max_steps = CY_DEFAULT_MAX_STEPS;
  const char *path = getenv("CHENGYING_CONFIG");
  vt_error e;
  if ((path && *path && vt_config_load(&d->cfg, path, &e)) || vt_config_check(&d->cfg, &e)) {
    char msg[400];
    vt_err_format(&e, msg, sizeof msg);
    snprintf(d->why, sizeof d->why, "CHENGYING_CONFIG: %s", msg);
    fprintf(stderr, "chengying-opencl: %s (no device)\n", d->why);
    return;
  }
  d->usable = 1;
}

cl_platform_id cy_platform(void) {
  pthread_once(&world.once, world_init);
  return &world.plat;
}

cl_device_id cy_device(void) {
  pthread_once(&world.once, world_init);
  return &world.dev;
}

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id *platforms, cl_uint *num_platforms) {
  if ((!num_entries && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  if (platforms) platforms[0] = cy_platform();
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void *param_value,
                                     size_t *param_value_size_ret) {
  if (platform != cy_platform()) return CL_INVALID_PLATFORM;
  const char *s;
  switch (param_name) {
  case CL_PLATFORM_PROFILE: s = CY_PROFILE; break;
  case CL_PLATFORM_VERSION: s = "OpenCL 1.2 chengying " CY_CL_VERSION; break;
  case CL_PLATFORM_NAME: s = "chengying"; break;
  case CL_PLATFORM_VENDOR: s = "chengying project"; break;
  case CL_PLATFORM_EXTENSIONS: s = "cl_khr_icd"; break;
  case CL_PLATFORM_ICD_SUFFIX_KHR: s = "CY"; break;
  case CL_PLATFORM_HOST_TIMER_RESOLUTION: CY_INFO(cl_ulong, 0);
  case CL_PLATFORM_NUMERIC_VERSION: CY_INFO(cl_version, CL_MAKE_VERSION(1, 2, 0));
  case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
    cl_name_version v = {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"};
    CY_INFO(cl_name_version, v);
  }
  default: return CL_INVALID_VALUE;
  }
  return cy_info_str(param_value_size, param_value, param_value_size_ret, s);
}

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                  cl_device_id *devices, cl_uint *num_devices) {
  if (platform && platform != cy_platform()) return CL_INVALID_PLATFORM;
  const cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                               CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (device_type != CL_DEVICE_TYPE_ALL && (!device_type || (device_type & ~known)))
    return CL_INVALID_DEVICE_TYPE;
  if ((!num_entries && devices) || (!devices && !num_devices)) return CL_INVALID_VALUE;
  cl_device_id d = cy_device();
  int match = d->usable && (device_type & (CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_DEFAULT));
  if (num_devices) *num_devices = match ? 1 : 0;
  if (!match) return CL_DEVICE_NOT_FOUND;
  if (devices) devices[0] = d;
  return CL_SUCCESS;
}

/* The one device is a root device: retain/release succeed and do nothing. */
cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return cy_is_device(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return cy_is_device(device) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property *properties,
                                      cl_uint num_devices, cl_device_id *out_devices, cl_uint *num_devices_ret) {
  (void)properties, (void)num_devices, (void)out_devices, (void)num_devices_ret;
  /* CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported */
  return cy_is_device(in_device) ? CL_INVALID_VALUE : CL_INVALID_DEVICE;
}

/* work-group limits shared with the launcher */
size_t cy_max_wg(const vt_config *c) { return (size_t)c->warps_per_sm * c->max_threads; }

/* __local bytes a work-group of the largest size can use: the SM's local
 * memory (or the window, if smaller) minus start.S's warp stacks */
cl_ulong cy_local_mem(const vt_config *c) {
  uint64_t lds = c->lds_bytes_per_sm < c->lds_window ? c->lds_bytes_per_sm : c->lds_window;
  uint64_t stacks = (uint64_t)c->warps_per_sm * CY_WARP_STACK;
  return lds > stacks ? lds - stacks : 0;
}

#define CY_GLOBAL_MEM (1ull << 30)
#define CY_MAX_ALLOC (256ull << 20)

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                   void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_device(device)) return CL_INVALID_DEVICE;
  const vt_config *c = &device->cfg;
  size_t wg = cy_max_wg(c);
  const char *s = NULL;
  switch (param_name) {
  case CL_DEVICE_TYPE: CY_INFO(cl_device_type, CL_DEVICE_TYPE_GPU);
  case CL_DEVICE_VENDOR_ID: CY_INFO(cl_uint, 0);
  case CL_DEVICE_MAX_COMPUTE_UNITS: CY_INFO(cl_uint, c->num_sm);
  case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: CY_INFO(cl_uint, 3);
  case CL_DEVICE_MAX_WORK_GROUP_SIZE: CY_INFO(size_t, wg);
  case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
    size_t v[3] = {wg, wg, wg};
    return cy_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
  }
  /* one 32-bit element per lane: scalars are the natural width */
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
  case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
  case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: CY_INFO(cl_uint, 1);
  case CL_DEVICE_MAX_CLOCK_FREQUENCY: CY_INFO(cl_uint, 0); /* a functional simulator has no clock */
  case CL_DEVICE_ADDRESS_BITS: CY_INFO(cl_uint, 32);
  case CL_DEVICE_MAX_MEM_ALLOC_SIZE: CY_INFO(cl_ulong, CY_MAX_ALLOC);
  /* images in software (cl_image.c, src/cc/lib/images.cl) at OpenCL 1.2's
   * minimum limits for a device with images (table 4.3) */
  case CL_DEVICE_IMAGE_SUPPORT: CY_INFO(cl_bool, CL_TRUE);
  case CL_DEVICE_MAX_READ_IMAGE_ARGS: CY_INFO(cl_uint, 128);
  case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: CY_INFO(cl_uint, 8);
  case CL_DEVICE_MAX_SAMPLERS: CY_INFO(cl_uint, 16);
  case CL_DEVICE_IMAGE2D_MAX_WIDTH:
  case CL_DEVICE_IMAGE2D_MAX_HEIGHT: CY_INFO(size_t, 8192);
  case CL_DEVICE_IMAGE3D_MAX_WIDTH:
  case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
  case CL_DEVICE_IMAGE3D_MAX_DEPTH:
  case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: CY_INFO(size_t, 2048);
  case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: CY_INFO(size_t, 65536);
  case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
  case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
  case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: CY_INFO(cl_uint, 0);
  case CL_DEVICE_MAX_PARAMETER_SIZE: CY_INFO(size_t, CY_MAX_PARAM_BYTES);
  case CL_DEVICE_MEM_BASE_ADDR_ALIGN: CY_INFO(cl_uint, 1024); /* bits: 128 bytes */
  case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: CY_INFO(cl_uint, 128);
  /* RISC-V F: IEEE 754 binary32 with subnormals, every rounding mode, fused
   * multiply-add and correctly rounded fdiv/fsqrt */
  case CL_DEVICE_SINGLE_FP_CONFIG:
    CY_INFO(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                     CL_FP_ROUND_TO_INF | CL_FP_FMA | CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT);
  /* the software double (src/cc/lib/softfp64.cl): binary64 with subnormals,
   * a fused fma; arithmetic rounds to nearest even (OpenCL C 1.2 has no
   * other mode for it), conversions in every mode */
  case CL_DEVICE_DOUBLE_FP_CONFIG:
    CY_INFO(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                     CL_FP_ROUND_TO_INF | CL_FP_FMA);
  /* half in float, rounded once to nearest even: subnormals, INF/NaN, a
   * correctly rounded fma (cc_lower_f16.c) */
  case CL_DEVICE_HALF_FP_CONFIG:
    CY_INFO(cl_device_fp_config, CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA);
  case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: CY_INFO(cl_device_mem_cache_type, CL_NONE);
  case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: CY_INFO(cl_uint, 0);
  case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: CY_INFO(cl_ulong, 0);
  case CL_DEVICE_GLOBAL_MEM_SIZE: CY_INFO(cl_ulong, CY_GLOBAL_MEM);
  case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: CY_INFO(cl_ulong, 64 << 10);
  case CL_DEVICE_MAX_CONSTANT_ARGS: CY_INFO(cl_uint, 8);
  case CL_DEVICE_LOCAL_MEM_TYPE: CY_INFO(cl_device_local_mem_type, CL_LOCAL);
  case CL_DEVICE_LOCAL_MEM_SIZE: CY_INFO(cl_ulong, cy_local_mem(c));
  case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
  case CL_DEVICE_HOST_UNIFIED_MEMORY: CY_INFO(cl_bool, CL_FALSE);
  case CL_DEVICE_COMPILER_AVAILABLE: /* clCompileProgram/clLinkProgram come with the compiler */
#ifdef VT_HAVE_CC
  case CL_DEVICE_LINKER_AVAILABLE: CY_INFO(cl_bool, CL_TRUE);
#else
  case CL_DEVICE_LINKER_AVAILABLE: CY_INFO(cl_bool, CL_FALSE);
#endif
  case CL_DEVICE_ENDIAN_LITTLE:
  case CL_DEVICE_AVAILABLE:
  case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: CY_INFO(cl_bool, CL_TRUE);
  case CL_DEVICE_PROFILING_TIMER_RESOLUTION: CY_INFO(size_t, 1);
  case CL_DEVICE_EXECUTION_CAPABILITIES: CY_INFO(cl_device_exec_capabilities, CL_EXEC_KERNEL);
  case CL_DEVICE_QUEUE_PROPERTIES: /* = CL_DEVICE_QUEUE_ON_HOST_PROPERTIES */
    CY_INFO(cl_command_queue_properties, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  case CL_DEVICE_PLATFORM: CY_INFO(cl_platform_id, cy_platform());
  case CL_DEVICE_PARENT_DEVICE: CY_INFO(cl_device_id, NULL);
  case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: CY_INFO(cl_device_affinity_domain, 0);
  case CL_DEVICE_PARTITION_PROPERTIES: CY_INFO(cl_device_partition_property, 0);
  case CL_DEVICE_PARTITION_TYPE: return cy_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  case CL_DEVICE_REFERENCE_COUNT: CY_INFO(cl_uint, 1);
  case CL_DEVICE_PRINTF_BUFFER_SIZE: CY_INFO(size_t, CY_PRINT_SIZE);
  /* OpenCL 2.x/3.0 queries, answered as the 1.2 device this is */
  case CL_DEVICE_NUMERIC_VERSION: CY_INFO(cl_version, CL_MAKE_VERSION(1, 2, 0));
  case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
    cl_name_version v[3] = {{CL_MAKE_VERSION(1, 0, 0), "OpenCL C"},
                            {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"},
                            {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"}};
    return cy_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
  }
  case CL_DEVICE_EXTENSIONS_WITH_VERSION: {
    cl_name_version v[CY_NEXT];
    for (int i = 0; i < CY_NEXT; i++) {
      v[i].version = CL_MAKE_VERSION(1, 0, 0);
      snprintf(v[i].name, sizeof v[i].name, "%s", cy_device_extensions[i]);
    }
    return cy_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
  }
  case CL_DEVICE_ILS_WITH_VERSION:
  case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION:
  case CL_DEVICE_OPENCL_C_FEATURES: return cy_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: CY_INFO(cl_command_queue_properties, 0);
  case CL_DEVICE_SVM_CAPABILITIES: CY_INFO(cl_device_svm_capabilities, 0);
  case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
  case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: CY_INFO(cl_device_atomic_capabilities, 0);
  case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: CY_INFO(cl_device_device_enqueue_capabilities, 0);
  case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
  case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
  case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
  case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
  case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
  case CL_DEVICE_MAX_PIPE_ARGS:
  case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
  case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
  case CL_DEVICE_MAX_NUM_SUB_GROUPS:
  case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
  case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: CY_INFO(cl_uint, 0);
  case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
  case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE: CY_INFO(size_t, 0);
  case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: CY_INFO(size_t, c->max_threads);
  case CL_DEVICE_PIPE_SUPPORT:
  case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT:
  case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
  case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
  case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: CY_INFO(cl_bool, CL_FALSE);
  case CL_DEVICE_IL_VERSION:
  case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: s = ""; break; /* no IL; not conformance tested */
  case CL_DEVICE_NAME: s = "Ventus GPGPU (chengying simulator)"; break;
  case CL_DEVICE_VENDOR: s = "chengying project"; break;
  case CL_DRIVER_VERSION: s = CY_CL_VERSION; break;
  case CL_DEVICE_PROFILE: s = CY_PROFILE; break;
  case CL_DEVICE_VERSION: s = "OpenCL 1.2 chengying " CY_CL_VERSION; break;
#ifdef VT_HAVE_CC
  case CL_DEVICE_OPENCL_C_VERSION: s = "OpenCL C 1.2 chengying " CY_CL_VERSION; break;
#else
  case CL_DEVICE_OPENCL_C_VERSION: s = "OpenCL C 1.2 (no compiler in this build: programs are Ventus ELF binaries)"; break;
#endif
  case CL_DEVICE_EXTENSIONS: {
    char list[512] = "";
    for (int i = 0; i < CY_NEXT; i++) {
      if (i) strcat(list, " ");
      strcat(list, cy_device_extensions[i]);
    }
    return cy_info_str(param_value_size, param_value, param_value_size_ret, list);
  }
  case CL_DEVICE_BUILT_IN_KERNELS: s = ""; break;
  default: return CL_INVALID_VALUE;
  }
  return cy_info_str(param_value_size, param_value, param_value_size_ret, s);
}
