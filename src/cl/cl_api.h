/* The OpenCL platform: the objects behind the handles and what the files of
 * src/cl share. Every object starts with the ICD dispatch pointer (the
 * loader calls through it), then a magic word that tells the object kind.
 *
 * Reference counts: `refs` is the application's count (clRetain/clRelease,
 * CL_*_REFERENCE_COUNT); `inner` counts the references other objects hold
 * (a queue on its context, a command on its buffers). An object whose refs
 * reached 0 is invalid for the application even while inner keeps it alive,
 * and is freed when both are 0.
 *
 * Execution is asynchronous: each context (it has its own simulated device)
 * has a device thread (cl_worker.c) that runs its enqueued commands, each as
 * soon as every event it waits for is complete; enqueue calls return at
 * once. One recursive mutex per context (`lock`) serialises the context's
 * objects; the device thread holds it except while a command runs and while
 * event callbacks are called. A second mutex (`devlock`) guards the
 * simulated device, its heap and code span: the device thread holds it while
 * a command runs. Lock order: devlock before lock; whoever holds lock only
 * try-locks devlock (cl_mem.c), so a runaway kernel never stalls the API. */
#ifndef CY_CL_API_H
#define CY_CL_API_H

#define CL_TARGET_OPENCL_VERSION 300
#define CL_USE_DEPRECATED_OPENCL_1_0_APIS
#define CL_USE_DEPRECATED_OPENCL_1_1_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS

/* a launch's printf buffer: the full profile's minimum (1 MiB); device
 * pages are taken only where a kernel writes */
#define CY_PRINT_SIZE (1u << 20)
#define CL_USE_DEPRECATED_OPENCL_2_0_APIS
#define CL_USE_DEPRECATED_OPENCL_2_1_APIS
#define CL_USE_DEPRECATED_OPENCL_2_2_APIS
#include <CL/cl.h>
#include <CL/cl_egl.h>
#include <CL/cl_ext.h>
#include <CL/cl_gl.h>
#include <CL/cl_icd.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "heap.h"
#include "launch_block.h"
#include "vt_elf.h"

extern const cl_icd_dispatch cy_cl_dispatch;

enum {
  CY_MAGIC_PLATFORM = 0x43595031,
  CY_MAGIC_DEVICE,
  CY_MAGIC_CONTEXT,
  CY_MAGIC_QUEUE,
  CY_MAGIC_MEM,
  CY_MAGIC_PROGRAM,
  CY_MAGIC_KERNEL,
  CY_MAGIC_EVENT,
  CY_MAGIC_SAMPLER,
};

typedef struct {
  atomic_uint refs, inner;
  /* refs + inner: the one count whose fall to 0 frees the object, so that
   * the application's last release and a last inner release in another
   * thread (the device thread's), racing, cannot both free it */
  atomic_uint all;
} cy_ref;

struct _cl_platform_id {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
};

struct _cl_device_id {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  vt_config cfg;      /* CHENGYING_CONFIG, read once */
  int usable;         /* 0: the configuration file was bad (no device) */
  char why[448];      /* ... and why */
};

/* The one platform and device of the process (created once, then read only:
 * ICD handles must stay the same for the whole process). */
cl_platform_id cy_platform(void);
cl_device_id cy_device(void);

typedef struct cy_build_cache cy_build_cache;

struct _cl_context {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_context_properties props[3]; /* CL_CONTEXT_PLATFORM, value, 0 */
  size_t nprops;                  /* entries of props the application gave (0 or 3) */
  void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
  void *notify_data;
  pthread_mutex_t lock; /* recursive */
  pthread_cond_t changed; /* an event changed status */
  pthread_cond_t work;    /* for the device thread: a command or a user event status came, or stop */
  pthread_t worker;       /* the device thread, started at the first enqueue */
  int has_worker, stop;
  pthread_mutex_t devlock; /* dev, heap, code, trace, exp (see the top) */
  uint32_t *dead;          /* buffer blocks released while the device was busy: freed by the device thread */
  size_t ndead, capdead;
  vt_device *dev;
  vt_heap heap;
  vt_code_span code; /* the program image currently mapped */
  FILE *trace_file;  /* CHENGYING_TRACE: the commit log of every launch */
  vt_trace_writer *trace;
  vt_tvexport *exp;  /* CHENGYING_EXPORT_TESTVEC: every launch as a test vector */
  /* live buffers (for the cl_mem heuristic of clSetKernelArg) */
  cl_mem *mems;
  size_t nmems, capmems;
  /* enqueued commands not yet started, in enqueue order */
  cl_event *pending;
  size_t npending, cappending;
  cl_event current; /* the command the device thread is running, or NULL */
  cy_build_cache *cache; /* clBuildProgram's results (cl_build_cache.c) */
};

struct _cl_command_queue {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_context ctx;
  cl_command_queue_properties props;
  cl_queue_properties props_array[3]; /* as given to clCreateCommandQueueWithProperties */
  size_t nprops_array;
  cl_event last;    /* in order: the previous command; out of order: the last barrier */
  size_t unfinished; /* commands enqueued and not complete */
};

typedef struct {
  void(CL_CALLBACK *fn)(cl_mem, void *);
  void *data;
} cy_mem_cb;

/* one outstanding clEnqueueMapBuffer or clEnqueueMapImage */
typedef struct {
  void *ptr;      /* what the application got */
  size_t offset, size;
  cl_map_flags flags;
  int owned;      /* ptr was allocated for the map (not CL_MEM_USE_HOST_PTR) */
  size_t o[3], r[3], row, slice; /* images: the region and the host pitches at ptr */
} cy_map;

/* An image (cl_image.c): a 64-byte descriptor at the cl_mem's device
 * address, which kernels get (src/cc/lib/images.cl reads it; layout in
 * docs/opencl.md §Images), and the texels after it, or in the buffer of a
 * 1D buffer image. */
typedef struct {
  cl_mem_object_type type;
  cl_image_format fmt;
  size_t w, h, d, arr;  /* 1 for the dimensions an image type lacks */
  size_t esize, nch;    /* bytes per texel, channels in memory */
  size_t row, slice;    /* device pitches; slice: a 2D slice or an array layer */
  size_t hrow, hslice;  /* CL_MEM_USE_HOST_PTR: the host pitches (clGetImageInfo reports the device's) */
  uint32_t data;        /* device address of texel (0, 0, 0) */
  cl_mem buffer;        /* 1D buffer image: its buffer (an inner reference) */
} cy_image;

#define CY_IMAGE_DESC_BYTES 64u

struct _cl_mem {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_context ctx;
  cl_mem_flags flags;
  size_t size;
  void *host_ptr;   /* CL_MEM_USE_HOST_PTR */
  uint32_t addr;    /* device address (sub-buffers: parent's + offset) */
  cl_mem parent;    /* sub-buffers */
  size_t offset;
  cy_map *maps;     /* outstanding maps */
  size_t nmaps;
  cy_mem_cb *cbs;
  size_t ncbs;
  cy_image *img;    /* images; NULL for buffers */
};

struct _cl_sampler {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_context ctx;
  cl_bool norm;
  cl_addressing_mode addr;
  cl_filter_mode filter;
  uint32_t bits; /* what a kernel gets: the CLK_* encoding of OpenCL C */
};

/* argument metadata of one kernel argument (.ventus.args.<kernel>) */
typedef struct {
  char name[64], type[64];
  cl_kernel_arg_address_qualifier aq;
  cl_kernel_arg_access_qualifier acc;
  cl_kernel_arg_type_qualifier tq;
  uint32_t size; /* by value: bytes; pointers: 4 */
} cy_arg_meta;

typedef struct {
  char name[4096]; /* a kernel name: up to 4095 characters, as ventus cc allows */
  uint32_t entry;
  int has_args;     /* an argument-metadata section was found */
  cy_arg_meta *args;
  uint32_t nargs;
  int has_res;      /* .ventus.resource.<kernel> */
  uint32_t lds_static, pds; /* bytes per group / per work-item */
  int has_attrs;    /* a .ventus.attrs.<kernel> section was found; from it: */
  uint32_t reqd[3]; /* reqd_work_group_size, 0 0 0 = none */
  char attrs[200];  /* ... and its attributes, as CL_KERNEL_ATTRIBUTES reports them */
} cy_kernel_info;

struct _cl_program {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_context ctx;
  char *source;           /* clCreateProgramWithSource */
  uint8_t *binary;        /* clCreateProgramWithBinary */
  size_t binary_size;
  vt_elf_file elf;        /* read at clBuildProgram */
  int built;
  cl_build_status status;
  char *log, *options;
  cy_kernel_info *kinfo;  /* kernels with metadata, or every global code symbol */
  size_t nkinfo;
  atomic_uint kernels;    /* kernel objects attached (clBuildProgram refuses then) */
  cl_program_binary_type btype; /* what binary holds: an executable ELF, or LLVM bitcode (object, library) */
  int arg_info;           /* clGetKernelArgInfo answers: built from a binary, or with -cl-kernel-arg-info */
};

enum { CY_ARG_UNSET, CY_ARG_VALUE, CY_ARG_MEM, CY_ARG_LOCAL };

typedef struct {
  int kind;
  uint32_t size;   /* value bytes, or __local bytes */
  uint8_t val[128];
  cl_mem mem;      /* CY_ARG_MEM, NULL for a NULL pointer; not a reference (cl_kernel.c) */
} cy_arg;

struct _cl_kernel {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_program prog;
  cy_kernel_info info; /* copy; args points into the program's */
  cy_arg *args;
  uint32_t nargs;      /* metadata count, or the highest index set + 1 */
};

typedef struct {
  void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
  void *data;
  cl_int on; /* CL_SUBMITTED, CL_RUNNING or CL_COMPLETE */
} cy_event_cb;

typedef struct cy_cmd cy_cmd;

struct _cl_event {
  const cl_icd_dispatch *dispatch;
  uint32_t magic;
  cy_ref ref;
  cl_context ctx;
  cl_command_queue queue; /* NULL for user events */
  cl_command_type type;
  cl_int status;
  cl_ulong t[4]; /* queued, submit, start, end (ns) */
  cl_event *waits;
  size_t nwaits;
  cy_cmd *cmd;   /* what runs, until it ran */
  cy_event_cb *cbs;
  size_t ncbs;
};

/* ---- reference counting (cl_ref.c) ------------------------------------ */
void cy_ref_init(cy_ref *r);
/* 1 if the application still holds the object */
int cy_ref_live(cy_ref *r);
/* ---- the handle registry (cl_handles.c) -------------------------------- */
typedef enum {
  CY_HANDLE_CONTEXT,
  CY_HANDLE_QUEUE,
  CY_HANDLE_MEM,
  CY_HANDLE_PROGRAM,
  CY_HANDLE_KERNEL,
  CY_HANDLE_EVENT,
  CY_HANDLE_SAMPLER,
  CY_HANDLE_KINDS
} cy_handle_kind;
/* A zeroed object of that kind with its dispatch pointer set; NULL without
 * memory. */
void *cy_handle_new(cy_handle_kind kind);
/* Gives back an object whose parts are freed (its magic becomes 0). */
void cy_handle_drop(cy_handle_kind kind, void *obj);
/* 1 when h is an object of that kind's pool, live or not (reads no object). */
int cy_handle_ours(cy_handle_kind kind, const void *h);
void cy_inner_retain(cy_ref *r);
void cy_ref_retain(cy_ref *r); /* the application's (clRetain*) */
/* Drop a reference; 1 when it was the last of all and the object must be freed. */
int cy_ref_release(cy_ref *r);
int cy_inner_release(cy_ref *r);

/* Validity checks: 1 when x is a live object of that kind. */
int cy_is_context(cl_context c);
int cy_is_queue(cl_command_queue q);
int cy_is_mem(cl_mem m);
int cy_is_program(cl_program p);
int cy_is_kernel(cl_kernel k);
int cy_is_event(cl_event e);
int cy_is_sampler(cl_sampler s);
int cy_is_device(cl_device_id d);

/* Inner references: drop and free when nothing holds the object any more. */
void cy_context_unref(cl_context c);
void cy_context_free(cl_context c); /* what the last release does */
void cy_queue_unref(cl_command_queue q);
void cy_mem_unref(cl_mem m);
/* cl_mem.c: a zeroed memory object; its device memory (bytes, filled by
 * fill with devlock held when fill is not NULL) and its place in the
 * context's list, or the error (then the object is the caller's to drop) */
cl_mem cy_mem_new(cl_context ctx, cl_mem_flags flags, size_t size);
cl_int cy_mem_alloc(cl_context ctx, cl_mem m, size_t bytes, cl_int (*fill)(cl_mem, void *), void *arg);
/* cl_image.c: what an image's release frees besides the buffer parts */
void cy_image_free(cl_mem m);
/* 1 when a kernel argument of this metadata type name is an image */
int cy_is_image_type(const char *type);
/* the cl_mem_object_type a kernel argument type names, 0 if none */
cl_mem_object_type cy_image_type_of(const char *type);
void cy_program_unref(cl_program p);
void cy_event_unref(cl_event e);

/* ---- info queries (cl_info.c) ------------------------------------------ */
/* Copies `size` bytes of `src` to the caller per the clGet*Info rules. */
cl_int cy_info(size_t want, void *dst, size_t *ret, const void *src, size_t size);
cl_int cy_info_str(size_t want, void *dst, size_t *ret, const char *s);
#define CY_INFO(T, v)                                                                                          \
  do {                                                                                                         \
    T cy_v_ = (v);                                                                                             \
    return cy_info(param_value_size, param_value, param_value_size_ret, &cy_v_, sizeof cy_v_);                 \
  } while (0)

/* ---- device limits (cl_platform.c) ------------------------------------- */
size_t cy_max_wg(const vt_config *c);
cl_ulong cy_local_mem(const vt_config *c);
/* the device's default step budget per launch (its watchdog): 20 times
 * ventus run's, about a minute here, so that only a runaway kernel meets
 * it; software double over the CTS's buffers takes 15-25 s */
#define CY_DEFAULT_MAX_STEPS 4000000000ull
#define CY_WARP_STACK 1024u /* start.S: 1 KiB scalar stack per warp at the bottom of local memory */

/* ---- contexts, commands, events (cl_context.c, cl_queue.c, cl_event.c, cl_worker.c) */
/* Locks the context and holds it alive until cy_ctx_leave, so a command
 * that drops the last reference while running cannot free it under us. */
void cy_ctx_enter(cl_context c);
void cy_ctx_leave(cl_context c);
/* Reports an asynchronous error: the context's callback, else one line on stderr. */
void cy_ctx_report(cl_context c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cy_ctx_add_mem(cl_context c, cl_mem m);
void cy_ctx_remove_mem(cl_context c, cl_mem m);
int cy_ctx_has_mem(cl_context c, cl_mem m);

struct cy_cmd {
  /* CL_SUCCESS or the error status; called on the device thread with
   * devlock held and the context's lock not held */
  cl_int (*run)(cl_event ev, cy_cmd *cmd);
  void (*done)(cy_cmd *cmd);                /* frees the payload (after run or on failure) */
  /* what went wrong, for the context's pfn_notify: reported by the device
   * thread after devlock is released, so the callback may use the API */
  char note[768]; /* "kernel <255 characters>: " and the simulator's message */
  /* printf text of the command (cy_cmd_print), written to stdout by the
   * device thread before the event completes (the CTS reads it then) */
  char *out;
  size_t nout, capout;
};

/* Validates a wait list of the queue's context (CL_INVALID_EVENT_WAIT_LIST,
 * CL_INVALID_CONTEXT). */
cl_int cy_check_waits(cl_context ctx, cl_uint n, const cl_event *list);
/* Enqueues cmd (owned from now on, also on error) on q after list; *out gets
 * a retained event when non-NULL. blocking: returns after it completed, its
 * error status if it failed. */
cl_int cy_enqueue(cl_command_queue q, cl_command_type type, cy_cmd *cmd, cl_uint n, const cl_event *list,
                  cl_event *out, int blocking);
/* cl_worker.c: wakes the device thread, starting it if needed (context
 * locked); CL_OUT_OF_RESOURCES when no thread can be made. */
cl_int cy_kick(cl_context ctx);
/* Ends and joins the device thread (or detaches it when called on it). */
void cy_worker_stop(cl_context ctx);
/* 1 on the context's device thread (in an event callback) */
int cy_on_worker(cl_context ctx);
/* Frees buffer blocks released while the device was busy (devlock held). */
void cy_free_dead(cl_context ctx);
/* Sets an event's status and calls its callbacks (context locked once: it
 * is unlocked while each callback runs). */
void cy_event_set(cl_event ev, cl_int status);
cl_event cy_event_new(cl_context ctx, cl_command_queue q, cl_command_type type);
cl_ulong cy_now_ns(void);
/* Blocks until every event is complete or failed (context locked);
 * CL_INVALID_OPERATION on the device thread, which would wait for itself. */
cl_int cy_wait(cl_context ctx, cl_uint n, const cl_event *list);

/* ---- kernels (cl_kernel.c, cl_program.c) -------------------------------- */
/* Reads the kernels, argument metadata and resources of a built program. */
cl_int cy_program_scan(cl_program p);
cl_program cy_program_new(cl_context ctx);
void cy_program_free(cl_program p);
void cy_program_reset(cl_program p, const char *options); /* before a build, compile or link */
/* build or compile options that ask for argument information (-cl-kernel-arg-info) */
int cy_wants_arg_info(const char *options);
/* the options for the compiler: the program's, then -ventus-isa= the
 * device's revision, which wins over one the program gives (malloc'd;
 * NULL out of memory) */
char *cy_cc_options(const char *options);
cl_int cy_program_take_image(cl_program p, uint8_t *img, size_t n); /* an executable from the compiler */
/* cl_bitcode.c: an object's or library's binary carries its type. Wraps
 * *bc (malloc'd; replaced) with the tag of `type`; -1 without memory. */
int cy_bitcode_wrap(uint8_t **bc, size_t *n, cl_program_binary_type type);
/* The type of a binary (plain bitcode: a compiled object), NONE if it is no
 * bitcode; bc/bcn (optional) get the bitcode inside. */
cl_program_binary_type cy_bitcode_type(const uint8_t *b, size_t n, const uint8_t **bc, size_t *bcn);
/* cl_program_link.c: clBuildProgram of a program made from a compiled object
 * or library (bitcode through clCreateProgramWithBinary) */
cl_int cy_build_from_objects(cl_program p, const char *options, void(CL_CALLBACK *notify)(cl_program, void *),
                             void *user_data);
#ifdef VT_HAVE_CC
#include "vt_error.h"
cl_int cy_cc_error(const vt_error *e); /* the OpenCL error for a compiler failure */
#endif

/* cl_build_cache.c (the context's lock held) */
void cy_build_cache_free(cy_build_cache *c);
int cy_build_cache_get(cl_context ctx, const char *source, const char *options, uint8_t **image, size_t *size,
                       char **log);
void cy_build_cache_put(cl_context ctx, const char *source, const char *options, const uint8_t *image, size_t size,
                        const char *log);
/* The kernel `name` of a built program (metadata, else a global code symbol); -1 if none. */
int cy_program_find_kernel(cl_program p, const char *name, cy_kernel_info *out);
#define CY_MAX_PARAM_BYTES 1024 /* CL_DEVICE_MAX_PARAMETER_SIZE: the argument block a kernel takes */
#define CY_MAX_KERNEL_ARGS (CY_MAX_PARAM_BYTES / 4) /* without metadata: 4-byte slots */
#define CY_LOCAL_ALIGN 128u   /* each __local argument starts at a multiple of this */
cl_ulong cy_kernel_local_bytes(cl_kernel k);
/* Adds printf text to the running command (device thread, cl_worker.c). */
void cy_cmd_print(cy_cmd *c, const char *text, size_t len);

#endif
