/* Directives: sections, data, alignment, symbols. */
#include <ctype.h>
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm_int.h"

static int name_is(const char *b, const char *e, const char *s) {
  return (size_t)(e - b) == strlen(s) && !strncmp(b, s, (size_t)(e - b));
}

static int prefix_is(const char *name, const char *p) {
  size_t n = strlen(p);
  return !strncmp(name, p, n) && (name[n] == 0 || name[n] == '.');
}

/* Flags and type of a well-known section name (GNU as defaults). */
static void section_defaults(const char *name, uint32_t *type, uint32_t *flags) {
  *type = SHT_PROGBITS;
  *flags = 0;
  if (prefix_is(name, ".text") || prefix_is(name, ".init") || prefix_is(name, ".fini"))
    *flags = SHF_ALLOC | SHF_EXECINSTR;
  else if (prefix_is(name, ".rodata") || prefix_is(name, ".srodata"))
    *flags = SHF_ALLOC;
  else if (prefix_is(name, ".data") || prefix_is(name, ".sdata") || prefix_is(name, ".tohost"))
    *flags = SHF_ALLOC | SHF_WRITE;
  else if (prefix_is(name, ".bss") || prefix_is(name, ".sbss"))
    *type = SHT_NOBITS, *flags = SHF_ALLOC | SHF_WRITE;
}

static int dir_section(asm_object *o, const char *args) {
  const char *ob[8], *oe[8];
  int n = asm_split_operands(args, ob, oe, 8); /* group/entsize operands are ignored */
  if (n < 1) return asm_error(o, args, ".section: expected a section name");
  char name[4200]; /* .ventus.args.<kernel> for kernel names of any length the compiler allows */
  const char *nb = ob[0], *ne = oe[0];
  if (*nb == '"' && ne - nb >= 2 && ne[-1] == '"') nb++, ne--;
  if ((size_t)(ne - nb) >= sizeof name)
    return asm_error(o, ob[0], ".section: a section name of more than %d characters", (int)sizeof name - 1);
  if (ne == nb) return asm_error(o, ob[0], ".section: bad section name");
  for (const char *p = nb; p < ne; p++)
    if (!asm_is_ident_char((unsigned char)*p) && *p != '-')
      return asm_error(o, p, ".section: bad character in section name");
  asm_copy(name, sizeof name, nb, ne);
  uint32_t type, flags;
  section_defaults(name, &type, &flags);
  if (n >= 2) {
    char fl[32];
    size_t len;
    if (!asm_parse_string(o, ob[1], fl, sizeof fl, &len)) return -1;
    flags = 0;
    for (size_t i = 0; i < len; i++) {
      switch (fl[i]) {
      case 'a': flags |= SHF_ALLOC; break;
      case 'w': flags |= SHF_WRITE; break;
      case 'x': flags |= SHF_EXECINSTR; break;
      case 'M': case 'S': case 'G': case 'T': case 'o': case 'R': break; /* not modelled */
      default: return asm_error(o, ob[1] + 1 + i, ".section: unknown flag '%c'", fl[i]);
      }
    }
  }
  if (n >= 3) {
    const char *t = ob[2];
    if (*t == '@' || *t == '%') t++;
    if (name_is(t, oe[2], "progbits")) type = SHT_PROGBITS;
    else if (name_is(t, oe[2], "nobits")) type = SHT_NOBITS;
    else if (name_is(t, oe[2], "note")) type = SHT_NOTE;
    else if (name_is(t, oe[2], "init_array")) type = SHT_INIT_ARRAY;
    else if (name_is(t, oe[2], "fini_array")) type = SHT_FINI_ARRAY;
    else return asm_error(o, ob[2], ".section: unknown section type");
  }
  asm_section_switch(o, name, type, flags);
  return 0;
}

static int dir_data(asm_object *o, const char *args, int size) {
  const char *ob[256], *oe[256];
  int n = asm_split_operands(args, ob, oe, 256);
  if (n < 0) return asm_error(o, args, "too many values on one line");
  if (n == 0) return asm_error(o, args, "expected a value");
  for (int i = 0; i < n; i++) {
    asm_val v;
    int64_t x = 0;
    if (ob[i] == oe[i]) return asm_error(o, ob[i], "expected a value");
    if (asm_eval(o, ob[i], oe[i], &v)) {
      uint8_t z[8] = {0};
      asm_emit(o, z, (uint32_t)size);
      continue;
    }
    if (v.kind == VAL_ABS) {
      x = v.v;
    } else if (o->exec && v.kind == VAL_SEC) {
      x = asm_val_addr(o, &v);
    } else if (v.kind == VAL_UND && o->exec) {
      if (o->final)
        asm_error(o, ob[i], "undefined symbol '%s'", v.sym >= 0 ? o->syms[v.sym].name : "?");
    } else if (size == 4) {
      if (v.kind == VAL_UND && v.sym >= 0 && o->final) o->syms[v.sym].global = 1;
      asm_add_rel(o, asm_here(o), R_RISCV_32, &v);
    } else if (o->final) {
      asm_error(o, ob[i], "a %d-byte value cannot hold a relocatable address", size);
    }
    if (size < 8) {
      int64_t lo = -(INT64_C(1) << (size * 8 - 1)), hi = (INT64_C(1) << (size * 8)) - 1;
      if (x < lo || x > hi)
        asm_error(o, ob[i], "value %lld does not fit in %d byte(s)", (long long)x, size);
    }
    uint8_t b[8];
    for (int k = 0; k < size; k++) b[k] = (uint8_t)((uint64_t)x >> (8 * k));
    asm_emit(o, b, (uint32_t)size);
  }
  return 0;
}

static int dir_string(asm_object *o, const char *args, int nul) {
  const char *ob[64], *oe[64];
  int n = asm_split_operands(args, ob, oe, 64);
  if (n <= 0) return asm_error(o, args, n == -2 ? "unterminated string" : "expected a string");
  static const size_t cap = 4096;
  char *buf = malloc(cap);
  if (!buf) return asm_nomem(o);
  int rc = 0;
  for (int i = 0; i < n && !rc; i++) {
    size_t len;
    const char *end = asm_parse_string(o, ob[i], buf, cap, &len);
    if (!end) { rc = -1; break; }
    if (end != oe[i]) { rc = asm_error(o, end, "unexpected text after string"); break; }
    asm_emit(o, buf, (uint32_t)len);
    if (nul) asm_emit(o, "", 1);
  }
  free(buf);
  return rc;
}

static int dir_space(asm_object *o, const char *args) {
  const char *ob[2], *oe[2];
  int n = asm_split_operands(args, ob, oe, 2);
  if (n < 1) return asm_error(o, args, "expected a size");
  int64_t size, fill = 0;
  if (asm_eval_abs(o, ob[0], oe[0], &size)) return -1;
  if (n == 2 && asm_eval_abs(o, ob[1], oe[1], &fill)) return -1;
  if (size < 0 || size > (1 << 28)) return asm_error(o, ob[0], "bad size %lld", (long long)size);
  asm_emit_fill(o, (uint8_t)fill, (uint64_t)size);
  return 0;
}

static int dir_align(asm_object *o, const char *args, int pow2) {
  const char *ob[3], *oe[3];
  int n = asm_split_operands(args, ob, oe, 3);
  if (n < 1) return asm_error(o, args, "expected an alignment");
  int64_t a, fill = 0;
  if (asm_eval_abs(o, ob[0], oe[0], &a)) return -1;
  if (n >= 2 && ob[1] != oe[1] && asm_eval_abs(o, ob[1], oe[1], &fill)) return -1;
  if (pow2) {
    if (a < 0 || a > 16) return asm_error(o, ob[0], "alignment 2^%lld is too large", (long long)a);
    a = INT64_C(1) << a;
  } else if (a <= 0 || (a & (a - 1)) || a > 65536) {
    return asm_error(o, ob[0], "alignment %lld is not a power of 2", (long long)a);
  }
  asm_align(o, (uint32_t)a, (int)fill, n >= 2 && ob[1] != oe[1]);
  return 0;
}

static int symbol_operand(asm_object *o, const char *b, const char *e) {
  if (b == e || !asm_is_ident_start((unsigned char)*b)) return asm_error(o, b, "expected a symbol name");
  for (const char *p = b; p < e; p++)
    if (!asm_is_ident_char((unsigned char)*p)) return asm_error(o, p, "expected a symbol name");
  return asm_sym_get(o, b, (size_t)(e - b));
}

static int dir_binding(asm_object *o, const char *args, int kind) {
  const char *ob[64], *oe[64];
  int n = asm_split_operands(args, ob, oe, 64);
  if (n <= 0) return asm_error(o, args, "expected a symbol name");
  for (int i = 0; i < n; i++) {
    int si = symbol_operand(o, ob[i], oe[i]);
    if (si < 0) return -1;
    asm_sym *y = &o->syms[si];
    if (kind == 'g') y->global = 1;
    else if (kind == 'w') y->global = y->weak = 1;
    else y->local_forced = 1, y->global = 0;
  }
  return 0;
}

static int dir_type(asm_object *o, const char *args) {
  const char *ob[2], *oe[2];
  if (asm_split_operands(args, ob, oe, 2) != 2) return asm_error(o, args, ".type: expected 'symbol, @type'");
  int si = symbol_operand(o, ob[0], oe[0]);
  if (si < 0) return -1;
  const char *t = ob[1];
  if (*t == '@' || *t == '%' || *t == '#') t++;
  int type;
  if (name_is(t, oe[1], "function") || name_is(t, oe[1], "STT_FUNC")) type = STT_FUNC;
  else if (name_is(t, oe[1], "object") || name_is(t, oe[1], "STT_OBJECT")) type = STT_OBJECT;
  else if (name_is(t, oe[1], "notype") || name_is(t, oe[1], "STT_NOTYPE")) type = STT_NOTYPE;
  else return asm_error(o, ob[1], ".type: unknown symbol type");
  o->syms[si].type = type;
  return 0;
}

static int dir_size(asm_object *o, const char *args) {
  const char *ob[2], *oe[2];
  if (asm_split_operands(args, ob, oe, 2) != 2) return asm_error(o, args, ".size: expected 'symbol, size'");
  int si = symbol_operand(o, ob[0], oe[0]);
  if (si < 0) return -1;
  int64_t v;
  if (asm_eval_abs(o, ob[1], oe[1], &v)) return -1;
  o->syms[si].size = v;
  o->syms[si].has_size = 1;
  return 0;
}

int asm_set_symbol(asm_object *o, const char *name, size_t len, const char *b, const char *e,
                   const char *at) {
  for (size_t i = 0; i < len; i++)
    if (!(i ? asm_is_ident_char((unsigned char)name[i]) : asm_is_ident_start((unsigned char)name[i])))
      return asm_error(o, at, "expected a symbol name");
  if (len == 0) return asm_error(o, at, "expected a symbol name");
  while (b < e && isspace((unsigned char)*b)) b++;
  while (e > b && isspace((unsigned char)e[-1])) e--;
  if (b == e) return asm_error(o, b, "expected an expression");
  asm_val v;
  if (asm_eval(o, b, e, &v)) return -1;
  int si = asm_sym_get(o, name, len);
  if (si < 0) return -1; /* out of memory */
  asm_sym *y = &o->syms[si];
  if (y->is_label) return asm_error(o, at, "symbol '%s' is already defined as a label", y->name);
  if (v.kind == VAL_UND) {
    if (o->final) return asm_error(o, b, "undefined symbol in the value of '%s'", y->name);
    return 0;
  }
  y->sec = v.kind == VAL_ABS ? SYM_ABS : v.sec;
  y->value = v.v;
  y->def_pass = o->pass;
  y->synth = 0;
  return 0;
}

static int dir_set(asm_object *o, const char *args) {
  const char *ob[2], *oe[2];
  if (asm_split_operands(args, ob, oe, 2) != 2) return asm_error(o, args, "expected 'symbol, expression'");
  return asm_set_symbol(o, ob[0], (size_t)(oe[0] - ob[0]), ob[1], oe[1], ob[0]);
}

/* .float/.single (IEEE binary32) and .double (binary64), little-endian. */
static int dir_float(asm_object *o, const char *args, int size) {
  const char *ob[256], *oe[256];
  int n = asm_split_operands(args, ob, oe, 256);
  if (n <= 0) return asm_error(o, args, n < 0 ? "too many values on one line" : "expected a value");
  for (int i = 0; i < n; i++) {
    char buf[128];
    if (ob[i] == oe[i] || (size_t)(oe[i] - ob[i]) >= sizeof buf)
      return asm_error(o, ob[i], "expected a floating-point number");
    asm_copy(buf, sizeof buf, ob[i], oe[i]);
    char *end;
    uint8_t b[8];
    uint64_t bits;
    if (size == 4) {
      float f = strtof(buf, &end);
      uint32_t u;
      memcpy(&u, &f, 4);
      bits = u;
    } else {
      double d = strtod(buf, &end);
      memcpy(&bits, &d, 8);
    }
    if (*end || end == buf) return asm_error(o, ob[i], "bad floating-point number '%s'", buf);
    for (int k = 0; k < size; k++) b[k] = (uint8_t)(bits >> (8 * k));
    asm_emit(o, b, (uint32_t)size);
  }
  return 0;
}

/* .fill repeat[, size[, value]] */
static int dir_fill(asm_object *o, const char *args) {
  const char *ob[3], *oe[3];
  int n = asm_split_operands(args, ob, oe, 3);
  if (n < 1) return asm_error(o, args, ".fill: expected 'repeat[, size[, value]]'");
  int64_t rep, size = 1, val = 0;
  if (asm_eval_abs(o, ob[0], oe[0], &rep)) return -1;
  if (n >= 2 && ob[1] != oe[1] && asm_eval_abs(o, ob[1], oe[1], &size)) return -1;
  if (n >= 3 && asm_eval_abs(o, ob[2], oe[2], &val)) return -1;
  if (rep < 0 || rep > (1 << 28)) return asm_error(o, ob[0], ".fill: bad repeat count %lld", (long long)rep);
  if (size < 0 || size > 8) return asm_error(o, ob[1], ".fill: size %lld is not 0..8", (long long)size);
  uint8_t b[8] = {0};
  for (int k = 0; k < size && k < 4; k++) b[k] = (uint8_t)((uint64_t)val >> (8 * k)); /* as GNU as */
  if (o->secs[o->cur].type != SHT_NOBITS && rep * size > (int64_t)ASM_MAX_CONTENTS) {
    asm_emit_fill(o, 0, (uint64_t)(rep * size)); /* reports the limit, emits nothing */
    return -1;
  }
  for (int64_t i = 0; i < rep && !o->too_big; i++) asm_emit(o, b, (uint32_t)size);
  return 0;
}

/* .org expr[, fill]: moves the location counter forward inside the section. */
static int dir_org(asm_object *o, const char *args) {
  const char *ob[2], *oe[2];
  int n = asm_split_operands(args, ob, oe, 2);
  if (n < 1) return asm_error(o, args, ".org: expected an offset");
  asm_val v;
  int64_t fill = 0;
  if (asm_eval(o, ob[0], oe[0], &v)) return -1;
  if (n == 2 && asm_eval_abs(o, ob[1], oe[1], &fill)) return -1;
  if (v.kind == VAL_UND || (v.kind == VAL_SEC && v.sec != o->cur)) {
    if (!o->final) return 0;
    return asm_error(o, ob[0], ".org: the offset must be a constant or a location in this section");
  }
  int64_t here = asm_here(o);
  if (v.v < here) {
    if (!o->final) return 0;
    return asm_error(o, ob[0], ".org: cannot move the location counter backwards (from %lld to %lld)",
                     (long long)here, (long long)v.v);
  }
  if (v.v - here > (1 << 28)) return asm_error(o, ob[0], ".org: offset too large");
  asm_emit_fill(o, (uint8_t)fill, (uint64_t)(v.v - here));
  return 0;
}

/* .option: rvc/arch with C are rejected (no compressed instructions);
 * push/pop/norelax/relax/norvc/pic/nopic and other arch changes are accepted. */
static int dir_option(asm_object *o, const char *args) {
  const char *ob[16], *oe[16];
  int n = asm_split_operands(args, ob, oe, 16);
  if (n < 1) return asm_error(o, args, ".option: expected an option");
  if (name_is(ob[0], oe[0], "rvc"))
    return asm_error(o, ob[0], ".option rvc: Ventus has no compressed (C) instructions");
  if (name_is(ob[0], oe[0], "arch")) {
    for (int i = 1; i < n; i++) {
      const char *b = ob[i], *e = oe[i];
      if (b < e && *b == '-') continue;
      if (b < e && *b == '+') b++;
      if (e - b >= 4 && (!strncmp(b, "rv32", 4) || !strncmp(b, "rv64", 4))) {
        for (const char *p = b + 4; p < e && *p != '_'; p++)
          if (*p == 'c' || *p == 'C')
            return asm_error(o, p, ".option arch: Ventus has no compressed (C) instructions");
      } else if (name_is(b, e, "c") || (e - b >= 3 && !strncmp(b, "zc", 2))) {
        return asm_error(o, ob[i], ".option arch: Ventus has no compressed (C) instructions");
      }
    }
  }
  return 0;
}

int asm_directive(asm_object *o, const char *name, const char *name_end, const char *args) {
  char d[32];
  if ((size_t)(name_end - name) >= sizeof d)
    return asm_error(o, name, "unknown directive '%.*s'", (int)(name_end - name), name);
  asm_copy(d, sizeof d, name, name_end);
  /* accepted, nothing to do: debug/unwind info, attributes, visibility (our
   * ELF writer has no st_other), and .extern (undefined symbols are external) */
  static const char *const ignored[] = {".file", ".ident", ".attribute", ".addrsig",
                                        ".addrsig_sym", ".loc", ".end", ".extern",
                                        ".hidden", ".internal", ".protected", ".variant_cc",
                                        ".section_stack", ".text_end"};
  for (size_t i = 0; i < sizeof ignored / sizeof ignored[0]; i++)
    if (!strcmp(d, ignored[i])) return 0;
  if (!strncmp(d, ".cfi_", 5)) return 0;
  if (!strcmp(d, ".option")) return dir_option(o, args);
  if (!strcmp(d, ".insn")) return asm_dir_insn(o, args);
  if (!strcmp(d, ".float") || !strcmp(d, ".single")) return dir_float(o, args, 4);
  if (!strcmp(d, ".double")) return dir_float(o, args, 8);
  if (!strcmp(d, ".fill")) return dir_fill(o, args);
  if (!strcmp(d, ".org")) return dir_org(o, args);
  if (!strcmp(d, ".text") || !strcmp(d, ".data") || !strcmp(d, ".rodata") || !strcmp(d, ".bss")) {
    if (*args) return asm_error(o, args, "%s takes no operands", d);
    uint32_t type, flags;
    section_defaults(d, &type, &flags);
    asm_section_switch(o, d, type, flags);
    return 0;
  }
  if (!strcmp(d, ".section")) return dir_section(o, args);
  if (!strcmp(d, ".previous")) {
    int t = o->cur;
    o->cur = o->prev_cur;
    o->prev_cur = t;
    return 0;
  }
  if (!strcmp(d, ".word") || !strcmp(d, ".long") || !strcmp(d, ".4byte")) return dir_data(o, args, 4);
  if (!strcmp(d, ".half") || !strcmp(d, ".short") || !strcmp(d, ".2byte")) return dir_data(o, args, 2);
  if (!strcmp(d, ".byte") || !strcmp(d, ".1byte")) return dir_data(o, args, 1);
  if (!strcmp(d, ".dword") || !strcmp(d, ".8byte") || !strcmp(d, ".quad")) return dir_data(o, args, 8);
  if (!strcmp(d, ".string") || !strcmp(d, ".asciz")) return dir_string(o, args, 1);
  if (!strcmp(d, ".ascii")) return dir_string(o, args, 0);
  if (!strcmp(d, ".zero") || !strcmp(d, ".space") || !strcmp(d, ".skip")) return dir_space(o, args);
  if (!strcmp(d, ".align") || !strcmp(d, ".p2align")) return dir_align(o, args, 1);
  if (!strcmp(d, ".balign")) return dir_align(o, args, 0);
  if (!strcmp(d, ".globl") || !strcmp(d, ".global")) return dir_binding(o, args, 'g');
  if (!strcmp(d, ".weak")) return dir_binding(o, args, 'w');
  if (!strcmp(d, ".local")) return dir_binding(o, args, 'l');
  if (!strcmp(d, ".type")) return dir_type(o, args);
  if (!strcmp(d, ".size")) return dir_size(o, args);
  if (!strcmp(d, ".equ") || !strcmp(d, ".set") || !strcmp(d, ".equiv")) return dir_set(o, args);
  return asm_error(o, name, "unknown directive '%s'", d);
}
