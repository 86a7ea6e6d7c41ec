/* The instruction set: table, decoder, encoder, disassembler.
 * Everything here derives from insns.def. */
#ifndef VT_ISA_H
#define VT_ISA_H

#include <stddef.h>
#include <stdint.h>

/* Execution-unit classes (timing model, statistics). */
typedef enum {
  UNIT_ALU,    /* scalar integer, scalar branches/jumps */
  UNIT_VALU,   /* vector integer */
  UNIT_VFPU,   /* scalar and vector fp32 */
  UNIT_MUL,    /* integer multiply (+ multiply-add) */
  UNIT_SFU,    /* divide, sqrt, exp */
  UNIT_LSU,    /* loads, stores, atomics */
  UNIT_CSR,    /* CSR access, vsetvl* */
  UNIT_SIMT,   /* vector branches, join, setrpc */
  UNIT_CTRL,   /* barrier, endprg, regext prefixes, fence */
  UNIT_TENSOR, /* tensor core */
  UNIT_COUNT
} isa_unit;

const char *isa_unit_name(isa_unit u);

/* Behaviour flags. */
enum {
  IF_LOAD = 1u << 0,
  IF_STORE = 1u << 1,
  IF_BRANCH = 1u << 2,   /* scalar conditional branch */
  IF_JUMP = 1u << 3,     /* jal, jalr */
  IF_AMO = 1u << 4,      /* LR/SC/AMO */
  IF_AQRL = 1u << 5,     /* takes .aq/.rl/.aqrl mnemonic suffixes */
  IF_VEC = 1u << 6,      /* executes per active lane */
  IF_FP = 1u << 7,       /* fp32 arithmetic (fcsr) */
  IF_CSR = 1u << 8,      /* Zicsr */
  IF_VBRANCH = 1u << 9,  /* divergent vector branch */
  IF_JOIN = 1u << 10,    /* SIMT reconvergence */
  IF_PREFIX = 1u << 11,  /* regext/regexti: modifies the next instruction */
  IF_ENDPRG = 1u << 12,
  IF_BARRIER = 1u << 13,
  IF_PRIVATE = 1u << 14, /* private-memory address formula */
  IF_CUSTOMV = 1u << 15, /* Ventus custom vector op: ignores v0, only SIMT mask */
  /* ISA revision (docs/isa-extensions.md): an entry with neither bit is in
   * every revision; the seed extensions are only in 2025, and the baseline
   * encodings the 2025 revision reuses only in the baseline */
  IF_REV_BASE = 1u << 16, /* baseline revision only */
  IF_REV_2025 = 1u << 17, /* 2025 revision only */
  IF_LONG = 1u << 18,     /* a 64-bit instruction word (INSN64, revision 2025) */
};

/* ISA revisions: the upstream-compatible baseline (docs/isa.md §2, what
 * compiled kernels use; the default) and the seeds' 2025 manual. */
typedef enum { ISA_REV_BASE = 0, ISA_REV_2025 = 1, ISA_REV_COUNT } isa_rev;
const char *isa_rev_name(isa_rev r);          /* "base", "2025" */
int isa_parse_rev(const char *s, isa_rev *r); /* "base"/"0", "2025"; 0 ok, -1 unknown */
/* Whether table entry `id` exists in revision `r`. */
static inline int isa_in_rev(uint32_t flags, isa_rev r) {
  return !(flags & (r == ISA_REV_2025 ? IF_REV_BASE : IF_REV_2025));
}

typedef enum {
#define INSN(id, mn, match, mask, syn, unit, flags) ISA_##id,
#define INSN64(id, mn, match, mask, match_hi, mask_hi, syn, unit, flags) ISA_##id,
#include "insns.def"
#undef INSN64
#undef INSN
  ISA_COUNT,
  ISA_INVALID = ISA_COUNT
} isa_id;

typedef struct {
  const char *name; /* C identifier from insns.def (e.g. "vadd_vv") */
  const char *mnemonic;
  uint32_t match, mask;
  const char *syntax;
  isa_unit unit;
  uint32_t flags;
  uint32_t match_hi, mask_hi; /* the second word of an IF_LONG entry */
} isa_info;

extern const isa_info isa_table[ISA_COUNT];

/* ---- operands ---------------------------------------------------------- */
/* Operand kinds of the syntax strings. Register kinds name the field they
 * occupy; immediates name their width/encoding. */
typedef enum {
  OPK_NONE,
  OPK_RD, OPK_RS1, OPK_RS2, OPK_RS3,   /* x registers in rd/rs1/rs2/rs3 field */
  OPK_VD, OPK_VS1, OPK_VS2, OPK_VS3,   /* v registers; vs3 = store data in rd field */
  OPK_SIMM12,   /* I-type [31:20], signed */
  OPK_UIMM12,   /* [31:20], unsigned */
  OPK_SIMM12S,  /* S-type {[31:25],[11:7]}, signed */
  OPK_BIMM,     /* B-type pc offset, signed, even */
  OPK_UIMM20,   /* U-type [31:12] */
  OPK_JIMM,     /* J-type pc offset */
  OPK_SHAMT,    /* [24:20] */
  OPK_CSR,      /* [31:20] CSR number */
  OPK_ZIMM5,    /* [19:15] unsigned (csr*i, vsetivli AVL) */
  OPK_SIMM5,    /* [19:15] signed (.vi); 11-bit under regexti */
  OPK_UIMM5,    /* [19:15] unsigned (.vi shifts, barrier); 11-bit under regexti */
  OPK_VM,       /* bit 25, optional ", v0.t" (absent = unmasked) */
  OPK_V0,       /* literal v0 (vmerge), bit 25 fixed 0 */
  OPK_RM,       /* [14:12] rounding mode, optional (absent = dyn) */
  OPK_VTYPEI11, /* [30:20] */
  OPK_VTYPEI10, /* [29:20] */
  OPK_SIMM11,   /* private load [30:20], signed */
  OPK_SIMM11S,  /* private store {[30:25],[11:7]}, signed */
  OPK_PRED,     /* fence [27:24] */
  OPK_SUCC,     /* fence [23:20] */
  OPK_FRD, OPK_FRS1, OPK_FRS2,         /* f registers in rd/rs1/rs2 field */
  /* fields of the ISA 2025 prefixes (docs/isa-extensions.md) */
  OPK_PAIRBIT,  /* [15] pair */
  OPK_ABS,      /* [14:12] ABS of src1..src3 */
  OPK_NEG,      /* [9:7] NEG of src1..src3 */
  OPK_CH,       /* [14:13] cache hint */
  OPK_AL,       /* [14] MMA: A column-major */
  OPK_BL,       /* [13] MMA: B row-major */
  /* fields of the 64-bit compute format in its second word (hi bit n =
   * instruction bit 32 + n; docs/isa-extensions.md) */
  OPK_SSZ,      /* hi[21:20] VSSIZE, written 16, 32, 64 or (code 3, integer forms) 8 */
  OPK_DSZ,      /* hi[23:22] VDSIZE, likewise */
  OPK_OPSEL,    /* hi[17:15] OPSEL: bit 0 src1, bit 1 src2, bit 2 the destination */
  OPK_MNEG,     /* hi[11:9] NEG of src1, src2 (bit 2, src3, reserved 0) */
  OPK_MABS,     /* hi[14:12] ABS of src1, src2 (bit 2 reserved 0) */
  OPK_OMOD,     /* hi[19:18] OMOD: 0 none, 1 x2, 2 x4, 3 /2 */
  /* fields of MMA64 */
  OPK_RDM,      /* [19:18] RD: rounding (float C/D) or saturation (integer) */
  OPK_MAL,      /* hi[8] AL: A column-major */
  OPK_MBL,      /* hi[7] BL: B row-major */
  OPK_MA,       /* [16] a: warp-group A from registers (1) or local memory by descriptor (0) */
  OPK_MWGN,     /* hi[27:25] warp-group N, written 8 << code (8 .. 1024) */
  OPK_COUNT
} isa_opk;

/* One operand slot. A memory operand "imm(base)" takes two slots: the
 * immediate with mem=ISA_MEM_OFF followed by the base with ISA_MEM_BASE;
 * "(base)" takes one slot with ISA_MEM_BARE. */
enum { ISA_MEM_NO = 0, ISA_MEM_OFF = 1, ISA_MEM_BASE = 2, ISA_MEM_BARE = 3 };
typedef struct {
  uint8_t kind; /* isa_opk */
  uint8_t mem;
  uint8_t pair; /* register pair (token suffix 'p'): the even low register */
} isa_opnd;

#define ISA_MAX_OPNDS 10

/* Parses the syntax of `id` into slots; returns the slot count. */
int isa_operands(isa_id id, isa_opnd out[ISA_MAX_OPNDS]);
int isa_opk_is_xreg(isa_opk k);
int isa_opk_is_vreg(isa_opk k);
int isa_opk_is_freg(isa_opk k);
int isa_opk_is_reg(isa_opk k);
int isa_opk_optional(isa_opk k); /* vm, rm */
/* Valid range of an operand value for the encoder (registers 0..255 since
 * the assembler adds regext prefixes; *ext_lo/hi: range with a regexti). */
void isa_opk_range(isa_opk k, int64_t *lo, int64_t *hi);

/* ---- decoded instruction ------------------------------------------------ */
typedef struct {
  uint32_t word;
  uint32_t hi;    /* the second word of a 64-bit instruction (IF_LONG), else 0 */
  uint16_t id;    /* isa_id, ISA_INVALID if the word decodes to nothing */
  uint8_t rd, rs1, rs2, rs3; /* full register indices (regext applied) */
  uint8_t vm;     /* 1 = unmasked (bit 25) */
  uint8_t rm;     /* funct3 */
  uint8_t aqrl;   /* bits [26:25] for AMOs */
  int32_t imm;    /* the syntax's immediate, sign-extended where signed; CSR
                     number for Zicsr; zimm5/uimm5 stay in rs1 as well */
  /* what an ISA 2025 prefix before it asks (docs/isa-extensions.md); all 0
   * without one, and always in the baseline */
  uint8_t pfx;    /* ISA_PFX_* */
  uint8_t absneg; /* PREFIX: ABS bits [5:3], NEG bits [2:0] (bit 0 = src1) */
  uint8_t mspace; /* PREFIX_MEMORY: 0 default, 1 global, 2 private, 3 local */
  uint8_t mwidth; /* PREFIX_MEMORY: 0..3 = 32, 64, 96, 128 bits */
} isa_inst;
enum {
  ISA_PFX_PAIR = 1, /* even registers of the next instruction are 64-bit pairs */
  ISA_PFX_MEM = 2,  /* a PREFIX_MEMORY: mspace, mwidth */
  ISA_PFX_MOD = 4,  /* PREFIX/PREFIXI with ABS or NEG bits */
  ISA_PFX_CPAIR = 8, /* PREFIX/PREFIXI with pair = 1: a computation on 64-bit pairs */
};

/* Looks up the table entry of a word (no prefix applied) in the baseline
 * revision, or in revision r. */
isa_id isa_lookup(uint32_t word);
isa_id isa_lookup_rev(uint32_t word, isa_rev r);

/* The length rule of revision 2025 (docs/isa-extensions.md): a word whose
 * bits [5:0] are 111111 (major opcodes 0111111 and 1111111) is the first
 * of a 64-bit instruction; every other word is one instruction. In the
 * baseline every instruction is one word. Returns 8 or 4. */
static inline unsigned isa_insn_len(uint32_t word, isa_rev r) {
  return r == ISA_REV_2025 && (word & 0x3f) == 0x3f ? 8u : 4u;
}
/* The entry of a 64-bit instruction {hi, lo} (lo is the word at the lower
 * address) in revision r, or ISA_INVALID. isa_lookup_rev never returns an
 * IF_LONG entry. */
isa_id isa_lookup64_rev(uint32_t lo, uint32_t hi, isa_rev r);
/* Decodes a 64-bit instruction; a prefix before one is void (it has 8-bit
 * register fields and modifiers of its own), so none is taken. */
isa_id isa_decode64_rev(uint32_t lo, uint32_t hi, isa_rev r, isa_inst *out);
/* Encodes an IF_LONG entry's operand values into its two words. Returns 0,
 * or -1 with a message in err (err may be NULL). */
int isa_encode64(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t *lo, uint32_t *hi,
                 char *err, size_t errlen);

/* Decodes `word`. `prefix` is the word of an immediately preceding
 * regext/regexti instruction (or, in 2025, any prefix instruction), or 0.
 * Returns the id (ISA_INVALID if none). isa_decode is the baseline. */
isa_id isa_decode(uint32_t word, uint32_t prefix, isa_inst *out);
isa_id isa_decode_rev(uint32_t word, uint32_t prefix, isa_rev r, isa_inst *out);

/* Operand values of a decoded instruction, one per slot (registers as
 * indices, immediates as values); returns the slot count. */
int isa_operand_values(const isa_inst *in, isa_opnd opnds[ISA_MAX_OPNDS],
                       int64_t vals[ISA_MAX_OPNDS]);

/* Encodes operand values (one per slot, as isa_operand_values gives them).
 * Registers above 31 or an immediate beyond 5 bits in a .vi slot need a
 * prefix: *prefix receives the regext/regexti word, or 0 if none.
 * Returns 0, or -1 with a message in err (err may be NULL). */
int isa_encode(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl,
               uint32_t *word, uint32_t *prefix, char *err, size_t errlen);
/* Encodes the word of an instruction that follows an explicit regext/regexti
 * word `prefix` (as isa_decode(word, prefix) reads it): every register field
 * must have exactly the high bits the prefix gives it, and a .vi immediate
 * the prefix's bits (regexti) or none (regext). No new prefix is made.
 * Returns 0, or -1 with a message in err (err may be NULL). */
int isa_encode_under(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl,
                     uint32_t prefix, uint32_t *word, char *err, size_t errlen);

/* ISA 2025 (fit.c): 0, with the reason in why, when a decoded
 * instruction's register groups run past 255 at every warp width (an
 * mma64.wg's A/C/D groups, a PREFIX_MEMORY access's data registers); the
 * device always refuses it, the assembler too, and the disassembler prints
 * it as .word. 1 otherwise. */
int isa_groups_fit(const isa_inst *in, char *why, size_t len);

/* ---- names -------------------------------------------------------------- */
const char *isa_xreg_name(unsigned r);  /* ABI names (zero, ra, ...), x32.. */
int isa_parse_xreg(const char *s);      /* "a0", "x5", "fp", "ft0"(zfinx alias)... or -1 */
int isa_parse_vreg(const char *s);      /* "v0".."v255" or -1 */
const char *isa_freg_name(unsigned r);  /* LLVM's ABI names (ft0, fa0, ...), f32..f255 */
int isa_parse_freg(const char *s);      /* "ft0", "fa0", "f5"... (not x names) or -1 */
const char *isa_csr_name(unsigned csr); /* NULL if unnamed */
int isa_parse_csr(const char *s);       /* name or -1 */
const char *isa_rm_name(unsigned rm);   /* "rne".."dyn", NULL if reserved */
int isa_parse_rm(const char *s);

/* Custom CSRs (docs/isa.md §5). */
enum {
  CSR_TID = 0x800, CSR_NUMW = 0x801, CSR_NUMT = 0x802, CSR_KNL = 0x803,
  CSR_WGID = 0x804, CSR_WID = 0x805, CSR_LDS = 0x806, CSR_PDS = 0x807,
  CSR_GIDX = 0x808, CSR_GIDY = 0x809, CSR_GIDZ = 0x80a, CSR_PRINT = 0x80b,
  CSR_RPC = 0x80c,
  CSR_FFLAGS = 0x001, CSR_FRM = 0x002, CSR_FCSR = 0x003, CSR_VSTART = 0x008,
  CSR_MSTATUS = 0x300, CSR_MISA = 0x301, CSR_MTVEC = 0x305, CSR_MHARTID = 0xf14,
  CSR_VL = 0xc20, CSR_VTYPE = 0xc21, CSR_VLENB = 0xc22,
};

/* ---- disassembly ---------------------------------------------------------- */
/* Writes LLVM-Ventus-style text for a decoded instruction ("unknown 0x..."
 * for ISA_INVALID). Branch/jump operands print as pc-relative offsets.
 * Returns the length written (snprintf semantics). */
int isa_disasm(const isa_inst *in, char *buf, size_t len);
/* Disassembles word `w` of a stream whose previous word was `prev` (0 at the
 * start): decodes it (into *in) under prev when prev is a regext/regexti and
 * w is not one, and writes text that the assembler turns back into w in
 * that position (".word 0x..." for what has no such spelling). Returns the
 * length written (snprintf semantics). */
int isa_disasm_next(uint32_t w, uint32_t prev, isa_inst *in, char *buf, size_t len);
int isa_disasm_next_rev(uint32_t w, uint32_t prev, isa_rev r, isa_inst *in, char *buf,
                        size_t len);

/* Disassembles the 64-bit instruction {hi, lo} like isa_disasm_next_rev
 * (".word 0x<lo>, 0x<hi>" when it has no spelling). */
int isa_disasm64_rev(uint32_t lo, uint32_t hi, isa_rev r, isa_inst *in, char *buf, size_t len);

/* What PREFIX/PREFIXI pair = 1 makes of the next instruction (revision
 * 2025, docs/isa-extensions.md): NULL when the bit is void for it, else the
 * 64-bit operation and operand form (pair_ops.c; the executor and the
 * timing model's scoreboard read it). */
enum { ISA_PF_RR, ISA_PF_RI, ISA_PF_VV, ISA_PF_VX, ISA_PF_VI };
enum {
  ISA_PO_ADD, ISA_PO_SUB, ISA_PO_RSUB, ISA_PO_AND, ISA_PO_OR, ISA_PO_XOR, ISA_PO_SLL, ISA_PO_SRL,
  ISA_PO_SRA, ISA_PO_MUL, ISA_PO_MIN, ISA_PO_MINU, ISA_PO_MAX, ISA_PO_MAXU,
  ISA_PO_CMP, /* the compares follow: a 0/1 result, in one register for the vector forms */
  ISA_PO_SEQ = ISA_PO_CMP, ISA_PO_SNE, ISA_PO_SLT, ISA_PO_SLTU, ISA_PO_SLE, ISA_PO_SLEU, ISA_PO_SGT,
  ISA_PO_SGTU,
};
typedef struct {
  uint16_t id;
  uint8_t op, form;
} isa_pair_op;
const isa_pair_op *isa_pair_op_of(isa_id id);

/* Pc-relative target of a branch/jump, or 0 with *has=0. */
uint32_t isa_branch_target(const isa_inst *in, uint32_t pc, int *has);

#endif
