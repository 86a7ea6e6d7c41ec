#!/usr/bin/env bash
# The RTL reference suite (bench/rtl/suite.txt; docs/timing.md, "The RTL
# reference suite"):
#   bench/rtl-suite.sh record [--only ID]...   runs every case on the Verilog
#       RTL (tools/rtl/ventus-rtl check: cycles, and the final memory compared
#       with the functional simulator's) and writes bench/rtl/rtl-cycles.csv;
#       runs already done in the work directory are kept (--force reruns)
#   bench/rtl-suite.sh compare [--bound-mean P] [--bound-worst P] [--svg FILE]
#       [--set KEY=VALUE]... [--only ID]...   runs the timing model
#       (configs/verilog-rtl.cfg) on every recorded case and prints its error
#       per run, then the mean and worst over the fitted and the held-out
#       runs separately; exits 1 when a bound is broken. Needs no Verilator.
#   bench/rtl-suite.sh fit --try KEY=V1,V2,...  [--try ...] [--rounds N]
#       [--set KEY=VALUE]...   fits the model to the fitted runs only:
#       coordinate descent over the values given, minimising the fitted
#       runs' mean |error| plus a quarter of their worst; prints each trial
#       and the best settings (the held-out runs are never looked at)
# Options for both: --ventus PATH (default build/ventus), --corpora DIR
# (default ../shared/corpora; corpus runs are skipped with a notice where it
# is absent), --work DIR (exported cases; default build/rtl-suite).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
suite=$root/bench/rtl/suite.txt
csv=$root/bench/rtl/rtl-cycles.csv
ventus=$root/build/ventus
corpora=$root/../shared/corpora
work=$root/build/rtl-suite
bmean="" bworst="" svg="" sets=() only=() force="" tries=() rounds=2

usage() { sed -n '2,21s/^# \{0,1\}//p' "$0"; }
cmd=${1:-}
[ -n "$cmd" ] || { usage >&2; exit 2; }
shift
while (($#)); do
  case $1 in
  -h | --help) usage; exit 0 ;;
  --ventus) ventus=$2; shift 2 ;;
  --corpora) corpora=$2; shift 2 ;;
  --work) work=$2; shift 2 ;;
  --only) only+=("$2"); shift 2 ;;
  --force) force=1; shift ;;
  --bound-mean) bmean=$2; shift 2 ;;
  --bound-worst) bworst=$2; shift 2 ;;
  --svg) svg=$2; shift 2 ;;
  --set) sets+=(-c "$2"); shift 2 ;;
  --try) tries+=("$2"); shift 2 ;;
  --rounds) rounds=$2; shift 2 ;;
  *) echo "rtl-suite: unknown argument $1" >&2; exit 2 ;;
  esac
done
case $cmd in record | compare | fit) ;; -h | --help) usage; exit 0 ;; *) usage >&2; exit 2 ;; esac
[ -x "$ventus" ] || { echo "rtl-suite: $ventus not found (build the project first)" >&2; exit 4; }

# held_out KERNEL: the fixed rule of suite.txt
held_out() {
  local h
  h=$(printf %s "$1" | md5sum | cut -c1-8)
  (((16#$h) % 3 == 0))
}

wanted() {
  ((${#only[@]} == 0)) && return 0
  local o
  for o in "${only[@]}"; do [ "$o" = "$1" ] && return 0; done
  return 1
}

# param VALUE-LIST KEY DEFAULT: one key of a t=..,l1=..,l2=.. list
param() {
  local v
  v=$(tr ',' '\n' <<<"$1" | sed -n "s/^$2=//p")
  echo "${v:-$3}"
}

# case_path ID SOURCE ARGS...: the test-vector case of a run, exported into
# $work/ID for asm: and cl: sources. Prints nothing for a corpus run whose
# corpus is absent.
case_path() {
  local id=$1 src=$2
  shift 2
  case $src in
  corpus:*)
    local p=$corpora/${src#corpus:}
    [ -e "$p" ] && echo "$p"
    return 0 ;;
  asm:* | cl:*)
    local dir=$work/$id elf=$work/$id.elf file=$root/${src#*:}
    if [ "${src%%:*}" = cl ] && ! "$ventus" cc --help >/dev/null 2>&1; then
      echo "SKIP: $id: this build has no OpenCL C compiler (ventus cc)" >&2
      return 0
    fi
    mkdir -p "$work"
    # exported again when the source, ventus or its compiler module is newer
    local ccmod
    ccmod=$(dirname "$ventus")/libchengying-cc.so
    if [ ! -f "$dir/kernels.txt" ] || [ "$file" -nt "$dir/kernels.txt" ] || [ "$ventus" -nt "$dir/kernels.txt" ] ||
      { [ "${src%%:*}" = cl ] && [ "$ccmod" -nt "$dir/kernels.txt" ]; }; then
      rm -rf "$dir"
      if [ "${src%%:*}" = asm ]; then
        "$ventus" as -o "$elf" "$root/kernels/lib/start.S" "$root/kernels/lib/workitem.S" "$file" >&2
      else
        "$ventus" cc -o "$elf" "$file" >&2
      fi
      "$ventus" run "$elf" "$@" --export-testvec "$dir" --quiet >&2
    fi
    echo "$dir" ;;
  *) echo "rtl-suite: $id: unknown source $src" >&2; return 4 ;;
  esac
}

# The suite's runs as "ID KERNEL PARAMS SOURCE ARGS..." lines
runs() { grep -Ev '^[[:space:]]*(#|$)' "$suite"; }

if [ "$cmd" = fit ]; then
  ((${#tries[@]})) || { echo "rtl-suite: fit needs at least one --try KEY=V1,V2,..." >&2; exit 2; }
  [[ $rounds =~ ^[1-9][0-9]?$ ]] || { echo "rtl-suite: --rounds $rounds: expected 1..99" >&2; exit 2; }
  declare -A best=()
  for t in "${tries[@]}"; do
    [[ $t =~ ^[a-z0-9_]+=[0-9]+(,[0-9]+)*$ ]] || { echo "rtl-suite: --try $t: expected KEY=V1,V2,..." >&2; exit 2; }
    best[${t%%=*}]=""
  done
  # score SETTINGS...: the fitted runs' mean + worst/4 (lower is better)
  score() {
    local a=() k line
    for k in "$@"; do a+=(--set "$k"); done
    line=$("$0" compare --ventus "$ventus" --corpora "$corpora" --work "$work" "${a[@]}" 2>/dev/null |
      grep '^fitted:') || return 1
    awk '{ m = $6; w = $8; sub(/%,?/, "", m); sub(/%/, "", w); printf "%.2f %s %s\n", m + w / 4, m, w }' <<<"$line"
  }
  current() {
    local k
    for k in "${!best[@]}"; do [ -z "${best[$k]}" ] || echo "$k=${best[$k]}"; done
    for k in "${sets[@]}"; do [ "$k" = -c ] || echo "$k"; done
  }
  mapfile -t cur < <(current)
  read -r bs bm bw < <(score "${cur[@]}") || { echo "rtl-suite: the model did not run" >&2; exit 4; }
  echo "start: score $bs (fitted mean $bm%, worst $bw%)"
  for ((r = 1; r <= rounds; r++)); do
    for t in "${tries[@]}"; do
      k=${t%%=*}
      IFS=, read -r -a vals <<<"${t#*=}"
      for v in "${vals[@]}"; do
        [ "$v" = "${best[$k]}" ] && continue
        old=${best[$k]}
        best[$k]=$v
        mapfile -t cur < <(current)
        if read -r s m w < <(score "${cur[@]}") && awk -v a="$s" -v b="$bs" 'BEGIN { exit !(a < b) }'; then
          bs=$s bm=$m bw=$w
          echo "round $r: $k=$v: score $s (mean $m%, worst $w%) kept"
        else
          best[$k]=$old
          echo "round $r: $k=$v: score ${s:-?}"
        fi
      done
    done
  done
  echo "best: score $bs (fitted mean $bm%, worst $bw%) with: $(current | tr '\n' ' ')"
  exit 0
fi

if [ "$cmd" = record ]; then
  rtl=$root/tools/rtl/ventus-rtl
  tmpcsv=$(mktemp)
  trap 'rm -f "$tmpcsv"' EXIT
  [ -f "$csv" ] && cp "$csv" "$tmpcsv"
  [ -s "$tmpcsv" ] || echo "id,kernel,split,threads,l1,l2,rtl_cycles,launches,work_groups,axi_reads,axi_writes,memory" >"$tmpcsv"
  while read -r id kernel params src args; do
    wanted "$id" || continue
    # shellcheck disable=SC2086
    c=$(case_path "$id" "$src" $args) || exit 4
    [ -n "$c" ] || { echo "SKIP: $id: its corpus or compiler is absent"; continue; }
    t=$(param "$params" t "")
    l1=$(param "$params" l1 32x2) l2=$(param "$params" l2 2x4)
    [ -n "$t" ] || t=$("$rtl" params "$c" | sed 's/threads=\([0-9]*\).*/\1/')
    j=$work/$id.rtl.json
    mkdir -p "$work"
    mem=equal rc=0
    # resumable: a run whose figures are in the work directory is not run
    # again (--force runs it anyway)
    if [ -z "$force" ] && [ -s "$j" ] && [ -s "$work/$id.rtl.log" ]; then
      grep -q 'differs' "$work/$id.rtl.log" && rc=1
    else
      rm -f "$j"
      "$rtl" check "$c" --threads "$t" --l1-sets "${l1%x*}" --l1-ways "${l1#*x}" --l2-sets "${l2%x*}" \
      --l2-ways "${l2#*x}" --json "$j" --ventus "$ventus" --quiet >"$work/$id.rtl.log" 2>&1 || rc=$?
    fi
    if [ "$rc" -eq 1 ]; then
      # "N of M words differ": kept as differs:N, or ulp:N when each differs
      # by one unit in the last place (docs/timing.md says why where known)
      mem=differs:$(sed -n 's/.*: \([0-9]*\) of [0-9]* words differ.*/\1/p' "$work/$id.rtl.log")
      grep -q 'each by one unit in the last place' "$work/$id.rtl.log" && mem=ulp:${mem#differs:}
      grep 'differs' "$work/$id.rtl.log"
    elif [ "$rc" -ne 0 ]; then
      echo "rtl-suite: $id: the RTL run failed:"
      tail -n 5 "$work/$id.rtl.log"
      continue
    fi
    split=fitted
    held_out "$kernel" && split=held-out
    row=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["cycles"], len(j["launches"]), sum(l["work_groups"] for l in j["launches"]), j["axi_reads"], j["axi_writes"])' "$j")
    read -r cyc nl nwg ar aw <<<"$row"
    grep -v "^$id," "$tmpcsv" >"$tmpcsv.new" || true
    echo "$id,$kernel,$split,$t,$l1,$l2,$cyc,$nl,$nwg,$ar,$aw,$mem" >>"$tmpcsv.new"
    mv "$tmpcsv.new" "$tmpcsv"
    cp "$tmpcsv" "$csv"
    echo "$id: $cyc RTL cycles ($split), memory $mem"
  done < <(runs)
  # rows in suite order
  { head -n 1 "$tmpcsv"; runs | while read -r id _; do grep "^$id," "$tmpcsv" || true; done; } >"$csv"
  exit 0
fi

# compare
[ -r "$csv" ] || { echo "rtl-suite: $csv not found (bench/rtl-suite.sh record writes it)" >&2; exit 4; }
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
echo "| run | split | RTL params | RTL cycles | model | error |"
echo "| --- | --- | --- | --- | --- | --- |"
skipped=0
while read -r id kernel params src args; do
  wanted "$id" || continue
  line=$(grep "^$id," "$csv" || true)
  [ -n "$line" ] || { echo "rtl-suite: $id: no recorded RTL figure" >&2; continue; }
  IFS=, read -r _ _ split t l1 l2 rtlc nl nwg _ _ mem <<<"$line"
  # shellcheck disable=SC2086
  c=$(case_path "$id" "$src" $args) || exit 4
  if [ -z "$c" ]; then
    echo "SKIP: $id: its corpus or compiler is absent" >&2
    skipped=$((skipped + 1))
    continue
  fi
  out=$("$ventus" run --timing --config "$root/configs/verilog-rtl.cfg" -c num_lanes="$t" \
    -c l1d_sets="${l1%x*}" -c l1d_ways="${l1#*x}" -c l1i_sets="${l1%x*}" -c l1i_ways="${l1#*x}" \
    -c l2_sets="${l2%x*}" -c l2_ways="${l2#*x}" "${sets[@]}" "$c" 2>&1) || {
    echo "rtl-suite: $id: the model run failed: $out" >&2
    exit 4
  }
  ours=$(printf '%s\n' "$out" | sed -n 's/.* in \([0-9]*\) cycles.*/\1/p' | tail -n 1)
  err=$(awk -v o="$ours" -v r="$rtlc" 'BEGIN { printf "%+.1f", (o - r) * 100 / r }')
  # a run whose results differ on the RTL (not by rounding) ran another
  # program there: its cycles are shown, not counted
  case $mem in
  differs*)
    echo "| $id | $split (not counted: the RTL's results differ) | t=$t l1=$l1 l2=$l2 | $rtlc | $ours | $err% |"
    continue ;;
  esac
  # the RTL runs a launch's work-groups one after the other (tools/rtl), the
  # model side by side: shown, not counted
  if [ "$nwg" -gt "$nl" ]; then
    echo "| $id | $split (not counted: $nwg work-groups in $nl launches, in series on the RTL) | t=$t l1=$l1 l2=$l2 | $rtlc | $ours | $err% |"
    continue
  fi
  echo "| $id | $split | t=$t l1=$l1 l2=$l2 | $rtlc | $ours | $err% |"
  echo "$id $split $rtlc $ours $err" >>"$rows"
done < <(runs)
summary=$(awk '
  { a = $5 < 0 ? -$5 : $5; n[$2]++; s[$2] += a; if (a > w[$2]) w[$2] = a }
  END {
    for (k in n) printf "%s: %d runs, mean |error| %.1f%%, worst %.1f%%\n", k, n[k], s[k] / n[k], w[k]
  }' "$rows" | sort)
echo
echo "$summary"
[ "$skipped" -eq 0 ] || echo "($skipped runs skipped: ../shared/corpora or the compiler absent)"
if [ -n "$svg" ]; then
  awk 'BEGIN { w = 700; rowh = 22; x0 = 170; bw = 360 }
    { name[NR] = $1; sp[NR] = $2; r[NR] = $3; o[NR] = $4; e[NR] = $5 }
    END {
      h = 60 + NR * rowh
      printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", w, h
      printf "<text x=\"10\" y=\"18\" font-size=\"13\">Cycles: the Verilog RTL under Verilator (grey) and the timing model (blue: fitted, orange: held out)</text>\n"
      for (i = 1; i <= NR; i++) {
        y = 30 + (i - 1) * rowh; m = r[i] > o[i] ? r[i] : o[i]
        col = sp[i] == "held-out" ? "#e80" : "#36c"
        printf "<text x=\"10\" y=\"%d\">%s</text>\n", y + 13, name[i]
        printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"8\" fill=\"#999\"/>\n", x0, y + 2, bw * r[i] / m
        printf "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"8\" fill=\"%s\"/>\n", x0, y + 10, bw * o[i] / m, col
        printf "<text x=\"%d\" y=\"%d\">%d / %d (%s%%)</text>\n", x0 + bw + 8, y + 13, r[i], o[i], e[i]
      }
      print "</svg>"
    }' "$rows" >"$svg"
fi
fail=0
while read -r k n _ _ _ mean _ worst; do
  k=${k%:} mean=${mean%\%,} worst=${worst%\%}
  if [ -n "$bmean" ] && awk -v m="$mean" -v b="$bmean" 'BEGIN { exit !(m > b) }'; then
    echo "rtl-suite: $k runs: mean error $mean% above the bound $bmean%" >&2
    fail=1
  fi
  if [ -n "$bworst" ] && awk -v m="$worst" -v b="$bworst" 'BEGIN { exit !(m > b) }'; then
    echo "rtl-suite: $k runs: worst error $worst% above the bound $bworst%" >&2
    fail=1
  fi
done <<<"$summary"
exit $fail
