#!/usr/bin/env bash
# The Khronos OpenCL-CTS (issue 21) beside pocl: builds the chosen CTS test
# binaries out of tree in build-cts/ from ../shared/reference/opencl-cts, runs
# every subtest of each one at a time, once on our ICD only and once on pocl
# only, each under a time limit, and records pass/fail/skip/timeout/crash per
# subtest in bench/opencl-cts/results.csv with a summary per binary
# (bench/opencl-cts/summary.md). See docs/opencl.md, "Conformance".
# (The whole script is one { } block, read before it runs: editing the file
# while an hour-long run goes on does not change that run.)
{
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
me=opencl-cts.sh

# binary, its folder under test_conformance/, per-subtest time limit (s),
# time budget of the whole binary on our device (s; subtests past it are
# recorded "notrun"), quick-mode arguments. The limits are chosen so that the
# default list runs in about an hour on a 2-core machine (ours and pocl side
# by side): most subtests take 0.1-10 s on either platform, and the few that
# compile hundreds of kernels (every type and vector width) are cut at the
# limit rather than eat a binary's budget. pocl gets the same limits.
table() {
  cat <<'EOF'
test_computeinfo       computeinfo               30   60
test_basic             basic                     20  720
test_api               api                       20  360
test_compiler          compiler                  20  300
test_commonfns         commonfns                 30  240
test_geometrics        geometrics                30  150
test_relationals       relationals               30  240
test_integer_ops       integer_ops               20  420 -w
test_bruteforce        math_brute_force          60  720 -w -1 -[1024]
test_conversions       conversions               20  360 -w
test_atomics           atomics                   30  150
test_events            events                    20  150
test_allocations       allocations               30  120
test_printf            printf                    20  120
test_vectors           vectors                   30  150 -w
test_select            select                    30  150
test_mem_host_flags    mem_host_flags            20   60
test_multiples         multiple_device_context   30   90
test_thread_dimensions thread_dimensions         30  120 -w
test_buffers           buffers                   20  300
test_profiling         profiling                 30  120
test_half              half                      30  150 -w -[1024]
EOF
}
default_list=$(table | awk '{ printf "%s%s", sep, $1; sep = "," }')

usage() {
  cat <<EOF
usage: bench/$me [--only BINARY[,..]] [--subtests NAME[,..]] [--cts DIR]
                       [--ours-build DIR | --ours-rev REV] [--ours-config FILE] [--pocl-icd FILE] [--scale F] [--jobs 1|2]
                       [--no-build] [--build-only] [--no-install] [--fresh] [--list] [--help]
Builds the Khronos OpenCL-CTS test binaries out of tree in build-cts/ (nice,
-j2, only the targets needed) and runs each subtest on its own, once on the
chengying ICD only (OCL_ICD_VENDORS=<ours-build>/icd) and once on pocl only
(OCL_ICD_VENDORS=<pocl-icd>), each under a time limit (timeout), in the quick
("wimpy") modes where a binary has one. Writes bench/opencl-cts/results.csv
(binary,subtest,ours,ours_s,pocl,pocl_s; status pass/fail/skip/timeout/crash,
or notrun past a binary's time budget) and bench/opencl-cts/summary.md (per
binary: subtests passed ours vs pocl), and prints the summary. Logs of every
run are kept in build-cts/logs/{ours,pocl}/BINARY/SUBTEST.log.
  --only LIST       binaries to build and run (default: all of --list);
                    test_math_brute_force is another name for test_bruteforce
  --subtests LIST   only these subtests (names as the binary lists them, shell
                    patterns allowed) of each selected binary
  --cts DIR         the CTS sources (default ../shared/reference/opencl-cts
                    beside the project; read only, never copied)
  --ours-build DIR  the project's build tree with icd/chengying.icd (default build/)
  --ours-rev REV    build our platform (chengying-opencl, chengying-cc) from
                    \`git archive REV\` of this repository in build-cts/ours-REV/
                    and measure that, not --ours-build (a working tree that
                    others change is not one state)
  --ours-config F   CHENGYING_CONFIG for our platform (default: the
                    environment's; e.g. "max_steps = 0" lifts the watchdog)
  --pocl-icd FILE   pocl's ICD file (default /etc/OpenCL/vendors/pocl.icd);
                    without it pocl's column says "absent"
  --scale F         multiply every time limit and budget by F (default 1)
  --jobs N          1: the two platforms one after the other; 2 (default): side by side
  --no-build        use build-cts/ as it is
  --build-only      build and stop
  --no-install      do not apt-get install spirv-tools where spirv-as is
                    missing (test_compiler is then left out, with a notice)
  --fresh           start results.csv anew (default: the rows of the binaries
                    and subtests run replace theirs, the others are kept)
  --list            the binaries with their limits and quick-mode arguments
Without the CTS sources it prints a notice and exits 0. Exit status: 0 the run
happened (failing subtests are results, not errors) or was skipped, 2 bad
usage, 3 the CTS did not configure or build, 4 our platform is missing.
EOF
}

cts=$root/../shared/reference/opencl-cts
ours_build=$root/build
pocl_icd=/etc/OpenCL/vendors/pocl.icd
ours_config=${CHENGYING_CONFIG:-} ours_rev="" only="" subtests="" scale=1 jobs=2 do_build=1 build_only=0 install=1 fresh=0
need() { [ $# -ge 2 ] || { echo "$me: $1 needs a value (--help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
  --help | -h) usage; exit 0 ;;
  --list) table | awk '{ a = ""; for (i = 5; i <= NF; i++) a = a " " $i;
      printf "%-24s limit %3ss  budget %4ss %s\n", $1, $3, $4, a }'; exit 0 ;;
  --only) need "$@"; only=$2; shift ;;
  --subtests) need "$@"; subtests=$2; shift ;;
  --cts) need "$@"; cts=$2; shift ;;
  --ours-build) need "$@"; ours_build=$2; shift ;;
  --pocl-icd) need "$@"; pocl_icd=$2; shift ;;
  --ours-config) need "$@"; ours_config=$2; shift ;;
  --ours-rev) need "$@"; ours_rev=$2; shift ;;
  --scale) need "$@"; scale=$2; shift ;;
  --jobs) need "$@"; jobs=$2; shift ;;
  --no-build) do_build=0 ;;
  --build-only) build_only=1 ;;
  --no-install) install=0 ;;
  --fresh) fresh=1 ;;
  *) echo "$me: unknown option '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
case $scale in '' | *[!0-9.]* | *.*.*) echo "$me: --scale must be a positive number, not '$scale'" >&2; exit 2 ;; esac
case $jobs in 1 | 2) ;; *) echo "$me: --jobs must be 1 or 2, not '$jobs'" >&2; exit 2 ;; esac

# the selection, in the table's order
[ -n "$only" ] || only=$default_list
sel=()
for b in ${only//,/ }; do
  [ "$b" = test_math_brute_force ] && b=test_bruteforce
  table | awk -v b="$b" '$1 == b { f = 1 } END { exit !f }' ||
    { echo "$me: unknown binary '$b' (--list)" >&2; exit 2; }
  sel+=("$b")
done
[ ${#sel[@]} -gt 0 ] || { echo "$me: --only names no binary" >&2; exit 2; }

if [ ! -f "$cts/CMakeLists.txt" ] || [ ! -d "$cts/test_conformance" ]; then
  echo "$me: SKIP: the OpenCL-CTS sources are not at $cts (../shared/reference/opencl-cts beside the project); nothing built or run"
  exit 0
fi
cts=$(cd "$cts" && pwd)
headers=$cts/../khronos-headers
[ -d "$headers/OpenCL-Headers/CL" ] && [ -d "$headers/SPIRV-Headers/include" ] ||
  { echo "$me: the Khronos headers are not at $headers (OpenCL-Headers, SPIRV-Headers)" >&2; exit 3; }

# test_compiler's post-build step assembles SPIR-V with spirv-as
if printf '%s\n' "${sel[@]}" | grep -qx test_compiler && ! command -v spirv-as >/dev/null; then
  if [ "$install" = 1 ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null &&
    nice -n 15 apt-get install -y spirv-tools >/dev/null 2>&1 && command -v spirv-as >/dev/null; then
    echo "$me: installed spirv-tools (spirv-as) for test_compiler"
  else
    echo "$me: NOTICE: no spirv-as (Debian: spirv-tools), test_compiler left out"
    keep=()
    for b in "${sel[@]}"; do [ "$b" = test_compiler ] || keep+=("$b"); done
    sel=("${keep[@]}")
    [ ${#sel[@]} -gt 0 ] || exit 0
  fi
fi

bdir=$root/build-cts
out=$root/bench/opencl-cts
mkdir -p "$bdir/wrapper" "$out"

folder() { table | awk -v b="$1" '$1 == b { print $2 }'; }
field() { table | awk -v b="$1" -v f="$2" '$1 == b { print $f }'; }
qargs() { table | awk -v b="$1" '$1 == b { for (i = 5; i <= NF; i++) printf "%s ", $i }'; }

# The CTS's own top level adds every folder of test_conformance/, some of
# which this snapshot leaves out (spir); a generated top level of our own in
# build-cts/wrapper/ takes its settings (CLConform_SOURCE_DIR pointing at the
# CTS, also after project(), which sets it) and adds the table's folders.
# Warnings are not errors there (another compiler than the CTS's CI).
if [ "$do_build" = 1 ]; then
  {
    echo "# generated by bench/$me from $cts/CMakeLists.txt: do not edit"
    sed -e "s|^set(CLConform_SOURCE_DIR .*|set(CLConform_SOURCE_DIR \"$cts\")|" \
      -e 's|set(CMAKE_COMPILE_WARNING_AS_ERROR ON)|set(CMAKE_COMPILE_WARNING_AS_ERROR OFF)|' \
      -e 's|add_cxx_flag_if_supported(-Werror)|# -Werror left out|' \
      -e "s|^add_subdirectory(test_common)|add_subdirectory(\"$cts/test_common\" test_common)|" \
      -e "s|^project(.*|&\\nset(CLConform_SOURCE_DIR \"$cts\")|" \
      -e '/^add_subdirectory(test_conformance)/d' "$cts/CMakeLists.txt"
    echo "set(CLConf_Install_Base_Dir \"$cts/test_conformance\")"
    echo "set(HARNESS_LIB harness)"
    for b in $(table | awk '{ print $1 }'); do
      f=$(folder "$b")
      echo "add_subdirectory(\"$cts/test_conformance/$f\" test_conformance/$f)"
    done
  } >"$bdir/wrapper/CMakeLists.txt.new"
  # configure all the table's folders once (cheap); build only the selected targets
  if ! cmp -s "$bdir/wrapper/CMakeLists.txt.new" "$bdir/wrapper/CMakeLists.txt" 2>/dev/null; then
    mv "$bdir/wrapper/CMakeLists.txt.new" "$bdir/wrapper/CMakeLists.txt"
  else
    rm -f "$bdir/wrapper/CMakeLists.txt.new"
  fi
  echo "$me: configuring the CTS in build-cts/ ($(date -u '+%H:%M UTC'))"
  if ! nice -n 15 cmake -S "$bdir/wrapper" -B "$bdir/tree" -DCMAKE_BUILD_TYPE=Release \
    -DCL_INCLUDE_DIR="$headers/OpenCL-Headers" -DSPIRV_INCLUDE_DIR="$headers/SPIRV-Headers" \
    -DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu -DOPENCL_LIBRARIES=OpenCL \
    >"$bdir/configure.log" 2>&1; then
    echo "$me: configuring the CTS failed; the end of build-cts/configure.log:" >&2
    tail -n 20 "$bdir/configure.log" >&2
    exit 3
  fi
  echo "$me: building ${sel[*]} (nice, -j2; log: build-cts/build.log)"
  if ! nice -n 15 cmake --build "$bdir/tree" -j2 --target "${sel[@]}" >"$bdir/build.log" 2>&1; then
    echo "$me: building the CTS failed; the end of build-cts/build.log:" >&2
    grep -m 20 -E 'error|Error' "$bdir/build.log" >&2
    exit 3
  fi
  echo "$me: built ($(date -u '+%H:%M UTC'))"
fi
binpath() { echo "$bdir/tree/test_conformance/$(folder "$1")/$1"; }
for b in "${sel[@]}"; do
  [ -x "$(binpath "$b")" ] || { echo "$me: $(binpath "$b") is missing (run without --no-build)" >&2; exit 3; }
done

# our platform at one commit, built apart from the working tree
if [ -n "$ours_rev" ]; then
  rev=$(git -C "$root" rev-parse --short "$ours_rev^{commit}" 2>/dev/null) ||
    { echo "$me: --ours-rev: '$ours_rev' is no commit of this repository" >&2; exit 2; }
  ours_build=$bdir/ours-$rev/build
  if [ ! -e "$ours_build/icd/chengying.icd" ] || [ ! -e "$ours_build/libchengying-opencl.so" ]; then
    echo "$me: building our platform at $rev in build-cts/ours-$rev/ (nice, -j2)"
    rm -rf "$bdir/ours-$rev/src"
    mkdir -p "$bdir/ours-$rev/src"
    git -C "$root" archive "$rev" | tar -x -C "$bdir/ours-$rev/src" &&
      nice -n 15 cmake -S "$bdir/ours-$rev/src" -B "$ours_build" -DCMAKE_BUILD_TYPE=Release >"$bdir/ours-$rev/build.log" 2>&1 &&
      nice -n 15 cmake --build "$ours_build" -j2 --target chengying-opencl chengying-cc >>"$bdir/ours-$rev/build.log" 2>&1 ||
      { echo "$me: building our platform at $rev failed (build-cts/ours-$rev/build.log)" >&2; exit 4; }
  fi
  ours_desc="chengying $rev (built from git archive)"
else
  ours_desc="chengying build tree $(basename "$ours_build")/ of the working tree at $(git -C "$root" describe --always --dirty 2>/dev/null)"
fi
[ "$build_only" = 1 ] && exit 0

[ -z "$ours_config" ] || [ -r "$ours_config" ] || { echo "$me: cannot read --ours-config $ours_config" >&2; exit 2; }
[ -z "$ours_config" ] || ours_config=$(cd "$(dirname "$ours_config")" && pwd)/$(basename "$ours_config")
[ -e "$ours_build/icd/chengying.icd" ] ||
  { echo "$me: no icd/chengying.icd in $ours_build (build the project first, or --ours-build DIR)" >&2; exit 4; }
ours_build=$(cd "$ours_build" && pwd)
have_pocl=1
if [ ! -e "$pocl_icd" ]; then
  echo "$me: NOTICE: no pocl ($pocl_icd not found; Debian: pocl-opencl-icd), its column says \"absent\""
  have_pocl=0
fi
ulimit -c 0

# status of one run from its exit status, the harness's JSON and its log
classify() { # rc json log name
  local rc=$1 json=$2 log=$3 name=$4 s
  if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then echo timeout; return; fi
  if [ "$rc" -gt 128 ]; then echo crash; return; fi # the signal: the log's last line
  s=$(sed -n "s/^[[:space:]]*\"\\([^\"]*\\)\": \"\\(pass\\|fail\\|skip\\)\".*/\\1 \\2/p" "$json" 2>/dev/null |
    awk -v n="$name" '$1 == n { print $2 }' | head -n 1)
  # test_conversions takes conversion names but reports its one test "conversions"
  [ -z "$s" ] && [ "$(grep -c '": "\(pass\|fail\|skip\)"' "$json" 2>/dev/null)" = 1 ] &&
    s=$(sed -n 's/.*": "\(pass\|fail\|skip\)".*/\1/p' "$json")
  if [ -z "$s" ]; then # no JSON: the harness's lines
    if grep -q "^PASSED $name\.\|^PASSED [0-9]* of [0-9]* sub-tests" "$log"; then s=pass
    elif grep -q "SKIPPED\|skipped" "$log" && ! grep -q "FAILED" "$log"; then s=skip
    else s=fail; fi
  fi
  # a pass with a non-zero exit status is not a pass
  [ "$s" = pass ] && [ "$rc" != 0 ] && s=fail
  echo "$s"
}

# run every subtest of binary $2 on platform $1; rows to $3 (subtest status seconds)
run_platform() {
  local plat=$1 b=$2 rows=$3 bin dir limit budget spent=0 t0 t1 rc st sec log json
  bin=$(binpath "$b"); dir=$(dirname "$bin")
  limit=$(awk -v a="$(field "$b" 3)" -v s="$scale" 'BEGIN { printf "%d", a * s + 0.5 }')
  budget=$(awk -v a="$(field "$b" 4)" -v s="$scale" 'BEGIN { printf "%d", a * s + 0.5 }')
  mkdir -p "$bdir/logs/$plat/$b"
  : >"$rows"
  local -a env
  if [ "$plat" = ours ]; then
    env=(OCL_ICD_VENDORS="$ours_build/icd")
    [ -n "$ours_config" ] && env+=(CHENGYING_CONFIG="$ours_config")
  else
    env=(OCL_ICD_VENDORS="$pocl_icd" POCL_MAX_PTHREAD_COUNT=1 POCL_CPU_MAX_CU_COUNT=1)
  fi
  while read -r sub; do
    if [ "$plat" = pocl ] && [ "$have_pocl" = 0 ]; then
      printf '%s\tabsent\t\n' "$sub" >>"$rows"; continue
    fi
    if [ "$spent" -ge "$budget" ]; then
      printf '%s\tnotrun\t\n' "$sub" >>"$rows"; continue
    fi
    log=$bdir/logs/$plat/$b/$sub.log json=$bdir/logs/$plat/$b/$sub.json
    rm -f "$json"
    t0=$(date +%s.%N)
    (cd "$dir" && set -f && env "${env[@]}" CL_CONFORMANCE_RESULTS_FILENAME="$json" \
      timeout -k 10 "$limit" nice -n 15 "$bin" $(qargs "$b") "$sub") >"$log" 2>&1 </dev/null
    rc=$?
    t1=$(date +%s.%N)
    sec=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
    spent=$(awk -v a="$t0" -v b="$t1" -v s="$spent" 'BEGIN { printf "%d", s + b - a + 0.5 }')
    st=$(classify "$rc" "$json" "$log" "$sub")
    # test_conversions passes a conversion it leaves out (long without
    # 64-bit integers, half without cl_khr_fp16) without testing anything
    [ "$b" = test_conversions ] && [ "$st" = pass ] && ! grep -q '^Testing\.\.\.' "$log" && st=skip
    echo "exit status $rc, $st, ${sec}s" >>"$log"
    printf '%s\t%s\t%s\n' "$sub" "$st" "$sec" >>"$rows"
  done <"$bdir/runs/$b.subtests"
}

# the subtests, as the binary lists them (--list needs no device); for
# test_conversions, whose one harness test "conversions" takes conversion
# names (dest<_sat><_round>_source), every name its -h describes
list_subtests() {
  if [ "$1" = test_conversions ]; then
    local t="uchar char ushort short uint int half float double ulong long" d s sat r
    for d in $t; do for s in $t; do for sat in "" _sat; do
      case $sat$d in _sathalf | _satfloat | _satdouble) continue ;; esac
      for r in "" _rte _rtp _rtn _rtz; do echo "$d$sat${r}_$s"; done
    done; done; done
    return
  fi
  (cd "$(dirname "$(binpath "$1")")" && "$(binpath "$1")" --list) 2>/dev/null |
    sed -n 's/^\t\([^[:space:]]\{1,\}\)$/\1/p'
}
# Where a binary's subtests do not fit its time on our device, the default
# is a subset (--subtests '*' runs them all): for test_conversions the
# conversions in the default rounding (every pair of types, plain and
# saturated: 209 of 1045), for test_bruteforce 34 of the 106 functions
# (each takes 15-25 s on our device even in wimpy mode, which fixes the
# buffer at 512 Ki elements).
default_subtests() {
  case $1 in
  test_conversions) list_subtests "$1" | grep -v '_rt[enpz]_' ;;
  test_bruteforce) list_subtests "$1" | grep -x -E "add|subtract|multiply|divide|divide_cr|sqrt|sqrt_cr|rsqrt|\
fma|fmax|fmin|fabs|floor|ceil|rint|round|trunc|copysign|ldexp|frexp|fmod|remquo|exp|exp2|log|log2|pow|pown|\
sin|cos|tan|atan2|hypot|half_sqrt" ;;
  *) return 1 ;;
  esac
}

mkdir -p "$bdir/runs"
start=$(date +%s)
for b in "${sel[@]}"; do
  bin=$(binpath "$b")
  list_subtests "$b" >"$bdir/runs/$b.all"
  if [ -z "$subtests" ] && default_subtests "$b" >"$bdir/runs/$b.subtests"; then
    :
  elif [ -n "$subtests" ]; then
    : >"$bdir/runs/$b.subtests"
    while read -r s; do
      for p in ${subtests//,/ }; do
        # shellcheck disable=SC2254
        case $s in $p) echo "$s" >>"$bdir/runs/$b.subtests"; break ;; esac
      done
    done <"$bdir/runs/$b.all"
  else
    cp "$bdir/runs/$b.all" "$bdir/runs/$b.subtests"
  fi
  n=$(wc -l <"$bdir/runs/$b.subtests")
  if [ "$n" = 0 ]; then
    echo "$me: $b: no subtests selected (listed: $(wc -l <"$bdir/runs/$b.all"))"
    continue
  fi
  echo "$me: $b: $n subtests, limit $(field "$b" 3)s each, budget $(field "$b" 4)s, times $scale ($(date -u '+%H:%M UTC'))"
  if [ "$jobs" = 2 ]; then
    run_platform pocl "$b" "$bdir/runs/$b.pocl" &
    run_platform ours "$b" "$bdir/runs/$b.ours"
    wait
  else
    run_platform ours "$b" "$bdir/runs/$b.ours"
    run_platform pocl "$b" "$bdir/runs/$b.pocl"
  fi
  # this binary's rows: binary,subtest,ours,ours_s,pocl,pocl_s
  awk -F'\t' -v b="$b" 'FNR == 1 { f++ } f == 1 { p[$1] = $2; ps[$1] = $3; next }
    { printf "%s,%s,%s,%s,%s,%s\n", b, $1, $2, $3, p[$1], ps[$1] }' \
    "$bdir/runs/$b.pocl" "$bdir/runs/$b.ours" >"$bdir/runs/$b.csv"
  # merge into results.csv: these rows replace theirs
  csv=$out/results.csv
  if [ "$fresh" = 1 ] || [ ! -s "$csv" ]; then
    echo "binary,subtest,ours,ours_s,pocl,pocl_s" >"$csv"
    fresh=0
  fi
  awk -F, 'FNR == 1 { f++ } f == 1 { new[$1 "," $2] = 1; next }
    FNR == 1 || !(($1 "," $2) in new)' "$bdir/runs/$b.csv" "$csv" >"$csv.tmp"
  cat "$bdir/runs/$b.csv" >>"$csv.tmp"
  mv "$csv.tmp" "$csv"
  awk -F, '{ o[$3]++; p[$5]++ } END {
      printf "  ours: %d pass, %d fail, %d skip, %d timeout, %d crash, %d notrun; pocl: %d pass, %d fail\n",
        o["pass"], o["fail"], o["skip"], o["timeout"], o["crash"], o["notrun"], p["pass"], p["fail"] }' "$bdir/runs/$b.csv"
done
elapsed=$(($(date +%s) - start))

# the CTS commit: its git HEAD, or the one ../shared/reference/README.md names
cts_commit() {
  if [ -e "$cts/.git" ]; then git -C "$cts" rev-parse --short=8 HEAD; return; fi
  awk '/^## opencl-cts/ { s = 1; next } /^## / { s = 0 } s && match($0, /commit `[0-9a-f]+`/) {
    print substr($0, RSTART + 8, RLENGTH - 9); exit }' "$cts/../README.md" 2>/dev/null | grep . || echo "(commit unknown)"
}

# the summary of the whole results.csv, per binary in the table's order
csv=$out/results.csv
[ -s "$csv" ] || exit 0
{
  echo "Khronos OpenCL-CTS $(cts_commit), updated $(date -u '+%Y-%m-%d %H:%M UTC'); ours: $ours_desc; pocl $(dpkg-query -W -f '${Version}' pocl-opencl-icd 2>/dev/null);" \
    "$(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)), load $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Last run: ${sel[*]} in ${elapsed}s, scale $scale, jobs $jobs. Per binary: subtests, and how many of them"
  echo "passed on each platform; the other columns count ours (pocl's in results.csv)."
  echo
  echo "| binary | subtests | ours pass | pocl pass | ours fail | ours skip | ours timeout | ours crash | ours notrun |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
  table | awk '{ print $1 }' | awk -F, 'FNR == 1 { f++ } f == 1 { ord[$1] = NR; next }
    FNR > 1 { n[$1]++; o[$1, $3]++; p[$1, $5]++; c[$1] += ($3 == "crash") }
    END {
      for (b in n) key[ord[b]] = b
      for (i = 1; i <= 100; i++) if (i in key) {
        b = key[i]
        printf "| %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", b, n[b], o[b, "pass"], p[b, "pass"],
          o[b, "fail"], o[b, "skip"], o[b, "timeout"], c[b], o[b, "notrun"]
        tn += n[b]; to += o[b, "pass"]; tp += p[b, "pass"]; tf += o[b, "fail"]; ts += o[b, "skip"]
        tt += o[b, "timeout"]; tc += c[b]; tr += o[b, "notrun"]
      }
      printf "| **total** | %d | %d | %d | %d | %d | %d | %d | %d |\n", tn, to, tp, tf, ts, tt, tc, tr
    }' - "$csv"
} >"$out/summary.md"
cat "$out/summary.md"
exit 0
}
