/* Sampler objects: what a sampler_t kernel argument gets is its CLK_*
 * encoding (OpenCL C's constants, the bits src/cc/lib/images.cl decodes),
 * the same a constant sampler in the source compiles to. */
#include <stdlib.h>

#include "cl_api.h"

/* the CLK_* bits of OpenCL C (clang's opencl-c-base.h) */
enum { CLK_NORM = 1, CLK_NEAREST = 0x10, CLK_LINEAR = 0x20 };

static void sampler_free(cl_sampler s) {
  cl_context ctx = s->ctx;
  s->magic = 0;
  cy_handle_drop(CY_HANDLE_SAMPLER, s);
  cy_context_unref(ctx);
}

cl_sampler CL_API_CALL clCreateSampler(cl_context ctx, cl_bool norm, cl_addressing_mode addr, cl_filter_mode filter,
                                       cl_int *errcode_ret) {
  cl_int err = CL_SUCCESS;
  cl_sampler s = NULL;
  /* CLK_ADDRESS_NONE 0, CLAMP_TO_EDGE 2, CLAMP 4, REPEAT 6, MIRRORED_REPEAT 8 */
  uint32_t abits = addr >= CL_ADDRESS_NONE && addr <= CL_ADDRESS_MIRRORED_REPEAT ? 2u * (addr - CL_ADDRESS_NONE) : 99;
  if (!cy_is_context(ctx))
    err = CL_INVALID_CONTEXT;
  /* the repeat modes need normalised coordinates (OpenCL 1.2 §5.5.1) */
  else if ((norm != CL_TRUE && norm != CL_FALSE) || abits == 99 ||
           (filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR) ||
           (!norm && (addr == CL_ADDRESS_REPEAT || addr == CL_ADDRESS_MIRRORED_REPEAT)))
    err = CL_INVALID_VALUE;
  else if (!(s = cy_handle_new(CY_HANDLE_SAMPLER)))
    err = CL_OUT_OF_HOST_MEMORY;
  else {
    s->dispatch = &cy_cl_dispatch;
    s->magic = CY_MAGIC_SAMPLER;
    cy_ref_init(&s->ref);
    s->ctx = ctx;
    s->norm = norm, s->addr = addr, s->filter = filter;
    s->bits = (norm ? CLK_NORM : 0) | abits | (filter == CL_FILTER_LINEAR ? CLK_LINEAR : CLK_NEAREST);
    cy_inner_retain(&ctx->ref);
  }
  if (errcode_ret) *errcode_ret = err;
  return s;
}

cl_int CL_API_CALL clRetainSampler(cl_sampler s) {
  if (!cy_is_sampler(s)) return CL_INVALID_SAMPLER;
  cy_ref_retain(&s->ref);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler s) {
  if (!cy_is_sampler(s)) return CL_INVALID_SAMPLER;
  if (cy_ref_release(&s->ref)) sampler_free(s); /* kernel arguments copied its bits */
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler s, cl_sampler_info param_name, size_t param_value_size,
                                    void *param_value, size_t *param_value_size_ret) {
  if (!cy_is_sampler(s)) return CL_INVALID_SAMPLER;
  switch (param_name) {
  case CL_SAMPLER_REFERENCE_COUNT: CY_INFO(cl_uint, atomic_load(&s->ref.refs));
  case CL_SAMPLER_CONTEXT: CY_INFO(cl_context, s->ctx);
  case CL_SAMPLER_NORMALIZED_COORDS: CY_INFO(cl_bool, s->norm);
  case CL_SAMPLER_ADDRESSING_MODE: CY_INFO(cl_addressing_mode, s->addr);
  case CL_SAMPLER_FILTER_MODE: CY_INFO(cl_filter_mode, s->filter);
  case CL_SAMPLER_PROPERTIES: return cy_info(param_value_size, param_value, param_value_size_ret, NULL, 0);
  default: return CL_INVALID_VALUE;
  }
}
