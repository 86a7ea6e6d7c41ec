#include "vt_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int vt_fail(vt_error *e, vt_err_kind kind, const char *fmt, ...) {
  if (!e) return -1;
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->kernel = e->wg = e->warp = e->lane = -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(e->msg, sizeof e->msg, fmt, ap);
  va_end(ap);
  return -1;
}

void vt_err_ctx(vt_error *e, int kernel, int wg, int warp, int lane, uint32_t pc, uint32_t insn) {
  if (!e) return;
  e->has_ctx = 1;
  e->kernel = kernel;
  e->wg = wg;
  e->warp = warp;
  e->lane = lane;
  e->pc = pc;
  e->insn = insn;
}

void vt_err_addr(vt_error *e, uint32_t addr) {
  if (!e) return;
  e->has_addr = 1;
  e->addr = addr;
}

const char *vt_err_kind_name(vt_err_kind k) {
  static const char *const names[] = {
      "ok",           "usage error",     "I/O error",       "format error",
      "assembly error", "config error",  "out of memory",   "illegal instruction",
      "unmapped access", "misaligned access", "SIMT stack error", "barrier deadlock",
      "step limit",   "mismatch",        "internal error"};
  return (unsigned)k < sizeof names / sizeof names[0] ? names[k] : "error";
}

int vt_err_format(const vt_error *e, char *buf, size_t len) {
  /* messages quote user input (file lines, names): control characters in
   * it are shown as \xNN, so the message stays one line and cannot drive
   * the terminal (escape sequences) */
  char msg[sizeof e->msg * 4];
  size_t k = 0;
  for (const unsigned char *p = (const unsigned char *)e->msg; *p && p < (const unsigned char *)e->msg + sizeof e->msg;
       p++) {
    if (*p < 0x20 || *p == 0x7f) k += (size_t)snprintf(msg + k, sizeof msg - k, "\\x%02x", *p);
    else msg[k++] = (char)*p;
  }
  msg[k] = 0;
  int n = snprintf(buf, len, "%s: %s", vt_err_kind_name(e->kind), msg);
  if (n < 0 || (size_t)n >= len) return n;
  if (e->has_ctx) {
    int m = snprintf(buf + n, len - (size_t)n, " [");
    n += m;
    if (e->kernel >= 0) n += snprintf(buf + n, len - (size_t)n, "kernel %d ", e->kernel);
    if (e->wg >= 0) n += snprintf(buf + n, len - (size_t)n, "wg %d ", e->wg);
    if (e->warp >= 0) n += snprintf(buf + n, len - (size_t)n, "warp %d ", e->warp);
    if (e->lane >= 0) n += snprintf(buf + n, len - (size_t)n, "lane %d ", e->lane);
    if ((size_t)n < len)
      n += snprintf(buf + n, len - (size_t)n, "pc 0x%08x insn 0x%08x", e->pc, e->insn);
    if (e->has_addr && (size_t)n < len) n += snprintf(buf + n, len - (size_t)n, " addr 0x%08x", e->addr);
    if ((size_t)n < len) n += snprintf(buf + n, len - (size_t)n, "]");
  } else if (e->has_addr) {
    n += snprintf(buf + n, len - (size_t)n, " [addr 0x%08x]", e->addr);
  }
  return n;
}

int vt_err_exit_code(vt_err_kind k) {
  switch (k) {
  case VT_OK: return 0;
  case VT_ERR_MISMATCH: return 1;
  case VT_ERR_USAGE: return 2;
  case VT_ERR_ILLEGAL: case VT_ERR_UNMAPPED: case VT_ERR_MISALIGNED: case VT_ERR_SIMT:
  case VT_ERR_DEADLOCK: case VT_ERR_STEP_LIMIT: return 3;
  default: return 4;
  }
}

const char *vt_strerror(int errnum, char *buf, size_t len) {
  if (!len) return "";
  /* the XSI strerror_r (no _GNU_SOURCE); for an unknown number it fails
   * but may still have written "Unknown error N" */
  buf[0] = 0;
  if (strerror_r(errnum, buf, len) && !buf[0]) snprintf(buf, len, "error %d", errnum);
  return buf;
}
