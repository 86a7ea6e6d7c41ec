/* The OpenCL C compiler's back end: shared types of its stages (docs/compiler.md).
 *
 * A kernel goes LLVM IR -> uniformity (cc_uniform.c) -> machine code on
 * virtual registers (cc_isel*.c) -> physical registers (cc_regalloc.c) ->
 * assembly text (cc_emit.c). Machine instructions are assembly templates:
 * "%0".."%3" name the operands, the first ndefs of which are written. */
#ifndef VT_CC_INTERNAL_H
#define VT_CC_INTERNAL_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stddef.h>
#include <stdint.h>

#include "cc.h"
#include "vt_error.h"

enum { CC_OP_NONE, CC_OP_REG, CC_OP_IMM, CC_OP_LABEL, CC_OP_SYM, CC_OP_LOCAL /* a label inside a block */, CC_OP_FN /* a device function */,
       CC_OP_AMOL /* the label of an AMO on __local memory (.ventus.amo_local) */,
       CC_OP_PHYS /* a fixed scalar register, x0 or s0 (cc_peephole.c) */ };
/* register classes: scalar (sGPR), vector (vGPR), and an even-aligned pair
 * of vector registers {v[n+1], v[n]} for a SEW-64 element (a template names
 * its high register %h0..%h3); pairs live inside one operation and are
 * never spilled */
enum { CC_S = 0, CC_V = 1, CC_VP = 2 };

typedef struct {
  uint8_t kind;
  int32_t v; /* vreg, immediate or block index */
} cc_opnd;

typedef struct {
  const char *fmt;
  cc_opnd op[4];
  uint8_t nops, ndefs; /* operands past those the format names are extra uses */
} cc_minst;

typedef struct {
  cc_minst *v;
  int n, cap;
} cc_mblock;

/* growable text */
typedef struct {
  char *p;
  size_t n, cap;
  int oom;
} cc_text;
void cc_puts(cc_text *t, const char *s);
void cc_printf(cc_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* pointer -> int map (LLVM values to their numbers) */
typedef struct {
  const void **k;
  int *v;
  size_t cap, n;
} cc_map;
int cc_map_put(cc_map *m, const void *k, int v); /* -1 out of memory */
int cc_map_get(const cc_map *m, const void *k);  /* -1 if absent */
void cc_map_free(cc_map *m);

/* Device functions that stay calls (noinline), compiled before their
 * callers; a caller's frames and register counts include its callees'. */
typedef struct {
  LLVMValueRef fn;
  int state;                 /* 0 not compiled, 1 being compiled, 2 done */
  uint32_t sp_total, tp_total; /* bytes of warp stack / private frame, the deepest call chain included */
  int vgprs, sgprs;
} cc_callee;

typedef struct {
  cc_callee *v;
  int n;
} cc_callees;

/* One kernel (function) being compiled. */
typedef struct {
  LLVMModuleRef mod;
  LLVMTargetDataRef td;
  LLVMValueRef fn;
  const char *name;
  vt_error *e;
  /* CFG in layout order */
  LLVMBasicBlockRef *bb;
  int nbb;
  int **succ, *nsucc;
  int *ipdom;      /* immediate post-dominator, -1 = the function's exit */
  uint8_t *divbr;  /* the block ends in a divergent (per-lane) branch */
  uint8_t *inreg;  /* the block lies inside a divergent region */
  uint8_t *isjoin; /* the block is where a divergent region reconverges */
  uint8_t *phidiv; /* paths from two sides of a divergent branch meet here */
  int *pred1;      /* cc_select: a block's one predecessor, -1 if it has none or several */
  cc_map blk;      /* LLVMBasicBlockRef -> index */
  /* values: instructions and arguments */
  cc_map val;      /* LLVMValueRef -> value number */
  uint8_t *div;    /* per value number: divergent */
  int *vreg;       /* per value number: its virtual register, -1 none yet */
  int **grp;       /* per value number of an LLVM vector (float4, ...): one register per element */
  int nval;
  uint8_t *folded; /* per value number: compare folded into its branch */
  /* machine code */
  cc_mblock *mb;
  uint8_t *rclass; /* per vreg */
  int nvreg, capvreg;
  int *phys;       /* per vreg after allocation */
  int cur;         /* block being selected */
  int nlabel;      /* local labels for setrpc */
  int nlocal;      /* labels of loops inside one block (i64 division) */
  int namol;       /* AMOs on __local memory, listed in .ventus.amo_local (cc_isel_atomic.c) */
  int vgprs, sgprs;
  /* layout of static __local data and program-scope data */
  cc_map *lds_off; /* global -> byte offset from s0 (module-wide) */
  cc_map *gsyms;   /* program-scope data the kernel addresses -> number */
  uint32_t lds_bytes;
  uint32_t pds_bytes; /* private frame per work-item (allocas), from tp */
  int uses_printf;    /* the kernel writes print-buffer records (cc_printf.c) */
  /* calls (cc_calls.c) */
  int is_func;          /* a device function (arguments in v0.., result in v0), not a kernel */
  int ncalls;           /* calls of device functions it makes */
  int atomics;          /* bytes of atomics scratch at sp: 0, 512, 768 with 64-bit atomics */
  int nsslot;           /* uniform spill slots (regalloc) */
  cc_callees *callees;  /* module-wide */
  const struct cc_budget_s *budget; /* the compilation's deadline, checked by long passes (cc_budget.h) */
  uint32_t sp_frame;    /* own warp-stack bytes: atomics scratch, spills, ra and saved registers */
  uint32_t tp_frame;    /* own private bytes: variables, spills, saved vector registers */
  uint32_t callee_sp, callee_tp; /* deepest callee chain */
  int callee_vgprs, callee_sgprs;
  /* work-item values selected in the entry block, register + 1 (0: none
   * yet; cc_isel_call.c): the knl CSR, its words, the linear local id,
   * local, group and global ids */
  int wi_knl, wi_word[16], wi_lin, wi_lid[3], wi_grp[3], wi_gid[3];
  /* address parts already computed in the block being selected
   * (cc_isel.c: scaled GEP indices, static __local addresses), reused
   * instead of computed again; a small ring */
  struct {
    LLVMValueRef key;
    uint64_t size;
    int blk, vec, reg;
  } addr_memo[16];
  int addr_next, addr_used;
} cc_fn;

/* cc_uniform.c */
int cc_build_cfg(cc_fn *f);
int cc_uniformity(cc_fn *f);
void cc_fn_free(cc_fn *f);

/* cc_isel.c */
int cc_select(cc_fn *f);
int cc_new_vreg(cc_fn *f, int cls);
int cc_emit_i(cc_fn *f, const char *fmt, int ndefs, int nops, const cc_opnd *ops);
cc_opnd cc_r(int vreg);
cc_opnd cc_imm(int32_t v);
cc_opnd cc_lab(int blk);
#define CC_EMIT(f, fmt, ndefs, ...)                                                          \
  cc_emit_i((f), (fmt), (ndefs), (int)(sizeof((cc_opnd[]){__VA_ARGS__}) / sizeof(cc_opnd)), \
            (cc_opnd[]){__VA_ARGS__})
int cc_val_num(cc_fn *f, LLVMValueRef v);
/* "file:line" of the source a refusal points at into buf: at's debug
 * location, else the nearest in its block, else the function's own line;
 * NULL when the module has no line tables */
const char *cc_where(const cc_fn *f, LLVMValueRef at, char *buf, size_t cap);
int cc_unsupported(cc_fn *f, LLVMValueRef at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int cc_sreg(cc_fn *f, LLVMValueRef v);  /* uniform value in a scalar register, -1 error */
int cc_vec(cc_fn *f, LLVMValueRef v);   /* value in a vector register (broadcast if uniform) */
int cc_int_width(LLVMTypeRef t);         /* 1..32, 0 if not an integer/pointer/float of <= 32 bits */
int cc_operand(cc_fn *f, LLVMValueRef v, int vec, int sext); /* sign-extended to 32 bits if sext */
int cc_mask_to(cc_fn *f, int r, int vec, int w);             /* zero-extends a w-bit value */
int *cc_group_of(cc_fn *f, LLVMValueRef v, int vec); /* an LLVM vector's element registers (caller frees) */
int cc_set_group(cc_fn *f, LLVMValueRef in, int *g); /* takes g */
int cc_vec_words(LLVMTypeRef t); /* registers of a vector: 2 per 64-bit element, 0 if not a vector */

/* cc_isel_vec64.c: extract/insert/shuffle on vectors of 64-bit elements */
int cc_select_vec64_op(cc_fn *f, LLVMValueRef in, int vec);

/* cc_isel_i64.c: operations in their scalar or vector (.vv) form (vec);
 * d < 0 asks for a new register; any operand < 0 (an earlier error) gives -1 */
enum { CC_XADD, CC_XSUB, CC_XAND, CC_XOR, CC_XXOR, CC_XSLL, CC_XSRL, CC_XSRA, CC_XSLTU, CC_XSLT, CC_XSEQ, CC_XMUL, CC_XMULHU, CC_XNOPS };
int cc_x3(cc_fn *f, int vec, int op, int d, int a, int b);
int cc_xi(cc_fn *f, int vec, int op, int d, int a, int32_t imm); /* shifts, CC_XADD/AND/XOR with an immediate */
int cc_xk(cc_fn *f, int vec, int32_t v);                         /* a constant */
int cc_xneg(cc_fn *f, int vec, int a);
int cc_xpick(cc_fn *f, int vec, int m, int x, int y); /* m (all ones or zero) ? x : y */

/* cc_isel_i64.c: 64-bit integers as register pairs {low, high} in f->grp */
int cc_is_i64(LLVMTypeRef t);
int cc_i64_involved(LLVMValueRef in); /* selected by cc_select_i64 */
int cc_select_i64(cc_fn *f, LLVMValueRef in, int vec);
int cc_i64_bits_known(const char *name); /* clz, popcount, rotate, ... of long */
int cc_i64_pair(cc_fn *f, LLVMValueRef v, int vec, int out[2]);
int cc_i64_phi_regs(cc_fn *f, LLVMValueRef phi);
int cc_i64_copy(cc_fn *f, const int d[2], LLVMValueRef src);
int cc_i64_shift(cc_fn *f, int vec, LLVMOpcode op, const int a[2], int s, int out[2]); /* by a run-time s, 0..63 */
int cc_i64_lt(cc_fn *f, int vec, int sgn, const int a[2], const int b[2]);            /* a < b: 0/1 */
int cc_i64_negate_if(cc_fn *f, int vec, const int x[2], int s, int out[2]);           /* (x ^ s) - s */
int cc_i64_set(cc_fn *f, LLVMValueRef in, const int p[2]);                            /* in's registers */

/* cc_isel_convert64.c: long <-> float and long <-> narrower integers (rm: 0 rne, 1 rtz, 2 rdn, 3 rup, -1 default) */
int cc_select_i64_fpcast(cc_fn *f, LLVMValueRef in, int vec); /* sitofp, uitofp, fptosi, fptoui of i64 */
int cc_select_convert64(cc_fn *f, LLVMValueRef call, int dfl, int dsgn, int dw, int sfl, int ssgn, int sw, int sat, int rm);

/* cc_module.c, cc_link.c: bitcode of one or several units, linked into one
 * module (cc_read_linked), to assembly text, or to one bitcode library */
int cc_compile_bitcode(const char *const *bcs, const size_t *lens, int n, const cc_options *o, const char *origin,
                       char **asm_out, vt_error *e);
int cc_read_linked(LLVMContextRef ctx, const char *const *bcs, const size_t *lens, int n, LLVMModuleRef *out,
                   vt_error *e);
int cc_link_bitcode(const char *const *bcs, const size_t *lens, int n, uint8_t **out, size_t *out_size, vt_error *e);
/* cc_optimise.c: clang's -O<opt> passes on its unoptimised IR, bounded,
 * for the levels where cc_front_raw(opt) (cc_front.h) */
int cc_optimise(LLVMModuleRef m, int opt, vt_error *e);

/* cc_printf.c: printf as print-buffer records */
int cc_printf_lower(LLVMModuleRef m);
int cc_select_printf(cc_fn *f, LLVMValueRef call);

/* cc_isel_args.c: kernel arguments by value that are vectors or structs */
LLVMTypeRef cc_byval_type(LLVMValueRef fn, unsigned ai); /* a struct passed by value, else NULL */
uint32_t cc_arg_size(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef a, unsigned ai);
int cc_load_value_arg(cc_fn *f, LLVMValueRef a, unsigned ai, uint32_t off);

/* cc_isel_call.c: OpenCL builtins and LLVM intrinsics */
int cc_select_call(cc_fn *f, LLVMValueRef call, int vec);
int cc_call_is_divergent(LLVMValueRef call);
int cc_builtin_known(const char *name); /* mapped by the back end itself */

/* the longest kernel name (the OpenCL platform's bound) and the most
 * __local data of a kernel (the most a resource record may declare to it) */
#define CC_KERNEL_NAME_MAX 4095
#define CC_LOCAL_MAX (16u << 20)

/* cc_libclc.c: the math builtins a module calls, linked from libclc */
int cc_link_libclc(LLVMModuleRef m, vt_error *e);
/* a work-item's private variables (allocas, byval copies, struct
 * arguments) take at most this many bytes of its frame */
#define CC_PRIVATE_VARS_MAX 32768
/* a new scalar register holding tp + off (addi, or li and add past addi's reach) */
int cc_tp_plus(cc_fn *f, uint32_t off);
/* cc_embedded.c: one of our device libraries (src/cc/lib) compiled with
 * clang (-g0 and flags) and linked into m; passes (LLVM pipeline text)
 * and shape run on it first when given */
typedef struct {
  const char *text, *what; /* the source; "software double library" */
  const char *passes;
  void (*shape)(LLVMModuleRef lib);
} cc_embedded_lib;
int cc_link_embedded(LLVMModuleRef m, const cc_embedded_lib *lib, const char *const *flags, int nflags, vt_error *e);
/* the float builtins whose libclc bodies flush subnormals (exp, exp2,
 * ldexp, fmod, remquo) taken from src/cc/lib/subnormal.cl instead */
int cc_link_subnormal(LLVMModuleRef m, vt_error *e);
int cc_subnormal_known(const char *name); /* a scalar builtin it replaces (vector forms are split into it) */
/* cc_bitcode.c: a bitcode library file read with bounds and a magic check,
 * parsed without LLVM's exiting diagnostic handler (VT_ERR_FORMAT "P: not a
 * readable LLVM bitcode library (WHY)"); lazily: its function bodies are
 * read when the linker takes them */
int cc_read_bitcode_library(LLVMContextRef ctx, const char *path, LLVMModuleRef *out, vt_error *e);
/* links lib (consumed) into u with a diagnostic handler of ours: a body
 * read lazily may be malformed only now */
int cc_link_bitcode_library(LLVMModuleRef u, LLVMModuleRef lib, const char *path, vt_error *e);
/* cc_fatal.c: fn(arg) with LLVM's fatal errors turned into VT_ERR_INTERNAL
 * (the compilation's LLVM state is abandoned) instead of exit(1) */
int cc_guarded(int (*fn)(void *arg), void *arg, vt_error *e);
/* llvm.{s,u}{min,max}/abs of other widths and llvm.*.sat as plain IR (cc_lower_int.c) */
void cc_lower_int_intrinsics(LLVMModuleRef m, int isa);
/* llvm.memset/memcpy/memmove of a run-time or large length as loops
 * (cc_lower_mem.c); how many; break-crit-edges must run again after it */
int cc_lower_mem_intrinsics(LLVMModuleRef m);
/* Moves the instructions ahead of inst into a new block before its block,
 * which the predecessors now branch to (the caller ends it with its own
 * code); NULL when the block's address is taken. */
LLVMBasicBlockRef cc_split_before(LLVMContextRef ctx, LLVMValueRef inst);
/* async_work_group_copy and _strided_copy as loops over the work-group,
 * wait_group_events as a barrier, prefetch dropped (cc_lower_async.c;
 * before the optimiser) */
void cc_lower_async(LLVMModuleRef m);
/* An fcmp of predicate p (LLVMRealPredicate) on x and y from a unit's
 * three compares, cmp giving 0/1 as i32 (cc_lower_fcmp.c) */
enum { CC_FEQ, CC_FLT, CC_FLE };
typedef LLVMValueRef (*cc_fcmp_prim)(void *ctx, int kind, LLVMValueRef a, LLVMValueRef b);
LLVMValueRef cc_fcmp_by(LLVMBuilderRef b, unsigned p, LLVMValueRef x, LLVMValueRef y, cc_fcmp_prim cmp, void *ctx);
/* the work-item functions of a constant dimension called once per function
 * and dimension, in the entry block (cc_lower_workitem.c; last before
 * selection) */
void cc_hoist_workitems(LLVMModuleRef m);
/* cc_lower_addr.c: constant address offsets split from GEPs (for the
 * loads' and stores' immediates) */
int cc_split_address_offsets(LLVMModuleRef m, vt_error *e);
/* the functions the source declares inline as linkonce_odr (cc_inline.c;
 * each unit, before linking) */
void cc_inline_odr(LLVMModuleRef m);
/* loads and stores aligned below their elements' width as byte accesses
 * (cc_lower_unaligned.c; after the optimiser) */
void cc_lower_unaligned(LLVMModuleRef m);

/* cc_scalarize.c: vector calls of the builtins (before libclc is linked) and
 * of element-wise LLVM intrinsics (after the optimiser) as scalar calls */
void cc_scalarize_builtins(LLVMModuleRef m);
void cc_scalarize_intrinsics(LLVMModuleRef m);

/* the half bits of a float's bits u whose value a half holds exactly (a
 * half constant) */
uint16_t cc_half_bits(uint32_t u);
/* cc_lower_f16.c: half arithmetic as float, rounded back to half (after
 * the optimiser, before cc_lower_f64) */
void cc_lower_f16(LLVMModuleRef m, int isa); /* isa 2025: SEW-16 primitives (cc_isel_f16v.c) */
/* cc_f16_builtins.c: builtins of half as the float ones (before libclc) */
void cc_map_f16_builtins(LLVMModuleRef m);

/* cc_lower_fp.c: half <-> float conversions (before the optimiser) and
 * llvm.is.fpclass (after it) as integer IR */
void cc_lower_half(LLVMModuleRef m);
/* vstore[a]_half* of float values (before libclc); isa 2025 rounds to nearest with the unit's conversion */
void cc_lower_vstore_half(LLVMModuleRef m, int isa);
void cc_lower_fpclass(LLVMModuleRef m);
/* float (or a float vector) to half bits (i16) in rounding mode rm: 0 rte, 1 rtz, 2 rtp, 3 rtn */
LLVMValueRef cc_float_to_half_bits(LLVMBuilderRef b, LLVMValueRef x, int rm);
/* cc_lower_f64.c: double operations as calls of the software library,
 * which is linked in when used (after the optimiser); for isa 2025 those
 * the vector unit has as calls of __cy_v64_* primitives, selected by
 * cc_select_f64v */
int cc_lower_f64(LLVMModuleRef m, int isa, vt_error *e);
/* cc_emit_rev.c: the finished text (malloc'd) with the baseline's private
 * loads and stores named as revision 2025's (vlw.v -> vlw_private.v); -1 out of memory */
int cc_text_rev2025(char **text);
/* cc_isel_f64v.c: a __cy_v64_* primitive as SEW-64 vector instructions
 * (-1 not one, 0 selected, -2 error) */
int cc_select_f64v(cc_fn *f, LLVMValueRef call, const char *name);
/* cc_fixed.c: hadd, rhadd, mul_hi and the saturating additions at their
 * element width (revision 2025; mul_hi of int on both): the builtins'
 * scalar names, which the scalarizer splits vector forms into (known),
 * those calls renamed to __cy_vx_* primitives before libclc (map), the
 * saturating intrinsics cc_lower_int.c leaves for them (keeps), and their
 * selection (-1 not one, 0 selected, -2 error) */
int cc_fixed_known(const char *name);
int cc_fixed_keeps(const char *name, int isa);
void cc_map_fixed_builtins(LLVMModuleRef m, int isa);
int cc_select_fixed(cc_fn *f, LLVMValueRef call, const char *name);
/* cc_isel_f16v.c: a __cy_v16_* primitive as SEW-16 vector instructions
 * (-1 not one, 0 selected, -2 error) */
int cc_select_f16v(cc_fn *f, LLVMValueRef call, const char *name);
/* cc_lower_image.c: image and sampler values as descriptor addresses and
 * CLK_* bits, the image builtins as calls of src/cc/lib/images.cl (linked
 * when the module uses images); first, on the module as read */
int cc_lower_images(LLVMModuleRef m, vt_error *e);
/* cc_f64_builtins.c: sqrt, fabs, fma, ... of double as LLVM intrinsics (before libclc) */
void cc_map_f64_builtins(LLVMModuleRef m);

/* cc_isel_atomic.c: -1 not an atomic builtin, 0 selected, -2 error */
int cc_select_atomic_call(cc_fn *f, LLVMValueRef call, const char *name);
int cc_select_atomicrmw(cc_fn *f, LLVMValueRef in);
/* cc_isel_atomic64.c: atom_* on long/ulong (opname: "add", ...; sgn: long) and atomicrmw i64, under a lock */
int cc_select_atomic64_call(cc_fn *f, LLVMValueRef call, const char *opname, int oplen, int sgn);
int cc_select_atomic64_rmw(cc_fn *f, LLVMValueRef in);

/* cc_isel_bits.c: clz, ctz, popcount, rotate, bitselect, byte swaps (-1 not
 * one of them, 0 selected, -2 error); the word operations for i64 */
int cc_select_bits_call(cc_fn *f, LLVMValueRef call, const char *name);
int cc_bits_popcount(cc_fn *f, int vec, int x);
int cc_bits_clz(cc_fn *f, int vec, int x);
int cc_bits_ctz(cc_fn *f, int vec, int x);
int cc_bits_bswap32(cc_fn *f, int vec, int x);
int cc_bits_known(const char *name); /* one of the OpenCL names or intrinsics above */

/* cc_calls.c: the calling convention of device functions (docs/compiler.md) */
int cc_fn_params(cc_fn *f);                       /* a device function's arguments from v0.. */
int cc_fn_return(cc_fn *f, LLVMValueRef ret);     /* its result into v0 (v1), then ret */
int cc_select_fn_call(cc_fn *f, LLVMValueRef call); /* a call that stays a call */
int cc_frames(cc_fn *f);                          /* frames after allocation; error if a stack overflows */
void cc_emit_prologue(cc_fn *f, cc_text *t);
void cc_emit_epilogue(cc_fn *f, cc_text *t);
void cc_emit_call(cc_fn *f, const cc_minst *m, cc_text *t);
void cc_emit_argst(cc_fn *f, const cc_minst *m, cc_text *t);

/* cc_isel_convert.c: convert_<type>[_sat][_<rounding>] (-1 not one, 0 selected, -2 error) */
int cc_select_convert_call(cc_fn *f, LLVMValueRef call, const char *name);

/* cc_regalloc.c */
int cc_regalloc(cc_fn *f);

/* cc_peephole.c: before allocation, scalars that are zero or s0 read x0 /
 * s0 themselves; after it, self-copies, jumps to jumps, branches over a
 * jump to the next block and jumps to the next block go */
int cc_fixed_operands(cc_fn *f);
int cc_peephole(cc_fn *f);
const char *cc_branch_inverse(const char *fmt); /* the opposite condition's template, NULL if none */
/* cc_hoist.c: loop and repeated constants made once at the start */
int cc_hoist_constants(cc_fn *f);
/* cc_rpc.c: auipc + setrpc only where the rpc CSR may hold another value */
int cc_rpc_once(cc_fn *f);

/* cc_emit.c */
int cc_emit_kernel(cc_fn *f, cc_text *out);
const char *cc_fn_label(cc_fn *f, int blk, char *buf, size_t len);

#endif
