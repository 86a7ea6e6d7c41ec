/* Host side of the compiler's printf (print_records.h). Conversions follow
 * OpenCL 1.2 §6.12.13: flags, width and precision as in C, an optional
 * vector size vN (elements separated by commas) and the length modifiers
 * hh, h, hl and l; an l conversion takes two words, low first: a long, or
 * a double (the compiler writes l before a floating conversion of a
 * double and takes it away where the argument is 32 bits wide, see
 * src/cc/cc_printf.c); %s reads the string from the program image. */
#include <stdio.h>
#include <string.h>

#include "print_records.h"

#define MAX_RECORD 4096u /* bytes; the compiler writes at most 256 */

typedef struct {
  void (*out)(void *user, const char *text, size_t len);
  void *user;
} sink;

static void put(sink *k, const char *s, size_t n) {
  if (n) k->out(k->user, s, n);
}

static uint32_t rd32(const uint8_t *b) {
  return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int vt_print_has_records(const vt_elf_file *elf) {
  for (size_t i = 1; elf && i < elf->nsecs; i++)
    if (elf->secs[i].name && !strcmp(elf->secs[i].name, ".ventus.printf")) return 1;
  return 0;
}

/* the NUL-terminated string at address a of the image into dst (cut at cap) */
static int image_str(const vt_elf_file *elf, uint32_t a, char *dst, size_t cap) {
  for (size_t i = 0; i < elf->nsegs; i++) {
    const vt_elf_segment *s = &elf->segs[i];
    if (a < s->vaddr || a - s->vaddr >= s->filesz) continue;
    size_t at = a - s->vaddr, n = 0;
    while (at + n < s->filesz && n + 1 < cap && s->bytes[at + n]) n++;
    memcpy(dst, s->bytes + at, n);
    dst[n] = 0;
    return 0;
  }
  return -1;
}

/* one value of conversion c with the C spec in spec (ending in c); w64 the
 * two words of an l conversion */
static void convert(sink *k, const vt_elf_file *elf, char *spec, char c, const char *len, int wide, uint32_t w,
                    uint64_t w64) {
  char buf[512];
  int n;
  float x;
  if (wide) { /* 64 bits: a long as the host's long long, or a double */
    char spec64[72];
    size_t sl = strlen(spec);
    double d;
    memcpy(&d, &w64, 8);
    snprintf(spec64, sizeof spec64, "%.*sll%c", (int)(sl - 1), spec, c);
    if (c == 'd' || c == 'i') n = snprintf(buf, sizeof buf, spec64, (long long)(int64_t)w64);
    else if (strchr("ouxX", c)) n = snprintf(buf, sizeof buf, spec64, (unsigned long long)w64);
    else if (strchr("fFeEgGaA", c)) n = snprintf(buf, sizeof buf, spec, d);
    else n = 0;
    if (n > 0) put(k, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
    return;
  }
  switch (c) {
  case 'd':
  case 'i':
    n = snprintf(buf, sizeof buf, spec, !strcmp(len, "hh") ? (int)(signed char)w : !strcmp(len, "h") ? (int)(short)w : (int)w);
    break;
  case 'o':
  case 'u':
  case 'x':
  case 'X':
    n = snprintf(buf, sizeof buf, spec, !strcmp(len, "hh") ? (unsigned)(unsigned char)w
                                        : !strcmp(len, "h") ? (unsigned)(unsigned short)w
                                                            : (unsigned)w);
    break;
  case 'c': n = snprintf(buf, sizeof buf, spec, (int)(unsigned char)w); break;
  case 's': {
    char str[256];
    if (image_str(elf, w, str, sizeof str)) snprintf(str, sizeof str, "(bad string address 0x%08x)", (unsigned)w);
    n = snprintf(buf, sizeof buf, spec, str);
    break;
  }
  case 'p': n = snprintf(buf, sizeof buf, "0x%08x", (unsigned)w); break;
  default: /* f F e E g G a A */
    memcpy(&x, &w, 4);
    n = snprintf(buf, sizeof buf, spec, (double)x);
  }
  if (n > 0) put(k, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

/* one record: the format's text with its conversions filled in from w */
static void record(sink *k, const vt_elf_file *elf, const char *fmt, const uint8_t *w, size_t nw) {
  size_t used = 0;
  for (const char *p = fmt; *p;) {
    const char *lit = p;
    while (*p && *p != '%') p++;
    put(k, lit, (size_t)(p - lit));
    if (!*p) break;
    if (p[1] == '%') {
      put(k, "%", 1);
      p += 2;
      continue;
    }
    const char *start = p++;
    char spec[64] = "%", len[3] = "";
    size_t s = 1;
    while (*p && strchr("-+ #0", *p) && s < 8) spec[s++] = *p++;
    for (int d = 0; *p >= '0' && *p <= '9'; p++)
      if (d++ < 4) spec[s++] = *p; /* widths past 9999 are cut */
    if (*p == '.') {
      spec[s++] = *p++;
      for (int d = 0; *p >= '0' && *p <= '9'; p++)
        if (d++ < 4) spec[s++] = *p;
    }
    int vn = 0;
    if (*p == 'v') {
      for (p++; *p >= '0' && *p <= '9'; p++) vn = vn * 10 + (*p - '0');
      if (vn != 2 && vn != 3 && vn != 4 && vn != 8 && vn != 16) vn = -1;
    }
    if (p[0] == 'h' && (p[1] == 'h' || p[1] == 'l')) {
      len[0] = 'h', len[1] = p[1];
      p += 2;
    } else if (*p == 'h' || *p == 'l') {
      len[0] = *p++;
    }
    char c = *p;
    if (!c || !strchr("diouxXfFeEgGaAcsp", c) || vn < 0) { /* not a conversion: the text as it is */
      put(k, start, (size_t)(p - start) + (c ? 1 : 0));
      if (c) p++;
      continue;
    }
    p++;
    spec[s++] = c;
    spec[s] = 0;
    int wide = !strcmp(len, "l") && c != 'c' && c != 's' && c != 'p';
    for (int e = 0; e < (vn ? vn : 1); e++) {
      if (used + (size_t)wide >= nw) {
        put(k, "(missing argument)", 18);
        break;
      }
      if (e) put(k, ",", 1);
      uint32_t lo = rd32(w + 4 * used++);
      uint64_t w64 = lo;
      if (wide) w64 |= (uint64_t)rd32(w + 4 * used++) << 32;
      convert(k, elf, spec, c, len, wide, lo, w64);
    }
  }
}

void vt_print_records(const vt_elf_file *elf, const uint8_t *buf, size_t len,
                      void (*out)(void *user, const char *text, size_t len), void *user) {
  sink k = {out, user};
  char note[128];
  uint32_t rec = len >= 4 ? rd32(buf) : 0;
  if (rec < 4 || rec % 4 || rec > MAX_RECORD) {
    int n = snprintf(note, sizeof note, "(printf: a drain of %zu bytes with record size %u, not a record)\n", len,
                     (unsigned)rec);
    put(&k, note, (size_t)n);
    return;
  }
  for (size_t at = 4; at + rec <= len; at += rec) {
    uint32_t fa = rd32(buf + at);
    if (!fa) continue; /* an inactive lane */
    char fmt[1024];
    if (image_str(elf, fa, fmt, sizeof fmt)) {
      int n = snprintf(note, sizeof note, "(printf: no format string at 0x%08x)\n", (unsigned)fa);
      put(&k, note, (size_t)n);
      continue;
    }
    record(&k, elf, fmt, buf + at + 4, rec / 4 - 1);
  }
}
