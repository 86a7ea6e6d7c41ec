#!/usr/bin/env bash
# Builds chengying and runs every test, twice: a normal build in build/ and an
# AddressSanitizer/UBSan build in build-san/; then the fast tests of build/
# once more under valgrind memcheck, and the fuzz smoke stage (fuzz/smoke.sh,
# build-fuzz/). Installs the Debian packages it needs when they are missing.
# Ends with a line "N passed, N failed, N skipped" and exits non-zero if
# anything failed.
set -uo pipefail
cd "$(dirname "$0")"
. .ci/install-deps.sh

vt_install_deps cmake gcc make pkg-config libelf-dev libcmocka-dev llvm-19 \
  ocl-icd-opencl-dev opencl-c-headers ocl-icd-dev clinfo ||
  { echo "0 passed, 1 failed"; exit 1; }
# optional: qemu-riscv32 for test_diff_qemu (about 13 MB download, 105 MB
# installed); without it that test is skipped
vt_install_deps qemu-user || echo "qemu-user not installed: test_diff_qemu will be skipped"
# optional: piglit's OpenCL API tests against our platform (about 2 GB
# installed); without it cli_test_cl_piglit is skipped
vt_install_deps piglit || echo "piglit not installed: cli_test_cl_piglit will be skipped"
# optional: the OpenCL C compiler (ventus cc) builds on LLVM 19's C API and
# runs clang-19; without them it and its tests (tests/cc) are skipped
vt_install_deps llvm-19-dev clang-19 ||
  echo "llvm-19-dev/clang-19 not installed: the OpenCL C compiler and tests/cc will be skipped"
# optional: Debian's libclc (nvptx bitcode) is where ventus cc takes the
# float math library from (sin, exp, pow, ...); without it those builtins
# are refused and test_cc_kernels skips its math test
vt_install_deps libclc-19 || echo "libclc-19 not installed: the math test of test_cc_kernels will be skipped"
# optional: Verilator, which builds the Verilog RTL of ../shared/reference
# into a model (tools/rtl/ventus-rtl; a few minutes once, cached); without it
# cli_test_rtl_harness skips
vt_install_deps verilator || echo "verilator not installed: cli_test_rtl_harness will be skipped"
# optional: ventus sweep keeps its results in SQLite (libsqlite3-dev);
# without it the command is not built and cli_test_sweep is skipped
vt_install_deps libsqlite3-dev || echo "libsqlite3-dev not installed: ventus sweep and cli_test_sweep will be skipped"
# optional: a one-node Slurm cluster for ventus sweep --slurm, started and
# stopped by the test itself on private ports (the packages' own services
# are not used); without them cli_test_sweep_slurm skips
vt_install_deps munge slurmctld slurmd slurm-client ||
  echo "munge/slurmctld/slurmd/slurm-client not installed: cli_test_sweep_slurm will be skipped"

passed=0
failed=0
skipped=0

# run_suite <build dir> [cmake options...]
run_suite() {
  local dir=$1
  shift
  local log="$dir/run-tests.log"
  mkdir -p "$dir"
  echo "== $dir: configure and build"
  if ! cmake -S . -B "$dir" "$@" >"$log" 2>&1 || ! cmake --build "$dir" -j2 >>"$log" 2>&1; then
    tail -n 40 "$log"
    echo "== $dir: BUILD FAILED (full log: $log)"
    failed=$((failed + 1))
    return 1
  fi
  run_ctest "$dir" -LE valgrind
  return 0
}

# run_ctest <build dir> [ctest options...]: runs the tests and counts them
run_ctest() {
  local dir=$1
  shift
  echo "== $dir: ctest $*"
  local out
  out=$(cd "$dir" && ctest --output-on-failure "$@" 2>&1)
  echo "$out" | grep -Ev '^(Test project|\s*$|\s*Start +[0-9]+:|Total Test time)'
  # "100% tests passed, 0 tests failed out of 7"
  local line total bad
  line=$(echo "$out" | grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' | tail -n 1)
  if [ -n "$line" ]; then
    total=$(echo "$line" | sed -E 's/.*out of ([0-9]+).*/\1/')
    bad=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/')
    skip=$(echo "$out" | grep -c '(Skipped)' || true)
    passed=$((passed + total - bad - skip))
    failed=$((failed + bad))
    skipped=$((skipped + skip))
  elif ! echo "$out" | grep -q 'No tests were found'; then
    failed=$((failed + 1)) # ctest itself failed
  fi
}

# valgrind copies of the fast tests (label valgrind) exist when valgrind does
valgrind=OFF
if vt_install_deps valgrind && command -v valgrind >/dev/null 2>&1; then
  valgrind=ON
else
  echo "valgrind not installed: the valgrind stage is skipped"
  skipped=$((skipped + 1))
fi

run_suite build -DVT_VALGRIND_TESTS=$valgrind || valgrind=OFF # (no binaries to run)
run_suite build-san -DVT_SANITIZE=ON

# ---- valgrind: the fast tests of build/ under memcheck (CMakeLists.txt,
# VT_VALGRIND_TESTS); any report fails its test. -j2: valgrind is slow.
if [ $valgrind = ON ]; then
  run_ctest build -L valgrind -j2
fi

# ---- fuzz smoke stage: fuzz/smoke.sh builds build-fuzz/ (clang-19, libFuzzer)
# and runs each fuzz target about 20 s; each target is one test (a crash,
# leak or timeout fails it); without clang-19 the stage is skipped, visibly
mkdir -p build-fuzz
fuzz_log=build-fuzz/smoke-stage.log
echo "== build-fuzz: fuzz smoke stage"
fuzz/smoke.sh 2>&1 | tee "$fuzz_log" | grep -v -E '^[0-9]+ passed, [0-9]+ failed'
fuzz_line=$(grep -E '^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$fuzz_log" | tail -n 1)
if [ -n "$fuzz_line" ]; then
  read -r fp _ ff _ fs _ <<<"${fuzz_line//,/}"
  passed=$((passed + fp))
  failed=$((failed + ff))
  skipped=$((skipped + fs))
else
  failed=$((failed + 1)) # the stage itself broke
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
