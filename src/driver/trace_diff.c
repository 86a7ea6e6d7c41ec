#include "trace_diff.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "isa.h"
#include "textfile.h"
#include "vt_json.h"

#define ENDPRG_WORD 0x0000400bu
#define BOOT_LO 0x1000u
#define BOOT_HI 0x1010u
#define START_PC 0x80000000u

typedef struct {
  uint32_t pc;
  uint64_t insn; /* 64-bit words (ISA 2025 long formats) are logged with 16 digits */
  uint32_t dline, cline; /* 0-based line indices of disasm and commit lines */
  uint8_t nx, has_v, nmem_ld, nmem_st;
  uint16_t vreg;
  uint32_t vmask, vl;
  uint32_t x_reg[4], x_val[4];
  uint8_t has_f;  /* f-register write: "fN  0x<16 digits>" (FLEN 64) */
  uint16_t f_reg;
  uint64_t f_val;
  size_t pool; /* v[vl], loads[nmem_ld], stores (addr,val)[nmem_st] */
} rec;

typedef struct {
  uint32_t wg, warp;
  int ended;
  int pending; /* disassembly line seen, commit line not yet */
  uint32_t ppc, pline;
  uint64_t pinsn;
  rec *r;
  size_t n, cap;
} stream;

typedef struct {
  const char *path;
  vt_textfile tf;
  stream *s;
  size_t ns, caps;
  size_t *ht; /* (wg, warp) -> stream index + 1, open addressing; htcap = 2 * caps */
  size_t htcap;
  uint32_t *pool;
  size_t npool, cappool;
} tlog;

static int pool_add(tlog *l, uint32_t v) {
  if (l->npool == l->cappool) {
    size_t nc = l->cappool ? l->cappool * 2 : 4096;
    uint32_t *np = realloc(l->pool, nc * sizeof *np);
    if (!np) return -1;
    l->pool = np, l->cappool = nc;
  }
  l->pool[l->npool++] = v;
  return 0;
}

static void tlog_free(tlog *l) {
  for (size_t i = 0; i < l->ns; i++) free(l->s[i].r);
  free(l->s);
  free(l->ht);
  free(l->pool);
  vt_textfile_free(&l->tf);
}

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* hex number with optional 0x; returns NULL if none or if it does not fit
 * in 64 bits (a value that wrapped would compare as something else) */
static const char *hexnum64(const char *p, uint64_t *v) {
  p = skip_ws(p);
  if (p[0] == '0' && p[1] == 'x') p += 2;
  if (!isxdigit((unsigned char)*p)) return NULL;
  uint64_t x = 0;
  while (isxdigit((unsigned char)*p)) {
    int c = tolower((unsigned char)*p++);
    if (x >> 60) return NULL;
    x = x << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
  }
  *v = x;
  return p;
}

/* the same for 32-bit fields (pc, instruction word, x/v values) */
static const char *hexnum(const char *p, uint32_t *v) {
  uint64_t x;
  p = hexnum64(p, &x);
  if (!p || x > UINT32_MAX) return NULL;
  *v = (uint32_t)x;
  return p;
}

/* decimal number below 2^32; NULL if none or too large */
static const char *decnum(const char *p, uint32_t *v) {
  p = skip_ws(p);
  if (!isdigit((unsigned char)*p)) return NULL;
  uint64_t x = 0;
  while (isdigit((unsigned char)*p)) {
    x = x * 10 + (uint64_t)(*p++ - '0');
    if (x > UINT32_MAX) return NULL;
  }
  *v = (uint32_t)x;
  return p;
}

static int word_is(const char *p, const char *w) {
  size_t n = strlen(w);
  return !strncmp(p, w, n) && (p[n] == 0 || p[n] == ' ' || p[n] == '\t');
}

static int parse_fail(vt_error *e, const tlog *l, size_t line, const char *what) {
  return vt_fail(e, VT_ERR_FORMAT, "%s:%zu: %s: '%.80s'", l->path, line + 1, what, l->tf.lines[line]);
}

/* Parses the effects of a commit line into r. */
static int parse_effects(tlog *l, size_t line, const char *p, rec *r, vt_error *e) {
  uint32_t ld[64], st[128];
  int nld = 0, nst = 0;
  uint32_t v[32];
  for (;;) {
    p = skip_ws(p);
    if (!*p) break;
    uint32_t a, b;
    const char *q;
    if (p[0] == 'x' && isdigit((unsigned char)p[1])) {
      if (!(q = decnum(p + 1, &a)) || !(q = hexnum(q, &b))) return parse_fail(e, l, line, "bad register write");
      /* the ISS logs each register once per commit; a repeat would make the
       * comparison pair values of different writes */
      for (int k = 0; k < r->nx; k++)
        if (r->x_reg[k] == a) return parse_fail(e, l, line, "register written twice");
      if (a != 0 && r->nx < 4) r->x_reg[r->nx] = a, r->x_val[r->nx++] = b;
      p = q;
    } else if (p[0] == 'c' && isdigit((unsigned char)p[1])) {
      while (*p && *p != ' ') p++; /* cNNN_name */
      if (!(q = hexnum(p, &b))) return parse_fail(e, l, line, "bad CSR write");
      p = q;
    } else if (p[0] == 'f' && isdigit((unsigned char)p[1])) {
      uint64_t fv;
      if (!(q = decnum(p + 1, &a)) || !(q = hexnum64(q, &fv))) return parse_fail(e, l, line, "bad f register write");
      r->has_f = 1, r->f_reg = (uint16_t)a, r->f_val = fv;
      p = q;
    } else if (p[0] == 'e' && isdigit((unsigned char)p[1])) {
      /* the write's element count came from the header before it */
      if (r->has_v) return parse_fail(e, l, line, "vector header after the vector write");
      while (*p && *p != ' ') p++; /* eNN */
      p = skip_ws(p);
      while (*p && *p != ' ') p++; /* mN */
      p = skip_ws(p);
      if (p[0] != 'l' || !(q = decnum(p + 1, &r->vl))) return parse_fail(e, l, line, "bad vector header");
      p = q;
    } else if (p[0] == 'v' && isdigit((unsigned char)p[1])) {
      uint32_t reg, mask;
      if (!(q = decnum(p + 1, &reg)) || !(q = hexnum(q, &mask))) return parse_fail(e, l, line, "bad vector write");
      uint32_t n = r->vl ? r->vl : 1;
      if (n > 32) return parse_fail(e, l, line, "vector length above 32");
      for (uint32_t k = n; k-- > 0;)
        if (!(q = hexnum(q, &v[k]))) return parse_fail(e, l, line, "vector write with too few elements");
      r->has_v = 1, r->vreg = (uint16_t)reg, r->vmask = mask;
      p = q;
    } else if (word_is(p, "mem")) {
      if (!(q = hexnum(p + 3, &a))) return parse_fail(e, l, line, "bad mem address");
      const char *t = skip_ws(q);
      if (t[0] == '0' && t[1] == 'x') {
        if (!(q = hexnum(t, &b))) return parse_fail(e, l, line, "bad store value");
        if (nst < 64) st[2 * nst] = a, st[2 * nst + 1] = b, nst++;
      } else if (nld < 64) {
        ld[nld++] = a;
      }
      p = q;
    } else if (word_is(p, "current")) {
      break; /* SIMT state: not compared */
    } else {
      return parse_fail(e, l, line, "unknown commit effect");
    }
  }
  r->pool = l->npool;
  if (r->has_v)
    for (uint32_t k = 0; k < (r->vl ? r->vl : 1); k++)
      if (pool_add(l, v[k])) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (int k = 0; k < nld; k++)
    if (pool_add(l, ld[k])) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  for (int k = 0; k < 2 * nst; k++)
    if (pool_add(l, st[k])) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
  r->nmem_ld = (uint8_t)nld, r->nmem_st = (uint8_t)nst;
  return 0;
}

static size_t key_hash(uint32_t wg, uint32_t warp, size_t cap) {
  uint64_t k = ((uint64_t)wg << 32 | warp) * 0x9e3779b97f4a7c15ull;
  return (size_t)(k >> 32) & (cap - 1);
}

/* The stream of (wg, warp), or NULL; with create, a new one (NULL on OOM).
 * A hash table keeps this constant-time: logs can hold 10^5 and more warp
 * streams. */
static stream *get_stream(tlog *l, uint32_t wg, uint32_t warp, int create) {
  if (l->htcap) {
    for (size_t h = key_hash(wg, warp, l->htcap); l->ht[h]; h = (h + 1) & (l->htcap - 1)) {
      stream *s = &l->s[l->ht[h] - 1];
      if (s->wg == wg && s->warp == warp) return s;
    }
  }
  if (!create) return NULL;
  if (l->ns == l->caps) {
    size_t nc = l->caps ? l->caps * 2 : 64;
    stream *ns = realloc(l->s, nc * sizeof *ns);
    if (!ns) return NULL;
    l->s = ns, l->caps = nc;
    size_t *nh = calloc(2 * nc, sizeof *nh); /* load factor at most 1/2 */
    if (!nh) return NULL;
    free(l->ht);
    l->ht = nh, l->htcap = 2 * nc;
    for (size_t i = 0; i < l->ns; i++) {
      size_t h = key_hash(l->s[i].wg, l->s[i].warp, l->htcap);
      while (l->ht[h]) h = (h + 1) & (l->htcap - 1);
      l->ht[h] = i + 1;
    }
  }
  size_t h = key_hash(wg, warp, l->htcap);
  while (l->ht[h]) h = (h + 1) & (l->htcap - 1);
  l->ht[h] = l->ns + 1;
  stream *s = &l->s[l->ns++];
  memset(s, 0, sizeof *s);
  s->wg = wg, s->warp = warp;
  return s;
}

static int tlog_read(tlog *l, const char *path, vt_error *e) {
  memset(l, 0, sizeof *l);
  l->path = path;
  if (vt_textfile_read(path, &l->tf, e)) return -1;
  uint32_t wg = 0;
  for (size_t i = 0; i < l->tf.nlines; i++) {
    const char *p = l->tf.lines[i];
    if (strncmp(p, "core", 4)) continue;
    uint32_t warp, pc;
    uint64_t insn;
    const char *q = decnum(p + 4, &warp);
    if (!q && isdigit((unsigned char)*skip_ws(p + 4)))
      return parse_fail(e, l, i, "warp number ('core N') above 4294967295");
    if (!q || *q != ':') return parse_fail(e, l, i, "expected 'core N:'");
    q++;
    int commit = 0;
    const char *t = skip_ws(q);
    if (t[0] == '3' && t[1] == ' ') commit = 1, t += 2;
    t = skip_ws(t);
    if (!commit && !strncmp(t, "Executed ", 9)) continue; /* "core   W: Executed N times" */
    /* a damaged line must not be skipped: the records around it would be paired wrongly */
    if (t[0] != '0' || t[1] != 'x') return parse_fail(e, l, i, "expected a pc (0x...)");
    if (!(t = hexnum(t, &pc))) return parse_fail(e, l, i, "bad pc");
    t = skip_ws(t);
    if (*t != '(' || !(t = hexnum64(t + 1, &insn)) || *t != ')') return parse_fail(e, l, i, "bad instruction word");
    t++;
    stream *s = get_stream(l, wg, warp, 0);
    if (!commit) {
      int boot = pc >= BOOT_LO && pc <= BOOT_HI;
      if (s && ((s->ended && (pc == BOOT_LO || pc == START_PC)) || (pc == BOOT_LO && s->n))) {
        wg++;
        s = NULL;
      }
      if (!s && !(s = get_stream(l, wg, warp, 1))) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
      if (boot || s->ended) {
        s->pending = 0;
        continue;
      }
      s->pending = 1, s->ppc = pc, s->pinsn = insn, s->pline = (uint32_t)i;
      continue;
    }
    if (!s || !s->pending || s->ppc != pc || s->pinsn != insn) continue; /* spin / boot / after endprg */
    s->pending = 0;
    if (s->n == s->cap) {
      size_t nc = s->cap ? s->cap * 2 : 8; /* most streams are short in many-warp logs */
      rec *nr = realloc(s->r, nc * sizeof *nr);
      if (!nr) return vt_fail(e, VT_ERR_NOMEM, "out of memory");
      s->r = nr, s->cap = nc;
    }
    rec *r = &s->r[s->n];
    memset(r, 0, sizeof *r);
    r->pc = pc, r->insn = insn, r->dline = s->pline, r->cline = (uint32_t)i;
    if (parse_effects(l, i, t, r, e)) return -1;
    s->n++;
    if (insn == ENDPRG_WORD) s->ended = 1;
  }
  if (!l->ns) return vt_fail(e, VT_ERR_FORMAT, "%s: no commit log lines ('core N: 0x...') in it", path);
  return 0;
}

/* What differs between two records, or NULL. */
static const char *rec_diff(const tlog *la, const rec *a, const tlog *lb, const rec *b, char *buf, size_t n) {
  if (a->pc != b->pc) return snprintf(buf, n, "pc 0x%08x vs 0x%08x", a->pc, b->pc), buf;
  if (a->insn != b->insn) {
    int w = (a->insn | b->insn) >> 32 ? 16 : 8; /* as the log shows them */
    return snprintf(buf, n, "instruction 0x%0*" PRIx64 " vs 0x%0*" PRIx64, w, a->insn, w, b->insn), buf;
  }
  for (int i = 0; i < a->nx; i++) {
    int j = 0;
    while (j < b->nx && b->x_reg[j] != a->x_reg[i]) j++;
    if (j == b->nx) return snprintf(buf, n, "x%u written only in A", a->x_reg[i]), buf;
    if (a->x_val[i] != b->x_val[j])
      return snprintf(buf, n, "x%u = 0x%08x vs 0x%08x", a->x_reg[i], a->x_val[i], b->x_val[j]), buf;
  }
  for (int j = 0; j < b->nx; j++) {
    int i = 0;
    while (i < a->nx && a->x_reg[i] != b->x_reg[j]) i++;
    if (i == a->nx) return snprintf(buf, n, "x%u written only in B", b->x_reg[j]), buf;
  }
  if (a->has_f != b->has_f) return snprintf(buf, n, "f register written only in %s", a->has_f ? "A" : "B"), buf;
  if (a->has_f && (a->f_reg != b->f_reg || a->f_val != b->f_val))
    return snprintf(buf, n, "f%u = 0x%016llx vs f%u = 0x%016llx", a->f_reg, (unsigned long long)a->f_val,
                    b->f_reg, (unsigned long long)b->f_val),
           buf;
  if (a->has_v != b->has_v) return snprintf(buf, n, "vector register written only in %s", a->has_v ? "A" : "B"), buf;
  size_t pa = a->pool, pb = b->pool;
  if (a->has_v) {
    if (a->vreg != b->vreg) return snprintf(buf, n, "vector register v%u vs v%u", a->vreg, b->vreg), buf;
    if (a->vmask != b->vmask)
      return snprintf(buf, n, "v%u mask %08x vs %08x", a->vreg, a->vmask, b->vmask), buf;
    uint32_t na = a->vl ? a->vl : 1, nb = b->vl ? b->vl : 1;
    for (uint32_t k = 0; k < na && k < nb && k < 32; k++)
      if ((a->vmask >> k & 1) && la->pool[pa + k] != lb->pool[pb + k])
        return snprintf(buf, n, "v%u lane %u = 0x%08x vs 0x%08x", a->vreg, k, la->pool[pa + k], lb->pool[pb + k]), buf;
    pa += na, pb += nb;
  }
  if (a->nmem_st != b->nmem_st) return snprintf(buf, n, "%u stores vs %u", a->nmem_st, b->nmem_st), buf;
  if (a->nmem_ld != b->nmem_ld) return snprintf(buf, n, "%u loads vs %u", a->nmem_ld, b->nmem_ld), buf;
  for (int k = 0; k < a->nmem_ld; k++)
    if (la->pool[pa + k] != lb->pool[pb + k])
      return snprintf(buf, n, "load %d address 0x%08x vs 0x%08x", k, la->pool[pa + k], lb->pool[pb + k]), buf;
  pa += a->nmem_ld, pb += b->nmem_ld;
  for (int k = 0; k < a->nmem_st; k++) {
    uint32_t aa = la->pool[pa + 2 * k], av = la->pool[pa + 2 * k + 1];
    uint32_t ba = lb->pool[pb + 2 * k], bv = lb->pool[pb + 2 * k + 1];
    if (aa != ba || av != bv)
      return snprintf(buf, n, "store %d: [0x%08x] = 0x%08x vs [0x%08x] = 0x%08x", k, aa, av, ba, bv), buf;
  }
  return NULL;
}

int vt_trace_diff_files(const char *pa, const char *pb, const vt_tdiff_opts *o, FILE *out,
                        vt_tdiff_result *res, vt_error *e) {
  tlog A, B;
  memset(res, 0, sizeof *res);
  if (tlog_read(&A, pa, e)) {
    tlog_free(&A);
    return -1;
  }
  if (tlog_read(&B, pb, e)) {
    tlog_free(&A);
    tlog_free(&B);
    return -1;
  }
  size_t maxr = o && o->max_report ? o->max_report : 10;
  int json = o && o->json, quiet = o && o->quiet;
  res->streams_a = A.ns, res->streams_b = B.ns;
  size_t reported = 0;
  if (json && !quiet) fprintf(out, "{\"a\":"), vt_json_str(out, pa), fprintf(out, ",\"b\":"), vt_json_str(out, pb),
                      fprintf(out, ",\"differences\":[");
  /* every stream of A, then the streams only B has */
  for (int side = 0; side < 2; side++) {
    tlog *X = side ? &B : &A, *Y = side ? &A : &B;
    for (size_t i = 0; i < X->ns; i++) {
      stream *sx = &X->s[i];
      stream *sy = get_stream(Y, sx->wg, sx->warp, 0);
      if (side && sy) continue;
      stream *sa = side ? sy : sx, *sb = side ? sx : sy;
      char what[200] = "";
      size_t idx = 0;
      if (!sa || !sb) {
        snprintf(what, sizeof what, "warp present only in %s (%zu instructions)", sa ? "A" : "B",
                 sa ? sa->n : sb->n);
      } else {
        size_t n = sa->n < sb->n ? sa->n : sb->n;
        const char *d = NULL;
        for (idx = 0; idx < n; idx++) {
          res->compared++;
          if ((d = rec_diff(&A, &sa->r[idx], &B, &sb->r[idx], what, sizeof what))) break;
        }
        if (!d && sa->n != sb->n) {
          idx = n;
          snprintf(what, sizeof what, "%s has %zu more instructions", sa->n > sb->n ? "A" : "B",
                   sa->n > sb->n ? sa->n - n : sb->n - n);
        } else if (!d) {
          continue;
        }
      }
      res->differing++;
      if (quiet || reported >= maxr) continue;
      const rec *ra = sa && idx < sa->n ? &sa->r[idx] : NULL;
      const rec *rb = sb && idx < sb->n ? &sb->r[idx] : NULL;
      if (json) {
        fprintf(out, "%s{\"wg\":%u,\"warp\":%u,\"index\":%zu,\"line_a\":%u,\"line_b\":%u,\"what\":", reported ? "," : "",
                sx->wg, sx->warp, idx, ra ? ra->cline + 1 : 0, rb ? rb->cline + 1 : 0);
        vt_json_str(out, what);
        fprintf(out, "}");
      } else {
        fprintf(out, "wg %u warp %u, instruction %zu: %s\n", sx->wg, sx->warp, idx, what);
        const rec *prev = sa && idx > 0 && idx - 1 < sa->n ? &sa->r[idx - 1] : NULL;
        if (prev) fprintf(out, "  after  %s:%u: %s\n", pa, prev->dline + 1, A.tf.lines[prev->dline]);
        if (ra) fprintf(out, "  A %s:%u:\n    %s\n    %s\n", pa, ra->cline + 1, A.tf.lines[ra->dline], A.tf.lines[ra->cline]);
        else fprintf(out, "  A: (no instruction)\n");
        if (rb) fprintf(out, "  B %s:%u:\n    %s\n    %s\n", pb, rb->cline + 1, B.tf.lines[rb->dline], B.tf.lines[rb->cline]);
        else fprintf(out, "  B: (no instruction)\n");
      }
      reported++;
    }
  }
  if (!quiet) {
    if (json) {
      fprintf(out, "],\"streams_a\":%zu,\"streams_b\":%zu,\"compared\":%zu,\"differing_warps\":%zu,\"equal\":%s}\n",
              res->streams_a, res->streams_b, res->compared, res->differing, res->differing ? "false" : "true");
    } else {
      if (res->differing > reported) fprintf(out, "... %zu more differing warps not shown (--max)\n", res->differing - reported);
      fprintf(out, "%s: %zu warp streams vs %zu, %zu instructions compared, %zu warps differ\n",
              res->differing ? "DIFFERENT" : "EQUAL", res->streams_a, res->streams_b, res->compared,
              res->differing);
    }
  }
  tlog_free(&A);
  tlog_free(&B);
  return 0;
}
