/* Device object: creation, destruction, observers. */
#include <stdlib.h>

#include "core.h"

vt_device *vt_device_create(const vt_config *c, vt_error *e) {
  vt_config def;
  if (!c) {
    vt_config_defaults(&def);
    c = &def;
  }
  if (vt_config_check(c, e)) return NULL;
  vt_device *d = calloc(1, sizeof *d);
  if (!d) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory creating the device");
    return NULL;
  }
  d->cfg = *c;
  d->icache_gen = 1;
  mem_init(&d->mem);
  d->sms = aligned_alloc(_Alignof(vt_sm), c->num_sm * sizeof *d->sms);
  if (d->sms) memset(d->sms, 0, c->num_sm * sizeof *d->sms);
  d->icache = calloc((size_t)1 << VT_ICACHE_BITS, sizeof *d->icache);
  d->due = calloc((size_t)c->num_sm * c->warps_per_sm, sizeof *d->due);
  if (!d->sms || !d->icache || !d->due) goto oom;
  d->w0.st = &d->stats;
  d->w0.tlb = d->mem.tlb;
  d->w0.icache = d->icache;
  for (uint32_t s = 0; s < c->num_sm; s++) {
    vt_sm *sm = &d->sms[s];
    /* on pages of their own: placed by the heap among other objects, one
     * SM's warps ran a memory-bound kernel up to 40 % slower per
     * instruction than another's, in most runs (docs/performance.md) */
    size_t wbytes = (size_t)c->warps_per_sm * sizeof *sm->warps;
    /* ... except the gigabytes of the largest configurations: calloc maps
     * those on pages of their own, untouched until a group uses a slot */
    if (wbytes >= ((size_t)128 << 10))
      sm->warps = sm->warps_mem = calloc(c->warps_per_sm, sizeof *sm->warps);
    else
      sm->warps = vt_calloc_pages(wbytes, &sm->warps_mem);
    sm->wgs = vt_calloc_aligned(c->wg_slots_per_sm, sizeof *sm->wgs, 64);
    if (!sm->warps || !sm->wgs) goto oom;
    sm->free_warps = c->warps_per_sm;
    sm->free_wgs = c->wg_slots_per_sm;
    /* warp and work-group slots get their state when a group first uses
     * them (dispatch): the largest configuration (1024 SMs of 1024 slots)
     * would otherwise need gigabytes before any launch; calloc's zeros are
     * the empty local maps (sparse_init is a memset) */
  }
  return d;
oom:
  vt_device_destroy(d);
  vt_fail(e, VT_ERR_NOMEM, "out of memory creating the device");
  return NULL;
}

void vt_device_destroy(vt_device *d) {
  if (!d) return;
  if (d->sms) {
    for (uint32_t s = 0; s < d->cfg.num_sm; s++) {
      vt_sm *sm = &d->sms[s];
      if (sm->warps)
        for (uint32_t w = 0; w < d->cfg.warps_per_sm; w++) {
          free(sm->warps[w].v_mem);
          free(sm->warps[w].stack);
        }
      if (sm->wgs)
        for (uint32_t g = 0; g < d->cfg.wg_slots_per_sm; g++) {
          free(sm->wgs[g].warps);
          free(sm->wgs[g].mbar);
          free(sm->wgs[g].lds_mem);
          sparse_free(&sm->wgs[g].lds_far);
        }
      free(sm->warps_mem);
      free(sm->wgs);
    }
  }
  free(d->sms);
  par_free(d);
  free(d->icache);
  free(d->due);
  mem_free(&d->mem);
  free(d);
}

const vt_config *vt_device_config(const vt_device *d) { return &d->cfg; }

void vt_device_set_trace(vt_device *d, vt_commit_fn fn, void *user) {
  d->trace_fn = fn;
  d->trace_user = user;
  d->record = fn != NULL;
}

void vt_device_set_print(vt_device *d, vt_print_fn fn, void *user) {
  d->print_fn = fn;
  d->print_user = user;
}

void vt_device_set_progress(vt_device *d, vt_progress_fn fn, void *user) {
  d->progress_fn = fn;
  d->progress_user = user;
}

void vt_device_host_cpu(const vt_device *d, double *busiest, double *all) {
  *busiest = d->cpu_busiest;
  *all = d->cpu_all;
}

const vt_stats *vt_device_stats(const vt_device *d) { return &d->stats; }
void vt_device_reset_stats(vt_device *d) { memset(&d->stats, 0, sizeof d->stats); }
