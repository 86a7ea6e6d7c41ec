#!/bin/sh
# Runs every verilog-tc case of the upstream corpus under the timing model
# with configs/verilog-rtl.cfg and prints ours against the Verilog RTL's
# README cycle counts (../shared/corpora/timing, docs/timing.md) as a
# Markdown table. With --bound P it exits 1 if any case is more than P
# percent off; --allow CASE=P gives one case (e.g. vecadd/4x8) its own
# bound; --set KEY=VALUE (repeatable) overrides a configuration key;
# --svg FILE also draws the table as a bar chart (RTL and ours per case,
# each case's bars scaled to the larger of the two). The last line gives
# the largest and the mean absolute error, over all cases and, with
# --allow, over the others: the two figures a calibration change must not
# worsen. --unseen also runs the Chisel RTL's bfs run, which the
# calibration did not see (docs/timing.md), and prints its error.
usage="usage: bench/calibrate-verilog.sh [--bound P] [--allow CASE=P]... [--set K=V]... [--svg FILE] [--unseen] [VENTUS [CORPORA]]"
set -eu
bound="" sets="" allow=" " svg="" unseen=""
while :; do
  case "${1-}" in
  -h | --help) echo "$usage"; exit 0 ;;
  --svg) svg=$2; shift 2 ;;
  --unseen) unseen=1; shift ;;
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
# the same case on the RTL as simulated here (bench/rtl/rtl-cycles.csv,
# tools/rtl): a README figure more than 10% from it is marked as one the
# published sources do not reproduce
here_csv=$here/bench/rtl/rtl-cycles.csv
echo "| case | warp-instr | RTL cycles | ours | error | RTL simulated here |"
echo "| --- | --- | --- | --- | --- | --- |"
# fields: kernel, corpus dir, warp-instr, README cycles, the RTL's
# NUM_THREAD (= NUM_LANE, edited per case; 1w32t runs 16-thread warps on
# 32 lanes), in the corpus
[ -z "$svg" ] || : >"$svg.rows"
rc=0
awk -F, 'NR > 1 && $14 == "yes" { print $1, $3, $8, $11, $4 }' "$csv" | {
  worst=0 sum=0 n=0 worst_o=0 sum_o=0 n_o=0 # all cases; those without --allow
  while read -r k dir instr rtl lanes; do
    out=$("$ventus" run --timing --config "$here/configs/verilog-rtl.cfg" -c num_lanes="$lanes" $sets \
      "$corpora/verilog-tc/$k/$dir" 2>&1) || {
      echo "calibrate-verilog: $k/$dir failed: $out" >&2; exit 4; }
    ours=$(printf '%s\n' "$out" | sed -n 's/.* in \([0-9]*\) cycles.*/\1/p')
    err=$(awk -v o="$ours" -v r="$rtl" 'BEGIN { printf "%+.1f", (o - r) * 100 / r }')
    sim=$(awk -F, -v id="$k.$dir" -v r="$rtl" '$1 == id {
      d = (r - $7) * 100 / $7
      printf "%d%s", $7, (d > 10 || d < -10) ? sprintf(" (README %+.0f%%: not reproduced)", d) : ""
    }' "$here_csv" 2>/dev/null)
    echo "| $k/$dir | $instr | $rtl | $ours | $err% | ${sim:-—} |"
    [ -z "$svg" ] || echo "$k/$dir $rtl $ours $err" >>"$svg.rows"
    a=${err#[+-]}
    worst=$(awk -v a="$a" -v w="$worst" 'BEGIN { print (a + 0 > w + 0) ? a : w }')
    sum=$(awk -v a="$a" -v s="$sum" 'BEGIN { print a + s }') n=$((n + 1))
    b=$bound
    case "$allow" in
    *" $k/$dir="*) b=${allow#*" $k/$dir="}; b=${b%% *} ;;
    *)
      worst_o=$(awk -v a="$a" -v w="$worst_o" 'BEGIN { print (a + 0 > w + 0) ? a : w }')
      sum_o=$(awk -v a="$a" -v s="$sum_o" 'BEGIN { print a + s }') n_o=$((n_o + 1))
      ;;
    esac
    # exact: |ours - RTL| > b% of RTL, not the rounded figure
    if [ -n "$b" ] && awk -v o="$ours" -v r="$rtl" -v b="$b" 'BEGIN { d = o - r; if (d < 0) d = -d; exit !(d * 100 > b * r) }'; then
      echo "calibrate-verilog: $k/$dir is $err% off the RTL, more than its bound of $b%" >&2
      over=1
    fi
  done
  if [ -n "$unseen" ]; then
    # the Chisel RTL's bfs run (../shared/corpora/timing/cpp-simulator-bfs4x8:
    # 636 warp-instructions, 2672 cycles) on its L1 and L2 sizes. It is
    # another design than the Verilog RTL the configuration is fitted to
    # (bench/rtl-suite.sh): its L2 flush walk does not show in its count (a
    # walk of its 32 x 16 L2 would be 512 of the 2672 cycles), its log has
    # I-cache requests in pairs (fetch_miss_next 1), and its unit and memory
    # latencies are the ones measured on the Chisel RTL (timing-ref), as the
    # configuration had them before the Verilog suite existed
    chisel="-c l2_flush_walk=0 -c fetch_miss_next=1 -c warps_last_first=0 -c lat_fetch=4 -c lat_l2=4
      -c lat_dram=20 -c lat_alu=5 -c lat_valu=5 -c lat_vfpu=7 -c lat_mul=6 -c lat_sfu=26 -c lat_lsu_l1_hit=11
      -c lat_branch=3 -c collector_cycles=4"
    b=$corpora/timing/cpp-simulator-bfs4x8/BFS_1_0.metadata
    [ -r "$b" ] || { echo "calibrate-verilog: $b not found" >&2; exit 4; }
    out=$("$ventus" run --timing --config "$here/configs/verilog-rtl.cfg" -c num_lanes=8 -c l1i_sets=128 \
      -c l1d_sets=128 -c l2_sets=32 -c l2_ways=16 $chisel $sets "$b" 2>&1) || {
      echo "calibrate-verilog: the Chisel bfs run failed: $out" >&2; exit 4; }
    ours=$(printf '%s\n' "$out" | sed -n 's/.* in \([0-9]*\) cycles.*/\1/p')
    echo "unseen: Chisel RTL bfs 4x8, 636 warp-instr, RTL 2672 cycles, ours $ours," \
      "$(awk -v o="$ours" 'BEGIN { printf "%+.1f%%", (o - 2672) * 100 / 2672 }')"
  fi
  line=$(awk -v w="$worst" -v s="$sum" -v n="$n" 'BEGIN { printf "worst: %s%%, mean %.1f%%", w, s / n }')
  [ "$allow" = " " ] ||
    line="$line; without the --allow cases: worst $worst_o%, mean $(awk -v s="$sum_o" -v n="$n_o" \
      'BEGIN { printf "%.1f", n ? s / n : 0 }')%"
  echo "$line"
  exit "${over:-0}"
} || rc=$?
if [ -n "$svg" ]; then
  # one row per case: name, then two bars as a share of the larger value
  awk 'BEGIN { w = 640; rowh = 26; x0 = 130; bw = 380 }
    { name[NR] = $1; r[NR] = $2; o[NR] = $3; e[NR] = $4 }
    END {
      h = 60 + NR * rowh
      printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h
      printf "<text x=\"10\" y=\"18\" font-size=\"13\">Cycles: Verilog RTL (grey) and the timing model (blue), configs/verilog-rtl.cfg</text>\n"
      for (i = 1; i <= NR; i++) {
        y = 34 + (i - 1) * rowh; m = r[i] > o[i] ? r[i] : o[i]
        printf "<text x=\"10\" y=\"%d\">%s</text>\n", y + 15, name[i]
        printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"#999\"/>\n", x0, y + 2, bw * r[i] / m
        printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"10\" fill=\"#36c\"/>\n", x0, y + 12, bw * o[i] / m
        printf "<text x=\"%d\" y=\"%d\">%d / %d (%s%%)</text>\n", x0 + bw + 8, y + 15, r[i], o[i], e[i]
      }
      print "</svg>"
    }' "$svg.rows" >"$svg"
  rm -f "$svg.rows"
fi
exit $rc
