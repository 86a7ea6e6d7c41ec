#!/usr/bin/env bash
# Bounded compilation (issue 22 item 4, docs/robustness.md): large kernels
# (bench/cc/gen-large.py: a 10,000- and a 40,000-case switch (more than
# 1 MiB of code: far jumps), a per-lane 20,000-case switch, 20,000
# statements in one
# block, 12 nested loops, a 200,000-element __constant table) compile and
# give the results Python computes for them; the compile-time budget stops
# a front end that runs past it and a compilation in our process (after
# LLVM's passes, between ours), the size budget refuses a kernel too large,
# both with one line naming the kernel or file and the limit (exit 4).
#   usage: bash test_cc_bounded.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad, expect

printf 'kernel void k(global int *a) { a[0] = a[1] + 1; }\n' >"$tmp/ok.cl"
if ! "$ventus_bin" cc -o "$tmp/probe.elf" "$tmp/ok.cl" 2>"$tmp/err"; then
  if grep -q "no OpenCL C compiler\|cannot run the OpenCL C front end" "$tmp/err"; then
    echo "SKIP: ventus cc is not available here: $(cat "$tmp/err")"
    exit 0
  fi
fi
if ! command -v python3 >/dev/null; then
  echo "SKIP: python3 (the kernel generator) is not available"
  exit 0
fi
gen=$src/bench/cc/gen-large.py

# large kernel KIND N, run with a[1] = X, a[2] = 2: a[0] as Python computes it
large() {
  local kind=$1 n=$2 x=$3 want start
  python3 "$gen" "$kind" "$n" >"$tmp/$kind.cl"
  want=$(python3 "$gen" expect "$kind" "$n" "$x")
  start=$(date +%s)
  if ! "$ventus" cc -o "$tmp/$kind.elf" "$tmp/$kind.cl" 2>"$tmp/err"; then
    bad "$kind $n: does not compile: $(head -2 "$tmp/err")"
    return
  fi
  local secs=$(($(date +%s) - start))
  if "$ventus" run -q "$tmp/$kind.elf" --kernel k --global 1 --local 1 --arg "buf:i32:3:fill=$x" \
    --show 0:1 >"$tmp/out" 2>&1 && grep -q "^arg0 i32\[3\]: $want " "$tmp/out"; then
    ok "$kind $n compiles (${secs} s) and gives $want for $x"
  else
    bad "$kind $n: expected $want for $x: $(head -2 "$tmp/out")"
  fi
}
# fill=X sets a[2] = X too: the nest's trip count, so nest runs with X = 2
large switch 10000 2
# past a jump's 1 MiB reach: the jumps to the switch's end go through auipc + jalr
large switch 40000 39999
# a per-lane switch: lower-switch's compare tree is 20,000 divergent branches
large dswitch 20000 19999
want=$(for i in $(seq 0 15); do printf '%d ' $((i * 7 + 3)); done)
if "$ventus" run -q "$tmp/dswitch.elf" --kernel k --global 32 --local 32 --arg buf:i32:32:iota --show 0:16 \
  >"$tmp/out" 2>&1 && grep -q "^arg0 i32\[32\]: ${want}\.\.\." "$tmp/out"; then
  ok "dswitch 20000: 32 lanes each take their own case"
else
  bad "dswitch 20000 over 32 lanes: expected ${want}: $(head -2 "$tmp/out")"
fi
large straight 20000 5
large nest 12 2
large init 200000 2

# the size budget: a kernel past it is refused by name, whichever way it is set
python3 "$gen" straight 2000 >"$tmp/big.cl"
expect 4 "kernel k: " "size budget: --max-compile-insns refuses a kernel of more operations" \
  "$ventus" cc --max-compile-insns=1000 -o "$tmp/big.elf" "$tmp/big.cl"
grep -qF "more than the size budget of 1000 (ventus cc --max-compile-insns=N" "$tmp/err" ||
  bad "size budget: the message names the limit and how to change it: $(cat "$tmp/err")"
CHENGYING_CC_MAX_INSNS=1000 expect 4 "more than the size budget of 1000" "size budget: CHENGYING_CC_MAX_INSNS" \
  "$ventus" cc -o "$tmp/big.elf" "$tmp/big.cl"
CHENGYING_CC_MAX_INSNS=1000 expect 0 "" "size budget: --max-compile-insns=0 lifts it" \
  "$ventus" cc --max-compile-insns=0 -o "$tmp/big.elf" "$tmp/big.cl"

# the time budget: a front end that never ends is stopped at it
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/slow-clang"
chmod +x "$tmp/slow-clang"
start=$(date +%s)
CHENGYING_CLANG=$tmp/slow-clang expect 4 \
  "ok.cl: the OpenCL C front end '$tmp/slow-clang' ran past the compile-time budget of 1 s and was stopped" \
  "time budget: --max-compile-seconds stops the front end" \
  "$ventus" cc --max-compile-seconds=1 -o "$tmp/x.elf" "$tmp/ok.cl"
secs=$(($(date +%s) - start))
[ "$secs" -le 20 ] || bad "time budget: stopping a 1 s budget took $secs s"
CHENGYING_CLANG=$tmp/slow-clang CHENGYING_CC_MAX_SECONDS=0.5 expect 4 "ran past the compile-time budget of 0.5 s" \
  "time budget: CHENGYING_CC_MAX_SECONDS" "$ventus" cc -o "$tmp/x.elf" "$tmp/ok.cl"

# the time budget in our process: clang, which runs no passes here, is
# done in well under a second; LLVM's -O2 passes over 40,000 statements take
# seconds and are checked after them (they cannot be interrupted), our own
# passes between each other and at each spill round (a loaded machine may
# stop clang itself: either line names the budget)
python3 "$gen" straight 40000 >"$tmp/long.cl"
start=$(date +%s)
expect 4 "the compile-time budget of 1.5 s" \
  "time budget: the compilation in our process stops at it" \
  "$ventus" cc --max-compile-seconds=1.5 -o "$tmp/x.elf" "$tmp/long.cl"
secs=$(($(date +%s) - start))
[ "$secs" -le 30 ] || bad "time budget: stopping at 1.5 s took $secs s"

# values that are not numbers: usage errors
expect 2 "ventus cc: --max-compile-seconds needs a number (0 = none), not 'soon'" "--max-compile-seconds=soon" \
  "$ventus" cc --max-compile-seconds=soon -o "$tmp/x.elf" "$tmp/ok.cl"
expect 2 "ventus cc: --max-compile-insns needs a number (0 = none), not '-5'" "--max-compile-insns=-5" \
  "$ventus" cc --max-compile-insns=-5 -o "$tmp/x.elf" "$tmp/ok.cl"
exit $fail
