# Sourced by fuzz/smoke.sh and fuzz/long.sh: the fuzz build and its targets.
# kmeta and clapi need the OpenCL headers, clc also LLVM 19 (a build without
# them has no binary for the target: smoke.sh counts it as skipped)
FUZZ_TARGETS="decode asm elf testvec config trace exec sweep kmeta clapi clc"
FUZZ_CC=${FUZZ_CC:-clang-19}

# fuzz_have_toolchain: clang-19 with libFuzzer (installs the Debian packages
# when missing and possible); prints why not and fails otherwise
fuzz_have_toolchain() {
  if ! command -v "$FUZZ_CC" >/dev/null 2>&1 ||
    ! echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
      "$FUZZ_CC" -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1; then
    if [ "$FUZZ_CC" = clang-19 ] && declare -F vt_install_deps >/dev/null; then
      vt_install_deps clang-19 libclang-rt-19-dev >/dev/null 2>&1 || true
    fi
  fi
  command -v "$FUZZ_CC" >/dev/null 2>&1 &&
    echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { return 0; }' |
    "$FUZZ_CC" -x c -fsanitize=fuzzer -o /dev/null - >/dev/null 2>&1
}

# fuzz_build DIR: configures and builds the targets and seeds in DIR
fuzz_build() {
  local dir=$1
  mkdir -p "$dir"
  cmake -S . -B "$dir" -DVT_FUZZ=ON -DCMAKE_C_COMPILER="$FUZZ_CC" >"$dir/fuzz-build.log" 2>&1 &&
    cmake --build "$dir" -j2 --target fuzz_all >>"$dir/fuzz-build.log" 2>&1
}

# fuzz_inputs DIR TARGET: the seed directories and dictionary options of TARGET
fuzz_inputs() {
  local dir=$1 t=$2 d
  for d in "fuzz/regress/$t" "fuzz/seeds/$t" "$dir/fuzz/seeds/$t"; do
    [ -d "$d" ] && printf '%s\n' "$d"
  done
  case $t in
  asm) printf '%s\n' kernels/examples kernels/lib tests/asm ;;
  clc) printf '%s\n' tests/cc/kernels bench/opencl fuzz/kernels ;; # the compiler's, the bench's and the harnesses' kernels, in place
  esac
}
fuzz_dict() {
  local dir=$1 t=$2
  case $t in
  asm)
    cat "$dir/fuzz/seeds/asm.dict" fuzz/dict/asm_directives.dict >"$dir/fuzz/asm-all.dict"
    echo "-dict=$dir/fuzz/asm-all.dict"
    ;;
  config | trace | testvec | clc) echo "-dict=fuzz/dict/$t.dict" ;;
  esac
}

# fuzz_stat LOG NAME: a libFuzzer final statistic (-print_final_stats=1)
fuzz_stat() { sed -nE "s/^stat::$2: +([0-9]+).*/\1/p" "$1" | tail -n 1; }
# fuzz_covft LOG: "cov ft" of the last status line (grep -a: a log with
# bytes of an input in it is still text to us, not "binary file matches")
fuzz_covft() {
  grep -aE '^#[0-9]+.*cov: [0-9]+ ft: [0-9]+' "$1" | tail -n 1 |
    sed -E 's/.*cov: ([0-9]+) ft: ([0-9]+).*/\1 \2/'
}
# fuzz_failure LOG: what went wrong, one line ("" if nothing): the first
# sanitizer/libFuzzer error, after the harness's own message when it printed one
fuzz_failure() {
  local err msg
  err=$(grep -am1 -E '^(==[0-9]+== ?ERROR: |.*runtime error: )' "$1" | sed -E 's/^==[0-9]+== ?//')
  [ -z "$err" ] && return 0
  msg=$(grep -am1 -B1 -E '^==[0-9]+== ?ERROR: ' "$1" | head -n 1 |
    grep -avE '^(#[0-9]+|INFO:|MS:|==|\s)' || true)
  echo "${msg:+$msg: }$err"
}
