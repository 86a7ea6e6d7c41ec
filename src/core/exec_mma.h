/* Shared by the MMA executors (exec_mma.c: the 32-bit MMA and MMA64's
 * warp form; exec_mma64_ext.c: MMA64's sparse and warp-group forms). */
#ifndef VT_EXEC_MMA_H
#define VT_EXEC_MMA_H

#include "exec_ext.h"
#include "fp32.h"

/* element types; the 8-bit float formats (FP8, and FP6/FP4 in the low bits
 * of an 8-bit container, the rest ignored) come after the 16-bit ones */
enum { T_INT, T_BIN, T_F32, T_F16, T_BF16, T_E4M3, T_E5M2, T_E3M2, T_E2M3, T_E2M1, T_E3M0 };

typedef struct {
  unsigned m, n, k;
  unsigned type, bits; /* A/B element type and width */
  unsigned cbits;      /* C/D element width: 32, or 16 for FP16 */
  unsigned fp8int;     /* FP8 A/B into INT32 C/D (the 32-bit MMA) */
} mma_shape;


/* the raw bits of element idx of a packed register group */
uint32_t mma_raw(const vt_warp *w, unsigned base, uint32_t nt, unsigned idx, unsigned bits);
/* a signed integer element of the given width */
int32_t mma_ival(uint32_t r, unsigned bits);
/* a float element of a float type, exactly */
float mma_fval(uint32_t r, unsigned type);
uint32_t mma_f16_to_f32(uint32_t h);
/* binary32 -> binary16 in the FE_* rounding mode */
uint32_t mma_f32_to_f16_mode(uint32_t f, int fmode);
/* MMA64's RD field as an FE_* mode (float C/D) */
int mma64_fmode(unsigned rd);

#endif
