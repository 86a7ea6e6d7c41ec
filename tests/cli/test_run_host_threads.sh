#!/usr/bin/env bash
# Parallel launches (config key host_threads, docs/simulator.md §6):
# --host-threads 1 and 2 leave the same memory and statistics on the example
# kernels (many work-groups, run in parallel: parallel_launches = 1) and on
# every corpus case; global AMOs are atomic across host threads (counts
# computed by hand); an AMO whose old value is used falls back to one thread,
# while a compiled atomic whose result the kernel discards (rd = x0), or one
# on __local memory that the compiler lists (.ventus.amo_local), does not,
# and another kernel of the program never does (.ventus.code.<kernel>);
# a fault is reported for the lowest faulting work-group, the same every
# time, and the step limit stops every thread.
#   usage: bash test_run_host_threads.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
k=$src/kernels
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
# ELF NAME LAUNCH...: both thread counts, dumps and statistics compared
same() {
  local elf=$1 name=$2
  shift 2
  for t in 1 2; do
    if ! "$ventus" run -q "$elf" --host-threads "$t" --dump "$tmp/d$t" --stats "$@" >"$tmp/s$t" 2>"$tmp/e$t"; then
      bad "$name --host-threads $t: $(head -1 "$tmp/e$t")"
      return
    fi
  done
  cmp -s "$tmp/d1" "$tmp/d2" && ok "$name: same memory" || bad "$name: memory differs between 1 and 2 threads"
  grep -v "^host_threads\|^parallel_launches" "$tmp/s1" >"$tmp/f1"
  grep -v "^host_threads\|^parallel_launches" "$tmp/s2" >"$tmp/f2"
  cmp -s "$tmp/f1" "$tmp/f2" && ok "$name: same statistics" || bad "$name: statistics differ: $(diff "$tmp/f1" "$tmp/f2" | head -3 | tr '\n' ';')"
  [ "$(stat_of parallel_launches "$tmp/s1")" = 0 ] || bad "$name: --host-threads 1 ran in parallel"
  echo "$(stat_of parallel_launches "$tmp/s2")" >"$tmp/par"
}

# ---- the example kernels: many work-groups, race-free -------------------------------
for ex in vecadd matmul reduce diverge; do build_kernel "$ex" "$k/examples/$ex.S" || continue; done
same "$tmp/vecadd.elf" vecadd --kernel vecadd --global 8192 --local 64 --arg buf:f32:8192:rand=3 \
  --arg buf:f32:8192:rand=4 --arg buf:f32:8192:zero --arg u32:8192
[ "$(cat "$tmp/par")" = 1 ] && ok "vecadd ran on 2 host threads" || bad "vecadd did not run in parallel"
same "$tmp/matmul.elf" matmul --kernel matmul --global 48,48 --local 8,4 --arg buf:i32:2304:rand=5 \
  --arg buf:i32:2304:rand=6 --arg buf:i32:2304:zero --arg u32:48 --arg u32:48 --arg u32:48
[ "$(cat "$tmp/par")" = 1 ] || bad "matmul did not run in parallel"
same "$tmp/reduce.elf" reduce --kernel reduce --global 16384 --local 256 --arg buf:i32:16384:rand=7 \
  --arg buf:i32:64:zero --arg u32:16384
[ "$(cat "$tmp/par")" = 1 ] || bad "reduce did not run in parallel"
same "$tmp/diverge.elf" diverge --kernel diverge --global 4096 --local 64 --arg buf:u32:4096:iota \
  --arg buf:u32:4096:zero --arg u32:4096
[ "$(cat "$tmp/par")" = 1 ] || bad "diverge did not run in parallel"

# ---- global atomics across work-groups and threads -------------------------------------
# every warp adds 1, 100 times, to counter[0] and to counter[1 + group % 7]:
# 64 groups x 2 warps x 100 = 12800 on word 0; groups g with g % 7 = j: 10 for
# j = 0 (0, 7, ..., 63), else 9, so 2000 or 1800 on the others
cp "$src/tests/asm/amo_count.S" "$tmp/count.S" # n = 100 below
want="12800 2000 1800 1800 1800 1800 1800 1800"
if build_kernel count "$tmp/count.S"; then
  for t in 1 2; do
    "$ventus" run "$tmp/count.elf" --host-threads "$t" --stats --kernel count --global 4096 --local 64 \
      --arg buf:u32:8:zero --arg u32:100 --show 0:8 >"$tmp/out" 2>&1
    got=$(sed -n 's/^arg0 u32\[8\]: //p' "$tmp/out")
    [ "$got" = "$want" ] && ok "amoadd over 64 groups, $t thread(s): $got" || bad "amoadd, $t thread(s): got '$got', want '$want'"
  done
  [ "$(stat_of parallel_launches "$tmp/out")" = 1 ] || bad "the AMO kernel did not run in parallel"
  # the old value used (rd != x0): the order across groups could show, so one thread
  sed 's/amoadd.w zero, t1, (a1)/amoadd.w t4, t1, (a1)/' "$tmp/count.S" >"$tmp/count_rd.S"
  if build_kernel count_rd "$tmp/count_rd.S"; then
    "$ventus" run "$tmp/count_rd.elf" --host-threads 2 --stats --kernel count --global 4096 --local 64 \
      --arg buf:u32:8:zero --arg u32:100 --show 0:8 >"$tmp/out" 2>&1
    [ "$(sed -n 's/^arg0 u32\[8\]: //p' "$tmp/out")" = "$want" ] || bad "amoadd with rd: wrong counts"
    [ "$(stat_of parallel_launches "$tmp/out")" = 0 ] && ok "an AMO whose result is used runs on one thread" \
      || bad "an AMO whose result is used ran in parallel"
  fi
fi

# ---- compiled atomics: a result the kernel discards leaves rd = x0 ---------------------------
# (src/cc/cc_isel_atomic.c): a histogram built by `ventus cc` runs on two
# threads with the memory and statistics of one (iota 0..8191 mod 8: 1024
# in every bin); the same increment whose old value is stored stays on one
printf '__kernel void hist(__global const uint *in, __global uint *bins) {\n  atomic_inc(&bins[in[get_global_id(0)] %% 8]);\n}\n' >"$tmp/hist.cl"
printf '__kernel void seen(__global const uint *in, __global uint *bins, __global uint *out) {\n  out[get_global_id(0)] = atomic_inc(&bins[in[get_global_id(0)] %% 8]);\n}\n' >"$tmp/seen.cl"
if ! "$ventus" cc -o "$tmp/hist.elf" "$tmp/hist.cl" 2>"$tmp/err"; then
  grep -q "no OpenCL C compiler\|cannot run the OpenCL C front end" "$tmp/err" &&
    echo "SKIP: ventus cc is not available in this build (compiled atomics)" || bad "hist.cl: $(head -1 "$tmp/err")"
else
  same "$tmp/hist.elf" "compiled histogram" --kernel hist --global 8192 --local 64 --arg buf:u32:8192:iota \
    --arg buf:u32:8:zero --show 1
  [ "$(cat "$tmp/par")" = 1 ] && ok "compiled histogram (atomic_inc, result unused) ran on 2 host threads" ||
    bad "compiled histogram did not run in parallel"
  grep -q "^arg1 u32\[8\]: 1024 1024 1024 1024 1024 1024 1024 1024$" "$tmp/s2" && ok "compiled histogram: 1024 in every bin" ||
    bad "compiled histogram: $(grep '^arg1' "$tmp/s2")"
  # __local atomics, old value used and of three kinds, beside a global
  # add: `ventus cc` lists the local ones (.ventus.amo_local), so the launch
  # runs on two threads; iota input, groups of 64: group g counts 64, its
  # maximum is 64g + 63, its minimum 64g; the global sum is 0 + ... + 8191
  cat >"$tmp/loc.cl" <<'CL'
__kernel void loc(__global const int *in, __global int *out, __global int *won) {
  __local int c[3];
  uint l = get_local_id(0), g = get_group_id(0);
  if (l < 3) c[l] = l == 2 ? 1 << 30 : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = in[get_global_id(0)];
  won[get_global_id(0)] = atomic_inc(&c[0]);
  atomic_max(&c[1], x);
  atomic_min(&c[2], x);
  atomic_add(&out[1024], x);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 3) out[g * 3 + l] = c[l];
}
CL
  if "$ventus" cc -o "$tmp/loc.elf" "$tmp/loc.cl" 2>"$tmp/err"; then
    same "$tmp/loc.elf" "compiled __local atomics" --kernel loc --global 8192 --local 64 --arg buf:i32:8192:iota \
      --arg buf:i32:1025:zero --arg buf:i32:8192:zero --show 1:0
    [ "$(cat "$tmp/par")" = 1 ] && ok "compiled __local atomics (old value used, three kinds) ran on 2 host threads" ||
      bad "compiled __local atomics did not run in parallel"
    vals=$(sed -n 's/^arg1 i32\[1025\]: //p' "$tmp/s2")
    want=$(awk 'BEGIN { for (g = 0; g < 128; g++) printf "%d %d %d ", 64, 64 * g + 63, 64 * g; }')
    got=$(echo "$vals" | cut -d' ' -f1-384) sum=$(echo "$vals" | cut -d' ' -f1025)
    [ "$got " = "$want" ] && [ "$sum" = 33550336 ] && ok "compiled __local atomics: counts, maxima, minima and the sum by hand" ||
      bad "compiled __local atomics: got '$(echo "$got" | cut -c1-60)...' sum '$sum'"
  else
    bad "loc.cl: $(head -1 "$tmp/err")"
  fi
  # atomic_cmpxchg on __local memory: an add by compare-and-swap loops, its
  # lr.w and sc.w listed, so the launch runs on two threads; iota input,
  # groups of 64: group g sums 64g .. 64g + 63 = 4096g + 2016
  cat >"$tmp/cas.cl" <<'CL'
__kernel void cas(__global const int *in, __global int *out) {
  __local int s;
  if (get_local_id(0) == 0) s = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  int x = in[get_global_id(0)], old = s, seen;
  do {
    seen = old;
    old = atomic_cmpxchg(&s, seen, seen + x);
  } while (old != seen);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = s;
}
CL
  if "$ventus" cc -o "$tmp/cas.elf" "$tmp/cas.cl" 2>"$tmp/err"; then
    same "$tmp/cas.elf" "compiled __local atomic_cmpxchg" --kernel cas --global 8192 --local 64 --arg buf:i32:8192:iota \
      --arg buf:i32:128:zero --show 1:0
    [ "$(cat "$tmp/par")" = 1 ] && ok "compiled __local atomic_cmpxchg (lr.w/sc.w) ran on 2 host threads" ||
      bad "compiled __local atomic_cmpxchg did not run in parallel"
    want=$(awk 'BEGIN { for (g = 0; g < 128; g++) printf "%s%d", g ? " " : "", 4096 * g + 2016; }')
    [ "$(sed -n 's/^arg1 i32\[128\]: //p' "$tmp/s2")" = "$want" ] && ok "compiled __local atomic_cmpxchg: the sums by hand" ||
      bad "compiled __local atomic_cmpxchg: $(grep '^arg1' "$tmp/s2" | cut -c1-80)"
  else
    bad "cas.cl: $(head -1 "$tmp/err")"
  fi
  # one program, two kernels: `counted` uses an atomic's old value and
  # prints, `plain` neither; `ventus cc` lists each kernel's code
  # (.ventus.code.<kernel>), so a launch of `plain` scans only its own and
  # runs on two threads (a[i] = 3 i + 1), while `counted` keeps one
  cat >"$tmp/two.cl" <<'CL'
int helper(int x) { return x * 3 + 1; }
__kernel void plain(__global int *a) { int i = get_global_id(0); a[i] = helper(a[i]); }
__kernel void counted(__global uint *bins, __global uint *out) {
  out[get_global_id(0)] = atomic_inc(&bins[get_global_id(0) % 8]);
  if (get_global_id(0) == 0) printf("counted\n");
}
CL
  if "$ventus" cc -o "$tmp/two.elf" "$tmp/two.cl" 2>"$tmp/err"; then
    same "$tmp/two.elf" "plain beside a counting, printing kernel" --kernel plain --global 8192 --local 64 \
      --arg buf:i32:8192:iota --show 0:4
    [ "$(cat "$tmp/par")" = 1 ] && ok "plain (its program's other kernel counts and prints) ran on 2 host threads" ||
      bad "plain did not run in parallel beside a kernel that counts and prints"
    grep -q "^arg0 i32\[8192\]: 1 4 7 10 ...$" "$tmp/s2" || bad "plain: $(grep '^arg0' "$tmp/s2")"
    "$ventus" run -q "$tmp/two.elf" --host-threads 2 --stats --kernel counted --global 512 --local 64 \
      --arg buf:u32:8:zero --arg buf:u32:512:zero --show 0 >"$tmp/out" 2>&1
    grep -q "^arg0 u32\[8\]: 64 64 64 64 64 64 64 64$" "$tmp/out" && grep -q "^counted$" "$tmp/out" &&
      [ "$(stat_of parallel_launches "$tmp/out")" = 0 ] && ok "counted (old value used, printf) runs on one thread" ||
      bad "counted: $(head -c 300 "$tmp/out")"
  else
    bad "two.cl: $(head -1 "$tmp/err")"
  fi
  if "$ventus" cc -o "$tmp/seen.elf" "$tmp/seen.cl" 2>"$tmp/err"; then
    "$ventus" run -q "$tmp/seen.elf" --host-threads 2 --stats --kernel seen --global 8192 --local 64 \
      --arg buf:u32:8192:iota --arg buf:u32:8:zero --arg buf:u32:8192:zero --show 1 >"$tmp/out" 2>&1
    grep -q "^arg1 u32\[8\]: 1024 1024 1024 1024 1024 1024 1024 1024$" "$tmp/out" || bad "seen: wrong counts"
    [ "$(stat_of parallel_launches "$tmp/out")" = 0 ] && ok "a compiled atomic whose result is stored runs on one thread" ||
      bad "a compiled atomic whose result is used ran in parallel"
  else
    bad "seen.cl: $(head -1 "$tmp/err")"
  fi
fi

# ---- faults: the lowest faulting group, every time; no thread left behind ------------------
# 64 groups in two blocks of ids, 0..31 first claimed by thread 0, 32..63 by
# thread 1: a fault from group 5 on (thread 1 meets one first, in group 32,
# and thread 0 one later, in 5), and from group 40 on (thread 0 must run
# 32..39 when thread 1 stops)
for first in 5 40; do
  sed "s/@FIRST@/$first/" >"$tmp/fault.S" <<'X'
        .text
        .globl  fault
fault:
        csrr    t0, 0x808
        li      t1, @FIRST@
        blt     t0, t1, 1f
        lw      t2, 4(zero)             # groups FIRST.. load from an unmapped address
1:      ret
        .section .ventus.args.fault, "", @progbits
        .word   1, 0
X
  build_kernel fault "$tmp/fault.S" || continue
  runs=5
  [ -n "${VT_VALGRIND:-}" ] && runs=2
  for i in $(seq 1 $runs); do
    timeout 20 "$ventus" run -q "$tmp/fault.elf" --host-threads 2 --kernel fault --global 4096 --local 64 2>"$tmp/err"
    rc=$?
    [ $rc = 3 ] && grep -q "load at 0x00000004: address is not mapped \[kernel 0 wg $first warp 0 " "$tmp/err" \
      || { bad "fault from wg $first, run $i: exit $rc, $(head -1 "$tmp/err")"; break; }
  done
  [ $rc = 3 ] && ok "a fault in groups $first..63 on 2 threads names wg $first, $runs times out of $runs"
done

# ---- the step limit, counted over all threads ------------------------------------------
cat >"$tmp/loop.S" <<'X'
        .text
        .globl  loop
loop:
1:      j       1b
        .section .ventus.args.loop, "", @progbits
        .word   1, 0
X
if build_kernel loop "$tmp/loop.S"; then
  timeout 20 "$ventus" run -q "$tmp/loop.elf" --host-threads 2 --max-steps 100000 --kernel loop --global 1024 --local 64 2>"$tmp/err"
  rc=$?
  [ $rc = 3 ] && grep -q "step limit of 100000 warp-instructions reached by the launch's 2 host threads together" "$tmp/err" \
    && ok "the step limit stops both threads" || bad "step limit: exit $rc, $(head -1 "$tmp/err")"
fi

# ---- bad values ---------------------------------------------------------------------------
"$ventus" run x --host-threads 257 2>"$tmp/err"
[ $? = 2 ] && grep -q "host-threads 257: expected 0 (online CPUs)..256" "$tmp/err" && ok "--host-threads 257 is a usage error" \
  || bad "--host-threads 257: $(head -1 "$tmp/err")"

# ---- every corpus case (they stay on one thread: the test-vector loader maps every
# region writable and executable; the memory must not differ anyway) -----------------------
corp=$src/../shared/corpora
if [ -n "${VT_VALGRIND:-}" ]; then
  echo "note: corpus part skipped under valgrind (34 more runs; every case takes the one-thread loop)"
elif [ ! -d "$corp" ]; then
  echo "SKIP: ../shared/corpora not found (corpus part)"
else
  n=0
  for c in "$corp"/verilog-tc/*/* "$corp"/rtlsim-multiwg/vecadd/*.metadata; do
    n=$((n + 1))
    same "$c" "${c#"$corp"/}" -c warps_per_sm=32
  done
  [ "$n" -ge 17 ] || bad "only $n corpus cases found"
fi
exit $fail
