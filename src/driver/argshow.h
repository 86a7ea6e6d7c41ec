/* Looking at kernel arguments after a launch: print the first elements of
 * an argument buffer in its type (`ventus run --show`) and compare a buffer
 * with values from a text file (`ventus run --expect-arg`). */
#ifndef VT_ARGSHOW_H
#define VT_ARGSHOW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "device.h"
#include "ndrange.h"

/* Bytes of one element of TYPE (u8 u16 u32 i32 f32), 0 if unknown. */
int vt_type_size(const char *type);

/* The type argument `a` is shown in: `override` when given (must be a
 * known type), else its declared type, else (buf:zero, buf:file) u32 when
 * the size is a multiple of 4, u8 otherwise. NULL if override is unknown. */
const char *vt_karg_view_type(const vt_karg *a, const char *override);

/* The shortest "%.Ng" form (N = 1..9) that reads back as the same float;
 * "nan", "-nan", "inf", "-inf" for the special values. */
void vt_format_f32(uint32_t bits, char *buf, size_t len);

/* One line "argI TYPE[N]: v0 v1 ... v(count-1) ..." for a buffer (the
 * trailing "..." when count < N; count 0 = all), "argI TYPE: v" for a
 * scalar. */
int vt_karg_show(vt_device *d, const vt_karg *a, size_t index, uint32_t count, const char *type,
                 FILE *f, vt_error *e);

/* Compares the first n elements of buffer `a` (in `type`) with the n
 * whitespace-separated values of the text file `path` ('#' starts a
 * comment; integers in C notation, floats as strtof reads them, a NaN
 * matches any NaN, otherwise floats must be equal bit for bit). n must be
 * 1..element count. Returns 0 and *n, or -1: VT_ERR_MISMATCH naming the
 * first differing elements, or an input error. */
int vt_karg_expect(vt_device *d, const vt_karg *a, size_t index, const char *type, const char *path,
                   size_t *n, vt_error *e);

#endif
