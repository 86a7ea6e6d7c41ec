/* Compiled text for an ISA revision 2025 device: revision 2025 reuses the
 * encodings of the baseline's private loads and stores (vlw.v, vsw.v, ...;
 * docs/isa-extensions.md "Reused encodings"), and has the same accesses,
 * the same words in the same interleaved layout, as vlw_private.v,
 * vsw_private.v, ... (its "Address spaces"). The back end names the
 * baseline's; this renames them in the finished text, where every
 * instruction is a line "        mnemonic operands". */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

static const char *const priv[] = {"vlb", "vlh", "vlw", "vlbu", "vlhu", "vsb", "vsh", "vsw"};

/* the length of the baseline private mnemonic at p ("vlw.v" and a blank), else 0 */
static size_t private_at(const char *p) {
  for (size_t i = 0; i < sizeof priv / sizeof *priv; i++) {
    size_t l = strlen(priv[i]);
    if (!strncmp(p, priv[i], l) && !strncmp(p + l, ".v", 2) && (p[l + 2] == ' ' || p[l + 2] == '\t')) return l;
  }
  return 0;
}

int cc_text_rev2025(char **text) {
  const char *s = *text;
  size_t n = 0, len = strlen(s);
  for (const char *p = s; *p; p++)
    if ((p == s || p[-1] == '\n') && !strncmp(p, "        ", 8) && private_at(p + 8)) n++;
  if (!n) return 0;
  char *out = malloc(len + n * 8 + 1), *o = out; /* "_private" is 8 more */
  if (!out) return -1;
  for (const char *p = s; *p;) {
    size_t l = (p == s || p[-1] == '\n') && !strncmp(p, "        ", 8) ? private_at(p + 8) : 0;
    if (l) {
      memcpy(o, p, 8 + l);
      o += 8 + l;
      memcpy(o, "_private", 8);
      o += 8;
      p += 8 + l;
    } else {
      *o++ = *p++;
    }
  }
  *o = 0;
  free(*text);
  *text = out;
  return 0;
}
