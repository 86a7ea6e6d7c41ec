#!/usr/bin/env bash
# bench_sim's command line: every bad option gives one line on stderr and
# exit status 2; --help, --list and a tiny --quick --json run work.
# Usage: test_bench_usage.sh BENCH_SIM SOURCE_DIR (registered by
# bench/CMakeLists.txt as bench_usage).
set -u
. "$2/tests/cli/lib.sh" "$@"
b=$ventus

expect 2 "--reps 0: expected a number > 0 and <= 101" "reps 0" "$b" --reps 0
expect 2 "--reps 2.5: expected a whole number 1..101" "reps not whole" "$b" --reps 2.5
expect 2 "--reps 102: expected a number > 0 and <= 101" "reps too many" "$b" --reps 102
expect 2 "--scale 17: expected a number > 0 and <= 16" "scale too large" "$b" --scale 17
expect 2 "--scale x: expected a number > 0" "scale not a number" "$b" --scale x
expect 2 "--host-threads 257: expected a number >= 0 and <= 256" "host threads too many" "$b" --host-threads 257
expect 2 "--host-threads 1.5: expected a whole number 0..256" "host threads not whole" "$b" --host-threads 1.5
expect 2 "--native-min -1: expected a number >= 0" "native-min negative" "$b" --native-min -1
expect 2 "--scale times --trace-scale or --timing-scale must be at most 16" "scale product" \
  "$b" --scale 8 --timing-scale 4
expect 2 "--only: no workload 'nope' (see --list)" "only unknown" "$b" --only stream,nope
expect 2 "--trace: no workload 'nope'" "trace unknown" "$b" --trace nope
expect 2 "--trace takes one workload or none" "trace list" "$b" --trace stream,vecadd
expect 2 "unknown option --bogus (see --help)" "unknown option" "$b" --bogus
expect 2 "--scale needs a value" "missing value" "$b" --scale
expect 2 "--src $tmp: no readable kernels/lib/start.S there" "src without kernels" "$b" --src "$tmp"

expect 2 "--vs-threads 1: expected a whole number 2..256" "vs-threads one" "$b" --vs-threads 1
expect 2 "--vs-threads 2.5: expected a whole number 2..256" "vs-threads not whole" "$b" --vs-threads 2.5
expect 2 "--vs-threads 2 is --host-threads as well: nothing to compare" "vs-threads same" \
  "$b" --vs-threads 2 --host-threads 2

expect 2 "--set bogus=1: config error: unknown config key 'bogus'" "set unknown key" "$b" --set bogus=1
expect 2 "--set num_sm=0: config error: num_sm must be 1..1024" "set bad value" "$b" --set num_sm=0
expect 2 "--set num_sm: usage error: config override 'num_sm': expected KEY=VALUE" "set without =" \
  "$b" --set num_sm

expect 0 "" "--help" "$b" --help
grep -q -- "--timing-scale F" "$tmp/out" && ok "--help names --timing-scale" ||
  bad "--help lacks --timing-scale"
expect 0 "" "--list" "$b" --list
for w in stream vecadd matmul matmul_tiled reduce diverge bfs jacobi fmath; do
  grep -q "^$w " "$tmp/out" || bad "--list lacks $w"
done

# one small workload in every mode, as JSON: three rows, each checked ok
"$b" --quick --only stream --trace stream --json >"$tmp/out" 2>"$tmp/err"
rc=$?
rows=$(grep -c '"name": "stream"' "$tmp/out")
okrows=$(grep -c '"result_ok": true' "$tmp/out")
if [ $rc = 0 ] && [ "$rows" = 3 ] && [ "$okrows" = 3 ] &&
  grep -q '"mode": "timing"' "$tmp/out" && grep -q '"cycles": [1-9]' "$tmp/out" &&
  grep -q '"mode": "traced"' "$tmp/out"; then
  ok "--quick --json: functional, timing and traced rows, all ok"
else
  bad "--quick --json: exit $rc, $rows rows, $okrows ok: $(head -c 400 "$tmp/out")"
fi

# the timing row's share of the functional speed: its thread-instructions
# per median second over the functional row's, recomputed from the rows
# within what their printed digits allow (times in microseconds, the share
# in four decimals: a --quick run lasts a few milliseconds)
share=$(awk '
  function num(k,  m) { if (match($0, "\"" k "\": [-0-9.e+]+")) { m = substr($0, RSTART, RLENGTH); sub(/.*: /, "", m); return m + 0 } return -1 }
  /"mode": "functional"/ { sf = num("sim_median_s"); f = num("thread_insns") / sf }
  /"mode": "timing"/ { st = num("sim_median_s"); t = num("thread_insns") / st; v = num("vs_functional") }
  END { d = v - t / f; tol = (t / f) * (5e-7 / st + 5e-7 / sf) * 1.01 + 5e-5
        if (f > 0 && v > 0 && d <= tol && d >= -tol) print "ok"; else print v, t / f, tol }' "$tmp/out")
[ "$share" = ok ] && ok "--json: the timing row's vs_functional is its speed over the functional row's" ||
  bad "--json: vs_functional against the rows' speeds: $share"

# --vs-threads: each row's reps also on two host threads, a speed-up per
# row; the timing rows' cycles compared too (a difference is a mismatch)
"$b" --quick --only reduce --trace none --vs-threads 2 --json >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && grep -q '"vs_threads": 2' "$tmp/out" && [ "$(grep -c '"threads_speedup": [0-9]' "$tmp/out")" = 2 ] &&
  [ "$(grep -c '"result_ok": true' "$tmp/out")" = 2 ]; then
  ok "--vs-threads 2 --json: a speed-up in both rows, both ok"
else
  bad "--vs-threads 2 --json: exit $rc: $(head -c 400 "$tmp/out") $(head -c 300 "$tmp/err")"
fi
"$b" --quick --only reduce --trace none --vs-threads 2 >"$tmp/out" 2>"$tmp/err"
grep -q '^host threads 1 against 2' "$tmp/out" && grep -q '^reduce .*timing .*x (' "$tmp/out" &&
  ok "--vs-threads 2: the table's speed-up lines" || bad "--vs-threads 2 table: $(tail -n 4 "$tmp/out")"

# --set: the configuration of every run, shown in the JSON; four SMs give
# other cycles than the default two
"$b" --quick --only reduce --trace none --json >"$tmp/two" 2>/dev/null
"$b" --quick --only reduce --trace none --set num_sm=4 --json >"$tmp/out" 2>"$tmp/err"
rc=$?
c2=$(grep '"mode": "timing"' "$tmp/two" | sed -E 's/.*"cycles": ([0-9]+).*/\1/')
c4=$(grep '"mode": "timing"' "$tmp/out" | sed -E 's/.*"cycles": ([0-9]+).*/\1/')
if [ $rc = 0 ] && grep -q '"sets": \["num_sm=4"\]' "$tmp/out" && [ -n "$c2" ] && [ -n "$c4" ] && [ "$c2" != "$c4" ] &&
  [ "$(grep -c '"result_ok": true' "$tmp/out")" = 2 ]; then
  ok "--set num_sm=4: in the JSON, other cycles ($c4 against $c2), results ok"
else
  bad "--set num_sm=4: exit $rc, cycles $c4 against $c2: $(head -c 300 "$tmp/out") $(head -c 300 "$tmp/err")"
fi

exit $fail
