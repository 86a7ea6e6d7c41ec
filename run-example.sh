#!/usr/bin/env bash
# The quick demo: builds chengying in build/, assembles the vecadd example
# kernel together with the start-up code, and runs it on the simulated GPGPU.
# Installs the Debian packages it needs when they are missing.
set -uo pipefail
cd "$(dirname "$0")"
. .ci/install-deps.sh

vt_install_deps cmake gcc make pkg-config libelf-dev libcmocka-dev || exit 1

mkdir -p build
log=build/run-example.log
echo "== building chengying in build/"
if ! cmake -S . -B build >"$log" 2>&1 || ! cmake --build build -j2 >>"$log" 2>&1; then
  tail -n 40 "$log"
  echo "build failed (full log: $log)"
  exit 1
fi

ventus=./build/ventus
elf=build/vecadd.elf
echo "== assembling start.S + workitem.S + vecadd.S -> $elf"
if ! "$ventus" as -o "$elf" kernels/lib/start.S kernels/lib/workitem.S kernels/examples/vecadd.S \
    2>"$log.as"; then
  cat "$log.as"
  if grep -q 'not built yet' "$log.as"; then
    echo "note: 'ventus as' is not part of this build yet; nothing more to show"
    exit 0
  fi
  exit 1
fi

echo "== disassembly (first lines)"
"$ventus" objdump "$elf" 2>&1 | head -n 16

# 1-D NDRange of 1024 work-items in groups of 64 (2 warps of 32 lanes);
# arguments as in the header of kernels/examples/vecadd.S, chosen so the
# result can be checked by eye: A = 0, 1, 2, ..., B = 0.5 everywhere, so
# C[i] = i + 0.5 (exact in fp32). --show 2:8 prints the first 8 elements of
# argument 2 (C); --expect-arg compares all of C with the values below.
expected=build/vecadd-expected.txt
awk 'BEGIN { for (i = 0; i < 1024; i++) printf "%.1f\n", i + 0.5 }' >"$expected"
echo "== running vecadd on the simulated GPGPU: C = A + B with A = 0,1,2,... and B = 0.5"
if "$ventus" run "$elf" --kernel vecadd --global 1024 --local 64 \
    --arg buf:f32:1024:iota --arg buf:f32:1024:fill=0.5 --arg buf:f32:1024:zero --arg u32:1024 \
    --show 2:8 --expect-arg 2="$expected"; then
  echo "vecadd: 1024 results match A + B"
else
  echo "vecadd: the results do not match A + B"
  exit 1
fi
