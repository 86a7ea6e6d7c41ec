/* The C preprocessor subset that assembly sources use (.S/.sx files):
 * object-like and function-like #define (with # and ##), #undef,
 * #include "file" / <file> (the including file's directory, then -I),
 * #if/#ifdef/#ifndef/#elif/#else/#endif with integer constant expressions
 * and defined(), #error, and // and block comments. #pragma, #warning,
 * #line and #ident are accepted and ignored.
 *
 * A directive is '#' directly followed by its name ("#define", "  #if");
 * '#' followed by a space is an assembly comment, as in "# if (i < n) ..."
 * (cpp would take that as a directive; our sources use such comments).
 * Predefined: __ASSEMBLER__ 1, __riscv 1, __riscv_xlen 32, __ventus__ 1. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_int.h"

#define PP_MAX_DEPTH 32  /* nested #include */
#define PP_MAX_EXPAND 64 /* nested macro expansion */
#define PP_MAX_COND 64   /* nested #if */
/* One line's expansion: bounds time and memory of exponential #define
 * chains (each level doubling the text), as the .macro expander does. */
#define PP_MAX_CALLS 1000000       /* macro invocations */
#define PP_MAX_OUT (16u << 20)     /* bytes of expanded text */

typedef struct {
  char *name, *body;
  char **params;
  int nparams, funclike;
} pp_macro;

typedef struct {
  char *p;
  size_t n, cap;
} sbuf;

typedef struct {
  asm_object *o;
  asm_lines *out;
  pp_macro *m;
  int nm, capm;
  const char *chain[PP_MAX_DEPTH]; /* files being included */
  int depth;
  long calls; /* macro invocations in the line being expanded */
  const char *file; /* location for diagnostics */
  int line;
} pp;

static int nomem(pp *P) { return asm_nomem(P->o); }

/* Out of memory: sets the sticky o->nomem and leaves the buffer as it was
 * (every caller stops on o->nomem). */
static void sb_add(pp *P, sbuf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    size_t cap = b->cap ? b->cap : 128;
    while (cap < b->n + n + 1) cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
      nomem(P);
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

static void sb_str(pp *P, sbuf *b, const char *s) { sb_add(P, b, s, strlen(s)); }

static int perr(pp *P, int col, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(pp *P, int col, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return asm_diag_at(P->o, P->file, P->line, col, "%s", msg);
}

static int id_start(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int id_char(int c) { return isalnum(c) || c == '_' || c == '$'; }

static pp_macro *find(pp *P, const char *s, size_t n) {
  for (int i = 0; i < P->nm; i++)
    if (strlen(P->m[i].name) == n && !memcmp(P->m[i].name, s, n)) return &P->m[i];
  return NULL;
}

static void undef(pp *P, const char *s, size_t n) {
  pp_macro *m = find(P, s, n);
  if (!m) return;
  free(m->name);
  free(m->body);
  for (int k = 0; k < m->nparams; k++) free(m->params[k]);
  free(m->params);
  *m = P->m[--P->nm];
}

/* A new macro with no body yet; NULL if out of memory (o->nomem). */
static pp_macro *define(pp *P, const char *s, size_t n) {
  undef(P, s, n);
  if (P->nm == P->capm) {
    int cap = P->capm ? P->capm * 2 : 32;
    pp_macro *m = realloc(P->m, (size_t)cap * sizeof *m);
    if (!m) return nomem(P), NULL;
    P->m = m;
    P->capm = cap;
  }
  pp_macro *m = &P->m[P->nm];
  memset(m, 0, sizeof *m);
  m->name = strndup(s, n);
  if (!m->name) return nomem(P), NULL;
  P->nm++;
  return m;
}

/* NULL if out of memory. */
static char *trimdup(const char *b, const char *e) {
  while (b < e && isspace((unsigned char)*b)) b++;
  while (e > b && isspace((unsigned char)e[-1])) e--;
  return strndup(b, (size_t)(e - b));
}

/* ---- expansion ----------------------------------------------------------------- */
typedef struct active {
  const char *name;
  const struct active *up;
} active;

static int is_active(const active *a, const char *name) {
  for (; a; a = a->up)
    if (!strcmp(a->name, name)) return 1;
  return 0;
}

/* Length of a string or character literal at s (0 if none). */
static size_t literal_len(const char *s, const char *end) {
  if (*s == '"') {
    const char *p = s + 1;
    while (p < end && *p != '"') p += (*p == '\\' && p + 1 < end) ? 2 : 1;
    return (size_t)((p < end ? p + 1 : end) - s);
  }
  if (*s == '\'') {
    if (end - s >= 3 && s[1] != '\\' && s[2] == '\'') return 3;
    if (end - s >= 4 && s[1] == '\\' && s[3] == '\'') return 4;
  }
  return 0;
}

static int expand(pp *P, const char *s, size_t n, sbuf *out, const active *act, int depth);

/* Collects "( a, b )" at *pp; returns the argument count, -1 (no '(' /
 * unbalanced) or -2 (out of memory). args[i] are malloc'd, trimmed. */
static int collect_args(const char **ps, const char *end, char ***args) {
  const char *p = *ps;
  while (p < end && isspace((unsigned char)*p)) p++;
  if (p >= end || *p != '(') return -1;
  p++;
  int n = 0, depth = 0;
  char **v = NULL;
  const char *start = p;
  for (; p < end; p++) {
    size_t lit = literal_len(p, end);
    if (lit) {
      p += lit - 1;
      continue;
    }
    if (*p == '(') depth++;
    else if ((*p == ')' && depth == 0) || (*p == ',' && depth == 0)) {
      char **nv = realloc(v, (size_t)(n + 1) * sizeof *nv);
      char *a = nv ? trimdup(start, p) : NULL;
      if (nv) v = nv;
      if (!a) {
        for (int i = 0; i < n; i++) free(v[i]);
        free(v);
        return -2;
      }
      v[n++] = a;
      start = p + 1;
      if (*p == ')') {
        *ps = p + 1;
        *args = v;
        return n;
      }
    } else if (*p == ')') depth--;
  }
  for (int i = 0; i < n; i++) free(v[i]);
  free(v);
  return -1;
}

/* Body of a function-like macro with its parameters replaced. */
static int substitute(pp *P, const pp_macro *m, char **args, sbuf *out, const active *act,
                      int depth) {
  const char *b = m->body, *end = b + strlen(b);
  for (const char *p = b; p < end;) {
    if (P->o->nomem) return -1;
    size_t lit = literal_len(p, end);
    if (lit) {
      sb_add(P, out, p, lit);
      p += lit;
      continue;
    }
    if (p[0] == '#' && p + 1 < end && p[1] == '#') {
      sb_str(P, out, "##");
      p += 2;
      continue;
    }
    int stringify = 0;
    const char *q = p;
    if (*p == '#') {
      q = p + 1;
      while (q < end && isspace((unsigned char)*q)) q++;
      stringify = 1;
    }
    if (id_start((unsigned char)*q)) {
      const char *e = q;
      while (e < end && id_char((unsigned char)*e)) e++;
      int k = -1;
      for (int i = 0; i < m->nparams; i++)
        if (strlen(m->params[i]) == (size_t)(e - q) && !memcmp(m->params[i], q, (size_t)(e - q)))
          k = i;
      if (k < 0 && m->nparams && !strcmp(m->params[m->nparams - 1], "...") && e - q == 11 &&
          !memcmp(q, "__VA_ARGS__", 11))
        k = m->nparams - 1;
      if (k < 0) {
        sb_add(P, out, p, (size_t)(e - p));
        p = e;
        continue;
      }
      if (stringify) {
        sb_str(P, out, "\"");
        for (const char *a = args[k]; *a; a++) {
          if (*a == '"' || *a == '\\') sb_str(P, out, "\\");
          sb_add(P, out, a, 1);
        }
        sb_str(P, out, "\"");
      } else {
        /* operands of ## are not expanded first */
        const char *after = e;
        while (after < end && isspace((unsigned char)*after)) after++;
        size_t o = out->n;
        while (o > 0 && isspace((unsigned char)out->p[o - 1])) o--;
        int paste = (after + 1 < end && after[0] == '#' && after[1] == '#') ||
                    (o >= 2 && out->p[o - 1] == '#' && out->p[o - 2] == '#');
        if (paste) sb_str(P, out, args[k]);
        else if (expand(P, args[k], strlen(args[k]), out, act, depth + 1)) return -1;
      }
      p = e;
      continue;
    }
    sb_add(P, out, p, 1);
    p++;
  }
  /* token pasting: drop "##" and the blanks around it */
  char *w = out->p;
  size_t j = 0;
  for (size_t i = 0; i < out->n; i++) {
    if (out->p[i] == '#' && i + 1 < out->n && out->p[i + 1] == '#') {
      while (j > 0 && isspace((unsigned char)w[j - 1])) j--;
      i += 2;
      while (i < out->n && isspace((unsigned char)out->p[i])) i++;
      i--;
      continue;
    }
    w[j++] = out->p[i];
  }
  out->n = j;
  if (out->p) out->p[j] = 0;
  return 0;
}

static int expand(pp *P, const char *s, size_t n, sbuf *out, const active *act, int depth) {
  if (depth > PP_MAX_EXPAND) return perr(P, 1, "macro expansion too deep");
  if (!depth) P->calls = 0;
  const char *end = s + n;
  for (const char *p = s; p < end;) {
    if (P->o->nomem) return -1;
    if (out->n > PP_MAX_OUT)
      return perr(P, 1, "macro expansion too large (more than %u MiB of text)", PP_MAX_OUT >> 20);
    size_t lit = literal_len(p, end);
    if (lit) {
      sb_add(P, out, p, lit);
      p += lit;
      continue;
    }
    if (isdigit((unsigned char)*p) || (*p == '.' && p + 1 < end && isdigit((unsigned char)p[1]))) {
      const char *e = p + 1;
      while (e < end && (id_char((unsigned char)*e) || *e == '.')) e++;
      sb_add(P, out, p, (size_t)(e - p));
      p = e;
      continue;
    }
    if (!id_start((unsigned char)*p)) {
      sb_add(P, out, p, 1);
      p++;
      continue;
    }
    const char *e = p;
    while (e < end && id_char((unsigned char)*e)) e++;
    pp_macro *m = find(P, p, (size_t)(e - p));
    if (!m || is_active(act, m->name)) {
      sb_add(P, out, p, (size_t)(e - p));
      p = e;
      continue;
    }
    if (++P->calls > PP_MAX_CALLS)
      return perr(P, 1, "macro expansion too large (more than %d macro calls)", PP_MAX_CALLS);
    active me = {m->name, act};
    if (!m->funclike) {
      if (expand(P, m->body, strlen(m->body), out, &me, depth + 1)) return -1;
      p = e;
      continue;
    }
    const char *q = e;
    char **args = NULL;
    int na = collect_args(&q, end, &args);
    if (na == -2) return nomem(P);
    if (na < 0) { /* a function-like macro's name without arguments */
      sb_add(P, out, p, (size_t)(e - p));
      p = e;
      continue;
    }
    int variadic = m->nparams && !strcmp(m->params[m->nparams - 1], "...");
    if (na == 1 && !m->nparams && !args[0][0]) {
      free(args[0]);
      na = 0;
    }
    int rc = 0;
    if (variadic && na >= m->nparams) { /* fold the extra arguments into __VA_ARGS__ */
      sbuf va = {0};
      for (int i = m->nparams - 1; i < na; i++) {
        if (i > m->nparams - 1) sb_str(P, &va, ", ");
        sb_str(P, &va, args[i]);
      }
      for (int i = m->nparams - 1; i < na; i++) free(args[i]);
      args[m->nparams - 1] = va.p ? va.p : strdup("");
      na = m->nparams;
      if (!args[na - 1]) nomem(P);
    } else if (variadic && na == m->nparams - 1) {
      char **nv = realloc(args, (size_t)(na + 1) * sizeof *nv);
      char *a = nv ? strdup("") : NULL;
      if (nv) args = nv;
      if (a) args[na++] = a;
      else nomem(P);
    }
    if (P->o->nomem) {
      rc = -1;
    } else if (na != m->nparams) {
      rc = perr(P, 1, "macro '%s' takes %d argument(s), given %d", m->name, m->nparams, na);
    } else {
      sbuf body = {0};
      rc = substitute(P, m, args, &body, act, depth);
      if (!rc && body.p) rc = expand(P, body.p, body.n, out, &me, depth + 1);
      free(body.p);
    }
    for (int i = 0; i < na; i++) free(args[i]);
    free(args);
    if (rc) return -1;
    p = q;
  }
  return 0;
}

/* ---- #if expressions --------------------------------------------------------------- */
typedef struct {
  const char *p;
  int err;
  int depth, deep; /* nesting (recursion bound); deep: the bound was hit */
  int (*lookup)(void *ctx, const char *name, size_t len, long long *v); /* NULL: names are 0 */
  void *ctx;
} ev;

static long long ev_cond(ev *E);

static void ev_ws(ev *E) {
  while (isspace((unsigned char)*E->p)) E->p++;
}

static long long ev_unary(ev *E) {
  ev_ws(E);
  char c = *E->p;
  if (c == '(' || c == '!' || c == '~' || c == '-' || c == '+') {
    if (E->depth >= ASM_EXPR_MAX_DEPTH) {
      E->err = E->deep = 1;
      return 0;
    }
    E->depth++;
    E->p++;
    long long v;
    if (c == '(') {
      v = ev_cond(E);
      ev_ws(E);
      if (*E->p != ')') E->err = 1;
      else E->p++;
    } else {
      v = ev_unary(E);
      v = c == '!' ? !v : c == '~' ? ~v : c == '-' ? asm_wrap_neg(v) : v;
    }
    E->depth--;
    return v;
  }
  if (isdigit((unsigned char)c)) {
    char *e;
    long long v = (long long)strtoull(E->p, &e, 0);
    while (*e == 'u' || *e == 'U' || *e == 'l' || *e == 'L') e++;
    if (id_char((unsigned char)*e)) E->err = 1;
    E->p = e;
    return v;
  }
  size_t lit = literal_len(E->p, E->p + strlen(E->p));
  if (c == '\'' && lit) {
    long long v = lit == 3 ? (unsigned char)E->p[1] : E->p[2] == 'n' ? '\n' : E->p[2] == 't' ? '\t'
                                                     : E->p[2] == '0' ? 0 : (unsigned char)E->p[2];
    E->p += lit;
    return v;
  }
  if (id_start((unsigned char)c) || (c == '.' && E->lookup)) {
    /* #if: an identifier left after expansion is 0 */
    const char *b = E->p++;
    while (id_char((unsigned char)*E->p) || (*E->p == '.' && E->lookup)) E->p++;
    long long v = 0;
    if (E->lookup && !E->lookup(E->ctx, b, (size_t)(E->p - b), &v)) E->err = 1;
    return v;
  }
  E->err = 1;
  return 0;
}

static const struct {
  const char *op;
  int prec;
} binops[] = {{"||", 1}, {"&&", 2}, {"|", 3}, {"^", 4},  {"&", 5},  {"==", 6}, {"!=", 6},
              {"<=", 7}, {">=", 7}, {"<<", 8}, {">>", 8}, {"<", 7},  {">", 7},  {"+", 9},
              {"-", 9},  {"*", 10}, {"/", 10}, {"%", 10}};

static long long ev_bin(ev *E, int minprec) {
  long long a = ev_unary(E);
  if (E->err) return a;
  for (;;) {
    ev_ws(E);
    int k = -1;
    for (size_t i = 0; i < sizeof binops / sizeof binops[0] && k < 0; i++) {
      size_t l = strlen(binops[i].op);
      if (!strncmp(E->p, binops[i].op, l) && !(l == 1 && (E->p[1] == '|' || E->p[1] == '&') &&
                                               E->p[1] == E->p[0]))
        k = (int)i;
    }
    if (k < 0 || binops[k].prec < minprec || E->err) return a;
    E->p += strlen(binops[k].op);
    long long b = ev_bin(E, binops[k].prec + 1);
    const char *op = binops[k].op;
    switch (op[0]) {
    case '|': a = op[1] ? (a || b) : (a | b); break;
    case '&': a = op[1] ? (a && b) : (a & b); break;
    case '^': a ^= b; break;
    case '=': a = a == b; break;
    case '!': a = a != b; break;
    case '<': a = op[1] == '=' ? a <= b : op[1] == '<' ? (long long)((unsigned long long)a << (b & 63)) : a < b; break;
    case '>': a = op[1] == '=' ? a >= b : op[1] == '>' ? a >> (b & 63) : a > b; break;
    case '+': a = asm_wrap_add(a, b); break;
    case '-': a = asm_wrap_sub(a, b); break;
    case '*': a = asm_wrap_mul(a, b); break;
    default:
      if (!b) E->err = 1;
      else a = op[0] == '/' ? asm_wrap_div(a, b) : asm_wrap_rem(a, b);
    }
  }
}

static long long ev_cond(ev *E) {
  long long c = ev_bin(E, 1);
  ev_ws(E);
  if (*E->p != '?' || E->err) return c;
  if (E->depth >= ASM_EXPR_MAX_DEPTH) {
    E->err = E->deep = 1;
    return 0;
  }
  E->p++;
  E->depth++; /* a ? b : c ? ... recurses once per '?' */
  long long a = ev_cond(E);
  ev_ws(E);
  if (*E->p != ':') {
    E->err = 1;
    return 0;
  }
  E->p++;
  long long b = ev_cond(E);
  E->depth--;
  return c ? a : b;
}

int asm_const_eval(const char *s, int (*lookup)(void *, const char *, size_t, long long *),
                   void *ctx, long long *out) {
  ev E = {s, 0, 0, 0, lookup, ctx};
  ev_ws(&E);
  if (!*E.p) return -1;
  *out = ev_cond(&E);
  ev_ws(&E);
  return E.err || *E.p ? -1 : 0;
}

/* Evaluates an #if/#elif condition; -1 on error (reported). */
static int eval_if(pp *P, const char *s, int col) {
  sbuf d = {0}; /* defined X / defined(X) replaced first */
  const char *end = s + strlen(s);
  for (const char *p = s; p < end;) {
    if (id_start((unsigned char)*p)) {
      const char *e = p;
      while (e < end && id_char((unsigned char)*e)) e++;
      if (e - p == 7 && !memcmp(p, "defined", 7)) {
        const char *q = e;
        while (isspace((unsigned char)*q)) q++;
        int paren = *q == '(';
        if (paren) q++;
        while (isspace((unsigned char)*q)) q++;
        const char *nb = q;
        while (id_char((unsigned char)*q)) q++;
        const char *ne = q;
        while (isspace((unsigned char)*q)) q++;
        if (ne == nb || (paren && *q != ')')) {
          free(d.p);
          return perr(P, col, "#if: 'defined' needs a macro name"), -1;
        }
        sb_str(P, &d, find(P, nb, (size_t)(ne - nb)) ? "1" : "0");
        p = paren ? q + 1 : ne;
        continue;
      }
      sb_add(P, &d, p, (size_t)(e - p));
      p = e;
      continue;
    }
    sb_add(P, &d, p, 1);
    p++;
  }
  sbuf x = {0};
  int rc = P->o->nomem ? -1 : d.p ? expand(P, d.p, d.n, &x, NULL, 0) : 0;
  free(d.p);
  if (rc || P->o->nomem) {
    free(x.p);
    return -1;
  }
  ev E = {x.p ? x.p : "", 0, 0, 0, NULL, NULL};
  ev_ws(&E);
  if (!*E.p) E.err = 1;
  long long v = E.err ? 0 : ev_cond(&E);
  ev_ws(&E);
  if (*E.p) E.err = 1;
  free(x.p);
  if (E.deep) return perr(P, col, "#if: expression nested too deeply"), -1;
  if (E.err) return perr(P, col, "#if: bad constant expression '%s'", s), -1;
  return v != 0;
}

/* ---- directives ------------------------------------------------------------------------- */
typedef struct {
  int parent, taking, taken, seen_else, line;
  char name[8];
} cond;

static void process(pp *P, const char *name, const char *text);

static void do_include(pp *P, const char *arg, int col) {
  const char *p = arg;
  char close = *p == '"' ? '"' : *p == '<' ? '>' : 0;
  const char *q = close ? strchr(p + 1, close) : NULL;
  if (!q) {
    perr(P, col, "#include expects \"file\" or <file>");
    return;
  }
  char *want = strndup(p + 1, (size_t)(q - p - 1));
  if (!want) {
    nomem(P);
    return;
  }
  char *bad = NULL;
  const char *why = NULL;
  int oom = 0;
  char *path = asm_find_include(P->file, close == '"', 0, want, P->o->pp, &bad, &why, &oom);
  if (oom) {
    nomem(P);
    free(want);
    return;
  }
  if (!path) {
    if (bad) perr(P, col, "#include file '%s' %s", bad, why);
    else perr(P, col, "#include file '%s' not found", want);
    free(bad);
    free(want);
    return;
  }
  free(want);
  for (int i = 0; i < P->depth; i++)
    if (!strcmp(P->chain[i], path)) {
      perr(P, col, "recursive #include of '%s'", path);
      free(path);
      return;
    }
  if (P->depth >= PP_MAX_DEPTH) {
    perr(P, col, "#include nested too deeply");
    free(path);
    return;
  }
  vt_error e = {0};
  char *text = asm_read_text(path, &e);
  if (!text) {
    if (e.kind == VT_ERR_NOMEM) nomem(P);
    else perr(P, col, "#include: %s", e.msg);
    free(path);
    return;
  }
  const char *file = P->file;
  int line = P->line;
  const char *name = asm_lines_name(P->out, path);
  if (name) process(P, name, text);
  else nomem(P);
  P->file = file;
  P->line = line;
  free(text);
  free(path);
}

static void do_define(pp *P, const char *s, int col) {
  if (!id_start((unsigned char)*s)) {
    perr(P, col, "#define needs a macro name");
    return;
  }
  const char *e = s;
  while (id_char((unsigned char)*e)) e++;
  pp_macro *m = define(P, s, (size_t)(e - s));
  if (!m) return;
  if (*e == '(') {
    m->funclike = 1;
    const char *p = e + 1;
    for (;;) {
      while (isspace((unsigned char)*p)) p++;
      if (*p == ')' && !m->nparams) { p++; break; }
      const char *b = p;
      if (!strncmp(p, "...", 3)) p += 3;
      else while (id_char((unsigned char)*p)) p++;
      if (p == b) {
        perr(P, col, "#define %s: bad parameter list", m->name);
        undef(P, m->name, strlen(m->name));
        return;
      }
      char **np = realloc(m->params, (size_t)(m->nparams + 1) * sizeof *np);
      char *a = np ? trimdup(b, p) : NULL;
      if (np) m->params = np;
      if (!a) {
        nomem(P);
        undef(P, m->name, strlen(m->name));
        return;
      }
      m->params[m->nparams++] = a;
      while (isspace((unsigned char)*p)) p++;
      if (*p == ',') { p++; continue; }
      if (*p == ')') { p++; break; }
      perr(P, col, "#define %s: bad parameter list", m->name);
      undef(P, m->name, strlen(m->name));
      return;
    }
    e = p;
  }
  m->body = trimdup(e, e + strlen(e));
  if (!m->body) {
    nomem(P);
    undef(P, m->name, strlen(m->name));
  }
}

static int word_is(const char *b, size_t n, const char *w) {
  return n == strlen(w) && !memcmp(b, w, n);
}

/* Handles a directive line; returns 0 if `#word` is not a directive (an
 * assembly comment then). */
static int directive(pp *P, const char *p, int col, cond *cs, int *ncs, int *active) {
  const char *w = p + 1, *we = w;
  while (id_char((unsigned char)*we)) we++;
  size_t wn = (size_t)(we - w);
  const char *arg = we;
  while (isspace((unsigned char)*arg)) arg++;
  int acol = col + (int)(arg - p);
  int is_if = word_is(w, wn, "if"), is_ifdef = word_is(w, wn, "ifdef"),
      is_ifndef = word_is(w, wn, "ifndef");
  if (is_if || is_ifdef || is_ifndef) {
    if (*ncs >= PP_MAX_COND) return perr(P, col, "#if nested too deeply"), 1;
    cond *c = &cs[(*ncs)++];
    memset(c, 0, sizeof *c);
    c->parent = *active;
    c->line = P->line;
    snprintf(c->name, sizeof c->name, "#%.*s", (int)wn, w);
    int v = 0;
    if (*active) {
      if (is_if) {
        v = eval_if(P, arg, acol);
        if (v < 0) v = 0;
      } else {
        const char *e = arg;
        while (id_char((unsigned char)*e)) e++;
        if (e == arg) perr(P, acol, "#%.*s needs a macro name", (int)wn, w);
        v = (find(P, arg, (size_t)(e - arg)) != NULL) == is_ifdef;
      }
    }
    c->taking = *active && v;
    c->taken = c->taking;
    *active = c->taking;
    return 1;
  }
  int is_elif = word_is(w, wn, "elif"), is_else = word_is(w, wn, "else");
  if (is_elif || is_else || word_is(w, wn, "endif")) {
    if (!*ncs) return perr(P, col, "#%.*s without #if", (int)wn, w), 1;
    cond *c = &cs[*ncs - 1];
    if (!is_elif && !is_else) {
      *active = c->parent;
      (*ncs)--;
      return 1;
    }
    if (c->seen_else) return perr(P, col, "#%.*s after #else", (int)wn, w), 1;
    int v = 0;
    if (is_else) {
      c->seen_else = 1;
      v = !c->taken;
    } else if (c->parent && !c->taken) {
      v = eval_if(P, arg, acol);
      if (v < 0) v = 0;
    }
    c->taking = c->parent && v;
    c->taken |= c->taking;
    *active = c->taking;
    return 1;
  }
  static const char *const known[] = {"define", "undef",  "include", "error",
                                      "warning", "pragma", "line",    "ident"};
  int k = -1;
  for (int i = 0; i < 8; i++)
    if (word_is(w, wn, known[i])) k = i;
  if (k < 0) return 0;
  if (!*active) return 1;
  switch (k) {
  case 0: do_define(P, arg, acol); break;
  case 1: {
    const char *e = arg;
    while (id_char((unsigned char)*e)) e++;
    if (e == arg) perr(P, acol, "#undef needs a macro name");
    else undef(P, arg, (size_t)(e - arg));
    break;
  }
  case 2: do_include(P, arg, acol); break;
  case 3: perr(P, col, "#error %s", arg); break;
  default: break;
  }
  return 1;
}

/* Removes block and // comments (newlines kept, so line numbers hold). */
static void strip_c_comments(char *t) {
  char quote = 0;
  for (size_t i = 0; t[i]; i++) {
    if (quote) {
      if (t[i] == '\\' && t[i + 1] && t[i + 1] != '\n') i++;
      else if (t[i] == '"' || t[i] == '\n') quote = 0;
      continue;
    }
    if (t[i] == '"') {
      quote = '"';
    } else if (t[i] == '/' && t[i + 1] == '*') {
      size_t j = i + 2;
      while (t[j] && !(t[j] == '*' && t[j + 1] == '/')) j++;
      size_t stop = t[j] ? j + 2 : j;
      for (size_t k = i; k < stop; k++)
        if (t[k] != '\n') t[k] = ' ';
      i = stop - 1;
    } else if (t[i] == '/' && t[i + 1] == '/') {
      while (t[i] && t[i] != '\n') t[i++] = ' ';
      i--;
    } else if (t[i] == '#') { /* an assembly comment: leave quotes in it alone */
      while (t[i + 1] && t[i + 1] != '\n' && !(t[i + 1] == '/' && (t[i + 2] == '*' || t[i + 2] == '/'))) i++;
    }
  }
}

static void process(pp *P, const char *name, const char *text) {
  char *t = strdup(text);
  if (!t) {
    nomem(P);
    return;
  }
  strip_c_comments(t);
  P->chain[P->depth++] = name;
  cond cs[PP_MAX_COND];
  int ncs = 0, active = 1, lineno = 1;
  sbuf logical = {0};
  for (char *s = t; (*s || s == t) && !P->o->nomem;) {
    char *e = strchr(s, '\n');
    size_t len = e ? (size_t)(e - s) : strlen(s);
    int first = lineno, nphys = 1;
    logical.n = 0;
    sb_add(P, &logical, s, len);
    /* backslash-newline joins lines */
    while (e && logical.n && logical.p[logical.n - 1] == '\\') {
      logical.n--;
      s = e + 1;
      e = strchr(s, '\n');
      len = e ? (size_t)(e - s) : strlen(s);
      sb_add(P, &logical, s, len);
      nphys++;
    }
    P->file = name;
    P->line = first;
    const char *l = logical.p ? logical.p : "";
    const char *p = l;
    while (*p == ' ' || *p == '\t') p++;
    int handled = *p == '#' && id_start((unsigned char)p[1]) &&
                  directive(P, p, (int)(p - l) + 1, cs, &ncs, &active);
    if (!handled && active) {
      sbuf x = {0};
      if (*p == '#') sb_str(P, &x, l); /* an assembly comment line */
      else if (expand(P, l, strlen(l), &x, NULL, 0)) x.n = 0;
      if (!P->o->nomem && asm_lines_add(P->out, name, first, 1, x.p ? x.p : "", x.n))
        nomem(P);
      free(x.p);
    }
    lineno += nphys;
    if (!e) break;
    s = e + 1;
    if (!*s) break;
  }
  free(logical.p);
  if (ncs) {
    P->line = cs[ncs - 1].line;
    perr(P, 1, "unterminated %s (no #endif before the end of the file)", cs[ncs - 1].name);
  }
  P->depth--;
  free(t);
}

void asm_preprocess(asm_object *o, const char *name, const char *text, asm_lines *out) {
  pp P = {.o = o, .out = out};
  static const char *const pre[][2] = {
      {"__ASSEMBLER__", "1"}, {"__riscv", "1"}, {"__riscv_xlen", "32"}, {"__ventus__", "1"}};
  for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++) {
    pp_macro *m = define(&P, pre[i][0], strlen(pre[i][0]));
    if (m && !(m->body = strdup(pre[i][1]))) nomem(&P);
  }
  P.file = name;
  for (int i = 0; o->pp && i < o->pp->ndefines && !o->nomem; i++) {
    const char *d = o->pp->defines[i], *eq = strchr(d, '=');
    size_t n = eq ? (size_t)(eq - d) : strlen(d);
    pp_macro *m = define(&P, d, n);
    if (m && !(m->body = strdup(eq ? eq + 1 : "1"))) nomem(&P);
  }
  const char *iname = o->nomem ? NULL : asm_lines_name(out, name);
  if (iname) process(&P, iname, text);
  else nomem(&P);
  while (P.nm) undef(&P, P.m[0].name, strlen(P.m[0].name));
  free(P.m);
}
