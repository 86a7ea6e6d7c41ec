#!/usr/bin/env bash
# `ventus sweep --slurm` on a real one-node Slurm cluster (docs/sweeps.md,
# "On a Slurm cluster"): the script starts munged, slurmctld and slurmd of
# Debian's packages on this machine with a generated slurm.conf (private
# ports, state and sockets in a scratch directory; stopped at exit), then:
#   - a sweep of 24 runs (two vecadd launches and a faulting kernel over
#     4 x 2 configurations, one run over its per-run time limit) goes to the
#     cluster as job arrays in two steps (a resumed sweep: the second
#     submission holds only the runs the first did not), and the store it
#     gives equals, row for row, the same sweep run locally;
#   - a run the cluster kills at the job's --time limit is left unrecorded
#     and `--slurm` submits just it again;
#   - a malformed description is one error naming its line, and submits
#     nothing.
# Skipped with a notice where the Slurm and munge packages are not
# installed (run-tests.sh installs them) or we are not root (slurmd must
# run as root to start jobs).
#   usage: bash test_sweep_slurm.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail
src=$(cd "$src" && pwd) # the descriptions name files by absolute path

if "$ventus" sweep --help 2>&1 | grep -q "not built"; then
  echo "SKIP: ventus sweep not built (no SQLite)"
  exit 0
fi
for c in munged munge slurmctld slurmd sbatch squeue scontrol sinfo; do
  if ! command -v "$c" >/dev/null 2>&1; then
    echo "SKIP: $c not found: the one-node Slurm cluster test needs Debian's munge, slurmctld, slurmd" \
      "and slurm-client (run-tests.sh installs them)"
    exit 0
  fi
done
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP: not root: slurmd must run as root to start the test's jobs"
  exit 0
fi
if [ -n "${VT_VALGRIND:-}" ]; then
  echo "SKIP: under valgrind (the cluster's tasks run ventus outside it)"
  exit 0
fi

# ---- the cluster ---------------------------------------------------------
cl=$tmp/cluster
mkdir -p "$cl/state" "$cl/spool" "$cl/log" "$cl/munge"
chmod 700 "$cl/munge"
head -c 1024 /dev/urandom >"$cl/munge/key"
chmod 600 "$cl/munge/key"
pids=()
stop_cluster() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null; done
}
trap 'rc=$?; stop_cluster; (exit $rc); cli_exit' EXIT

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=$((20000 + ($$ % 20000) * 2))
while ! port_free "$port" || ! port_free $((port + 1)); do port=$((port + 2)); done
host=$(hostname -s)
cat >"$cl/slurm.conf" <<EOF
ClusterName=cytest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$cl/munge/socket
CredType=cred/munge
StateSaveLocation=$cl/state
SlurmdSpoolDir=$cl/spool
SlurmctldPidFile=$cl/slurmctld.pid
SlurmdPidFile=$cl/slurmd.pid
SlurmctldLogFile=$cl/log/slurmctld.log
SlurmdLogFile=$cl/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
KillWait=2
OverTimeLimit=0
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc)
PartitionName=batch Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$cl/slurm.conf
munged -F -f -S "$cl/munge/socket" --key-file="$cl/munge/key" --log-file="$cl/log/munged.log" \
  --pid-file="$cl/munge/pid" --seed-file="$cl/munge/seed" >"$cl/log/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$cl/munge/socket" ] && break; sleep 0.1; done
slurmctld -D -f "$cl/slurm.conf" >"$cl/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$cl/slurm.conf" >"$cl/log/slurmd.out" 2>&1 &
pids+=($!)
up=""
for _ in $(seq 60); do
  if sinfo -h -o %T 2>/dev/null | grep -qx idle; then up=1; break; fi
  sleep 0.5
done
if [ -z "$up" ]; then
  bad "the one-node cluster did not come up in 30 s: $(tail -n 3 "$cl"/log/*.log 2>/dev/null | tr '\n' ' ')"
  exit 1
fi
ok "one-node Slurm cluster up (slurmctld, slurmd, munged on ports $port-$((port + 1)))"

# wait_runs SPEC SECONDS: until `--status` says no run is still to come from
# the cluster (1 at once when it fails, or after SECONDS)
wait_runs() {
  local i
  for i in $(seq $(($2 * 2))); do
    "$ventus" sweep "$1" --status >"$tmp/status" 2>&1 || return 1
    grep -q " 0 not yet" "$tmp/status" && return 0
    sleep 0.5
  done
  return 1
}
csv_col() {
  awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next } { print $c }' "$1"
}
rows() { paste -d' ' <(csv_col "$1" id) <(csv_col "$1" kernel) <(csv_col "$1" status) <(csv_col "$1" cycles) \
  <(csv_col "$1" warp_insns) | sort; }

lib="$src/kernels/lib"
# ---- a run the cluster kills at the job's time limit (submitted first: it
# takes the limit's minute; the rest goes on beside it on the other CPU) ----
cat >"$tmp/spin.ini" <<EOF
[sweep]
name = spin

[kernel spin]
asm = $lib/start.S $src/tests/cl/kernels/spin.S
run = --kernel spin --global 32 --local 32 --arg buf:i32:4 --max-steps 0
EOF
"$ventus" sweep "$tmp/spin.ini" --slurm --time 1 >"$tmp/out" 2>&1
spin_job=$(sed -n 's/.*submitted as Slurm job \([0-9]*\).*/\1/p' "$tmp/out")
[ -n "$spin_job" ] && ok "a never-ending run submitted with --time 1 (job $spin_job)" ||
  bad "spin submit: $(tr '\n' ' ' <"$tmp/out")"

# ---- the sweep: 24 runs, as two job arrays --------------------------------
launch="--kernel vecadd --local 64 --arg buf:f32:1024:iota --arg buf:f32:1024:fill=0.5 --arg buf:f32:1024 --arg u32:1024"
cat >"$tmp/grid.ini" <<EOF
# two vecadd launches and a faulting kernel over num_sm x warps_per_sm
[sweep]
name = grid

[kernel vecadd]
asm = $lib/start.S $lib/workitem.S $src/kernels/examples/vecadd.S
run = $launch --global 1024

[kernel vecadd_small]
asm = $lib/start.S $lib/workitem.S $src/kernels/examples/vecadd.S
run = $launch --global 256

[kernel fault]
asm = $lib/start.S $src/tests/cl/kernels/fault.S
run = --kernel fault --global 32 --local 32 --arg u32:0

[axes]
num_sm = 1..2
warps_per_sm = 4, 8
EOF
"$ventus" sweep "$tmp/grid.ini" --slurm --chunk 2 >"$tmp/out" 2>&1
if grep -q "12 runs as 6 Slurm array tasks" "$tmp/out" && grep -q "submitted as Slurm job" "$tmp/out"; then
  ok "12 runs submitted as one array of 6 tasks"
else
  bad "first submit: $(tr '\n' ' ' <"$tmp/out")"
fi
wait_runs "$tmp/grid.ini" 120 && ok "the array's tasks finished" || bad "first array: $(cat "$tmp/status")"
"$ventus" sweep "$tmp/grid.ini" --collect >"$tmp/out" 2>&1
grep -q "12 results collected" "$tmp/out" && ok "--collect records 12 results" || bad "collect: $(head -1 "$tmp/out")"
# the sweep grows; only the new runs go to the cluster
sed -i 's/^num_sm = 1..2$/num_sm = 1..4/' "$tmp/grid.ini"
"$ventus" sweep "$tmp/grid.ini" --slurm >"$tmp/out" 2>&1
grep -q "12 runs as 12 Slurm array tasks" "$tmp/out" && ok "resumed: the 12 new runs only" ||
  bad "second submit: $(tr '\n' ' ' <"$tmp/out")"
wait_runs "$tmp/grid.ini" 120 && ok "the second array finished" || bad "second array: $(cat "$tmp/status")"
"$ventus" sweep "$tmp/grid.ini" --collect --csv "$tmp/cluster.csv" >"$tmp/out" 2>&1
grep -q "12 results collected" "$tmp/out" && ok "--collect records the other 12" || bad "collect 2: $(head -1 "$tmp/out")"
# the same description swept locally into another store
"$ventus" sweep "$tmp/grid.ini" --store "$tmp/local.db" -j 1 --quiet --csv "$tmp/local.csv" >"$tmp/out" 2>&1 ||
  bad "local sweep: $(head -1 "$tmp/out")"
rows "$tmp/cluster.csv" >"$tmp/cluster.rows"
rows "$tmp/local.csv" >"$tmp/local.rows"
if [ "$(wc -l <"$tmp/cluster.rows")" = 24 ] && cmp -s "$tmp/cluster.rows" "$tmp/local.rows"; then
  ok "the cluster's store = the local sweep's, row for row (24 runs: id, status, cycles, warp-instructions)"
else
  bad "cluster rows differ: $(diff "$tmp/local.rows" "$tmp/cluster.rows" | head -4 | tr '\n' ';')"
fi
[ "$(grep -c ' fault fault ' "$tmp/cluster.rows")" = 8 ] && [ "$(grep -c ' ok ' "$tmp/cluster.rows")" = 16 ] &&
  ok "16 runs ok, the 8 faulting ones recorded as faults" || bad "statuses: $(cut -d' ' -f2,3 "$tmp/cluster.rows" | sort | uniq -c | tr '\n' ';')"

# ---- a per-run time limit on the nodes ------------------------------------
sed 's/^name = spin$/name = spin2/' "$tmp/spin.ini" >"$tmp/spin2.ini"
"$ventus" sweep "$tmp/spin2.ini" --slurm --timeout 1 >"$tmp/out" 2>&1 || bad "spin2 submit: $(head -1 "$tmp/out")"
wait_runs "$tmp/spin2.ini" 60 && "$ventus" sweep "$tmp/spin2.ini" --collect --csv "$tmp/spin2.csv" >/dev/null 2>&1
[ "$(csv_col "$tmp/spin2.csv" status 2>/dev/null)" = timeout ] && ok "--timeout 1 on the cluster: the run is recorded as timeout" ||
  bad "per-run timeout on the cluster: $(cat "$tmp/spin2.csv" 2>/dev/null | tr '\n' ';')"

# ---- a malformed description submits nothing ------------------------------
before=$(squeue -h -o %i | wc -l)
printf '[sweep]\nname = bad\n[axes]\nnum_sm = 1..\n' >"$tmp/bad.ini"
expect 4 "bad.ini:4:" "a malformed description: one error naming its line" "$ventus" sweep "$tmp/bad.ini" --slurm
[ "$(squeue -h -o %i | wc -l)" = "$before" ] && [ ! -d "$tmp/bad.db.work" ] && ok "... and nothing submitted" ||
  bad "a malformed description left a job or files"

# ---- the issue's goal: the 120-run corpus sweep of test_sweep.sh (5 cases x
# 4 axes) through the cluster gives the local store (while the never-ending
# job holds the other CPU) ----------------------------------------------------
corp=$src/../shared/corpora/verilog-tc
if [ -d "$corp" ]; then
  {
    printf '[sweep]\nname = corpus\nconfig = %s/configs/verilog-rtl.cfg\ntimeout = 120\n' "$src"
    for c in bfs/4x8 gaussian/4x4 matadd/4w4t vecadd/4x8 vecadd/4w16t; do
      printf '[kernel %s]\ncase = %s/%s\n' "${c//\//_}" "$corp" "$c"
    done
    printf '[axes]\nnum_sm = 1, 2\nwarps_per_sm = 4, 8\nlat_dram = 30, 100\nl1d_sets = 16..64*2\n'
  } >"$tmp/corpus.ini"
  "$ventus" sweep "$tmp/corpus.ini" --slurm --chunk 10 >"$tmp/out" 2>&1 || bad "corpus submit: $(head -1 "$tmp/out")"
  "$ventus" sweep "$tmp/corpus.ini" --store "$tmp/corpus-local.db" -j 1 --quiet --csv "$tmp/corpus-local.csv" \
    >"$tmp/out" 2>&1 || bad "corpus local: $(head -1 "$tmp/out")"
  wait_runs "$tmp/corpus.ini" 300 && "$ventus" sweep "$tmp/corpus.ini" --collect --csv "$tmp/corpus.csv" >/dev/null 2>&1
  rows "$tmp/corpus.csv" >"$tmp/corpus.rows" 2>/dev/null
  rows "$tmp/corpus-local.csv" >"$tmp/corpus-local.rows"
  if [ "$(wc -l <"$tmp/corpus.rows")" = 120 ] && [ "$(grep -c ' ok ' "$tmp/corpus.rows")" = 120 ] &&
    cmp -s "$tmp/corpus.rows" "$tmp/corpus-local.rows"; then
    ok "the 120-run corpus sweep (12 array tasks of 10) = the same sweep run locally, row for row"
  else
    bad "corpus through the cluster: $(wc -l <"$tmp/corpus.rows") rows; $(diff "$tmp/corpus-local.rows" "$tmp/corpus.rows" | head -3 | tr '\n' ';')"
  fi
else
  echo "note: $corp not found: the corpus sweep through the cluster is skipped"
fi

# ---- the job killed at its time limit -------------------------------------
state=""
for _ in $(seq 240); do
  [ -n "$spin_job" ] || break
  state=$(scontrol show job "$spin_job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -1)
  case $state in TIMEOUT | FAILED | CANCELLED | COMPLETED) break ;; esac
  sleep 0.5
done
[ "$state" = TIMEOUT ] && ok "the never-ending run's job ended at its time limit (JobState=TIMEOUT)" ||
  bad "spin job state: ${state:-unknown} after 120 s"
"$ventus" sweep "$tmp/spin.ini" --status >"$tmp/out" 2>&1
grep -q "1 runs: 0 recorded ok, 0 recorded failed, 0 finished on the cluster (--collect records them), 1 not yet" \
  "$tmp/out" && ok "--status: the killed run is not recorded" || bad "status after kill: $(head -1 "$tmp/out")"
"$ventus" sweep "$tmp/spin.ini" --slurm --no-submit >"$tmp/out" 2>&1
grep -q "1 runs as 1 Slurm array tasks" "$tmp/out" && ok "--slurm again would submit just the killed run" ||
  bad "resubmit after kill: $(tr '\n' ' ' <"$tmp/out")"
exit $fail
