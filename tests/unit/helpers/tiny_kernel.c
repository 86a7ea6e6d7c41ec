#include "tiny_kernel.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include <elf.h>

#include "vt_elf.h"

uint32_t tiny_enc(isa_id id, int rd, int rs1, int rs2, int64_t imm) {
  isa_opnd ops[ISA_MAX_OPNDS];
  int64_t v[ISA_MAX_OPNDS];
  int n = isa_operands(id, ops);
  for (int i = 0; i < n; i++) {
    switch (ops[i].kind) {
    case OPK_RD: v[i] = rd; break;
    case OPK_RS1: v[i] = rs1; break;
    case OPK_RS2: v[i] = rs2; break;
    case OPK_VM: v[i] = 1; break;
    default: v[i] = imm; break;
    }
  }
  uint32_t w, prefix;
  char err[128];
  if (isa_encode(id, v, 0, &w, &prefix, err, sizeof err)) fail_msg("isa_encode: %s", err);
  assert_int_equal(prefix, 0);
  return w;
}

void tiny_write_elf(const char *path, const char *name, const uint32_t *code, size_t n) {
  vt_elf_wsec sec = {".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x80000000u, 4,
                     (const uint8_t *)code, n * 4};
  vt_elf_wsym sym = {name, 0x80000000u, (uint32_t)(n * 4), STT_FUNC, STB_GLOBAL, 0};
  vt_elf_wimage img = {1, 0x80000000u, &sec, 1, &sym, 1, NULL, 0};
  vt_error e;
  if (vt_elf_write(path, &img, &e)) fail_msg("vt_elf_write: %s", e.msg);
}

void tiny_write_increment(const char *path) {
  uint32_t code[] = {
      tiny_enc(ISA_csrrs, 5, 0, 0, CSR_KNL),  /* x5 = metadata block */
      tiny_enc(ISA_lw, 6, 5, 0, 4),           /* x6 = argument buffer */
      tiny_enc(ISA_lw, 7, 6, 0, 0),           /* x7 = arg 0 (buffer) */
      tiny_enc(ISA_lw, 28, 6, 0, 4),          /* x28 = arg 1 (scalar) */
      tiny_enc(ISA_addi, 28, 28, 0, 1),
      tiny_enc(ISA_sw, 0, 7, 28, 0),
      tiny_enc(ISA_endprg, 0, 0, 0, 0),
  };
  assert_int_equal(code[0], 0x803022f3u); /* as in the corpus logs */
  assert_int_equal(code[6], 0x0000400bu);
  tiny_write_elf(path, "tiny", code, sizeof code / sizeof code[0]);
}
