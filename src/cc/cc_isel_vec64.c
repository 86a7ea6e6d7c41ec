/* Vectors of 64-bit elements (long2 ... ulong16). The scalarizer leaves
 * their arithmetic as scalar i64 operations (register pairs, cc_isel_i64.c);
 * what stays a vector value is a group of 2N registers, element i in words
 * 2i (low) and 2i + 1 (high) — the layout of <2N x i32>, so loads, stores,
 * arguments and reinterpretations move words as for any vector. Here:
 * taking an element out, putting one in, and shuffles. */
#include <stdlib.h>

#include "cc_internal.h"

static int oom(cc_fn *f) { return vt_fail(f->e, VT_ERR_NOMEM, "out of memory while compiling kernel %s", f->name); }

/* an element index that must be a constant */
static int const_index(cc_fn *f, LLVMValueRef in, LLVMValueRef idx, unsigned *i) {
  if (!LLVMIsAConstantInt(idx)) return cc_unsupported(f, in, "a vector element chosen at run time");
  *i = (unsigned)LLVMConstIntGetZExtValue(idx);
  return 0;
}

static int extract(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMValueRef v = LLVMGetOperand(in, 0);
  unsigned i = 0, n = LLVMGetVectorSize(LLVMTypeOf(v));
  if (const_index(f, in, LLVMGetOperand(in, 1), &i)) return -1;
  if (i >= n) i = 0; /* poison in LLVM: any value will do */
  int *g = cc_group_of(f, v, vec), *p = malloc(2 * sizeof *p);
  if (!g || !p) {
    free(g);
    free(p);
    return g ? oom(f) : -1;
  }
  p[0] = g[2 * i];
  p[1] = g[2 * i + 1];
  free(g);
  return cc_set_group(f, in, p);
}

static int insert(cc_fn *f, LLVMValueRef in, int vec) {
  unsigned i = 0, n = LLVMGetVectorSize(LLVMTypeOf(in));
  if (const_index(f, in, LLVMGetOperand(in, 2), &i)) return -1;
  int *g = cc_group_of(f, LLVMGetOperand(in, 0), vec);
  if (!g) return -1;
  if (i < n && cc_i64_pair(f, LLVMGetOperand(in, 1), vec, g + 2 * i)) {
    free(g);
    return -1;
  }
  return cc_set_group(f, in, g);
}

static int shuffle(cc_fn *f, LLVMValueRef in, int vec) {
  LLVMValueRef a = LLVMGetOperand(in, 0), b = LLVMGetOperand(in, 1);
  int na = (int)LLVMGetVectorSize(LLVMTypeOf(a)), n = (int)LLVMGetVectorSize(LLVMTypeOf(in)), rc = -1;
  int *ga = cc_group_of(f, a, vec), *gb = ga ? cc_group_of(f, b, vec) : NULL, *g = calloc(2 * (size_t)n + 1, sizeof *g);
  if (!ga || !gb || !g) {
    if (ga && gb) oom(f);
    goto done;
  }
  for (int i = 0; i < n; i++) {
    int m = LLVMGetMaskValue(in, (unsigned)i);
    const int *src = m < 0 ? ga : m < na ? ga + 2 * m : gb + 2 * (m - na); /* undefined lanes: any element */
    g[2 * i] = src[0];
    g[2 * i + 1] = src[1];
  }
  rc = cc_set_group(f, in, g);
  g = NULL;
done:
  free(ga);
  free(gb);
  free(g);
  return rc;
}

int cc_select_vec64_op(cc_fn *f, LLVMValueRef in, int vec) {
  switch (LLVMGetInstructionOpcode(in)) {
  case LLVMExtractElement: return extract(f, in, vec);
  case LLVMInsertElement: return insert(f, in, vec);
  case LLVMShuffleVector: return shuffle(f, in, vec);
  default: return cc_unsupported(f, in, "an operation on a whole vector of 64-bit elements");
  }
}
