/* Writing launches as upstream test vectors (testvec_write.h). The writer
 * keeps what a reader of the directory holds in memory once the launches
 * written so far have run -- the device's memory after each of them, and
 * the address ranges mapped -- so a later launch carries only what differs
 * from that (the words the host changed, new regions). */
#include "testvec_write.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vt_outfile.h"

#define PAGE 4096u
#define CODE_LO 0x80000000u /* the code window: code and the ELF's data, below the buffer heap */
#define CODE_HI 0x90000000u

typedef struct {
  uint32_t pn;   /* page number */
  uint8_t *data; /* PAGE bytes */
} shadow_page;

typedef struct {
  uint64_t lo, hi;
} span;

typedef struct {
  char *name;
  unsigned n;
} name_count;

typedef struct {
  uint32_t base, size, alloc;
} out_buf;

struct vt_tvexport {
  char *dir;
  shadow_page *pg; /* memory after the last launch, sorted by page; absent = zeros */
  size_t npg, pgcap;
  span *mapped;    /* ranges a reader has mapped, sorted and merged */
  size_t nmapped, mapcap;
  char **stems;    /* kernels.txt, in launch order */
  size_t nstems;
  name_count *names;
  size_t nnames;
};

static char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  char *p = malloc(n);
  if (p) memcpy(p, s, n);
  return p;
}

/* ---- the reader's memory --------------------------------------------------- */
static uint8_t *shadow_find(const vt_tvexport *x, uint32_t pn) {
  size_t lo = 0, hi = x->npg;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (x->pg[mid].pn < pn) lo = mid + 1;
    else hi = mid;
  }
  return lo < x->npg && x->pg[lo].pn == pn ? x->pg[lo].data : NULL;
}

static uint8_t *shadow_get(vt_tvexport *x, uint32_t pn) {
  size_t lo = 0, hi = x->npg;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (x->pg[mid].pn < pn) lo = mid + 1;
    else hi = mid;
  }
  if (lo < x->npg && x->pg[lo].pn == pn) return x->pg[lo].data;
  if (x->npg == x->pgcap) {
    size_t nc = x->pgcap ? 2 * x->pgcap : 64;
    shadow_page *np = realloc(x->pg, nc * sizeof *np);
    if (!np) return NULL;
    x->pg = np, x->pgcap = nc;
  }
  uint8_t *data = calloc(1, PAGE);
  if (!data) return NULL;
  memmove(&x->pg[lo + 1], &x->pg[lo], (x->npg - lo) * sizeof *x->pg);
  x->pg[lo] = (shadow_page){pn, data};
  x->npg++;
  return data;
}

static int is_mapped(const vt_tvexport *x, uint64_t lo, uint64_t hi) {
  for (size_t i = 0; i < x->nmapped; i++)
    if (x->mapped[i].lo <= lo && hi <= x->mapped[i].hi) return 1;
  return 0;
}

static int add_mapped(vt_tvexport *x, uint64_t lo, uint64_t hi) {
  if (x->nmapped == x->mapcap) {
    size_t nc = x->mapcap ? 2 * x->mapcap : 16;
    span *ns = realloc(x->mapped, nc * sizeof *ns);
    if (!ns) return -1;
    x->mapped = ns, x->mapcap = nc;
  }
  size_t i = 0;
  while (i < x->nmapped && x->mapped[i].lo < lo) i++;
  memmove(&x->mapped[i + 1], &x->mapped[i], (x->nmapped - i) * sizeof *x->mapped);
  x->mapped[i] = (span){lo, hi};
  x->nmapped++;
  size_t k = 0; /* merge touching or overlapping spans */
  for (size_t j = 1; j < x->nmapped; j++) {
    if (x->mapped[j].lo <= x->mapped[k].hi) {
      if (x->mapped[j].hi > x->mapped[k].hi) x->mapped[k].hi = x->mapped[j].hi;
    } else {
      x->mapped[++k] = x->mapped[j];
    }
  }
  x->nmapped = k + 1;
  return 0;
}

/* The device's bytes [a, a+n) inside one page and one region; a page never
 * touched reads as zeros without being created. */
static int read_cur(vt_device *d, uint32_t a, uint32_t n, uint8_t *buf, vt_error *e) {
  if (!vt_mem_page_present(d, a)) {
    memset(buf, 0, n);
    return 0;
  }
  return vt_mem_read(d, a, buf, n, e);
}

/* First and last byte offsets of region [rb, re) where the device differs
 * from the reader's memory; *first = -1 when they agree. */
static int region_diff(const vt_tvexport *x, vt_device *d, uint32_t rb, uint64_t re, int64_t *first, int64_t *last,
                       vt_error *e) {
  uint8_t cur[PAGE];
  static const uint8_t zeros[PAGE];
  *first = *last = -1;
  for (uint64_t a = rb; a < re;) {
    uint64_t end = (a | (PAGE - 1)) + 1;
    if (end > re) end = re;
    uint32_t off = (uint32_t)(a & (PAGE - 1)), n = (uint32_t)(end - a);
    const uint8_t *sh = shadow_find(x, (uint32_t)(a >> 12));
    if (sh || vt_mem_page_present(d, (uint32_t)a)) {
      if (read_cur(d, (uint32_t)a, n, cur, e)) return -1;
      const uint8_t *old = sh ? sh + off : zeros;
      if (memcmp(cur, old, n)) {
        uint32_t i = 0, j = n;
        while (cur[i] == old[i]) i++;
        while (cur[j - 1] == old[j - 1]) j--;
        if (*first < 0) *first = (int64_t)(a - rb + i);
        *last = (int64_t)(a - rb + j - 1);
      }
    }
    a = end;
  }
  return 0;
}

/* ---- one launch ------------------------------------------------------------ */
static uint32_t round4(uint64_t v) { return (uint32_t)((v + 3) & ~3ull); }

/* The buffers of the launch: every mapped region in address order. A region
 * new to the reader is described whole (base, its size as allocation) with
 * its full contents -- except the code window, the private region and the
 * print buffer, whose contents end at their last word the reader does not
 * already hold (pocl's code size, its empty private region); a region the
 * reader has gets the span of words that changed, if any. */
static int collect(vt_tvexport *x, vt_device *d, const vt_launch *l, out_buf **out, size_t *nout, vt_error *e) {
  out_buf *b = NULL;
  size_t n = 0, cap = 0;
  uint64_t a = 0;
  uint32_t rb, rs;
  unsigned rp;
  while (a < 0x100000000ull && vt_mem_region_from(d, (uint32_t)a, &rb, &rs, &rp)) {
    uint64_t re = (uint64_t)rb + rs;
    a = re;
    if (rp & VT_PERM_GUARD) continue; /* strict_bounds padding: no data, no access */
    int64_t f, last;
    if (region_diff(x, d, rb, re, &f, &last, e)) goto fail;
    int fresh = !is_mapped(x, rb, re);
    int trimmed = (rb >= CODE_LO && rb < CODE_HI) || (l->pds_base - rb < rs) ||
                  (l->print_addr && l->print_addr - rb < rs);
    out_buf o;
    if (fresh) {
      uint32_t size = trimmed ? (f < 0 ? 0 : round4((uint64_t)last + 1)) : rs;
      o = (out_buf){rb, size < rs ? size : rs, rs};
    } else if (f >= 0) {
      uint32_t lo = (uint32_t)f & ~3u, hi = round4((uint64_t)last + 1);
      if (hi > rs) hi = rs;
      o = (out_buf){rb + lo, hi - lo, hi - lo};
    } else {
      continue;
    }
    if (n == cap) {
      size_t nc = cap ? 2 * cap : 16;
      out_buf *nb = realloc(b, nc * sizeof *nb);
      if (!nb) {
        vt_fail(e, VT_ERR_NOMEM, "out of memory");
        goto fail;
      }
      b = nb, cap = nc;
    }
    b[n++] = o;
  }
  *out = b;
  *nout = n;
  return 0;
fail:
  free(b);
  return -1;
}

static void put64(FILE *f, uint32_t v) { fprintf(f, "%08x\n%08x\n", v, 0u); }

static int write_metadata(const char *path, const vt_launch *l, const out_buf *b, size_t n, vt_error *e) {
  vt_outfile of;
  FILE *f = vt_outfile_fopen(&of, path, e);
  if (!f) return -1;
  put64(f, l->start_pc);
  put64(f, l->kernel_id);
  for (int i = 0; i < 3; i++) put64(f, l->grid[i]);
  put64(f, l->num_threads);
  put64(f, l->num_warps);
  put64(f, l->knl);
  put64(f, l->lds_size);
  put64(f, l->pds_size);
  put64(f, l->sgprs ? l->sgprs : VT_TVEXPORT_DEFAULT_GPRS);
  put64(f, l->vgprs ? l->vgprs : VT_TVEXPORT_DEFAULT_GPRS);
  put64(f, l->pds_base);
  put64(f, (uint32_t)n);
  for (size_t i = 0; i < n; i++) put64(f, b[i].base);
  for (size_t i = 0; i < n; i++) put64(f, b[i].size);
  for (size_t i = 0; i < n; i++) put64(f, b[i].alloc);
  int rc = ferror(f) ? -1 : 0;
  if (fclose(f)) rc = -1;
  if (rc) vt_fail(e, VT_ERR_IO, "%s: write error", path);
  vt_error ig;
  if (vt_outfile_finish(&of, rc, rc ? &ig : e)) rc = -1;
  return rc;
}

/* The device's bytes [a, a+n), any alignment, pages never touched as zeros. */
static int read_range(vt_device *d, uint64_t a, uint32_t n, uint8_t *buf, vt_error *e) {
  for (uint64_t end = a + n; a < end;) {
    uint64_t pe = (a | (PAGE - 1)) + 1;
    if (pe > end) pe = end;
    if (read_cur(d, (uint32_t)a, (uint32_t)(pe - a), buf, e)) return -1;
    buf += pe - a;
    a = pe;
  }
  return 0;
}

/* Buffer contents as little-endian words from each buffer's base; a size
 * that is not a multiple of 4 (a region of such a size) is padded with
 * zeros. */
static int write_data(const char *path, vt_device *d, const out_buf *b, size_t n, vt_error *e) {
  vt_outfile of;
  FILE *f = vt_outfile_fopen(&of, path, e);
  if (!f) return -1;
  int rc = 0;
  uint8_t buf[PAGE];
  for (size_t i = 0; i < n && !rc; i++)
    for (uint32_t off = 0; off < b[i].size && !rc; off += PAGE) {
      uint32_t len = b[i].size - off < PAGE ? b[i].size - off : PAGE;
      memset(buf, 0, sizeof buf);
      if (read_range(d, (uint64_t)b[i].base + off, len, buf, e)) rc = -1;
      for (uint32_t k = 0; k < len && !rc; k += 4)
        fprintf(f, "%02x%02x%02x%02x\n", buf[k + 3], buf[k + 2], buf[k + 1], buf[k]);
    }
  if (ferror(f) && !rc) rc = vt_fail(e, VT_ERR_IO, "%s: write error", path);
  if (fclose(f) && !rc) rc = vt_fail(e, VT_ERR_IO, "%s: write error", path);
  vt_error ig;
  if (vt_outfile_finish(&of, rc, rc ? &ig : e)) rc = -1;
  return rc;
}

static char *path_of(const char *dir, const char *stem, const char *ext) {
  size_t n = strlen(dir) + strlen(stem) + strlen(ext) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s%s", dir, stem, ext);
  return p;
}

static int write_kernels_txt(const vt_tvexport *x, vt_error *e) {
  char *path = path_of(x->dir, "kernels.txt", "");
  if (!path) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  vt_outfile of;
  FILE *f = vt_outfile_fopen(&of, path, e);
  int rc = f ? 0 : -1;
  if (f) {
    fprintf(f, "# kernel launch order (load <k>.metadata + <k>.data, run, keep memory for next)\n");
    for (size_t i = 0; i < x->nstems; i++) fprintf(f, "%s\n", x->stems[i]);
    if (ferror(f)) rc = -1;
    if (fclose(f)) rc = -1;
    if (rc) vt_fail(e, VT_ERR_IO, "%s: write error", path);
    vt_error ig;
    if (vt_outfile_finish(&of, rc, rc ? &ig : e)) rc = -1;
  }
  free(path);
  return rc;
}

/* STEM of the launch: name or name_<n>, '/' (a kernels.txt path) as '_'. */
static char *make_stem(vt_tvexport *x, const char *name, int numbered, vt_error *e) {
  unsigned n = 0;
  if (numbered) {
    size_t i = 0;
    while (i < x->nnames && strcmp(x->names[i].name, name)) i++;
    if (i == x->nnames) {
      name_count *nn = realloc(x->names, (x->nnames + 1) * sizeof *nn);
      if (!nn) goto oom;
      x->names = nn;
      if (!(x->names[i].name = xstrdup(name))) goto oom;
      x->names[i].n = 0;
      x->nnames++;
    }
    n = x->names[i].n++;
  }
  size_t len = strlen(name) + 16;
  char *s = malloc(len);
  if (!s) goto oom;
  if (numbered) snprintf(s, len, "%s_%u", name, n);
  else snprintf(s, len, "%s", *name ? name : "launch");
  for (char *p = s; *p; p++)
    if (*p == '/') *p = '_';
  return s;
oom:
  vt_fail(e, VT_ERR_NOMEM, "out of memory");
  return NULL;
}

vt_tvexport *vt_tvexport_open(const char *dir, vt_error *e) {
  struct stat st;
  if (mkdir(dir, 0777) && errno != EEXIST) {
    vt_fail(e, VT_ERR_IO, "test-vector directory %s: cannot create it: %s", dir, strerror(errno));
    return NULL;
  }
  if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
    vt_fail(e, VT_ERR_IO, "test-vector directory %s: exists and is not a directory", dir);
    return NULL;
  }
  vt_tvexport *x = calloc(1, sizeof *x);
  if (!x || !(x->dir = xstrdup(dir))) {
    free(x);
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    return NULL;
  }
  if (write_kernels_txt(x, e)) { /* an empty list: no stale launches listed */
    vt_tvexport_close(x);
    return NULL;
  }
  return x;
}

int vt_tvexport_launch(vt_tvexport *x, vt_device *d, const vt_launch *l, const char *name, int numbered,
                       vt_error *e) {
  if (l->wg_threads && l->wg_threads % l->num_threads)
    return vt_fail(e, VT_ERR_USAGE,
                   "launch %s: a work-group of %u work-items in warps of %u threads has a partial warp, "
                   "which a test vector cannot hold (the hardware runs every lane): choose a warp width "
                   "that divides the work-group size",
                   name, l->wg_threads, l->num_threads);
  char **ns = realloc(x->stems, (x->nstems + 1) * sizeof *ns);
  if (!ns) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  x->stems = ns;
  char *stem = make_stem(x, name, numbered, e);
  if (!stem) return -1;
  char *mp = path_of(x->dir, stem, ".metadata"), *dp = path_of(x->dir, stem, ".data");
  out_buf *b = NULL;
  size_t n = 0;
  int rc = mp && dp ? 0 : vt_fail(e, VT_ERR_NOMEM, "out of memory");
  if (!rc) rc = collect(x, d, l, &b, &n, e);
  if (!rc) rc = write_metadata(mp, l, b, n, e);
  if (!rc) rc = write_data(dp, d, b, n, e);
  if (!rc) {
    x->stems[x->nstems++] = stem;
    stem = NULL;
    rc = write_kernels_txt(x, e);
  }
  for (size_t i = 0; i < n && !rc; i++)
    if (b[i].alloc && add_mapped(x, b[i].base, (uint64_t)b[i].base + b[i].alloc))
      rc = vt_fail(e, VT_ERR_NOMEM, "out of memory");
  free(b);
  free(stem);
  free(mp);
  free(dp);
  return rc;
}

int vt_tvexport_done(vt_tvexport *x, vt_device *d, vt_error *e) {
  uint8_t cur[PAGE];
  uint64_t a = 0;
  uint32_t rb, rs;
  unsigned rp;
  while (a < 0x100000000ull && vt_mem_region_from(d, (uint32_t)a, &rb, &rs, &rp)) {
    uint64_t re = (uint64_t)rb + rs;
    for (a = rb; a < re;) {
      uint64_t end = (a | (PAGE - 1)) + 1;
      if (end > re) end = re;
      uint32_t off = (uint32_t)(a & (PAGE - 1)), len = (uint32_t)(end - a);
      uint8_t *sh = shadow_find(x, (uint32_t)(a >> 12));
      if (!(rp & VT_PERM_GUARD) && vt_mem_page_present(d, (uint32_t)a)) {
        if (read_cur(d, (uint32_t)a, len, cur, e)) return -1;
        if (!sh && !cur[0] && !memcmp(cur, cur + 1, len - 1)) {
          a = end; /* all zero, as the reader's untouched memory */
          continue;
        }
        if (!sh && !(sh = shadow_get(x, (uint32_t)(a >> 12)))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
        memcpy(sh + off, cur, len);
      } else if (sh) {
        memset(sh + off, 0, len);
      }
      a = end;
    }
  }
  return 0;
}

void vt_tvexport_close(vt_tvexport *x) {
  if (!x) return;
  for (size_t i = 0; i < x->npg; i++) free(x->pg[i].data);
  for (size_t i = 0; i < x->nstems; i++) free(x->stems[i]);
  for (size_t i = 0; i < x->nnames; i++) free(x->names[i].name);
  free(x->pg);
  free(x->mapped);
  free(x->stems);
  free(x->names);
  free(x->dir);
  free(x);
}
