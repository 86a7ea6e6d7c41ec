#!/usr/bin/env bash
# A test vector (every buffer writable and executable, docs/simulator.md §6)
# gets the parallel launcher: exported from an ELF, it runs on two host
# threads, functional and timed, with the memory of one thread, and timed
# with the same cycles and statistics (issue 23 item 1).
#   usage: bash test_testvec_threads.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@" # ventus, src, tmp, fail

"$ventus" as -o "$tmp/mm.elf" "$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S" \
  "$src/kernels/examples/matmul.S" 2>"$tmp/err" || { echo "FAIL assembling"; cat "$tmp/err"; exit 1; }
"$ventus" run "$tmp/mm.elf" --kernel matmul --global 32,32 --local 16,8 --arg buf:i32:1024:iota \
  --arg buf:i32:1024:iota --arg buf:i32:1024 --arg u32:32 --arg u32:32 --arg u32:32 \
  --export-testvec "$tmp/tv" >/dev/null 2>"$tmp/err" || { echo "FAIL exporting"; cat "$tmp/err"; exit 1; }

# run N MODE...: the test vector on N host threads; $tmp/out.N holds the dump, $tmp/json.N the statistics
run() {
  local n=$1
  shift
  "$ventus" run "$tmp/tv" --host-threads "$n" "$@" --dump "$tmp/dump.$n" --json >"$tmp/json.$n" 2>"$tmp/err" ||
    { bad "run on $n threads $*: exit $?"; sed 's/^/  | /' "$tmp/err" | head -3; }
}
# the statistics without the keys that name the threads
stats() { sed 's/"host_threads": [0-9]*//; s/"parallel_launches": [0-9]*//' "$tmp/json.$1"; }
for mode in functional timing; do
  args=()
  [ $mode = timing ] && args=(--timing)
  run 1 "${args[@]}"
  run 2 "${args[@]}"
  if ! grep -q '"parallel_launches": 1' "$tmp/json.2"; then bad "$mode: not parallel on two threads"
  elif ! cmp -s "$tmp/dump.1" "$tmp/dump.2"; then bad "$mode: memory differs between one and two threads"
  elif [ $mode = timing ] && [ "$(stats 1)" != "$(stats 2)" ]; then bad "$mode: statistics or cycles differ"
  else ok "$mode: a test vector runs on two host threads with the one-thread result"; fi
done
exit $fail
