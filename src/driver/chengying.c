/* The native embedding API: thin wrappers over the core and driver. */
#include "chengying.h"

#include <stdlib.h>
#include <string.h>

#include "device.h"
#include "heap.h"
#include "ndrange.h"
#include "testvec.h"
#include "timing.h"
#include "trace_fmt.h"

struct cy_device {
  vt_device *dev;
  vt_timing *timing; /* config key timing = 1: launches run under the timing model */
  vt_heap heap;
  vt_trace_writer *tw;
  char err[512];
};

static int fail(cy_device *d, const vt_error *e) {
  vt_err_format(e, d->err, sizeof d->err);
  return -1;
}

/* Misuse (a NULL pointer where one is required) is an error, not a crash:
 * with no device there is nowhere to keep the message, and cy_error(NULL)
 * says "no device". */
static int misuse(cy_device *d, const char *fn, const char *what) {
  vt_error e;
  if (!d) return -1;
  vt_fail(&e, VT_ERR_USAGE, "%s: %s", fn, what);
  return fail(d, &e);
}

cy_device *cy_create(const char *config_path, const char *const *ov, size_t nov, char *err, size_t errlen) {
  vt_config c;
  vt_config_defaults(&c);
  vt_error e;
  int bad = 0;
  if (nov && !ov) bad = vt_fail(&e, VT_ERR_USAGE, "cy_create: %zu overrides but the array is NULL", nov);
  for (size_t i = 0; !bad && i < nov; i++)
    if (!ov[i]) bad = vt_fail(&e, VT_ERR_USAGE, "cy_create: override %zu is NULL", i);
  if (!bad && config_path) bad = vt_config_load(&c, config_path, &e);
  for (size_t i = 0; !bad && i < nov; i++) bad = vt_config_override(&c, ov[i], &e);
  if (!bad) bad = vt_config_check(&c, &e);
  cy_device *d = NULL;
  if (!bad && !(d = calloc(1, sizeof *d))) bad = vt_fail(&e, VT_ERR_NOMEM, "out of memory");
  if (!bad && !(d->dev = vt_device_create(&c, &e))) bad = -1;
  if (!bad && c.timing && !(d->timing = vt_timing_attach(d->dev, &e))) bad = -1;
  if (bad) {
    if (err && errlen) vt_err_format(&e, err, errlen);
    if (d && d->dev) vt_device_destroy(d->dev);
    free(d);
    return NULL;
  }
  vt_heap_init(&d->heap);
  return d;
}

void cy_destroy(cy_device *d) {
  if (!d) return;
  if (d->tw) vt_trace_writer_free(d->tw);
  vt_heap_fini(&d->heap);
  vt_timing_free(d->timing);
  vt_device_destroy(d->dev);
  free(d);
}

const char *cy_error(const cy_device *d) { return d ? d->err : "no device"; }

int cy_alloc(cy_device *d, uint64_t size, uint32_t *addr) {
  if (!d || !addr) return misuse(d, "cy_alloc", "addr is NULL");
  vt_error e;
  return vt_heap_alloc(&d->heap, d->dev, size, addr, &e) ? fail(d, &e) : 0;
}

int cy_free(cy_device *d, uint32_t addr) {
  if (!d) return -1;
  vt_error e;
  return vt_heap_free(&d->heap, d->dev, addr, &e) ? fail(d, &e) : 0;
}

int cy_write(cy_device *d, uint32_t addr, const void *src, uint32_t size) {
  if (!d || (!src && size)) return misuse(d, "cy_write", "src is NULL");
  vt_error e;
  return vt_mem_write(d->dev, addr, src, size, &e) ? fail(d, &e) : 0;
}

int cy_read(cy_device *d, uint32_t addr, void *dst, uint32_t size) {
  if (!d || (!dst && size)) return misuse(d, "cy_read", "dst is NULL");
  vt_error e;
  return vt_mem_read(d->dev, addr, dst, size, &e) ? fail(d, &e) : 0;
}

static int hook_begin(void *user, size_t i, const vt_launch *l, vt_error *e) {
  (void)i, (void)e;
  cy_device *d = user;
  if (d->tw) vt_trace_writer_begin(d->tw, d->dev, l);
  return 0;
}

static int hook_end(void *user, size_t i, const vt_launch *l, vt_error *e) {
  (void)i, (void)l;
  cy_device *d = user;
  if (d->tw && vt_trace_writer_end(d->tw, d->dev)) return vt_fail(e, VT_ERR_IO, "trace write failed");
  return 0;
}

/* The blocks vt_ndrange_setup allocates (argument block, private region,
 * print buffer, metadata block) belong to the one launch: cy_launch frees
 * every block that was not allocated before it, on success and on failure,
 * or each launch would keep part of the device window (some 200 KiB for one
 * group of 32 work-items) until cy_destroy. */
static void free_launch_blocks(cy_device *d, const vt_heap_block *before, size_t nbefore) {
  for (size_t i = d->heap.n; i-- > 0;) {
    uint32_t base = d->heap.b[i].base;
    size_t j = 0;
    while (j < nbefore && before[j].base != base) j++;
    vt_error e;
    if (j == nbefore) vt_heap_free(&d->heap, d->dev, base, &e); /* cannot fail: base is a block */
  }
}

int cy_launch(cy_device *d, const char *elf, const char *kernel, const cy_ndrange *nd, const uint32_t *slots,
              size_t nargs) {
  if (!d || !elf) return misuse(d, "cy_launch", "elf is NULL");
  if (!kernel) return misuse(d, "cy_launch", "kernel is NULL");
  if (!nd) return misuse(d, "cy_launch", "nd is NULL");
  if (nargs && !slots) return misuse(d, "cy_launch", "nargs > 0 but slots is NULL");
  vt_error e;
  size_t nbefore = d->heap.n;
  vt_heap_block *before = malloc((nbefore ? nbefore : 1) * sizeof *before);
  if (!before) return vt_fail(&e, VT_ERR_NOMEM, "out of memory"), fail(d, &e);
  if (nbefore) memcpy(before, d->heap.b, nbefore * sizeof *before);
  vt_ndrange r;
  vt_ndrange_defaults(&r);
  r.elf = elf;
  r.kernel = kernel;
  r.work_dim = nd->work_dim ? nd->work_dim : 1;
  for (int i = 0; i < 3; i++) {
    r.global[i] = nd->global[i] ? nd->global[i] : 1;
    r.local[i] = nd->local[i] ? nd->local[i] : 1;
    r.offset[i] = nd->offset[i];
  }
  r.threads = nd->threads;
  vt_karg *args = calloc(nargs ? nargs : 1, sizeof *args);
  if (!args) return free(before), vt_fail(&e, VT_ERR_NOMEM, "out of memory"), fail(d, &e);
  for (size_t i = 0; i < nargs; i++) args[i].kind = VT_KARG_SCALAR, args[i].value = slots[i];
  r.args = args;
  r.nargs = nargs;
  vt_launch l;
  int rc = vt_ndrange_setup(d->dev, &d->heap, &r, &l, &e);
  if (!rc) rc = hook_begin(d, 0, &l, &e);
  if (!rc) rc = vt_device_launch(d->dev, &l, &e);
  if (d->tw) {
    vt_error e2;
    int r2 = hook_end(d, 0, &l, &e2);
    if (!rc && r2) rc = r2, e = e2;
  }
  free(args);
  free_launch_blocks(d, before, nbefore);
  free(before);
  return rc ? fail(d, &e) : 0;
}

int cy_run_testvec(cy_device *d, const char *path) {
  if (!d || !path) return misuse(d, "cy_run_testvec", "path is NULL");
  vt_error e;
  vt_case c;
  if (vt_case_open(path, &c, &e)) return fail(d, &e);
  int rc = 0;
  for (size_t i = 0; i < c.n && !rc; i++) rc = vt_case_run(&c, d->dev, i, hook_begin, hook_end, d, &e);
  vt_case_free(&c);
  return rc ? fail(d, &e) : 0;
}

int cy_trace(cy_device *d, FILE *f) {
  if (!d) return -1;
  if (d->tw) vt_trace_writer_free(d->tw);
  d->tw = NULL;
  if (!f) return 0;
  if (!(d->tw = vt_trace_writer_new(f))) {
    vt_error e;
    vt_fail(&e, VT_ERR_NOMEM, "out of memory");
    return fail(d, &e);
  }
  return 0;
}

void cy_get_stats(const cy_device *d, cy_stats *s) {
  if (!s) return;
  if (!d) {
    memset(s, 0, sizeof *s);
    return;
  }
  const vt_stats *v = vt_device_stats(d->dev);
  s->warp_insns = v->warp_insns;
  s->thread_insns = v->thread_insns;
  s->divergent_branches = v->divergent_branches;
  s->barriers = v->barriers;
  s->loads = v->loads;
  s->stores = v->stores;
  s->kernels = v->kernels;
  s->wgs = v->wgs;
}

void cy_print_stats(const cy_device *d, FILE *f, int json) {
  if (!d || !f) return;
  const vt_config *c = vt_device_config(d->dev);
  const vt_stats *s = vt_device_stats(d->dev);
  if (json) {
    fprintf(f, "{\"config\":");
    vt_config_print_json(c, f);
    fprintf(f, ",\"stats\":");
    vt_stats_print_json(s, f);
    if (d->timing) {
      fprintf(f, ",\"timing\":");
      vt_timing_print_json(vt_timing_get_stats(d->timing), f);
    }
    fprintf(f, "}\n");
  } else {
    vt_config_print(c, f);
    vt_stats_print(s, f);
    if (d->timing) vt_timing_print(vt_timing_get_stats(d->timing), f);
  }
}
