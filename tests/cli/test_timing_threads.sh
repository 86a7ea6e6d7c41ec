#!/usr/bin/env bash
# Parallel timing mode (host_threads with --timing, docs/timing.md
# "Parallel timing"): on four SMs, 1, 2 and 3 host threads give the same
# cycle counts and every statistic (the functional ones and the timing
# model's, per SM and of the L2), and the memory of the functional mode;
# kernels with many work-groups, with barriers and local memory, with global
# AMOs whose results are discarded (counts computed by hand), a
# memory-bound one and one on seven SMs; an AMO whose old value is used
# keeps one thread. With run_ahead = 0 (each instruction run as it issues,
# not before), one thread gives the same cycles and statistics too.
#   usage: bash test_timing_threads.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
k=$src/kernels
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
# ELF NAME LAUNCH...: timed with 1, 2, 3 threads and functionally; compared
same() {
  local elf=$1 name=$2
  shift 2
  if ! "$ventus" run -q "$elf" -c num_sm=4 --dump "$tmp/df" "$@" >/dev/null 2>"$tmp/ef"; then
    bad "$name functional: $(head -1 "$tmp/ef")"
    return
  fi
  for t in 1 2 3; do
    if ! "$ventus" run -q --timing "$elf" -c num_sm=4 --host-threads "$t" --dump "$tmp/d$t" --stats "$@" \
      >"$tmp/s$t" 2>"$tmp/e$t"; then
      bad "$name --timing --host-threads $t: $(head -1 "$tmp/e$t")"
      return
    fi
    cmp -s "$tmp/df" "$tmp/d$t" || bad "$name: memory with $t timed thread(s) differs from the functional mode"
    grep -v "^host_threads\|^parallel_launches" "$tmp/s$t" >"$tmp/f$t"
  done
  grep -q "^cycles = [1-9]" "$tmp/f1" || bad "$name: no cycle count in the statistics"
  for t in 2 3; do
    cmp -s "$tmp/f1" "$tmp/f$t" && ok "$name: $t threads, the same cycles and statistics as one" \
      || bad "$name: $t threads differ from one: $(diff "$tmp/f1" "$tmp/f$t" | head -3 | tr '\n' ';')"
  done
  [ "$(stat_of parallel_launches "$tmp/s1")" = 0 ] || bad "$name: --host-threads 1 ran in parallel"
  # run_ahead = 0: every instruction runs as it issues (the timing model's
  # run-ahead runs private ones before): the same cycles and statistics
  if "$ventus" run -q --timing "$elf" -c num_sm=4 -c run_ahead=0 --host-threads 1 --dump "$tmp/d0" --stats "$@" \
    >"$tmp/s0" 2>"$tmp/e0"; then
    cmp -s "$tmp/df" "$tmp/d0" || bad "$name: memory with run_ahead = 0 differs from the functional mode"
    grep -v "^host_threads\|^parallel_launches\|^run_ahead" "$tmp/s0" >"$tmp/f0"
    grep -v "^run_ahead" "$tmp/f1" >"$tmp/f1r"
    cmp -s "$tmp/f1r" "$tmp/f0" && ok "$name: run_ahead = 0, the same cycles and statistics" \
      || bad "$name: run_ahead = 0 differs: $(diff "$tmp/f1r" "$tmp/f0" | head -3 | tr '\n' ';')"
  else
    bad "$name --timing -c run_ahead=0: $(head -1 "$tmp/e0")"
  fi
  stat_of parallel_launches "$tmp/s3" >"$tmp/par"
}

for ex in vecadd matmul reduce diverge; do build_kernel "$ex" "$k/examples/$ex.S" || continue; done
same "$tmp/vecadd.elf" vecadd --kernel vecadd --global 16384 --local 64 --arg buf:f32:16384:rand=3 \
  --arg buf:f32:16384:rand=4 --arg buf:f32:16384:zero --arg u32:16384
[ "$(cat "$tmp/par")" = 1 ] && ok "vecadd ran on 3 host threads" || bad "vecadd did not run in parallel"
same "$tmp/matmul.elf" matmul --kernel matmul --global 32,32 --local 8,4 --arg buf:i32:1024:rand=5 \
  --arg buf:i32:1024:rand=6 --arg buf:i32:1024:zero --arg u32:32 --arg u32:32 --arg u32:32
same "$tmp/reduce.elf" reduce --kernel reduce --global 8192 --local 256 --arg buf:i32:8192:rand=7 \
  --arg buf:i32:32:zero --arg u32:8192
[ "$(cat "$tmp/par")" = 1 ] || bad "reduce (barriers) did not run in parallel"
same "$tmp/diverge.elf" diverge --kernel diverge --global 4096 --local 64 --arg buf:u32:4096:iota \
  --arg buf:u32:4096:zero --arg u32:4096
# a small L2 and narrow DRAM: the SMs contend for it all the time
same "$tmp/vecadd.elf" "vecadd, memory-bound" -c l2_sets=4 -c l2_ways=2 -c dram_bytes_per_cycle=8 \
  --kernel vecadd --global 8192 --local 32 --arg buf:f32:8192:iota --arg buf:f32:8192:iota \
  --arg buf:f32:8192:zero --arg u32:8192
# seven SMs on 2 and 3 threads: homes of unequal size, and SMs claimed by
# a thread that is not their home whenever it has run out of its own
same "$tmp/reduce.elf" "reduce, 7 SMs" -c num_sm=7 --kernel reduce --global 16384 --local 256 \
  --arg buf:i32:16384:rand=8 --arg buf:i32:64:zero --arg u32:16384
# ... and a quantum of one cycle
same "$tmp/reduce.elf" "reduce, timing_quantum = 1" -c timing_quantum=1 --kernel reduce --global 4096 \
  --local 128 --arg buf:i32:4096:iota --arg buf:i32:32:zero --arg u32:4096

# every warp adds 1, 20 times, to c[0] and to c[1 + group % 7]: 64 groups x 2
# warps x 20 = 2560 on word 0; groups g with g % 7 = j: 10 for j = 0, else 9
cp "$src/tests/asm/amo_count.S" "$tmp/count.S" # n = 20 below
want="2560 400 360 360 360 360 360 360"
if build_kernel count "$tmp/count.S"; then
  same "$tmp/count.elf" "amoadd, result discarded" --kernel count --global 4096 --local 64 --arg buf:u32:8:zero --arg u32:20
  [ "$(cat "$tmp/par")" = 1 ] || bad "the AMO kernel did not run in parallel"
  "$ventus" run -q --timing "$tmp/count.elf" -c num_sm=4 --host-threads 3 --kernel count --global 4096 \
    --local 64 --arg buf:u32:8:zero --arg u32:20 --show 0:8 >"$tmp/out" 2>&1
  got=$(sed -n 's/^arg0 u32\[8\]: //p' "$tmp/out")
  [ "$got" = "$want" ] && ok "amoadd over 64 groups on 3 timed threads: $got" || bad "amoadd: got '$got', want '$want'"
  sed 's/amoadd.w zero, t1, (a1)/amoadd.w t4, t1, (a1)/' "$tmp/count.S" >"$tmp/count_rd.S"
  if build_kernel count_rd "$tmp/count_rd.S"; then
    "$ventus" run --timing "$tmp/count_rd.elf" -c num_sm=4 --host-threads 3 --stats --kernel count \
      --global 4096 --local 64 --arg buf:u32:8:zero --arg u32:20 --show 0:8 >"$tmp/out" 2>&1
    [ "$(sed -n 's/^arg0 u32\[8\]: //p' "$tmp/out")" = "$want" ] || bad "amoadd with rd: wrong counts"
    [ "$(stat_of parallel_launches "$tmp/out")" = 0 ] && ok "an AMO whose result is used: one timed thread" \
      || bad "an AMO whose result is used ran in parallel under --timing"
  fi
fi
expect 4 "timing_quantum must be 0..100000" "timing_quantum out of range" \
  "$ventus" run --timing -c timing_quantum=100001 "$tmp/vecadd.elf" --kernel vecadd --global 64 --local 64 \
  --arg buf:f32:64:zero --arg buf:f32:64:zero --arg buf:f32:64:zero --arg u32:64
exit $fail
