#!/usr/bin/env bash
# The end-of-launch L2 flush walk (l2_flush_walk, docs/timing.md "The launch
# end"): the flush visits every L2 line, l2_flush_walk cycles each, as the
# RTL's L2 directory does (flushCount over sets x ways). With a walk far
# longer than any write-back, the launch ends lines x walk after the flush
# starts, so two walks differ by exactly lines x their difference; with no
# walk the launch ends earlier. With l2_cold_launch every launch starts
# with an empty L2 (twice a launch is twice its cycles). Values out of range
# are refused.
#   usage: bash test_timing_flush.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
k=$src/kernels
"$ventus" as -o "$tmp/vecadd.elf" "$k/lib/start.S" "$k/lib/workitem.S" "$k/examples/vecadd.S" ||
  { bad "vecadd did not assemble"; exit $fail; }
launch=(--kernel vecadd --global 64 --local 64 --arg buf:f32:64:iota --arg buf:f32:64:iota
  --arg buf:f32:64 --arg u32:64)
# cycles SETS WAYS WALK
cycles() {
  "$ventus" run -q --timing --stats -c l2_sets="$1" -c l2_ways="$2" -c l2_flush_walk="$3" \
    "$tmp/vecadd.elf" "${launch[@]}" 2>"$tmp/err" | awk '$1 == "cycles" { print $3 }'
}
c0=$(cycles 16 8 0)
c100=$(cycles 16 8 100)
c200=$(cycles 16 8 200)
d100=$(cycles 2 4 100)
if [ -z "$c0" ] || [ -z "$c100" ] || [ -z "$c200" ] || [ -z "$d100" ]; then
  bad "no cycle count: $(head -1 "$tmp/err")"
  exit $fail
fi
[ $((c200 - c100)) -eq $((16 * 8 * 100)) ] && ok "16 x 8 lines: a walk of 200 ends 12800 cycles after one of 100" ||
  bad "16 x 8 lines: walks of 100 and 200 end $c100 and $c200 (expected 12800 apart)"
[ $((c100 - d100)) -eq $(((16 * 8 - 2 * 4) * 100)) ] && ok "a walk of 100 over 128 lines ends 12000 cycles after one over 8" ||
  bad "walks of 100 over 8 and 128 lines end $d100 and $c100 (expected 12000 apart)"
((c0 < c100 - 12000)) && ok "no walk: the flush costs only the dirty lines ($c0 cycles)" ||
  bad "no walk: $c0 cycles, not less than the walk of 100 less its 12800 ($c100)"
# l2_cold_launch: a case of the same launch twice (kernels.txt) takes
# exactly twice one launch's cycles when every launch starts with an empty
# L2, and less when the second finds the first's lines (an L2 that holds
# all of them: 64 x 8 lines of 8 bytes)
"$ventus" run -q "$tmp/vecadd.elf" "${launch[@]}" --export-testvec "$tmp/tv" >/dev/null 2>"$tmp/err" ||
  bad "export: $(head -1 "$tmp/err")"
one=$(awk '!/^#/ && NF { print $1; exit }' "$tmp/tv/kernels.txt")
printf '%s\n%s\n' "$one" "$one" >"$tmp/tv/kernels.txt"
# twice COLD [CASE]
twice() {
  "$ventus" run -q --timing --stats -c l2_sets=64 -c l2_ways=8 -c l2_cold_launch="$1" "${2:-$tmp/tv}" 2>"$tmp/err" |
    awk '$1 == "cycles" { print $3 }'
}
t1=$(twice 1) t0=$(twice 0)
printf '%s\n' "$one" >"$tmp/tv/kernels.txt"
s1=$(twice 1)
if [ -n "$t1" ] && [ -n "$t0" ] && [ -n "$s1" ]; then
  [ "$t1" -eq $((2 * s1)) ] && ok "l2_cold_launch 1: two launches take twice one ($s1 cycles)" ||
    bad "l2_cold_launch 1: two launches take $t1 cycles, one $s1"
  ((t0 < t1)) && ok "l2_cold_launch 0: the second launch finds the first's lines ($t0 < $t1 cycles)" ||
    bad "l2_cold_launch 0: two launches take $t0 cycles, not fewer than cold ($t1)"
else
  bad "no cycle count for the two-launch case: $(head -1 "$tmp/err")"
fi
expect 4 "l2_cold_launch must be 0 or 1" "l2_cold_launch out of range" \
  "$ventus" run --timing -c l2_cold_launch=2 "$tmp/vecadd.elf" "${launch[@]}"
expect 4 "l2_flush_walk must be 0..100000" "l2_flush_walk out of range" \
  "$ventus" run --timing -c l2_flush_walk=100001 "$tmp/vecadd.elf" "${launch[@]}"
exit $fail
