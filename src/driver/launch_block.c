#include "launch_block.h"

#include <stdlib.h>
#include <string.h>

#include "ndrange.h"

int vt_kernel_load_elf(vt_device *d, const vt_elf_file *f, vt_code_span *span, vt_error *e) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; i < f->nsegs; i++) {
    const vt_elf_segment *s = &f->segs[i];
    if (!s->memsz) continue;
    if (s->vaddr < lo) lo = s->vaddr;
    if ((uint64_t)s->vaddr + s->memsz > hi) hi = (uint64_t)s->vaddr + s->memsz;
  }
  if (lo == UINT64_MAX) return vt_fail(e, VT_ERR_FORMAT, "the ELF has no non-empty PT_LOAD segment");
  lo &= ~0xfffull;
  hi = (hi + 0xfff) & ~0xfffull;
  if (lo < span->lo || hi > span->hi) {
    if (span->hi > span->lo && vt_mem_unmap(d, (uint32_t)span->lo, e)) return -1;
    span->lo = span->hi = 0;
    if (vt_mem_map(d, (uint32_t)lo, (uint32_t)(hi - lo), VT_PERM_RWX, e)) return -1;
    span->lo = lo;
    span->hi = hi;
  }
  for (size_t i = 0; i < f->nsegs; i++) {
    const vt_elf_segment *s = &f->segs[i];
    if (s->filesz && vt_mem_write(d, s->vaddr, s->bytes, s->filesz, e)) return -1;
    uint32_t z = s->memsz - s->filesz;
    if (z) {
      uint8_t *zeros = calloc(1, z);
      int rc = zeros ? vt_mem_write(d, s->vaddr + s->filesz, zeros, z, e)
                     : vt_fail(e, VT_ERR_NOMEM, "out of memory");
      free(zeros);
      if (rc) return -1;
    }
  }
  return 0;
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* Takes write permission from the regions at bl->ro[0..n) that have it;
 * was[i]: the permissions to give back (0: left as they were). */
static int hold_read_only(vt_device *d, const vt_block_launch *bl, uint32_t n, unsigned *was, vt_error *e) {
  for (uint32_t i = 0; i < n; i++) {
    uint32_t base, size;
    unsigned perm;
    was[i] = 0;
    if (!vt_mem_region_from(d, bl->ro[i], &base, &size, &perm) || base != bl->ro[i] || !(perm & VT_PERM_W)) continue;
    if (vt_mem_set_perm(d, base, perm & ~(unsigned)VT_PERM_W, e)) return -1;
    was[i] = perm;
  }
  return 0;
}

static void give_back(vt_device *d, const vt_block_launch *bl, uint32_t n, const unsigned *was) {
  vt_error ignored; /* the regions were mapped a moment ago: nothing can fail */
  for (uint32_t i = 0; i < n; i++)
    if (was[i]) vt_mem_set_perm(d, bl->ro[i], was[i], &ignored);
}

int vt_launch_block(vt_device *d, vt_heap *h, const vt_block_launch *bl, vt_error *e) {
  const vt_config *cfg = vt_device_config(d);
  uint32_t grid[3];
  for (int i = 0; i < 3; i++) {
    if (!bl->local[i] || !bl->global[i] || bl->global[i] % bl->local[i])
      return vt_fail(e, VT_ERR_USAGE, "launch: global size %u is not a positive multiple of local size %u",
                     bl->global[i], bl->local[i]);
    grid[i] = bl->global[i] / bl->local[i];
  }
  /* private memory: pds_size bytes per work-item, in slices of a group */
  uint64_t nwg = (uint64_t)grid[0] * grid[1] * grid[2];
  uint64_t per_wg = (uint64_t)bl->pds_size * bl->threads * bl->warps;
  uint64_t slots = vt_private_slices(cfg, nwg, per_wg);
  if (!slots)
    return vt_fail(e, VT_ERR_NOMEM, "launch: private memory of 0x%llx bytes per work-group does not fit the device",
                   (unsigned long long)per_wg);
  uint32_t argaddr = 0, knl = 0, pds = 0, print = 0;
  unsigned *was = NULL; /* hold_read_only */
  int rc = -1;
  if (bl->args_len &&
      (vt_heap_alloc_perm(h, d, bl->args_len, VT_PERM_R, &argaddr, e) || vt_mem_write(d, argaddr, bl->args, bl->args_len, e)))
    goto out;
  if (vt_heap_alloc(h, d, per_wg * slots, &pds, e)) goto out;
  if (bl->print_size && vt_heap_alloc(h, d, bl->print_size, &print, e)) goto out;
  uint8_t md[VT_METADATA_BYTES] = {0};
  put32(md + 0, bl->entry);
  put32(md + 4, argaddr);
  put32(md + 8, bl->work_dim);
  for (int i = 0; i < 3; i++) {
    put32(md + 12 + 4 * i, bl->global[i]);
    put32(md + 24 + 4 * i, bl->local[i]);
    put32(md + 36 + 4 * i, bl->offset[i]);
  }
  put32(md + 48, print);
  put32(md + 52, print ? bl->print_size : 0);
  put32(md + 64, bl->pds_size); /* KNL_PDS_SIZE_PER_THREAD */
  if (vt_heap_alloc_perm(h, d, sizeof md, VT_PERM_R, &knl, e) || vt_mem_write(d, knl, md, sizeof md, e)) goto out;
  vt_launch l = {0};
  l.start_pc = 0x80000000u;
  memcpy(l.grid, grid, sizeof grid);
  l.num_threads = bl->threads;
  l.num_warps = bl->warps;
  l.wg_threads = bl->local[0] * bl->local[1] * bl->local[2];
  l.knl = knl;
  l.lds_size = bl->lds_size;
  l.pds_size = bl->pds_size;
  l.pds_base = pds;
  l.print_addr = print;
  l.amo_local = bl->namo_local ? bl->amo_local : NULL;
  l.namo_local = bl->namo_local;
  l.code_ranges = bl->ncode_ranges ? bl->code_ranges : NULL;
  l.ncode_ranges = bl->ncode_ranges;
  vt_launch lx = l; /* the counts go to the test vector only, as the launch had no register budget */
  lx.vgprs = bl->vgprs, lx.sgprs = bl->sgprs;
  if (bl->exp && vt_tvexport_launch(bl->exp, d, &lx, bl->name ? bl->name : "kernel", 1, e)) goto out;
  was = bl->nro ? calloc(bl->nro, sizeof *was) : NULL;
  if (bl->nro && !was) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    goto out;
  }
  if (bl->trace) vt_trace_writer_begin(bl->trace, d, &l);
  rc = hold_read_only(d, bl, bl->nro, was, e) ? -1 : vt_device_launch(d, &l, e);
  give_back(d, bl, bl->nro, was);
  if (bl->trace && vt_trace_writer_end(bl->trace, d) && !rc)
    rc = vt_fail(e, VT_ERR_IO, "writing the commit log failed (disk full?)");
  vt_error xe; /* after a fault too: the next launch is written against this memory */
  if (bl->exp && vt_tvexport_done(bl->exp, d, &xe) && !rc) {
    *e = xe;
    rc = -1;
  }
out:
  free(was);
  /* the temporaries go back to the heap; a failure here cannot hide the
   * launch's own error, so its message is not kept */
  vt_error ignored;
  uint32_t tmp[4] = {argaddr, knl, pds, print};
  for (int i = 0; i < 4; i++)
    if (tmp[i]) vt_heap_free(h, d, tmp[i], &ignored);
  return rc;
}
