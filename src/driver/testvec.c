/* .metadata / .data test vectors and kernels.txt sequences. */
#include "testvec.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "textfile.h"

#define TV_MAX_BUFFERS 4096u
#define TV_MAX_WGS (1u << 24)

/* Parses a line holding one hex word (8 digits, an optional 0x). */
static int parse_hex_line(const char *s, uint32_t *out) {
  while (*s == ' ' || *s == '\t') s++;
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
  int nd = 0;
  uint32_t v = 0;
  while (isxdigit((unsigned char)*s)) {
    if (++nd > 8) return -1;
    int c = tolower((unsigned char)*s++);
    v = v << 4 | (uint32_t)(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  while (*s == ' ' || *s == '\t' || *s == '\r') s++;
  if (!nd || *s) return -1;
  *out = v;
  return 0;
}

/* Reads all non-blank lines of a hex-word file. */
static int read_hex_words(const char *path, uint32_t **words, size_t **lines, size_t *n, vt_error *e) {
  vt_textfile tf;
  if (vt_textfile_read(path, &tf, e)) return -1;
  uint32_t *w = malloc((tf.nlines + 1) * sizeof *w);
  size_t *ln = malloc((tf.nlines + 1) * sizeof *ln);
  if (!w || !ln) {
    free(w), free(ln), vt_textfile_free(&tf);
    return vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
  }
  size_t k = 0;
  for (size_t i = 0; i < tf.nlines; i++) {
    const char *s = tf.lines[i];
    const char *t = s;
    while (isspace((unsigned char)*t)) t++;
    if (!*t) continue;
    if (parse_hex_line(s, &w[k])) {
      vt_fail(e, VT_ERR_FORMAT, "%s:%zu: not a 32-bit hex word: '%.40s'", path, i + 1, s);
      free(w), free(ln), vt_textfile_free(&tf);
      return -1;
    }
    ln[k++] = i + 1;
  }
  vt_textfile_free(&tf);
  *words = w;
  *lines = ln;
  *n = k;
  return 0;
}

void vt_testvec_free(vt_testvec *tv) {
  free(tv->bufs);
  free(tv->words);
  memset(tv, 0, sizeof *tv);
}

int vt_testvec_load(const char *meta_path, const char *data_path, vt_testvec *tv, vt_error *e) {
  memset(tv, 0, sizeof *tv);
  uint32_t *w = NULL;
  size_t *ln = NULL, n = 0;
  if (read_hex_words(meta_path, &w, &ln, &n, e)) return -1;
  int rc = -1;
  uint64_t f[14];
#define LINE(k) ((size_t)(k) < n ? ln[k] : (n ? ln[n - 1] + 1 : 1))
  if (n < 28) {
    vt_fail(e, VT_ERR_FORMAT, "%s:%zu: truncated metadata: %zu words, the fixed fields need 28",
            meta_path, LINE(n), n);
    goto out;
  }
  for (int i = 0; i < 14; i++) f[i] = (uint64_t)w[2 * i + 1] << 32 | w[2 * i];
  static const char *const fname[14] = {"start_addr", "kernel_id", "kernel_size[0]", "kernel_size[1]",
                                        "kernel_size[2]", "wf_size", "wg_size", "metaDataBaseAddr",
                                        "ldsSize", "pdsSize", "sgprUsage", "vgprUsage", "pdsBaseAddr",
                                        "num_buffer"};
  for (int i = 0; i < 14; i++)
    if (f[i] >> 32) {
      vt_fail(e, VT_ERR_FORMAT, "%s:%zu: %s = 0x%llx does not fit the 32-bit device", meta_path,
              LINE(2 * i + 1), fname[i], (unsigned long long)f[i]);
      goto out;
    }
  tv->start_pc = (uint32_t)f[0];
  tv->kernel_id = (uint32_t)f[1];
  for (int d = 0; d < 3; d++) tv->grid[d] = (uint32_t)f[2 + d];
  tv->wf_size = (uint32_t)f[5];
  tv->wg_size = (uint32_t)f[6];
  tv->knl = (uint32_t)f[7];
  tv->lds_size = (uint32_t)f[8];
  tv->pds_size = (uint32_t)f[9];
  tv->sgpr_usage = (uint32_t)f[10];
  tv->vgpr_usage = (uint32_t)f[11];
  tv->pds_base = (uint32_t)f[12];
  uint64_t nwg = (uint64_t)tv->grid[0] * tv->grid[1] * tv->grid[2];
  if (nwg == 0 || nwg > TV_MAX_WGS) {
    vt_fail(e, VT_ERR_FORMAT, "%s:%zu: impossible grid %ux%ux%u (1..%u work-groups)", meta_path,
            LINE(4), tv->grid[0], tv->grid[1], tv->grid[2], TV_MAX_WGS);
    goto out;
  }
  if (tv->wf_size == 0 || tv->wf_size > 32) {
    vt_fail(e, VT_ERR_FORMAT, "%s:%zu: wf_size %u: threads per warp must be 1..32", meta_path,
            LINE(10), tv->wf_size);
    goto out;
  }
  if (tv->wg_size == 0 || tv->wg_size > 1024) {
    vt_fail(e, VT_ERR_FORMAT, "%s:%zu: wg_size %u: warps per work-group must be 1..1024",
            meta_path, LINE(12), tv->wg_size);
    goto out;
  }
  uint64_t nb = f[13];
  if (nb > TV_MAX_BUFFERS) {
    vt_fail(e, VT_ERR_FORMAT, "%s:%zu: num_buffer %llu is absurd (at most %u)", meta_path,
            LINE(26), (unsigned long long)nb, TV_MAX_BUFFERS);
    goto out;
  }
  if (n < 28 + 6 * nb) {
    vt_fail(e, VT_ERR_FORMAT,
            "%s:%zu: truncated metadata: %llu buffers need %llu words, the file has %zu",
            meta_path, LINE(n), (unsigned long long)nb, (unsigned long long)(28 + 6 * nb), n);
    goto out;
  }
  tv->nbuf = (uint32_t)nb;
  tv->bufs = calloc(nb ? nb : 1, sizeof *tv->bufs);
  if (!tv->bufs) {
    vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", meta_path);
    goto out;
  }
  for (uint32_t i = 0; i < nb; i++) {
    uint64_t v[3];
    for (int a = 0; a < 3; a++) {
      size_t k = 28 + 2 * (a * nb + i);
      v[a] = (uint64_t)w[k + 1] << 32 | w[k];
      if (v[a] >> 32) {
        vt_fail(e, VT_ERR_FORMAT, "%s:%zu: buffer %u: value 0x%llx does not fit the 32-bit device",
                meta_path, LINE(k + 1), i, (unsigned long long)v[a]);
        goto out;
      }
    }
    vt_tv_buffer *b = &tv->bufs[i];
    b->base = (uint32_t)v[0], b->size = (uint32_t)v[1], b->allocsize = (uint32_t)v[2];
    size_t kl = 28 + 2 * (2 * nb + i);
    if (b->size > b->allocsize) {
      vt_fail(e, VT_ERR_FORMAT, "%s:%zu: buffer %u at 0x%08x: size 0x%x exceeds its allocation 0x%x",
              meta_path, LINE(kl), i, b->base, b->size, b->allocsize);
      goto out;
    }
    if ((uint64_t)b->base + b->allocsize > 0x100000000ull) {
      vt_fail(e, VT_ERR_FORMAT, "%s:%zu: buffer %u at 0x%08x + 0x%x runs past 4 GiB", meta_path,
              LINE(kl), i, b->base, b->allocsize);
      goto out;
    }
    for (uint32_t j = 0; j < i; j++) {
      const vt_tv_buffer *o = &tv->bufs[j];
      if (b->allocsize && o->allocsize && b->base < o->base + (uint64_t)o->allocsize &&
          o->base < b->base + (uint64_t)b->allocsize) {
        vt_fail(e, VT_ERR_FORMAT,
                "%s:%zu: buffer %u [0x%08x, +0x%x) overlaps buffer %u [0x%08x, +0x%x)", meta_path,
                LINE(28 + 2 * i), i, b->base, b->allocsize, j, o->base, o->allocsize);
        goto out;
      }
    }
  }
  if (data_path) {
    uint32_t *dw = NULL;
    size_t *dl = NULL, dn = 0;
    if (read_hex_words(data_path, &dw, &dl, &dn, e)) goto out;
    free(dl);
    size_t need = 0;
    for (uint32_t i = 0; i < nb; i++) {
      need += (tv->bufs[i].size + 3u) / 4u;
      if (need > dn) {
        vt_fail(e, VT_ERR_FORMAT,
                "%s:%zu: truncated data: buffer %u (0x%08x, 0x%x bytes) needs lines up to %zu",
                data_path, dn + 1, i, tv->bufs[i].base, tv->bufs[i].size, need);
        free(dw);
        goto out;
      }
    }
    if (dn > need) {
      vt_fail(e, VT_ERR_FORMAT, "%s:%zu: %zu data words but the metadata describes %zu", data_path,
              need + 1, dn, need);
      free(dw);
      goto out;
    }
    tv->words = dw;
    tv->nwords = dn;
  }
  rc = 0;
#undef LINE
out:
  free(w);
  free(ln);
  if (rc) vt_testvec_free(tv);
  return rc;
}

/* Maps the parts of [base, base+size) no region covers yet: regions of
 * earlier launches of the sequence stay as they are, with their contents
 * (an exported sequence may reuse an address range with another size). */
static int map_gaps(vt_device *d, uint32_t base, uint32_t size, vt_error *e) {
  uint64_t a = base, end = (uint64_t)base + size;
  while (a < end) {
    uint32_t rb, rs;
    unsigned rp;
    uint64_t gap_end = end;
    if (vt_mem_region_from(d, (uint32_t)a, &rb, &rs, &rp) && rb < end) {
      if (rb <= a) { /* inside a region: skip it */
        a = (uint64_t)rb + rs;
        continue;
      }
      gap_end = rb;
    }
    if (vt_mem_map(d, (uint32_t)a, (uint32_t)(gap_end - a), VT_PERM_RWX, e)) return -1;
    a = gap_end;
  }
  return 0;
}

int vt_testvec_install(vt_device *d, const vt_testvec *tv, vt_error *e) {
  size_t off = 0;
  for (uint32_t i = 0; i < tv->nbuf; i++) {
    const vt_tv_buffer *b = &tv->bufs[i];
    uint32_t alloc = b->allocsize ? b->allocsize : b->size;
    if (alloc && !vt_mem_is_mapped(d, b->base, alloc) && map_gaps(d, b->base, alloc, e)) return -1;
    uint32_t nw = (b->size + 3u) / 4u;
    if (tv->words && nw) {
      /* whole words, as the upstream loaders do (padding included) */
      uint32_t bytes = nw * 4u;
      if (bytes > alloc) bytes = b->size;
      uint8_t *tmp = malloc(nw * 4u);
      if (!tmp) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
      for (uint32_t k = 0; k < nw; k++) {
        uint32_t v = tv->words[off + k];
        tmp[4 * k] = (uint8_t)v, tmp[4 * k + 1] = (uint8_t)(v >> 8);
        tmp[4 * k + 2] = (uint8_t)(v >> 16), tmp[4 * k + 3] = (uint8_t)(v >> 24);
      }
      int r = vt_mem_write(d, b->base, tmp, bytes, e);
      free(tmp);
      if (r) return -1;
    }
    off += nw;
  }
  return 0;
}

void vt_testvec_launch(vt_device *d, const vt_testvec *tv, vt_launch *l) {
  memset(l, 0, sizeof *l);
  l->start_pc = tv->start_pc ? tv->start_pc : 0x80000000u;
  l->kernel_id = tv->kernel_id;
  for (int i = 0; i < 3; i++) l->grid[i] = tv->grid[i];
  l->num_threads = tv->wf_size;
  l->num_warps = tv->wg_size;
  l->knl = tv->knl;
  l->lds_size = tv->lds_size;
  l->pds_size = tv->pds_size;
  l->pds_base = tv->pds_base;
  l->vgprs = tv->vgpr_usage;
  l->sgprs = tv->sgpr_usage;
  uint32_t pa = 0;
  if (tv->knl && vt_mem_is_mapped(d, tv->knl + 48, 4)) {
    vt_error ig;
    if (vt_mem_read(d, tv->knl + 48, &pa, 4, &ig)) pa = 0;
  }
  l->print_addr = pa;
}
