#!/usr/bin/env bash
# warps_last_first (docs/timing.md, "Work-groups"): a group's last
# warp takes the lowest free slot, as the RTL dispatches them. The diverge
# kernel's warps issue different numbers of instructions (their Collatz
# inputs), so the per-slot counts of the issue log with warps_last_first = 1
# are those with 0 in reverse slot order, and the memory is the same. And
# the issue log has one event per barrier a warp passes: its re-check at the
# release is not an issue (the RTL's warp waits at the scheduler).
#   usage: bash test_warp_order.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
k=$src/kernels
"$ventus" as -o "$tmp/d.elf" "$k/lib/start.S" "$k/lib/workitem.S" "$k/examples/diverge.S" ||
  { bad "diverge did not assemble"; exit $fail; }
launch=(--kernel diverge --global 32 --local 32 --threads 4 --arg buf:u32:32:iota --arg buf:u32:32 --arg u32:32)
for o in 0 1; do
  "$ventus" run -q --timing -c warps_last_first=$o "$tmp/d.elf" "${launch[@]}" --events "$tmp/ev$o" \
    --dump "$tmp/m$o" 2>"$tmp/err" || bad "warps_last_first=$o: $(head -1 "$tmp/err")"
  awk '!/^#/ { n[$3]++ } END { for (s = 0; s < 8; s++) printf "%d ", n[s] }' "$tmp/ev$o" >"$tmp/c$o"
done
fwd=$(cat "$tmp/c0") rev=$(tr ' ' '\n' <"$tmp/c1" | grep . | tac | tr '\n' ' ')
[ "$fwd" = "$rev" ] && ok "slots in reverse: issues per slot $fwd against $(cat "$tmp/c1")" ||
  bad "issues per slot: $fwd in order, $(cat "$tmp/c1") last first (expected the reverse)"
[ "$(sort -u <<<"$fwd" | wc -w)" -gt 2 ] || bad "the warps' instruction counts do not differ: the test proves nothing"
cmp -s "$tmp/m0" "$tmp/m1" && ok "the same memory in either order" || bad "the memory differs with warps_last_first"
expect 4 "warps_last_first must be 0 or 1" "warps_last_first out of range" \
  "$ventus" run --timing -c warps_last_first=2 "$tmp/d.elf" "${launch[@]}"

# barriers: reduce.S passes one barrier per step; its issue log holds one
# event per (warp, barrier passed), the statistics count the same
"$ventus" as -o "$tmp/r.elf" "$k/lib/start.S" "$k/lib/workitem.S" "$k/examples/reduce.S" ||
  { bad "reduce did not assemble"; exit $fail; }
"$ventus" run -q --timing --stats "$tmp/r.elf" --kernel reduce --global 32 --local 32 --threads 4 --lds-size 0x4000 \
  --arg buf:i32:32:iota --arg buf:i32:1 --arg u32:32 --events "$tmp/rev" >"$tmp/rstats" 2>"$tmp/err" ||
  bad "reduce: $(head -1 "$tmp/err")"
pcs=$("$ventus" objdump "$tmp/r.elf" | awk '$3 == "barrier" { sub(":", "", $1); print "0x" $1 }')
events=0
for p in $pcs; do events=$((events + $(awk -v p="$p" '!/^#/ && $4 == p' "$tmp/rev" | wc -l))); done
passed=$(awk '$1 == "barriers" { print $NF }' "$tmp/rstats")
[ -n "$pcs" ] && [ "$events" = "$passed" ] && ok "one issue event per barrier passed ($events)" ||
  bad "barrier issue events: $events, barriers passed: ${passed:-none} (pcs: $pcs)"
exit $fail
