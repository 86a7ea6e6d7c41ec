/* The state of the fuzz_clapi harness (fuzz_clapi.c): the input being
 * read, and a table per object kind of every handle the platform returned
 * in this input, with the application reference count it should have. */
#ifndef FZ_CLAPI_H
#define FZ_CLAPI_H

#include <stddef.h>
#include <stdint.h>

#include "fz_cl.h"

#define MAX_CALLS 64
#define CAP 16          /* handles of one kind per input */
#define MAX_BUF 512     /* bytes of a buffer */
#define HOST_BYTES 8192 /* the host memory reads, writes and rects use */

enum { K_CTX, K_QUEUE, K_MEM, K_PROG, K_KERNEL, K_EVENT, NKINDS };

typedef struct {
  void *h;
  int refs;   /* the application's count the calls should have left */
  int ctx;    /* index of its context (K_CTX itself: its own) */
  int user;   /* events: a user event; 1 = its status not yet set */
  size_t size; /* buffers */
} fz_obj;

typedef struct {
  const uint8_t *p;
  size_t n, at;
} fz_reader;

typedef struct {
  void *ptr;
  int mem, queue;
  size_t size;
} fz_map;

typedef struct {
  int inited, threads0;
  int trace; /* FZ_CLAPI_TRACE set: each call on stderr (to read an input) */
  uint8_t *bin[2];
  size_t nbin[2];
  const char *src[3];
  fz_reader in;
  struct {
    fz_obj o[NKINDS][CAP];
    int n[NKINDS];
    fz_map maps[CAP];
    int nmaps;
  } t;
} fz_state;

extern fz_state fz;

uint8_t fz_u8(void);
uint32_t fz_u32(void);
_Noreturn void fz_die(const char *what, long v);

/* index of a handle of kind k picked by the next byte (-1: none yet) */
int fz_pick(int k);
void *fz_h(int k, int i); /* the handle, NULL for i < 0 */
/* a handle the platform returned: into the table (refs 1), or released at
 * once when the table is full; checks that h and rc agree */
int fz_add(int k, void *h, cl_int rc, int ctx);
/* retain/release/info of a picked handle, checked against its count */
void fz_retain(int k);
void fz_release(int k);
void fz_info(int k);
/* a wait list of up to 3 picked events into list, its length */
cl_uint fz_waits(cl_event *list);
/* every user event gets a status: nothing waits for ever after this */
void fz_settle(void);
/* settles, finishes, releases everything the table counts */
void fz_cleanup(void);
/* one call of the program: op selects it */
void fz_call(uint8_t op);

#endif
