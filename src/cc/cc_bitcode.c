/* Reading a bitcode library from a file (libclc) and linking it without
 * handing LLVM anything it could end the process on: the file is read by us, bounded
 * (a regular file of at most CC_BITCODE_MAX bytes, so /dev/zero or a pipe
 * is refused at once), must start with the bitcode magic, and is parsed
 * with a diagnostic handler of ours on the context, so that LLVM's default
 * one (which prints a line and calls exit(1)) never sees a parse error;
 * the same when the linker reads the bodies it takes. */
#include <errno.h>
#include <fcntl.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Linker.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc_internal.h"

/* Debian's nvptx--.bc is 8 MB; eight times that is room for any build */
#define CC_BITCODE_MAX (64u << 20)

typedef struct {
  char msg[200];
} parse_sink;

static void on_diag(LLVMDiagnosticInfoRef di, void *arg) {
  parse_sink *d = arg;
  if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || d->msg[0]) return;
  char *s = LLVMGetDiagInfoDescription(di);
  snprintf(d->msg, sizeof d->msg, "%s", s ? s : "unknown error");
  LLVMDisposeMessage(s);
}

/* the whole file into *buf (malloc'd), or a reason in why */
static int slurp(const char *path, char **buf, size_t *len, char *why, size_t wl) {
  *buf = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    snprintf(why, wl, "%s", VT_STRERROR(errno));
    return -1;
  }
  struct stat st;
  int rc = -1;
  if (fstat(fd, &st)) snprintf(why, wl, "%s", VT_STRERROR(errno));
  else if (!S_ISREG(st.st_mode)) snprintf(why, wl, "not a regular file");
  else if ((uint64_t)st.st_size > CC_BITCODE_MAX) snprintf(why, wl, "larger than %u MiB", CC_BITCODE_MAX >> 20);
  else if (!(*buf = malloc((size_t)st.st_size + 1))) snprintf(why, wl, "out of memory");
  else {
    size_t n = 0, want = (size_t)st.st_size;
    while (n < want) {
      ssize_t r = read(fd, *buf + n, want - n);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) break;
      n += (size_t)r;
    }
    if (n == want) {
      *len = n;
      rc = 0;
    } else {
      snprintf(why, wl, "read error");
    }
  }
  close(fd);
  if (rc) {
    free(*buf);
    *buf = NULL;
  }
  return rc;
}

/* raw bitcode ('B' 'C' 0xC0 0xDE) or its wrapper (0x0B17C0DE, little-endian) */
static int has_magic(const unsigned char *p, size_t n) {
  static const unsigned char raw[4] = {'B', 'C', 0xC0, 0xDE}, wrap[4] = {0xDE, 0xC0, 0x17, 0x0B};
  return n >= 4 && (!memcmp(p, raw, 4) || !memcmp(p, wrap, 4));
}

/* Function bodies are read when first used (by the linker,
 * cc_link_bitcode_library), not all at once. */
int cc_read_bitcode_library(LLVMContextRef ctx, const char *path, LLVMModuleRef *out, vt_error *e) {
  *out = NULL;
  char *buf = NULL, why[200] = "";
  size_t len = 0;
  if (slurp(path, &buf, &len, why, sizeof why) == 0 && !has_magic((unsigned char *)buf, len))
    snprintf(why, sizeof why, "no bitcode header");
  if (!why[0]) {
    LLVMDiagnosticHandler old = LLVMContextGetDiagnosticHandler(ctx);
    void *old_arg = LLVMContextGetDiagnosticContext(ctx);
    parse_sink d = {""};
    LLVMContextSetDiagnosticHandler(ctx, on_diag, &d);
    /* the module keeps its buffer (a copy: buf goes below) */
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(buf, len, path);
    int bad = !mb || LLVMGetBitcodeModuleInContext2(ctx, mb, out);
    if (bad) {
      *out = NULL;
      snprintf(why, sizeof why, "LLVM: %.180s", d.msg[0] ? d.msg : "cannot parse it");
    }
    if (mb && bad) LLVMDisposeMemoryBuffer(mb); /* the module owns it once read */
    LLVMContextSetDiagnosticHandler(ctx, old, old_arg);
  }
  free(buf);
  if (*out) return 0;
  return vt_fail(e, VT_ERR_FORMAT, "%s: not a readable LLVM bitcode library (%s)", path, why);
}

int cc_link_bitcode_library(LLVMModuleRef u, LLVMModuleRef lib, const char *path, vt_error *e) {
  LLVMContextRef ctx = LLVMGetModuleContext(u);
  LLVMDiagnosticHandler old = LLVMContextGetDiagnosticHandler(ctx);
  void *old_arg = LLVMContextGetDiagnosticContext(ctx);
  parse_sink d = {""};
  /* a body read only now may be malformed: LLVM's own handler would exit */
  LLVMContextSetDiagnosticHandler(ctx, on_diag, &d);
  int bad = LLVMLinkModules2(u, lib); /* lib is gone either way */
  LLVMContextSetDiagnosticHandler(ctx, old, old_arg);
  if (!bad) return 0;
  return vt_fail(e, VT_ERR_FORMAT, "%s: linking the library failed (LLVM: %.180s)", path,
                 d.msg[0] ? d.msg : "no reason given");
}
