#include "vt_json.h"

/* Length of the valid UTF-8 sequence starting at s (2..4), or 0. */
static int utf8_len(const unsigned char *s) {
  int n = s[0] >= 0xf5 ? 0 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
  for (int k = 1; k < n; k++)
    if ((s[k] & 0xc0) != 0x80) return 0; /* stops at the terminating NUL too */
  if (n == 3 && ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))) return 0; /* overlong, surrogate */
  if (n == 4 && ((s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))) return 0; /* overlong, > U+10FFFF */
  return n;
}

void vt_json_str(FILE *f, const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  while (*s) {
    int n = *s >= 0x80 ? utf8_len(s) : 1;
    if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
    else if (*s < 0x20 || *s == 0x7f) fprintf(f, "\\u%04x", *s);
    else if (n == 0) fputs("\\ufffd", f), n = 1;
    else fwrite(s, 1, (size_t)n, f);
    s += n;
  }
  fputc('"', f);
}
