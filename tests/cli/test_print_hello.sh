#!/usr/bin/env bash
# Print buffer end to end: kernels/examples/hello.S (warp 0 of every
# work-group writes "hello from work-group N" and the byte count to CSR
# print) assembled with start.S and workitem.S; `ventus run` must put
# exactly those lines on stdout, in group order, on several device shapes.
#   usage: bash test_print_hello.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
elf=$tmp/hello.elf
assemble_example hello "$elf"

expect_lines() { # N: the lines of groups 0..N-1
  local n=0
  while [ "$n" -lt "$1" ]; do
    printf 'hello from work-group %d\n' "$n"
    n=$((n + 1))
  done
}

check() { # groups description run-options...
  local groups=$1 what=$2
  shift 2
  if ! "$ventus" run "$elf" --kernel hello --quiet "$@" >"$tmp/out" 2>"$tmp/err"; then
    echo "FAIL $what: ventus run failed"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
    return
  fi
  expect_lines "$groups" >"$tmp/want"
  if cmp -s "$tmp/out" "$tmp/want"; then
    echo "ok   $what"
  else
    echo "FAIL $what: stdout differs from the expected lines"
    diff "$tmp/want" "$tmp/out" | head -10 | sed 's/^/  | /'
    fail=1
  fi
}

check 4 "4 groups of 2 warps" --global 32 --local 8 --threads 4
check 12 "12 groups (two-digit ids)" --global 96 --local 8 --threads 4
check 12 "2-D grid of 4x3 groups" --global 8,6 --local 2,2 --threads 2
check 40 "40 groups, one SM, one group at a time" --global 320 --local 8 --threads 8 \
  -c num_sm=1 -c wg_slots_per_sm=1
check 40 "40 groups, 4 SMs" --global 1280 --local 32 --threads 8 -c num_sm=4
check 0 "no print buffer: silent" --global 32 --local 8 --threads 4 --print-size 0
check 0 "print buffer smaller than a line: silent" --global 32 --local 8 --threads 4 --print-size 16

# without --quiet the summary goes to stderr, stdout keeps only the text
"$ventus" run "$elf" --kernel hello --global 16 --local 8 --threads 8 >"$tmp/out" 2>"$tmp/err"
expect_lines 2 >"$tmp/want"
if cmp -s "$tmp/out" "$tmp/want" && grep -q "warp-instructions" "$tmp/err"; then
  echo "ok   summary on stderr, text on stdout"
else
  echo "FAIL summary/text separation"
  fail=1
fi
exit $fail
