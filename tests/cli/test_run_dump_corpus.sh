#!/usr/bin/env bash
# `ventus run CASE --dump FILE` on every upstream case: it succeeds (buffers
# whose size is not a multiple of 4 included) and every word of the case's
# expected file appears in the dump with the same value.
#   usage: bash test_run_dump_corpus.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
corp=$src/../shared/corpora
if [ ! -d "$corp" ]; then
  echo "SKIP: ../shared/corpora not found"
  exit 0
fi
# expected ⊆ dump, comparing the numbers (not their spelling)
covers() { # DUMP EXPECTED
  awk 'function v(s) { return tolower(s) }
       NR == FNR { if ($1 !~ /^#/ && NF >= 2) w[v($1)] = v($2); next }
       $1 ~ /^#/ || NF < 2 { next }
       { n++; if (!(v($1) in w)) { print "missing " $1; bad++ } else if (w[v($1)] != v($2)) { print $1 ": dump " w[v($1)] ", expected " $2; bad++ } }
       END { if (!n) { print "no expected words"; bad++ } exit bad > 0 }' "$1" "$2"
}
n=0
for c in "$corp"/verilog-tc/*/* "$corp"/rtlsim-multiwg/vecadd/*.metadata; do
  case $c in
    *.metadata) exp=${c%.metadata}.expected.txt ;;
    *) exp=$c/expected_spike.txt ;;
  esac
  name=${c#"$corp"/}
  n=$((n + 1))
  # the ISS has no warp-slot limit: vecadd_64b32w32t has 32-warp groups
  if ! "$ventus" run -q -c warps_per_sm=32 "$c" --dump "$tmp/dump.txt" 2>"$tmp/err"; then
    bad "$name: run --dump failed: $(head -1 "$tmp/err")"
  elif ! covers "$tmp/dump.txt" "$exp" >"$tmp/diff"; then
    bad "$name: dump differs from $(basename "$exp"): $(head -3 "$tmp/diff" | tr '\n' ';')"
  else
    ok "$name: --dump equals $(basename "$exp")"
  fi
done
[ "$n" -ge 17 ] || bad "only $n corpus cases found"
exit $fail
