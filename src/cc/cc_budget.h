/* The compile-time and size budget of one compilation (cc_budget.c;
 * docs/compiler.md "Bounded compilation"): a deadline that the front end
 * (clang, killed when it passes) and the back end (checked between its
 * passes) share, and a bound on the size of each function the back end
 * takes. */
#ifndef VT_CC_BUDGET_H
#define VT_CC_BUDGET_H

#include <llvm-c/Core.h>

#include "cc.h"

#define CC_DEFAULT_MAX_SECONDS 120.0
#define CC_DEFAULT_MAX_INSNS 1000000L

typedef struct cc_budget_s {
  double seconds;  /* the time budget, 0 = none */
  double deadline; /* CLOCK_MONOTONIC seconds when it ends (when seconds > 0) */
  long max_insns;  /* LLVM instructions per function after optimisation, 0 = none */
} cc_budget;

/* The budget of o (its fields, else CHENGYING_CC_MAX_SECONDS and
 * CHENGYING_CC_MAX_INSNS, else the defaults above), starting now. */
void cc_budget_start(cc_budget *b, const cc_options *o);
double cc_now(void);
/* Seconds left (< 0 past the deadline); a large number without a budget. */
double cc_budget_left(const cc_budget *b);
/* -1 with e naming what (e.g. "kernel k") once the deadline has passed */
int cc_budget_check(const cc_budget *b, const char *what, vt_error *e);
/* -1 with e when fn has more instructions than the size budget */
int cc_budget_size(const cc_budget *b, LLVMValueRef fn, const char *what, vt_error *e);
/* the words that say how to change the time budget, for messages */
#define CC_BUDGET_HOW_SECONDS                                                                                          \
  "ventus cc --max-compile-seconds=N, the build option -ventus-max-compile-seconds=N or CHENGYING_CC_MAX_SECONDS; "    \
  "0 = none"
#define CC_BUDGET_HOW_INSNS                                                                                            \
  "ventus cc --max-compile-insns=N, the build option -ventus-max-compile-insns=N or CHENGYING_CC_MAX_INSNS; 0 = none"

#endif
