#!/bin/sh
# Runs every verilog-tc case of the upstream corpus under the timing model
# with configs/verilog-rtl.cfg and prints ours against the Verilog RTL's
# README cycle counts (../shared/corpora/timing, docs/timing.md) as a
# Markdown table. With --bound P it exits 1 if any case is more than P
# percent off; --allow CASE=P gives one case (e.g. vecadd/4x8) its own
# bound; --set KEY=VALUE (repeatable) overrides a configuration key.
usage="usage: bench/calibrate-verilog.sh [--bound P] [--allow CASE=P]... [--set K=V]... [VENTUS [CORPORA]]"
set -eu
bound="" sets="" allow=" "
while :; do
  case "${1-}" in
  -h | --help) echo "$usage"; exit 0 ;;
  --bound) bound=$2; shift 2 ;;
  --allow) allow="$allow$2 "; shift 2 ;;
  --set) sets="$sets -c $2"; shift 2 ;;
  *) break ;;
  esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
ventus=${1:-$here/build/ventus}
corpora=${2:-$here/../shared/corpora}
csv=$corpora/timing/ventus-gpgpu-verilog/readme_cycles_with_instr_counts.csv
[ -r "$csv" ] || { echo "calibrate-verilog: $csv not found" >&2; exit 4; }
echo "| case | warp-instr | RTL cycles | ours | error |"
echo "| --- | --- | --- | --- | --- |"
# fields: kernel, corpus dir, warp-instr, README cycles, in the corpus
awk -F, 'NR > 1 && $14 == "yes" { print $1, $3, $8, $11 }' "$csv" | {
  worst=0
  while read -r k dir instr rtl; do
    out=$("$ventus" run --timing --config "$here/configs/verilog-rtl.cfg" $sets "$corpora/verilog-tc/$k/$dir" 2>&1) || {
      echo "calibrate-verilog: $k/$dir failed: $out" >&2; exit 4; }
    ours=$(printf '%s\n' "$out" | sed -n 's/.* in \([0-9]*\) cycles.*/\1/p')
    err=$(awk -v o="$ours" -v r="$rtl" 'BEGIN { printf "%+.0f", (o - r) * 100 / r }')
    echo "| $k/$dir | $instr | $rtl | $ours | $err% |"
    a=${err#[+-]}
    [ "$a" -gt "$worst" ] && worst=$a
    b=$bound
    case "$allow" in *" $k/$dir="*) b=${allow#*" $k/$dir="}; b=${b%% *} ;; esac
    if [ -n "$b" ] && [ "$a" -gt "$b" ]; then
      echo "calibrate-verilog: $k/$dir is $err% off the RTL, more than its bound of $b%" >&2
      over=1
    fi
  done
  echo "worst: $worst%"
  exit "${over:-0}"
}
