/* Assembler driver: source lines, passes, symbols, sections, diagnostics.
 *
 * The source is assembled in passes until every label keeps its address
 * (instruction sizes depend on operands: regext prefixes, li expansion),
 * then once more with diagnostics and relocations enabled. Relocations are
 * resolved during that last pass; only references that cannot be resolved
 * in a relocatable object become .rela entries. */
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_int.h"

#define MAX_PASSES 12

/* ---- diagnostics ------------------------------------------------------------- */
/* Records one diagnostic. A pseudo-instruction expands into several
 * instructions that can fail on the same operand: an exact repeat of the
 * previous diagnostic is reported once. */
static int diag_push(asm_object *o, const char *file, int line, int col, const char *fmt,
                     va_list ap) {
  asm_diags *d = o->diags;
  char msg[sizeof d->v[0].msg];
  vsnprintf(msg, sizeof msg, fmt, ap);
  if (!file) file = "<input>";
  if (d && d->n) {
    const asm_diag *p = &d->v[d->n - 1];
    if (p->line == line && p->col == col && !strcmp(p->msg, msg) && !strcmp(p->file, file))
      return -1;
  }
  o->nerrors++;
  if (!d) return -1;
  if (d->n >= o->max_errors) {
    d->dropped++;
    return -1;
  }
  asm_diag *g = &d->v[d->n++];
  snprintf(g->file, sizeof g->file, "%s", file);
  g->line = line;
  g->col = col;
  snprintf(g->msg, sizeof g->msg, "%s", msg);
  return -1;
}

int asm_error(asm_object *o, const char *at, const char *fmt, ...) {
  if (!o->final) return -1;
  int col = o->loc.col0;
  if (at && o->loc.text && at >= o->loc.text && at <= o->loc.text + strlen(o->loc.text))
    col += (int)(at - o->loc.text);
  va_list ap;
  va_start(ap, fmt);
  diag_push(o, o->loc.file, o->loc.line, col, fmt, ap);
  va_end(ap);
  return -1;
}

int asm_diag_at(asm_object *o, const char *file, int line, int col, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_push(o, file, line, col, fmt, ap);
  va_end(ap);
  return -1;
}

int asm_diag_format(const asm_diag *g, char *buf, size_t len) {
  return snprintf(buf, len, "%s:%d:%d: error: %s", g->file, g->line, g->col, g->msg);
}

void asm_diags_free(asm_diags *d) {
  if (!d) return;
  free(d->v);
  memset(d, 0, sizeof *d);
}

int asm_nomem(asm_object *o) {
  o->nomem = 1;
  return -1;
}

/* ---- symbols ----------------------------------------------------------------- */
static unsigned hash_name(const char *s, size_t n) {
  unsigned h = 2166136261u;
  for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
  return h;
}

/* Chained hash tables (symbols, sections) that double with their item
 * count, so lookups stay O(1) for 10^5 labels or sections. */
static int rehash(int **heads, unsigned *nb, int n, const char *(*name)(const asm_object *, int),
                  int *(*next)(asm_object *, int), asm_object *o) {
  unsigned want = *nb ? *nb : 256;
  while (want < (unsigned)n * 2u) want *= 2;
  if (want == *nb) return 0;
  int *h = malloc(want * sizeof *h);
  if (!h) return asm_nomem(o);
  memset(h, -1, want * sizeof *h);
  for (int i = 0; i < n; i++) {
    const char *s = name(o, i);
    unsigned b = hash_name(s, strlen(s)) & (want - 1);
    *next(o, i) = h[b];
    h[b] = i;
  }
  free(*heads);
  *heads = h;
  *nb = want;
  return 0;
}

static const char *sym_name(const asm_object *o, int i) { return o->syms[i].name; }
static int *sym_next(asm_object *o, int i) { return &o->syms[i].next; }
static const char *sec_name(const asm_object *o, int i) { return o->secs[i].name; }
static int *sec_next(asm_object *o, int i) { return &o->secs[i].next; }

int asm_sym_find(asm_object *o, const char *name, size_t len) {
  if (!o->nhash) return -1;
  for (int i = o->hash[hash_name(name, len) & (o->nhash - 1)]; i >= 0; i = o->syms[i].next)
    if (!strncmp(o->syms[i].name, name, len) && !o->syms[i].name[len]) return i;
  return -1;
}

int asm_sym_get(asm_object *o, const char *name, size_t len) {
  int i = asm_sym_find(o, name, len);
  if (i >= 0) return i;
  if (o->nsyms == o->capsyms) {
    int cap = o->capsyms ? o->capsyms * 2 : 64;
    asm_sym *n = realloc(o->syms, (size_t)cap * sizeof *n);
    if (!n) return asm_nomem(o);
    o->syms = n;
    o->capsyms = cap;
  }
  asm_sym *y = &o->syms[o->nsyms];
  memset(y, 0, sizeof *y);
  y->name = malloc(len + 1);
  if (!y->name) return asm_nomem(o);
  memcpy(y->name, name, len);
  y->name[len] = 0;
  y->sec = y->prev_sec = SYM_UNDEF;
  y->def_pass = 0;
  int k = o->nsyms++;
  if (rehash(&o->hash, &o->nhash, o->nsyms - 1, sym_name, sym_next, o)) {
    o->nsyms--;
    free(y->name);
    return -1;
  }
  unsigned h = hash_name(name, len) & (o->nhash - 1);
  y->next = o->hash[h];
  o->hash[h] = k;
  return k;
}

int asm_define_label(asm_object *o, const char *name, size_t len, const char *at) {
  char buf[64];
  int numeric = len > 0 && len < 20 && strspn(name, "0123456789") >= len;
  if (numeric) {
    char cnt[32];
    snprintf(cnt, sizeof cnt, "\001%.*s", (int)len, name);
    int ci = asm_sym_get(o, cnt, strlen(cnt));
    if (ci < 0) return -1;
    o->syms[ci].value++;
    snprintf(buf, sizeof buf, ".L%llu\002%lld", strtoull(name, NULL, 10),
             (long long)o->syms[ci].value);
    name = buf;
    len = strlen(buf);
  }
  int i = asm_sym_get(o, name, len);
  if (i < 0) return -1;
  asm_sym *y = &o->syms[i];
  if (y->def_pass == o->pass)
    return asm_error(o, at, "symbol '%s' is already defined", y->name);
  y->def_pass = o->pass;
  y->is_label = 1;
  y->synth = 0;
  y->sec = o->cur;
  y->value = o->secs[o->cur].size;
  return 0;
}

/* A size limit was hit: one diagnostic at the statement (whatever the
 * pass), and the unit stops (o->too_big is checked with o->nomem). */
static void too_big(asm_object *o, const char *fmt, const char *sec) {
  int final = o->final;
  o->final = 1; /* report now: later passes would only repeat the work */
  asm_error(o, NULL, fmt, sec);
  o->final = final;
  o->too_big = 1;
}

/* ---- sections ----------------------------------------------------------------- */
int asm_section_switch(asm_object *o, const char *name, uint32_t type, uint32_t flags) {
  unsigned hn = hash_name(name, strlen(name));
  for (int i = o->nsec_hash ? o->sec_hash[hn & (o->nsec_hash - 1)] : -1; i >= 0; i = o->secs[i].next)
    if (!strcmp(o->secs[i].name, name)) {
      if (o->cur != i) o->prev_cur = o->cur;
      o->cur = i;
      return i;
    }
  if (o->nsecs >= ASM_MAX_SECTIONS) { /* the ELF header counts sections in 16 bits */
    too_big(o, "too many sections (more than %s)", ASM_MAX_SECTIONS_TEXT);
    return -1;
  }
  if (o->nsecs == o->capsecs) {
    int cap = o->capsecs ? o->capsecs * 2 : 8;
    asm_sec *n = realloc(o->secs, (size_t)cap * sizeof *n);
    if (!n) return asm_nomem(o); /* the current section stays */
    o->secs = n;
    o->capsecs = cap;
  }
  asm_sec *s = &o->secs[o->nsecs];
  memset(s, 0, sizeof *s);
  s->name = strdup(name);
  if (!s->name) return asm_nomem(o);
  s->type = type;
  s->flags = flags;
  s->align = (flags & SHF_EXECINSTR) ? 4 : 1;
  if (rehash(&o->sec_hash, &o->nsec_hash, o->nsecs, sec_name, sec_next, o)) {
    free(s->name);
    return -1;
  }
  s->next = o->sec_hash[hn & (o->nsec_hash - 1)];
  o->sec_hash[hn & (o->nsec_hash - 1)] = o->nsecs;
  o->prev_cur = o->cur;
  o->cur = o->nsecs;
  return o->nsecs++;
}

uint32_t asm_here(const asm_object *o) { return o->secs[o->cur].size; }

int64_t asm_val_addr(const asm_object *o, const asm_val *v) {
  return v->kind == VAL_SEC ? asm_wrap_add(o->secs[v->sec].addr, v->v) : v->v;
}

void asm_emit(asm_object *o, const void *bytes, uint32_t n) {
  asm_sec *s = &o->secs[o->cur];
  if (o->too_big || n == 0) return; /* nothing to add (and s->data may still be NULL) */
  if ((uint64_t)s->size + n > UINT32_MAX) {
    too_big(o, "section '%s' grows past 4 GiB (the 32-bit address space)", s->name);
    return;
  }
  if (s->type != SHT_NOBITS && o->contents + n > ASM_MAX_CONTENTS) {
    too_big(o, "output too large: section contents exceed 256 MiB in all (in '%s')", s->name);
    return;
  }
  if (s->type == SHT_NOBITS) {
    for (uint32_t i = 0; i < n; i++)
      if (((const uint8_t *)bytes)[i]) {
        asm_error(o, NULL, "non-zero data in a NOBITS section (%s)", s->name);
        break;
      }
    s->size += n;
    return;
  }
  if (s->size + n > s->cap) {
    uint64_t cap = s->cap ? s->cap : 256; /* 64-bit: doubling past 2 GiB must not wrap */
    while (cap < (uint64_t)s->size + n) cap *= 2;
    if (cap > ASM_MAX_CONTENTS) cap = ASM_MAX_CONTENTS;
    uint8_t *d = realloc(s->data, cap);
    if (!d) {
      asm_nomem(o);
      return;
    }
    s->data = d;
    s->cap = (uint32_t)cap;
  }
  memcpy(s->data + s->size, bytes, n);
  s->size += n;
  o->contents += n;
}

void asm_emit_fill(asm_object *o, uint8_t byte, uint64_t n) {
  uint8_t chunk[4096];
  memset(chunk, byte, sizeof chunk);
  if (o->secs[o->cur].type == SHT_NOBITS && !byte && !o->too_big) {
    asm_sec *s = &o->secs[o->cur]; /* no contents: one size step */
    if ((uint64_t)s->size + n > UINT32_MAX)
      too_big(o, "section '%s' grows past 4 GiB (the 32-bit address space)", s->name);
    else
      s->size += (uint32_t)n;
    return;
  }
  if (!o->too_big && o->secs[o->cur].type != SHT_NOBITS && o->contents + n > ASM_MAX_CONTENTS) {
    too_big(o, "output too large: section contents exceed 256 MiB in all (in '%s')",
            o->secs[o->cur].name); /* before allocating any of it */
    return;
  }
  while (n && !o->too_big && !o->nomem) {
    uint32_t k = n < sizeof chunk ? (uint32_t)n : (uint32_t)sizeof chunk;
    asm_emit(o, chunk, k);
    n -= k;
  }
}

void asm_emit_word(asm_object *o, uint32_t w) {
  uint8_t b[4] = {(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24)};
  asm_emit(o, b, 4);
}

void asm_align(asm_object *o, uint32_t align, int fill, int have_fill) {
  asm_sec *s = &o->secs[o->cur];
  if (align < 1) align = 1;
  if (align > s->align) s->align = align;
  uint32_t pad = (align - s->size % align) % align;
  if (!have_fill && (s->flags & SHF_EXECINSTR) && pad % 4 == 0 && s->size % 4 == 0) {
    for (; pad; pad -= 4) asm_emit_word(o, isa_table[ISA_addi].match); /* nop */
    return;
  }
  asm_emit_fill(o, (uint8_t)fill, pad);
}

void asm_add_rel(asm_object *o, uint32_t off, uint32_t type, const asm_val *v) {
  if (!o->final) return;
  if (o->nrels == o->caprels) {
    int cap = o->caprels ? o->caprels * 2 : 32;
    asm_rel *n = realloc(o->rels, (size_t)cap * sizeof *n);
    if (!n) {
      asm_nomem(o);
      return;
    }
    o->rels = n;
    o->caprels = cap;
  }
  asm_rel *r = &o->rels[o->nrels++];
  r->sec = o->cur;
  r->off = off;
  r->type = type;
  int by_symbol = v->kind == VAL_UND ||
                  (v->sym >= 0 && (o->syms[v->sym].global || type == R_RISCV_PCREL_LO12_I ||
                                   type == R_RISCV_PCREL_LO12_S));
  if (by_symbol && v->sym >= 0) {
    r->sym = v->sym;
    r->addend = v->kind == VAL_UND ? v->v : asm_wrap_sub(v->v, o->syms[v->sym].value);
    o->syms[v->sym].needed = 1;
  } else {
    r->sym = -1 - v->sec;
    r->addend = v->v;
  }
}

/* ---- statements ----------------------------------------------------------------- */
static void statement(asm_object *o) {
  const char *p = asm_skip_ws(o->loc.text);
  for (;;) { /* labels, and `sym = expr` */
    const char *q = p;
    if (*q >= '0' && *q <= '9') {
      while (*q >= '0' && *q <= '9') q++;
    } else if (asm_is_ident_start((unsigned char)*q)) {
      while (asm_is_ident_char((unsigned char)*q)) q++;
    } else {
      break;
    }
    const char *r = asm_skip_ws(q);
    if (*r == '=' && r[1] != '=' && !(*p >= '0' && *p <= '9')) {
      asm_set_symbol(o, p, (size_t)(q - p), r + 1, r + 1 + strlen(r + 1), p);
      return;
    }
    if (*r != ':') break;
    asm_define_label(o, p, (size_t)(q - p), p);
    p = asm_skip_ws(r + 1);
  }
  if (!*p) return;
  const char *e = p;
  while (*e && *e != ' ' && *e != '\t') e++;
  if (*p == '.') asm_directive(o, p, e, asm_skip_ws(e));
  else asm_insn(o, p, e, asm_skip_ws(e));
}

/* Assembles one line: splits it into ';'-separated statements. */
static void line(asm_object *o, const char *file, int lineno, int col0, const char *text) {
  size_t n = strlen(text);
  char *buf = malloc(n + 1);
  if (!buf) {
    asm_nomem(o);
    return;
  }
  size_t start = 0;
  char quote = 0;
  for (size_t i = 0; i <= n && !o->nomem; i++) {
    char c = text[i];
    if (quote) {
      if (c == '\\' && text[i + 1]) i++;
      else if (c == quote) quote = 0;
      if (c) continue;
    }
    if (c == '"') { quote = c; continue; }
    if (c == ';' || !c) {
      memcpy(buf, text + start, i - start);
      buf[i - start] = 0;
      o->loc = (asm_loc){file, buf, lineno, (int)start + col0};
      statement(o);
      start = i + 1;
    }
  }
  free(buf);
  o->loc.text = NULL;
}

static void run_pass(asm_object *o) {
  o->pass++;
  o->changed = 0;
  for (int i = 0; i < o->nsecs; i++) {
    o->secs[i].prev_size = o->secs[i].size;
    o->secs[i].size = 0;
  }
  for (int i = 0; i < o->nsyms; i++)
    if (o->syms[i].name[0] == '\001') o->syms[i].value = 0;
  free(o->prev_his);
  o->prev_his = o->his;
  o->nprev_his = o->nhis;
  o->his = NULL;
  o->nhis = o->caphis = 0;
  o->nrels = 0;
  o->contents = 0;
  o->xpre_sec = -1;
  o->auto_label = 0;
  o->cur = o->prev_cur = 0;
  for (int l = 0; l < o->src.n && !o->nomem && !o->too_big; l++) {
    const asm_line *L = &o->src.v[l];
    line(o, L->file, L->line, L->col0, L->text);
  }
  o->loc = (asm_loc){NULL, NULL, 0, 0};
  for (int i = 0; i < o->nsecs; i++)
    if (o->secs[i].size != o->secs[i].prev_size) o->changed = 1;
  for (int i = 0; i < o->nsyms; i++) {
    asm_sym *y = &o->syms[i];
    if (y->name[0] == '\001') continue;
    if (y->sec != y->prev_sec || y->value != y->prev_value) o->changed = 1;
    y->prev_sec = y->sec;
    y->prev_value = y->value;
  }
}

/* Out of memory anywhere in a unit: one error naming the unit. */
static int nomem_fail(vt_error *e, const asm_source *src, int nsrc) {
  const char *name = nsrc > 0 && src[0].name ? src[0].name : "<input>";
  if (nsrc > 1)
    return vt_fail(e, VT_ERR_NOMEM, "out of memory while assembling %s (and %d more file(s))",
                   name, nsrc - 1);
  return vt_fail(e, VT_ERR_NOMEM, "out of memory while assembling %s", name);
}

int asm_assemble(const asm_source *src, int nsrc, const asm_options *opt, asm_object **out,
                 asm_diags *d, vt_error *e) {
  return asm_assemble_ex(src, nsrc, opt, NULL, out, d, e);
}

int asm_assemble_ex(const asm_source *src, int nsrc, const asm_options *opt,
                    const asm_pp_options *pp, asm_object **out, asm_diags *d, vt_error *e) {
  *out = NULL;
  asm_object *o = calloc(1, sizeof *o);
  if (!o) return nomem_fail(e, src, nsrc);
  if (opt) o->opt = *opt;
  else o->opt.text_addr = ASM_DEFAULT_TEXT_ADDR;
  o->pp = pp;
  o->exec = !o->opt.relocatable;
  o->max_errors = o->opt.max_errors > 0 ? o->opt.max_errors : 50;
  asm_diags local = {0};
  o->diags = d ? d : &local;
  memset(o->diags, 0, sizeof *o->diags);
  o->diags->v = calloc((size_t)o->max_errors, sizeof *o->diags->v);
  if (!o->diags->v) {
    asm_free(o);
    return nomem_fail(e, src, nsrc);
  }
  int rc = 0;
  if (asm_section_switch(o, ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR) < 0) {
    if (!d) asm_diags_free(&local);
    asm_free(o);
    return nomem_fail(e, src, nsrc);
  }
  asm_load_sources(o, src, nsrc);
  while (!o->nomem) {
    o->final = o->pass >= 2 && !o->changed;
    if (o->pass >= MAX_PASSES) o->final = 1;
    run_pass(o);
    if (o->nomem || o->too_big) break;
    asm_layout(o);
    asm_synth_symbols(o);
    if (o->final) break;
  }
  if (o->changed && !o->nerrors) asm_error(o, NULL, "label addresses did not converge");
  int si = asm_sym_find(o, "_start", 6);
  if (si >= 0 && o->syms[si].sec >= 0)
    o->entry = o->secs[o->syms[si].sec].addr + (uint32_t)o->syms[si].value;
  else
    o->entry = o->secs[0].addr;
  if (o->nomem) {
    rc = nomem_fail(e, src, nsrc); /* diagnostics of a partial unit are no use */
    o->diags->n = o->diags->dropped = 0;
  } else if (!o->nerrors && asm_layout_check(o, e)) {
    rc = -1;
  } else if (o->nerrors) {
    asm_diag *g = &o->diags->v[0];
    rc = vt_fail(e, VT_ERR_ASM, "%d error(s); first: %s:%d:%d: %s", o->nerrors, g->file,
                 g->line, g->col, g->msg);
  }
  asm_lines_free(&o->src);
  o->pp = NULL;
  if (!d) asm_diags_free(&local);
  o->diags = NULL;
  if (rc) {
    asm_free(o);
    return -1;
  }
  *out = o;
  return 0;
}

void asm_free(asm_object *o) {
  if (!o) return;
  for (int i = 0; i < o->nsecs; i++) {
    free(o->secs[i].name);
    free(o->secs[i].data);
  }
  free(o->secs);
  free(o->sec_hash);
  free(o->hash);
  for (int i = 0; i < o->nsyms; i++) free(o->syms[i].name);
  free(o->syms);
  free(o->rels);
  free(o->his);
  free(o->prev_his);
  asm_lines_free(&o->src);
  free(o);
}

int asm_section(const asm_object *o, const char *name, const uint8_t **data, uint32_t *size,
                uint32_t *addr) {
  for (int i = 0; i < o->nsecs; i++)
    if (!strcmp(o->secs[i].name, name)) {
      if (data) *data = o->secs[i].data;
      if (size) *size = o->secs[i].size;
      if (addr) *addr = o->secs[i].addr;
      return 0;
    }
  return -1;
}

int asm_symbol_value(const asm_object *o, const char *name, uint32_t *value) {
  int i = asm_sym_find((asm_object *)o, name, strlen(name));
  if (i < 0 || o->syms[i].sec == SYM_UNDEF) return -1;
  const asm_sym *y = &o->syms[i];
  *value = (uint32_t)(y->sec >= 0 ? o->secs[y->sec].addr + (uint64_t)y->value : (uint64_t)y->value);
  return 0;
}

int asm_assemble_files(const char *const *paths, int n, const asm_options *opt,
                       const char *out_path, asm_diags *d, vt_error *e) {
  return asm_assemble_files_ex(paths, n, opt, NULL, out_path, d, e);
}

int asm_assemble_files_ex(const char *const *paths, int n, const asm_options *opt,
                          const asm_pp_options *pp, const char *out_path, asm_diags *d,
                          vt_error *e) {
  asm_source *src = calloc((size_t)(n > 0 ? n : 1), sizeof *src);
  if (!src)
    return vt_fail(e, VT_ERR_NOMEM, "out of memory while assembling %s",
                   n > 0 ? paths[0] : "<input>");
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    src[i].name = paths[i];
    src[i].text = asm_read_text(paths[i], e);
    if (!src[i].text) rc = -1;
  }
  asm_object *o = NULL;
  if (!rc) rc = asm_assemble_ex(src, n, opt, pp, &o, d, e);
  if (!rc) rc = asm_write_elf(o, out_path, e);
  asm_free(o);
  for (int i = 0; i < n; i++) free((char *)src[i].text);
  free(src);
  return rc;
}

int asm_words(const char *text, uint32_t pc, uint32_t *words, int max, vt_error *e) {
  return asm_words_rev(text, pc, ISA_REV_BASE, words, max, e);
}

int asm_words_rev(const char *text, uint32_t pc, int rev, uint32_t *words, int max, vt_error *e) {
  asm_source s = {"<input>", text};
  asm_options opt = {0, pc, 1, rev};
  asm_object *o;
  asm_diags d = {0};
  if (asm_assemble(&s, 1, &opt, &o, &d, e)) {
    if (d.n) {
      char buf[400];
      asm_diag_format(&d.v[0], buf, sizeof buf);
      vt_fail(e, VT_ERR_ASM, "%s", buf);
    }
    asm_diags_free(&d);
    return -1;
  }
  asm_diags_free(&d);
  const uint8_t *data = NULL;
  uint32_t size = 0;
  asm_section(o, ".text", &data, &size, NULL);
  int n = (int)(size / 4);
  for (int i = 0; i < n && i < max; i++)
    words[i] = (uint32_t)data[4 * i] | (uint32_t)data[4 * i + 1] << 8 |
               (uint32_t)data[4 * i + 2] << 16 | (uint32_t)data[4 * i + 3] << 24;
  asm_free(o);
  return n;
}
