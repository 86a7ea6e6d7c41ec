#!/usr/bin/env bash
# A compiled kernel gives the same memory, bit for bit, through `ventus run`
# (the ELF of `ventus cc`) and through the OpenCL platform (the same .cl
# built by clBuildProgram, and the same ELF by clCreateProgramWithBinary):
# every buffer argument, inputs included, after one launch of each kernel
# (float arithmetic, divergent loops, __local memory with barriers). The
# OpenCL side is cl_run_dump (tests/cl/tools), beside ventus in the build.
#   usage: bash test_cc_run_vs_cl.sh <ventus binary> <source dir>
set -u
. "$(dirname "$0")/lib.sh" "$@"
build=$(dirname "$ventus_bin")
[ -x "$build/cl_run_dump" ] && [ -e "$build/icd/chengying.icd" ] ||
  { echo "SKIP: no OpenCL platform or ICD loader in this build"; exit 0; }
command -v clang-19 >/dev/null 2>&1 || { echo "SKIP: clang-19 not installed"; exit 0; }
# a build without the compiler (no llvm-19-dev when it was configured) skips too
printf 'kernel void k(global int *a) { a[0] = 1; }\n' >"$tmp/probe.cl"
if ! "$ventus_bin" cc -o "$tmp/probe.elf" "$tmp/probe.cl" 2>"$tmp/err" &&
  grep -q "no OpenCL C compiler\|cannot run the OpenCL C front end" "$tmp/err"; then
  echo "SKIP: ventus cc is not available in this build: $(cat "$tmp/err")"
  exit 0
fi
export OCL_ICD_VENDORS="$build/icd"
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=0 # cl_run_dump is no sanitizer build
k=$src/tests/cc/kernels

# inputs: N words of a fixed pattern (perl's pack: the same bytes on every host)
N=256
perl -e 'print pack("f*", map { (($_ * 7919) % 2001 - 1000) / 64 } 0..255)' >"$tmp/fa"
perl -e 'print pack("f*", map { (($_ * 104729) % 1999 - 999) / 16 } 0..255)' >"$tmp/fb"
perl -e 'print pack("L*", map { ($_ * 2654435761) % 100003 } 0..255)' >"$tmp/u"
perl -e 'print pack("l*", map { ($_ * 40503) % 65537 - 32768 } 0..255)' >"$tmp/i"

# same FILE KERNEL LOCAL ARG...: both runs, their words compared
same() {
  local file=$1 kernel=$2 local=$3
  shift 3
  local runargs=() a
  for a in "$@"; do runargs+=(--arg "$a"); done
  if ! "$ventus" cc -o "$tmp/$file.elf" "$k/$file.cl" 2>"$tmp/err"; then
    bad "$file.cl: ventus cc failed: $(head -n 3 "$tmp/err")"
    return
  fi
  if ! "$ventus" run "$tmp/$file.elf" --kernel "$kernel" --global $N --local "$local" "${runargs[@]}" \
      --dump "$tmp/run.dump" --quiet 2>"$tmp/err"; then
    bad "$kernel: ventus run failed: $(head -n 3 "$tmp/err")"
    return
  fi
  awk '{print $2}' "$tmp/run.dump" >"$tmp/run.words"
  local via
  for via in "$k/$file.cl" "$tmp/$file.elf"; do
    if ! timeout 120 "$build/cl_run_dump" "$via" "$kernel" $N "$local" "$@" >"$tmp/cl.words" 2>"$tmp/err"; then
      bad "$kernel: cl_run_dump ${via##*/} failed: $(head -n 3 "$tmp/err")"
    elif [ ! -s "$tmp/run.words" ]; then
      bad "$kernel: ventus run dumped nothing"
    elif cmp -s "$tmp/run.words" "$tmp/cl.words"; then
      ok "$kernel: $(wc -l <"$tmp/run.words") words the same through ventus run and OpenCL (${via##*/})"
    else
      bad "$kernel: ventus run and OpenCL (${via##*/}) differ; first difference:"
      diff "$tmp/run.words" "$tmp/cl.words" | head -n 4
    fi
  done
}

same arith float_ops 64 "buf:file=$tmp/fa" "buf:file=$tmp/fb" buf:zero:$((40 * N)) u32:$((N - 3))
same arith int_ops 32 "buf:file=$tmp/i" "buf:file=$tmp/u" buf:zero:$((40 * N)) u32:$N
same control collatz 64 "buf:file=$tmp/u" buf:zero:$((4 * N)) u32:$((N - 1))
same memory reduce_local 64 "buf:file=$tmp/i" buf:zero:$((4 * N / 64))

# the comparison can fail: a different input gives different words
perl -e 'print pack("L*", map { ($_ * 2654435761 + 1) % 100003 } 0..255)' >"$tmp/u2"
"$ventus" run "$tmp/control.elf" --kernel collatz --global $N --local 64 --arg "buf:file=$tmp/u2" \
  --arg buf:zero:$((4 * N)) --arg u32:$((N - 1)) --dump "$tmp/other.dump" --quiet
"$build/cl_run_dump" "$tmp/control.elf" collatz $N 64 "buf:file=$tmp/u" buf:zero:$((4 * N)) u32:$((N - 1)) >"$tmp/cl.words"
awk '{print $2}' "$tmp/other.dump" | cmp -s - "$tmp/cl.words" && bad "other inputs gave the same words" ||
  ok "other inputs give other words"

# cl_run_dump's own usage errors: one line, status 2
"$build/cl_run_dump" "$tmp/control.elf" collatz $N 64 bogus:1 >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && ok "bad ARG spec: $(cat "$tmp/err")" ||
  bad "bad ARG spec: status $rc, $(cat "$tmp/err")"
exit $fail
