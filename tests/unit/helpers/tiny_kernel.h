/* Tiny kernel ELFs for the driver-API tests, built from isa_encode words
 * with the project's ELF writer (no assembler, no start-up code). */
#ifndef VT_TEST_TINY_KERNEL_H
#define VT_TEST_TINY_KERNEL_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

/* The word for `id`, operands taken by kind: rd, rs1, rs2, vm = 1, the rest imm. */
uint32_t tiny_enc(isa_id id, int rd, int rs1, int rs2, int64_t imm);
/* Writes an executable with `code` at 0x80000000 and a global function
 * symbol `name` there; fails the current test on error. */
void tiny_write_elf(const char *path, const char *name, const uint32_t *code, size_t n);
/* The kernel "tiny": *(uint32_t *)arg[0] = arg[1] + 1, then endprg. */
void tiny_write_increment(const char *path);

#endif
