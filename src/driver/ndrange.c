#include "ndrange.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_load.h"
#include "kernel_resource.h"
#include "vt_file.h"

/* strtoull/strtoul accept leading blanks and a sign ("-1" wraps to the
 * largest value): a number here starts with a digit. */
static int starts_with_digit(const char *s) { return *s >= '0' && *s <= '9'; }

int vt_parse_size(const char *s, uint64_t *v) {
  char *end;
  if (!starts_with_digit(s)) return -1;
  errno = 0;
  unsigned long long x = strtoull(s, &end, 0);
  if (end == s || errno) return -1;
  int shift = 0;
  if (*end == 'K' || *end == 'k') shift = 10, end++;
  else if (*end == 'M' || *end == 'm') shift = 20, end++;
  if (*end || x > (~0ull >> shift)) return -1;
  *v = x << shift;
  return 0;
}

static int parse_dims(const char *s, uint32_t v[3], uint32_t missing, int zero_ok) {
  v[0] = v[1] = v[2] = missing;
  int n = 0;
  const char *p = s;
  while (n < 3) {
    char *end;
    if (!starts_with_digit(p)) return -1;
    errno = 0;
    unsigned long long x = strtoull(p, &end, 0);
    if (end == p || errno || (x == 0 && !zero_ok) || x > 0xffffffffULL) return -1;
    v[n++] = (uint32_t)x;
    if (*end == 0) return n;
    if (*end != ',' && *end != 'x') return -1;
    p = end + 1;
  }
  return -1;
}

int vt_parse_dims(const char *s, uint32_t v[3]) { return parse_dims(s, v, 1, 0); }

int vt_parse_offsets(const char *s, uint32_t v[3]) { return parse_dims(s, v, 0, 1); }

void vt_karg_free(vt_karg *a) {
  free(a->init);
  a->init = NULL;
}

static int read_file(const char *path, vt_karg *a, vt_error *e) {
  size_t n;
  char *buf = vt_read_file(path, &n, e); /* refuses directories, devices, > 1 GiB */
  if (!buf) return -1;
  if (n == 0) {
    free(buf);
    return vt_fail(e, VT_ERR_FORMAT, "%s: buffer file is empty (a buffer needs at least one byte)", path);
  }
  a->init = (uint8_t *)buf;
  a->size = (uint32_t)n;
  return 0;
}

static int parse_scalar(const char *type, const char *val, uint32_t *out) {
  char *end;
  errno = 0;
  if (!strcmp(type, "f32")) {
    float f = strtof(val, &end);
    /* ERANGE also flags subnormal results, which are representable */
    if (end == val || *end || (errno && (f == 0.0f || isinf(f)))) return -1;
    memcpy(out, &f, 4);
    return 0;
  }
  if (!strcmp(type, "u32") || !strcmp(type, "u16") || !strcmp(type, "u8")) {
    unsigned long long x = strtoull(val, &end, 0);
    if (end == val || *end || errno || x > 0xffffffffULL) return -1;
    *out = (uint32_t)x;
    return 0;
  }
  if (!strcmp(type, "i32")) {
    long long x = strtoll(val, &end, 0);
    if (end == val || *end || errno || x < INT32_MIN || x > INT32_MAX) return -1;
    *out = (uint32_t)(int32_t)x;
    return 0;
  }
  return -1;
}

static int elem_size(const char *t) {
  if (!strcmp(t, "u8")) return 1;
  if (!strcmp(t, "u16")) return 2;
  if (!strcmp(t, "u32") || !strcmp(t, "i32") || !strcmp(t, "f32")) return 4;
  return 0;
}

int vt_karg_parse(const char *spec, vt_karg *a, vt_error *e) {
  memset(a, 0, sizeof *a);
  snprintf(a->spec, sizeof a->spec, "%s", spec);
  char tmp[512];
  if (strlen(spec) >= sizeof tmp) return vt_fail(e, VT_ERR_USAGE, "--arg %.60s...: too long", spec);
  strcpy(tmp, spec);
  char *f[4] = {0};
  int nf = 0;
  char *save = NULL;
  /* file=PATH may contain ':' -- split it off first */
  char *file = strstr(tmp, "file=");
  if (file && file > tmp && file[-1] == ':') file[-1] = 0;
  else if (file)
    goto bad;
  for (char *t = strtok_r(tmp, ":", &save); t && nf < 4; t = strtok_r(NULL, ":", &save)) f[nf++] = t;
  if (file && nf == 1 && !strcmp(f[0], "buf")) {
    a->kind = VT_KARG_BUF;
    return read_file(file + 5, a, e);
  }
  if (nf == 2 && strcmp(f[0], "buf") && elem_size(f[0])) {
    a->kind = VT_KARG_SCALAR;
    snprintf(a->type, sizeof a->type, "%s", f[0]);
    if (parse_scalar(f[0], f[1], &a->value))
      return vt_fail(e, VT_ERR_USAGE, "--arg %s: '%s' is not a valid %s", spec, f[1], f[0]);
    return 0;
  }
  if (nf >= 3 && !strcmp(f[0], "buf")) {
    a->kind = VT_KARG_BUF;
    uint64_t n;
    if (!strcmp(f[1], "zero") && nf == 3) {
      if (vt_parse_size(f[2], &n) || n == 0 || n > 0x40000000u)
        return vt_fail(e, VT_ERR_USAGE, "--arg %s: byte count '%s' is not 1 B .. 1 GiB (the buffer size limit)",
                       spec, f[2]);
      a->size = (uint32_t)n;
      return 0; /* init NULL: a fresh heap block already reads as zero */
    }
    int es = elem_size(f[1]);
    if (!es) goto bad;
    snprintf(a->type, sizeof a->type, "%s", f[1]);
    if (vt_parse_size(f[2], &n) || n == 0 || n * (uint64_t)es > 0x40000000u)
      return vt_fail(e, VT_ERR_USAGE,
                     "--arg %s: element count '%s' is not 1 .. %u (%d-byte elements, 1 GiB buffer size limit)",
                     spec, f[2], 0x40000000u / (unsigned)es, es);
    a->size = (uint32_t)(n * (uint64_t)es);
    const char *init = nf == 4 ? f[3] : "zero";
    uint32_t seed = 1, fillv = 0;
    int mode;
    if (!strcmp(init, "zero")) mode = 0;
    else if (!strcmp(init, "iota")) mode = 1;
    else if (!strncmp(init, "rand", 4)) {
      mode = 2;
      if (init[4] == '=' && parse_scalar("u32", init + 5, &seed)) goto bad;
      else if (init[4] && init[4] != '=') goto bad;
    } else if (!strncmp(init, "fill=", 5)) {
      mode = 3;
      if (parse_scalar(f[1], init + 5, &fillv)) goto bad;
    } else
      goto bad;
    if (mode == 0) return 0; /* as buf:zero: no host copy of the zeros */
    a->init = calloc(1, a->size);
    if (!a->init) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
    uint32_t x = seed ? seed : 1;
    for (uint64_t i = 0; i < n; i++) {
      uint32_t v = 0;
      if (mode == 1) {
        if (!strcmp(f[1], "f32")) {
          float fv = (float)i;
          memcpy(&v, &fv, 4);
        } else
          v = (uint32_t)i;
      } else if (mode == 2) {
        x ^= x << 13, x ^= x >> 17, x ^= x << 5; /* xorshift32: reproducible */
        if (!strcmp(f[1], "f32")) {
          float fv = (float)(x >> 8) / (float)(1u << 24);
          memcpy(&v, &fv, 4);
        } else
          v = x;
      } else if (mode == 3)
        v = fillv;
      for (int b = 0; b < es; b++) a->init[i * (uint64_t)es + (uint64_t)b] = (uint8_t)(v >> (8 * b));
    }
    return 0;
  }
bad:
  vt_karg_free(a);
  return vt_fail(e, VT_ERR_USAGE,
                 "--arg %s: expected buf:file=PATH, buf:zero:BYTES, buf:TYPE:COUNT[:zero|iota|rand[=SEED]|fill=V] "
                 "or TYPE:VALUE (TYPE u8 u16 u32 i32 f32)",
                 spec);
}

void vt_ndrange_defaults(vt_ndrange *nd) {
  memset(nd, 0, sizeof *nd);
  nd->work_dim = 1;
  for (int i = 0; i < 3; i++) nd->global[i] = nd->local[i] = 1;
  nd->threads = 0; /* 0 = the device's max_threads */
  nd->pds_size = VT_DEFAULT_PDS_SIZE;
  nd->lds_size = VT_DEFAULT_LDS_SIZE;
  nd->print_size = VT_DEFAULT_PRINT_SIZE;
}

static void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

int vt_ndrange_setup(vt_device *d, vt_heap *h, vt_ndrange *nd, vt_launch *l, vt_error *e) {
  const vt_config *cfg = vt_device_config(d);
  uint32_t threads = nd->threads ? nd->threads : cfg->max_threads;
  if (threads == 0 || threads > 32)
    return vt_fail(e, VT_ERR_USAGE, "--threads %u: threads per warp must be 1..32", threads);
  uint64_t grid[3], lin = 1;
  for (int i = 0; i < 3; i++) {
    if (!nd->local[i] || !nd->global[i])
      return vt_fail(e, VT_ERR_USAGE, "global and local sizes must be positive");
    lin *= nd->local[i];
  }
  /* no --threads: the widest warp that divides the work-group (no idle
   * lanes), as the OpenCL platform chooses, unless that needs more warps
   * than an SM holds */
  if (!nd->threads) {
    uint32_t t = threads;
    while (t > 1 && lin % t) t--;
    if ((lin + t - 1) / t <= cfg->warps_per_sm) threads = t;
  }
  for (int i = 0; i < 3; i++) {
    /* OpenCL 1.2 uniform work-groups: rounding up would run work-items the
     * kernel was not asked for and report a larger global size to it */
    if (nd->global[i] % nd->local[i])
      return vt_fail(e, VT_ERR_USAGE, "global size %u is not a multiple of the local size %u (dimension %d)",
                     nd->global[i], nd->local[i], i);
    grid[i] = nd->global[i] / nd->local[i];
  }
  if (grid[0] * grid[1] * grid[2] > (1u << 24))
    return vt_fail(e, VT_ERR_USAGE, "too many work-groups (%llu)",
                   (unsigned long long)(grid[0] * grid[1] * grid[2]));
  uint64_t warps = (lin + threads - 1) / threads;
  if (warps > 1024)
    return vt_fail(e, VT_ERR_USAGE, "local size %llu needs %llu warps of %u threads (at most 1024)",
                   (unsigned long long)lin, (unsigned long long)warps, threads);
  uint32_t entry;
  if (vt_kernel_load(d, nd->elf, NULL, e) || vt_kernel_symbol(nd->elf, nd->kernel, &entry, e)) return -1;

  /* kernel argument buffers, then the argument block */
  size_t nslots = nd->nargs ? nd->nargs : 1;
  uint8_t *argblk = calloc(nslots, 4);
  if (!argblk) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  int rc = -1;
  for (size_t i = 0; i < nd->nargs; i++) {
    vt_karg *a = &nd->args[i];
    if (a->kind == VT_KARG_BUF) {
      if (vt_heap_alloc(h, d, a->size, &a->addr, e) || (a->init && vt_mem_write(d, a->addr, a->init, a->size, e)))
        goto out;
      put32(argblk + 4 * i, a->addr);
    } else {
      put32(argblk + 4 * i, a->value);
    }
  }
  uint32_t argaddr = 0, knl, pds, print = 0;
  if (nd->nargs &&
      (vt_heap_alloc_perm(h, d, 4 * nd->nargs, VT_PERM_R, &argaddr, e) || vt_mem_write(d, argaddr, argblk, (uint32_t)(4 * nd->nargs), e)))
    goto out;
  /* the private memory the compiled kernel says a work-item uses: the
   * default grows to it; a smaller size asked for would let work-items
   * overwrite each other's variables */
  vt_elf_file kf;
  vt_error ie;
  uint64_t pds_use;
  memset(&kf, 0, sizeof kf);
  int read = !vt_elf_read_file(nd->elf, &kf, &ie);
  int known = read && !vt_kernel_pds_usage(&kf, nd->kernel, &pds_use);
  nd->namo_local = read ? vt_amo_local_list(&kf, nd->amo_local, VT_AMO_LOCAL_MAX) : 0;
  nd->ncode_ranges = read ? vt_code_extents(&kf, nd->kernel, nd->code_ranges, VT_CODE_RANGES_MAX) : 0;
  vt_elf_free(&kf);
  if (known && pds_use > nd->pds_size) {
    if (nd->pds_given || pds_use > 0x10000000u) {
      vt_fail(e, VT_ERR_USAGE, "kernel %.200s uses 0x%llx bytes of private memory per work-item, more than %s0x%x",
              nd->kernel, (unsigned long long)pds_use, nd->pds_given ? "--pds-size " : "", nd->pds_given ? nd->pds_size : 0x10000000u);
      goto out;
    }
    nd->pds_size = (uint32_t)pds_use;
  }
  /* private memory: pdsSize bytes per thread, in slices of a work-group */
  uint64_t nwg = grid[0] * grid[1] * grid[2];
  uint64_t per_wg = (uint64_t)nd->pds_size * threads * warps;
  uint64_t slices = vt_private_slices(cfg, nwg, per_wg);
  if (!slices) {
    vt_fail(e, VT_ERR_USAGE,
            "private memory (pds size 0x%x x %u threads x %llu warps per work-group, for %u resident "
            "work-groups) does not fit the device's 0x60000000 bytes: lower --pds-size",
            nd->pds_size, threads, (unsigned long long)warps, cfg->num_sm * cfg->wg_slots_per_sm);
    goto out;
  }
  if (vt_heap_alloc(h, d, per_wg * slices, &pds, e)) goto out;
  if (nd->print_size && vt_heap_alloc(h, d, nd->print_size, &print, e)) goto out;
  uint8_t md[VT_METADATA_BYTES] = {0};
  put32(md + 0, entry);
  put32(md + 4, argaddr);
  put32(md + 8, nd->work_dim);
  for (int i = 0; i < 3; i++) {
    put32(md + 12 + 4 * i, (uint32_t)(grid[i] * nd->local[i]));
    put32(md + 24 + 4 * i, nd->local[i]);
    put32(md + 36 + 4 * i, nd->offset[i]);
  }
  put32(md + 48, print);
  put32(md + 52, print ? nd->print_size : 0);
  put32(md + 56, 0);             /* KNL_LDS_STACK_SIZE_PER_WF: crt default */
  put32(md + 60, 0);             /* KNL_LDS_NON_STACK_SIZE */
  put32(md + 64, nd->pds_size);  /* KNL_PDS_SIZE_PER_THREAD */
  if (vt_heap_alloc_perm(h, d, sizeof md, VT_PERM_R, &knl, e) || vt_mem_write(d, knl, md, sizeof md, e)) goto out;
  memset(l, 0, sizeof *l);
  l->start_pc = 0x80000000u;
  for (int i = 0; i < 3; i++) l->grid[i] = (uint32_t)grid[i];
  l->num_threads = threads;
  l->num_warps = (uint32_t)warps;
  l->wg_threads = (uint32_t)lin;
  l->knl = knl;
  l->lds_size = nd->lds_size;
  l->pds_size = nd->pds_size;
  l->pds_base = pds;
  l->print_addr = print;
  l->amo_local = nd->namo_local ? nd->amo_local : NULL;
  l->namo_local = nd->namo_local;
  l->code_ranges = nd->ncode_ranges ? nd->code_ranges : NULL;
  l->ncode_ranges = nd->ncode_ranges;
  rc = 0;
out:
  free(argblk);
  return rc;
}

uint64_t vt_private_slices(const vt_config *cfg, uint64_t groups, uint64_t per_wg) {
  if (!per_wg || per_wg > 0x60000000u) return 0;
  if (groups <= VT_PRIVATE_BUDGET / per_wg) return groups;
  uint64_t slots = (uint64_t)cfg->num_sm * cfg->wg_slots_per_sm;
  if (groups < slots) slots = groups;
  return slots <= 0x60000000u / per_wg ? slots : 0;
}
