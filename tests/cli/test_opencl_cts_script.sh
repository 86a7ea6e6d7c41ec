#!/usr/bin/env bash
# bench/opencl-cts.sh without running the CTS (CI never does; it takes an
# hour): --help and --list, its usage errors (exit 2), and, from a copy of the
# script in a project tree with no ../shared/reference/opencl-cts beside it,
# the visible notice and exit 0 with nothing built.
#   usage: bash test_opencl_cts_script.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
script=$src/bench/opencl-cts.sh
check() { # expected-status description command...
  local want=$1 what=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $what: exit $got, expected $want"
    sed 's/^/  | /; s/SKIP:/SKIP -/' "$tmp/out" "$tmp/err" | head -5
    fail=1
  else
    echo "ok   $what"
  fi
}
has() { # file pattern description
  if grep -q -- "$2" "$1"; then echo "ok   $3"; else echo "FAIL $3: no '$2' in:"; sed 's/^/  | /; s/SKIP:/SKIP -/' "$1" | head -5; fail=1; fi
}

check 0 "--help" bash "$script" --help
has "$tmp/out" "^usage: bench/opencl-cts.sh" "--help prints the usage"
has "$tmp/out" "results.csv" "--help names the result file"
check 0 "--list" bash "$script" --list
has "$tmp/out" "^test_basic " "--list names test_basic"
has "$tmp/out" "^test_bruteforce .*-w" "--list gives test_bruteforce its wimpy mode"
check 2 "unknown option" bash "$script" --bogus
check 2 "unknown binary" bash "$script" --only test_nothing
check 2 "--jobs 3" bash "$script" --jobs 3
check 2 "--scale without a value" bash "$script" --scale
check 2 "--scale not a number" bash "$script" --scale x

# a project tree of its own, with no ../shared beside it
mkdir -p "$tmp/proj/bench"
cp "$script" "$tmp/proj/bench/"
check 0 "no CTS sources: exit 0" bash "$tmp/proj/bench/opencl-cts.sh" --only test_basic
# (the notice is checked by pattern, not echoed: CTest reads "SKIP" plus a colon as a skipped test)
has "$tmp/out" "opencl-cts.sh: SKIP.*shared/reference/opencl-cts" "no CTS sources: a visible notice"
if [ -e "$tmp/proj/build-cts" ] || [ -e "$tmp/proj/bench/opencl-cts" ]; then
  echo "FAIL no CTS sources: something was built or written"; fail=1
else
  echo "ok   no CTS sources: nothing built or written"
fi
check 0 "--cts naming no CTS: exit 0" bash "$script" --cts "$tmp/none" --no-build
exit $fail
