/* clEnqueueNDRangeKernel / clEnqueueTask: checks, the local size when the
 * application gives none, the argument block (runtime.md §2.4), __local
 * arguments in the work-group's local memory, and the launch on the
 * driver layer (src/driver/launch_block.h). */
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"
#include "elf_load.h"
#include "print_records.h"
#include "kernel_resource.h"
#include "launch_block.h"

typedef struct {
  cy_cmd base;
  cl_program prog;     /* inner reference: the ELF */
  char name[4096]; /* a kernel name: up to 4095 characters, as ventus cc allows */
  vt_block_launch bl;
  uint8_t *args;
  cl_mem *mems;        /* inner references while the command lives */
  size_t nmems;
  uint32_t *ro;        /* bl.ro: regions of __constant buffers held read-only */
  uint32_t amo_local[VT_AMO_LOCAL_MAX]; /* bl.amo_local: the program's __local AMOs */
  uint32_t code_ranges[VT_CODE_RANGES_MAX]; /* bl.code_ranges: the extents of the kernel's code */
} launch_cmd;

static void launch_done(cy_cmd *c) {
  launch_cmd *l = (launch_cmd *)c;
  for (size_t i = 0; i < l->nmems; i++) cy_mem_unref(l->mems[i]);
  free(l->mems);
  free(l->args);
  free(l->ro);
  atomic_fetch_sub(&l->prog->kernels, 1);
  cy_program_unref(l->prog);
  free(l);
}

static void to_cmd(void *user, const char *text, size_t len) { cy_cmd_print(user, text, len); }

typedef struct {
  cy_cmd *cmd;
  const vt_elf_file *records; /* a program that prints records (compiled printf), else NULL: plain text */
} print_sink;

static void on_print(void *user, const char *text, size_t len) {
  const print_sink *s = user;
  if (s->records) vt_print_records(s->records, (const uint8_t *)text, len, to_cmd, s->cmd);
  else cy_cmd_print(s->cmd, text, len);
}

static cl_int launch_run(cl_event ev, cy_cmd *c) {
  launch_cmd *l = (launch_cmd *)c;
  cl_context ctx = ev->ctx;
  vt_error e;
  print_sink ps = {c, vt_print_has_records(&l->prog->elf) ? &l->prog->elf : NULL};
  vt_device_set_print(ctx->dev, on_print, &ps);
  l->bl.trace = ctx->trace;
  l->bl.exp = ctx->exp;
  l->bl.name = l->name;
  if (ctx->exp && vt_kernel_gpr_usage(&l->prog->elf, l->name, &l->bl.vgprs, &l->bl.sgprs))
    l->bl.vgprs = l->bl.sgprs = 0;
  int rc = vt_kernel_load_elf(ctx->dev, &l->prog->elf, &ctx->code, &e) || vt_launch_block(ctx->dev, &ctx->heap, &l->bl, &e);
  vt_device_set_print(ctx->dev, NULL, NULL);
  if (rc) {
    char msg[480];
    vt_err_format(&e, msg, sizeof msg);
    /* a name past 200 characters is cut (names may have 4095) so the message fits */
    snprintf(c->note, sizeof c->note, "kernel %.200s%s: %s", l->name, strlen(l->name) > 200 ? "..." : "", msg);
    return CL_OUT_OF_RESOURCES;
  }
  return CL_SUCCESS;
}

/* The largest divisor of g that is at most lim. */
static size_t divisor_at_most(size_t g, size_t lim) {
  for (size_t d = lim < g ? lim : g; d > 1; d--)
    if (g % d == 0) return d;
  return 1;
}

/* No local size given: as many work-items per group as fit, x first, each
 * dimension a divisor of its global size. */
static void choose_local(cl_uint dim, const size_t *global, size_t maxwg, size_t local[3]) {
  size_t left = maxwg;
  for (cl_uint i = 0; i < 3; i++) {
    local[i] = i < dim ? divisor_at_most(global[i], left) : 1;
    left /= local[i];
  }
}

static int add_mem(launch_cmd *l, cl_mem m) {
  cl_mem *p = realloc(l->mems, (l->nmems + 1) * sizeof *p);
  if (!p) return -1;
  l->mems = p;
  p[l->nmems++] = m;
  cy_inner_retain(&m->ref);
  return 0;
}

static size_t pow2_at_least(size_t n) {
  size_t p = 4;
  while (p < n) p <<= 1;
  return p;
}

/* The region a buffer lies in (a sub-buffer lies in its parent's). */
static uint32_t region_of(cl_mem m) { return m->parent ? m->parent->addr : m->addr; }

static int is_constant(cl_kernel k, uint32_t i) {
  return i < k->info.nargs && k->info.args[i].aq == CL_KERNEL_ARG_ADDRESS_CONSTANT;
}

/* The regions of the __constant buffer arguments that no other buffer
 * argument shares: the kernel cannot store into them, so the launch holds
 * them read-only and loads from them run ahead (launch_block.h). A region
 * a __global argument also reaches stays writable. */
static cl_int read_only_args(cl_kernel k, launch_cmd *l) {
  for (uint32_t i = 0; i < k->nargs; i++) {
    const cy_arg *a = &k->args[i];
    if (a->kind != CY_ARG_MEM || !a->mem || !is_constant(k, i)) continue;
    uint32_t r = region_of(a->mem);
    int shared = 0;
    for (uint32_t j = 0; j < k->nargs && !shared; j++)
      shared = k->args[j].kind == CY_ARG_MEM && k->args[j].mem && !is_constant(k, j) && region_of(k->args[j].mem) == r;
    if (shared) continue;
    if (!l->ro && !(l->ro = calloc(k->nargs, sizeof *l->ro))) return CL_OUT_OF_HOST_MEMORY;
    l->ro[l->bl.nro++] = r;
  }
  l->bl.ro = l->ro;
  return CL_SUCCESS;
}

/* The argument block: pointers and __local addresses 4 bytes, by-value
 * arguments aligned to next_pow2(max(size, 4)). */
static cl_int build_args(cl_kernel k, launch_cmd *l, uint32_t local_base) {
  size_t len = 0;
  for (uint32_t i = 0; i < k->nargs; i++) {
    const cy_arg *a = &k->args[i];
    size_t sz = a->kind == CY_ARG_VALUE ? a->size : 4, al = a->kind == CY_ARG_VALUE ? pow2_at_least(a->size) : 4;
    len = (len + al - 1) / al * al + sz;
  }
  if (len > 0xffff) return CL_INVALID_KERNEL_ARGS;
  l->args = calloc(1, len ? len : 1);
  if (!l->args) return CL_OUT_OF_HOST_MEMORY;
  size_t at = 0;
  uint32_t local = local_base + k->info.lds_static;
  for (uint32_t i = 0; i < k->nargs; i++) {
    const cy_arg *a = &k->args[i];
    uint32_t word = 0;
    if (a->kind == CY_ARG_VALUE) {
      size_t al = pow2_at_least(a->size);
      at = (at + al - 1) / al * al;
      memcpy(l->args + at, a->val, a->size);
      at += a->size;
      continue;
    }
    if (a->kind == CY_ARG_MEM && a->mem) {
      /* released since clSetKernelArg (the kernel does not hold it) */
      if (!cy_ctx_has_mem(k->prog->ctx, a->mem)) return CL_INVALID_MEM_OBJECT;
      if (add_mem(l, a->mem)) return CL_OUT_OF_HOST_MEMORY;
      word = a->mem->addr;
    } else if (a->kind == CY_ARG_LOCAL) {
      local = (local + CY_LOCAL_ALIGN - 1) & ~(CY_LOCAL_ALIGN - 1);
      word = local;
      local += a->size;
    }
    at = (at + 3) & ~(size_t)3;
    for (int b = 0; b < 4; b++) l->args[at + (size_t)b] = (uint8_t)(word >> (8 * b));
    at += 4;
  }
  l->bl.args = l->args;
  l->bl.args_len = (uint32_t)len;
  return read_only_args(k, l);
}

static cl_int enqueue_kernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
                             const size_t *global, const size_t *local, cl_uint n, const cl_event *list,
                             cl_event *event, cl_command_type type) {
  if (!cy_is_queue(q)) return CL_INVALID_COMMAND_QUEUE;
  if (!cy_is_kernel(k)) return CL_INVALID_KERNEL;
  if (k->prog->ctx != q->ctx) return CL_INVALID_CONTEXT;
  cl_int rc = cy_check_waits(q->ctx, n, list);
  if (rc) return rc;
  if (dim < 1 || dim > 3) return CL_INVALID_WORK_DIMENSION;
  if (!global) return CL_INVALID_GLOBAL_WORK_SIZE;
  const vt_config *c = &cy_device()->cfg;
  size_t maxwg = cy_max_wg(c), g[3] = {1, 1, 1}, o[3] = {0, 0, 0}, lsz[3] = {1, 1, 1};
  for (cl_uint i = 0; i < dim; i++) {
    g[i] = global[i];
    o[i] = offset ? offset[i] : 0;
    if (!g[i] || g[i] > 0xffffffffu) return CL_INVALID_GLOBAL_WORK_SIZE;
    if (o[i] > 0xffffffffu - g[i]) return CL_INVALID_GLOBAL_OFFSET;
  }
  for (uint32_t i = 0; i < k->nargs; i++)
    if (k->args[i].kind == CY_ARG_UNSET) return CL_INVALID_KERNEL_ARGS;
  if (local) {
    size_t lin = 1;
    for (cl_uint i = 0; i < dim; i++) {
      if (!local[i] || g[i] % local[i]) return CL_INVALID_WORK_GROUP_SIZE;
      if (local[i] > maxwg) return CL_INVALID_WORK_ITEM_SIZE;
      lsz[i] = local[i];
      lin *= local[i];
    }
    if (lin > maxwg) return CL_INVALID_WORK_GROUP_SIZE;
  } else if (k->info.reqd[0]) {
    /* a NULL local size takes the declared one (as OpenCL 3.0 platforms and
     * the CTS's null_required_work_group_size do; 1.2 §5.8 had it an error,
     * which no working program relies on); it must divide the global size */
    for (int i = 0; i < 3; i++) {
      lsz[i] = k->info.reqd[i];
      if (g[i] % lsz[i]) return CL_INVALID_WORK_GROUP_SIZE;
    }
  } else {
    choose_local(dim, g, maxwg, lsz);
  }
  /* a kernel declared with reqd_work_group_size runs in groups of exactly
   * that size (OpenCL 1.2 §5.8) */
  if (k->info.reqd[0] && (lsz[0] != k->info.reqd[0] || lsz[1] != k->info.reqd[1] || lsz[2] != k->info.reqd[2]))
    return CL_INVALID_WORK_GROUP_SIZE;
  /* warp width: a divisor of the group size when one keeps the group in an
   * SM's warp slots (no idle lanes), else the widest warp */
  size_t lin = lsz[0] * lsz[1] * lsz[2], threads = divisor_at_most(lin, c->max_threads);
  if ((lin + threads - 1) / threads > c->warps_per_sm) threads = c->max_threads;
  size_t warps = (lin + threads - 1) / threads;
  uint64_t lds = (uint64_t)warps * CY_WARP_STACK + cy_kernel_local_bytes(k);
  uint64_t lds_cap = c->lds_bytes_per_sm < c->lds_window ? c->lds_bytes_per_sm : c->lds_window;
  if (lds > lds_cap) return CL_OUT_OF_RESOURCES;

  launch_cmd *l = calloc(1, sizeof *l);
  if (!l) return CL_OUT_OF_HOST_MEMORY;
  l->base.run = launch_run;
  l->base.done = launch_done;
  l->prog = k->prog;
  cy_inner_retain(&k->prog->ref);
  /* counted as an attached kernel: the device thread reads the program's
   * image, which a rebuild would replace (clBuildProgram refuses then) */
  atomic_fetch_add(&k->prog->kernels, 1);
  memcpy(l->name, k->info.name, sizeof l->name);
  vt_block_launch *bl = &l->bl;
  bl->entry = k->info.entry;
  bl->work_dim = dim;
  for (int i = 0; i < 3; i++) {
    bl->global[i] = (uint32_t)g[i];
    bl->local[i] = (uint32_t)lsz[i];
    bl->offset[i] = (uint32_t)o[i];
  }
  bl->threads = (uint32_t)threads;
  bl->warps = (uint32_t)warps;
  bl->lds_size = (uint32_t)lds;
  bl->pds_size = k->info.pds;
  bl->print_size = CY_PRINT_SIZE;
  /* what the program lists for the parallel launcher (docs/opencl.md §5.7, §5.8) */
  bl->namo_local = vt_amo_local_list(&k->prog->elf, l->amo_local, VT_AMO_LOCAL_MAX);
  bl->amo_local = l->amo_local;
  bl->ncode_ranges = vt_code_extents(&k->prog->elf, l->name, l->code_ranges, VT_CODE_RANGES_MAX);
  bl->code_ranges = l->code_ranges;
  cy_ctx_enter(q->ctx);
  rc = build_args(k, l, c->lds_base + (uint32_t)warps * CY_WARP_STACK);
  cy_ctx_leave(q->ctx);
  if (rc) {
    launch_done(&l->base);
    return rc;
  }
  return cy_enqueue(q, type, &l->base, n, list, event, 0);
}

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
                                          const size_t *global, const size_t *local, cl_uint n,
                                          const cl_event *list, cl_event *event) {
  return enqueue_kernel(q, k, dim, offset, global, local, n, list, event, CL_COMMAND_NDRANGE_KERNEL);
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k, cl_uint n, const cl_event *list,
                                 cl_event *event) {
  size_t one = 1;
  return enqueue_kernel(q, k, 1, NULL, &one, &one, n, list, event, CL_COMMAND_TASK);
}
