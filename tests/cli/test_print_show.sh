#!/usr/bin/env bash
# `ventus run --show ARG[:COUNT[:TYPE]]` prints argument buffers in their
# type after the run, and `--expect-arg ARG[:TYPE]=FILE` compares them with
# a text file of values. The vecadd kernel with A = iota and B = 0.5 gives
# C[i] = i + 0.5 exactly; the expected lines are written here by hand.
#   usage: bash test_print_show.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
elf=$tmp/vecadd.elf
assemble_example vecadd "$elf"
launch=(--kernel vecadd --global 1024 --local 64 --threads 8
  --arg buf:f32:1024:iota --arg buf:f32:1024:fill=0.5 --arg buf:f32:1024 --arg u32:1024)

run() { # expected-status description extra-options...
  local want=$1 what=$2
  shift 2
  "$ventus" run "$elf" "${launch[@]}" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $what: exit $got, expected $want"
    sed 's/^/  | /' "$tmp/err" | head -5
    fail=1
    return 1
  fi
  return 0
}
ok_if() { # description command...
  local what=$1
  shift
  if "$@"; then
    echo "ok   $what"
  else
    echo "FAIL $what"
    sed 's/^/  | /' "$tmp/err" | head -3
    fail=1
  fi
}
same_out() { # description, expected stdout on stdin
  if diff - "$tmp/out" >"$tmp/diff"; then
    echo "ok   $1"
  else
    echo "FAIL $1: stdout differs"
    sed 's/^/  | /' "$tmp/diff" | head -10
    fail=1
  fi
}

run 0 "show" --quiet --show 2:8 --show 0:4 --show 1:3 --show 3 &&
  same_out "--show f32 buffers and a u32 scalar" <<'EOF'
arg2 f32[1024]: 0.5 1.5 2.5 3.5 4.5 5.5 6.5 7.5 ...
arg0 f32[1024]: 0 1 2 3 ...
arg1 f32[1024]: 0.5 0.5 0.5 ...
arg3 u32: 1024
EOF

# 0.5f = 0x3f000000 = 1056964608, 1.5f = 0x3fc00000 = 1069547520; little-endian bytes
run 0 "show as other types" --quiet --show 2:2:u32 --show 2:1:i32 --show 2:4:u8 --show 2:2:u16 &&
  same_out "--show with a TYPE" <<'EOF'
arg2 u32[1024]: 1056964608 1069547520 ...
arg2 i32[1024]: 1056964608 ...
arg2 u8[4096]: 0 0 0 63 ...
arg2 u16[2048]: 0 16128 ...
EOF

run 0 "default count" --quiet --show 2 &&
  same_out "--show default count 16" <<'EOF'
arg2 f32[1024]: 0.5 1.5 2.5 3.5 4.5 5.5 6.5 7.5 8.5 9.5 10.5 11.5 12.5 13.5 14.5 15.5 ...
EOF

# declared integer types, round-tripping float text, COUNT 0 = all
"$ventus" run "$elf" --kernel vecadd --global 8 --local 8 --threads 8 --quiet \
  --arg buf:i32:5:fill=-7 --arg buf:u16:3:iota --arg buf:f32:4:fill=0.1 --arg u32:0 \
  --show 0:0 --show 1:0 --show 2:2 --show 2:1:u32 >"$tmp/out" 2>"$tmp/err" || {
  echo "FAIL typed buffers: ventus run failed"
  fail=1
}
same_out "--show i32/u16/f32 declared types, shortest float text" <<'EOF'
arg0 i32[5]: -7 -7 -7 -7 -7
arg1 u16[3]: 0 1 2
arg2 f32[4]: 0.1 0.1 ...
arg2 u32[4]: 1036831949 ...
EOF

# subnormal and largest floats are valid --arg values and print back the same
"$ventus" run "$elf" --kernel vecadd --global 8 --local 8 --threads 8 --quiet \
  --arg buf:f32:2:fill=1e-45 --arg buf:f32:1:fill=3.4028235e38 --arg buf:f32:1:fill=0.33333334 \
  --arg u32:0 --show 0 --show 1 --show 2 >"$tmp/out" 2>"$tmp/err" || {
  echo "FAIL subnormal --arg: ventus run failed"
  sed 's/^/  | /' "$tmp/err" | head -3
  fail=1
}
same_out "--show subnormal, largest and 1/3 floats" <<'EOF'
arg0 f32[2]: 1e-45 1e-45
arg1 f32[1]: 3.4028235e+38
arg2 f32[1]: 0.33333334
EOF

# the whole result against values written with awk
awk 'BEGIN { for (i = 0; i < 1024; i++) printf "%.1f\n", i + 0.5 }' >"$tmp/c.txt"
run 0 "expect-arg match" --expect-arg 2="$tmp/c.txt" &&
  ok_if "--expect-arg match" grep -q "arg2: 1024 f32 values match" "$tmp/err"
printf '# first four\n0 1, 2 3\n' >"$tmp/a.txt"
run 0 "expect-arg prefix with comment and commas" --quiet --expect-arg 0="$tmp/a.txt" &&
  echo "ok   --expect-arg prefix"
sed '18s/.*/17/' "$tmp/c.txt" >"$tmp/bad.txt"
run 1 "expect-arg mismatch" --quiet --expect-arg 2="$tmp/bad.txt" &&
  ok_if "--expect-arg mismatch names the element" \
    grep -q "1 of 1024 values differ from .*: \[17\] got 17.5, expected 17$" "$tmp/err"
run 1 "expect-arg mismatch json" --json --expect-arg 2="$tmp/bad.txt" &&
  ok_if "--json reports the mismatch" grep -q '"result":"mismatch"' "$tmp/out"
awk 'BEGIN { for (i = 0; i < 1025; i++) print 0 }' >"$tmp/long.txt"
run 2 "too many values" --quiet --expect-arg 0="$tmp/long.txt" && echo "ok   too many values"
printf '1 x\n' >"$tmp/junk.txt"
run 4 "junk value" --quiet --expect-arg 0="$tmp/junk.txt" &&
  ok_if "junk value names file:line" grep -q "junk.txt:1: 'x' is not a f32 value" "$tmp/err"

# usage errors are found before the run
run 2 "no such argument" --show 4 && ok_if "--show 4" grep -q "there is no argument 4" "$tmp/err"
run 2 "scalar expect" --expect-arg 3="$tmp/c.txt" && echo "ok   --expect-arg on a scalar"
run 2 "bad type" --show 2:4:f64 && echo "ok   --show bad type"
run 2 "bad count" --show 2:x && echo "ok   --show bad count"
run 2 "expect-arg without file" --expect-arg 2 && echo "ok   --expect-arg without =FILE"
exit $fail
