#!/usr/bin/env bash
# The OpenCL C patterns of bench/opencl (issue 23) compile with our compiler,
# run through the ICD on our platform at tiny sizes and give the results of
# their plain-C references (bench_cl_patterns checks every element); the
# side-by-side script's command line works, and with pocl installed both
# platforms' results are right. No time is checked, ever.
#   usage: bash test_bench_cl_patterns.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus_bin")
host=$build/bench/bench_cl_patterns
script=$src/bench/pocl-side-by-side.sh
[ -x "$host" ] && [ -e "$build/icd/chengying.icd" ] ||
  { echo "SKIP: no OpenCL platform or ICD loader in this build"; exit 0; }
printf 'kernel void k(global int *a) { a[0] = 1; }\n' >"$tmp/probe.cl"
# (a build without the compiler says so; any other failure is the test's to report)
if ! "$ventus_bin" cc -o "$tmp/probe.elf" "$tmp/probe.cl" 2>"$tmp/err" &&
  grep -q "no OpenCL C compiler\|cannot run the OpenCL C front end" "$tmp/err"; then
  echo "SKIP: ventus cc is not available in this build: $(head -n 1 "$tmp/err")"
  exit 0
fi
# a sanitizer build's host loads the ICDs; their exit-time leaks are not ours to judge
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0
kernels="cyclic_reduction stencil5 convolution mersenne_twister bitonic_sort transpose"

# every_ok FILE WHAT: one "ok" TSV line (bench_cl_patterns --tsv) per kernel
every_ok() {
  local k line
  for k in $kernels; do
    line=$(awk -F'\t' -v k="$k" '$1 == k' "$1")
    if [ "$(printf '%s' "$line" | awk -F'\t' '{print $8}')" = ok ]; then
      ok "$2: $k matches its C reference ($(printf '%s' "$line" | cut -f2))"
    else
      bad "$2: $k: ${line:-no line}; $(grep -F "$k:" "$1.err" | head -n 1)"
    fi
  done
}

# our platform, through the loader and the build tree's .icd file (under
# valgrind in the tests' valgrind copies: lib.sh)
OCL_ICD_VENDORS=$build/icd under_valgrind "$host" --platform chengying --tiny --reps 2 --tsv >"$tmp/ours" 2>"$tmp/ours.err"
rc=$?
[ "$rc" = 0 ] && ok "bench_cl_patterns on chengying exits 0" || bad "bench_cl_patterns on chengying: exit $rc"
every_ok "$tmp/ours" chengying
OCL_ICD_VENDORS=$build/icd "$host" --tiny --reps 1 --only transpose,stencil5 --json >"$tmp/json" 2>&1
if command -v jq >/dev/null 2>&1; then
  [ "$(jq -r '[.kernels[] | .name + "=" + .check] | join(" ")' "$tmp/json" 2>&1)" = "stencil5=ok transpose=ok" ] &&
    ok "--json --only: one object, the two kernels, both ok" || bad "--json --only: $(head -c 300 "$tmp/json")"
fi

# the host's and the script's command lines
expect 0 "" "bench_cl_patterns --help" "$host" --help
grep -q -- "--platform NAME" "$tmp/out" && ok "--help names --platform" || bad "--help lacks --platform"
expect 0 "" "bench_cl_patterns --list" "$host" --list
[ "$(awk '{print $1}' "$tmp/out" | tr '\n' ' ')" = "$kernels " ] && ok "--list names the six kernels" ||
  bad "--list: $(tr '\n' ' ' <"$tmp/out")"
expect 2 "--reps must be 1..1000, not '0'" "bench_cl_patterns --reps 0" "$host" --reps 0
expect 2 "--only 'nope' names no kernel" "bench_cl_patterns --only nope" "$host" --only nope
expect 2 "unknown or incomplete option '--bogus'" "bench_cl_patterns --bogus" "$host" --bogus
expect 4 "no OpenCL platform matches 'no-such-platform'" "bench_cl_patterns: no such platform" \
  env OCL_ICD_VENDORS="$build/icd" "$host" --platform no-such-platform
expect 0 "" "pocl-side-by-side.sh --help" bash "$script" --help
grep -q -- "--json" "$tmp/out" && grep -q "ours / pocl" "$tmp/out" && ok "the script's --help names --json and the ratio" ||
  bad "the script's --help: $(head -n 3 "$tmp/out")"
expect 2 "unknown option '--bogus'" "pocl-side-by-side.sh --bogus" bash "$script" --bogus
expect 2 "--reps must be a number" "pocl-side-by-side.sh --reps x" bash "$script" --reps x
expect 2 "--only 'nope' names no kernel" "pocl-side-by-side.sh --only nope" \
  bash "$script" --build "$build" --only nope
expect 4 "no bench/bench_cl_patterns or icd/ in $tmp" "pocl-side-by-side.sh --build without the host" \
  bash "$script" --build "$tmp"

# the script end to end; pocl's part only where pocl is installed
pocl_icd=/etc/OpenCL/vendors/pocl.icd
if [ -e "$pocl_icd" ]; then
  timeout 600 bash "$script" --build "$build" --tiny --reps 1 >"$tmp/side" 2>"$tmp/side.err"
  rc=$?
  [ "$rc" = 0 ] && ok "pocl-side-by-side.sh --tiny exits 0" || bad "pocl-side-by-side.sh: exit $rc: $(head -n 3 "$tmp/side.err")"
  for k in $kernels; do
    grep -q "^$k .* ok/ok$" "$tmp/side" && ok "side by side: $k right on chengying and on pocl" ||
      bad "side by side: $k: $(grep "^$k " "$tmp/side")"
  done
  timeout 600 bash "$script" --build "$build" --tiny --reps 1 --only mersenne_twister --json >"$tmp/side.json" 2>/dev/null
  if command -v jq >/dev/null 2>&1; then
    [ "$(jq -r '.kernels[0] | .ours_check + "/" + .pocl_check + " " + (.ratio | type)' "$tmp/side.json" 2>&1)" = "ok/ok number" ] &&
      ok "the script's --json: both checks ok and a ratio" || bad "the script's --json: $(head -c 300 "$tmp/side.json")"
  fi
else
  echo "NOTICE: pocl not installed ($pocl_icd; Debian: pocl-opencl-icd): its side of the test is left out"
fi
# without pocl the script still runs ours, with pocl's columns "absent"
bash "$script" --build "$build" --tiny --reps 1 --only transpose --pocl-icd "$tmp/none.icd" >"$tmp/nopocl" 2>"$tmp/nopocl.err"
rc=$?
grep -q "^transpose .* absent .* ok/absent$" "$tmp/nopocl" && [ "$rc" = 0 ] && grep -q "NOTICE: no pocl" "$tmp/nopocl.err" &&
  ok "without pocl: our column, pocl's \"absent\", a notice, exit 0" || bad "without pocl: exit $rc: $(cat "$tmp/nopocl")"
exit $fail
