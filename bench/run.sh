#!/bin/sh
# Builds bench_sim (Release, in build-bench/) and runs it with the default
# workloads and repetitions; extra arguments go to bench_sim
# (e.g. ./bench/run.sh --json, ./bench/run.sh --only stream --reps 9).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-bench"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
make -C "$build" -j"$(nproc)" bench_sim >/dev/null
exec "$build/bench/bench_sim" "$@"
