#include "trace_line.h"

#include <stdlib.h>
#include <string.h>

#define DIS_SLOTS 512 /* direct-mapped by a hash of the word: kernels are small */
#define CSR_SLOTS 64  /* direct-mapped by the low bits of the CSR number */

typedef struct {
  const char *name; /* NULL = slot empty */
  uint32_t csr;
  uint32_t len;
} csr_slot;

struct vt_trace_cache {
  vt_trace_insn dis[DIS_SLOTS];
  csr_slot csr[CSR_SLOTS];
};

vt_trace_cache *vt_trace_cache_new(void) { return calloc(1, sizeof(vt_trace_cache)); }
void vt_trace_cache_free(vt_trace_cache *k) { free(k); }

/* ---- appenders ------------------------------------------------------------ */
static const char hex_pairs[] = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
                                "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
                                "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
                                "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
                                "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
                                "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
                                "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
                                "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static inline char *put_hex2(char *p, uint32_t byte) {
  memcpy(p, hex_pairs + 2 * (byte & 0xff), 2);
  return p + 2;
}

/* "%08x" */
static inline char *put_hex8(char *p, uint32_t v) {
  p = put_hex2(p, v >> 24);
  p = put_hex2(p, v >> 16);
  p = put_hex2(p, v >> 8);
  return put_hex2(p, v);
}

/* "%x" of a byte */
static inline char *put_hex_byte(char *p, uint32_t v) {
  if (v < 16) {
    *p = hex_pairs[2 * v + 1];
    return p + 1;
  }
  return put_hex2(p, v);
}

static inline char *put_str(char *p, const char *s, size_t n) {
  memcpy(p, s, n);
  return p + n;
}
#define PUT_LIT(p, lit) put_str(p, lit, sizeof lit - 1)

/* "%u" */
static char *put_u(char *p, uint32_t v) {
  char t[10];
  int n = 0;
  do t[n++] = (char)('0' + v % 10); while ((v /= 10) != 0);
  while (n) *p++ = t[--n];
  return p;
}

/* "%Nu": right-aligned in width columns */
static inline char *put_u_right(char *p, uint32_t v, int width) {
  int digits = v < 10 ? 1 : v < 100 ? 2 : v < 1000 ? 3 : 4;
  for (; digits < width; digits++) *p++ = ' ';
  return put_u(p, v);
}

/* "%-Nu": left-aligned in width columns */
static inline char *put_u_left(char *p, uint32_t v, int width) {
  char *s = p;
  p = put_u(p, v);
  while (p - s < width) *p++ = ' ';
  return p;
}

/* "core %3u: " */
static inline char *put_core(char *p, uint32_t warp) {
  p = PUT_LIT(p, "core ");
  p = put_u_right(p, warp, 3);
  return PUT_LIT(p, ": ");
}

/* "0x%08x (0x%08x)" */
static inline char *put_pc_insn(char *p, const vt_commit *c) {
  p = PUT_LIT(p, "0x");
  p = put_hex8(p, c->pc);
  p = PUT_LIT(p, " (0x");
  if (c->insn_len == 8) p = put_hex8(p, c->insn_hi); /* spike: all the instruction's bits */
  p = put_hex8(p, c->insn);
  *p++ = ')';
  return p;
}

/* ---- what an instruction word shows ----------------------------------------- */
/* Spike's style: mnemonic padded to 7 columns, one space, operands. A
 * 64-bit instruction (hi its second word) exists only in revision 2025. */
static void fill_insn_long(vt_trace_insn *t, uint32_t insn, int islong, uint32_t hi) {
  isa_inst in;
  if (islong) isa_decode64_rev(insn, hi, ISA_REV_2025, &in);
  else isa_decode(insn, 0, &in);
  t->insn = insn;
  t->flags = in.id < ISA_COUNT ? isa_table[in.id].flags : 0;
  char d[160];
  isa_disasm(&in, d, sizeof d);
  size_t n = strlen(d);
  const char *sp = memchr(d, ' ', n);
  char *p = t->dis;
  if (!sp) {
    p = put_str(p, d, n);
  } else {
    size_t m = (size_t)(sp - d);
    p = put_str(p, d, m);
    for (; m < 7; m++) *p++ = ' ';
    p = put_str(p, sp, n - (size_t)(sp - d)); /* the space and the operands */
  }
  *p = 0;
  t->dislen = (uint16_t)(p - t->dis);
}

static void fill_insn(vt_trace_insn *t, uint32_t insn) { fill_insn_long(t, insn, 0, 0); }

const vt_trace_insn *vt_trace_commit_insn(vt_trace_cache *k, const vt_commit *c, vt_trace_insn *tmp) {
  if (c->insn_len != 8) return vt_trace_insn_info(k, c->insn, tmp);
  fill_insn_long(tmp, c->insn, 1, c->insn_hi); /* not cached: the cache is keyed by one word */
  return tmp;
}

const vt_trace_insn *vt_trace_insn_info(vt_trace_cache *k, uint32_t insn, vt_trace_insn *tmp) {
  if (!k) {
    fill_insn(tmp, insn);
    return tmp;
  }
  vt_trace_insn *s = &k->dis[(insn * 0x9e3779b1u) >> 23]; /* 9 bits: DIS_SLOTS */
  if (!s->dislen || s->insn != insn) fill_insn(s, insn);
  return s;
}

static const csr_slot *csr_info(vt_trace_cache *k, unsigned csr, csr_slot *tmp) {
  csr_slot *s = k ? &k->csr[csr % CSR_SLOTS] : tmp;
  if (!k || !s->name || s->csr != csr) {
    const char *n = isa_csr_name(csr);
    s->name = n ? n : "unknown";
    s->csr = csr;
    s->len = (uint32_t)strlen(s->name);
  }
  return s;
}

/* ---- lines ------------------------------------------------------------------- */
/* Fixed parts at most: "Executed" line 43, disassembly line without the
 * text 41, commit line 42, vtype 21, 2 x-writes 36, an f write 26, 6 CSR
 * writes without their names 6 * 19, vector write 27 + 31 * 9 + 1, 32
 * memory accesses 32 * 26, SIMT state 68, newline: 1531 bytes. */
#define FIXED_BOUND 2048
#define STACK_LINE 57

size_t vt_trace_bound(vt_trace_cache *k, const vt_commit *c) {
  size_t n = FIXED_BOUND + VT_TRACE_DIS_MAX;
  for (int i = 0; i < c->ncsr && i < 6; i++) {
    csr_slot tmp;
    n += csr_info(k, c->csr[i].csr, &tmp)->len;
  }
  if (c->has_simt && c->simt_stack) n += (size_t)c->simt_depth * STACK_LINE;
  if (c->nmem > VT_MAX_LANES) n += (size_t)(c->nmem - VT_MAX_LANES) * 26; /* ISA 2025 wide accesses */
  return n;
}

char *vt_trace_put_executed(char *p, uint32_t warp, uint32_t times) {
  p = put_core(p, warp);
  p = PUT_LIT(p, "Executed ");
  p = put_u(p, times);
  return PUT_LIT(p, " times\n");
}

char *vt_trace_put_disasm(char *p, const vt_commit *c, const vt_trace_insn *ii) {
  p = put_core(p, c->warp);
  p = put_pc_insn(p, c);
  *p++ = ' ';
  p = put_str(p, ii->dis, ii->dislen);
  *p++ = '\n';
  return p;
}

static char *put_scalar_regs(char *p, const vt_commit *c) {
  for (int i = 0; i < c->nx; i++)
    if (c->x[i].reg) {
      p = PUT_LIT(p, " x");
      p = put_u_left(p, c->x[i].reg, 2);
      p = PUT_LIT(p, " 0x");
      p = put_hex8(p, c->x[i].val);
    }
  /* spike prints an f write as " f%-2d 0x%016" PRIx64 (FLEN 64) */
  if (c->has_f) {
    p = PUT_LIT(p, " f");
    p = put_u_left(p, c->freg, 2);
    p = PUT_LIT(p, " 0x");
    p = put_hex8(p, (uint32_t)(c->fval >> 32));
    p = put_hex8(p, (uint32_t)c->fval);
  }
  return p;
}

static char *put_csr(vt_trace_cache *k, char *p, const vt_commit *c, int i) {
  csr_slot tmp;
  const csr_slot *s = csr_info(k, c->csr[i].csr, &tmp);
  p = PUT_LIT(p, " c");
  p = put_u(p, c->csr[i].csr);
  *p++ = '_';
  p = put_str(p, s->name, s->len);
  p = PUT_LIT(p, " 0x");
  return put_hex8(p, c->csr[i].val);
}

static char *put_csrs(vt_trace_cache *k, char *p, const vt_commit *c) {
  for (int i = 0; i < c->ncsr; i++) p = put_csr(k, p, c, i);
  return p;
}

/* Spike keeps an instruction's log in an unordered_map that, with
 * libstdc++'s 13 buckets, iterates these keys in reverse insertion order
 * (the corpus shows it: "c8_vstart c1_fflags e32 m1 l8 v1" for vfdiv.vv).
 * A Zicsr instruction or vsetvl* (which logs vl/vtype) writes its CSRs
 * before rd, so rd prints first (the general layout). Any other scalar
 * instruction writes its register first (WRITE_RD, WRITE_FRD) and the
 * CSRs it causes after it: mstatus when that write dirties FS (the Zfinx
 * mirroring), fflags for an fp op. Those print first, last written first,
 * then the register. */
static int csrs_first(const vt_commit *c, uint32_t flags) {
  if (c->has_f) return 1;
  if ((flags & (IF_CSR | IF_VEC | IF_VBRANCH)) || c->has_simt || c->vtag || !c->ncsr) return 0;
  for (int i = 0; i < c->ncsr; i++)
    if (c->csr[i].csr != CSR_MSTATUS && c->csr[i].csr != CSR_FFLAGS) return 0;
  return 1;
}

static char *put_csrs_then_regs(vt_trace_cache *k, char *p, const vt_commit *c) {
  for (int i = c->ncsr; i-- > 0;) p = put_csr(k, p, c, i);
  return put_scalar_regs(p, c);
}

/* " e%u m%u l%u" */
static char *put_vtype(char *p, const vt_commit *c) {
  uint32_t sew = c->vtype ? 8u << ((c->vtype >> 3) & 7) : 32, lmul = c->vtype ? 1u << (c->vtype & 3) : 1;
  p = PUT_LIT(p, " e");
  p = put_u(p, sew);
  p = PUT_LIT(p, " m");
  p = put_u(p, lmul);
  p = PUT_LIT(p, " l");
  return put_u(p, c->vl);
}

/* " v%-2u %08x 0x%08x" then " %08x" for the lower lanes, then " " */
static char *put_vreg(char *p, const vt_commit *c) {
  uint32_t n = c->vl ? c->vl : 1;
  if (n > VT_MAX_LANES) n = VT_MAX_LANES;
  p = PUT_LIT(p, " v");
  p = put_u_left(p, c->vreg, 2);
  *p++ = ' ';
  p = put_hex8(p, c->vmask);
  p = PUT_LIT(p, " 0x");
  p = put_hex8(p, c->v[n - 1]);
  for (uint32_t k = n - 1; k-- > 0;) {
    *p++ = ' ';
    p = put_hex8(p, c->v[k]);
  }
  *p++ = ' ';
  return p;
}

static char *put_mem(char *p, const vt_commit *c) {
  for (int i = 0; i < c->nmem; i++) {
    p = PUT_LIT(p, " mem 0x");
    p = put_hex8(p, c->mem[i].addr);
    if (!c->mem[i].store) continue;
    p = PUT_LIT(p, " 0x");
    if (c->mem[i].size == 1) {
      p = put_hex_byte(p, c->mem[i].val & 0xff);
    } else if (c->mem[i].size == 2) {
      p = put_hex2(p, c->mem[i].val >> 8);
      p = put_hex2(p, c->mem[i].val);
    } else {
      p = put_hex8(p, c->mem[i].val);
    }
  }
  return p;
}

static char *put_simt(char *p, const vt_commit *c) {
  p = PUT_LIT(p, " current mask:\t");
  p = put_hex8(p, c->simt_mask);
  p = PUT_LIT(p, " current npc:\t");
  p = put_hex8(p, c->simt_npc);
  p = PUT_LIT(p, " stack size: ");
  return put_u(p, c->simt_depth);
}

/* "[r_pc] %08x [else_pc] %08x [else_mask] %08x \n", top entry first */
static char *put_stack(char *p, const vt_commit *c) {
  for (uint32_t k = c->simt_depth; k-- > 0;) {
    const vt_simt_entry *s = &c->simt_stack[k];
    p = PUT_LIT(p, "[r_pc] ");
    p = put_hex8(p, s->rpc);
    p = PUT_LIT(p, " [else_pc] ");
    p = put_hex8(p, s->pc);
    p = PUT_LIT(p, " [else_mask] ");
    p = put_hex8(p, s->mask);
    p = PUT_LIT(p, " \n");
  }
  return p;
}

char *vt_trace_put_commit(vt_trace_cache *k, char *p, const vt_commit *c, uint32_t flags) {
  p = put_core(p, c->warp);
  p = PUT_LIT(p, "3 ");
  p = put_pc_insn(p, c);
  if (c->spin) {
    *p++ = '\n';
    return p;
  }
  if (c->has_v && (flags & IF_LOAD)) {
    /* the ISS lists a vector load's register before its CSR writes */
    p = put_vtype(p, c);
    p = put_vreg(p, c);
    p = put_scalar_regs(p, c);
    p = put_csrs(k, p, c);
  } else if (csrs_first(c, flags)) {
    p = put_csrs_then_regs(k, p, c);
    if (c->vtag) p = put_vtype(p, c); /* vfmv.f.s: "c8_vstart .. fN .. e32 m1 lN" */
  } else {
    p = put_scalar_regs(p, c);
    p = put_csrs(k, p, c);
    /* the core says when the ISS prints "eSEW mLMUL lVL" (require_vector) */
    if (c->has_v || c->vtag) p = put_vtype(p, c);
    if (c->has_v) p = put_vreg(p, c);
  }
  p = put_mem(p, c);
  if (c->has_simt) p = put_simt(p, c);
  *p++ = '\n';
  /* after a SIMT-state line the ISS lists the stack, top entry first */
  if (c->has_simt && c->simt_stack) p = put_stack(p, c);
  return p;
}
