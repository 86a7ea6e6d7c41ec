/* Images in software (src/cc/lib/images.cl does the work): clang's
 * target("spirv.Image", ...) values become the image descriptor's device
 * address (ptr addrspace(1)) and target("spirv.Sampler") values the
 * sampler's CLK_* bits (i32). Functions taking them are rebuilt with those
 * types (the blocks move over; name, calling convention, attributes and
 * the kernel_arg_* metadata are kept, so the platform still sees
 * "image2d_t", "sampler_t" and the access qualifiers); allocas, loads and
 * stores of them are retyped (clang's unoptimised IR keeps every argument
 * in an alloca); read_image*, write_image* (with cl_khr_fp16's half forms,
 * through the float ones) become calls of the library,
 * get_image_* loads from the descriptor, __translate_sampler_initializer(v)
 * becomes v. Any other use (a phi, a select, a call of something else) is
 * refused with the function it is in.
 * Runs first, on the module as read, so the library goes through the
 * whole pipeline with the program (optimised; its entry points are
 * noinline, so a program carries one copy of each it calls). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

extern const char cc_images_cl[];

/* descriptor words the queries read (images.cl's D_*) */
enum { D_W = 1, D_H, D_D, D_ARR, D_ORDER, D_DTYPE };

typedef struct {
  LLVMModuleRef m;
  LLVMContextRef c;
  LLVMBuilderRef b;
  LLVMTypeRef i32, gptr;
  cc_map map; /* old image/sampler value -> index into vals */
  LLVMValueRef *vals;
  int nvals, cap;
  vt_error *e;
} lw;

static int kind_of(LLVMTypeRef t) { /* 1 image, 2 sampler, 0 neither */
  if (LLVMGetTypeKind(t) != LLVMTargetExtTypeKind) return 0;
  const char *n = LLVMGetTargetExtTypeName(t);
  return !strcmp(n, "spirv.Image") ? 1 : !strcmp(n, "spirv.Sampler") ? 2 : 0;
}

static LLVMTypeRef lowered(lw *w, LLVMTypeRef t) {
  int k = kind_of(t);
  return k == 1 ? w->gptr : k == 2 ? w->i32 : t;
}

static int put(lw *w, LLVMValueRef old, LLVMValueRef v) {
  if (w->nvals == w->cap) {
    int n = w->cap ? 2 * w->cap : 64;
    LLVMValueRef *p = realloc(w->vals, (size_t)n * sizeof *p);
    if (!p) return -1;
    w->vals = p, w->cap = n;
  }
  w->vals[w->nvals] = v;
  return cc_map_put(&w->map, old, w->nvals++);
}

static LLVMValueRef get(lw *w, LLVMValueRef old) {
  int i = cc_map_get(&w->map, old);
  return i < 0 ? NULL : w->vals[i];
}

static const char *name_of(LLVMValueRef fn) {
  size_t len;
  return fn ? LLVMGetValueName2(fn, &len) : "";
}

/* the refusal, pointing at the source line when there is one */
static int refuse(lw *w, LLVMValueRef fn, LLVMValueRef at, const char *what) {
  cc_fn f = {.mod = w->m, .fn = fn, .name = name_of(fn), .e = w->e};
  return cc_unsupported(&f, at, "%s", what);
}
#define ONLY ": images and samplers may only be passed to the program's own functions and the image builtins"

static int uses_images(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p))
      if (kind_of(LLVMTypeOf(p))) return 1;
    if (!strcmp(name_of(fn), "__translate_sampler_initializer") && LLVMGetFirstUse(fn)) return 1;
  }
  return 0;
}

/* the library compiled from its embedded text and linked into m */
static int link_library(LLVMModuleRef m, vt_error *e) {
  static const cc_embedded_lib lib = {.text = cc_images_cl, .what = "image library"};
  return cc_link_embedded(m, &lib, NULL, 0, e);
}

/* fn rebuilt with lowered parameter types; fn keeps no blocks */
static LLVMValueRef rebuild(lw *w, LLVMValueRef fn) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(fn);
  unsigned n = LLVMCountParams(fn);
  LLVMTypeRef *pt = malloc((n ? n : 1) * sizeof *pt);
  if (!pt) return NULL;
  LLVMGetParamTypes(ft, pt);
  for (unsigned i = 0; i < n; i++) pt[i] = lowered(w, pt[i]);
  LLVMTypeRef nt = LLVMFunctionType(LLVMGetReturnType(ft), pt, n, LLVMIsFunctionVarArg(ft));
  free(pt);
  size_t len;
  const char *s = LLVMGetValueName2(fn, &len);
  char *name = malloc(len + 1);
  if (!name) return NULL;
  memcpy(name, s, len + 1);
  LLVMSetValueName2(fn, "", 0);
  LLVMValueRef nf = LLVMAddFunction(w->m, name, nt);
  free(name);
  LLVMSetFunctionCallConv(nf, LLVMGetFunctionCallConv(fn));
  LLVMSetLinkage(nf, LLVMGetLinkage(fn));
  /* attributes: the function's, the result's, and those of unchanged parameters */
  for (int idx = -1; idx <= (int)n; idx++) {
    unsigned at = idx < 0 ? (unsigned)LLVMAttributeFunctionIndex : (unsigned)idx;
    if (idx > 0 && kind_of(LLVMTypeOf(LLVMGetParam(fn, (unsigned)idx - 1)))) continue;
    unsigned na = LLVMGetAttributeCountAtIndex(fn, at);
    if (!na) continue;
    LLVMAttributeRef *as = malloc(na * sizeof *as);
    if (!as) return NULL;
    LLVMGetAttributesAtIndex(fn, at, as);
    for (unsigned k = 0; k < na; k++) LLVMAddAttributeAtIndex(nf, at, as[k]);
    free(as);
  }
  size_t nmd;
  LLVMValueMetadataEntry *md = LLVMGlobalCopyAllMetadata(fn, &nmd);
  for (size_t i = 0; i < nmd; i++)
    LLVMGlobalSetMetadata(nf, LLVMValueMetadataEntriesGetKind(md, (unsigned)i),
                          LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i));
  if (md) LLVMDisposeValueMetadataEntries(md);
  for (LLVMBasicBlockRef bb; (bb = LLVMGetFirstBasicBlock(fn));) {
    LLVMRemoveBasicBlockFromParent(bb);
    LLVMAppendExistingBasicBlock(nf, bb);
  }
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef op = LLVMGetParam(fn, i), np = LLVMGetParam(nf, i);
    const char *pn = LLVMGetValueName2(op, &len);
    LLVMSetValueName2(np, pn, len);
    if (kind_of(LLVMTypeOf(op))) {
      if (put(w, op, np)) return NULL;
    } else {
      LLVMReplaceAllUsesWith(op, np);
    }
  }
  return nf;
}

/* OpenCL builtin name of a mangled callee (_Z<len><name>...) into buf */
static const char *builtin_name(LLVMValueRef fn, char *buf, size_t cap) {
  const char *s = name_of(fn);
  buf[0] = 0;
  if (strncmp(s, "_Z", 2)) return buf;
  char *end;
  long len = strtol(s + 2, &end, 10);
  if (len > 0 && (size_t)len < cap && (long)strlen(end) >= len) {
    memcpy(buf, end, (size_t)len);
    buf[len] = 0;
  }
  return buf;
}

/* a scalar or short vector coordinate widened to 4 elements (zeros after) */
static LLVMValueRef widen4(lw *w, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v), el = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
  LLVMTypeRef t4 = LLVMVectorType(el, 4);
  LLVMValueRef r = LLVMConstNull(t4);
  unsigned n = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetVectorSize(t) : 1;
  for (unsigned i = 0; i < n && i < 4; i++) {
    LLVMValueRef x = n == 1 && LLVMGetTypeKind(t) != LLVMVectorTypeKind
                         ? v
                         : LLVMBuildExtractElement(w->b, v, LLVMConstInt(w->i32, i, 0), "");
    r = LLVMBuildInsertElement(w->b, r, x, LLVMConstInt(w->i32, i, 0), "");
  }
  return r;
}

static LLVMValueRef lib_call(lw *w, const char *name, LLVMValueRef *args, unsigned n) {
  LLVMValueRef fn = LLVMGetNamedFunction(w->m, name);
  if (!fn) return NULL;
  LLVMValueRef c = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(fn), fn, args, n, "");
  LLVMSetInstructionCallConv(c, LLVMGetFunctionCallConv(fn));
  return c;
}

static LLVMValueRef field(lw *w, LLVMValueRef d, int idx) {
  LLVMValueRef i = LLVMConstInt(w->i32, (unsigned)idx, 0);
  return LLVMBuildLoad2(w->b, w->i32, LLVMBuildGEP2(w->b, w->i32, d, &i, 1, ""), "");
}

/* the replacement of an image builtin call, NULL if not one */
static LLVMValueRef lower_builtin(lw *w, LLVMValueRef call) {
  char name[64];
  builtin_name(LLVMGetCalledValue(call), name, sizeof name);
  unsigned n = (unsigned)LLVMGetNumArgOperands(call);
  LLVMValueRef a[4] = {0};
  for (unsigned i = 0; i < n && i < 4; i++) a[i] = LLVMGetOperand(call, i);
  if (!n || kind_of(LLVMTypeOf(a[0])) != 1) return NULL;
  LLVMValueRef d = get(w, a[0]);
  LLVMTypeRef rt = LLVMTypeOf(call);
  static const struct {
    const char *name;
    int word;
  } queries[] = {{"get_image_width", D_W},         {"get_image_height", D_H},
                 {"get_image_depth", D_D},         {"get_image_array_size", D_ARR},
                 {"get_image_channel_order", D_ORDER}, {"get_image_channel_data_type", D_DTYPE}};
  for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
    if (!strcmp(name, queries[i].name)) return LLVMBuildIntCast2(w->b, field(w, d, queries[i].word), rt, 0, "");
  if (!strcmp(name, "get_image_dim")) {
    unsigned k = LLVMGetVectorSize(rt);
    LLVMTypeRef el = LLVMGetElementType(rt);
    LLVMValueRef r = LLVMConstNull(rt);
    for (unsigned i = 0; i < k && i < 3; i++)
      r = LLVMBuildInsertElement(w->b, r, LLVMBuildIntCast2(w->b, field(w, d, D_W + (int)i), el, 0, ""),
                                 LLVMConstInt(w->i32, i, 0), "");
    return r;
  }
  int rd = !strncmp(name, "read_image", 10), wr = !strncmp(name, "write_image", 11);
  if (!rd && !wr) return NULL;
  const char *sfx = name + (rd ? 10 : 11);
  /* cl_khr_fp16's read_imageh/write_imageh: the float forms, the colour
   * rounded to half (to nearest even) or widened from it */
  int half = !strcmp(sfx, "h");
  if (half) sfx = "f";
  if (strcmp(sfx, "f") && strcmp(sfx, "i") && strcmp(sfx, "ui")) return NULL;
  char fn[96];
  LLVMTypeRef f4 = LLVMVectorType(LLVMFloatTypeInContext(w->c), 4);
  if (wr) {
    if (n != 3) return NULL;
    LLVMValueRef args[3] = {d, widen4(w, a[1]), half ? LLVMBuildFPExt(w->b, a[2], f4, "") : a[2]};
    snprintf(fn, sizeof fn, "__cy_img_write%s", sfx);
    return lib_call(w, fn, args, 3);
  }
  int smp = n == 3 && kind_of(LLVMTypeOf(a[1])) == 2;
  if (n != (smp ? 3u : 2u)) return NULL;
  LLVMValueRef coord = a[smp ? 2 : 1];
  LLVMTypeRef ct = LLVMTypeOf(coord);
  if (LLVMGetTypeKind(ct) == LLVMVectorTypeKind) ct = LLVMGetElementType(ct);
  int fc = LLVMGetTypeKind(ct) == LLVMFloatTypeKind;
  /* without a sampler: unnormalised, CLK_ADDRESS_NONE, nearest (all 0) */
  LLVMValueRef args[3] = {d, smp ? get(w, a[1]) : LLVMConstInt(w->i32, 0, 0), widen4(w, coord)};
  snprintf(fn, sizeof fn, "__cy_img_read%s_%s", sfx, fc ? "f" : "i");
  LLVMValueRef r = lib_call(w, fn, args, 3);
  return half && r ? LLVMBuildFPTrunc(w->b, r, rt, "") : r;
}

static int is_image_value(LLVMValueRef v) { return kind_of(LLVMTypeOf(v)) != 0; }

/* pass 1: the definitions of image/sampler values (loads, sampler
 * initialisers) and their allocas; pass 2: their uses */
static int lower_fn(lw *w, LLVMValueRef fn, LLVMValueRef *olds, LLVMValueRef *news, int nf, int pass) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb), next; in; in = next) {
      next = LLVMGetNextInstruction(in);
      LLVMOpcode op = LLVMGetInstructionOpcode(in);
      LLVMPositionBuilderBefore(w->b, in);
      if (pass == 1) {
        if (op == LLVMAlloca && kind_of(LLVMGetAllocatedType(in))) { /* the lowered value's slot */
          LLVMValueRef na = LLVMBuildAlloca(w->b, lowered(w, LLVMGetAllocatedType(in)), "");
          LLVMReplaceAllUsesWith(in, na);
          LLVMInstructionEraseFromParent(in);
        } else if (op == LLVMLoad && is_image_value(in)) {
          LLVMValueRef nl = LLVMBuildLoad2(w->b, lowered(w, LLVMTypeOf(in)), LLVMGetOperand(in, 0), "");
          if (put(w, in, nl)) return vt_fail(w->e, VT_ERR_NOMEM, "out of memory");
        } else if (op == LLVMCall && !strcmp(name_of(LLVMGetCalledValue(in)), "__translate_sampler_initializer")) {
          if (put(w, in, LLVMGetOperand(in, 0))) return vt_fail(w->e, VT_ERR_NOMEM, "out of memory");
        } else if (is_image_value(in)) {
          return refuse(w, fn, in, "an image or sampler value chosen at run time (a phi, a select, a call's result)" ONLY);
        }
        continue;
      }
      int uses = 0;
      for (int i = 0, no = LLVMGetNumOperands(in); i < no; i++) {
        LLVMValueRef x = LLVMGetOperand(in, (unsigned)i);
        if (!is_image_value(x)) continue;
        uses = 1;
        if (!get(w, x)) return refuse(w, fn, in, "an image or sampler that is not an argument or a variable" ONLY);
      }
      if (!uses) continue;
      if (op == LLVMLoad || (op == LLVMCall && get(w, in))) continue; /* pass 1's, erased later */
      if (op == LLVMStore) {
        LLVMBuildStore(w->b, get(w, LLVMGetOperand(in, 0)), LLVMGetOperand(in, 1));
        LLVMInstructionEraseFromParent(in);
        continue;
      }
      if (op != LLVMCall) return refuse(w, fn, in, "an image or sampler value used other than in a call" ONLY);
      LLVMValueRef callee = LLVMGetCalledValue(in), r = NULL;
      int k = 0;
      while (k < nf && olds[k] != callee) k++;
      if (k < nf) { /* a call of a rebuilt function */
        unsigned na = (unsigned)LLVMGetNumArgOperands(in);
        LLVMValueRef *args = malloc((na ? na : 1) * sizeof *args);
        if (!args) return vt_fail(w->e, VT_ERR_NOMEM, "out of memory");
        for (unsigned i = 0; i < na; i++) {
          LLVMValueRef x = LLVMGetOperand(in, i);
          args[i] = is_image_value(x) ? get(w, x) : x;
        }
        r = LLVMBuildCall2(w->b, LLVMGlobalGetValueType(news[k]), news[k], args, na, "");
        LLVMSetInstructionCallConv(r, LLVMGetFunctionCallConv(news[k]));
        free(args);
      } else {
        r = lower_builtin(w, in);
        if (!r) {
          char msg[300];
          snprintf(msg, sizeof msg, "an image or sampler passed to %.120s" ONLY,
                   callee && LLVMIsAFunction(callee) ? name_of(callee) : "an indirect call");
          return refuse(w, fn, in, msg);
        }
      }
      if (LLVMGetTypeKind(LLVMTypeOf(in)) != LLVMVoidTypeKind) LLVMReplaceAllUsesWith(in, r);
      LLVMInstructionEraseFromParent(in);
    }
  return 0;
}

/* pass 1's old loads and sampler calls, now without users */
static void erase_old(lw *w) {
  for (size_t i = 0; i < w->map.cap; i++) {
    LLVMValueRef v = (LLVMValueRef)w->map.k[i];
    if (v && LLVMIsAInstruction(v) && !LLVMGetFirstUse(v)) LLVMInstructionEraseFromParent(v);
  }
}

int cc_lower_images(LLVMModuleRef m, vt_error *e) {
  if (!uses_images(m)) return 0;
  if (link_library(m, e)) return -1;
  LLVMContextRef c = LLVMGetModuleContext(m);
  lw w = {.m = m, .c = c, .b = LLVMCreateBuilderInContext(c), .i32 = LLVMInt32TypeInContext(c),
          .gptr = LLVMPointerTypeInContext(c, 1), .e = e};
  int nf = 0, rc = -1;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p))
      if (kind_of(LLVMTypeOf(p)) && LLVMGetFirstBasicBlock(fn)) {
        nf++;
        break;
      }
  LLVMValueRef *olds = calloc((size_t)nf + 1, sizeof *olds), *news = calloc((size_t)nf + 1, sizeof *news);
  if (!olds || !news) {
    vt_fail(e, VT_ERR_NOMEM, "out of memory");
    goto done;
  }
  int k = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn && k < nf; fn = LLVMGetNextFunction(fn)) {
    if (!LLVMGetFirstBasicBlock(fn)) continue;
    int has = 0;
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p)) has |= kind_of(LLVMTypeOf(p)) != 0;
    if (!has) continue;
    olds[k] = fn;
    if (!(news[k] = rebuild(&w, fn))) {
      vt_fail(e, VT_ERR_NOMEM, "out of memory");
      goto done;
    }
    k++;
  }
  for (int pass = 1; pass <= 2; pass++)
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
      if (LLVMGetFirstBasicBlock(fn) && lower_fn(&w, fn, olds, news, nf, pass)) goto done;
  erase_old(&w);
  for (int i = 0; i < nf; i++)
    if (!LLVMGetFirstUse(olds[i])) LLVMDeleteFunction(olds[i]);
  /* the builtins' declarations, now unused, still name the opaque types */
  for (LLVMValueRef fn = LLVMGetFirstFunction(m), next; fn; fn = next) {
    next = LLVMGetNextFunction(fn);
    if (LLVMGetFirstBasicBlock(fn) || LLVMGetFirstUse(fn)) continue;
    int opaque = kind_of(LLVMGetReturnType(LLVMGlobalGetValueType(fn))) != 0;
    for (LLVMValueRef p = LLVMGetFirstParam(fn); p; p = LLVMGetNextParam(p)) opaque |= is_image_value(p);
    if (opaque) LLVMDeleteFunction(fn);
  }
  rc = 0;
done:
  free(olds);
  free(news);
  free(w.vals);
  cc_map_free(&w.map);
  LLVMDisposeBuilder(w.b);
  return rc;
}
