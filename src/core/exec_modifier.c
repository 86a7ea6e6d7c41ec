/* PREFIX/PREFIXI source modifiers (seed 002 "自定义计算前缀指令"): ABS and NEG
 * bits for src1..src3 (the rs1/vs1, rs2/vs2 and rs3 fields) of the next
 * arithmetic instruction. fp instructions take the modifiers on the sign
 * bit (|x| clears it, -x flips it, NaNs included, like fsgnj*); integer
 * ones in two's complement (|INT_MIN| = INT_MIN). ABS applies before NEG,
 * so both give -|x|. The modified values stand in for the registers while
 * the instruction's own handler runs, then the sources it did not
 * overwrite get their values back. */
#include <stdio.h>

#include "exec_vsew.h"

/* the instructions the modifiers apply to: computation, no memory or
 * control flow, no MMA (its operands are register groups); for the others
 * the prefix only extends registers */
static int modifiable(isa_id id) {
  const isa_info *t = &isa_table[id];
  if (id >= ISA_mma_m8n8k16_s8 && id <= ISA_mma_m16n8k16_bf16) return 0; /* register groups */
  if (t->flags & (IF_LOAD | IF_STORE | IF_BRANCH | IF_JUMP | IF_AMO | IF_CSR | IF_VBRANCH |
                  IF_JOIN | IF_PREFIX | IF_ENDPRG | IF_BARRIER))
    return 0;
  switch (t->unit) {
  case UNIT_ALU: case UNIT_VALU: case UNIT_VFPU: case UNIT_MUL: case UNIT_SFU: case UNIT_TENSOR:
    return 1;
  default:
    return 0;
  }
}

/* fp sources are modified on the sign bit; the int->fp conversions read
 * integers */
static int fp_sources(isa_id id) {
  if (id == ISA_fcvt_s_w || id == ISA_fcvt_s_wu || id == ISA_vfcvt_f_x_v || id == ISA_vfcvt_f_xu_v)
    return 0;
  return (isa_table[id].flags & IF_FP) != 0;
}

static uint32_t modify(uint32_t v, int abs, int neg, int fp) {
  if (fp) {
    if (abs) v &= 0x7fffffffu;
    if (neg) v ^= 0x80000000u;
    return v;
  }
  if (abs && (v >> 31)) v = 0u - v;
  if (neg) v = 0u - v;
  return v;
}

typedef struct {
  char file; /* 'x' or 'v' */
  unsigned reg;
  int abs, neg;
} src_mod;

int exec_modified(vt_exec *x, const isa_inst *in) {
  isa_id id = (isa_id)in->id;
  if (!modifiable(id)) return vt_exec_table[id](x, in);
  /* the modifiers act on 32-bit registers: not defined for SEW 8/16/64 elements */
  if (vsew_unmodifiable(id, vsew_of(x->w)))
    return vsew_unsupported(x, in, vsew_of(x->w), "PREFIX ABS/NEG apply to 32-bit elements only");
  isa_opnd o[ISA_MAX_OPNDS];
  int n = isa_operands(id, o);
  src_mod s[3];
  int ns = 0;
  char dfile = 0;
  unsigned dlo = 0, dhi = 0;
  for (int i = 0; i < n; i++) {
    isa_opk k = (isa_opk)o[i].kind;
    int bit = k == OPK_RS1 || k == OPK_VS1 ? 0 : k == OPK_RS2 || k == OPK_VS2 ? 1 : k == OPK_RS3 ? 2 : -1;
    if (k == OPK_RD || k == OPK_VD) {
      dfile = k == OPK_RD ? 'x' : 'v';
      dlo = in->rd;
      dhi = in->rd + (o[i].pair ? 1u : 0u);
    }
    if (bit < 0) continue;
    int abs = in->absneg >> (3 + bit) & 1, neg = in->absneg >> bit & 1;
    unsigned reg = bit == 0 ? in->rs1 : bit == 1 ? in->rs2 : in->rs3;
    char file = isa_opk_is_vreg(k) ? 'v' : 'x';
    for (int j = 0; j < ns; j++)
      if (s[j].file == file && s[j].reg == reg && (s[j].abs != abs || s[j].neg != neg)) {
        vt_fail(x->e, VT_ERR_ILLEGAL,
                "the prefix gives %c%u different ABS/NEG modifiers as two sources of one "
                "instruction",
                file, reg);
        return -1;
      }
    s[ns++] = (src_mod){file, reg, abs, neg};
  }
  int fp = fp_sources(id);
  vt_warp *w = x->w;
  uint32_t saved[3][VT_MAX_LANES];
  int done[3] = {0, 0, 0};
  for (int j = 0; j < ns; j++) {
    int dup = 0; /* the same register twice with the same modifiers: once */
    for (int k = 0; k < j; k++) dup |= s[k].file == s[j].file && s[k].reg == s[j].reg;
    if (dup || (!s[j].abs && !s[j].neg)) continue;
    done[j] = 1;
    if (s[j].file == 'x') {
      saved[j][0] = w->x[s[j].reg];
      w->x[s[j].reg] = modify(saved[j][0], s[j].abs, s[j].neg, fp);
    } else {
      uint32_t *r = w->v[s[j].reg];
      memcpy(saved[j], r, sizeof saved[j]);
      for (int l = 0; l < VT_MAX_LANES; l++) r[l] = modify(r[l], s[j].abs, s[j].neg, fp);
    }
  }
  int rc = vt_exec_table[id](x, in);
  for (int j = 0; j < ns; j++) {
    if (!done[j]) continue;
    int written = s[j].file == dfile && s[j].reg >= dlo && s[j].reg <= dhi && !(dfile == 'x' && s[j].reg == 0);
    if (s[j].file == 'x') {
      if (!written || rc) w->x[s[j].reg] = saved[j][0];
      continue;
    }
    /* a vector destination is written on the lanes of the execution mask
     * only: the others get their old values back */
    uint32_t keep = written && rc == 0 ? ~x->emask : 0xffffffffu;
    FOR_LANES(keep, l) w->v[s[j].reg][l] = saved[j][l];
  }
  return rc;
}
