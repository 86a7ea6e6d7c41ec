/* The upstream vt_* driver API on the functional core. The opaque
 * vt_device_h is a vt_api_dev; the core's own type is vt_device. */
#include "ventus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "elf_load.h"
#include "heap.h"
#include "testvec_write.h"

typedef struct {
  vt_device *dev;
  vt_heap heap;
  vt_kernel_image code;
  int has_code;
  uint32_t *ctxs; /* task ids given to vt_root_mem_alloc: isolated contexts */
  size_t nctx, capctx;
  vt_tvexport *exp; /* CHENGYING_EXPORT_TESTVEC: every vt_start as a test vector */
  char errmsg[512];
} vt_api_dev;

static int fail(vt_api_dev *a, const vt_error *e) {
  if (a) vt_err_format(e, a->errmsg, sizeof a->errmsg);
  return -1;
}

static int failf(vt_api_dev *a, const char *msg) {
  vt_error e;
  vt_fail(&e, VT_ERR_USAGE, "%s", msg);
  return fail(a, &e);
}

const char *vt_last_error(vt_device_h h) {
  return h ? ((vt_api_dev *)h)->errmsg : "no device";
}

int vt_dev_open(vt_device_h *hdevice) {
  if (!hdevice) return -1;
  *hdevice = NULL;
  vt_api_dev *a = calloc(1, sizeof *a);
  if (!a) return -1;
  vt_config c;
  vt_config_defaults(&c);
  vt_error e;
  a->dev = vt_device_create(&c, &e);
  if (!a->dev) {
    free(a);
    return -1;
  }
  vt_heap_init(&a->heap);
  /* as the OpenCL platform does for a context (docs/opencl.md); there is no
   * device handle yet to carry the message, so it goes to stderr */
  const char *dir = getenv("CHENGYING_EXPORT_TESTVEC");
  if (dir && *dir && !(a->exp = vt_tvexport_open(dir, &e))) {
    fprintf(stderr, "chengying: CHENGYING_EXPORT_TESTVEC: %s\n", e.msg);
    vt_dev_close(a);
    return -1;
  }
  *hdevice = a;
  return 0;
}

int vt_dev_close(vt_device_h h) {
  vt_api_dev *a = h;
  if (!a) return -1;
  vt_heap_fini(&a->heap);
  vt_tvexport_close(a->exp);
  free(a->ctxs);
  vt_device_destroy(a->dev);
  free(a);
  return 0;
}

int vt_dev_caps(vt_device_h *hdevice, uint64_t caps_id, uint64_t *value) {
  vt_api_dev *a = hdevice && *hdevice ? *hdevice : NULL;
  vt_config def;
  const vt_config *c = a ? vt_device_config(a->dev) : (vt_config_defaults(&def), &def);
  if (!value) return a ? failf(a, "vt_dev_caps: value is NULL") : -1;
  switch (caps_id) {
  case VT_CAPS_VERSION: *value = 1; break;
  case VT_CAPS_MAX_CORES: *value = c->num_sm; break;
  case VT_CAPS_MAX_WARPS: *value = c->warps_per_sm; break;
  case VT_CAPS_MAX_THREADS: *value = c->max_threads; break;
  case VT_CAPS_CACHE_LINE_SIZE: *value = 64; break;
  case VT_CAPS_LOCAL_MEM_SIZE: *value = c->lds_bytes_per_sm; break;
  case VT_CAPS_ALLOC_BASE_ADDR: *value = VT_HEAP_BASE; break;
  case VT_CAPS_KERNEL_BASE_ADDR: *value = 0x80000000u; break;
  case VT_CAPS_MAX_WG_SLOTS: *value = c->wg_slots_per_sm; break;
  default: return a ? failf(a, "vt_dev_caps: unknown capability id") : -1;
  }
  return 0;
}

/* Contexts (docs/driver.md): a task id given to vt_root_mem_alloc owns the
 * buffers allocated for it, and a kernel started for another task (or for
 * none) faults on them. Task ids without a context share their buffers. */
static size_t ctx_find(const vt_api_dev *a, uint64_t taskID) {
  for (size_t i = 0; i < a->nctx; i++)
    if (a->ctxs[i] == taskID) return i;
  return a->nctx;
}

static uint32_t ctx_of(const vt_api_dev *a, uint64_t taskID) {
  return ctx_find(a, taskID) < a->nctx ? (uint32_t)taskID : VT_CTX_NONE;
}

int vt_root_mem_alloc(vt_device_h h, int taskID) {
  vt_api_dev *a = h;
  if (!a) return -1;
  vt_error e;
  if (taskID < 0) {
    vt_fail(&e, VT_ERR_USAGE, "vt_root_mem_alloc: task id %d is negative", taskID);
    return fail(a, &e);
  }
  if (ctx_find(a, (uint32_t)taskID) < a->nctx) {
    vt_fail(&e, VT_ERR_USAGE, "vt_root_mem_alloc: context %d already exists", taskID);
    return fail(a, &e);
  }
  if (a->nctx == a->capctx) {
    size_t nc = a->capctx ? 2 * a->capctx : 8;
    uint32_t *p = realloc(a->ctxs, nc * sizeof *p);
    if (!p) return failf(a, "vt_root_mem_alloc: out of memory");
    a->ctxs = p, a->capctx = nc;
  }
  a->ctxs[a->nctx++] = (uint32_t)taskID;
  return 0;
}

/* Ends the context and frees its buffers. */
int vt_root_mem_free(vt_device_h h, int taskID) {
  vt_api_dev *a = h;
  if (!a) return -1;
  vt_error e;
  size_t i = taskID < 0 ? a->nctx : ctx_find(a, (uint32_t)taskID);
  if (i == a->nctx) {
    vt_fail(&e, VT_ERR_USAGE, "vt_root_mem_free: no context %d (vt_root_mem_alloc it first)", taskID);
    return fail(a, &e);
  }
  a->ctxs[i] = a->ctxs[--a->nctx];
  if (vt_heap_free_owned(&a->heap, a->dev, (uint32_t)taskID, &e)) return fail(a, &e);
  return 0;
}

int vt_buf_alloc(vt_device_h h, uint64_t size, uint64_t *vaddr, int BUF_TYPE, uint64_t taskID,
                 uint64_t kernelID) {
  (void)BUF_TYPE, (void)kernelID;
  vt_api_dev *a = h;
  if (!a || !vaddr) return a ? failf(a, "vt_buf_alloc: vaddr is NULL") : -1;
  vt_error e;
  uint32_t addr;
  if (size > 0x70000000u) {
    vt_fail(&e, VT_ERR_NOMEM, "vt_buf_alloc: %llu bytes exceed the device window",
            (unsigned long long)size);
    return fail(a, &e);
  }
  if (vt_heap_alloc(&a->heap, a->dev, size, &addr, &e)) return fail(a, &e);
  uint32_t owner = ctx_of(a, taskID);
  if (owner != VT_CTX_NONE && vt_heap_set_owner(&a->heap, a->dev, addr, owner, &e)) {
    vt_error e2;
    vt_heap_free(&a->heap, a->dev, addr, &e2);
    return fail(a, &e);
  }
  *vaddr = addr;
  return 0;
}

/* Upstream spike frees every buffer here; we keep that behaviour. */
int vt_buf_free(vt_device_h h, uint64_t size, uint64_t *vaddr, uint64_t taskID, uint64_t kernelID) {
  (void)size, (void)vaddr, (void)taskID, (void)kernelID;
  vt_api_dev *a = h;
  if (!a) return -1;
  vt_error e;
  if (vt_heap_free_all(&a->heap, a->dev, &e)) return fail(a, &e);
  return 0;
}

int vt_one_buf_free(vt_device_h h, uint64_t size, uint64_t *vaddr, uint64_t taskID,
                    uint64_t kernelID) {
  (void)size, (void)taskID, (void)kernelID;
  vt_api_dev *a = h;
  if (!a || !vaddr) return a ? failf(a, "vt_one_buf_free: vaddr is NULL") : -1;
  vt_error e;
  if (*vaddr > 0xffffffffu) return failf(a, "vt_one_buf_free: address beyond 32 bits");
  if (vt_heap_free(&a->heap, a->dev, (uint32_t)*vaddr, &e)) return fail(a, &e);
  return 0;
}

/* A copy must lie inside one allocated buffer of the task's context (or a
 * shared one) or the loaded kernel image. */
static int check_range(vt_api_dev *a, const char *fn, uint64_t addr, uint64_t size, const void *p,
                       uint64_t taskID) {
  vt_error e;
  if (!p) {
    vt_fail(&e, VT_ERR_USAGE, "%s: host pointer is NULL", fn);
    return fail(a, &e);
  }
  if (size == 0) {
    vt_fail(&e, VT_ERR_USAGE, "%s: size 0", fn);
    return fail(a, &e);
  }
  /* addr + size must not wrap: a huge size once passed the range test and
   * the copy ran over the host buffer */
  if (addr > 0xffffffffu || size > 0x100000000ull - addr) {
    vt_fail(&e, VT_ERR_USAGE, "%s: [0x%llx, +0x%llx) is outside the 32-bit device", fn, (unsigned long long)addr,
            (unsigned long long)size);
    return fail(a, &e);
  }
  const vt_heap_block *b = vt_heap_find(&a->heap, addr, size);
  if (b && b->owner != VT_CTX_NONE && b->owner != ctx_of(a, taskID)) {
    vt_fail(&e, VT_ERR_USAGE, "%s: buffer 0x%08x belongs to context %u, not to task %llu", fn, b->base,
            b->owner, (unsigned long long)taskID);
    return fail(a, &e);
  }
  if (b) return 0;
  if (a->has_code && addr >= a->code.lo && addr + size <= a->code.hi) return 0;
  vt_fail(&e, VT_ERR_USAGE, "%s: [0x%llx, +0x%llx) is not inside one allocated buffer", fn,
          (unsigned long long)addr, (unsigned long long)size);
  return fail(a, &e);
}

int vt_copy_to_dev(vt_device_h h, uint64_t dev_vaddr, const void *src_addr, uint64_t size,
                   uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  vt_api_dev *a = h;
  if (!a) return -1;
  if (check_range(a, "vt_copy_to_dev", dev_vaddr, size, src_addr, taskID)) return -1;
  vt_error e;
  if (vt_mem_write(a->dev, (uint32_t)dev_vaddr, src_addr, (uint32_t)size, &e)) return fail(a, &e);
  return 0;
}

int vt_copy_from_dev(vt_device_h h, uint64_t dev_vaddr, void *dst_addr, uint64_t size,
                     uint64_t taskID, uint64_t kernelID) {
  (void)kernelID;
  vt_api_dev *a = h;
  if (!a) return -1;
  if (check_range(a, "vt_copy_from_dev", dev_vaddr, size, dst_addr, taskID)) return -1;
  vt_error e;
  if (vt_mem_read(a->dev, (uint32_t)dev_vaddr, dst_addr, (uint32_t)size, &e)) return fail(a, &e);
  return 0;
}

int vt_start(vt_device_h h, void *metaData, uint64_t taskID) {
  vt_api_dev *a = h;
  if (!a) return -1;
  if (!metaData) return failf(a, "vt_start: metaData is NULL");
  if (!a->has_code) return failf(a, "vt_start: no kernel loaded (call vt_upload_kernel_file first)");
  uint64_t f[12];
  memcpy(f, metaData, sizeof f);
  for (int i = 0; i < 12; i++)
    if (f[i] > 0xffffffffu) return failf(a, "vt_start: a metadata field does not fit 32 bits");
  vt_launch l;
  memset(&l, 0, sizeof l);
  l.start_pc = 0x80000000u;
  l.kernel_id = (uint32_t)f[0];
  for (int i = 0; i < 3; i++) l.grid[i] = (uint32_t)f[1 + i];
  l.num_threads = (uint32_t)f[4];
  l.num_warps = (uint32_t)f[5];
  l.knl = (uint32_t)f[6];
  l.lds_size = (uint32_t)f[7];
  l.pds_size = (uint32_t)f[8];
  l.sgprs = (uint32_t)f[9];
  l.vgprs = (uint32_t)f[10];
  l.pds_base = (uint32_t)f[11];
  vt_error e;
  uint32_t pa = 0;
  if (l.knl && vt_mem_is_mapped(a->dev, l.knl + 48, 4) && vt_mem_read(a->dev, l.knl + 48, &pa, 4, &e))
    pa = 0;
  l.print_addr = pa;
  l.ctx = ctx_of(a, taskID);
  /* the API knows no kernel names: the launches are kernel_0, kernel_1, ... */
  if (a->exp && vt_tvexport_launch(a->exp, a->dev, &l, "kernel", 1, &e)) return fail(a, &e);
  int rc = vt_device_launch(a->dev, &l, &e);
  vt_error xe; /* after a fault too: the next launch is written against this memory */
  if (a->exp && vt_tvexport_done(a->exp, a->dev, &xe) && !rc) e = xe, rc = -1;
  return rc ? fail(a, &e) : 0;
}

int vt_ready_wait(vt_device_h h, uint64_t timeout) {
  (void)timeout;
  return h ? 0 : -1;
}

int vt_finish_all_kernel(vt_device_h h, void *finished_kernel_list) {
  (void)finished_kernel_list;
  return h ? 0 : -1;
}

int vt_upload_kernel_bytes(vt_device_h h, const void *content, uint64_t size, int taskID) {
  (void)content, (void)size, (void)taskID;
  return h ? 0 : -1; /* legacy; upstream later back ends are stubs too */
}

int vt_upload_kernel_file(vt_device_h h, const char *filename, int kernelID) {
  (void)kernelID;
  vt_api_dev *a = h;
  if (!a) return -1;
  if (!filename) return failf(a, "vt_upload_kernel_file: filename is NULL");
  vt_error e;
  vt_kernel_image img;
  if (vt_kernel_load(a->dev, filename, &img, &e)) return fail(a, &e);
  a->code = img;
  a->has_code = 1;
  return 0;
}

int vt_dump_perf(vt_device_h h, FILE *stream) {
  vt_api_dev *a = h;
  if (!a) return -1;
  if (stream) vt_stats_print(vt_device_stats(a->dev), stream);
  return 0;
}
