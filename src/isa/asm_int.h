/* Assembler internals shared by the asm_*.c files. */
#ifndef VT_ASM_INT_H
#define VT_ASM_INT_H

#include <stdarg.h>
#include <stdint.h>

#include "asm.h"
#include "isa.h"

/* ---- sections and symbols --------------------------------------------------- */
typedef struct {
  char *name;
  uint32_t type, flags, align;
  uint8_t *data;
  uint32_t size, cap; /* size = location counter */
  uint32_t prev_size; /* last pass (convergence check) */
  uint32_t addr;      /* final address (executables) */
  int next;           /* hash chain */
} asm_sec;

enum { SYM_UNDEF = -1, SYM_ABS = -2 };

typedef struct {
  char *name;
  int sec;       /* section index, SYM_UNDEF or SYM_ABS */
  int64_t value; /* offset in sec, or absolute value */
  int prev_sec;
  int64_t prev_value;
  int def_pass;     /* pass in which it was last defined */
  int is_label;     /* defined by `name:` (cannot be redefined) */
  int global, weak, local_forced;
  int type;         /* STT_* */
  int64_t size;
  int has_size;
  int needed;       /* referenced by an emitted relocation */
  int synth;        /* linker-synthesised (__global_pointer$, _edata, ...) */
  int next;         /* hash chain */
} asm_sym;

typedef struct {
  int sec;
  uint32_t off, type;
  int sym;         /* symbol index, or -1 - section index */
  int64_t addend;
} asm_rel;

/* An expression value: absolute, section-relative, or an undefined symbol
 * plus addend. */
enum { VAL_ABS, VAL_SEC, VAL_UND };
typedef struct {
  int kind;
  int64_t v;   /* absolute value / offset / addend */
  int sec;     /* VAL_SEC */
  int sym;     /* symbol the value came from (-1 if none) */
} asm_val;

/* A %hi/%pcrel_hi seen at a location: what %pcrel_lo(label) refers to. */
typedef struct {
  int sec;
  uint32_t off;
  int resolved;  /* delta known */
  int64_t delta; /* target - pc */
} asm_hi;

/* Relocation operators on an operand. */
enum { RK_NONE, RK_HI, RK_LO, RK_PCREL_HI, RK_PCREL_LO };

typedef struct {
  const char *file;
  const char *text;  /* statement text (NUL-terminated copy) */
  int line;
  int col0;          /* column of text[0] in the line (1-based) */
} asm_loc;

/* One source line after preprocessing, .include and macro expansion. */
typedef struct {
  const char *file; /* owned by the asm_lines name list */
  int line, col0;   /* location of text[0] */
  char *text;       /* comment-free */
} asm_line;

typedef struct {
  asm_line *v;
  int n, cap;
  char **names; /* interned file names */
  int nnames, capnames;
  int nomem; /* sticky: an allocation failed, lines are missing */
} asm_lines;

struct asm_object {
  asm_options opt;
  asm_sec *secs;
  int nsecs, capsecs;
  asm_sym *syms;
  int nsyms, capsyms;
  int *hash;         /* symbol name -> first index of its chain; grows with nsyms */
  unsigned nhash;    /* buckets, a power of two (0: none yet) */
  int *sec_hash;     /* the same for section names */
  unsigned nsec_hash;
  asm_rel *rels;
  int nrels, caprels;
  asm_hi *his;
  int nhis, caphis;
  asm_hi *prev_his;
  int nprev_his;
  int cur;       /* current section */
  int prev_cur;  /* .previous */
  int pass;
  int final;     /* last pass: report errors, emit relocations */
  int exec;
  int changed;   /* a symbol or size moved in this pass */
  int auto_label;/* counter for .Lpcrel_hiN */
  uint32_t entry;
  asm_diags *diags;
  int max_errors;
  int nerrors;
  asm_loc loc;   /* statement being assembled */
  const asm_pp_options *pp; /* include directories, predefined macros */
  asm_lines src; /* the unit, expanded */
  int nomem;     /* sticky: an allocation failed; everything stops, the unit fails */
  uint64_t contents; /* bytes emitted into sections with contents, this pass */
  int too_big;   /* sticky: a size limit was hit (reported); everything stops */
  /* The last regext/regexti written as an instruction: the next instruction,
   * if it directly follows in the same section, takes its high bits from it
   * and gets no prefix of its own (asm_explicit_prefix). */
  int xpre_sec;       /* section, or -1 */
  uint32_t xpre_end;  /* offset just after the prefix word */
  uint32_t xpre_word;
  int wrap_sec;  /* asm_layout: first section past the 32-bit space, or -1 */
  uint64_t wrap_addr; /* its start address, unwrapped */
};

/* Output limits (docs/assembler.md): section contents (what the file holds)
 * are at most ASM_MAX_CONTENTS bytes in all; a NOBITS section, like every
 * section, must fit the 32-bit address space. */
#define ASM_MAX_CONTENTS (UINT64_C(256) << 20)
/* Sections a unit may define: with a .rela each and the symbol/string
 * tables they stay below the 16-bit ELF section count (SHN_LORESERVE). */
#define ASM_MAX_SECTIONS 16384
#define ASM_MAX_SECTIONS_TEXT "16384"

/* Out of memory: sets the sticky o->nomem (every loop of the assembler
 * stops on it; asm_assemble* then fails with VT_ERR_NOMEM). Returns -1. */
int asm_nomem(asm_object *o);

/* ---- asm_src.c: source lines, comments, files ----------------------------------- */
/* Out of memory in these sets the sticky L->nomem: NULL / -1. */
const char *asm_lines_name(asm_lines *L, const char *name); /* interned copy */
int asm_lines_add(asm_lines *L, const char *file, int line, int col0, const char *text,
                  size_t len);
void asm_lines_free(asm_lines *L);
/* Blanks '#', '//' and block comments in one line (columns kept); *in_block
 * carries an open block comment to the next line. */
void asm_strip_comments(char *t, int *in_block);
/* Reads a whole text file (NUL-terminated); NULL with e set. */
char *asm_read_text(const char *path, vt_error *e);
/* Path of `name` relative to the directory of `from` (malloc'd; NULL if out of memory). */
char *asm_path_rel(const char *from, const char *name);
int asm_file_exists(const char *path);
/* Searches an include file `want`: relative to the directory of file `from`
 * (from_dir), then the current directory (cwd), then each -I directory.
 * Returns the malloc'd path of the first regular file, or NULL: *nomem set,
 * or, when a candidate exists but is a directory or device, *not_reg (malloc'd,
 * the first such path) and *why ("is a directory"/"is not a regular file");
 * both NULL when nothing exists. */
char *asm_find_include(const char *from, int from_dir, int cwd, const char *want,
                       const asm_pp_options *po, char **not_reg, const char **why, int *nomem);
/* Loads the sources into o->src: C preprocessing (.S/.sx names), comments,
 * .include, .macro/.rept/.irp expansion. Errors become diagnostics. */
void asm_load_sources(asm_object *o, const asm_source *src, int n);
/* Diagnostic at an explicit location (load time: always recorded). */
int asm_diag_at(asm_object *o, const char *file, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* ---- asm_pp.c: the C preprocessor subset -------------------------------------- */
/* Preprocesses `text` (file `name`) and appends its lines to *out. */
void asm_preprocess(asm_object *o, const char *name, const char *text, asm_lines *out);
/* Integer constant expression (C operators); lookup resolves names (returns
 * 1 if known). 0, or -1 if malformed. */
int asm_const_eval(const char *s, int (*lookup)(void *, const char *, size_t, long long *),
                   void *ctx, long long *out);
/* Appends the lines of `text` (file `name`, not preprocessed) to *out;
 * -1 if out of memory (out->nomem). */
int asm_split_lines(asm_lines *out, const char *name, const char *text);

/* ---- asm_macro.c: .macro .rept .irp .irpc .include ------------------------------ */
/* Expands `in` (comment-free lines) into o->src. */
void asm_expand(asm_object *o, const asm_lines *in);

/* ---- asm_dinsn.c: the .insn directive ------------------------------------------- */
int asm_dir_insn(asm_object *o, const char *args);

/* ---- asm_main.c --------------------------------------------------------------- */
int asm_error(asm_object *o, const char *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int asm_sym_find(asm_object *o, const char *name, size_t len);
/* Creates; -1 if out of memory (o->nomem set). */
int asm_sym_get(asm_object *o, const char *name, size_t len);
int asm_define_label(asm_object *o, const char *name, size_t len, const char *at);
int asm_section_switch(asm_object *o, const char *name, uint32_t type, uint32_t flags);
void asm_emit(asm_object *o, const void *bytes, uint32_t n);
void asm_emit_word(asm_object *o, uint32_t w);
/* n copies of byte (.zero/.org/.align padding), in chunks. */
void asm_emit_fill(asm_object *o, uint8_t byte, uint64_t n);
void asm_align(asm_object *o, uint32_t align, int fill, int have_fill);
void asm_add_rel(asm_object *o, uint32_t off, uint32_t type, const asm_val *v);
uint32_t asm_here(const asm_object *o);
int64_t asm_val_addr(const asm_object *o, const asm_val *v); /* exec: absolute address */

/* ---- asm_lex.c ---------------------------------------------------------------- */
const char *asm_skip_ws(const char *p);
int asm_is_ident_start(int c);
int asm_is_ident_char(int c);
/* Splits operands at top-level commas. Returns count (<= max) or -1 if too many;
 * begins/ends receive trimmed operand bounds. */
int asm_split_operands(const char *s, const char **begins, const char **ends, int max);
/* Parses a string literal at p (with escapes) into out (cap bytes); returns
 * the pointer after the closing quote or NULL (error reported). */
const char *asm_parse_string(asm_object *o, const char *p, char *out, size_t cap, size_t *len);
/* Copies [b,e) into a NUL-terminated buffer. */
void asm_copy(char *dst, size_t cap, const char *b, const char *e);

/* ---- asm_expr.c --------------------------------------------------------------- */
/* Expression arithmetic is 64-bit two's complement and wraps modulo 2^64
 * (as GNU as): no signed-overflow UB, INT64_MIN / -1 == INT64_MIN and
 * INT64_MIN % -1 == 0. Division by zero is the caller's error. */
static inline int64_t asm_wrap_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t asm_wrap_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t asm_wrap_mul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }
static inline int64_t asm_wrap_neg(int64_t a) { return (int64_t)(0 - (uint64_t)a); }
static inline int64_t asm_wrap_div(int64_t a, int64_t b) { return b == -1 ? asm_wrap_neg(a) : a / b; }
static inline int64_t asm_wrap_rem(int64_t a, int64_t b) { return b == -1 ? 0 : a % b; }
/* Parentheses and unary operators nest at most this deep (the parsers recurse). */
#define ASM_EXPR_MAX_DEPTH 256
/* Evaluates the expression [b,e). Returns 0, or -1 (error reported). */
int asm_eval(asm_object *o, const char *b, const char *e, asm_val *out);
/* Evaluates an absolute constant expression. */
int asm_eval_abs(asm_object *o, const char *b, const char *e, int64_t *out);
/* Splits "%op(expr)" into a relocation kind and inner bounds; RK_NONE if plain. */
int asm_reloc_op(asm_object *o, const char **b, const char **e);

/* ---- asm_insn.c ---------------------------------------------------------------- */
/* Assembles one instruction statement (mnemonic + operand text). */
int asm_insn(asm_object *o, const char *mn, const char *mn_end, const char *ops);
/* The explicit regext/regexti word that governs an instruction of `id` at
 * the current location, or 0 (prefix instructions themselves are never
 * governed: each prefix applies to the next word only). */
uint32_t asm_explicit_prefix(const asm_object *o, isa_id id);
/* asm_fit.c: an error for an ISA 2025 instruction whose register groups run
 * past 255 at any warp width (a 64-bit instruction {w, hi} when is_long,
 * else the word w under the explicit prefix word `prefix`); 0 if it fits */
int asm_check_fit(asm_object *o, uint32_t prefix, uint32_t w, uint32_t hi, int is_long, const char *at);
/* Offset of the instruction word of `id` emitted here: after the automatic
 * prefix it gets when a register is above 31 (reg_above_31), unless an
 * explicit prefix governs it. */
uint32_t asm_word_offset(const asm_object *o, isa_id id, int reg_above_31);
/* Encodes an instruction with resolved values and emits prefix + word
 * (no prefix under an explicit one: isa_encode_under). */
int asm_encode_emit(asm_object *o, isa_id id, int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl,
                    const char *at);
/* Symbolic immediate: resolves `v` with relocation kind rk for the instruction
 * word at section offset `pc_off`, into *out (0 plus a relocation if it
 * cannot be resolved now). slot is the operand kind receiving it. */
int asm_resolve(asm_object *o, const asm_val *v, int rk, isa_opk slot, uint32_t pc_off,
                int64_t *out, const char *at);

/* v lies in the current section and can be resolved here: in a relocatable
 * object, references to global symbols stay relocations (as GNU as/llvm-mc). */
int asm_same_section(const asm_object *o, const asm_val *v);
isa_id asm_find_mnemonic(const char *mn, uint32_t *aqrl); /* .aq/.rl/.aqrl -> aqrl bits */
int asm_insn_ops(asm_object *o, isa_id id, uint32_t aqrl, const char *mn, const char **ob,
                 const char **oe, int nops);
int asm_parse_xreg_op(asm_object *o, const char *b, const char *e, int64_t *r);
int asm_parse_imm_op(asm_object *o, const char *b, const char *e, asm_val *v, int *rk);

/* ---- asm_pseudo.c -------------------------------------------------------------- */
/* Returns 1 if mn is a pseudo-instruction (and assembles it), 0 if not. */
int asm_pseudo(asm_object *o, const char *mn, const char *ops, int *rc);

/* ---- asm_dir.c ----------------------------------------------------------------- */
int asm_directive(asm_object *o, const char *name, const char *name_end, const char *args);
/* .set/.equ/`sym = expr`: defines name as the value of [b,e). */
int asm_set_symbol(asm_object *o, const char *name, size_t len, const char *b, const char *e,
                   const char *at);

/* ---- asm_out.c ------------------------------------------------------------------ */
/* Executables: assigns section addresses (documented there). */
void asm_layout(asm_object *o);
/* After the last pass: 0, or -1 with e set if a section of an executable
 * runs past the end of the 32-bit address space. */
int asm_layout_check(const asm_object *o, vt_error *e);
/* Executables: defines __global_pointer$, _edata, __bss_start, _end when
 * referenced and not defined by the source (rule documented there). */
void asm_synth_symbols(asm_object *o);

#endif
