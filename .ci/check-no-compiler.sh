#!/usr/bin/env bash
# The suite with the OpenCL C compiler left out (-DVT_WITH_CC=OFF, as on a
# machine where llvm-19-dev could not be installed): every test that needs
# the compiler must skip with a notice, never fail. Builds in build-nocc/
# and runs the tests (not the valgrind copies, nor the slow ones that need
# no compiler); exits non-zero if any failed.
#   usage: .ci/check-no-compiler.sh
set -uo pipefail
cd "$(dirname "$0")/.."
dir=build-nocc
log=$dir/check-no-compiler.log
mkdir -p "$dir"
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DVT_WITH_CC=OFF >"$log" 2>&1 &&
  cmake --build "$dir" -j2 >>"$log" 2>&1 || { tail -n 30 "$log"; echo "build failed ($log)"; exit 1; }
grep -q "NOTICE: LLVM 19" "$log" || { echo "the compiler was not left out"; exit 1; }
# the fast tests, then the slow ones that need the compiler
cd "$dir" && ctest -j2 -LE "slow|valgrind" --output-on-failure && ctest -j2 -L slow -R "cc_" --output-on-failure
