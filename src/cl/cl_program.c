/* Programs: Ventus ELF executables (clCreateProgramWithBinary), sources
 * compiled by `ventus cc`'s compiler at clBuildProgram (when the build has
 * it), and the kernel list with argument metadata and resources read from
 * the ELF (cl_kernel_meta.c). */
#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"
#ifdef VT_HAVE_CC
#include "cc_load.h"
#endif

#define CY_CODE_BASE 0x80000000u /* start.S: every warp starts here */

#define CY_NO_COMPILER_LOG                                                                                     \
  "this chengying build has no OpenCL C compiler (LLVM 19 was not found when it was configured): compile the "  \
  "kernel with `ventus cc` or assemble it with `ventus as`, and create the program with "                    \
  "clCreateProgramWithBinary (docs/opencl.md)"

void cy_program_free(cl_program p) {
  cl_context ctx = p->ctx;
  vt_elf_free(&p->elf);
  free(p->source);
  free(p->binary);
  free(p->log);
  free(p->options);
  for (size_t i = 0; i < p->nkinfo; i++) free(p->kinfo[i].args);
  free(p->kinfo);
  p->magic = 0;
  cy_handle_drop(CY_HANDLE_PROGRAM, p);
  cy_context_unref(ctx);
}

void cy_program_unref(cl_program p) {
  if (cy_inner_release(&p->ref)) cy_program_free(p);
}

cl_program cy_program_new(cl_context ctx) {
  cl_program p = cy_handle_new(CY_HANDLE_PROGRAM);
  if (!p) return NULL;
  p->dispatch = &cy_cl_dispatch;
  p->magic = CY_MAGIC_PROGRAM;
  cy_ref_init(&p->ref);
  p->ctx = ctx;
  cy_inner_retain(&ctx->ref);
  p->status = CL_BUILD_NONE;
  p->arg_info = 1;
  return p;
}

cl_program CL_API_CALL clCreateProgramWithSource(cl_context ctx, cl_uint count, const char **strings,
                                                 const size_t *lengths, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_program p = NULL;
  size_t total = 0;
  if (!cy_is_context(ctx)) {
    err = CL_INVALID_CONTEXT;
    goto out;
  }
  if (!count || !strings) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  for (cl_uint i = 0; i < count; i++) {
    if (!strings[i]) {
      err = CL_INVALID_VALUE;
      goto out;
    }
    total += lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
  }
  if (!(p = cy_program_new(ctx)) || !(p->source = malloc(total + 1))) {
    if (p) cy_program_free(p);
    p = NULL;
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  total = 0;
  for (cl_uint i = 0; i < count; i++) {
    size_t n = lengths && lengths[i] ? lengths[i] : strlen(strings[i]);
    memcpy(p->source + total, strings[i], n);
    total += n;
  }
  p->source[total] = 0;
out:
  if (errcode_ret) *errcode_ret = err;
  return p;
}

/* Every PT_LOAD segment inside the code region [0x80000000, 0x90000000):
 * warps start at 0x80000000 and the buffers' heap begins at 0x90000000, so
 * an image elsewhere could not run or would collide with the buffers (and
 * the span a load maps and zero-fills stays bounded). */
static int in_code_region(const vt_elf_file *f) {
  for (size_t i = 0; i < f->nsegs; i++) {
    const vt_elf_segment *s = &f->segs[i];
    if (s->memsz && (s->vaddr < CY_CODE_BASE || (uint64_t)s->vaddr + s->memsz > VT_HEAP_BASE)) return 0;
  }
  return 1;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context ctx, cl_uint num_devices, const cl_device_id *devices,
                                                 const size_t *lengths, const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_program p = NULL;
  if (!cy_is_context(ctx)) {
    err = CL_INVALID_CONTEXT;
    goto out;
  }
  if (!devices || !num_devices || !lengths || !binaries) {
    err = CL_INVALID_VALUE;
    goto out;
  }
  for (cl_uint i = 0; i < num_devices; i++) {
    if (!cy_is_device(devices[i])) {
      err = CL_INVALID_DEVICE;
      goto out;
    }
    if (!lengths[i] || !binaries[i]) {
      if (binary_status) binary_status[i] = CL_INVALID_VALUE;
      err = CL_INVALID_VALUE;
      goto out;
    }
  }
  if (num_devices != 1) { /* the context has one device, listed once at most */
    err = CL_INVALID_DEVICE;
    goto out;
  }
  if (!(p = cy_program_new(ctx)) || !(p->binary = malloc(lengths[0]))) {
    if (p) cy_program_free(p);
    p = NULL;
    err = CL_OUT_OF_HOST_MEMORY;
    goto out;
  }
  memcpy(p->binary, binaries[0], lengths[0]);
  p->binary_size = lengths[0];
  p->btype = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  vt_error e;
  cl_program_binary_type bc = cy_bitcode_type(p->binary, p->binary_size, NULL, NULL);
  if (bc != CL_PROGRAM_BINARY_TYPE_NONE) { /* a compiled object or library (CL_PROGRAM_BINARIES) */
    p->btype = bc;
  } else if (vt_elf_read_mem(p->binary, p->binary_size, &p->elf, &e) || p->elf.type != ET_EXEC || !p->elf.nsegs ||
      !in_code_region(&p->elf)) {
    if (binary_status) binary_status[0] = CL_INVALID_BINARY;
    cy_program_free(p);
    p = NULL;
    err = CL_INVALID_BINARY;
    goto out;
  }
  if (binary_status) binary_status[0] = CL_SUCCESS;
out:
  if (errcode_ret) *errcode_ret = err;
  return p;
}

cl_int CL_API_CALL clRetainProgram(cl_program p) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  cy_ref_retain(&p->ref);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program p) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  if (cy_ref_release(&p->ref)) cy_program_free(p);
  return CL_SUCCESS;
}

static char *dup_str(const char *s) {
  char *d = malloc(strlen(s) + 1);
  if (d) strcpy(d, s);
  return d;
}

int cy_wants_arg_info(const char *options) {
  static const char opt[] = "-cl-kernel-arg-info";
  for (const char *w = options; w && (w = strstr(w, opt)); w += sizeof opt - 1)
    if ((w == options || w[-1] == ' ' || w[-1] == '\t') && (!w[sizeof opt - 1] || strchr(" \t", w[sizeof opt - 1])))
      return 1;
  return 0;
}

char *cy_cc_options(const char *options) {
  const char *rev = cy_device()->cfg.isa == 2025 ? " -ventus-isa=2025" : " -ventus-isa=base";
  size_t n = options ? strlen(options) : 0, r = strlen(rev);
  char *s = malloc(n + r + 1);
  if (!s) return NULL;
  memcpy(s, options ? options : "", n);
  memcpy(s + n, rev, r + 1);
  return s;
}

void cy_program_reset(cl_program p, const char *options) {
  free(p->options);
  free(p->log);
  p->options = dup_str(options ? options : "");
  p->log = NULL;
  p->built = 0;
  vt_elf_free(&p->elf);
  memset(&p->elf, 0, sizeof p->elf);
  free(p->binary);
  p->binary = NULL;
  p->binary_size = 0;
  p->btype = CL_PROGRAM_BINARY_TYPE_NONE;
}

cl_int cy_program_take_image(cl_program p, uint8_t *img, size_t n) {
  vt_error e;
  if (vt_elf_read_mem(img, n, &p->elf, &e)) {
    free(img);
    return CL_BUILD_PROGRAM_FAILURE;
  }
  p->binary = img;
  p->binary_size = n;
  p->btype = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  return cy_program_scan(p);
}

cl_int CL_API_CALL clBuildProgram(cl_program p, cl_uint num_devices, const cl_device_id *devices,
                                  const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                                  void *user_data) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  if ((!devices && num_devices) || (devices && !num_devices) || (!notify && user_data)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; i++)
    if (!cy_is_device(devices[i])) return CL_INVALID_DEVICE;
  if (atomic_load(&p->kernels)) return CL_INVALID_OPERATION;
  if (!p->source && p->btype != CL_PROGRAM_BINARY_TYPE_EXECUTABLE) return cy_build_from_objects(p, options, notify, user_data);
  cy_ctx_enter(p->ctx);
  cl_int rc;
#ifdef VT_HAVE_CC
  if (p->source) { /* compile (or take the cached image); the ELF then goes through the binary path */
    cy_program_reset(p, options);
    vt_error e = {0};
    uint8_t *img = NULL;
    size_t n = 0;
    char *log = NULL;
    int bad = 0;
    if (p->options && !cy_build_cache_get(p->ctx, p->source, p->options, &img, &n, &log)) {
      cc_api cc;
      char *copts = cy_cc_options(options);
      bad = copts ? cc_load(&cc, &e) : vt_fail(&e, VT_ERR_NOMEM, "out of memory");
      if (!bad) bad = cc.build(p->source, copts, &img, &n, &log, &e);
      if (copts) cc_unload(&cc);
      free(copts);
      if (!bad && log) cy_build_cache_put(p->ctx, p->source, p->options, img, n, log);
    }
    if (bad) {
      free(img);
      rc = cy_cc_error(&e);
    } else {
      rc = cy_program_take_image(p, img, n);
    }
    p->arg_info = cy_wants_arg_info(options);
    if (!log && rc != CL_SUCCESS) log = dup_str(e.msg); /* e.g. the compiler module did not load */
    if (!p->log) p->log = log ? log : dup_str("");
    else free(log);
    p->built = rc == CL_SUCCESS;
    p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  } else
#endif
  if (p->source) {
    free(p->options);
    free(p->log);
    p->options = dup_str(options ? options : "");
    p->log = dup_str(CY_NO_COMPILER_LOG);
    p->status = CL_BUILD_ERROR;
    rc = CL_COMPILER_NOT_AVAILABLE;
  } else {
    free(p->options);
    free(p->log);
    p->options = dup_str(options ? options : "");
    p->log = NULL;
    rc = cy_program_scan(p);
    if (!p->log) p->log = dup_str("");
    p->built = rc == CL_SUCCESS;
    p->status = rc == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  }
  cy_ctx_leave(p->ctx);
  if (!p->options || !p->log) rc = CL_OUT_OF_HOST_MEMORY;
  if (notify) notify(p, user_data);
  return rc;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program p, cl_program_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&p->ref.refs));
  case CL_PROGRAM_CONTEXT: CY_INFO(cl_context, p->ctx);
  case CL_PROGRAM_NUM_DEVICES: CY_INFO(cl_uint, 1);
  case CL_PROGRAM_DEVICES: CY_INFO(cl_device_id, cy_device());
  case CL_PROGRAM_SOURCE:
    return cy_info_str(param_value_size, param_value, param_value_size_ret, p->source ? p->source : "");
  case CL_PROGRAM_BINARY_SIZES: CY_INFO(size_t, p->binary_size);
  case CL_PROGRAM_IL: return cy_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: CY_INFO(cl_bool, CL_FALSE);
  case CL_PROGRAM_BINARIES: {
    if (param_value && param_value_size < sizeof(unsigned char *)) return CL_INVALID_VALUE;
    unsigned char *dst = param_value ? *(unsigned char **)param_value : NULL;
    if (dst && p->binary) memcpy(dst, p->binary, p->binary_size); /* NULL entries are skipped */
    if (param_value_size_ret) *param_value_size_ret = sizeof(unsigned char *);
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
    if (!p->built) return CL_INVALID_PROGRAM_EXECUTABLE;
    CY_INFO(size_t, p->nkinfo);
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!p->built) return CL_INVALID_PROGRAM_EXECUTABLE;
    size_t len = 1;
    for (size_t i = 0; i < p->nkinfo; i++) len += strlen(p->kinfo[i].name) + 1;
    char *s = calloc(1, len);
    if (!s) return CL_OUT_OF_HOST_MEMORY;
    for (size_t i = 0; i < p->nkinfo; i++) {
      if (i) strcat(s, ";");
      strcat(s, p->kinfo[i].name);
    }
    cl_int rc = cy_info_str(param_value_size, param_value, param_value_size_ret, s);
    free(s);
    return rc;
  }
  default: return CL_INVALID_VALUE;
  }
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program p, cl_device_id dev, cl_program_build_info param_name,
                                         size_t param_value_size, void *param_value,
                                         size_t *param_value_size_ret) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  if (!cy_is_device(dev)) return CL_INVALID_DEVICE;
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS: CY_INFO(cl_build_status, p->status);
  case CL_PROGRAM_BUILD_OPTIONS:
    return cy_info_str(param_value_size, param_value, param_value_size_ret, p->options ? p->options : "");
  case CL_PROGRAM_BUILD_LOG:
    return cy_info_str(param_value_size, param_value, param_value_size_ret, p->log ? p->log : "");
  case CL_PROGRAM_BINARY_TYPE: CY_INFO(cl_program_binary_type, p->btype);
  default: return CL_INVALID_VALUE;
  }
}
