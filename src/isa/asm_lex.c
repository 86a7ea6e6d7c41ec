/* Lexical helpers: whitespace, identifiers, operand splitting, strings. */
#include <ctype.h>
#include <string.h>

#include "asm_int.h"

const char *asm_skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') p++;
  return p;
}

int asm_is_ident_start(int c) { return isalpha(c) || c == '_' || c == '.' || c == '$'; }
int asm_is_ident_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

void asm_copy(char *dst, size_t cap, const char *b, const char *e) {
  size_t n = (size_t)(e - b);
  if (n >= cap) n = cap - 1;
  memcpy(dst, b, n);
  dst[n] = 0;
}

int asm_split_operands(const char *s, const char **begins, const char **ends, int max) {
  s = asm_skip_ws(s);
  if (!*s) return 0;
  int n = 0, depth = 0;
  char quote = 0;
  const char *start = s;
  for (const char *p = s;; p++) {
    char c = *p;
    if (quote) {
      if (c == '\\' && p[1]) p++;
      else if (c == quote) quote = 0;
      else if (!c) return -2; /* unterminated */
      continue;
    }
    if (c == '"' || c == '\'') {
      /* '\'' only quotes a character literal like 'a' or '\n' */
      if (c == '\'' && !(p[1] && (p[2] == '\'' || (p[1] == '\\' && p[2] && p[3] == '\''))))
        continue;
      quote = c;
      continue;
    }
    if (c == '(') depth++;
    else if (c == ')') depth--;
    if ((c == ',' && depth <= 0) || !c) {
      if (n >= max) return -1;
      const char *b = asm_skip_ws(start), *e = p;
      while (e > b && isspace((unsigned char)e[-1])) e--;
      begins[n] = b;
      ends[n] = e;
      n++;
      if (!c) break;
      start = p + 1;
    }
  }
  return n;
}

static int hexval(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

const char *asm_parse_string(asm_object *o, const char *p, char *out, size_t cap, size_t *len) {
  size_t n = 0;
  if (*p != '"') {
    asm_error(o, p, "expected a string literal");
    return NULL;
  }
  const char *q = p + 1;
  for (;;) {
    int c = (unsigned char)*q;
    if (!c) {
      asm_error(o, p, "unterminated string");
      return NULL;
    }
    q++;
    if (c == '"') break;
    if (c == '\\') {
      int d = (unsigned char)*q++;
      switch (d) {
      case 'n': c = '\n'; break;
      case 't': c = '\t'; break;
      case 'r': c = '\r'; break;
      case 'b': c = '\b'; break;
      case 'f': c = '\f'; break;
      case 'v': c = '\v'; break;
      case 'a': c = '\a'; break;
      case '\\': c = '\\'; break;
      case '"': c = '"'; break;
      case '\'': c = '\''; break;
      case 'x': {
        int v = 0, k = 0;
        while (hexval(*q) >= 0 && k < 2) v = v * 16 + hexval(*q++), k++;
        if (!k) {
          asm_error(o, q - 2, "bad \\x escape");
          return NULL;
        }
        c = v;
        break;
      }
      default:
        if (d >= '0' && d <= '7') {
          int v = d - '0', k = 1;
          while (*q >= '0' && *q <= '7' && k < 3) v = v * 8 + (*q++ - '0'), k++;
          c = v & 0xff;
        } else {
          asm_error(o, q - 2, "unknown escape sequence");
          return NULL;
        }
      }
    }
    if (n + 1 >= cap) {
      asm_error(o, p, "string too long");
      return NULL;
    }
    out[n++] = (char)c;
  }
  out[n] = 0;
  *len = n;
  return q;
}
