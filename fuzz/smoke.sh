#!/usr/bin/env bash
# CI smoke stage: builds the libFuzzer targets in build-fuzz/ and runs each
# one for a short bounded time from its seeds and regression inputs.
#   fuzz/smoke.sh [SECONDS]   (default 20 per target; FUZZ_SEED=N, default 1;
#                              FUZZ_BUILD_DIR=DIR, default build-fuzz)
# Any crash, sanitizer report, leak, timeout (-timeout=10) or memory blow-up
# (-rss_limit_mb=2048) fails that target; its input is kept as
# build-fuzz/smoke/<target>/crash-* etc. Ends with "N passed, N failed,
# N skipped"; without clang-19/libFuzzer it skips with a notice. Exit 0 when
# nothing failed.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .ci/install-deps.sh ] && . .ci/install-deps.sh
. fuzz/common.sh

secs=${1:-20}
seed=${FUZZ_SEED:-1}
dir=${FUZZ_BUILD_DIR:-build-fuzz}
ntargets=$(echo $FUZZ_TARGETS | wc -w)

if ! fuzz_have_toolchain; then
  echo "SKIP: $FUZZ_CC with libFuzzer (-fsanitize=fuzzer) not available: fuzz smoke stage skipped"
  echo "0 passed, 0 failed, $ntargets skipped"
  exit 0
fi
echo "== $dir: configure and build the fuzz targets ($FUZZ_CC)"
if ! fuzz_build "$dir"; then
  tail -n 30 "$dir/fuzz-build.log"
  echo "== $dir: BUILD FAILED (full log: $dir/fuzz-build.log)"
  echo "0 passed, 1 failed, 0 skipped"
  exit 1
fi

passed=0
failed=0
skipped=0
for t in $FUZZ_TARGETS; do
  if [ ! -x "$dir/fuzz/fuzz_$t" ]; then # built without OpenCL headers or LLVM (fuzz/CMakeLists.txt)
    echo "SKIP fuzz_$t: not built in this configuration (fuzz/common.sh)"
    skipped=$((skipped + 1))
    continue
  fi
  out=$dir/smoke/$t
  rm -rf "$out"
  mkdir -p "$out/corpus"
  log=$out/fuzz.log
  mapfile -t inputs < <(fuzz_inputs "$dir" "$t")
  # shellcheck disable=SC2046 # the dictionary option is one word or none
  timeout $((secs + 120)) "$dir/fuzz/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=2048 \
    -timeout=10 -seed="$seed" -print_final_stats=1 -artifact_prefix="$out/" \
    $(fuzz_dict "$dir" "$t") "$out/corpus" "${inputs[@]}" >"$log" 2>&1
  rc=$?
  runs=$(fuzz_stat "$log" number_of_executed_units)
  read -r cov ft < <(fuzz_covft "$log"; echo)
  why=$(fuzz_failure "$log")
  if [ $rc -eq 0 ] && [ -z "$why" ]; then
    printf 'PASS fuzz_%-8s %8s runs in %ss, cov %s ft %s\n' "$t" "${runs:-?}" "$secs" "${cov:-?}" "${ft:-?}"
    passed=$((passed + 1))
  else
    [ $rc -eq 124 ] && why="did not stop within $((secs + 120)) s"
    art=$(ls "$out"/crash-* "$out"/leak-* "$out"/timeout-* "$out"/oom-* 2>/dev/null | head -n 1)
    printf 'FAIL fuzz_%-8s exit %s: %s\n' "$t" "$rc" "${why:-see the log}"
    printf '     input: %s  log: %s\n' "${art:-none}" "$log"
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
