#!/usr/bin/env bash
# The Verilog RTL as an instrument (tools/rtl/ventus-rtl, docs/timing.md "The
# RTL in the loop"): its errors, and one small case of each kind run on the
# Verilated RTL, whose cycles must be the figure recorded in
# bench/rtl/rtl-cycles.csv (the RTL is deterministic) and whose final memory
# must equal the functional simulator's; and divergent register writes
# (bench/rtl/branches.S) against values computed from the kernel's
# definition, and the float units (bench/rtl/fp_ops.S: every operation's
# results the simulator's). Building the model takes 4-10 minutes once
# (cached); skipped with a notice where Verilator or ../shared/reference is
# absent.
#   usage: bash test_rtl_harness.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
rtl=$src/tools/rtl/ventus-rtl
csv=$src/bench/rtl/rtl-cycles.csv

# usage errors need neither Verilator nor the RTL
"$rtl" --help >"$tmp/out" 2>&1 && grep -q '^usage: ventus-rtl build' "$tmp/out" && ok "--help" || bad "--help: $(head -3 "$tmp/out")"
for args in "run" "frobnicate x" "build --threads 5" "build --warps 3" "build --l2-sets 3" "run a b" "run --threads"; do
  # shellcheck disable=SC2086
  "$rtl" $args >"$tmp/out" 2>&1
  rc=$?
  [ "$rc" -eq 2 ] && grep -q '^ventus-rtl: ' "$tmp/out" && ok "usage error ($args): exit 2" ||
    bad "ventus-rtl $args: exit $rc, $(head -2 "$tmp/out")"
done

ref=$src/../shared/reference/ventus-gpgpu-verilog
corp=$src/../shared/corpora
if ! command -v verilator >/dev/null 2>&1; then
  echo "SKIP: verilator not installed: the RTL runs did not happen"
  exit "$fail"
fi
if [ ! -d "$ref/src" ] || [ ! -d "$corp/verilog-tc" ]; then
  echo "SKIP: ../shared/reference or ../shared/corpora not found: the RTL runs did not happen"
  exit "$fail"
fi
# the errors of a launch the testbench cannot read, before any build
mkdir -p "$tmp/bad"
printf '80000000\n00000000\n' >"$tmp/bad/k.metadata"
: >"$tmp/bad/k.data"
"$rtl" run "$tmp/bad/k.metadata" --threads 4 >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 4 ] && grep -q 'k.metadata: ends before field' "$tmp/out" && ok "a truncated .metadata: exit 4, named" ||
  bad "truncated metadata: exit $rc, $(tail -2 "$tmp/out")"
"$rtl" run "$tmp/nothing.metadata" >"$tmp/out" 2>&1
rc=$?
[ "$rc" -eq 4 ] && grep -q 'nothing.metadata: not found' "$tmp/out" && ok "a missing case: exit 4" ||
  bad "missing case: exit $rc, $(tail -2 "$tmp/out")"

# recorded_cycles ID: the figure the suite recorded for run ID
recorded_cycles() { awk -F, -v id="$1" '$1 == id { print $7 }' "$csv"; }

# a corpus case, single launch (the smallest model: 4 lanes)
case=$corp/verilog-tc/vecadd/8w4t
if "$rtl" check "$case" --ventus "$ventus_bin" --json "$tmp/v.json" --dump "$tmp/v.dump" >"$tmp/out" 2>"$tmp/err"; then
  ok "vecadd/8w4t on the RTL: $(tail -1 "$tmp/out")"
  want=$(recorded_cycles vecadd.8w4t)
  got=$(sed -n 's/.*"cycles": \([0-9]*\), "axi_reads".*/\1/p' "$tmp/v.json")
  [ -n "$want" ] && [ "$got" = "$want" ] && ok "vecadd/8w4t: $got cycles, the recorded figure" ||
    bad "vecadd/8w4t: $got cycles, recorded '$want'"
  # the result words themselves: 32 x 32.0f (corpora.md §4.1), read from
  # the RTL's memory, not from the simulator's
  n=$(awk '$1 >= "0x90002000" && $1 < "0x90002080" && $2 == "0x42000000"' "$tmp/v.dump" | wc -l)
  [ "$n" -eq 32 ] && ok "vecadd/8w4t: the RTL wrote 32 x 32.0f" || bad "vecadd/8w4t: $n of 32 results are 32.0f"
else
  bad "vecadd/8w4t on the RTL: $(tail -5 "$tmp/err")"
fi

# a launch exported from an assembled kernel (ventus run --export-testvec)
"$ventus" as -o "$tmp/d.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
  "$src/kernels/examples/matmul.S" 2>"$tmp/err" || bad "assembling matmul.S: $(cat "$tmp/err")"
args=$(awk '$1 == "ex_matmul.8w4t" { for (i = 5; i <= NF; i++) printf "%s ", $i }' "$src/bench/rtl/suite.txt")
# shellcheck disable=SC2086
if "$ventus" run "$tmp/d.elf" $args --export-testvec "$tmp/dv" --quiet 2>"$tmp/err" &&
  "$rtl" check "$tmp/dv" --threads 4 --ventus "$ventus_bin" --json "$tmp/d.json" >"$tmp/out" 2>"$tmp/err"; then
  want=$(recorded_cycles ex_matmul.8w4t)
  got=$(sed -n 's/.*"cycles": \([0-9]*\), "axi_reads".*/\1/p' "$tmp/d.json")
  [ -n "$want" ] && [ "$got" = "$want" ] && ok "exported matmul (8 warps x 4 threads): $got cycles, memory equal" ||
    bad "exported matmul: $got cycles, recorded '$want'"
else
  bad "exported matmul on the RTL: $(tail -5 "$tmp/err")"
fi
# divergent paths that write registers read after their join: every lane
# must keep what its own path wrote (the RTL as published zeroes the lanes
# outside a write's mask; tools/rtl/patches/fixes). Expected words computed
# here from the kernel's definition, not by the simulator.
"$ventus" as -o "$tmp/b.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
  "$src/bench/rtl/branches.S" 2>"$tmp/err" || bad "assembling branches.S: $(cat "$tmp/err")"
if "$ventus" run "$tmp/b.elf" --kernel branches --global 8 --local 8 --threads 4 --arg buf:u32:8:iota \
  --arg buf:u32:8 --export-testvec "$tmp/bv" --quiet 2>"$tmp/err" &&
  "$rtl" check "$tmp/bv" --threads 4 --ventus "$ventus_bin" --dump "$tmp/b.dump" >"$tmp/out" 2>"$tmp/err"; then
  ok "divergent register writes on the RTL: memory equal to the simulator's"
  want="" got=""
  for x in 0 1 2 3 4 5 6 7; do
    r=0
    for c in "5 == x" "5 != x" "5 < x" "5 >= x" "5 < x" "5 >= x"; do r=$((4 * r + ((c) ? 1 : 2))); done
    want="$want $(printf '0x%08x' "$r")"
  done
  got=$(awk '$1 >= "0x90001000" && $1 < "0x90001020" { printf " %s", $2 }' "$tmp/b.dump")
  [ "$got" = "$want" ] && ok "branches: the RTL's words are the kernel's definition ($want)" ||
    bad "branches: the RTL wrote$got, expected$want"
else
  bad "branches on the RTL: $(tail -3 "$tmp/out" "$tmp/err" | cut -c1-300)"
fi
# the float units (bench/rtl/fp_ops.S on random operands): with the
# sticky-bit fixes of the multiplier, the adder and the divider
# (tools/rtl/patches/fixes) every word of every operation is the
# simulator's (IEEE, as the ISS); as published, vfmul, vfmadd, vfdiv and
# vfsqrt round some results down (docs/timing.md, "What the check found")
"$ventus" as -o "$tmp/f.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
  "$src/bench/rtl/fp_ops.S" 2>"$tmp/err" || bad "assembling fp_ops.S: $(cat "$tmp/err")"
if "$ventus" run "$tmp/f.elf" --kernel fp_ops --global 32 --local 32 --threads 4 --arg buf:f32:32:rand=1 \
  --arg buf:f32:32:rand=11 --arg buf:f32:32:rand=21 --arg buf:f32:160 --arg u32:32 --export-testvec "$tmp/fv" \
  --dump "$tmp/f.sim" --quiet 2>"$tmp/err"; then
  "$rtl" check "$tmp/fv" --threads 4 --ventus "$ventus_bin" --dump "$tmp/f.rtl" >"$tmp/out" 2>"$tmp/err"
  rc=$?
  # out = 0x90003000: blocks of 32 words: div, fma, mul, add, sqrt
  same() { join <(awk -v lo="$1" -v hi="$2" '$1 >= lo && $1 < hi' "$tmp/f.sim" | sort) \
    <(awk -v lo="$1" -v hi="$2" '$1 >= lo && $1 < hi' "$tmp/f.rtl" | sort) | awk '$2 == $3' | wc -l; }
  got=""
  for blk in div:0x90003000:0x90003080 fma:0x90003080:0x90003100 mul:0x90003100:0x90003180 \
    add:0x90003180:0x90003200 sqrt:0x90003200:0x90003280; do
    IFS=: read -r op lo hi <<<"$blk"
    got="$got $op=$(same "$lo" "$hi")"
  done
  [ "$got" = " div=32 fma=32 mul=32 add=32 sqrt=32" ] && [ "$rc" -eq 0 ] &&
    ok "fp_ops: vfdiv, vfmadd, vfmul, vfadd, vfsqrt on the RTL equal the simulator's on all 32 lanes" ||
    bad "fp_ops: words equal to the simulator's:$got (of 32 each); check exit $rc: $(tail -1 "$tmp/err" | cut -c1-200)"
else
  bad "fp_ops: $(cat "$tmp/err")"
fi
exit "$fail"
