/* The kernel attribute section (kernel_attrs.h). */
#include "kernel_attrs.h"

#include <stdio.h>
#include <string.h>

static uint32_t rd32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int vt_kernel_attrs_read(const vt_elf_section *s, uint32_t reqd[3], char *text, size_t cap, char *why,
                         size_t why_cap) {
  const uint8_t *d = s->data;
  if (!d || s->size < 17) {
    snprintf(why, why_cap, "%u bytes, the header and text need 17", s->size);
    return -1;
  }
  if (rd32(d) != 1) {
    snprintf(why, why_cap, "version %u, expected 1", rd32(d));
    return -1;
  }
  for (int i = 0; i < 3; i++) reqd[i] = rd32(d + 4 + 4 * i);
  if ((reqd[0] | reqd[1] | reqd[2]) && (!reqd[0] || !reqd[1] || !reqd[2])) {
    snprintf(why, why_cap, "reqd_work_group_size(%u,%u,%u) has a zero dimension", reqd[0], reqd[1], reqd[2]);
    return -1;
  }
  const uint8_t *nul = memchr(d + 16, 0, s->size - 16);
  if (!nul || (size_t)(nul - (d + 16)) >= cap) {
    snprintf(why, why_cap, "the attribute text is not NUL-terminated (or over %zu bytes)", cap - 1);
    return -1;
  }
  memcpy(text, d + 16, (size_t)(nul - (d + 16)) + 1);
  return 0;
}
