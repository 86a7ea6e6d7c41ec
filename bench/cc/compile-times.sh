#!/usr/bin/env bash
# Compile times of the large kernels of gen-large.py (issue 22 item 4):
# the median of REPS runs of `ventus cc` per kernel, wall-clock and CPU
# (user+system of ventus and clang), and the front end's share (clang's CPU,
# through a CHENGYING_CLANG wrapper). Results: docs/robustness.md.
#   usage: bench/cc/compile-times.sh VENTUS [REPS (default 5)] [KIND:N ...]
# default kernels: switch:10000 switch:20000 straight:20000 nest:12 init:200000
set -u
ventus=${1:?usage: compile-times.sh VENTUS [REPS] [KIND:N ...]}
reps=${2:-5}
shift $(($# > 1 ? 2 : 1))
kernels=${*:-switch:10000 switch:20000 straight:20000 nest:12 init:200000}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang=${CHENGYING_CLANG:-clang-19}
printf '#!/bin/sh\nexec /usr/bin/time -f "%%U %%S" -a -o "%s/clang.times" %s "$@"\n' "$tmp" "$clang" >"$tmp/clang"
chmod +x "$tmp/clang"
median() { sort -g | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-16s %8s %8s %8s %6s\n' kernel wall_s cpu_s clang_s reps
for k in $kernels; do
  kind=${k%%:*} n=${k#*:}
  python3 "$here/gen-large.py" "$kind" "$n" >"$tmp/k.cl"
  : >"$tmp/wall" && : >"$tmp/cpu" && : >"$tmp/fe"
  for _ in $(seq "$reps"); do
    : >"$tmp/clang.times"
    if ! CHENGYING_CLANG=$tmp/clang /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$ventus" cc --max-compile-seconds=0 \
      -o "$tmp/k.elf" "$tmp/k.cl" 2>"$tmp/err"; then
      echo "$k: does not compile: $(head -2 "$tmp/err")" >&2
      exit 1
    fi
    awk '{print $1 >> "'"$tmp/wall"'"; print $2 + $3 >> "'"$tmp/cpu"'"}' "$tmp/t"
    awk '{s += $1 + $2} END {print s}' "$tmp/clang.times" >>"$tmp/fe"
  done
  printf '%-16s %8s %8s %8s %6s\n' "$k" "$(median <"$tmp/wall")" "$(median <"$tmp/cpu")" "$(median <"$tmp/fe")" "$reps"
done
