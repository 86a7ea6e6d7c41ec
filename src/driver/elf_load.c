/* Kernel loading on top of the isa layer's validating ELF reader
 * (src/isa/vt_elf.h), so ELF parsing lives in one place. */
#include "elf_load.h"

#include <elf.h>
#include <stdlib.h>

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

/* Zero-fills [addr, +n) of device memory from a small buffer: only for a
 * region that was mapped before (a fresh mapping reads as zeros, and its
 * pages are allocated on first touch, so .bss then costs no host memory). */
static int zero_fill(vt_device *d, uint32_t addr, uint32_t n, vt_error *e) {
  static const uint8_t zeros[4096];
  for (uint32_t done = 0; done < n;) {
    uint32_t k = n - done < sizeof zeros ? n - done : (uint32_t)sizeof zeros;
    if (vt_mem_write(d, addr + done, zeros, k, e)) return -1;
    done += k;
  }
  return 0;
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
  int fresh = 0;
  if (!rc) {
    lo &= ~0xfffull;
    hi = (hi + 0xfff) & ~0xfffull;
    uint32_t size = (uint32_t)(hi - lo);
    /* reloading over the same image: map it afresh, so .bss is zero again */
    int mapped = vt_mem_is_mapped(d, (uint32_t)lo, size);
    vt_error ig;
    if (mapped && !vt_mem_unmap(d, (uint32_t)lo, &ig)) mapped = 0;
    if (!mapped) rc = vt_mem_map(d, (uint32_t)lo, size, VT_PERM_RWX, e);
    fresh = !mapped;
  }
  for (size_t i = 0; !rc && i < f.nsegs; i++) {
    const vt_elf_segment *s = &f.segs[i];
    if (s->filesz) rc = vt_mem_write(d, s->vaddr, s->bytes, s->filesz, e);
    /* .bss: upstream's newest crt0 relies on the loader */
    if (!rc && !fresh) rc = zero_fill(d, s->vaddr + s->filesz, s->memsz - s->filesz, e);
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
