/* Reference counts and handle validation shared by every object kind. */
#include <pthread.h>
#include <stdlib.h>

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

#define CY_IS(fn, T, M)                                                                                        \
  int fn(T x) { return x && x->magic == (M) && cy_ref_live(&x->ref); }
CY_IS(cy_is_context, cl_context, CY_MAGIC_CONTEXT)
CY_IS(cy_is_queue, cl_command_queue, CY_MAGIC_QUEUE)
CY_IS(cy_is_mem, cl_mem, CY_MAGIC_MEM)
CY_IS(cy_is_program, cl_program, CY_MAGIC_PROGRAM)
CY_IS(cy_is_kernel, cl_kernel, CY_MAGIC_KERNEL)
CY_IS(cy_is_event, cl_event, CY_MAGIC_EVENT)

int cy_is_device(cl_device_id d) { return d && d == cy_device() && d->usable; }

/* Released objects are not returned to the allocator at once: the ICD
 * loader reads a handle's dispatch pointer before any of our code runs, so
 * a freed handle would crash it. The last CY_GRAVES released objects stay
 * as tombstones (dispatch kept, magic 0): a call on one reaches us and is
 * answered CL_INVALID_<OBJECT>. Only the oldest tombstone is freed when a
 * new one comes. Process-wide, like the handles themselves. */
#define CY_GRAVES 1024
static struct {
  pthread_mutex_t lock;
  void *slot[CY_GRAVES];
  size_t next;
} graves = {.lock = PTHREAD_MUTEX_INITIALIZER};

void cy_bury(void *obj) {
  pthread_mutex_lock(&graves.lock);
  void *old = graves.slot[graves.next];
  graves.slot[graves.next] = obj;
  graves.next = (graves.next + 1) % CY_GRAVES;
  pthread_mutex_unlock(&graves.lock);
  free(old);
}
