#!/usr/bin/env bash
# piglit's OpenCL C program tests (Debian package piglit: tests/cl/program and
# generated_tests/cl), run with cl-program-tester one file at a time against
# ONE OpenCL platform, for the side-by-side figures in docs/compiler.md.
# Each file runs from piglit's directory (the tests' relative -I paths are
# relative to it), at nice 19, under a per-file time limit. Results go to
# OUT/PLATFORM.tsv (file, result) and a rerun continues where the last one
# stopped, so a long measurement on a shared machine can be resumed.
set -u
usage() {
  cat <<EOF
usage: bash tests/cl/piglit-programs.sh [options]
  --platform NAME   pocl (the system's pocl ICD) or ours (default ours)
  --build DIR       our build tree, whose icd/ directory names our platform
                    (default: build)
  --out DIR         results directory (default: piglit-results)
  --timeout S       time limit per file in seconds (default 120)
  --set NAME        program (tests/cl/program), generated (generated_tests/cl)
                    or all (default all)
  --summary         only print the counts and failures of OUT/PLATFORM.tsv
  --retry-timeouts  run again the files that timed out before (on a busy
                    machine a time limit measures the load, not the test)
  --causes          only count the failures of OUT/PLATFORM.tsv by cause (the
                    error line without file, line and kernel names)
  --help            this text
Results: OUT/PLATFORM.tsv, one "file<TAB>result<TAB>note" line per file
(result is pass, fail, skip, warn, crash or timeout; note is the first
error line of a test that did not pass); the summary counts them.
EOF
}
platform=ours build=build out=piglit-results limit=120 set=all summary_only=0 retry=0
while [ $# -gt 0 ]; do
  case $1 in
    --platform) platform=${2:-}; shift 2 ;;
    --build) build=${2:-}; shift 2 ;;
    --out) out=${2:-}; shift 2 ;;
    --timeout) limit=${2:-}; shift 2 ;;
    --set) set=${2:-}; shift 2 ;;
    --summary) summary_only=1; shift ;;
    --causes) summary_only=2; shift ;;
    --retry-timeouts) retry=1; shift ;;
    --help|-h) usage; exit 0 ;;
    *) echo "piglit-programs: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case $limit in ''|*[!0-9]*) echo "piglit-programs: --timeout needs whole seconds, got '$limit'" >&2; exit 2 ;; esac
tester=$(dpkg -L piglit 2>/dev/null | grep -m1 '/piglit/bin/cl-program-tester$')
[ -n "$tester" ] || { echo "piglit-programs: piglit is not installed (no cl-program-tester)" >&2; exit 4; }
root=$(dirname "$(dirname "$tester")")
mkdir -p "$out" || exit 4
out=$(cd "$out" && pwd)
icd=$(mktemp -d)
trap 'rm -rf "$icd"' EXIT
case $platform in
  pocl)
    [ -e /etc/OpenCL/vendors/pocl.icd ] || { echo "piglit-programs: no /etc/OpenCL/vendors/pocl.icd" >&2; exit 4; }
    cp /etc/OpenCL/vendors/pocl.icd "$icd/" ;;
  ours)
    [ -e "$build/icd/chengying.icd" ] || { echo "piglit-programs: $build/icd/chengying.icd not found (build first, or --build)" >&2; exit 4; }
    cp "$build/icd/chengying.icd" "$icd/" ;;
  *) echo "piglit-programs: --platform is pocl or ours, got '$platform'" >&2; exit 2 ;;
esac
case $set in
  program) dirs="tests/cl/program" ;;
  generated) dirs="generated_tests/cl" ;;
  all) dirs="tests/cl/program generated_tests/cl" ;;
  *) echo "piglit-programs: --set is program, generated or all, got '$set'" >&2; exit 2 ;;
esac
res=$out/$platform.tsv
touch "$res"

summary() {
  echo "$platform: $(wc -l <"$res") files:" \
    "$(cut -f2 "$res" | sort | uniq -c | awk '{printf "%s %s, ", $1, $2}' | sed 's/, $//')"
  grep -vP '\t(pass|skip)\t' "$res" | sort
}
causes() {
  grep -vP '\t(pass|skip)\t' "$res" | cut -f2,3 |
    sed -E 's/^(timeout|crash)\t.*/\1/; s/^[a-z]+\t//; s/.*error: //; s/ \(kernel [^)]*\)$//' |
    awk '{ # a mangled builtin name: its length prefix gives the plain name
      if (match($0, /_Z[0-9]+/)) {
        n = substr($0, RSTART + 2, RLENGTH - 2) + 0
        $0 = substr($0, 1, RSTART - 1) substr($0, RSTART + RLENGTH, n) substr($0, index($0, "'"'"' is"))
      }
      print }' | sort | uniq -c | sort -rn
}
[ $summary_only = 1 ] && { summary; exit 0; }
[ $summary_only = 2 ] && { causes; exit 0; }

[ $retry = 1 ] && sed -i -E '/\ttimeout(\t.*)?$/d' "$res"
files=$(cd "$root" && find $dirs -type f \( -name '*.cl' -o -name '*.program_test' \) | sort)
export OCL_ICD_VENDORS=$icd
for f in $files; do
  grep -qF "$f$(printf '\t')" "$res" && continue
  log=$(cd "$root" && timeout -k 5 "$limit" nice -n 19 "$tester" "$f" -auto 2>&1)
  rc=$?
  r=$(printf '%s\n' "$log" | sed -n 's/.*PIGLIT: {"result": "\([a-z]*\)".*/\1/p' | tail -n 1)
  if [ -z "$r" ]; then
    if [ $rc = 124 ] || [ $rc = 137 ]; then r=timeout; else r=crash; fi
  fi
  note=
  [ "$r" = pass ] || [ "$r" = skip ] ||
    note=$(printf '%s\n' "$log" | grep -v '^PIGLIT' | grep -m1 -iE 'error|unexpected|expected|failed|mismatch' |
      tr '\t' ' ' | cut -c1-200)
  printf '%s\t%s\t%s\n' "$f" "$r" "$note" >>"$res"
done
summary
