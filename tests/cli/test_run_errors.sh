#!/usr/bin/env bash
# `ventus` bad input: each case gives one error line naming the option or file
# and the documented exit status (2 usage, 4 input/other); output that cannot
# be written is an error; --json always parses; progress only on a terminal.
#   usage: bash test_run_errors.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
check() { # expected-status expected-stderr-substring description command...
  local want=$1 msg=$2 what=$3
  shift 3
  "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $what: exit $got, expected $want"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
  elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/err"; then
    echo "FAIL $what: stderr lacks '$msg'"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
  elif [ "$want" != 0 ] && [ "$(wc -l <"$tmp/err")" != 1 ]; then
    echo "FAIL $what: expected one error line"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
  else
    echo "ok   $what"
  fi
}
json_ok() { python3 -m json.tool "$tmp/out" >/dev/null 2>&1 || { echo "FAIL $1: output is not JSON"; fail=1; }; }

elf=$tmp/vecadd.elf
assemble_example vecadd "$elf"
A=(--kernel vecadd --arg buf:f32:64:iota --arg buf:f32:64:fill=1 --arg buf:f32:64 --arg u32:64)
check 0 "" "valid launch" "$ventus" run "$elf" "${A[@]}" --global 64 --local 32
# numbers: sign, overflow, extra components, blanks, zero
check 2 "--global 0:" "--global 0" "$ventus" run "$elf" "${A[@]}" --global 0
check 2 "--local 3,0:" "--local 3,0" "$ventus" run "$elf" "${A[@]}" --global 64 --local 3,0
check 2 "--global  64:" "--global with a blank" "$ventus" run "$elf" "${A[@]}" --global " 64"
check 2 "--threads 33:" "--threads 33" "$ventus" run "$elf" "${A[@]}" --global 64 --threads 33
check 2 "--threads 0:" "--threads 0" "$ventus" run "$elf" "${A[@]}" --global 64 --threads 0
check 2 "--offset -1:" "negative --offset (wrapped to 0xffffffff)" "$ventus" run "$elf" "${A[@]}" --global 64 --offset -1
check 2 "--offset 1,2,3,4:" "four --offset components (the 4th was dropped)" "$ventus" run "$elf" "${A[@]}" --global 64 --offset 1,2,3,4
check 2 "--offset 99999999999:" "--offset above 32 bits (truncated)" "$ventus" run "$elf" "${A[@]}" --global 64 --offset 99999999999
check 0 "" "--offset 0,0" "$ventus" run "$elf" "${A[@]}" --global 64 --offset 0,0
check 2 "--max-steps -1:" "negative --max-steps (was 'no limit')" "$ventus" run "$elf" "${A[@]}" --global 64 --max-steps -1
check 2 "--print-size 99999999999999M:" "size overflowing with M" "$ventus" run "$elf" "${A[@]}" --global 64 --print-size 99999999999999M
check 2 "--pds-size 0:" "--pds-size 0" "$ventus" run "$elf" "${A[@]}" --global 64 --pds-size 0
check 2 "--global given twice" "duplicate option" "$ventus" run "$elf" "${A[@]}" --global 64 --global 32
check 2 "exclude each other" "--trace with --trace-dir" "$ventus" run "$elf" "${A[@]}" --global 64 --trace "$tmp/t.log" --trace-dir "$tmp"
check 2 "no symbol named 'nosuch'" "unknown kernel" "$ventus" run "$elf" "${A[@]:2}" --global 64 --kernel nosuch
check 4 "/nonexistent/x.txt" "unwritable --dump" "$ventus" run "$elf" "${A[@]}" --global 64 --dump /nonexistent/x.txt
# --dump-range over unmapped memory: usage error before anything is written
check 2 "--dump-range 0x10000000:0x10" "unmapped --dump-range" "$ventus" run "$elf" "${A[@]}" --global 64 --dump-range 0x10000000:0x10 --dump "$tmp/d.txt"
[ -e "$tmp/d.txt" ] && { echo "FAIL a failed --dump left $tmp/d.txt"; fail=1; }
: >"$tmp/empty.txt"
check 4 "no '<address> <word>' lines" "empty --expect file (claimed a match)" "$ventus" run "$elf" "${A[@]}" --global 64 --expect "$tmp/empty.txt"
printf '0x90000000 0x0\0garbage\n' >"$tmp/nul.txt"
check 4 "NUL byte" "NUL byte in --expect" "$ventus" run "$elf" "${A[@]}" --global 64 --expect "$tmp/nul.txt"
# a file given with --kernel that is not an ELF: says so (input error, not usage)
mv "$tmp/empty.txt" "$tmp/empty.elf"
check 4 "empty.elf: not an ELF file (it is empty)" "empty file as a kernel ELF" "$ventus" run "$tmp/empty.elf" --kernel k
check 4 "nul.txt: not an ELF file (no ELF magic number" "text file as a kernel ELF" "$ventus" run "$tmp/nul.txt" --kernel k
check 4 "/dev/zero: not a regular file" "--expect /dev/zero (read for ever)" "$ventus" run "$elf" "${A[@]}" --global 64 --expect /dev/zero
check 4 "$tmp: is a directory" "--expect a directory" "$ventus" run "$elf" "${A[@]}" --global 64 --expect "$tmp"
# --arg buf:file=: an input file like any other (was "empty or larger than 1 GiB", exit 2)
check 4 "$tmp: is a directory" "buf:file= a directory" "$ventus" run "$elf" --kernel vecadd --arg "buf:file=$tmp" --global 64
check 4 "/dev/zero: not a regular file" "buf:file=/dev/zero" "$ventus" run "$elf" --kernel vecadd --arg buf:file=/dev/zero --global 64
check 4 "empty.elf: buffer file is empty" "buf:file= an empty file" "$ventus" run "$elf" --kernel vecadd --arg "buf:file=$tmp/empty.elf" --global 64
# the buffer size limit is named
check 2 "'4G' is not 1 B .. 1 GiB" "--arg buf:zero:4G" "$ventus" run "$elf" --kernel vecadd --arg buf:zero:4G --global 64
check 2 "'1000000000' is not 1 .. 268435456 (4-byte elements, 1 GiB" "--arg buf:u32:1000000000" "$ventus" run "$elf" --kernel vecadd --arg buf:u32:1000000000 --global 64
# a range that covers words in part: whole words, the bytes outside the range zero
# (arg 0 is f32 0, 1, 2, ...: the word at 0x90000004 is 1.0f = 0x3f800000)
check 0 "" "--dump-range of bytes 1..2 of a word" "$ventus" run "$elf" "${A[@]}" --global 64 -q --dump-range 0x90000005:2
[ "$(cat "$tmp/out")" = "0x90000004 0x00800000" ] || { echo "FAIL partial --dump-range: $(cat "$tmp/out")"; fail=1; }
# stdout that cannot be written: exit 4, never a success line
"$ventus" run "$elf" "${A[@]}" --global 64 --stats >/dev/full 2>"$tmp/err"
[ $? = 4 ] && grep -q "standard output failed" "$tmp/err" && ! grep -q "warp-instructions" "$tmp/err" ||
  { echo "FAIL --stats >/dev/full"; cat "$tmp/err"; fail=1; }
"$ventus" config --json >&- 2>"$tmp/err"
[ $? = 4 ] || { echo "FAIL config with stdout closed"; fail=1; }
# a closed stdout must not become the --dump file
"$ventus" run "$elf" "${A[@]}" --global 64 --dump "$tmp/d2.txt" --stats >&- 2>/dev/null
grep -q "statistics\|num_sm" "$tmp/d2.txt" 2>/dev/null && { echo "FAIL --stats went into the --dump file"; fail=1; }
# JSON with a path that needs escaping
weird="$tmp/we\"ird\\dir"
mkdir -p "$weird"
cp "$elf" "$weird/k.elf"
check 0 "" "--json with a quote in the path" "$ventus" run "$weird/k.elf" "${A[@]}" --global 64 --json
json_ok "--json with a quote in the path"
check 0 "" "trace-diff --json" "$ventus" run "$elf" "${A[@]}" --global 64 --trace "$weird/t.log" -q
check 0 "" "trace-diff --json" "$ventus" trace-diff --json "$weird/t.log" "$weird/t.log"
json_ok "trace-diff --json"
# trace-diff: unreadable or malformed input is 4, not 2 (usage)
check 4 "no commit log lines" "trace-diff of non-logs" "$ventus" trace-diff /etc/hostname /etc/hostname
check 4 "none.log" "trace-diff of a missing file" "$ventus" trace-diff "$tmp/none.log" "$weird/t.log"
# test-vector inputs
mkdir -p "$tmp/emptydir"
check 4 "kernels.txt" "directory without kernels.txt" "$ventus" run "$tmp/emptydir"
# progress: on a terminal only, and erased before an error
if command -v script >/dev/null; then
  script -qc "'$ventus' run '$elf' ${A[*]} --global 4096 --local 32 --max-steps 2000" /dev/null >"$tmp/tty" 2>&1
  grep -q "work-groups" "$tmp/tty" || { echo "FAIL no progress on a terminal"; fail=1; }
  tr '\r' '\n' <"$tmp/tty" | grep "step limit" | grep -q "work-groups" && { echo "FAIL error line glued to the progress line"; fail=1; }
fi
"$ventus" run "$elf" "${A[@]}" --global 4096 --local 32 2>"$tmp/err" >/dev/null
grep -q "work-groups" "$tmp/err" && { echo "FAIL progress written to a non-terminal"; fail=1; }
corp="$src/../shared/corpora"
if [ -d "$corp" ]; then
  m=$corp/rtlsim-multiwg/vecadd/vecadd_64b32w32t.metadata
  check 4 "-c warps_per_sm=32" "32-warp groups name the fix" "$ventus" run "$m"
  check 0 "" "32-warp groups with the fix" "$ventus" run "$m" -c warps_per_sm=32 --expect "${m%.metadata}.expected.txt"
fi
exit $fail
