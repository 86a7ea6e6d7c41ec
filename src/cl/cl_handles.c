/* The handle registry: where the platform's objects live, so that a handle
 * is validated by asking the registry, never by reading memory that may
 * have been freed.
 *
 * Each object kind has a pool of fixed-size slots in chunks that are never
 * returned to the allocator while the library is loaded. A handle is valid
 * for a kind when it is a slot of that kind's pool (an address check that
 * reads no object) and the slot's magic says live. A released slot keeps
 * its ICD dispatch pointer, so the loader, which reads it before any of our
 * code runs, can still call us with a stale handle, and we answer
 * CL_INVALID_<OBJECT>. Freed slots are reused oldest first and only once
 * CY_QUARANTINE more of that kind have been freed: a stale handle is told
 * apart from a new object for that long (after that the specification calls
 * its use undefined), and memory stays bounded by the peak number of live
 * objects plus the quarantine.
 *
 * Process-wide, like the handles themselves (the ICD loader knows one
 * platform per library). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

#define CY_QUARANTINE 4096
#define CY_FIRST_CHUNK 32 /* slots; each further chunk doubles */
#define CY_MAX_CHUNKS 40

typedef struct {
  char *base;
  size_t nslots;
} chunk;

typedef struct {
  pthread_mutex_t lock;
  size_t slot;             /* bytes per slot */
  chunk chunks[CY_MAX_CHUNKS];
  size_t nchunks, used;    /* slots of the last chunk handed out */
  char *free_head, *free_tail; /* freed slots, oldest first, linked */
  size_t nfree;
} pool;

/* The link of a freed slot, past its dispatch pointer and magic. */
#define LINK(s) (*(char **)((s) + 16))

static pool pools[CY_HANDLE_KINDS] = {
    [CY_HANDLE_CONTEXT] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_context), {{0}}, 0, 0, 0, 0, 0},
    [CY_HANDLE_QUEUE] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_command_queue), {{0}}, 0, 0, 0, 0, 0},
    [CY_HANDLE_MEM] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_mem), {{0}}, 0, 0, 0, 0, 0},
    [CY_HANDLE_PROGRAM] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_program), {{0}}, 0, 0, 0, 0, 0},
    [CY_HANDLE_KERNEL] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_kernel), {{0}}, 0, 0, 0, 0, 0},
    [CY_HANDLE_EVENT] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_event), {{0}}, 0, 0, 0, 0, 0},
    [CY_HANDLE_SAMPLER] = {PTHREAD_MUTEX_INITIALIZER, sizeof(struct _cl_sampler), {{0}}, 0, 0, 0, 0, 0},
};

_Static_assert(sizeof(struct _cl_event) >= 24 && sizeof(struct _cl_mem) >= 24 && sizeof(struct _cl_sampler) >= 24,
               "a slot holds its free link");

static size_t slot_bytes(const pool *p) { return (p->slot + 15) & ~(size_t)15; }

/* pool locked */
static char *take(pool *p) {
  if (p->nfree > CY_QUARANTINE) {
    char *s = p->free_head;
    p->free_head = LINK(s);
    if (!p->free_head) p->free_tail = NULL;
    p->nfree--;
    return s;
  }
  chunk *c = p->nchunks ? &p->chunks[p->nchunks - 1] : NULL;
  if (!c || p->used == c->nslots) {
    if (p->nchunks == CY_MAX_CHUNKS) return NULL;
    size_t n = (size_t)CY_FIRST_CHUNK << p->nchunks;
    char *base = calloc(n, slot_bytes(p));
    if (!base) return NULL;
    c = &p->chunks[p->nchunks++];
    c->base = base, c->nslots = n;
    p->used = 0;
  }
  return c->base + p->used++ * slot_bytes(p);
}

void *cy_handle_new(cy_handle_kind kind) {
  pool *p = &pools[kind];
  pthread_mutex_lock(&p->lock);
  char *s = take(p);
  pthread_mutex_unlock(&p->lock);
  if (!s) return NULL;
  /* the dispatch pointer stays valid throughout: a stale handle to this
   * slot may be in a loader call right now */
  const cl_icd_dispatch *d = &cy_cl_dispatch;
  memcpy(s, &d, sizeof d);
  memset(s + sizeof d, 0, p->slot - sizeof d);
  return s;
}

void cy_handle_drop(cy_handle_kind kind, void *obj) {
  if (!obj) return;
  pool *p = &pools[kind];
  char *s = obj;
  const cl_icd_dispatch *d = &cy_cl_dispatch;
  memcpy(s, &d, sizeof d);
  memset(s + 8, 0, 8); /* magic 0: no kind */
  pthread_mutex_lock(&p->lock);
  LINK(s) = NULL;
  if (p->free_tail) LINK(p->free_tail) = s;
  else p->free_head = s;
  p->free_tail = s;
  p->nfree++;
  pthread_mutex_unlock(&p->lock);
}

int cy_handle_ours(cy_handle_kind kind, const void *h) {
  if (!h) return 0;
  pool *p = &pools[kind];
  uintptr_t a = (uintptr_t)h;
  int ok = 0;
  pthread_mutex_lock(&p->lock);
  for (size_t i = 0; i < p->nchunks && !ok; i++) {
    uintptr_t b = (uintptr_t)p->chunks[i].base;
    size_t n = i + 1 == p->nchunks ? p->used : p->chunks[i].nslots;
    ok = a >= b && a < b + n * slot_bytes(p) && (a - b) % slot_bytes(p) == 0;
  }
  pthread_mutex_unlock(&p->lock);
  return ok;
}
