#!/usr/bin/env bash
# `ventus trace-diff` on awkward logs: 100,000 warp streams take seconds (the
# stream lookup was quadratic), a warp number above 32 bits is a format
# error naming the line (it wrapped silently), --max outside 1..2^32-1 is a
# usage error (-1 and 10^20 were accepted), a directory or device is refused.
#   usage: bash test_trace_diff_input.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "core %d: 0x80000000 (0x00000013) nop\ncore %d: 3 0x80000000 (0x00000013)\n", i, i }' >"$tmp/many.log"
expect 0 "" "100,000 warp streams" timeout 60 "$ventus" trace-diff "$tmp/many.log" "$tmp/many.log"
grep -q "^EQUAL: 100000 warp streams vs 100000, 100000 instructions compared" "$tmp/out" ||
  bad "100,000 streams summary: $(tail -1 "$tmp/out")"
printf 'core   99999999999999999999: 0x80000000 (0x00000013) nop\ncore   99999999999999999999: 3 0x80000000 (0x00000013)\n' >"$tmp/wrap.log"
expect 4 "wrap.log:1: warp number ('core N') above 4294967295" "core number above 32 bits" "$ventus" trace-diff "$tmp/wrap.log" "$tmp/many.log"
printf 'core   0: 0x180000000 (0x00000013) nop\ncore   0: 3 0x180000000 (0x00000013)\n' >"$tmp/pc.log"
expect 4 "pc.log:1: bad pc" "pc above 32 bits" "$ventus" trace-diff "$tmp/pc.log" "$tmp/many.log"
for m in -1 0 100000000000000000000 4294967296 5x; do
  expect 2 "--max $m: expected a number of warps 1..4294967295" "--max $m" "$ventus" trace-diff --max "$m" "$tmp/many.log" "$tmp/many.log"
done
expect 2 "--max needs a value" "--max without a value" "$ventus" trace-diff "$tmp/many.log" "$tmp/many.log" --max
expect 0 "" "--max 4294967295" "$ventus" trace-diff --max 4294967295 "$tmp/many.log" "$tmp/many.log"
expect 4 "$tmp: is a directory" "a directory as a log" "$ventus" trace-diff "$tmp" "$tmp/many.log"
expect 4 "/dev/zero: not a regular file" "/dev/zero as a log" "$ventus" trace-diff /dev/zero "$tmp/many.log"
exit $fail
