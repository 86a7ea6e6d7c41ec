/* Wide operands of ISA 2025 in the timing model (docs/timing.md, "Register
 * groups and element widths"): the register groups of MMA and MMA64 (C, D,
 * A with the sparse metadata, B), the pairs of 64-bit elements at SEW 64,
 * the passes of a vector op by element width, and the local-memory bytes a
 * warp-group MMA64 reads through its descriptors. The sizes follow the
 * executors' fragment layout (exec_mma.c, exec_mma64_ext.c): word w of a
 * group is in register base + w / NT, so a group of E elements of b bits
 * takes ceil(E b / 32 / NT) registers. Only a 2025 device marks entries
 * here, so the baseline's reg_uses pays one test of a per-entry byte. */
#include <stdlib.h>
#include <string.h>

#include "timing_int.h"

/* A/B element bits by data type (the 32-bit MMA's type codes, MMA64's DT) */
static const uint8_t bits_of[12] = {32, 16, 16, 8, 8, 8, 4, 1, 8, 8, 8, 8};

/* "m16n8k32" or the warp group's "m64k16" after the mnemonic's ".m" */
static void parse_shape(const char *mn, wide_op *o) {
  const char *p = strstr(mn, ".m");
  if (!p) return;
  char *q;
  o->m = (uint8_t)strtoul(p + 2, &q, 10);
  if (*q == 'n') o->n = (uint8_t)strtoul(q + 1, &q, 10);
  if (*q == 'k') o->k = (uint16_t)strtoul(q + 1, &q, 10);
}

/* Standard RVV compares and carry-outs write a 0/1 result to vd alone at
 * every SEW (docs/isa-extensions.md, "Element widths"). */
static int narrow_vd(const char *mn) {
  return !strncmp(mn, "vms", 3) || !strncmp(mn, "vmf", 3) || !strncmp(mn, "vmadc", 5);
}

void wide_build(vt_timing *t) {
  memset(t->wide, 0, sizeof t->wide);
  if (t->cfg.isa != 2025) return;
  for (int id = 0; id < ISA_COUNT; id++) {
    const isa_info *ii = &isa_table[id];
    wide_op *o = &t->wide[id];
    if (!isa_in_rev(ii->flags, ISA_REV_2025)) continue;
    if (ii->unit == UNIT_TENSOR && (ii->match & 0x7f) == 0x61) { /* MMA */
      unsigned dt = ii->match >> 28;
      o->kind = WIDE_MMA;
      o->bits = bits_of[dt];
      o->cbits = dt == 1 && !((ii->match >> 12) & 1) ? 16 : 32;
    } else if ((ii->flags & IF_LONG) && (ii->match & 0x7f) == 0x7f) { /* MMA64 */
      unsigned dt = ii->match_hi >> 28;
      if (dt >= 12) continue;
      o->kind = (ii->match >> 17) & 1 ? WIDE_MMA64_WG : WIDE_MMA64;
      o->bits = bits_of[dt];
      o->cbits = dt == 1 && !((ii->match_hi >> 6) & 1) ? 16 : 32;
      o->sp = ((ii->match_hi >> 4) & 3) == 1;
    } else if ((ii->flags & IF_LONG) && (ii->match & 0x7f) == 0x3f) { /* the 64-bit compute format */
      o->kind = WIDE_C64;
      continue;
    } else if ((ii->flags & IF_VEC) && !(ii->flags & (IF_CUSTOMV | IF_LOAD | IF_STORE | IF_LONG)) &&
               (ii->unit == UNIT_VALU || ii->unit == UNIT_VFPU || ii->unit == UNIT_MUL ||
                ii->unit == UNIT_SFU) &&
               !strstr(ii->mnemonic, ".mm")) {
      /* a standard RVV op on SEW-wide elements (accesses carry their own
       * width, the mask logic works on 0/1 elements) */
      o->kind = WIDE_SEW;
      o->narrow_vd = (uint8_t)narrow_vd(ii->mnemonic);
      continue;
    } else {
      continue;
    }
    parse_shape(ii->mnemonic, o);
    if (o->kind == WIDE_MMA64_WG) o->m = 16; /* the warp's 16 rows of the 64 */
  }
}

static uint32_t regs_for(uint32_t elems, uint32_t bits, uint32_t nt) {
  return (elems * bits / 32 + nt - 1) / nt;
}

/* N of an instruction: the warp group's comes from its shape field */
static uint32_t n_of(const wide_op *o, const isa_inst *in) {
  return o->kind == WIDE_MMA64_WG ? 8u << ((in->hi >> 25) & 7) : o->n;
}

static void put(reg_use *u, int *n, uint8_t file, uint8_t dest, uint32_t reg, uint32_t span) {
  if (reg + span > NREG) span = NREG - reg;
  u[(*n)++] = (reg_use){file, dest, (uint16_t)span, reg};
}

/* The groups of an MMA (vd: C and D), or MMA64 (vd D, vs3 C, vs1 A then
 * the sparse metadata, vs2 B; the warp group's local-memory A and B are
 * their descriptor pairs, with the metadata after A's). */
static int mma_uses(const wide_op *o, const isa_inst *in, uint32_t nt, reg_use *u) {
  uint32_t n = n_of(o, in), k = o->k, ka = o->sp ? k / 2 : k;
  uint32_t rc = regs_for(o->m * n, o->cbits, nt), rm = o->sp ? regs_for(o->m * ka, 2, nt) : 0;
  uint32_t ra = regs_for(o->m * ka, o->bits, nt), rb = regs_for(k * n, o->bits, nt);
  int c = 0;
  if (o->kind == WIDE_MMA64_WG) {
    if (!((in->word >> 16) & 1)) ra = 2; /* a = 0: A by descriptor */
    rb = 2;
  }
  put(u, &c, 1, 1, in->rd, rc);
  put(u, &c, 1, 0, o->kind == WIDE_MMA ? in->rd : in->rs3, rc);
  put(u, &c, 1, 0, in->rs1, ra + rm);
  put(u, &c, 1, 0, in->rs2, rb);
  return c;
}

int wide_mma_uses(const vt_timing *t, const isa_inst *in, uint32_t nt, reg_use *u) {
  return mma_uses(&t->wide[in->id], in, nt ? nt : 1, u);
}

uint16_t wide_sew64_span(const vt_timing *t, const isa_inst *in, int i, uint32_t reg) {
  const reg_ops *r = &t->ops[in->id];
  /* vector elements and a float scalar (Zdinx: the x pair; x0 reads 0.0)
   * are pairs; an integer scalar and a 0/1 compare or carry result are
   * one register */
  if (r->file[i]) return r->dest[i] && t->wide[in->id].narrow_vd ? 1 : 2;
  return reg && (r->freg[i] || (isa_table[in->id].flags & IF_FP)) ? 2 : 1;
}

/* A lane moves one 32-bit word per pass, so an op on 64-bit elements
 * (register pairs) takes two: at SEW 64, under PREFIX pair = 1, and the
 * compute format with a 64-bit size (code 2 in VSSIZE hi[21:20] or VDSIZE
 * hi[23:22]) */
uint32_t wide_passes(const vt_timing *t, const vt_warp_view *v) {
  const isa_inst *in = v->in;
  uint8_t kind = t->wide[in->id].kind;
  if (kind == WIDE_C64) return ((in->hi >> 20) & 3) == 2 || ((in->hi >> 22) & 3) == 2 ? 2 : 1;
  if (kind != WIDE_SEW) return 1;
  if (in->pfx & ISA_PFX_CPAIR) return isa_pair_op_of((isa_id)in->id) ? 2 : 1;
  return wide_sew(v->vtype) == 64 ? 2 : 1;
}

uint32_t wide_smem_bytes(const vt_timing *t, const isa_inst *in) {
  const wide_op *o = &t->wide[in->id];
  if (o->kind != WIDE_MMA64_WG) return 0;
  uint32_t k = o->k, ka = o->sp ? k / 2 : k, elems = k * n_of(o, in); /* B, every column */
  if (!((in->word >> 16) & 1)) elems += o->m * ka;                    /* A's 16 rows of this warp */
  return (elems * o->bits + 7) / 8;
}
