/* Kernel objects: creation by symbol, arguments (validated against the
 * argument metadata when the binary has it, else classified by the cl_mem
 * heuristic of docs/opencl.md), and the kernel queries. */
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

/* A buffer argument does not hold its cl_mem (OpenCL 1.2's clSetKernelArg
 * retains nothing: the CTS waits for a released argument's destructor
 * callback); an enqueued launch holds its buffers until it has run, and a
 * buffer released before the enqueue is refused there. Handle slots stay
 * ours (cl_handles.c), so the stale pointer is safe to check. */
static void kernel_free(cl_kernel k) {
  cl_program p = k->prog;
  free(k->args);
  k->magic = 0;
  cy_handle_drop(CY_HANDLE_KERNEL, k);
  atomic_fetch_sub(&p->kernels, 1);
  cy_program_unref(p);
}

static cl_kernel kernel_new(cl_program p, const cy_kernel_info *info) {
  cl_kernel k = cy_handle_new(CY_HANDLE_KERNEL);
  if (!k) return NULL;
  k->nargs = info->has_args ? info->nargs : 0;
  if (k->nargs && !(k->args = calloc(k->nargs, sizeof *k->args))) {
    cy_handle_drop(CY_HANDLE_KERNEL, k);
    return NULL;
  }
  k->dispatch = &cy_cl_dispatch;
  k->magic = CY_MAGIC_KERNEL;
  cy_ref_init(&k->ref);
  k->prog = p;
  k->info = *info;
  cy_inner_retain(&p->ref);
  atomic_fetch_add(&p->kernels, 1);
  return k;
}

cl_kernel CL_API_CALL clCreateKernel(cl_program p, const char *name, cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = NULL;
  cy_kernel_info info;
  if (!cy_is_program(p))
    err = CL_INVALID_PROGRAM;
  else if (!p->built)
    err = CL_INVALID_PROGRAM_EXECUTABLE;
  else if (!name)
    err = CL_INVALID_VALUE;
  else if (cy_program_find_kernel(p, name, &info))
    err = CL_INVALID_KERNEL_NAME;
  else if (!(k = kernel_new(p, &info)))
    err = CL_OUT_OF_HOST_MEMORY;
  if (errcode_ret) *errcode_ret = err;
  return k;
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program p, cl_uint num_kernels, cl_kernel *kernels,
                                            cl_uint *num_kernels_ret) {
  if (!cy_is_program(p)) return CL_INVALID_PROGRAM;
  if (!p->built) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (kernels && num_kernels < p->nkinfo) return CL_INVALID_VALUE;
  for (size_t i = 0; kernels && i < p->nkinfo; i++)
    if (!(kernels[i] = kernel_new(p, &p->kinfo[i]))) {
      while (i-- > 0) clReleaseKernel(kernels[i]);
      return CL_OUT_OF_HOST_MEMORY;
    }
  if (num_kernels_ret) *num_kernels_ret = (cl_uint)p->nkinfo;
  return CL_SUCCESS;
}

cl_int CL_API_CALL clRetainKernel(cl_kernel k) {
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  cy_ref_retain(&k->ref);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel k) {
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  if (cy_ref_release(&k->ref)) kernel_free(k); /* commands copy what they need */
  return CL_SUCCESS;
}

/* metadata present: the declared kind decides */
static cl_int set_declared(cl_kernel k, const cy_arg_meta *m, cy_arg *a, size_t size, const void *value) {
  cl_context ctx = k->prog->ctx;
  switch (m->aq) {
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    if (value) return CL_INVALID_ARG_VALUE;
    if (!size || size > UINT32_MAX) return CL_INVALID_ARG_SIZE;
    a->kind = CY_ARG_LOCAL;
    a->size = (uint32_t)size;
    return CL_SUCCESS;
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
  case CL_KERNEL_ARG_ADDRESS_CONSTANT: {
    if (size != sizeof(cl_mem)) return CL_INVALID_ARG_SIZE;
    cl_mem mem = value ? *(const cl_mem *)value : NULL;
    if (mem && !cy_ctx_has_mem(ctx, mem)) return CL_INVALID_MEM_OBJECT;
    cl_mem_object_type it = cy_image_type_of(m->type);
    /* an image argument takes an image (never NULL) of its type, a buffer argument no image */
    if (it ? !mem || !mem->img : mem && mem->img) return CL_INVALID_MEM_OBJECT;
    if (it && (mem->img->type != it || (m->acc == CL_KERNEL_ARG_ACCESS_READ_ONLY && (mem->flags & CL_MEM_WRITE_ONLY)) ||
               (m->acc == CL_KERNEL_ARG_ACCESS_WRITE_ONLY && (mem->flags & CL_MEM_READ_ONLY))))
      return CL_INVALID_ARG_VALUE;
    a->kind = CY_ARG_MEM;
    a->mem = mem;
    return CL_SUCCESS;
  }
  default:
    if (!strcmp(m->type, "sampler_t")) { /* the kernel gets the sampler's CLK_* bits */
      if (size != sizeof(cl_sampler)) return CL_INVALID_ARG_SIZE;
      cl_sampler smp = value ? *(const cl_sampler *)value : NULL;
      if (!cy_is_sampler(smp) || smp->ctx != ctx) return CL_INVALID_SAMPLER;
      a->kind = CY_ARG_VALUE;
      a->size = 4;
      memcpy(a->val, &smp->bits, 4);
      return CL_SUCCESS;
    }
    if (size != m->size) return CL_INVALID_ARG_SIZE;
    if (!value) return CL_INVALID_ARG_VALUE;
    a->kind = CY_ARG_VALUE;
    a->size = (uint32_t)size;
    memcpy(a->val, value, size);
    return CL_SUCCESS;
  }
}

/* no metadata: NULL value = __local; a live cl_mem of the context (or a
 * NULL cl_mem) = buffer; anything else = by value */
static cl_int set_guessed(cl_kernel k, cy_arg *a, size_t size, const void *value) {
  if (!size || size > UINT32_MAX) return CL_INVALID_ARG_SIZE;
  if (!value) {
    a->kind = CY_ARG_LOCAL;
    a->size = (uint32_t)size;
    return CL_SUCCESS;
  }
  if (size == sizeof(cl_mem)) {
    cl_mem mem;
    memcpy(&mem, value, sizeof mem);
    if (!mem || cy_ctx_has_mem(k->prog->ctx, mem)) {
      a->kind = CY_ARG_MEM;
      a->mem = mem;
      return CL_SUCCESS;
    }
  }
  if (size > sizeof a->val) return CL_INVALID_ARG_SIZE; /* by value: at most a 128-byte vector */
  a->kind = CY_ARG_VALUE;
  a->size = (uint32_t)size;
  memcpy(a->val, value, size);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel k, cl_uint idx, size_t size, const void *value) {
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  cl_context ctx = k->prog->ctx;
  cy_ctx_enter(ctx);
  cl_int rc;
  cy_arg a = {0};
  if (k->info.has_args) {
    rc = idx >= k->info.nargs ? CL_INVALID_ARG_INDEX : set_declared(k, &k->info.args[idx], &a, size, value);
  } else if (idx >= CY_MAX_KERNEL_ARGS) {
    rc = CL_INVALID_ARG_INDEX;
  } else {
    rc = set_guessed(k, &a, size, value);
    if (!rc && idx >= k->nargs) {
      cy_arg *p = realloc(k->args, (idx + 1) * sizeof *p);
      if (!p)
        rc = CL_OUT_OF_HOST_MEMORY;
      else {
        memset(p + k->nargs, 0, (idx + 1 - k->nargs) * sizeof *p);
        k->args = p;
        k->nargs = idx + 1;
      }
    }
  }
  if (!rc) k->args[idx] = a;
  cy_ctx_leave(ctx);
  return rc;
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel k, cl_kernel_info param_name, size_t param_value_size,
                                   void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  switch (param_name) {
  case CL_KERNEL_FUNCTION_NAME: return cy_info_str(param_value_size, param_value, param_value_size_ret, k->info.name);
  case CL_KERNEL_NUM_ARGS: CY_INFO(cl_uint, k->nargs);
  case CL_KERNEL_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&k->ref.refs));
  case CL_KERNEL_CONTEXT: CY_INFO(cl_context, k->prog->ctx);
  case CL_KERNEL_PROGRAM: CY_INFO(cl_program, k->prog);
  case CL_KERNEL_ATTRIBUTES: return cy_info_str(param_value_size, param_value, param_value_size_ret, k->info.attrs);
  default: return CL_INVALID_VALUE;
  }
}

/* __local bytes of a launch: static (resource section) + the __local arguments */
cl_ulong cy_kernel_local_bytes(cl_kernel k) {
  uint64_t n = k->info.lds_static;
  for (uint32_t i = 0; i < k->nargs; i++)
    if (k->args[i].kind == CY_ARG_LOCAL) n = ((n + CY_LOCAL_ALIGN - 1) & ~(uint64_t)(CY_LOCAL_ALIGN - 1)) + k->args[i].size;
  return n;
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel k, cl_device_id dev, cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void *param_value,
                                            size_t *param_value_size_ret) {
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  if (dev && !cy_is_device(dev)) return CL_INVALID_DEVICE;
  const vt_config *c = &cy_device()->cfg;
  switch (param_name) {
  case CL_KERNEL_WORK_GROUP_SIZE: {
    /* the most warps whose stacks still leave room for the kernel's __local data */
    uint64_t cap = c->lds_bytes_per_sm < c->lds_window ? c->lds_bytes_per_sm : c->lds_window;
    uint64_t local = cy_kernel_local_bytes(k), warps = c->warps_per_sm;
    while (warps && warps * CY_WARP_STACK + local > cap) warps--;
    CY_INFO(size_t, (size_t)(warps ? warps : 1) * c->max_threads);
  }
  case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: { /* reqd_work_group_size, or 0, 0, 0 */
    size_t v[3] = {k->info.reqd[0], k->info.reqd[1], k->info.reqd[2]};
    return cy_info(param_value_size, param_value, param_value_size_ret, v, sizeof v);
  }
  case CL_KERNEL_LOCAL_MEM_SIZE: CY_INFO(cl_ulong, cy_kernel_local_bytes(k));
  case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: CY_INFO(size_t, c->max_threads);
  case CL_KERNEL_PRIVATE_MEM_SIZE: CY_INFO(cl_ulong, k->info.pds);
  default: return CL_INVALID_VALUE; /* CL_KERNEL_GLOBAL_WORK_SIZE: not a custom device */
  }
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel k, cl_uint idx, cl_kernel_arg_info param_name,
                                      size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  /* OpenCL 1.2 §5.7.3: from source only with -cl-kernel-arg-info; a
   * binary's argument metadata is always there and is given */
  if (!k->info.has_args || !k->prog->arg_info) return CL_KERNEL_ARG_INFO_NOT_AVAILABLE;
  if (idx >= k->info.nargs) return CL_INVALID_ARG_INDEX;
  const cy_arg_meta *m = &k->info.args[idx];
  switch (param_name) {
  case CL_KERNEL_ARG_ADDRESS_QUALIFIER: CY_INFO(cl_kernel_arg_address_qualifier, m->aq);
  case CL_KERNEL_ARG_ACCESS_QUALIFIER: CY_INFO(cl_kernel_arg_access_qualifier, m->acc);
  case CL_KERNEL_ARG_TYPE_QUALIFIER: CY_INFO(cl_kernel_arg_type_qualifier, m->tq);
  case CL_KERNEL_ARG_TYPE_NAME: return cy_info_str(param_value_size, param_value, param_value_size_ret, m->type);
  case CL_KERNEL_ARG_NAME: return cy_info_str(param_value_size, param_value, param_value_size_ret, m->name);
  default: return CL_INVALID_VALUE;
  }
}
