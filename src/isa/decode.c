/* Decoding: word (+ optional regext/regexti prefix) -> isa_inst, and the
 * inverse, operand values -> word (+ prefix). Bit layouts of every operand
 * kind live here and nowhere else. */
#include <stdio.h>
#include <string.h>

#include "isa.h"
#include "decode_tab.h" /* generated from insns.def by gen_decode */

static inline uint32_t bits(uint32_t w, int hi, int lo) {
  return (w >> lo) & ((1u << (hi - lo + 1)) - 1u);
}
static inline int32_t sext(uint32_t v, int width) {
  uint32_t m = 1u << (width - 1);
  return (int32_t)((v ^ m) - m);
}

isa_id isa_lookup_rev(uint32_t word, isa_rev r) {
  unsigned op = word & 0x7f;
  for (unsigned i = decode_bucket_start[op]; i < decode_bucket_start[op + 1]; i++) {
    unsigned id = decode_bucket_ids[i];
    if ((word & isa_table[id].mask) == isa_table[id].match && isa_in_rev(isa_table[id].flags, r) &&
        !(isa_table[id].flags & IF_LONG))
      return (isa_id)id;
  }
  return ISA_INVALID;
}

/* The two 64-bit formats, by major opcode. */
static int is_mma64(uint32_t lo) { return (lo & 0x7f) == 0x7f; }

/* Field values the masks cannot exclude: VSSIZE and VDSIZE 3 (8 bits) exist
 * for the integer forms (funct3 000) only; MMA64 RD 2 and 3 with integer
 * C/D (A/B types 5..7). */
static int long_fields_ok(uint32_t lo, uint32_t hi) {
  if (is_mma64(lo)) return !(bits(hi, 31, 28) >= 5 && bits(hi, 31, 28) <= 7 && bits(lo, 19, 19));
  return bits(lo, 14, 12) == 0 || (bits(hi, 21, 20) != 3 && bits(hi, 23, 22) != 3);
}

isa_id isa_lookup64_rev(uint32_t lo, uint32_t hi, isa_rev r) {
  if (isa_insn_len(lo, r) != 8) return ISA_INVALID;
  unsigned op = lo & 0x7f;
  for (unsigned i = decode_bucket_start[op]; i < decode_bucket_start[op + 1]; i++) {
    unsigned id = decode_bucket_ids[i];
    const isa_info *t = &isa_table[id];
    if ((t->flags & IF_LONG) && (lo & t->mask) == t->match && (hi & t->mask_hi) == t->match_hi &&
        isa_in_rev(t->flags, r) && long_fields_ok(lo, hi))
      return (isa_id)id;
  }
  return ISA_INVALID;
}

isa_id isa_decode64_rev(uint32_t lo, uint32_t hi, isa_rev r, isa_inst *out) {
  memset(out, 0, sizeof *out);
  out->word = lo;
  out->hi = hi;
  isa_id id = isa_lookup64_rev(lo, hi, r);
  out->id = (uint16_t)id;
  if (is_mma64(lo)) { /* D, C, A, B */
    out->rd = (uint8_t)bits(lo, 27, 20);
    out->rs3 = (uint8_t)(bits(lo, 31, 28) | bits(hi, 3, 0) << 4);
    out->rs1 = (uint8_t)bits(hi, 16, 9);
    out->rs2 = (uint8_t)bits(hi, 24, 17);
  } else { /* 8-bit register fields: the low five bits where RVV has them */
    out->rd = (uint8_t)(bits(lo, 11, 7) | bits(hi, 2, 0) << 5);
    out->rs1 = (uint8_t)(bits(lo, 19, 15) | bits(hi, 5, 3) << 5);
    out->rs2 = (uint8_t)(bits(lo, 24, 20) | bits(hi, 8, 6) << 5);
  }
  out->vm = 1;
  out->rm = (uint8_t)bits(lo, 14, 12);
  return id;
}

isa_id isa_lookup(uint32_t word) { return isa_lookup_rev(word, ISA_REV_BASE); }

/* How a prefix word extends the next instruction's fields: like regext
 * (four 3-bit register groups) or like regexti (rd, rs2 and the high bits
 * of a 5-bit immediate). No prefix encoding collides with a non-prefix one
 * in any revision, so a prefix is recognised in the widest revision. */
enum { PFX_NONE, PFX_EXT, PFX_EXTI };
static int prefix_class(isa_id pid) {
  switch (pid) {
  case ISA_regext: case ISA_regpair: case ISA_prefix: return PFX_EXT;
  case ISA_regexti: case ISA_regpairi: case ISA_prefixi: return PFX_EXTI;
  default: return pid >= ISA_pre_m_32 && pid <= ISA_pre_m_local_128 ? PFX_EXT : PFX_NONE;
  }
}
static isa_id prefix_id(uint32_t word) {
  isa_id id = isa_lookup_rev(word, ISA_REV_2025);
  return prefix_class(id) ? id : ISA_INVALID;
}

/* Raw value of an immediate kind in a word (no prefix). */
static int32_t imm_field(isa_opk k, uint32_t w) {
  switch (k) {
  case OPK_SIMM12: return sext(bits(w, 31, 20), 12);
  case OPK_UIMM12: case OPK_CSR: return (int32_t)bits(w, 31, 20);
  case OPK_SIMM12S: return sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12);
  case OPK_BIMM:
    return sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 |
                    bits(w, 11, 8) << 1, 13);
  case OPK_UIMM20: return (int32_t)bits(w, 31, 12);
  case OPK_JIMM:
    return sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 |
                    bits(w, 30, 21) << 1, 21);
  case OPK_SHAMT: return (int32_t)bits(w, 24, 20);
  case OPK_ZIMM5: case OPK_UIMM5: return (int32_t)bits(w, 19, 15);
  case OPK_SIMM5: return sext(bits(w, 19, 15), 5);
  case OPK_VTYPEI11: return (int32_t)bits(w, 30, 20);
  case OPK_VTYPEI10: return (int32_t)bits(w, 29, 20);
  case OPK_SIMM11: return sext(bits(w, 30, 20), 11);
  case OPK_SIMM11S: return sext(bits(w, 30, 25) << 5 | bits(w, 11, 7), 11);
  case OPK_PRED: return (int32_t)bits(w, 27, 20); /* pred<<4 | succ */
  default: return 0;
  }
}

static uint32_t put_imm(isa_opk k, uint32_t v) {
  switch (k) {
  case OPK_SIMM12: case OPK_UIMM12: case OPK_CSR: return (v & 0xfff) << 20;
  case OPK_SIMM12S: return ((v >> 5) & 0x7f) << 25 | (v & 0x1f) << 7;
  case OPK_BIMM:
    return ((v >> 12) & 1) << 31 | ((v >> 11) & 1) << 7 | ((v >> 5) & 0x3f) << 25 |
           ((v >> 1) & 0xf) << 8;
  case OPK_UIMM20: return (v & 0xfffff) << 12;
  case OPK_JIMM:
    return ((v >> 20) & 1) << 31 | ((v >> 12) & 0xff) << 12 | ((v >> 11) & 1) << 20 |
           ((v >> 1) & 0x3ff) << 21;
  case OPK_SHAMT: return (v & 31) << 20;
  case OPK_ZIMM5: case OPK_UIMM5: case OPK_SIMM5: return (v & 31) << 15;
  case OPK_VTYPEI11: return (v & 0x7ff) << 20;
  case OPK_VTYPEI10: return (v & 0x3ff) << 20;
  case OPK_SIMM11: return (v & 0x7ff) << 20;
  case OPK_SIMM11S: return ((v >> 5) & 0x3f) << 25 | (v & 0x1f) << 7;
  case OPK_PRED: return (v & 15) << 24;
  case OPK_SUCC: return (v & 15) << 20;
  case OPK_VM: return (v & 1) << 25;
  case OPK_RM: return (v & 7) << 12;
  case OPK_PAIRBIT: return (v & 1) << 15;
  case OPK_ABS: return (v & 7) << 12;
  case OPK_NEG: return (v & 7) << 7;
  case OPK_CH: return (v & 3) << 13;
  case OPK_AL: return (v & 1) << 14;
  case OPK_BL: return (v & 1) << 13;
  default: return 0;
  }
}

/* The instruction's main immediate kind (see isa_inst.imm). */
static isa_opk main_imm_kind(const isa_opnd *o, int n) {
  for (int i = 0; i < n; i++) {
    isa_opk k = (isa_opk)o[i].kind;
    if (k >= OPK_SIMM12 && k <= OPK_SUCC && k != OPK_ZIMM5 && k != OPK_VM && k != OPK_V0 &&
        k != OPK_RM)
      return k;
  }
  return OPK_NONE;
}

isa_id isa_decode(uint32_t word, uint32_t prefix, isa_inst *out) {
  return isa_decode_rev(word, prefix, ISA_REV_BASE, out);
}

isa_id isa_decode_rev(uint32_t word, uint32_t prefix, isa_rev r, isa_inst *out) {
  memset(out, 0, sizeof *out);
  out->word = word;
  isa_id id = isa_lookup_rev(word, r);
  out->id = (uint16_t)id;
  out->rd = (uint8_t)bits(word, 11, 7);
  out->rs1 = (uint8_t)bits(word, 19, 15);
  out->rs2 = (uint8_t)bits(word, 24, 20);
  out->rs3 = (uint8_t)bits(word, 31, 27);
  out->vm = (uint8_t)bits(word, 25, 25);
  out->rm = (uint8_t)bits(word, 14, 12);
  out->aqrl = (uint8_t)bits(word, 26, 25);
  if (id == ISA_INVALID) return id;
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  isa_opk k = main_imm_kind(o, n);
  out->imm = imm_field(k, word);
  if (prefix) {
    isa_id pid = prefix_id(prefix);
    int pc = prefix_class(pid);
    uint32_t p = prefix >> 20;
    if (pid == ISA_regpair || pid == ISA_regpairi) out->pfx = ISA_PFX_PAIR;
    if (pid == ISA_prefix || pid == ISA_prefixi) {
      out->absneg = (uint8_t)(bits(prefix, 14, 12) << 3 | bits(prefix, 9, 7));
      out->pfx = (uint8_t)((bits(prefix, 15, 15) ? ISA_PFX_PAIR | ISA_PFX_CPAIR : 0) | (out->absneg ? ISA_PFX_MOD : 0));
    } else if (pid >= ISA_pre_m_32 && pid <= ISA_pre_m_local_128) {
      /* OPCODE4 = [10:7]: address space in its high bits, width in its low */
      out->mspace = (uint8_t)bits(prefix, 10, 9);
      out->mwidth = (uint8_t)bits(prefix, 8, 7);
      out->pfx = (uint8_t)(ISA_PFX_MEM | (bits(prefix, 15, 15) ? ISA_PFX_PAIR : 0));
    }
    if (pc == PFX_EXT) {
      out->rd = (uint8_t)(out->rd | (p & 7) << 5);
      out->rs1 = (uint8_t)(out->rs1 | ((p >> 3) & 7) << 5);
      out->rs2 = (uint8_t)(out->rs2 | ((p >> 6) & 7) << 5);
      out->rs3 = (uint8_t)(out->rs3 | ((p >> 9) & 7) << 5);
    } else if (pc == PFX_EXTI) {
      out->rd = (uint8_t)(out->rd | (p & 7) << 5);
      out->rs2 = (uint8_t)(out->rs2 | ((p >> 3) & 7) << 5);
      uint32_t wide = (p >> 6) << 5 | bits(word, 19, 15);
      /* docs/isa.md: the project reads the 11-bit .vi immediate as signed
       * for simm5 slots (the compiler's intent) and unsigned for uimm5 */
      if (k == OPK_SIMM5) out->imm = sext(wide, 11);
      else if (k == OPK_UIMM5) out->imm = (int32_t)wide;
    }
  }
  return id;
}

int isa_operand_values(const isa_inst *in, isa_opnd o[ISA_MAX_OPNDS],
                       int64_t v[ISA_MAX_OPNDS]) {
  if (in->id >= ISA_COUNT) return 0;
  int n = isa_operands((isa_id)in->id, o);
  for (int i = 0; i < n; i++) {
    switch ((isa_opk)o[i].kind) {
    case OPK_VS3: v[i] = (isa_table[in->id].flags & IF_LONG) ? in->rs3 : in->rd; break; /* MMA64: C */
    case OPK_RD: case OPK_VD: case OPK_FRD: v[i] = in->rd; break;
    case OPK_RS1: case OPK_VS1: case OPK_FRS1: v[i] = in->rs1; break;
    case OPK_RS2: case OPK_VS2: case OPK_FRS2: v[i] = in->rs2; break;
    case OPK_RS3: v[i] = in->rs3; break;
    case OPK_ZIMM5: v[i] = in->rs1 & 31; break;
    case OPK_VM: v[i] = in->vm; break;
    case OPK_V0: v[i] = 0; break;
    case OPK_RM: v[i] = in->rm; break;
    case OPK_PRED: v[i] = (in->imm >> 4) & 15; break;
    case OPK_SUCC: v[i] = in->imm & 15; break;
    case OPK_PAIRBIT: v[i] = bits(in->word, 15, 15); break;
    case OPK_ABS: v[i] = bits(in->word, 14, 12); break;
    case OPK_NEG: v[i] = bits(in->word, 9, 7); break;
    case OPK_CH: v[i] = bits(in->word, 14, 13); break;
    case OPK_AL: v[i] = bits(in->word, 14, 14); break;
    case OPK_BL: v[i] = bits(in->word, 13, 13); break;
    case OPK_SSZ: v[i] = bits(in->hi, 21, 20) == 3 ? 8 : 16 << bits(in->hi, 21, 20); break;
    case OPK_DSZ: v[i] = bits(in->hi, 23, 22) == 3 ? 8 : 16 << bits(in->hi, 23, 22); break;
    case OPK_OPSEL: v[i] = bits(in->hi, 17, 15); break;
    case OPK_MNEG: v[i] = bits(in->hi, 11, 9); break;
    case OPK_MABS: v[i] = bits(in->hi, 14, 12); break;
    case OPK_OMOD: v[i] = bits(in->hi, 19, 18); break;
    case OPK_RDM: v[i] = bits(in->word, 19, 18); break;
    case OPK_MAL: v[i] = bits(in->hi, 8, 8); break;
    case OPK_MBL: v[i] = bits(in->hi, 7, 7); break;
    case OPK_MA: v[i] = bits(in->word, 16, 16); break;
    case OPK_MWGN: v[i] = 8 << bits(in->hi, 27, 25); break;
    default: v[i] = in->imm; break;
    }
  }
  return n;
}

static int field_shift(isa_opk k) {
  switch (k) {
  case OPK_RD: case OPK_VD: case OPK_VS3: case OPK_FRD: return 7;
  case OPK_RS1: case OPK_VS1: case OPK_FRS1: return 15;
  case OPK_RS2: case OPK_VS2: case OPK_FRS2: return 20;
  case OPK_RS3: return 27;
  default: return -1;
  }
}
/* position of a field's high bits in a regext immediate */
static int regext_pos(isa_opk k) {
  switch (k) {
  case OPK_RD: case OPK_VD: case OPK_VS3: case OPK_FRD: return 0;
  case OPK_RS1: case OPK_VS1: case OPK_FRS1: return 3;
  case OPK_RS2: case OPK_VS2: case OPK_FRS2: return 6;
  case OPK_RS3: return 9;
  default: return -1;
  }
}

/* The high bits a prefix word gives a register field (0 when it gives none:
 * regexti leaves rs1 and rs3 alone). */
static uint32_t prefix_reg_hi(uint32_t prefix, isa_opk k) {
  uint32_t p = prefix >> 20;
  if (prefix_class(prefix_id(prefix)) == PFX_EXT) return (p >> regext_pos(k)) & 7;
  int pos = regext_pos(k);
  return pos == 0 ? (p & 7) : pos == 6 ? ((p >> 3) & 7) : 0;
}

/* isa_encode and isa_encode_under: `under` is the explicit prefix word
 * before the instruction, or NULL to compute one. */
static int encode(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl,
                  const uint32_t *under, uint32_t *word, uint32_t *prefix, char *err,
                  size_t errlen) {
  if ((unsigned)id >= ISA_COUNT) {
    if (err) snprintf(err, errlen, "no such instruction");
    return -1;
  }
  if (isa_table[id].flags & IF_LONG) {
    if (err) snprintf(err, errlen, "%s is a 64-bit instruction (isa_encode64)", isa_table[id].mnemonic);
    return -1;
  }
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  uint32_t w = isa_table[id].match;
  uint32_t ext = 0;        /* regext immediate */
  int need_ext = 0, wide_imm = 0;
  uint32_t wide_hi = 0;
  const char *pname = under ? isa_table[prefix_id(*under)].mnemonic : "";
  for (int i = 0; i < n; i++) {
    isa_opk k = (isa_opk)o[i].kind;
    int64_t v = vals[i], lo, hi;
    isa_opk_range(k, &lo, &hi);
    if (v < lo || v > hi) {
      if (err) snprintf(err, errlen, "operand %d out of range [%lld, %lld]: %lld", i + 1,
                        (long long)lo, (long long)hi, (long long)v);
      return -1;
    }
    if ((k == OPK_BIMM || k == OPK_JIMM) && (v & 1)) {
      if (err) snprintf(err, errlen, "operand %d: branch offset %lld is odd", i + 1, (long long)v);
      return -1;
    }
    int sh = field_shift(k);
    if (sh >= 0 && o[i].pair && (v & 1)) {
      if (err)
        snprintf(err, errlen, "operand %d: register %lld is odd; a register pair starts at an even register",
                 i + 1, (long long)v);
      return -1;
    }
    if (sh >= 0) {
      w |= (uint32_t)(v & 31) << sh;
      if (under && (uint32_t)(v >> 5) != prefix_reg_hi(*under, k)) {
        if (err)
          snprintf(err, errlen,
                   "operand %d: register %lld does not match the %s before it (which makes "
                   "this field %u..%u)",
                   i + 1, (long long)v, pname, prefix_reg_hi(*under, k) << 5,
                   prefix_reg_hi(*under, k) << 5 | 31);
        return -1;
      }
      if (v > 31) {
        need_ext = 1;
        ext |= (uint32_t)(v >> 5) << regext_pos(k);
      }
    } else {
      int wide = (k == OPK_SIMM5 && (v < -16 || v > 15)) || (k == OPK_UIMM5 && v > 31);
      if (under && (k == OPK_SIMM5 || k == OPK_UIMM5)) {
        /* under regexti the slot is 11 bits {prefix imm[11:6], imm5} */
        int ti = prefix_class(prefix_id(*under)) == PFX_EXTI;
        uint32_t got = (uint32_t)(((uint64_t)v >> 5) & 0x3f), want = *under >> 26;
        if (ti ? got != want : wide) {
          if (err)
            snprintf(err, errlen, "operand %d: immediate %lld does not match the %s before it",
                     i + 1, (long long)v, pname);
          return -1;
        }
      } else if (wide) {
        wide_imm = 1;
        wide_hi = (uint32_t)(((uint64_t)v >> 5) & 0x3f);
      }
      w |= put_imm(k, (uint32_t)v);
    }
  }
  if (isa_table[id].flags & IF_AQRL) w |= (aqrl & 3) << 25;
  if (prefix) *prefix = 0;
  if (under) {
    /* the explicit prefix supplies every high bit */
  } else if (wide_imm) {
    /* regexti extends rd and rs2 only; rs1 is the immediate itself */
    uint32_t rs1_hi = (ext >> 3) & 7, rs3_hi = (ext >> 9) & 7;
    if (rs1_hi || rs3_hi) {
      if (err) snprintf(err, errlen, "a wide immediate and a register above 31 in rs1/rs3 cannot be combined");
      return -1;
    }
    uint32_t imm = (ext & 7) | ((ext >> 6) & 7) << 3 | wide_hi << 6;
    *prefix = isa_table[ISA_regexti].match | imm << 20;
  } else if (need_ext) {
    *prefix = isa_table[ISA_regext].match | (ext & 0xfff) << 20;
  }
  *word = w;
  return 0;
}

int isa_encode(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl, uint32_t *word,
               uint32_t *prefix, char *err, size_t errlen) {
  return encode(id, vals, aqrl, NULL, word, prefix, err, errlen);
}

int isa_encode_under(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t aqrl,
                     uint32_t prefix, uint32_t *word, char *err, size_t errlen) {
  if (prefix_id(prefix) == ISA_INVALID) {
    if (err) snprintf(err, errlen, "0x%08x is not a prefix word (regext, regexti, ...)", prefix);
    return -1;
  }
  return encode(id, vals, aqrl, &prefix, word, NULL, err, errlen);
}

/* The two 64-bit formats' fields (docs/isa-extensions.md). In the compute
 * format a register whose data size is 64 bits is a pair: an even one. */
int isa_encode64(isa_id id, const int64_t vals[ISA_MAX_OPNDS], uint32_t *lo, uint32_t *hi,
                 char *err, size_t errlen) {
  if ((unsigned)id >= ISA_COUNT || !(isa_table[id].flags & IF_LONG)) {
    if (err) snprintf(err, errlen, "not a 64-bit instruction");
    return -1;
  }
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  uint32_t l = isa_table[id].match, h = isa_table[id].match_hi;
  int64_t ssz = 32, dsz = 32;
  for (int i = 0; i < n; i++) {
    if (o[i].kind == OPK_SSZ) ssz = vals[i];
    if (o[i].kind == OPK_DSZ) dsz = vals[i];
  }
  for (int i = 0; i < n; i++) {
    isa_opk k = (isa_opk)o[i].kind;
    int64_t v = vals[i], vlo, vhi;
    isa_opk_range(k, &vlo, &vhi);
    int fsize = (k == OPK_SSZ || k == OPK_DSZ) && v == 8 && ((l >> 12) & 7) != 0; /* 8 bits: integers only */
    if (v < vlo || v > vhi || ((k == OPK_SSZ || k == OPK_DSZ) && v != 8 && v != 16 && v != 32 && v != 64) ||
        (k == OPK_MWGN && (v & (v - 1))) || fsize) {
      if (err) {
        if (fsize)
          snprintf(err, errlen, "operand %d: 8-bit data is for the integer forms (vadd64 ... vmul64)", i + 1);
        else if (k == OPK_SSZ || k == OPK_DSZ)
          snprintf(err, errlen, "operand %d: a data size is 8, 16, 32 or 64, not %lld", i + 1, (long long)v);
        else if (k == OPK_MWGN)
          snprintf(err, errlen, "operand %d: the warp-group N is 8, 16, 32, ... 1024, not %lld", i + 1,
                   (long long)v);
        else
          snprintf(err, errlen, "operand %d out of range [%lld, %lld]: %lld", i + 1, (long long)vlo,
                   (long long)vhi, (long long)v);
      }
      return -1;
    }
    int64_t size = k == OPK_VD ? dsz : ssz;
    if (isa_opk_is_reg(k) && size == 64 && (v & 1)) {
      if (err)
        snprintf(err, errlen,
                 "operand %d: register %lld is odd; 64-bit data is a register pair starting at an "
                 "even register", i + 1, (long long)v);
      return -1;
    }
    uint32_t u = (uint32_t)v;
    if (is_mma64(l)) {
      switch (k) {
      case OPK_VD: l |= u << 20; break;
      case OPK_VS3: l |= (u & 15) << 28; h |= u >> 4; break;
      case OPK_VS1: h |= u << 9; break;
      case OPK_VS2: h |= u << 17; break;
      case OPK_RDM: l |= u << 18; break;
      case OPK_MAL: h |= u << 8; break;
      case OPK_MBL: h |= u << 7; break;
      case OPK_MA: l |= u << 16; break;
      case OPK_MWGN: h |= (uint32_t)__builtin_ctz(u / 8) << 25; break;
      default: break;
      }
      continue;
    }
    switch (k) {
    case OPK_VD: l |= (u & 31) << 7; h |= (u >> 5) << 0; break;
    case OPK_VS1: l |= (u & 31) << 15; h |= (u >> 5) << 3; break;
    case OPK_VS2: l |= (u & 31) << 20; h |= (u >> 5) << 6; break;
    case OPK_SSZ: h |= (uint32_t)(v == 16 ? 0 : v == 32 ? 1 : v == 64 ? 2 : 3) << 20; break;
    case OPK_DSZ: h |= (uint32_t)(v == 16 ? 0 : v == 32 ? 1 : v == 64 ? 2 : 3) << 22; break;
    case OPK_OPSEL: h |= u << 15; break;
    case OPK_MNEG: h |= u << 9; break;
    case OPK_MABS: h |= u << 12; break;
    case OPK_OMOD: h |= u << 18; break;
    default:
      if (err) snprintf(err, errlen, "operand %d: no field for it in a 64-bit word", i + 1);
      return -1;
    }
  }
  if (!long_fields_ok(l, h)) {
    if (err) snprintf(err, errlen, "RD is 0 (saturate) or 1 (wrap) for integer C/D");
    return -1;
  }
  *lo = l;
  *hi = h;
  return 0;
}
