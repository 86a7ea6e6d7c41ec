#!/usr/bin/env bash
# The OpenCL C patterns of bench/opencl (issue 23) side by side on our
# platform and on pocl, each on one host thread by default: bench_cl_patterns
# runs on both (results checked against C references on each), and this
# prints a table with the median wall seconds and the ratio ours / pocl per
# kernel, or --json. See bench/README.md and docs/performance.md.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)

usage() {
  cat <<EOF
usage: bench/pocl-side-by-side.sh [--build DIR] [--reps N] [--threads N] [--tiny] [--only LIST]
                                  [--pocl-icd FILE] [--json] [--help]
Runs bench_cl_patterns on the chengying platform and on pocl and prints, per
kernel, the median wall seconds of N runs on each (kernels only; each build
apart), their ratio ours / pocl, and whether each result matched the C
reference; then the ratio of the totals and the geometric mean of the ratios.
  --build DIR      a build tree with bench/bench_cl_patterns and icd/ (used as
                   it is); default: configure and build build-bench/ (Release)
  --reps N         timed runs per kernel and platform (default 5)
  --threads N      host threads on both: our host_threads (CHENGYING_CONFIG,
                   appended to a copy of yours), pocl's POCL_MAX_PTHREAD_COUNT
                   (default 1)
  --tiny           tiny sizes (a correctness check; the times mean nothing)
  --only LIST      comma-separated kernels (bench_cl_patterns --list)
  --pocl-icd FILE  pocl's ICD file (default /etc/OpenCL/vendors/pocl.icd);
                   without it pocl's columns say "absent"
  --json           one JSON object instead of the table
pocl compiles without its kernel cache (POCL_KERNEL_CACHE=0), so both build
columns are first builds. Exit status: 0 every result correct, 1 a kernel
failed or differed, 2 bad usage, 4 the benchmark could not run.
EOF
}

build="" reps=5 threads=1 tiny="" only="" json=0 pocl_icd=/etc/OpenCL/vendors/pocl.icd
need() { [ $# -ge 2 ] || { echo "pocl-side-by-side.sh: $1 needs a value (--help)" >&2; exit 2; }; }
while [ $# -gt 0 ]; do
  case $1 in
  --help | -h) usage; exit 0 ;;
  --build) need "$@"; build=$2; shift ;;
  --reps) need "$@"; reps=$2; shift ;;
  --threads) need "$@"; threads=$2; shift ;;
  --only) need "$@"; only=$2; shift ;;
  --pocl-icd) need "$@"; pocl_icd=$2; shift ;;
  --tiny) tiny=--tiny ;;
  --json) json=1 ;;
  *) echo "pocl-side-by-side.sh: unknown option '$1' (--help)" >&2; exit 2 ;;
  esac
  shift
done
case $reps in '' | *[!0-9]*) echo "pocl-side-by-side.sh: --reps must be a number, not '$reps'" >&2; exit 2 ;; esac
case $threads in '' | *[!0-9]* | 0) echo "pocl-side-by-side.sh: --threads must be a number > 0, not '$threads'" >&2; exit 2 ;; esac

if [ -z "$build" ]; then # as bench/run.sh: a Release tree of its own
  build=$root/build-bench
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$build" -j"$(nproc)" --target bench_cl_patterns >/dev/null ||
    { echo "pocl-side-by-side.sh: building bench_cl_patterns in $build failed" >&2; exit 4; }
fi
bin=$build/bench/bench_cl_patterns
[ -x "$bin" ] && [ -e "$build/icd/chengying.icd" ] ||
  { echo "pocl-side-by-side.sh: no bench/bench_cl_patterns or icd/ in $build (built without OpenCL headers or -lOpenCL?)" >&2; exit 4; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
args=(--reps "$reps" --tsv $tiny)
[ -n "$only" ] && args+=(--only "$only")
{ [ -n "${CHENGYING_CONFIG:-}" ] && cat "$CHENGYING_CONFIG"; echo "host_threads = $threads"; } >"$tmp/ours.cfg"
load=$(uptime | sed 's/.*load average: //')

# ours: the build tree's platform only
OCL_ICD_VENDORS=$build/icd CHENGYING_CONFIG=$tmp/ours.cfg "$bin" --platform chengying "${args[@]}" \
  >"$tmp/ours" 2>"$tmp/ours.err"
rc_ours=$?
if [ "$rc_ours" = 2 ]; then # its usage error (e.g. --only naming no kernel), in one line
  echo "pocl-side-by-side.sh: $(head -n 1 "$tmp/ours.err")" >&2
  exit 2
elif [ "$rc_ours" -ge 2 ] || [ ! -s "$tmp/ours" ]; then
  echo "pocl-side-by-side.sh: bench_cl_patterns on chengying failed:" >&2
  cat "$tmp/ours.err" >&2
  exit 4
fi
# pocl: its pthread device on $threads threads (POCL_MAX_PTHREAD_COUNT is
# pocl 3.x's name, POCL_CPU_MAX_CU_COUNT that of later versions)
rc_pocl=0
if [ -e "$pocl_icd" ]; then
  OCL_ICD_VENDORS=$pocl_icd POCL_MAX_PTHREAD_COUNT=$threads POCL_CPU_MAX_CU_COUNT=$threads POCL_KERNEL_CACHE=0 \
    "$bin" --platform pocl "${args[@]}" >"$tmp/pocl" 2>"$tmp/pocl.err"
  rc_pocl=$?
  if [ "$rc_pocl" -ge 2 ]; then
    echo "pocl-side-by-side.sh: NOTICE: pocl did not run, its columns say \"absent\": $(head -1 "$tmp/pocl.err")" >&2
    : >"$tmp/pocl"
    rc_pocl=0
  fi
else
  echo "pocl-side-by-side.sh: NOTICE: no pocl ($pocl_icd not found; Debian: pocl-opencl-icd), its columns say \"absent\"" >&2
  : >"$tmp/pocl"
fi
cat "$tmp/ours.err" "$tmp/pocl.err" 2>/dev/null | sed 's/^/  /' >&2

# join the two TSVs (name size build first median min max check) by kernel
awk -F'\t' -v json="$json" -v load="$load" -v threads="$threads" -v reps="$reps" \
  -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v tiny="$tiny" '
  FNR == 1 { file++ }
  file == 1 { n++; name[n] = $1; size[n] = $2; ob[n] = $3; om[n] = $5; oc[n] = $8; next }
  { pb[$1] = $3; pm[$1] = $5; pc[$1] = $8 }
  END {
    if (json) {
      printf "{\"date\": \"%s\", \"load\": \"%s\", \"threads\": %d, \"reps\": %d, \"tiny\": %s, \"kernels\": [",
        date, load, threads, reps, (tiny != "" ? "true" : "false")
    } else {
      printf "%s, load average %s, %d host thread(s), median of %d runs%s\n", date, load, threads, reps,
        (tiny != "" ? " (tiny sizes)" : "")
      printf "%-17s %-24s %9s %9s %9s %10s %10s  %s\n", "kernel", "size", "ours s", "pocl s", "ours/pocl",
        "build ours", "build pocl", "check ours/pocl"
    }
    for (i = 1; i <= n; i++) {
      k = name[i]; have = k in pm
      ratio = have && pm[k] > 0 && oc[i] == "ok" && pc[k] == "ok" ? om[i] / pm[k] : -1
      if (ratio > 0) { tot_o += om[i]; tot_p += pm[k]; lsum += log(ratio); nr++ }
      if (json) {
        printf "%s\n  {\"name\": \"%s\", \"size\": \"%s\", \"ours_s\": %s, \"ours_build_s\": %s, \"ours_check\": \"%s\"",
          (i > 1 ? "," : ""), k, size[i], om[i], ob[i], oc[i]
        if (have)
          printf ", \"pocl_s\": %s, \"pocl_build_s\": %s, \"pocl_check\": \"%s\"", pm[k], pb[k], pc[k]
        else
          printf ", \"pocl_s\": null, \"pocl_build_s\": null, \"pocl_check\": \"absent\""
        printf ", \"ratio\": %s}", (ratio > 0 ? sprintf("%.2f", ratio) : "null")
      } else
        printf "%-17s %-24s %9.5f %9s %9s %10.3f %10s  %s/%s\n", k, size[i], om[i],
          (have ? sprintf("%.5f", pm[k]) : "absent"), (ratio > 0 ? sprintf("%.1f", ratio) : "-"), ob[i],
          (have ? sprintf("%.3f", pb[k]) : "-"), oc[i], (have ? pc[k] : "absent")
    }
    if (json)
      printf "\n], \"total_ratio\": %s, \"geomean_ratio\": %s}\n", nr ? sprintf("%.2f", tot_o / tot_p) : "null",
        nr ? sprintf("%.2f", exp(lsum / nr)) : "null"
    else if (nr)
      printf "%-17s %-24s %9.5f %9.5f %9.1f  (geometric mean of the ratios %.1f)\n", "total", "", tot_o, tot_p,
        tot_o / tot_p, exp(lsum / nr)
  }' "$tmp/ours" "$tmp/pocl" || exit 4
[ "$rc_ours" = 0 ] && [ "$rc_pocl" = 0 ] || exit 1
