#!/usr/bin/env bash
# The timing model against the Verilog RTL: every verilog-tc case of the
# upstream corpus, run with configs/verilog-rtl.cfg, stays within the bound
# docs/timing.md states of the RTL's README cycle count
# (bench/calibrate-verilog.sh prints the table).
#   usage: bash test_timing_calibration.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
# percent of the RTL's count, exact; docs/timing.md "Verilog RTL totals".
# One case has its own bound: the RTL runs vecadd/4x8 50% slower than
# 4w16t, the same code and instruction count on 16-lane hardware, and nn
# 4x8 78% slower than nn 4x16 in the same README table, while bfs/4x8 (4
# warps of 8 threads on the same RTL) is within 6%: the RTL sources rule
# out a cause the model could derive from NUM_THREAD (docs/timing.md,
# "What the RTL sources rule out"), and the RTL simulated from those
# sources runs 4x8 in 1670 cycles, fewer than 4w16t (see below). vecadd/4w32t
# is another README figure the RTL built from its sources does not
# reproduce (2610 cycles simulated, the README 17% under it): the model is
# held to the simulated figure by the RTL suite (test_rtl_suite_model.sh)
# and to the README's within 30%
BOUND=20
ALLOW="vecadd/4x8=40 vecadd/4w32t=30"
corp=$src/../shared/corpora
if [ ! -d "$corp/timing" ]; then
  echo "SKIP: ../shared/corpora not found: the calibration test did not run"
  exit 0
fi
set -- # one --allow per exception
for a in $ALLOW; do set -- "$@" --allow "$a"; done
if sh "$src/bench/calibrate-verilog.sh" --bound "$BOUND" "$@" --svg "$tmp/c.svg" --unseen "$ventus" "$corp" \
    >"$tmp/table" 2>"$tmp/err"; then
  ok "every verilog-tc case within $BOUND% of the RTL, except (own bound in %) $ALLOW ($(tail -1 "$tmp/table"))"
else
  bad "calibration: $(cat "$tmp/err")"
  cat "$tmp/table"
fi
# the summary line: the largest and mean error over the cases without their
# own bound, which stay within BOUND, as the table's rows say
sum=$(tail -1 "$tmp/table")
rows=$(grep '^| [a-z]*/' "$tmp/table" | grep -v -F "$(for a in $ALLOW; do echo "| ${a%=*} |"; done)" |
  awk -F'|' '{ e = $6; gsub(/[ %+]/, "", e); e += 0; if (e < 0) e = -e; if (e > w) w = e; s += e; n++ }
    END { printf "worst %.1f%%, mean %.1f%%", w, s / n }')
case "$sum" in
*"; without the --allow cases: $rows") ok "summary line agrees with the rows ($rows)" ;;
*) bad "summary line '$sum', the rows give '$rows'" ;;
esac
# the Chisel RTL's bfs run, which the calibration did not see, stays within
# 10% (docs/timing.md, "A case the calibration did not see")
u=$(sed -n 's/^unseen: .* RTL 2672 cycles, ours \([0-9]*\), .*/\1/p' "$tmp/table")
if [ -n "$u" ] && [ $(((u - 2672) * 100)) -le $((2672 * 10)) ] && [ $(((2672 - u) * 100)) -le $((2672 * 10)) ]; then
  ok "the unseen Chisel bfs run within 10% ($u cycles against 2672)"
else
  bad "the unseen Chisel bfs run: '$(grep '^unseen' "$tmp/table")', expected within 10% of 2672"
fi
# the three vecadd cases against the Verilog RTL as simulated here from its
# sources by tools/rtl (bench/rtl/rtl-cycles.csv; docs/timing.md, "The RTL
# in the loop"), where 4x8 is
# the cheapest of the three as its data volume says: within 15% each
for c in 4x8:1670 4w16t:1980 4w32t:2610; do
  k=${c%%:*} want=${c##*:}
  o=$(awk -F'|' -v k="vecadd/$k" '{ n = $2; gsub(/ /, "", n) } n == k { gsub(/ /, "", $5); print $5 }' "$tmp/table")
  if [ -n "$o" ] && [ $(((o - want) * 100)) -le $((want * 15)) ] && [ $(((want - o) * 100)) -le $((want * 15)) ]; then
    ok "vecadd/$k within 15% of the simulated RTL ($o cycles against $want)"
  else
    bad "vecadd/$k: '$o' cycles, expected within 15% of the simulated RTL's $want"
  fi
done
python3 -c 'import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1]); assert len(d.getElementsByTagName("rect")) == 28' "$tmp/c.svg" &&
  ok "--svg draws two bars per case" || bad "--svg: no valid chart of 14 cases"
n=$(grep -c '^| [a-z]*/' "$tmp/table")
[ "$n" -eq 14 ] && ok "14 cases compared" || bad "$n cases compared, expected 14"
exit $fail
