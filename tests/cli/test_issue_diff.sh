#!/usr/bin/env bash
# `ventus run --events` (the timing model's issue log) and `ventus
# issue-diff` (where two issue logs drift apart), on logs whose drift is
# known by construction.
#   usage: bash test_issue_diff.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail

# a: two warps issuing every 5 cycles at pcs 0x80000000 + 4k (40 issues);
# b: the same, except that warp slot 1's issues from #20 on (pc 0x80000050)
# come 4 cycles later each: its drift is 4 * (k - 19) at issue k, past 50
# cycles from k = 32 (52 > 50, and 52 > 10% of a's cycle 160)
for f in a b; do
  {
    echo "# launch 0"
    for k in $(seq 0 39); do
      for s in 0 1; do
        c=$((5 * k + s))
        [ "$f" = b ] && [ "$s" = 1 ] && [ "$k" -ge 20 ] && c=$((c + 4 * (k - 19)))
        printf '%d 0 %d 0x%08x\n' "$c" "$s" $((0x80000000 + 4 * k))
      done
    done
  } >"$tmp/$f.ev"
done
"$ventus" issue-diff "$tmp/a.ev" "$tmp/a.ev" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q 'no warp drifts' "$tmp/out" && ok "a log against itself: no drift, exit 0" ||
  bad "self: exit $rc, $(head -3 "$tmp/out")"
"$ventus" issue-diff "$tmp/a.ev" "$tmp/b.ev" >"$tmp/out" 2>&1
rc=$?
# issue #32 of slot 1: a at 5*32+1 = 161, b at 161 + 4*13 = 213
[ "$rc" -eq 1 ] && grep -q 'first drift: launch 0, SM 0, slot 1, issue #32 at pc 0x80000080: cycle 161 (a), 213 (b): +52 cycles' "$tmp/out" &&
  ok "the first drift named: slot 1, issue #32, +52 cycles" || bad "drift: exit $rc, $(cat "$tmp/out")"
# every instruction from #20 on adds 4 cycles once (one warp): 20 of them
n=$(grep -c '^  pc 0x800000[5-9a-f][0-9a-f]: +4 cycles over 2 issues' "$tmp/out")
[ "$n" -eq 10 ] && ok "drift per pc: +4 cycles each (top 10 listed)" || bad "per-pc drift lines: $n, $(cat "$tmp/out")"
"$ventus" issue-diff --json --top 3 "$tmp/a.ev" "$tmp/b.ev" >"$tmp/j" 2>&1
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); d=j["first_drift"]; assert (d["slot"],d["index"],d["a_cycle"],d["b_cycle"])==(1,32,161,213), d; assert len(j["drift_by_pc"])==3; assert j["launches"][0]=={"a_last_issue":196,"b_last_issue":276}, j["launches"]' "$tmp/j" &&
  ok "--json: first drift, top 3, last issues 196 and 276" || bad "--json: $(cat "$tmp/j")"
# thresholds: with --cycles 100 the drift passes at #45 - none (max 4*20=80)
"$ventus" issue-diff --cycles 100 "$tmp/a.ev" "$tmp/b.ev" >"$tmp/out" 2>&1
[ $? -eq 0 ] && ok "--cycles 100: no drift (the largest is 80)" || bad "--cycles 100: $(cat "$tmp/out")"

# errors
printf '# launch 0\n12 0 x 0x80000000\n' >"$tmp/bad.ev"
"$ventus" issue-diff "$tmp/a.ev" "$tmp/bad.ev" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 4 ] && grep -q "bad.ev:2: expected 'CYCLE SM SLOT PC'" "$tmp/out" && ok "malformed line: exit 4, file:line" ||
  bad "malformed: exit $rc, $(cat "$tmp/out")"
"$ventus" issue-diff "$tmp/a.ev" >"$tmp/out" 2>&1
[ $? -eq 2 ] && ok "one log: exit 2" || bad "one log: $(cat "$tmp/out")"
"$ventus" issue-diff --share x "$tmp/a.ev" "$tmp/b.ev" >"$tmp/out" 2>&1
[ $? -eq 2 ] && ok "--share x: exit 2" || bad "--share x: $(cat "$tmp/out")"
printf '# launch 0\n0 1 5 0x80000000\n' >"$tmp/c.ev"
"$ventus" issue-diff "$tmp/a.ev" "$tmp/c.ev" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 2 ] && grep -q 'do not correspond' "$tmp/out" && ok "warps that do not correspond: exit 2" ||
  bad "no correspondence: exit $rc, $(cat "$tmp/out")"

# the model's own log: one line per warp-instruction, cycles within the run
"$ventus" as -o "$tmp/v.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
  "$src/kernels/examples/vecadd.S" 2>"$tmp/err" || bad "assembling vecadd: $(cat "$tmp/err")"
if "$ventus" run "$tmp/v.elf" --kernel vecadd --global 64 --local 32 --threads 8 --arg buf:f32:64:iota \
  --arg buf:f32:64:iota --arg buf:f32:64 --arg u32:64 --events "$tmp/m.ev" >"$tmp/out" 2>&1; then
  insns=$(sed -n 's/.*: \([0-9]*\) warp-instructions in \([0-9]*\) cycles.*/\1/p' "$tmp/out")
  cyc=$(sed -n 's/.*: \([0-9]*\) warp-instructions in \([0-9]*\) cycles.*/\2/p' "$tmp/out")
  n=$(grep -vc '^#' "$tmp/m.ev")
  maxc=$(grep -v '^#' "$tmp/m.ev" | awk '$1 > m { m = $1 } END { print m + 0 }')
  warps=$(grep -v '^#' "$tmp/m.ev" | awk '{ print $2, $3 }' | sort -u | wc -l)
  [ -n "$insns" ] && [ "$n" -eq "$insns" ] && [ "$maxc" -lt "$cyc" ] && [ "$warps" -eq 8 ] &&
    ok "--events: $n issues = the warp-instructions, all before cycle $cyc, 8 warp slots" ||
    bad "--events: $n lines for '$insns' instructions, last at $maxc of '$cyc' cycles, $warps slots"
  "$ventus" issue-diff "$tmp/m.ev" "$tmp/m.ev" >/dev/null 2>&1 && ok "the model's log reads back" ||
    bad "the model's log does not read back"
else
  bad "ventus run --events: $(cat "$tmp/out")"
fi
# a failed run leaves no partial log
"$ventus" run "$tmp/v.elf" --kernel nosuch --global 32 --events "$tmp/n.ev" >/dev/null 2>&1
[ ! -e "$tmp/n.ev" ] && ok "a failed run writes no issue log" || bad "a failed run left $tmp/n.ev"
exit "$fail"
