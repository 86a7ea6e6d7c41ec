#!/usr/bin/env bash
# A longer run of one fuzz target, politely (nice -n 19, one process).
#   fuzz/long.sh TARGET SECONDS
# FUZZ_TIMEOUT (seconds, default 10) is libFuzzer's per-input limit; it is
# wall-clock time, so on a loaded machine `clc` (a clang process and an ASan
# back end per input) needs more to tell a hang from a wait for the CPU.
# The corpus grows in build-fuzz/long/TARGET/corpus across runs (seeded
# like the smoke stage); findings land in build-fuzz/long/TARGET/. Prints
# one Markdown table row -- target, seconds, executions, cov, ft, CPU
# seconds, findings -- and appends it to build-fuzz/long/results.md.
# Exit 0 if the run found nothing, 1 if it did, 2 on bad arguments, 4 if
# the toolchain or build is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
[ -f .ci/install-deps.sh ] && . .ci/install-deps.sh
. fuzz/common.sh

if [ $# -ne 2 ] || ! [[ $2 =~ ^[1-9][0-9]*$ ]] || ! [[ " $FUZZ_TARGETS " == *" $1 "* ]]; then
  echo "usage: fuzz/long.sh TARGET SECONDS (TARGET: $FUZZ_TARGETS)" >&2
  exit 2
fi
t=$1
secs=$2
tmo=${FUZZ_TIMEOUT:-10}
if ! [[ $tmo =~ ^[1-9][0-9]*$ ]]; then
  echo "fuzz/long.sh: FUZZ_TIMEOUT must be a positive number of seconds, not '$tmo'" >&2
  exit 2
fi
dir=${FUZZ_BUILD_DIR:-build-fuzz}
if ! fuzz_have_toolchain; then
  echo "fuzz/long.sh: $FUZZ_CC with libFuzzer is not available" >&2
  exit 4
fi
if ! fuzz_build "$dir"; then
  echo "fuzz/long.sh: the fuzz build failed (log: $dir/fuzz-build.log)" >&2
  exit 4
fi
out=$dir/long/$t
mkdir -p "$out/corpus"
log=$out/fuzz-$(date -u +%Y%m%dT%H%M%SZ).log
mapfile -t inputs < <(fuzz_inputs "$dir" "$t")
TIMEFORMAT='%U %S'
# shellcheck disable=SC2046 # the dictionary option is one word or none
cpu=$( { time nice -n 19 "$dir/fuzz/fuzz_$t" -max_total_time="$secs" -rss_limit_mb=2048 \
  -timeout="$tmo" -print_final_stats=1 -artifact_prefix="$out/" $(fuzz_dict "$dir" "$t") \
  "$out/corpus" "${inputs[@]}" >"$log" 2>&1; } 2>&1 | awk '{ printf "%.0f", $1 + $2 }')
runs=$(fuzz_stat "$log" number_of_executed_units)
read -r cov ft < <(fuzz_covft "$log"; echo)
why=$(fuzz_failure "$log")
row="| $t | $secs | ${runs:-?} | ${cov:-?} | ${ft:-?} | ${cpu:-?} | ${why:-none} |"
echo "$row" | tee -a "$dir/long/results.md"
echo "log: $log"
[ -z "$why" ]
