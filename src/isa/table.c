/* The instruction table built from insns.def, operand syntax parsing and
 * register/CSR names. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "isa.h"

#define ALU UNIT_ALU
#define VALU UNIT_VALU
#define VFPU UNIT_VFPU
#define MUL UNIT_MUL
#define SFU UNIT_SFU
#define LSU UNIT_LSU
#define CSR UNIT_CSR
#define SIMT UNIT_SIMT
#define CTRL UNIT_CTRL
#define TENSOR UNIT_TENSOR
const isa_info isa_table[ISA_COUNT] = {
#define INSN(id, mn, match, mask, syn, unit, flags) \
  {#id, mn, (uint32_t)(match), (uint32_t)(mask), syn, unit, (uint32_t)(flags), 0, 0},
#define INSN64(id, mn, match, mask, match_hi, mask_hi, syn, unit, flags)                      \
  {#id, mn, (uint32_t)(match), (uint32_t)(mask), syn, unit, (uint32_t)(flags) | IF_LONG,      \
   (uint32_t)(match_hi), (uint32_t)(mask_hi)},
#include "insns.def"
#undef INSN64
#undef INSN
};
#undef ALU
#undef VALU
#undef VFPU
#undef MUL
#undef SFU
#undef LSU
#undef CSR
#undef SIMT
#undef CTRL
#undef TENSOR

const char *isa_rev_name(isa_rev r) { return r == ISA_REV_2025 ? "2025" : "base"; }

int isa_parse_rev(const char *s, isa_rev *r) {
  if (!strcmp(s, "base") || !strcmp(s, "0")) *r = ISA_REV_BASE;
  else if (!strcmp(s, "2025")) *r = ISA_REV_2025;
  else return -1;
  return 0;
}

const char *isa_unit_name(isa_unit u) {
  static const char *const names[UNIT_COUNT] = {
      "alu", "valu", "vfpu", "mul", "sfu", "lsu", "csr", "simt", "ctrl", "tensor"};
  return (unsigned)u < UNIT_COUNT ? names[u] : "?";
}

/* ---- syntax parsing ------------------------------------------------------- */
static const struct {
  const char *tok;
  isa_opk kind;
} tokens[] = {
    {"rd", OPK_RD},           {"rs1", OPK_RS1},         {"rs2", OPK_RS2},
    {"rs3", OPK_RS3},         {"vd", OPK_VD},           {"vs1", OPK_VS1},
    {"vs2", OPK_VS2},         {"vs3", OPK_VS3},         {"simm12", OPK_SIMM12},
    {"uimm12", OPK_UIMM12},   {"simm12s", OPK_SIMM12S}, {"bimm", OPK_BIMM},
    {"uimm20", OPK_UIMM20},   {"jimm", OPK_JIMM},       {"shamt", OPK_SHAMT},
    {"csr", OPK_CSR},         {"zimm5", OPK_ZIMM5},     {"simm5", OPK_SIMM5},
    {"uimm5", OPK_UIMM5},     {"vm", OPK_VM},           {"v0", OPK_V0},
    {"rm", OPK_RM},           {"vtypei11", OPK_VTYPEI11}, {"vtypei10", OPK_VTYPEI10},
    {"simm11", OPK_SIMM11},   {"simm11s", OPK_SIMM11S}, {"pred", OPK_PRED},
    {"succ", OPK_SUCC},       {"frd", OPK_FRD},         {"frs1", OPK_FRS1},
    {"frs2", OPK_FRS2},       {"pair", OPK_PAIRBIT},   {"abs", OPK_ABS},
    {"neg", OPK_NEG},         {"ch", OPK_CH},           {"al", OPK_AL},
    {"bl", OPK_BL},           {"ssz", OPK_SSZ},         {"dsz", OPK_DSZ},
    {"opsel", OPK_OPSEL},     {"mneg", OPK_MNEG},       {"mabs", OPK_MABS},
    {"omod", OPK_OMOD},       {"rdm", OPK_RDM},         {"mal", OPK_MAL},
    {"mbl", OPK_MBL},         {"ma", OPK_MA},           {"mwgn", OPK_MWGN},
};

static isa_opk token_kind(const char *s, size_t n) {
  for (size_t i = 0; i < sizeof tokens / sizeof tokens[0]; i++)
    if (strlen(tokens[i].tok) == n && memcmp(tokens[i].tok, s, n) == 0) return tokens[i].kind;
  return OPK_NONE;
}

/* One syntax token: a kind, or a register kind with the pair suffix 'p'. */
static isa_opnd token_opnd(const char *s, size_t n, uint8_t mem) {
  isa_opk k = token_kind(s, n);
  if (k == OPK_NONE && n > 1 && s[n - 1] == 'p') {
    k = token_kind(s, n - 1);
    if (isa_opk_is_xreg(k) || isa_opk_is_vreg(k)) return (isa_opnd){(uint8_t)k, mem, 1};
    k = OPK_NONE;
  }
  return (isa_opnd){(uint8_t)k, mem, 0};
}

int isa_operands(isa_id id, isa_opnd out[ISA_MAX_OPNDS]) {
  if ((unsigned)id >= ISA_COUNT) return 0;
  const char *p = isa_table[id].syntax;
  int n = 0;
  while (*p && n < ISA_MAX_OPNDS) {
    const char *e = p;
    while (*e && *e != ',' && *e != '(') e++;
    if (*e == '(') { /* imm(base) or (base) */
      const char *b = e + 1, *be = strchr(b, ')');
      if (e > p) out[n++] = token_opnd(p, (size_t)(e - p), ISA_MEM_OFF);
      out[n++] = token_opnd(b, (size_t)(be - b), e > p ? ISA_MEM_BASE : ISA_MEM_BARE);
      e = be + 1;
    } else {
      out[n++] = token_opnd(p, (size_t)(e - p), ISA_MEM_NO);
    }
    p = *e == ',' ? e + 1 : e;
  }
  return n;
}

int isa_opk_is_xreg(isa_opk k) { return k >= OPK_RD && k <= OPK_RS3; }
int isa_opk_is_vreg(isa_opk k) { return (k >= OPK_VD && k <= OPK_VS3); }
int isa_opk_is_freg(isa_opk k) { return k >= OPK_FRD && k <= OPK_FRS2; }
int isa_opk_is_reg(isa_opk k) {
  return isa_opk_is_xreg(k) || isa_opk_is_vreg(k) || isa_opk_is_freg(k);
}
int isa_opk_optional(isa_opk k) { return k == OPK_VM || k == OPK_RM; }

void isa_opk_range(isa_opk k, int64_t *lo, int64_t *hi) {
  *lo = 0;
  switch (k) {
  case OPK_RD: case OPK_RS1: case OPK_RS2: case OPK_RS3:
  case OPK_VD: case OPK_VS1: case OPK_VS2: case OPK_VS3:
  case OPK_FRD: case OPK_FRS1: case OPK_FRS2: *hi = 255; break;
  case OPK_SIMM12: case OPK_SIMM12S: *lo = -2048; *hi = 2047; break;
  case OPK_UIMM12: case OPK_CSR: *hi = 4095; break;
  case OPK_BIMM: *lo = -4096; *hi = 4094; break;
  case OPK_UIMM20: *hi = 0xfffff; break;
  case OPK_JIMM: *lo = -(1 << 20); *hi = (1 << 20) - 2; break;
  case OPK_SHAMT: case OPK_ZIMM5: *hi = 31; break;
  case OPK_SIMM5: *lo = -1024; *hi = 1023; break; /* beyond -16..15 needs regexti */
  case OPK_UIMM5: *hi = 2047; break;              /* beyond 31 needs regexti */
  case OPK_VM: *hi = 1; break;
  case OPK_V0: *hi = 0; break;
  case OPK_RM: *hi = 7; break;
  case OPK_VTYPEI11: *hi = 2047; break;
  case OPK_VTYPEI10: *hi = 1023; break;
  case OPK_SIMM11: case OPK_SIMM11S: *lo = -1024; *hi = 1023; break;
  case OPK_PRED: case OPK_SUCC: *hi = 15; break;
  case OPK_PAIRBIT: *hi = 1; break;
  case OPK_ABS: case OPK_NEG: *hi = 7; break;
  case OPK_CH: *hi = 3; break;
  case OPK_AL: case OPK_BL: *hi = 1; break;
  case OPK_SSZ: case OPK_DSZ: *lo = 8; *hi = 64; break; /* 8, 16, 32 or 64 */
  case OPK_OPSEL: *hi = 7; break;
  case OPK_MNEG: case OPK_MABS: case OPK_OMOD: case OPK_RDM: *hi = 3; break;
  case OPK_MAL: case OPK_MBL: case OPK_MA: *hi = 1; break;
  case OPK_MWGN: *lo = 8; *hi = 1024; break; /* a power of two */
  default: *hi = 0; break;
  }
}

/* ---- names ----------------------------------------------------------------- */
static const char *const abi[32] = {
    "zero", "ra", "sp", "gp", "tp",  "t0",  "t1", "t2", "s0", "s1", "a0",
    "a1",   "a2", "a3", "a4", "a5",  "a6",  "a7", "s2", "s3", "s4", "s5",
    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};
/* Zfinx code may still spell fp registers by their F names; they name the
 * x register with the same number. */
static const char *const fabi[32] = {
    "ft0", "ft1", "ft2",  "ft3",  "ft4", "ft5", "ft6",  "ft7",
    "fs0", "fs1", "fa0",  "fa1",  "fa2", "fa3", "fa4",  "fa5",
    "fa6", "fa7", "fs2",  "fs3",  "fs4", "fs5", "fs6",  "fs7",
    "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"};

static const char *const xhigh[224] = {
    "x32", "x33", "x34", "x35", "x36", "x37", "x38", "x39", "x40", "x41",
    "x42", "x43", "x44", "x45", "x46", "x47", "x48", "x49", "x50", "x51",
    "x52", "x53", "x54", "x55", "x56", "x57", "x58", "x59", "x60", "x61",
    "x62", "x63", "x64", "x65", "x66", "x67", "x68", "x69", "x70", "x71",
    "x72", "x73", "x74", "x75", "x76", "x77", "x78", "x79", "x80", "x81",
    "x82", "x83", "x84", "x85", "x86", "x87", "x88", "x89", "x90", "x91",
    "x92", "x93", "x94", "x95", "x96", "x97", "x98", "x99", "x100", "x101",
    "x102", "x103", "x104", "x105", "x106", "x107", "x108", "x109", "x110", "x111",
    "x112", "x113", "x114", "x115", "x116", "x117", "x118", "x119", "x120", "x121",
    "x122", "x123", "x124", "x125", "x126", "x127", "x128", "x129", "x130", "x131",
    "x132", "x133", "x134", "x135", "x136", "x137", "x138", "x139", "x140", "x141",
    "x142", "x143", "x144", "x145", "x146", "x147", "x148", "x149", "x150", "x151",
    "x152", "x153", "x154", "x155", "x156", "x157", "x158", "x159", "x160", "x161",
    "x162", "x163", "x164", "x165", "x166", "x167", "x168", "x169", "x170", "x171",
    "x172", "x173", "x174", "x175", "x176", "x177", "x178", "x179", "x180", "x181",
    "x182", "x183", "x184", "x185", "x186", "x187", "x188", "x189", "x190", "x191",
    "x192", "x193", "x194", "x195", "x196", "x197", "x198", "x199", "x200", "x201",
    "x202", "x203", "x204", "x205", "x206", "x207", "x208", "x209", "x210", "x211",
    "x212", "x213", "x214", "x215", "x216", "x217", "x218", "x219", "x220", "x221",
    "x222", "x223", "x224", "x225", "x226", "x227", "x228", "x229", "x230", "x231",
    "x232", "x233", "x234", "x235", "x236", "x237", "x238", "x239", "x240", "x241",
    "x242", "x243", "x244", "x245", "x246", "x247", "x248", "x249", "x250", "x251",
    "x252", "x253", "x254", "x255"};

const char *isa_xreg_name(unsigned r) {
  if (r < 32) return abi[r];
  if (r < 256) return xhigh[r - 32];
  return NULL;
}

static int parse_indexed(const char *s, char prefix, int max) {
  if (s[0] != prefix || s[1] < '0' || s[1] > '9') return -1;
  char *end;
  long v = strtol(s + 1, &end, 10);
  if (*end || v > max || (s[1] == '0' && s[2])) return -1;
  return (int)v;
}

int isa_parse_xreg(const char *s) {
  int r = parse_indexed(s, 'x', 255);
  if (r >= 0) return r;
  if (strcmp(s, "fp") == 0) return 8;
  for (int i = 0; i < 32; i++)
    if (strcmp(s, abi[i]) == 0 || strcmp(s, fabi[i]) == 0) return i;
  r = parse_indexed(s, 'f', 31);
  return r;
}

int isa_parse_vreg(const char *s) { return parse_indexed(s, 'v', 255); }

/* f registers: one per x register (the ISS mirrors them); the assembler
 * takes f0..f255 as it takes x0..x255: as far as a regext prefix reaches */
static const char *const fhigh[224] = {
    "f32", "f33", "f34", "f35", "f36", "f37", "f38", "f39", "f40", "f41",
    "f42", "f43", "f44", "f45", "f46", "f47", "f48", "f49", "f50", "f51",
    "f52", "f53", "f54", "f55", "f56", "f57", "f58", "f59", "f60", "f61",
    "f62", "f63", "f64", "f65", "f66", "f67", "f68", "f69", "f70", "f71",
    "f72", "f73", "f74", "f75", "f76", "f77", "f78", "f79", "f80", "f81",
    "f82", "f83", "f84", "f85", "f86", "f87", "f88", "f89", "f90", "f91",
    "f92", "f93", "f94", "f95", "f96", "f97", "f98", "f99", "f100", "f101",
    "f102", "f103", "f104", "f105", "f106", "f107", "f108", "f109", "f110", "f111",
    "f112", "f113", "f114", "f115", "f116", "f117", "f118", "f119", "f120", "f121",
    "f122", "f123", "f124", "f125", "f126", "f127", "f128", "f129", "f130", "f131",
    "f132", "f133", "f134", "f135", "f136", "f137", "f138", "f139", "f140", "f141",
    "f142", "f143", "f144", "f145", "f146", "f147", "f148", "f149", "f150", "f151",
    "f152", "f153", "f154", "f155", "f156", "f157", "f158", "f159", "f160", "f161",
    "f162", "f163", "f164", "f165", "f166", "f167", "f168", "f169", "f170", "f171",
    "f172", "f173", "f174", "f175", "f176", "f177", "f178", "f179", "f180", "f181",
    "f182", "f183", "f184", "f185", "f186", "f187", "f188", "f189", "f190", "f191",
    "f192", "f193", "f194", "f195", "f196", "f197", "f198", "f199", "f200", "f201",
    "f202", "f203", "f204", "f205", "f206", "f207", "f208", "f209", "f210", "f211",
    "f212", "f213", "f214", "f215", "f216", "f217", "f218", "f219", "f220", "f221",
    "f222", "f223", "f224", "f225", "f226", "f227", "f228", "f229", "f230", "f231",
    "f232", "f233", "f234", "f235", "f236", "f237", "f238", "f239", "f240", "f241",
    "f242", "f243", "f244", "f245", "f246", "f247", "f248", "f249", "f250", "f251",
    "f252", "f253", "f254", "f255"};

const char *isa_freg_name(unsigned r) {
  if (r < 32) return fabi[r];
  if (r < 256) return fhigh[r - 32];
  return NULL;
}

int isa_parse_freg(const char *s) {
  for (int i = 0; i < 32; i++)
    if (strcmp(s, fabi[i]) == 0) return i;
  return parse_indexed(s, 'f', 255);
}

static const struct {
  unsigned num;
  const char *name;
} csrs[] = {
    {0x001, "fflags"},   {0x002, "frm"},      {0x003, "fcsr"},    {0x008, "vstart"},
    {0x009, "vxsat"},    {0x00a, "vxrm"},     {0x00f, "vcsr"},    {0x300, "mstatus"},
    {0x301, "misa"},     {0x304, "mie"},      {0x305, "mtvec"},   {0x340, "mscratch"},
    {0x341, "mepc"},     {0x342, "mcause"},   {0x343, "mtval"},   {0x344, "mip"},
    {0xb00, "mcycle"},   {0xb02, "minstret"}, {0xc00, "cycle"},   {0xc01, "time"},
    {0xc02, "instret"},  {0xc80, "cycleh"},   {0xc81, "timeh"},   {0xc82, "instreth"},
    {0xc20, "vl"},       {0xc21, "vtype"},    {0xc22, "vlenb"},   {0xf14, "mhartid"},
    {0x800, "tid"},      {0x801, "numw"},     {0x802, "numt"},    {0x803, "knl"},
    {0x804, "wgid"},     {0x805, "wid"},      {0x806, "lds"},     {0x807, "pds"},
    {0x808, "gidx"},     {0x809, "gidy"},     {0x80a, "gidz"},    {0x80b, "print"},
    {0x80c, "rpc"},
    {0xf11, "mvendorid"},
    {0xf12, "marchid"},
    {0xf13, "mimpid"},
    {0xf15, "mconfigptr"},
    {0x306, "mcounteren"},
    {0x320, "mcountinhibit"},
    {0x100, "sstatus"},
    {0x180, "satp"},
    {0x302, "medeleg"},
    {0x303, "mideleg"},
    {0xc03, "hpmcounter3"},
    {0xc83, "hpmcounter3h"},
    {0xb03, "mhpmcounter3"},
    {0xb83, "mhpmcounter3h"},
    {0x323, "mhpmevent3"},
    {0xc04, "hpmcounter4"},
    {0xc84, "hpmcounter4h"},
    {0xb04, "mhpmcounter4"},
    {0xb84, "mhpmcounter4h"},
    {0x324, "mhpmevent4"},
    {0xc05, "hpmcounter5"},
    {0xc85, "hpmcounter5h"},
    {0xb05, "mhpmcounter5"},
    {0xb85, "mhpmcounter5h"},
    {0x325, "mhpmevent5"},
    {0xc06, "hpmcounter6"},
    {0xc86, "hpmcounter6h"},
    {0xb06, "mhpmcounter6"},
    {0xb86, "mhpmcounter6h"},
    {0x326, "mhpmevent6"},
    {0xc07, "hpmcounter7"},
    {0xc87, "hpmcounter7h"},
    {0xb07, "mhpmcounter7"},
    {0xb87, "mhpmcounter7h"},
    {0x327, "mhpmevent7"},
    {0xc08, "hpmcounter8"},
    {0xc88, "hpmcounter8h"},
    {0xb08, "mhpmcounter8"},
    {0xb88, "mhpmcounter8h"},
    {0x328, "mhpmevent8"},
    {0xc09, "hpmcounter9"},
    {0xc89, "hpmcounter9h"},
    {0xb09, "mhpmcounter9"},
    {0xb89, "mhpmcounter9h"},
    {0x329, "mhpmevent9"},
    {0xc0a, "hpmcounter10"},
    {0xc8a, "hpmcounter10h"},
    {0xb0a, "mhpmcounter10"},
    {0xb8a, "mhpmcounter10h"},
    {0x32a, "mhpmevent10"},
    {0xc0b, "hpmcounter11"},
    {0xc8b, "hpmcounter11h"},
    {0xb0b, "mhpmcounter11"},
    {0xb8b, "mhpmcounter11h"},
    {0x32b, "mhpmevent11"},
    {0xc0c, "hpmcounter12"},
    {0xc8c, "hpmcounter12h"},
    {0xb0c, "mhpmcounter12"},
    {0xb8c, "mhpmcounter12h"},
    {0x32c, "mhpmevent12"},
    {0xc0d, "hpmcounter13"},
    {0xc8d, "hpmcounter13h"},
    {0xb0d, "mhpmcounter13"},
    {0xb8d, "mhpmcounter13h"},
    {0x32d, "mhpmevent13"},
    {0xc0e, "hpmcounter14"},
    {0xc8e, "hpmcounter14h"},
    {0xb0e, "mhpmcounter14"},
    {0xb8e, "mhpmcounter14h"},
    {0x32e, "mhpmevent14"},
    {0xc0f, "hpmcounter15"},
    {0xc8f, "hpmcounter15h"},
    {0xb0f, "mhpmcounter15"},
    {0xb8f, "mhpmcounter15h"},
    {0x32f, "mhpmevent15"},
    {0xc10, "hpmcounter16"},
    {0xc90, "hpmcounter16h"},
    {0xb10, "mhpmcounter16"},
    {0xb90, "mhpmcounter16h"},
    {0x330, "mhpmevent16"},
    {0xc11, "hpmcounter17"},
    {0xc91, "hpmcounter17h"},
    {0xb11, "mhpmcounter17"},
    {0xb91, "mhpmcounter17h"},
    {0x331, "mhpmevent17"},
    {0xc12, "hpmcounter18"},
    {0xc92, "hpmcounter18h"},
    {0xb12, "mhpmcounter18"},
    {0xb92, "mhpmcounter18h"},
    {0x332, "mhpmevent18"},
    {0xc13, "hpmcounter19"},
    {0xc93, "hpmcounter19h"},
    {0xb13, "mhpmcounter19"},
    {0xb93, "mhpmcounter19h"},
    {0x333, "mhpmevent19"},
    {0xc14, "hpmcounter20"},
    {0xc94, "hpmcounter20h"},
    {0xb14, "mhpmcounter20"},
    {0xb94, "mhpmcounter20h"},
    {0x334, "mhpmevent20"},
    {0xc15, "hpmcounter21"},
    {0xc95, "hpmcounter21h"},
    {0xb15, "mhpmcounter21"},
    {0xb95, "mhpmcounter21h"},
    {0x335, "mhpmevent21"},
    {0xc16, "hpmcounter22"},
    {0xc96, "hpmcounter22h"},
    {0xb16, "mhpmcounter22"},
    {0xb96, "mhpmcounter22h"},
    {0x336, "mhpmevent22"},
    {0xc17, "hpmcounter23"},
    {0xc97, "hpmcounter23h"},
    {0xb17, "mhpmcounter23"},
    {0xb97, "mhpmcounter23h"},
    {0x337, "mhpmevent23"},
    {0xc18, "hpmcounter24"},
    {0xc98, "hpmcounter24h"},
    {0xb18, "mhpmcounter24"},
    {0xb98, "mhpmcounter24h"},
    {0x338, "mhpmevent24"},
    {0xc19, "hpmcounter25"},
    {0xc99, "hpmcounter25h"},
    {0xb19, "mhpmcounter25"},
    {0xb99, "mhpmcounter25h"},
    {0x339, "mhpmevent25"},
    {0xc1a, "hpmcounter26"},
    {0xc9a, "hpmcounter26h"},
    {0xb1a, "mhpmcounter26"},
    {0xb9a, "mhpmcounter26h"},
    {0x33a, "mhpmevent26"},
    {0xc1b, "hpmcounter27"},
    {0xc9b, "hpmcounter27h"},
    {0xb1b, "mhpmcounter27"},
    {0xb9b, "mhpmcounter27h"},
    {0x33b, "mhpmevent27"},
    {0xc1c, "hpmcounter28"},
    {0xc9c, "hpmcounter28h"},
    {0xb1c, "mhpmcounter28"},
    {0xb9c, "mhpmcounter28h"},
    {0x33c, "mhpmevent28"},
    {0xc1d, "hpmcounter29"},
    {0xc9d, "hpmcounter29h"},
    {0xb1d, "mhpmcounter29"},
    {0xb9d, "mhpmcounter29h"},
    {0x33d, "mhpmevent29"},
    {0xc1e, "hpmcounter30"},
    {0xc9e, "hpmcounter30h"},
    {0xb1e, "mhpmcounter30"},
    {0xb9e, "mhpmcounter30h"},
    {0x33e, "mhpmevent30"},
    {0xc1f, "hpmcounter31"},
    {0xc9f, "hpmcounter31h"},
    {0xb1f, "mhpmcounter31"},
    {0xb9f, "mhpmcounter31h"},
    {0x33f, "mhpmevent31"},
    {0xb80, "mcycleh"},
    {0xb82, "minstreth"},
};

const char *isa_csr_name(unsigned csr) {
  for (size_t i = 0; i < sizeof csrs / sizeof csrs[0]; i++)
    if (csrs[i].num == csr) return csrs[i].name;
  return NULL;
}

int isa_parse_csr(const char *s) {
  for (size_t i = 0; i < sizeof csrs / sizeof csrs[0]; i++)
    if (strcasecmp(csrs[i].name, s) == 0) return (int)csrs[i].num;
  /* the upstream headers' spellings: CSR_TID, CSR_NUMW, ... */
  if (strncasecmp(s, "csr_", 4) == 0) return isa_parse_csr(s + 4);
  return -1;
}

static const char *const rms[8] = {"rne", "rtz", "rdn", "rup", "rmm", NULL, NULL, "dyn"};
const char *isa_rm_name(unsigned rm) { return rm < 8 ? rms[rm] : NULL; }
int isa_parse_rm(const char *s) {
  for (int i = 0; i < 8; i++)
    if (rms[i] && strcmp(rms[i], s) == 0) return i;
  return -1;
}
