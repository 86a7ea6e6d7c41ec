/* Float builtins with subnormal operands or results: libclc's nvptx build
 * flushes them (exp and exp2 return 0 for a subnormal result, ldexp drops
 * a subnormal argument, fmod and remquo lose subnormal operands; its
 * double ldexp turns a NaN into an infinity or 0, its double fmod and
 * remquo loop over software double operations for billions of
 * instructions on operands far apart), while
 * our device computes float subnormals exactly and says so
 * (CL_FP_DENORM). A program's calls of those builtins are renamed to the
 * functions of src/cc/lib/subnormal.cl, compiled (only the parts needed)
 * and linked before libclc, which then supplies what they call in turn. */
#include <string.h>

#include "cc_internal.h"

extern const char cc_subnormal_cl[];

static const struct {
  const char *builtin, *ours, *macro;
} fixes[] = {
    {"_Z3expf", "__cy_sub_expf", "-DNEED_EXP"},
    {"_Z4exp2f", "__cy_sub_exp2f", "-DNEED_EXP2"},
    {"_Z5ldexpfi", "__cy_sub_ldexpf", "-DNEED_LDEXP"},
    {"_Z5ldexpdi", "__cy_sub_ldexpd", "-DNEED_LDEXPD"},
    {"_Z4fmodff", "__cy_sub_fmodf", "-DNEED_FMOD"},
    {"_Z6remquoffPi", "__cy_sub_remquof_p", "-DNEED_REMQUO"},
    {"_Z6remquoffPU3AS1i", "__cy_sub_remquof_g", "-DNEED_REMQUO"},
    {"_Z6remquoffPU3AS3i", "__cy_sub_remquof_l", "-DNEED_REMQUO"},
    {"_Z4fmoddd", "__cy_sub_fmodd", "-DNEED_FMODD"},
    {"_Z6remquoddPi", "__cy_sub_remquod_p", "-DNEED_REMQUOD"},
    {"_Z6remquoddPU3AS1i", "__cy_sub_remquod_g", "-DNEED_REMQUOD"},
    {"_Z6remquoddPU3AS3i", "__cy_sub_remquod_l", "-DNEED_REMQUOD"},
};
enum { NFIX = sizeof fixes / sizeof *fixes };

int cc_subnormal_known(const char *name) {
  for (int i = 0; i < NFIX; i++)
    if (!strcmp(name, fixes[i].builtin)) return 1;
  return 0;
}

int cc_link_subnormal(LLVMModuleRef m, vt_error *e) {
  const char *flags[NFIX];
  int nflags = 0;
  for (int i = 0; i < NFIX; i++) {
    LLVMValueRef fn = LLVMGetNamedFunction(m, fixes[i].builtin);
    if (!fn || LLVMGetFirstBasicBlock(fn) || !LLVMGetFirstUse(fn) || LLVMGetNamedFunction(m, fixes[i].ours)) continue;
    LLVMSetValueName2(fn, fixes[i].ours, strlen(fixes[i].ours));
    int seen = 0;
    for (int k = 0; k < nflags; k++) seen |= !strcmp(flags[k], fixes[i].macro);
    if (!seen) flags[nflags++] = fixes[i].macro;
  }
  if (!nflags) return 0;
  static const cc_embedded_lib lib = {.text = cc_subnormal_cl, .what = "subnormal float library"};
  return cc_link_embedded(m, &lib, flags, nflags, e);
}
