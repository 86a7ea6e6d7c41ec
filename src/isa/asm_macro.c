/* GNU-as text expansion before the passes: .include, .macro/.endm (\arg,
 * defaults, :req, :vararg, keyword arguments, \@, \(), .exitm, .purgem),
 * .rept/.endr, .irp and .irpc. The result is the unit's line list o->src.
 *
 * Lines of a .rept/.irp body keep their own location; lines produced by a
 * macro carry the location of the outermost invocation. .rept counts are
 * constant expressions over numbers and symbols set earlier with
 * .equ/.set/= to constants. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm_int.h"

#define MX_MAX_DEPTH 64   /* nested expansions */
#define MX_MAX_INCLUDE 32 /* nested .include */
#define MX_MAX_LINES 4000000

typedef struct {
  char *name, *def;
  int req, vararg;
} mparam;

typedef struct {
  char *name;
  mparam *p;
  int np;
  asm_lines body;
  int busy; /* expansions of it in progress: .purgem must wait */
} amacro;

typedef struct {
  char *name;
  long long v;
} mconst;

typedef struct {
  asm_object *o;
  amacro **m; /* pointers: a macro defined while another expands must not move it */
  int nm;
  mconst *c;
  int nc;
  int counter; /* \@ */
  const char *chain[MX_MAX_INCLUDE];
  int nchain;
} mx;

static int merr(mx *X, const asm_line *at, int col, const char *msg, const char *arg) {
  return asm_diag_at(X->o, at->file, at->line, at->col0 + col, msg, arg);
}

/* Out of memory: the sticky o->nomem; every expansion loop stops on it. */
static int nomem(mx *X) { return asm_nomem(X->o); }

static int ident_char(int c) { return isalnum(c) || c == '_' || c == '.' || c == '$'; }

/* The first word of a statement after its labels: *b..*e; returns the
 * length of the label part. */
static size_t head(const char *s, const char **b, const char **e) {
  const char *p = asm_skip_ws(s), *labels_end = s;
  for (;;) {
    const char *q = p;
    while (ident_char((unsigned char)*q)) q++;
    const char *r = asm_skip_ws(q);
    if (q == p || *r != ':') break;
    p = asm_skip_ws(r + 1);
    labels_end = p;
  }
  const char *q = p;
  while (ident_char((unsigned char)*q)) q++;
  *b = p;
  *e = q;
  return (size_t)(labels_end - s);
}

static int word_is(const char *b, const char *e, const char *w) {
  return (size_t)(e - b) == strlen(w) && !strncasecmp(b, w, (size_t)(e - b));
}

static amacro *find_macro(mx *X, const char *b, const char *e) {
  for (int i = 0; i < X->nm; i++)
    if (word_is(b, e, X->m[i]->name)) return X->m[i];
  return NULL;
}

static int lookup_const(void *ctx, const char *name, size_t len, long long *v) {
  mx *X = ctx;
  for (int i = X->nc - 1; i >= 0; i--)
    if (strlen(X->c[i].name) == len && !memcmp(X->c[i].name, name, len)) {
      *v = X->c[i].v;
      return 1;
    }
  return 0;
}

/* .equ/.set/= with a constant value: remembered for .rept counts. */
static void note_const(mx *X, const char *b, const char *e, const char *val) {
  long long v;
  char *name = strndup(b, (size_t)(e - b));
  if (!name) {
    nomem(X);
    return;
  }
  if (asm_const_eval(val, lookup_const, X, &v)) {
    free(name);
    return;
  }
  mconst *n = realloc(X->c, (size_t)(X->nc + 1) * sizeof *n);
  if (!n) {
    free(name);
    nomem(X);
    return;
  }
  X->c = n;
  X->c[X->nc++] = (mconst){name, v};
}

static int is_block_start(const char *b, const char *e) {
  return word_is(b, e, ".rept") || word_is(b, e, ".irp") || word_is(b, e, ".irpc");
}

/* Index of the line ending the block that starts at `from` (the line after
 * the opening directive), or -1. */
static int block_end(const asm_lines *in, int from, int to, int is_macro) {
  int depth = 1;
  for (int i = from; i < to; i++) {
    const char *b, *e;
    head(in->v[i].text, &b, &e);
    if (is_macro) {
      if (word_is(b, e, ".macro")) depth++;
      else if (word_is(b, e, ".endm") && --depth == 0) return i;
    } else {
      if (is_block_start(b, e)) depth++;
      else if (word_is(b, e, ".endr") && --depth == 0) return i;
    }
  }
  return -1;
}

/* -1 if out of memory (the buffer stays as it was). */
static int sb(char **buf, size_t *n, size_t *cap, const char *s, size_t len) {
  if (*n + len + 1 > *cap) {
    size_t c = *cap ? *cap : 128;
    while (c < *n + len + 1) c *= 2;
    char *p = realloc(*buf, c);
    if (!p) return -1;
    *buf = p;
    *cap = c;
  }
  memcpy(*buf + *n, s, len);
  *n += len;
  (*buf)[*n] = 0;
  return 0;
}

/* Replaces \name (names[i] -> vals[i]), \@ and \() in text; NULL if out
 * of memory. */
static char *subst(const char *text, char *const *names, char *const *vals, int n, int counter) {
  char *out = NULL;
  size_t on = 0, cap = 0;
  for (const char *p = text; *p;) {
    if (*p != '\\') {
      if (sb(&out, &on, &cap, p, 1)) goto fail;
      p++;
      continue;
    }
    if (p[1] == '@') {
      char num[16];
      snprintf(num, sizeof num, "%d", counter);
      if (sb(&out, &on, &cap, num, strlen(num))) goto fail;
      p += 2;
      continue;
    }
    if (p[1] == '(' && p[2] == ')') {
      p += 3;
      continue;
    }
    const char *q = p + 1;
    while (isalnum((unsigned char)*q) || *q == '_' || *q == '$') q++;
    int k = -1;
    for (int i = 0; i < n; i++)
      if (strlen(names[i]) == (size_t)(q - p - 1) && !strncmp(names[i], p + 1, (size_t)(q - p - 1)))
        k = i;
    if (k < 0) {
      if (sb(&out, &on, &cap, p, 1)) goto fail;
      p++;
      continue;
    }
    if (sb(&out, &on, &cap, vals[k], strlen(vals[k]))) goto fail;
    p = q;
  }
  return out ? out : strdup("");
fail:
  free(out);
  return NULL;
}

static char *dup_range(const char *b, const char *e) {
  while (b < e && isspace((unsigned char)*b)) b++;
  while (e > b && isspace((unsigned char)e[-1])) e--;
  if (e - b >= 2 && *b == '"' && e[-1] == '"') b++, e--; /* "a b" is one argument */
  return strndup(b, (size_t)(e - b)); /* NULL if out of memory */
}

/* Splits macro arguments: at top-level commas, or at blanks when there is
 * no comma. Returns the count; b[i]/e[i] receive bounds (max 64). */
static int split_args(const char *s, const char **b, const char **e, int max) {
  int has_comma = 0, depth = 0;
  char quote = 0;
  for (const char *p = s; *p; p++) {
    if (quote) {
      if (*p == '\\' && p[1]) p++;
      else if (*p == quote) quote = 0;
    } else if (*p == '"') quote = '"';
    else if (*p == '(') depth++;
    else if (*p == ')') depth--;
    else if (*p == ',' && depth <= 0) has_comma = 1;
  }
  int n = 0;
  const char *p = asm_skip_ws(s);
  if (!*p) return 0;
  const char *start = p;
  depth = 0;
  quote = 0;
  for (;; p++) {
    char c = *p;
    if (quote) {
      if (c == '\\' && p[1]) p++;
      else if (c == quote) quote = 0;
      if (c) continue;
    }
    if (c == '"') { quote = c; continue; }
    if (c == '(') depth++;
    else if (c == ')') depth--;
    int sep = !c || (depth <= 0 && (has_comma ? c == ',' : (c == ' ' || c == '\t')));
    if (!sep) continue;
    if (has_comma || p > start) {
      if (n >= max) return -1;
      const char *x = p;
      while (x > start && isspace((unsigned char)x[-1])) x--;
      b[n] = asm_skip_ws(start);
      e[n] = x > b[n] ? x : b[n];
      n++;
    }
    if (!c) break;
    start = has_comma ? p + 1 : asm_skip_ws(p + 1);
    if (!has_comma) p = start - 1;
  }
  return n;
}

static int expand_range(mx *X, const asm_lines *in, int from, int to, const asm_line *site,
                        int depth, int in_macro);

/* Expands `body` (lines) with substitutions into a temporary list and then
 * recursively. Returns expand_range's result. */
static int run_body(mx *X, const asm_lines *body, char *const *names, char *const *vals, int n,
                    const asm_line *site, int depth, int in_macro) {
  asm_lines tmp = {0};
  int counter = X->counter;
  for (int i = 0; i < body->n && !X->o->nomem; i++) {
    const asm_line *l = &body->v[i];
    char *t = subst(l->text, names, vals, n, counter);
    const asm_line *loc = site ? site : l;
    if (!t || asm_lines_add(&tmp, loc->file, loc->line, loc->col0, t, strlen(t))) nomem(X);
    free(t);
  }
  int rc = X->o->nomem ? -1 : expand_range(X, &tmp, 0, tmp.n, site, depth + 1, in_macro);
  asm_lines_free(&tmp);
  return rc;
}

static int copy_lines(mx *X, asm_lines *dst, const asm_lines *src, int from, int to) {
  for (int i = from; i < to; i++)
    if (asm_lines_add(dst, src->v[i].file, src->v[i].line, src->v[i].col0, src->v[i].text,
                      strlen(src->v[i].text)))
      return nomem(X);
  return 0;
}

static int define_macro(mx *X, const asm_line *at, const char *args, const asm_lines *in,
                        int from, int to) {
  const char *p = asm_skip_ws(args), *nb = p;
  while (ident_char((unsigned char)*p)) p++;
  if (p == nb) return merr(X, at, (int)(nb - at->text), ".macro needs a name%s", "");
  char *name = strndup(nb, (size_t)(p - nb));
  if (!name) return nomem(X);
  if (find_macro(X, nb, p)) {
    merr(X, at, (int)(nb - at->text), "macro '%s' is already defined", name);
    free(name);
    return -1;
  }
  if (*p == ',') p++;
  const char *ob[64], *oe[64];
  int n = split_args(p, ob, oe, 64);
  if (n < 0) {
    free(name);
    return merr(X, at, 0, "too many macro parameters%s", "");
  }
  amacro **nm = realloc(X->m, (size_t)(X->nm + 1) * sizeof *nm);
  amacro *m = nm ? calloc(1, sizeof *m) : NULL;
  if (nm) X->m = nm;
  if (!m) {
    free(name);
    return nomem(X);
  }
  X->m[X->nm++] = m;
  m->name = name;
  m->p = calloc((size_t)(n ? n : 1), sizeof *m->p);
  if (!m->p) return nomem(X); /* freed with the macro table */
  for (int i = 0; i < n; i++) {
    const char *b = ob[i], *e = oe[i], *eq = memchr(b, '=', (size_t)(e - b));
    const char *ne = eq ? eq : e;
    const char *colon = memchr(b, ':', (size_t)(ne - b));
    mparam *q = &m->p[m->np++];
    q->name = dup_range(b, colon ? colon : ne);
    if (!q->name) return nomem(X);
    if (colon) {
      char *qual = dup_range(colon + 1, ne);
      if (!qual) return nomem(X);
      if (!strcmp(qual, "req")) q->req = 1;
      else if (!strcmp(qual, "vararg")) q->vararg = 1;
      else merr(X, at, (int)(colon - at->text), "unknown macro parameter qualifier '%s'", qual);
      free(qual);
    }
    q->def = eq ? dup_range(eq + 1, e) : strdup("");
    if (!q->def) return nomem(X);
  }
  return copy_lines(X, &m->body, in, from, to);
}

static void free_macro(amacro *m) {
  free(m->name);
  for (int i = 0; i < m->np; i++) {
    free(m->p[i].name);
    free(m->p[i].def);
  }
  free(m->p);
  asm_lines_free(&m->body);
}

static int invoke(mx *X, amacro *m, const asm_line *at, const char *args, const asm_line *site,
                  int depth) {
  char **names = calloc((size_t)m->np + 1, sizeof *names);
  char **vals = calloc((size_t)m->np + 1, sizeof *vals);
  if (!names || !vals) {
    free(names);
    free(vals);
    return nomem(X);
  }
  const char *ob[64], *oe[64];
  int n = split_args(args, ob, oe, 64), rc = 0, pos = 0;
  if (n < 0) rc = merr(X, at, 0, "too many macro arguments%s", "");
  for (int i = 0; i < n && !rc; i++) {
    const char *eq = memchr(ob[i], '=', (size_t)(oe[i] - ob[i]));
    int k = -1;
    if (eq && eq > ob[i] && eq[1] != '=' && eq[-1] != '!' && eq[-1] != '<' && eq[-1] != '>') {
      for (int j = 0; j < m->np; j++)
        if (word_is(ob[i], eq, m->p[j].name)) k = j;
    }
    if (k >= 0) {
      free(vals[k]);
      if (!(vals[k] = dup_range(eq + 1, oe[i]))) rc = nomem(X);
      continue;
    }
    if (pos >= m->np) {
      rc = merr(X, at, (int)(ob[i] - at->text), "too many arguments for macro '%s'", m->name);
      break;
    }
    if (m->p[pos].vararg) { /* the rest of the line */
      free(vals[pos]);
      if (!(vals[pos] = dup_range(ob[i], args + strlen(args)))) rc = nomem(X);
      pos++;
      break;
    }
    free(vals[pos]);
    if (!(vals[pos++] = dup_range(ob[i], oe[i]))) rc = nomem(X);
  }
  for (int j = 0; j < m->np && !rc; j++) {
    names[j] = m->p[j].name;
    if (!vals[j] || !*vals[j]) { /* missing or empty: the default */
      free(vals[j]);
      vals[j] = strdup(m->p[j].def);
      if (!vals[j]) {
        rc = nomem(X);
        break;
      }
    }
    if (m->p[j].req && !*vals[j])
      rc = merr(X, at, 0, "missing value for required parameter '%s'", m->p[j].name);
  }
  if (!rc) {
    X->counter++;
    m->busy++;
    rc = run_body(X, &m->body, names, vals, m->np, site ? site : at, depth, 1);
    m->busy--;
    if (rc > 0) rc = 0; /* .exitm */
  }
  for (int j = 0; j < m->np; j++) free(vals[j]);
  free(vals);
  free(names);
  return rc;
}

static int do_include(mx *X, const asm_line *at, const char *args, int depth) {
  const char *p = asm_skip_ws(args);
  const char *q = *p == '"' ? strchr(p + 1, '"') : NULL;
  if (!q || *asm_skip_ws(q + 1))
    return merr(X, at, (int)(p - at->text), ".include expects \"file\"%s", "");
  char *want = strndup(p + 1, (size_t)(q - p - 1));
  if (!want) return nomem(X);
  char *bad = NULL;
  const char *why = NULL;
  int oom = 0;
  char *path = asm_find_include(at->file, 1, 1, want, X->o->pp, &bad, &why, &oom);
  if (oom) {
    free(want);
    return nomem(X);
  }
  int rc = 0;
  if (!path) {
    if (bad)
      rc = asm_diag_at(X->o, at->file, at->line, at->col0 + (int)(p - at->text),
                       ".include file '%s' %s", bad, why);
    else rc = merr(X, at, (int)(p - at->text), ".include file '%s' not found", want);
    free(bad);
  } else {
    for (int i = 0; i < X->nchain && !rc; i++)
      if (!strcmp(X->chain[i], path))
        rc = merr(X, at, (int)(p - at->text), "recursive .include of '%s'", path);
    if (!rc && X->nchain >= MX_MAX_INCLUDE)
      rc = merr(X, at, (int)(p - at->text), ".include nested too deeply%s", "");
  }
  if (!rc) {
    vt_error e = {0};
    char *text = asm_read_text(path, &e);
    if (!text) {
      rc = e.kind == VT_ERR_NOMEM ? nomem(X)
                                  : merr(X, at, (int)(p - at->text), ".include: %s", e.msg);
    } else {
      asm_lines inc = {0};
      if (asm_split_lines(&inc, path, text)) {
        rc = nomem(X);
      } else {
        int in_block = 0;
        for (int i = 0; i < inc.n; i++) asm_strip_comments(inc.v[i].text, &in_block);
        X->chain[X->nchain++] = inc.n ? inc.v[0].file : path;
        rc = expand_range(X, &inc, 0, inc.n, NULL, depth + 1, 0);
        X->nchain--;
      }
      asm_lines_free(&inc);
      free(text);
    }
  }
  free(want);
  free(path);
  return rc < 0 ? -1 : 0;
}

/* .rept/.irp/.irpc with its body lines [from, to). */
static int repeat(mx *X, const asm_line *at, const char *b, const char *e, const char *args,
                  const asm_lines *in, int from, int to, const asm_line *site, int depth,
                  int in_macro) {
  asm_lines body = {0};
  int rc = copy_lines(X, &body, in, from, to);
  if (rc) {
    asm_lines_free(&body);
    return -1;
  }
  if (word_is(b, e, ".rept")) {
    long long n;
    if (asm_const_eval(args, lookup_const, X, &n) || n < 0 || n > 1000000) {
      rc = merr(X, at, (int)(args - at->text), ".rept count must be a constant from 0 to 1000000, got '%s'", args);
    } else {
      for (long long i = 0; i < n && rc == 0; i++)
        rc = run_body(X, &body, NULL, NULL, 0, site, depth, in_macro);
    }
  } else {
    int chars = word_is(b, e, ".irpc");
    const char *p = asm_skip_ws(args), *nb = p;
    while (ident_char((unsigned char)*p)) p++;
    char *name = strndup(nb, (size_t)(p - nb));
    p = asm_skip_ws(p);
    if (*p == ',') p++;
    if (!name) {
      rc = nomem(X);
    } else if (!*name) {
      rc = merr(X, at, (int)(nb - at->text), "%s needs a symbol name", chars ? ".irpc" : ".irp");
    } else if (chars) {
      char *s = dup_range(p, p + strlen(p));
      if (!s) rc = nomem(X);
      for (const char *c = s; c && *c && rc == 0; c++) {
        char one[2] = {*c, 0};
        char *v = one;
        rc = run_body(X, &body, &name, &v, 1, site, depth, in_macro);
      }
      free(s);
    } else {
      const char *ob[256], *oe[256];
      int n = split_args(p, ob, oe, 256);
      if (n < 0) rc = merr(X, at, 0, "too many .irp values%s", "");
      if (n == 0) { /* once, with an empty value */
        char *v = "";
        rc = run_body(X, &body, &name, &v, 1, site, depth, in_macro);
      }
      for (int i = 0; i < n && rc == 0; i++) {
        char *v = dup_range(ob[i], oe[i]);
        rc = v ? run_body(X, &body, &name, &v, 1, site, depth, in_macro) : nomem(X);
        free(v);
      }
    }
    free(name);
  }
  asm_lines_free(&body);
  return rc;
}

/* Returns 0, 1 after .exitm (inside a macro), -1 on error. */
static int expand_range(mx *X, const asm_lines *in, int from, int to, const asm_line *site,
                        int depth, int in_macro) {
  if (depth > MX_MAX_DEPTH) {
    const asm_line *at = site ? site : &in->v[from < in->n ? from : 0];
    return merr(X, at, 0, "macro expansion nested too deeply (recursive macro?)%s", "");
  }
  for (int i = from; i < to; i++) {
    if (X->o->nomem) return -1;
    const asm_line *l = &in->v[i];
    if (X->o->src.n > MX_MAX_LINES) return merr(X, l, 0, "expansion produces too many lines%s", "");
    const char *b, *e;
    size_t lab = head(l->text, &b, &e);
    const char *args = asm_skip_ws(e);
    int special = word_is(b, e, ".macro") || word_is(b, e, ".endm") || word_is(b, e, ".endr") ||
                  word_is(b, e, ".include") || word_is(b, e, ".exitm") ||
                  word_is(b, e, ".purgem") || is_block_start(b, e) ||
                  (b < e && *b != '.' && find_macro(X, b, e));
    if (!special) {
      /* remember constants for .rept: ".equ N, 4" / ".set N, 4" / "N = 4" */
      if (word_is(b, e, ".equ") || word_is(b, e, ".set")) {
        const char *nb = args, *ne = nb;
        while (ident_char((unsigned char)*ne)) ne++;
        const char *c = asm_skip_ws(ne);
        if (ne > nb && *c == ',') note_const(X, nb, ne, c + 1);
      } else if (b < e && *asm_skip_ws(e) == '=' && asm_skip_ws(e)[1] != '=') {
        note_const(X, b, e, asm_skip_ws(e) + 1);
      }
      if (asm_lines_add(&X->o->src, l->file, l->line, l->col0, l->text, strlen(l->text)))
        return nomem(X);
      continue;
    }
    /* labels before the directive stay where they are */
    if (lab && asm_lines_add(&X->o->src, l->file, l->line, l->col0, l->text, lab))
      return nomem(X);
    int rc = 0;
    if (word_is(b, e, ".macro") || is_block_start(b, e)) {
      int is_macro = word_is(b, e, ".macro");
      int end = block_end(in, i + 1, to, is_macro);
      if (end < 0) {
        char w[16];
        snprintf(w, sizeof w, "%.*s", (int)(e - b), b);
        merr(X, l, (int)(b - l->text), is_macro ? "%s without .endm" : "%s without .endr", w);
        return -1;
      }
      if (is_macro) rc = define_macro(X, l, args, in, i + 1, end);
      else rc = repeat(X, l, b, e, args, in, i + 1, end, site, depth, in_macro);
      i = end;
    } else if (word_is(b, e, ".endm") || word_is(b, e, ".endr")) {
      rc = merr(X, l, (int)(b - l->text),
                word_is(b, e, ".endm") ? "%s without .macro" : "%s without .rept/.irp/.irpc",
                word_is(b, e, ".endm") ? ".endm" : ".endr");
    } else if (word_is(b, e, ".exitm")) {
      if (in_macro) return 1;
      rc = merr(X, l, (int)(b - l->text), ".exitm outside a macro%s", "");
    } else if (word_is(b, e, ".purgem")) {
      const char *ne = args;
      while (ident_char((unsigned char)*ne)) ne++;
      amacro *m = find_macro(X, args, ne);
      if (!m) {
        rc = merr(X, l, (int)(args - l->text), ".purgem: no macro named '%s'", args);
      } else if (m->busy) {
        rc = merr(X, l, (int)(args - l->text), ".purgem: macro '%s' is being expanded", m->name);
      } else {
        int k = 0;
        while (X->m[k] != m) k++;
        free_macro(m);
        free(m);
        X->m[k] = X->m[--X->nm];
      }
    } else if (word_is(b, e, ".include")) {
      rc = do_include(X, l, args, depth);
    } else {
      rc = invoke(X, find_macro(X, b, e), l, args, site, depth);
    }
    if (rc > 0) return rc;
    if (rc < 0 && depth > 0) return -1; /* one error per failing expansion */
  }
  return 0;
}

void asm_expand(asm_object *o, const asm_lines *in) {
  mx X = {.o = o};
  /* one top-level file at a time, macros shared (the files form one unit) */
  for (int i = 0; i < in->n && !o->nomem;) {
    int j = i;
    while (j < in->n && in->v[j].file == in->v[i].file) j++;
    X.chain[0] = in->v[i].file;
    X.nchain = 1;
    if (expand_range(&X, in, i, j, NULL, 0, 0) > 0) break;
    i = j;
  }
  for (int i = 0; i < X.nm; i++) {
    free_macro(X.m[i]);
    free(X.m[i]);
  }
  free(X.m);
  for (int i = 0; i < X.nc; i++) free(X.c[i].name);
  free(X.c);
}
