/* Kernel arguments passed by value that are not one scalar: vectors
 * (int4, float3, ...) and structs (clang's spir target passes them as a
 * private pointer with the byval attribute). The argument block's layout
 * is the platform's (docs/opencl.md §5.1): each by-value argument at a
 * multiple of next_pow2(max(size, 4)), so a 3-element vector, 16 bytes in
 * LLVM's layout, sits like a 4-element one. */
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

LLVMTypeRef cc_byval_type(LLVMValueRef fn, unsigned ai) {
  unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef at = LLVMGetEnumAttributeAtIndex(fn, ai + 1, kind);
  return at ? LLVMGetTypeAttributeValue(at) : NULL;
}

uint32_t cc_arg_size(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef a, unsigned ai) {
  LLVMTypeRef t = LLVMTypeOf(a), bv = cc_byval_type(fn, ai);
  if (bv) return (uint32_t)LLVMABISizeOfType(td, bv);
  return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? 4 : (uint32_t)LLVMABISizeOfType(td, t);
}

/* a uniform load of w bits at off(a0) into a new scalar register */
static int load_word(cc_fn *f, int w, uint32_t off) {
  int r = cc_new_vreg(f, CC_S);
  const char *fm = w == 8 ? "lbu %0, %1(a0)" : w == 16 ? "lhu %0, %1(a0)" : "lw %0, %1(a0)";
  return r < 0 || CC_EMIT(f, fm, 1, cc_r(r), cc_imm((int32_t)off)) ? -1 : r;
}

/* a vector: one scalar register per element (the work-items share it) */
static int load_vector(cc_fn *f, LLVMValueRef a, int k, uint32_t off) {
  LLVMTypeRef t = LLVMTypeOf(a);
  int n = cc_vec_words(t), w = n != (int)LLVMGetVectorSize(t) ? 32 : cc_int_width(LLVMGetElementType(t)); /* longs: 2 words */
  if (w != 8 && w != 16 && w != 32) return cc_unsupported(f, NULL, "a kernel argument vector of this element type");
  int *g = calloc((size_t)n + 1, sizeof *g);
  if (!g) return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name);
  for (int i = 0; i < n; i++)
    if ((g[i] = load_word(f, w, off + (uint32_t)(i * w / 8))) < 0) {
      free(g);
      return -1;
    }
  free(f->grp[k]);
  f->grp[k] = g;
  return 0;
}

/* a struct: copied into the work-item's private frame (the callee owns a
 * byval copy and may write it), the argument's value is that address as
 * an alloca's would be (cc_uniformity marks it per work-item) */
static int load_struct(cc_fn *f, int k, uint32_t off, uint32_t size) {
  uint32_t at = (f->pds_bytes + 3) & ~3u;
  if (at + size > CC_PRIVATE_VARS_MAX)
    return cc_unsupported(f, NULL, "more than %d KiB of private variables per work-item", CC_PRIVATE_VARS_MAX / 1024);
  f->pds_bytes = at + ((size + 3) & ~3u);
  int s = cc_tp_plus(f, at), p = cc_new_vreg(f, CC_V);
  if (s < 0 || p < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(p), cc_r(s)))
    return -1;
  for (uint32_t i = 0; i < size;) {
    int w = size - i >= 4 ? 32 : 8, r = load_word(f, w, off + i), v = cc_new_vreg(f, CC_V);
    if (r < 0 || v < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(v), cc_r(r)) ||
        CC_EMIT(f, w == 32 ? "vsw.v %0, %2(%1)" : "vsb.v %0, %2(%1)", 0, cc_r(v), cc_r(p), cc_imm((int32_t)i)))
      return -1;
    i += (uint32_t)w / 8;
  }
  f->vreg[k] = p;
  return 0;
}

int cc_load_value_arg(cc_fn *f, LLVMValueRef a, unsigned ai, uint32_t off) {
  int k = cc_val_num(f, a);
  uint32_t size = cc_arg_size(f->td, f->fn, a, ai);
  if (off + size > 2048) return cc_unsupported(f, NULL, "more than 2 KiB of kernel arguments");
  if (cc_byval_type(f->fn, ai)) return load_struct(f, k, off, size);
  if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMVectorTypeKind) return load_vector(f, a, k, off);
  if (LLVMGetTypeKind(LLVMTypeOf(a)) == LLVMTargetExtTypeKind) { /* clang's spirv.Image, spirv.Pipe, ... */
    char *ty = LLVMPrintTypeToString(LLVMTypeOf(a));
    const char *what = strstr(ty, "spirv.Image")     ? "an image argument"
                       : strstr(ty, "spirv.Pipe")    ? "a pipe argument"
                       : strstr(ty, "spirv.Sampler") ? "a sampler argument"
                       : strstr(ty, "spirv.Queue")   ? "a device-queue argument"
                       : strstr(ty, "spirv.Event")   ? "an event argument"
                                                     : "an argument of an opaque OpenCL type";
    LLVMDisposeMessage(ty);
    /* images and samplers are lowered before (cc_lower_image.c) */
    return cc_unsupported(f, NULL, "%s (argument %u): the device has no pipes, device queues or events", what, ai);
  }
  return cc_unsupported(f, NULL, "a kernel argument of a 64-bit or aggregate type (argument %u)", ai);
}
