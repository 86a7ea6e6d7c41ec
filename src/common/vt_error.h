/* The one error type: every layer fills it and returns -1 upwards; only the
 * CLI prints it (one line) and picks the exit code. */
#ifndef VT_ERROR_H
#define VT_ERROR_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  VT_OK = 0,
  VT_ERR_USAGE,        /* bad command line / API argument */
  VT_ERR_IO,           /* file cannot be opened/read/written */
  VT_ERR_FORMAT,       /* malformed input file (ELF, .metadata, .data, log, config) */
  VT_ERR_ASM,          /* assembly error */
  VT_ERR_CONFIG,       /* bad configuration value */
  VT_ERR_NOMEM,
  VT_ERR_ILLEGAL,      /* device: illegal instruction */
  VT_ERR_UNMAPPED,     /* device: access outside any allocation */
  VT_ERR_MISALIGNED,   /* device: misaligned access */
  VT_ERR_SIMT,         /* device: SIMT stack overflow / bad join */
  VT_ERR_DEADLOCK,     /* device: barrier that can never complete */
  VT_ERR_STEP_LIMIT,   /* device: instruction/step limit reached */
  VT_ERR_MISMATCH,     /* a comparison (--expect, trace-diff) found a difference */
  VT_ERR_INTERNAL,
} vt_err_kind;

typedef struct {
  vt_err_kind kind;
  char msg[384];
  /* device context, valid when has_ctx */
  int has_ctx;
  int32_t kernel, wg, warp, lane; /* -1 = not applicable */
  uint32_t pc, insn, addr;
  int has_addr;
} vt_error;

/* Sets kind and message; clears the context. Returns -1 for `return vt_fail(...)`. */
int vt_fail(vt_error *e, vt_err_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Adds device context (kernel, wg, warp, lane, pc, insn); lane -1 if none. */
void vt_err_ctx(vt_error *e, int kernel, int wg, int warp, int lane, uint32_t pc, uint32_t insn);
void vt_err_addr(vt_error *e, uint32_t addr);
/* One line: "<kind>: <msg> [kernel K wg W warp V lane L pc 0x.. insn 0x.. addr 0x..]";
 * control characters in msg (quoted input) are written as \xNN. */
int vt_err_format(const vt_error *e, char *buf, size_t len);
const char *vt_err_kind_name(vt_err_kind k);
/* Conventional exit status for an error kind (1 mismatch, 2 usage, 3 device fault, 4 input). */
int vt_err_exit_code(vt_err_kind k);
/* strerror(errnum) written into buf (returned): strerror itself is not
 * thread-safe (it may format into a static buffer), and devices may be
 * driven from several host threads at once. */
const char *vt_strerror(int errnum, char *buf, size_t len);
/* vt_strerror into a buffer that lives until the end of the enclosing
 * block: for use inside a vt_fail argument list */
#define VT_STRERROR(errnum) vt_strerror((errnum), (char[128]){0}, 128)

#endif
