#!/usr/bin/env bash
# `ventus run --timing`: the timing model leaves memory exactly as the
# functional loop does (every upstream case, the example kernels), reports
# cycles on the closing line and per-SM cycles, IPC and stalls under
# --stats and --json, and refuses bad timing keys with one line.
#   usage: bash test_run_timing.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail

# same_dump WHAT ARGS...: --dump in both modes, byte-identical
same_dump() {
  local what=$1
  shift
  if ! "$ventus" run -q "$@" --dump "$tmp/f.txt" >/dev/null 2>"$tmp/err"; then
    bad "$what: functional run failed: $(head -1 "$tmp/err")"
  elif ! "$ventus" run -q --timing "$@" --dump "$tmp/t.txt" >/dev/null 2>"$tmp/err"; then
    bad "$what: timed run failed: $(head -1 "$tmp/err")"
  elif ! cmp -s "$tmp/f.txt" "$tmp/t.txt"; then
    bad "$what: memory differs between functional and timing mode"
  else
    ok "$what: same memory in timing mode"
  fi
}

for k in vecadd diverge matmul reduce hello; do assemble_example "$k" "$tmp/$k.elf"; done
same_dump vecadd "$tmp/vecadd.elf" --kernel vecadd --global 1024 --local 64 \
  --arg buf:f32:1024:iota --arg buf:f32:1024:fill=0.5 --arg buf:f32:1024:zero --arg u32:1024
same_dump diverge "$tmp/diverge.elf" --kernel diverge --global 256 --local 32 \
  --arg buf:u32:256:rand=7 --arg buf:u32:256:zero --arg u32:250
same_dump matmul "$tmp/matmul.elf" --kernel matmul --global 16,12 --local 8,4 \
  --arg buf:i32:120:rand=3 --arg buf:i32:160:rand=4 --arg buf:i32:192:zero --arg u32:12 --arg u32:10 --arg u32:16
same_dump reduce "$tmp/reduce.elf" --kernel reduce --global 512 --local 64 --lds-size 0x4000 \
  --arg buf:i32:512:iota --arg buf:i32:8:zero --arg u32:512
same_dump hello "$tmp/hello.elf" --kernel hello --global 32 --local 8 --threads 4

corp=$src/../shared/corpora
if [ -d "$corp" ]; then
  n=0
  cases=("$corp"/verilog-tc/*/* "$corp"/rtlsim-multiwg/vecadd/*.metadata)
  # under valgrind one case per kernel is enough (the plain run covers all)
  [ -n "${VT_VALGRIND:-}" ] && cases=("$corp"/verilog-tc/*/4x8 "$corp"/verilog-tc/*/1w16t)
  for c in "${cases[@]}"; do
    [ -e "$c" ] || continue
    n=$((n + 1))
    same_dump "${c#"$corp"/}" -c warps_per_sm=32 "$c"
  done
  [ "$n" -ge 17 ] || [ -n "${VT_VALGRIND:-}" ] || bad "only $n corpus cases found"
  # the Verilog RTL's parameter set models fetch, MSHRs, the L2 and the flush
  vcases=("$corp"/verilog-tc/*/*)
  [ -n "${VT_VALGRIND:-}" ] && vcases=("$corp"/verilog-tc/bfs/4x8 "$corp"/verilog-tc/gaussian/4x4)
  for c in "${vcases[@]}"; do
    [ -e "$c" ] && same_dump "verilog-rtl.cfg: ${c#"$corp"/}" --config "$src/configs/verilog-rtl.cfg" "$c"
  done
  # ... and the Chisel one its front end; the Chisel RTL's bfs run (timing/);
  # not under valgrind, where the runs above cover the same code
  [ -n "${VT_VALGRIND:-}" ] && vcases=()
  for c in "${vcases[@]}"; do
    [ -e "$c" ] && same_dump "chisel-2025.cfg: ${c#"$corp"/}" --config "$src/configs/chisel-2025.cfg" "$c"
  done
  b=$corp/timing/cpp-simulator-bfs4x8/BFS_1_0.metadata
  if [ -e "$b" ] && [ -z "${VT_VALGRIND:-}" ]; then
    same_dump "${b#"$corp"/}" "$b"
    same_dump "verilog-rtl.cfg: ${b#"$corp"/}" --config "$src/configs/verilog-rtl.cfg" "$b"
  fi
else
  echo "SKIP: ../shared/corpora not found: the corpus part of this test did not run"
fi

# the report: closing line, --stats block, JSON
v=("$tmp/vecadd.elf" --kernel vecadd --global 256 --local 64 --arg buf:f32:256:iota --arg buf:f32:256:iota
   --arg buf:f32:256:zero --arg u32:256)
if "$ventus" run --timing "${v[@]}" 2>"$tmp/err" >/dev/null &&
  grep -Eq '^ventus run: .*: [0-9]+ warp-instructions in [1-9][0-9]* cycles \(IPC [0-9.]+\)$' "$tmp/err"; then
  ok "closing line with cycles and IPC"
else
  bad "closing line: $(cat "$tmp/err")"
fi
"$ventus" run -q --timing --stats "${v[@]}" >"$tmp/out" 2>&1
for key in '^# timing$' '^cycles = [1-9]' '^sm0\.ipc = ' '^sm1\.cycles = ' '^sm0\.stall_scoreboard = ' \
    '^sm0\.stall_memory = ' '^sm0\.stall_barrier = ' '^sm0\.stall_idle = ' '^sm0\.l1_misses = [1-9]'; do
  grep -Eq "$key" "$tmp/out" && ok "--stats has $key" || bad "--stats lacks $key"
done
# per SM: issued + every stall reason = cycles
awk -F' = ' '/^sm[0-9]+\./ { split($1, a, "."); k = a[2]; s = a[1]
  if (k == "cycles") c[s] = $2; else if (k == "issued" || k ~ /^stall_/) t[s] += $2 }
  END { for (s in c) if (c[s] != t[s]) { print s; bad = 1 } exit bad }' "$tmp/out" >"$tmp/sum" &&
  ok "issue and stall cycles add up to the cycles of each SM" || bad "cycles do not add up: $(cat "$tmp/sum")"
if "$ventus" run -q --timing --json "${v[@]}" >"$tmp/j" 2>/dev/null &&
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); t=j["timing"]; assert t["cycles"]>0 and len(t["sm"])==2 and "memory" in t["sm"][0]["stalls"] and j["config"]["timing"]==1' "$tmp/j"; then
  ok "--json has the timing object"
else
  bad "--json timing object: $(head -c 300 "$tmp/j")"
fi
"$ventus" run -q -c timing=1 "${v[@]}" --stats >"$tmp/out" 2>&1
grep -q '^# timing$' "$tmp/out" && ok "config key timing = 1 selects the model" || bad "timing = 1 ignored"

# --timeline: Chrome/Perfetto trace-event JSON of warp activity, per SM and slot
if "$ventus" run -q --timeline "$tmp/tl.json" --config "$src/configs/verilog-rtl.cfg" "${v[@]}" 2>"$tmp/err" &&
  python3 - "$tmp/tl.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
x = [e for e in ev if e["ph"] == "X"]
cats = {e["cat"] for e in x}
assert {"warp", "fetch", "memory", "launch"} <= cats, cats
warps = [e for e in x if e["cat"] == "warp"]
assert len(warps) == 8, len(warps)  # 256 items in groups of 64: 4 groups x 2 warps
assert all(e["dur"] > 0 and e["ts"] >= 0 and e["pid"] in (0, 1) for e in x if e["cat"] != "launch")
launch = [e for e in x if e["cat"] == "launch"][0]
assert all(e["ts"] + e["dur"] <= launch["dur"] for e in warps)
PY
then
  ok "--timeline writes trace events (warps, fetch misses, loads, the launch)"
else
  bad "--timeline: $(cat "$tmp/err")"
fi
"$ventus" run --help | grep -q -- '--timeline FILE' && ok "--help names --timeline" || bad "--help lacks --timeline"
expect 4 "$tmp/none/tl.json" "--timeline into a missing directory" \
  "$ventus" run --timeline "$tmp/none/tl.json" "${v[@]}"
expect 3 "step limit of 100 warp-instructions reached" "a failed timed run" \
  "$ventus" run --timeline "$tmp/tl2.json" --max-steps 100 "${v[@]}"
[ -e "$tmp/tl2.json" ] && bad "a failed run left a timeline behind" || ok "a failed run leaves no timeline"

# faults keep the functional mode's message and exit status
expect 3 "step limit of 100 warp-instructions reached [kernel 0 wg" "step limit under --timing" \
  "$ventus" run --timing --host-threads 1 --max-steps 100 "${v[@]}"
expect 3 "step limit of 100 warp-instructions reached by the timing launch's 2 host threads together" \
  "step limit under --timing on two threads" "$ventus" run --timing --host-threads 2 --max-steps 100 "${v[@]}"
expect 3 "address is in the padding after a buffer's requested size" "fault under --timing" \
  "$ventus" run --timing -c strict_bounds=1 "$tmp/vecadd.elf" --kernel vecadd --global 64 --local 64 \
  --arg buf:f32:4:iota --arg buf:f32:4:iota --arg buf:f32:4:zero --arg u32:64
expect 4 "lat_alu must be 1..100000 cycles" "lat_alu=0 refused" "$ventus" run --timing -c lat_alu=0 "${v[@]}"
expect 4 "l1d_sets must be a power of two" "l1d_sets=3 refused" "$ventus" run --timing -c l1d_sets=3 "${v[@]}"
expect 4 "timing must be 0 or 1" "timing=2 refused" "$ventus" run -c timing=2 "${v[@]}"
expect 4 "rf_banks must be 1..32" "rf_banks=0 refused" "$ventus" run --timing -c rf_banks=0 "${v[@]}"
expect 4 "collector_cycles must be 1..64" "collector_cycles=65 refused" \
  "$ventus" run --timing -c collector_cycles=65 "${v[@]}"
expect 4 "dma_bytes_per_cycle must be 1..4096" "dma_bytes_per_cycle=0 refused" \
  "$ventus" run --timing -c dma_bytes_per_cycle=0 "${v[@]}"
expect 4 "dma_queue must be 1..64" "dma_queue=65 refused" "$ventus" run --timing -c dma_queue=65 "${v[@]}"
expect 4 "fetch_policy must be 0 (greedy) or 1" "fetch_policy=2 refused" \
  "$ventus" run --timing -c fetch_policy=2 "${v[@]}"
expect 4 "l1i_sets must be a power of two, 0 (off), 1..65536" "l1i_sets=6 refused" \
  "$ventus" run --timing -c l1i_sets=6 "${v[@]}"
expect 4 "lds_through_l1d must be 0 or 1" "lds_through_l1d=2 refused" \
  "$ventus" run --timing -c lds_through_l1d=2 "${v[@]}"
expect 4 "idle_lanes_access must be 0 or 1" "idle_lanes_access=2 refused" \
  "$ventus" run --timing -c idle_lanes_access=2 "${v[@]}"
expect 4 "fetch_miss_next must be 0..4" "fetch_miss_next=5 refused" \
  "$ventus" run --timing -c fetch_miss_next=5 "${v[@]}"
expect 4 "l2_mshrs must be 1..1024" "l2_mshrs=0 refused" "$ventus" run --timing -c l2_mshrs=0 "${v[@]}"
expect 4 "ibuffer_depth must be num_fetch..64" "ibuffer_depth=1 refused" \
  "$ventus" run --timing -c ibuffer_depth=1 "${v[@]}"
# the modelled front end and memory system report their counters
"$ventus" run -q --timing --config "$src/configs/verilog-rtl.cfg" --stats "${v[@]}" >"$tmp/out" 2>&1
for key in '^sm0\.l1i_misses = [1-9]' '^sm0\.stall_fetch = [1-9]' '^l2_misses = [1-9]' '^dram_writes = [1-9]' \
    '^sm0\.coalescing = [0-9.]+$'; do
  grep -Eq "$key" "$tmp/out" && ok "verilog-rtl.cfg --stats has $key" || bad "verilog-rtl.cfg --stats lacks $key"
done
exit $fail
