/* printf records of compiled kernels (docs/opencl.md §5.5): what a warp
 * drains from the print buffer, formatted on the host with the format
 * strings of the program image. */
#ifndef VT_PRINT_RECORDS_H
#define VT_PRINT_RECORDS_H
#include <stddef.h>
#include <stdint.h>

#include "vt_elf.h"

/* The program writes records (the compiler put a .ventus.printf section in
 * it), rather than plain text. */
int vt_print_has_records(const vt_elf_file *elf);

/* Formats one drain: [R][slot 0]...[slot n-1], each slot R bytes, a slot's
 * first word the format's address (0 = no record), then one word per
 * argument or vector element. The text goes to out in pieces; malformed
 * input gives a one-line notice in the text, never a read out of bounds. */
void vt_print_records(const vt_elf_file *elf, const uint8_t *buf, size_t len,
                      void (*out)(void *user, const char *text, size_t len), void *user);
#endif
