#!/usr/bin/env bash
# The timing model held to the RTL reference suite (bench/rtl/suite.txt):
# every run with a figure recorded from the Verilated RTL
# (bench/rtl/rtl-cycles.csv) is run under configs/verilog-rtl.cfg, and the
# mean and worst absolute cycle errors over the fitted and over the held-out
# runs must stay within the bounds docs/timing.md states. No Verilator is
# needed. Corpus runs skip where ../shared/corpora is absent, OpenCL C runs
# where the build has no compiler.
#   usage: bash test_rtl_suite_model.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
# docs/timing.md, "The RTL reference suite": the issue's goal, a mean within
# 10% and a worst within 20% (today fitted 7.6% / 19.2%, held out 3.6% /
# 8.6%)
MEAN=10
WORST=20
# kernels whose results the RTL computes differently from the reference ISS
# (docs/timing.md, "What the check found"): none since the fixes of
# tools/rtl/patches/fixes (the masked register write, the multiplier's,
# adder's and divider's sticky bits, the SFU's result register); every run
# must end with the simulator's memory, word for word
KNOWN_DIFFER=""
csv=$src/bench/rtl/rtl-cycles.csv

# every recorded run ended with the RTL's memory equal to the simulator's,
# but for the known disagreements
n=$(tail -n +2 "$csv" | wc -l)
[ "$n" -ge 40 ] && ok "$n recorded RTL runs" || bad "only $n recorded RTL runs (the suite asks for 40)"
odd=$(tail -n +2 "$csv" | awk -F, -v k=" $KNOWN_DIFFER " '$12 != "equal" && index(k, " " $2 " ") == 0 { print $1 }')
[ -z "$odd" ] && ok "every recorded run: the RTL's memory is the simulator's${KNOWN_DIFFER:+, but for $KNOWN_DIFFER}" ||
  bad "recorded runs whose RTL memory differs: $odd"
neq=$(tail -n +2 "$csv" | awk -F, '$12 == "equal"' | wc -l)
[ "$neq" -ge 40 ] && ok "$neq runs with memory equal" || bad "only $neq runs with memory equal"

# the split follows the written rule (MD5 of the kernel name, mod 3)
wrong=$(tail -n +2 "$csv" | while IFS=, read -r id k split _; do
  h=$(printf %s "$k" | md5sum | cut -c1-8)
  want=fitted
  (((16#$h) % 3 == 0)) && want=held-out
  [ "$split" = "$want" ] || echo "$id"
done)
[ -z "$wrong" ] && ok "the recorded split follows the rule" || bad "split not by the rule: $wrong"
nh=$(tail -n +2 "$csv" | awk -F, '$3 == "held-out"' | wc -l)
[ "$nh" -ge 10 ] && ok "$nh held-out runs" || bad "only $nh held-out runs"

work=$tmp/suite
if bash "$src/bench/rtl-suite.sh" compare --ventus "$ventus" --work "$work" --corpora "$src/../shared/corpora" \
  --bound-mean "$MEAN" --bound-worst "$WORST" --svg "$tmp/s.svg" >"$tmp/table" 2>"$tmp/err"; then
  ok "model vs RTL within mean $MEAN% / worst $WORST%: $(grep -E '^(fitted|held-out):' "$tmp/table" | tr '\n' ';')"
else
  bad "model vs RTL: $(grep -v '^SKIP' "$tmp/err" | head -5)"
  cat "$tmp/table"
fi
grep -h '^SKIP' "$tmp/err" | head -3
grep -q '^<svg' "$tmp/s.svg" 2>/dev/null && ok "the SVG is drawn" || bad "no SVG"
exit "$fail"
