#!/usr/bin/env bash
# ventus run --timing within bounds (robustness audit 2, ../shared/repro/round2):
# a configuration whose timing model would take gigabytes is refused at once
# with one line (D2), and the default step limit under --timing ends a
# runaway loop in seconds, not minutes (D10).
#   usage: bash test_timing_limits.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail, ok, bad, expect

printf '        .text\n        .globl k\nk:      ret\n' >"$tmp/nop.S"
printf '        .text\n        .globl k\nk:\n1:      j 1b\n' >"$tmp/loop.S"
build_kernel nop "$tmp/nop.S" || exit 1
build_kernel loop "$tmp/loop.S" || exit 1

# D2: 1024 SMs of 1024 warps: fine functionally, refused under --timing
expect 0 "" "1024 SMs x 1024 warps, functional" \
  "$ventus" run "$tmp/nop.elf" --kernel k --global 1 -q -c num_sm=1024 -c warps_per_sm=1024
expect 4 "MiB (num_sm 1024 x warps_per_sm 1024, L1 256 x 2" \
  "1024 SMs x 1024 warps under --timing" \
  "$ventus" run "$tmp/nop.elf" --kernel k --global 1 --timing -c num_sm=1024 -c warps_per_sm=1024
grep -q "more than its 1024 MiB: lower num_sm, warps_per_sm or the cache sizes" "$tmp/err" &&
  ok "... and says what to lower" || bad "timing budget message: $(cat "$tmp/err")"
expect 4 "the timing model of this configuration would take" "1024 SMs with 65536 x 64 L1 data caches" \
  "$ventus" run "$tmp/nop.elf" --kernel k --global 1 --timing -c num_sm=1024 -c l1d_sets=65536 -c l1d_ways=64
expect 4 "the timing model of this configuration would take" "1024 SMs with 65536 x 64 L1 instruction caches" \
  "$ventus" run "$tmp/nop.elf" --kernel k --global 1 --timing -c num_sm=1024 -c l1i_sets=65536 -c l1i_ways=64
expect 0 "" "one SM with a 65536 x 64 L1 instruction cache still runs" \
  "$ventus" run "$tmp/nop.elf" --kernel k --global 1 --timing -q -c l1i_sets=65536 -c l1i_ways=64

# D10: --max-steps as given; the default under --timing is 20 M (~3 s of CPU in a
# release build, a minute in the sanitizer build)
expect 3 "step limit of 1000 warp-instructions reached [kernel 0 wg 0 warp 0 pc 0x" "--timing --max-steps 1000" \
  "$ventus" run "$tmp/loop.elf" --kernel k --global 1 --timing --max-steps 1000
"$ventus" run --help | grep -q "20000000" && ok "--help gives the --timing default" || bad "--help: no --timing default"
if [ -n "${VT_VALGRIND:-}" ]; then
  echo "(the default limit under --timing is left out under valgrind)"
else
  start=$(date +%s)
  expect 3 "step limit of 20000000 warp-instructions reached [kernel 0 wg 0 warp 0 pc 0x" \
    "--timing: the default step limit" "$ventus" run "$tmp/loop.elf" --kernel k --global 1 --timing
  took=$(($(date +%s) - start))
  [ "$took" -lt 600 ] && ok "... reached in $took s" || bad "the default step limit under --timing took $took s"
fi
# the step limit names the same warp and pc whether the timing model's
# run-ahead ran the loop's private instructions before they issued or not
printf '        .text\n        .globl k\nk:      li a0, 0\n1:      addi a0, a0, 1\n        addi a1, a0, 3\n        xor a2, a1, a0\n        j 1b\n' >"$tmp/loop3.S"
if build_kernel loop3 "$tmp/loop3.S"; then
  for m in 1003 1004 1005 1006; do
    for ra in 1 0; do
      "$ventus" run "$tmp/loop3.elf" --kernel k --global 64 --local 32 --timing --max-steps $m -c run_ahead=$ra \
        >/dev/null 2>"$tmp/lim$ra"
    done
    grep -q "step limit of $m warp-instructions reached \[kernel 0 wg . warp 0 pc 0x" "$tmp/lim1" &&
      cmp -s "$tmp/lim1" "$tmp/lim0" && ok "--max-steps $m: the same warp and pc with run_ahead = 0" ||
      bad "--max-steps $m: $(cat "$tmp/lim1") / $(cat "$tmp/lim0")"
  done
fi
exit $fail
