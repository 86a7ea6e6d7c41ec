/* The kernels of a program binary: `.ventus.args.<kernel>` (argument
 * metadata, format in docs/opencl.md), `.ventus.attrs.<kernel>` (kernel
 * attributes, ditto) and `.ventus.resource.<kernel>` (runtime.md §3.2,
 * both forms), read at clBuildProgram. */
#include <elf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"
#include "kernel_attrs.h"

#define ARGS_PREFIX ".ventus.args."
#define RES_PREFIX ".ventus.resource."
#define ATTRS_PREFIX ".ventus.attrs."

static cl_int fail(cl_program p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static cl_int fail(cl_program p, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  free(p->log);
  p->log = malloc(strlen(msg) + 1);
  if (p->log) strcpy(p->log, msg);
  return CL_BUILD_PROGRAM_FAILURE;
}

static uint32_t rd32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static uint64_t rd64(const uint8_t *b) { return rd32(b) | (uint64_t)rd32(b + 4) << 32; }

static cy_kernel_info *kinfo_for(cl_program p, const char *name) {
  for (size_t i = 0; i < p->nkinfo; i++)
    if (!strcmp(p->kinfo[i].name, name)) return &p->kinfo[i];
  cy_kernel_info *k = realloc(p->kinfo, (p->nkinfo + 1) * sizeof *k);
  if (!k) return NULL;
  p->kinfo = k;
  k = &p->kinfo[p->nkinfo++];
  memset(k, 0, sizeof *k);
  snprintf(k->name, sizeof k->name, "%s", name);
  return k;
}

/* a NUL-terminated string at *at inside [0, size), copied to dst */
static int take_str(const uint8_t *d, uint32_t size, uint32_t *at, char *dst, size_t cap) {
  const uint8_t *nul = *at < size ? memchr(d + *at, 0, size - *at) : NULL;
  if (!nul || (size_t)(nul - (d + *at)) >= cap) return -1;
  memcpy(dst, d + *at, (size_t)(nul - (d + *at)) + 1);
  *at = (uint32_t)(nul - d) + 1;
  return 0;
}

static cl_int parse_args(cl_program p, cy_kernel_info *k, const vt_elf_section *s) {
  const uint8_t *d = s->data;
  if (!d || s->size < 8) return fail(p, "section %s: %u bytes, the header needs 8", s->name, s->size);
  if (rd32(d) != 1) return fail(p, "section %s: version %u, expected 1", s->name, rd32(d));
  uint32_t n = rd32(d + 4), at = 8;
  /* no count of our own: what the compiler lays out (up to 2 KiB, the reach
   * of its loads) the launch takes; each record is at least 16 bytes */
  if (n > (s->size - 8) / 16) return fail(p, "section %s: %u arguments do not fit its %u bytes", s->name, n, s->size);
  k->args = calloc(n ? n : 1, sizeof *k->args);
  if (!k->args) return CL_OUT_OF_HOST_MEMORY;
  k->nargs = n;
  k->has_args = 1;
  static const cl_kernel_arg_address_qualifier aq[] = {CL_KERNEL_ARG_ADDRESS_PRIVATE, CL_KERNEL_ARG_ADDRESS_GLOBAL,
                                                       CL_KERNEL_ARG_ADDRESS_CONSTANT, CL_KERNEL_ARG_ADDRESS_LOCAL};
  for (uint32_t i = 0; i < n; i++) {
    cy_arg_meta *a = &k->args[i];
    if (at + 12 > s->size) return fail(p, "section %s: argument %u: truncated record", s->name, i);
    uint32_t space = rd32(d + at), size = rd32(d + at + 4), tq = rd32(d + at + 8);
    at += 12;
    if (space > 3) return fail(p, "section %s: argument %u: address space %u (0..3)", s->name, i, space);
    if (space && size != 4)
      return fail(p, "section %s: argument %u: a pointer has size 4, not %u", s->name, i, size);
    if (!space && (!size || size > 128))
      return fail(p, "section %s: argument %u: by-value size %u (1..128)", s->name, i, size);
    if (tq & ~0x3fu) return fail(p, "section %s: argument %u: qualifier bits 0x%x (0..0x3f)", s->name, i, tq);
    if (((tq >> 3) & 7) && ((tq >> 3) & 7) != 1 && ((tq >> 3) & 7) != 2 && ((tq >> 3) & 7) != 4)
      return fail(p, "section %s: argument %u: more than one access qualifier (bits 0x%x)", s->name, i, tq);
    if (take_str(d, s->size, &at, a->name, sizeof a->name) || take_str(d, s->size, &at, a->type, sizeof a->type))
      return fail(p, "section %s: argument %u: name or type not NUL-terminated (or over 63 bytes)", s->name, i);
    at = (at + 3) & ~3u;
    a->aq = aq[space];
    a->size = size;
    a->acc = tq & 8 ? CL_KERNEL_ARG_ACCESS_READ_ONLY : tq & 16 ? CL_KERNEL_ARG_ACCESS_WRITE_ONLY
             : tq & 32 ? CL_KERNEL_ARG_ACCESS_READ_WRITE : CL_KERNEL_ARG_ACCESS_NONE;
    a->tq = (tq & 1 ? CL_KERNEL_ARG_TYPE_CONST : 0) | (tq & 2 ? CL_KERNEL_ARG_TYPE_RESTRICT : 0) |
            (tq & 4 ? CL_KERNEL_ARG_TYPE_VOLATILE : 0);
  }
  return CL_SUCCESS;
}

static cl_int parse_attrs(cl_program p, cy_kernel_info *k, const vt_elf_section *s) {
  char why[160];
  if (vt_kernel_attrs_read(s, k->reqd, k->attrs, sizeof k->attrs, why, sizeof why))
    return fail(p, "section %s: %s", s->name, why);
  return CL_SUCCESS;
}

#define CY_DEFAULT_PDS 0x1000u
#define CY_MAX_RES (16u << 20)

static cl_int parse_res(cl_program p, cy_kernel_info *k, const vt_elf_section *s) {
  const uint8_t *d = s->data;
  uint64_t lds, pds;
  if (d && s->size == 8) { /* four u16: VGPR, SGPR, LDS bytes, PDS bytes */
    lds = (uint32_t)d[4] | (uint32_t)d[5] << 8;
    pds = (uint32_t)d[6] | (uint32_t)d[7] << 8;
  } else if (d && s->size >= 56 && (rd32(d) == 2 || rd32(d) == 3)) {
    lds = rd64(d + 24);                                     /* LDSStaticBytes */
    uint64_t peak = rd64(d + 48);                           /* PDSStackPeakBytes, UINT64_MAX = unknown */
    pds = peak == UINT64_MAX ? CY_DEFAULT_PDS : rd64(d + 32) + peak;
  } else {
    return fail(p, "section %s: %u bytes is neither the 8-byte nor the versioned 56-byte form", s->name,
                s ? s->size : 0);
  }
  if (lds > CY_MAX_RES || pds > CY_MAX_RES)
    return fail(p, "section %s: %llu local / %llu private bytes (at most %u)", s->name, (unsigned long long)lds,
                (unsigned long long)pds, CY_MAX_RES);
  k->has_res = 1;
  k->lds_static = (uint32_t)lds;
  k->pds = pds ? ((uint32_t)pds + 3) & ~3u : 4;
  return CL_SUCCESS;
}

cl_int cy_program_scan(cl_program p) {
  for (size_t i = 0; i < p->nkinfo; i++) free(p->kinfo[i].args);
  free(p->kinfo);
  p->kinfo = NULL;
  p->nkinfo = 0;
  for (size_t i = 1; i < p->elf.nsecs; i++) {
    const vt_elf_section *s = &p->elf.secs[i];
    int args = !strncmp(s->name, ARGS_PREFIX, strlen(ARGS_PREFIX));
    int res = !strncmp(s->name, RES_PREFIX, strlen(RES_PREFIX));
    int attrs = !strncmp(s->name, ATTRS_PREFIX, strlen(ATTRS_PREFIX));
    if (!args && !res && !attrs) continue;
    const char *name = s->name + strlen(args ? ARGS_PREFIX : res ? RES_PREFIX : ATTRS_PREFIX);
    cy_kernel_info *k = kinfo_for(p, name);
    if (!k) return CL_OUT_OF_HOST_MEMORY;
    if ((args && k->has_args) || (res && k->has_res) || (attrs && k->has_attrs))
      return fail(p, "section %s appears twice", s->name);
    cl_int rc = args ? parse_args(p, k, s) : res ? parse_res(p, k, s) : parse_attrs(p, k, s);
    if (rc) return rc;
    if (attrs) k->has_attrs = 1;
  }
  for (size_t i = 0; i < p->nkinfo; i++) {
    cy_kernel_info *k = &p->kinfo[i];
    const vt_elf_symbol *sym = vt_elf_find_symbol(&p->elf, k->name);
    if (!sym || sym->shndx == SHN_UNDEF)
      return fail(p, "kernel %s: metadata sections name it, but the ELF defines no such symbol", k->name);
    k->entry = sym->value;
    if (!k->has_res) k->pds = CY_DEFAULT_PDS;
  }
  return CL_SUCCESS;
}

/* A kernel by name: one with metadata, else any defined global symbol in
 * an executable section (binaries without metadata). */
int cy_program_find_kernel(cl_program p, const char *name, cy_kernel_info *out) {
  for (size_t i = 0; i < p->nkinfo; i++)
    if (!strcmp(p->kinfo[i].name, name)) {
      *out = p->kinfo[i];
      return 0;
    }
  const vt_elf_symbol *sym = vt_elf_find_symbol(&p->elf, name);
  if (!sym || sym->bind != STB_GLOBAL || !sym->shndx || sym->shndx >= p->elf.nsecs ||
      !(p->elf.secs[sym->shndx].flags & SHF_EXECINSTR) || strlen(name) >= sizeof out->name)
    return -1;
  memset(out, 0, sizeof *out);
  strcpy(out->name, name);
  out->entry = sym->value;
  out->pds = CY_DEFAULT_PDS;
  return 0;
}
