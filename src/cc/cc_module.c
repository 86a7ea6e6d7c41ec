/* The compiler driver: bitcode from clang, LLVM's passes, then every
 * kernel through the back end, with the module's data and the metadata
 * sections the OpenCL platform reads (docs/opencl.md §5.1, §5.2). */
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "asm.h"
#include "isa.h"
#include "cc_budget.h"
#include "cc.h"
#include "cc_front.h"
#include "cc_internal.h"

extern const char cc_start_s[];

/* inlining first (except noinline functions), then the shape the back
 * end expects: SSA registers, vectors split into their elements (the ISA's
 * vectors are the work-items), no switch, one return, no critical edges.
 * lower-switch comes after the last instcombine: instcombine over the
 * compare tree of a 10,000-case switch took seconds, over the switch
 * itself it takes milliseconds */
static const char *const pipeline =
    "always-inline,function(sroa,mem2reg,instcombine<no-verify-fixpoint>,scalarizer,sroa,instcombine<no-verify-fixpoint>,simplifycfg,"
    "lower-expect,fix-irreducible,instcombine<no-verify-fixpoint>,lower-switch,mergereturn,break-crit-edges)";
/* the same without simplifycfg, for a module with a function of more than
 * CC_BIG_FUNCTION blocks: simplifycfg is a clean-up the back end does not
 * need (the suite passes without it), and it is quadratic in the
 * predecessors of a block (clang's 10,000 empty blocks before a switch's
 * exit: seconds, growing fourfold with twice the cases) */
static const char *const pipeline_big =
    "always-inline,function(sroa,mem2reg,instcombine<no-verify-fixpoint>,scalarizer,sroa,instcombine<no-verify-fixpoint>,"
    "lower-expect,fix-irreducible,instcombine<no-verify-fixpoint>,lower-switch,mergereturn,break-crit-edges)";
#define CC_BIG_FUNCTION 2048

static const char *pipeline_for(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn) > CC_BIG_FUNCTION) return pipeline_big;
  return pipeline;
}

static int is_kernel(LLVMValueRef fn) {
  return LLVMGetFunctionCallConv(fn) == LLVMSPIRKERNELCallConv && LLVMGetFirstBasicBlock(fn);
}

/* device functions are inlined, except those the source marks noinline
 * (without optnone, which clang -O0 puts on everything): those stay calls */
static void force_inline(LLVMContextRef ctx, LLVMModuleRef m) {
  unsigned noinl = LLVMGetEnumAttributeKindForName("noinline", 8),
           optnone = LLVMGetEnumAttributeKindForName("optnone", 7),
           always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMGetFirstBasicBlock(fn)) continue;
    int user_noinline = LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinl) &&
                        !LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone);
    LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, optnone);
    if (user_noinline && !is_kernel(fn)) continue;
    LLVMRemoveEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, noinl);
    if (!is_kernel(fn)) LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, always, 0));
  }
}

/* ---- metadata ---------------------------------------------------------------- */

static LLVMValueRef fn_md(LLVMContextRef ctx, LLVMValueRef fn, const char *kind) {
  unsigned id = LLVMGetMDKindIDInContext(ctx, kind, (unsigned)strlen(kind));
  size_t n;
  LLVMValueMetadataEntry *ents = LLVMGlobalCopyAllMetadata(fn, &n);
  LLVMValueRef v = NULL;
  for (size_t i = 0; i < n; i++)
    if (LLVMValueMetadataEntriesGetKind(ents, (unsigned)i) == id)
      v = LLVMMetadataAsValue(ctx, LLVMValueMetadataEntriesGetMetadata(ents, (unsigned)i));
  if (ents) LLVMDisposeValueMetadataEntries(ents);
  return v;
}

/* operand i of a metadata node: a string into buf, or a number */
static const char *md_str(LLVMValueRef node, unsigned i, char *buf, size_t len) {
  buf[0] = 0;
  if (!node || i >= LLVMGetMDNodeNumOperands(node)) return buf;
  LLVMValueRef ops[128];
  if (LLVMGetMDNodeNumOperands(node) > 128) return buf;
  LLVMGetMDNodeOperands(node, ops);
  unsigned l = 0;
  const char *s = ops[i] ? LLVMGetMDString(ops[i], &l) : NULL;
  if (s) snprintf(buf, len, "%.*s", (int)(l < len - 1 ? l : len - 1), s);
  else if (ops[i] && LLVMIsAConstantInt(ops[i])) snprintf(buf, len, "%llu", LLVMConstIntGetZExtValue(ops[i]));
  return buf;
}

/* s as an .asciz operand, at most max bytes of it */
static void quoted(cc_text *t, const char *s, int max) {
  cc_puts(t, "\"");
  for (int i = 0; s[i] && i < max; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c == '"' || c == '\\' || c < 32 || c > 126) cc_printf(t, "\\%03o", c);
    else cc_printf(t, "%c", c);
  }
  cc_puts(t, "\"");
}

/* the OpenCL C name of a vec_type_hint's type (signedness: the hint's
 * second operand, 1 for a signed integer type) */
static void hint_type(LLVMTypeRef ty, int is_signed, char *buf, size_t len) {
  unsigned n = 0;
  if (LLVMGetTypeKind(ty) == LLVMVectorTypeKind) {
    n = LLVMGetVectorSize(ty);
    ty = LLVMGetElementType(ty);
  }
  const char *base = "float";
  switch (LLVMGetTypeKind(ty)) {
  case LLVMHalfTypeKind: base = "half"; break;
  case LLVMDoubleTypeKind: base = "double"; break;
  case LLVMIntegerTypeKind: {
    static const char *const sgn[] = {"char", "short", "int", "long"}, *const uns[] = {"uchar", "ushort", "uint", "ulong"};
    unsigned w = LLVMGetIntTypeWidth(ty), k = w <= 8 ? 0 : w <= 16 ? 1 : w <= 32 ? 2 : 3;
    base = is_signed ? sgn[k] : uns[k];
    break;
  }
  default: break;
  }
  if (n) snprintf(buf, len, "%s%u", base, n);
  else snprintf(buf, len, "%s", base);
}

/* .ventus.attrs.<kernel> (docs/opencl.md §5.6): the kernel's
 * reqd_work_group_size (0, 0, 0 without one) and its attributes as
 * clGetKernelInfo(CL_KERNEL_ATTRIBUTES) reports them; only for a kernel
 * that has any. */
static void emit_attributes(LLVMContextRef ctx, cc_fn *f, cc_text *t) {
  LLVMValueRef reqd = fn_md(ctx, f->fn, "reqd_work_group_size"), hint = fn_md(ctx, f->fn, "work_group_size_hint"),
               vec = fn_md(ctx, f->fn, "vec_type_hint");
  if (!reqd && !hint && !vec) return;
  char text[200] = "", a[32], b[32], c[32];
  unsigned r[3] = {0, 0, 0};
  if (reqd) {
    for (unsigned i = 0; i < 3; i++) r[i] = (unsigned)strtoul(md_str(reqd, i, a, sizeof a), NULL, 10);
    snprintf(text, sizeof text, "reqd_work_group_size(%u,%u,%u)", r[0], r[1], r[2]);
  }
  if (hint) {
    size_t l = strlen(text);
    snprintf(text + l, sizeof text - l, "%swork_group_size_hint(%s,%s,%s)", l ? " " : "", md_str(hint, 0, a, sizeof a),
             md_str(hint, 1, b, sizeof b), md_str(hint, 2, c, sizeof c));
  }
  if (vec && LLVMGetMDNodeNumOperands(vec) == 2) {
    LLVMValueRef ops[2];
    LLVMGetMDNodeOperands(vec, ops);
    if (ops[0]) {
      hint_type(LLVMTypeOf(ops[0]), ops[1] && LLVMIsAConstantInt(ops[1]) && LLVMConstIntGetZExtValue(ops[1]), a,
                sizeof a);
      size_t l = strlen(text);
      snprintf(text + l, sizeof text - l, "%svec_type_hint(%s)", l ? " " : "", a);
    }
  }
  cc_printf(t, "        .section .ventus.attrs.%s, \"\", @progbits\n        .word   1, %u, %u, %u\n        .asciz  ",
            f->name, r[0], r[1], r[2]);
  quoted(t, text, (int)sizeof text - 1);
  cc_puts(t, "\n        .balign 4\n");
}

static void emit_metadata(LLVMContextRef ctx, LLVMTargetDataRef td, cc_fn *f, cc_text *t) {
  LLVMValueRef as = fn_md(ctx, f->fn, "kernel_arg_addr_space"), ty = fn_md(ctx, f->fn, "kernel_arg_type"),
               tq = fn_md(ctx, f->fn, "kernel_arg_type_qual"), nm = fn_md(ctx, f->fn, "kernel_arg_name"),
               acc = fn_md(ctx, f->fn, "kernel_arg_access_qual");
  unsigned n = LLVMCountParams(f->fn), i = 0;
  cc_printf(t, "\n        .section .ventus.args.%s, \"\", @progbits\n        .word   1, %u\n", f->name, n);
  for (LLVMValueRef a = LLVMGetFirstParam(f->fn); a; a = LLVMGetNextParam(a), i++) {
    char sp[32], type[128], qual[128], name[128], access[32];
    md_str(as, i, sp, sizeof sp);
    md_str(ty, i, type, sizeof type);
    md_str(tq, i, qual, sizeof qual);
    md_str(nm, i, name, sizeof name);
    int space = atoi(sp);
    LLVMTypeRef at = LLVMTypeOf(a);
    int ptr = LLVMGetTypeKind(at) == LLVMPointerTypeKind && !cc_byval_type(f->fn, i);
    if (ptr) space = (int)LLVMGetPointerAddressSpace(at);
    if (!ptr || space > 3) space = 0;
    unsigned size = cc_arg_size(td, f->fn, a, i);
    unsigned q = (strstr(qual, "const") ? 1 : 0) | (strstr(qual, "restrict") ? 2 : 0) | (strstr(qual, "volatile") ? 4 : 0);
    /* an image's access qualifier in bits 3..5 (docs/opencl.md §5.1) */
    md_str(acc, i, access, sizeof access);
    q |= !strcmp(access, "read_only") ? 8 : !strcmp(access, "write_only") ? 16 : !strcmp(access, "read_write") ? 32 : 0;
    if (!*name) snprintf(name, sizeof name, "arg%u", i);
    if (!*type) snprintf(type, sizeof type, "%s", ptr ? "void*" : "uint");
    cc_printf(t, "        .word   %d, %u, %u\n        .asciz  ", space, size, q);
    quoted(t, name, 63);
    cc_puts(t, "\n        .asciz  ");
    quoted(t, type, 63);
    cc_puts(t, "\n        .balign 4\n");
  }
  emit_attributes(ctx, f, t);
  /* resources (runtime.md §3.2): four u16 (VGPR, SGPR, LDS bytes, PDS
   * bytes), or the versioned record (version 3, six u64: VGPRs, SGPRs, LDS
   * static, PDS static, LDS stack peak, PDS stack peak) when the sizes
   * need more than 16 bits (64 KiB of __local data) */
  if (f->lds_bytes <= 0xffff && f->pds_bytes <= 0xffff)
    cc_printf(t, "        .section .ventus.resource.%s, \"\", @progbits\n        .half   %d, %d, %u, %u\n", f->name,
              f->vgprs, f->sgprs, f->lds_bytes, f->pds_bytes);
  else
    cc_printf(t,
              "        .section .ventus.resource.%s, \"\", @progbits\n        .balign 8\n        .word   3, 0, %d, 0, %d, 0, "
              "%u, 0, %u, 0, 0, 0, 0, 0\n",
              f->name, f->vgprs, f->sgprs, f->lds_bytes, f->pds_bytes);
}

/* ---- program-scope data --------------------------------------------------------- */

static int emit_const(cc_fn *f, LLVMTargetDataRef td, LLVMValueRef c, cc_text *t) {
  LLVMTypeRef ty = LLVMTypeOf(c);
  uint64_t size = LLVMABISizeOfType(td, ty);
  if (LLVMIsNull(c) || LLVMIsAUndefValue(c) || LLVMIsAPoisonValue(c)) {
    if (size) cc_printf(t, "        .zero   %llu\n", (unsigned long long)size);
    return 0;
  }
  switch (LLVMGetTypeKind(ty)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(ty);
    unsigned long long v = LLVMConstIntGetZExtValue(c);
    if (w <= 8) cc_printf(t, "        .byte   %llu\n", v & 0xff);
    else if (w <= 16) cc_printf(t, "        .half   %llu\n", v & 0xffff);
    else if (w <= 32) cc_printf(t, "        .word   %llu\n", v & 0xffffffffull);
    else cc_printf(t, "        .word   %llu, %llu\n", v & 0xffffffffull, v >> 32);
    return 0;
  }
  case LLVMFloatTypeKind: {
    LLVMBool lost;
    float x = (float)LLVMConstRealGetDouble(c, &lost);
    uint32_t u;
    memcpy(&u, &x, 4);
    cc_printf(t, "        .word   0x%08x\n", u);
    return 0;
  }
  case LLVMHalfTypeKind: { /* a constant half is exact as a float */
    LLVMBool lost;
    float x = (float)LLVMConstRealGetDouble(c, &lost);
    uint32_t u;
    memcpy(&u, &x, 4);
    cc_printf(t, "        .half   0x%04x\n", cc_half_bits(u));
    return 0;
  }
  case LLVMDoubleTypeKind: { /* its bits, low word first */
    LLVMBool lost;
    double x = LLVMConstRealGetDouble(c, &lost);
    uint64_t u;
    memcpy(&u, &x, 8);
    cc_printf(t, "        .word   0x%08x, 0x%08x\n", (uint32_t)u, (uint32_t)(u >> 32));
    return 0;
  }
  case LLVMArrayTypeKind:
  case LLVMVectorTypeKind: {
    unsigned n = LLVMGetTypeKind(ty) == LLVMArrayTypeKind ? (unsigned)LLVMGetArrayLength2(ty) : LLVMGetVectorSize(ty);
    uint64_t esz = LLVMABISizeOfType(td, LLVMGetElementType(ty)), used = 0;
    for (unsigned i = 0; i < n; i++) {
      LLVMValueRef el = LLVMGetAggregateElement(c, i);
      if (!el || emit_const(f, td, el, t)) return -1;
      used += esz;
    }
    if (size > used) cc_printf(t, "        .zero   %llu\n", (unsigned long long)(size - used));
    return 0;
  }
  case LLVMStructTypeKind: {
    unsigned n = LLVMCountStructElementTypes(ty);
    uint64_t at = 0;
    for (unsigned i = 0; i < n; i++) {
      uint64_t off = LLVMOffsetOfElement(td, ty, i);
      if (off > at) cc_printf(t, "        .zero   %llu\n", (unsigned long long)(off - at));
      LLVMValueRef el = LLVMGetAggregateElement(c, i);
      if (!el || emit_const(f, td, el, t)) return -1;
      at = off + LLVMABISizeOfType(td, LLVMStructGetTypeAtIndex(ty, i));
    }
    if (size > at) cc_printf(t, "        .zero   %llu\n", (unsigned long long)(size - at));
    return 0;
  }
  default: return cc_unsupported(f, NULL, "program-scope data of a type the compiler cannot lay out");
  }
}

static int emit_data(cc_fn *f, LLVMModuleRef m, LLVMTargetDataRef td, cc_map *gsyms, cc_text *t) {
  if (!gsyms->n) return 0;
  cc_puts(t, "\n        .data\n");
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    int k = cc_map_get(gsyms, g);
    if (k < 0) continue;
    LLVMValueRef init = LLVMGetInitializer(g);
    unsigned al = LLVMGetAlignment(g);
    cc_printf(t, "        .balign %u\n.Lcc_g%d:\n", al ? al : 4, k);
    if (!init) {
      cc_printf(t, "        .zero   %llu\n", (unsigned long long)LLVMABISizeOfType(td, LLVMGlobalGetValueType(g)));
      continue;
    }
    if (emit_const(f, td, init, t)) return -1;
  }
  return 0;
}

/* static __local data: one layout for the module, above the warp stacks */
static int layout_local(LLVMModuleRef m, LLVMTargetDataRef td, cc_map *off, uint32_t *total) {
  uint32_t at = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 3) continue;
    uint32_t al = LLVMGetAlignment(g);
    if (al < 4) al = 4;
    at = (at + al - 1) & ~(al - 1);
    if (cc_map_put(off, g, (int)at)) return -1;
    uint64_t end = at + LLVMABISizeOfType(td, LLVMGlobalGetValueType(g));
    at = end > CC_LOCAL_MAX ? CC_LOCAL_MAX + 1 : (uint32_t)end; /* too much: refused per kernel */
  }
  *total = at;
  return 0;
}

typedef struct {
  LLVMModuleRef m;
  LLVMTargetDataRef td;
  cc_map *lds;
  uint32_t lds_bytes;
  cc_map *gsyms;
  cc_callees callees;
  cc_text *t;
  vt_error *e;
  const cc_budget *b;
} module_ctx;

static int compile_fn(module_ctx *mc, LLVMValueRef fn, int is_func);

/* the device functions fn calls, compiled first (their frames size fn's) */
static int compile_callees(module_ctx *mc, LLVMValueRef fn) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsACallInst(in)) continue;
      LLVMValueRef c = LLVMGetCalledValue(in);
      if (!c || !LLVMIsAFunction(c) || !LLVMGetFirstBasicBlock(c) || is_kernel(c)) continue;
      int idx = -1;
      for (int i = 0; i < mc->callees.n; i++)
        if (mc->callees.v[i].fn == c) idx = i;
      if (idx >= 0 && mc->callees.v[idx].state == 2) continue;
      if (idx >= 0) {
        size_t len;
        unsigned flen = 0, line = LLVMGetDebugLocLine(in);
        const char *name = LLVMGetValueName2(c, &len), *file = line ? LLVMGetDebugLocFilename(in, &flen) : NULL;
        return vt_fail(mc->e, VT_ERR_ASM, "%.*s%s%.0u%s error: the function '%.*s' calls itself, directly or through others "
                       "(recursion is not supported)", (int)flen, file ? file : "", file ? ":" : "", line, file ? ":" : "",
                       (int)len, name);
      }
      cc_callee *p = realloc(mc->callees.v, sizeof *p * (size_t)(mc->callees.n + 1));
      if (!p) return vt_fail(mc->e, VT_ERR_NOMEM, "out of memory while compiling");
      mc->callees.v = p;
      p[mc->callees.n++] = (cc_callee){.fn = c, .state = 1};
      if (compile_fn(mc, c, 1)) return -1;
    }
  return 0;
}

/* Adds fn and every defined function it calls, directly or through others,
 * to set (n of cap; -1 when more). */
static int reach(LLVMValueRef fn, LLVMValueRef *set, int *n, int cap) {
  for (int i = 0; i < *n; i++)
    if (set[i] == fn) return 0;
  if (*n == cap) return -1;
  set[(*n)++] = fn;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
      if (!LLVMIsACallInst(in)) continue;
      LLVMValueRef c = LLVMGetCalledValue(in);
      if (c && LLVMIsAFunction(c) && LLVMGetFirstBasicBlock(c) && reach(c, set, n, cap)) return -1;
    }
  return 0;
}

/* The extents of a kernel's code and of every function it calls (the code
 * its launches can run beside the start-up code): a driver scans only these
 * for what keeps a launch on one host thread (docs/opencl.md §5.8). None
 * when the kernel calls more than 256 functions. */
static void emit_code_extent(LLVMValueRef kernel, const char *name, cc_text *t) {
  enum { CAP = 256 };
  LLVMValueRef set[CAP];
  int n = 0;
  if (reach(kernel, set, &n, CAP)) return;
  cc_printf(t, "        .section .ventus.code.%s, \"\", @progbits\n        .word   1\n", name);
  for (int i = 0; i < n; i++) {
    size_t len;
    const char *fn = LLVMGetValueName2(set[i], &len);
    cc_printf(t, "        .word   %.*s, .Lcc_end_%.*s\n", (int)len, fn, (int)len, fn);
  }
}

static int compile_fn(module_ctx *mc, LLVMValueRef fn, int is_func) {
  size_t len;
  cc_fn f;
  const char *fname = LLVMGetValueName2(fn, &len);
  if (!is_func && len > CC_KERNEL_NAME_MAX) /* the OpenCL platform's bound too */
    return vt_fail(mc->e, VT_ERR_ASM, "kernel %.40s...: a name of %zu characters (at most %d)", fname, len,
                   CC_KERNEL_NAME_MAX);
  /* the resource record says how much __local memory a work-group needs;
   * no device configuration holds more than the platform reads from it */
  if (!is_func && mc->lds_bytes > CC_LOCAL_MAX)
    return vt_fail(mc->e, VT_ERR_ASM, "kernel %s: more than %u MiB of __local data (the most any device holds)", fname,
                   CC_LOCAL_MAX >> 20);
  if (compile_callees(mc, fn)) return -1;
  /* what the back end takes is bounded in size, and stops at the deadline */
  char what[CC_KERNEL_NAME_MAX + 32];
  snprintf(what, sizeof what, "%s %s", is_func ? "function" : "kernel", fname);
  if (cc_budget_check(mc->b, what, mc->e) || cc_budget_size(mc->b, fn, what, mc->e)) return -1;
  memset(&f, 0, sizeof f);
  f.mod = mc->m;
  f.td = mc->td;
  f.fn = fn;
  f.name = LLVMGetValueName2(fn, &len);
  f.e = mc->e;
  f.lds_off = mc->lds;
  f.lds_bytes = mc->lds_bytes;
  f.gsyms = mc->gsyms;
  f.is_func = is_func;
  f.callees = &mc->callees;
  f.budget = mc->b;
  int rc = cc_build_cfg(&f) || cc_uniformity(&f) || cc_budget_check(mc->b, what, mc->e) || cc_select(&f) ||
                   cc_fixed_operands(&f) || cc_hoist_constants(&f) || cc_budget_check(mc->b, what, mc->e) || cc_regalloc(&f) ||
                   cc_budget_check(mc->b, what, mc->e) || cc_peephole(&f) || cc_rpc_once(&f) || cc_frames(&f) ||
                   cc_emit_kernel(&f, mc->t)
               ? -1
               : 0;
  /* the kernel's resources cover its deepest chain of calls */
  if (f.callee_vgprs > f.vgprs) f.vgprs = f.callee_vgprs;
  if (f.callee_sgprs > f.sgprs) f.sgprs = f.callee_sgprs;
  if (!rc && is_func) {
    for (int i = 0; i < mc->callees.n; i++)
      if (mc->callees.v[i].fn == fn)
        mc->callees.v[i] = (cc_callee){fn, 2, f.sp_frame + f.callee_sp, f.tp_frame + f.callee_tp, f.vgprs, f.sgprs};
  } else if (!rc) {
    f.pds_bytes = f.tp_frame + f.callee_tp;
    emit_metadata(LLVMGetModuleContext(mc->m), mc->td, &f, mc->t);
    emit_code_extent(fn, f.name, mc->t);
  }
  /* the host reads this program's print buffer as records (docs/opencl.md §5.5) */
  if (!rc && f.uses_printf) cc_puts(mc->t, "        .section .ventus.printf, \"\", @progbits\n        .word   1\n");
  cc_fn_free(&f);
  return rc;
}

static int compile_by(const char *const *bcs, const size_t *lens, int n, const cc_options *o, const char *origin,
                      const cc_budget *b, int raw, char **asm_out, vt_error *e);

int cc_compile(const char *path, const char *text, const cc_options *o, char **asm_out, char **log, vt_error *e) {
  char *bc = NULL;
  size_t bclen = 0;
  *asm_out = NULL;
  cc_budget b; /* one budget for the front end and the back end */
  cc_budget_start(&b, o);
  /* at -O2 and -O3 clang's optimiser runs here, where it is bounded (cc_optimise.c) */
  int raw = cc_front_raw(o->opt);
  if (cc_run_clang_by(path, text, o, &b, raw, &bc, &bclen, log, e)) return -1;
  const char *bcs[1] = {bc};
  int rc = compile_by(bcs, &bclen, 1, o, text ? CC_SOURCE_NAME : path, &b, raw, asm_out, e);
  free(bc);
  return rc;
}

/* raw: the bitcode is clang's unoptimised IR (cc_optimise first) */
static int compile_bitcode(const char *const *bcs, const size_t *lens, int n, const cc_options *o, const char *origin,
                           const cc_budget *b, int raw, char **asm_out, vt_error *e) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  LLVMTargetDataRef td = NULL;
  cc_map lds = {0}, gsyms = {0};
  cc_text t = {0};
  int rc = -1;
  if (cc_read_linked(ctx, bcs, lens, n, &m, e) || cc_lower_images(m, e)) goto done;
  if (raw && (cc_optimise(m, o->opt, e) || cc_budget_check(b, origin, e))) goto done;
  cc_scalarize_builtins(m);
  cc_lower_vstore_half(m, o->isa);
  cc_map_f64_builtins(m);
  cc_map_f16_builtins(m);
  cc_map_fixed_builtins(m, o->isa);
  if (cc_link_subnormal(m, e) || cc_link_libclc(m, e)) goto done;
  if (o->isa != 2025) cc_lower_half(m); /* revision 2025 converts at SEW 16 (cc_lower_f16.c) */
  cc_printf_lower(m);
  cc_lower_async(m);
  force_inline(ctx, m);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef err = LLVMRunPasses(m, pipeline_for(m), NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (err) {
    char *msg = LLVMGetErrorMessage(err);
    vt_fail(e, VT_ERR_INTERNAL, "LLVM passes failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    goto done;
  }
  if (cc_budget_check(b, origin, e)) goto done; /* LLVM's passes cannot be stopped: checked after them */
  if (cc_split_address_offsets(m, e)) goto done;
  cc_lower_fpclass(m);
  cc_scalarize_intrinsics(m);
  cc_lower_f16(m, o->isa);
  if (cc_lower_f64(m, o->isa, e)) goto done;
  cc_lower_int_intrinsics(m, o->isa);
  cc_lower_unaligned(m);
  if (cc_lower_mem_intrinsics(m)) {
    po = LLVMCreatePassBuilderOptions();
    err = LLVMRunPasses(m, "function(break-crit-edges)", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
      char *msg = LLVMGetErrorMessage(err);
      vt_fail(e, VT_ERR_INTERNAL, "LLVM passes failed: %s", msg);
      LLVMDisposeErrorMessage(msg);
      goto done;
    }
  }
  cc_hoist_workitems(m);
  td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
  uint32_t lds_bytes = 0;
  if (layout_local(m, td, &lds, &lds_bytes)) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory while compiling");
    goto done;
  }
  cc_printf(&t, "# compiled by ventus cc (chengying) from %s\n", origin);
  int nk = 0;
  module_ctx mc = {m, td, &lds, lds_bytes, &gsyms, {NULL, 0}, &t, e, b};
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (!is_kernel(fn)) continue;
    nk++;
    if (compile_fn(&mc, fn, 0)) {
      free(mc.callees.v);
      goto done;
    }
  }
  free(mc.callees.v);
  cc_fn data = {.name = "(program-scope data)", .e = e};
  if (emit_data(&data, m, td, &gsyms, &t)) goto done;
  if (!nk && !o->allow_empty) {
    vt_fail(e, VT_ERR_ASM, "%s: no __kernel function to compile", origin);
    goto done;
  }
  if (t.oom) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory while compiling");
    goto done;
  }
  if (o->isa == 2025 && cc_text_rev2025(&t.p)) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory while compiling");
    goto done;
  }
  *asm_out = t.p;
  t.p = NULL;
  rc = 0;
done:
  free(t.p);
  cc_map_free(&lds);
  cc_map_free(&gsyms);
  if (td) LLVMDisposeTargetData(td);
  if (m) LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  return rc;
}

typedef struct {
  const char *const *bcs;
  const size_t *lens;
  int n;
  const cc_options *o;
  const char *origin;
  const cc_budget *b;
  int raw;
  char **asm_out;
  vt_error *e;
} compile_args;

static int compile_guarded(void *arg) {
  compile_args *a = arg;
  return compile_bitcode(a->bcs, a->lens, a->n, a->o, a->origin, a->b, a->raw, a->asm_out, a->e);
}

static int compile_by(const char *const *bcs, const size_t *lens, int n, const cc_options *o, const char *origin,
                      const cc_budget *b, int raw, char **asm_out, vt_error *e) {
  *asm_out = NULL;
  compile_args a = {bcs, lens, n, o, origin, b, raw, asm_out, e};
  return cc_guarded(compile_guarded, &a, e);
}

int cc_compile_bitcode(const char *const *bcs, const size_t *lens, int n, const cc_options *o, const char *origin,
                       char **asm_out, vt_error *e) {
  cc_budget b;
  cc_budget_start(&b, o);
  /* at -O2 and -O3 the units are clang's unoptimised IR (cc_compile_object) */
  return compile_by(bcs, lens, n, o, origin, &b, cc_front_raw(o->opt), asm_out, e);
}

/* What the start-up code sets up that no instruction of the program reads:
 * the warp stack (sp), the __local base (s0), the private offset (tp), and
 * mstatus.FS when no floating-point instruction or fp CSR appears. Judged
 * on the whole program's assembly (every kernel and function it can run):
 * a register named anywhere in an instruction's operands counts, so the
 * judgement errs towards keeping. */
static void start_needs(const char *text, int *sp, int *s0, int *tp, int *fp) {
  *sp = *s0 = *tp = *fp = 0;
  for (const char *l = text; *l;) {
    const char *end = strchr(l, '\n');
    size_t len = end ? (size_t)(end - l) : strlen(l);
    const char *p = l, *stop = l + len;
    while (p < stop && (*p == ' ' || *p == '\t')) p++;
    const char *colon = memchr(p, ':', (size_t)(stop - p));
    if (p < stop && *p != '#' && *p != '.' && !(colon && colon + 1 == stop)) {
      /* the mnemonic, then each operand word */
      const char *m = p;
      while (p < stop && *p != ' ' && *p != '\t') p++;
      size_t ml = (size_t)(p - m);
      if ((m[0] == 'f' && !(ml >= 5 && !strncmp(m, "fence", 5))) || (ml >= 2 && !strncmp(m, "vf", 2)) ||
          (ml >= 3 && !strncmp(m, "vmf", 3)))
        *fp = 1;
      int csr = ml >= 3 && !strncmp(m, "csr", 3);
      while (p < stop) {
        while (p < stop && !isalnum((unsigned char)*p)) p++;
        const char *w = p;
        while (p < stop && (isalnum((unsigned char)*p) || *p == '_')) p++;
        size_t wl = (size_t)(p - w);
#define IS(word) (wl == sizeof word - 1 && !strncmp(w, word, wl))
        if (IS("sp") || IS("x2")) *sp = 1;
        if (IS("tp") || IS("x4")) *tp = 1;
        if (IS("s0") || IS("fp") || IS("x8")) *s0 = 1;
        if (IS("fflags") || IS("frm") || IS("fcsr")) *fp = 1;
        if (csr && wl && isdigit((unsigned char)w[0])) *fp = 1; /* a CSR by number: may be an fp one */
#undef IS
      }
    }
    l = end ? end + 1 : stop;
  }
}

int cc_link_file(const char *asm_text, int relocatable, int isa, const char *out_path, vt_error *e) {
  asm_source src[2] = {{"start.S", cc_start_s}, {"<compiled>", asm_text}};
  asm_options opt = {relocatable, ASM_DEFAULT_TEXT_ADDR, 4, isa == 2025 ? ISA_REV_2025 : 0};
  asm_object *obj = NULL;
  asm_diags d = {0};
  /* compiled code reads the print buffer from the metadata: start.S skips
   * its copy into BUFFER_ADDR/BUFFER_SIZE (two stores of every warp); and
   * the set-up no instruction reads (start_needs) */
  const char *defines[6] = {"VT_CC_START"};
  int nd = 1, sp, s0, tp, fp;
  start_needs(asm_text, &sp, &s0, &tp, &fp);
  if (!sp) defines[nd++] = "VT_CC_NO_SP";
  if (!s0) defines[nd++] = "VT_CC_NO_S0";
  if (!sp && !s0) defines[nd++] = "VT_CC_NO_LDS";
  if (!tp) defines[nd++] = "VT_CC_NO_TP";
  if (!fp) defines[nd++] = "VT_CC_NO_FP";
  asm_pp_options pp = {NULL, 0, defines, nd};
  int rc = asm_assemble_ex(relocatable ? src + 1 : src, relocatable ? 1 : 2, &opt, &pp, &obj, &d, e);
  if (rc) {
    if (d.n) {
      char line[512];
      asm_diag_format(&d.v[0], line, sizeof line);
      vt_fail(e, VT_ERR_INTERNAL, "the compiled kernel does not assemble (a compiler defect): %s", line);
    }
    asm_diags_free(&d);
    return -1;
  }
  asm_diags_free(&d);
  rc = asm_write_elf(obj, out_path, e);
  asm_free(obj);
  return rc;
}
