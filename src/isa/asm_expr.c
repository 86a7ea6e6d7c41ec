/* Expressions: + - * / % << >> & | ^ ~ and parentheses over numbers,
 * character literals, symbols, numeric local labels (1b/1f) and `.`.
 * A value is absolute, section-relative or an undefined symbol + addend;
 * arithmetic wraps modulo 2^64 (asm_wrap_* in asm_int.h). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "asm_int.h"

typedef struct {
  asm_object *o;
  const char *p, *end;
  int depth; /* open parentheses and unary operators (recursion bound) */
} parser;

static int fail(parser *ps, const char *at, const char *msg) {
  return asm_error(ps->o, at, "%s", msg);
}

static const char *skip(parser *ps) {
  while (ps->p < ps->end && isspace((unsigned char)*ps->p)) ps->p++;
  return ps->p;
}

static int parse_or(parser *ps, asm_val *v);

static int parse_number(parser *ps, asm_val *v) {
  const char *s = ps->p;
  uint64_t val = 0;
  int base = 10;
  if (s[0] == '0' && s + 1 < ps->end && (s[1] == 'x' || s[1] == 'X')) base = 16, s += 2;
  else if (s[0] == '0' && s + 2 < ps->end + 1 && (s[1] == 'b' || s[1] == 'B') && s + 2 < ps->end &&
           (s[2] == '0' || s[2] == '1'))
    base = 2, s += 2;
  else if (s[0] == '0' && s + 1 < ps->end && isdigit((unsigned char)s[1])) base = 8, s += 1;
  const char *digits = s;
  while (s < ps->end && isalnum((unsigned char)*s)) {
    int c = tolower((unsigned char)*s), d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else d = 99;
    if (d >= base) break;
    if (val > (UINT64_MAX >> 4)) return fail(ps, ps->p, "number too large");
    val = val * (uint64_t)base + (uint64_t)d;
    s++;
  }
  if (s == digits) return fail(ps, ps->p, "malformed number");
  /* numeric local label reference: 1b / 1f */
  if (base == 10 && s < ps->end && (*s == 'b' || *s == 'f') &&
      (s + 1 >= ps->end || !asm_is_ident_char((unsigned char)s[1]))) {
    char cnt[48], name[48];
    snprintf(cnt, sizeof cnt, "\001%llu", (unsigned long long)val);
    int ci = asm_sym_get(ps->o, cnt, strlen(cnt));
    if (ci < 0) return -1; /* out of memory */
    int64_t k = ps->o->syms[ci].value;
    if (*s == 'b' && k == 0) return fail(ps, ps->p, "no previous definition of this numeric label");
    snprintf(name, sizeof name, ".L%llu\002%lld", (unsigned long long)val,
             (long long)(*s == 'b' ? k : k + 1));
    int si = asm_sym_get(ps->o, name, strlen(name));
    if (si < 0) return -1;
    asm_sym *y = &ps->o->syms[si];
    if (y->sec >= 0) *v = (asm_val){VAL_SEC, y->value, y->sec, si};
    else *v = (asm_val){VAL_UND, 0, -1, si};
    ps->p = s + 1;
    return 0;
  }
  if (s < ps->end && asm_is_ident_char((unsigned char)*s)) return fail(ps, ps->p, "malformed number");
  *v = (asm_val){VAL_ABS, (int64_t)val, -1, -1};
  ps->p = s;
  return 0;
}

static int parse_primary(parser *ps, asm_val *v) {
  const char *s = skip(ps);
  if (s >= ps->end) return fail(ps, s, "expected an expression");
  char c = *s;
  if (c == '(' || c == '-' || c == '~' || c == '+' || c == '!') {
    if (ps->depth >= ASM_EXPR_MAX_DEPTH) return fail(ps, s, "expression nested too deeply");
    ps->depth++;
    ps->p++;
    int rc;
    if (c == '(') {
      rc = parse_or(ps, v);
      if (!rc && (skip(ps) >= ps->end || *ps->p != ')')) rc = fail(ps, ps->p, "expected ')'");
      if (!rc) ps->p++;
    } else {
      rc = parse_primary(ps, v);
      if (!rc && c != '+') {
        if (v->kind != VAL_ABS) rc = fail(ps, s, "operator needs an absolute operand");
        else v->v = c == '-' ? asm_wrap_neg(v->v) : c == '~' ? ~v->v : !v->v;
      }
    }
    ps->depth--;
    return rc;
  }
  if (isdigit((unsigned char)c)) return parse_number(ps, v);
  if (c == '\'') {
    if (s + 2 < ps->end && s[1] != '\\' && s[2] == '\'') {
      *v = (asm_val){VAL_ABS, (unsigned char)s[1], -1, -1};
      ps->p = s + 3;
      return 0;
    }
    if (s + 3 < ps->end && s[1] == '\\' && s[3] == '\'') {
      int ch;
      switch (s[2]) {
      case 'n': ch = '\n'; break;
      case 't': ch = '\t'; break;
      case 'r': ch = '\r'; break;
      case '0': ch = 0; break;
      default: ch = (unsigned char)s[2]; break;
      }
      *v = (asm_val){VAL_ABS, ch, -1, -1};
      ps->p = s + 4;
      return 0;
    }
    return fail(ps, s, "malformed character literal");
  }
  if (asm_is_ident_start((unsigned char)c)) {
    const char *e = s + 1;
    while (e < ps->end && asm_is_ident_char((unsigned char)*e)) e++;
    ps->p = e;
    if (e == s + 1 && c == '.') {
      *v = (asm_val){VAL_SEC, asm_here(ps->o), ps->o->cur, -1};
      return 0;
    }
    int si = asm_sym_get(ps->o, s, (size_t)(e - s));
    if (si < 0) return -1; /* out of memory */
    asm_sym *y = &ps->o->syms[si];
    if (y->sec >= 0) *v = (asm_val){VAL_SEC, y->value, y->sec, si};
    else if (y->sec == SYM_ABS) *v = (asm_val){VAL_ABS, y->value, -1, si};
    else *v = (asm_val){VAL_UND, 0, -1, si};
    return 0;
  }
  return fail(ps, s, "unexpected character in expression");
}

static int combine(parser *ps, const char *at, char op, asm_val *a, const asm_val *b) {
  if (op == '+') {
    if (b->kind == VAL_ABS) { a->v = asm_wrap_add(a->v, b->v); return 0; }
    if (a->kind == VAL_ABS) {
      int64_t k = a->v;
      *a = *b;
      a->v = asm_wrap_add(a->v, k);
      return 0;
    }
    return fail(ps, at, "cannot add two relocatable values");
  }
  if (op == '-') {
    if (b->kind == VAL_ABS) { a->v = asm_wrap_sub(a->v, b->v); a->sym = a->kind == VAL_ABS ? -1 : a->sym; return 0; }
    if (a->kind == VAL_SEC && b->kind == VAL_SEC && a->sec == b->sec) {
      *a = (asm_val){VAL_ABS, asm_wrap_sub(a->v, b->v), -1, -1};
      return 0;
    }
    return fail(ps, at, "cannot subtract these values (different sections or undefined)");
  }
  if (a->kind != VAL_ABS || b->kind != VAL_ABS)
    return fail(ps, at, "operator needs absolute operands");
  int64_t x = a->v, y = b->v;
  switch (op) {
  case '*': x = asm_wrap_mul(x, y); break;
  case '/': case '%':
    if (!y) return fail(ps, at, "division by zero");
    x = op == '/' ? asm_wrap_div(x, y) : asm_wrap_rem(x, y);
    break;
  case '<': x = (int64_t)((uint64_t)x << (y & 63)); break;
  case '>': x >>= (y & 63); break;
  case '&': x &= y; break;
  case '|': x |= y; break;
  case '^': x ^= y; break;
  }
  *a = (asm_val){VAL_ABS, x, -1, -1};
  return 0;
}

/* precedence levels, loosest first */
static const char *const levels[] = {"|", "^", "&", "<>", "+-", "*/%"};
#define NLEVELS 6

static int parse_level(parser *ps, int lvl, asm_val *v) {
  if (lvl == NLEVELS) return parse_primary(ps, v);
  if (parse_level(ps, lvl + 1, v)) return -1;
  for (;;) {
    const char *s = skip(ps);
    if (s >= ps->end) return 0;
    char op = *s;
    int width = 1;
    if (!strchr(levels[lvl], op)) return 0;
    if (op == '<' || op == '>') {
      if (s + 1 >= ps->end || s[1] != op) return 0;
      width = 2;
    }
    ps->p += width;
    asm_val r;
    if (parse_level(ps, lvl + 1, &r)) return -1;
    if (combine(ps, s, op, v, &r)) return -1;
  }
}

static int parse_or(parser *ps, asm_val *v) { return parse_level(ps, 0, v); }

int asm_eval(asm_object *o, const char *b, const char *e, asm_val *out) {
  parser ps = {o, b, e, 0};
  int rc = parse_or(&ps, out);
  if (!rc && skip(&ps) < e) rc = fail(&ps, ps.p, "unexpected text after expression");
  if (rc && !o->final) { /* unresolved in an early pass: size with 0 */
    *out = (asm_val){VAL_ABS, 0, -1, -1};
    return 0;
  }
  return rc;
}

int asm_eval_abs(asm_object *o, const char *b, const char *e, int64_t *out) {
  asm_val v;
  if (asm_eval(o, b, e, &v)) return -1;
  if (v.kind != VAL_ABS) {
    *out = 0;
    if (!o->final) return 0;
    return asm_error(o, b, v.kind == VAL_UND ? "undefined symbol in constant expression"
                                            : "expected a constant expression");
  }
  *out = v.v;
  return 0;
}

int asm_reloc_op(asm_object *o, const char **b, const char **e) {
  static const struct {
    const char *name;
    int rk;
  } ops[] = {{"%hi", RK_HI}, {"%lo", RK_LO}, {"%pcrel_hi", RK_PCREL_HI}, {"%pcrel_lo", RK_PCREL_LO}};
  const char *s = *b;
  if (*s != '%') return RK_NONE;
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
    size_t n = strlen(ops[i].name);
    if ((size_t)(*e - s) > n && !strncmp(s, ops[i].name, n) && s[n] == '(' && (*e)[-1] == ')') {
      /* the closing paren must match the opening one */
      int depth = 0;
      for (const char *p = s + n; p < *e; p++) {
        if (*p == '(') depth++;
        else if (*p == ')' && --depth == 0 && p != *e - 1) goto bad;
      }
      *b = s + n + 1;
      *e = *e - 1;
      return ops[i].rk;
    }
  }
bad:
  asm_error(o, s, "unknown relocation operator");
  return -1;
}
