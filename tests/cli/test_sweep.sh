#!/usr/bin/env bash
# `ventus sweep` (docs/sweeps.md): a small sweep of vecadd over num_sm x
# warps_per_sm under the timing model gives, row by row, the cycles of
# running each configuration by hand; a second invocation runs nothing; a
# faulting run, a run over its time limit and a configuration the device
# refuses are recorded with their errors while the others succeed; a
# malformed description is one error line naming its line (exit 4).
#   usage: bash test_sweep.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail

if "$ventus" sweep --help 2>&1 | grep -q "not built"; then
  echo "SKIP: ventus sweep not built (no SQLite)"
  exit 0
fi

lib="$src/kernels/lib"
launch="--kernel vecadd --global 1024 --local 64 --arg buf:f32:1024:iota --arg buf:f32:1024:fill=0.5 --arg buf:f32:1024 --arg u32:1024"
cat >"$tmp/small.ini" <<EOF2
# vecadd over two axes, under the timing model
[sweep]
name = small

[kernel vecadd]
asm = $lib/start.S $lib/workitem.S $src/kernels/examples/vecadd.S
run = $launch

[axes]
num_sm = 1..2
warps_per_sm = 4, 8
EOF2

# csv_col FILE NAME: the values of column NAME, one a line (no quoted commas here)
csv_col() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"
}

# --- the sweep, then every row against a run by hand ---------------------
"$ventus" sweep "$tmp/small.ini" -j 2 >"$tmp/out" 2>"$tmp/err"
rc=$?
if [ $rc -eq 0 ] && grep -q "4 runs: 4 run now (0 failed), 0 already in the store" "$tmp/out" && [ ! -s "$tmp/err" ]; then
  ok "sweep of 4 runs (nothing on stderr when it is not a terminal)"
else
  bad "sweep: exit $rc: $(head -2 "$tmp/out" "$tmp/err")"
fi
[ -f "$tmp/small.db" ] && ok "store beside the description (small.db)" || bad "no store $tmp/small.db"
"$ventus" sweep "$tmp/small.ini" --no-run --csv "$tmp/a.csv" 2>"$tmp/err" || bad "--csv: $(head -1 "$tmp/err")"
[ "$(wc -l <"$tmp/a.csv")" = 5 ] && ok "CSV: header and 4 rows" || bad "CSV has $(wc -l <"$tmp/a.csv") lines"

assemble_example vecadd "$tmp/vecadd.elf"
paste -d' ' <(csv_col "$tmp/a.csv" num_sm) <(csv_col "$tmp/a.csv" warps_per_sm) <(csv_col "$tmp/a.csv" cycles) \
  <(csv_col "$tmp/a.csv" warp_insns) <(csv_col "$tmp/a.csv" status) >"$tmp/rows"
n=0
while read -r sm w cyc wi st; do
  # shellcheck disable=SC2086
  "$ventus" run "$tmp/vecadd.elf" $launch --timing -c num_sm="$sm" -c warps_per_sm="$w" --json --quiet \
    >"$tmp/hand.json" 2>"$tmp/err"
  hc=$(grep -o '"timing":{"cycles": [0-9]*' "$tmp/hand.json" | grep -o '[0-9]*$')
  hw=$(grep -o '"warp_insns": [0-9]*' "$tmp/hand.json" | grep -o '[0-9]*$')
  if [ "$st" = ok ] && [ -n "$hc" ] && [ "$cyc" = "$hc" ] && [ "$wi" = "$hw" ]; then
    n=$((n + 1))
  else
    bad "num_sm=$sm warps_per_sm=$w: store $st $cyc cycles $wi warp-instructions, by hand ${hc:-?} ${hw:-?}"
  fi
done <"$tmp/rows"
[ "$n" = 4 ] && ok "4 rows: the cycles and warp-instructions of ventus run --timing by hand"
[ "$(sort -u <(cut -d' ' -f1,2 "$tmp/rows") | wc -l)" = 4 ] && ok "the rows are the 4 configurations of the product" ||
  bad "rows: $(tr '\n' ';' <"$tmp/rows")"

# the progress line, on a terminal only (script(1) gives one)
if command -v script >/dev/null 2>&1; then
  sed 's/^name = small$/name = tty/' "$tmp/small.ini" >"$tmp/tty.ini"
  script -qec "'$ventus' sweep '$tmp/tty.ini' -j 1" /dev/null >"$tmp/tty.out" 2>&1
  if grep -q 'sweep: 4/4 runs done, 0 failed, 0 running, ETA 0m00s' "$tmp/tty.out" &&
    grep -q "$(printf '\r\033\\[K')ventus sweep: tty: 4 runs: 4 run now" "$tmp/tty.out"; then
    ok "on a terminal: the progress line (done, failed, running, ETA), erased before the summary"
  else
    bad "progress line: $(cat -v "$tmp/tty.out" | head -c 300)"
  fi
fi

# --- stable ids; resume --------------------------------------------------
"$ventus" sweep "$tmp/small.ini" --list >"$tmp/list1" 2>&1
"$ventus" sweep "$tmp/small.ini" --list >"$tmp/list2" 2>&1
if [ "$(wc -l <"$tmp/list1")" = 4 ] && cmp -s "$tmp/list1" "$tmp/list2" &&
  [ "$(cut -d' ' -f1 "$tmp/list1" | sort)" = "$(csv_col "$tmp/a.csv" id | sort)" ]; then
  ok "--list: 4 runs, the same ids each time and in the store"
else
  bad "--list: $(head -2 "$tmp/list1")"
fi
"$ventus" sweep "$tmp/small.ini" >"$tmp/out" 2>&1
grep -q "0 run now (0 failed), 4 already in the store" "$tmp/out" && ok "resumed sweep runs nothing" ||
  bad "resume: $(head -1 "$tmp/out")"
"$ventus" sweep "$tmp/small.ini" --no-run --csv "$tmp/b.csv" 2>/dev/null
cmp -s "$tmp/a.csv" "$tmp/b.csv" && ok "resumed sweep leaves the store as it was" || bad "the store changed on resume"
# one more axis value: only the new runs run
sed -i 's/^num_sm = 1..2/num_sm = 1..3/' "$tmp/small.ini"
"$ventus" sweep "$tmp/small.ini" -j 2 >"$tmp/out" 2>&1
grep -q "6 runs: 2 run now (0 failed), 4 already in the store" "$tmp/out" && ok "a widened axis runs only its new runs" ||
  bad "widened axis: $(head -1 "$tmp/out")"

# --- plots: an SVG per metric and axis, the data beside ---------------------
"$ventus" sweep "$tmp/small.ini" --no-run --plot "$tmp/plots" --csv "$tmp/c.csv" 2>"$tmp/err" ||
  bad "--plot: $(head -1 "$tmp/err")"
n=0
for f in cycles-vs-num_sm cycles-vs-warps_per_sm ipc-vs-num_sm ipc-vs-warps_per_sm; do
  [ -s "$tmp/plots/$f.svg" ] && [ -s "$tmp/plots/$f.csv" ] && n=$((n + 1))
done
[ $n = 4 ] && ok "--plot: 4 SVG files and their data" || bad "--plot: $(ls "$tmp/plots" | tr '\n' ' ')"
# the data drawn are the store's: cycles of num_sm=3 warps_per_sm=8
want=$(paste -d' ' <(csv_col "$tmp/c.csv" num_sm) <(csv_col "$tmp/c.csv" warps_per_sm) <(csv_col "$tmp/c.csv" cycles) |
  awk '$1 == 3 && $2 == 8 { print $3 }')
got=$(grep '^"vecadd warps_per_sm=8",3,' "$tmp/plots/cycles-vs-num_sm.csv" | cut -d, -f3)
[ -n "$want" ] && [ "$want" = "$got" ] && ok "plot data = store ($want cycles)" || bad "plot data: $got, store $want"
if command -v python3 >/dev/null 2>&1; then
  python3 -c '
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
lines = t.findall("{http://www.w3.org/2000/svg}polyline")
assert len(lines) == 2, len(lines)
assert all(len(l.get("points").split()) == 3 for l in lines)
' "$tmp/plots/cycles-vs-num_sm.svg" 2>"$tmp/err" && ok "SVG parses: 2 lines (warps_per_sm 4, 8) of 3 points" ||
    bad "SVG: $(tail -1 "$tmp/err")"
fi
# speed-up over a baseline configuration, CPI stacks
sed 's/^name = small$/name = small\nbaseline = num_sm=1 warps_per_sm=4/' "$tmp/small.ini" >"$tmp/base.ini"
"$ventus" sweep "$tmp/base.ini" --store "$tmp/small.db" --no-run --plot "$tmp/plots2" 2>"$tmp/err" ||
  bad "--plot with a baseline: $(head -1 "$tmp/err")"
c14=$(paste -d' ' <(csv_col "$tmp/c.csv" num_sm) \
  <(csv_col "$tmp/c.csv" warps_per_sm) <(csv_col "$tmp/c.csv" cycles) | awk '$1 == 1 && $2 == 4 { print $3 }')
c24=$(paste -d' ' <(csv_col "$tmp/c.csv" num_sm) <(csv_col "$tmp/c.csv" warps_per_sm) <(csv_col "$tmp/c.csv" cycles) |
  awk '$1 == 2 && $2 == 4 { print $3 }')
sp=$(grep '^"vecadd warps_per_sm=4",2,' "$tmp/plots2/speedup-vs-num_sm.csv" | cut -d, -f3)
one=$(grep '^"vecadd warps_per_sm=4",1,' "$tmp/plots2/speedup-vs-num_sm.csv" | cut -d, -f3)
if [ -s "$tmp/plots2/speedup-vs-num_sm.svg" ] && [ "$one" = 1 ] &&
  awk -v s="$sp" -v a="$c14" -v b="$c24" 'BEGIN { exit !(b > 0 && s - a / b < 1e-9 && a / b - s < 1e-9) }'; then
  ok "speedup-vs-num_sm: 1 at the baseline, cycles(1,4)/cycles(2,4) = $sp"
else
  bad "speed-up: at baseline '$one', num_sm=2 '$sp' (cycles $c14 / $c24)"
fi
# a CPI stack's parts add up to the SMs' cycles: (issued + stalls) / issued
row=$(grep '^"num_sm=2 warps_per_sm=8",' "$tmp/plots2/cpi-stack-vecadd.csv")
iss=$(paste -d' ' <(csv_col "$tmp/c.csv" num_sm) <(csv_col "$tmp/c.csv" warps_per_sm) <(csv_col "$tmp/c.csv" issued) \
  <(csv_col "$tmp/c.csv" cycles) | awk '$1 == 2 && $2 == 8 { print $3 "," $4 }')
if [ -s "$tmp/plots2/cpi-stack-vecadd.svg" ] && [ -n "$row" ] &&
  echo "$row,$iss" | awk -F, '{ t = 0; for (i = 2; i <= 10; i++) t += $i; d = t * $11 - 2 * $12; exit !($2 == 1 && d < 0.01 * $12 && -d < 0.01 * $12) }'; then
  ok "cpi-stack-vecadd: 9 parts per configuration adding up to the SM cycles"
else
  bad "CPI stack: '$row' issued/cycles '$iss'"
fi
sed 's/^name = small$/name = small\nplot = cycles, cycle/' "$tmp/small.ini" >"$tmp/typo.ini"
expect 4 "no metric 'cycle' in the store" "--plot of a metric the store lacks" \
  "$ventus" sweep "$tmp/typo.ini" --store "$tmp/small.db" --no-run --plot "$tmp/p2"

# --- Slurm: the job array script, its tasks run by hand, --status, --collect --
sed 's/^name = small$/name = slurm/; s/^num_sm = 1..3$/num_sm = 1..2/' "$tmp/small.ini" >"$tmp/slurm.ini"
"$ventus" sweep "$tmp/slurm.ini" --slurm --no-submit --partition debug --time 0:10:00 --mem 1G --chunk 3 \
  --sbatch-arg --account=lab >"$tmp/out" 2>"$tmp/err"
rc=$?
sc=$tmp/slurm.db.work/slurm/sweep.sbatch
if [ $rc = 0 ] && grep -qF "4 runs as 2 Slurm array tasks: $sc" "$tmp/out" && [ -x "$sc" ]; then
  ok "--slurm --no-submit writes the job script"
else
  bad "--slurm: exit $rc: $(head -1 "$tmp/out" "$tmp/err")"
fi
n=0
for l in '#!/bin/sh' '#SBATCH --array=0-1' '#SBATCH --partition=debug' '#SBATCH --time=0:10:00' '#SBATCH --mem=1G' \
  '#SBATCH --account=lab' '#SBATCH --cpus-per-task=1' "#SBATCH --output=$tmp/slurm.db.work/slurm/logs/%A_%a.log"; do
  grep -qxF -- "$l" "$sc" && n=$((n + 1)) || bad "script lacks '$l'"
done
[ $n = 8 ] && ok "script: array 0-1 (4 runs, 3 a task), partition, time, memory, account, log files"
grep -qxF "exec '$(readlink -f "$ventus_bin")' sweep '$tmp/slurm.ini' --store '$tmp/slurm.db' --task \"\$SLURM_ARRAY_TASK_ID\" --chunk 3 -j 1 --timeout 0" "$sc" &&
  ok "script: each task runs its chunk with this ventus" || bad "script exec line: $(grep '^exec' "$sc")"
"$ventus" sweep "$tmp/slurm.ini" --list | cut -d' ' -f1 >"$tmp/ids"
cmp -s "$tmp/ids" "$tmp/slurm.db.work/slurm/runs.txt" && ok "runs.txt lists the 4 runs" || bad "runs.txt differs from --list"
# the cluster's part, by hand: what sbatch would run on the nodes
for t in 0 1; do
  SLURM_ARRAY_TASK_ID=$t sh "$sc" >"$tmp/out" 2>&1 || bad "array task $t: $(head -1 "$tmp/out")"
done
"$ventus" sweep "$tmp/slurm.ini" --status >"$tmp/out" 2>&1
grep -q "4 runs: 0 recorded ok, 0 recorded failed, 4 finished on the cluster (--collect records them), 0 not yet" \
  "$tmp/out" && ok "--status: 4 finished on the cluster" || bad "--status: $(head -1 "$tmp/out")"
"$ventus" sweep "$tmp/slurm.ini" --collect --csv "$tmp/s.csv" >"$tmp/out" 2>&1
grep -q "4 results collected" "$tmp/out" && ok "--collect records 4 results" || bad "--collect: $(head -1 "$tmp/out")"
cols() { paste -d' ' <(csv_col "$1" id) <(csv_col "$1" status) <(csv_col "$1" cycles) <(csv_col "$1" warp_insns) | sort; }
cols "$tmp/a.csv" >"$tmp/local.rows"
cols "$tmp/s.csv" >"$tmp/slurm.rows"
[ -s "$tmp/slurm.rows" ] && cmp -s "$tmp/local.rows" "$tmp/slurm.rows" &&
  ok "the array's store = the local sweep's, row for row (ids, status, cycles)" ||
  bad "slurm rows: $(tr '\n' ';' <"$tmp/slurm.rows") local: $(tr '\n' ';' <"$tmp/local.rows")"
"$ventus" sweep "$tmp/slurm.ini" --slurm --no-submit >"$tmp/out" 2>&1
grep -q "nothing to submit" "$tmp/out" && ok "--slurm again: nothing to submit" || bad "resubmit: $(head -1 "$tmp/out")"
# submission through a stand-in sbatch (no cluster here)
mkdir -p "$tmp/bin"
printf '#!/bin/sh
echo "$@" >"%s/sbatch.args"
echo "4242;cl"
' "$tmp" >"$tmp/bin/sbatch"
chmod +x "$tmp/bin/sbatch"
sed -i 's/^num_sm = 1..2$/num_sm = 1..3/' "$tmp/slurm.ini"
PATH="$tmp/bin:$PATH" "$ventus" sweep "$tmp/slurm.ini" --slurm >"$tmp/out" 2>&1
if grep -q "2 runs as 2 Slurm array tasks" "$tmp/out" && grep -q "submitted as Slurm job 4242" "$tmp/out" &&
  [ "$(cat "$tmp/sbatch.args")" = "--parsable $sc" ]; then
  ok "--slurm submits the new runs only with sbatch --parsable (job 4242)"
else
  bad "submit: $(tr '\n' ' ' <"$tmp/out")"
fi
"$ventus" sweep "$tmp/slurm.ini" --status 2>&1 | grep -q "2 not yet; Slurm job 4242" && ok "--status names the job" ||
  bad "--status after submit: $("$ventus" sweep "$tmp/slurm.ini" --status 2>&1)"
# the job's tasks end; a local sweep records their results instead of running them
for t in 0 1; do SLURM_ARRAY_TASK_ID=$t sh "$sc" >/dev/null 2>&1; done
"$ventus" sweep "$tmp/slurm.ini" >"$tmp/out" 2>&1
grep -q "2 results of a Slurm job recorded" "$tmp/out" && grep -q "6 runs: 0 run now (0 failed), 6 already in the store" "$tmp/out" &&
  ok "a local sweep records a finished job's results, runs nothing" || bad "local after job: $(tr '\n' ' ' <"$tmp/out")"
printf '#!/bin/sh\n[ "$*" = "-h -r -j 4242 -o %%T" ] || exit 1\nprintf "PENDING\\nRUNNING\\nPENDING\\n"\n' >"$tmp/bin/squeue"
chmod +x "$tmp/bin/squeue"
PATH="$tmp/bin:$PATH" "$ventus" sweep "$tmp/slurm.ini" --status 2>&1 | grep -q "0 not yet; Slurm job 4242 (tasks: 2 PENDING, 1 RUNNING)" &&
  ok "--status counts the job's tasks with squeue" ||
  bad "--status with squeue: $(PATH="$tmp/bin:$PATH" "$ventus" sweep "$tmp/slurm.ini" --status 2>&1)"
sed -i 's/^num_sm = 1..3$/num_sm = 1..4/' "$tmp/slurm.ini" # new runs to submit
if ! command -v sbatch >/dev/null 2>&1; then
  expect 4 "sbatch not found in PATH: the job is written as $sc" "--slurm without sbatch" \
    "$ventus" sweep "$tmp/slurm.ini" --slurm
fi

# --- failures recorded, the others unharmed ------------------------------
cat >"$tmp/fail.ini" <<EOF2
[sweep]
name = fail
store = results/fail.db

[kernel vecadd]
asm = $lib/start.S $lib/workitem.S $src/kernels/examples/vecadd.S
run = $launch

[kernel fault]
asm = $lib/start.S $src/tests/cl/kernels/fault.S
run = --kernel fault --global 32 --local 32 --arg u32:0

[kernel spin]
asm = $lib/start.S $src/tests/cl/kernels/spin.S
run = --kernel spin --global 32 --local 32 --arg buf:i32:4 --max-steps 0

[axes]
num_sm = 1, 2

[point]
num_sm = 0
EOF2
mkdir -p "$tmp/results"
"$ventus" sweep "$tmp/fail.ini" --timeout 1 --quiet --json "$tmp/fail.json" --csv "$tmp/fail.csv" >"$tmp/out" 2>"$tmp/err"
rc=$?
[ $rc = 0 ] && [ ! -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && ok "sweep with failing runs: exit 0, --quiet says nothing" ||
  bad "failing sweep: exit $rc: $(head -2 "$tmp/out" "$tmp/err")"
paste -d'|' <(csv_col "$tmp/fail.csv" kernel) <(csv_col "$tmp/fail.csv" num_sm) <(csv_col "$tmp/fail.csv" status) \
  >"$tmp/st"
want="vecadd|1|ok vecadd|2|ok vecadd|0|error fault|1|fault fault|2|fault fault|0|error spin|1|timeout spin|2|timeout spin|0|error"
[ "$(tr '\n' ' ' <"$tmp/st")" = "$want " ] && ok "statuses: ok, fault, timeout, error (refused configuration)" ||
  bad "statuses: $(tr '\n' ' ' <"$tmp/st")"
grep -q '^[0-9a-f]*,fail,fault,fault,ventus run: unmapped access: 4-byte store at 0x00000000' "$tmp/fail.csv" &&
  ok "a fault is recorded with its error" || bad "fault error: $(grep ',fault,fault' "$tmp/fail.csv" | head -1)"
grep -q ',fail,spin,timeout,timed out after 1 s,' "$tmp/fail.csv" && ok "a timeout is recorded" ||
  bad "timeout error: $(grep ',spin,' "$tmp/fail.csv" | head -1)"
grep -q ',fail,vecadd,error,config error: num_sm' "$tmp/fail.csv" && ok "a refused configuration is recorded with why" ||
  bad "refused: $(grep ',vecadd,error' "$tmp/fail.csv" | head -1)"
if command -v python3 >/dev/null 2>&1; then
  python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == 9, len(rows)
ok = [r for r in rows if r["status"] == "ok"]
assert all(r["result"]["timing"]["cycles"] == r["cycles"] and r["config"]["num_sm"] == r["num_sm"] for r in ok)
assert all(r["result"] is None and r["error"] for r in rows if r["status"] != "ok")
' "$tmp/fail.json" 2>"$tmp/err" && ok "--json: 9 objects with the configuration and the result nested" ||
    bad "--json: $(tail -1 "$tmp/err")"
fi
"$ventus" sweep "$tmp/fail.ini" --timeout 1 --retry >"$tmp/out" 2>&1
grep -q "9 runs: 7 run now (7 failed), 2 already in the store" "$tmp/out" && ok "--retry runs the failed runs again" ||
  bad "--retry: $(head -1 "$tmp/out")"

# --- the example of docs/sweeps.md, pasted at the top of a source tree -----
mkdir -p "$tmp/doc"
ln -s "$src/kernels" "$tmp/doc/kernels"
ln -s "$src/configs" "$tmp/doc/configs"
awk '/^```ini$/ { on = 1; next } on && /^```$/ { exit } on' "$src/docs/sweeps.md" >"$tmp/doc/vecadd-sweep.ini"
"$ventus" sweep "$tmp/doc/vecadd-sweep.ini" --quiet --csv "$tmp/doc.csv" 2>"$tmp/err"
rc=$?
if [ $rc = 0 ] && [ "$(csv_col "$tmp/doc.csv" status | grep -c '^ok$')" = 13 ] &&
  [ "$(csv_col "$tmp/doc.csv" l1d_sets | sort -u | tr '\n' ' ')" = "32 64 " ]; then
  ok "the example of docs/sweeps.md: 13 runs ok on configs/verilog-rtl.cfg"
else
  bad "docs/sweeps.md example: exit $rc: $(head -1 "$tmp/err")"
fi

# --- a kernel that prints: its output kept apart from the statistics ------
cat >"$tmp/print.ini" <<EOF2
[kernel hello]
asm = $lib/start.S $lib/workitem.S $src/kernels/examples/hello.S
run = --kernel hello --global 8 --local 8 --threads 4
EOF2
"$ventus" sweep "$tmp/print.ini" --quiet --json "$tmp/print.json" 2>"$tmp/err"
if grep -q '"status": "ok"' "$tmp/print.json" && grep -qF '"output": "hello from work-group 0\u000a"' "$tmp/print.json" &&
  grep -q '"cycles": [0-9]' "$tmp/print.json"; then
  ok "a kernel's printf output goes to the output column, its statistics are read"
else
  bad "printing kernel: $(head -c 300 "$tmp/print.json") $(head -1 "$tmp/err")"
fi

# --- the issue's goal: 120 runs of corpus cases over 4 axes, each = by hand --
corp=$src/../shared/corpora/verilog-tc
if [ -d "$corp" ]; then
  {
    printf '[sweep]\nname = corpus\nconfig = %s/configs/verilog-rtl.cfg\ntimeout = 120\n' "$src"
    for c in bfs/4x8 gaussian/4x4 matadd/4w4t vecadd/4x8 vecadd/4w16t; do
      printf '[kernel %s]\ncase = %s/%s\n' "${c//\//_}" "$corp" "$c"
    done
    printf '[axes]\nnum_sm = 1, 2\nwarps_per_sm = 4, 8\nlat_dram = 30, 100\nl1d_sets = 16..64*2\n'
  } >"$tmp/corpus.ini"
  "$ventus" sweep "$tmp/corpus.ini" --quiet --csv "$tmp/corpus.csv" 2>"$tmp/err" || bad "corpus sweep: $(head -1 "$tmp/err")"
  paste -d' ' <(csv_col "$tmp/corpus.csv" kernel) <(csv_col "$tmp/corpus.csv" num_sm) \
    <(csv_col "$tmp/corpus.csv" warps_per_sm) <(csv_col "$tmp/corpus.csv" lat_dram) <(csv_col "$tmp/corpus.csv" l1d_sets) \
    <(csv_col "$tmp/corpus.csv" cycles) <(csv_col "$tmp/corpus.csv" status) >"$tmp/corpus.rows"
  n=0 bad_rows=0 i=0
  while read -r k sm w ld ls cyc st; do
    i=$((i + 1))
    # under valgrind every 12th run by hand is enough (each is a valgrind run)
    [ -n "${VT_VALGRIND:-}" ] && [ $((i % 12)) != 1 ] && continue
    "$ventus" run "$corp/${k/_//}" --config "$src/configs/verilog-rtl.cfg" -c num_sm="$sm" -c warps_per_sm="$w" \
      -c lat_dram="$ld" -c l1d_sets="$ls" --timing --json --quiet >"$tmp/hand.json" 2>/dev/null
    hc=$(grep -o '"timing":{"cycles": [0-9]*' "$tmp/hand.json" | grep -o '[0-9]*$')
    if [ "$st" = ok ] && [ -n "$hc" ] && [ "$hc" = "$cyc" ]; then n=$((n + 1)); else
      bad_rows=$((bad_rows + 1))
      [ $bad_rows -le 3 ] && bad "corpus $k num_sm=$sm warps_per_sm=$w lat_dram=$ld l1d_sets=$ls: $st $cyc, by hand ${hc:-?}"
    fi
  done <"$tmp/corpus.rows"
  [ "$(wc -l <"$tmp/corpus.rows")" = 120 ] && [ $bad_rows = 0 ] &&
    ok "120 corpus runs (5 cases x 4 axes): $n checked, the cycles of ventus run by hand" ||
    bad "corpus sweep: $(wc -l <"$tmp/corpus.rows") rows, $bad_rows differ"
else
  echo "note: $corp not found: the corpus sweep is skipped"
fi

# --- malformed descriptions: one line naming the line, exit 4 -------------
printf '[sweep]\nname = x\n[axes]\nnum_sm = 1..x\n' >"$tmp/bad.ini"
expect 4 "bad.ini:4: range '1..x': its ends must be integers" "bad range named with its line" \
  "$ventus" sweep "$tmp/bad.ini"
printf '[axes]\nnum_sm = 1\nwarps_per_sn = 4\n' >"$tmp/bad.ini"
expect 4 "bad.ini:3: unknown config key 'warps_per_sn'" "unknown configuration key" "$ventus" sweep "$tmp/bad.ini"
printf '[kernel k]\nelf = %s/none.elf\nrun = --kernel k\n' "$tmp" >"$tmp/bad.ini"
expect 4 "bad.ini:2: elf '$tmp/none.elf': No such file" "missing kernel file" "$ventus" sweep "$tmp/bad.ini"
printf '[axes]\nnum_sm = 1\n' >"$tmp/bad.ini"
expect 4 "no [kernel NAME] section" "no kernel" "$ventus" sweep "$tmp/bad.ini"
printf '[kernel k]\nasm = %s/kernels/examples/vecadd.S\nrun = --kernel vecadd\n' "$src" >"$tmp/bad.ini"
expect 4 "bad.ini:1: kernel k: assembling failed" "kernel that does not assemble" "$ventus" sweep "$tmp/bad.ini"
printf 'num_sm = 2\nbogus_key = 1\n' >"$tmp/badbase.cfg"
printf '[sweep]\nconfig = badbase.cfg\n[kernel v]\nelf = %s\nrun = --kernel vecadd\n' "$tmp/vecadd.elf" >"$tmp/bad.ini"
expect 4 "badbase.cfg:2: unknown config key 'bogus_key'" "a bad base configuration file: one error" \
  "$ventus" sweep "$tmp/bad.ini"
expect 2 "unknown option '--bogus'" "unknown option" "$ventus" sweep "$tmp/small.ini" --bogus
expect 2 "-j: expected 1..1024" "bad -j" "$ventus" sweep "$tmp/small.ini" -j 0
"$ventus" sweep --help >"$tmp/out" 2>&1 && grep -q "^usage: ventus sweep SPEC" "$tmp/out" && grep -q -- "--slurm" "$tmp/out" &&
  ok "--help" || bad "--help: $(head -1 "$tmp/out")"
printf 'not a database, not at all, but a text file long enough to be read\n%.0s' {1..200} >"$tmp/junk.db"
expect 4 "junk.db" "a store that is not SQLite" "$ventus" sweep "$tmp/small.ini" --store "$tmp/junk.db"

exit $fail
