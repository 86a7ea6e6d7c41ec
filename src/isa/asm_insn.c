/* Instructions of the table: operand parsing by syntax slot, relocation
 * operators, encoding (through isa_encode, prefix included) and emission. */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "asm_int.h"

static int sext12(int64_t v) { return (int)((v & 0xfff) ^ 0x800) - 0x800; }

isa_id asm_find_mnemonic(const char *mn, uint32_t *aqrl) {
  *aqrl = 0;
  for (int i = 0; i < ISA_COUNT; i++)
    if (!strcasecmp(isa_table[i].mnemonic, mn)) return (isa_id)i;
  static const struct {
    const char *sfx;
    uint32_t bits;
  } sfx[] = {{".aqrl", 3}, {".aq", 2}, {".rl", 1}};
  size_t n = strlen(mn);
  for (int k = 0; k < 3; k++) {
    size_t m = strlen(sfx[k].sfx);
    if (n <= m || strcasecmp(mn + n - m, sfx[k].sfx)) continue;
    for (int i = 0; i < ISA_COUNT; i++)
      if ((isa_table[i].flags & IF_AQRL) && strlen(isa_table[i].mnemonic) == n - m &&
          !strncasecmp(isa_table[i].mnemonic, mn, n - m)) {
        *aqrl = sfx[k].bits;
        return (isa_id)i;
      }
  }
  return ISA_INVALID;
}

static int token_eq(const char *b, const char *e, const char *s) {
  return (size_t)(e - b) == strlen(s) && !strncasecmp(b, s, (size_t)(e - b));
}

int asm_parse_xreg_op(asm_object *o, const char *b, const char *e, int64_t *r) {
  char buf[16];
  if (b == e) return asm_error(o, b, "expected an x register");
  asm_copy(buf, sizeof buf, b, e);
  int v = (size_t)(e - b) < sizeof buf ? isa_parse_xreg(buf) : -1;
  if (v < 0) return asm_error(o, b, "expected an x register, got '%.*s'", (int)(e - b), b);
  *r = v;
  return 0;
}

static int asm_parse_freg_op(asm_object *o, const char *b, const char *e, int64_t *r) {
  char buf[16];
  asm_copy(buf, sizeof buf, b, e);
  int v = (size_t)(e - b) < sizeof buf ? isa_parse_freg(buf) : -1;
  if (v < 0) return asm_error(o, b, "expected an f register, got '%.*s'", (int)(e - b), b);
  *r = v;
  return 0;
}

int asm_parse_vreg_op(asm_object *o, const char *b, const char *e, int64_t *r) {
  char buf[16];
  asm_copy(buf, sizeof buf, b, e);
  int v = (size_t)(e - b) < sizeof buf ? isa_parse_vreg(buf) : -1;
  if (v < 0) return asm_error(o, b, "expected a vector register, got '%.*s'", (int)(e - b), b);
  *r = v;
  return 0;
}

int asm_parse_csr_op(asm_object *o, const char *b, const char *e, int64_t *r) {
  char buf[32];
  asm_copy(buf, sizeof buf, b, e);
  int v = (size_t)(e - b) < sizeof buf ? isa_parse_csr(buf) : -1;
  if (v < 0 && (size_t)(e - b) < sizeof buf && !strncasecmp(buf, "csr_gid_", 8) && buf[8] &&
      !buf[9]) { /* CSR_GID_X/Y/Z, the upstream headers' spelling of gidx/y/z */
    char g[8] = {'g', 'i', 'd', (char)tolower((unsigned char)buf[8]), 0};
    v = isa_parse_csr(g);
  }
  if (v >= 0) {
    *r = v;
    return 0;
  }
  if (b < e && (isdigit((unsigned char)*b) || *b == '(')) return asm_eval_abs(o, b, e, r);
  if (b < e && asm_is_ident_start((unsigned char)*b)) {
    /* an .equ constant may name a CSR number; anything else is unknown */
    int si = asm_sym_find(o, b, (size_t)(e - b));
    if (si >= 0 && o->syms[si].sec == SYM_ABS) return asm_eval_abs(o, b, e, r);
  }
  return asm_error(o, b, "unknown CSR '%.*s'", (int)(e - b), b);
}

/* Immediate operand: optional %op(...) around an expression. */
int asm_parse_imm_op(asm_object *o, const char *b, const char *e, asm_val *v, int *rk) {
  if (b == e) return asm_error(o, b, "expected an immediate");
  const char *ib = b, *ie = e;
  *rk = asm_reloc_op(o, &ib, &ie);
  if (*rk < 0) return -1;
  return asm_eval(o, ib, ie, v);
}

static int fence_set(asm_object *o, const char *b, const char *e, int64_t *out) {
  if (b < e && isdigit((unsigned char)*b)) return asm_eval_abs(o, b, e, out);
  int64_t v = 0;
  for (const char *p = b; p < e; p++) {
    const char *bit = strchr("iorw", tolower((unsigned char)*p));
    if (!bit || !*p) return asm_error(o, p, "bad fence set '%.*s'", (int)(e - b), b);
    v |= 8 >> (bit - "iorw");
  }
  if (b == e) return asm_error(o, b, "expected a fence set");
  *out = v;
  return 0;
}

/* vtype: "e32, m1, ta, ma" (consumes up to 4 operands) or a number. */
static int parse_vtype(asm_object *o, const char **ob, const char **oe, int nops, int *j,
                       int64_t *out) {
  const char *b = ob[*j], *e = oe[*j];
  if (!(b < e && (*b == 'e' || *b == 'E') && e > b + 1 && isdigit((unsigned char)b[1]))) {
    (*j)++;
    return asm_eval_abs(o, b, e, out);
  }
  static const char *const sews[] = {"e8", "e16", "e32", "e64"};
  static const char *const lmuls[8] = {"m1", "m2", "m4", "m8", NULL, "mf8", "mf4", "mf2"};
  int64_t v = -1;
  for (int i = 0; i < 4; i++)
    if (token_eq(b, e, sews[i])) v = i << 3;
  if (v < 0) return asm_error(o, b, "bad element width '%.*s'", (int)(e - b), b);
  (*j)++;
  int have_lmul = 0, have_ta = 0, have_ma = 0;
  while (*j < nops) {
    b = ob[*j], e = oe[*j];
    int done = 0;
    for (int i = 0; i < 8 && !have_lmul && !have_ta && !have_ma; i++)
      if (lmuls[i] && token_eq(b, e, lmuls[i])) v |= i, have_lmul = done = 1;
    if (!done && !have_ta && !have_ma && (token_eq(b, e, "ta") || token_eq(b, e, "tu")))
      v |= token_eq(b, e, "ta") ? 0x40 : 0, have_ta = done = 1;
    if (!done && !have_ma && (token_eq(b, e, "ma") || token_eq(b, e, "mu")))
      v |= token_eq(b, e, "ma") ? 0x80 : 0, have_ma = done = 1;
    if (!done) return asm_error(o, b, "bad vtype field '%.*s'", (int)(e - b), b);
    (*j)++;
  }
  *out = v;
  return 0;
}

/* Finds "off(base)": *lp = the '(' matching the final ')'. */
static int split_mem(asm_object *o, const char *b, const char *e, const char **lp) {
  if (e == b || e[-1] != ')') return asm_error(o, b, "expected a memory operand 'offset(reg)'");
  int depth = 0;
  for (const char *p = e - 1; p >= b; p--) {
    if (*p == ')') depth++;
    else if (*p == '(' && --depth == 0) {
      *lp = p;
      return 0;
    }
  }
  return asm_error(o, b, "unbalanced parentheses");
}

/* Whether a regext/regexti word sits at sec:off (a label before a prefixed auipc). */
static int is_prefix_at(const asm_object *o, int sec, int64_t off) {
  const asm_sec *s = &o->secs[sec];
  if (off < 0 || off + 4 > (int64_t)s->size || !s->data) return 0;
  const uint8_t *p = s->data + off;
  isa_id id = isa_lookup((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
  return id == ISA_regext || id == ISA_regexti;
}

int asm_same_section(const asm_object *o, const asm_val *v) {
  return v->kind == VAL_SEC && v->sec == o->cur &&
         (o->exec || v->sym < 0 || !o->syms[v->sym].global);
}

int asm_resolve(asm_object *o, const asm_val *v, int rk, isa_opk slot, uint32_t pc_off,
                int64_t *out, const char *at) {
  *out = 0;
  int64_t pc = (int64_t)o->secs[o->cur].addr + pc_off;
  int branch = slot == OPK_BIMM || slot == OPK_JIMM;
  if (o->final && v->kind == VAL_UND && o->exec)
    return asm_error(o, at, "undefined symbol '%s'", v->sym >= 0 ? o->syms[v->sym].name : "?");
  if (o->final && v->kind == VAL_UND && v->sym >= 0 && !o->syms[v->sym].global)
    o->syms[v->sym].global = 1; /* an undefined reference is external */
  /* target known now: absolute, executable, or same section */
  int known = v->kind == VAL_ABS || (v->kind == VAL_SEC && o->exec);
  int same = asm_same_section(o, v);
  switch (rk) {
  case RK_NONE:
    if (branch) {
      if (v->kind == VAL_ABS) { *out = v->v; return 0; } /* a plain number is an offset */
      if (known || same) { *out = same ? asm_wrap_sub(v->v, pc_off) : asm_wrap_sub(asm_val_addr(o, v), pc); return 0; }
      asm_add_rel(o, pc_off, slot == OPK_BIMM ? R_RISCV_BRANCH : R_RISCV_JAL, v);
      return 0;
    }
    if (v->kind == VAL_ABS) { *out = v->v; return 0; }
    if (!o->final) return 0;
    return asm_error(o, at, "expected a constant (use %%hi/%%lo for addresses)");
  case RK_HI:
    if (slot != OPK_UIMM20) return asm_error(o, at, "%%hi is only valid for lui/auipc operands");
    if (known) { *out = (asm_wrap_add(asm_val_addr(o, v), 0x800) >> 12) & 0xfffff; return 0; }
    asm_add_rel(o, pc_off, R_RISCV_HI20, v);
    return 0;
  case RK_LO:
    if (known) { *out = sext12(asm_val_addr(o, v)); return 0; }
    if (slot != OPK_SIMM12 && slot != OPK_SIMM12S)
      return asm_error(o, at, "no relocation exists for %%lo in this operand");
    asm_add_rel(o, pc_off, slot == OPK_SIMM12 ? R_RISCV_LO12_I : R_RISCV_LO12_S, v);
    return 0;
  case RK_PCREL_HI: {
    if (slot != OPK_UIMM20) return asm_error(o, at, "%%pcrel_hi is only valid for auipc");
    if (o->nhis == o->caphis) {
      int cap = o->caphis ? o->caphis * 2 : 16;
      asm_hi *n = realloc(o->his, (size_t)cap * sizeof *n);
      if (!n) return asm_nomem(o);
      o->his = n;
      o->caphis = cap;
    }
    asm_hi *h = &o->his[o->nhis++];
    *h = (asm_hi){o->cur, pc_off, 0, 0};
    if (known || same) {
      h->resolved = 1;
      h->delta = same ? asm_wrap_sub(v->v, pc_off) : asm_wrap_sub(asm_val_addr(o, v), pc);
      *out = (asm_wrap_add(h->delta, 0x800) >> 12) & 0xfffff;
      return 0;
    }
    if (v->kind == VAL_ABS) return asm_error(o, at, "%%pcrel_hi needs a symbol in a relocatable object");
    asm_add_rel(o, pc_off, R_RISCV_PCREL_HI20, v);
    return 0;
  }
  case RK_PCREL_LO: {
    if (v->kind != VAL_SEC || v->v != (int64_t)(uint32_t)v->v) {
      if (!o->final) return 0;
      return asm_error(o, at, "%%pcrel_lo needs the label of an auipc with %%pcrel_hi");
    }
    const asm_hi *h = NULL;
    for (int pass = 0; pass < 2 && !h; pass++) {
      const asm_hi *list = pass ? o->prev_his : o->his;
      int n = pass ? o->nprev_his : o->nhis;
      for (int i = 0; i < n && !h; i++)
        if (list[i].sec == v->sec &&
            (list[i].off == v->v || (list[i].off == v->v + 4 && is_prefix_at(o, v->sec, v->v))))
          h = &list[i];
    }
    if (!h) {
      if (!o->final) return 0;
      return asm_error(o, at, "%%pcrel_lo: no auipc with %%pcrel_hi at this label");
    }
    if (h->resolved) { *out = sext12(h->delta); return 0; }
    if (slot != OPK_SIMM12 && slot != OPK_SIMM12S)
      return asm_error(o, at, "no relocation exists for %%pcrel_lo in this operand");
    if (v->sym < 0) return asm_error(o, at, "%%pcrel_lo needs a label name");
    asm_add_rel(o, pc_off, slot == OPK_SIMM12 ? R_RISCV_PCREL_LO12_I : R_RISCV_PCREL_LO12_S, v);
    return 0;
  }
  }
  return asm_error(o, at, "bad relocation operator");
}

uint32_t asm_explicit_prefix(const asm_object *o, isa_id id) {
  if (o->xpre_sec != o->cur || o->xpre_end != asm_here(o)) return 0;
  if ((unsigned)id < ISA_COUNT && (isa_table[id].flags & IF_PREFIX)) return 0;
  return o->xpre_word;
}

uint32_t asm_word_offset(const asm_object *o, isa_id id, int reg_above_31) {
  return asm_here(o) + (reg_above_31 && !asm_explicit_prefix(o, id) ? 4u : 0u);
}

int asm_encode_emit(asm_object *o, isa_id id, int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl,
                    const char *at) {
  uint32_t w = 0, prefix = 0, under = asm_explicit_prefix(o, id);
  char err[200];
  if (isa_table[id].flags & IF_LONG) { /* two words, no prefix: 8-bit register fields */
    uint32_t hi = 0;
    int bad = isa_encode64(id, vals, &w, &hi, err, sizeof err);
    asm_emit_word(o, bad ? 0 : w); /* the size stays 8 either way */
    asm_emit_word(o, bad ? 0 : hi);
    if (bad) return asm_error(o, at, "%s: %s", isa_table[id].mnemonic, err);
    return asm_check_fit(o, 0, w, hi, 1, at);
  }
  int rc = under ? isa_encode_under(id, vals, aqrl, under, &w, err, sizeof err)
                 : isa_encode(id, vals, aqrl, &w, &prefix, err, sizeof err);
  if (rc) {
    /* keep sizes stable in early passes; the last pass reports */
    int big = 0;
    isa_opnd ops[ISA_MAX_OPNDS];
    int n = isa_operands(id, ops);
    for (int i = 0; i < n; i++)
      if (isa_opk_is_reg((isa_opk)ops[i].kind) && vals[i] > 31) big = 1;
    if (big && !under) asm_emit_word(o, 0);
    asm_emit_word(o, 0);
    return asm_error(o, at, "%s: %s", isa_table[id].mnemonic, err);
  }
  if (prefix) asm_emit_word(o, prefix);
  asm_emit_word(o, w);
  if (under && o->opt.isa_rev == ISA_REV_2025 && asm_check_fit(o, under, w, 0, 0, at)) return -1;
  if (isa_table[id].flags & IF_PREFIX) {
    o->xpre_sec = o->cur;
    o->xpre_end = asm_here(o);
    o->xpre_word = w;
  }
  return 0;
}

/* Range of a symbolic/immediate slot as the assembler reports it. */
static int check_range(asm_object *o, isa_id id, isa_opk k, int64_t v, const char *at) {
  int64_t lo, hi;
  isa_opk_range(k, &lo, &hi);
  /* I-type immediates are -2048..2047 (llvm-mc); vadd12.vi/vsub12.vi also take
   * LLVM's unsigned spelling 2048..4095 (docs/isa.md §7.9), regext/regexti a
   * negative 12-bit pattern: both encode the low 12 bits */
  if ((k == OPK_SIMM12 && (id == ISA_vadd12_vi || id == ISA_vsub12_vi)) || k == OPK_UIMM12)
    lo = -2048, hi = 4095;
  if (v < lo || v > hi)
    return asm_error(o, at, "immediate %lld out of range [%lld, %lld]", (long long)v,
                     (long long)lo, (long long)hi);
  if ((k == OPK_BIMM || k == OPK_JIMM) && (v & 1))
    return asm_error(o, at, "branch offset %lld is not a multiple of 2", (long long)v);
  return 0;
}

/* Folds a 12-bit field value into the encoder's range (see check_range). */
static int64_t fold12(isa_opk k, int64_t v) {
  if (k == OPK_SIMM12 && v > 2047) return v - 4096;
  if (k == OPK_UIMM12 && v < 0) return v + 4096;
  return v;
}

int asm_insn_ops(asm_object *o, isa_id id, uint32_t aqrl, const char *mn, const char **ob,
                 const char **oe, int nops) {
  isa_opnd slots[ISA_MAX_OPNDS];
  int ns = isa_operands(id, slots);
  int64_t vals[ISA_MAX_OPNDS] = {0};
  asm_val sv[ISA_MAX_OPNDS];
  int rk[ISA_MAX_OPNDS], symbolic[ISA_MAX_OPNDS] = {0};
  const char *at[ISA_MAX_OPNDS];
  int j = 0, rc = 0;
  const char *base_b = NULL, *base_e = NULL; /* register text inside "off(reg)" */
  for (int i = 0; i < ns && !rc; i++) {
    isa_opk k = (isa_opk)slots[i].kind;
    at[i] = j < nops ? ob[j] : mn;
    if (k == OPK_VM) {
      vals[i] = 1;
      if (j < nops && token_eq(ob[j], oe[j], "v0.t")) vals[i] = 0, j++;
      continue;
    }
    if (k == OPK_RM) {
      vals[i] = 7;
      if (j < nops) {
        char buf[8];
        asm_copy(buf, sizeof buf, ob[j], oe[j]);
        int r = isa_parse_rm(buf);
        if (r < 0) { rc = asm_error(o, ob[j], "bad rounding mode '%.*s'", (int)(oe[j] - ob[j]), ob[j]); break; }
        vals[i] = r, j++;
      }
      continue;
    }
    if (slots[i].mem == ISA_MEM_BASE) {
      at[i] = base_b;
      if (isa_opk_is_xreg(k)) rc = asm_parse_xreg_op(o, base_b, base_e, &vals[i]);
      else rc = asm_parse_vreg_op(o, base_b, base_e, &vals[i]);
      continue;
    }
    if (j >= nops) {
      const char *end = o->loc.text + strlen(o->loc.text);
      while (end > o->loc.text && isspace((unsigned char)end[-1])) end--;
      rc = asm_error(o, end, "%s: missing operand(s), expected '%s'", isa_table[id].mnemonic,
                     isa_table[id].syntax);
      break;
    }
    const char *b = ob[j], *e = oe[j];
    if (slots[i].mem == ISA_MEM_OFF || slots[i].mem == ISA_MEM_BARE) {
      const char *lp = NULL;
      if (split_mem(o, b, e, &lp)) { rc = -1; break; }
      base_b = lp + 1;
      base_e = e - 1;
      while (base_b < base_e && isspace((unsigned char)*base_b)) base_b++;
      while (base_e > base_b && isspace((unsigned char)base_e[-1])) base_e--;
      const char *xe = lp;
      while (xe > b && isspace((unsigned char)xe[-1])) xe--;
      if (slots[i].mem == ISA_MEM_BARE) {
        int64_t z = 0;
        if (xe > b && (asm_eval_abs(o, b, xe, &z) || z != 0)) {
          rc = asm_error(o, b, "this instruction takes no offset: '(reg)'");
          break;
        }
        at[i] = base_b;
        if (isa_opk_is_xreg(k)) rc = asm_parse_xreg_op(o, base_b, base_e, &vals[i]);
        else rc = asm_parse_vreg_op(o, base_b, base_e, &vals[i]);
        j++;
        continue;
      }
      j++;
      if (xe == b) { vals[i] = 0; continue; } /* "(reg)" = 0(reg) */
      if (asm_parse_imm_op(o, b, xe, &sv[i], &rk[i])) { rc = -1; break; }
      symbolic[i] = 1;
      continue;
    }
    if (isa_opk_is_xreg(k)) { rc = asm_parse_xreg_op(o, b, e, &vals[i]); j++; continue; }
    if (isa_opk_is_vreg(k)) { rc = asm_parse_vreg_op(o, b, e, &vals[i]); j++; continue; }
    if (isa_opk_is_freg(k)) { rc = asm_parse_freg_op(o, b, e, &vals[i]); j++; continue; }
    switch (k) {
    case OPK_V0:
      if (!token_eq(b, e, "v0")) rc = asm_error(o, b, "expected v0");
      j++;
      break;
    case OPK_CSR: rc = asm_parse_csr_op(o, b, e, &vals[i]); j++; break;
    case OPK_PRED: case OPK_SUCC: rc = fence_set(o, b, e, &vals[i]); j++; break;
    case OPK_VTYPEI11: case OPK_VTYPEI10: rc = parse_vtype(o, ob, oe, nops, &j, &vals[i]); break;
    default:
      if (asm_parse_imm_op(o, b, e, &sv[i], &rk[i])) { rc = -1; break; }
      symbolic[i] = 1;
      j++;
      break;
    }
  }
  if (!rc && j < nops)
    rc = asm_error(o, ob[j], "%s: too many operands, expected '%s'", isa_table[id].mnemonic,
                   isa_table[id].syntax);
  /* the word sits after a prefix when a register needs one */
  int regpre = 0, islong = (isa_table[id].flags & IF_LONG) != 0;
  for (int i = 0; i < ns; i++)
    if (isa_opk_is_reg((isa_opk)slots[i].kind) && vals[i] > 31 && !islong) regpre = 1;
  uint32_t pc_off = asm_word_offset(o, id, regpre);
  regpre = pc_off != asm_here(o);
  for (int i = 0; i < ns && !rc; i++) {
    if (!symbolic[i]) continue;
    isa_opk k = (isa_opk)slots[i].kind;
    if (asm_resolve(o, &sv[i], rk[i], k, pc_off, &vals[i], at[i])) { rc = -1; break; }
    if (!o->final) {
      int64_t lo, hi;
      isa_opk_range(k, &lo, &hi);
      if (vals[i] < lo || vals[i] > hi || ((k == OPK_BIMM || k == OPK_JIMM) && (vals[i] & 1)))
        vals[i] = 0; /* sizes only: an early pass may see stale values */
    }
    if (check_range(o, id, k, vals[i], at[i])) { rc = -1; break; }
    vals[i] = fold12(k, vals[i]);
  }
  if (rc) {
    /* keep the location counter plausible for the passes that follow */
    if (regpre || islong) asm_emit_word(o, 0);
    asm_emit_word(o, 0);
    return -1;
  }
  return asm_encode_emit(o, id, vals, aqrl, mn);
}

int asm_insn(asm_object *o, const char *mn, const char *mn_end, const char *ops) {
  char name[40];
  if ((size_t)(mn_end - mn) >= sizeof name)
    return asm_error(o, mn, "unknown instruction '%.*s'", (int)(mn_end - mn), mn);
  asm_copy(name, sizeof name, mn, mn_end);
  if (!(o->secs[o->cur].flags & SHF_EXECINSTR) && o->secs[o->cur].type == SHT_NOBITS)
    return asm_error(o, mn, "instruction in a NOBITS section");
  if (asm_here(o) % 4) return asm_error(o, mn, "instruction at a misaligned address");
  int rc;
  if (asm_pseudo(o, name, ops, &rc)) return rc;
  uint32_t aqrl;
  isa_id id = asm_find_mnemonic(name, &aqrl);
  if (id == ISA_INVALID) return asm_error(o, mn, "unknown instruction '%s'", name);
  if (!isa_in_rev(isa_table[id].flags, (isa_rev)o->opt.isa_rev))
    return asm_error(o, mn,
                     o->opt.isa_rev == ISA_REV_2025
                         ? "'%s' is not in ISA revision 2025: its encoding belongs to another "
                           "instruction there (docs/isa-extensions.md)"
                         : "'%s' is an ISA 2025 instruction (assemble with --isa 2025)",
                     name);
  const char *ob[16], *oe[16];
  int n = asm_split_operands(ops, ob, oe, 16);
  if (n < 0) return asm_error(o, ops, n == -2 ? "unterminated quote" : "too many operands");
  return asm_insn_ops(o, id, aqrl, mn, ob, oe, n);
}
