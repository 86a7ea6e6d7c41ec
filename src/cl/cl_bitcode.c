/* The binary of a compiled object or a library: LLVM bitcode inside LLVM's
 * bitcode wrapper (magic 0x0B17C0DE, version, offset, size, cputype: five
 * little-endian words that LLVM's readers skip up to `offset`), with our
 * tag between the wrapper and the bitcode naming which of the two it is.
 * Bitcode alone cannot tell them apart, and CL_PROGRAM_BINARY_TYPE must
 * survive CL_PROGRAM_BINARIES -> clCreateProgramWithBinary (the CTS's
 * program_binary_type); LLVM tools still read the file. */
#include <stdlib.h>
#include <string.h>

#include "cl_api.h"

enum { WRAP = 20, TAG = 8, HEAD = WRAP + TAG };
static const char TAG_OBJ[TAG] = "cy-obj", TAG_LIB[TAG] = "cy-lib";

static int is_raw(const uint8_t *b, size_t n) { return n >= 4 && b[0] == 'B' && b[1] == 'C' && b[2] == 0xc0 && b[3] == 0xde; }

static uint32_t rd32(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void wr32(uint8_t *p, uint32_t v) {
  for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

int cy_bitcode_wrap(uint8_t **bc, size_t *n, cl_program_binary_type type) {
  if (*n > 0xffffffffu - HEAD) return -1;
  uint8_t *w = malloc(HEAD + *n);
  if (!w) return -1;
  wr32(w, 0x0b17c0de);
  wr32(w + 4, 0);
  wr32(w + 8, HEAD);
  wr32(w + 12, (uint32_t)*n);
  wr32(w + 16, 0);
  memcpy(w + WRAP, type == CL_PROGRAM_BINARY_TYPE_LIBRARY ? TAG_LIB : TAG_OBJ, TAG);
  memcpy(w + HEAD, *bc, *n);
  free(*bc);
  *bc = w;
  *n += HEAD;
  return 0;
}

cl_program_binary_type cy_bitcode_type(const uint8_t *b, size_t n, const uint8_t **bc, size_t *bcn) {
  cl_program_binary_type t = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT; /* plain bitcode: an object */
  if (n >= WRAP && rd32(b) == 0x0b17c0de) {
    uint32_t off = rd32(b + 8), size = rd32(b + 12);
    if (off < WRAP || off > n || size > n - off) return CL_PROGRAM_BINARY_TYPE_NONE;
    if (off == HEAD && !memcmp(b + WRAP, TAG_LIB, TAG)) t = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    b += off, n = size;
  }
  if (!is_raw(b, n)) return CL_PROGRAM_BINARY_TYPE_NONE;
  if (bc) *bc = b, *bcn = n;
  return t;
}
