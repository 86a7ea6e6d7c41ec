#!/usr/bin/env bash
# The same launches from an ELF and as a test vector (the upstream format,
# whose loader maps every buffer writable and executable): seconds of the
# launch, i.e. the median wall time of REPS whole `ventus run`s minus the
# median of REPS runs stopped at their first instruction (-c max_steps=1:
# reading and loading the input), runs taken alternately; and G
# thread-instructions per second of launch (docs/performance.md, issue 23
# item 1).
#   usage: bench/launch-paths.sh VENTUS [REPS] [HOST_THREADS] [VENTUS_BEFORE]
# With VENTUS_BEFORE, every run of VENTUS is paired with one of it (the
# test vectors are exported once, by VENTUS).
set -eu
ventus=$1 reps=${2:-5} threads=${3:-1} before=${4:-}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=("$src/kernels/lib/start.S" "$src/kernels/lib/workitem.S")

# name | kernel source | ventus run arguments
cases=(
  "alu_loop|bench/kernels/alu_loop.S|--kernel alu_loop --global 16384 --local 256 --arg buf:u32:16384:iota --arg buf:u32:16384 --arg u32:16384 --arg u32:20000"
  "matmul|kernels/examples/matmul.S|--kernel matmul --global 256,256 --local 16,8 --arg buf:i32:65536:iota --arg buf:i32:65536:iota --arg buf:i32:65536 --arg u32:256 --arg u32:256 --arg u32:256"
  "vecadd|kernels/examples/vecadd.S|--kernel vecadd --global 4194304 --local 256 --arg buf:f32:4194304:iota --arg buf:f32:4194304:iota --arg buf:f32:4194304 --arg u32:4194304"
)

secs() { # VENTUS ARGS...: wall seconds of one run (a load-only one may fail)
  local t0 t1 rc=0
  t0=$(date +%s.%N)
  "$@" --host-threads "$threads" >/dev/null 2>&1 || rc=$?
  t1=$(date +%s.%N)
  case " $* " in *" max_steps=1 "*) ;; *) [ $rc = 0 ] || { echo "FAIL: $*" >&2; exit 1; } ;; esac
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

printf '%-10s %14s %-6s %10s %8s %10s %8s\n' case thread-insns path "s" "G/s" "before s" "G/s"
for c in "${cases[@]}"; do
  IFS='|' read -r name ksrc args <<<"$c"
  read -ra A <<<"$args"
  "$ventus" as -o "$tmp/$name.elf" "${lib[@]}" "$src/$ksrc"
  insns=$("$ventus" run "$tmp/$name.elf" "${A[@]}" --export-testvec "$tmp/$name.tv" --json 2>/dev/null |
    grep -o '"thread_insns": [0-9]*' | head -1 | grep -o '[0-9]*$')
  for path in elf tv; do
    if [ $path = elf ]; then run=("$tmp/$name.elf" "${A[@]}"); else run=("$tmp/$name.tv"); fi
    for f in now before now0 before0; do : >"$tmp/$f"; done
    for _ in $(seq "$reps"); do
      secs "$ventus" run "${run[@]}" >>"$tmp/now"
      secs "$ventus" run "${run[@]}" -c max_steps=1 >>"$tmp/now0"
      [ -z "$before" ] || secs "$before" run "${run[@]}" >>"$tmp/before"
      [ -z "$before" ] || secs "$before" run "${run[@]}" -c max_steps=1 >>"$tmp/before0"
    done
    s=$(echo "$(median <"$tmp/now") - $(median <"$tmp/now0")" | bc -l)
    b=$([ -z "$before" ] && echo - || echo "$(median <"$tmp/before") - $(median <"$tmp/before0")" | bc -l)
    rate() { [ "$1" = - ] && echo - || echo "$insns / $1 / 1000000000" | bc -l | xargs printf '%.2f'; }
    printf '%-10s %14s %-6s %10.3f %8s %10s %8s\n' "$name" "$insns" "$path" "$s" "$(rate "$s")" \
      "$([ "$b" = - ] && echo - || printf '%.3f' "$b")" "$(rate "$b")"
  done
done
