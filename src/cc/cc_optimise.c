/* clang's -On optimisation, run in our process on clang's unoptimised IR
 * (cc_front.c's raw mode, -disable-llvm-passes), so that it is bounded:
 * LLVM 19's SimplifyCFG is quadratic in the predecessors of a block (for
 * each empty predecessor, TryToSimplifyUncondBranchFromEmptyBlock builds a
 * set of all of them): a 10,000-case switch, whose exit has 10,000
 * predecessors, spent 14 s of clang's 15 there. A module with such a block
 * gets the pipeline's cheap function passes instead; every other module
 * gets exactly clang's. For -O2, the default, and -O3 (cc_front_raw). */
#include <llvm-c/Transforms/PassBuilder.h>

#include "cc_front.h"
#include "cc_internal.h"

int cc_front_raw(int opt) { return opt == 2 || opt == 3; }

/* more predecessors than this: seconds of SimplifyCFG (1,000: ~0.05 s) */
#define CC_MANY_PREDS 1024

/* clang-19 -O2's own pipeline (opt-19 -passes='default<O2>'
 * -vectorize-loops=false -print-pipeline-passes) without slp-vectorizer,
 * which LLVM 19 adds whatever PassBuilderOptions say (clang turns it off
 * with a global option, -vectorize-slp=false, that a library must not set):
 * clang's -O2 -fno-vectorize -fno-slp-vectorize, pass for pass */
static const char *const pipeline_o2 =
    "annotation2metadata,forceattrs,inferattrs,coro-early,function<eager-inv>(ee-instrument<>,"
    "lower-expect,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "sroa<modify-cfg>,early-cse<>),openmp-opt,ipsccp,called-value-propagation,globalopt,"
    "function<eager-inv>(mem2reg,instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>),"
    "always-inline,require<globals-aa>,function(invalidate<aa>),require<profile-summary>,"
    "cgscc(devirt<4>(inline,function-attrs<skip-non-recursive-function-attrs>,openmp-opt-cgscc,"
    "function<eager-inv;no-rerun>(sroa<modify-cfg>,early-cse<memssa>,"
    "speculative-execution<only-if-divergent-target>,jump-threading,correlated-propagation,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,aggressive-instcombine,"
    "libcalls-shrinkwrap,tailcallelim,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "reassociate,constraint-elimination,loop-mssa(loop-instsimplify,loop-simplifycfg,"
    "licm<no-allowspeculation>,loop-rotate<header-duplication;no-prepare-for-lto>,licm<allowspeculation>,"
    "simple-loop-unswitch<no-nontrivial;trivial>),"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop(loop-idiom,indvars,"
    "simple-loop-unswitch<no-nontrivial;trivial>,loop-deletion,loop-unroll-full),sroa<modify-cfg>,"
    "vector-combine,mldst-motion<no-split-footer-bb>,gvn<>,sccp,bdce,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,jump-threading,"
    "correlated-propagation,adce,memcpyopt,dse,move-auto-init,loop-mssa(licm<allowspeculation>),"
    "coro-elide,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;hoist-common-insts;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>),function-attrs,"
    "function(require<should-not-run-function-passes>),coro-split)),deadargelim,coro-cleanup,globalopt,"
    "globaldce,elim-avail-extern,rpo-function-attrs,recompute-globalsaa,function<eager-inv>(float2int,"
    "lower-constant-intrinsics,loop(loop-rotate<header-duplication;no-prepare-for-lto>,loop-deletion),"
    "loop-distribute,inject-tli-mappings,"
    "loop-vectorize<no-interleave-forced-only;vectorize-forced-only;>,infer-alignment,loop-load-elim,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;switch-to-lookup;no-keep-loops;hoist-common-insts;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "vector-combine,instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop-unroll<O2>,"
    "transform-warning,sroa<preserve-cfg>,infer-alignment,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop-mssa(licm<allowspeculation>),"
    "alignment-from-assumptions,loop-sink,instsimplify,div-rem-pairs,tailcallelim,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;speculate-unpredictables>),"
    "globaldce,constmerge,cg-profile,rel-lookup-table-converter,function(annotation-remarks),verify";

/* the same for -O3 (clang's -O3 sets the same pipeline options as -O2;
 * -O1 does not unroll, which PassBuilderOptions cannot say, so -O1 keeps
 * clang's own passes) */
static const char *const pipeline_o3 =
    "annotation2metadata,forceattrs,inferattrs,coro-early,function<eager-inv>(ee-instrument<>,"
    "lower-expect,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;no-switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "sroa<modify-cfg>,early-cse<>,callsite-splitting),openmp-opt,ipsccp,called-value-propagation,"
    "globalopt,function<eager-inv>(mem2reg,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>),"
    "always-inline,require<globals-aa>,function(invalidate<aa>),require<profile-summary>,"
    "cgscc(devirt<4>(inline,function-attrs<skip-non-recursive-function-attrs>,argpromotion,"
    "openmp-opt-cgscc,function<eager-inv;no-rerun>(sroa<modify-cfg>,early-cse<memssa>,"
    "speculative-execution<only-if-divergent-target>,jump-threading,correlated-propagation,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,aggressive-instcombine,"
    "libcalls-shrinkwrap,tailcallelim,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "reassociate,constraint-elimination,loop-mssa(loop-instsimplify,loop-simplifycfg,"
    "licm<no-allowspeculation>,loop-rotate<header-duplication;no-prepare-for-lto>,licm<allowspeculation>,"
    "simple-loop-unswitch<nontrivial;trivial>),"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop(loop-idiom,indvars,"
    "simple-loop-unswitch<nontrivial;trivial>,loop-deletion,loop-unroll-full),sroa<modify-cfg>,"
    "vector-combine,mldst-motion<no-split-footer-bb>,gvn<>,sccp,bdce,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,jump-threading,"
    "correlated-propagation,adce,memcpyopt,dse,move-auto-init,loop-mssa(licm<allowspeculation>),"
    "coro-elide,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;hoist-common-insts;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>),function-attrs,"
    "function(require<should-not-run-function-passes>),coro-split)),deadargelim,coro-cleanup,globalopt,"
    "globaldce,elim-avail-extern,rpo-function-attrs,recompute-globalsaa,function<eager-inv>(float2int,"
    "lower-constant-intrinsics,chr,loop(loop-rotate<header-duplication;no-prepare-for-lto>,"
    "loop-deletion),loop-distribute,inject-tli-mappings,"
    "loop-vectorize<no-interleave-forced-only;vectorize-forced-only;>,infer-alignment,loop-load-elim,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,"
    "simplifycfg<bonus-inst-threshold=1;forward-switch-cond;switch-range-to-icmp;switch-to-lookup;no-keep-loops;hoist-common-insts;sink-common-insts;speculate-blocks;simplify-cond-branch;no-speculate-unpredictables>,"
    "vector-combine,instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop-unroll<O3>,"
    "transform-warning,sroa<preserve-cfg>,infer-alignment,"
    "instcombine<max-iterations=1;no-use-loop-info;no-verify-fixpoint>,loop-mssa(licm<allowspeculation>),"
    "alignment-from-assumptions,loop-sink,instsimplify,div-rem-pairs,tailcallelim,"
    "simplifycfg<bonus-inst-threshold=1;no-forward-switch-cond;switch-range-to-icmp;no-switch-to-lookup;keep-loops;no-hoist-common-insts;no-sink-common-insts;speculate-blocks;simplify-cond-branch;speculate-unpredictables>),"
    "globaldce,constmerge,cg-profile,rel-lookup-table-converter,function(annotation-remarks),verify";

static const char *const pipeline_many_preds =
    "function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,sccp,gvn,adce,instcombine<no-verify-fixpoint>)";

static int has_block_of_many_preds(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      int n = 0; /* a block's uses are the branches to it (and blockaddress) */
      for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u))
        if (++n > CC_MANY_PREDS) return 1;
    }
  return 0;
}

int cc_optimise(LLVMModuleRef m, int opt, vt_error *e) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
  LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
  LLVMErrorRef err = LLVMRunPasses(m, has_block_of_many_preds(m) ? pipeline_many_preds : opt == 3 ? pipeline_o3 : pipeline_o2, NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (!err) return 0;
  char *msg = LLVMGetErrorMessage(err);
  vt_fail(e, VT_ERR_INTERNAL, "LLVM passes failed: %s", msg);
  LLVMDisposeErrorMessage(msg);
  return -1;
}
