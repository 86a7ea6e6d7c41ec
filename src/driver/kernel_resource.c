/* Register counts from `.ventus.resource.<kernel>` (kernel_resource.h). */
#include "kernel_resource.h"

#include <stdio.h>

static uint64_t rd(const uint8_t *p, int n) {
  uint64_t v = 0;
  for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
  return v;
}

static uint32_t usage(uint64_t count) {
  if (count > 1024) count = 1024; /* a damaged count asks for no more than a register file */
  uint32_t c = ((uint32_t)count + 3u) & ~3u;
  return c > VT_GPRS_DEFAULT ? c : VT_GPRS_DEFAULT;
}

int vt_kernel_pds_usage(const vt_elf_file *f, const char *kernel, uint64_t *bytes) {
  char name[4200];
  if (snprintf(name, sizeof name, ".ventus.resource.%s", kernel) >= (int)sizeof name) return -1;
  const vt_elf_section *s = vt_elf_find_section(f, name);
  if (!s || !s->data) return -1;
  uint64_t v;
  if (s->size == 8) {
    v = rd(s->data + 6, 2);
  } else if (s->size >= 56 && (rd(s->data, 4) == 2 || rd(s->data, 4) == 3)) {
    uint64_t peak = rd(s->data + 48, 8); /* UINT64_MAX: not known */
    if (peak == UINT64_MAX || rd(s->data + 32, 8) > UINT32_MAX || peak > UINT32_MAX) return -1;
    v = rd(s->data + 32, 8) + peak;
  } else {
    return -1;
  }
  *bytes = (v + 3) & ~(uint64_t)3;
  return 0;
}

int vt_kernel_gpr_usage(const vt_elf_file *f, const char *kernel, uint32_t *vgprs, uint32_t *sgprs) {
  char name[4200]; /* kernel names of up to 4095 characters */
  if (snprintf(name, sizeof name, ".ventus.resource.%s", kernel) >= (int)sizeof name) return -1;
  const vt_elf_section *s = vt_elf_find_section(f, name);
  if (!s || !s->data) return -1;
  uint64_t v, x;
  if (s->size == 8) {
    v = rd(s->data, 2), x = rd(s->data + 2, 2);
  } else if (s->size >= 56 && (rd(s->data, 4) == 2 || rd(s->data, 4) == 3)) {
    v = rd(s->data + 8, 8), x = rd(s->data + 16, 8);
  } else {
    return -1;
  }
  *vgprs = usage(v);
  *sgprs = usage(x);
  return 0;
}
