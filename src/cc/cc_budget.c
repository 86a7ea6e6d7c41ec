/* The budget of one compilation (cc_budget.h): resolved once from the
 * options and the environment, then read only, so compilations on
 * several threads each keep their own. */
#include "cc_budget.h"

#include <stdlib.h>
#include <time.h>

double cc_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* a non-negative number from the environment, else dflt */
static double env_number(const char *name, double dflt) {
  const char *s = getenv(name);
  if (!s || !*s) return dflt;
  char *end;
  double v = strtod(s, &end);
  return *end || !(v >= 0) ? dflt : v;
}

void cc_budget_start(cc_budget *b, const cc_options *o) {
  /* an option's 0 means "not given"; a negative value means none */
  double s = o->max_seconds ? o->max_seconds : env_number("CHENGYING_CC_MAX_SECONDS", CC_DEFAULT_MAX_SECONDS);
  double n = o->max_insns ? (double)o->max_insns : env_number("CHENGYING_CC_MAX_INSNS", (double)CC_DEFAULT_MAX_INSNS);
  b->seconds = s > 0 ? s : 0;
  b->deadline = cc_now() + b->seconds;
  b->max_insns = n > 0 ? (n > 1e15 ? (long)1e15 : (long)n) : 0;
}

double cc_budget_left(const cc_budget *b) {
  return b->seconds > 0 ? b->deadline - cc_now() : 1e9;
}

int cc_budget_check(const cc_budget *b, const char *what, vt_error *e) {
  if (cc_budget_left(b) >= 0) return 0;
  return vt_fail(e, VT_ERR_CONFIG, "%s: compiling took more than the compile-time budget of %g s (" CC_BUDGET_HOW_SECONDS ")",
                 what, b->seconds);
}

int cc_budget_size(const cc_budget *b, LLVMValueRef fn, const char *what, vt_error *e) {
  if (!b->max_insns) return 0;
  long n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) n++;
  if (n <= b->max_insns) return 0;
  return vt_fail(e, VT_ERR_CONFIG,
                 "%s: %ld operations after inlining and optimisation, more than the size budget of %ld (" CC_BUDGET_HOW_INSNS
                 ")",
                 what, n, b->max_insns);
}
