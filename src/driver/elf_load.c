/* Kernel loading on top of the isa layer's validating ELF reader
 * (src/isa/vt_elf.h), so ELF parsing lives in one place. */
#include "elf_load.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "vt_elf.h"

static int require_exec(const vt_elf_file *f, const char *path, vt_error *e) {
  if (f->nsegs == 0)
    return vt_fail(e, VT_ERR_FORMAT, "%s: no PT_LOAD segment (not an executable? link it without -c)",
                   path);
  return 0;
}

/* Segments must not overlap each other (the later one would silently
 * replace the earlier one's bytes) nor the buffer heap, which the driver
 * needs for arguments and buffers: both are errors naming the segments. */
static int check_layout(const vt_elf_file *f, const char *path, vt_error *e) {
  for (size_t i = 0; i < f->nsegs; i++) {
    const vt_elf_segment *a = &f->segs[i];
    uint64_t aend = (uint64_t)a->vaddr + a->memsz;
    if (!a->memsz) continue;
    if (aend > VT_HEAP_BASE)
      return vt_fail(e, VT_ERR_FORMAT,
                     "%s: segment %zu [0x%08x, +0x%x) reaches into the buffer heap at 0x%08x (code and "
                     "data must end below it)",
                     path, i, a->vaddr, a->memsz, VT_HEAP_BASE);
    for (size_t j = 0; j < i; j++) {
      const vt_elf_segment *b = &f->segs[j];
      if (b->memsz && a->vaddr < (uint64_t)b->vaddr + b->memsz && b->vaddr < aend)
        return vt_fail(e, VT_ERR_FORMAT, "%s: segments %zu [0x%08x, +0x%x) and %zu [0x%08x, +0x%x) overlap",
                       path, j, b->vaddr, b->memsz, i, a->vaddr, a->memsz);
    }
  }
  return 0;
}

/* Maps [lo, hi) page by page with the permissions of the segments' p_flags
 * (a page two segments share gets both), runs of equal permissions as one
 * region; pages between segments stay unmapped. Executable pages are
 * writable only with the writable_code key: code is read/execute in the
 * RTL's memory map, so a store into it is a fault by default (a store
 * into decoded code is caught either way, docs/simulator.md §5). */
static int map_segments(vt_device *d, const vt_elf_file *f, uint64_t lo, uint64_t hi, vt_error *e) {
  size_t npages = (size_t)((hi - lo) >> 12);
  uint8_t *perm = calloc(npages, 1);
  if (!perm) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  int wcode = vt_device_config(d)->writable_code != 0;
  for (size_t i = 0; i < f->nsegs; i++) {
    const vt_elf_segment *s = &f->segs[i];
    if (!s->memsz) continue;
    unsigned p = (s->flags & PF_R ? VT_PERM_R : 0) | (s->flags & PF_W ? VT_PERM_W : 0) |
                 (s->flags & PF_X ? VT_PERM_X : 0);
    if ((p & VT_PERM_X) && wcode) p |= VT_PERM_W;
    if (!p) p = VT_PERM_R; /* a segment with no flags is still loaded: keep it readable */
    for (uint64_t pg = (s->vaddr - lo) >> 12; pg <= ((uint64_t)s->vaddr + s->memsz - 1 - lo) >> 12; pg++)
      perm[pg] |= (uint8_t)p;
  }
  int rc = 0;
  for (size_t a = 0; !rc && a < npages;) {
    size_t b = a + 1;
    while (b < npages && perm[b] == perm[a]) b++;
    uint32_t base = (uint32_t)(lo + ((uint64_t)a << 12)), size = (uint32_t)((b - a) << 12);
    if (perm[a] && !vt_mem_is_mapped(d, base, size)) rc = vt_mem_map(d, base, size, perm[a], e);
    a = b;
  }
  free(perm);
  return rc;
}

int vt_kernel_load(vt_device *d, const char *path, vt_kernel_image *img, vt_error *e) {
  vt_elf_file f;
  if (vt_elf_read_file(path, &f, e)) return -1;
  int rc = require_exec(&f, path, e);
  if (!rc) rc = check_layout(&f, path, e);
  uint64_t lo = UINT64_MAX, hi = 0;
  for (size_t i = 0; !rc && i < f.nsegs; i++) {
    const vt_elf_segment *s = &f.segs[i];
    if (!s->memsz) continue;
    if (s->vaddr < lo) lo = s->vaddr;
    if ((uint64_t)s->vaddr + s->memsz > hi) hi = (uint64_t)s->vaddr + s->memsz;
  }
  if (!rc && lo == UINT64_MAX) rc = vt_fail(e, VT_ERR_FORMAT, "%s: every PT_LOAD segment is empty", path);
  if (!rc) {
    lo &= ~0xfffull;
    hi = (hi + 0xfff) & ~0xfffull;
    /* reloading over the same image maps it afresh, so .bss reads as zero
     * again without host memory (pages are allocated on first touch) */
    vt_error ig;
    for (uint64_t a = lo; a < hi; a += 0x1000) (void)vt_mem_unmap(d, (uint32_t)a, &ig);
    rc = map_segments(d, &f, lo, hi, e);
  }
  for (size_t i = 0; !rc && i < f.nsegs; i++) {
    const vt_elf_segment *s = &f.segs[i];
    if (s->filesz) rc = vt_mem_write(d, s->vaddr, s->bytes, s->filesz, e);
  }
  if (!rc && img) {
    img->lo = (uint32_t)lo;
    img->hi = (uint32_t)(hi - 1) + 1;
    img->entry = f.entry;
  }
  vt_elf_free(&f);
  return rc;
}

int vt_kernel_symbol(const char *path, const char *name, uint32_t *addr, vt_error *e) {
  vt_elf_file f;
  if (vt_elf_read_file(path, &f, e)) return -1;
  const vt_elf_symbol *s = vt_elf_find_symbol(&f, name);
  int rc = 0;
  if (!s || s->shndx == SHN_UNDEF)
    rc = vt_fail(e, VT_ERR_USAGE, "%s: no symbol named '%s' (the kernel name)", path, name);
  else
    *addr = s->value;
  vt_elf_free(&f);
  return rc;
}

static uint32_t word_at(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

uint32_t vt_amo_local_list(const vt_elf_file *f, uint32_t *out, uint32_t cap) {
  const vt_elf_section *s = vt_elf_find_section(f, ".ventus.amo_local");
  if (!s || !s->data || !s->size || s->size % 4 || s->size / 4 > cap) return 0;
  uint32_t n = s->size / 4, k = 0;
  for (uint32_t i = 0; i < n; i++) out[i] = word_at(s->data + 4 * i);
  qsort(out, n, sizeof *out, cmp_u32);
  for (uint32_t i = 0; i < n; i++)
    if (!k || out[i] != out[k - 1]) out[k++] = out[i];
  return k;
}

uint32_t vt_code_extents(const vt_elf_file *f, const char *kernel, uint32_t *out, uint32_t cap) {
  size_t len = strlen(kernel) + sizeof ".ventus.code.";
  char *name = malloc(len);
  if (!name) return 0;
  snprintf(name, len, ".ventus.code.%s", kernel);
  const vt_elf_section *s = vt_elf_find_section(f, name);
  free(name);
  const vt_elf_symbol *start = vt_elf_find_symbol(f, "_start");
  if (!s || !s->data || s->size < 12 || (s->size - 4) % 8 || word_at(s->data) != 1 || !start || !start->size) return 0;
  uint32_t n = 2 + (s->size - 4) / 4;
  if (n > cap || (uint64_t)start->value + start->size > 0xffffffffu) return 0;
  out[0] = start->value;
  out[1] = start->value + start->size;
  for (uint32_t i = 2; i < n; i++) out[i] = word_at(s->data + 4 + 4 * (i - 2));
  for (uint32_t i = 0; i < n; i += 2)
    if (out[i] > out[i + 1]) return 0;
  return n;
}
