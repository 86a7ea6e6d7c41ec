#!/usr/bin/env bash
# `ventus run` exit codes: --expect match (0) and mismatch (1), usage (2),
# missing/bad input (4); --dump output round-trips through --expect.
#   usage: bash test_run_expect.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
corp="$src/../shared/corpora"
if [ ! -d "$corp" ]; then
  echo "SKIP: ../shared/corpora not found"
  exit 0
fi
check() { # expected-status description command...
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $what: exit $got, expected $want"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
  else
    echo "ok   $what"
  fi
}

case=$corp/verilog-tc/vecadd/4x8
check 0 "usage text" "$ventus" run --help
check 2 "unknown option" "$ventus" run --bogus "$case"
check 2 "no input" "$ventus" run
check 4 "missing input" "$ventus" run "$tmp/none.metadata"
check 2 "ELF options on a test vector" "$ventus" run "$case" --threads 8
check 0 "expect match" "$ventus" run --quiet "$case" --expect "$case/expected_spike.txt"
sed '5s/ 0x42000000/ 0x42000001/' "$case/expected_spike.txt" >"$tmp/bad.txt"
check 1 "expect mismatch" "$ventus" run --quiet "$case" --expect "$tmp/bad.txt"
grep -q "0x90002004: got 0x42000000, expected 0x42000001" "$tmp/err" ||
  { echo "FAIL mismatch message does not name the word"; cat "$tmp/err"; fail=1; }
check 0 "single .metadata" "$ventus" run --quiet "$case/vecadd_0.metadata" --expect "$case/expected_spike.txt"
check 0 "dump" "$ventus" run --quiet "$case" --dump "$tmp/dump.txt"
check 0 "dump round-trip" "$ventus" run --quiet "$case" --expect "$tmp/dump.txt"
check 0 "trace + trace-diff" "$ventus" run --quiet "$case" --trace "$tmp/t.log"
check 0 "trace-diff vs reference" "$ventus" trace-diff "$case/vecadd_0.log" "$tmp/t.log"
check 0 "stats json" "$ventus" run --quiet --json "$case"
grep -q '"config"' "$tmp/out" || { echo "FAIL --json prints no config"; fail=1; }
check 3 "step limit" "$ventus" run --quiet "$case" --max-steps 10
printf '80000000\nzz\n' >"$tmp/g.metadata"
: >"$tmp/g.data"
check 4 "garbage metadata" "$ventus" run "$tmp/g.metadata"
grep -q "g.metadata:2" "$tmp/err" || { echo "FAIL garbage message lacks file:line"; cat "$tmp/err"; fail=1; }
check 0 "config" "$ventus" config -c num_sm=4
check 2 "trace-diff usage" "$ventus" trace-diff only-one.log
exit $fail
