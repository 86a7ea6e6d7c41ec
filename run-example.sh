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
"$ventus" objdump "$elf" 2>&1 | head -n 24

# >>>>>>>>>> `ventus run` LINE: finalise the options here <<<<<<<<<<
# 1-D NDRange of 1024 work-items in groups of 64 (2 warps of 32); arguments
# as in the header of kernels/examples/vecadd.S: A = 0,1,2,... B = random,
# C = result, n = 1024. Skipped while `ventus run` is not in this build.
if "$ventus" run --help >/dev/null 2>&1; then
  echo "== running vecadd on the simulated GPGPU"
  "$ventus" run "$elf" --kernel vecadd --global 1024 --local 64 \
    --arg buf:f32:1024:iota --arg buf:f32:1024:rand=1 --arg buf:f32:1024:zero --arg u32:1024 \
    --stats || exit 1
else
  echo "note: 'ventus run' is not part of this build yet; assembled and disassembled only"
fi
