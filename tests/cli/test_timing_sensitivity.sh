#!/usr/bin/env bash
# Sensitivity checks the timing model must pass, with both named
# configurations: more SMs do not slow a kernel of many work-groups, a
# larger L1 data cache does not raise its misses, and a latency-bound
# kernel gets faster with more resident warps (docs/timing.md).
#   usage: bash test_timing_sensitivity.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail

assemble_example vecadd "$tmp/vecadd.elf"
assemble_example matmul "$tmp/matmul.elf"
# 32 work-groups of 2 warps; 32 of 1 warp
vecadd=("$tmp/vecadd.elf" --kernel vecadd --global 2048 --local 64 --threads 32 --arg buf:f32:2048:iota
        --arg buf:f32:2048:fill=0.5 --arg buf:f32:2048:zero --arg u32:2048)
vecadd1=("$tmp/vecadd.elf" --kernel vecadd --global 1024 --local 32 --threads 32 --arg buf:f32:1024:iota
         --arg buf:f32:1024:fill=0.5 --arg buf:f32:1024:zero --arg u32:1024)
matmul=("$tmp/matmul.elf" --kernel matmul --global 16,16 --local 8,4 --threads 8 --arg buf:i32:256:rand=3
        --arg buf:i32:256:rand=4 --arg buf:i32:256:zero --arg u32:16 --arg u32:16 --arg u32:16)

# cycles CFG ARGS...: the timed run's cycles (empty if it failed)
cycles() {
  "$ventus" run -q --timing --config "$src/configs/$1" "${@:2}" --stats 2>/dev/null |
    sed -n 's/^cycles = \([0-9]*\)$/\1/p'
}
# l1_misses CFG ARGS...: L1 data misses summed over the SMs
l1_misses() {
  "$ventus" run -q --timing --config "$src/configs/$1" "${@:2}" --stats 2>/dev/null |
    awk -F' = ' '/^sm[0-9]+\.l1_misses / { n += $2; seen = 1 } END { if (seen) print n }'
}
# le WHAT A B: A <= B, both numbers
le() {
  if [ -n "$2" ] && [ -n "$3" ] && [ "$2" -le "$3" ]; then ok "$1 ($2 <= $3)"; else bad "$1 ($2 > $3?)"; fi
}
lt() {
  if [ -n "$2" ] && [ -n "$3" ] && [ "$2" -lt "$3" ]; then ok "$1 ($2 < $3)"; else bad "$1 ($2 >= $3?)"; fi
}

for cfg in verilog-rtl.cfg chisel-2025.cfg; do
  c1=$(cycles "$cfg" -c num_sm=1 "${vecadd[@]}")
  c2=$(cycles "$cfg" -c num_sm=2 "${vecadd[@]}")
  c4=$(cycles "$cfg" -c num_sm=4 "${vecadd[@]}")
  le "$cfg: 2 SMs not slower than 1 on 32 work-groups" "$c2" "$c1"
  le "$cfg: 4 SMs not slower than 2" "$c4" "$c2"
  lt "$cfg: 2 SMs faster than 1" "$c2" "$c1"

  small=$(l1_misses "$cfg" -c l1d_sets=16 -c l1d_ways=2 "${matmul[@]}")
  big=$(l1_misses "$cfg" -c l1d_sets=16 -c l1d_ways=8 "${matmul[@]}")
  bigger=$(l1_misses "$cfg" -c l1d_sets=64 -c l1d_ways=8 "${matmul[@]}")
  le "$cfg: 8 ways do not miss more than 2 (matmul)" "$big" "$small"
  le "$cfg: 4x the sets do not miss more" "$bigger" "$big"

  w1=$(cycles "$cfg" -c warps_per_sm=1 "${vecadd1[@]}")
  w8=$(cycles "$cfg" -c warps_per_sm=8 "${vecadd1[@]}")
  lt "$cfg: 8 resident warps faster than 1 (vecadd, 1-warp groups)" "$w8" "$w1"
done
exit $fail
