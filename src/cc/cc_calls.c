/* Calls that stay calls: the device-function convention of the seeds
 * (seeds 001-004, "参数传递 ABI": arguments in v0-v31 and on the stacks,
 * results in v0 and up), made concrete here:
 *
 *  - arguments, one 32-bit word each (a long takes two, low first, an
 *    OpenCL vector one per element), in v0..v30, uniform ones broadcast;
 *    the result in v0 and up the same way; an argument that no longer fits
 *    in v0..v30 goes, whole, to the stack: the first words of the callee's
 *    private frame (the caller stores them past its own frame, at tp + its
 *    frame size); a structure passed by value
 *    (byval) is copied into the caller's private frame and its address
 *    passed, so the callee may change its copy;
 *  - v0..v31 are the caller's to lose (v31 is the scratch of prologues and
 *    epilogues); a function that calls, and every device function, keeps
 *    its own values in v32..v255 and the scalar registers;
 *  - the callee saves every register of those it writes: scalars on the
 *    warp stack (sp, local memory), vector registers in its private frame
 *    (tp, vsw.v/vlw.v); the caller saves ra;
 *  - the caller moves sp and tp past its own frames around the call, so
 *    frames stack upwards (seeds §2.4: both stacks grow upwards); the
 *    kernel's resource section counts the deepest chain of private frames.
 *
 * Calls are ordinary jal/ret: inside a divergent region the callee runs
 * with the caller's mask, and its own divergent branches reconverge inside
 * it. Recursion is refused (cc_module.c compiles callees first). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc_internal.h"

#define TOV(n) "vmv.v.v v" #n ", %0"
#define XTOV(n) "vmv.v.x v" #n ", %0"
#define FROMV(n) "vmv.v.v %0, v" #n
/* v0..v31 by number: the templates name the fixed registers of the convention */
static const char *const to_v[32] = {TOV(0),  TOV(1),  TOV(2),  TOV(3),  TOV(4),  TOV(5),  TOV(6),  TOV(7),
                                     TOV(8),  TOV(9),  TOV(10), TOV(11), TOV(12), TOV(13), TOV(14), TOV(15),
                                     TOV(16), TOV(17), TOV(18), TOV(19), TOV(20), TOV(21), TOV(22), TOV(23),
                                     TOV(24), TOV(25), TOV(26), TOV(27), TOV(28), TOV(29), TOV(30), TOV(31)};
static const char *const xto_v[32] = {XTOV(0),  XTOV(1),  XTOV(2),  XTOV(3),  XTOV(4),  XTOV(5),  XTOV(6),  XTOV(7),
                                      XTOV(8),  XTOV(9),  XTOV(10), XTOV(11), XTOV(12), XTOV(13), XTOV(14), XTOV(15),
                                      XTOV(16), XTOV(17), XTOV(18), XTOV(19), XTOV(20), XTOV(21), XTOV(22), XTOV(23),
                                      XTOV(24), XTOV(25), XTOV(26), XTOV(27), XTOV(28), XTOV(29), XTOV(30), XTOV(31)};
static const char *const from_v[32] = {FROMV(0),  FROMV(1),  FROMV(2),  FROMV(3),  FROMV(4),  FROMV(5),  FROMV(6),
                                       FROMV(7),  FROMV(8),  FROMV(9),  FROMV(10), FROMV(11), FROMV(12), FROMV(13),
                                       FROMV(14), FROMV(15), FROMV(16), FROMV(17), FROMV(18), FROMV(19), FROMV(20),
                                       FROMV(21), FROMV(22), FROMV(23), FROMV(24), FROMV(25), FROMV(26), FROMV(27),
                                       FROMV(28), FROMV(29), FROMV(30), FROMV(31)};
enum { MAX_ARG_WORDS = 31 }; /* v0..v30 */

static int oom(cc_fn *f) { return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name); }

/* words a value of type t takes in the convention, 0 if it cannot be passed */
static int words(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    int w = cc_int_width(LLVMGetElementType(t));
    return w == 1 || w == 8 || w == 16 || w == 32 || cc_is_i64(LLVMGetElementType(t)) ? cc_vec_words(t) : 0;
  }
  return cc_is_i64(t) ? 2 : cc_int_width(t) ? 1 : 0;
}

/* the n registers of value v per lane (a long's words, a vector's elements): a new array */
static int *regs_of(cc_fn *f, LLVMValueRef v, int n) {
  if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVectorTypeKind) return cc_group_of(f, v, 1);
  int *g = calloc(2, sizeof *g);
  if (!g) {
    oom(f);
    return NULL;
  }
  if (n == 2 ? cc_i64_pair(f, v, 1, g) : (g[0] = cc_vec(f, v)) < 0) {
    free(g);
    return NULL;
  }
  return g;
}

/* value v takes n registers r (new array g, or the one register) */
static int define(cc_fn *f, LLVMValueRef v, int *g, int n) {
  int k = cc_val_num(f, v);
  if (n == 1 && LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind) {
    f->vreg[k] = g[0];
    free(g);
    return 0;
  }
  return cc_set_group(f, v, g);
}

/* fresh registers from v<w>.. */
static int *take(cc_fn *f, int w, int n) {
  int *g = calloc((size_t)n + 1, sizeof *g);
  if (!g) {
    oom(f);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if ((g[i] = cc_new_vreg(f, CC_V)) < 0 || CC_EMIT(f, from_v[w + i], 1, cc_r(g[i]))) {
      free(g);
      return NULL;
    }
  return g;
}

static int give(cc_fn *f, LLVMValueRef v, int w, int n) {
  int *g = regs_of(f, v, n);
  if (!g) return -1;
  for (int i = 0; i < n; i++)
    if (CC_EMIT(f, to_v[w + i], 0, cc_r(g[i]))) {
      free(g);
      return -1;
    }
  free(g);
  return 0;
}

/* the type a byval parameter i of fn copies, NULL if it is not one */
static LLVMTypeRef byval_type(LLVMValueRef fn, unsigned i) {
  unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
  return a && LLVMIsTypeAttribute(a) ? LLVMGetTypeAttributeValue(a) : NULL;
}

/* a copy of the n bytes at private or global address p in the caller's frame: its address */
static int byval_copy(cc_fn *f, LLVMValueRef call, LLVMValueRef p, uint64_t n) {
  if (n > 256) return cc_unsupported(f, call, "a structure of more than 256 bytes passed by value");
  uint32_t off = (f->pds_bytes + 3u) & ~3u, words4 = (uint32_t)(n + 3) / 4;
  if (off + 4 * words4 > CC_PRIVATE_VARS_MAX)
    return cc_unsupported(f, call, "more than %d KiB of private variables per work-item", CC_PRIVATE_VARS_MAX / 1024);
  f->pds_bytes = off + 4 * words4;
  int priv = LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 0, src = cc_vec(f, p), s = cc_tp_plus(f, off),
      d = cc_new_vreg(f, CC_V);
  if (src < 0 || s < 0 || d < 0 || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(d), cc_r(s)))
    return -1;
  for (uint32_t i = 0; i < words4; i++) {
    int t = cc_new_vreg(f, CC_V);
    if (t < 0 || CC_EMIT(f, priv ? "vlw.v %0, %2(%1)" : "vlw12.v %0, %2(%1)", 1, cc_r(t), cc_r(src), cc_imm((int32_t)(4 * i))) ||
        CC_EMIT(f, "vsw.v %0, %2(%1)", 0, cc_r(t), cc_r(d), cc_imm((int32_t)(4 * i))))
      return -1;
  }
  return d;
}

/* a stack-passed argument's n words, from the start of this frame */
static int *take_stack(cc_fn *f, int o, int n) {
  int *g = calloc((size_t)n + 1, sizeof *g), s = cc_new_vreg(f, CC_S), a = cc_new_vreg(f, CC_V);
  if (!g) {
    oom(f);
    return NULL;
  }
  if (s < 0 || a < 0 || CC_EMIT(f, "mv %0, tp", 1, cc_r(s)) || CC_EMIT(f, "vmv.v.x %0, %1", 1, cc_r(a), cc_r(s))) {
    free(g);
    return NULL;
  }
  for (int i = 0; i < n; i++)
    if ((g[i] = cc_new_vreg(f, CC_V)) < 0 || CC_EMIT(f, "vlw.v %0, %2(%1)", 1, cc_r(g[i]), cc_r(a), cc_imm(4 * (o + i)))) {
      free(g);
      return NULL;
    }
  return g;
}

enum { MAX_STACK_WORDS = 64 };

int cc_fn_params(cc_fn *f) {
  int w = 0, o = 0;
  unsigned ai = 0;
  for (LLVMValueRef a = LLVMGetFirstParam(f->fn); a; a = LLVMGetNextParam(a), ai++) {
    int n = words(LLVMTypeOf(a)), stack = w + n > MAX_ARG_WORDS;
    if (!n) return cc_unsupported(f, NULL, "a device function argument of an aggregate type (argument %u)", ai);
    if (stack && o + n > MAX_STACK_WORDS)
      return cc_unsupported(f, NULL, "more than %d words of device function arguments", MAX_ARG_WORDS + MAX_STACK_WORDS);
    if (LLVMGetFirstUse(a)) {
      int *g = stack ? take_stack(f, o, n) : take(f, w, n);
      if (!g || define(f, a, g, n)) return -1;
    }
    if (stack) o += n;
    else w += n;
  }
  f->pds_bytes = 4u * (uint32_t)o; /* the incoming stack words come first in the frame */
  return 0;
}

int cc_fn_return(cc_fn *f, LLVMValueRef ret) {
  if (LLVMGetNumOperands(ret)) {
    LLVMValueRef v = LLVMGetOperand(ret, 0);
    int n = words(LLVMTypeOf(v));
    if (!n || n > MAX_ARG_WORDS) return cc_unsupported(f, ret, "a device function returning an aggregate value");
    if (give(f, v, 0, n)) return -1;
  }
  return CC_EMIT(f, "ret", 0);
}

int cc_select_fn_call(cc_fn *f, LLVMValueRef call) {
  LLVMValueRef fn = LLVMGetCalledValue(call);
  int idx = -1;
  for (int i = 0; f->callees && i < f->callees->n; i++)
    if (f->callees->v[i].fn == fn && f->callees->v[i].state == 2) idx = i;
  if (idx < 0) return vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a call of a function that was not compiled", f->name);
  int w = 0, o = 0, n = (int)LLVMGetNumArgOperands(call);
  for (int i = 0; i < n; i++) {
    LLVMValueRef a = LLVMGetOperand(call, (unsigned)i);
    int nw = words(LLVMTypeOf(a)), k = cc_val_num(f, a);
    LLVMTypeRef bv = byval_type(fn, (unsigned)i);
    if (bv) { /* the callee gets its own copy */
      int d = byval_copy(f, call, a, LLVMABISizeOfType(f->td, bv));
      if (d < 0 || CC_EMIT(f, to_v[w], 0, cc_r(d))) return -1;
      w++;
      continue;
    }
    if (!nw) return cc_unsupported(f, call, "an aggregate argument of a device function call");
    if (w + nw > MAX_ARG_WORDS) { /* on the stack: stored at emission, past this frame */
      if (o + nw > MAX_STACK_WORDS)
        return cc_unsupported(f, call, "more than %d words of device function arguments", MAX_ARG_WORDS + MAX_STACK_WORDS);
      int *g = regs_of(f, a, nw);
      if (!g) return -1;
      for (int j = 0; j < nw; j++)
        if (CC_EMIT(f, "@argst %0, %1", 0, cc_r(g[j]), cc_imm(4 * (o + j)))) {
          free(g);
          return -1;
        }
      free(g);
      o += nw;
      continue;
    }
    if (nw == 1 && !(k >= 0 && f->div[k]) && LLVMGetTypeKind(LLVMTypeOf(a)) != LLVMVectorTypeKind) {
      int r = cc_sreg(f, a); /* uniform: broadcast by the move itself */
      if (r < 0 || CC_EMIT(f, xto_v[w], 0, cc_r(r))) return -1;
    } else if (give(f, a, w, nw)) {
      return -1;
    }
    w += nw;
  }
  if (CC_EMIT(f, "@call %0", 0, ((cc_opnd){CC_OP_FN, idx}))) return -1;
  f->ncalls++;
  LLVMTypeRef rt = LLVMTypeOf(call);
  if (LLVMGetTypeKind(rt) == LLVMVoidTypeKind) return 0;
  int k = cc_val_num(f, call), nw = words(rt);
  if (!nw || nw > MAX_ARG_WORDS) return cc_unsupported(f, call, "a device function returning an aggregate value");
  if (!f->div[k]) return vt_fail(f->e, VT_ERR_INTERNAL, "kernel %s: a call result taken as uniform", f->name);
  int *g = take(f, 0, nw);
  return g ? define(f, call, g, nw) : -1;
}

/* ---- frames, after allocation ---------------------------------------------------- */

/* physical registers a device function writes and must give back */
static void saved_regs(cc_fn *f, uint8_t s[64], uint8_t v[256]) {
  memset(s, 0, 64);
  memset(v, 0, 256);
  if (!f->is_func) return;
  for (int r = 0; r < f->nvreg; r++) {
    int p = f->phys[r];
    if (p < 0) continue;
    if (f->rclass[r] == CC_S) s[p] = 1;
    else if (p >= 32) v[p] = 1;
  }
}

/* the largest alignment of a private variable in the module: every frame
 * of a function that calls is a multiple of it, so from tp = 0 at the
 * kernel's start every callee's frame, and each variable in it, is
 * aligned at its absolute private address too (piglit realign-stack) */
static uint32_t private_align(LLVMModuleRef m) {
  uint32_t a = 4;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
        if (LLVMIsAAllocaInst(in) && LLVMGetAlignment(in) > a) a = LLVMGetAlignment(in);
  return a;
}

static uint32_t ra_off(cc_fn *f) { return (uint32_t)f->atomics + 4u * (uint32_t)f->nsslot; }

int cc_frames(cc_fn *f) {
  uint8_t s[64], v[256];
  saved_regs(f, s, v);
  uint32_t ns = 0, nv = 0;
  for (int i = 0; i < 64; i++) ns += s[i];
  for (int i = 0; i < 256; i++) nv += v[i];
  f->sp_frame = ra_off(f) + (f->ncalls ? 4u : 0u) + 4u * ns;
  f->tp_frame = ((f->pds_bytes + 3u) & ~3u) + 4u * nv;
  if (f->ncalls) {
    uint32_t al = private_align(f->mod);
    f->tp_frame = (f->tp_frame + al - 1) & ~(al - 1);
  }
  for (int b = 0; b < f->nbb; b++)
    for (int i = 0; i < f->mb[b].n; i++) {
      const cc_minst *m = &f->mb[b].v[i];
      if (strcmp(m->fmt, "@call %0")) continue;
      const cc_callee *c = &f->callees->v[m->op[0].v];
      if (c->sp_total > f->callee_sp) f->callee_sp = c->sp_total;
      if (c->tp_total > f->callee_tp) f->callee_tp = c->tp_total;
      if (c->vgprs > f->callee_vgprs) f->callee_vgprs = c->vgprs;
      if (c->sgprs > f->callee_sgprs) f->callee_sgprs = c->sgprs;
    }
  if (f->sp_frame + f->callee_sp > 1024)
    return cc_unsupported(f, NULL,
                          "%u bytes of warp stack along the deepest chain of calls (atomics, spills and saved registers), "
                          "more than the 1 KiB each warp has",
                          f->sp_frame + f->callee_sp);
  if (f->tp_frame + f->callee_tp > 65535)
    return cc_unsupported(f, NULL, "more than 64 KiB of private memory along the deepest chain of calls");
  return 0;
}

static void addi(cc_text *t, const char *reg, int32_t v) {
  if (!v) return;
  if (v >= -2048 && v <= 2047) cc_printf(t, "        addi    %s, %s, %d\n", reg, reg, (int)v);
  else cc_printf(t, "        li      t0, %d\n        add     %s, %s, t0\n", (int)v, reg, reg);
}

static void save_restore(cc_fn *f, cc_text *t, int restore) {
  uint8_t s[64], v[256];
  saved_regs(f, s, v);
  uint32_t off = ra_off(f);
  if (f->ncalls) {
    cc_printf(t, "        %s      ra, %u(sp)\n", restore ? "lw" : "sw", off);
    off += 4;
  }
  for (int i = 0; i < 64; i++)
    if (s[i]) {
      cc_printf(t, "        %s      x%d, %u(sp)\n", restore ? "lw" : "sw", i, off);
      off += 4;
    }
  uint32_t voff = (f->pds_bytes + 3u) & ~3u, nv = 0;
  for (int i = 0; i < 256; i++) nv += v[i];
  if (!nv) return;
  cc_puts(t, "        vmv.v.x v31, tp\n");
  if (voff + 4 * nv > 2048) { /* beyond the 12-bit offsets: move the base */
    cc_printf(t, "        li      t0, %u\n        vadd.vx v31, v31, t0\n", voff);
    voff = 0;
  }
  for (int i = 0; i < 256; i++)
    if (v[i]) {
      cc_printf(t, "        %s   v%d, %u(v31)\n", restore ? "vlw.v" : "vsw.v", i, voff);
      voff += 4;
    }
}

void cc_emit_prologue(cc_fn *f, cc_text *t) { save_restore(f, t, 0); }
void cc_emit_epilogue(cc_fn *f, cc_text *t) { save_restore(f, t, 1); }

void cc_emit_call(cc_fn *f, const cc_minst *m, cc_text *t) {
  size_t len;
  const char *name = LLVMGetValueName2(f->callees->v[m->op[0].v].fn, &len);
  addi(t, "sp", (int32_t)f->sp_frame);
  addi(t, "tp", (int32_t)f->tp_frame);
  cc_printf(t, "        jal     ra, %.*s\n", (int)len, name);
  addi(t, "sp", -(int32_t)f->sp_frame);
  addi(t, "tp", -(int32_t)f->tp_frame);
}

/* a stack-passed argument word: at tp + this frame + its offset */
void cc_emit_argst(cc_fn *f, const cc_minst *m, cc_text *t) {
  uint32_t off = f->tp_frame + (uint32_t)m->op[1].v;
  int p = f->phys[m->op[0].v];
  cc_puts(t, "        vmv.v.x v31, tp\n");
  if (off > 2047) {
    cc_printf(t, "        li      t0, %u\n        vadd.vx v31, v31, t0\n", off);
    off = 0;
  }
  cc_printf(t, "        vsw.v   v%d, %u(v31)\n", p, off);
}
