/* Reference counts and handle validation shared by every object kind. */
#include "cl_api.h"

void cy_ref_init(cy_ref *r) {
  atomic_init(&r->refs, 1);
  atomic_init(&r->inner, 0);
  atomic_init(&r->all, 1);
}

int cy_ref_live(cy_ref *r) { return atomic_load(&r->refs) > 0; }

void cy_inner_retain(cy_ref *r) {
  atomic_fetch_add(&r->all, 1);
  atomic_fetch_add(&r->inner, 1);
}

void cy_ref_retain(cy_ref *r) {
  atomic_fetch_add(&r->all, 1);
  atomic_fetch_add(&r->refs, 1);
}

int cy_ref_release(cy_ref *r) {
  atomic_fetch_sub(&r->refs, 1);
  return atomic_fetch_sub(&r->all, 1) == 1;
}

int cy_inner_release(cy_ref *r) {
  atomic_fetch_sub(&r->inner, 1);
  return atomic_fetch_sub(&r->all, 1) == 1;
}

/* The registry first: x is read only when it is a slot of that kind's pool,
 * whose memory stays ours (cl_handles.c). */
#define CY_IS(fn, T, K, M)                                                                                     \
  int fn(T x) { return cy_handle_ours(K, x) && x->magic == (M) && cy_ref_live(&x->ref); }
CY_IS(cy_is_context, cl_context, CY_HANDLE_CONTEXT, CY_MAGIC_CONTEXT)
CY_IS(cy_is_queue, cl_command_queue, CY_HANDLE_QUEUE, CY_MAGIC_QUEUE)
CY_IS(cy_is_mem, cl_mem, CY_HANDLE_MEM, CY_MAGIC_MEM)
CY_IS(cy_is_program, cl_program, CY_HANDLE_PROGRAM, CY_MAGIC_PROGRAM)
CY_IS(cy_is_kernel, cl_kernel, CY_HANDLE_KERNEL, CY_MAGIC_KERNEL)
CY_IS(cy_is_event, cl_event, CY_HANDLE_EVENT, CY_MAGIC_EVENT)
CY_IS(cy_is_sampler, cl_sampler, CY_HANDLE_SAMPLER, CY_MAGIC_SAMPLER)

int cy_is_device(cl_device_id d) { return d && d == cy_device() && d->usable; }
