/* `<address> <word>` files: the corpus expected results and --dump output. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "testvec.h"
#include "textfile.h"

static int parse_u32(const char **s, uint32_t *v) {
  const char *p = *s;
  while (*p == ' ' || *p == '\t') p++;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) p += 2;
  int nd = 0;
  uint32_t x = 0;
  while (isxdigit((unsigned char)*p)) {
    if (++nd > 8) return -1;
    int c = tolower((unsigned char)*p++);
    x = x << 4 | (uint32_t)(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  if (!nd) return -1;
  *s = p;
  *v = x;
  return 0;
}

int vt_memwords_read(const char *path, vt_memwords *out, vt_error *e) {
  memset(out, 0, sizeof *out);
  vt_textfile tf;
  if (vt_textfile_read(path, &tf, e)) return -1;
  for (size_t i = 0; i < tf.nlines; i++) {
    const char *s = tf.lines[i];
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '#') continue;
    uint32_t a, w;
    if (parse_u32(&s, &a) || parse_u32(&s, &w)) goto bad;
    while (isspace((unsigned char)*s)) s++;
    if (*s && *s != '#') goto bad;
    if (a & 3) {
      vt_fail(e, VT_ERR_FORMAT, "%s:%zu: address 0x%08x is not word-aligned", path, i + 1, a);
      goto fail;
    }
    if (out->n == out->cap) {
      size_t nc = out->cap ? out->cap * 2 : 256;
      vt_memword *nw = realloc(out->w, nc * sizeof *nw);
      if (!nw) {
        vt_fail(e, VT_ERR_NOMEM, "%s: out of memory", path);
        goto fail;
      }
      out->w = nw, out->cap = nc;
    }
    out->w[out->n].addr = a;
    out->w[out->n++].word = w;
    continue;
  bad:
    vt_fail(e, VT_ERR_FORMAT, "%s:%zu: expected '<address> <word>' in hex, got '%.60s'", path,
            i + 1, tf.lines[i]);
    goto fail;
  }
  if (out->n == 0) { /* comparing nothing must not report a match */
    vt_fail(e, VT_ERR_FORMAT, "%s: no '<address> <word>' lines", path);
    goto fail;
  }
  vt_textfile_free(&tf);
  return 0;
fail:
  vt_textfile_free(&tf);
  vt_memwords_free(out);
  return -1;
}

void vt_memwords_free(vt_memwords *m) {
  free(m->w);
  memset(m, 0, sizeof *m);
}

static uint32_t le32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

/* Whole words only: a first or last word that the range covers in part shows
 * the bytes outside the range as zero, so a buffer whose size is not a
 * multiple of 4 dumps without reading past its end. A read failure here is a
 * host-side problem (the range was checked), not a device fault. */
int vt_memwords_dump_range(vt_device *d, FILE *f, uint32_t addr, uint32_t size, vt_error *e) {
  uint64_t end = (uint64_t)addr + size;
  for (uint64_t a = addr & ~3u; a < end; a += 4) {
    uint8_t b[4] = {0};
    uint64_t lo = a < addr ? addr : a, hi = a + 4 < end ? a + 4 : end;
    vt_error re;
    if (vt_mem_read(d, (uint32_t)lo, b + (lo - a), (uint32_t)(hi - lo), &re))
      return vt_fail(e, VT_ERR_IO, "dump of [0x%08x, +0x%x): %s", addr, size, re.msg);
    fprintf(f, "0x%08x 0x%08x\n", (uint32_t)a, le32(b));
  }
  return 0;
}

int vt_memwords_compare(vt_device *d, const vt_memwords *m, const char *what, vt_error *e) {
  size_t bad = 0;
  char first[256] = "";
  size_t fl = 0;
  for (size_t i = 0; i < m->n; i++) {
    uint8_t b[4];
    vt_error re;
    int unmapped = vt_mem_read(d, m->w[i].addr, b, 4, &re) != 0;
    uint32_t got = unmapped ? 0 : le32(b);
    if (!unmapped && got == m->w[i].word) continue;
    if (bad < 3 && fl < sizeof first) {
      int k = unmapped ? snprintf(first + fl, sizeof first - fl, "%s0x%08x: unmapped, expected 0x%08x",
                                  bad ? "; " : "", m->w[i].addr, m->w[i].word)
                       : snprintf(first + fl, sizeof first - fl, "%s0x%08x: got 0x%08x, expected 0x%08x",
                                  bad ? "; " : "", m->w[i].addr, got, m->w[i].word);
      if (k > 0) fl += (size_t)k;
    }
    bad++;
  }
  if (!bad) return 0;
  return vt_fail(e, VT_ERR_MISMATCH, "%s: %zu of %zu words differ: %s%s", what ? what : "memory", bad,
                 m->n, first, bad > 3 ? "; ..." : "");
}
