#!/usr/bin/env bash
# `ventus run --export-testvec DIR` writes the launch it runs as an upstream
# test vector that runs again to the same memory: an assembled kernel
# (kernels/examples/vecadd.S) and a compiled OpenCL C kernel (tests/cc),
# each run from the exported directory with --expect on the original run's
# --dump; a changed input word in the export makes that comparison fail;
# exporting the export again gives the same files. The corpus round trip is
# test_run_export_testvec_corpus.sh, the OpenCL platform's
# test_cl_export_testvec.sh.
#   usage: bash test_run_export_testvec.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"

# field K (0-based, a uint64 of two lines) of a .metadata
field() { sed -n "$((2 * $2 + 1))p" "$1"; }

# check NAME DIR STEM DUMP GRID WF WG RESULTS: the exported files and their
# re-run (RESULTS: how many of DUMP's last lines the kernel computed)
check() {
  local name=$1 dir=$2 stem=$3 dump=$4
  if [ "$(grep -v '^#' "$dir/kernels.txt")" = "$stem" ]; then ok "$name: kernels.txt lists $stem"
  else bad "$name: kernels.txt: $(cat "$dir/kernels.txt")"; fi
  local got want
  got="$(field "$dir/$stem.metadata" 2) $(field "$dir/$stem.metadata" 5) $(field "$dir/$stem.metadata" 6)"
  want=$(printf '%08x %08x %08x' "$5" "$6" "$7")
  [ "$got" = "$want" ] && ok "$name: metadata grid, wf_size, wg_size = $got" ||
    bad "$name: metadata grid, wf_size, wg_size = $got, not $want"
  if "$ventus" run "$dir" --expect "$dump" --quiet 2>"$tmp/err"; then
    ok "$name: the exported directory runs to the original's $(wc -l <"$dump") result words"
  else
    bad "$name: re-run of the export: $(head -n 3 "$tmp/err")"
  fi
  rm -rf "$tmp/again"
  if "$ventus" run "$dir" --export-testvec "$tmp/again" --quiet 2>"$tmp/err" && diff -r "$dir" "$tmp/again" >/dev/null; then
    ok "$name: exporting the export gives the same files"
  else
    bad "$name: the export of the export differs: $(head -n 3 "$tmp/err")"
  fi
  # the comparison can fail: the first input word changed, results compared
  tail -n "$8" "$dump" >"$tmp/results"
  rm -rf "$tmp/bent" && cp -r "$dir" "$tmp/bent"
  local first
  first=$(head -n 1 "$dump" | awk '{print $1}')
  local line
  line=$(perl "$tmp/img.pl" "$tmp/bent/$stem" | grep -n "^$first " | head -n 1 | cut -d: -f1)
  if [ -z "$line" ]; then
    bad "$name: $first is not in the exported image"
    return
  fi
  perl -i -pe "\$_ = sprintf(\"%08x\\n\", hex(\$_) ^ 0x40000000) if \$. == $line" "$tmp/bent/$stem.data"
  "$ventus" run "$tmp/bent" --expect "$tmp/results" --quiet 2>"$tmp/err"
  local rc=$?
  [ $rc = 1 ] && ok "$name: a changed input word changes the results (status 1)" ||
    bad "$name: a changed input word gave status $rc: $(head -n 2 "$tmp/err")"
}

# the memory image of a launch, "0xADDR 0xWORD" per .data word (the line of a word)
cat >"$tmp/img.pl" <<'EOF'
sub rd { open my $f, '<', $_[0] or die "$_[0]: $!"; map { hex } grep { /\S/ } <$f> }
my @m = rd("$ARGV[0].metadata"); my @d = rd("$ARGV[0].data");
my ($n, $k) = ($m[26], 0);
for my $i (0 .. $n - 1) {
  my ($b, $s) = ($m[28 + 2 * $i], $m[28 + 2 * ($n + $i)]);
  for (my $o = 0; $o < $s; $o += 4) { printf "0x%08x 0x%08x\n", $b + $o, $d[$k++] }
}
EOF

# (a) an assembled kernel: 16 work-groups of 2 warps x 32 threads
assemble_example vecadd "$tmp/vecadd.elf"
if "$ventus" run "$tmp/vecadd.elf" --kernel vecadd --global 1024 --local 64 --arg buf:f32:1024:iota \
    --arg buf:f32:1024:rand=7 --arg buf:f32:1024 --arg u32:1000 --dump "$tmp/a.dump" \
    --export-testvec "$tmp/a" --quiet 2>"$tmp/err"; then
  check "vecadd.S" "$tmp/a" vecadd_0 "$tmp/a.dump" 16 32 2 1024
  # arg2 = A + B for the first 1000 elements: the dump holds real results
  awk 'NR > 2048 && NR <= 2058 {print $2}' "$tmp/a.dump" | grep -qv 0x00000000 &&
    ok "vecadd.S: the compared words include computed sums" || bad "vecadd.S: the result buffer is zero"
else
  bad "vecadd.S: ventus run --export-testvec failed: $(head -n 3 "$tmp/err")"
fi

# (b) a compiled OpenCL C kernel with __local memory and barriers; the
# compiled-kernel parts need clang-19 and a build with the compiler
have_cc=1
command -v clang-19 >/dev/null 2>&1 || have_cc=0
printf 'kernel void k(global int *a) { a[0] = 1; }\n' >"$tmp/probe.cl"
"$ventus_bin" cc -o "$tmp/probe.elf" "$tmp/probe.cl" 2>&1 | grep -q "no OpenCL C compiler" && have_cc=0
if [ $have_cc = 0 ]; then
  echo "note: clang-19 not installed or no compiler in this build, the compiled-kernel parts are not run"
elif ! "$ventus" cc -o "$tmp/memory.elf" "$src/tests/cc/kernels/memory.cl" 2>"$tmp/err"; then
  bad "memory.cl: ventus cc failed: $(head -n 3 "$tmp/err")"
else
  perl -e 'print pack("l*", map { ($_ * 40503) % 65537 - 32768 } 0..255)' >"$tmp/i.bin"
  if "$ventus" run "$tmp/memory.elf" --kernel reduce_local --global 256 --local 64 --threads 16 \
      --arg "buf:file=$tmp/i.bin" --arg buf:zero:16 --dump "$tmp/b.dump" --export-testvec "$tmp/b" \
      --quiet 2>"$tmp/err"; then
    check "memory.cl reduce_local" "$tmp/b" reduce_local_0 "$tmp/b.dump" 4 16 4 4
  else
    bad "memory.cl: ventus run --export-testvec failed: $(head -n 3 "$tmp/err")"
  fi
fi

# a compiled kernel's register counts (its .ventus.resource section): 90
# values live at once need more than pocl's 64 vector registers, which the
# RTL gives each warp (a warp's register r is at its base + r), so
# vgprUsage is the compiler's count rounded up to the 4 register banks
if [ $have_cc = 1 ]; then
  perl -e 'print "__kernel void big(__global const float *a, __global float *o) {\n  int i = get_global_id(0);\n";
    print "  float t$_ = a[i + $_] * $_.5f;\n" for 0 .. 89; print "  float s = 0.0f;\n";
    print "  s = s * t", 89 - $_, " + t$_;\n" for 0 .. 89; print "  o[i] = s;\n}\n"' >"$tmp/big.cl"
  if "$ventus" cc -o "$tmp/big.elf" "$tmp/big.cl" 2>"$tmp/err" &&
      "$ventus" run "$tmp/big.elf" --kernel big --global 64 --local 32 --threads 8 --arg buf:f32:160:rand \
        --arg buf:f32:64 --dump "$tmp/big.dump" --export-testvec "$tmp/big" --quiet 2>>"$tmp/err"; then
    h=$(readelf -x .ventus.resource.big "$tmp/big.elf" | awk '$1 == "0x00000000" {print $2}') # u16 VGPRs first
    count=$((16#${h:2:2}${h:0:2}))
    want=$(printf '%08x' $(( (count + 3) / 4 * 4 > 64 ? (count + 3) / 4 * 4 : 64 )))
    got="$(field "$tmp/big/big_0.metadata" 10) $(field "$tmp/big/big_0.metadata" 11)"
    [ "$count" -gt 64 ] && [ "$got" = "00000040 $want" ] &&
      ok "90 live values: $count vector registers, sgprUsage/vgprUsage = $got" ||
      bad "90 live values: $count vector registers, sgprUsage/vgprUsage = $got, not 00000040 $want"
    "$ventus" run "$tmp/big" --expect "$tmp/big.dump" --quiet 2>"$tmp/err" &&
      ok "90 live values: the export runs to the original's results" || bad "90 live values: $(head -n 2 "$tmp/err")"
  else
    bad "90 live values: $(head -n 3 "$tmp/err")"
  fi
fi

# the option's errors: a file in the way, the option twice
: >"$tmp/file"
"$ventus" run "$tmp/vecadd.elf" --kernel vecadd --global 64 --local 64 --arg buf:f32:64 --arg buf:f32:64 \
  --arg buf:f32:64 --arg u32:64 --export-testvec "$tmp/file" --quiet 2>"$tmp/err"
rc=$?
[ $rc = 4 ] && grep -q "is not a directory" "$tmp/err" && ok "a file as DIR: status 4, $(cat "$tmp/err")" ||
  bad "a file as DIR: status $rc, $(cat "$tmp/err")"
"$ventus" run "$tmp/a" --export-testvec "$tmp/x" --export-testvec "$tmp/y" 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && ok "--export-testvec twice: status 2" || bad "--export-testvec twice: status $rc"
# the case's own directory: refused before anything is written
cp "$tmp/a/kernels.txt" "$tmp/kt"
for input in "$tmp/a" "$tmp/a/vecadd_0.metadata"; do
  "$ventus" run "$input" --export-testvec "$tmp/a/" --quiet 2>"$tmp/err"
  rc=$?
  [ $rc = 2 ] && grep -q "is the directory of the case" "$tmp/err" && cmp -s "$tmp/kt" "$tmp/a/kernels.txt" &&
    ok "export onto the case read (${input##*/}): status 2, the case untouched" ||
    bad "export onto the case read (${input##*/}): status $rc, $(cat "$tmp/err")"
done
exit $fail
